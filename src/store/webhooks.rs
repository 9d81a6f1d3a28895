//! SQL for webhooks: a tenant's endpoints (`webhook_endpoints`) and the deliveries of its events
//! (`webhook_deliveries`). Memory events become deliveries in the statement that writes them (the trigger on
//! `memory_events`); the others are written here ([`emit`]), in the transaction of what they report.

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::TenantTx;
use crate::error::Error;

/// An endpoint as stored (its secret included: for the service to sign with, never listed).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EndpointRow {
    pub id: Uuid,
    pub url: String,
    pub description: Option<String>,
    pub event_types: Vec<String>,
    pub secret: String,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<DateTime<Utc>>,
    pub retry_at: Option<DateTime<Utc>>,
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const ENDPOINT_COLUMNS: &str =
    "id, url, description, event_types, secret, enabled, disabled_reason, disabled_at, retry_at, created_by, created_at,
    updated_at";

/// One delivery of an event to an endpoint.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryRow {
    pub id: Uuid,
    pub endpoint_id: Uuid,
    pub event_id: Uuid,
    pub event_type: String,
    pub memory_id: Option<Uuid>,
    pub payload: Value,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
    pub last_latency_ms: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
}

const DELIVERY_COLUMNS: &str = "id, endpoint_id, event_id, event_type, memory_id, payload, status, attempts,
    next_attempt_at, last_status_code, last_error, last_latency_ms, created_at, delivered_at";

/// An endpoint to create.
pub struct NewEndpoint<'a> {
    pub url: &'a str,
    pub description: Option<&'a str>,
    pub event_types: &'a [String],
    pub secret: &'a str,
    pub created_by: &'a str,
}

/// Serialises the tenant's endpoint creations until the transaction ends, so the cap on their number holds
/// under concurrent requests (a transaction-scoped advisory lock keyed by the tenant).
pub async fn lock_endpoints(tx: &mut TenantTx) -> Result<(), Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('cairn.webhook_endpoints:' || $1::text, 0))")
        .bind(tx.tenant_id())
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// How many endpoints the tenant has.
pub async fn count_endpoints(tx: &mut TenantTx) -> Result<i64, Error> {
    Ok(sqlx::query_scalar("SELECT count(*) FROM webhook_endpoints WHERE tenant_id = $1")
        .bind(tx.tenant_id())
        .fetch_one(tx.conn())
        .await?)
}

pub async fn insert_endpoint(tx: &mut TenantTx, new: &NewEndpoint<'_>) -> Result<EndpointRow, Error> {
    let sql = format!(
        "INSERT INTO webhook_endpoints (tenant_id, url, description, event_types, secret, created_by)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {ENDPOINT_COLUMNS}"
    );
    Ok(sqlx::query_as(&sql)
        .bind(tx.tenant_id())
        .bind(new.url)
        .bind(new.description)
        .bind(new.event_types)
        .bind(new.secret)
        .bind(new.created_by)
        .fetch_one(tx.conn())
        .await?)
}

/// Every endpoint of the tenant, oldest first (at most `limit`).
pub async fn list_endpoints(tx: &mut TenantTx, limit: i64) -> Result<Vec<EndpointRow>, Error> {
    let sql = format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY created_at, id LIMIT $2"
    );
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(limit).fetch_all(tx.conn()).await?)
}

pub async fn get_endpoint(tx: &mut TenantTx, id: Uuid) -> Result<Option<EndpointRow>, Error> {
    let sql = format!("SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).bind(id).fetch_optional(tx.conn()).await?)
}

/// A change to an endpoint: each field changes only when given.
#[derive(Default)]
pub struct EndpointChange<'a> {
    pub url: Option<&'a str>,
    pub description: Option<Option<&'a str>>,
    pub event_types: Option<&'a [String]>,
    pub enabled: Option<bool>,
    pub secret: Option<&'a str>,
}

