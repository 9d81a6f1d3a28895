//! AutoMem's API at the root (seed 000): `/memory`, `/memory/batch`, `/memory/{id}`, `/recall`,
//! `/memory/by-tag`, `/associate`, `/memories/{id}/related`, `/consolidate`, `/admin/reembed` (and
//! `/health`, served by `api::health`). Every handler translates AutoMem's names and shapes onto the use
//! cases; its reply shapes are `views::automem`.

use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::{Admin, Writer};
use super::error::ApiResult;
use super::extract::{batch_values, on_duplicate, ApiJson, ApiQuery, PathId};
use super::views::automem::{
    AutoMemBatchStored, AutoMemMemory, AutoMemMemoryList, MemoryIdResponse, RecallAnswer, Stored,
};
use super::views::{self, Association, DeletedByTag, MemoryPage, RelatedMemory};
use super::AppState;
use crate::auth::Tenant;
use crate::graph::{AssociationInput, RelatedParams};
use crate::memory::filter::TagParams;
use crate::memory::{MemoryInput, MemoryPatch};
use crate::recall::{MultiParams, MultiRequest};
use crate::service::consolidation::{self, ConsolidateParams};
use crate::service::memories::{self, BatchRules, Duplicates, MAX_BATCH};
use crate::service::{associations, jobs, recall};
use crate::validate::StringList;

const TAG: &str = "automem";
/// Relations shown with a memory (AutoMem's `RECALL_RELATION_LIMIT`).
const RELATION_LIMIT: i64 = 5;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(store))
        .routes(routes!(store_batch))
        .routes(routes!(by_tag, delete_by_tag))
        .routes(routes!(get_memory, patch_memory, delete_memory))
        .routes(routes!(recall_memories))
        .routes(routes!(associate))
        .routes(routes!(related))
        .routes(routes!(consolidate_memories))
        .routes(routes!(reembed))
}

/// Store a memory (AutoMem).
///
/// The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
/// hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content the
/// tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.
#[utoipa::path(post, path = "/memory", operation_id = "automem.store", tag = TAG, request_body(content = MemoryInput, example = json!({
        "content": "Chose PostgreSQL over MongoDB. Need ACID guarantees for transactions. Impact: ensures data consistency.",
        "type": "Decision", "tags": ["project-alpha", "database", "architecture"], "importance": 0.9,
        "metadata": {"files_modified": ["db/config.py"], "alternatives": ["MongoDB", "MySQL"]}})),
    responses(
        (status = 201, description = "Stored", body = Stored),
        (status = 200, description = "Content already stored: the existing memory, `deduplicated: true`", body = Stored),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "`supersedes_memory_id` names no memory of this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn store(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(input): ApiJson<MemoryInput>,
) -> ApiResult<(StatusCode, Json<Stored>)> {
    let started = Instant::now();
    let outcome = memories::store(&services, &tenant, input, Duplicates::Reuse).await?;
    let stored = Stored::new(&services.embedder.state(), &outcome, started);
    let status = if stored.deduplicated.is_some() { StatusCode::OK } else { StatusCode::CREATED };
    Ok((status, Json(stored)))
}

/// `{"memories": [...]}` of AutoMem's batch (documentation shape; parsing is item by item).
#[derive(Debug, Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct AutoMemBatch {
    pub memories: Vec<MemoryInput>,
    /// `existing` (default: an item whose content is held resolves to that memory), `error` or `store`.
    pub on_duplicate: Option<String>,
}

/// Store up to 500 memories (AutoMem).
///
/// All or nothing: an invalid item rejects the batch and names itself (`memories[2].content: is required`).
/// Items take content, tags, importance, metadata, timestamp, type and confidence; `embedding`, `t_valid`
/// and `t_invalid` are refused, a caller's `id` ignored. Items whose content is already stored resolve to
/// the existing memory (listed in `deduplicated`).
#[utoipa::path(post, path = "/memory/batch", operation_id = "automem.storeBatch", tag = TAG, request_body(content = AutoMemBatch, example = json!({
        "memories": [
            {"content": "Prefer PostgreSQL for transactional workloads", "type": "Preference", "importance": 0.9},
            {"content": "Redis used for session caching layer", "type": "Context", "importance": 0.6}]})),
    responses(
        (status = 201, description = "Stored", body = AutoMemBatchStored),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody)
    ))]
