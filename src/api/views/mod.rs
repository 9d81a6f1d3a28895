//! The response shapes the surfaces share: how a memory, an association, an entity, a key, a recall hit,
//! a run... look over HTTP and MCP. The domain and store types say what things are; these say how they
//! are shown, and carry the OpenAPI schemas. Each is built from its domain value by `From`, destructuring
//! it whole, so a field added to the domain cannot be forgotten here without the build failing.

pub mod automem;
pub mod control;
pub mod shodh;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::consolidation::{Horizon, Mode};
use crate::recall::score::ScoreComponents as Components;

/// A stored memory, as every route returns it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10",
    "content": "Chose PostgreSQL over MongoDB: we need ACID transactions.",
    "content_hash": "5d41402abc4b2a76b9719d911017c592ae1d8c5e0f0c6b5b1f3c7b6c0f3e2a1b",
    "type": "Decision", "confidence": 0.9, "memory_type": "long_term", "ttl": null, "expires_at": null,
    "tags": ["project-alpha", "database"], "tag_prefixes": ["project-alpha", "database"],
    "importance": 0.9, "metadata": {"alternatives": ["MongoDB"]}, "source_type": "user", "credibility": 1.0,
    "quality_score": null, "emotion": null, "emotional_valence": null, "emotional_arousal": null,
    "flashbulb_until": null, "episode_id": null, "sequence_number": null,
    "user_id": "user-42", "agent_id": null, "run_id": null, "t_valid": null, "t_invalid": null,
    "created_at": "2026-11-29T10:30:00Z", "updated_at": "2026-11-29T10:30:00Z", "last_accessed_at": null,
    "access_count": 0, "archived_at": null, "embedding_status": "pending", "embedding_model": null,
    "embedding_error": null, "enrichment_status": "pending", "summary": null,
    "summarized": false, "original_length": null, "summarized_length": null
}))]
pub struct Memory {
    pub id: Uuid,
    pub content: String,
    /// sha-256 (hex) of the normalised content; the tenant-wide dedup key.
    pub content_hash: String,
    /// The classification.
    #[serde(rename = "type")]
    pub kind: String,
    /// Confidence in the classification, 0..=1.
    pub confidence: f32,
    /// `short_term` or `long_term`.
    pub memory_type: String,
    /// Time to live in seconds, for short-term memories.
    pub ttl: Option<i64>,
    pub expires_at: Option<DateTime<Utc>>,
    pub tags: Vec<String>,
    /// Every hierarchical prefix of every tag (split on `:` and `/`).
    pub tag_prefixes: Vec<String>,
    pub importance: f32,
    #[schema(value_type = Object)]
    pub metadata: Value,
    pub source_type: String,
    pub credibility: f32,
    pub quality_score: Option<f32>,
    pub emotion: Option<String>,
    pub emotional_valence: Option<f32>,
    pub emotional_arousal: Option<f32>,
    /// Until when this flashbulb memory is exempt from decay and forgetting.
    pub flashbulb_until: Option<DateTime<Utc>>,
    pub episode_id: Option<String>,
    pub sequence_number: Option<i32>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub t_valid: Option<DateTime<Utc>>,
    pub t_invalid: Option<DateTime<Utc>>,
    /// The memory's own timestamp (may be back-dated).
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_accessed_at: Option<DateTime<Utc>>,
    pub access_count: i64,
    pub archived_at: Option<DateTime<Utc>>,
    /// `pending`, `ready` or `failed`.
    pub embedding_status: String,
    pub embedding_model: Option<String>,
    /// Why the last embedding attempt failed, while it is failing.
    pub embedding_error: Option<String>,
    /// Whether enrichment (entities and their tags) has run on the current content: `pending`, `ready` or
    /// `failed`.
    pub enrichment_status: String,
    /// Enrichment's one-line summary (the first sentence, at most 120 characters).
    pub summary: Option<String>,
    /// Whether the content is a summary of a longer original (500-2000 characters, kept in
    /// `metadata.original_content`).
    pub summarized: bool,
    pub original_length: Option<i32>,
    pub summarized_length: Option<i32>,
}

