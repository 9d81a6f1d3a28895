//! A partial update of a memory, as every surface accepts it, and how it applies to the stored memory.

use chrono::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::normalize::{content_hash, tag_prefixes};
use super::parse::Parsed;
use super::*;

/// Deserialises a field that may be absent (outer `None`), `null` (`Some(None)`) or a value.
pub fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A partial update: absent fields stay as they are; `null` clears a nullable field. `metadata` replaces
/// the stored object; `tags` recompute `tag_prefixes`; a content change recomputes the hash and queues
/// re-embedding. The id is immutable (an `id` in the body is ignored). Raising arousal later does not make
/// a memory a flashbulb memory.
///
/// The one definition of an update: the native PATCH/PUT, AutoMem's PATCH, SHODH's (a subset) and MCP's
/// `update_memory` all read it.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*MEMORY_PATCH_EXAMPLE)]
pub struct MemoryPatch {
    /// New content, 1..=2000 characters (re-embedded; over 500 it is stored summarised).
    #[schemars(length(min = 1, max = MAX_CONTENT_CHARS))]
    pub content: Option<String>,
    /// The classification.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = TYPES))]
    pub kind: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// `short_term` or `long_term`; changing to long_term clears the TTL.
    #[schemars(extend("enum" = LIFECYCLES))]
    pub memory_type: Option<String>,
    /// New TTL in seconds from now (short-term only).
    #[schemars(range(min = 1, max = MAX_TTL_SECONDS))]
    pub ttl: Option<i64>,
    /// Replaces the tags (an array, or one comma-separated string).
    #[schemars(with = "Option<Vec<String>>", length(max = MAX_TAGS))]
    pub tags: Option<Value>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub importance: Option<f64>,
    /// Replaces the stored object.
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    pub metadata: Option<Value>,
    #[schemars(extend("enum" = SOURCE_TYPES))]
    pub source_type: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub credibility: Option<f64>,
    /// `null` clears it.
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub quality_score: Option<Option<f64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(length(max = MAX_ID_CHARS))]
    pub emotion: Option<Option<String>>,
    /// Alias `valence`.
    #[serde(default, deserialize_with = "nullable", alias = "valence")]
    #[schemars(range(min = -1.0, max = 1.0))]
    pub emotional_valence: Option<Option<f64>>,
    /// Alias `arousal`. Raising it later does not make a memory a flashbulb memory.
    #[serde(default, deserialize_with = "nullable", alias = "arousal")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub emotional_arousal: Option<Option<f64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub episode_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(range(min = 0, max = i32::MAX))]
    pub sequence_number: Option<Option<i64>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub user_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub agent_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schemars(length(min = 1, max = MAX_ID_CHARS))]
    pub run_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub t_valid: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub t_invalid: Option<Option<String>>,
    /// Override the memory's own time (alias `timestamp`).
    #[serde(alias = "timestamp")]
    pub created_at: Option<String>,
    /// A precomputed embedding of the deployment's dimension (replaces the stored vector).
    pub embedding: Option<Vec<f32>>,
}

static MEMORY_PATCH_EXAMPLE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || serde_json::json!({"importance": 0.95, "tags": ["project-alpha", "database", "reviewed"]}),
);

/// How an update changes the stored embedding.
#[derive(Debug, Clone, PartialEq)]
pub enum EmbeddingChange {
    Keep,
    /// The content changed: drop the vector and embed again.
    Reset,
    Set(Vec<f32>),
}

