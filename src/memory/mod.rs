//! Memories: the stored shape, the rules every write obeys, and the parsing of requests into domain types.
//!
//! Nothing here touches the database; `store::memories` does. Requests are parsed ("parse, don't validate")
//! into [`NewMemory`] or applied as a [`MemoryPatch`] before any SQL runs, and every error names its field.

pub mod classify;
pub mod filter;
mod input;
mod normalize;
mod parse;
mod patch;
pub mod quality;
pub mod summarize;
mod tenant;

pub use crate::validate::parse_timestamp;
pub use filter::ListFilter;
pub use input::{MemoryInput, NewMemory, LIFECYCLES, MAX_REASON_CHARS};
pub use parse::{FieldError, ParseCtx};
pub use patch::{nullable, EmbeddingChange, MemoryPatch};

/// Relation types that mark the source memory as replaced by the target (supersede mode). Recall's chain heads
/// read them through `relations_superseding_idx`, whose predicate lists them: a change here needs a migration
/// replacing that index (a unit test in `store::relations` fails until there is one).
pub const SUPERSEDING: [&str; 2] = ["INVALIDATED_BY", "EVOLVED_INTO"];
pub use normalize::{content_hash, normalize_tag_filter, tag_prefixes};
pub use tenant::{EmbeddingCounts, TenantSettings, TenantStats, TypeCount};

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// Longest accepted content, in characters (AutoMem's hard limit).
pub const MAX_CONTENT_CHARS: usize = 2000;
/// Most tags on one memory.
pub const MAX_TAGS: usize = 64;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 128;
/// Most levels in a hierarchical tag (`a:b:c` has 3); bounds the prefixes one memory can carry.
pub const MAX_TAG_LEVELS: usize = 8;
/// Longest scope or episode identifier (`user_id`, `agent_id`, `run_id`, `episode_id`) and emotion label.
pub const MAX_ID_CHARS: usize = 256;
/// Arousal at or above which a new memory is a flashbulb memory (remem).
pub const FLASHBULB_AROUSAL: f64 = 0.8;
/// Importance floor of a flashbulb memory.
pub const FLASHBULB_IMPORTANCE: f32 = 0.9;
/// How long a flashbulb memory is protected from decay and forgetting.
pub const FLASHBULB_DAYS: i64 = 30;
/// Longest TTL of a short-term memory: ten years.
pub const MAX_TTL_SECONDS: i64 = 10 * 365 * 24 * 3600;
/// Clock skew tolerated before a caller's timestamp counts as "in the future".
pub const FUTURE_SKEW_SECONDS: i64 = 60;

/// The classifications of all four seeds (AutoMem's seven, SHODH's thirteen), in canonical case.
pub const TYPES: &[&str] = &[
    "Decision",
    "Pattern",
    "Preference",
    "Style",
    "Habit",
    "Insight",
    "Context",
    "Observation",
    "Learning",
    "Error",
    "Discovery",
    "Task",
    "CodeEdit",
    "FileAccess",
    "Search",
    "Command",
    "Conversation",
];

/// Where a memory came from (SHODH's `SourceType`).
pub const SOURCE_TYPES: &[&str] = &["user", "system", "api", "file", "web", "ai_generated", "inferred"];

/// The canonical spelling of a classification, matched case-insensitively.
pub fn canonical_type(value: &str) -> Option<&'static str> {
    let value = value.trim();
    TYPES.iter().copied().find(|t| t.eq_ignore_ascii_case(value))
}

/// remem's lifecycle class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifecycle {
    ShortTerm,
    LongTerm,
}

impl Lifecycle {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ShortTerm => "short_term",
            Self::LongTerm => "long_term",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "short_term" | "shortterm" | "short" => Some(Self::ShortTerm),
            "long_term" | "longterm" | "long" => Some(Self::LongTerm),
            _ => None,
        }
    }
}

/// A stored memory. Surfaces present it in their own shapes (`api::views::Memory` and friends).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Memory {
    pub id: Uuid,
    pub content: String,
    /// sha-256 (hex) of the normalised content; the tenant-wide dedup key.
    pub content_hash: String,
    /// The classification, one of [`TYPES`].
    #[sqlx(rename = "type")]
    pub kind: String,
    /// Confidence in the classification, 0..=1.
    pub confidence: f32,
    /// `short_term` or `long_term`.
    pub memory_type: String,
    /// Time to live in seconds, for short-term memories.
    #[sqlx(rename = "ttl_seconds")]
    pub ttl: Option<i64>,
    pub expires_at: Option<DateTime<Utc>>,
    pub tags: Vec<String>,
    /// Every hierarchical prefix of every tag (split on `:` and `/`).
    pub tag_prefixes: Vec<String>,
    pub importance: f32,
    pub metadata: serde_json::Value,
    pub source_type: String,
    pub credibility: f32,
    pub quality_score: Option<f32>,
    pub emotion: Option<String>,
    pub emotional_valence: Option<f32>,
    pub emotional_arousal: Option<f32>,
    /// Until when this flashbulb memory is exempt from decay and forgetting.
    pub flashbulb_until: Option<DateTime<Utc>>,
    pub episode_id: Option<String>,
    pub sequence_number: Option<i32>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub t_valid: Option<DateTime<Utc>>,
    pub t_invalid: Option<DateTime<Utc>>,
    /// The memory's own timestamp (may be back-dated).
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_accessed_at: Option<DateTime<Utc>>,
    pub access_count: i64,
    pub archived_at: Option<DateTime<Utc>>,
    /// `pending`, `ready` or `failed`.
    pub embedding_status: String,
    pub embedding_model: Option<String>,
    /// Why the last embedding attempt failed, while it is failing.
    pub embedding_error: Option<String>,
    /// Whether enrichment (entities and their tags) has run on the current content: `pending`, `ready` or
    /// `failed`.
    pub enrichment_status: String,
    /// Enrichment's one-line summary (the first sentence, at most 120 characters).
    pub summary: Option<String>,
    /// Whether the content is a summary of a longer original (500-2000 characters, kept in
    /// `metadata.original_content`).
    pub summarized: bool,
    pub original_length: Option<i32>,
    pub summarized_length: Option<i32>,
    /// Stored although the tenant held its content (`on_duplicate: store`): a repeat beside the canonical
    /// memory, which deduplication finds.
    pub repeated: bool,
    /// Who stored it, stamped by the server (`key:<id>`, `system:<job>`, `admin:<email>`; none for memories
    /// stored before authorship was recorded).
    pub created_by: Option<String>,
    /// What the key or token that stored it was limited to (`{"users": [...], "agents": [...], "tags": [...]}`),
    /// stamped by the server; none for an unscoped key or a job.
    pub created_by_scope: Option<serde_json::Value>,
}

/// One change to a memory.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MemoryEvent {
    /// Increases with every event of the tenant.
    pub id: i64,
    pub memory_id: Uuid,
    /// created, updated, deleted, archived, promoted, superseded, decayed, restored or forgotten.
    pub event_type: String,
    /// The API key id (`key:<uuid>`) or background job (`system:<job>`) that made the change.
    pub actor: String,
    /// What the acting key or token was limited to, as [`Memory::created_by_scope`].
    pub actor_scope: Option<serde_json::Value>,
    /// The memory before the change (absent for `created`).
    pub before: Option<serde_json::Value>,
    /// The memory after the change (absent for `deleted`).
    pub after: Option<serde_json::Value>,
    pub created_at: DateTime<Utc>,
}
