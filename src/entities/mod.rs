//! Entities: the people, organisations, projects, tools, concepts, places, preferences and facts that
//! memories mention. `rules` finds them with local rules (no model needed), `model` with an
//! OpenAI-compatible chat model when one is configured; the enrichment job (`jobs::enrich`) links them to
//! memories and tags the memories `entity:<type>:<slug>`. Storage lives in `store::entities`, the use
//! cases (listing, merging) in `service::entities`.

pub mod model;
pub mod rules;

use chrono::{DateTime, Utc};
use serde::Serialize;
use uuid::Uuid;

/// An entity and how many memories mention it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Entity {
    pub id: Uuid,
    /// person, organization, project, tool, concept, location, preference or fact.
    #[sqlx(rename = "entity_type")]
    pub kind: String,
    /// As first seen.
    pub name: String,
    /// Lower case, whitespace collapsed: the entity's identity within its type.
    pub normalized_name: String,
    /// The tag its memories carry.
    #[sqlx(skip)]
    pub tag: String,
    /// `type:normalized_name` of the entities merged into this one; mentions of them link here.
    pub aliases: Vec<String>,
    pub memory_count: i64,
    pub created_at: DateTime<Utc>,
}

/// Every entity type, as stored.
pub const TYPES: &[&str] = &["person", "organization", "project", "tool", "concept", "location", "preference", "fact"];

/// Most entities one memory is linked to.
pub const MAX_PER_MEMORY: usize = 20;

/// Longest entity name kept (characters).
pub const MAX_NAME_CHARS: usize = 80;

/// The tag prefix of entity tags.
pub const TAG_PREFIX: &str = "entity:";

/// An entity found in a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    /// As written (or a known canonical spelling, e.g. `PostgreSQL` for `postgres`).
    pub name: String,
    pub kind: &'static str,
}

impl Found {
    pub fn normalized(&self) -> String {
        normalize_name(&self.name)
    }

    pub fn tag(&self) -> String {
        tag(self.kind, &self.normalized())
    }
}

/// An entity type named by `field`, or an error in textrawl's words.
pub fn entity_type(field: &str, value: &str) -> Result<&'static str, crate::error::Error> {
    parse_type(value).ok_or_else(|| {
        crate::error::bad(field, format!("Invalid entity type {value:?}; valid types: {}", TYPES.join(", ")))
    })
}

/// The canonical entity type for a name (`Person`, `org`, `organisation`...); None when unknown.
pub fn parse_type(value: &str) -> Option<&'static str> {
    let v = value.trim().to_ascii_lowercase();
    let v = match v.as_str() {
        "org" | "organisation" | "company" => "organization",
        "place" => "location",
        "technology" | "tech" => "tool",
        other => other,
    };
    TYPES.iter().copied().find(|t| *t == v)
}

/// The name entities are deduplicated by: surrounding punctuation dropped, whitespace collapsed,
/// lower case.
pub fn normalize_name(name: &str) -> String {
    let trimmed = name.trim_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '+' | '#'));
    trimmed.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A tag-safe slug of a normalised name: runs of letters and digits joined by `-` (`c++` → `c++`
/// keeps its pluses, as they tell it apart from `c`).
pub fn slug(normalized: &str) -> String {
    let mut out = String::with_capacity(normalized.len());
    let mut dash = false;
    for c in normalized.chars() {
        if c.is_alphanumeric() || c == '+' || c == '#' {
            if dash && !out.is_empty() {
                out.push('-');
            }
            out.extend(c.to_lowercase());
            dash = false;
        } else {
            dash = true;
        }
    }
    out
}

/// The tag that marks a memory as mentioning an entity.
pub fn tag(kind: &str, normalized: &str) -> String {
    format!("{TAG_PREFIX}{kind}:{}", slug(normalized))
}

/// Cleans a list of found entities: names trimmed and bounded, empty ones dropped, one per normalised
/// name (the more specific type wins: a name seen as a person and as a concept is a person), at most
/// [`MAX_PER_MEMORY`], in order of first appearance.
pub fn dedupe(found: Vec<Found>) -> Vec<Found> {
    let rank = |kind: &str| TYPES.iter().position(|t| *t == kind).unwrap_or(TYPES.len());
    let mut out: Vec<Found> = Vec::new();
    for f in found {
        let name: String = f.name.trim().chars().take(MAX_NAME_CHARS).collect();
        let f = Found { name: name.trim().to_owned(), kind: f.kind };
        let key = f.normalized();
        if key.is_empty() || slug(&key).is_empty() {
            continue;
        }
        match out.iter_mut().find(|o| o.normalized() == key) {
            Some(existing) if rank(f.kind) < rank(existing.kind) => existing.kind = f.kind,
            Some(_) => {}
            None => out.push(f),
        }
    }
    out.truncate(MAX_PER_MEMORY);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_and_slug() {
        assert_eq!(normalize_name("  \"New   York\". "), "new york");
        assert_eq!(slug("new york"), "new-york");
        assert_eq!(slug("c++"), "c++");
        assert_eq!(tag("tool", "vs code"), "entity:tool:vs-code");
        assert_eq!(parse_type("Organisation"), Some("organization"));
        assert_eq!(parse_type("planet"), None);
    }

    #[test]
    fn dedupe_keeps_the_most_specific_type_once() {
        let found = vec![
            Found { name: "Jeff".into(), kind: "concept" },
            Found { name: "jeff".into(), kind: "person" },
            Found { name: "...".into(), kind: "concept" },
        ];
        assert_eq!(dedupe(found), vec![Found { name: "Jeff".into(), kind: "person" }]);
    }
}
