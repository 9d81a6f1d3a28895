//! remem's routes on `/api/v1` that the native resources do not already serve: `POST
//! /api/v1/memories/search`, connections (remem's name for associations) and stats. Each translates
//! remem's names onto the same use cases.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::Writer;
use super::error::ApiResult;
use super::extract::{parse_uuid, ApiJson, ApiQuery};
use super::views::{Association, RecallResponse, TenantStats};
use super::AppState;
use crate::auth::Tenant;
use crate::error::bad;
use crate::recall::{RecallParams, RecallRequest};
use crate::service::{associations, recall, stats};
use crate::validate::StringList;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search))
        .routes(routes!(list_connections, create_connection))
        .routes(routes!(delete_connection))
        .routes(routes!(tenant_stats))
}

/// remem's search body.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"query": "communication preferences", "search_type": "hybrid", "limit": 5,
    "min_importance": 0.5}))]
pub struct SearchRequest {
    /// What to look for, 1..=1000 characters (optional with `related_to`).
    pub query: Option<String>,
    /// `hybrid` (default), `semantic` or `keyword`.
    pub search_type: Option<String>,
    /// 1..=100, default 10.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Only memories associated with this memory (one hop, either direction; its 200 strongest neighbours).
    pub related_to: Option<Uuid>,
    pub min_importance: Option<f64>,
    pub max_importance: Option<f64>,
    /// `short_term` or `long_term`.
    pub memory_type: Option<String>,
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    pub tags: StringList,
}

/// Search memories (remem).
///
/// The native recall with remem's names: `search_type` is the mode, `related_to` keeps the memories one
/// association away from that memory (its 200 strongest neighbours; 404 if the tenant has no such memory),
/// and importance bounds filter. `query` is required unless `related_to` is given.
/// Answers in recall's shape.
#[utoipa::path(post, path = "/api/v1/memories/search", operation_id = "recall.search", tag = "recall", request_body = SearchRequest,
    responses(
        (status = 200, description = "Scored results", body = RecallResponse),
        (status = 404, description = "`related_to` names no memory of this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn search(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(body): ApiJson<SearchRequest>,
) -> ApiResult<Json<RecallResponse>> {
    if body.query.is_none() && body.related_to.is_none() {
        return Err(bad("query", "is required (or related_to)").into());
    }
    let mode = match body.search_type.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some(m @ ("hybrid" | "semantic" | "keyword")) => Some(m.to_owned()),
        Some(other) => {
            return Err(bad("search_type", format!("must be hybrid, semantic or keyword (got {other:?})")).into())
        }
    };
    let params = RecallParams {
        query: body.query,
        mode,
        limit: body.limit,
        offset: body.offset,
        tags: body.tags,
        memory_type: body.memory_type,
        min_importance: body.min_importance,
        max_importance: body.max_importance,
        ..RecallParams::default()
    };
    let request = RecallRequest { related_to: body.related_to, ..RecallRequest::parse(params, Utc::now())? };
    Ok(Json(recall::recall(&services, &tenant, request).await?.into()))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ConnectionQuery {
    /// Only connections touching this memory (either end).
    pub memory_id: Option<Uuid>,
    /// 1..=200, default 50.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConnectionPage {
    pub connections: Vec<Connection>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// An association in remem's vocabulary.
#[derive(Debug, Serialize, ToSchema)]
pub struct Connection {
    pub id: Uuid,
    pub source_id: Uuid,
    pub target_id: Uuid,
    /// The association type.
    pub relationship: String,
    pub strength: f32,
    #[schema(value_type = Object)]
    pub properties: Value,
    pub created_at: chrono::DateTime<Utc>,
}

impl From<Association> for Connection {
    fn from(a: Association) -> Self {
        Self {
            id: a.id,
            source_id: a.memory1_id,
            target_id: a.memory2_id,
            relationship: a.rel_type,
            strength: a.strength,
            properties: a.properties,
            created_at: a.created_at,
        }
    }
}

/// List connections (associations), newest first.
#[utoipa::path(get, path = "/api/v1/connections", operation_id = "connections.list", tag = "graph", params(ConnectionQuery),
    responses((status = 200, description = "A page of connections", body = ConnectionPage)))]
