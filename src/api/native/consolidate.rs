//! `POST /api/v1/consolidate` and `GET /api/v1/consolidate/status` (SHODH's and AutoMem's consolidation).

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiJson;
use crate::api::AppState;
use crate::auth::{Auth, Writer};
use crate::consolidate::{self, Horizon, Mode, Report, RunRecord, SCHEDULE};
use crate::error::ApiError;
use crate::recall::params::bad;

/// Runs listed by the status.
pub const HISTORY: i64 = 20;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(consolidate)).routes(routes!(consolidation_status))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"time_horizon": "weekly", "mode": "cluster", "dry_run": true}))]
pub struct ConsolidateRequest {
    /// daily, weekly (default), monthly, quarterly or yearly: the memories clustering and discovery look at.
    pub time_horizon: Option<String>,
    /// full (default), decay, creative, cluster or forget.
    pub mode: Option<String>,
    /// Report what would happen without writing anything.
    pub dry_run: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConsolidateResponse {
    /// Always `success`.
    pub status: &'static str,
    pub mode: Mode,
    pub time_horizon: Horizon,
    pub dry_run: bool,
    #[serde(flatten)]
    pub report: Report,
}

/// Consolidate the tenant's memories.
///
/// `decay` fades learned association strength and long-term importance; `creative` links related
/// memories of different types (DISCOVERED); `cluster` finds groups at cosine ≥ 0.75 inside the horizon
/// and writes one summary memory (SUMMARIZES edges, originals kept) per group of five or more; `forget`
/// archives memories whose health reached 0 where forgetting is on; `full` does all. `dry_run` reports
/// without writing.
#[utoipa::path(post, path = "/api/v1/consolidate", tag = "memories", request_body = ConsolidateRequest,
    responses(
        (status = 200, description = "What the run did (or would do)", body = ConsolidateResponse),
        (status = 400, description = "Unknown mode or horizon", body = crate::error::ErrorBody)
    ))]
async fn consolidate(
    State(state): State<AppState>,
    Writer(auth): Writer,
    ApiJson(body): ApiJson<ConsolidateRequest>,
) -> Result<Json<ConsolidateResponse>, ApiError> {
    Ok(Json(run(&state, &auth, body).await?))
}

/// Runs (and records) a manual consolidation: the one every surface calls.
pub(crate) async fn run(
    state: &AppState,
    auth: &Auth,
    body: ConsolidateRequest,
) -> Result<ConsolidateResponse, ApiError> {
    let mode = match body.mode.as_deref() {
        None => Mode::Full,
        Some(m) => Mode::parse(m)
            .ok_or_else(|| bad("mode", format!("must be full, decay, creative, cluster or forget (got {m:?})")))?,
    };
    let time_horizon = match body.time_horizon.as_deref() {
        None => Horizon::Weekly,
        Some(h) => Horizon::parse(h).ok_or_else(|| {
            bad("time_horizon", format!("must be daily, weekly, monthly, quarterly or yearly (got {h:?})"))
        })?,
    };
    let dry_run = body.dry_run.unwrap_or(false);
    let report =
        consolidate::run_and_record(&state.db, auth.tenant_id, mode, time_horizon, dry_run, "manual", Utc::now())
            .await?;
    Ok(ConsolidateResponse { status: "success", mode, time_horizon, dry_run, report })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduledMode {
    pub mode: Mode,
    pub time_horizon: Horizon,
    pub every_hours: i64,
    pub last_run: Option<DateTime<Utc>>,
    /// When the scheduler runs it next (at its next hourly check after this time).
    pub next_run: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConsolidationStatus {
    pub schedule: Vec<ScheduledMode>,
    /// The latest runs, manual and scheduled, newest first.
    pub history: Vec<RunRecord>,
}

/// Consolidation schedule and history.
#[utoipa::path(get, path = "/api/v1/consolidate/status", tag = "memories",
    responses((status = 200, description = "Next runs and recent runs", body = ConsolidationStatus)))]
async fn consolidation_status(
    State(state): State<AppState>,
    auth: Auth,
) -> Result<Json<ConsolidationStatus>, ApiError> {
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let last = consolidate::last_scheduled(&mut tx).await?;
    let history: Vec<RunRecord> = sqlx::query_as(
        "SELECT id, mode, time_horizon, dry_run, trigger, started_at, finished_at, report FROM consolidation_runs
          WHERE tenant_id = $1 ORDER BY started_at DESC, id LIMIT $2",
    )
    .bind(auth.tenant_id)
    .bind(HISTORY)
    .fetch_all(tx.conn())
    .await?;
    tx.commit().await?;
    let now = Utc::now();
    let schedule = SCHEDULE
        .iter()
        .map(|(mode, time_horizon, hours)| {
            let last_run = last.get(mode.as_str()).copied();
            let next_run = last_run.map_or(now, |at| (at + Duration::hours(*hours)).max(now));
            ScheduledMode { mode: *mode, time_horizon: *time_horizon, every_hours: *hours, last_run, next_run }
        })
        .collect();
    Ok(Json(ConsolidationStatus { schedule, history }))
}
