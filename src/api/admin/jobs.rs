//! `/admin/v1/jobs`: the service's background work across tenants.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AdminUser;
use crate::api::error::ApiResult;
use crate::api::extract::ApiQuery;
use crate::api::views::ServiceJobs;
use crate::api::AppState;
use crate::service::jobs;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(service_jobs))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct JobsQuery {
    /// Most (queue, tenant) rows, the busiest first: 1..=500, default 100.
    pub limit: Option<i64>,
}

/// Every queue's depth, running jobs, failures and how late its oldest pending job is: overall, and per
/// tenant (the busiest first), with the periodic jobs' latest periods.
#[utoipa::path(get, path = "/admin/v1/jobs", operation_id = "admin.jobs", tag = "admin", params(JobsQuery),
    security(("admin_jwt" = [])),
    responses(
        (status = 200, description = "The queues", body = ServiceJobs),
        (status = 400, description = "A bad limit", body = crate::api::error::ErrorBody),
        (status = 401, description = "No valid admin session", body = crate::api::error::ErrorBody)
    ))]
async fn service_jobs(
    State(services): State<AppState>,
    admin: AdminUser,
    ApiQuery(query): ApiQuery<JobsQuery>,
) -> ApiResult<Json<ServiceJobs>> {
    Ok(Json(jobs::across_tenants(&services, &admin.operator, query.limit).await?.into()))
}
