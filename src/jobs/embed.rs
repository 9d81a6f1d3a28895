//! The embedding job (queue `cairn::embed`): computes vectors for pending memories, in batches.
//!
//! Storing a memory (or changing its content) enqueues `{tenant_id, memory_ids}` in the same transaction.
//! A job embeds its memories *and* sweeps up other pending memories of the tenant, so under load a single
//! job fills a whole forward pass and the jobs behind it find nothing left to do. No lock is held while the
//! model runs: a vector is written back only if the memory still holds the content that was embedded.
//! Redelivery is harmless (ready memories are skipped). Failures retry with backoff; after the last
//! attempt the memory shows `embedding_status = failed` and `embedding_error`.
//!
//! With sentence vectors on, a sweep (a job for no memory in particular) also measures the runs of sentences of up
//! to a sweep of the tenant's ready memories that never had them measured ([`backfill_runs`]); a worker whose model
//! has loaded enqueues a sweep for each tenant that has such memories ([`enqueue_backfills`]), so an upgrade needs
//! no re-embedding by hand.

use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{Attempt, Data, Error as JobError};
use uuid::Uuid;

use crate::config::{ContextVectors, VectorKinds};
use crate::models::embed::{Embedder, EmbedderSlot};
use crate::queue::embed::{EmbedJob, MAX_ATTEMPTS, QUEUE};
use crate::store::embedding::{self as store, Pending, Vectors};
use crate::store::Db;

/// Memories per forward pass.
pub const BATCH: usize = 32;
/// Other pending memories of the tenant a job takes along.
pub const SWEEP: i64 = 256;

/// Embeds the listed memories that are still pending plus up to `sweep` other pending memories of the
/// tenant; returns how many vectors were written.
pub async fn embed_pending(
    db: &Db,
    embedder: &dyn Embedder,
    tenant_id: Uuid,
    memory_ids: &[Uuid],
    sweep: i64,
    kinds: impl Into<VectorKinds>,
) -> anyhow::Result<usize> {
    embed_pending_metered(db, embedder, tenant_id, memory_ids, sweep, kinds.into(), &mut |_| {}).await
}

/// [`embed_pending`], telling `written` how many vectors each write stored as it commits: a job that fails after
/// some of its batches were written has those metered (its retry finds them ready and writes them no more).
pub async fn embed_pending_metered(
    db: &Db,
    embedder: &dyn Embedder,
    tenant_id: Uuid,
    memory_ids: &[Uuid],
    sweep: i64,
    kinds: VectorKinds,
    written_now: &mut (dyn FnMut(usize) + Send),
) -> anyhow::Result<usize> {
    let mut written = 0;
    // A second pass catches the listed memories whose episode context changed while they were in the model
    // (their vector was not written over the new context).
    for pass in 0..2 {
        let mut tx = db.begin_tenant(tenant_id).await?;
        let pending = store::pending(&mut tx, memory_ids, if pass == 0 { sweep } else { 0 }).await?;
        tx.commit().await?;
        if pending.is_empty() {
            break;
        }
        let done = embed_all(db, embedder, tenant_id, &pending, kinds, written_now).await?;
        written += done;
        if done == pending.len() {
            break;
        }
    }
    Ok(written)
}

/// Embeds and writes `pending` as a pipeline: the vectors of one batch are written while the next batch is in
/// the model, so the database's HNSW inserts do not leave the model idle.
async fn embed_all(
    db: &Db,
    embedder: &dyn Embedder,
    tenant_id: Uuid,
    pending: &[Pending],
    kinds: VectorKinds,
    written_now: &mut (dyn FnMut(usize) + Send),
) -> anyhow::Result<usize> {
    let mut written = 0;
    let mut writing: Option<(&[Pending], Vectors)> = None;
    for chunk in pending.chunks(BATCH) {
        let write = async {
            match writing.take() {
                Some((batch, vectors)) => {
                    write_vectors(db, embedder.model(), tenant_id, batch, vectors, true, kinds.context).await
                }
                None => Ok(0),
            }
        };
        let (vectors, done) = tokio::join!(embed_batch(embedder, chunk, kinds), write);
        let done = done?;
        written_now(done);
        written += done;
        writing = Some((chunk, vectors?));
    }
    if let Some((batch, vectors)) = writing {
        let done = write_vectors(db, embedder.model(), tenant_id, batch, vectors, true, kinds.context).await?;
        written_now(done);
        written += done;
    }
    Ok(written)
}

