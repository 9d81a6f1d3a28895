//! Health without authentication: `GET /health` (native and AutoMem), `GET /api/v1/health` and
//! `GET /api/v1/ready` (remem), and `GET /livez` (liveness without the database). SHODH's `GET /api/health` answers the same body.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::views::Health;
use super::AppState;
use crate::service::health;

/// The health body and status: 200 when the database answers within two seconds, else 503.
async fn liveness(services: &AppState) -> (StatusCode, Json<Health>) {
    let checked = Health::from(health::check(services).await);
    (checked.status_code(), Json(checked))
}

/// Service health.
///
/// 200 when the database answers within two seconds, 503 (same body) when it does not. Also AutoMem's
/// `GET /health`, with its `falkordb` and `qdrant` (Postgres holds Cairn's graph and vectors).
#[utoipa::path(get, path = "/health", operation_id = "health.basic", tag = "health", security(()),
    responses(
        (status = 200, description = "Healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health(State(services): State<AppState>) -> (StatusCode, Json<Health>) {
    liveness(&services).await
}

/// Service health (remem's path; same body as `GET /health`).
#[utoipa::path(get, path = "/api/v1/health", operation_id = "health.get", tag = "health", security(()),
    responses(
        (status = 200, description = "Healthy", body = Health),
        (status = 503, description = "Database unreachable", body = Health)
    ))]
async fn health_v1(State(services): State<AppState>) -> (StatusCode, Json<Health>) {
    liveness(&services).await
}

/// Liveness: is this process serving HTTP?
///
/// Always 200 while the process answers; it does not touch the database or the model, so a database outage
/// does not restart every pod (readiness, `GET /api/v1/ready`, takes the pod out of service instead). The
/// liveness probe of the Kubernetes manifests.
#[utoipa::path(get, path = "/livez", operation_id = "health.live", tag = "health", security(()),
    responses((status = 200, description = "The process serves HTTP", body = Live, example = json!({"status": "ok"}))))]
async fn livez() -> Json<Live> {
    Json(Live { status: "ok" })
}

/// A worker process's liveness probe: `GET /livez` on `listener` until `stop` resolves (a worker serves no
/// API). It answers while the process's runtime does: a worker whose threads are all stuck is restarted.
pub async fn serve_liveness(
    listener: tokio::net::TcpListener,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = axum::Router::new().route("/livez", axum::routing::get(livez));
    axum::serve(listener, app).with_graceful_shutdown(stop).await
}

/// The liveness body.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Live {
    /// Always `ok`.
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// Readiness: can this instance serve every request now?
///
/// 200 when the database answers and the embedding model is loaded (or none is configured); 503 while the
/// model is still loading, when it failed to load, or when the database does not answer. Liveness is
/// `GET /api/v1/health`. The readiness probe of a pod that embeds queries.
#[utoipa::path(get, path = "/api/v1/ready", operation_id = "health.ready", tag = "health", security(()),
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Not ready: database unreachable or model not loaded", body = Health)
    ))]
async fn ready(State(services): State<AppState>) -> (StatusCode, Json<Health>) {
    let checked = health::check(&services).await;
    let status = if checked.ready() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(checked.into()))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(health_v1))
        .routes(routes!(ready))
        .routes(routes!(livez))
}