async fn list_connections(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(q): ApiQuery<ConnectionQuery>,
) -> ApiResult<Json<ConnectionPage>> {
    let page = associations::list(&services, &tenant, q.memory_id, q.limit, q.offset).await?;
    let has_more = page.has_more();
    Ok(Json(ConnectionPage {
        connections: page.items.into_iter().map(|a| Connection::from(Association::from(a))).collect(),
        total: page.total,
        limit: page.limit,
        offset: page.offset,
        has_more,
    }))
}

/// remem's connection body.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"source_id": "5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11",
    "target_id": "8c7e9a21-3b4d-4f6e-8a1b-2c3d4e5f6a7b", "relationship": "RelatedTo", "strength": 0.7}))]
pub struct ConnectionInput {
    pub source_id: Option<Value>,
    pub target_id: Option<Value>,
    /// An association type, AutoMem's or remem's names (`RelatedTo`, `CausedBy`...). Alias
    /// `relationship_type`, `type`. Default RELATES_TO.
    #[serde(alias = "relationship_type", alias = "type")]
    pub relationship: Option<Value>,
    /// 0..=1, default 0.5.
    pub strength: Option<Value>,
    #[schema(value_type = Option<Object>)]
    pub properties: Option<Value>,
}

const CONNECTION_FIELDS: &[(&str, &str)] =
    &[("memory1_id", "source_id"), ("memory2_id", "target_id"), ("type", "relationship")];

/// Connect two memories (an association).
#[utoipa::path(post, path = "/api/v1/connections", operation_id = "connections.create", tag = "graph", request_body = ConnectionInput,
    responses(
        (status = 201, description = "Stored (or updated)", body = Connection),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "A memory does not exist in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn create_connection(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<ConnectionInput>,
) -> ApiResult<(StatusCode, Json<Connection>)> {
    let association = json!({"memory1_id": body.source_id, "memory2_id": body.target_id,
        "type": body.relationship, "strength": body.strength, "properties": body.properties});
    let stored =
        associations::associate(&services, &tenant, &association).await.map_err(|e| e.renamed(CONNECTION_FIELDS))?;
    Ok((StatusCode::CREATED, Json(Association::from(stored).into())))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConnectionsDeleted {
    pub status: &'static str,
    pub source_id: Uuid,
    pub target_id: Uuid,
    /// Associations removed (one per type).
    pub deleted_count: u64,
}

/// Disconnect two memories: every association from `src` to `dst`.
#[utoipa::path(delete, path = "/api/v1/connections/{src}/{dst}", operation_id = "connections.delete", tag = "graph",
    params(("src" = Uuid, Path, description = "Source memory"), ("dst" = Uuid, Path, description = "Target memory")),
    responses(
        (status = 200, description = "Deleted", body = ConnectionsDeleted),
        (status = 403, description = "Key lacks the write scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No connection from src to dst in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn delete_connection(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    Path((src, dst)): Path<(String, String)>,
) -> ApiResult<Json<ConnectionsDeleted>> {
    let (source_id, target_id) = (parse_uuid("src", &src)?, parse_uuid("dst", &dst)?);
    let deleted_count = associations::delete_between(&services, &tenant, source_id, target_id).await?;
    Ok(Json(ConnectionsDeleted { status: "success", source_id, target_id, deleted_count }))
}

/// The tenant's memories in numbers.
#[utoipa::path(get, path = "/api/v1/stats", operation_id = "memories.stats", tag = "memories",
    responses((status = 200, description = "Counts", body = TenantStats)))]
async fn tenant_stats(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<TenantStats>> {
    Ok(Json(stats::stats(&services, &tenant).await?.into()))
}