/// Embeds one batch in a single forward pass: every memory's content, (with [`ContextVectors::Model`]) the
/// context texts of those in an episode, and (with sentence vectors on) each memory's runs of sentences
/// (`recall::sentences`).
async fn embed_batch(embedder: &dyn Embedder, batch: &[Pending], kinds: VectorKinds) -> anyhow::Result<Vectors> {
    let mut texts: Vec<String> = batch.iter().map(|p| p.content.clone()).collect();
    let with_context = kinds.context == ContextVectors::Model;
    let contexts: Vec<Option<String>> = batch.iter().map(|p| p.context_text(with_context)).collect();
    texts.extend(contexts.iter().flatten().cloned());
    let runs: Vec<Vec<String>> = match kinds.sentences {
        true => batch.iter().map(|p| crate::recall::sentences::runs(&p.content)).collect(),
        false => vec![Vec::new(); batch.len()],
    };
    texts.extend(runs.iter().flatten().cloned());
    let mut vectors = embedder.embed(&texts).await?;
    anyhow::ensure!(
        vectors.len() == texts.len(),
        "the embedder returned {} vectors for {} texts",
        vectors.len(),
        texts.len()
    );
    let mut extra = vectors.split_off(batch.len()).into_iter();
    let context = contexts.iter().map(|c| c.as_ref().and_then(|_| extra.next())).collect();
    let runs = runs.iter().map(|r| extra.by_ref().take(r.len()).collect()).collect();
    Ok(Vectors { own: vectors, context, runs, runs_measured: kinds.sentences })
}

/// Writes a batch's vectors (and, with [`ContextVectors::Fold`], the context vectors they complete: their own
/// and their successors'), and enqueues the similarity links of the memories that got one.
async fn write_vectors(
    db: &Db,
    model: &str,
    tenant_id: Uuid,
    batch: &[Pending],
    vectors: Vectors,
    only_unready: bool,
    context: ContextVectors,
) -> anyhow::Result<usize> {
    let fold = match context {
        ContextVectors::Fold(weight) => Some(weight),
        _ => None,
    };
    let mut tx = db.begin_tenant(tenant_id).await?;
    if fold.is_some() {
        // Episodes in lock order, so a neighbour written by a concurrent job is folded by one of the two.
        let ids: Vec<Uuid> = batch.iter().map(|p| p.id).collect();
        crate::store::memories::lock_episodes(&mut tx, &ids).await?;
    }
    let written = store::write_vectors(&mut tx, model, batch, vectors, only_unready, fold).await?;
    if let Some(weight) = fold {
        store::fold_successors(&mut tx, model, &written, weight).await?;
    }
    // With their vectors in place, the memories can be linked to their nearest neighbours.
    crate::queue::similar::enqueue(&mut tx, &written).await?;
    // And found by meaning: a `memory.embedded` event for the webhooks that want it.
    crate::store::webhooks::emit_memories(&mut tx, "memory.embedded", &written, &serde_json::json!({"model": model}))
        .await?;
    tx.commit().await?;
    Ok(written.len())
}

/// What the worker needs.
pub struct EmbedContext {
    pub db: Db,
    pub embedder: EmbedderSlot,
    /// Counts the embeddings computed per tenant (usage metering).
    pub usage: crate::service::usage::Meter,
    /// How a memory of an episode gets its context vector (`CAIRN_EPISODE_CONTEXT`, `CAIRN_CONTEXT_VECTOR`), and
    /// whether its runs of sentences are embedded (`CAIRN_SENTENCE_VECTORS`).
    pub vectors: VectorKinds,
    /// Told while a job runs, so that enrichment and similarity wait for it.
    pub first: super::EmbedFirst,
}

/// Backoff before attempt `n` is retried: 2^n seconds, at most a minute.
pub fn backoff(attempt: usize) -> Duration {
    Duration::from_secs(1u64 << attempt.min(6)).min(Duration::from_secs(60))
}

/// Runs one delivery of a job: Ok when done (or given up after the last attempt, with the failure
/// recorded on the memories), Err with the reason when it should be retried.
pub async fn process(ctx: &EmbedContext, job: &EmbedJob, attempt: usize) -> Result<(), String> {
    let result = match ctx.embedder.get() {
        Some(embedder) => {
            // Metered as each write commits, whatever comes after.
            let mut meter =
                |n: usize| ctx.usage.add(job.tenant_id, crate::service::usage::counter::EMBEDDINGS, n as i64);
            let (ids, kinds) = (&job.memory_ids, ctx.vectors);
            let embedded =
                embed_pending_metered(&ctx.db, embedder.as_ref(), job.tenant_id, ids, SWEEP, kinds, &mut meter)
                    .await
                    .map(|_| ());
            // A sweep (a job for no memory in particular) also measures runs never measured: only a sweep, so that
            // the jobs of stores neither wait for it nor fail by it, and one chain of sweeps goes through a tenant.
            match embedded {
                Ok(()) if job.memory_ids.is_empty() && ctx.vectors.sentences => {
                    backfill_runs(&ctx.db, embedder.as_ref(), job.tenant_id).await.map(|_| ())
                }
                other => other,
            }
        }
        None => Err(anyhow::anyhow!("the embedding model is not ready")),
    };
    let Err(err) = result else { return Ok(()) };
    let last = attempt + 1 >= MAX_ATTEMPTS;
    let message = format!("{err:#}");
    tracing::warn!(tenant_id = %job.tenant_id, attempt, last, error = %message, "embedding failed");
    let recorded = async {
        let mut tx = ctx.db.begin_tenant(job.tenant_id).await?;
        store::record_failure(&mut tx, &job.memory_ids, &message, last).await?;
        if last && !job.memory_ids.is_empty() {
            super::announce_failure(&mut tx, QUEUE, &job.memory_ids, attempt + 1, &message).await?;
        }
        tx.commit().await
    };
    if let Err(record) = recorded.await {
        tracing::warn!(error = %record, "could not record the embedding failure");
    }
    if last {
        return Ok(()); // visible on the memories; retrying further would not help
    }
    Err(message)
}

