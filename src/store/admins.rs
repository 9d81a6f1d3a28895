//! SQL for operators: `admins` and their sessions (`admin_sessions`, refresh-token families). Control plane:
//! owner pool only.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::Error;

/// An admin account.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AdminRow {
    pub id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub created_at: DateTime<Utc>,
    pub last_login_at: Option<DateTime<Utc>>,
    pub disabled_at: Option<DateTime<Utc>>,
}

/// Creates an admin, or sets the password of an existing one (the same email).
pub async fn upsert_admin(pool: &PgPool, email: &str, password_hash: &str) -> Result<AdminRow, Error> {
    Ok(sqlx::query_as(
        "INSERT INTO admins (email, password_hash) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, disabled_at = NULL
         RETURNING id, email, password_hash, created_at, last_login_at, disabled_at",
    )
    .bind(email)
    .bind(password_hash)
    .fetch_one(pool)
    .await?)
}

pub async fn find_by_email(pool: &PgPool, email: &str) -> Result<Option<AdminRow>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, email, password_hash, created_at, last_login_at, disabled_at FROM admins WHERE email = $1",
    )
    .bind(email)
    .fetch_optional(pool)
    .await?)
}

pub async fn touch_login(pool: &PgPool, id: Uuid) -> Result<(), Error> {
    sqlx::query("UPDATE admins SET last_login_at = now() WHERE id = $1").bind(id).execute(pool).await?;
    Ok(())
}

/// Stores a refresh token (its hash) of `family`.
pub async fn insert_session(
    pool: &PgPool,
    admin_id: Uuid,
    family_id: Uuid,
    token_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query("INSERT INTO admin_sessions (admin_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(admin_id)
        .bind(family_id)
        .bind(token_hash)
        .bind(expires_at)
        .execute(pool)
        .await?;
    Ok(())
}

/// A refresh token's session and its admin.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub id: Uuid,
    pub admin_id: Uuid,
    pub family_id: Uuid,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub email: String,
    pub disabled_at: Option<DateTime<Utc>>,
}

pub async fn find_session(pool: &PgPool, token_hash: &[u8]) -> Result<Option<SessionRow>, Error> {
    Ok(sqlx::query_as(
        "SELECT s.id, s.admin_id, s.family_id, s.expires_at, s.used_at, s.revoked_at, a.email, a.disabled_at
         FROM admin_sessions s JOIN admins a ON a.id = s.admin_id WHERE s.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await?)
}

/// Takes a family's lock for the rest of `tx`: refreshing and revoking a family never interleave.
async fn lock_family(tx: &mut sqlx::PgConnection, family_id: Uuid) -> Result<(), Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1::text, 7))").bind(family_id).execute(tx).await?;
    Ok(())
}

/// Exchanges a refresh token (session `id` of `family_id`) for a new one, once: false (nothing written) when
/// the token was already used or its family revoked, so two racing refreshes cannot both succeed and a
/// revocation cannot be outrun.
pub async fn rotate_session(
    pool: &PgPool,
    id: Uuid,
    admin_id: Uuid,
    family_id: Uuid,
    new_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> Result<bool, Error> {
    let mut tx = super::begin(pool, None).await?;
    // Shares the admin row with other refreshes; a password reset (FOR UPDATE) waits for them, or they for it.
    sqlx::query("SELECT 1 FROM admins WHERE id = $1 FOR SHARE").bind(admin_id).execute(&mut *tx).await?;
    lock_family(&mut tx, family_id).await?;
    let used = sqlx::query(
        "UPDATE admin_sessions SET used_at = now() WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM admin_sessions WHERE family_id = $2 AND revoked_at IS NOT NULL)",
    )
    .bind(id)
    .bind(family_id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query("INSERT INTO admin_sessions (admin_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(admin_id)
        .bind(family_id)
        .bind(new_hash)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// Revokes every token of a family; returns how many were still live.
pub async fn revoke_family(pool: &PgPool, family_id: Uuid) -> Result<u64, Error> {
    let mut tx = super::begin(pool, None).await?;
    lock_family(&mut tx, family_id).await?;
    let done = sqlx::query("UPDATE admin_sessions SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL")
        .bind(family_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

/// Revokes every session of an admin (a password reset); returns how many tokens were still live.
pub async fn revoke_admin(pool: &PgPool, admin_id: Uuid) -> Result<u64, Error> {
    let mut tx = super::begin(pool, None).await?;
    // No refresh is half done while this runs (they hold the admin row FOR SHARE).
    sqlx::query("SELECT 1 FROM admins WHERE id = $1 FOR UPDATE").bind(admin_id).execute(&mut *tx).await?;
    let done = sqlx::query("UPDATE admin_sessions SET revoked_at = now() WHERE admin_id = $1 AND revoked_at IS NULL")
        .bind(admin_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

/// Whether a session (family) is still live for an admin that is not disabled.
pub async fn family_live(pool: &PgPool, family_id: Uuid, admin_id: Uuid) -> Result<bool, Error> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
                        WHERE s.family_id = $1 AND s.admin_id = $2 AND s.revoked_at IS NULL
                          AND s.expires_at > now() AND a.disabled_at IS NULL)",
    )
    .bind(family_id)
    .bind(admin_id)
    .fetch_one(pool)
    .await?)
}
