//! What every OpenAI-compatible endpoint Cairn calls has in common (embeddings, chat): a base URL with its
//! version, an optional bearer key, per-request timeouts, and retries with exponential backoff and jitter
//! on 429, 5xx and transport errors (a 429's `Retry-After` is honoured). Other 4xx are not retried: they
//! will not get better.

use std::time::Duration;

use anyhow::Context;
use backon::{ExponentialBuilder, Retryable};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One OpenAI-compatible server.
pub struct Endpoint {
    client: reqwest::Client,
    base_url: String,
    api_key: Option<SecretString>,
    retries: usize,
    /// What the endpoint is for, in messages ("embedding", "chat").
    what: &'static str,
}

/// Why a request failed, and whether trying again could help (a transport error, 429 or 5xx: what may pass);
/// the error [`Endpoint::post`] returns, so that callers can tell a passing failure from a lasting one.
#[derive(Debug)]
pub struct Failure {
    pub retryable: bool,
    retry_after: Option<Duration>,
    message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl Failure {
    /// Whether `err` is, or was caused by, a failure that may pass.
    pub fn may_pass(err: &anyhow::Error) -> bool {
        err.chain().any(|e| e.downcast_ref::<Self>().is_some_and(|f| f.retryable))
    }
}

impl Endpoint {
    /// `retries` are retries after the first attempt.
    pub fn new(
        base_url: &str,
        api_key: Option<SecretString>,
        timeout: Duration,
        retries: usize,
        what: &'static str,
    ) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder().timeout(timeout).build().context("building the HTTP client")?;
        Ok(Self { client, base_url: base_url.trim_end_matches('/').to_owned(), api_key, retries, what })
    }

    async fn attempt<T: DeserializeOwned>(&self, url: &str, body: &Value) -> Result<T, Failure> {
        let what = self.what;
        let mut req = self.client.post(url).json(body);
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key.expose_secret());
        }
        // Messages reach tenants (a memory's `embedding_error`, job errors): no URL, no provider text. Both go
        // to the log, where operators find them by the request or job.
        let res = req.send().await.map_err(|e| {
            tracing::warn!(%url, error = %e, "{what} request failed");
            Failure {
                retryable: true,
                retry_after: None,
                message: format!("{what} request failed: {}", e.without_url()),
            }
        })?;
        let status = res.status();
        if !status.is_success() {
            let retry_after = res
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .map(|s| Duration::from_secs(s.min(60)));
            let text: String = res.text().await.unwrap_or_default().chars().take(300).collect();
            tracing::warn!(%url, %status, answer = %text, "{what} server refused a request");
            return Err(Failure {
                retryable: status.as_u16() == 429 || status.is_server_error(),
                retry_after,
                message: format!("{what} server answered {status}"),
            });
        }
        res.json().await.map_err(|e| {
            tracing::warn!(%url, error = %e, "unreadable {what} response");
            Failure {
                retryable: false,
                retry_after: None,
                message: format!("unreadable {what} response: {}", e.without_url()),
            }
        })
    }

    /// POSTs `body` as JSON to `{base_url}/{path}` and parses the answer, retrying what may pass.
    pub async fn post<T: DeserializeOwned>(&self, path: &str, body: &Value) -> anyhow::Result<T> {
        let url = format!("{}/{path}", self.base_url);
        let backoff = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(200))
            .with_max_delay(Duration::from_secs(20))
            .with_max_times(self.retries)
            .with_jitter();
        let what = self.what;
        (|| self.attempt(&url, body))
            .retry(backoff)
            .when(|f: &Failure| f.retryable)
            // Only the delay of a planned retry changes: None (retries used up) stays None.
            .adjust(|f: &Failure, planned| planned.map(|p| f.retry_after.unwrap_or(p)))
            .notify(|f: &Failure, wait| tracing::warn!(error = %f, ?wait, "{what} request failed; retrying"))
            .await
            .map_err(anyhow::Error::new)
    }
}
