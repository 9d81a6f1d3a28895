//! The SHODH unified memory API (seed 004) under `/api`: remember, recall (semantic, associative, hybrid;
//! natural-language time in English and German; summaries), recall by tags, proactive context, forget,
//! list, get, patch, consolidate, stats, tags and health. Every handler translates onto the native calls;
//! errors take SHODH's `ErrorResponse` shape.

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::Writer;
use super::error::{keep_headers, ApiResult};
use super::extract::{ApiJson, ApiQuery, PathId};
use super::views::shodh::{ContextResponse, ScoredMemory};
use super::views::{self, Health, Memory, MemoryList, MemoryPage, TypeCount};
use super::AppState;
use crate::auth::Tenant;
use crate::error::{bad, Error};
use crate::memory::filter::{self, required_tags};
use crate::memory::{ListFilter, MemoryInput, MemoryPatch};
use crate::recall::{ContextParams, RecallParams, RecallRequest, MAX_LIMIT};
use crate::service::consolidation::{self, ConsolidateParams, Requested};
use crate::service::memories::{self, Duplicates};
use crate::service::{health, recall, stats};
use crate::validate::{self, StringList};

const TAG: &str = "shodh";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(remember))
        .routes(routes!(recall_memories))
        .routes(routes!(recall_by_tags))
        .routes(routes!(proactive_context))
        .routes(routes!(forget))
        .routes(routes!(forget_by_tags))
        .routes(routes!(list_memories))
        .routes(routes!(get_memory, patch_memory))
        .routes(routes!(consolidate_memories))
        .routes(routes!(memory_stats))
        .routes(routes!(list_tags))
        .route_layer(axum::middleware::map_response(shodh_errors))
        .routes(routes!(health_check))
}

/// SHODH's `ErrorResponse`, with `success: false` and, for a duplicate, `existing_id`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"success": false, "error": "content: is required", "code": "BAD_REQUEST",
    "details": {"status": 400}}))]
pub struct ShodhError {
    pub success: bool,
    /// What went wrong, naming the field.
    pub error: String,
    /// `BAD_REQUEST`, `UNAUTHORIZED`, `FORBIDDEN`, `NOT_FOUND`, `CONFLICT`, `PAYLOAD_TOO_LARGE`,
    /// `UNSUPPORTED_MEDIA_TYPE`, `SERVICE_UNAVAILABLE` or `INTERNAL_ERROR`.
    pub code: String,
    /// `status`: the HTTP status.
    #[schema(value_type = Object)]
    pub details: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub existing_id: Option<Uuid>,
}

/// Rewrites the service's error envelope into SHODH's `ErrorResponse` (status unchanged).
async fn shodh_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024).await.unwrap_or_default();
    let Ok(envelope) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    let code = match status {
        StatusCode::INTERNAL_SERVER_ERROR => "INTERNAL_ERROR".to_owned(),
        s => s.canonical_reason().unwrap_or("ERROR").to_ascii_uppercase().replace([' ', '-'], "_"),
    };
    let error = ShodhError {
        success: false,
        error: envelope["message"].as_str().unwrap_or_default().to_owned(),
        code,
        details: json!({"status": status.as_u16()}),
        existing_id: envelope["existing_id"].as_str().and_then(|s| s.parse().ok()),
    };
    keep_headers(&parts, (status, Json(error)).into_response())
}

/// `201` of `/api/remember`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"success": true, "id": "0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10",
    "content_hash": "5d41402abc4b2a76b9719d911017c592ae1d8c5e0f0c6b5b1f3c7b6c0f3e2a1b"}))]
pub struct Remembered {
    pub success: bool,
    pub id: Uuid,
    pub content_hash: String,
}

/// SHODH's `type` when none is given.
const DEFAULT_TYPE: &str = "Observation";

