//! `/api/v1/recall`: the same request as a JSON body (POST) or a query string (GET).

use axum::extract::State;
use axum::Json;
use chrono::Utc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiJson, ApiQuery};
use crate::api::AppState;
use crate::auth::Auth;
use crate::error::ApiError;
use crate::recall::{RecallParams, RecallRequest, RecallResponse};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(recall_post, recall_get))
}

async fn run(state: &AppState, auth: &Auth, params: RecallParams) -> Result<Json<RecallResponse>, ApiError> {
    let request = RecallRequest::parse(params, Utc::now())?;
    Ok(Json(state.recall(auth.tenant_id, request).await?))
}

/// Recall memories.
///
/// Hybrid (default) fuses vector similarity with keyword matches; `semantic` and `keyword` use one signal.
/// Filters narrow the candidates before scoring. Every result carries its `score` in [0, 1], its
/// `match_type` and the `score_components` behind the score. A memory is found by keywords as soon as it is
/// stored, before its embedding exists; while the model loads, hybrid recall answers with keyword results
/// and a `notice`. Recall counts an access of each returned memory.
#[utoipa::path(post, path = "/api/v1/recall", tag = "recall", request_body = RecallParams,
    responses(
        (status = 200, description = "Scored results", body = RecallResponse),
        (status = 415, description = "Body is not JSON", body = crate::error::ErrorBody)
    ))]
async fn recall_post(
    State(state): State<AppState>,
    auth: Auth,
    ApiJson(params): ApiJson<RecallParams>,
) -> Result<Json<RecallResponse>, ApiError> {
    run(&state, &auth, params).await
}

/// Recall memories (query-string form of POST; lists as repeated keys or comma-separated).
#[utoipa::path(get, path = "/api/v1/recall", tag = "recall", params(RecallParams),
    responses((status = 200, description = "Scored results", body = RecallResponse)))]
async fn recall_get(
    State(state): State<AppState>,
    auth: Auth,
    ApiQuery(params): ApiQuery<RecallParams>,
) -> Result<Json<RecallResponse>, ApiError> {
    run(&state, &auth, params).await
}