impl From<crate::memory::Memory> for Memory {
    fn from(m: crate::memory::Memory) -> Self {
        let crate::memory::Memory {
            id,
            content,
            content_hash,
            kind,
            confidence,
            memory_type,
            ttl,
            expires_at,
            tags,
            tag_prefixes,
            importance,
            metadata,
            source_type,
            credibility,
            quality_score,
            emotion,
            emotional_valence,
            emotional_arousal,
            flashbulb_until,
            episode_id,
            sequence_number,
            user_id,
            agent_id,
            run_id,
            t_valid,
            t_invalid,
            created_at,
            updated_at,
            last_accessed_at,
            access_count,
            archived_at,
            embedding_status,
            embedding_model,
            embedding_error,
            enrichment_status,
            summary,
            summarized,
            original_length,
            summarized_length,
        } = m;
        Self {
            id,
            content,
            content_hash,
            kind,
            confidence,
            memory_type,
            ttl,
            expires_at,
            tags,
            tag_prefixes,
            importance,
            metadata,
            source_type,
            credibility,
            quality_score,
            emotion,
            emotional_valence,
            emotional_arousal,
            flashbulb_until,
            episode_id,
            sequence_number,
            user_id,
            agent_id,
            run_id,
            t_valid,
            t_invalid,
            created_at,
            updated_at,
            last_accessed_at,
            access_count,
            archived_at,
            embedding_status,
            embedding_model,
            embedding_error,
            enrichment_status,
            summary,
            summarized,
            original_length,
            summarized_length,
        }
    }
}

/// Memories shown.
pub fn memories(list: Vec<crate::memory::Memory>) -> Vec<Memory> {
    list.into_iter().map(Memory::from).collect()
}

/// A page of memories, in whichever shape a surface shows a memory (`T`): every listing's page.
#[derive(Debug, Serialize)]
pub struct MemoryPage<T: ToSchema> {
    pub memories: Vec<T>,
    /// Memories on this page.
    pub count: usize,
    /// How many memories match in all.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    /// Whether another page follows.
    pub has_more: bool,
}

/// Written by hand: utoipa's derive copies a generic field's schema inline, and SDK generators then make an
/// anonymous type of each copy; here `memories` refers to `T`'s schema by name.
impl<T: ToSchema> utoipa::PartialSchema for MemoryPage<T> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        let integer =
            |description: &str| ObjectBuilder::new().schema_type(Type::Integer).description(Some(description));
        ObjectBuilder::new()
            .description(Some("A page of memories, with the total the listing's filters match."))
            .property("memories", ArrayBuilder::new().items(utoipa::openapi::Ref::from_schema_name(T::name())))
            .property("count", integer("Memories on this page.").minimum(Some(0.0)))
            .property("total", integer("How many memories match in all."))
            .property("limit", integer("The page size asked for."))
            .property("offset", integer("Memories skipped."))
            .property(
                "has_more",
                ObjectBuilder::new().schema_type(Type::Boolean).description(Some("Whether another page follows.")),
            )
            .required("memories")
            .required("count")
            .required("total")
            .required("limit")
            .required("offset")
            .required("has_more")
            .into()
    }
}

impl<T: ToSchema> ToSchema for MemoryPage<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        // "MemoryPage" for the native shape, "AutoMemMemoryPage" for AutoMem's: names SDK generators keep as
        // they are (`MemoryPage_Memory` became `MemoryPageMemory`).
        match T::name() {
            name if name == "Memory" => "MemoryPage".into(),
            name => format!("{name}Page").into(),
        }
    }

    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        schemas.push((T::name().into_owned(), T::schema()));
        T::schemas(schemas);
    }
}

/// A page of memories in the native shape (what utoipa's macros name: they take no generic arguments
/// of a hand-written schema).
pub type MemoryList = MemoryPage<Memory>;

impl<T: ToSchema> MemoryPage<T> {
    /// The page of a listing, each memory shown as `T`.
    pub fn new(page: crate::service::Page<crate::memory::Memory>) -> Self
    where
        T: From<crate::memory::Memory>,
    {
        let has_more = page.has_more();
        let memories: Vec<T> = page.items.into_iter().map(T::from).collect();
        Self { count: memories.len(), memories, total: page.total, limit: page.limit, offset: page.offset, has_more }
    }
}

/// What a delete by tag removed (native, AutoMem and MCP).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "tags": ["scratch"], "deleted_count": 42}))]
pub struct DeletedByTag {
    pub status: &'static str,
    pub tags: Vec<String>,
    pub deleted_count: i64,
}

