//! The knowledge graph on `/api/v1`: associations (one or a batch, delete), traversal from a memory, and
//! episodes.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::memories::Deleted;
use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::AppState;
use crate::auth::{Auth, Writer};
use crate::error::ApiError;
use crate::graph;
use crate::memory::{normalize_tag_filter, Memory, MAX_ID_CHARS};
use crate::recall::params::{self, StringList};
use crate::store::relations::{self, Association, NewAssociation, PathStep, Walk};

/// Most associations in one batch.
pub const MAX_BATCH: usize = 500;
/// Deepest traversal.
pub const MAX_DEPTH: i32 = 3;
/// Most memories one traversal returns.
pub const MAX_RELATED: i64 = 200;
/// Strength of an association that names none.
pub const DEFAULT_STRENGTH: f32 = 0.5;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_associations))
        .routes(routes!(delete_association))
        .routes(routes!(related_memories))
        .routes(routes!(get_episode))
}

/// One association to store (documentation shape; parsing goes field by field so errors name them).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11",
    "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b", "type": "PREFERS_OVER", "strength": 0.8,
    "properties": {"reason": "benchmarks"}}))]
#[allow(dead_code)]
pub struct AssociationInput {
    /// The source memory.
    pub memory1_id: Uuid,
    /// The target memory; never the source itself.
    pub memory2_id: Uuid,
    /// An authorable type (AutoMem's RELATES_TO, LEADS_TO, OCCURRED_BEFORE, PREFERS_OVER, EXEMPLIFIES,
    /// CONTRADICTS, REINFORCES, INVALIDATED_BY, EVOLVED_INTO, DERIVED_FROM, PART_OF; remem's names such as
    /// RelatedTo, CausedBy, References, Supports are accepted). Default RELATES_TO.
    #[serde(rename = "type")]
    pub rel_type: Option<String>,
    /// 0..=1, default 0.5.
    pub strength: Option<f32>,
    /// Free-form object.
    #[schema(value_type = Object)]
    pub properties: Option<Value>,
}

/// One association, or `{"associations": [...]}` with up to 500.
#[derive(Debug, Deserialize, ToSchema)]
#[allow(dead_code)]
#[serde(untagged)]
pub enum AssociationBody {
    One(AssociationInput),
    #[schema(example = json!({"associations": [{"memory1_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11",
        "memory2_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b", "type": "RelatedTo"}]}))]
    Many {
        associations: Vec<AssociationInput>,
    },
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssociationStored {
    pub status: &'static str,
    pub association: Association,
}

/// One item's outcome in a batch.
#[derive(Debug, Serialize, ToSchema)]
pub struct AssociationItem {
    pub index: usize,
    /// `stored` or `error`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub association: Option<Association>,
    /// The error's status code (400 invalid, 404 memory not found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssociationBatch {
    /// `success` (all stored) or `partial`.
    pub status: &'static str,
    pub stored: usize,
    pub failed: usize,
    pub results: Vec<AssociationItem>,
}

fn field<'a>(item: &'a serde_json::Map<String, Value>, name: &str) -> Option<&'a Value> {
    item.get(name).filter(|v| !v.is_null())
}

fn uuid_field(item: &serde_json::Map<String, Value>, prefix: &str, name: &str) -> Result<Uuid, ApiError> {
    match field(item, name) {
        None => Err(ApiError::bad_request(format!("{prefix}{name}: is required"))),
        Some(Value::String(s)) => Uuid::parse_str(s.trim())
            .map_err(|_| ApiError::bad_request(format!("{prefix}{name}: not a valid UUID: {s:?}"))),
        Some(_) => Err(ApiError::bad_request(format!("{prefix}{name}: must be a UUID string"))),
    }
}

/// Validates one association item (everything but the memories' existence).
fn parse_item(value: &Value, prefix: &str) -> Result<NewAssociation, ApiError> {
    let Value::Object(item) = value else {
        let field = if prefix.is_empty() { "body" } else { prefix.trim_end_matches('.') };
        return Err(ApiError::bad_request(format!("{field}: must be an object")));
    };
    let source = uuid_field(item, prefix, "memory1_id")?;
    let target = uuid_field(item, prefix, "memory2_id")?;
    if source == target {
        return Err(ApiError::bad_request(format!("{prefix}memory2_id: a memory cannot be associated with itself")));
    }
    let rel_type = match field(item, "type") {
        None => "RELATES_TO",
        Some(Value::String(s)) => graph::authorable(&format!("{prefix}type"), s).map_err(ApiError::bad_request)?,
        Some(_) => return Err(ApiError::bad_request(format!("{prefix}type: must be a string"))),
    };
    let strength = match field(item, "strength") {
        None => DEFAULT_STRENGTH,
        Some(v) => match v.as_f64() {
            Some(s) if (0.0..=1.0).contains(&s) => s as f32,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "{prefix}strength: must be a number between 0 and 1 (got {v})"
                )))
            }
        },
    };
    let properties = match field(item, "properties") {
        None => json!({}),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => return Err(ApiError::bad_request(format!("{prefix}properties: must be an object"))),
    };
    Ok(NewAssociation { source, target, rel_type, strength, properties })
}

