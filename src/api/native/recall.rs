//! `/api/v1/recall`: the same request as a JSON body (POST) or a query string (GET); and entity-grouped
//! recall, `/api/v1/recall/entities` (textrawl's `recall_memories`).

use axum::extract::State;
use axum::Json;
use chrono::Utc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, ApiQuery};
use crate::api::views::{EntityRecallResponse, RecallResponse};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::recall::{GroupedParams, GroupedRequest, RecallParams, RecallRequest};
use crate::service::recall;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(recall_post, recall_get)).routes(routes!(recall_by_entity))
}

async fn run(services: &AppState, tenant: &Tenant, params: RecallParams) -> ApiResult<Json<RecallResponse>> {
    let request = RecallRequest::parse(params, Utc::now())?;
    Ok(Json(recall::recall(services, tenant, request).await?.into()))
}

/// Recall memories.
///
/// Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one signal.
/// Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
/// `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as it is
/// stored, before its embedding exists; while the model loads, hybrid recall answers with keyword results
/// and a `notice`. A recall reads one consistent snapshot, and counts an access of each returned memory.
#[utoipa::path(post, path = "/api/v1/recall", operation_id = "recall.query", tag = "recall", request_body = RecallParams,
    responses(
        (status = 200, description = "Scored results", body = RecallResponse),
        (status = 415, description = "Body is not JSON", body = crate::api::error::ErrorBody)
    ))]
async fn recall_post(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(params): ApiJson<RecallParams>,
) -> ApiResult<Json<RecallResponse>> {
    run(&services, &tenant, params).await
}

/// Recall memories (query-string form of POST; lists as repeated keys or comma-separated).
#[utoipa::path(get, path = "/api/v1/recall", operation_id = "recall.queryGet", tag = "recall", params(RecallParams),
    responses((status = 200, description = "Scored results", body = RecallResponse)))]
async fn recall_get(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(params): ApiQuery<RecallParams>,
) -> ApiResult<Json<RecallResponse>> {
    run(&services, &tenant, params).await
}

/// Recall memories grouped by the entities they mention.
///
/// Runs a hybrid (default) or semantic recall and returns the best `limit` memories that mention an entity
/// (of `entityTypes`, when given), grouped by entity, entities ordered by their best memory. A memory that
/// mentions several entities appears under each. Compact answers use short keys: `n` count or name, `e`
/// entities, `t` type, `m` memories, `c` content, `s` score. Errors: invalid query length, invalid limit,
/// invalid entity type (400); `searchMode=semantic` without an embedding service (400, or 503 while the
/// model loads).
#[utoipa::path(post, path = "/api/v1/recall/entities", operation_id = "recall.byEntity", tag = "recall", request_body = GroupedParams,
    responses(
        (status = 200, description = "Memories grouped by entity (compact or verbose)", body = EntityRecallResponse),
        (status = 400, description = "Invalid query length, limit, entity type or search mode", body = crate::api::error::ErrorBody),
        (status = 503, description = "Semantic search while the model is loading", body = crate::api::error::ErrorBody)
    ))]
async fn recall_by_entity(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiJson(params): ApiJson<GroupedParams>,
) -> ApiResult<Json<EntityRecallResponse>> {
    let request = GroupedRequest::parse(params)?;
    let query = request.query.clone();
    let grouped = recall::recall_grouped(&services, &tenant, request).await?;
    Ok(Json(EntityRecallResponse::new(query, grouped)))
}