/// One change to a memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemoryEvent {
    /// Increases with every event of the tenant.
    pub id: i64,
    pub memory_id: Uuid,
    /// created, updated, deleted, archived, promoted, superseded, decayed, restored or forgotten.
    pub event_type: String,
    /// The API key id (`key:<uuid>`) or background job (`system:<job>`) that made the change.
    pub actor: String,
    /// The memory before the change (absent for `created`).
    #[schema(value_type = Option<Object>)]
    pub before: Option<Value>,
    /// The memory after the change (absent for `deleted`).
    #[schema(value_type = Option<Object>)]
    pub after: Option<Value>,
    pub created_at: DateTime<Utc>,
}

impl From<crate::memory::MemoryEvent> for MemoryEvent {
    fn from(e: crate::memory::MemoryEvent) -> Self {
        let crate::memory::MemoryEvent { id, memory_id, event_type, actor, before, after, created_at } = e;
        Self { id, memory_id, event_type, actor, before, after, created_at }
    }
}

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

/// An API key's stored row, never its secret.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ApiKeyInfo {
    pub id: Uuid,
    pub tenant_id: Uuid,
    /// The public part of the key (`cairn_<prefix>_...`), for recognising it.
    pub prefix: String,
    pub name: Option<String>,
    pub scopes: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
    /// The key's own requests-per-second limit (absent: its plan's).
    pub rate_limit_per_second: Option<i32>,
    /// The key this one replaced by rotation.
    pub rotated_from: Option<Uuid>,
}

impl From<crate::auth::ApiKeyInfo> for ApiKeyInfo {
    fn from(k: crate::auth::ApiKeyInfo) -> Self {
        let crate::auth::ApiKeyInfo {
            id,
            tenant_id,
            prefix,
            name,
            scopes,
            created_at,
            expires_at,
            revoked_at,
            last_used_at,
            rate_limit_per_second,
            rotated_from,
        } = k;
        Self {
            id,
            tenant_id,
            prefix,
            name,
            scopes,
            created_at,
            expires_at,
            revoked_at,
            last_used_at,
            rate_limit_per_second,
            rotated_from,
        }
    }
}

/// A tenant's lifecycle settings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"forgetting_enabled": false, "forgetting_grace_days": 90, "archive_retention_days": null,
    "undo_days": 7}))]
pub struct TenantSettings {
    /// Active forgetting: archive memories whose health reached 0 (off by default).
    pub forgetting_enabled: bool,
    /// Memories younger than this are never forgotten (0..=3650, default 90).
    pub forgetting_grace_days: i32,
    /// Archived memories older than this are deleted (1..=36500; null, the default: never); deleted
    /// memories stay restorable for `undo_days`.
    pub archive_retention_days: Option<i32>,
    /// Days a deleted memory can be restored (`POST /api/v1/memories/{id}/restore`) before it is erased for
    /// good (0..=365, default 7).
    pub undo_days: i32,
}

impl From<crate::memory::TenantSettings> for TenantSettings {
    fn from(s: crate::memory::TenantSettings) -> Self {
        let crate::memory::TenantSettings {
            forgetting_enabled,
            forgetting_grace_days,
            archive_retention_days,
            undo_days,
        } = s;
        Self { forgetting_enabled, forgetting_grace_days, archive_retention_days, undo_days }
    }
}

/// How many memories of one classification.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TypeCount {
    /// The classification (`Decision`, `Observation`...).
    pub memory_type: String,
    pub count: i64,
}

/// Memories by embedding state.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmbeddingCounts {
    pub ready: i64,
    pub pending: i64,
    pub failed: i64,
}

/// A tenant's memories in numbers. "Active" memories are those recall and listings return: neither archived
/// nor expired.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"total_memories": 42, "memories_last_7_days": 5, "archived": 3, "short_term": 4,
    "long_term": 38, "embeddings": {"ready": 41, "pending": 1, "failed": 0},
    "by_type": [{"memory_type": "Decision", "count": 12}], "associations": 17, "entities": 9, "tags": 23}))]
