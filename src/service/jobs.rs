//! The tenant's background work: jobs per queue and state, recent failures, where its memories stand in
//! the embedding and enrichment pipelines; enriching memories again; re-embedding them.

use std::collections::BTreeMap;

use uuid::Uuid;

use super::Services;
use crate::auth::admin::Operator;
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::models::embed::SlotState;
use crate::queue::{self as queues, embed, enrich};
use crate::store::embedding as vectors;
use crate::store::queue::{self, JobFailure};
pub use crate::store::queue::{LatestPeriod, QueueLoad};
use crate::store::relations;
use crate::store::stats::{self, Pipeline};
use crate::validate;

/// Most recent failures listed.
pub const RECENT_FAILURES: i32 = 20;
/// Most memories one reprocess request names.
pub const MAX_REPROCESS: usize = 500;
/// Re-embedding: most memories one request re-queues, and the default.
pub const MAX_REEMBED: i64 = 100_000;
pub const DEFAULT_REEMBED: i64 = 10_000;
/// Re-embedding: memories per job, most and default.
pub const MAX_REEMBED_BATCH: i64 = 500;
pub const DEFAULT_REEMBED_BATCH: i64 = 32;

/// One queue's jobs by state (apalis' states: Pending, Running, Done, Failed, Killed).
#[derive(Debug, Default, Clone)]
pub struct QueueCounts {
    pub queue: String,
    pub pending: i64,
    pub running: i64,
    pub done: i64,
    pub failed: i64,
    pub killed: i64,
}

/// Memories by pipeline state.
#[derive(Debug, Default, Clone)]
pub struct PipelineCounts {
    pub pending: i64,
    pub ready: i64,
    pub failed: i64,
}

/// The tenant's background work.
pub struct JobStatus {
    /// Every tenant queue, even without jobs.
    pub queues: Vec<QueueCounts>,
    /// The service's periodic jobs (expiry, retention, schedule): each one's latest period.
    pub periodic: Vec<LatestPeriod>,
    /// Newest first, at most 20.
    pub recent_failures: Vec<JobFailure>,
    pub embedding: PipelineCounts,
    pub enrichment: PipelineCounts,
}

fn pipeline(rows: &[(String, i64)]) -> PipelineCounts {
    let get = |s: &str| rows.iter().find(|(k, _)| k == s).map_or(0, |(_, n)| *n);
    PipelineCounts { pending: get("pending"), ready: get("ready"), failed: get("failed") }
}

/// The tenant's jobs per queue and state, its most recent failed attempts (with the error and the
/// memories concerned), and its memories by embedding and enrichment state. Another tenant's jobs are
/// never counted.
pub async fn status(svc: &Services, t: &Tenant) -> Result<JobStatus> {
    t.require(Scope::Read)?;
    t.require_unscoped("the job queues' status")?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let counts = queue::job_counts(&mut tx).await?;
    let recent_failures = queue::job_failures(&mut tx, RECENT_FAILURES).await?;
    let embedding = pipeline(&stats::pipeline_counts(&mut tx, Pipeline::Embedding).await?);
    let enrichment = pipeline(&stats::pipeline_counts(&mut tx, Pipeline::Enrichment).await?);
    tx.commit().await?;
    let periodic = queue::latest_periods(svc.db.owner()).await?;
    let mut queues: BTreeMap<String, QueueCounts> = BTreeMap::new();
    for queue in queues::TENANT_QUEUES {
        queues.insert(queue.to_string(), QueueCounts { queue: queue.to_string(), ..Default::default() });
    }
    for (queue, status, n) in counts {
        let q = queues.entry(queue.clone()).or_insert_with(|| QueueCounts { queue, ..Default::default() });
        match status.as_str() {
            "Pending" => q.pending += n,
            "Running" => q.running += n,
            "Done" => q.done += n,
            "Failed" => q.failed += n,
            _ => q.killed += n,
        }
    }
    Ok(JobStatus { queues: queues.into_values().collect(), periodic, recent_failures, embedding, enrichment })
}

