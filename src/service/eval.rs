//! A tenant's retrieval-quality report on its own data (`POST /api/v1/eval`): probe questions, each with the
//! memories that should answer it, asked as recalls on one snapshot of the tenant; the answer gives
//! recall@k, hit@k and MRR over the probes, and per probe the rank, score and score components of each
//! expected memory, so an operator sees what moved after a model or setting change. Probes can be stored as
//! a named set and re-run on a schedule (`cairn::eval`); every run's figures are kept as a history.
//!
//! Probes are ranked as a recall asking [`RANKED`] results (ranks beyond it are reported as not found);
//! that recall's candidate pool is wider than a 10-result recall's, so recall@10 here can be a little above
//! what a client asking 10 sees. Evaluating counts no access and strengthens nothing.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use uuid::Uuid;

use super::Services;
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::recall::score::ScoreComponents;
use crate::recall::{RecallParams, RecallRequest, MAX_QUERY_CHARS, MODES};
use crate::store::evals::{self as store, NewRun};
pub use crate::store::evals::{ProbeSetRow, RunRow};
use crate::store::Db;

/// Most probes in one run or set.
pub const MAX_PROBES: usize = 50;
/// Most expected memories per probe.
pub const MAX_EXPECTED: usize = 20;
/// Most probe sets per tenant.
pub const MAX_SETS: i64 = 20;
/// Results each probe's recall ranks (an expected memory further down is "not found").
pub const RANKED: i64 = 100;
/// Longest probe set name.
pub const MAX_NAME_CHARS: usize = 64;
/// Most runs in one page of the history.
pub const MAX_RUNS_PAGE: i64 = 200;

/// One probe: a question and the memories that should answer it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
pub struct ProbeParams {
    /// The question, as a client would ask it (1..=1000 characters).
    #[schemars(length(min = 1, max = MAX_QUERY_CHARS))]
    pub query: String,
    /// Ids of the memories that answer it (1..=20).
    #[schemars(length(min = 1, max = MAX_EXPECTED))]
    pub expected: Vec<Uuid>,
}

/// A quality report asked for: probes sent with the request, or a stored probe set by name.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*EVAL_EXAMPLE)]
pub struct EvalParams {
    /// The probes (1..=50); or leave out and name `probe_set`.
    #[schemars(length(min = 1, max = MAX_PROBES))]
    pub probes: Option<Vec<ProbeParams>>,
    /// Run this stored probe set (`PUT /api/v1/eval/probe-sets/{name}`) instead.
    pub probe_set: Option<String>,
    /// The cut-off of recall@k and hit@k, 1..=100 (default 10; a probe set's own when it runs one).
    #[schemars(range(min = 1, max = RANKED))]
    pub k: Option<i64>,
    /// The recall mode probed (default hybrid; a probe set's own when it runs one).
    #[schemars(extend("enum" = MODES))]
    pub mode: Option<String>,
}

static EVAL_EXAMPLE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({"probes": [{"query": "which database did we choose?", "expected": ["0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10"]}], "k": 10}),
);

/// A probe set to store.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*PROBE_SET_EXAMPLE)]
pub struct ProbeSetParams {
    /// The probes (1..=50).
    #[schemars(length(min = 1, max = MAX_PROBES))]
    pub probes: Vec<ProbeParams>,
    /// The cut-off of recall@k, 1..=100 (default 10).
    #[schemars(range(min = 1, max = RANKED))]
    pub k: Option<i64>,
    /// The recall mode probed (default hybrid).
    #[schemars(extend("enum" = MODES))]
    pub mode: Option<String>,
    /// Re-run the set every this many hours (1..=8760) by the `cairn::eval` job; leave out to run it only
    /// when asked.
    #[schemars(range(min = 1, max = 8760))]
    pub every_hours: Option<i64>,
}

static PROBE_SET_EXAMPLE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({"probes": [{"query": "which database did we choose?", "expected": ["0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10"]}], "k": 10, "every_hours": 24}),
);

/// Validated probes with their k and mode.
#[derive(Debug, Clone)]
struct Probes {
    probes: Vec<ProbeParams>,
    k: i64,
    mode: String,
}

fn parse_mode(mode: Option<String>) -> Result<String> {
    let mode = mode.unwrap_or_else(|| "hybrid".into()).to_ascii_lowercase();
    if !MODES.contains(&mode.as_str()) {
        return Err(bad("mode", format!("must be one of {} (got {mode:?})", MODES.join(", "))));
    }
    Ok(mode)
}

