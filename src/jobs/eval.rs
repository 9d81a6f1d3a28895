//! The quality report job (queue `cairn::eval`): runs one tenant's stored probe set, as the schedule asked
//! (`every_hours`), and records its figures in the tenant's history like a run asked for through the API.
//! A probe set deleted meanwhile is nothing to do.

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::queue::eval::EvalJob;
use crate::service::{eval, Services};

/// The apalis handler.
pub async fn handle(job: EvalJob, services: Data<Services>, attempt: Attempt) -> Result<(), JobError> {
    match eval::run_scheduled(&services, job.tenant_id, &job.probe_set).await {
        Ok(_) => Ok(()),
        Err(err) => {
            tracing::warn!(tenant_id = %job.tenant_id, probe_set = %job.probe_set, error = %err, "scheduled quality report failed");
            Err(super::retry_later(attempt.current(), err.to_string()).await)
        }
    }
}
