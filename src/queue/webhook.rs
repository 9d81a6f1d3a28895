//! The webhook delivery job's queue and payload (handled by `jobs::webhook`): one tenant's due deliveries.
//! Enqueued by the database (`cairn_wake_webhooks`) in the transaction that wrote an event, at most one
//! waiting per tenant, and again by a job for what it left (a retry due later, the rest of a long backlog).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::webhook";

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct WebhookJob {
    pub tenant_id: Uuid,
}
