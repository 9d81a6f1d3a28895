//! SHODH's reply shapes (seed 004) that MCP's `proactive_context` answers too.

use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::Memory;

/// A recalled memory: the memory and its scores.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoredMemory {
    #[serde(flatten)]
    pub memory: Memory,
    /// Semantic similarity to the query, 0..=1 (0 when found by keywords or association only).
    pub similarity_score: f64,
    /// The combined score used for ranking, 0..=1.
    pub relevance_score: f64,
}

impl From<crate::recall::RecallHit> for ScoredMemory {
    fn from(hit: crate::recall::RecallHit) -> Self {
        Self {
            similarity_score: hit.score_components.semantic.unwrap_or(0.0),
            relevance_score: hit.score,
            memory: hit.memory.into(),
        }
    }
}

/// What proactive context surfaced (and stored).
#[derive(Debug, Serialize, ToSchema)]
pub struct ContextResponse {
    pub surfaced_memories: Vec<ScoredMemory>,
    pub count: usize,
    /// Whether the context was stored (false when it was already stored or `auto_ingest` is off).
    pub ingested: bool,
    /// The Conversation memory holding the context (the existing one when it was already stored).
    pub ingested_id: Option<Uuid>,
}

impl From<crate::service::recall::Surfaced> for ContextResponse {
    fn from(s: crate::service::recall::Surfaced) -> Self {
        let surfaced: Vec<ScoredMemory> = s.hits.into_iter().map(ScoredMemory::from).collect();
        Self { count: surfaced.len(), surfaced_memories: surfaced, ingested: s.ingested, ingested_id: s.ingested_id }
    }
}
