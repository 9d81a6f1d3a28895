//! `cairn mcp --stdio`: MCP over stdio for desktop clients, bridged to a remote Cairn's `/mcp`.
//!
//! Each JSON-RPC line read from stdin is POSTed to `<url>/mcp` with the tenant key, and every JSON-RPC
//! message of the answer is written to stdout, one per line; logs go to stderr. The retry policy is
//! AutoMem's MCP client's: network errors and 5xx are retried 3 times after 0.5 s, 1 s and 2 s; 4xx are
//! never retried; a call gets 25 s in all, retries included, so it answers inside Claude Desktop's 30 s.
//! A request that still fails gets a JSON-RPC error naming the cause, so the client never waits on a
//! dropped call.
//!
//! Hand-written rather than rmcp's client transport: that transport needs reqwest 0.13, a second HTTP
//! stack in the production binary, and a bridge only forwards messages it never interprets.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use backon::{ExponentialBuilder, Retryable};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, RwLock};

/// How long one call may take, retries included.
pub const TIMEOUT: Duration = Duration::from_secs(25);
/// The delay before the first retry; each further one doubles it (0.5 s, 1 s, 2 s).
pub const FIRST_RETRY: Duration = Duration::from_millis(500);
/// Retries after the first attempt.
pub const RETRIES: usize = 3;
/// JSON-RPC error code for a request the remote service could not answer.
const UPSTREAM_ERROR: i64 = -32000;

/// Forwards JSON-RPC messages to one remote `/mcp`.
#[derive(Clone)]
pub struct Bridge {
    client: reqwest::Client,
    endpoint: String,
    key: Arc<SecretString>,
    /// The protocol version `initialize` negotiated, sent on later requests.
    protocol: Arc<RwLock<Option<String>>>,
    first_retry: Duration,
    retries: usize,
    timeout: Duration,
}

/// Why an attempt failed.
#[derive(Debug)]
struct Failure {
    retryable: bool,
    message: String,
}

impl Bridge {
    /// A bridge to the Cairn at `base_url` (its `/mcp`) with AutoMem's retry policy.
    pub fn new(base_url: &str, key: SecretString) -> anyhow::Result<Self> {
        Self::with_policy(base_url, key, TIMEOUT, FIRST_RETRY, RETRIES)
    }

    /// As [`Bridge::new`] with another time budget per call and retry schedule (tests).
    pub fn with_policy(
        base_url: &str,
        key: SecretString,
        timeout: Duration,
        first_retry: Duration,
        retries: usize,
    ) -> anyhow::Result<Self> {
        let base = base_url.trim_end_matches('/');
        let endpoint = if base.ends_with("/mcp") { base.to_owned() } else { format!("{base}/mcp") };
        let client = reqwest::Client::builder().timeout(timeout).build().context("building the HTTP client")?;
        Ok(Self { client, endpoint, key: Arc::new(key), protocol: Arc::default(), first_retry, retries, timeout })
    }

    async fn attempt(&self, message: &Value) -> Result<Vec<Value>, Failure> {
        let mut request = self
            .client
            .post(&self.endpoint)
            .bearer_auth(self.key.expose_secret())
            .header("Accept", "application/json, text/event-stream")
            .json(message);
        if let Some(version) = self.protocol.read().await.as_deref() {
            request = request.header("MCP-Protocol-Version", version);
        }
        let response = request
            .send()
            .await
            .map_err(|e| Failure { retryable: true, message: format!("cannot reach {}: {e}", self.endpoint) })?;
        let status = response.status();
        let sse = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let text = response.text().await.map_err(|e| Failure {
            retryable: true,
            message: format!("reading the answer of {}: {e}", self.endpoint),
        })?;
        if !status.is_success() {
            let detail = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v["message"].as_str().map(str::to_owned))
                .unwrap_or_else(|| text.chars().take(300).collect());
            return Err(Failure {
                retryable: status.is_server_error(),
                message: format!("Cairn answered {}: {detail}", status.as_u16()),
            });
        }
        let payloads: Vec<&str> = match sse {
            true => {
                text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).filter(|d| !d.is_empty()).collect()
            }
            false => vec![text.as_str()].into_iter().filter(|t| !t.trim().is_empty()).collect(),
        };
        let mut messages = Vec::new();
        for payload in payloads {
            match serde_json::from_str::<Value>(payload) {
                Ok(Value::Array(batch)) => messages.extend(batch),
                Ok(one) => messages.push(one),
                Err(e) => {
                    return Err(Failure {
                        retryable: false,
                        message: format!("Cairn answered something that is not JSON-RPC: {e}"),
                    })
                }
            }
        }
        Ok(messages)
    }

    /// Sends one message, retrying per the policy; the JSON-RPC messages to hand back to the client (an
    /// error response for a request that could not be delivered, nothing for a notification).
    pub async fn forward(&self, message: &Value) -> Vec<Value> {
        let retry = ExponentialBuilder::default()
            .with_min_delay(self.first_retry)
            .with_factor(2.0)
            .with_max_times(self.retries);
        let attempts = (|| self.attempt(message))
            .retry(retry)
            .when(|f: &Failure| f.retryable)
            .notify(|f: &Failure, after: Duration| {
                tracing::warn!(error = %f.message, retry_in_ms = after.as_millis() as u64, "MCP call failed; retrying")
            });
        let outcome = tokio::time::timeout(self.timeout, attempts).await.unwrap_or_else(|_| {
            Err(Failure {
                retryable: false,
                message: format!("no answer from {} within {} s", self.endpoint, self.timeout.as_secs_f32()),
            })
        });
        match outcome {
            Ok(replies) => {
                if message["method"] == "initialize" {
                    let version =
                        replies.iter().find_map(|r| r["result"]["protocolVersion"].as_str().map(str::to_owned));
                    *self.protocol.write().await = version;
                }
                replies
            }
            Err(failure) => {
                tracing::error!(error = %failure.message, method = %message["method"], "MCP call failed");
                match message.get("id") {
                    Some(id) if !id.is_null() => vec![json!({"jsonrpc": "2.0", "id": id,
                        "error": {"code": UPSTREAM_ERROR, "message": failure.message}})],
                    _ => Vec::new(), // a notification or response: nobody waits for an answer
                }
            }
        }
    }
}

/// Serves MCP on stdin/stdout until stdin closes. Messages are forwarded concurrently; answers are written
/// whole, one per line, as they arrive.
pub async fn run(bridge: Bridge) -> anyhow::Result<()> {
    let (tx, mut rx) = mpsc::channel::<Value>(64);
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(message) = rx.recv().await {
            let mut line = message.to_string();
            line.push('\n');
            if stdout.write_all(line.as_bytes()).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut calls = tokio::task::JoinSet::new();
    while let Some(line) = lines.next_line().await.context("reading stdin")? {
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(e) => {
                let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("parse error: {e}")}});
                let _ = tx.send(error).await;
                continue;
            }
        };
        let (bridge, tx) = (bridge.clone(), tx.clone());
        // `initialize` must finish before anything else is sent: later requests carry its protocol version.
        if message["method"] == "initialize" {
            for reply in bridge.forward(&message).await {
                let _ = tx.send(reply).await;
            }
            continue;
        }
        calls.spawn(async move {
            for reply in bridge.forward(&message).await {
                let _ = tx.send(reply).await;
            }
        });
    }
    while calls.join_next().await.is_some() {}
    drop(tx);
    let _ = writer.await;
    Ok(())
}
