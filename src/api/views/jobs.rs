//! How the background work looks: a tenant's jobs (`GET /api/v1/jobs/status`, and an operator's look at it),
//! and the service's queues across tenants (`GET /admin/v1/jobs`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::service::jobs;

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

impl From<jobs::JobStatus> for JobStatus {
    fn from(s: jobs::JobStatus) -> Self {
        JobStatus {
            queues: s
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
            periodic: s.periodic.into_iter().map(periodic_job).collect(),
            recent_failures: s
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
            embedding: s.embedding.into(),
            enrichment: s.enrichment.into(),
        }
    }
}

/// A queue's jobs not done, overall or for one tenant.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueueLoad {
    pub queue: String,
    /// Absent in the per-queue totals; null for the service's own (periodic) jobs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tenant_id: Option<Uuid>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tenant_name: Option<String>,
    pub pending: i64,
    pub running: i64,
    /// Failed for good (apalis' `Failed`) and given up (`Killed`), kept until pruned.
    pub failed: i64,
    pub killed: i64,
    /// Seconds since the oldest pending job was due (null without pending jobs).
    pub oldest_pending_secs: Option<f64>,
}

impl From<jobs::QueueLoad> for QueueLoad {
    fn from(q: jobs::QueueLoad) -> Self {
        let jobs::QueueLoad { queue, tenant_id, tenant_name, pending, running, failed, killed, oldest_pending_secs } =
            q;
        Self { queue, tenant_id, tenant_name, pending, running, failed, killed, oldest_pending_secs }
    }
}

/// The service's background work across tenants.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "queues": [{"queue": "cairn::embed", "pending": 120, "running": 2, "failed": 0, "killed": 1, "oldest_pending_secs": 4.2}],
    "tenants": [{"queue": "cairn::embed", "tenant_id": "5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21", "tenant_name": "acme",
        "pending": 100, "running": 1, "failed": 0, "killed": 0, "oldest_pending_secs": 4.2}],
    "periodic": [{"queue": "cairn::expire", "period_start": "2026-11-30T10:00:30Z", "status": "Done",
        "done_at": "2026-11-30T10:00:30Z"}]
}))]
pub struct ServiceJobs {
    /// Every queue with jobs not done.
    pub queues: Vec<QueueLoad>,
    /// Per queue and tenant, the busiest first (at most `limit`).
    pub tenants: Vec<QueueLoad>,
    /// The service's periodic jobs: each one's latest period.
    pub periodic: Vec<PeriodicJob>,
}

impl From<jobs::ServiceJobs> for ServiceJobs {
    fn from(s: jobs::ServiceJobs) -> Self {
        let jobs::ServiceJobs { queues, tenants, periodic } = s;
        Self {
            queues: queues.into_iter().map(Into::into).collect(),
            tenants: tenants.into_iter().map(Into::into).collect(),
            periodic: periodic.into_iter().map(periodic_job).collect(),
        }
    }
}

fn periodic_job(p: jobs::LatestPeriod) -> PeriodicJob {
    PeriodicJob { queue: p.job, period_start: p.period_start, status: p.status, done_at: p.done_at }
}
