//! SQL for usage: daily counters per tenant (`usage_daily`), the daily budgets spent from them, and what a
//! tenant stores now (`tenant_usage`, maintained by triggers on `memories`).

use chrono::NaiveDate;
use sqlx::PgPool;
use uuid::Uuid;

use super::TenantTx;
use crate::error::Error;

/// Adds counts to the daily counters, in one statement.
pub async fn add(pool: &PgPool, rows: &[(Uuid, NaiveDate, &str, i64)]) -> Result<(), Error> {
    if rows.is_empty() {
        return Ok(());
    }
    // In key order, so two instances flushing at once take their row locks in the same order.
    let mut rows = rows.to_vec();
    rows.sort_unstable_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    let tenants: Vec<Uuid> = rows.iter().map(|r| r.0).collect();
    let days: Vec<NaiveDate> = rows.iter().map(|r| r.1).collect();
    let counters: Vec<&str> = rows.iter().map(|r| r.2).collect();
    let values: Vec<i64> = rows.iter().map(|r| r.3).collect();
    // A tenant deleted since the counts were taken has no row to count against: its counts are dropped.
    sqlx::query(
        "INSERT INTO usage_daily AS u (tenant_id, day, counter, value)
         SELECT r.tenant_id, r.day, r.counter, r.value
         FROM unnest($1::uuid[], $2::date[], $3::text[], $4::bigint[]) AS r (tenant_id, day, counter, value)
         WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = r.tenant_id)
         ON CONFLICT (tenant_id, day, counter) DO UPDATE SET value = u.value + excluded.value",
    )
    .bind(tenants)
    .bind(days)
    .bind(counters)
    .bind(values)
    .execute(pool)
    .await?;
    Ok(())
}

/// Spends `n` of a daily budget if it stays within `limit`: the counter after spending, or None (nothing
/// spent) when it would go over. Atomic: concurrent spenders never overshoot.
pub async fn spend(
    pool: &PgPool,
    tenant_id: Uuid,
    day: NaiveDate,
    counter: &str,
    n: i64,
    limit: i64,
) -> Result<Option<i64>, Error> {
    if n > limit {
        return Ok(None);
    }
    Ok(sqlx::query_scalar(
        "INSERT INTO usage_daily AS u (tenant_id, day, counter, value) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, day, counter) DO UPDATE SET value = u.value + excluded.value
             WHERE u.value + excluded.value <= $5
         RETURNING value",
    )
    .bind(tenant_id)
    .bind(day)
    .bind(counter)
    .bind(n)
    .bind(limit)
    .fetch_optional(pool)
    .await?)
}

/// A tenant's counters per day in `[from, to]`.
pub async fn daily(
    pool: &PgPool,
    tenant_id: Uuid,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<(NaiveDate, String, i64)>, Error> {
    Ok(sqlx::query_as(
        "SELECT day, counter, value FROM usage_daily WHERE tenant_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, counter",
    )
    .bind(tenant_id)
    .bind(from)
    .bind(to)
    .fetch_all(pool)
    .await?)
}

/// What a tenant stores now: memories and bytes of content and metadata (rolled-up totals and pending
/// deltas).
pub async fn stored(pool: &PgPool, tenant_id: Uuid) -> Result<(i64, i64), Error> {
    Ok(sqlx::query_as(
        "SELECT coalesce((SELECT memories FROM tenant_usage WHERE tenant_id = $1), 0)
                  + coalesce((SELECT sum(memories) FROM tenant_usage_delta WHERE tenant_id = $1), 0)::bigint,
                coalesce((SELECT storage_bytes FROM tenant_usage WHERE tenant_id = $1), 0)
                  + coalesce((SELECT sum(storage_bytes) FROM tenant_usage_delta WHERE tenant_id = $1), 0)::bigint",
    )
    .bind(tenant_id)
    .fetch_one(pool)
    .await?)
}

/// Folds the pending storage deltas of every tenant into their totals; returns how many were folded.
pub async fn rollup(pool: &PgPool) -> Result<i64, Error> {
    Ok(sqlx::query_scalar("SELECT cairn_rollup_usage()").fetch_one(pool).await?)
}

/// What the transaction's tenant stores, counting this transaction's own writes so far. Takes the tenant's
/// quota lock until the transaction ends, so two writers cannot both pass a check the pair of them breaks
/// (the lock is taken just before commit: it serialises commits of quota-checked writes, not the writes).
pub async fn stored_in(tx: &mut TenantTx) -> Result<(i64, i64), Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended(current_setting('app.tenant_id', true), 11))")
        .execute(tx.conn())
        .await?;
    Ok(sqlx::query_as("SELECT memories, storage_bytes FROM cairn_tenant_usage()")
        .fetch_optional(tx.conn())
        .await?
        .unwrap_or((0, 0)))
}

