//! Parsing of the filter parameters shared by listing and recall; every error names its parameter.

use std::fmt;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::error::ApiError;
use crate::memory::{canonical_type, normalize_tag_filter, parse_timestamp, Lifecycle, TYPES};

/// A 400 naming `field`.
pub fn bad(field: &str, message: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("{field}: {message}"))
}

/// A list given as one string (comma-separated allowed), an array of strings, or repeated query keys.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct StringList(pub Vec<String>);

impl<'de> Deserialize<'de> for StringList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = StringList;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an array of strings")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<StringList, E> {
                Ok(StringList(vec![v.to_owned()]))
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<StringList, E> {
                Ok(StringList::default())
            }

            fn visit_none<E: serde::de::Error>(self) -> Result<StringList, E> {
                Ok(StringList::default())
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StringList, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<String>()? {
                    items.push(item);
                }
                Ok(StringList(items))
            }
        }
        deserializer.deserialize_any(ListVisitor)
    }
}

/// Classifications, canonicalised.
pub fn kinds(field: &str, raw: &[String]) -> Result<Vec<String>, ApiError> {
    normalize_tag_filter(raw)
        .iter()
        .map(|k| {
            canonical_type(k)
                .map(str::to_owned)
                .ok_or_else(|| bad(field, format!("unknown type {k:?}; expected one of {}", TYPES.join(", "))))
        })
        .collect()
}

pub fn lifecycle(value: Option<String>) -> Result<Option<Lifecycle>, ApiError> {
    value
        .map(|m| {
            Lifecycle::parse(&m)
                .ok_or_else(|| bad("memory_type", format!("must be short_term or long_term (got {m:?})")))
        })
        .transpose()
}

/// `tag_mode`: true for `all`, false for `any` (the default).
pub fn tag_mode_all(value: Option<&str>) -> Result<bool, ApiError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("any") => Ok(false),
        Some("all") => Ok(true),
        Some(other) => Err(bad("tag_mode", format!("must be any or all (got {other:?})"))),
    }
}

/// `tag_match`: true for `prefix`, false for `exact` (the default).
pub fn tag_match_prefix(value: Option<&str>) -> Result<bool, ApiError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("exact") => Ok(false),
        Some("prefix") => Ok(true),
        Some(other) => Err(bad("tag_match", format!("must be exact or prefix (got {other:?})"))),
    }
}

pub fn timestamp(field: &str, value: Option<String>) -> Result<Option<chrono::DateTime<chrono::Utc>>, ApiError> {
    value
        .map(|v| parse_timestamp(&v).ok_or_else(|| bad(field, format!("not an ISO 8601 timestamp: {v:?}"))))
        .transpose()
}

pub fn unit(field: &str, value: Option<f64>) -> Result<Option<f32>, ApiError> {
    value
        .map(|v| {
            if (0.0..=1.0).contains(&v) {
                Ok(v as f32)
            } else {
                Err(bad(field, format!("must be between 0 and 1 (got {v})")))
            }
        })
        .transpose()
}

/// Validates `limit` (1..=max, default `default`) and `offset` (>= 0).
pub fn page(limit: Option<i64>, offset: Option<i64>, max: i64, default: i64) -> Result<(i64, i64), ApiError> {
    let limit = bounded("limit", limit, 1, max, default)?;
    let offset = bounded("offset", offset, 0, 1_000_000, 0)?;
    Ok((limit, offset))
}

/// An integer `field` in `min..=max`, `default` when absent.
pub fn bounded(field: &str, value: Option<i64>, min: i64, max: i64, default: i64) -> Result<i64, ApiError> {
    let value = value.unwrap_or(default);
    if !(min..=max).contains(&value) {
        return Err(bad(field, format!("must be between {min} and {max} (got {value})")));
    }
    Ok(value)
}
