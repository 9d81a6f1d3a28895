//! The enrichment job (queue `cairn::enrich`): finds the entities a memory mentions, links them, and tags
//! the memory `entity:<type>:<slug>`; links it PRECEDED_BY the memory before it (in its episode, else
//! the same user's last 7 days); sets a one-line summary and, unless one was given, a quality score;
//! with a chat model configured, it also classifies memories that neither had a type nor matched a
//! pattern.
//!
//! Storing a memory (or changing its content) enqueues `{tenant_id, memory_ids}` in the same transaction.
//! Entities come from the configured chat model when there is one (falling back to the local rules if it
//! keeps failing, so a memory is never left unenriched by an outage), else from the local rules. The
//! model runs outside any transaction; the links are written only if the memory's content is still the
//! one that was read (a content change enqueues its own job). Redelivery is harmless: links and tags are
//! replaced, not added to.

use std::sync::Arc;

use apalis::prelude::{Data, Error as JobError};
use uuid::Uuid;

use crate::entities::{self, Found};
use crate::error::Error;
use crate::memory::{classify, quality};
use crate::models::chat::ChatModel;
use crate::queue::enrich::{EnrichJob, MAX_ATTEMPTS};
use crate::store::{enrichment, entities as store, Db};

/// How entities are found.
pub enum Extractor {
    /// The local rules of [`entities::rules`].
    Local,
    /// An OpenAI-compatible chat model.
    Llm(ChatModel),
}

impl Extractor {
    /// The configured extractor: the chat model when one is configured (`CAIRN_LLM_BASE_URL` and
    /// `CAIRN_LLM_MODEL`), else the local rules.
    pub fn new(llm: Option<crate::config::LlmConfig>) -> anyhow::Result<Self> {
        Ok(match llm {
            Some(llm) => Self::Llm(ChatModel::new(llm)?),
            None => Self::Local,
        })
    }

    /// The entities in `text`; the local rules when the model fails.
    pub async fn extract(&self, text: &str) -> Vec<Found> {
        match self {
            Self::Local => entities::rules::extract(text),
            Self::Llm(model) => match entities::model::extract(model, text).await {
                Ok(found) => found,
                Err(err) => {
                    tracing::warn!(
                        model = model.model(),
                        error = format!("{err:#}"),
                        "LLM entity extraction failed; using the local rules"
                    );
                    entities::rules::extract(text)
                }
            },
        }
    }
}

/// What the worker needs.
pub struct EnrichContext {
    pub db: Db,
    pub extractor: Extractor,
    /// Counts the chat-model calls per tenant (usage metering).
    pub usage: crate::service::usage::Meter,
    /// Waited on before a job starts: embedding comes first.
    pub first: super::EmbedFirst,
}

/// Enriches the listed memories of a tenant (those deleted since are skipped); returns how many were
/// enriched.
pub async fn enrich(ctx: &EnrichContext, tenant_id: Uuid, memory_ids: &[Uuid]) -> anyhow::Result<usize> {
    let mut tx = ctx.db.begin_tenant(tenant_id).await?;
    let targets = enrichment::targets(&mut tx, memory_ids).await?;
    tx.commit().await?;
    let mut done = 0;
    // A chat model's extraction runs elsewhere: nothing to pause for.
    let mut pauses = matches!(ctx.extractor, Extractor::Local).then(|| ctx.first.pauses());
    for target in targets {
        if let Some(pauses) = pauses.as_mut() {
            pauses.pause().await;
        }
        let found = ctx.extractor.extract(&target.content).await;
        // With a chat model, its judgement of quality is averaged with the heuristics'.
        let judged = match &ctx.extractor {
            Extractor::Llm(model) => quality::by_llm(model, &target.content).await,
            Extractor::Local => None,
        };
        // Neither given a type nor matched by the patterns: the chat model may know better.
        let reclassified = match &ctx.extractor {
            Extractor::Llm(model) if (target.kind.as_str(), target.confidence) == classify::FALLBACK => {
                ctx.usage.add(tenant_id, crate::service::usage::counter::CHAT_CALLS, 1);
                classify::by_llm(model, &target.content).await
            }
            _ => None,
        };
        if matches!(ctx.extractor, Extractor::Llm(_)) {
            // Entities and quality: two calls.
            ctx.usage.add(tenant_id, crate::service::usage::counter::CHAT_CALLS, 2);
        }
        let mut tx = ctx.db.begin_tenant(tenant_id).await?;
        if enrichment::lock_if_unchanged(&mut tx, &target).await? == Some(true) {
            let summary = quality::summary(&target.content);
            let heuristic = quality::quality(&target.content, found.len());
            let score = judged.map_or(heuristic, |j| ((heuristic + j) / 2.0 * 100.0).round() / 100.0);
            let enriched = store::Enriched { summary: &summary, quality: score };
            store::link_memory(&mut tx, target.id, &found, &enriched).await?;
            enrichment::link_preceding(&mut tx, target.id).await?;
            if let Some(to) = reclassified {
                enrichment::reclassify(&mut tx, target.id, to, classify::FALLBACK).await?;
            }
            done += 1;
        }
        tx.commit().await?;
    }
    Ok(done)
}

/// Marks the memories' enrichment `failed` (the last attempt failed), and says so to the tenant's webhooks.
async fn mark_failed(db: &Db, job: &EnrichJob, attempts: usize, error: &str) -> Result<(), Error> {
    let mut tx = db.begin_tenant(job.tenant_id).await?;
    enrichment::mark_failed(&mut tx, &job.memory_ids).await?;
    super::announce_failure(&mut tx, crate::queue::enrich::QUEUE, &job.memory_ids, attempts, error).await?;
    tx.commit().await
}

/// Runs one delivery of a job: Ok when done (or given up after the last attempt, with the failure recorded
/// on the memories), Err with the reason when it should be retried.
pub async fn process(ctx: &EnrichContext, job: &EnrichJob, attempt: usize) -> Result<(), String> {
    let Err(err) = enrich(ctx, job.tenant_id, &job.memory_ids).await else { return Ok(()) };
    let last = attempt + 1 >= MAX_ATTEMPTS;
    let message = format!("{err:#}");
    tracing::warn!(tenant_id = %job.tenant_id, attempt, last, error = %message, "enrichment failed");
    if last {
        if let Err(record) = mark_failed(&ctx.db, job, attempt + 1, &message).await {
            tracing::warn!(error = %record, "could not record the enrichment failure");
        }
        return Ok(());
    }
    Err(message)
}

/// The apalis handler: [`process`], then a backoff before a retry.
pub async fn handle(
    job: EnrichJob,
    ctx: Data<Arc<EnrichContext>>,
    attempt: apalis::prelude::Attempt,
) -> Result<(), JobError> {
    ctx.first.wait().await;
    // Its pause for the embedding (`Pauses`) included.
    match super::timed("enrichment", job.tenant_id, job.memory_ids.len(), process(&ctx, &job, attempt.current())).await
    {
        Ok(()) => Ok(()),
        Err(message) => Err(super::retry_later(attempt.current(), message).await),
    }
}
