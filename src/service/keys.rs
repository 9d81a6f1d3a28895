//! A tenant's API keys, managed by its own admin keys: list (never the secrets), create (the secret shown
//! once), revoke (at once on this instance; within the cache TTL, at most 30 s, on the others).

use chrono::{Duration, Utc};
use uuid::Uuid;

use super::Services;
use crate::auth::ApiKeyInfo;
use crate::auth::{self, Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::store::tenants;

/// Longest key name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest key lifetime, in days.
pub const MAX_EXPIRY_DAYS: i64 = 3650;

/// The tenant's keys.
pub async fn list(svc: &Services, t: &Tenant) -> Result<Vec<ApiKeyInfo>> {
    t.require(Scope::Admin)?;
    Ok(tenants::list_keys(svc.db.owner(), t.id).await?)
}

/// Creates a key for the tenant: `scopes` (default read, write), a name, days until expiry (never if
/// absent). Returns the stored key and its secret.
pub async fn create(
    svc: &Services,
    t: &Tenant,
    scopes: Option<Vec<String>>,
    name: Option<&str>,
    expires_in_days: Option<i64>,
) -> Result<(ApiKeyInfo, String)> {
    t.require(Scope::Admin)?;
    let scopes = auth::parse_scopes(&scopes.unwrap_or_else(|| vec!["read".into(), "write".into()]))
        .map_err(|e| bad("scopes", e))?;
    let expires_at = match expires_in_days {
        Some(days) if (1..=MAX_EXPIRY_DAYS).contains(&days) => Some(Utc::now() + Duration::days(days)),
        Some(days) => {
            return Err(bad("expires_in_days", format!("must be between 1 and {MAX_EXPIRY_DAYS} (got {days})")))
        }
        None => None,
    };
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.contains('\0') || n.chars().count() > MAX_NAME_CHARS) {
        return Err(bad("name", format!("must be at most {MAX_NAME_CHARS} characters, without NUL")));
    }
    Ok(auth::create_key(svc.db.owner(), t.id, &scopes, name, expires_at).await?)
}

/// Revokes one of the tenant's keys.
pub async fn revoke(svc: &Services, t: &Tenant, id: Uuid) -> Result<ApiKeyInfo> {
    t.require(Scope::Admin)?;
    svc.keys.revoke(id, Some(t.id)).await?.ok_or_else(|| Error::not_found(format!("API key {id} not found")))
}