/// The bytes one memory counts for its end user: its content and metadata.
const END_USER_BYTES: &str = "octet_length(content) + coalesce(octet_length(metadata::text), 0)";

/// One end user's (or agent's) share of what a tenant stores, and of its requests in a window.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct EndUserRow {
    /// The `user_id` (or `agent_id`); None for the memories without one.
    pub end_user: Option<String>,
    pub memories: i64,
    /// Bytes of the memories' content and metadata.
    pub storage_bytes: i64,
    /// Memories stored from `from` (inclusive) to `to` (exclusive).
    pub stored_in_window: i64,
    pub last_stored_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Requests that stored, listed or recalled for it in the window's days (metered).
    #[sqlx(default)]
    pub requests: i64,
    /// Recalls for it in the window's days (metered).
    #[sqlx(default)]
    pub recalls: i64,
}

/// The aggregates of [`EndUserRow`] over memories, `$2`..`$3` being the window.
fn held_aggregates() -> String {
    format!(
        "count(*) AS memories, coalesce(sum({END_USER_BYTES}), 0)::bigint AS storage_bytes,
         count(*) FILTER (WHERE created_at >= $2 AND created_at < $3) AS stored_in_window,
         max(created_at) AS last_stored_at"
    )
}

/// What the tenant stores per end user: grouped by `column` (`user_id` or `agent_id`, never input), most
/// memories first, a page of `limit` from `offset`, and how many end users there are. Requests are not filled
/// in ([`end_user_calls`] has them).
pub async fn end_users(
    tx: &mut TenantTx,
    column: &'static str,
    from: chrono::DateTime<chrono::Utc>,
    to: chrono::DateTime<chrono::Utc>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<EndUserRow>, i64), Error> {
    debug_assert!(matches!(column, "user_id" | "agent_id"));
    let tenant_id = tx.tenant_id();
    let aggregates = held_aggregates();
    let rows = sqlx::query_as(&format!(
        "SELECT {column} AS end_user, {aggregates} FROM memories WHERE tenant_id = $1 AND {column} IS NOT NULL
          GROUP BY {column} ORDER BY memories DESC, end_user LIMIT $4 OFFSET $5"
    ))
    .bind(tenant_id)
    .bind(from)
    .bind(to)
    .bind(limit)
    .bind(offset)
    .fetch_all(tx.conn())
    .await?;
    let total = sqlx::query_scalar(&format!(
        "SELECT count(DISTINCT {column}) FROM memories WHERE tenant_id = $1 AND {column} IS NOT NULL"
    ))
    .bind(tenant_id)
    .fetch_one(tx.conn())
    .await?;
    Ok((rows, total))
}

/// What the memories without an end user (`column` = `user_id` or `agent_id`, never input) hold: a row with no
/// `end_user`.
pub async fn unattributed(
    tx: &mut TenantTx,
    column: &'static str,
    from: chrono::DateTime<chrono::Utc>,
    to: chrono::DateTime<chrono::Utc>,
) -> Result<EndUserRow, Error> {
    debug_assert!(matches!(column, "user_id" | "agent_id"));
    let aggregates = held_aggregates();
    Ok(sqlx::query_as(&format!(
        "SELECT NULL::text AS end_user, {aggregates} FROM memories WHERE tenant_id = $1 AND {column} IS NULL"
    ))
    .bind(tx.tenant_id())
    .bind(from)
    .bind(to)
    .fetch_one(tx.conn())
    .await?)
}

