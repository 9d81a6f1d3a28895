//! The similarity job (queue `cairn::similar`): once memories have vectors (written by the embedding job,
//! or supplied by the caller), links each SIMILAR_TO its nearest neighbours at cosine ≥ 0.8. Enqueued in
//! the transaction that wrote the vectors; idempotent (each pair is linked once).

use std::sync::Arc;

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::error::Error;
use crate::queue::similar::SimilarJob;
use crate::store::{enrichment, Db};

/// Runs one delivery; Err when it should be retried.
pub async fn process(db: &Db, job: &SimilarJob) -> Result<u64, Error> {
    let mut tx = db.begin_tenant(job.tenant_id).await?;
    let linked = enrichment::link_similar(&mut tx, &job.memory_ids).await?;
    tx.commit().await?;
    Ok(linked)
}

/// What the worker needs.
pub struct SimilarContext {
    pub db: Db,
    /// Waited on before a job starts: embedding comes first.
    pub first: super::EmbedFirst,
}

/// The apalis handler.
pub async fn handle(job: SimilarJob, ctx: Data<Arc<SimilarContext>>, attempt: Attempt) -> Result<(), JobError> {
    ctx.first.wait().await;
    match super::timed("similarity", job.tenant_id, job.memory_ids.len(), process(&ctx.db, &job)).await {
        Ok(_) => Ok(()),
        Err(err) => {
            tracing::warn!(tenant_id = %job.tenant_id, error = %err, "similarity linking failed");
            Err(super::retry_later(attempt.current(), err.to_string()).await)
        }
    }
}
