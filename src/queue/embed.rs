//! The embedding job's queue and payload (handled by `jobs::embed`): enqueued by the transaction that stores a
//! memory or changes its content.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::Error;
use crate::store::TenantTx;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::embed";
/// Attempts before a memory is marked `failed`.
pub const MAX_ATTEMPTS: usize = 8;

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EmbedJob {
    pub tenant_id: Uuid,
    pub memory_ids: Vec<Uuid>,
}

/// Enqueues a job over no memory in particular, in the caller's tenant transaction: it embeds the tenant's
/// pending memories and measures the runs of sentences of those whose runs were never measured (`jobs::embed`).
pub async fn enqueue_sweep(tx: &mut TenantTx) -> Result<(), Error> {
    let payload = serde_json::json!({ "memory_ids": [] });
    crate::store::queue::enqueue(tx, QUEUE, payload, MAX_ATTEMPTS).await
}

/// Enqueues embedding of `memory_ids` in the caller's tenant transaction.
pub async fn enqueue(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    super::enqueue_memories(tx, QUEUE, memory_ids, MAX_ATTEMPTS).await
}
