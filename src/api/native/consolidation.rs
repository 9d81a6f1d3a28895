//! `POST /api/v1/consolidate`, `GET /api/v1/consolidate/status` and `GET /api/v1/consolidate/runs/{id}`
//! (SHODH's and AutoMem's consolidation).

use axum::extract::State;
use axum::response::Response;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Writer;
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, PathId};
use crate::api::views::{self, ConsolidateResponse, ConsolidationMode, ConsolidationQueued, RunRecord, TimeHorizon};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::consolidation::{self, ConsolidateParams};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(consolidate))
        .routes(routes!(consolidation_status))
        .routes(routes!(consolidation_run))
}

/// Consolidate the tenant's memories.
///
/// `decay` fades learned association strength and long-term importance; `creative` links related
/// memories of different types (DISCOVERED); `cluster` finds groups at cosine ≥ 0.75 inside the horizon
/// and writes one summary memory (SUMMARIZES edges, originals kept) per group of five or more; `forget`
/// archives memories whose health reached 0 where forgetting is on; `full` does all. `dry_run` reports
/// without writing. The run is a `cairn::consolidate` job: the request waits for it up to 25 s and
/// answers its report; past that, 202 with the run's id (`GET /api/v1/consolidate/runs/{id}`).
#[utoipa::path(post, path = "/api/v1/consolidate", operation_id = "consolidation.run", tag = "memories", request_body = ConsolidateParams,
    responses(
        (status = 200, description = "What the run did (or would do)", body = ConsolidateResponse),
        (status = 202, description = "Still running; the run's id", body = ConsolidationQueued),
        (status = 400, description = "Unknown mode or horizon", body = crate::api::error::ErrorBody)
    ))]
async fn consolidate(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(params): ApiJson<ConsolidateParams>,
) -> ApiResult<Response> {
    let request = params.parse()?;
    Ok(views::consolidated(consolidation::request(&services, &tenant, request).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduledMode {
    pub mode: ConsolidationMode,
    pub time_horizon: TimeHorizon,
    pub every_hours: i64,
    pub last_run: Option<DateTime<Utc>>,
    /// When the schedule runs it next (at its next hourly check after this time).
    pub next_run: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConsolidationStatus {
    pub schedule: Vec<ScheduledMode>,
    /// The latest runs, manual and scheduled, newest first.
    pub history: Vec<RunRecord>,
}

/// Consolidation schedule and history.
#[utoipa::path(get, path = "/api/v1/consolidate/status", operation_id = "consolidation.status", tag = "memories",
    responses((status = 200, description = "Next runs and recent runs", body = ConsolidationStatus)))]
async fn consolidation_status(
    State(services): State<AppState>,
    tenant: Tenant,
) -> ApiResult<Json<ConsolidationStatus>> {
    let (schedule, history) = consolidation::status(&services, &tenant).await?;
    Ok(Json(ConsolidationStatus {
        schedule: schedule
            .into_iter()
            .map(|s| ScheduledMode {
                mode: s.mode.into(),
                time_horizon: s.horizon.into(),
                every_hours: s.every_hours,
                last_run: s.last_run,
                next_run: s.next_run,
            })
            .collect(),
        history: history.into_iter().map(RunRecord::from).collect(),
    }))
}

/// One consolidation run: queued, done (with its report) or failed.
#[utoipa::path(get, path = "/api/v1/consolidate/runs/{id}", operation_id = "consolidation.getRun", tag = "memories",
    params(("id" = uuid::Uuid, Path, description = "Run id")),
    responses(
        (status = 200, description = "The run", body = RunRecord),
        (status = 404, description = "No such run in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn consolidation_run(
    State(services): State<AppState>,
    tenant: Tenant,
    PathId(id): PathId,
) -> ApiResult<Json<RunRecord>> {
    Ok(Json(consolidation::get_run(&services, &tenant, id).await?.into()))
}