/// Store a new memory (SHODH).
///
/// The native store with SHODH's fields (emotion, episode, source, credibility, `created_at` for
/// back-dating, never in the future). `type` defaults to Observation. Same content again is a 409 with
/// `existing_id`.
#[utoipa::path(post, path = "/api/remember", operation_id = "shodh.remember", tag = TAG,
    request_body(content = MemoryInput, examples(
        ("basic" = (summary = "Basic memory", value = json!({"content": "Use JWT tokens with 24h expiry for authentication",
            "type": "Decision", "tags": ["auth", "security"]}))),
        ("emotional" = (summary = "Memory with emotional metadata", value = json!({"content": "Finally fixed the production bug after 6 hours",
            "type": "Discovery", "tags": ["bugfix", "production"], "emotion": "relief", "emotional_valence": 0.8, "emotional_arousal": 0.3}))),
        ("episodic" = (summary = "Memory in an episode", value = json!({"content": "Step 2: Implement user registration",
            "type": "Task", "episode_id": "auth-implementation-2024", "sequence_number": 2}))),
        ("backdated" = (summary = "Memory with custom timestamp (backdating)", value = json!({
            "content": "KW 49 (2024-12-02 bis 2024-12-08): Weekly summary - Project kickoff completed",
            "type": "Context", "tags": ["weekly-summary", "kw49-2024"], "created_at": "2024-12-05T12:00:00Z"})))
    )),
    responses(
        (status = 201, description = "Memory created", body = Remembered),
        (status = 400, description = "Invalid request (missing content, `created_at` in the future...)", body = ShodhError),
        (status = 409, description = "Duplicate memory exists; `existing_id` names it", body = ShodhError)
    ))]
async fn remember(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(mut input): ApiJson<MemoryInput>,
) -> ApiResult<(StatusCode, Json<Remembered>)> {
    input.kind.get_or_insert_with(|| DEFAULT_TYPE.to_owned());
    let outcome = memories::store(&services, &tenant, input, Duplicates::Reject).await.map_err(|err| match err {
        Error::Conflict { existing_id, .. } => Error::Conflict { message: "Memory already exists".into(), existing_id },
        other => other,
    })?;
    let m = outcome.memory();
    Ok((StatusCode::CREATED, Json(Remembered { success: true, id: m.id, content_hash: m.content_hash.clone() })))
}

/// SHODH's recall body.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShodhRecallRequest {
    /// Natural-language query, 1..=1000 characters.
    pub query: Option<String>,
    /// 1..=100, default 5.
    pub limit: Option<i64>,
    /// `hybrid` (default), `semantic` or `associative` (activation spread along associations).
    pub mode: Option<String>,
    /// Classifications to keep.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub memory_types: Option<StringList>,
    pub quality_boost: Option<bool>,
    /// 0..=1, default 0.3.
    pub quality_weight: Option<f64>,
    /// Lower bound: ISO date or words ("last week", "vor 2 Wochen", "yesterday").
    pub since: Option<String>,
    /// Alias of `since`; wins when both are given.
    pub from: Option<String>,
    /// Upper bound (inclusive of a named day or period).
    pub before: Option<String>,
    /// Alias of `before`; wins over it.
    pub until: Option<String>,
    /// Alias of `before`/`until`; wins over both.
    pub to: Option<String>,
    /// Add a short summary of the results.
    pub summarize: Option<bool>,
    /// `en` or `de` (default `de`): the summary's language when a chat model writes it (an extractive
    /// summary keeps the memories' own words).
    pub language: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShodhRecallResponse {
    pub memories: Vec<ScoredMemory>,
    pub count: usize,
    /// The query (absent for recall by tags).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The mode used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// With `summarize`: a short summary of the results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// `llm` or `extractive`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary_method: Option<&'static str>,
}

/// Semantic search for memories (SHODH).
///
/// The native recall: `hybrid` (default) fuses meaning and keywords, `semantic` uses meaning only,
/// `associative` spreads activation from the best semantic hits along associations. Time bounds take ISO
/// dates or English/German phrases; `from` wins over `since`, `to` over `until` over `before`.
#[utoipa::path(post, path = "/api/recall", operation_id = "shodh.recall", tag = TAG,
    request_body(content = ShodhRecallRequest, examples(
        ("basic" = (summary = "Simple search", value = json!({"query": "authentication decisions", "limit": 5}))),
        ("filtered" = (summary = "Search with type filter", value = json!({"query": "database optimization", "limit": 10,
            "memory_types": ["Decision", "Learning"]}))),
        ("quality_boosted" = (summary = "Quality-boosted search", value = json!({"query": "error handling patterns", "limit": 10,
            "quality_boost": true, "quality_weight": 0.3}))),
        ("time_range" = (summary = "Search within date range", value = json!({"query": "project updates", "from": "last month",
            "to": "last week", "limit": 10}))),
        ("before_filter" = (summary = "Memories before a date", value = json!({"query": "bug fixes", "before": "2024-12-31", "limit": 20})))
    )),
    responses(
        (status = 200, description = "Search results", body = ShodhRecallResponse),
        (status = 400, description = "Invalid request", body = ShodhError)
    ))]
