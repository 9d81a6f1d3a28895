//! AutoMem's API at the root (seed 000): `/memory`, `/memory/batch`, `/memory/{id}`, `/recall`,
//! `/memory/by-tag`, `/associate`, `/memories/{id}/related`, `/consolidate` (and `/health`, served by
//! `api::health`). Every handler translates AutoMem's names and shapes onto the native calls.

use std::collections::HashMap;
use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::native::consolidate::{self, ConsolidateRequest, ConsolidateResponse};
use crate::api::native::graph::{self, RelatedQuery};
use crate::api::native::memories::{self, ByTagQuery, DeletedByTag, Duplicates, StoreOutcome};
use crate::api::AppState;
use crate::auth::{Auth, Writer};
use crate::embed::SlotState;
use crate::error::ApiError;
use crate::memory::{Memory, MemoryInput, MemoryPatch};
use crate::recall::params::{bad, StringList};
use crate::recall::score::ScoreComponents;
use crate::recall::{self, Expansion, RecallParams, RecallRequest};
use crate::store::relations::Association;

const TAG: &str = "automem";
/// Relations shown with a memory (AutoMem's `RECALL_RELATION_LIMIT`).
const RELATION_LIMIT: i64 = 5;
/// Most queries in one `/recall`.
const MAX_QUERIES: usize = 10;

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
}

fn millis(started: Instant) -> f64 {
    (started.elapsed().as_secs_f64() * 1e4).round() / 10.0
}

/// A memory's embedding in AutoMem's vocabulary (`qdrant` / `embedding_status`).
fn embedding_word(state: &AppState, memory: &Memory) -> &'static str {
    match (memory.embedding_status.as_str(), state.embedder.state()) {
        ("ready", _) => "stored",
        ("failed", _) => "failed",
        (_, SlotState::Disabled) => "unconfigured",
        _ => "queued",
    }
}

/// A memory as AutoMem shows it: every native field, plus `timestamp` and `last_accessed`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AutoMemMemory {
    #[serde(flatten)]
    pub memory: Memory,
    /// The memory's own time (`created_at`).
    pub timestamp: DateTime<Utc>,
    pub last_accessed: Option<DateTime<Utc>>,
}

impl From<Memory> for AutoMemMemory {
    fn from(memory: Memory) -> Self {
        Self { timestamp: memory.created_at, last_accessed: memory.last_accessed_at, memory }
    }
}

/// `201` of `POST /memory` (and `200` with `deduplicated: true` for content already stored).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "memory_id": "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
    "stored_at": "2025-01-15T10:30:00Z", "type": "Decision", "confidence": 0.9, "qdrant": "queued",
    "embedding_status": "queued", "enrichment": "queued", "metadata": {}, "timestamp": "2025-01-15T10:30:00Z",
    "updated_at": "2025-01-15T10:30:00Z", "last_accessed": "2025-01-15T10:30:00Z", "query_time_ms": 12.5}))]
pub struct Stored {
    pub status: &'static str,
    pub memory_id: Uuid,
    pub stored_at: DateTime<Utc>,
    #[serde(rename = "type")]
    pub kind: String,
    pub confidence: f32,
    /// `stored` (vector supplied), `queued` (being embedded), `failed`, or `unconfigured` (no embedder).
    pub qdrant: &'static str,
    /// Same as `qdrant`.
    pub embedding_status: &'static str,
    /// `queued`, or `complete` for a deduplicated memory already enriched.
    pub enrichment: &'static str,
    #[schema(value_type = Object)]
    pub metadata: Value,
    pub timestamp: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_accessed: DateTime<Utc>,
    pub query_time_ms: f64,
    /// Set (true) when the content was already stored: `memory_id` is the existing memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deduplicated: Option<bool>,
    /// Set when content over the soft limit was summarised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarized: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_length: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarized_length: Option<i32>,
}