fn missing(prefix: &str, a: &NewAssociation, found: &std::collections::HashSet<Uuid>) -> Option<ApiError> {
    [("memory1_id", a.source), ("memory2_id", a.target)]
        .into_iter()
        .find(|(_, id)| !found.contains(id))
        .map(|(name, id)| ApiError::not_found(format!("{prefix}{name}: memory {id} not found")))
}

/// Associate memories.
///
/// One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207 with
/// each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are stored).
/// An association between the same two memories with the same type is updated, not duplicated. Both
/// memories must belong to the key's tenant.
#[utoipa::path(post, path = "/api/v1/associations", tag = "graph", request_body = AssociationBody,
    responses(
        (status = 201, description = "Stored (one: `association`; a batch: every item)", body = AssociationStored),
        (status = 207, description = "Batch partly stored; each item's outcome", body = AssociationBatch),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody),
        (status = 404, description = "A memory does not exist in this tenant", body = crate::error::ErrorBody)
    ))]
async fn create_associations(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let items = match &body {
        Value::Object(o) if o.contains_key("associations") => match &o["associations"] {
            Value::Array(items) if items.is_empty() => {
                return Err(ApiError::bad_request("associations: must not be empty"))
            }
            Value::Array(items) if items.len() > MAX_BATCH => {
                return Err(ApiError::bad_request(format!(
                    "associations: at most {MAX_BATCH} items (got {})",
                    items.len()
                )))
            }
            Value::Array(items) => Some(items),
            _ => return Err(ApiError::bad_request("associations: must be an array")),
        },
        Value::Object(_) => None,
        _ => return Err(ApiError::bad_request("body: must be an object")),
    };
    let Some(items) = items else {
        let association = associate(&state, &auth, &body).await?;
        return Ok((StatusCode::CREATED, Json(AssociationStored { status: "success", association })).into_response());
    };
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let parsed: Vec<Result<NewAssociation, ApiError>> =
        items.iter().enumerate().map(|(i, v)| parse_item(v, &format!("associations[{i}]."))).collect();
    let ids: Vec<Uuid> = parsed.iter().flatten().flat_map(|a| [a.source, a.target]).collect();
    let found = relations::existing(&mut tx, &ids).await?;
    let mut results = Vec::with_capacity(items.len());
    for (index, item) in parsed.into_iter().enumerate() {
        let outcome = match item {
            Ok(a) => match missing(&format!("associations[{index}]."), &a, &found) {
                Some(err) => Err(err),
                None => Ok(relations::upsert(&mut tx, &a).await?),
            },
            Err(err) => Err(err),
        };
        results.push(match outcome {
            Ok(association) => {
                AssociationItem { index, status: "stored", association: Some(association), code: None, message: None }
            }
            Err(err) => AssociationItem {
                index,
                status: "error",
                association: None,
                code: Some(err.status().as_u16()),
                message: Some(err.to_string()),
            },
        });
    }
    let stored = results.iter().filter(|r| r.association.is_some()).count();
    let failed = results.len() - stored;
    if stored == 0 {
        // Nothing to write: the first item's error, as a plain error.
        let first = results.into_iter().next().and_then(|r| r.message).unwrap_or_default();
        return Err(ApiError::bad_request(format!("associations: no item could be stored; {first}")));
    }
    tx.commit().await?;
    let (status, word) =
        if failed == 0 { (StatusCode::CREATED, "success") } else { (StatusCode::MULTI_STATUS, "partial") };
    Ok((status, Json(AssociationBatch { status: word, stored, failed, results })).into_response())
}

/// Stores one association (`{memory1_id, memory2_id, type?, strength?, properties?}`), updating the edge
/// when the pair already has one of that type: the one association store every surface calls. Both memories
/// must be the tenant's (404 otherwise).
pub(crate) async fn associate(state: &AppState, auth: &Auth, body: &Value) -> Result<Association, ApiError> {
    let new = parse_item(body, "")?;
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let found = relations::existing(&mut tx, &[new.source, new.target]).await?;
    if let Some(err) = missing("", &new, &found) {
        return Err(err);
    }
    let association = relations::upsert(&mut tx, &new).await?;
    tx.commit().await?;
    Ok(association)
}

/// Delete an association.
#[utoipa::path(delete, path = "/api/v1/associations/{id}", tag = "graph",
    params(("id" = Uuid, Path, description = "Association id")),
    responses(
        (status = 200, description = "Deleted", body = Deleted),
        (status = 403, description = "Key lacks the write scope", body = crate::error::ErrorBody),
        (status = 404, description = "No such association in this tenant", body = crate::error::ErrorBody)
    ))]