pub struct TenantStats {
    /// Active memories.
    pub total_memories: i64,
    /// Active memories created in the last 7 days.
    pub memories_last_7_days: i64,
    /// Archived or expired memories, kept until retention purges them.
    pub archived: i64,
    /// Active short-term memories.
    pub short_term: i64,
    /// Active long-term memories.
    pub long_term: i64,
    /// Active memories by embedding state.
    pub embeddings: EmbeddingCounts,
    /// Active memories by classification, most first.
    pub by_type: Vec<TypeCount>,
    /// Associations between memories.
    pub associations: i64,
    /// Entities found in memories.
    pub entities: i64,
    /// Distinct tags on active memories.
    pub tags: i64,
}

impl From<crate::memory::TenantStats> for TenantStats {
    fn from(s: crate::memory::TenantStats) -> Self {
        let crate::memory::TenantStats {
            total_memories,
            memories_last_7_days,
            archived,
            short_term,
            long_term,
            embeddings,
            by_type,
            associations,
            entities,
            tags,
        } = s;
        Self {
            total_memories,
            memories_last_7_days,
            archived,
            short_term,
            long_term,
            embeddings: EmbeddingCounts {
                ready: embeddings.ready,
                pending: embeddings.pending,
                failed: embeddings.failed,
            },
            by_type: type_counts(by_type),
            associations,
            entities,
            tags,
        }
    }
}

/// Counts by classification, shown.
pub fn type_counts(counts: Vec<crate::memory::TypeCount>) -> Vec<TypeCount> {
    counts.into_iter().map(|c| TypeCount { memory_type: c.memory_type, count: c.count }).collect()
}

/// A consolidation mode: full, decay, creative, cluster or forget.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConsolidationMode {
    Full,
    Decay,
    Creative,
    Cluster,
    Forget,
}

impl From<Mode> for ConsolidationMode {
    fn from(m: Mode) -> Self {
        match m {
            Mode::Full => Self::Full,
            Mode::Decay => Self::Decay,
            Mode::Creative => Self::Creative,
            Mode::Cluster => Self::Cluster,
            Mode::Forget => Self::Forget,
        }
    }
}

/// A consolidation horizon: the memories clustering and discovery look at.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TimeHorizon {
    Daily,
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

impl From<Horizon> for TimeHorizon {
    fn from(h: Horizon) -> Self {
        match h {
            Horizon::Daily => Self::Daily,
            Horizon::Weekly => Self::Weekly,
            Horizon::Monthly => Self::Monthly,
            Horizon::Quarterly => Self::Quarterly,
            Horizon::Yearly => Self::Yearly,
        }
    }
}

/// What a consolidation run did (or, dry, would do).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"processed": 240, "archived": 3, "decayed": 120, "associations_created": 7,
    "associations_decayed": 2, "clusters_created": 4, "summaries_created": 1, "duration_ms": 85}))]
pub struct Report {
    /// Memories of the horizon considered by clustering and discovery.
    pub processed: usize,
    /// Memories archived by forgetting.
    pub archived: u64,
    /// Memories whose importance decayed.
    pub decayed: u64,
    /// DISCOVERED and SUMMARIZES edges created.
    pub associations_created: u64,
    /// Edges whose learned strength decayed.
    pub associations_decayed: u64,
    /// Clusters found (connected components of at least 3).
    pub clusters_created: usize,
    /// Summary memories written for clusters of at least 5.
    pub summaries_created: usize,
    pub duration_ms: u64,
    /// Set when part of the run was skipped, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

impl From<crate::consolidation::Report> for Report {
    fn from(r: crate::consolidation::Report) -> Self {
        let crate::consolidation::Report {
            processed,
            archived,
            decayed,
            associations_created,
            associations_decayed,
            clusters_created,
            summaries_created,
            duration_ms,
            notice,
        } = r;
        Self {
            processed,
            archived,
            decayed,
            associations_created,
            associations_decayed,
            clusters_created,
            summaries_created,
            duration_ms,
            notice,
        }
    }
}

/// A consolidation run, manual or scheduled.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RunRecord {
    pub id: Uuid,
    pub mode: String,
    pub time_horizon: String,
    pub dry_run: bool,
    /// `manual` or `schedule`.
    pub trigger: String,
    /// `queued` (waiting for a worker), `done` or `failed`.
    pub status: String,
    /// The time the run works as of (when it was asked for).
    pub started_at: DateTime<Utc>,
    /// Set once it is done or failed.
    pub finished_at: Option<DateTime<Utc>>,
    /// What it did, once done.
    #[schema(value_type = Option<Object>)]
    pub report: Option<Value>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl From<crate::consolidation::RunRecord> for RunRecord {
    fn from(r: crate::consolidation::RunRecord) -> Self {
        let crate::consolidation::RunRecord {
            id,
            mode,
            time_horizon,
            dry_run,
            trigger,
            status,
            started_at,
            finished_at,
            report,
            error,
        } = r;
        Self {
            id,
            mode,
            time_horizon,
            dry_run,
            trigger,
            status,
            started_at,
            finished_at,
            report: report.map(|r| r.0),
            error,
        }
    }
}

/// A consolidation that finished within the request's wait.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConsolidateResponse {
    /// Always `success`.
    pub status: &'static str,
    pub mode: ConsolidationMode,
    pub time_horizon: TimeHorizon,
    pub dry_run: bool,
    #[serde(flatten)]
    pub report: Report,
    /// The run, as listed by `GET /api/v1/consolidate/runs/{id}`.
    pub run_id: Uuid,
}