impl MemoryPatch {
    /// Applies the patch to a stored memory; the result is fully validated.
    pub fn apply(self, current: &Memory, ctx: &ParseCtx) -> Parsed<(NewMemory, EmbeddingChange)> {
        let mut m = NewMemory::from_stored(current);
        let mut touched = false;
        let mut embedding = EmbeddingChange::Keep;
        macro_rules! set {
            ($target:expr, $value:expr) => {{
                $target = $value;
                touched = true;
            }};
        }
        if let Some(content) = self.content {
            let content = ctx.content(Some(content))?;
            if content != m.content {
                m.content_hash = content_hash(&content);
                embedding = EmbeddingChange::Reset;
            }
            set!(m.content, content);
        }
        if let Some(kind) = self.kind {
            set!(m.kind, ctx.kind(&kind)?.to_owned());
        }
        if let Some(c) = self.confidence {
            set!(m.confidence, ctx.unit("confidence", c)?);
        }
        if let Some(lifecycle) = self.memory_type {
            let lifecycle = ctx.lifecycle(&lifecycle)?;
            if lifecycle == Lifecycle::LongTerm {
                m.ttl = None;
                m.expires_at = None;
            }
            set!(m.memory_type, lifecycle);
        }
        if let Some(ttl) = self.ttl {
            let ttl = ctx.ttl(ttl)?;
            if m.memory_type != Lifecycle::ShortTerm {
                return Err(ctx.err("ttl", "only applies to short_term memories"));
            }
            m.expires_at = Some(ctx.now + Duration::seconds(ttl));
            set!(m.ttl, Some(ttl));
        }
        if let Some(tags) = self.tags {
            let tags = ctx.tags(tags)?;
            m.tag_prefixes = tag_prefixes(&tags);
            set!(m.tags, tags);
        }
        if let Some(v) = self.importance {
            set!(m.importance, ctx.unit("importance", v)?);
        }
        if let Some(v) = self.metadata {
            set!(m.metadata, ctx.metadata(v)?);
        }
        if let Some(v) = self.source_type {
            set!(m.source_type, ctx.source_type(&v)?);
        }
        if let Some(v) = self.credibility {
            set!(m.credibility, ctx.unit("credibility", v)?);
        }
        if let Some(v) = self.quality_score {
            set!(m.quality_score, v.map(|v| ctx.unit("quality_score", v)).transpose()?);
        }
        if let Some(v) = self.emotion {
            set!(m.emotion, v.map(|v| ctx.ident("emotion", v)).transpose()?);
        }
        if let Some(v) = self.emotional_valence {
            set!(m.emotional_valence, v.map(|v| ctx.range("emotional_valence", v, -1.0, 1.0)).transpose()?);
        }
        if let Some(v) = self.emotional_arousal {
            set!(m.emotional_arousal, v.map(|v| ctx.unit("emotional_arousal", v)).transpose()?);
        }
        if let Some(v) = self.episode_id {
            set!(m.episode_id, v.map(|v| ctx.ident("episode_id", v)).transpose()?);
        }
        if let Some(v) = self.sequence_number {
            set!(m.sequence_number, v.map(|v| ctx.sequence_number(v)).transpose()?);
        }
        if let Some(v) = self.user_id {
            set!(m.user_id, v.map(|v| ctx.ident("user_id", v)).transpose()?);
        }
        if let Some(v) = self.agent_id {
            set!(m.agent_id, v.map(|v| ctx.ident("agent_id", v)).transpose()?);
        }
        if let Some(v) = self.run_id {
            set!(m.run_id, v.map(|v| ctx.ident("run_id", v)).transpose()?);
        }
        if let Some(v) = self.t_valid {
            set!(m.t_valid, v.map(|v| ctx.timestamp("t_valid", &v)).transpose()?);
        }
        if let Some(v) = self.t_invalid {
            set!(m.t_invalid, v.map(|v| ctx.timestamp("t_invalid", &v)).transpose()?);
        }
        if let Some(v) = self.created_at {
            set!(m.created_at, ctx.created_at(&v)?);
        }
        if let Some(v) = self.embedding {
            embedding = EmbeddingChange::Set(ctx.embedding(v)?);
            touched = true;
        }
        if !touched {
            return Err(ctx.err("body", "no updatable field given"));
        }
        ctx.validity(m.t_valid, m.t_invalid)?;
        Ok((m, embedding))
    }
}
