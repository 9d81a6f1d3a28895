//! The knowledge graph on `/api/v1`: associations (one or a batch, delete), traversal from a memory, and
//! episodes.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::memories::Deleted;
use crate::api::auth::Writer;
use crate::api::error::{status_of, ApiResult};
use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::views::{self, Association, Memory, RelatedMemory};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::error::Error;
use crate::graph::{AssociationInput, RelatedParams};
use crate::service::associations;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_associations))
        .routes(routes!(delete_association))
        .routes(routes!(related_memories))
        .routes(routes!(get_episode))
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

/// Associate memories.
///
/// One association (201), or `{"associations": [...]}` with up to 500: 201 when all are stored, 207 with
/// each item's outcome when some fail (invalid items are 400s, unknown memories 404s; the rest are stored).
/// An association between the same two memories with the same type is updated, not duplicated. Both
/// memories must belong to the key's tenant.
#[utoipa::path(post, path = "/api/v1/associations", operation_id = "associations.create", tag = "graph", request_body = AssociationBody,
    responses(
        (status = 201, description = "Stored (one: `association`; a batch: every item)", body = AssociationStored),
        (status = 207, description = "Batch partly stored; each item's outcome", body = AssociationBatch),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "A memory does not exist in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn create_associations(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Response> {
    let items = match &body {
        Value::Object(o) if o.contains_key("associations") => match &o["associations"] {
            Value::Array(items) => items,
            _ => return Err(Error::invalid("associations: must be an array").into()),
        },
        Value::Object(_) => {
            let association = associations::associate(&services, &tenant, &body).await?.into();
            return Ok(
                (StatusCode::CREATED, Json(AssociationStored { status: "success", association })).into_response()
            );
        }
        _ => return Err(Error::invalid("body: must be an object").into()),
    };
    let outcomes = associations::associate_batch(&services, &tenant, items).await?;
    let results: Vec<AssociationItem> = outcomes
        .into_iter()
        .enumerate()
        .map(|(index, outcome)| match outcome {
            Ok(a) => {
                AssociationItem { index, status: "stored", association: Some(a.into()), code: None, message: None }
            }
            Err(err) => AssociationItem {
                index,
                status: "error",
                association: None,
                code: Some(status_of(&err).as_u16()),
                message: Some(err.to_string()),
            },
        })
        .collect();
    let stored = results.iter().filter(|r| r.association.is_some()).count();
    let failed = results.len() - stored;
    let (status, word) =
        if failed == 0 { (StatusCode::CREATED, "success") } else { (StatusCode::MULTI_STATUS, "partial") };
    Ok((status, Json(AssociationBatch { status: word, stored, failed, results })).into_response())
}

/// Delete an association.
#[utoipa::path(delete, path = "/api/v1/associations/{id}", operation_id = "associations.delete", tag = "graph",
    params(("id" = Uuid, Path, description = "Association id")),
    responses(
        (status = 200, description = "Deleted", body = Deleted),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such association in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn delete_association(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
) -> ApiResult<Json<Deleted>> {
    associations::delete(&services, &tenant, id).await?;
    Ok(Json(Deleted { status: "success", id, deleted: true, hard: true, purged: true }))
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
#[utoipa::path(get, path = "/api/v1/memories/{id}/related", operation_id = "memories.related", tag = "graph",
    params(("id" = Uuid, Path, description = "Memory id"), RelatedParams),
    responses(
        (status = 200, description = "Related memories", body = RelatedResponse),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn related_memories(
    State(services): State<AppState>,
    tenant: Tenant,
    PathId(id): PathId,
    ApiQuery(params): ApiQuery<RelatedParams>,
) -> ApiResult<Json<RelatedResponse>> {
    let related: Vec<RelatedMemory> =
        associations::related(&services, &tenant, id, params).await?.into_iter().map(RelatedMemory::from).collect();
    Ok(Json(RelatedResponse { memory_id: id, count: related.len(), related }))
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
#[utoipa::path(get, path = "/api/v1/episodes/{episode_id}", operation_id = "episodes.get", tag = "graph",
    params(("episode_id" = String, Path, description = "Episode id"), EpisodeQuery),
    responses(
        (status = 200, description = "The episode (empty when it has no memories)", body = EpisodeResponse)
    ))]
async fn get_episode(
    State(services): State<AppState>,
    tenant: Tenant,
    Path(episode_id): Path<String>,
    ApiQuery(q): ApiQuery<EpisodeQuery>,
) -> ApiResult<Json<EpisodeResponse>> {
    let (episode_id, page) = associations::episode(&services, &tenant, &episode_id, q.limit, q.offset).await?;
    let has_more = page.has_more();
    let edges =
        page.items.windows(2).map(|w| EpisodeEdge { from: w[1].id, to: w[0].id, rel_type: "PRECEDED_BY" }).collect();
    Ok(Json(EpisodeResponse {
        episode_id,
        total: page.total,
        count: page.items.len(),
        has_more,
        memories: views::memories(page.items),
        edges,
    }))
}