impl Stored {
    fn new(state: &AppState, m: &Memory, started: Instant, deduplicated: bool) -> Self {
        let embedding = embedding_word(state, m);
        Self {
            status: "success",
            memory_id: m.id,
            stored_at: m.updated_at,
            kind: m.kind.clone(),
            confidence: m.confidence,
            qdrant: embedding,
            embedding_status: embedding,
            enrichment: if m.enrichment_status == "pending" { "queued" } else { "complete" },
            metadata: m.metadata.clone(),
            timestamp: m.created_at,
            updated_at: m.updated_at,
            last_accessed: m.last_accessed_at.unwrap_or(m.updated_at),
            query_time_ms: millis(started),
            deduplicated: deduplicated.then_some(true),
            summarized: m.summarized.then_some(true),
            original_length: m.original_length,
            summarized_length: m.summarized_length,
        }
    }
}

/// Store a memory (AutoMem).
///
/// The native store: the same fields (AutoMem's `timestamp` is the memory's time), type classification,
/// hierarchical tags, the 2000-character hard limit and summarisation past 500, supersede mode. Content the
/// tenant already holds answers **200** with the existing memory's id and `"deduplicated": true`.
#[utoipa::path(post, path = "/memory", tag = TAG, request_body(content = MemoryInput, example = json!({
        "content": "Chose PostgreSQL over MongoDB. Need ACID guarantees for transactions. Impact: ensures data consistency.",
        "type": "Decision", "tags": ["project-alpha", "database", "architecture"], "importance": 0.9,
        "metadata": {"files_modified": ["db/config.py"], "alternatives": ["MongoDB", "MySQL"]}})),
    responses(
        (status = 201, description = "Stored", body = Stored),
        (status = 200, description = "Content already stored: the existing memory, `deduplicated: true`", body = Stored),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody)
    ))]
async fn store(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(input): ApiJson<MemoryInput>,
) -> Result<(StatusCode, Json<Stored>), ApiError> {
    let stored = store_one(&state, &auth, input).await?;
    let status = if stored.deduplicated.is_some() { StatusCode::OK } else { StatusCode::CREATED };
    Ok((status, Json(stored)))
}

/// AutoMem's single store: the native store, a duplicate resolving to the existing memory.
pub(crate) async fn store_one(state: &AppState, auth: &Auth, input: MemoryInput) -> Result<Stored, ApiError> {
    let started = Instant::now();
    Ok(match memories::store(state, auth, input, Duplicates::Reuse).await? {
        StoreOutcome::Stored(m) => Stored::new(state, &m, started, false),
        StoreOutcome::Existing(m) => Stored::new(state, &m, started, true),
    })
}

/// `201` of `POST /memory/batch`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "stored": 2, "memory_ids": ["abc-123", "def-456"],
    "qdrant": "queued (2)", "enrichment": "queued", "query_time_ms": 45.2}))]
pub struct BatchStored {
    pub status: &'static str,
    /// Memories written (items that repeated stored content are not counted).
    pub stored: usize,
    /// Each item's memory id in request order; a repeated item has the existing memory's id.
    pub memory_ids: Vec<Uuid>,
    /// `queued (N)` (being embedded), `stored (N)` or `unconfigured`.
    pub qdrant: String,
    pub enrichment: &'static str,
    pub query_time_ms: f64,
    /// Indexes of items whose content was already stored (or repeated an earlier item).
    pub deduplicated: Vec<usize>,
}

/// Store up to 500 memories (AutoMem).
///
/// All or nothing: an invalid item rejects the batch and names itself (`memories[2].content: is required`).
/// Items take content, tags, importance, metadata, timestamp, type and confidence; `embedding`, `t_valid`
/// and `t_invalid` are refused, a caller's `id` ignored. Items whose content is already stored resolve to
/// the existing memory (listed in `deduplicated`).
#[utoipa::path(post, path = "/memory/batch", tag = TAG, request_body(content = memories::BatchInput, example = json!({
        "memories": [
            {"content": "Prefer PostgreSQL for transactional workloads", "type": "Preference", "importance": 0.9},
            {"content": "Redis used for session caching layer", "type": "Context", "importance": 0.6}]})),
    responses(
        (status = 201, description = "Stored", body = BatchStored),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody)
    ))]
