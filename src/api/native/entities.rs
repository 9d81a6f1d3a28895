//! Entities on `/api/v1`: listing, one entity with its memories, merging, and entity-grouped recall
//! (textrawl's `recall_memories`).

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::AppState;
use crate::auth::{Auth, Writer};
use crate::embed::SlotState;
use crate::entities::{self, TYPES};
use crate::error::ApiError;
use crate::memory::Memory;
use crate::recall::params::{self, bad};
use crate::recall::{self, RecallParams, RecallRequest, MAX_QUERY_CHARS};
use crate::store::entities::{self as store, Entity};

/// Most entities on one page.
pub const MAX_PAGE: i64 = 200;
/// Most memories of one entity on one page.
pub const MAX_MEMORIES: i64 = 100;
/// Most entities merged in one request.
pub const MAX_MERGE: usize = 100;
/// Most results of entity-grouped recall, and its default (textrawl's).
pub const MAX_GROUPED: i64 = 50;
pub const DEFAULT_GROUPED: i64 = 10;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_entities))
        .routes(routes!(get_entity))
        .routes(routes!(merge_entities))
        .routes(routes!(recall_by_entity))
}

fn entity_type(field: &str, value: &str) -> Result<&'static str, ApiError> {
    entities::parse_type(value)
        .ok_or_else(|| bad(field, format!("Invalid entity type {value:?}; valid types: {}", TYPES.join(", "))))
}

fn not_found(id: Uuid) -> ApiError {
    ApiError::not_found(format!("entity {id} not found"))
}

/// Filters and paging of `GET /api/v1/entities`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntityQuery {
    /// Only entities of this type (person, organization, project, tool, concept, location, preference, fact).
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
    /// Only entities whose normalised name starts with this.
    pub q: Option<String>,
    /// 1..=200, default 50.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EntityPage {
    pub entities: Vec<Entity>,
    /// Entities on this page.
    pub count: usize,
    /// How many entities match in all.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// List entities, most mentioned first.
///
/// Entities are found in memories by enrichment (local rules, or the configured chat model) and deduplicated
/// by type and normalised name. `memory_count` counts the memories that mention each.
#[utoipa::path(get, path = "/api/v1/entities", tag = "entities", params(EntityQuery),
    responses(
        (status = 200, description = "A page of entities", body = EntityPage),
        (status = 400, description = "Unknown type or bad paging", body = crate::error::ErrorBody)
    ))]
async fn list_entities(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(query): ApiQuery<EntityQuery>,
) -> Result<Json<EntityPage>, ApiError> {
    let kind = query.kind.as_deref().map(|k| entity_type("type", k)).transpose()?;
    let (limit, offset) = params::page(query.limit, query.offset, MAX_PAGE, 50)?;
    let q = query.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
    if q.is_some_and(|q| q.chars().count() > entities::MAX_NAME_CHARS) {
        return Err(bad("q", format!("at most {} characters", entities::MAX_NAME_CHARS)));
    }
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let (page, total) = store::list(&mut tx, kind, q, limit, offset).await?;
    tx.commit().await?;
    Ok(Json(EntityPage {
        count: page.len(),
        has_more: total > offset + page.len() as i64,
        entities: page,
        total,
        limit,
        offset,
    }))
}

/// Paging of an entity's memories.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntityMemoriesQuery {
    /// Memories per page, 1..=100, default 20.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Include archived memories (default false).
    pub include_archived: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EntityDetail {
    pub entity: Entity,
    /// The memories that mention it, newest first.
    pub memories: Vec<Memory>,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// One entity with the memories that mention it.
#[utoipa::path(get, path = "/api/v1/entities/{id}", tag = "entities", params(("id" = Uuid, Path), EntityMemoriesQuery),
    responses(
        (status = 200, description = "The entity and its memories", body = EntityDetail),
        (status = 404, description = "No such entity in this tenant", body = crate::error::ErrorBody)
    ))]
async fn get_entity(
    State(state): State<AppState>,
    auth: Auth,
    PathId(id): PathId,
    ApiQuery(query): ApiQuery<EntityMemoriesQuery>,
) -> Result<Json<EntityDetail>, ApiError> {
    let (limit, offset) = params::page(query.limit, query.offset, MAX_MEMORIES, 20)?;
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let entity = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    let include_archived = query.include_archived.unwrap_or(false);
    let mut memories = store::memories_of(&mut tx, id, include_archived, limit + 1, offset).await?;
    tx.commit().await?;
    let has_more = memories.len() as i64 > limit;
    memories.truncate(limit as usize);
    Ok(Json(EntityDetail { entity, memories, limit, offset, has_more }))
}

