//! The similarity job's queue and payload (handled by `jobs::similar`): enqueued by the transaction that wrote the
//! memories' vectors.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Error;
use crate::store::TenantTx;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::similar";
/// Attempts before a job is given up.
pub const MAX_ATTEMPTS: usize = 5;

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SimilarJob {
    pub tenant_id: Uuid,
    pub memory_ids: Vec<Uuid>,
}

/// Enqueues linking of `memory_ids` in the caller's tenant transaction.
pub async fn enqueue(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    super::enqueue_memories(tx, QUEUE, memory_ids, MAX_ATTEMPTS).await
}
