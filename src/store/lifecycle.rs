//! SQL for the lifecycle (remem's rules): importance decay, active forgetting, retention, and the manual
//! promote and restore. Every change writes its memory_events row in the same statement.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::memories::MEMORY_COLUMNS;
use super::{events, TenantTx};
use crate::error::Error;
use crate::memory::Memory;

/// Daily factor of long-term importance decay.
pub const DECAY_PER_DAY: f64 = 0.995;
/// Importance never decays below this share of its base.
pub const DECAY_FLOOR: f64 = 0.3;
/// Health lost per day without reinforcement (remem), by lifecycle class; health starts at 100.
pub const SHORT_TERM_HEALTH_PER_DAY: f64 = 8.0;
pub const LONG_TERM_HEALTH_PER_DAY: f64 = 2.0;
/// Memories at or above this importance are never forgotten.
pub const FORGET_IMPORTANCE_GUARD: f64 = 0.7;
/// Types never forgotten.
pub const NEVER_FORGOTTEN_TYPES: &[&str] = &["Decision", "Insight"];

/// Since when a memory has been decaying: its last decay, else its creation — but never during flashbulb
/// protection (`$2` is now).
const DECAY_CLOCK: &str =
    "greatest(coalesce(decayed_at, created_at), least(coalesce(flashbulb_until, '-infinity'), $2))";

/// Decays the importance of the tenant's long-term memories as of `now`: × 0.995 per day since each last
/// decayed (at most once a day), skipping flashbulb-protected and archived memories, never below 30% of
/// the importance they were given. Returns how many changed.
pub async fn decay_importance(tx: &mut TenantTx, now: DateTime<Utc>) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH due AS (
            SELECT id, importance AS before,
                   greatest(base_importance * $4,
                            importance * power($3, extract(epoch FROM ($2 - {DECAY_CLOCK})) / 86400.0))::real AS after
              FROM memories
             WHERE tenant_id = $1 AND memory_type = 'long_term' AND archived_at IS NULL
               AND (flashbulb_until IS NULL OR flashbulb_until <= $2)
               AND {DECAY_CLOCK} <= $2 - interval '1 day'
               AND importance > base_importance * $4
             FOR UPDATE SKIP LOCKED
        ), upd AS (
            UPDATE memories m SET importance = due.after, decayed_at = $2
              FROM due WHERE m.tenant_id = $1 AND m.id = due.id
            RETURNING m.id, due.before, due.after
        )
        INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after)
        SELECT $1, id, 'decayed', 'system:decay', jsonb_build_object('importance', before),
               jsonb_build_object('importance', after) FROM upd RETURNING id"
    );
    let done =
        sqlx::query(&sql).bind(tenant_id).bind(now).bind(DECAY_PER_DAY).bind(DECAY_FLOOR).execute(tx.conn()).await?;
    Ok(done.rows_affected())
}

/// Active forgetting as of `now`: archives the tenant's memories whose health (100, minus 8 a day for
/// short-term and 2 a day for long-term memories since their last access or creation) reached 0 —
/// except flashbulb-protected ones, those of importance ≥ 0.7 (as given: decay does not erode the
/// guard, the failure of AutoMem's issue #78), Decisions and Insights, and those younger than
/// `grace_days`. Returns how many were archived.
pub async fn forget(tx: &mut TenantTx, now: DateTime<Utc>, grace_days: i32) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH due AS (
            SELECT id FROM memories
             WHERE tenant_id = $1 AND archived_at IS NULL
               AND (flashbulb_until IS NULL OR flashbulb_until <= $2)
               AND greatest(importance, base_importance) < $4 AND NOT (type = ANY($5))
               AND created_at <= $2 - make_interval(days => $3)
               AND 100 - (CASE memory_type WHEN 'short_term' THEN $6 ELSE $7 END)
                         * extract(epoch FROM ($2 - coalesce(last_accessed_at, created_at))) / 86400.0 <= 0
             FOR UPDATE SKIP LOCKED
        ), upd AS (
            UPDATE memories m SET archived_at = $2 FROM due WHERE m.tenant_id = $1 AND m.id = due.id RETURNING m.*
        )
        INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, after)
        SELECT tenant_id, id, 'forgotten', 'system:forget', {} FROM upd m RETURNING id",
        events::SNAPSHOT
    );
    let never: Vec<String> = NEVER_FORGOTTEN_TYPES.iter().map(|t| t.to_string()).collect();
    let done = sqlx::query(&sql)
        .bind(tenant_id)
        .bind(now)
        .bind(grace_days)
        .bind(FORGET_IMPORTANCE_GUARD as f32)
        .bind(&never)
        .bind(SHORT_TERM_HEALTH_PER_DAY)
        .bind(LONG_TERM_HEALTH_PER_DAY)
        .execute(tx.conn())
        .await?;
    Ok(done.rows_affected())
}

/// Takes the episode locks of the memories [`purge_archived`] would delete (store::memories::lock_episodes).
pub async fn lock_purge_episodes(tx: &mut TenantTx, now: DateTime<Utc>, days: i32) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    sqlx::query(&super::memories::episode_locks(
        "SELECT episode_id FROM memories WHERE tenant_id = $1 AND archived_at <= $2 - make_interval(days => $3)",
    ))
    .bind(tenant_id)
    .bind(now)
    .bind(days)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Deletes the tenant's memories archived at least `days` before `now` (retention; off unless set).
