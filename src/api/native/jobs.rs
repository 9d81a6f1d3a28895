//! The tenant's background work: `GET /api/v1/jobs/status` (jobs per queue and state, recent failures,
//! where its memories stand in the embedding and enrichment pipelines), `GET /api/v1/enrichment/status`
//! and `POST /api/v1/enrichment/reprocess`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::auth::Writer;
use crate::api::error::ApiResult;
use crate::api::extract::ApiJson;
use crate::api::views::{JobStatus, PipelineCounts};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::jobs;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(job_status)).routes(routes!(enrichment_status)).routes(routes!(reprocess))
}

/// Background job status.
///
/// The tenant's jobs per queue and state, its most recent failed attempts (with the error and the
/// memories concerned), and its memories by embedding and enrichment state. Another tenant's jobs are
/// never counted.
#[utoipa::path(get, path = "/api/v1/jobs/status", operation_id = "jobs.status", tag = "jobs",
    responses((status = 200, description = "Job and pipeline status", body = JobStatus)))]
async fn job_status(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<JobStatus>> {
    Ok(Json(jobs::status(&services, &tenant).await?.into()))
}

/// Enrichment status: the tenant's memories by `enrichment_status`.
#[utoipa::path(get, path = "/api/v1/enrichment/status", operation_id = "enrichment.status", tag = "jobs",
    responses((status = 200, description = "Memories by enrichment state", body = PipelineCounts)))]
async fn enrichment_status(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<PipelineCounts>> {
    Ok(Json(jobs::enrichment_status(&services, &tenant).await?.into()))
}

/// Memories to enrich again.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"ids": ["5d0f3f7c-2a8e-4b59-9a57-0e2a7c0b6f11"]}))]
pub struct ReprocessRequest {
    /// 1..=500 memory ids of this tenant.
    pub ids: Vec<Uuid>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Reprocessed {
    /// Memories queued for enrichment (now `pending`).
    pub queued: usize,
}

/// Enrich memories again (after a model or rule change, or a failure).
#[utoipa::path(post, path = "/api/v1/enrichment/reprocess", operation_id = "enrichment.reprocess", tag = "jobs", request_body = ReprocessRequest,
    responses(
        (status = 202, description = "Queued", body = Reprocessed),
        (status = 400, description = "No ids, or too many", body = crate::api::error::ErrorBody),
        (status = 404, description = "An id is not a memory of this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn reprocess(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(body): ApiJson<ReprocessRequest>,
) -> ApiResult<(StatusCode, Json<Reprocessed>)> {
    let queued = jobs::reprocess(&services, &tenant, body.ids).await?;
    Ok((StatusCode::ACCEPTED, Json(Reprocessed { queued })))
}
