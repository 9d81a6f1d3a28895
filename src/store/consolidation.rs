//! SQL for consolidation: the horizon's memories with their vectors, the links it discovers and the
//! summary links it writes, and the record of every run (`consolidation_runs`).

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::Local;
use super::TenantTx;
use crate::consolidation::{Item, RunRecord};
use crate::error::Error;

/// The newest `limit` active memories with a vector created since `since`, leaving out summaries
/// (`summary_tag`) and memories a summary already covers.
pub async fn items(tx: &mut TenantTx, since: DateTime<Utc>, summary_tag: &str, limit: i64) -> Result<Vec<Item>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, content, type, embedding FROM memories m
          WHERE tenant_id = $1 AND archived_at IS NULL AND embedding IS NOT NULL AND created_at >= $2
            AND NOT ($3 = ANY(tags))
            AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.tenant_id = $1 AND r.target_id = m.id
                              AND r.rel_type = 'SUMMARIZES')
          ORDER BY created_at DESC LIMIT $4",
    )
    .bind(tx.tenant_id())
    .bind(since)
    .bind(summary_tag)
    .bind(limit)
    .fetch_all(tx.conn())
    .await?)
}

/// Each listed memory's `k` nearest among the memories a run considers (the tenant's unarchived memories
/// with a vector created since `since`, neither summaries tagged `summary_tag` nor memories a summary
/// already covers), found by the HNSW index: (memory, neighbour, cosine). One index probe per memory: the
/// run's cost grows with its memories, not their pairs. The index holds every tenant's vectors, so its
/// iterative scan may read past other tenants' rows; it reads up to 100,000 per probe (pgvector's default
/// is 20,000), so a small tenant in a large deployment still finds its neighbours.
pub async fn neighbours(
    tx: &mut TenantTx,
    ids: &[Uuid],
    since: DateTime<Utc>,
    summary_tag: &str,
    k: i64,
) -> Result<Vec<(Uuid, Uuid, f64)>, Error> {
    super::set_local(
        tx.conn(),
        &[("hnsw.iterative_scan", Local::Word("relaxed_order")), ("hnsw.max_scan_tuples", Local::Number(100_000))],
    )
    .await?;
    Ok(sqlx::query_as(
        "SELECT s.id, n.id, n.cosine FROM memories s
           CROSS JOIN LATERAL (
               SELECT c.id, 1 - (c.embedding <=> s.embedding) AS cosine FROM memories c
                WHERE c.tenant_id = $1 AND c.id <> s.id AND c.embedding IS NOT NULL AND c.archived_at IS NULL
                  AND c.created_at >= $3 AND NOT ($4 = ANY(c.tags))
                  AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.tenant_id = $1 AND r.target_id = c.id
                                    AND r.rel_type = 'SUMMARIZES')
                ORDER BY c.embedding <=> s.embedding LIMIT $5
           ) n
          WHERE s.tenant_id = $1 AND s.id = ANY($2) AND s.embedding IS NOT NULL",
    )
    .bind(tx.tenant_id())
    .bind(ids)
    .bind(since)
    .bind(summary_tag)
    .bind(k)
    .fetch_all(tx.conn())
    .await?)
}

/// The pairs among `ids` already linked (in either direction), as (source, target).
pub async fn links_among(tx: &mut TenantTx, ids: &[Uuid]) -> Result<Vec<(Uuid, Uuid)>, Error> {
    Ok(sqlx::query_as(
        "SELECT source_id, target_id FROM relations WHERE tenant_id = $1 AND source_id = ANY($2) AND target_id = ANY($2)",
    )
    .bind(tx.tenant_id())
    .bind(ids)
    .fetch_all(tx.conn())
    .await?)
}

