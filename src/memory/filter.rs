//! Which memories a listing or a recall looks at: [`ListFilter`] and the parsing of its parts (types,
//! lifecycle class, tag matching). `store` turns a filter into SQL.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{canonical_type, normalize_tag_filter, Lifecycle, TYPES};
use crate::error::{bad, Error};
use crate::validate::{MAX_FILTER_TAGS, MAX_FILTER_TYPES};

/// Filters shared by listings and recall.
#[derive(Debug, Default, Clone)]
pub struct ListFilter {
    pub kinds: Vec<String>,
    pub memory_type: Option<Lifecycle>,
    pub tags: Vec<String>,
    /// All tags must match (otherwise any).
    pub tags_all: bool,
    /// Match hierarchical prefixes (otherwise exact tags).
    pub tags_prefix: bool,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub created_after: Option<DateTime<Utc>>,
    pub created_before: Option<DateTime<Utc>>,
    pub min_importance: Option<f32>,
    pub max_importance: Option<f32>,
    /// Include archived and expired memories.
    pub include_archived: bool,
    /// Leave out memories carrying any of these (exact) tags.
    pub exclude_tags: Vec<String>,
    pub episode_id: Option<String>,
    /// Only memories valid at this instant (`t_valid <= t < t_invalid`, open ends allowed).
    pub valid_at: Option<DateTime<Utc>>,
    /// Only these memories (e.g. the neighbours of one memory).
    pub only_ids: Option<Vec<Uuid>>,
    /// Only memories stored by this actor (`key:<id>`, `system:<job>`, `admin:<email>`).
    pub created_by: Option<String>,
}

/// Classifications, canonicalised (at most [`MAX_FILTER_TYPES`]).
pub fn kinds(field: &str, raw: &[String]) -> Result<Vec<String>, Error> {
    normalize_tag_filter(raw, field, MAX_FILTER_TYPES)?
        .iter()
        .map(|k| {
            canonical_type(k)
                .map(str::to_owned)
                .ok_or_else(|| bad(field, format!("unknown type {k:?}; expected one of {}", TYPES.join(", "))))
        })
        .collect()
}

/// A scope or episode filter (`user_id`, `agent_id`, `run_id`, `episode_id`): at most
/// [`super::MAX_ID_CHARS`] characters, as stored values are.
pub fn scope(field: &str, value: Option<String>) -> Result<Option<String>, Error> {
    if let Some(v) = &value {
        crate::validate::check_chars(field, v, super::MAX_ID_CHARS)?;
        if v.contains('\0') {
            return Err(crate::error::bad(field, "must not contain NUL (U+0000) characters"));
        }
    }
    Ok(value)
}

/// `created_by`: an actor as authorship records it, `key:<uuid>`, `system:<job>` or `admin:<email>` (at most
/// 400 characters).
pub fn actor(field: &str, value: Option<String>) -> Result<Option<String>, Error> {
    let Some(v) = value else { return Ok(None) };
    crate::validate::check_chars(field, &v, 400)?;
    let actor = match v.split_once(':') {
        // As stored: the hyphenated lower-case form, whatever form the filter was written in.
        Some(("key", id)) => Uuid::parse_str(id).ok().map(|id| format!("key:{}", id.hyphenated())),
        Some(("system" | "admin", rest)) if !rest.trim().is_empty() => Some(v.clone()),
        _ => None,
    };
    actor
        .map(Some)
        .ok_or_else(|| bad(field, format!("must be key:<key id>, system:<job> or admin:<email> (got {v:?})")))
}

/// `memory_type`: short_term or long_term.
pub fn lifecycle(value: Option<String>) -> Result<Option<Lifecycle>, Error> {
    value
        .map(|m| {
            Lifecycle::parse(&m)
                .ok_or_else(|| bad("memory_type", format!("must be short_term or long_term (got {m:?})")))
        })
        .transpose()
}

/// `tag_mode`: true for `all`, false for `any` (the default).
pub fn tag_mode_all(value: Option<&str>) -> Result<bool, Error> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("any") => Ok(false),
        Some("all") => Ok(true),
        Some(other) => Err(bad("tag_mode", format!("must be any or all (got {other:?})"))),
    }
}

/// `tag_match`: true for `prefix`, false for `exact` (the default).
pub fn tag_match_prefix(value: Option<&str>) -> Result<bool, Error> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("exact") => Ok(false),
        Some("prefix") => Ok(true),
        Some(other) => Err(bad("tag_match", format!("must be exact or prefix (got {other:?})"))),
    }
}

/// Tags of a filter, normalised for matching (at most [`MAX_FILTER_TAGS`]).
pub fn tags(field: &str, raw: &[String]) -> Result<Vec<String>, Error> {
    normalize_tag_filter(raw, field, MAX_FILTER_TAGS)
}

/// Tags normalised for matching; at least one (at most [`MAX_FILTER_TAGS`]).
pub fn required_tags(tags: &[String]) -> Result<Vec<String>, Error> {
    let tags = normalize_tag_filter(tags, "tags", MAX_FILTER_TAGS)?;
    if tags.is_empty() {
        return Err(Error::invalid("tags: at least one tag is required"));
    }
    Ok(tags)
}

/// Memories by tag, as callers ask (native and AutoMem's `/memory/by-tag`): the one definition both read.
#[derive(Debug, Default, Clone, serde::Deserialize, schemars::JsonSchema)]
pub struct TagParams {
    /// Tags (repeat or comma-separate); a memory matches if it has any of them (exact, case-insensitive).
    #[serde(default)]
    pub tags: crate::validate::StringList,
    /// Page size, 1..=200 (default 20). Ignored by DELETE.
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<i64>,
    /// Memories to skip (default 0). Ignored by DELETE.
    #[schemars(range(min = 0, max = crate::validate::MAX_OFFSET))]
    pub offset: Option<i64>,
    /// DELETE only: `true` to delete more than 1000 memories in one call (each stays restorable for the
    /// tenant's undo window). Ignored by GET.
    pub confirm: Option<bool>,
}
