//! AutoMem's reply shapes (seed 000): what its routes at the root answer, and what the MCP tools answer
//! too, since those are AutoMem's tools (`store_memory`, `recall_memory`, `delete_memory`).

use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Expansion, Memory, ScoreComponents};
use crate::models::embed::SlotState;
use crate::service::memories::{BatchOutcome, StoreOutcome};

/// Milliseconds since `started`, to one decimal (AutoMem's `query_time_ms`).
pub fn millis(started: Instant) -> f64 {
    (started.elapsed().as_secs_f64() * 1e4).round() / 10.0
}

/// A memory's embedding in AutoMem's vocabulary (`qdrant` / `embedding_status`).
fn embedding_word(embedder: &SlotState, memory: &crate::memory::Memory) -> &'static str {
    match (memory.embedding_status.as_str(), embedder) {
        ("ready", _) => "stored",
        ("failed", _) => "failed",
        (_, SlotState::Disabled) => "unconfigured",
        _ => "queued",
    }
}

/// A memory as AutoMem shows it: every native field, plus `timestamp` and `last_accessed`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AutoMemMemory {
    #[serde(flatten)]
    pub memory: Memory,
    /// The memory's own time (`created_at`).
    pub timestamp: DateTime<Utc>,
    pub last_accessed: Option<DateTime<Utc>>,
}

impl From<crate::memory::Memory> for AutoMemMemory {
    fn from(memory: crate::memory::Memory) -> Self {
        Self { timestamp: memory.created_at, last_accessed: memory.last_accessed_at, memory: memory.into() }
    }
}

/// A page of memories as AutoMem shows them.
pub type AutoMemMemoryList = super::MemoryPage<AutoMemMemory>;

/// `201` of `POST /memory` (and `200` with `deduplicated: true` for content already stored).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "memory_id": "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    "stored_at": "2025-01-15T10:30:00Z", "type": "Decision", "confidence": 0.9, "qdrant": "queued",
    "embedding_status": "queued", "enrichment": "queued", "metadata": {}, "timestamp": "2025-01-15T10:30:00Z",
    "updated_at": "2025-01-15T10:30:00Z", "last_accessed": "2025-01-15T10:30:00Z", "query_time_ms": 12.5}))]
pub struct Stored {
    pub status: &'static str,
    pub memory_id: Uuid,
    pub stored_at: DateTime<Utc>,
    #[serde(rename = "type")]
    pub kind: String,
    pub confidence: f32,
    /// `stored` (vector supplied), `queued` (being embedded), `failed`, or `unconfigured` (no embedder).
    pub qdrant: &'static str,
    /// Same as `qdrant`.
    pub embedding_status: &'static str,
    /// `queued`, or `complete` for a deduplicated memory already enriched.
    pub enrichment: &'static str,
    #[schema(value_type = Object)]
    pub metadata: Value,
    pub timestamp: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_accessed: DateTime<Utc>,
    pub query_time_ms: f64,
    /// Set (true) when the content was already stored: `memory_id` is the existing memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deduplicated: Option<bool>,
    /// Set when content over the soft limit was summarised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarized: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_length: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarized_length: Option<i32>,
}

impl Stored {
    pub fn new(embedder: &SlotState, outcome: &StoreOutcome, started: Instant) -> Self {
        let m = outcome.memory();
        let embedding = embedding_word(embedder, m);
        Self {
            status: "success",
            memory_id: m.id,
            stored_at: m.updated_at,
            kind: m.kind.clone(),
            confidence: m.confidence,
            qdrant: embedding,
            embedding_status: embedding,
            enrichment: if m.enrichment_status == "pending" { "queued" } else { "complete" },
            metadata: m.metadata.clone(),
            timestamp: m.created_at,
            updated_at: m.updated_at,
            last_accessed: m.last_accessed_at.unwrap_or(m.updated_at),
            query_time_ms: millis(started),
            deduplicated: matches!(outcome, StoreOutcome::Existing(_)).then_some(true),
            summarized: m.summarized.then_some(true),
            original_length: m.original_length,
            summarized_length: m.summarized_length,
        }
    }
}

/// `201` of `POST /memory/batch`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "stored": 2, "memory_ids": ["abc-123", "def-456"],
    "qdrant": "queued (2)", "enrichment": "queued", "query_time_ms": 45.2}))]
pub struct AutoMemBatchStored {
    pub status: &'static str,
    /// Memories written (items that repeated stored content are not counted).
    pub stored: usize,
    /// Each item's memory id in request order; a repeated item has the existing memory's id.
    pub memory_ids: Vec<Uuid>,
    /// `queued (N)` (being embedded), `stored (N)` or `unconfigured`.
    pub qdrant: String,
    pub enrichment: &'static str,
    pub query_time_ms: f64,
    /// Indexes of items whose content was already stored (or repeated an earlier item).
    pub deduplicated: Vec<usize>,
}

impl AutoMemBatchStored {
    pub fn new(embedder: &SlotState, outcome: BatchOutcome, started: Instant) -> Self {
        let queued = outcome.stored.iter().filter(|m| m.embedding_status == "pending").count();
        let qdrant = match embedder {
            _ if queued == 0 && !outcome.stored.is_empty() => format!("stored ({})", outcome.stored.len()),
            SlotState::Disabled => "unconfigured".to_owned(),
            _ => format!("queued ({queued})"),
        };
        Self {
            status: "success",
            stored: outcome.stored.len(),
            memory_ids: outcome.ids,
            qdrant,
            enrichment: "queued",
            query_time_ms: millis(started),
            deduplicated: outcome.deduplicated,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "memory_id": "a1b2c3d4-e5f6-7890-abcd-ef1234567890"}))]
pub struct MemoryIdResponse {
    pub status: &'static str,
    pub memory_id: Uuid,
}

/// One AutoMem recall result.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallResult {
    pub id: Uuid,
    pub memory: AutoMemMemory,
    pub score: f64,
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecallAnswer {
    pub status: &'static str,
    pub results: Vec<RecallResult>,
    pub count: usize,
    /// The queries recalled.
    pub queries: Vec<String>,
    pub mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansions: Option<Vec<Expansion>>,
    pub query_time_ms: f64,
}

impl RecallAnswer {
    pub fn new(queries: Vec<String>, answer: crate::recall::RecallResponse, started: Instant) -> Self {
        let results: Vec<RecallResult> = answer
            .results
            .into_iter()
            .map(|h| RecallResult {
                id: h.memory.id,
                memory: h.memory.into(),
                score: h.score,
                match_type: h.match_type,
                score_components: h.score_components.into(),
            })
            .collect();
        Self {
            status: "success",
            count: results.len(),
            results,
            queries,
            mode: answer.mode,
            notice: answer.notice,
            expansions: super::expansions(answer.expansions),
            query_time_ms: millis(started),
        }
    }
}