fn parse_probes(probes: Vec<ProbeParams>, k: Option<i64>, mode: Option<String>) -> Result<Probes> {
    if probes.is_empty() || probes.len() > MAX_PROBES {
        return Err(bad("probes", format!("must hold 1..={MAX_PROBES} probes (got {})", probes.len())));
    }
    for (i, p) in probes.iter().enumerate() {
        let chars = p.query.chars().count();
        if p.query.trim().is_empty() || chars > MAX_QUERY_CHARS || p.query.contains('\0') {
            return Err(bad(
                &format!("probes[{i}].query"),
                format!("must be 1..={MAX_QUERY_CHARS} characters without NUL (got {chars})"),
            ));
        }
        if p.expected.is_empty() || p.expected.len() > MAX_EXPECTED {
            return Err(bad(
                &format!("probes[{i}].expected"),
                format!("must name 1..={MAX_EXPECTED} memory ids (got {})", p.expected.len()),
            ));
        }
    }
    let k = crate::validate::bounded("k", k, 1, RANKED, 10)?;
    Ok(Probes { probes, k, mode: parse_mode(mode)? })
}

fn parse_name(name: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !ok {
        return Err(bad(
            "name",
            format!("must be 1..={MAX_NAME_CHARS} characters of letters, digits, '-', '_' or '.'"),
        ));
    }
    Ok(name.to_owned())
}

/// Where one expected memory came.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Expected {
    pub id: Uuid,
    /// 1-based rank, or None when it is not among the first [`RANKED`] results.
    pub rank: Option<usize>,
    pub score: Option<f64>,
    pub score_components: Option<ScoreComponents>,
}

/// One probe's figures (stored with the run as JSON, read back by [`results_of`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProbeResult {
    pub query: String,
    /// Share of its expected memories in the top k.
    pub recall: f64,
    /// 1 / the rank of the first expected memory (0 when none is ranked).
    pub reciprocal_rank: f64,
    pub expected: Vec<Expected>,
}

/// A run's report.
#[derive(Debug, Clone)]
pub struct Report {
    pub run: RunRow,
    pub results: Vec<ProbeResult>,
}

/// Asks every probe on one snapshot (counting nothing) and scores the answers.
async fn evaluate(svc: &Services, t: &Tenant, probes: &Probes) -> Result<(Vec<ProbeResult>, f64, f64, f64)> {
    let now = Utc::now();
    let requests = probes
        .probes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let params = RecallParams {
                query: Some(p.query.clone()),
                mode: Some(probes.mode.clone()),
                limit: Some(RANKED),
                ..Default::default()
            };
            RecallRequest::parse(params, now).map_err(|e| e.renamed(&[("query", &format!("probes[{i}].query"))]))
        })
        .collect::<Result<Vec<_>>>()?;
    let answers = super::recall::answers_uncounted(svc, t, &requests).await?;
    let k = probes.k as usize;
    let (mut recall, mut hit, mut mrr) = (0.0, 0.0, 0.0);
    let mut results = Vec::with_capacity(answers.len());
    for (probe, answer) in probes.probes.iter().zip(answers) {
        let ranked: HashMap<Uuid, (usize, &crate::recall::results::RecallHit)> =
            answer.results.iter().enumerate().map(|(i, h)| (h.memory.id, (i + 1, h))).collect();
        let expected: Vec<Expected> = probe
            .expected
            .iter()
            .map(|id| match ranked.get(id) {
                Some((rank, hit)) => Expected {
                    id: *id,
                    rank: Some(*rank),
                    score: Some(hit.score),
                    score_components: Some(hit.score_components.clone()),
                },
                None => Expected { id: *id, rank: None, score: None, score_components: None },
            })
            .collect();
        let found = expected.iter().filter(|e| e.rank.is_some_and(|r| r <= k)).count();
        let share = found as f64 / expected.len() as f64;
        let first = expected.iter().filter_map(|e| e.rank).min();
        let reciprocal_rank = first.map_or(0.0, |r| 1.0 / r as f64);
        recall += share;
        hit += if found > 0 { 1.0 } else { 0.0 };
        mrr += reciprocal_rank;
        results.push(ProbeResult { query: probe.query.clone(), recall: share, reciprocal_rank, expected });
    }
    let n = results.len().max(1) as f64;
    Ok((results, recall / n, hit / n, mrr / n))
}

