//! Whether this instance can serve: the database answers, and the embedding model's state.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::Services;
use crate::models::embed::SlotState;

/// How long a health check waits for the database.
pub const DATABASE_TIMEOUT: Duration = Duration::from_secs(2);

/// One health check.
#[derive(Debug, Clone)]
pub struct Health {
    /// The database answered within [`DATABASE_TIMEOUT`].
    pub database: bool,
    /// `ready`, `loading`, `failed` or `disabled` (none configured; keyword recall only).
    pub embedder: &'static str,
    pub uptime_seconds: u64,
    pub checked_at: DateTime<Utc>,
}

impl Health {
    /// Whether every request can be served now: the database answers and the model is loaded (or none is
    /// configured).
    pub fn ready(&self) -> bool {
        self.database && matches!(self.embedder, "ready" | "disabled")
    }
}

fn embedder_state(svc: &Services) -> &'static str {
    match svc.embedder.state() {
        SlotState::Disabled => "disabled",
        SlotState::Loading => "loading",
        SlotState::Ready => "ready",
        SlotState::Failed(_) => "failed",
    }
}

/// Sets the gauges `/metrics` reports besides the request metrics: each queue's pending jobs and the age of
/// its oldest, each pool's connections, the embedder's state. The queue query is bounded by a short timeout;
/// when it fails the queue gauges keep their last values (and a warning is logged).
pub async fn record_gauges(svc: &Services) {
    // At most every few seconds, however often /metrics is scraped: the queue query scans apalis' table.
    static LAST: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);
    if let Ok(mut last) = LAST.lock() {
        if last.is_some_and(|t| t.elapsed() < Duration::from_secs(5)) {
            return;
        }
        *last = Some(std::time::Instant::now());
    }
    let known =
        crate::queue::TENANT_QUEUES.iter().chain(crate::queue::PERIODIC_QUEUES).chain(crate::queue::CONTROL_QUEUES);
    match tokio::time::timeout(DATABASE_TIMEOUT, crate::store::queue::queue_depths(svc.db.owner())).await {
        Ok(Ok(depths)) => {
            for queue in known {
                let (depth, age) = depths.iter().find(|(q, _, _)| q == queue).map_or((0, 0.0), |(_, d, a)| (*d, *a));
                metrics::gauge!("cairn_job_queue_depth", "queue" => *queue).set(depth as f64);
                metrics::gauge!("cairn_job_queue_oldest_age_seconds", "queue" => *queue).set(age);
            }
        }
        Ok(Err(err)) => tracing::warn!(error = %err, "could not read the queue depths for /metrics"),
        Err(_) => tracing::warn!("reading the queue depths for /metrics timed out"),
    }
    for (pool, size, idle) in svc.db.pool_stats() {
        metrics::gauge!("cairn_db_pool_connections", "pool" => pool, "state" => "idle").set(idle as f64);
        metrics::gauge!("cairn_db_pool_connections", "pool" => pool, "state" => "busy")
            .set(f64::from(size) - idle as f64);
    }
    if let Some(replicas) = svc.db.replicas() {
        for r in replicas.states() {
            // -1: unknown (the replica failed its last poll, or is not replaying); reads skip it.
            let lag = r.lag_ms.map_or(-1.0, |l| l as f64 / 1000.0);
            metrics::gauge!("cairn_read_replica_lag_seconds", "replica" => r.name.clone()).set(lag);
            metrics::gauge!("cairn_read_replica_reads", "replica" => r.name.clone()).set(r.served as f64);
        }
        metrics::gauge!("cairn_read_replica_fallbacks").set(replicas.fell_back() as f64);
    }
    let state = embedder_state(svc);
    for s in ["disabled", "loading", "ready", "failed"] {
        metrics::gauge!("cairn_embedder_state", "state" => s).set(if s == state { 1.0 } else { 0.0 });
    }
    metrics::gauge!("cairn_uptime_seconds").set(svc.started.elapsed().as_secs_f64());
}

/// Checks the database and reads the embedder's state.
pub async fn check(svc: &Services) -> Health {
    let embedder = embedder_state(svc);
    Health {
        database: svc.db.ping(DATABASE_TIMEOUT).await,
        embedder,
        uptime_seconds: svc.started.elapsed().as_secs(),
        checked_at: Utc::now(),
    }
}