async fn recall_memories(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(body): ApiJson<ShodhRecallRequest>,
) -> ApiResult<Json<ShodhRecallResponse>> {
    let query = body.query.clone().filter(|q| !q.trim().is_empty()).ok_or_else(|| bad("query", "is required"))?;
    let mode = match body.mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some(m @ ("hybrid" | "semantic" | "associative")) => Some(m.to_owned()),
        Some(other) => {
            return Err(bad("mode", format!("must be semantic, associative or hybrid (got {other:?})")).into())
        }
    };
    let language = match body.language.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("de") => "de",
        Some("en") => "en",
        Some(other) => return Err(bad("language", format!("must be en or de (got {other:?})")).into()),
    };
    let limit = validate::bounded("limit", body.limit, 1, MAX_LIMIT, 5)?;
    // SHODH's names for the native fields an error may name: the alias the caller used.
    let names = [
        ("types", "memory_types"),
        ("since", if body.from.is_some() { "from" } else { "since" }),
        (
            "until",
            if body.to.is_some() {
                "to"
            } else if body.until.is_some() {
                "until"
            } else {
                "before"
            },
        ),
    ];
    let params = RecallParams {
        query: Some(query.clone()),
        mode,
        limit: Some(limit),
        types: body.memory_types.unwrap_or_default(),
        quality_boost: body.quality_boost,
        quality_weight: body.quality_weight,
        since: body.from.or(body.since),
        until: body.to.or(body.until).or(body.before),
        ..RecallParams::default()
    };
    let request = RecallRequest::parse(params, Utc::now()).map_err(|e| e.renamed(&names))?;
    let answer = recall::recall(&services, &tenant, request).await?;
    let summary = match body.summarize.unwrap_or(false) {
        true => recall::summarize_hits(&services, &tenant, &answer.results, language).await?,
        false => None,
    };
    let memories: Vec<ScoredMemory> = answer.results.into_iter().map(ScoredMemory::from).collect();
    Ok(Json(ShodhRecallResponse {
        count: memories.len(),
        memories,
        query: Some(query),
        mode: Some(answer.mode),
        notice: answer.notice,
        summary_method: summary.as_ref().map(|(_, m)| m.as_str()),
        summary: summary.map(|(s, _)| s),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"tags": ["auth", "security"], "limit": 20}))]
pub struct TagsRequest {
    /// At least one; a memory matches if it has any of them.
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    pub tags: StringList,
    /// 1..=100, default 20.
    pub limit: Option<i64>,
    /// `/api/forget/by-tags` only: `true` to delete more than 1000 memories at once.
    pub confirm: Option<bool>,
}

/// Memories with any of the tags, newest first (SHODH).
#[utoipa::path(post, path = "/api/recall/by-tags", operation_id = "shodh.recallByTags", tag = TAG, request_body = TagsRequest,
    responses(
        (status = 200, description = "Matching memories", body = ShodhRecallResponse),
        (status = 400, description = "No tags", body = ShodhError)
    ))]
async fn recall_by_tags(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(body): ApiJson<TagsRequest>,
) -> ApiResult<Json<ShodhRecallResponse>> {
    let tags = required_tags(&body.tags.0)?;
    let limit = validate::bounded("limit", body.limit, 1, 100, 20)?;
    let filter = ListFilter { tags, ..ListFilter::default() };
    let page = memories::list(&services, &tenant, &filter, limit, 0).await?;
    let memories: Vec<ScoredMemory> = page
        .items
        .into_iter()
        .map(|memory| ScoredMemory { memory: memory.into(), similarity_score: 0.0, relevance_score: 1.0 })
        .collect();
    Ok(Json(ShodhRecallResponse {
        count: memories.len(),
        memories,
        query: None,
        mode: None,
        notice: None,
        summary: None,
        summary_method: None,
    }))
}