/// Runs the probes and records the run in the tenant's history.
async fn run_and_record(
    svc: &Services,
    t: &Tenant,
    probes: &Probes,
    probe_set: Option<&str>,
    trigger: &str,
) -> Result<Report> {
    let (results, recall_at_k, hit_at_k, mrr) = evaluate(svc, t, probes).await?;
    // Each probe is a recall; the snapshot they shared counted one already.
    svc.usage.add(t.id, super::usage::counter::RECALLS, probes.probes.len() as i64 - 1);
    let model = match probes.mode.as_str() {
        "keyword" => None,
        _ => svc.embedder.get().map(|e| e.model().to_owned()),
    };
    let mut tx = svc.db.begin_tenant(t).await?;
    let run = store::insert_run(
        &mut tx,
        &NewRun {
            probe_set,
            trigger,
            k: probes.k as i32,
            mode: &probes.mode,
            probes: probes.probes.len() as i32,
            recall_at_k,
            hit_at_k,
            mrr,
            model: model.as_deref(),
            results: serde_json::to_value(&results).map_err(Error::internal)?,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Report { run, results })
}

/// A stored run's per-probe results (empty when the row was read without them).
pub fn results_of(results: Value) -> Vec<ProbeResult> {
    serde_json::from_value(results).unwrap_or_default()
}

fn stored_probes(set: &ProbeSetRow) -> Result<Probes> {
    let probes: Vec<ProbeParams> = serde_json::from_value(set.probes.clone())
        .map_err(|e| Error::internal(format!("probe set {} is unreadable: {e}", set.name)))?;
    Ok(Probes { probes, k: i64::from(set.k), mode: set.mode.clone() })
}

async fn load_set(svc: &Services, tenant_id: Uuid, name: &str) -> Result<ProbeSetRow> {
    let mut tx = svc.db.begin_tenant(tenant_id).await?;
    let set = store::get_set(&mut tx, name).await?;
    tx.commit().await?;
    set.ok_or_else(|| Error::not_found(format!("probe_set: no probe set named {name:?}")))
}

/// `POST /api/v1/eval`: runs the probes sent (or the stored set named) and records the run.
pub async fn run(svc: &Services, t: &Tenant, params: EvalParams) -> Result<Report> {
    t.require(Scope::Write)?;
    t.require_unscoped("a quality report")?;
    match (params.probes, params.probe_set) {
        (Some(probes), None) => {
            let probes = parse_probes(probes, params.k, params.mode)?;
            run_and_record(svc, t, &probes, None, "manual").await
        }
        (None, Some(name)) => {
            let name = parse_name(&name).map_err(|e| e.renamed(&[("name", "probe_set")]))?;
            let set = load_set(svc, t.id, &name).await?;
            let mut probes = stored_probes(&set)?;
            if params.k.is_some() {
                probes.k = crate::validate::bounded("k", params.k, 1, RANKED, 10)?;
            }
            if params.mode.is_some() {
                probes.mode = parse_mode(params.mode)?;
            }
            run_and_record(svc, t, &probes, Some(&name), "manual").await
        }
        (Some(_), Some(_)) => Err(bad("probes", "send probes or name a probe_set, not both")),
        (None, None) => Err(bad("probes", "send 1..=50 probes, or name a stored probe_set")),
    }
}

/// The `cairn::eval` job: runs a stored set as the schedule asked. None when the set is gone.
pub async fn run_scheduled(svc: &Services, tenant_id: Uuid, name: &str) -> Result<Option<Report>> {
    let t = Tenant::system(tenant_id, "eval");
    let set = match load_set(svc, tenant_id, name).await {
        Ok(set) => set,
        Err(Error::NotFound(_)) => return Ok(None),
        Err(err) => return Err(err),
    };
    run_and_record(svc, &t, &stored_probes(&set)?, Some(name), "schedule").await.map(Some)
}

/// Enqueues a run of every stored probe set whose `every_hours` has come round at `now`, one transaction per
/// tenant; returns how many.
pub async fn schedule_due(db: &Db, now: DateTime<Utc>) -> Result<usize> {
    let (mut runs, mut pass) = (0, super::Pass::default());
    for tenant_id in crate::store::tenants::tenant_ids(db.owner()).await? {
        let scheduled = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            let due = store::take_due(&mut tx, now).await?;
            for name in &due {
                crate::queue::eval::enqueue(&mut tx, name).await?;
            }
            tx.commit().await?;
            Ok::<_, Error>(due.len())
        };
        runs += pass.note(tenant_id, "scheduling quality reports", scheduled.await).unwrap_or(0);
    }
    pass.finish(runs)
}

/// `PUT /api/v1/eval/probe-sets/{name}`: stores (or replaces) a probe set.
pub async fn put_set(svc: &Services, t: &Tenant, name: &str, params: ProbeSetParams) -> Result<ProbeSetRow> {
    t.require(Scope::Write)?;
    t.require_unscoped("a probe set")?;
    let name = parse_name(name)?;
    let probes = parse_probes(params.probes, params.k, params.mode)?;
    let every_hours = crate::validate::bounded("every_hours", params.every_hours, 1, 8760, 24)?;
    let every_hours = params.every_hours.map(|_| every_hours as i32);
    let mut tx = svc.db.begin_tenant(t).await?;
    store::lock_sets(&mut tx).await?;
    let exists = store::get_set(&mut tx, &name).await?.is_some();
    if !exists && store::count_sets(&mut tx).await? >= MAX_SETS {
        return Err(Error::Forbidden(format!("name: a tenant keeps at most {MAX_SETS} probe sets; delete one first")));
    }
    let value = serde_json::to_value(&probes.probes).map_err(Error::internal)?;
    let set = store::put_set(&mut tx, &name, &value, probes.k as i32, &probes.mode, every_hours).await?;
    tx.commit().await?;
    Ok(set)
}

