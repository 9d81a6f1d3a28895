//! The consolidation job's queue and payload (handled by `jobs::consolidate`): one recorded run, enqueued by
//! the transaction that recorded it.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Error;
use crate::store::TenantTx;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::consolidate";
/// Attempts before the run is marked failed.
pub const MAX_ATTEMPTS: usize = 3;

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ConsolidateJob {
    pub tenant_id: Uuid,
    pub run_id: Uuid,
}

/// Enqueues the run `run_id` in the caller's tenant transaction (the one that recorded it).
pub async fn enqueue(tx: &mut TenantTx, run_id: Uuid) -> Result<(), Error> {
    crate::store::queue::enqueue(tx, QUEUE, serde_json::json!({ "run_id": run_id }), MAX_ATTEMPTS).await
}
