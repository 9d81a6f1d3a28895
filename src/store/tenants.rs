//! SQL for the control plane: `tenants`, `plans` and `api_keys`, and the `cairn_auth` announcements of their
//! changes. These tables are not under RLS and are reached through the owner pool only.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use sqlx::postgres::PgListener;
use sqlx::types::Json;

use super::Local;
use crate::error::Error;
use crate::memory::TenantSettings;
use crate::tenancy::{ApiKeyInfo, LimitOverrides, NewKey, TenantAccess, TenantInfo, TenantStatus};

/// What authentication needs of a key.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyRecord {
    pub id: Uuid,
    pub tenant_id: Uuid,
    pub key_hash: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub rate_limit_per_second: Option<i32>,
    pub scope_user_ids: Option<Vec<String>>,
    pub scope_agent_ids: Option<Vec<String>>,
    pub scope_tag_prefixes: Option<Vec<String>>,
}

const KEY_INFO_COLUMNS: &str =
    "id, tenant_id, prefix, name, scopes, created_at, expires_at, revoked_at, last_used_at, \
     rate_limit_per_second, rotated_from, scope_user_ids, scope_agent_ids, scope_tag_prefixes";
const KEY_RECORD_COLUMNS: &str = "id, tenant_id, key_hash, scopes, expires_at, revoked_at, rate_limit_per_second, \
     scope_user_ids, scope_agent_ids, scope_tag_prefixes";
const TENANT_COLUMNS: &str =
    "id, name, plan, limits, status, status_reason, status_changed_at, created_at, deletion_report";

/// The error of a write that names a taken tenant name or an unknown plan; else the database's.
fn tenant_write_error(err: sqlx::Error, name: Option<&str>, plan: Option<&str>) -> Error {
    match &err {
        sqlx::Error::Database(e) if super::violates(e.as_ref(), "tenants_name_key") => Error::Conflict {
            message: format!("name: a tenant named {:?} already exists", name.unwrap_or_default()),
            existing_id: None,
        },
        sqlx::Error::Database(e) if super::violates(e.as_ref(), "tenants_plan_fkey") => {
            Error::invalid(format!("plan: no plan named {:?}", plan.unwrap_or_default()))
        }
        _ => err.into(),
    }
}

/// Creates a tenant on `plan` with its own `limits`; a conflict when the name is taken.
pub async fn create_tenant(
    pool: &PgPool,
    name: &str,
    plan: &str,
    limits: &LimitOverrides,
) -> Result<TenantInfo, Error> {
    let sql = format!("INSERT INTO tenants (name, plan, limits) VALUES ($1, $2, $3) RETURNING {TENANT_COLUMNS}");
    sqlx::query_as(&sql)
        .bind(name)
        .bind(plan)
        .bind(Json(limits))
        .fetch_one(pool)
        .await
        .map_err(|e| tenant_write_error(e, Some(name), Some(plan)))
}

/// Tenants (the rows `page` selects from `tenants t`, in its order) with what each stores now: rolled-up
/// totals and pending deltas. Statements that Citus plans from the tenants it names (the deltas are
/// distributed with the tenant tables: a correlated subquery over them is refused there); both steps are
/// materialized so neither is folded into the other.
fn with_stored(page: &str) -> String {
    format!(
        "WITH page AS MATERIALIZED ({page}),
              d AS MATERIALIZED (SELECT tenant_id, sum(memories) AS m, sum(storage_bytes) AS b FROM tenant_usage_delta
                                  WHERE tenant_id IN (SELECT id FROM page) GROUP BY tenant_id)
         SELECT page.*, (coalesce(u.memories, 0) + coalesce(d.m, 0))::bigint AS memories,
                (coalesce(u.storage_bytes, 0) + coalesce(d.b, 0))::bigint AS storage_bytes
           FROM page LEFT JOIN tenant_usage u ON u.tenant_id = page.id LEFT JOIN d ON d.tenant_id = page.id
          ORDER BY page.created_at, page.id"
    )
}

/// A tenant with what it stores now.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TenantRow {
    #[sqlx(flatten)]
    pub tenant: TenantInfo,
    pub memories: i64,
    pub storage_bytes: i64,
}

