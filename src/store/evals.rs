//! SQL for a tenant's quality reports: named probe sets (`eval_probe_sets`) and the runs' figures
//! (`eval_runs`).

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::TenantTx;
use crate::error::Error;

/// Runs kept per tenant; older ones are removed as new ones are recorded.
pub const KEPT_RUNS: i64 = 500;

/// A stored probe set.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProbeSetRow {
    pub name: String,
    pub probes: Value,
    pub k: i32,
    pub mode: String,
    pub every_hours: Option<i32>,
    pub last_run_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const SET_COLUMNS: &str = "name, probes, k, mode, every_hours, last_run_at, created_at, updated_at";

/// One recorded run.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RunRow {
    pub id: Uuid,
    pub probe_set: Option<String>,
    pub trigger: String,
    pub k: i32,
    pub mode: String,
    pub probes: i32,
    pub recall_at_k: f32,
    pub hit_at_k: f32,
    pub mrr: f32,
    pub model: Option<String>,
    pub results: Value,
    pub created_at: DateTime<Utc>,
}

const RUN_COLUMNS: &str =
    "id, probe_set, trigger, k, mode, probes, recall_at_k, hit_at_k, mrr, model, results, created_at";
/// A history page's columns: the per-probe results left out (up to 50 probes of 20 memories each per run).
const PAGE_COLUMNS: &str =
    "id, probe_set, trigger, k, mode, probes, recall_at_k, hit_at_k, mrr, model, 'null'::jsonb AS results, created_at";

/// A run to record.
pub struct NewRun<'a> {
    pub probe_set: Option<&'a str>,
    pub trigger: &'a str,
    pub k: i32,
    pub mode: &'a str,
    pub probes: i32,
    pub recall_at_k: f64,
    pub hit_at_k: f64,
    pub mrr: f64,
    pub model: Option<&'a str>,
    pub results: Value,
}

/// Creates or replaces the probe set `name`; returns it.
pub async fn put_set(
    tx: &mut TenantTx,
    name: &str,
    probes: &Value,
    k: i32,
    mode: &str,
    every_hours: Option<i32>,
) -> Result<ProbeSetRow, Error> {
    let sql = format!(
        "INSERT INTO eval_probe_sets (tenant_id, name, probes, k, mode, every_hours) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, name) DO UPDATE
            SET probes = EXCLUDED.probes, k = EXCLUDED.k, mode = EXCLUDED.mode, every_hours = EXCLUDED.every_hours,
                updated_at = EXCLUDED.updated_at
         RETURNING {SET_COLUMNS}"
    );
    Ok(sqlx::query_as(&sql)
        .bind(tx.tenant_id())
        .bind(name)
        .bind(probes)
        .bind(k)
        .bind(mode)
        .bind(every_hours)
        .fetch_one(tx.conn())
        .await?)
}

/// Serialises the tenant's probe-set writes until the transaction ends, so the cap on their number holds
/// under concurrent creations (a transaction-scoped advisory lock keyed by the tenant).
pub async fn lock_sets(tx: &mut TenantTx) -> Result<(), Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('cairn.eval_probe_sets:' || $1::text, 0))")
        .bind(tx.tenant_id())
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// How many probe sets the tenant holds.
pub async fn count_sets(tx: &mut TenantTx) -> Result<i64, Error> {
    Ok(sqlx::query_scalar("SELECT count(*) FROM eval_probe_sets WHERE tenant_id = $1")
        .bind(tx.tenant_id())
        .fetch_one(tx.conn())
        .await?)
}

/// The probe set `name`.
pub async fn get_set(tx: &mut TenantTx, name: &str) -> Result<Option<ProbeSetRow>, Error> {
    let sql = format!("SELECT {SET_COLUMNS} FROM eval_probe_sets WHERE tenant_id = $1 AND name = $2");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(name).fetch_optional(tx.conn()).await?)
}

/// Every probe set of the tenant, by name (at most `limit`).
pub async fn list_sets(tx: &mut TenantTx, limit: i64) -> Result<Vec<ProbeSetRow>, Error> {
    let sql = format!("SELECT {SET_COLUMNS} FROM eval_probe_sets WHERE tenant_id = $1 ORDER BY name LIMIT $2");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(limit).fetch_all(tx.conn()).await?)
}

