//! Consolidation (SHODH's and AutoMem's): on demand (`POST /api/v1/consolidate`) and on a per-tenant
//! schedule. Modes:
//! - `decay`: learned association strength fades, long-term importance decays (the lifecycle rules);
//! - `creative`: association discovery — memories of *different* types whose meaning is related but not
//!   near-identical (cosine in [0.6, 0.8)) get a DISCOVERED edge, at most 50 a run;
//! - `cluster`: connected components of the horizon's memories at cosine ≥ 0.75; components of ≥ 3 are
//!   clusters, and each of ≥ 5 gets one consolidated summary memory with SUMMARIZES edges to its members
//!   (originals kept; memories already summarised are not clustered again);
//! - `forget`: active forgetting, where the tenant turned it on;
//! - `full`: all of them.
//!
//! A run is one tenant transaction; `dry_run` rolls it back, so the report says exactly what a real run
//! would have done and nothing is written.

use std::collections::HashMap;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use pgvector::Vector;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::ApiError;
use crate::memory::{MemoryInput, NewMemory, ParseCtx};
use crate::store::memories::{self, Inserted};
use crate::store::{lifecycle, relations, tenants, Db, TenantTx};

/// Cosine at or above which two memories belong to one cluster.
pub const CLUSTER_THRESHOLD: f64 = 0.75;
/// Members that make a cluster, and that earn it a summary memory.
pub const CLUSTER_MIN: usize = 3;
pub const SUMMARY_MIN: usize = 5;
/// Creative discovery's cosine band, and its cap per run.
pub const CREATIVE_RANGE: (f64, f64) = (0.6, 0.8);
pub const CREATIVE_MAX: usize = 50;
/// Most memories one run considers (the newest of the horizon).
pub const MAX_CONSIDERED: i64 = 2000;
/// The tag of summary memories.
pub const SUMMARY_TAG: &str = "consolidation:summary";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Full,
    Decay,
    Creative,
    Cluster,
    Forget,
}

impl Mode {
    pub const ALL: [Mode; 5] = [Mode::Full, Mode::Decay, Mode::Creative, Mode::Cluster, Mode::Forget];

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str().eq_ignore_ascii_case(value.trim()))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Decay => "decay",
            Mode::Creative => "creative",
            Mode::Cluster => "cluster",
            Mode::Forget => "forget",
        }
    }

    fn has(self, part: Mode) -> bool {
        self == Mode::Full || self == part
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Horizon {
    Daily,
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

impl Horizon {
    pub const ALL: [Horizon; 5] =
        [Horizon::Daily, Horizon::Weekly, Horizon::Monthly, Horizon::Quarterly, Horizon::Yearly];

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|h| h.as_str().eq_ignore_ascii_case(value.trim()))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Horizon::Daily => "daily",
            Horizon::Weekly => "weekly",
            Horizon::Monthly => "monthly",
            Horizon::Quarterly => "quarterly",
            Horizon::Yearly => "yearly",
        }
    }

    pub fn span(self) -> Duration {
        Duration::days(match self {
            Horizon::Daily => 1,
            Horizon::Weekly => 7,
            Horizon::Monthly => 30,
            Horizon::Quarterly => 91,
            Horizon::Yearly => 365,
        })
    }
}

/// What a run did (or, dry, would do).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[schema(example = json!({"processed": 240, "archived": 3, "decayed": 120, "associations_created": 7,
    "associations_decayed": 2, "clusters_created": 4, "summaries_created": 1, "duration_ms": 85}))]
