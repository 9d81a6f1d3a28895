//! Expiry of short-term memories (remem): when a short-term memory's TTL has elapsed it is promoted to
//! long-term if it was accessed at least [`PROMOTION_ACCESS_COUNT`] times, and archived otherwise.
//! Nothing is deleted. Idempotent: a memory is handled once, since both outcomes take it out of the set.

use chrono::{DateTime, Utc};

use crate::error::ApiError;
use crate::store::{events, tenants, Db};

/// Accesses at or above which an expiring short-term memory is kept as long-term.
pub const PROMOTION_ACCESS_COUNT: i64 = 3;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ExpireReport {
    pub promoted: u64,
    pub archived: u64,
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

/// One pass over every tenant, as of `now` (injectable so tests need not wait).
pub async fn run_once(db: &Db, now: DateTime<Utc>) -> Result<ExpireReport, ApiError> {
    let mut report = ExpireReport::default();
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let mut tx = db.begin_tenant(tenant_id).await?;
        let sql = EXPIRE_SQL.replace("{snapshot}", events::SNAPSHOT);
        let outcomes: Vec<String> = sqlx::query_scalar(&sql)
            .bind(tenant_id)
            .bind(now)
            .bind(PROMOTION_ACCESS_COUNT)
            .fetch_all(tx.conn())
            .await?;
        tx.commit().await?;
        for outcome in outcomes {
            if outcome == "promoted" {
                report.promoted += 1;
            } else {
                report.archived += 1;
            }
        }
    }
    Ok(report)
}