/// An operator's look at a tenant's background work (audited as `tenant.jobs.read`), as the tenant sees it.
pub async fn status_of(svc: &Services, op: &Operator, tenant_id: Uuid) -> Result<JobStatus> {
    let t = super::tenants::look(svc, op, tenant_id, "tenant.jobs.read").await?;
    status(svc, &t).await
}

/// Most (queue, tenant) rows the service-wide view lists, and its default.
pub const MAX_LOAD_ROWS: i64 = 500;
pub const DEFAULT_LOAD_ROWS: i64 = 100;

/// The service's background work across tenants, for operators.
pub struct ServiceJobs {
    /// Every queue with jobs not done: pending, running, failed, killed, and how late the oldest pending is.
    pub queues: Vec<QueueLoad>,
    /// The same per queue and tenant, the busiest first (at most `limit` rows); the service's own periodic
    /// jobs have no tenant.
    pub tenants: Vec<QueueLoad>,
    pub periodic: Vec<LatestPeriod>,
}

/// Every queue's depth, oldest pending age and failures, overall and per tenant (`limit` rows of the latter).
pub async fn across_tenants(svc: &Services, _op: &Operator, limit: Option<i64>) -> Result<ServiceJobs> {
    let limit = validate::bounded("limit", limit, 1, MAX_LOAD_ROWS, DEFAULT_LOAD_ROWS)?;
    let (queues, tenants) = queue::load(svc.db.owner(), limit).await?;
    let periodic = queue::latest_periods(svc.db.owner()).await?;
    Ok(ServiceJobs { queues, tenants, periodic })
}

/// The tenant's memories by enrichment state.
pub async fn enrichment_status(svc: &Services, t: &Tenant) -> Result<PipelineCounts> {
    t.require(Scope::Read)?;
    t.require_unscoped("the enrichment status")?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let counts = pipeline(&stats::pipeline_counts(&mut tx, Pipeline::Enrichment).await?);
    tx.commit().await?;
    Ok(counts)
}

/// Enriches memories again (after a model or rule change, or a failure); returns how many were queued.
pub async fn reprocess(svc: &Services, t: &Tenant, ids: Vec<Uuid>) -> Result<usize> {
    t.require(Scope::Write)?;
    t.require_unscoped("reprocessing")?;
    crate::validate::check_len("ids", ids.len(), MAX_REPROCESS)?;
    let mut ids = ids;
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > MAX_REPROCESS {
        return Err(bad("ids", format!("must list 1..={MAX_REPROCESS} memories (got {})", ids.len())));
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let found = relations::existing(&mut tx, &ids).await?;
    if let Some(missing) = ids.iter().find(|id| !found.contains(id)) {
        return Err(Error::not_found(format!("ids: memory {missing} not found")));
    }
    super::usage::spend(svc, t, crate::tenancy::Budget::Reenrich, ids.len() as u64).await?;
    enrich::requeue(&mut tx, &ids).await?;
    tx.commit().await?;
    Ok(ids.len())
}

/// Re-queues the embeddings of up to `limit` of the tenant's memories (in id order), `batch_size` per
/// job; their old vectors serve until replaced (admin scope; unavailable without an embedder). Returns
/// how many memories were queued and the batch size used.
pub async fn reembed(svc: &Services, t: &Tenant, limit: Option<i64>, batch_size: Option<i64>) -> Result<(usize, i64)> {
    t.require(Scope::Admin)?;
    let limit = validate::bounded("limit", limit, 1, MAX_REEMBED, DEFAULT_REEMBED)?;
    let batch = validate::bounded("batch_size", batch_size, 1, MAX_REEMBED_BATCH, DEFAULT_REEMBED_BATCH)?;
    if svc.embedder.state() == SlotState::Disabled {
        return Err(Error::Unavailable("no embedding model is configured (CAIRN_EMBEDDER=none)".into()));
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let ids = vectors::mark_for_reembedding(&mut tx, limit).await?;
    super::usage::spend(svc, t, crate::tenancy::Budget::Reembeds, ids.len() as u64).await?;
    for chunk in ids.chunks(batch as usize) {
        embed::enqueue(&mut tx, chunk).await?;
    }
    tx.commit().await?;
    Ok((ids.len(), batch))
}
