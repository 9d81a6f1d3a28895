//! Entities, and entity-grouped recall (textrawl's `recall_memories`, compact or verbose).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// An entity and how many memories mention it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "3f6d2a9e-1c4b-4e8f-9a7d-5b2c1e0f4a6d", "type": "tool", "name": "PostgreSQL",
    "normalized_name": "postgresql", "tag": "entity:tool:postgresql", "aliases": ["tool:postgres"],
    "memory_count": 12, "created_at": "2026-11-30T10:00:00Z"
}))]
pub struct Entity {
    pub id: Uuid,
    /// person, organization, project, tool, concept, location, preference or fact.
    #[serde(rename = "type")]
    pub kind: String,
    /// As first seen.
    pub name: String,
    /// Lower case, whitespace collapsed: the entity's identity within its type.
    pub normalized_name: String,
    /// The tag its memories carry.
    pub tag: String,
    /// `type:normalized_name` of the entities merged into this one; mentions of them link here.
    pub aliases: Vec<String>,
    pub memory_count: i64,
    pub created_at: DateTime<Utc>,
}

impl From<crate::entities::Entity> for Entity {
    fn from(e: crate::entities::Entity) -> Self {
        let crate::entities::Entity { id, kind, name, normalized_name, tag, aliases, memory_count, created_at } = e;
        Self { id, kind, name, normalized_name, tag, aliases, memory_count, created_at }
    }
}

/// One memory under an entity, compact.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompactMemory {
    /// Content.
    pub c: String,
    /// Score, 0..=1, two decimals.
    pub s: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CompactEntity {
    /// Name.
    pub n: String,
    /// Type.
    pub t: String,
    /// Memories.
    pub m: Vec<CompactMemory>,
}

/// The compact shape: `n` = count of memories, `e` = entities.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"n": 3, "e": [{"n": "Jeff", "t": "person", "m": [{"c": "prefers TypeScript over JavaScript", "s": 0.92},
    {"c": "uses VS Code as primary editor", "s": 0.85}]}, {"n": "Development Setup", "t": "preference",
    "m": [{"c": "dark mode enabled by default", "s": 0.78}]}]}))]
pub struct CompactRecall {
    pub n: usize,
    pub e: Vec<CompactEntity>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerboseMemory {
    pub id: Uuid,
    pub content: String,
    /// The memory's `source_type`.
    pub source: String,
    pub confidence: f32,
    pub score: f64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerboseEntity {
    pub entity_id: Uuid,
    pub entity_name: String,
    pub entity_type: String,
    pub memories: Vec<VerboseMemory>,
}

/// The verbose shape.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerboseRecall {
    pub query: String,
    /// Distinct memories returned.
    pub total_memories: usize,
    pub entities: Vec<VerboseEntity>,
    /// The search mode used (`keyword` while the model is not ready for a hybrid request).
    pub search_mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum EntityRecallResponse {
    Compact(CompactRecall),
    Verbose(VerboseRecall),
}

/// Scores to two decimals, as textrawl shows them.
fn two_decimals(score: f64) -> f64 {
    (score * 100.0).round() / 100.0
}

impl EntityRecallResponse {
    /// The grouped answer in textrawl's compact or verbose shape (MCP's `recall_memories` answers the same).
    pub fn new(query: String, grouped: crate::service::recall::Grouped) -> Self {
        match grouped.compact {
            true => Self::Compact(CompactRecall {
                n: grouped.total,
                e: grouped
                    .groups
                    .into_iter()
                    .map(|g| CompactEntity {
                        n: g.name,
                        t: g.entity_type,
                        m: g.hits
                            .into_iter()
                            .map(|h| CompactMemory { c: h.memory.content, s: two_decimals(h.score) })
                            .collect(),
                    })
                    .collect(),
            }),
            false => Self::Verbose(VerboseRecall {
                query,
                total_memories: grouped.total,
                entities: grouped
                    .groups
                    .into_iter()
                    .map(|g| VerboseEntity {
                        entity_id: g.entity_id,
                        entity_name: g.name,
                        entity_type: g.entity_type,
                        memories: g
                            .hits
                            .into_iter()
                            .map(|h| VerboseMemory {
                                id: h.memory.id,
                                content: h.memory.content,
                                source: h.memory.source_type,
                                confidence: h.memory.confidence,
                                score: two_decimals(h.score),
                            })
                            .collect(),
                    })
                    .collect(),
                search_mode: grouped.mode,
                notice: grouped.notice,
            }),
        }
    }
}