/// Deletes the probe set `name` (its runs stay in the history); whether it existed.
pub async fn delete_set(tx: &mut TenantTx, name: &str) -> Result<bool, Error> {
    let deleted = sqlx::query("DELETE FROM eval_probe_sets WHERE tenant_id = $1 AND name = $2")
        .bind(tx.tenant_id())
        .bind(name)
        .execute(tx.conn())
        .await?;
    Ok(deleted.rows_affected() > 0)
}

/// The scheduled probe sets due at `now` (never run, or run `every_hours` ago or longer), marked as run at
/// `now` so the next pass does not take them again; their names. Found with their rows locked, then marked:
/// a pass running at the same time waits for the lock and finds them no longer due. (Two statements because
/// Citus refuses the due-time arithmetic on a column inside an UPDATE.)
pub async fn take_due(tx: &mut TenantTx, now: DateTime<Utc>) -> Result<Vec<String>, Error> {
    let due: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM eval_probe_sets
          WHERE tenant_id = $1 AND every_hours IS NOT NULL
            AND (last_run_at IS NULL OR last_run_at + make_interval(hours => every_hours) <= $2)
          ORDER BY name FOR UPDATE",
    )
    .bind(tx.tenant_id())
    .bind(now)
    .fetch_all(tx.conn())
    .await?;
    if due.is_empty() {
        return Ok(due);
    }
    Ok(sqlx::query_scalar(
        "UPDATE eval_probe_sets SET last_run_at = $2 WHERE tenant_id = $1 AND name = ANY($3) RETURNING name",
    )
    .bind(tx.tenant_id())
    .bind(now)
    .bind(&due)
    .fetch_all(tx.conn())
    .await?)
}

/// Records a run; keeps the newest [`KEPT_RUNS`] of the tenant. (A set's `last_run_at` is the schedule's:
/// [`take_due`] alone writes it, so runs asked for by hand do not move the schedule.)
pub async fn insert_run(tx: &mut TenantTx, run: &NewRun<'_>) -> Result<RunRow, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "INSERT INTO eval_runs (tenant_id, probe_set, trigger, k, mode, probes, recall_at_k, hit_at_k, mrr, model, results)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING {RUN_COLUMNS}"
    );
    let row: RunRow = sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(run.probe_set)
        .bind(run.trigger)
        .bind(run.k)
        .bind(run.mode)
        .bind(run.probes)
        .bind(run.recall_at_k as f32)
        .bind(run.hit_at_k as f32)
        .bind(run.mrr as f32)
        .bind(run.model)
        .bind(&run.results)
        .fetch_one(tx.conn())
        .await?;
    sqlx::query(
        "DELETE FROM eval_runs WHERE tenant_id = $1 AND id IN (
             SELECT id FROM eval_runs WHERE tenant_id = $1 ORDER BY created_at DESC, id OFFSET $2 LIMIT 100)",
    )
    .bind(tenant_id)
    .bind(KEPT_RUNS)
    .execute(tx.conn())
    .await?;
    Ok(row)
}

/// A page of runs, newest first (of one probe set when `probe_set` is given), without their per-probe
/// results, and how many there are.
pub async fn list_runs(
    tx: &mut TenantTx,
    probe_set: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<RunRow>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "SELECT {PAGE_COLUMNS} FROM eval_runs WHERE tenant_id = $1 AND ($2::text IS NULL OR probe_set = $2)
          ORDER BY created_at DESC, id LIMIT $3 OFFSET $4"
    );
    let rows =
        sqlx::query_as(&sql).bind(tenant_id).bind(probe_set).bind(limit).bind(offset).fetch_all(tx.conn()).await?;
    let total = sqlx::query_scalar(
        "SELECT count(*) FROM eval_runs WHERE tenant_id = $1 AND ($2::text IS NULL OR probe_set = $2)",
    )
    .bind(tenant_id)
    .bind(probe_set)
    .fetch_one(tx.conn())
    .await?;
    Ok((rows, total))
}

/// The run `id`.
pub async fn get_run(tx: &mut TenantTx, id: Uuid) -> Result<Option<RunRow>, Error> {
    let sql = format!("SELECT {RUN_COLUMNS} FROM eval_runs WHERE tenant_id = $1 AND id = $2");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(id).fetch_optional(tx.conn()).await?)
}