/// Proactive context surfacing (SHODH).
///
/// Recalls the memories most relevant to the context (hybrid), then, with `auto_ingest` (default), stores
/// the context as a Conversation memory so later turns can find it. The recall runs before the store, so a
/// new context does not surface itself.
#[utoipa::path(post, path = "/api/context", operation_id = "shodh.context", tag = TAG, request_body = ContextParams,
    responses(
        (status = 200, description = "Surfaced memories", body = ContextResponse),
        (status = 400, description = "Missing or over-long context", body = ShodhError)
    ))]
async fn proactive_context(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(params): ApiJson<ContextParams>,
) -> ApiResult<Json<ContextResponse>> {
    Ok(Json(recall::context(&services, &tenant, params).await?.into()))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"success": true, "deleted": true}))]
pub struct Forgotten {
    pub success: bool,
    pub deleted: bool,
}

/// Delete a memory permanently (SHODH).
#[utoipa::path(delete, path = "/api/forget/{id}", operation_id = "shodh.forget", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "Memory deleted", body = Forgotten),
        (status = 404, description = "Memory not found", body = ShodhError)
    ))]
async fn forget(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
) -> ApiResult<Json<Forgotten>> {
    memories::delete(&services, &tenant, id).await?;
    Ok(Json(Forgotten { success: true, deleted: true }))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"success": true, "deleted_count": 3}))]
pub struct ForgottenByTags {
    pub success: bool,
    pub deleted_count: i64,
}

/// Delete every memory with any of the tags (SHODH).
#[utoipa::path(post, path = "/api/forget/by-tags", operation_id = "shodh.forgetByTags", tag = TAG,
    request_body(content = TagsRequest, example = json!({"tags": ["scratch"]})),
    responses((status = 200, description = "Deletion result", body = ForgottenByTags)))]
async fn forget_by_tags(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<TagsRequest>,
) -> ApiResult<Json<ForgottenByTags>> {
    let (_, deleted_count) =
        memories::remove_by_tag(&services, &tenant, &body.tags.0, body.confirm.unwrap_or(false)).await?;
    Ok(Json(ForgottenByTags { success: true, deleted_count }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShodhListQuery {
    /// 1..=100, default 20.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Filter by classification.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
}

/// List memories, newest first (SHODH).
#[utoipa::path(get, path = "/api/memories", operation_id = "shodh.listMemories", tag = TAG, params(ShodhListQuery),
    responses((status = 200, description = "List of memories", body = MemoryList)))]
async fn list_memories(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(q): ApiQuery<ShodhListQuery>,
) -> ApiResult<Json<MemoryList>> {
    let (limit, offset) = validate::page(q.limit, q.offset, 100, 20)?;
    let kinds = filter::kinds("type", &q.kind.into_iter().collect::<Vec<_>>())?;
    let filter = ListFilter { kinds, ..ListFilter::default() };
    let page = memories::list(&services, &tenant, &filter, limit, offset).await?;
    Ok(Json(MemoryPage::new(page)))
}

/// Get a memory (SHODH).
#[utoipa::path(get, path = "/api/memories/{id}", operation_id = "shodh.getMemory", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "Memory details", body = Memory),
        (status = 404, description = "Memory not found", body = ShodhError)
    ))]
async fn get_memory(State(services): State<AppState>, tenant: Tenant, PathId(id): PathId) -> ApiResult<Json<Memory>> {
    Ok(Json(memories::get(&services, &tenant, id, true).await?.into()))
}

/// SHODH's update: tags, classification, metadata, quality score; never content.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"tags": ["auth", "reviewed"], "memory_type": "Learning", "metadata": {"reviewed_by": "ana"}}))]
pub struct ShodhPatch {
    #[schema(value_type = Option<Vec<String>>)]
    pub tags: Option<Value>,
    /// The classification (SHODH's MemoryType: Observation, Decision, Learning...).
    pub memory_type: Option<String>,
    /// Replaces the stored metadata.
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<Value>,
    /// 0..=1; `null` clears it.
    #[serde(default, deserialize_with = "crate::memory::nullable")]
    #[schema(value_type = Option<f64>)]
    pub quality_score: Option<Option<f64>>,
}

/// Update memory metadata without changing content or re-embedding (SHODH).
#[utoipa::path(patch, path = "/api/memories/{id}", operation_id = "shodh.updateMemory", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    request_body = ShodhPatch,
    responses(
        (status = 200, description = "Memory updated", body = Memory),
        (status = 404, description = "Memory not found", body = ShodhError)
    ))]