pub async fn purge_archived(tx: &mut TenantTx, now: DateTime<Utc>, days: i32) -> Result<u64, Error> {
    tx.note_memory_writes();
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH d AS (
            DELETE FROM memories WHERE tenant_id = $1 AND archived_at <= $2 - make_interval(days => $4) RETURNING *
        ) {}",
        events::record_deleted_from_d()
    );
    let done =
        sqlx::query(&sql).bind(tenant_id).bind(now).bind("system:retention").bind(days).execute(tx.conn()).await?;
    Ok(done.rows_affected())
}

/// Applies `set` (SQL assignments) to one memory when `condition` holds, recording `event` by `actor`;
/// returns the memory as it is afterwards (changed or not), None when the tenant has no such memory.
async fn change(
    tx: &mut TenantTx,
    id: Uuid,
    set: &str,
    condition: &str,
    event: &str,
    actor: &str,
) -> Result<Option<Memory>, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH old AS MATERIALIZED (SELECT {snapshot} AS snap FROM memories m WHERE tenant_id = $1 AND id = $2 FOR UPDATE),
         upd AS (UPDATE memories SET {set} WHERE tenant_id = $1 AND id = $2 AND ({condition}) RETURNING *),
         ev AS (INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after)
                SELECT m.tenant_id, m.id, $3, $4, (SELECT snap FROM old), {snapshot} FROM upd m RETURNING id)
         SELECT {MEMORY_COLUMNS} FROM upd",
        snapshot = events::SNAPSHOT
    );
    let changed: Option<Memory> =
        sqlx::query_as(&sql).bind(tenant_id).bind(id).bind(event).bind(actor).fetch_optional(tx.conn()).await?;
    match changed {
        Some(m) => Ok(Some(m)),
        None => super::memories::get(tx, id, true).await,
    }
}

/// Promotes a short-term memory to long-term by hand (bringing it back if expiry had archived it).
pub async fn promote(tx: &mut TenantTx, id: Uuid, actor: &str) -> Result<Option<Memory>, Error> {
    change(
        tx,
        id,
        "memory_type = 'long_term', ttl_seconds = NULL, expires_at = NULL, archived_at = NULL, decayed_at = now()",
        "memory_type = 'short_term'",
        "promoted",
        actor,
    )
    .await
}

/// Archives a memory by hand (a soft delete): it leaves default recall and listings, keeps its relations,
/// and can be restored. Recorded as an `archived` event.
pub async fn archive(tx: &mut TenantTx, id: Uuid, actor: &str) -> Result<Option<Memory>, Error> {
    change(tx, id, "archived_at = now()", "archived_at IS NULL", "archived", actor).await
}

/// Restores an archived memory. A short-term memory comes back as long-term (restoring says "keep this",
/// and expiry would otherwise archive it again); the restore counts as an access, so forgetting starts
/// over.
pub async fn restore(tx: &mut TenantTx, id: Uuid, actor: &str) -> Result<Option<Memory>, Error> {
    change(
        tx,
        id,
        "archived_at = NULL, last_accessed_at = now(), memory_type = 'long_term', ttl_seconds = NULL,
         expires_at = NULL, decayed_at = now()",
        "archived_at IS NOT NULL",
        "restored",
        actor,
    )
    .await
}

/// `$1` tenant, `$2` now, `$3` the promotion threshold; `{snapshot}` is the audit trail's row snapshot.
const EXPIRE_SQL: &str = "
WITH due AS (
    SELECT id, access_count >= $3 AS promote FROM memories
    WHERE tenant_id = $1 AND memory_type = 'short_term' AND archived_at IS NULL AND expires_at <= $2
    FOR UPDATE SKIP LOCKED
), promoted AS (
    UPDATE memories m SET memory_type = 'long_term', ttl_seconds = NULL, expires_at = NULL, updated_at = now(),
        decayed_at = $2
    FROM due WHERE m.tenant_id = $1 AND m.id = due.id AND due.promote
    RETURNING m.*
), archived AS (
    UPDATE memories m SET archived_at = $2, updated_at = now()
    FROM due WHERE m.tenant_id = $1 AND m.id = due.id AND NOT due.promote
    RETURNING m.*
)
INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, after)
SELECT tenant_id, id, 'promoted', 'system:expire', {snapshot} FROM promoted m
UNION ALL
SELECT tenant_id, id, 'archived', 'system:expire', {snapshot} FROM archived m
RETURNING event_type";

/// Expiry as of `now`: each expired short-term memory becomes long-term if it was accessed at least
/// `promote_at` times, else it is archived; one event each. Returns each outcome (`promoted` or
/// `archived`).
pub async fn expire(tx: &mut TenantTx, now: DateTime<Utc>, promote_at: i64) -> Result<Vec<String>, Error> {
    let sql = EXPIRE_SQL.replace("{snapshot}", events::SNAPSHOT);
    Ok(sqlx::query_scalar(&sql).bind(tx.tenant_id()).bind(now).bind(promote_at).fetch_all(tx.conn()).await?)
}
