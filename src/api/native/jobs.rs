//! The tenant's background work: `GET /api/v1/jobs/status` (jobs per queue and state, recent failures,
//! where its memories stand in the embedding and enrichment pipelines), `GET /api/v1/enrichment/status`
//! and `POST /api/v1/enrichment/reprocess`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::auth::Writer;
use crate::api::error::ApiResult;
use crate::api::extract::ApiJson;
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::jobs;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(job_status)).routes(routes!(enrichment_status)).routes(routes!(reprocess))
}

/// One queue's jobs by state (apalis' states: Pending, Running, Done, Failed, Killed).
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct QueueCounts {
    pub queue: String,
    pub pending: i64,
    pub running: i64,
    pub done: i64,
    pub failed: i64,
    pub killed: i64,
}

/// A job whose last attempt failed (it may still be retried: see `status` and `attempts`).
#[derive(Debug, Serialize, ToSchema)]
pub struct JobFailure {
    pub id: String,
    pub queue: String,
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub run_at: DateTime<Utc>,
    pub done_at: Option<DateTime<Utc>>,
    #[schema(value_type = Vec<String>)]
    pub memory_ids: Option<serde_json::Value>,
}

/// Memories by pipeline state.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct PipelineCounts {
    pub pending: i64,
    pub ready: i64,
    pub failed: i64,
}

impl From<jobs::PipelineCounts> for PipelineCounts {
    fn from(c: jobs::PipelineCounts) -> Self {
        let jobs::PipelineCounts { pending, ready, failed } = c;
        Self { pending, ready, failed }
    }
}

/// A periodic job of the service and its latest period.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodicJob {
    /// `cairn::expire`, `cairn::retention` or `cairn::schedule`.
    pub queue: String,
    /// The latest period claimed (it runs once per period, across every worker process).
    pub period_start: DateTime<Utc>,
    /// Its job's state (Pending, Running, Done, Failed, Killed).
    pub status: Option<String>,
    pub done_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "queues": [{"queue": "cairn::embed", "pending": 2, "running": 0, "done": 40, "failed": 0, "killed": 0}],
    "periodic": [{"queue": "cairn::expire", "period_start": "2026-11-30T10:00:30Z", "status": "Done",
        "done_at": "2026-11-30T10:00:30Z"}],
    "recent_failures": [], "embedding": {"pending": 2, "ready": 40, "failed": 0},
    "enrichment": {"pending": 0, "ready": 42, "failed": 0}
}))]
pub struct JobStatus {
    pub queues: Vec<QueueCounts>,
    /// The service's periodic jobs: each one's latest period.
    pub periodic: Vec<PeriodicJob>,
    /// Newest first, at most 20.
    pub recent_failures: Vec<JobFailure>,
    /// The tenant's memories by `embedding_status`.
    pub embedding: PipelineCounts,
    /// The tenant's memories by `enrichment_status`.
    pub enrichment: PipelineCounts,
}

/// Background job status.
///
/// The tenant's jobs per queue and state, its most recent failed attempts (with the error and the
/// memories concerned), and its memories by embedding and enrichment state. Another tenant's jobs are
/// never counted.
#[utoipa::path(get, path = "/api/v1/jobs/status", operation_id = "jobs.status", tag = "jobs",
    responses((status = 200, description = "Job and pipeline status", body = JobStatus)))]
async fn job_status(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<JobStatus>> {
    let status = jobs::status(&services, &tenant).await?;
    Ok(Json(JobStatus {
        queues: status
            .queues
            .into_iter()
            .map(|q| QueueCounts {
                queue: q.queue,
                pending: q.pending,
                running: q.running,
                done: q.done,
                failed: q.failed,
                killed: q.killed,
            })
            .collect(),
        periodic: status
            .periodic
            .into_iter()
            .map(|p| PeriodicJob { queue: p.job, period_start: p.period_start, status: p.status, done_at: p.done_at })
            .collect(),
        recent_failures: status
            .recent_failures
            .into_iter()
            .map(|f| JobFailure {
                id: f.id,
                queue: f.queue,
                status: f.status,
                attempts: f.attempts,
                max_attempts: f.max_attempts,
                last_error: f.last_error,
                run_at: f.run_at,
                done_at: f.done_at,
                memory_ids: f.memory_ids.map(|m| m.0),
            })
            .collect(),
        embedding: status.embedding.into(),
        enrichment: status.enrichment.into(),
    }))
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
