//! `GET /health`: no authentication; says whether the database answers.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "database": "ok", "version": "0.1.0", "uptime_seconds": 42}))]
pub struct Health {
    /// `ok`, or `degraded` when the database does not answer.
    pub status: &'static str,
    /// `ok` or `unreachable`.
    pub database: &'static str,
    pub version: &'static str,
    pub uptime_seconds: u64,
}

/// Service health.
///
/// 200 when the database answers within two seconds, 503 (same body) when it does not.
#[utoipa::path(get, path = "/health", tag = "health", security(()),
    responses(
        (status = 200, description = "Healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let db_ok = state.db.ping(Duration::from_secs(2)).await;
    let body = Health {
        status: if db_ok { "ok" } else { "degraded" },
        database: if db_ok { "ok" } else { "unreachable" },
        version: crate::VERSION,
        uptime_seconds: state.started.elapsed().as_secs(),
    };
    (if db_ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE }, Json(body))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}
