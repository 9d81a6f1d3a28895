//! The tenant's background work: `GET /api/v1/jobs/status` (jobs per queue and state, recent failures,
//! where its memories stand in the embedding and enrichment pipelines), `GET /api/v1/enrichment/status`
//! and `POST /api/v1/enrichment/reprocess`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::extract::ApiJson;
use crate::api::AppState;
use crate::auth::{Auth, Writer};
use crate::error::ApiError;
use crate::jobs::enrich;
use crate::recall::params::bad;
use crate::store::relations;

/// Most recent failures listed.
pub const RECENT_FAILURES: i32 = 20;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(job_status)).routes(routes!(enrichment_status)).routes(routes!(reprocess))
}

/// Most memories one reprocess request names.
pub const MAX_REPROCESS: usize = 500;

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
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
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
    pub memory_ids: Option<sqlx::types::Json<serde_json::Value>>,
}

/// Memories by pipeline state.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct PipelineCounts {
    pub pending: i64,
    pub ready: i64,
    pub failed: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "queues": [{"queue": "cairn::embed", "pending": 2, "running": 0, "done": 40, "failed": 0, "killed": 0}],
    "recent_failures": [], "embedding": {"pending": 2, "ready": 40, "failed": 0},
    "enrichment": {"pending": 0, "ready": 42, "failed": 0}
}))]
pub struct JobStatus {
    pub queues: Vec<QueueCounts>,
    /// Newest first, at most 20.
    pub recent_failures: Vec<JobFailure>,
    /// The tenant's memories by `embedding_status`.
    pub embedding: PipelineCounts,
    /// The tenant's memories by `enrichment_status`.
    pub enrichment: PipelineCounts,
}

async fn by_state(tx: &mut crate::store::TenantTx, column: &str) -> Result<PipelineCounts, ApiError> {
    let sql = format!("SELECT {column}, count(*) FROM memories WHERE tenant_id = $1 GROUP BY {column}");
    let rows: Vec<(String, i64)> = sqlx::query_as(&sql).bind(tx.tenant_id()).fetch_all(tx.conn()).await?;
    Ok(pipeline(&rows))
}

fn pipeline(rows: &[(String, i64)]) -> PipelineCounts {
    let get = |s: &str| rows.iter().find(|(k, _)| k == s).map_or(0, |(_, n)| *n);
    PipelineCounts { pending: get("pending"), ready: get("ready"), failed: get("failed") }
}

/// Background job status.
///
/// The tenant's jobs per queue and state, its most recent failed attempts (with the error and the
/// memories concerned), and its memories by embedding and enrichment state. Another tenant's jobs are
/// never counted.
#[utoipa::path(get, path = "/api/v1/jobs/status", tag = "jobs",
    responses((status = 200, description = "Job and pipeline status", body = JobStatus)))]
async fn job_status(State(state): State<AppState>, auth: Auth) -> Result<Json<JobStatus>, ApiError> {
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let counts: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT queue, status, jobs FROM cairn_job_counts()").fetch_all(tx.conn()).await?;
    let recent_failures: Vec<JobFailure> =
        sqlx::query_as("SELECT * FROM cairn_job_failures($1)").bind(RECENT_FAILURES).fetch_all(tx.conn()).await?;
    let embedding = by_state(&mut tx, "embedding_status").await?;
    let enrichment = by_state(&mut tx, "enrichment_status").await?;
    tx.commit().await?;
    let mut queues: BTreeMap<String, QueueCounts> = BTreeMap::new();
    for queue in [crate::jobs::embed::QUEUE, crate::jobs::enrich::QUEUE, crate::jobs::similar::QUEUE] {
        queues.insert(queue.to_owned(), QueueCounts { queue: queue.to_owned(), ..Default::default() });
    }
    for (queue, status, n) in counts {
        let q = queues.entry(queue.clone()).or_insert_with(|| QueueCounts { queue, ..Default::default() });
        match status.as_str() {
            "Pending" => q.pending += n,
            "Running" => q.running += n,
            "Done" => q.done += n,
            "Failed" => q.failed += n,
            _ => q.killed += n,
        }
    }
    Ok(Json(JobStatus { queues: queues.into_values().collect(), recent_failures, embedding, enrichment }))
}

/// Enrichment status: the tenant's memories by `enrichment_status`.
#[utoipa::path(get, path = "/api/v1/enrichment/status", tag = "jobs",
    responses((status = 200, description = "Memories by enrichment state", body = PipelineCounts)))]
async fn enrichment_status(State(state): State<AppState>, auth: Auth) -> Result<Json<PipelineCounts>, ApiError> {
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let counts = by_state(&mut tx, "enrichment_status").await?;
    tx.commit().await?;
    Ok(Json(counts))
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
#[utoipa::path(post, path = "/api/v1/enrichment/reprocess", tag = "jobs", request_body = ReprocessRequest,
    responses(
        (status = 202, description = "Queued", body = Reprocessed),
        (status = 400, description = "No ids, or too many", body = crate::error::ErrorBody),
        (status = 404, description = "An id is not a memory of this tenant", body = crate::error::ErrorBody)
    ))]
async fn reprocess(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<ReprocessRequest>,
) -> Result<(StatusCode, Json<Reprocessed>), ApiError> {
    let mut ids = body.ids;
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > MAX_REPROCESS {
        return Err(bad("ids", format!("must list 1..={MAX_REPROCESS} memories (got {})", ids.len())));
    }
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let found = relations::existing(&mut tx, &ids).await?;
    if let Some(missing) = ids.iter().find(|id| !found.contains(id)) {
        return Err(ApiError::not_found(format!("ids: memory {missing} not found")));
    }
    enrich::requeue(&mut tx, &ids).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(Reprocessed { queued: ids.len() })))
}
