//! `GET /api/v1/jobs/status`: the tenant's background work — jobs per queue and state, recent failures,
//! and where its memories stand in the embedding and enrichment pipelines.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::AppState;
use crate::auth::Auth;
use crate::error::ApiError;

/// Most recent failures listed.
pub const RECENT_FAILURES: i32 = 20;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(job_status))
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
    let by_state =
        |column: &str| format!("SELECT {column}, count(*) FROM memories WHERE tenant_id = $1 GROUP BY {column}");
    let embedding: Vec<(String, i64)> =
        sqlx::query_as(&by_state("embedding_status")).bind(auth.tenant_id).fetch_all(tx.conn()).await?;
    let enrichment: Vec<(String, i64)> =
        sqlx::query_as(&by_state("enrichment_status")).bind(auth.tenant_id).fetch_all(tx.conn()).await?;
    tx.commit().await?;
    let mut queues: BTreeMap<String, QueueCounts> = BTreeMap::new();
    for queue in [crate::jobs::embed::QUEUE, crate::jobs::enrich::QUEUE] {
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
    Ok(Json(JobStatus {
        queues: queues.into_values().collect(),
        recent_failures,
        embedding: pipeline(&embedding),
        enrichment: pipeline(&enrichment),
    }))
}
