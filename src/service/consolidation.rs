//! Consolidation: asking for a run (recorded and enqueued as a `cairn::consolidate` job in one
//! transaction, then waited for), executing it (the job), the per-tenant schedule, and the runs' status.
//!
//! A run is one tenant transaction; a dry run's changes are rolled back to a savepoint before its report is
//! recorded, so the report says exactly what a real run would have done and nothing else is written.

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::Services;
use crate::auth::{Scope, Tenant};
use crate::consolidation::RunRecord;
use crate::consolidation::{
    candidate_edges, cluster_summary, components, cosine, creative_pairs, Horizon, Item, Mode, Report, CLUSTER_MIN,
    CLUSTER_THRESHOLD, CREATIVE_MAX, MAX_CONSIDERED, NEIGHBOURS, SCHEDULE, SUMMARY_MIN, SUMMARY_TAG,
};
use crate::error::{bad, Error, Result};
use crate::memory::{MemoryInput, NewMemory, ParseCtx};
use crate::queue::{consolidate as job, embed};
use crate::store::consolidation as store;
use crate::store::memories::{self, Inserted};
use crate::store::{lifecycle, relations, tenants, Db, TenantTx};

/// Runs listed by the status.
pub const HISTORY: i64 = 20;

/// A consolidation as callers ask for it (native `/api/v1/consolidate` and AutoMem's `/consolidate`).
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*CONSOLIDATE_EXAMPLE)]
pub struct ConsolidateParams {
    /// daily, weekly (default), monthly, quarterly or yearly: the memories clustering and discovery look at.
    #[schemars(extend("enum" = ["daily", "weekly", "monthly", "quarterly", "yearly"]))]
    pub time_horizon: Option<String>,
    /// full (default), decay, creative, cluster or forget.
    #[schemars(extend("enum" = ["full", "decay", "creative", "cluster", "forget"]))]
    pub mode: Option<String>,
    /// Report what would happen without writing anything.
    pub dry_run: Option<bool>,
}

static CONSOLIDATE_EXAMPLE: std::sync::LazyLock<serde_json::Value> =
    std::sync::LazyLock::new(|| json!({"time_horizon": "weekly", "mode": "cluster", "dry_run": true}));

/// A validated run request.
#[derive(Debug, Clone, Copy)]
pub struct RunRequest {
    pub mode: Mode,
    pub horizon: Horizon,
    pub dry_run: bool,
}

impl ConsolidateParams {
    pub fn parse(self) -> Result<RunRequest> {
        let mode = match self.mode.as_deref() {
            None => Mode::Full,
            Some(m) => Mode::parse(m)
                .ok_or_else(|| bad("mode", format!("must be full, decay, creative, cluster or forget (got {m:?})")))?,
        };
        let horizon = match self.time_horizon.as_deref() {
            None => Horizon::Weekly,
            Some(h) => Horizon::parse(h).ok_or_else(|| {
                bad("time_horizon", format!("must be daily, weekly, monthly, quarterly or yearly (got {h:?})"))
            })?,
        };
        Ok(RunRequest { mode, horizon, dry_run: self.dry_run.unwrap_or(false) })
    }
}

/// A requested run: finished within the wait, or still on its way.
pub enum Requested {
    Done { run: RunRecord, report: Report },
    Pending(RunRecord),
}