async fn delete_association(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
) -> Result<Json<Deleted>, ApiError> {
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    if !relations::delete(&mut tx, id).await? {
        return Err(ApiError::not_found(format!("association {id} not found")));
    }
    tx.commit().await?;
    Ok(Json(Deleted { status: "success", id, deleted: true, hard: true }))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RelatedQuery {
    /// Hops to follow, 1..=3 (default 1).
    pub depth: Option<i32>,
    /// Relation types to follow (repeat or comma-separate; system types too). Default: all.
    #[serde(default)]
    #[param(value_type = Vec<String>)]
    pub types: StringList,
    /// 1..=200 (default 50).
    pub limit: Option<i64>,
    /// Follow only edges at least this strong, 0..=1 (default 0).
    pub min_strength: Option<f64>,
}

/// A memory reached from the start.
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

#[derive(Debug, Serialize, ToSchema)]
pub struct RelatedResponse {
    pub memory_id: Uuid,
    pub count: usize,
    pub related: Vec<RelatedMemory>,
}

/// Memories related to a memory.
///
/// Follows associations in either direction up to `depth` hops (one recursive query; cycles end), each
/// memory once with its strongest path, strongest first.
#[utoipa::path(get, path = "/api/v1/memories/{id}/related", tag = "graph",
    params(("id" = Uuid, Path, description = "Memory id"), RelatedQuery),
    responses(
        (status = 200, description = "Related memories", body = RelatedResponse),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn related_memories(
    State(state): State<AppState>,
    auth: Auth,
    PathId(id): PathId,
    ApiQuery(q): ApiQuery<RelatedQuery>,
) -> Result<Json<RelatedResponse>, ApiError> {
    Ok(Json(related(&state, &auth, id, q).await?))
}

/// The memories reachable from `id` (404 when the tenant has no such memory): the one traversal every
/// surface calls.
pub(crate) async fn related(
    state: &AppState,
    auth: &Auth,
    id: Uuid,
    q: RelatedQuery,
) -> Result<RelatedResponse, ApiError> {
    let depth = q.depth.unwrap_or(1);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(ApiError::bad_request(format!("depth: must be between 1 and {MAX_DEPTH} (got {depth})")));
    }
    let limit = params::bounded("limit", q.limit, 1, MAX_RELATED, 50)?;
    let min_strength = params::unit("min_strength", q.min_strength)?.unwrap_or(0.0);
    let types = normalize_tag_filter(&q.types.0);
    let types = match types.is_empty() {
        true => None,
        false => Some(
            types
                .iter()
                .map(|t| graph::any_type("types", t).map(str::to_owned))
                .collect::<Result<Vec<_>, _>>()
                .map_err(ApiError::bad_request)?,
        ),
    };
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    if relations::existing(&mut tx, &[id]).await?.is_empty() {
        return Err(ApiError::not_found(format!("memory {id} not found")));
    }
    let reached = relations::related(&mut tx, id, &Walk { depth, types, min_strength, limit }).await?;
    tx.commit().await?;
    let related: Vec<RelatedMemory> = reached
        .into_iter()
        .map(|r| RelatedMemory { memory: r.memory, depth: r.depth, path_strength: r.path_strength, path: r.path.0 })
        .collect();
    Ok(RelatedResponse { memory_id: id, count: related.len(), related })
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EpisodeQuery {
    /// 1..=200 (default 50).
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// A `PRECEDED_BY` edge between consecutive memories of an episode.
#[derive(Debug, Serialize, ToSchema)]
pub struct EpisodeEdge {
    /// The later memory.
    pub from: Uuid,
    /// The memory just before it.
    pub to: Uuid,
    #[serde(rename = "type")]
    pub rel_type: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EpisodeResponse {
    pub episode_id: String,
    /// Memories in the episode.
    pub total: i64,
    pub count: usize,
    pub has_more: bool,
    /// In `sequence_number` order (then time).
    pub memories: Vec<Memory>,
    /// Each memory PRECEDED_BY the one before it on this page.
    pub edges: Vec<EpisodeEdge>,
}

/// An episode's memories in order.
#[utoipa::path(get, path = "/api/v1/episodes/{episode_id}", tag = "graph",
    params(("episode_id" = String, Path, description = "Episode id"), EpisodeQuery),
    responses(
        (status = 200, description = "The episode (empty when it has no memories)", body = EpisodeResponse)
    ))]
async fn get_episode(
    State(state): State<AppState>,
    auth: Auth,
    Path(episode_id): Path<String>,
    ApiQuery(q): ApiQuery<EpisodeQuery>,
) -> Result<Json<EpisodeResponse>, ApiError> {
    let episode_id = episode_id.trim().to_owned();
    if episode_id.is_empty() || episode_id.chars().count() > MAX_ID_CHARS {
        return Err(ApiError::bad_request(format!("episode_id: must be 1..={MAX_ID_CHARS} characters")));
    }
    let (limit, offset) = params::page(q.limit, q.offset, MAX_RELATED, 50)?;
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let (memories, total) = relations::episode(&mut tx, &episode_id, limit, offset).await?;
    tx.commit().await?;
    let edges =
        memories.windows(2).map(|w| EpisodeEdge { from: w[1].id, to: w[0].id, rel_type: "PRECEDED_BY" }).collect();
    let has_more = offset + (memories.len() as i64) < total;
    Ok(Json(EpisodeResponse { episode_id, total, count: memories.len(), has_more, memories, edges }))
}