/// The apalis handler: [`process`], then a backoff before a retry.
pub async fn handle(job: EmbedJob, ctx: Data<Arc<EmbedContext>>, attempt: Attempt) -> Result<(), JobError> {
    let running = ctx.first.embedding();
    let outcome =
        super::timed("embedding", job.tenant_id, job.memory_ids.len(), process(&ctx, &job, attempt.current())).await;
    drop(running); // not held through a retry's backoff
    match outcome {
        Ok(()) => Ok(()),
        Err(message) => Err(super::retry_later(attempt.current(), message).await),
    }
}

/// Measures the runs of sentences of up to [`SWEEP`] memories of the tenant that have `embedder`'s vectors and
/// no runs measured (embedded before the runs existed, or imported with their vectors): only the runs go
/// through the model, a batch's memories at a time, and a memory of fewer than two runs is marked as measured.
/// When it measured as many as it may, it enqueues a job to go on, so a large tenant is measured a sweep per
/// job. Returns how many memories it measured.
pub async fn backfill_runs(db: &Db, embedder: &dyn Embedder, tenant_id: Uuid) -> anyhow::Result<usize> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    let unmeasured = store::runs_unmeasured(&mut tx, embedder.model(), SWEEP).await?;
    tx.commit().await?;
    let mut measured = 0;
    for batch in unmeasured.chunks(BATCH) {
        let runs: Vec<Vec<String>> = batch.iter().map(|p| crate::recall::sentences::runs(&p.content)).collect();
        let texts: Vec<String> = runs.iter().flatten().cloned().collect();
        let mut vectors = match texts.is_empty() {
            true => Vec::new(),
            false => embedder.embed(&texts).await?,
        }
        .into_iter();
        anyhow::ensure!(
            vectors.len() == texts.len(),
            "the embedder returned {} vectors for {} runs",
            vectors.len(),
            texts.len()
        );
        let runs = runs.iter().map(|r| vectors.by_ref().take(r.len()).collect()).collect();
        let mut tx = db.begin_tenant(tenant_id).await?;
        store::write_runs(&mut tx, embedder.model(), batch, runs).await?;
        tx.commit().await?;
        measured += batch.len();
    }
    if unmeasured.len() as i64 == SWEEP {
        let mut tx = db.begin_tenant(tenant_id).await?;
        crate::queue::embed::enqueue_sweep(&mut tx).await?;
        tx.commit().await?;
    }
    if measured > 0 {
        tracing::debug!(tenant_id = %tenant_id, measured, "measured runs of sentences never measured");
    }
    Ok(measured)
}

/// Enqueues a sweep ([`crate::queue::embed::enqueue_sweep`]) for each tenant with memories of `model` whose runs
/// of sentences were never measured (after an upgrade from a release without them, or an import): a worker
/// does this when its model has loaded. Returns how many tenants it enqueued for.
pub async fn enqueue_backfills(db: &Db, model: &str) -> anyhow::Result<usize> {
    let mut enqueued = 0;
    for tenant_id in crate::store::tenants::tenant_ids(db.owner()).await? {
        let one = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            let unmeasured = store::has_runs_unmeasured(&mut tx, model).await?;
            if unmeasured {
                crate::queue::embed::enqueue_sweep(&mut tx).await?;
            }
            tx.commit().await?;
            Ok::<_, crate::error::Error>(unmeasured)
        };
        match one.await {
            Ok(true) => enqueued += 1,
            Ok(false) => {}
            // The next worker to start looks again.
            Err(err) => {
                tracing::warn!(tenant_id = %tenant_id, error = %err, "could not look for runs of sentences to measure")
            }
        }
    }
    Ok(enqueued)
}

/// Re-embeds every memory of a tenant with `embedder` (after a model change), 32 per forward pass, in id
/// order; `progress` is told how many were done after each pass. Returns how many vectors were written.
pub async fn reembed_tenant(
    db: &Db,
    embedder: &dyn Embedder,
    tenant_id: Uuid,
    kinds: VectorKinds,
    mut progress: impl FnMut(usize),
) -> anyhow::Result<usize> {
    let mut after = Uuid::nil();
    let mut written = 0;
    loop {
        let mut tx = db.begin_tenant(tenant_id).await?;
        let page = store::page_after(&mut tx, after, BATCH as i64).await?;
        tx.commit().await?;
        let Some(last) = page.last() else { return Ok(written) };
        after = last.id;
        let vectors = embed_batch(embedder, &page, kinds).await?;
        written += write_vectors(db, embedder.model(), tenant_id, &page, vectors, false, kinds.context).await?;
        progress(page.len());
    }
}

/// How many memories a tenant has.
pub async fn count_memories(db: &Db, tenant_id: Uuid) -> anyhow::Result<i64> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    let n = store::count(&mut tx).await?;
    tx.commit().await?;
    Ok(n)
}
