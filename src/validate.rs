//! Checks every input shares, whatever it is about: bounded integers, pages, values in [0, 1],
//! timestamps, and lists given as one string or many. Every error names its field.

use std::fmt;

use schemars::JsonSchema;
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::error::{bad, Error};
use crate::memory::parse_timestamp;

/// Largest `offset` of any listing.
pub const MAX_OFFSET: i64 = 1_000_000;

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
        .map(|v| parse_timestamp(&v).ok_or_else(|| bad(field, format!("not an ISO 8601 timestamp: {v:?}"))))
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
