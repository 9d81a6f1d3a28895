//! The consolidation job (queue `cairn::consolidate`): executes one recorded run (asked for by hand through
//! the API, or by the schedule). A second delivery finds the run finished and does nothing; after its last
//! attempt the run is marked failed, so a request waiting for it stops waiting.

use std::sync::Arc;

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::queue::consolidate::{ConsolidateJob, MAX_ATTEMPTS};
use crate::service::consolidation;
use crate::store::Db;

/// Runs one delivery: Ok when done (or given up after the last attempt, the run marked failed), Err when
/// it should be retried.
pub async fn process(db: &Db, job: &ConsolidateJob, attempt: usize) -> Result<(), String> {
    let Err(err) = consolidation::execute(db, job.tenant_id, job.run_id).await else { return Ok(()) };
    let last = attempt + 1 >= MAX_ATTEMPTS;
    tracing::warn!(tenant_id = %job.tenant_id, run_id = %job.run_id, attempt, last, error = ?err, "consolidation failed");
    if last {
        if let Err(record) = consolidation::fail(db, job.tenant_id, job.run_id, &err.to_string()).await {
            tracing::warn!(error = %record, "could not record the consolidation failure");
        }
        return Ok(());
    }
    Err(err.to_string())
}

/// The apalis handler.
pub async fn handle(job: ConsolidateJob, db: Data<Arc<Db>>, attempt: Attempt) -> Result<(), JobError> {
    match process(&db, &job, attempt.current()).await {
        Ok(()) => Ok(()),
        Err(message) => Err(super::retry_later(attempt.current(), message).await),
    }
}