/// A consolidation still on its way when the request stopped waiting (202).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "queued", "run_id": "0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10",
    "message": "the run is queued; GET /api/v1/consolidate/runs/0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10 shows it"}))]
pub struct ConsolidationQueued {
    /// `queued`.
    pub status: String,
    pub run_id: Uuid,
    pub message: String,
}

/// A consolidation request's answer: the run's report (200), or where to find the run (202).
pub fn consolidated(requested: crate::service::consolidation::Requested) -> axum::response::Response {
    use crate::service::consolidation::Requested;
    use axum::response::IntoResponse;
    match requested {
        Requested::Done { run, report } => {
            let mode = crate::consolidation::Mode::parse(&run.mode).unwrap_or(crate::consolidation::Mode::Full);
            let horizon = crate::consolidation::Horizon::parse(&run.time_horizon)
                .unwrap_or(crate::consolidation::Horizon::Weekly);
            axum::Json(ConsolidateResponse {
                status: "success",
                mode: mode.into(),
                time_horizon: horizon.into(),
                dry_run: run.dry_run,
                report: report.into(),
                run_id: run.id,
            })
            .into_response()
        }
        Requested::Pending(run) => (
            axum::http::StatusCode::ACCEPTED,
            axum::Json(ConsolidationQueued {
                message: format!("the run is {}; GET /api/v1/consolidate/runs/{} shows it", run.status, run.id),
                status: run.status,
                run_id: run.id,
            }),
        )
            .into_response(),
    }
}

/// Why a recall result scored as it did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoreComponents {
    /// Cosine similarity to the query, clamped to [0, 1].
    pub semantic: Option<f64>,
    /// Keyword rank relative to the best keyword match, [0, 1].
    pub keyword: Option<f64>,
    /// The fused query relevance.
    pub relevance: Option<f64>,
    pub importance: f64,
    /// `0.5^(age / 30 days)`.
    pub recency: f64,
    pub confidence: f64,
    pub credibility: f64,
    /// Share of the requested tags present.
    pub tag_match: Option<f64>,
    /// Match with the time the query names ("in May 2023": 1 inside that period, less the further outside)
    /// or asks about ("when…": 1 when the memory states a time); absent when the query says nothing of time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_match: Option<f64>,
    /// Share of the query's content words (stop words aside, compared by their first five letters) the memory
    /// holds; absent in semantic and associative mode and when the query has only stop words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
    /// The quality score used when `quality_boost` is on.
    pub quality: Option<f64>,
    /// The reranker's relevance, when a rerank stage ordered this result; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerank: Option<f64>,
    /// For a memory of an episode: the best score among the other candidates of its episode at most two
    /// places away; the memory's score moved 0.4 of the way up to it when it was higher. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neighbour: Option<f64>,
}

impl From<Components> for ScoreComponents {
    fn from(c: Components) -> Self {
        let Components {
            semantic,
            keyword,
            relevance,
            importance,
            recency,
            confidence,
            credibility,
            tag_match,
            time_match,
            coverage,
            quality,
            rerank,
            neighbour,
        } = c;
        Self {
            semantic,
            keyword,
            relevance,
            importance,
            recency,
            confidence,
            credibility,
            tag_match,
            time_match,
            coverage,
            quality,
            rerank,
            neighbour,
        }
    }
}