/// The entities to merge into the one in the path.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"entity_ids": ["7a1c9e3b-2d4f-4b6a-8c0e-1f2a3b4c5d6e"]}))]
pub struct MergeRequest {
    /// 1..=100 entities of this tenant, none the target itself.
    pub entity_ids: Vec<Uuid>,
}

/// Merge entities into this one.
///
/// The listed entities' memories are linked to this entity instead and carry its tag instead of theirs;
/// their names become its aliases, so later mentions of them link here too; they are deleted. Entities of
/// another type may be merged (the target keeps its type).
#[utoipa::path(post, path = "/api/v1/entities/{id}/merge", tag = "entities", params(("id" = Uuid, Path)),
    request_body = MergeRequest,
    responses(
        (status = 200, description = "The merged entity", body = Entity),
        (status = 400, description = "Empty list, too many, or the target itself", body = crate::error::ErrorBody),
        (status = 404, description = "The target or a listed entity does not exist in this tenant", body = crate::error::ErrorBody)
    ))]
async fn merge_entities(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
    ApiJson(body): ApiJson<MergeRequest>,
) -> Result<Json<Entity>, ApiError> {
    let mut ids = body.entity_ids;
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > MAX_MERGE {
        return Err(bad("entity_ids", format!("must list 1..={MAX_MERGE} entities (got {})", ids.len())));
    }
    if ids.contains(&id) {
        return Err(bad("entity_ids", format!("cannot merge entity {id} into itself")));
    }
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let all: Vec<Uuid> = ids.iter().copied().chain([id]).collect();
    let locked = store::lock(&mut tx, &all).await?;
    if !locked.contains(&id) {
        return Err(not_found(id));
    }
    if let Some(missing) = ids.iter().find(|i| !locked.contains(i)) {
        return Err(ApiError::not_found(format!("entity_ids: entity {missing} not found")));
    }
    let target = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    let mut sources = Vec::with_capacity(ids.len());
    for source in &ids {
        sources.push(store::get(&mut tx, *source).await?.ok_or_else(|| not_found(*source))?);
    }
    store::merge(&mut tx, &target, &sources).await?;
    let merged = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    Ok(Json(merged))
}

/// Entity-grouped recall (textrawl's `recall_memories`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({"query": "user preferences for development tools", "entityTypes": ["person", "preference"],
    "limit": 10, "searchMode": "hybrid"}))]
pub struct EntityRecallRequest {
    /// What to look for, 1..=1000 characters.
    pub query: Option<String>,
    /// Only these entity types (default: all).
    #[serde(default)]
    pub entity_types: Vec<String>,
    /// Memories to return, 1..=50 (default 10).
    pub limit: Option<i64>,
    /// `hybrid` (default: keywords and meaning) or `semantic`.
    pub search_mode: Option<String>,
    /// Short keys (default: the deployment's `CAIRN_COMPACT_RESPONSES`, true unless changed).
    pub compact: Option<bool>,
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

/// Recall memories grouped by the entities they mention.
///
/// Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an entity
/// (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory that
/// mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
/// entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid limit,
/// invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
/// model loads).
#[utoipa::path(post, path = "/api/v1/recall/entities", tag = "recall", request_body = EntityRecallRequest,
    responses(
        (status = 200, description = "Memories grouped by entity (compact or verbose)", body = EntityRecallResponse),
        (status = 400, description = "Invalid query length, limit, entity type or search mode", body = crate::error::ErrorBody),
        (status = 503, description = "Semantic search while the model is loading", body = crate::error::ErrorBody)
    ))]
async fn recall_by_entity(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(body): ApiJson<EntityRecallRequest>,
) -> Result<Json<EntityRecallResponse>, ApiError> {
    Ok(Json(recall_grouped(&state, &auth, body).await?))
}

