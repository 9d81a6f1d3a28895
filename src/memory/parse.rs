//! What parsing a request needs and how it fails: the context (clock, dimension, limits) and the error
//! that names its field.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use super::*;
use crate::error::Error;
use crate::validate::parse_timestamp;

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

pub(crate) type Parsed<T> = Result<T, FieldError>;

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