/// Applies `change` to the endpoint; enabling it clears why it was disabled. Returns it as it now stands.
pub async fn update_endpoint(
    tx: &mut TenantTx,
    id: Uuid,
    change: &EndpointChange<'_>,
) -> Result<Option<EndpointRow>, Error> {
    let sql = format!(
        "UPDATE webhook_endpoints SET
                url = coalesce($3, url),
                description = CASE WHEN $4 THEN $5 ELSE description END,
                event_types = coalesce($6, event_types),
                enabled = coalesce($7, enabled),
                disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason ELSE NULL END,
                disabled_at = CASE WHEN $7 IS NULL THEN disabled_at WHEN $7 THEN NULL ELSE $9 END,
                retry_at = CASE WHEN $7 THEN NULL ELSE retry_at END,
                secret = coalesce($8, secret),
                updated_at = $9
          WHERE tenant_id = $1 AND id = $2
         RETURNING {ENDPOINT_COLUMNS}"
    );
    Ok(sqlx::query_as(&sql)
        .bind(tx.tenant_id())
        .bind(id)
        .bind(change.url)
        .bind(change.description.is_some())
        .bind(change.description.flatten())
        .bind(change.event_types)
        .bind(change.enabled)
        .bind(change.secret)
        // The time from here, not now() inside a CASE (Citus refuses non-immutable functions there).
        .bind(Utc::now())
        .fetch_optional(tx.conn())
        .await?)
}

/// Deletes the endpoint and its deliveries; whether it existed.
pub async fn delete_endpoint(tx: &mut TenantTx, id: Uuid) -> Result<bool, Error> {
    let deleted = sqlx::query("DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2")
        .bind(tx.tenant_id())
        .bind(id)
        .execute(tx.conn())
        .await?;
    Ok(deleted.rows_affected() > 0)
}

/// The service disables an endpoint, saying why (only if it is still enabled). Whether it did.
pub async fn disable_endpoint(tx: &mut TenantTx, id: Uuid, reason: &str) -> Result<bool, Error> {
    let done = sqlx::query(
        "UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, disabled_at = now(), updated_at = now()
          WHERE tenant_id = $1 AND id = $2 AND enabled",
    )
    .bind(tx.tenant_id())
    .bind(id)
    .bind(reason)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records an event of `event_type` (about `memory_id`, if any) for each enabled endpoint of the tenant that
/// wants it, with `data` as the payload's `data`, and wakes the delivering job. Returns how many deliveries.
pub async fn emit(tx: &mut TenantTx, event_type: &str, memory_id: Option<Uuid>, data: &Value) -> Result<u64, Error> {
    let inserted = sqlx::query(
        "WITH ev AS (SELECT gen_random_uuid() AS id)
         INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, memory_id, payload)
         SELECT $1, e.id, ev.id, $2, $3,
                jsonb_build_object('id', ev.id, 'type', $2::text, 'timestamp', now(), 'data', $4::jsonb)
           FROM webhook_endpoints e, ev
          WHERE e.tenant_id = $1 AND e.enabled AND $2 = ANY (e.event_types)
          ORDER BY e.id
         RETURNING id",
    )
    .bind(tx.tenant_id())
    .bind(event_type)
    .bind(memory_id)
    .bind(data)
    // (RETURNING for Citus: without one it writes an INSERT ... SELECT by COPY, which row-level security refuses.)
    .fetch_all(tx.conn())
    .await?
    .len() as u64;
    if inserted > 0 {
        wake(tx, Utc::now()).await?;
    }
    Ok(inserted)
}

/// [`emit`] of one event per memory (`data` of each: its id and `extra`'s fields), in one statement.
pub async fn emit_memories(
    tx: &mut TenantTx,
    event_type: &str,
    memory_ids: &[Uuid],
    extra: &Value,
) -> Result<u64, Error> {
    if memory_ids.is_empty() {
        return Ok(0);
    }
    let inserted = sqlx::query(
        "WITH ev AS (SELECT m, gen_random_uuid() AS id, ord FROM unnest($3::uuid[]) WITH ORDINALITY AS x(m, ord))
         INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, memory_id, payload)
         SELECT $1, e.id, ev.id, $2, ev.m,
                jsonb_build_object('id', ev.id, 'type', $2::text, 'timestamp', now(),
                                   'data', jsonb_build_object('memory_id', ev.m) || $4::jsonb)
           FROM ev JOIN webhook_endpoints e ON e.tenant_id = $1 AND e.enabled AND $2 = ANY (e.event_types)
          ORDER BY ev.ord, e.id
         RETURNING id",
    )
    .bind(tx.tenant_id())
    .bind(event_type)
    .bind(memory_ids)
    .bind(extra)
    .fetch_all(tx.conn())
    .await?
    .len() as u64;
    if inserted > 0 {
        wake(tx, Utc::now()).await?;
    }
    Ok(inserted)
}

