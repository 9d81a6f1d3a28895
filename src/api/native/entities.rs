//! Entities on `/api/v1`: listing, one entity with its memories, and merging. (Entity-grouped recall is
//! `recall::recall_by_entity`.)

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::auth::Writer;
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::views::{self, Entity, Memory};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::entities;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_entities)).routes(routes!(get_entity)).routes(routes!(merge_entities))
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
#[utoipa::path(get, path = "/api/v1/entities", operation_id = "entities.list", tag = "entities", params(EntityQuery),
    responses(
        (status = 200, description = "A page of entities", body = EntityPage),
        (status = 400, description = "Unknown type or bad paging", body = crate::api::error::ErrorBody)
    ))]
async fn list_entities(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(query): ApiQuery<EntityQuery>,
) -> ApiResult<Json<EntityPage>> {
    let page = entities::list(&services, &tenant, query.kind.as_deref(), query.q.as_deref(), query.limit, query.offset)
        .await?;
    let has_more = page.has_more();
    Ok(Json(EntityPage {
        count: page.items.len(),
        entities: page.items.into_iter().map(Entity::from).collect(),
        total: page.total,
        limit: page.limit,
        offset: page.offset,
        has_more,
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
#[utoipa::path(get, path = "/api/v1/entities/{id}", operation_id = "entities.get", tag = "entities", params(("id" = Uuid, Path), EntityMemoriesQuery),
    responses(
        (status = 200, description = "The entity and its memories", body = EntityDetail),
        (status = 404, description = "No such entity in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn get_entity(
    State(services): State<AppState>,
    tenant: Tenant,
    PathId(id): PathId,
    ApiQuery(query): ApiQuery<EntityMemoriesQuery>,
) -> ApiResult<Json<EntityDetail>> {
    let include_archived = query.include_archived.unwrap_or(false);
    let d = entities::get(&services, &tenant, id, include_archived, query.limit, query.offset).await?;
    Ok(Json(EntityDetail {
        entity: d.entity.into(),
        memories: views::memories(d.memories),
        limit: d.limit,
        offset: d.offset,
        has_more: d.has_more,
    }))
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
#[utoipa::path(post, path = "/api/v1/entities/{id}/merge", operation_id = "entities.merge", tag = "entities", params(("id" = Uuid, Path)),
    request_body = MergeRequest,
    responses(
        (status = 200, description = "The merged entity", body = Entity),
        (status = 400, description = "Empty list, too many, or the target itself", body = crate::api::error::ErrorBody),
        (status = 404, description = "The target or a listed entity does not exist in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn merge_entities(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
    ApiJson(body): ApiJson<MergeRequest>,
) -> ApiResult<Json<Entity>> {
    Ok(Json(entities::merge(&services, &tenant, id, body.entity_ids).await?.into()))
}