/// Entity-grouped recall: the one every surface calls (textrawl's `recall_memories`).
pub(crate) async fn recall_grouped(
    state: &AppState,
    auth: &Auth,
    body: EntityRecallRequest,
) -> Result<EntityRecallResponse, ApiError> {
    let query = body.query.as_deref().map(str::trim).unwrap_or("");
    let chars = query.chars().count();
    if chars == 0 || chars > MAX_QUERY_CHARS {
        return Err(bad(
            "query",
            format!("Invalid query length: must be 1..={MAX_QUERY_CHARS} characters (got {chars})"),
        ));
    }
    let limit = body.limit.unwrap_or(DEFAULT_GROUPED);
    if !(1..=MAX_GROUPED).contains(&limit) {
        return Err(bad("limit", format!("Invalid limit: must be between 1 and {MAX_GROUPED} (got {limit})")));
    }
    let kinds: Vec<&str> = body.entity_types.iter().map(|t| entity_type("entityTypes", t)).collect::<Result<_, _>>()?;
    let mode = match body.search_mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("hybrid") => "hybrid",
        Some("semantic") => "semantic",
        Some(other) => return Err(bad("searchMode", format!("must be hybrid or semantic (got {other:?})"))),
    };
    if mode == "semantic" && state.embedder.state() == SlotState::Disabled {
        return Err(bad(
            "searchMode",
            "Embedding service not configured (CAIRN_EMBEDDER=none): semantic search is unavailable; use searchMode hybrid for keyword results",
        ));
    }
    // Recall a wide pool: memories without an entity of the wanted types are dropped afterwards.
    let params = RecallParams {
        query: Some(query.to_owned()),
        mode: Some(mode.to_owned()),
        limit: Some(recall::MAX_LIMIT),
        ..RecallParams::default()
    };
    let mut request = RecallRequest::parse(params, Utc::now())?;
    request.count_access = false; // only the memories returned below are counted
    let recalled = state.recall(auth.tenant_id, request).await?;
    let ids: Vec<Uuid> = recalled.results.iter().map(|h| h.memory.id).collect();
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let mentions = store::mentions(&mut tx, &ids, &kinds).await?;
    tx.commit().await?;
    let mut by_memory: HashMap<Uuid, Vec<&store::Mention>> = HashMap::new();
    for m in &mentions {
        by_memory.entry(m.memory_id).or_default().push(m);
    }
    // Best memories first; each entity in the order its best memory comes.
    let kept: Vec<_> =
        recalled.results.iter().filter(|h| by_memory.contains_key(&h.memory.id)).take(limit as usize).collect();
    let mut groups: Vec<(&store::Mention, Vec<&recall::RecallHit>)> = Vec::new();
    let mut index: HashMap<Uuid, usize> = HashMap::new();
    for hit in &kept {
        for mention in &by_memory[&hit.memory.id] {
            let i = *index.entry(mention.entity_id).or_insert_with(|| {
                groups.push((mention, Vec::new()));
                groups.len() - 1
            });
            groups[i].1.push(hit);
        }
    }
    recall::count_access(&state.db, auth.tenant_id, kept.iter().map(|h| h.memory.id).collect(), false);
    let compact = body.compact.unwrap_or(state.config.compact_responses);
    Ok(match compact {
        true => EntityRecallResponse::Compact(CompactRecall {
            n: kept.len(),
            e: groups
                .into_iter()
                .map(|(e, hits)| CompactEntity {
                    n: e.name.clone(),
                    t: e.entity_type.clone(),
                    m: hits
                        .iter()
                        .map(|h| CompactMemory { c: h.memory.content.clone(), s: two_decimals(h.score) })
                        .collect(),
                })
                .collect(),
        }),
        false => EntityRecallResponse::Verbose(VerboseRecall {
            query: query.to_owned(),
            total_memories: kept.len(),
            entities: groups
                .into_iter()
                .map(|(e, hits)| VerboseEntity {
                    entity_id: e.entity_id,
                    entity_name: e.name.clone(),
                    entity_type: e.entity_type.clone(),
                    memories: hits
                        .iter()
                        .map(|h| VerboseMemory {
                            id: h.memory.id,
                            content: h.memory.content.clone(),
                            source: h.memory.source_type.clone(),
                            confidence: h.memory.confidence,
                            score: two_decimals(h.score),
                        })
                        .collect(),
                })
                .collect(),
            search_mode: recalled.mode,
            notice: recalled.notice,
        }),
    })
}