/// Wakes the tenant's delivering job at `at` (unless one is due by then already).
pub async fn wake(tx: &mut TenantTx, at: DateTime<Utc>) -> Result<(), Error> {
    sqlx::query("SELECT cairn_wake_webhooks($1)").bind(at).execute(tx.conn()).await?;
    Ok(())
}

/// Whether the tenant has an enabled endpoint (so that events are worth building).
pub async fn any_enabled(tx: &mut TenantTx) -> Result<bool, Error> {
    Ok(sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE tenant_id = $1 AND enabled)")
        .bind(tx.tenant_id())
        .fetch_one(tx.conn())
        .await?)
}

/// Takes up to `limit` deliveries due now to enabled endpoints, oldest first, for `lease`: none that another
/// job holds, and none whose memory has an earlier delivery to the same endpoint still pending (so one
/// memory's events reach an endpoint in order).
pub async fn take_due(tx: &mut TenantTx, limit: i64, lease: std::time::Duration) -> Result<Vec<DeliveryRow>, Error> {
    let sql = "WITH due AS (
             SELECT d.id AS due_id FROM webhook_deliveries d
               JOIN webhook_endpoints e ON e.tenant_id = d.tenant_id AND e.id = d.endpoint_id AND e.enabled
                                       AND (e.retry_at IS NULL OR e.retry_at <= now())
              WHERE d.tenant_id = $1 AND d.status = 'pending' AND d.next_attempt_at <= now()
                AND (d.leased_until IS NULL OR d.leased_until < now())
                AND NOT EXISTS (
                    SELECT 1 FROM webhook_deliveries p
                     WHERE p.tenant_id = d.tenant_id AND p.endpoint_id = d.endpoint_id AND p.memory_id = d.memory_id
                       AND p.status = 'pending' AND (p.created_at, p.id) < (d.created_at, d.id))
              ORDER BY d.created_at, d.id LIMIT $2
                FOR UPDATE OF d SKIP LOCKED)
         UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => $3)
           FROM due WHERE d.tenant_id = $1 AND d.id = due.due_id
         RETURNING d.*";
    let mut rows: Vec<DeliveryRow> =
        sqlx::query_as(sql).bind(tx.tenant_id()).bind(limit).bind(lease.as_secs_f64()).fetch_all(tx.conn()).await?;
    rows.sort_by_key(|r| (r.created_at, r.id));
    Ok(rows)
}

/// What one attempt came to.
pub struct Attempt<'a> {
    pub status_code: Option<i32>,
    pub error: Option<&'a str>,
    pub latency_ms: i32,
    /// `delivered`, `failed` (given up) or `pending` (to retry at `next_attempt_at`).
    pub status: &'a str,
    pub next_attempt_at: DateTime<Utc>,
}

