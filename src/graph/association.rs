//! Associations and walks as callers give them: [`AssociationInput`] (one edge), [`RelatedParams`] (a
//! traversal), parsed into [`NewAssociation`] and [`Walk`] with every error naming its field.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::{any_type, authorable, AUTHORABLE};
use crate::error::{bad, Error};
use crate::memory::normalize_tag_filter;
use crate::validate::{self, StringList};

/// Most associations in one batch.
pub const MAX_BATCH: usize = 500;
/// Deepest traversal.
pub const MAX_DEPTH: i32 = 3;
/// Most memories one traversal returns, and its default.
pub const MAX_RELATED: i64 = 200;
pub const DEFAULT_RELATED: i64 = 50;
/// Strength of an association that names none.
pub const DEFAULT_STRENGTH: f32 = 0.5;

/// One association: the one definition the native API, AutoMem's `/associate`, remem's connections and
/// MCP's `associate_memories` read. Parsed field by field ([`NewAssociation::parse`]) so that every error
/// names its field.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(example = &*ASSOCIATION_EXAMPLE)]
pub struct AssociationInput {
    /// The source memory.
    pub memory1_id: Uuid,
    /// The target memory; never the source itself.
    pub memory2_id: Uuid,
    /// An authorable type (AutoMem's RELATES_TO, LEADS_TO, OCCURRED_BEFORE, PREFERS_OVER, EXEMPLIFIES,
    /// CONTRADICTS, REINFORCES, INVALIDATED_BY, EVOLVED_INTO, DERIVED_FROM, PART_OF; remem's names such as
    /// RelatedTo, CausedBy, References, Supports are accepted). Default RELATES_TO.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = AUTHORABLE))]
    pub rel_type: Option<String>,
    /// 0..=1, default 0.5. The same pair and type again updates the strength.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub strength: Option<f32>,
    /// Free-form object.
    pub properties: Option<Map<String, Value>>,
}

static ASSOCIATION_EXAMPLE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    json!({"memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11", "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b",
        "type": "PREFERS_OVER", "strength": 0.8, "properties": {"reason": "benchmarks"}})
});

/// A validated association to store.
#[derive(Debug, Clone)]
pub struct NewAssociation {
    pub source: Uuid,
    pub target: Uuid,
    pub rel_type: &'static str,
    pub strength: f32,
    pub properties: Value,
}

fn field<'a>(item: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    item.get(name).filter(|v| !v.is_null())
}

fn uuid_field(item: &Map<String, Value>, prefix: &str, name: &str) -> Result<Uuid, Error> {
    match field(item, name) {
        None => Err(Error::invalid(format!("{prefix}{name}: is required"))),
        Some(Value::String(s)) => {
            Uuid::parse_str(s.trim()).map_err(|_| Error::invalid(format!("{prefix}{name}: not a valid UUID: {s:?}")))
        }
        Some(_) => Err(Error::invalid(format!("{prefix}{name}: must be a UUID string"))),
    }
}

impl NewAssociation {
    /// Validates one association given as JSON (everything but the memories' existence); `prefix` names
    /// its place in a batch (`associations[2].`).
    pub fn parse(value: &Value, prefix: &str) -> Result<Self, Error> {
        let Value::Object(item) = value else {
            let field = if prefix.is_empty() { "body" } else { prefix.trim_end_matches('.') };
            return Err(Error::invalid(format!("{field}: must be an object")));
        };
        let source = uuid_field(item, prefix, "memory1_id")?;
        let target = uuid_field(item, prefix, "memory2_id")?;
        if source == target {
            return Err(Error::invalid(format!("{prefix}memory2_id: a memory cannot be associated with itself")));
        }
        let rel_type = match field(item, "type") {
            None => "RELATES_TO",
            Some(Value::String(s)) => authorable(&format!("{prefix}type"), s).map_err(Error::Invalid)?,
            Some(_) => return Err(Error::invalid(format!("{prefix}type: must be a string"))),
        };
        let strength = match field(item, "strength") {
            None => DEFAULT_STRENGTH,
            Some(v) => match v.as_f64() {
                Some(s) if (0.0..=1.0).contains(&s) => s as f32,
                _ => {
                    return Err(Error::invalid(format!("{prefix}strength: must be a number between 0 and 1 (got {v})")))
                }
            },
        };
        let properties = match field(item, "properties") {
            None => json!({}),
            Some(v @ Value::Object(_)) => {
                validate::check_depth(&format!("{prefix}properties"), v)?;
                v.clone()
            }
            Some(_) => return Err(Error::invalid(format!("{prefix}properties: must be an object"))),
        };
        Ok(Self { source, target, rel_type, strength, properties })
    }
}

/// A traversal from one memory, as callers give it.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
pub struct RelatedParams {
    /// Hops to follow, 1..=3 (default 1).
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    pub depth: Option<i32>,
    /// Relation types to follow (repeat or comma-separate; system types too). Default: all.
    #[serde(default)]
    pub types: StringList,
    /// 1..=200 (default 50).
    #[schemars(range(min = 1, max = MAX_RELATED))]
    pub limit: Option<i64>,
    /// Follow only edges at least this strong, 0..=1 (default 0).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_strength: Option<f64>,
}

/// How to walk the graph.
#[derive(Debug, Clone)]
pub struct Walk {
    pub depth: i32,
    /// Relation types to follow (None: all).
    pub types: Option<Vec<String>>,
    pub min_strength: f32,
    pub limit: i64,
}

impl RelatedParams {
    pub fn parse(self) -> Result<Walk, Error> {
        let depth = self.depth.unwrap_or(1);
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(bad("depth", format!("must be between 1 and {MAX_DEPTH} (got {depth})")));
        }
        let limit = validate::bounded("limit", self.limit, 1, MAX_RELATED, DEFAULT_RELATED)?;
        let min_strength = validate::unit("min_strength", self.min_strength)?.unwrap_or(0.0);
        let types = normalize_tag_filter(&self.types.0, "types", validate::MAX_RELATION_TYPES)?;
        let types = match types.is_empty() {
            true => None,
            false => Some(
                types
                    .iter()
                    .map(|t| any_type("types", t).map(str::to_owned))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(Error::Invalid)?,
            ),
        };
        Ok(Walk { depth, types, min_strength, limit })
    }
}