async fn store_batch(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<(StatusCode, Json<AutoMemBatchStored>)> {
    let started = Instant::now();
    let rules = BatchRules::AUTOMEM.with(on_duplicate(&body, BatchRules::AUTOMEM.duplicates)?);
    let items = batch_values(body, "memories", MAX_BATCH)?;
    let outcome = memories::store_batch(&services, &tenant, items, rules).await?;
    Ok((StatusCode::CREATED, Json(AutoMemBatchStored::new(&services.embedder.state(), outcome, started))))
}

/// A relation as `GET /memory/{id}` lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemoryRelation {
    #[serde(rename = "type")]
    pub rel_type: String,
    pub strength: f64,
    /// The memory at the other end.
    pub memory_id: Uuid,
    /// `outgoing` (this memory is the source) or `incoming`.
    pub direction: &'static str,
    pub content: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MemoryWithRelations {
    #[serde(flatten)]
    pub memory: AutoMemMemory,
    /// Up to five direct relations, strongest first.
    pub relations: Vec<MemoryRelation>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "memory": {"id": "abc-123-def-456",
    "content": "Chose PostgreSQL over MongoDB. Need ACID guarantees for transactions.", "type": "Decision",
    "tags": ["project-alpha", "database"], "importance": 0.9, "confidence": 0.9, "timestamp": "2025-01-15T10:30:00Z",
    "updated_at": "2025-01-15T10:30:00Z", "last_accessed": "2025-01-16T08:00:00Z", "metadata": {}, "relations": []}}))]
pub struct GotMemory {
    pub status: &'static str,
    pub memory: MemoryWithRelations,
}

/// Get a memory with its relations (AutoMem).
#[utoipa::path(get, path = "/memory/{id}", operation_id = "automem.getMemory", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "The memory", body = GotMemory),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn get_memory(
    State(services): State<AppState>,
    tenant: Tenant,
    PathId(id): PathId,
) -> ApiResult<Json<GotMemory>> {
    let memory = memories::get(&services, &tenant, id, true).await?;
    let walk = RelatedParams { limit: Some(RELATION_LIMIT), ..RelatedParams::default() };
    let related = associations::related(&services, &tenant, id, walk).await?;
    let relations = related
        .into_iter()
        .filter_map(|r| {
            let step = r.path.0.into_iter().next()?;
            let direction = if step.from == id { "outgoing" } else { "incoming" };
            Some(MemoryRelation {
                rel_type: step.rel_type,
                strength: step.strength,
                memory_id: r.memory.id,
                direction,
                content: r.memory.content,
            })
        })
        .collect();
    Ok(Json(GotMemory { status: "success", memory: MemoryWithRelations { memory: memory.into(), relations } }))
}

/// Update a memory (AutoMem).
///
/// The native partial update: `metadata` replaces the stored object; new content is re-embedded; new tags
/// recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are ignored:
/// the service keeps those itself.
#[utoipa::path(patch, path = "/memory/{id}", operation_id = "automem.updateMemory", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    request_body(content = MemoryPatch, example = json!({"importance": 0.95,
        "tags": ["project-alpha", "database", "architecture", "reviewed"]})),
    responses(
        (status = 200, description = "Updated", body = MemoryIdResponse),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "Another memory holds the new content", body = crate::api::error::ErrorBody)
    ))]
