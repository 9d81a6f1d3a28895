//! A memory to store, as every surface accepts it, and its parsing into a validated [`NewMemory`].

use chrono::{DateTime, Duration, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::normalize::{content_hash, tag_prefixes};
use super::parse::Parsed;
use super::*;

/// A memory to store. Field names of all four seeds are accepted: `arousal` for `emotional_arousal`,
/// `valence` for `emotional_valence`, `timestamp` for `created_at`. A caller's `id` is ignored.
///
/// The one definition of a memory's fields: the native store, AutoMem's and SHODH's stores and MCP's
/// `store_memory` all read this type, and their documented schemas are derived from it, limits included.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*MEMORY_INPUT_EXAMPLE)]
pub struct MemoryInput {
    /// The memory's text, 1..=2000 characters; over 500 it is stored summarised (the original is kept).
    #[schemars(length(min = 1, max = MAX_CONTENT_CHARS))]
    pub content: Option<String>,
    /// Classification, one of the seeds' types (case-insensitive), taken at confidence 0.9. Default: classified
    /// by AutoMem's patterns (0.6 + 0.1 per further match, at most 0.95), else by the configured chat model
    /// during enrichment, else `Context` at 0.3.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = TYPES))]
    pub kind: Option<String>,
    /// Confidence in `type`, 0..=1 (default 0.9 when `type` is given).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// `short_term` or `long_term` (default `long_term`; `short_term` when only `ttl` is given).
    #[schemars(extend("enum" = LIFECYCLES))]
    pub memory_type: Option<String>,
    /// Seconds a short-term memory lives; sets `expires_at`.
    #[schemars(range(min = 1, max = MAX_TTL_SECONDS))]
    pub ttl: Option<i64>,
    /// An array of tags or one comma-separated string. Hierarchical with `:` or `/`.
    #[schemars(with = "Option<Vec<String>>", length(max = MAX_TAGS))]
    pub tags: Option<Value>,
    /// 0..=1, default 0.5.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub importance: Option<f64>,
    /// Any JSON object.
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    pub metadata: Option<Value>,
    /// user, system, api, file, web, ai_generated or inferred (default user).
    #[schemars(extend("enum" = SOURCE_TYPES))]
    pub source_type: Option<String>,
    /// Trust in the source, 0..=1 (default 1).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub credibility: Option<f64>,
    /// 0..=1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub quality_score: Option<f64>,
    /// An emotion label (joy, frustration, relief...).
    #[schemars(length(max = MAX_ID_CHARS))]
    pub emotion: Option<String>,
    /// -1..=1. Alias `valence`.
    #[serde(alias = "valence")]
    #[schemars(range(min = -1.0, max = 1.0))]
    pub emotional_valence: Option<f64>,
    /// 0..=1; at 0.8 or more the memory is a flashbulb memory (long-term, importance at least 0.9,
    /// protected for 30 days). Alias `arousal`.
    #[serde(alias = "arousal")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub emotional_arousal: Option<f64>,
    /// The episode (conversation, session, document) this memory belongs to.
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub episode_id: Option<String>,
    /// Its place in the episode.
    #[schemars(range(min = 0, max = i32::MAX))]
    pub sequence_number: Option<i64>,
    /// The end user this memory is about.
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub user_id: Option<String>,
    /// The agent that stored it.
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub agent_id: Option<String>,
    /// The run or session it came from.
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub run_id: Option<String>,
    /// Start of validity (ISO 8601).
    pub t_valid: Option<String>,
    /// End of validity (ISO 8601).
    pub t_invalid: Option<String>,
    /// The memory's own time (ISO 8601, not in the future; default now). Alias `timestamp`.
    #[serde(alias = "timestamp")]
    pub created_at: Option<String>,
    /// A precomputed embedding of the deployment's dimension.
    pub embedding: Option<Vec<f32>>,
    /// Supersede mode (single stores only): the memory this one replaces or corrects. In one transaction the
    /// old memory gets `t_invalid` and the reason in its metadata, and an edge old → new is created.
    #[schemars(with = "Option<uuid::Uuid>")]
    pub supersedes_memory_id: Option<String>,
    /// `INVALIDATED_BY` (default) or `EVOLVED_INTO`: the edge from the old memory to the new one.
    #[schemars(extend("enum" = super::SUPERSEDING))]
    pub supersede_relation: Option<String>,
    /// Why, recorded in the old memory's metadata (`supersede_reason`).
    #[schemars(length(max = MAX_REASON_CHARS))]
    pub supersede_reason: Option<String>,
    /// Content the tenant already holds: `existing` (the memory holding it answers; the default of the
    /// native API and AutoMem), `error` (a 409 naming it), or `store` (stored again, as a repeat). In a batch,
    /// set it on the batch, not on an item.
    #[schemars(extend("enum" = ["error", "existing", "store"]))]
    pub on_duplicate: Option<String>,
}

/// Longest `supersede_reason`, in characters.
pub const MAX_REASON_CHARS: usize = 1000;

/// The lifecycle classes' names.
pub const LIFECYCLES: &[&str] = &["short_term", "long_term"];

static MEMORY_INPUT_EXAMPLE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    serde_json::json!({
        "content": "Chose PostgreSQL over MongoDB: we need ACID transactions.",
        "type": "Decision",
        "tags": ["project-alpha", "database"],
        "importance": 0.9,
        "metadata": {"alternatives": ["MongoDB"]},
        "user_id": "user-42"
    })
});