/// One page of tenants (oldest first), optionally of one status, with the total.
pub async fn list_tenants(
    pool: &PgPool,
    status: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<TenantRow>, i64), Error> {
    let sql = with_stored(&format!(
        "SELECT {TENANT_COLUMNS} FROM tenants WHERE $1::text IS NULL OR status = $1
         ORDER BY created_at, id LIMIT $2 OFFSET $3"
    ));
    let rows = sqlx::query_as(&sql).bind(status).bind(limit).bind(offset).fetch_all(pool).await?;
    let total = sqlx::query_scalar("SELECT count(*) FROM tenants WHERE $1::text IS NULL OR status = $1")
        .bind(status)
        .fetch_one(pool)
        .await?;
    Ok((rows, total))
}

pub async fn get_tenant(pool: &PgPool, id: Uuid) -> Result<Option<TenantRow>, Error> {
    let sql = with_stored(&format!("SELECT {TENANT_COLUMNS} FROM tenants WHERE id = $1"));
    Ok(sqlx::query_as(&sql).bind(id).fetch_optional(pool).await?)
}

/// Changes a tenant's name, plan or limits (each when given); None when there is no such tenant.
pub async fn update_tenant(
    pool: &PgPool,
    id: Uuid,
    name: Option<&str>,
    plan: Option<&str>,
    limits: Option<&LimitOverrides>,
) -> Result<Option<TenantInfo>, Error> {
    let sql = format!(
        "UPDATE tenants SET name = coalesce($2, name), plan = coalesce($3, plan), limits = coalesce($4, limits)
         WHERE id = $1 AND status IN ('active', 'suspended') RETURNING {TENANT_COLUMNS}"
    );
    sqlx::query_as(&sql)
        .bind(id)
        .bind(name)
        .bind(plan)
        .bind(limits.map(Json))
        .fetch_optional(pool)
        .await
        .map_err(|e| tenant_write_error(e, name, plan))
}

/// Moves a tenant from one of `from` to `to` (with a reason); None when it is not in one of `from`.
pub async fn set_status(
    pool: &PgPool,
    id: Uuid,
    from: &[&str],
    to: &str,
    reason: Option<&str>,
) -> Result<Option<TenantInfo>, Error> {
    let sql = format!(
        "UPDATE tenants SET status = $3, status_reason = $4, status_changed_at = now()
         WHERE id = $1 AND status = ANY($2) RETURNING {TENANT_COLUMNS}"
    );
    Ok(sqlx::query_as(&sql).bind(id).bind(from).bind(to).bind(reason).fetch_optional(pool).await?)
}

/// Marks a tenant `deleting` (from active, suspended, or deleting again when no deletion job is pending or
/// running: a deletion whose job gave up) and
/// enqueues `queue`'s job to erase it, in one transaction. None when it is not in one of those states.
pub async fn begin_deletion(pool: &PgPool, id: Uuid, queue: &str) -> Result<Option<TenantInfo>, Error> {
    let mut tx = super::begin(pool, None).await?;
    // The tenant row locked first, so a second deletion waits and then sees the first one's job. Three
    // statements, not one UPDATE with a subquery: on Citus `tenants` is a reference table and the queue a
    // table of the coordinator's, which one modifying statement cannot join.
    let locked: Option<Uuid> =
        sqlx::query_scalar("SELECT id FROM tenants WHERE id = $1 FOR UPDATE").bind(id).fetch_optional(&mut *tx).await?;
    if locked.is_none() {
        return Ok(None);
    }
    let job_pending: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM apalis.jobs WHERE job_type = $2 AND status IN ('Pending', 'Running')
                          AND job ->> 'tenant_id' = $1::text)",
    )
    .bind(id)
    .bind(queue)
    .fetch_one(&mut *tx)
    .await?;
    let sql = format!(
        "UPDATE tenants SET status = 'deleting', status_reason = NULL, status_changed_at = now()
         WHERE id = $1 AND (status IN ('active', 'suspended') OR (status = 'deleting' AND NOT $2))
         RETURNING {TENANT_COLUMNS}"
    );
    let Some(tenant): Option<TenantInfo> =
        sqlx::query_as(&sql).bind(id).bind(job_pending).fetch_optional(&mut *tx).await?
    else {
        return Ok(None);
    };
    sqlx::query("SELECT apalis.push_job($1, $2::json, 'Pending', now(), 10)")
        .bind(queue)
        .bind(serde_json::json!({ "tenant_id": id }))
        .execute(&mut *tx)
        .await?;
    sqlx::query("SELECT pg_notify('apalis::job', $1)").bind(queue).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(Some(tenant))
}