async fn store_batch(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<Value>,
) -> Result<(StatusCode, Json<BatchStored>), ApiError> {
    Ok((StatusCode::CREATED, Json(store_many(&state, &auth, body).await?)))
}

/// AutoMem's batch store: the native batch, duplicates resolving to existing memories.
pub(crate) async fn store_many(state: &AppState, auth: &Auth, body: Value) -> Result<BatchStored, ApiError> {
    let started = Instant::now();
    if let Some(Value::Array(items)) = body.get("memories") {
        for (index, item) in items.iter().enumerate() {
            for field in ["embedding", "t_valid", "t_invalid"] {
                if item.get(field).is_some_and(|v| !v.is_null()) {
                    return Err(bad(
                        &format!("memories[{index}].{field}"),
                        "is not accepted in a batch; store the memory alone",
                    ));
                }
            }
        }
    }
    let outcome = memories::store_batch(state, auth, body, Duplicates::Reuse).await?;
    let queued = outcome.stored.iter().filter(|m| m.embedding_status == "pending").count();
    let qdrant = match state.embedder.state() {
        _ if queued == 0 && !outcome.stored.is_empty() => format!("stored ({})", outcome.stored.len()),
        SlotState::Disabled => "unconfigured".to_owned(),
        _ => format!("queued ({queued})"),
    };
    Ok(BatchStored {
        status: "success",
        stored: outcome.stored.len(),
        memory_ids: outcome.ids,
        qdrant,
        enrichment: "queued",
        query_time_ms: millis(started),
        deduplicated: outcome.deduplicated,
    })
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
#[utoipa::path(get, path = "/memory/{id}", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "The memory", body = GotMemory),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn get_memory(
    State(state): State<AppState>,
    auth: Auth,
    PathId(id): PathId,
) -> Result<Json<GotMemory>, ApiError> {
    let memory = memories::get(&state, &auth, id).await?;
    let walk = RelatedQuery { limit: Some(RELATION_LIMIT), ..RelatedQuery::default() };
    let related = graph::related(&state, &auth, id, walk).await?;
    let relations = related
        .related
        .into_iter()
        .filter_map(|r| {
            let step = r.path.into_iter().next()?;
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

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "memory_id": "a1b2c3d4-e5f6-7890-abcd-ef1234567890"}))]
pub struct MemoryIdResponse {
    pub status: &'static str,
    pub memory_id: Uuid,
}

/// Update a memory (AutoMem).
///
/// The native partial update: `metadata` replaces the stored object; new content is re-embedded; new tags
/// recompute their prefixes; the id never changes. AutoMem's `updated_at` and `last_accessed` are ignored:
/// the service keeps those itself.
#[utoipa::path(patch, path = "/memory/{id}", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    request_body(content = MemoryPatch, example = json!({"importance": 0.95,
        "tags": ["project-alpha", "database", "architecture", "reviewed"]})),
    responses(
        (status = 200, description = "Updated", body = MemoryIdResponse),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody),
        (status = 409, description = "Another memory holds the new content", body = crate::error::ErrorBody)
    ))]
async fn patch_memory(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
    ApiJson(patch): ApiJson<MemoryPatch>,
) -> Result<Json<MemoryIdResponse>, ApiError> {
    let memory = memories::update(&state, &auth, id, patch).await?;
    Ok(Json(MemoryIdResponse { status: "success", memory_id: memory.id }))
}

