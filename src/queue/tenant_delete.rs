//! The tenant deletion job's queue and payload (handled by `jobs::tenant_delete`): enqueued by
//! `store::tenants::begin_deletion` in the transaction that marks the tenant `deleting`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The queue's stable name.
pub const QUEUE: &str = "cairn::tenant_delete";

/// The job's payload.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TenantDeleteJob {
    pub tenant_id: Uuid,
}