/// A DISCOVERED edge `a → b` of strength `cosine`; returns whether it was created.
pub async fn discover(tx: &mut TenantTx, a: Uuid, b: Uuid, cosine: f32, properties: &Value) -> Result<bool, Error> {
    let done = sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         VALUES ($1, $2, $3, 'DISCOVERED', $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind(tx.tenant_id())
    .bind(a)
    .bind(b)
    .bind(cosine)
    .bind(properties)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// SUMMARIZES edges from a summary memory to its members; returns how many were created.
pub async fn link_summary(tx: &mut TenantTx, summary: Uuid, members: &[Uuid]) -> Result<u64, Error> {
    let done = sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         SELECT $1, $2, unnest($3::uuid[]), 'SUMMARIZES', 1, '{\"created_by\": \"consolidation\"}'
         ON CONFLICT DO NOTHING",
    )
    .bind(tx.tenant_id())
    .bind(summary)
    .bind(members)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

const RUN_COLUMNS: &str = "id, mode, time_horizon, dry_run, trigger, status, started_at, finished_at, report, error";

/// Records a run asked for as of `at`, queued; returns its id.
pub async fn insert_run(
    tx: &mut TenantTx,
    mode: &str,
    horizon: &str,
    dry_run: bool,
    trigger: &str,
    at: DateTime<Utc>,
) -> Result<Uuid, Error> {
    Ok(sqlx::query_scalar(
        "INSERT INTO consolidation_runs (tenant_id, mode, time_horizon, dry_run, trigger, started_at, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued') RETURNING id",
    )
    .bind(tx.tenant_id())
    .bind(mode)
    .bind(horizon)
    .bind(dry_run)
    .bind(trigger)
    .bind(at)
    .fetch_one(tx.conn())
    .await?)
}

/// One run.
pub async fn run(tx: &mut TenantTx, id: Uuid) -> Result<Option<RunRecord>, Error> {
    let sql = format!("SELECT {RUN_COLUMNS} FROM consolidation_runs WHERE tenant_id = $1 AND id = $2");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(id).fetch_optional(tx.conn()).await?)
}

/// Locks a queued run for execution until the transaction ends (a second delivery of its job waits, then
/// finds it finished); None when it is finished or gone.
pub async fn claim_run(tx: &mut TenantTx, id: Uuid) -> Result<Option<RunRecord>, Error> {
    let sql = format!(
        "SELECT {RUN_COLUMNS} FROM consolidation_runs WHERE tenant_id = $1 AND id = $2 AND status = 'queued'
            FOR UPDATE"
    );
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(id).fetch_optional(tx.conn()).await?)
}

/// Finishes a run: `done` with its report, or `failed` with the error. It finished now (or, for a run as of a
/// later time, its duration after that time).
pub async fn finish_run(
    tx: &mut TenantTx,
    id: Uuid,
    outcome: std::result::Result<&Value, &str>,
    duration_secs: f64,
) -> Result<(), Error> {
    let (status, report, error) = match outcome {
        Ok(report) => ("done", Some(report), None),
        Err(error) => ("failed", None, Some(error)),
    };
    // It finished now, or for a run as of a later time its duration after that time. Worked out here, not by
    // the statement: Citus refuses an UPDATE with a clock read or a time computed from a column.
    let started: Option<DateTime<Utc>> =
        sqlx::query_scalar("SELECT started_at FROM consolidation_runs WHERE tenant_id = $1 AND id = $2")
            .bind(tx.tenant_id())
            .bind(id)
            .fetch_optional(tx.conn())
            .await?;
    let ran = chrono::Duration::milliseconds((duration_secs.max(0.0) * 1000.0) as i64);
    let finished = started.map_or_else(Utc::now, |at| Utc::now().max(at + ran));
    sqlx::query(
        "UPDATE consolidation_runs SET status = $3, report = $4, error = $5, finished_at = $6
          WHERE tenant_id = $1 AND id = $2",
    )
    .bind(tx.tenant_id())
    .bind(id)
    .bind(status)
    .bind(report)
    .bind(error)
    .bind(finished)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The latest `limit` runs, newest first.
pub async fn recent_runs(tx: &mut TenantTx, limit: i64) -> Result<Vec<RunRecord>, Error> {
    let sql = format!(
        "SELECT {RUN_COLUMNS} FROM consolidation_runs WHERE tenant_id = $1 ORDER BY started_at DESC, id LIMIT $2"
    );
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(limit).fetch_all(tx.conn()).await?)
}

/// When each mode was last scheduled for the tenant (queued runs count: they are on their way).
pub async fn last_scheduled(tx: &mut TenantTx) -> Result<Vec<(String, DateTime<Utc>)>, Error> {
    Ok(sqlx::query_as(
        "SELECT mode, max(started_at) FROM consolidation_runs
          WHERE tenant_id = $1 AND trigger = 'schedule' AND status <> 'failed' GROUP BY mode",
    )
    .bind(tx.tenant_id())
    .fetch_all(tx.conn())
    .await?)
}

/// Marks a point the transaction can return to (a dry run's changes are undone to it).
pub async fn savepoint(tx: &mut TenantTx) -> Result<(), Error> {
    sqlx::query("SAVEPOINT consolidation_dry_run").execute(tx.conn()).await?;
    Ok(())
}

/// Undoes everything since [`savepoint`].
pub async fn rollback_to_savepoint(tx: &mut TenantTx) -> Result<(), Error> {
    sqlx::query("ROLLBACK TO SAVEPOINT consolidation_dry_run").execute(tx.conn()).await?;
    Ok(())
}
