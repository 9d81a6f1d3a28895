//! SQL for the job queue (apalis' tables, schema `apalis`): enqueueing from a tenant transaction, the
//! tenant's view of its jobs, and the once-per-period claims of periodic jobs.
//!
//! The application role has no access to apalis' schema: it enqueues through `cairn_enqueue`, which stamps
//! the job with the transaction's own tenant, and reads job status through two functions that answer only
//! about that tenant. Periodic jobs belong to no tenant and are enqueued on the owner's pool.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgPool;

use super::TenantTx;
use crate::error::Error;

/// Enqueues a job with `payload` (its `tenant_id` is added by the database) on `queue`, in the caller's
/// tenant transaction, so the job exists exactly when the rows that caused it do.
pub async fn enqueue(tx: &mut TenantTx, queue: &str, payload: Value, max_attempts: usize) -> Result<(), Error> {
    sqlx::query("SELECT cairn_enqueue($1, $2, $3)")
        .bind(queue)
        .bind(payload)
        .bind(max_attempts as i32)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// The tenant's jobs per queue and state.
pub async fn job_counts(tx: &mut TenantTx) -> Result<Vec<(String, String, i64)>, Error> {
    Ok(sqlx::query_as("SELECT queue, status, jobs FROM cairn_job_counts()").fetch_all(tx.conn()).await?)
}

/// A job whose last attempt failed (it may still be retried).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobFailure {
    pub id: String,
    pub queue: String,
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub run_at: DateTime<Utc>,
    pub done_at: Option<DateTime<Utc>>,
    pub memory_ids: Option<sqlx::types::Json<Value>>,
}

/// A periodic job's latest period: when it started, and how its job stands (apalis' status, when it
/// finished).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LatestPeriod {
    pub job: String,
    pub period_start: DateTime<Utc>,
    pub status: Option<String>,
    pub done_at: Option<DateTime<Utc>>,
}

/// The tenant's most recent failed attempts, newest first.
pub async fn job_failures(tx: &mut TenantTx, max_rows: i32) -> Result<Vec<JobFailure>, Error> {
    Ok(sqlx::query_as("SELECT * FROM cairn_job_failures($1)").bind(max_rows).fetch_all(tx.conn()).await?)
}

/// Claims `period_start` of the periodic job `job` and, if this caller is the first to claim it, enqueues
/// `payload` on the queue `job` in the same transaction. Returns whether it did.
pub async fn claim_period(
    pool: &PgPool,
    job: &str,
    period_start: DateTime<Utc>,
    claimed_by: &str,
    payload: Value,
    max_attempts: usize,
) -> Result<bool, Error> {
    let mut tx = super::begin(pool, None).await?;
    let claimed = sqlx::query(
        "INSERT INTO job_schedule (job, period_start, claimed_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(job)
    .bind(period_start)
    .bind(claimed_by)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if claimed {
        sqlx::query(
            "UPDATE job_schedule SET job_id = (SELECT id FROM apalis.push_job($1, $3::json, 'Pending', now(), $4))
              WHERE job = $1 AND period_start = $2",
        )
        .bind(job)
        .bind(period_start)
        .bind(payload)
        .bind(max_attempts as i32)
        .execute(&mut *tx)
        .await?;
        // Wakes the queue's workers at commit (as `cairn_enqueue` does for tenant jobs).
        sqlx::query("SELECT pg_notify('apalis::job', $1)").bind(job).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(claimed)
}

/// Hands back the jobs a stopping worker fetched and did not finish (apalis marks a whole fetched batch
/// `Running` under the worker's name; those still queued in its buffer would otherwise wait for another
/// worker to start, or for the orphan sweep minutes later). A job that did finish but whose acknowledgement
/// was not written yet runs again, which every job tolerates. Returns how many were handed back.
pub async fn release_fetched(pool: &PgPool, worker: &str) -> Result<u64, Error> {
    Ok(sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL, done_at = NULL
          WHERE status = 'Running' AND lock_by = $1",
    )
    .bind(worker)
    .execute(pool)
    .await?
    .rows_affected())
}

/// Hands back jobs marked running for longer than `stale_after` by the database's clock (lost by a live
/// worker, see `CAIRN_JOB_STALE_AFTER_SECS`). Returns how many.
pub async fn requeue_stale(pool: &PgPool, stale_after: std::time::Duration) -> Result<u64, Error> {
    Ok(sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL, done_at = NULL,
                last_error = 'handed back: marked running for too long (lost by its worker?)'
          WHERE status = 'Running' AND lock_at < now() - make_interval(secs => $1)",
    )
    .bind(stale_after.as_secs_f64())
    .execute(pool)
    .await?
    .rows_affected())
}

