//! The quality report job's queue and payload (handled by `jobs::eval`): one scheduled run of a tenant's
//! stored probe set, enqueued by the schedule's pass in the transaction that marked the set as run.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Error;
use crate::store::TenantTx;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::eval";
/// Attempts before the run is given up (the next scheduled one runs anyway).
pub const MAX_ATTEMPTS: usize = 3;

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EvalJob {
    pub tenant_id: Uuid,
    pub probe_set: String,
}

/// Enqueues a run of the probe set `probe_set` in the caller's tenant transaction.
pub async fn enqueue(tx: &mut TenantTx, probe_set: &str) -> Result<(), Error> {
    crate::store::queue::enqueue(tx, QUEUE, serde_json::json!({ "probe_set": probe_set }), MAX_ATTEMPTS).await
}