/// The tenant's probe sets, by name.
pub async fn list_sets(svc: &Services, t: &Tenant) -> Result<Vec<ProbeSetRow>> {
    t.require(Scope::Read)?;
    t.require_unscoped("probe sets")?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let sets = store::list_sets(&mut tx, MAX_SETS).await?;
    tx.commit().await?;
    Ok(sets)
}

/// Deletes a probe set (its runs stay in the history).
pub async fn delete_set(svc: &Services, t: &Tenant, name: &str) -> Result<()> {
    t.require(Scope::Write)?;
    t.require_unscoped("a probe set")?;
    let name = parse_name(name)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let deleted = store::delete_set(&mut tx, &name).await?;
    tx.commit().await?;
    if !deleted {
        return Err(Error::not_found(format!("name: no probe set named {name:?}")));
    }
    Ok(())
}

/// A page of the history: newest first, without per-probe results, with its total and the page asked for.
pub struct RunsPage {
    pub runs: Vec<RunRow>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
}

/// A page of the history (of one probe set when `probe_set` is given).
pub async fn runs(
    svc: &Services,
    t: &Tenant,
    probe_set: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<RunsPage> {
    t.require(Scope::Read)?;
    t.require_unscoped("quality reports")?;
    let (limit, offset) = crate::validate::page(limit, offset, MAX_RUNS_PAGE, 50)?;
    let probe_set = probe_set.map(|n| parse_name(&n).map_err(|e| e.renamed(&[("name", "probe_set")]))).transpose()?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let (runs, total) = store::list_runs(&mut tx, probe_set.as_deref(), limit, offset).await?;
    tx.commit().await?;
    Ok(RunsPage { runs, total, limit, offset })
}

/// An operator's look at a tenant's quality report history (the dashboard's chart), without a key of the
/// tenant's; audited (`tenant.eval.read`).
pub async fn runs_of(
    svc: &Services,
    op: &crate::auth::admin::Operator,
    tenant_id: Uuid,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<RunsPage> {
    let t = super::tenants::look(svc, op, tenant_id, "tenant.eval.read").await?;
    runs(svc, &t, None, limit, offset).await
}

/// One run, with its per-probe results.
pub async fn get_run(svc: &Services, t: &Tenant, id: Uuid) -> Result<RunRow> {
    t.require(Scope::Read)?;
    t.require_unscoped("a quality report")?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let run = store::get_run(&mut tx, id).await?;
    tx.commit().await?;
    run.ok_or_else(|| Error::not_found(format!("id: no quality report run {id}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(query: &str, n: usize) -> ProbeParams {
        ProbeParams { query: query.into(), expected: (0..n).map(|_| Uuid::new_v4()).collect() }
    }

    #[test]
    fn probes_are_bounded_and_named_in_errors() {
        assert!(parse_probes(vec![probe("q", 1)], None, None).is_ok_and(|p| p.k == 10 && p.mode == "hybrid"));
        let err = parse_probes(vec![probe("q", 1), probe(" ", 1)], None, None).unwrap_err().to_string();
        assert!(err.starts_with("probes[1].query:"), "{err}");
        let err = parse_probes(vec![probe("q", 0)], None, None).unwrap_err().to_string();
        assert!(err.starts_with("probes[0].expected:"), "{err}");
        let err = parse_probes(vec![probe("q", 21)], None, None).unwrap_err().to_string();
        assert!(err.starts_with("probes[0].expected:"), "{err}");
        let many: Vec<ProbeParams> = (0..51).map(|_| probe("q", 1)).collect();
        assert!(parse_probes(many, None, None).unwrap_err().to_string().starts_with("probes:"));
        assert!(parse_probes(vec![probe("q", 1)], Some(0), None).unwrap_err().to_string().starts_with("k:"));
        assert!(parse_probes(vec![probe("q", 1)], None, Some("fuzzy".into()))
            .unwrap_err()
            .to_string()
            .starts_with("mode:"));
    }

    #[test]
    fn names_are_short_and_plain() {
        assert!(parse_name("weekly-regression_v2.1").is_ok());
        for bad in ["", "with space", "ü", &"x".repeat(65), "a/b"] {
            assert!(parse_name(bad).is_err(), "{bad:?}");
        }
    }
}
