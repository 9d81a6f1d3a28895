//! The knowledge graph's vocabulary and inputs: relation types, which of them users may author, the names
//! other systems use for them ([`canonical`]), and the parsing of associations and walks
//! ([`association`]). Storage and traversal SQL live in `store::relations`; the use cases in
//! `service::associations`.

pub mod association;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;
use uuid::Uuid;

use crate::memory::Memory;

pub use association::{
    AssociationInput, NewAssociation, RelatedParams, Walk, DEFAULT_RELATED, DEFAULT_STRENGTH, MAX_BATCH, MAX_DEPTH,
    MAX_RELATED,
};

/// Types a user (or client) may create: AutoMem's set.
pub const AUTHORABLE: &[&str] = &[
    "RELATES_TO",
    "LEADS_TO",
    "OCCURRED_BEFORE",
    "PREFERS_OVER",
    "EXEMPLIFIES",
    "CONTRADICTS",
    "REINFORCES",
    "INVALIDATED_BY",
    "EVOLVED_INTO",
    "DERIVED_FROM",
    "PART_OF",
];

/// A typed, weighted edge `memory1_id → memory2_id`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Association {
    pub id: Uuid,
    /// The source memory.
    pub memory1_id: Uuid,
    /// The target memory.
    pub memory2_id: Uuid,
    #[sqlx(rename = "rel_type")]
    pub rel_type: String,
    pub strength: f32,
    pub properties: Json<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One step of a traversal path.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct PathStep {
    pub association_id: Uuid,
    pub from: Uuid,
    pub to: Uuid,
    #[serde(rename = "type")]
    pub rel_type: String,
    pub strength: f64,
}

/// A memory reached by traversal.
#[derive(Debug, sqlx::FromRow)]
pub struct Reached {
    #[sqlx(flatten)]
    pub memory: Memory,
    pub depth: i32,
    pub path_strength: f64,
    pub path: Json<Vec<PathStep>>,
}

pub use crate::memory::SUPERSEDING;

/// Types only the service creates (enrichment, episodes, consolidation): readable and filterable.
pub const SYSTEM: &[&str] = &["SIMILAR_TO", "PRECEDED_BY", "DISCOVERED", "SUMMARIZES"];

/// remem's (and other clients') names for the authorable types, compared without case or separators.
const ALIASES: &[(&str, &str)] = &[
    ("RELATEDTO", "RELATES_TO"),
    ("RELATED", "RELATES_TO"),
    ("REFERENCES", "RELATES_TO"),
    ("CAUSES", "LEADS_TO"),
    ("CAUSEDBY", "DERIVED_FROM"),
    ("SUPPORTS", "REINFORCES"),
    ("PRECEDES", "OCCURRED_BEFORE"),
    ("EXAMPLEOF", "EXEMPLIFIES"),
    ("SUPERSEDEDBY", "INVALIDATED_BY"),
    ("CONTRADICTEDBY", "CONTRADICTS"),
];

fn squash(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_uppercase()).collect()
}

/// Where a relation type name comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Authorable,
    System,
}

/// The canonical type for a name (`RELATES_TO`, `relates-to`, `RelatedTo`, ...), and whether users may
/// author it; None for an unknown name.
pub fn canonical(name: &str) -> Option<(&'static str, Kind)> {
    let key = squash(name);
    if key.is_empty() {
        return None;
    }
    let find = |list: &'static [&'static str]| list.iter().copied().find(|t| squash(t) == key);
    find(AUTHORABLE)
        .or_else(|| ALIASES.iter().find(|(alias, _)| *alias == key).map(|(_, t)| *t))
        .map(|t| (t, Kind::Authorable))
        .or_else(|| find(SYSTEM).map(|t| (t, Kind::System)))
}

/// A type a user may author, or a 400-ready message.
pub fn authorable(field: &str, name: &str) -> Result<&'static str, String> {
    match canonical(name) {
        Some((t, Kind::Authorable)) => Ok(t),
        Some((t, Kind::System)) => Err(format!("{field}: {t} is created by the service and cannot be authored")),
        None => Err(format!("{field}: unknown relation type {name:?}; one of {}", AUTHORABLE.join(", "))),
    }
}

/// Any known type (for filters), or a 400-ready message.
pub fn any_type(field: &str, name: &str) -> Result<&'static str, String> {
    canonical(name).map(|(t, _)| t).ok_or_else(|| {
        format!("{field}: unknown relation type {name:?}; one of {}, {}", AUTHORABLE.join(", "), SYSTEM.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_without_case_or_separators_and_aliases_map_to_automem_types() {
        assert_eq!(canonical("RELATES_TO"), Some(("RELATES_TO", Kind::Authorable)));
        assert_eq!(canonical("relates-to"), Some(("RELATES_TO", Kind::Authorable)));
        assert_eq!(canonical("RelatedTo"), Some(("RELATES_TO", Kind::Authorable)));
        assert_eq!(canonical("Supports"), Some(("REINFORCES", Kind::Authorable)));
        assert_eq!(canonical("CausedBy"), Some(("DERIVED_FROM", Kind::Authorable)));
        assert_eq!(canonical("similar_to"), Some(("SIMILAR_TO", Kind::System)));
        assert_eq!(canonical("FRIENDS_WITH"), None);
        assert_eq!(canonical("__"), None);
    }

    #[test]
    fn system_types_are_readable_but_not_authorable() {
        assert!(authorable("type", "PRECEDED_BY").unwrap_err().contains("cannot be authored"));
        assert!(authorable("type", "nope").unwrap_err().contains("unknown relation type \"nope\""));
        assert_eq!(any_type("types", "PRECEDED_BY"), Ok("PRECEDED_BY"));
    }
}
