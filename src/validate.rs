//! Checks every input shares, whatever it is about: bounded integers, pages, values in [0, 1],
//! timestamps, and lists given as one string or many. Every error names its field.

use std::fmt;

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Utc};
use schemars::JsonSchema;
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::error::{bad, Error};

/// Parses an ISO 8601 timestamp: RFC 3339 with an offset, or a local date-time or date taken as UTC.
/// Years outside 0001..=9999 are refused: ISO 8601 without expansion has four-digit years, and Postgres
/// cannot store all of them.
pub fn parse_timestamp(value: &str) -> Option<DateTime<Utc>> {
    parse_any_timestamp(value).filter(|t| (1..=9999).contains(&t.year()))
}

fn parse_any_timestamp(value: &str) -> Option<DateTime<Utc>> {
    let value = value.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(value) {
        return Some(t.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(value, format) {
            return Some(t.and_utc());
        }
    }
    NaiveDate::parse_from_str(value, "%Y-%m-%d").ok().and_then(|d| d.and_hms_opt(0, 0, 0)).map(|t| t.and_utc())
}

/// Largest `offset` of any listing.
pub const MAX_OFFSET: i64 = 1_000_000;

// Caps on collection inputs, one each, checked before any work on the items (a 400 naming the field and
// the cap). Caps that belong to one domain live beside it: `memory::MAX_TAGS` (tags on a memory),
// `service::memories::MAX_BATCH` and `graph::association::MAX_BATCH` (batches), `service::entities::MAX_MERGE`,
// `service::jobs::MAX_REPROCESS` (id lists), `recall::MAX_QUERIES` and `recall::MAX_QUERY_CHARS`,
// `service::transfer::MAX_LINE_BYTES` (import lines).

/// Most items any list of strings may hold as it is read (repeated query keys or a JSON array), whatever
/// its field's own cap: reading stops there, so no list costs more than this before its field's check.
pub const MAX_LIST_ITEMS: usize = 1000;
/// Most tags in a filter: `tags`, `exclude_tags`, `context_tags`, and the by-tag routes' `tags`.
pub const MAX_FILTER_TAGS: usize = 100;
/// Most classifications in a filter (`types`, `type`, SHODH's `memory_types`): there are 20.
pub const MAX_FILTER_TYPES: usize = 32;
/// Most association types in a traversal's filter: there are 15.
pub const MAX_RELATION_TYPES: usize = 32;
/// Most entity types of an entity-grouped recall (`entityTypes`): there are 8.
pub const MAX_ENTITY_TYPES: usize = 16;
/// Longest value of a filter list (a tag, a type), in characters.
pub const MAX_FILTER_VALUE_CHARS: usize = 256;
/// Longest time phrase or timestamp (`since`, `until`, `valid_at`, `time_query`, ...), in characters.
pub const MAX_TIME_CHARS: usize = 200;
/// Deepest nesting of a JSON object a client stores (`metadata`, association `properties`).
pub const MAX_JSON_DEPTH: usize = 32;

/// Refuses a list longer than `max` (before anything is done with its items).
pub fn check_len(field: &str, len: usize, max: usize) -> Result<(), Error> {
    if len > max {
        return Err(bad(field, format!("at most {max} items (got {len})")));
    }
    Ok(())
}

/// Refuses a string longer than `max` characters (counting stops past the cap); the message never echoes it.
pub fn check_chars(field: &str, value: &str, max: usize) -> Result<(), Error> {
    if value.len() > max && value.chars().nth(max).is_some() {
        return Err(bad(field, format!("must be at most {max} characters")));
    }
    Ok(())
}

/// How deep `value` nests (a scalar is 0, `{}` or `[]` is 1), counted without recursion and stopping past
/// `limit`.
pub fn json_depth(value: &serde_json::Value, limit: usize) -> usize {
    use serde_json::Value;
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        if deepest > limit {
            return deepest;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

/// Whether a JSON value holds U+0000 in a string or key (Postgres stores neither in text or jsonb). Recursive:
/// call it on values whose depth is checked first ([`json_depth`]).
pub fn has_nul(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().any(has_nul),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
    }
}

/// Refuses JSON nested deeper than [`MAX_JSON_DEPTH`].
pub fn check_depth(field: &str, value: &serde_json::Value) -> Result<(), Error> {
    if json_depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH {
        return Err(bad(field, format!("must not nest deeper than {MAX_JSON_DEPTH} levels")));
    }
    Ok(())
}

/// A list given as one string (comma-separated allowed where the field says so), an array of strings,
/// or repeated query keys.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
#[serde(transparent)]
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
                    if items.len() == MAX_LIST_ITEMS {
                        return Err(serde::de::Error::custom(format!("at most {MAX_LIST_ITEMS} items")));
                    }
                    items.push(item);
                }
                Ok(StringList(items))
            }
        }
        deserializer.deserialize_any(ListVisitor)
    }
}

impl JsonSchema for StringList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StringList".into()
    }

    fn inline_schema() -> bool {
        true
    }

    /// Documented as what clients should send: an array of strings (one string is accepted too).
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<String>>::json_schema(generator)
    }
}

/// Deserialises `T` from a JSON value, naming the failing path after `prefix` (`memories[2]`).
pub fn from_json<T: serde::de::DeserializeOwned>(value: serde_json::Value, prefix: &str) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let field = match (prefix.is_empty(), path == ".") {
            (true, true) => "body".to_owned(),
            (true, false) => path,
            (false, true) => prefix.to_owned(),
            (false, false) => format!("{prefix}.{path}"),
        };
        Error::invalid(format!("{field}: {inner}"))
    })
}

/// A value in [0, 1].
pub fn unit(field: &str, value: Option<f64>) -> Result<Option<f32>, Error> {
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

/// An ISO 8601 timestamp.
pub fn timestamp(field: &str, value: Option<String>) -> Result<Option<chrono::DateTime<chrono::Utc>>, Error> {
    value
        .map(|v| {
            check_chars(field, &v, MAX_TIME_CHARS)?;
            parse_timestamp(&v).ok_or_else(|| bad(field, format!("not an ISO 8601 timestamp: {v:?}")))
        })
        .transpose()
}

/// Validates `limit` (1..=max, default `default`) and `offset` (0..=[`MAX_OFFSET`]).
pub fn page(limit: Option<i64>, offset: Option<i64>, max: i64, default: i64) -> Result<(i64, i64), Error> {
    let limit = bounded("limit", limit, 1, max, default)?;
    let offset = bounded("offset", offset, 0, MAX_OFFSET, 0)?;
    Ok((limit, offset))
}

/// An integer `field` in `min..=max`, `default` when absent.
pub fn bounded(field: &str, value: Option<i64>, min: i64, max: i64, default: i64) -> Result<i64, Error> {
    let value = value.unwrap_or(default);
    if !(min..=max).contains(&value) {
        return Err(bad(field, format!("must be between {min} and {max} (got {value})")));
    }
    Ok(value)
}
