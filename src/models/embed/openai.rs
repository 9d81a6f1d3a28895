//! An OpenAI-compatible `/v1/embeddings` client (OpenAI, Ollama, vLLM, TEI, LM Studio...): batches, and
//! the timeouts and retries of [`crate::models::endpoint`]; answers are checked for count and dimension.

use anyhow::{bail, Context};
use serde::Deserialize;
use serde_json::json;

use super::{EmbedFuture, Embedder};
use crate::config::OpenAiConfig;
use crate::models::endpoint::Endpoint;

pub struct OpenAiEmbedder {
    endpoint: Endpoint,
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

impl OpenAiEmbedder {
    pub fn new(config: OpenAiConfig) -> anyhow::Result<Self> {
        anyhow::ensure!(config.batch > 0, "the embedding batch size must be positive");
        let endpoint =
            Endpoint::new(&config.base_url, config.api_key.clone(), config.timeout, config.retries, "embedding")?;
        Ok(Self { endpoint, config })
    }

    async fn request(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        let mut body = json!({"model": self.config.model, "input": texts, "encoding_format": "float"});
        if let Some(d) = self.config.dimensions {
            body["dimensions"] = json!(d);
        }
        let response: Response = self.endpoint.post("embeddings", &body).await?;
        self.order(response, texts.len())
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
                out.extend(self.request(chunk).await?);
            }
            Ok(out)
        })
    }
}
