//! The summary job (queue `cairn::summarize`): a memory stored summarised got, at once, the sentences most
//! central by word overlap; this job replaces them with a better summary — the chat model's when one is
//! configured, else the sentences most central by meaning — then re-embeds and re-enriches the memory.
//!
//! Enqueued in the storing transaction when this deployment can do better than word overlap. Idempotent:
//! a summary is replaced only while the memory still holds the summary and the original that were read.

use std::sync::Arc;

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::error::Error;
use crate::memory::summarize;
use crate::models::chat::ChatModel;
use crate::models::embed::{EmbedderSlot, SlotState};
use crate::queue::summarize::SummarizeJob;
use crate::store::{enrichment, Db};

/// What the worker needs.
pub struct SummarizeContext {
    pub db: Db,
    pub embedder: EmbedderSlot,
    pub chat: Option<Arc<ChatModel>>,
    /// Counts the chat-model calls per tenant (usage metering).
    pub usage: crate::service::usage::Meter,
}

/// Refines the summaries of the job's memories; returns how many were replaced. Err (retry) while the
/// embedding model that would rank the sentences is still loading.
pub async fn process(ctx: &SummarizeContext, job: &SummarizeJob) -> Result<usize, Error> {
    if ctx.chat.is_none() && ctx.embedder.state() == SlotState::Loading {
        return Err(Error::Unavailable("the embedding model is still loading".into()));
    }
    let mut tx = ctx.db.begin_tenant(job.tenant_id).await?;
    let memories = enrichment::summarized(&mut tx, &job.memory_ids).await?;
    tx.commit().await?;
    let embedder = ctx.embedder.get();
    let mut replaced = 0;
    for read in memories {
        if ctx.chat.is_some() {
            ctx.usage.add(job.tenant_id, crate::service::usage::counter::CHAT_CALLS, 1);
        }
        let Some((summary, method)) = summarize::refine(&read.original, embedder.as_deref(), ctx.chat.as_deref()).await
        else {
            continue;
        };
        if summary == read.content {
            continue;
        }
        let mut tx = ctx.db.begin_tenant(job.tenant_id).await?;
        crate::store::memories::lock_episodes(&mut tx, &[read.id]).await?;
        if enrichment::replace_summary(&mut tx, &read, &summary, "system:summarize").await? {
            // The new text needs its own vector, entities and links.
            crate::queue::embed::enqueue(&mut tx, &[read.id]).await?;
            crate::queue::enrich::requeue(&mut tx, &[read.id]).await?;
            replaced += 1;
            tracing::debug!(memory_id = %read.id, method = method.as_str(), "summary refined");
        }
        tx.commit().await?;
    }
    Ok(replaced)
}

/// The apalis handler: [`process`], then a backoff before a retry.
pub async fn handle(job: SummarizeJob, ctx: Data<Arc<SummarizeContext>>, attempt: Attempt) -> Result<(), JobError> {
    match process(&ctx, &job).await {
        Ok(_) => Ok(()),
        Err(err) => {
            tracing::warn!(tenant_id = %job.tenant_id, error = %err, "summary refinement failed");
            Err(super::retry_later(attempt.current(), err.to_string()).await)
        }
    }
}