async fn patch_memory(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
    ApiJson(patch): ApiJson<MemoryPatch>,
) -> ApiResult<Json<MemoryIdResponse>> {
    let memory = memories::update(&services, &tenant, id, patch).await?;
    Ok(Json(MemoryIdResponse { status: "success", memory_id: memory.id }))
}

/// Delete a memory and its relations (AutoMem; permanent, 404 when absent).
#[utoipa::path(delete, path = "/memory/{id}", operation_id = "automem.deleteMemory", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "Deleted", body = MemoryIdResponse),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn delete_memory(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
) -> ApiResult<Json<MemoryIdResponse>> {
    memories::delete(&services, &tenant, id).await?;
    Ok(Json(MemoryIdResponse { status: "success", memory_id: id }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ByTagResponse {
    pub status: &'static str,
    pub tags: Vec<String>,
    #[serde(flatten)]
    pub page: AutoMemMemoryList,
}

/// Memories with any of the tags, importance then time descending (AutoMem).
#[utoipa::path(get, path = "/memory/by-tag", operation_id = "automem.byTag", tag = TAG, params(TagParams),
    responses((status = 200, description = "A page", body = ByTagResponse)))]
async fn by_tag(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(query): ApiQuery<TagParams>,
) -> ApiResult<Json<ByTagResponse>> {
    let (tags, page) = memories::by_tag(&services, &tenant, &query.tags.0, query.limit, query.offset).await?;
    Ok(Json(ByTagResponse { status: "success", tags, page: MemoryPage::new(page) }))
}

/// Delete every memory with any of the tags (AutoMem).
#[utoipa::path(delete, path = "/memory/by-tag", operation_id = "automem.deleteByTag", tag = TAG, params(TagParams),
    responses(
        (status = 200, description = "How many were deleted", body = DeletedByTag),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody)
    ))]
async fn delete_by_tag(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiQuery(query): ApiQuery<TagParams>,
) -> ApiResult<Json<DeletedByTag>> {
    let (tags, deleted_count) =
        memories::remove_by_tag(&services, &tenant, &query.tags.0, query.confirm.unwrap_or(false)).await?;
    Ok(Json(DeletedByTag { status: "success", tags, deleted_count }))
}

/// Recall memories (AutoMem).
///
/// The native recall per query, on one snapshot; several queries merge (each memory once, best score).
/// `time_query` is a period in words, `start`/`end` explicit bounds. `min_score` drops weak results;
/// `context_tags` lifts results carrying those tags by 0.1.
#[utoipa::path(get, path = "/recall", operation_id = "automem.recall", tag = TAG, params(MultiParams),
    responses((status = 200, description = "Scored results", body = RecallAnswer)))]