/// Delete a memory and its relations (AutoMem; permanent, 404 when absent).
#[utoipa::path(delete, path = "/memory/{id}", tag = TAG, params(("id" = Uuid, Path, description = "Memory id")),
    responses(
        (status = 200, description = "Deleted", body = MemoryIdResponse),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn delete_memory(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
) -> Result<Json<MemoryIdResponse>, ApiError> {
    memories::delete(&state, &auth, id).await?;
    Ok(Json(MemoryIdResponse { status: "success", memory_id: id }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ByTagResponse {
    pub status: &'static str,
    pub tags: Vec<String>,
    pub memories: Vec<AutoMemMemory>,
    pub count: usize,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// Memories with any of the tags, importance then time descending (AutoMem).
#[utoipa::path(get, path = "/memory/by-tag", tag = TAG, params(ByTagQuery),
    responses((status = 200, description = "A page", body = ByTagResponse)))]
async fn by_tag(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<ByTagQuery>,
) -> Result<Json<ByTagResponse>, ApiError> {
    let page = memories::by_tag(&state, &auth, query).await?;
    Ok(Json(ByTagResponse {
        status: "success",
        tags: page.tags,
        count: page.count,
        memories: page.memories.into_iter().map(AutoMemMemory::from).collect(),
        total: page.total,
        limit: page.limit,
        offset: page.offset,
        has_more: page.has_more,
    }))
}

/// Delete every memory with any of the tags (AutoMem).
#[utoipa::path(delete, path = "/memory/by-tag", tag = TAG, params(ByTagQuery),
    responses(
        (status = 200, description = "How many were deleted", body = DeletedByTag),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody)
    ))]
async fn delete_by_tag(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiQuery(query): ApiQuery<ByTagQuery>,
) -> Result<Json<DeletedByTag>, ApiError> {
    Ok(Json(memories::remove_by_tag(&state, &auth, &query.tags).await?))
}

/// AutoMem's recall parameters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecallQuery {
    /// What to look for.
    pub query: Option<String>,
    /// Several queries (repeat the key, at most 10): each is recalled and the results merged, each memory
    /// once with its best score.
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub queries: StringList,
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub tags: StringList,
    /// `any` (default) or `all`.
    pub tag_mode: Option<String>,
    /// `exact` (default) or `prefix`.
    pub tag_match: Option<String>,
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub exclude_tags: StringList,
    /// A natural-language period ("last week", "yesterday", "vor 2 Wochen"): both bounds.
    pub time_query: Option<String>,
    /// Lower bound (ISO 8601 or natural language); wins over `time_query`'s.
    pub start: Option<String>,
    /// Upper bound; wins over `time_query`'s.
    pub end: Option<String>,
    /// 1..=100, default 10.
    pub limit: Option<i64>,
    /// `score` (default with a query), `time_desc`, `time_asc`.
    pub sort: Option<String>,
    pub expand_relations: Option<bool>,
    pub expand_entities: Option<bool>,
    pub relation_limit: Option<i64>,
    pub expansion_limit: Option<i64>,
    /// Drop results scoring below this, 0..=1.
    pub min_score: Option<f64>,
    /// Tags of the current context: results carrying one (or a hierarchical child) gain 0.1 (capped at 1)
    /// and are re-ranked.
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub context_tags: StringList,
    /// `hybrid` (default), `semantic`, `keyword` or `associative`.
    pub mode: Option<String>,
}

/// One AutoMem recall result.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallResult {
    pub id: Uuid,
    pub memory: AutoMemMemory,
    pub score: f64,
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecallAnswer {
    pub status: &'static str,
    pub results: Vec<RecallResult>,
    pub count: usize,
    /// The queries recalled.
    pub queries: Vec<String>,
    pub mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansions: Option<Vec<Expansion>>,
    pub query_time_ms: f64,
}

/// Context-tag boost of `/recall`.
const CONTEXT_BOOST: f64 = 0.1;

/// Recall memories (AutoMem).
///
/// The native recall per query; several queries merge (each memory once, best score). `time_query` is a
/// period in words, `start`/`end` explicit bounds. `min_score` drops weak results; `context_tags` lifts
/// results carrying those tags by 0.1.
#[utoipa::path(get, path = "/recall", tag = TAG, params(RecallQuery),
    responses((status = 200, description = "Scored results", body = RecallAnswer)))]
