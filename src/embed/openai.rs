//! An OpenAI-compatible `/v1/embeddings` client (OpenAI, Ollama, vLLM, TEI, LM Studio...): batches,
//! per-request timeouts, and retries with exponential backoff on 429, 5xx and transport errors (a 429's
//! `Retry-After` is honoured). Other 4xx are not retried: they will not get better.

use std::time::Duration;

use anyhow::{bail, Context};
use backon::{ExponentialBuilder, Retryable};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::json;

use super::{EmbedFuture, Embedder};

/// Settings of an OpenAI-compatible embedder.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// Base URL including the version, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
    pub base_url: String,
    pub api_key: Option<SecretString>,
    pub model: String,
    /// Requested dimensions (sent as `dimensions`; None: the model's own).
    pub dimensions: Option<usize>,
    /// The dimension every returned vector must have.
    pub expected_dim: usize,
    /// Texts per request.
    pub batch: usize,
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: usize,
}

pub struct OpenAiEmbedder {
    client: reqwest::Client,
    config: OpenAiConfig,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    embedding: Vec<f32>,
    index: usize,
}

/// Why a request failed, and whether trying again could help.
#[derive(Debug)]
struct Failure {
    retryable: bool,
    retry_after: Option<Duration>,
    message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl OpenAiEmbedder {
    pub fn new(config: OpenAiConfig) -> anyhow::Result<Self> {
        anyhow::ensure!(config.batch > 0, "the embedding batch size must be positive");
        let client = reqwest::Client::builder().timeout(config.timeout).build().context("building the HTTP client")?;
        Ok(Self { client, config })
    }

    async fn request(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, Failure> {
        let url = format!("{}/embeddings", self.config.base_url.trim_end_matches('/'));
        let mut body = json!({"model": self.config.model, "input": texts, "encoding_format": "float"});
        if let Some(d) = self.config.dimensions {
            body["dimensions"] = json!(d);
        }
        let mut req = self.client.post(&url).json(&body);
        if let Some(key) = &self.config.api_key {
            req = req.bearer_auth(key.expose_secret());
        }
        let res = req.send().await.map_err(|e| Failure {
            retryable: true,
            retry_after: None,
            message: format!("embedding request to {url} failed: {e}"),
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
            return Err(Failure {
                retryable: status.as_u16() == 429 || status.is_server_error(),
                retry_after,
                message: format!("embedding server answered {status}: {text}"),
            });
        }
        let parsed: Response = res.json().await.map_err(|e| Failure {
            retryable: false,
            retry_after: None,
            message: format!("unreadable embedding response: {e}"),
        })?;
        self.order(parsed, texts.len()).map_err(|e| Failure {
            retryable: false,
            retry_after: None,
            message: format!("{e:#}"),
        })
    }

    /// The vectors in input order, checked for count and dimension.
    fn order(&self, response: Response, expected: usize) -> anyhow::Result<Vec<Vec<f32>>> {
        if response.data.len() != expected {
            bail!("the embedding server returned {} vectors for {expected} texts", response.data.len());
        }
        let mut out: Vec<Option<Vec<f32>>> = vec![None; expected];
        for item in response.data {
            if item.embedding.len() != self.config.expected_dim {
                bail!(
                    "the embedding server returned {}-dimensional vectors; the deployment expects {}",
                    item.embedding.len(),
                    self.config.expected_dim
                );
            }
            let slot =
                out.get_mut(item.index).with_context(|| format!("embedding index {} out of range", item.index))?;
            *slot = Some(item.embedding);
        }
        out.into_iter().enumerate().map(|(i, v)| v.with_context(|| format!("no embedding for input {i}"))).collect()
    }

    async fn request_with_retries(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        let backoff = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(200))
            .with_max_delay(Duration::from_secs(20))
            .with_max_times(self.config.retries)
            .with_jitter();
        (|| self.request(texts))
            .retry(backoff)
            .when(|f: &Failure| f.retryable)
            // Only the delay of a planned retry changes: None (retries used up) stays None.
            .adjust(|f: &Failure, planned| planned.map(|p| f.retry_after.unwrap_or(p)))
            .notify(|f: &Failure, wait| tracing::warn!(error = %f, ?wait, "embedding request failed; retrying"))
            .await
            .map_err(|f| anyhow::anyhow!(f.message))
    }
}

impl Embedder for OpenAiEmbedder {
    fn model(&self) -> &str {
        &self.config.model
    }

    fn dimension(&self) -> usize {
        self.config.expected_dim
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(texts.len());
            for chunk in texts.chunks(self.config.batch) {
                out.extend(self.request_with_retries(chunk).await?);
            }
            Ok(out)
        })
    }
}