/// What the named end users (`column` = `user_id` or `agent_id`, never input) store: one row for each that
/// holds a memory.
pub async fn end_users_held(
    tx: &mut TenantTx,
    column: &'static str,
    names: &[String],
    from: chrono::DateTime<chrono::Utc>,
    to: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<EndUserRow>, Error> {
    debug_assert!(matches!(column, "user_id" | "agent_id"));
    let aggregates = held_aggregates();
    Ok(sqlx::query_as(&format!(
        "SELECT {column} AS end_user, {aggregates} FROM memories WHERE tenant_id = $1 AND {column} = ANY($4)
          GROUP BY {column}"
    ))
    .bind(tx.tenant_id())
    .bind(from)
    .bind(to)
    .bind(names)
    .fetch_all(tx.conn())
    .await?)
}

/// One end user's counter on one day, to add ([`add_end_users`]).
#[derive(Debug, Clone)]
pub struct EndUserCount<'a> {
    pub tenant_id: Uuid,
    pub day: NaiveDate,
    /// `user_id` or `agent_id`.
    pub kind: &'a str,
    pub end_user: &'a str,
    pub counter: &'a str,
    pub value: i64,
}

/// Adds counts to the end users' daily counters, in one statement.
pub async fn add_end_users(pool: &PgPool, rows: &[EndUserCount<'_>]) -> Result<(), Error> {
    if rows.is_empty() {
        return Ok(());
    }
    // In key order, so two instances flushing at once take their row locks in the same order.
    let mut rows = rows.to_vec();
    rows.sort_unstable_by(|a, b| {
        (a.tenant_id, a.kind, a.day, a.end_user, a.counter).cmp(&(b.tenant_id, b.kind, b.day, b.end_user, b.counter))
    });
    let tenants: Vec<Uuid> = rows.iter().map(|r| r.tenant_id).collect();
    let days: Vec<NaiveDate> = rows.iter().map(|r| r.day).collect();
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind).collect();
    let end_users: Vec<&str> = rows.iter().map(|r| r.end_user).collect();
    let counters: Vec<&str> = rows.iter().map(|r| r.counter).collect();
    let values: Vec<i64> = rows.iter().map(|r| r.value).collect();
    // A tenant deleted since the counts were taken has no row to count against: its counts are dropped.
    sqlx::query(
        "INSERT INTO usage_daily_end_users AS u (tenant_id, day, kind, end_user, counter, value)
         SELECT r.tenant_id, r.day, r.kind, r.end_user, r.counter, r.value
         FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::text[], $6::bigint[])
              AS r (tenant_id, day, kind, end_user, counter, value)
         WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = r.tenant_id)
         ON CONFLICT (tenant_id, kind, day, end_user, counter) DO UPDATE SET value = u.value + excluded.value",
    )
    .bind(tenants)
    .bind(days)
    .bind(kinds)
    .bind(end_users)
    .bind(counters)
    .bind(values)
    .execute(pool)
    .await?;
    Ok(())
}

/// Deletes up to `limit` per-end-user counts of days before `before`; how many.
pub async fn prune_end_users(pool: &PgPool, before: NaiveDate, limit: i64) -> Result<u64, Error> {
    Ok(sqlx::query(
        "DELETE FROM usage_daily_end_users WHERE ctid IN
           (SELECT ctid FROM usage_daily_end_users WHERE day < $1 LIMIT $2)",
    )
    .bind(before)
    .bind(limit)
    .execute(pool)
    .await?
    .rows_affected())
}

/// An end user's metered requests and recalls in a window.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EndUserCalls {
    pub end_user: String,
    pub requests: i64,
    pub recalls: i64,
}

