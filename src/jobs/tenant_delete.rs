//! Tenant deletion (queue `cairn::tenant_delete`): removes every row of a tenant that an operator deleted
//! (it is `deleting` meanwhile, its keys refused) and records what was removed. Redelivery is harmless.

use std::sync::Arc;

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::queue::tenant_delete::TenantDeleteJob;
use crate::store::Db;

/// The apalis handler.
pub async fn handle(job: TenantDeleteJob, db: Data<Arc<Db>>, attempt: Attempt) -> Result<(), JobError> {
    match crate::service::tenants::erase(&db, job.tenant_id).await {
        Ok(()) => {
            tracing::info!(tenant_id = %job.tenant_id, "tenant deleted");
            Ok(())
        }
        Err(err) => {
            tracing::warn!(tenant_id = %job.tenant_id, attempt = attempt.current(), error = ?err, "tenant deletion failed");
            Err(super::retry_later(attempt.current(), err.to_string()).await)
        }
    }
}