async fn patch_memory(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
    ApiJson(body): ApiJson<ShodhPatch>,
) -> ApiResult<Json<Memory>> {
    let patch = MemoryPatch {
        tags: body.tags,
        kind: body.memory_type,
        metadata: body.metadata,
        quality_score: body.quality_score,
        ..MemoryPatch::default()
    };
    let updated =
        memories::update(&services, &tenant, id, patch).await.map_err(|e| e.renamed(&[("type", "memory_type")]))?;
    Ok(Json(updated.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"time_horizon": "weekly"}))]
pub struct ShodhConsolidateRequest {
    /// daily, weekly, monthly, quarterly or yearly.
    pub time_horizon: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"success": true, "processed": 120, "archived": 4, "associations_created": 9}))]
pub struct ShodhConsolidated {
    pub success: bool,
    /// Memories of the horizon looked at.
    pub processed: usize,
    /// Memories archived by forgetting.
    pub archived: u64,
    /// Associations discovered.
    pub associations_created: u64,
}

/// Trigger memory consolidation (SHODH): a full run (decay, discovery, clustering, forgetting) over the horizon.
#[utoipa::path(post, path = "/api/consolidate", operation_id = "shodh.consolidate", tag = TAG, request_body = ShodhConsolidateRequest,
    responses(
        (status = 200, description = "Consolidation result", body = ShodhConsolidated),
        (status = 202, description = "Still running; the run's id", body = views::ConsolidationQueued),
        (status = 400, description = "Missing or unknown time_horizon", body = ShodhError)
    ))]
async fn consolidate_memories(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<ShodhConsolidateRequest>,
) -> ApiResult<Response> {
    let horizon = body.time_horizon.ok_or_else(|| bad("time_horizon", "is required"))?;
    let request = ConsolidateParams { time_horizon: Some(horizon), mode: None, dry_run: None }.parse()?;
    Ok(match consolidation::request(&services, &tenant, request).await? {
        Requested::Done { report, .. } => Json(ShodhConsolidated {
            success: true,
            processed: report.processed,
            archived: report.archived,
            associations_created: report.associations_created,
        })
        .into_response(),
        pending @ Requested::Pending(_) => views::consolidated(pending),
    })
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"total_memories": 42, "memories_last_7_days": 5,
    "by_type": [{"memory_type": "Decision", "count": 12}], "database": "postgresql", "vector_store": "pgvector"}))]
pub struct ShodhStats {
    pub total_memories: i64,
    pub memories_last_7_days: i64,
    pub by_type: Vec<TypeCount>,
    /// `postgresql`.
    pub database: &'static str,
    /// `pgvector`.
    pub vector_store: &'static str,
}

/// Memory statistics (SHODH).
#[utoipa::path(get, path = "/api/stats", operation_id = "shodh.stats", tag = TAG, responses((status = 200, description = "Statistics", body = ShodhStats)))]
async fn memory_stats(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<ShodhStats>> {
    let s = stats::stats(&services, &tenant).await?;
    Ok(Json(ShodhStats {
        total_memories: s.total_memories,
        memories_last_7_days: s.memories_last_7_days,
        by_type: views::type_counts(s.by_type),
        database: "postgresql",
        vector_store: "pgvector",
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"tags": ["auth", "security"], "count": 2}))]
pub struct TagList {
    /// Alphabetically, at most 10,000.
    pub tags: Vec<String>,
    /// Distinct tags in all.
    pub count: i64,
}

/// All tags on the tenant's memories (SHODH).
#[utoipa::path(get, path = "/api/tags", operation_id = "shodh.tags", tag = TAG, responses((status = 200, description = "List of tags", body = TagList)))]
async fn list_tags(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<TagList>> {
    let (tags, count) = stats::tags(&services, &tenant).await?;
    Ok(Json(TagList { tags, count }))
}

/// Health check (SHODH; no authentication).
#[utoipa::path(get, path = "/api/health", operation_id = "shodh.health", tag = TAG, security(()),
    responses(
        (status = 200, description = "Service is healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health_check(State(services): State<AppState>) -> (StatusCode, Json<Health>) {
    let checked = Health::from(health::check(&services).await);
    (checked.status_code(), Json(checked))
}
