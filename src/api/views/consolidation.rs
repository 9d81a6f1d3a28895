//! Consolidation modes, horizons, reports and runs, and a request's answer (finished or queued).

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::consolidation::{Horizon, Mode};

/// A consolidation mode: full, decay, creative, cluster or forget.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConsolidationMode {
    Full,
    Decay,
    Creative,
    Cluster,
    Forget,
}

impl From<Mode> for ConsolidationMode {
    fn from(m: Mode) -> Self {
        match m {
            Mode::Full => Self::Full,
            Mode::Decay => Self::Decay,
            Mode::Creative => Self::Creative,
            Mode::Cluster => Self::Cluster,
            Mode::Forget => Self::Forget,
        }
    }
}

/// A consolidation horizon: the memories clustering and discovery look at.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TimeHorizon {
    Daily,
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

impl From<Horizon> for TimeHorizon {
    fn from(h: Horizon) -> Self {
        match h {
            Horizon::Daily => Self::Daily,
            Horizon::Weekly => Self::Weekly,
            Horizon::Monthly => Self::Monthly,
            Horizon::Quarterly => Self::Quarterly,
            Horizon::Yearly => Self::Yearly,
        }
    }
}

/// What a consolidation run did (or, dry, would do).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"processed": 240, "archived": 3, "decayed": 120, "associations_created": 7,
    "associations_decayed": 2, "clusters_created": 4, "summaries_created": 1, "duration_ms": 85}))]
pub struct Report {
    /// Memories of the horizon considered by clustering and discovery.
    pub processed: usize,
    /// Memories archived by forgetting.
    pub archived: u64,
    /// Memories whose importance decayed.
    pub decayed: u64,
    /// DISCOVERED and SUMMARIZES edges created.
    pub associations_created: u64,
    /// Edges whose learned strength decayed.
    pub associations_decayed: u64,
    /// Clusters found (connected components of at least 3).
    pub clusters_created: usize,
    /// Summary memories written for clusters of at least 5.
    pub summaries_created: usize,
    pub duration_ms: u64,
    /// Set when part of the run was skipped, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

impl From<crate::consolidation::Report> for Report {
    fn from(r: crate::consolidation::Report) -> Self {
        let crate::consolidation::Report {
            processed,
            archived,
            decayed,
            associations_created,
            associations_decayed,
            clusters_created,
            summaries_created,
            duration_ms,
            notice,
        } = r;
        Self {
            processed,
            archived,
            decayed,
            associations_created,
            associations_decayed,
            clusters_created,
            summaries_created,
            duration_ms,
            notice,
        }
    }
}

/// A consolidation run, manual or scheduled.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RunRecord {
    pub id: Uuid,
    pub mode: String,
    pub time_horizon: String,
    pub dry_run: bool,
    /// `manual` or `schedule`.
    pub trigger: String,
    /// `queued` (waiting for a worker), `done` or `failed`.
    pub status: String,
    /// The time the run works as of (when it was asked for).
    pub started_at: DateTime<Utc>,
    /// Set once it is done or failed.
    pub finished_at: Option<DateTime<Utc>>,
    /// What it did, once done.
    #[schema(value_type = Option<Object>)]
    pub report: Option<Value>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl From<crate::consolidation::RunRecord> for RunRecord {
    fn from(r: crate::consolidation::RunRecord) -> Self {
        let crate::consolidation::RunRecord {
            id,
            mode,
            time_horizon,
            dry_run,
            trigger,
            status,
            started_at,
            finished_at,
            report,
            error,
        } = r;
        Self {
            id,
            mode,
            time_horizon,
            dry_run,
            trigger,
            status,
            started_at,
            finished_at,
            report: report.map(|r| r.0),
            error,
        }
    }
}

/// A consolidation that finished within the request's wait.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConsolidateResponse {
    /// Always `success`.
    pub status: &'static str,
    pub mode: ConsolidationMode,
    pub time_horizon: TimeHorizon,
    pub dry_run: bool,
    #[serde(flatten)]
    pub report: Report,
    /// The run, as listed by `GET /api/v1/consolidate/runs/{id}`.
    pub run_id: Uuid,
}

/// A consolidation still on its way when the request stopped waiting (202).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "queued", "run_id": "0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10",
    "message": "the run is queued; GET /api/v1/consolidate/runs/0b9a4c1e-5f7d-4e0a-9c39-3f1b2d6c8a10 shows it"}))]
pub struct ConsolidationQueued {
    /// `queued`.
    pub status: String,
    pub run_id: Uuid,
    pub message: String,
}

/// A consolidation request's answer: the run's report (200), or where to find the run (202).
pub fn consolidated(requested: crate::service::consolidation::Requested) -> axum::response::Response {
    use crate::service::consolidation::Requested;
    use axum::response::IntoResponse;
    match requested {
        Requested::Done { run, report } => {
            let mode = crate::consolidation::Mode::parse(&run.mode).unwrap_or(crate::consolidation::Mode::Full);
            let horizon = crate::consolidation::Horizon::parse(&run.time_horizon)
                .unwrap_or(crate::consolidation::Horizon::Weekly);
            axum::Json(ConsolidateResponse {
                status: "success",
                mode: mode.into(),
                time_horizon: horizon.into(),
                dry_run: run.dry_run,
                report: report.into(),
                run_id: run.id,
            })
            .into_response()
        }
        Requested::Pending(run) => (
            axum::http::StatusCode::ACCEPTED,
            axum::Json(ConsolidationQueued {
                message: format!("the run is {}; GET /api/v1/consolidate/runs/{} shows it", run.status, run.id),
                status: run.status,
                run_id: run.id,
            }),
        )
            .into_response(),
    }
}