/// Asks for a run: records it and enqueues its job in one transaction, then waits for the job up to the
/// deployment's patience (`CAIRN_CONSOLIDATE_WAIT_MS`, 25 s). A run that failed is an error.
pub async fn request(svc: &Services, t: &Tenant, req: RunRequest) -> Result<Requested> {
    t.require(Scope::Write)?;
    t.require_unscoped("consolidation")?;
    super::usage::spend(svc, t, crate::tenancy::Budget::Consolidations, 1).await?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let id = enqueue(&mut tx, req, "manual", Utc::now()).await?;
    tx.commit().await?;
    // The wait ends before the request's own timeout, so a slow run is a 202, never a timed-out request.
    let timeout = StdDuration::from_secs(svc.config.request_timeout_secs).saturating_sub(StdDuration::from_secs(2));
    let patience = StdDuration::from_millis(svc.config.consolidate_wait_ms).min(timeout);
    let started = Instant::now();
    let mut pause = StdDuration::from_millis(10);
    loop {
        let run = get_run(svc, t, id).await?;
        match run.status.as_str() {
            "done" => {
                let report =
                    run.report.as_ref().and_then(|r| serde_json::from_value(r.0.clone()).ok()).unwrap_or_default();
                return Ok(Requested::Done { run, report });
            }
            "failed" => {
                tracing::error!(run_id = %id, error = run.error.as_deref().unwrap_or(""), "consolidation run failed");
                return Err(Error::Unavailable(format!("consolidation run {id} failed; retry later")));
            }
            _ if started.elapsed() >= patience => return Ok(Requested::Pending(run)),
            _ => {
                tokio::time::sleep(pause.min(patience.saturating_sub(started.elapsed()))).await;
                pause = (pause * 2).min(StdDuration::from_millis(200));
            }
        }
    }
}

/// Records a run as of `at` and enqueues its job in the caller's transaction.
async fn enqueue(tx: &mut TenantTx, req: RunRequest, trigger: &str, at: DateTime<Utc>) -> Result<Uuid> {
    let id = store::insert_run(tx, req.mode.as_str(), req.horizon.as_str(), req.dry_run, trigger, at).await?;
    job::enqueue(tx, id).await?;
    Ok(id)
}

/// One run of the tenant.
pub async fn get_run(svc: &Services, t: &Tenant, id: Uuid) -> Result<RunRecord> {
    t.require(Scope::Read)?;
    t.require_unscoped("consolidation")?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let run = store::run(&mut tx, id).await?;
    tx.commit().await?;
    run.ok_or_else(|| Error::not_found(format!("consolidation run {id} not found")))
}

/// A mode of the schedule, and when it runs.
pub struct Scheduled {
    pub mode: Mode,
    pub horizon: Horizon,
    pub every_hours: i64,
    pub last_run: Option<DateTime<Utc>>,
    /// When the schedule runs it next (at its next hourly check after this time).
    pub next_run: DateTime<Utc>,
}

/// The tenant's schedule and its latest runs, newest first.
pub async fn status(svc: &Services, t: &Tenant) -> Result<(Vec<Scheduled>, Vec<RunRecord>)> {
    t.require(Scope::Read)?;
    t.require_unscoped("consolidation")?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let last: std::collections::HashMap<String, DateTime<Utc>> =
        store::last_scheduled(&mut tx).await?.into_iter().collect();
    let history = store::recent_runs(&mut tx, HISTORY).await?;
    tx.commit().await?;
    let now = Utc::now();
    let schedule = SCHEDULE
        .iter()
        .map(|(mode, horizon, hours)| {
            let last_run = last.get(mode.as_str()).copied();
            let next_run = last_run.map_or(now, |at| (at + Duration::hours(*hours)).max(now));
            Scheduled { mode: *mode, horizon: *horizon, every_hours: *hours, last_run, next_run }
        })
        .collect();
    Ok((schedule, history))
}

/// The schedule's pass as of `now`: for every tenant, records and enqueues each mode that is due (its last
/// scheduled run at least its period ago). Returns the runs enqueued.
pub async fn schedule_due(db: &Db, now: DateTime<Utc>) -> Result<usize> {
    let (mut runs, mut pass) = (0, super::Pass::default());
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        runs +=
            pass.note(tenant_id, "scheduling consolidation", schedule_tenant(db, tenant_id, now).await).unwrap_or(0);
    }
    pass.finish(runs)
}

