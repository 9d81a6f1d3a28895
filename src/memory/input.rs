//! Request bodies and their parsing into validated domain values.

use chrono::{DateTime, Duration, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::normalize::{content_hash, parse_timestamp, tag_prefixes};
use super::*;
use crate::error::Error;

/// A field that failed validation; `field` is its full path (`memories[2].importance`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
    /// The message is a sentence that starts with the field's name (`embedding must contain...`), as a
    /// seed words it, rather than what follows `field: `.
    pub sentence: bool,
}

impl From<FieldError> for Error {
    fn from(err: FieldError) -> Self {
        match err.sentence {
            true => {
                let parent = err.field.rsplit_once('.').map_or("", |(head, _)| head);
                let dot = if parent.is_empty() { "" } else { "." };
                Error::Invalid(format!("{parent}{dot}{}", err.message))
            }
            false => Error::Invalid(format!("{}: {}", err.field, err.message)),
        }
    }
}

/// What parsing needs from its surroundings: the clock, the deployment's embedding dimension, and the
/// path prefix of the item being parsed (empty, or `memories[2].` inside a batch).
#[derive(Debug, Clone)]
pub struct ParseCtx {
    pub now: DateTime<Utc>,
    pub embedding_dim: usize,
    pub prefix: String,
}

type Parsed<T> = Result<T, FieldError>;

impl ParseCtx {
    pub fn new(now: DateTime<Utc>, embedding_dim: usize) -> Self {
        Self { now, embedding_dim, prefix: String::new() }
    }

    /// The same context for item `index` of the array `field`.
    pub fn item(&self, field: &str, index: usize) -> Self {
        Self { prefix: format!("{}{field}[{index}].", self.prefix), ..self.clone() }
    }

    pub fn err(&self, field: &str, message: impl Into<String>) -> FieldError {
        FieldError { field: format!("{}{field}", self.prefix), message: message.into(), sentence: false }
    }

    /// Postgres cannot store U+0000 in text or jsonb.
    pub fn no_nul(&self, field: &str, value: &str) -> Parsed<()> {
        if value.contains('\0') {
            return Err(self.err(field, "must not contain NUL (U+0000) characters"));
        }
        Ok(())
    }

    pub fn range(&self, field: &str, value: f64, lo: f64, hi: f64) -> Parsed<f32> {
        if value.is_finite() && (lo..=hi).contains(&value) {
            Ok(value as f32)
        } else {
            Err(self.err(field, format!("must be between {lo} and {hi} (got {value})")))
        }
    }

    pub fn unit(&self, field: &str, value: f64) -> Parsed<f32> {
        self.range(field, value, 0.0, 1.0)
    }

    pub fn content(&self, value: Option<String>) -> Parsed<String> {
        let value = value.ok_or_else(|| self.err("content", "is required"))?;
        let value = value.trim();
        if value.is_empty() {
            return Err(self.err("content", "must not be empty"));
        }
        self.no_nul("content", value)?;
        let chars = value.chars().count();
        if chars > MAX_CONTENT_CHARS {
            return Err(self.err("content", format!("must be at most {MAX_CONTENT_CHARS} characters (got {chars})")));
        }
        Ok(value.to_owned())
    }

    /// A short identifier-like string: trimmed, non-empty, bounded.
    pub fn ident(&self, field: &str, value: String) -> Parsed<String> {
        let value = value.trim();
        if value.is_empty() {
            return Err(self.err(field, "must not be empty"));
        }
        if value.chars().count() > MAX_ID_CHARS {
            return Err(self.err(field, format!("must be at most {MAX_ID_CHARS} characters")));
        }
        self.no_nul(field, value)?;
        Ok(value.to_owned())
    }