async fn recall_memories(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(q): ApiQuery<RecallQuery>,
) -> Result<Json<RecallAnswer>, ApiError> {
    Ok(Json(recall(&state, &auth, q).await?))
}

/// AutoMem's recall: the native recall once per query, merged.
pub(crate) async fn recall(state: &AppState, auth: &Auth, q: RecallQuery) -> Result<RecallAnswer, ApiError> {
    let started = Instant::now();
    let mut seen = std::collections::HashSet::new();
    let queries: Vec<String> =
        q.query.iter().chain(q.queries.0.iter()).filter(|q| seen.insert(q.as_str())).cloned().collect();
    if queries.len() > MAX_QUERIES {
        return Err(bad("queries", format!("at most {MAX_QUERIES} queries (got {})", queries.len())));
    }
    let min_score = crate::recall::params::unit("min_score", q.min_score)?;
    let context_tags = crate::memory::normalize_tag_filter(&q.context_tags.0);
    let params = |query: Option<String>| RecallParams {
        query,
        mode: q.mode.clone(),
        limit: q.limit,
        tags: q.tags.clone(),
        tag_mode: q.tag_mode.clone(),
        tag_match: q.tag_match.clone(),
        exclude_tags: q.exclude_tags.clone(),
        since: q.start.clone().or_else(|| q.time_query.clone()),
        until: q.end.clone().or_else(|| q.time_query.clone()),
        sort: q.sort.clone(),
        expand_relations: q.expand_relations,
        expand_entities: q.expand_entities,
        relation_limit: q.relation_limit,
        expansion_limit: q.expansion_limit,
        ..RecallParams::default()
    };
    let runs: Vec<Option<String>> =
        if queries.is_empty() { vec![None] } else { queries.iter().cloned().map(Some).collect() };
    let now = Utc::now();
    let mut merged: Vec<recall::RecallHit> = Vec::new();
    let mut index: HashMap<Uuid, usize> = HashMap::new();
    // AutoMem's names for the native fields an error may name.
    let names = [
        ("since", if q.start.is_some() { "start" } else { "time_query" }),
        ("until", if q.end.is_some() { "end" } else { "time_query" }),
        ("query", if queries.len() > 1 { "queries" } else { "query" }),
    ];
    let (mut mode, mut notice, mut expansions, mut limit, mut sort) =
        ("hybrid", None, None::<Vec<Expansion>>, 0, recall::Sort::Score);
    for query in runs {
        let mut request = RecallRequest::parse(params(query), now).map_err(|e| e.with_field_names(&names))?;
        // Accesses are counted once below, for the memories actually returned.
        request.count_access = false;
        (limit, sort) = (request.limit as usize, request.sort);
        let answer = state.recall(auth.tenant_id, request).await?;
        (mode, notice) = (answer.mode, answer.notice.or(notice));
        if let Some(more) = answer.expansions {
            expansions.get_or_insert_with(Vec::new).extend(more);
        }
        for hit in answer.results {
            match index.get(&hit.memory.id) {
                Some(&i) if merged[i].score >= hit.score => {}
                Some(&i) => merged[i] = hit,
                None => {
                    index.insert(hit.memory.id, merged.len());
                    merged.push(hit);
                }
            }
        }
    }
    if !context_tags.is_empty() {
        for hit in &mut merged {
            if hit.memory.tag_prefixes.iter().chain(&hit.memory.tags).any(|t| context_tags.contains(t)) {
                hit.score = (hit.score + CONTEXT_BOOST).min(1.0);
            }
        }
    }
    if let Some(min) = min_score {
        merged.retain(|h| h.score >= f64::from(min));
    }
    // One run is already in order; merged runs and lifted scores are ordered again.
    if queries.len() > 1 || !context_tags.is_empty() {
        match sort {
            recall::Sort::Score => merged.sort_by(|a, b| b.score.total_cmp(&a.score)),
            recall::Sort::TimeDesc => merged.sort_by_key(|h| std::cmp::Reverse(h.memory.created_at)),
            recall::Sort::TimeAsc => merged.sort_by_key(|h| h.memory.created_at),
        }
    }
    merged.truncate(limit);
    let returned = merged.iter().map(|h| h.memory.id).collect();
    recall::count_access(&state.db, auth.tenant_id, returned, mode == "associative");
    if let Some(expansions) = &mut expansions {
        expansions.retain(|e| !index.contains_key(&e.memory.id));
    }
    let results: Vec<RecallResult> = merged
        .into_iter()
        .map(|h| RecallResult {
            id: h.memory.id,
            memory: h.memory.into(),
            score: h.score,
            match_type: h.match_type,
            score_components: h.score_components,
        })
        .collect();
    Ok(RecallAnswer {
        status: "success",
        count: results.len(),
        results,
        queries,
        mode,
        notice,
        expansions,
        query_time_ms: millis(started),
    })
}