/// Forgets period claims older than `before`, but never a job's latest (its current period, however long).
pub async fn prune_periods(pool: &PgPool, before: DateTime<Utc>) -> Result<u64, Error> {
    Ok(sqlx::query(
        "DELETE FROM job_schedule s WHERE period_start < $1
            AND period_start < (SELECT max(period_start) FROM job_schedule l WHERE l.job = s.job)",
    )
    .bind(before)
    .execute(pool)
    .await?
    .rows_affected())
}

/// The latest claimed period of each periodic job (no tenant's data: the owner's pool).
pub async fn latest_periods(pool: &PgPool) -> Result<Vec<LatestPeriod>, Error> {
    Ok(sqlx::query_as(
        "SELECT DISTINCT ON (s.job) s.job, s.period_start, j.status, j.done_at
           FROM job_schedule s LEFT JOIN apalis.jobs j ON j.id = s.job_id
          ORDER BY s.job, s.period_start DESC",
    )
    .fetch_all(pool)
    .await?)
}

/// A queue's jobs not done (for one tenant, or for all when grouped by queue only).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueueLoad {
    pub queue: String,
    /// None: the whole queue (or the service's own jobs, in a per-tenant listing).
    pub tenant_id: Option<uuid::Uuid>,
    pub tenant_name: Option<String>,
    pub pending: i64,
    pub running: i64,
    pub failed: i64,
    pub killed: i64,
    /// Seconds since the oldest pending job was due.
    pub oldest_pending_secs: Option<f64>,
}

/// Every queue's jobs not done: per queue, and per queue and tenant (the busiest `max_rows`, most jobs first).
/// The owner's pool: this reads across tenants, for operators only.
pub async fn load(pool: &PgPool, max_rows: i64) -> Result<(Vec<QueueLoad>, Vec<QueueLoad>), Error> {
    const COLUMNS: &str = "count(*) FILTER (WHERE j.status = 'Pending') AS pending,
            count(*) FILTER (WHERE j.status = 'Running') AS running,
            count(*) FILTER (WHERE j.status = 'Failed') AS failed,
            count(*) FILTER (WHERE j.status = 'Killed') AS killed,
            extract(epoch FROM now() - min(j.run_at) FILTER (WHERE j.status = 'Pending'))::float8 AS oldest_pending_secs";
    // Both scan the queue's unfinished rows: bounded in time (the owner's pool has no statement timeout).
    let mut tx = super::begin(pool, None).await?;
    sqlx::query("SET LOCAL statement_timeout = '10s'").execute(&mut *tx).await?;
    let queues = sqlx::query_as(&format!(
        "SELECT j.job_type AS queue, NULL::uuid AS tenant_id, NULL::text AS tenant_name, {COLUMNS}
           FROM apalis.jobs j WHERE j.status <> 'Done' GROUP BY j.job_type ORDER BY j.job_type"
    ))
    .fetch_all(&mut *tx)
    .await?;
    let tenants = sqlx::query_as(&format!(
        "SELECT x.*, t.name AS tenant_name FROM (
             SELECT j.job_type AS queue, NULLIF(j.job->>'tenant_id', '')::uuid AS tenant_id, {COLUMNS}
               FROM apalis.jobs j WHERE j.status <> 'Done' GROUP BY 1, 2
              ORDER BY count(*) DESC, 1, 2 LIMIT $1) x
           LEFT JOIN tenants t ON t.id = x.tenant_id
          ORDER BY x.pending + x.running + x.failed + x.killed DESC, x.queue, x.tenant_id"
    ))
    .bind(max_rows)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((queues, tenants))
}

/// Every queue's pending jobs and the age of its oldest pending one, in seconds (for `/metrics`).
pub async fn queue_depths(pool: &PgPool) -> Result<Vec<(String, i64, f64)>, Error> {
    Ok(sqlx::query_as(
        "SELECT job_type, count(*), coalesce(extract(epoch FROM now() - min(run_at))::float8, 0)
         FROM apalis.jobs WHERE status IN ('Pending', 'Running') GROUP BY job_type",
    )
    .fetch_all(pool)
    .await?)
}
