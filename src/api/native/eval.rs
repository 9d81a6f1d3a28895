//! A tenant's retrieval-quality report: `POST /api/v1/eval`, the history under `/api/v1/eval/runs`, and
//! stored probe sets under `/api/v1/eval/probe-sets` (`service::eval`).

use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Writer;
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, ApiQuery, PathId};
use crate::api::views::eval::{EvalRun, EvalRunPage, ProbeSet, ProbeSetDeleted, ProbeSets};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::eval::{self, EvalParams, ProbeSetParams};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(run_eval))
        .routes(routes!(list_runs))
        .routes(routes!(get_run))
        .routes(routes!(list_sets))
        .routes(routes!(put_set, delete_set))
}

/// Run a quality report on the tenant's own memories.
///
/// Each probe is a question and the ids of the memories that should answer it. The probes are asked as
/// recalls (ranked to 100 results, on one snapshot; no access is counted and nothing is strengthened), and
/// the answer gives recall@k, hit@k and MRR over the probes and, per probe, the rank, score and score
/// components of each expected memory. Send `probes` (1..=50), or name a stored `probe_set`. The run is
/// kept in the history (`GET /api/v1/eval/runs`, the newest 500), so a regression after a model or
/// setting change shows. Each probe counts as a recall in the usage.
#[utoipa::path(post, path = "/api/v1/eval", operation_id = "eval.run", tag = "recall", request_body = EvalParams,
    responses(
        (status = 200, description = "The run's figures and each probe's", body = EvalRun),
        (status = 400, description = "No probes, too many, or a field out of range", body = crate::api::error::ErrorBody),
        (status = 404, description = "No probe set of that name", body = crate::api::error::ErrorBody)
    ))]
async fn run_eval(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiJson(params): ApiJson<EvalParams>,
) -> ApiResult<Json<EvalRun>> {
    Ok(Json(eval::run(&services, &tenant, params).await?.into()))
}

/// Paging of the history.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunsQuery {
    /// Only the runs of this probe set.
    pub probe_set: Option<String>,
    /// 1..=200, default 50.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// The quality report history, newest first.
#[utoipa::path(get, path = "/api/v1/eval/runs", operation_id = "eval.listRuns", tag = "recall", params(RunsQuery),
    responses((status = 200, description = "A page of runs", body = EvalRunPage)))]
async fn list_runs(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(query): ApiQuery<RunsQuery>,
) -> ApiResult<Json<EvalRunPage>> {
    Ok(Json(eval::runs(&services, &tenant, query.probe_set, query.limit, query.offset).await?.into()))
}

/// One quality report run, with each probe's figures.
#[utoipa::path(get, path = "/api/v1/eval/runs/{id}", operation_id = "eval.getRun", tag = "recall",
    params(("id" = uuid::Uuid, Path, description = "Run id")),
    responses(
        (status = 200, description = "The run", body = EvalRun),
        (status = 404, description = "No such run in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn get_run(State(services): State<AppState>, tenant: Tenant, PathId(id): PathId) -> ApiResult<Json<EvalRun>> {
    Ok(Json(EvalRun::from_row(eval::get_run(&services, &tenant, id).await?, true)))
}

/// The tenant's stored probe sets (at most 20), by name.
#[utoipa::path(get, path = "/api/v1/eval/probe-sets", operation_id = "eval.listProbeSets", tag = "recall",
    responses((status = 200, description = "The probe sets", body = ProbeSets)))]
async fn list_sets(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<ProbeSets>> {
    let sets = eval::list_sets(&services, &tenant).await?;
    Ok(Json(ProbeSets { probe_sets: sets.into_iter().map(ProbeSet::from).collect() }))
}

/// Store (or replace) a probe set.
///
/// `every_hours` re-runs it on a schedule (checked hourly), its figures kept in the history like a run
/// asked for by hand. A tenant keeps at most 20 sets of at most 50 probes.
#[utoipa::path(put, path = "/api/v1/eval/probe-sets/{name}", operation_id = "eval.putProbeSet", tag = "recall",
    params(("name" = String, Path, description = "1..=64 letters, digits, '-', '_' or '.'")),
    request_body = ProbeSetParams,
    responses(
        (status = 200, description = "The stored set", body = ProbeSet),
        (status = 400, description = "A field out of range", body = crate::api::error::ErrorBody),
        (status = 403, description = "The tenant holds 20 sets already", body = crate::api::error::ErrorBody)
    ))]
async fn put_set(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    Path(name): Path<String>,
    ApiJson(params): ApiJson<ProbeSetParams>,
) -> ApiResult<Json<ProbeSet>> {
    Ok(Json(eval::put_set(&services, &tenant, &name, params).await?.into()))
}

/// Delete a probe set (its runs stay in the history).
#[utoipa::path(delete, path = "/api/v1/eval/probe-sets/{name}", operation_id = "eval.deleteProbeSet", tag = "recall",
    params(("name" = String, Path, description = "The set's name")),
    responses(
        (status = 200, description = "Deleted", body = ProbeSetDeleted),
        (status = 404, description = "No probe set of that name", body = crate::api::error::ErrorBody)
    ))]
async fn delete_set(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    Path(name): Path<String>,
) -> ApiResult<Json<ProbeSetDeleted>> {
    eval::delete_set(&services, &tenant, &name).await?;
    Ok(Json(ProbeSetDeleted { status: "deleted", name }))
}
