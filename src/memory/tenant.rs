//! A tenant's memories as a whole: its lifecycle settings and its statistics.

/// A tenant's lifecycle settings.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TenantSettings {
    /// Active forgetting: archive memories whose health reached 0 (off by default).
    pub forgetting_enabled: bool,
    /// Memories younger than this are never forgotten (0..=3650, default 90).
    pub forgetting_grace_days: i32,
    /// Archived memories older than this are deleted (1..=36500; null, the default: never).
    pub archive_retention_days: Option<i32>,
    /// Days a deleted memory can be restored before it is erased for good (0..=365, default 7).
    pub undo_days: i32,
    /// Recall with a read-only key strengthens the associations between the memories it returns together
    /// (off by default: a read changes no data).
    pub read_keys_strengthen: bool,
}

/// How many memories of one classification.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TypeCount {
    /// The classification (`Decision`, `Observation`...).
    pub memory_type: String,
    pub count: i64,
}

/// A tenant's memories in numbers. "Active" memories are those recall and listings return: neither archived
/// nor expired.
#[derive(Debug, Clone)]
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

#[derive(Debug, Clone)]
pub struct EmbeddingCounts {
    pub ready: i64,
    pub pending: i64,
    pub failed: i64,
}