/// One recalled memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallHit {
    pub memory: Memory,
    /// Overall score in [0, 1].
    pub score: f64,
    /// `hybrid` (found by meaning and keywords), `semantic`, `keyword`, `associative`, or `filter` (no query).
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
    /// Set when this memory stands in for a superseded one that matched (`state_mode=current`): its id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Uuid>,
}

impl From<crate::recall::RecallHit> for RecallHit {
    fn from(h: crate::recall::RecallHit) -> Self {
        let crate::recall::RecallHit { memory, score, match_type, score_components, replaces } = h;
        Self { memory: memory.into(), score, match_type, score_components: score_components.into(), replaces }
    }
}

/// A memory added by `expand_relations` or `expand_entities`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Expansion {
    pub memory: Memory,
    /// The result it is associated with.
    pub expanded_from: Uuid,
    /// The association's type (`SHARES_ENTITY` for an entity expansion) and strength.
    pub relation: String,
    pub strength: f32,
    /// For an entity expansion: the shared entity, as `type:name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// The result's score times the strength.
    pub score: f64,
    /// Always `expansion`.
    pub match_type: &'static str,
}

impl From<crate::recall::Expansion> for Expansion {
    fn from(e: crate::recall::Expansion) -> Self {
        let crate::recall::Expansion { memory, expanded_from, relation, strength, entity, score } = e;
        Self { memory: memory.into(), expanded_from, relation, strength, entity, score, match_type: "expansion" }
    }
}

/// Expansions shown.
pub fn expansions(list: Option<Vec<crate::recall::Expansion>>) -> Option<Vec<Expansion>> {
    list.map(|l| l.into_iter().map(Expansion::from).collect())
}

/// A recall's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallResponse {
    pub results: Vec<RecallHit>,
    /// Results on this page.
    pub count: usize,
    /// Whether more results follow (`offset + limit`).
    pub has_more: bool,
    /// The mode actually used (`keyword` when the model is not ready for a hybrid request).
    pub mode: &'static str,
    /// Set when the answer is degraded, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// With `expand_relations` / `expand_entities`: memories one association away from the results, or
    /// sharing an entity with them (not among them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansions: Option<Vec<Expansion>>,
}

impl From<crate::recall::RecallResponse> for RecallResponse {
    fn from(r: crate::recall::RecallResponse) -> Self {
        let crate::recall::RecallResponse { results, has_more, mode, notice, expansions: more } = r;
        Self {
            count: results.len(),
            results: results.into_iter().map(RecallHit::from).collect(),
            has_more,
            mode,
            notice,
            expansions: expansions(more),
        }
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

/// Service health, for every surface's health route.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "healthy", "database": "ok", "embedder": "ready", "version": "0.1.0",
    "uptime_seconds": 42, "timestamp": "2026-11-30T10:00:00Z", "falkordb": "connected", "qdrant": "connected"}))]
pub struct Health {
    /// `healthy`, or `degraded` when the database does not answer (AutoMem's and SHODH's vocabulary).
    pub status: &'static str,
    /// `ok` or `unreachable`.
    pub database: &'static str,
    /// The embedding model: `ready`, `loading`, `failed` or `disabled` (none configured; keyword recall only).
    pub embedder: &'static str,
    pub version: &'static str,
    pub uptime_seconds: u64,
    pub timestamp: DateTime<Utc>,
    /// AutoMem's graph store: Cairn's graph lives in Postgres, so `connected` when Postgres answers, else
    /// `disconnected`.
    pub falkordb: &'static str,
    /// AutoMem's vector store: Cairn's vectors live in Postgres (pgvector), so `connected` when Postgres
    /// answers, else `disconnected`.
    pub qdrant: &'static str,
}

impl Health {
    /// 200 when the database answers, else 503 (the body says which part is down).
    pub fn status_code(&self) -> axum::http::StatusCode {
        match self.database {
            "ok" => axum::http::StatusCode::OK,
            _ => axum::http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<crate::service::health::Health> for Health {
    fn from(h: crate::service::health::Health) -> Self {
        let store = if h.database { "connected" } else { "disconnected" };
        Self {
            status: if h.database { "healthy" } else { "degraded" },
            database: if h.database { "ok" } else { "unreachable" },
            embedder: h.embedder,
            version: crate::VERSION,
            uptime_seconds: h.uptime_seconds,
            timestamp: h.checked_at,
            falkordb: store,
            qdrant: store,
        }
    }
}