/// Records and enqueues the tenant's due modes, in one transaction; returns how many.
async fn schedule_tenant(db: &Db, tenant_id: Uuid, now: DateTime<Utc>) -> Result<usize> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    let last: std::collections::HashMap<String, DateTime<Utc>> =
        store::last_scheduled(&mut tx).await?.into_iter().collect();
    let mut runs = 0;
    for (mode, horizon, hours) in SCHEDULE {
        if last.get(mode.as_str()).is_none_or(|at| *at + Duration::hours(*hours) <= now) {
            enqueue(&mut tx, RunRequest { mode: *mode, horizon: *horizon, dry_run: false }, "schedule", now).await?;
            runs += 1;
        }
    }
    tx.commit().await?;
    Ok(runs)
}

/// Executes a queued run (the job): consolidation as of the time it was asked for, its report recorded in
/// the same transaction. Returns None when the run was already finished (a second delivery) or is gone.
pub async fn execute(db: &Db, tenant_id: Uuid, run_id: Uuid) -> Result<Option<Report>> {
    let settings = tenants::settings(db.owner(), tenant_id).await?;
    let forgetting = settings.filter(|s| s.forgetting_enabled).map(|s| s.forgetting_grace_days);
    let mut tx = db.begin_tenant(tenant_id).await?;
    let Some(run) = store::claim_run(&mut tx, run_id).await? else {
        return Ok(None);
    };
    let (Some(mode), Some(horizon)) = (Mode::parse(&run.mode), Horizon::parse(&run.time_horizon)) else {
        return Err(Error::internal(format!("run {run_id} has an unknown mode or horizon")));
    };
    let started = Instant::now();
    if run.dry_run {
        store::savepoint(&mut tx).await?;
    }
    let mut report = consolidate(&mut tx, mode, horizon, run.started_at, forgetting).await?;
    if run.dry_run {
        store::rollback_to_savepoint(&mut tx).await?;
    }
    report.duration_ms = started.elapsed().as_millis() as u64;
    let value = serde_json::to_value(&report).map_err(Error::internal)?;
    store::finish_run(&mut tx, run_id, Ok(&value), report.duration_ms as f64 / 1000.0).await?;
    let event = serde_json::json!({"run_id": run_id, "mode": run.mode, "time_horizon": run.time_horizon,
        "dry_run": run.dry_run, "trigger": run.trigger, "status": "finished", "report": value});
    crate::store::webhooks::emit(&mut tx, "consolidation.finished", None, &event).await?;
    tx.commit().await?;
    Ok(Some(report))
}

/// Records a run as of `at` and executes it here and now, without the queue: a run at a time other than
/// now (tests of decay move the clock this way). Returns its report.
pub async fn run_now(db: &Db, tenant_id: Uuid, req: RunRequest, trigger: &str, at: DateTime<Utc>) -> Result<Report> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    let id = store::insert_run(&mut tx, req.mode.as_str(), req.horizon.as_str(), req.dry_run, trigger, at).await?;
    tx.commit().await?;
    execute(db, tenant_id, id).await?.ok_or_else(|| Error::internal(format!("run {id} vanished")))
}

/// Records that a run failed for good (its job's last attempt failed), so a waiting request stops waiting.
pub async fn fail(db: &Db, tenant_id: Uuid, run_id: Uuid, error: &str) -> Result<()> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    if let Some(run) = store::claim_run(&mut tx, run_id).await? {
        store::finish_run(&mut tx, run_id, Err(error), 0.0).await?;
        let event = serde_json::json!({"run_id": run_id, "mode": run.mode, "time_horizon": run.time_horizon,
            "dry_run": run.dry_run, "trigger": run.trigger, "status": "failed", "error": error});
        crate::store::webhooks::emit(&mut tx, "consolidation.finished", None, &event).await?;
        let failed = serde_json::json!({"queue": crate::queue::consolidate::QUEUE, "run_id": run_id, "error": error});
        crate::store::webhooks::emit(&mut tx, "job.failed", None, &failed).await?;
    }
    tx.commit().await
}

