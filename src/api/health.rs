//! Health without authentication, one body for every surface: `GET /health` (native and AutoMem),
//! `GET /api/health` (SHODH), `GET /api/v1/health` and `GET /api/v1/ready` (remem).

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use crate::embed::SlotState;

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "healthy", "database": "ok", "embedder": "ready", "version": "0.1.0",
    "uptime_seconds": 42, "timestamp": "2026-11-30T10:00:00Z"}))]
pub struct Health {
    /// `healthy`, or `degraded` when the database does not answer (AutoMem's and SHODH's vocabulary).
    pub status: &'static str,
    /// `ok` or `unreachable`.
    pub database: &'static str,
    /// The embedding model: `ready`, `loading`, `failed` or `disabled` (none configured; keyword recall only).
    pub embedder: &'static str,
    pub version: &'static str,
    pub uptime_seconds: u64,
    pub timestamp: DateTime<Utc>,
}

fn embedder_word(state: &AppState) -> &'static str {
    match state.embedder.state() {
        SlotState::Disabled => "disabled",
        SlotState::Loading => "loading",
        SlotState::Ready => "ready",
        SlotState::Failed(_) => "failed",
    }
}

/// The health body and status: 200 when the database answers within two seconds, else 503.
pub(crate) async fn check(state: &AppState) -> (StatusCode, Health) {
    let db_ok = state.db.ping(Duration::from_secs(2)).await;
    let body = Health {
        status: if db_ok { "healthy" } else { "degraded" },
        database: if db_ok { "ok" } else { "unreachable" },
        embedder: embedder_word(state),
        version: crate::VERSION,
        uptime_seconds: state.started.elapsed().as_secs(),
        timestamp: Utc::now(),
    };
    (if db_ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE }, body)
}

/// Service health.
///
/// 200 when the database answers within two seconds, 503 (same body) when it does not. Also AutoMem's
/// `GET /health`.
#[utoipa::path(get, path = "/health", tag = "health", security(()),
    responses(
        (status = 200, description = "Healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let (status, body) = check(&state).await;
    (status, Json(body))
}

/// Service health (remem's path; same body as `GET /health`).
#[utoipa::path(get, path = "/api/v1/health", tag = "health", security(()),
    responses(
        (status = 200, description = "Healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health_v1(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    health(State(state)).await
}

/// Readiness: can this instance serve every request now?
///
/// 200 when the database answers and the embedding model is loaded (or none is configured); 503 while the
/// model is still loading, when it failed to load, or when the database does not answer. Liveness is
/// `GET /api/v1/health`.
#[utoipa::path(get, path = "/api/v1/ready", tag = "health", security(()),
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Not ready: database unreachable or model not loaded", body = Health)
    ))]
async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let (status, body) = check(&state).await;
    let model_ok = matches!(body.embedder, "ready" | "disabled");
    let status = if status == StatusCode::OK && model_ok { status } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health)).routes(routes!(health_v1)).routes(routes!(ready))
}
