//! `/metrics`: Prometheus text exposition (metrics-exporter-prometheus): request latency histograms per route
//! template and status counts (see `observe`), job queue depth and age, pool usage, the embedder's state.
//! Open unless `CAIRN_METRICS_TOKEN` is set; then it needs `Authorization: Bearer <token>`.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use secrecy::ExposeSecret;
use sha2::{Digest, Sha256};

use super::error::envelope;
use super::AppState;
use crate::service::health;

/// The process's recorder, installed on first use (one per process, shared by every server in it).
pub fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];
            let builder = PrometheusBuilder::new().set_buckets(&buckets).ok()?;
            match builder.install_recorder() {
                Ok(handle) => Some(handle),
                Err(err) => {
                    tracing::warn!(error = %err, "could not install the metrics recorder; /metrics is unavailable");
                    None
                }
            }
        })
        .as_ref()
}

/// Prometheus metrics of this instance.
#[utoipa::path(get, path = "/metrics", operation_id = "health.metrics", tag = "health", security((), ("metrics_token" = [])),
    responses(
        (status = 200, description = "Prometheus text format", content_type = "text/plain; version=0.0.4", body = String),
        (status = 401, description = "CAIRN_METRICS_TOKEN is set and was not presented", body = crate::api::error::ErrorBody)
    ))]
pub async fn metrics(State(services): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(expected) = &services.config.metrics_token {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        // Compared as digests, so the comparison's time says nothing about the token.
        if Sha256::digest(presented.trim().as_bytes()) != Sha256::digest(expected.expose_secret().as_bytes()) {
            return envelope(
                StatusCode::UNAUTHORIZED,
                "metrics token required: Authorization: Bearer <CAIRN_METRICS_TOKEN>",
            );
        }
    }
    let Some(handle) = handle() else {
        return envelope(StatusCode::SERVICE_UNAVAILABLE, "metrics are unavailable on this instance");
    };
    health::record_gauges(&services).await;
    handle.run_upkeep();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], handle.render()).into_response()
}
