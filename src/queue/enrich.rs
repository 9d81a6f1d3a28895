//! The enrichment job's queue and payload (handled by `jobs::enrich`): enqueued by the transaction that stores a
//! memory or changes its content or tags.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Error;
use crate::store::TenantTx;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::enrich";
/// Attempts before a job is given up (its memories then show `enrichment_status = failed`).
pub const MAX_ATTEMPTS: usize = 5;

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EnrichJob {
    pub tenant_id: Uuid,
    pub memory_ids: Vec<Uuid>,
}

/// Enqueues enrichment of `memory_ids` in the caller's tenant transaction.
pub async fn enqueue(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    super::enqueue_memories(tx, QUEUE, memory_ids, MAX_ATTEMPTS).await
}

/// Marks the memories' enrichment `pending` again and enqueues it (their content or tags changed).
pub async fn requeue(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    crate::store::enrichment::mark_pending(tx, memory_ids).await?;
    enqueue(tx, memory_ids).await
}