/// AutoMem's association body.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11",
    "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b", "type": "PREFERS_OVER", "strength": 0.9}))]
#[allow(dead_code)] // documents the body; the native parser reads it field by field
pub struct AssociateInput {
    pub memory1_id: Uuid,
    pub memory2_id: Uuid,
    /// RELATES_TO (default), LEADS_TO, OCCURRED_BEFORE, PREFERS_OVER, EXEMPLIFIES, CONTRADICTS, REINFORCES,
    /// INVALIDATED_BY, EVOLVED_INTO, DERIVED_FROM, PART_OF.
    #[serde(rename = "type")]
    pub rel_type: Option<String>,
    /// 0..=1, default 0.5.
    pub strength: Option<f32>,
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
#[utoipa::path(post, path = "/associate", tag = TAG, request_body = AssociateInput,
    responses(
        (status = 201, description = "Stored (or updated)", body = Associated),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody),
        (status = 404, description = "A memory does not exist in this tenant", body = crate::error::ErrorBody)
    ))]
async fn associate(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<Value>,
) -> Result<(StatusCode, Json<Associated>), ApiError> {
    let a = graph::associate(&state, &auth, &body).await?;
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
    pub related_memories: Vec<graph::RelatedMemory>,
}

/// Memories related to a memory (AutoMem).
#[utoipa::path(get, path = "/memories/{id}/related", tag = TAG,
    params(("id" = Uuid, Path, description = "Memory id"), AutoMemRelatedQuery),
    responses(
        (status = 200, description = "Related memories, strongest path first", body = RelatedAnswer),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn related(
    State(state): State<AppState>,
    auth: Auth,
    PathId(id): PathId,
    ApiQuery(q): ApiQuery<AutoMemRelatedQuery>,
) -> Result<Json<RelatedAnswer>, ApiError> {
    let walk =
        RelatedQuery { depth: q.max_depth, types: q.relationship_types, limit: q.limit, min_strength: q.min_strength };
    let related = graph::related(&state, &auth, id, walk)
        .await
        .map_err(|e| e.with_field_names(&[("depth", "max_depth"), ("types", "relationship_types")]))?;
    Ok(Json(RelatedAnswer {
        status: "success",
        memory_id: related.memory_id,
        count: related.count,
        related_memories: related.related,
    }))
}

/// Consolidate (AutoMem): `mode` full (default), decay, creative, cluster or forget; `dry_run` reports only.
#[utoipa::path(post, path = "/consolidate", tag = TAG, request_body(content = ConsolidateRequest,
        example = json!({"mode": "full", "dry_run": true})),
    responses(
        (status = 200, description = "What the run did (or would do)", body = ConsolidateResponse),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody)
    ))]
async fn consolidate_memories(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<ConsolidateRequest>,
) -> Result<Json<ConsolidateResponse>, ApiError> {
    Ok(Json(consolidate::run(&state, &auth, body).await?))
}
