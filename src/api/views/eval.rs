//! A tenant's quality reports: runs (with each probe's figures) and stored probe sets (`service::eval`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::ScoreComponents;
use crate::service::eval::{self, ProbeParams, ProbeSetRow, Report, RunRow};

/// Where one expected memory came in a probe's ranking.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExpectedRank {
    pub id: Uuid,
    /// 1-based rank among the first 100 results; null when it is not among them.
    pub rank: Option<usize>,
    pub score: Option<f64>,
    /// Why it scored as it did (as in a recall's `score_components`); null when not ranked.
    pub score_components: Option<ScoreComponents>,
}

/// One probe's figures.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeResult {
    pub query: String,
    /// Share of its expected memories in the top k.
    pub recall: f64,
    /// 1 / the rank of the first expected memory (0 when none is among the first 100).
    pub reciprocal_rank: f64,
    pub expected: Vec<ExpectedRank>,
}

impl From<eval::ProbeResult> for ProbeResult {
    fn from(r: eval::ProbeResult) -> Self {
        let eval::ProbeResult { query, recall, reciprocal_rank, expected } = r;
        let expected = expected
            .into_iter()
            .map(|e| ExpectedRank {
                id: e.id,
                rank: e.rank,
                score: e.score,
                score_components: e.score_components.map(ScoreComponents::from),
            })
            .collect();
        Self { query, recall, reciprocal_rank, expected }
    }
}

/// One quality report run: its figures, and (when asked for one run) each probe's.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "probe_set": "weekly", "trigger": "schedule",
    "k": 10, "mode": "hybrid", "probes": 12, "recall_at_k": 0.875, "hit_at_k": 0.917, "mrr": 0.702,
    "model": "sentence-transformers/all-MiniLM-L6-v2", "created_at": "2026-12-03T06:00:00Z"}))]
pub struct EvalRun {
    pub id: Uuid,
    /// The stored probe set run; null for probes sent with the request.
    pub probe_set: Option<String>,
    /// `manual` (asked through the API) or `schedule`.
    pub trigger: String,
    pub k: i32,
    pub mode: String,
    /// Probes asked.
    pub probes: i32,
    /// Mean share of each probe's expected memories in its top k.
    pub recall_at_k: f32,
    /// Share of probes with at least one expected memory in the top k.
    pub hit_at_k: f32,
    /// Mean reciprocal rank of each probe's first expected memory.
    pub mrr: f32,
    /// The embedding model the queries were embedded with (null for keyword mode or without a model).
    pub model: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Each probe's figures (in a run's own answer; left out of the history's pages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<ProbeResult>>,
}

impl EvalRun {
    pub fn from_row(row: RunRow, with_results: bool) -> Self {
        let results = with_results.then(|| eval::results_of(row.results).into_iter().map(ProbeResult::from).collect());
        Self {
            id: row.id,
            probe_set: row.probe_set,
            trigger: row.trigger,
            k: row.k,
            mode: row.mode,
            probes: row.probes,
            recall_at_k: row.recall_at_k,
            hit_at_k: row.hit_at_k,
            mrr: row.mrr,
            model: row.model,
            created_at: row.created_at,
            results,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EvalRunPage {
    /// Newest first, without per-probe results.
    pub runs: Vec<EvalRun>,
    pub count: usize,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// A stored probe set.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeSet {
    pub name: String,
    pub probes: Vec<ProbeSetProbe>,
    pub k: i32,
    pub mode: String,
    /// Re-run every this many hours by the `cairn::eval` job (null: only when asked).
    pub every_hours: Option<i32>,
    /// When the schedule last took it (runs asked for by hand do not move the schedule).
    pub last_run_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A probe of a stored set.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeSetProbe {
    pub query: String,
    pub expected: Vec<Uuid>,
}

impl From<ProbeSetRow> for ProbeSet {
    fn from(row: ProbeSetRow) -> Self {
        let probes: Vec<ProbeParams> = serde_json::from_value(row.probes).unwrap_or_default();
        Self {
            name: row.name,
            probes: probes.into_iter().map(|p| ProbeSetProbe { query: p.query, expected: p.expected }).collect(),
            k: row.k,
            mode: row.mode,
            every_hours: row.every_hours,
            last_run_at: row.last_run_at,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeSets {
    pub probe_sets: Vec<ProbeSet>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "deleted", "name": "weekly"}))]
pub struct ProbeSetDeleted {
    pub status: &'static str,
    pub name: String,
}

impl From<Report> for EvalRun {
    /// A run's own answer: with each probe's figures.
    fn from(report: Report) -> Self {
        let mut run = Self::from_row(report.run, false);
        run.results = Some(report.results.into_iter().map(ProbeResult::from).collect());
        run
    }
}

impl From<eval::RunsPage> for EvalRunPage {
    fn from(page: eval::RunsPage) -> Self {
        let eval::RunsPage { runs, total, limit, offset } = page;
        let runs: Vec<EvalRun> = runs.into_iter().map(|r| EvalRun::from_row(r, false)).collect();
        Self { count: runs.len(), has_more: offset + (runs.len() as i64) < total, runs, total, limit, offset }
    }
}
