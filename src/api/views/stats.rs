//! A tenant's memories in numbers.

use serde::Serialize;
use utoipa::ToSchema;

/// How many memories of one classification.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TypeCount {
    /// The classification (`Decision`, `Observation`...).
    pub memory_type: String,
    pub count: i64,
}

/// Memories by embedding state.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmbeddingCounts {
    pub ready: i64,
    pub pending: i64,
    pub failed: i64,
}

/// A tenant's memories in numbers. "Active" memories are those recall and listings return: neither archived
/// nor expired.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"total_memories": 42, "memories_last_7_days": 5, "archived": 3, "short_term": 4,
    "long_term": 38, "embeddings": {"ready": 41, "pending": 1, "failed": 0},
    "by_type": [{"memory_type": "Decision", "count": 12}], "associations": 17, "entities": 9, "tags": 23}))]
pub struct TenantStats {
    /// Active memories.
    pub total_memories: i64,
    /// Active memories created in the last 7 days.
    pub memories_last_7_days: i64,
    /// Archived or expired memories, kept until retention purges them.
    pub archived: i64,
    /// Active short-term memories.
    pub short_term: i64,
    /// Active long-term memories.
    pub long_term: i64,
    /// Active memories by embedding state.
    pub embeddings: EmbeddingCounts,
    /// Active memories by classification, most first.
    pub by_type: Vec<TypeCount>,
    /// Associations between memories.
    pub associations: i64,
    /// Entities found in memories.
    pub entities: i64,
    /// Distinct tags on active memories.
    pub tags: i64,
}

impl From<crate::memory::TenantStats> for TenantStats {
    fn from(s: crate::memory::TenantStats) -> Self {
        let crate::memory::TenantStats {
            total_memories,
            memories_last_7_days,
            archived,
            short_term,
            long_term,
            embeddings,
            by_type,
            associations,
            entities,
            tags,
        } = s;
        Self {
            total_memories,
            memories_last_7_days,
            archived,
            short_term,
            long_term,
            embeddings: EmbeddingCounts {
                ready: embeddings.ready,
                pending: embeddings.pending,
                failed: embeddings.failed,
            },
            by_type: type_counts(by_type),
            associations,
            entities,
            tags,
        }
    }
}

/// Counts by classification, shown.
pub fn type_counts(counts: Vec<crate::memory::TypeCount>) -> Vec<TypeCount> {
    counts.into_iter().map(|c| TypeCount { memory_type: c.memory_type, count: c.count }).collect()
}
