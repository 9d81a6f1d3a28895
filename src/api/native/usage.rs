//! `/api/v1/usage`: the tenant's own usage per day, what it stores, and its limits.

use axum::extract::State;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::error::ApiResult;
use crate::api::extract::ApiQuery;
use crate::api::views::control::{UsageQuery, UsageReport};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::usage;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_usage))
}

/// The tenant's usage per UTC day (requests, recalls, memories stored, embeddings, chat-model calls, daily
/// budgets spent), what it stores now, and the limits in force.
///
/// With `group_by=user_id` (or `agent_id`; admin scope) it adds `end_users`: each end user's memories and
/// bytes held now, memories stored and requests and recalls made for it in the window, most memories (or with
/// `sort=requests`, most requests) first (a page, with the total and the memories that have no end user), for
/// the tenant's own billing of its users.
#[utoipa::path(get, path = "/api/v1/usage", operation_id = "usage.get", tag = "usage", params(UsageQuery),
    responses(
        (status = 200, description = "Usage", body = UsageReport),
        (status = 400, description = "A bad window, grouping or page", body = crate::api::error::ErrorBody),
        (status = 403, description = "`group_by` without the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn get_usage(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(query): ApiQuery<UsageQuery>,
) -> ApiResult<Json<UsageReport>> {
    let end_users = match query.group_by.as_deref() {
        Some(by) => Some(
            usage::end_users(
                &services,
                &tenant,
                by,
                query.sort.as_deref(),
                query.from,
                query.to,
                query.limit,
                query.offset,
            )
            .await?
            .into(),
        ),
        None => None,
    };
    let mut report: UsageReport = usage::own(&services, &tenant, query.from, query.to).await?.into();
    report.end_users = end_users;
    Ok(Json(report))
}
