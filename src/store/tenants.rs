//! SQL for the control plane: `tenants` and `api_keys`. These tables are not under RLS and are reached
//! through the owner pool only.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use crate::auth::{ApiKeyInfo, TenantInfo};
use crate::error::Error;
use crate::memory::TenantSettings;

/// What authentication needs of a key.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyRecord {
    pub id: Uuid,
    pub tenant_id: Uuid,
    pub key_hash: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

const KEY_INFO_COLUMNS: &str = "id, tenant_id, prefix, name, scopes, created_at, expires_at, revoked_at, last_used_at";

/// Creates a tenant; a conflict when the name is taken.
pub async fn create_tenant(pool: &PgPool, name: &str) -> Result<TenantInfo, Error> {
    let created = sqlx::query_as("INSERT INTO tenants (name) VALUES ($1) RETURNING id, name, created_at")
        .bind(name)
        .fetch_one(pool)
        .await;
    match created {
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("tenants_name_key") => {
            Err(Error::Conflict { message: format!("name: a tenant named {name:?} already exists"), existing_id: None })
        }
        other => Ok(other?),
    }
}

pub async fn list_tenants(pool: &PgPool) -> sqlx::Result<Vec<TenantInfo>> {
    sqlx::query_as("SELECT id, name, created_at FROM tenants ORDER BY created_at, id").fetch_all(pool).await
}

/// Deletes a tenant and, by cascade, everything it owns. The cascade can deadlock with the tenant's own
/// background jobs still writing; it is then tried again, a few times.
pub async fn delete_tenant(pool: &PgPool, id: Uuid) -> sqlx::Result<()> {
    let mut attempt = 0;
    loop {
        match sqlx::query("DELETE FROM tenants WHERE id = $1").bind(id).execute(pool).await {
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("40P01") && attempt < 5 => {
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(100 * attempt)).await;
            }
            other => return other.map(|_| ()),
        }
    }
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
    name: Option<&str>,
    scopes: &[String],
    expires_at: Option<DateTime<Utc>>,
) -> sqlx::Result<ApiKeyInfo> {
    let sql = format!(
        "INSERT INTO api_keys (tenant_id, prefix, key_hash, name, scopes, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {KEY_INFO_COLUMNS}"
    );
    sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(prefix)
        .bind(key_hash)
        .bind(name)
        .bind(scopes)
        .bind(expires_at)
        .fetch_one(pool)
        .await
}

pub async fn find_key(pool: &PgPool, prefix: &str) -> sqlx::Result<Option<KeyRecord>> {
    sqlx::query_as("SELECT id, tenant_id, key_hash, scopes, expires_at, revoked_at FROM api_keys WHERE prefix = $1")
        .bind(prefix)
        .fetch_optional(pool)
        .await
}

pub async fn list_keys(pool: &PgPool, tenant_id: Uuid) -> sqlx::Result<Vec<ApiKeyInfo>> {
    let sql = format!("SELECT {KEY_INFO_COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id");
    sqlx::query_as(&sql).bind(tenant_id).fetch_all(pool).await
}

/// Revokes a key; `tenant_id` restricts it to one tenant's keys. Returns the key, or None when absent.
pub async fn revoke_key(pool: &PgPool, key_id: Uuid, tenant_id: Option<Uuid>) -> sqlx::Result<Option<ApiKeyInfo>> {
    let sql = format!(
        "UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
         WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2) RETURNING {KEY_INFO_COLUMNS}"
    );
    sqlx::query_as(&sql).bind(key_id).bind(tenant_id).fetch_optional(pool).await
}

pub async fn touch_key(pool: &PgPool, key_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("UPDATE api_keys SET last_used_at = now() WHERE id = $1").bind(key_id).execute(pool).await?;
    Ok(())
}

/// Every tenant's id, for per-tenant background passes.
pub async fn tenant_ids(pool: &PgPool) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar("SELECT id FROM tenants ORDER BY id").fetch_all(pool).await
}

/// A tenant's settings.
pub async fn settings(pool: &PgPool, tenant_id: Uuid) -> sqlx::Result<Option<TenantSettings>> {
    sqlx::query_as(
        "SELECT forgetting_enabled, forgetting_grace_days, archive_retention_days FROM tenants WHERE id = $1",
    )
    .bind(tenant_id)
    .fetch_optional(pool)
    .await
}

/// Every tenant's settings, by id.
pub async fn all_settings(pool: &PgPool) -> sqlx::Result<Vec<(Uuid, TenantSettings)>> {
    let rows: Vec<(Uuid, bool, i32, Option<i32>)> = sqlx::query_as(
        "SELECT id, forgetting_enabled, forgetting_grace_days, archive_retention_days FROM tenants ORDER BY id",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, forgetting_enabled, forgetting_grace_days, archive_retention_days)| {
            (id, TenantSettings { forgetting_enabled, forgetting_grace_days, archive_retention_days })
        })
        .collect())
}

/// Replaces a tenant's settings (validated by the caller).
pub async fn set_settings(pool: &PgPool, tenant_id: Uuid, s: &TenantSettings) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE tenants SET forgetting_enabled = $2, forgetting_grace_days = $3, archive_retention_days = $4 WHERE id = $1",
    )
    .bind(tenant_id)
    .bind(s.forgetting_enabled)
    .bind(s.forgetting_grace_days)
    .bind(s.archive_retention_days)
    .execute(pool)
    .await?;
    Ok(())
}