/// One consolidation of the transaction's tenant as of `now`.
async fn consolidate(
    tx: &mut TenantTx,
    mode: Mode,
    horizon: Horizon,
    now: DateTime<Utc>,
    forgetting: Option<i32>,
) -> Result<Report> {
    let mut report = Report::default();
    if mode.has(Mode::Decay) {
        report.associations_decayed = relations::decay_learned(tx, now).await?;
        report.decayed = lifecycle::decay_importance(tx, now).await?;
    }
    if mode.has(Mode::Forget) {
        match forgetting {
            Some(grace) => report.archived = lifecycle::forget(tx, now, grace).await?,
            None => {
                report.notice = Some("forgetting is off for this tenant (PATCH /api/v1/settings to turn it on)".into())
            }
        }
    }
    if mode.has(Mode::Creative) || mode.has(Mode::Cluster) {
        let since = now - horizon.span();
        let items = store::items(tx, since, SUMMARY_TAG, MAX_CONSIDERED).await?;
        report.processed = items.len();
        // Candidate pairs from the vector index: each memory's nearest neighbours, not every pair.
        let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
        let edges = candidate_edges(&items, &store::neighbours(tx, &ids, since, SUMMARY_TAG, NEIGHBOURS).await?);
        if mode.has(Mode::Creative) {
            let pairs = creative_pairs(&items, &edges);
            report.associations_created += discover(tx, &items, pairs).await?;
        }
        if mode.has(Mode::Cluster) {
            let clusters: Vec<Vec<usize>> = components(items.len(), &edges, CLUSTER_THRESHOLD)
                .into_iter()
                .filter(|g| g.len() >= CLUSTER_MIN)
                .collect();
            report.clusters_created = clusters.len();
            for members in clusters.iter().filter(|g| g.len() >= SUMMARY_MIN) {
                report.associations_created += summarise(tx, &items, members, now).await?;
                report.summaries_created += 1;
            }
        }
    }
    Ok(report)
}

/// Creative discovery: DISCOVERED edges for the best candidate pairs not linked already, at most
/// [`CREATIVE_MAX`] a run (pairs linked by earlier runs do not use up the cap).
async fn discover(tx: &mut TenantTx, items: &[Item], pairs: Vec<Vec<usize>>) -> Result<u64> {
    let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
    let linked: std::collections::HashSet<(Uuid, Uuid)> =
        store::links_among(tx, &ids).await?.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
    let properties = json!({"created_by": "consolidation", "reason": "related memories of different types"});
    let mut created = 0;
    let fresh = pairs.into_iter().map(|p| (items[p[0]].id.min(items[p[1]].id), items[p[0]].id.max(items[p[1]].id), p));
    for (a, b, p) in fresh.filter(|(a, b, _)| !linked.contains(&(*a, *b))).take(CREATIVE_MAX) {
        let c = cosine(items[p[0]].embedding.as_slice(), items[p[1]].embedding.as_slice());
        if store::discover(tx, a, b, c as f32, &properties).await? {
            created += 1;
        }
    }
    Ok(created)
}

/// Writes a cluster's summary memory and its SUMMARIZES edges; returns the edges created.
async fn summarise(tx: &mut TenantTx, items: &[Item], members: &[usize], now: DateTime<Utc>) -> Result<u64> {
    let ids: Vec<Uuid> = members.iter().map(|m| items[*m].id).collect();
    let input = MemoryInput {
        content: Some(cluster_summary(items, members)),
        kind: Some("Insight".into()),
        tags: Some(json!([SUMMARY_TAG])),
        source_type: Some("inferred".into()),
        importance: Some(0.6),
        metadata: Some(json!({"consolidated_at": now, "cluster_size": ids.len(), "members": ids})),
        ..MemoryInput::default()
    };
    // No embedding is supplied, so the dimension is not consulted; the worker embeds the summary.
    let new = NewMemory::parse(input, &ParseCtx::new(Utc::now(), 0))?;
    let summary = match memories::insert(tx, &new, "system:consolidate").await? {
        Inserted::Stored(m) => m.id,
        Inserted::Duplicate { existing_id } => existing_id,
    };
    embed::enqueue(tx, &[summary]).await?;
    store::link_summary(tx, summary, &ids).await
}