/// The end users (`kind` = `user_id` or `agent_id`) of `tenant_id` that made requests on the UTC days
/// `from..=to`, with their requests and recalls: those named in `only` (all on one page), or else the most
/// requests first, a page of `limit` from `offset`, and how many there are.
#[allow(clippy::too_many_arguments)]
pub async fn end_user_calls(
    pool: &PgPool,
    tenant_id: Uuid,
    kind: &str,
    from: NaiveDate,
    to: NaiveDate,
    only: Option<&[String]>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<EndUserCalls>, i64), Error> {
    let filter =
        "tenant_id = $1 AND kind = $2 AND day BETWEEN $3 AND $4 AND ($5::text[] IS NULL OR end_user = ANY($5))";
    let rows = sqlx::query_as(&format!(
        "SELECT end_user, coalesce(sum(value) FILTER (WHERE counter = 'requests'), 0)::bigint AS requests,
                coalesce(sum(value) FILTER (WHERE counter = 'recalls'), 0)::bigint AS recalls
           FROM usage_daily_end_users WHERE {filter}
          GROUP BY end_user ORDER BY requests DESC, end_user LIMIT $6 OFFSET $7"
    ))
    .bind(tenant_id)
    .bind(kind)
    .bind(from)
    .bind(to)
    .bind(only)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total =
        sqlx::query_scalar(&format!("SELECT count(DISTINCT end_user) FROM usage_daily_end_users WHERE {filter}"))
            .bind(tenant_id)
            .bind(kind)
            .bind(from)
            .bind(to)
            .bind(only)
            .fetch_one(pool)
            .await?;
    Ok((rows, total))
}

/// The end users (`column` = `user_id` or `agent_id`, never input) of the memories `ids` that hold more than
/// `max_memories` memories or more than `max_bytes` bytes of content and metadata, with how many memories and
/// bytes, after serialising this tenant's writes for each of them until the transaction ends (a
/// transaction-scoped advisory lock per end user, taken in order).
pub async fn end_users_over(
    tx: &mut TenantTx,
    column: &'static str,
    ids: &[uuid::Uuid],
    max_memories: i64,
    max_bytes: i64,
) -> Result<Vec<(String, i64, i64)>, Error> {
    debug_assert!(matches!(column, "user_id" | "agent_id"));
    let tenant_id = tx.tenant_id();
    let owners: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT DISTINCT {column} FROM memories WHERE tenant_id = $1 AND id = ANY($2) AND {column} IS NOT NULL
          ORDER BY 1"
    ))
    .bind(tenant_id)
    .bind(ids)
    .fetch_all(tx.conn())
    .await?;
    if owners.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query(
        "SELECT pg_advisory_xact_lock(hashtextextended('cairn.end_user:' || $1::text || ':' || $2 || ':' || o, 0))
           FROM unnest($3::text[]) WITH ORDINALITY AS x(o, n) ORDER BY n",
    )
    .bind(tenant_id)
    .bind(column)
    .bind(&owners)
    .execute(tx.conn())
    .await?;
    // The bytes are summed only when a byte cap is set (they read every memory of the end user; a count alone
    // can be answered from an index).
    let (bytes, over_bytes) = match max_bytes < i64::MAX {
        true => (format!("sum({END_USER_BYTES})::bigint"), format!(" OR sum({END_USER_BYTES}) > $4")),
        false => ("0::bigint".to_owned(), String::new()),
    };
    // The cap counts every memory of the end user, also those outside a scoped key's scope (other agents or
    // tags of the same end user), which row-level security hides from its transaction: the scope is lifted
    // for this one statement. (Only the verdict reaches a scoped key: the refusal names no count.)
    let scope: Option<String> = match tx.is_scoped() {
        true => Some(sqlx::query_scalar("SELECT current_setting('app.scope', true)").fetch_one(tx.conn()).await?),
        false => None,
    };
    if scope.is_some() {
        sqlx::query("SELECT set_config('app.scope', '', true)").execute(tx.conn()).await?;
    }
    let over = sqlx::query_as(&format!(
        "SELECT {column}, count(*), {bytes}
           FROM memories WHERE tenant_id = $1 AND {column} = ANY($2)
          GROUP BY {column}
         HAVING count(*) > $3{over_bytes}
          ORDER BY 1"
    ))
    .bind(tenant_id)
    .bind(&owners)
    .bind(max_memories)
    .bind(max_bytes)
    .fetch_all(tx.conn())
    .await?;
    if let Some(scope) = scope {
        sqlx::query("SELECT set_config('app.scope', $1, true)").bind(scope).execute(tx.conn()).await?;
    }
    Ok(over)
}