/// Records an attempt of a delivery and releases it; its endpoint takes nothing more before a failed
/// delivery's retry (and is free again after a success).
pub async fn record_attempt(
    tx: &mut TenantTx,
    endpoint_id: Uuid,
    id: Uuid,
    attempt: &Attempt<'_>,
) -> Result<(), Error> {
    sqlx::query(
        "UPDATE webhook_endpoints SET retry_at = CASE WHEN $3 = 'pending' THEN $4 END
          WHERE tenant_id = $1 AND id = $2 AND retry_at IS DISTINCT FROM CASE WHEN $3 = 'pending' THEN $4 END",
    )
    .bind(tx.tenant_id())
    .bind(endpoint_id)
    .bind(attempt.status)
    .bind(attempt.next_attempt_at)
    .execute(tx.conn())
    .await?;
    sqlx::query(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, leased_until = NULL, status = $3,
                last_status_code = $4, last_error = $5, last_latency_ms = $6, next_attempt_at = $7,
                delivered_at = CASE WHEN $3 = 'delivered' THEN $8 END
          WHERE tenant_id = $1 AND id = $2",
    )
    .bind(tx.tenant_id())
    .bind(id)
    .bind(attempt.status)
    .bind(attempt.status_code)
    .bind(attempt.error)
    .bind(attempt.latency_ms)
    .bind(attempt.next_attempt_at)
    .bind(Utc::now())
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Releases deliveries taken and not attempted (their endpoint failed earlier in the pass).
pub async fn release(tx: &mut TenantTx, ids: &[Uuid]) -> Result<(), Error> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query("UPDATE webhook_deliveries SET leased_until = NULL WHERE tenant_id = $1 AND id = ANY($2)")
        .bind(tx.tenant_id())
        .bind(ids)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// When the tenant's next pending delivery to an enabled endpoint falls due (or a taken one's lease ends).
pub async fn next_due(tx: &mut TenantTx) -> Result<Option<DateTime<Utc>>, Error> {
    Ok(sqlx::query_scalar(
        "SELECT min(greatest(d.next_attempt_at, d.leased_until, e.retry_at))
           FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.tenant_id = d.tenant_id AND e.id = d.endpoint_id AND e.enabled
          WHERE d.tenant_id = $1 AND d.status = 'pending'",
    )
    .bind(tx.tenant_id())
    .fetch_one(tx.conn())
    .await?)
}

/// The enabled endpoints whose pending deliveries number more than `cap`.
pub async fn over_backlog(tx: &mut TenantTx, cap: i64) -> Result<Vec<(Uuid, i64)>, Error> {
    Ok(sqlx::query_as(
        "SELECT e.id, (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d
                         WHERE d.tenant_id = e.tenant_id AND d.endpoint_id = e.id AND d.status = 'pending'
                         LIMIT $2 + 1) x) AS pending
           FROM webhook_endpoints e WHERE e.tenant_id = $1 AND e.enabled",
    )
    .bind(tx.tenant_id())
    .bind(cap)
    .fetch_all(tx.conn())
    .await?
    .into_iter()
    .filter(|(_, pending): &(Uuid, i64)| *pending > cap)
    .collect())
}

/// A page of an endpoint's deliveries, newest first (of one status when given), and how many there are.
pub async fn list_deliveries(
    tx: &mut TenantTx,
    endpoint_id: Uuid,
    status: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<DeliveryRow>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries
          WHERE tenant_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)
          ORDER BY created_at DESC, id LIMIT $4 OFFSET $5"
    );
    let rows = sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(endpoint_id)
        .bind(status)
        .bind(limit)
        .bind(offset)
        .fetch_all(tx.conn())
        .await?;
    let total = sqlx::query_scalar(
        "SELECT count(*) FROM webhook_deliveries
          WHERE tenant_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)",
    )
    .bind(tenant_id)
    .bind(endpoint_id)
    .bind(status)
    .fetch_one(tx.conn())
    .await?;
    Ok((rows, total))
}

/// Queues the delivery `id` of the endpoint again: a new delivery of the same event (same event id and
/// payload), due now. Returns it.
pub async fn redeliver(tx: &mut TenantTx, endpoint_id: Uuid, id: Uuid) -> Result<Option<DeliveryRow>, Error> {
    let sql = format!(
        "INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, memory_id, payload)
         SELECT tenant_id, endpoint_id, event_id, event_type, memory_id, payload FROM webhook_deliveries
          WHERE tenant_id = $1 AND endpoint_id = $2 AND id = $3
         RETURNING {DELIVERY_COLUMNS}"
    );
    let row: Option<DeliveryRow> =
        sqlx::query_as(&sql).bind(tx.tenant_id()).bind(endpoint_id).bind(id).fetch_optional(tx.conn()).await?;
    if row.is_some() {
        wake(tx, Utc::now()).await?;
    }
    Ok(row)
}

/// Forgets deliveries done (delivered or given up) before `before`, at most `limit`; how many.
pub async fn prune(tx: &mut TenantTx, before: DateTime<Utc>, limit: i64) -> Result<u64, Error> {
    Ok(sqlx::query(
        "DELETE FROM webhook_deliveries WHERE tenant_id = $1 AND id IN (
             SELECT id FROM webhook_deliveries WHERE tenant_id = $1 AND status <> 'pending' AND created_at < $2
              LIMIT $3)",
    )
    .bind(tx.tenant_id())
    .bind(before)
    .bind(limit)
    .execute(tx.conn())
    .await?
    .rows_affected())
}
