//! Service health, for every surface's health route.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

/// Service health, for every surface's health route.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "healthy", "database": "ok", "embedder": "ready", "version": "0.1.0",
    "uptime_seconds": 42, "timestamp": "2026-11-30T10:00:00Z", "falkordb": "connected", "qdrant": "connected"}))]
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
    /// AutoMem's graph store: Cairn's graph lives in Postgres, so `connected` when Postgres answers, else
    /// `disconnected`.
    pub falkordb: &'static str,
    /// AutoMem's vector store: Cairn's vectors live in Postgres (pgvector), so `connected` when Postgres
    /// answers, else `disconnected`.
    pub qdrant: &'static str,
}

impl Health {
    /// 200 when the database answers, else 503 (the body says which part is down).
    pub fn status_code(&self) -> axum::http::StatusCode {
        match self.database {
            "ok" => axum::http::StatusCode::OK,
            _ => axum::http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<crate::service::health::Health> for Health {
    fn from(h: crate::service::health::Health) -> Self {
        let store = if h.database { "connected" } else { "disconnected" };
        Self {
            status: if h.database { "healthy" } else { "degraded" },
            database: if h.database { "ok" } else { "unreachable" },
            embedder: h.embedder,
            version: crate::VERSION,
            uptime_seconds: h.uptime_seconds,
            timestamp: h.checked_at,
            falkordb: store,
            qdrant: store,
        }
    }
}