/// A validated memory, ready to insert or to write back after an update.
#[derive(Debug, Clone)]
pub struct NewMemory {
    pub content: String,
    pub content_hash: String,
    pub kind: String,
    pub confidence: f32,
    pub memory_type: Lifecycle,
    pub ttl: Option<i64>,
    pub expires_at: Option<DateTime<Utc>>,
    pub tags: Vec<String>,
    pub tag_prefixes: Vec<String>,
    pub importance: f32,
    pub metadata: Value,
    pub source_type: String,
    pub credibility: f32,
    pub quality_score: Option<f32>,
    pub emotion: Option<String>,
    pub emotional_valence: Option<f32>,
    pub emotional_arousal: Option<f32>,
    pub flashbulb_until: Option<DateTime<Utc>>,
    pub episode_id: Option<String>,
    pub sequence_number: Option<i32>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub t_valid: Option<DateTime<Utc>>,
    pub t_invalid: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// A caller-supplied vector; `None` means "embed it in the background".
    pub embedding: Option<Vec<f32>>,
    /// Stored although the tenant holds its content (`on_duplicate: store`): outside the content-hash
    /// uniqueness, never what deduplication finds.
    pub repeated: bool,
}

impl NewMemory {
    /// Validates a request and applies the creation rules (flashbulb, TTL, type defaults).
    pub fn parse(input: MemoryInput, ctx: &ParseCtx) -> Parsed<Self> {
        let content = ctx.content(input.content)?;
        let (kind, default_confidence) = match input.kind.as_deref() {
            Some(k) => (ctx.kind(k)?, super::classify::EXPLICIT_CONFIDENCE),
            None => super::classify::classify(&content),
        };
        let confidence = input.confidence.map(|c| ctx.unit("confidence", c)).transpose()?.unwrap_or(default_confidence);
        let mut memory_type = match input.memory_type.as_deref() {
            Some(m) => ctx.lifecycle(m)?,
            None if input.ttl.is_some() => Lifecycle::ShortTerm,
            None => Lifecycle::LongTerm,
        };
        let mut ttl = input.ttl.map(|t| ctx.ttl(t)).transpose()?;
        if ttl.is_some() && memory_type == Lifecycle::LongTerm {
            return Err(ctx.err("ttl", "only applies to short_term memories"));
        }
        let tags = ctx.tags(input.tags.unwrap_or(Value::Null))?;
        let mut importance = input.importance.map(|v| ctx.unit("importance", v)).transpose()?.unwrap_or(0.5);
        let emotional_valence =
            input.emotional_valence.map(|v| ctx.range("emotional_valence", v, -1.0, 1.0)).transpose()?;
        let emotional_arousal = input.emotional_arousal.map(|v| ctx.unit("emotional_arousal", v)).transpose()?;
        let t_valid = input.t_valid.as_deref().map(|t| ctx.timestamp("t_valid", t)).transpose()?;
        let t_invalid = input.t_invalid.as_deref().map(|t| ctx.timestamp("t_invalid", t)).transpose()?;
        ctx.validity(t_valid, t_invalid)?;

        // remem's flashbulb rule, at creation only: a highly arousing memory is kept, whatever was asked.
        let mut flashbulb_until = None;
        if emotional_arousal.is_some_and(|a| f64::from(a) >= FLASHBULB_AROUSAL - 1e-6) {
            memory_type = Lifecycle::LongTerm;
            ttl = None;
            importance = importance.max(FLASHBULB_IMPORTANCE);
            flashbulb_until = Some(ctx.now + Duration::days(FLASHBULB_DAYS));
        }
        let expires_at = ttl.map(|t| ctx.now + Duration::seconds(t));

        Ok(Self {
            content_hash: content_hash(&content),
            content,
            kind: kind.to_owned(),
            confidence,
            memory_type,
            ttl,
            expires_at,
            tag_prefixes: tag_prefixes(&tags),
            tags,
            importance,
            metadata: ctx.metadata(input.metadata.unwrap_or(Value::Null))?,
            source_type: input
                .source_type
                .as_deref()
                .map(|s| ctx.source_type(s))
                .transpose()?
                .unwrap_or_else(|| "user".into()),
            credibility: input.credibility.map(|v| ctx.unit("credibility", v)).transpose()?.unwrap_or(1.0),
            quality_score: input.quality_score.map(|v| ctx.unit("quality_score", v)).transpose()?,
            emotion: input.emotion.map(|e| ctx.ident("emotion", e)).transpose()?,
            emotional_valence,
            emotional_arousal,
            flashbulb_until,
            episode_id: input.episode_id.map(|e| ctx.ident("episode_id", e)).transpose()?,
            sequence_number: input.sequence_number.map(|s| ctx.sequence_number(s)).transpose()?,
            user_id: input.user_id.map(|v| ctx.ident("user_id", v)).transpose()?,
            agent_id: input.agent_id.map(|v| ctx.ident("agent_id", v)).transpose()?,
            run_id: input.run_id.map(|v| ctx.ident("run_id", v)).transpose()?,
            t_valid,
            t_invalid,
            created_at: input.created_at.as_deref().map(|t| ctx.created_at(t)).transpose()?.unwrap_or(ctx.now),
            embedding: input.embedding.map(|e| ctx.embedding(e)).transpose()?,
            repeated: false,
        })
    }

    /// The writable state of a stored memory, as the starting point of an update.
    pub fn from_stored(m: &Memory) -> Self {
        Self {
            content: m.content.clone(),
            content_hash: m.content_hash.clone(),
            kind: m.kind.clone(),
            confidence: m.confidence,
            memory_type: Lifecycle::parse(&m.memory_type).unwrap_or(Lifecycle::LongTerm),
            ttl: m.ttl,
            expires_at: m.expires_at,
            tags: m.tags.clone(),
            tag_prefixes: m.tag_prefixes.clone(),
            importance: m.importance,
            metadata: m.metadata.clone(),
            source_type: m.source_type.clone(),
            credibility: m.credibility,
            quality_score: m.quality_score,
            emotion: m.emotion.clone(),
            emotional_valence: m.emotional_valence,
            emotional_arousal: m.emotional_arousal,
            flashbulb_until: m.flashbulb_until,
            episode_id: m.episode_id.clone(),
            sequence_number: m.sequence_number,
            user_id: m.user_id.clone(),
            agent_id: m.agent_id.clone(),
            run_id: m.run_id.clone(),
            t_valid: m.t_valid,
            t_invalid: m.t_invalid,
            created_at: m.created_at,
            embedding: None,
            repeated: false,
        }
    }
}
