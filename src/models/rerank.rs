//! An optional rerank stage: a cross-encoder behind any Cohere/Jina-compatible (`{"query", "documents",
//! "top_n", "model"}` → `{"results": [{"index", "relevance_score"}]}`) or TEI-compatible (`{"query", "texts"}`
//! → `[{"index", "score"}]`) `/rerank` endpoint. No retries: recall never waits long for it, and a failure
//! keeps the fused order.

use anyhow::Context;
use serde::Deserialize;
use serde_json::{json, Value};

use super::endpoint::Endpoint;
use crate::config::{RerankApi, RerankConfig};

/// A cross-encoder reranker.
pub struct Reranker {
    endpoint: Endpoint,
    config: RerankConfig,
}

#[derive(Deserialize)]
struct Scored {
    index: usize,
    #[serde(alias = "relevance_score")]
    score: f64,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Answer {
    Cohere { results: Vec<Scored> },
    Tei(Vec<Scored>),
}

impl Reranker {
    pub fn new(config: RerankConfig) -> anyhow::Result<Self> {
        let endpoint = Endpoint::new(&config.base_url, config.api_key.clone(), config.timeout, 0, "rerank")
            .context("the reranker's client")?;
        Ok(Self { endpoint, config })
    }

    /// How many results to rerank.
    pub fn top_n(&self) -> usize {
        self.config.top_n.max(1)
    }

    /// Each document's relevance to `query`, by document index (documents the endpoint left out get none).
    pub async fn scores(&self, query: &str, documents: &[&str]) -> anyhow::Result<Vec<Option<f64>>> {
        let body = match self.config.api {
            RerankApi::Cohere => {
                let mut body = json!({"query": query, "documents": documents, "top_n": documents.len()});
                if let Some(model) = &self.config.model {
                    body["model"] = Value::String(model.clone());
                }
                body
            }
            RerankApi::Tei => json!({"query": query, "texts": documents, "truncate": true}),
        };
        let answer: Answer = self.endpoint.post("rerank", &body).await?;
        let scored = match answer {
            Answer::Cohere { results } | Answer::Tei(results) => results,
        };
        let mut out = vec![None; documents.len()];
        for s in scored {
            anyhow::ensure!(
                s.index < documents.len(),
                "the reranker answered index {} of {}",
                s.index,
                documents.len()
            );
            anyhow::ensure!(s.score.is_finite(), "the reranker answered a score that is not a number");
            out[s.index] = Some(s.score);
        }
        Ok(out)
    }
}