/// A tenant's standing and the limits in force (its own over its plan's).
pub async fn access(pool: &PgPool, id: Uuid) -> Result<Option<TenantAccess>, Error> {
    let row: Option<(String, String, Json<serde_json::Value>, Json<serde_json::Value>)> = sqlx::query_as(
        "SELECT t.status, t.plan, t.limits, p.limits FROM tenants t JOIN plans p ON p.name = t.plan WHERE t.id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(status, plan, own, planned)| TenantAccess {
        id,
        status: TenantStatus::parse(&status).unwrap_or(TenantStatus::Suspended),
        plan,
        limits: LimitOverrides::from_stored(&own.0).over(&LimitOverrides::from_stored(&planned.0)),
    }))
}

/// Every plan and its limits.
pub async fn plans(pool: &PgPool) -> Result<Vec<(String, LimitOverrides)>, Error> {
    let rows: Vec<(String, Json<serde_json::Value>)> =
        sqlx::query_as("SELECT name, limits FROM plans ORDER BY name").fetch_all(pool).await?;
    Ok(rows.into_iter().map(|(name, limits)| (name, LimitOverrides::from_stored(&limits.0))).collect())
}

/// What a deleted tenant's data amounted to: rows removed per table.
pub type DeletionReport = Vec<(String, i64)>;

/// Removes every row a tenant owns (memories and everything hanging off them, entities, consolidation
/// runs, usage counters, keys) and its queued background jobs (`queues`: their payloads name the tenant),
/// table by table, then marks it deleted with the report. The tenant row stays, so its name and the report
/// remain readable; so do the operator's records of it: the audit log and the daily usage (billing).
///
/// Every statement runs with `app.tenant_id` set to the tenant: the owner is bound by row-level security
/// (FORCE) like every role that is not a superuser, and without the setting it would match no row at all.
pub async fn erase_tenant(pool: &PgPool, id: Uuid, queues: &[&str]) -> Result<DeletionReport, Error> {
    // History last among the memories' tables: it has no foreign key, and a job still finishing may add to it.
    const TABLES: &[&str] = &[
        "memory_entities",
        "relations",
        "entity_aliases",
        "memories",
        "memory_trash",
        "memory_events",
        "entities",
        "memory_counts",
        "embed_outbox",
        "consolidation_runs",
        "eval_probe_sets",
        "eval_runs",
        "webhook_deliveries",
        "webhook_endpoints",
        "tenant_usage_delta",
        "tenant_usage",
        "usage_daily_end_users",
        "api_keys",
    ];
    // Passes until one finds nothing: a write that raced the first pass (a job finishing, an import's last
    // batch) is caught by the next.
    let mut counts: Vec<i64> = vec![0; TABLES.len() + 1];
    for _ in 0..5 {
        let mut found = 0;
        let sql =
            "WITH doomed AS (SELECT ctid FROM apalis.jobs WHERE job_type = ANY($2) AND job->>'tenant_id' = $1::text
                                   LIMIT 5000)
                   DELETE FROM apalis.jobs WHERE ctid IN (SELECT ctid FROM doomed)";
        let deleted = delete_batches(pool, sql, id, Some(queues)).await?;
        counts[TABLES.len()] += deleted;
        found += deleted;
        for (i, table) in TABLES.iter().enumerate() {
            let sql = format!(
                "WITH doomed AS (SELECT ctid FROM {table} WHERE tenant_id = $1 LIMIT 5000)
                 DELETE FROM {table} WHERE tenant_id = $1 AND ctid IN (SELECT ctid FROM doomed)"
            );
            let deleted = delete_batches(pool, &sql, id, None).await?;
            counts[i] += deleted;
            found += deleted;
        }
        if found == 0 {
            break;
        }
    }
    let report: Vec<(String, i64)> = TABLES.iter().copied().chain(["jobs"]).map(str::to_owned).zip(counts).collect();
    let json: serde_json::Map<String, serde_json::Value> =
        report.iter().map(|(t, n)| (t.clone(), serde_json::Value::from(*n))).collect();
    sqlx::query("UPDATE tenants SET status = 'deleted', status_changed_at = now(), deletion_report = $2 WHERE id = $1")
        .bind(id)
        .bind(Json(serde_json::json!({ "rows_deleted": json, "finished_at": Utc::now() })))
        .execute(pool)
        .await?;
    Ok(report)
}