async fn recall_memories(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(params): ApiQuery<MultiParams>,
) -> ApiResult<Json<RecallAnswer>> {
    let started = Instant::now();
    let request = MultiRequest::parse(params, Utc::now())?;
    let queries = request.queries.clone();
    let answer = recall::recall_many(&services, &tenant, request).await?;
    Ok(Json(RecallAnswer::new(queries, answer, started)))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Associated {
    pub status: &'static str,
    pub message: String,
    pub memory1_id: Uuid,
    pub memory2_id: Uuid,
    pub relation_type: String,
    pub strength: f32,
    pub association: Association,
}

/// Associate two memories (AutoMem).
#[utoipa::path(post, path = "/associate", operation_id = "automem.associate", tag = TAG, request_body(content = AssociationInput,
        example = json!({"memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11",
            "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b", "type": "PREFERS_OVER", "strength": 0.9})),
    responses(
        (status = 201, description = "Stored (or updated)", body = Associated),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "A memory does not exist in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn associate(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<(StatusCode, Json<Associated>)> {
    let a = Association::from(associations::associate(&services, &tenant, &body).await?);
    Ok((
        StatusCode::CREATED,
        Json(Associated {
            status: "success",
            message: format!("Association created between {} and {}", a.memory1_id, a.memory2_id),
            memory1_id: a.memory1_id,
            memory2_id: a.memory2_id,
            relation_type: a.rel_type.clone(),
            strength: a.strength,
            association: a,
        }),
    ))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AutoMemRelatedQuery {
    /// Relation types to follow (repeat or comma-separate). Default: all.
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub relationship_types: StringList,
    /// Hops, 1..=3 (default 1).
    pub max_depth: Option<i32>,
    /// 1..=200 (default 50).
    pub limit: Option<i64>,
    pub min_strength: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RelatedAnswer {
    pub status: &'static str,
    pub memory_id: Uuid,
    pub count: usize,
    pub related_memories: Vec<RelatedMemory>,
}

/// Memories related to a memory (AutoMem).
#[utoipa::path(get, path = "/memories/{id}/related", operation_id = "automem.related", tag = TAG,
    params(("id" = Uuid, Path, description = "Memory id"), AutoMemRelatedQuery),
    responses(
        (status = 200, description = "Related memories, strongest path first", body = RelatedAnswer),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn related(
    State(services): State<AppState>,
    tenant: Tenant,
    PathId(id): PathId,
    ApiQuery(q): ApiQuery<AutoMemRelatedQuery>,
) -> ApiResult<Json<RelatedAnswer>> {
    let walk =
        RelatedParams { depth: q.max_depth, types: q.relationship_types, limit: q.limit, min_strength: q.min_strength };
    let related: Vec<RelatedMemory> = associations::related(&services, &tenant, id, walk)
        .await
        .map_err(|e| e.renamed(&[("depth", "max_depth"), ("types", "relationship_types")]))?
        .into_iter()
        .map(RelatedMemory::from)
        .collect();
    Ok(Json(RelatedAnswer { status: "success", memory_id: id, count: related.len(), related_memories: related }))
}

/// Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports only.
/// Waits for the run up to 25 s; past that, 202 with its id.
#[utoipa::path(post, path = "/consolidate", operation_id = "automem.consolidate", tag = TAG, request_body(content = ConsolidateParams,
        example = json!({"mode": "full", "dry_run": true})),
    responses(
        (status = 200, description = "What the run did (or would do)", body = views::ConsolidateResponse),
        (status = 202, description = "Still running; the run's id", body = views::ConsolidationQueued),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody)
    ))]
async fn consolidate_memories(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(params): ApiJson<ConsolidateParams>,
) -> ApiResult<Response> {
    let request = params.parse()?;
    Ok(views::consolidated(consolidation::request(&services, &tenant, request).await?))
}

/// AutoMem's re-embedding request.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"limit": 1000, "batch_size": 32}))]
pub struct ReembedRequest {
    /// Memories to re-embed, in id order: 1..=100000 (default 10000).
    pub limit: Option<i64>,
    /// Memories per embedding job: 1..=500 (default 32).
    pub batch_size: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "queued": 1000, "batch_size": 32}))]
pub struct Reembedded {
    pub status: &'static str,
    /// Memories whose embedding was queued again (each keeps its old vector until the new one is written).
    pub queued: usize,
    pub batch_size: i64,
}

/// Re-embed the tenant's memories (AutoMem's admin route; admin-scoped key, also as `X-Admin-Token`).
///
/// Queues the embeddings of up to `limit` memories again, `batch_size` per job; 503 when no embedder is
/// configured.
#[utoipa::path(post, path = "/admin/reembed", operation_id = "automem.reembed", tag = TAG, request_body = ReembedRequest,
    responses(
        (status = 200, description = "Queued", body = Reembedded),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody),
        (status = 503, description = "No embedder is configured", body = crate::api::error::ErrorBody)
    ))]
async fn reembed(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    ApiJson(body): ApiJson<ReembedRequest>,
) -> ApiResult<Json<Reembedded>> {
    let (queued, batch_size) = jobs::reembed(&services, &tenant, body.limit, body.batch_size).await?;
    Ok(Json(Reembedded { status: "success", queued, batch_size }))
}
