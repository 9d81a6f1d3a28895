//! Associations and what a traversal reaches.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::Memory;

/// A typed, weighted edge `memory1_id → memory2_id`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10",
    "memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11", "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b",
    "type": "PREFERS_OVER", "strength": 0.8, "properties": {"reason": "benchmarks"},
    "created_at": "2026-11-30T10:00:00Z", "updated_at": "2026-11-30T10:00:00Z"
}))]
pub struct Association {
    pub id: Uuid,
    /// The source memory.
    pub memory1_id: Uuid,
    /// The target memory.
    pub memory2_id: Uuid,
    #[serde(rename = "type")]
    pub rel_type: String,
    pub strength: f32,
    #[schema(value_type = Object)]
    pub properties: Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<crate::graph::Association> for Association {
    fn from(a: crate::graph::Association) -> Self {
        let crate::graph::Association {
            id,
            memory1_id,
            memory2_id,
            rel_type,
            strength,
            properties,
            created_at,
            updated_at,
        } = a;
        Self { id, memory1_id, memory2_id, rel_type, strength, properties: properties.0, created_at, updated_at }
    }
}

/// One step of a traversal path.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PathStep {
    pub association_id: Uuid,
    pub from: Uuid,
    pub to: Uuid,
    #[serde(rename = "type")]
    pub rel_type: String,
    pub strength: f64,
}

impl From<crate::graph::PathStep> for PathStep {
    fn from(s: crate::graph::PathStep) -> Self {
        let crate::graph::PathStep { association_id, from, to, rel_type, strength } = s;
        Self { association_id, from, to, rel_type, strength }
    }
}

/// A memory reached from the start of a traversal.
#[derive(Debug, Serialize, ToSchema)]
pub struct RelatedMemory {
    pub memory: Memory,
    /// Hops from the start.
    pub depth: i32,
    /// Product of the edge strengths along `path`.
    pub path_strength: f64,
    /// The strongest path from the start, edge by edge.
    pub path: Vec<PathStep>,
}

impl From<crate::graph::Reached> for RelatedMemory {
    fn from(r: crate::graph::Reached) -> Self {
        Self {
            memory: r.memory.into(),
            depth: r.depth,
            path_strength: r.path_strength,
            path: r.path.0.into_iter().map(PathStep::from).collect(),
        }
    }
}