/// Runs `sql` (a bounded DELETE of tenant `$1`'s rows; `$2` the queues, when given) until it deletes nothing,
/// each batch in its own transaction (so no single statement holds a huge lock set) with the tenant set for
/// row-level security, retrying a deadlock with the tenant's last background jobs a few times.
async fn delete_batches(pool: &PgPool, sql: &str, id: Uuid, queues: Option<&[&str]>) -> Result<i64, Error> {
    // Erasing, not deleting: the memories do not go to the trash (`cairn.erase`, for this transaction only).
    let batch = || async {
        let mut tx = super::begin(pool, None).await?;
        let settings = [super::PROPAGATE, ("cairn.erase", Local::Word("on")), ("app.tenant_id", Local::Uuid(id))];
        super::set_local(&mut tx, &settings).await?;
        let mut query = sqlx::query(sql).bind(id);
        if let Some(queues) = queues {
            query = query.bind(queues);
        }
        let done = query.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(done)
    };
    let (mut total, mut attempt) = (0_i64, 0);
    loop {
        match batch().await {
            Ok(done) if done.rows_affected() == 0 => return Ok(total),
            Ok(done) => total += done.rows_affected() as i64,
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("40P01") && attempt < 5 => {
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(100 * attempt)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Deletes a tenant for good: erases its data ([`erase_tenant`]), then its row (its daily usage goes with it by
/// cascade; its audit entries stay). For throwaway tenants (the evaluation's).
pub async fn delete_tenant(pool: &PgPool, id: Uuid, queues: &[&str]) -> Result<(), Error> {
    erase_tenant(pool, id, queues).await?;
    sqlx::query("DELETE FROM tenants WHERE id = $1").bind(id).execute(pool).await?;
    Ok(())
}

pub async fn tenant_exists(pool: &PgPool, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM tenants WHERE id = $1)").bind(id).fetch_one(pool).await
}

/// Stores a new key (its prefix and hash).
pub async fn insert_key(
    pool: &PgPool,
    tenant_id: Uuid,
    prefix: &str,
    key_hash: &str,
    new: &NewKey,
) -> sqlx::Result<ApiKeyInfo> {
    insert_key_in(pool, tenant_id, prefix, key_hash, new).await
}

async fn insert_key_in<'e>(
    executor: impl sqlx::PgExecutor<'e>,
    tenant_id: Uuid,
    prefix: &str,
    key_hash: &str,
    new: &NewKey,
) -> sqlx::Result<ApiKeyInfo> {
    let sql = format!(
        "INSERT INTO api_keys (tenant_id, prefix, key_hash, name, scopes, expires_at, rate_limit_per_second, rotated_from,
                               scope_user_ids, scope_agent_ids, scope_tag_prefixes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING {KEY_INFO_COLUMNS}"
    );
    sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(prefix)
        .bind(key_hash)
        .bind(&new.name)
        .bind(&new.scopes)
        .bind(new.expires_at)
        .bind(new.rate_limit_per_second)
        .bind(new.rotated_from)
        .bind(new.scope.as_ref().and_then(|s| s.users.clone()))
        .bind(new.scope.as_ref().and_then(|s| s.agents.clone()))
        .bind(new.scope.as_ref().and_then(|s| s.tags.clone()))
        .fetch_one(executor)
        .await
}

/// One key of a tenant (any tenant when `tenant_id` is None).
pub async fn get_key(pool: &PgPool, key_id: Uuid, tenant_id: Option<Uuid>) -> sqlx::Result<Option<ApiKeyInfo>> {
    let sql = format!("SELECT {KEY_INFO_COLUMNS} FROM api_keys WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2)");
    sqlx::query_as(&sql).bind(key_id).bind(tenant_id).fetch_optional(pool).await
}

/// Rotates a live key in one transaction: a new key (`prefix`, `key_hash`) with the old one's tenant, name,
/// scopes, expiry and rate limit; the old one revoked (`grace` None) or ending at `grace` (never later than it
/// would have). None when there is no such key (of `tenant_id`, when given); a conflict when it is revoked or
/// expired. Returns (new, old).
pub async fn rotate_key(
    pool: &PgPool,
    key_id: Uuid,
    tenant_id: Option<Uuid>,
    prefix: &str,
    key_hash: &str,
    grace: Option<DateTime<Utc>>,
) -> Result<Option<(ApiKeyInfo, ApiKeyInfo)>, Error> {
    let mut tx = super::begin(pool, None).await?;
    let sql = format!(
        "SELECT {KEY_INFO_COLUMNS} FROM api_keys WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2) FOR UPDATE"
    );
    let Some(old): Option<ApiKeyInfo> =
        sqlx::query_as(&sql).bind(key_id).bind(tenant_id).fetch_optional(&mut *tx).await?
    else {
        return Ok(None);
    };
    if old.revoked_at.is_some() || old.expires_at.is_some_and(|t| t <= Utc::now()) {
        return Err(Error::Conflict { message: format!("API key {key_id} is revoked or expired"), existing_id: None });
    }
    let replaced: Option<Uuid> = sqlx::query_scalar("SELECT id FROM api_keys WHERE rotated_from = $1 LIMIT 1")
        .bind(key_id)
        .fetch_optional(&mut *tx)
        .await?;
    if let Some(successor) = replaced {
        return Err(Error::Conflict {
            message: format!("API key {key_id} was already rotated (into {successor}); rotate that key instead"),
            existing_id: Some(successor),
        });
    }
    let successor = NewKey {
        scopes: old.scopes.clone(),
        name: old.name.clone(),
        expires_at: old.expires_at,
        rate_limit_per_second: old.rate_limit_per_second,
        rotated_from: Some(old.id),
        scope: old.scope(),
    };
    let new = insert_key_in(&mut *tx, old.tenant_id, prefix, key_hash, &successor).await?;
    let sql = format!(
        "UPDATE api_keys SET revoked_at = CASE WHEN $2::timestamptz IS NULL THEN $3 END,
                             expires_at = CASE WHEN $2::timestamptz IS NULL THEN expires_at
                                               ELSE least(coalesce(expires_at, $2), $2) END
         WHERE id = $1 RETURNING {KEY_INFO_COLUMNS}"
    );
    // (The time is bound: on Citus, where api_keys is a table of the coordinator's in Citus' metadata, an UPDATE
    // may not call now() inside a CASE.)
    let old: ApiKeyInfo = sqlx::query_as(&sql).bind(key_id).bind(grace).bind(Utc::now()).fetch_one(&mut *tx).await?;
    tx.commit().await?;
    Ok(Some((new, old)))
}

pub async fn find_key(pool: &PgPool, prefix: &str) -> sqlx::Result<Option<KeyRecord>> {
    sqlx::query_as(&format!("SELECT {KEY_RECORD_COLUMNS} FROM api_keys WHERE prefix = $1"))
        .bind(prefix)
        .fetch_optional(pool)
        .await
}

/// A key by its id (the key behind a token).
pub async fn find_key_by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<KeyRecord>> {
    sqlx::query_as(&format!("SELECT {KEY_RECORD_COLUMNS} FROM api_keys WHERE id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await
}

pub async fn list_keys(pool: &PgPool, tenant_id: Uuid) -> sqlx::Result<Vec<ApiKeyInfo>> {
    let sql =
        format!("SELECT {KEY_INFO_COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 10000");
    sqlx::query_as(&sql).bind(tenant_id).fetch_all(pool).await
}

/// Revokes a key; `tenant_id` restricts it to one tenant's keys. Returns the key, or None when absent.
pub async fn revoke_key(pool: &PgPool, key_id: Uuid, tenant_id: Option<Uuid>) -> sqlx::Result<Option<ApiKeyInfo>> {
    let sql = format!(
        "UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3)
         WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2) RETURNING {KEY_INFO_COLUMNS}"
    );
    sqlx::query_as(&sql).bind(key_id).bind(tenant_id).bind(Utc::now()).fetch_optional(pool).await
}

pub async fn touch_key(pool: &PgPool, key_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("UPDATE api_keys SET last_used_at = now() WHERE id = $1").bind(key_id).execute(pool).await?;
    Ok(())
}

/// Every live tenant's id (not being deleted), for per-tenant background passes.
pub async fn tenant_ids(pool: &PgPool) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar("SELECT id FROM tenants WHERE status IN ('active', 'suspended') ORDER BY id")
        .fetch_all(pool)
        .await
}

/// A tenant's settings.
pub async fn settings(pool: &PgPool, tenant_id: Uuid) -> sqlx::Result<Option<TenantSettings>> {
    sqlx::query_as(
        "SELECT forgetting_enabled, forgetting_grace_days, archive_retention_days, undo_days, read_keys_strengthen
           FROM tenants WHERE id = $1",
    )
    .bind(tenant_id)
    .fetch_optional(pool)
    .await
}

/// Every tenant's settings, by id.
pub async fn all_settings(pool: &PgPool) -> sqlx::Result<Vec<(Uuid, TenantSettings)>> {
    let rows: Vec<(Uuid, bool, i32, Option<i32>, i32, bool)> = sqlx::query_as(
        "SELECT id, forgetting_enabled, forgetting_grace_days, archive_retention_days, undo_days, read_keys_strengthen
           FROM tenants
         WHERE status IN ('active', 'suspended') ORDER BY id",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(
                id,
                forgetting_enabled,
                forgetting_grace_days,
                archive_retention_days,
                undo_days,
                read_keys_strengthen,
            )| {
                let settings = TenantSettings {
                    forgetting_enabled,
                    forgetting_grace_days,
                    archive_retention_days,
                    undo_days,
                    read_keys_strengthen,
                };
                (id, settings)
            },
        )
        .collect())
}

/// Replaces a tenant's settings (validated by the caller).
pub async fn set_settings(pool: &PgPool, tenant_id: Uuid, s: &TenantSettings) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE tenants SET forgetting_enabled = $2, forgetting_grace_days = $3, archive_retention_days = $4,
                undo_days = $5, read_keys_strengthen = $6 WHERE id = $1",
    )
    .bind(tenant_id)
    .bind(s.forgetting_enabled)
    .bind(s.forgetting_grace_days)
    .bind(s.archive_retention_days)
    .bind(s.undo_days)
    .bind(s.read_keys_strengthen)
    .execute(pool)
    .await?;
    Ok(())
}

