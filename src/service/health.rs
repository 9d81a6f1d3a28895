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

/// Checks the database and reads the embedder's state.
pub async fn check(svc: &Services) -> Health {
    let embedder = match svc.embedder.state() {
        SlotState::Disabled => "disabled",
        SlotState::Loading => "loading",
        SlotState::Ready => "ready",
        SlotState::Failed(_) => "failed",
    };
    Health {
        database: svc.db.ping(DATABASE_TIMEOUT).await,
        embedder,
        uptime_seconds: svc.started.elapsed().as_secs(),
        checked_at: Utc::now(),
    }
}