    pub fn kind(&self, value: &str) -> Parsed<&'static str> {
        canonical_type(value)
            .ok_or_else(|| self.err("type", format!("unknown type {value:?}; expected one of {}", TYPES.join(", "))))
    }

    pub fn lifecycle(&self, value: &str) -> Parsed<Lifecycle> {
        Lifecycle::parse(value)
            .ok_or_else(|| self.err("memory_type", format!("must be short_term or long_term (got {value:?})")))
    }

    pub fn source_type(&self, value: &str) -> Parsed<String> {
        let lower = value.trim().to_ascii_lowercase();
        if SOURCE_TYPES.contains(&lower.as_str()) {
            Ok(lower)
        } else {
            Err(self.err(
                "source_type",
                format!("unknown source type {value:?}; expected one of {}", SOURCE_TYPES.join(", ")),
            ))
        }
    }

    pub fn ttl(&self, value: i64) -> Parsed<i64> {
        if (1..=MAX_TTL_SECONDS).contains(&value) {
            Ok(value)
        } else {
            Err(self.err("ttl", format!("must be between 1 and {MAX_TTL_SECONDS} seconds (got {value})")))
        }
    }

    pub fn sequence_number(&self, value: i64) -> Parsed<i32> {
        i32::try_from(value)
            .ok()
            .filter(|v| *v >= 0)
            .ok_or_else(|| self.err("sequence_number", format!("must be between 0 and {} (got {value})", i32::MAX)))
    }

    pub fn metadata(&self, value: Value) -> Parsed<Value> {
        use crate::validate::has_nul;
        if crate::validate::json_depth(&value, crate::validate::MAX_JSON_DEPTH) > crate::validate::MAX_JSON_DEPTH {
            let depth = crate::validate::MAX_JSON_DEPTH;
            return Err(self.err("metadata", format!("must not nest deeper than {depth} levels")));
        }
        if has_nul(&value) {
            return Err(self.err("metadata", "must not contain NUL (U+0000) characters"));
        }
        match value {
            Value::Object(_) => Ok(value),
            Value::Null => Ok(Value::Object(Default::default())),
            _ => Err(self.err("metadata", "must be a JSON object")),
        }
    }

    pub fn timestamp(&self, field: &str, value: &str) -> Parsed<DateTime<Utc>> {
        let max = crate::validate::MAX_TIME_CHARS;
        if value.len() > max && value.chars().nth(max).is_some() {
            return Err(self.err(field, format!("must be at most {max} characters")));
        }
        parse_timestamp(value).ok_or_else(|| self.err(field, format!("not an ISO 8601 timestamp: {value:?}")))
    }

    /// The memory's own time: back-dating is fine, the future is not.
    pub fn created_at(&self, value: &str) -> Parsed<DateTime<Utc>> {
        let t = self.timestamp("created_at", value)?;
        if t > self.now + Duration::seconds(FUTURE_SKEW_SECONDS) {
            return Err(self.err("created_at", format!("must not be in the future (got {value:?})")));
        }
        Ok(t)
    }

    /// Tags as an array of strings or one comma-separated string: trimmed, lowercased, deduplicated; at most
    /// [`MAX_TAGS`] distinct, checked as they are read (a longer list stops there), each within its length and
    /// levels.
    pub fn tags(&self, value: Value) -> Parsed<Vec<String>> {
        let raw: Vec<String> = match value {
            Value::Null => Vec::new(),
            Value::String(s) => vec![s],
            Value::Array(items) => {
                if items.len() > crate::validate::MAX_LIST_ITEMS {
                    return Err(self.err("tags", format!("at most {MAX_TAGS} tags (got {})", items.len())));
                }
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| match item {
                        Value::String(s) => Ok(s),
                        _ => Err(self.err(&format!("tags[{i}]"), "must be a string")),
                    })
                    .collect::<Parsed<_>>()?
            }
            _ => return Err(self.err("tags", "must be an array of strings or a comma-separated string")),
        };
        let mut tags: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for tag in raw.iter().flat_map(|t| t.split(',')) {
            let tag = tag.trim().to_lowercase();
            if tag.is_empty() {
                continue;
            }
            self.no_nul("tags", &tag)?;
            if tag.len() > MAX_TAG_CHARS && tag.chars().nth(MAX_TAG_CHARS).is_some() {
                return Err(self.err("tags", format!("each tag must be at most {MAX_TAG_CHARS} characters")));
            }
            if tag.split([':', '/']).count() > MAX_TAG_LEVELS {
                return Err(self
                    .err("tags", format!("each tag may have at most {MAX_TAG_LEVELS} levels (split on ':' and '/')")));
            }
            if seen.contains(&tag) {
                continue;
            }
            if tags.len() == MAX_TAGS {
                return Err(self.err("tags", format!("at most {MAX_TAGS} tags")));
            }
            seen.insert(tag.clone());
            tags.push(tag);
        }
        Ok(tags)
    }

    pub fn embedding(&self, value: Vec<f32>) -> Parsed<Vec<f32>> {
        if value.len() != self.embedding_dim {
            // AutoMem's words, which its clients look for.
            let message = format!("embedding must contain exactly {} values (got {})", self.embedding_dim, value.len());
            return Err(FieldError { sentence: true, ..self.err("embedding", message) });
        }
        if value.iter().any(|v| !v.is_finite()) {
            return Err(self.err("embedding", "must contain only finite numbers"));
        }
        Ok(value)
    }

    pub fn validity(&self, t_valid: Option<DateTime<Utc>>, t_invalid: Option<DateTime<Utc>>) -> Parsed<()> {
        match (t_valid, t_invalid) {
            (Some(from), Some(to)) if to < from => Err(self.err("t_invalid", "must not be before t_valid")),
            _ => Ok(()),
        }
    }
}

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
    #[schemars(extend("enum" = crate::graph::SUPERSEDING))]
    pub supersede_relation: Option<String>,
    /// Why, recorded in the old memory's metadata (`supersede_reason`).
    #[schemars(length(max = MAX_REASON_CHARS))]
    pub supersede_reason: Option<String>,
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
        }
    }
}

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