/// The channel on which the database announces changes to keys, tenants and plans (see the migration
/// `saas_control_plane`).
pub const AUTH_CHANNEL: &str = "cairn_auth";

/// A listener for `cairn_auth` announcements.
pub struct AuthChanges(PgListener);

impl AuthChanges {
    pub async fn connect(pool: &PgPool) -> Result<Self, Error> {
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(AUTH_CHANNEL).await?;
        Ok(Self(listener))
    }

    /// The next announcement (`key:<id>`, `tenant:<id>`, `plan:<name>`), or None when the connection was lost
    /// (announcements may have been missed; the next call reconnects).
    pub async fn next(&mut self) -> Result<Option<String>, Error> {
        Ok(self.0.try_recv().await?.map(|n| n.payload().to_owned()))
    }
}

/// A key about to expire, not announced yet.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExpiringKey {
    pub id: Uuid,
    pub tenant_id: Uuid,
    pub name: Option<String>,
    pub expires_at: DateTime<Utc>,
}

/// Live keys of active tenants expiring within `within` that were not announced yet (and were not replaced
/// by a rotation), soonest first, at most `limit`.
pub async fn keys_expiring(pool: &PgPool, within: chrono::Duration, limit: i64) -> Result<Vec<ExpiringKey>, Error> {
    Ok(sqlx::query_as(
        "SELECT k.id, k.tenant_id, k.name, k.expires_at FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
          WHERE k.revoked_at IS NULL AND k.expiry_announced_at IS NULL AND t.status = 'active'
            AND k.expires_at > now() AND k.expires_at <= now() + make_interval(secs => $1)
            AND NOT EXISTS (SELECT 1 FROM api_keys n WHERE n.rotated_from = k.id)
          ORDER BY k.expires_at LIMIT $2",
    )
    .bind(within.num_seconds() as f64)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Records that a key's coming expiry was announced.
pub async fn mark_expiry_announced(pool: &PgPool, id: Uuid) -> Result<(), Error> {
    sqlx::query("UPDATE api_keys SET expiry_announced_at = now() WHERE id = $1").bind(id).execute(pool).await?;
    Ok(())
}