pub struct Report {
    /// Memories of the horizon considered by clustering and discovery.
    pub processed: usize,
    /// Memories archived by forgetting.
    pub archived: u64,
    /// Memories whose importance decayed.
    pub decayed: u64,
    /// DISCOVERED and SUMMARIZES edges created.
    pub associations_created: u64,
    /// Edges whose learned strength decayed.
    pub associations_decayed: u64,
    /// Clusters found (connected components of at least 3).
    pub clusters_created: usize,
    /// Summary memories written for clusters of at least 5.
    pub summaries_created: usize,
    pub duration_ms: u64,
    /// Set when part of the run was skipped, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Item {
    id: Uuid,
    content: String,
    #[sqlx(rename = "type")]
    kind: String,
    embedding: Vector,
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    // Stored vectors are unit length (models normalise; supplied ones are used as given).
    let (mut dot, mut na, mut nb) = (0.0_f64, 0.0_f64, 0.0_f64);
    for (x, y) in a.iter().zip(b) {
        dot += f64::from(*x) * f64::from(*y);
        na += f64::from(*x) * f64::from(*x);
        nb += f64::from(*y) * f64::from(*y);
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

/// Connected components of the graph "cosine ≥ threshold", by union-find.
fn components(items: &[Item], threshold: f64) -> Vec<Vec<usize>> {
    fn find(parent: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while parent[root] != root {
            root = parent[root];
        }
        let mut i = i;
        while parent[i] != root {
            let next = parent[i];
            parent[i] = root;
            i = next;
        }
        root
    }
    let mut parent: Vec<usize> = (0..items.len()).collect();
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if cosine(items[i].embedding.as_slice(), items[j].embedding.as_slice()) >= threshold {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                if a != b {
                    parent[a] = b;
                }
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..items.len() {
        let root = find(&mut parent, i);
        groups.entry(root).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_by_key(|g| std::cmp::Reverse(g.len()));
    out
}

/// The summary of a cluster: its most central members' first sentences, within 2000 characters.
fn cluster_summary(items: &[Item], members: &[usize]) -> String {
    let dim = items[members[0]].embedding.as_slice().len();
    let mut centroid = vec![0.0_f32; dim];
    for &m in members {
        for (c, v) in centroid.iter_mut().zip(items[m].embedding.as_slice()) {
            *c += v;
        }
    }
    let mut ranked: Vec<usize> = members.to_vec();
    ranked.sort_by(|a, b| {
        cosine(items[*b].embedding.as_slice(), &centroid).total_cmp(&cosine(items[*a].embedding.as_slice(), &centroid))
    });
    let mut text = format!("Summary of {} related memories: ", members.len());
    for m in ranked {
        let line = crate::memory::quality::summary(&items[m].content);
        if text.chars().count() + line.chars().count() + 3 > 1990 {
            break;
        }
        text.push_str(&line);
        text.push_str(" | ");
    }
    text.trim_end_matches(" | ").to_owned()
}

/// Runs one consolidation for the transaction's tenant as of `now`.
pub async fn run(
    tx: &mut TenantTx,
    mode: Mode,
    horizon: Horizon,
    now: DateTime<Utc>,
    forgetting: Option<i32>,
) -> Result<Report, ApiError> {
    let started = Instant::now();
    let tenant_id = tx.tenant_id();
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
        let items: Vec<Item> = sqlx::query_as(
            "SELECT id, content, type, embedding FROM memories m
              WHERE tenant_id = $1 AND archived_at IS NULL AND embedding IS NOT NULL AND created_at >= $2
                AND NOT ($3 = ANY(tags))
                AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.tenant_id = $1 AND r.target_id = m.id
                                  AND r.rel_type = 'SUMMARIZES')
              ORDER BY created_at DESC LIMIT $4",
        )
        .bind(tenant_id)
        .bind(now - horizon.span())
        .bind(SUMMARY_TAG)
        .bind(MAX_CONSIDERED)
        .fetch_all(tx.conn())
        .await?;
        report.processed = items.len();
        // The pairwise comparisons are CPU work (up to 2M dot products): off the async runtime.
        let items = std::sync::Arc::new(items);
        let cpu = |f: fn(&[Item]) -> Vec<Vec<usize>>| {
            let items = items.clone();
            async move {
                tokio::task::spawn_blocking(move || f(&items))
                    .await
                    .map_err(|e| ApiError::Internal(anyhow::anyhow!("consolidation worker: {e}")))
            }
        };
        if mode.has(Mode::Creative) {
            let pairs = cpu(creative_pairs).await?;
            report.associations_created += discover(tx, &items, pairs).await?;
        }
        if mode.has(Mode::Cluster) {
            let clusters: Vec<Vec<usize>> = cpu(|items| components(items, CLUSTER_THRESHOLD))
                .await?
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
    report.duration_ms = started.elapsed().as_millis() as u64;
    Ok(report)
}

/// Creative candidates: pairs (as `[i, j]`) of memories of different types in the cosine band, the most
/// similar first.
fn creative_pairs(items: &[Item]) -> Vec<Vec<usize>> {
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if items[i].kind == items[j].kind {
                continue;
            }
            let c = cosine(items[i].embedding.as_slice(), items[j].embedding.as_slice());
            if (CREATIVE_RANGE.0..CREATIVE_RANGE.1).contains(&c) {
                pairs.push((c, i, j));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    pairs.into_iter().map(|(_, i, j)| vec![i, j]).collect()
}

/// Creative discovery: DISCOVERED edges for the best candidate pairs not linked already, at most
/// [`CREATIVE_MAX`] a run (pairs linked by earlier runs do not use up the cap).
async fn discover(tx: &mut TenantTx, items: &[Item], pairs: Vec<Vec<usize>>) -> Result<u64, ApiError> {
    let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
    let linked: Vec<(Uuid, Uuid)> = sqlx::query_as(
        "SELECT source_id, target_id FROM relations WHERE tenant_id = $1 AND source_id = ANY($2) AND target_id = ANY($2)",
    )
    .bind(tx.tenant_id())
    .bind(&ids)
    .fetch_all(tx.conn())
    .await?;
    let linked: std::collections::HashSet<(Uuid, Uuid)> =
        linked.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
    let mut created = 0;
    let fresh = pairs.into_iter().map(|p| (items[p[0]].id.min(items[p[1]].id), items[p[0]].id.max(items[p[1]].id), p));
    for (a, b, p) in fresh.filter(|(a, b, _)| !linked.contains(&(*a, *b))).take(CREATIVE_MAX) {
        let c = cosine(items[p[0]].embedding.as_slice(), items[p[1]].embedding.as_slice());
        let done = sqlx::query(
            "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
             VALUES ($1, $2, $3, 'DISCOVERED', $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(tx.tenant_id())
        .bind(a)
        .bind(b)
        .bind(c as f32)
        .bind(json!({"created_by": "consolidation", "reason": "related memories of different types"}))
        .execute(tx.conn())
        .await?;
        created += done.rows_affected();
    }
    Ok(created)
}

/// Writes a cluster's summary memory and its SUMMARIZES edges; returns the edges created.
async fn summarise(tx: &mut TenantTx, items: &[Item], members: &[usize], now: DateTime<Utc>) -> Result<u64, ApiError> {
    let ids: Vec<Uuid> = members.iter().map(|m| items[*m].id).collect();
    let input: MemoryInput = serde_json::from_value(json!({
        "content": cluster_summary(items, members),
        "type": "Insight",
        "tags": [SUMMARY_TAG],
        "source_type": "inferred",
        "importance": 0.6,
        "metadata": {"consolidated_at": now, "cluster_size": ids.len(), "members": ids},
    }))
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("summary memory: {e}")))?;
    // No embedding is supplied, so the dimension is not consulted; the worker embeds the summary.
    let new = NewMemory::parse(input, &ParseCtx::new(Utc::now(), 0))?;
    let summary = match memories::insert(tx, &new, "system:consolidate").await? {
        Inserted::Stored(m) => m.id,
        Inserted::Duplicate { existing_id } => existing_id,
    };
    crate::jobs::embed::enqueue(tx, &[summary]).await?;
    let done = sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         SELECT $1, $2, unnest($3::uuid[]), 'SUMMARIZES', 1, '{\"created_by\": \"consolidation\"}'
         ON CONFLICT DO NOTHING",
    )
    .bind(tx.tenant_id())
    .bind(summary)
    .bind(&ids)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

/// A finished run, as listed by the status endpoint.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct RunRecord {
    pub id: Uuid,
    pub mode: String,
    pub time_horizon: String,
    pub dry_run: bool,
    /// `manual` or `schedule`.
    pub trigger: String,
    pub started_at: DateTime<Utc>,
    pub finished_at: DateTime<Utc>,
    #[schema(value_type = Object)]
    pub report: sqlx::types::Json<serde_json::Value>,
}

/// Runs and records one consolidation for a tenant as of `now` (dry runs are recorded, their changes rolled
/// back).
pub async fn run_and_record(
    db: &Db,
    tenant_id: Uuid,
    mode: Mode,
    horizon: Horizon,
    dry_run: bool,
    trigger: &str,
    now: DateTime<Utc>,
) -> Result<Report, ApiError> {
    let settings = tenants::settings(db.owner(), tenant_id).await?;
    let forgetting = settings.filter(|s| s.forgetting_enabled).map(|s| s.forgetting_grace_days);
    let mut tx = db.begin_tenant(tenant_id).await?;
    let report = run(&mut tx, mode, horizon, now, forgetting).await?;
    if dry_run {
        tx.rollback().await?;
        tx = db.begin_tenant(tenant_id).await?;
    }
    sqlx::query(
        "INSERT INTO consolidation_runs (tenant_id, mode, time_horizon, dry_run, trigger, started_at, finished_at, report)
         VALUES ($1, $2, $3, $4, $5, $6, $6 + make_interval(secs => $8), $7)",
    )
    .bind(tenant_id)
    .bind(mode.as_str())
    .bind(horizon.as_str())
    .bind(dry_run)
    .bind(trigger)
    .bind(now)
    .bind(sqlx::types::Json(&report))
    .bind(report.duration_ms as f64 / 1000.0)
    .execute(tx.conn())
    .await?;
    tx.commit().await?;
    Ok(report)
}

/// The per-tenant schedule: each mode, its horizon and how often it runs.
pub const SCHEDULE: &[(Mode, Horizon, i64)] = &[
    (Mode::Decay, Horizon::Daily, 24),
    (Mode::Creative, Horizon::Weekly, 24 * 7),
    (Mode::Cluster, Horizon::Monthly, 24 * 7),
    (Mode::Forget, Horizon::Daily, 24),
];

/// When each scheduled mode last ran for the tenant.
pub async fn last_scheduled(tx: &mut TenantTx) -> Result<HashMap<String, DateTime<Utc>>, ApiError> {
    let rows: Vec<(String, DateTime<Utc>)> = sqlx::query_as(
        "SELECT mode, max(started_at) FROM consolidation_runs
          WHERE tenant_id = $1 AND trigger = 'schedule' GROUP BY mode",
    )
    .bind(tx.tenant_id())
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().collect())
}

/// The scheduled pass: runs every mode that is due for every tenant, as of `now`. Returns the runs made.
pub async fn run_due(db: &Db, now: DateTime<Utc>) -> Result<usize, ApiError> {
    let mut runs = 0;
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let mut tx = db.begin_tenant(tenant_id).await?;
        let last = last_scheduled(&mut tx).await?;
        tx.commit().await?;
        for (mode, horizon, hours) in SCHEDULE {
            let due = last.get(mode.as_str()).is_none_or(|at| *at + Duration::hours(*hours) <= now);
            if due {
                // One tenant's failure must not hold up the others': log it, and it is retried next hour.
                match run_and_record(db, tenant_id, *mode, *horizon, false, "schedule", now).await {
                    Ok(_) => runs += 1,
                    Err(err) => {
                        tracing::warn!(%tenant_id, mode = mode.as_str(), error = %err, "scheduled consolidation failed")
                    }
                }
            }
        }
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_horizons_parse() {
        assert_eq!(Mode::parse("Cluster"), Some(Mode::Cluster));
        assert_eq!(Mode::parse("sleep"), None);
        assert_eq!(Horizon::parse("weekly").map(Horizon::span), Some(Duration::days(7)));
        assert!(Mode::Full.has(Mode::Forget) && !Mode::Decay.has(Mode::Forget));
    }
}
