//! SQL for the audit log of admin and key-management actions. Control plane: owner pool only.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::Error;

/// One recorded action.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub tenant_id: Option<Uuid>,
    pub action: String,
    pub target: Option<String>,
    pub details: Json<Value>,
    /// The client's address, when a request caused it.
    pub client_address: Option<String>,
    /// The request's id (`X-Request-Id`), when a request caused it.
    pub request_id: Option<String>,
}

/// One action to record.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub actor: &'a str,
    pub tenant_id: Option<Uuid>,
    pub action: &'a str,
    pub target: Option<&'a str>,
    pub details: Value,
    pub client_address: Option<std::net::IpAddr>,
    pub request_id: Option<&'a str>,
}

/// Records an action.
pub async fn record(pool: &PgPool, entry: Entry<'_>) -> Result<(), Error> {
    sqlx::query(
        "INSERT INTO audit_log (actor, tenant_id, action, target, details, client_address, request_id)
         VALUES ($1, $2, $3, $4, $5, $6::text::inet, $7)",
    )
    .bind(entry.actor)
    .bind(entry.tenant_id)
    .bind(entry.action)
    .bind(entry.target)
    .bind(Json(entry.details))
    .bind(entry.client_address.map(|a| a.to_string()))
    .bind(entry.request_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Which actions to list.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub tenant_id: Option<Uuid>,
    pub actor: Option<String>,
    /// An action, or a prefix of one ending in `.` (`key.`).
    pub action: Option<String>,
    pub since: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
}

/// One page of actions, newest first, with the total the filter matches.
pub async fn list(pool: &PgPool, f: &AuditFilter, limit: i64, offset: i64) -> Result<(Vec<AuditRow>, i64), Error> {
    const WHERE: &str = "WHERE ($1::uuid IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR actor = $2)
          AND ($3::text IS NULL OR action = $3 OR (right($3, 1) = '.' AND starts_with(action, $3)))
          AND ($4::timestamptz IS NULL OR at >= $4) AND ($5::timestamptz IS NULL OR at < $5)";
    let sql = format!(
        "SELECT id, at, actor, tenant_id, action, target, details, host(client_address) AS client_address, request_id
           FROM audit_log {WHERE}
         ORDER BY at DESC, id DESC LIMIT $6 OFFSET $7"
    );
    let rows = sqlx::query_as(&sql)
        .bind(f.tenant_id)
        .bind(&f.actor)
        .bind(&f.action)
        .bind(f.since)
        .bind(f.until)
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await?;
    let total = sqlx::query_scalar(&format!("SELECT count(*) FROM audit_log {WHERE}"))
        .bind(f.tenant_id)
        .bind(&f.actor)
        .bind(&f.action)
        .bind(f.since)
        .bind(f.until)
        .fetch_one(pool)
        .await?;
    Ok((rows, total))
}
