//! `/api/v1/usage`: the tenant's own usage per day, what it stores, and its limits.

use axum::extract::State;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::error::ApiResult;
use crate::api::extract::ApiQuery;
use crate::api::views::control::{UsageReport, UsageWindow};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::usage;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_usage))
}

/// The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls, daily
/// budgets spent), what it stores now, and the limits in force.
#[utoipa::path(get, path = "/api/v1/usage", operation_id = "usage.get", tag = "usage", params(UsageWindow),
    responses((status = 200, description = "Usage", body = UsageReport)))]
async fn get_usage(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(window): ApiQuery<UsageWindow>,
) -> ApiResult<Json<UsageReport>> {
    Ok(Json(usage::own(&services, &tenant, window.from, window.to).await?.into()))
}
