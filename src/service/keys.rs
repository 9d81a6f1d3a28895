//! API keys: issued, listed (never the secrets), revoked and rotated, by a tenant's own admin keys (only
//! ever its own tenant's), by operators through the admin API, and by the CLI. Every change is audited, and
//! is announced by the database so every instance forgets the key at once.

use chrono::{Duration, Utc};
use serde_json::json;
use uuid::Uuid;

use super::{audit, Services};
use crate::auth::admin::Operator;
use crate::auth::token::{TokenClaims, DEFAULT_TOKEN_TTL_SECS, MAX_TOKEN_TTL_SECS, TOKEN_PREFIX};
use crate::auth::{self, Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::store::tenants;
use crate::tenancy::{ApiKeyInfo, KeyScope, NewKey};

/// Longest key name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest key lifetime, in days.
pub const MAX_EXPIRY_DAYS: i64 = 3650;
/// Longest grace period of a rotation, in seconds (30 days).
pub const MAX_GRACE_SECS: i64 = 30 * 86_400;
/// Highest per-key rate limit, in requests per second.
pub const MAX_RATE_LIMIT: i64 = 100_000;

/// What a caller asks of a new key; validated by [`issue`].
#[derive(Debug, Clone, Default)]
pub struct KeyRequest {
    /// Default read, write.
    pub scopes: Option<Vec<String>>,
    pub name: Option<String>,
    /// Days until expiry (never if absent).
    pub expires_in_days: Option<i64>,
    /// The key's own requests-per-second limit (its plan's if absent).
    pub rate_limit_per_second: Option<i64>,
    /// Limits the key to these end users, agents, tag prefixes ([`KeyScope`]); absent: not restricted.
    pub user_ids: Option<Vec<String>>,
    pub agent_ids: Option<Vec<String>>,
    pub tag_prefixes: Option<Vec<String>>,
}

impl KeyRequest {
    fn validate(&self) -> Result<NewKey> {
        let scopes = auth::parse_scopes(&self.scopes.clone().unwrap_or_else(|| vec!["read".into(), "write".into()]))
            .map_err(|e| bad("scopes", e))?;
        let expires_at = match self.expires_in_days {
            Some(days) if (1..=MAX_EXPIRY_DAYS).contains(&days) => Some(Utc::now() + Duration::days(days)),
            Some(days) => {
                return Err(bad("expires_in_days", format!("must be between 1 and {MAX_EXPIRY_DAYS} (got {days})")))
            }
            None => None,
        };
        let name = self.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
        if name.is_some_and(|n| n.contains('\0') || n.chars().count() > MAX_NAME_CHARS) {
            return Err(bad("name", format!("must be at most {MAX_NAME_CHARS} characters, without NUL")));
        }
        let rate_limit_per_second = match self.rate_limit_per_second {
            Some(r) if (1..=MAX_RATE_LIMIT).contains(&r) => Some(r as i32),
            Some(r) => {
                return Err(bad("rate_limit_per_second", format!("must be between 1 and {MAX_RATE_LIMIT} (got {r})")))
            }
            None => None,
        };
        let scope = KeyScope::parse(self.user_ids.clone(), self.agent_ids.clone(), self.tag_prefixes.clone())?;
        if scope.is_some() && scopes.iter().any(|s| s == "admin") {
            return Err(bad("scopes", "a key scoped to end users, agents or tags cannot hold the admin scope"));
        }
        Ok(NewKey {
            scopes,
            name: name.map(str::to_owned),
            expires_at,
            rate_limit_per_second,
            rotated_from: None,
            scope,
        })
    }
}

/// Issues a key for `tenant_id` as `actor`: the stored key and its secret (shown once).
async fn issue(svc: &Services, actor: &str, tenant_id: Uuid, req: &KeyRequest) -> Result<(ApiKeyInfo, String)> {
    let new = req.validate()?;
    live_tenant(svc, tenant_id).await?;
    let (key, secret) = svc.keys.create_key(tenant_id, &new).await?;
    let details = json!({"prefix": key.prefix, "scopes": key.scopes, "name": key.name, "expires_at": key.expires_at,
        "rate_limit_per_second": key.rate_limit_per_second, "scope": key.scope()});
    audit::record(svc, actor, Some(tenant_id), "key.create", Some(key.id.to_string()), details).await;
    Ok((key, secret))
}

/// A tenant that exists and is not deleted (keys of a deleted tenant make no sense).
async fn live_tenant(svc: &Services, tenant_id: Uuid) -> Result<()> {
    match tenants::get_tenant(svc.db.owner(), tenant_id).await? {
        Some(t) if matches!(t.tenant.status.as_str(), "active" | "suspended") => Ok(()),
        Some(_) => Err(Error::Conflict { message: format!("tenant {tenant_id} is deleted"), existing_id: None }),
        None => Err(Error::not_found(format!("tenant {tenant_id} not found"))),
    }
}

fn key_not_found(id: Uuid) -> Error {
    Error::not_found(format!("API key {id} not found"))
}

/// Revokes a key (of `tenant_id` when given) as `actor`; an unknown key changes and invalidates nothing.
async fn revoke_as(svc: &Services, actor: &str, tenant_id: Option<Uuid>, id: Uuid) -> Result<ApiKeyInfo> {
    let key = tenants::revoke_key(svc.db.owner(), id, tenant_id).await?.ok_or_else(|| key_not_found(id))?;
    svc.keys.forget(&format!("key:{id}"));
    audit::record(svc, actor, Some(key.tenant_id), "key.revoke", Some(id.to_string()), json!({"prefix": key.prefix}))
        .await;
    Ok(key)
}

/// Rotates a live key: a new secret with the same name, scopes, expiry and rate limit; the old key keeps
/// working for `grace_secs` (0: it stops at once). Returns the new key, its secret and the old key.
async fn rotate_as(
    svc: &Services,
    actor: &str,
    tenant_id: Option<Uuid>,
    id: Uuid,
    grace_secs: i64,
) -> Result<(ApiKeyInfo, String, ApiKeyInfo)> {
    if !(0..=MAX_GRACE_SECS).contains(&grace_secs) {
        return Err(bad("grace_period_secs", format!("must be between 0 and {MAX_GRACE_SECS} (got {grace_secs})")));
    }
    if let Some(key) = tenants::get_key(svc.db.owner(), id, tenant_id).await? {
        live_tenant(svc, key.tenant_id).await?;
    }
    let generated = svc.keys.generate_key().await?;
    let grace = (grace_secs > 0).then(|| Utc::now() + Duration::seconds(grace_secs));
    let (key, old) = tenants::rotate_key(svc.db.owner(), id, tenant_id, &generated.prefix, &generated.hash, grace)
        .await?
        .ok_or_else(|| key_not_found(id))?;
    let secret = generated.secret;
    svc.keys.forget(&format!("key:{id}"));
    let details = json!({"new_key_id": key.id, "new_prefix": key.prefix, "grace_period_secs": grace_secs});
    audit::record(svc, actor, Some(old.tenant_id), "key.rotate", Some(id.to_string()), details).await;
    Ok((key, secret, old))
}

// ---- A tenant's own admin keys -------------------------------------------------------------------------

/// The tenant's keys.
pub async fn list(svc: &Services, t: &Tenant) -> Result<Vec<ApiKeyInfo>> {
    t.require(Scope::Admin)?;
    Ok(tenants::list_keys(svc.db.owner(), t.id).await?)
}

/// Creates a key for the tenant. Returns the stored key and its secret.
pub async fn create(svc: &Services, t: &Tenant, req: &KeyRequest) -> Result<(ApiKeyInfo, String)> {
    t.require(Scope::Admin)?;
    issue(svc, &t.actor(), t.id, req).await
}

/// Revokes one of the tenant's keys.
pub async fn revoke(svc: &Services, t: &Tenant, id: Uuid) -> Result<ApiKeyInfo> {
    t.require(Scope::Admin)?;
    revoke_as(svc, &t.actor(), Some(t.id), id).await
}

/// Rotates one of the tenant's keys.
pub async fn rotate(svc: &Services, t: &Tenant, id: Uuid, grace_secs: i64) -> Result<(ApiKeyInfo, String, ApiKeyInfo)> {
    t.require(Scope::Admin)?;
    rotate_as(svc, &t.actor(), Some(t.id), id, grace_secs).await
}

/// What a caller asks of a new token; validated by [`mint`].
#[derive(Debug, Clone, Default)]
pub struct TokenRequest {
    /// read, or read and write (default both).
    pub scopes: Option<Vec<String>>,
    /// Seconds it lives (default [`DEFAULT_TOKEN_TTL_SECS`]).
    pub ttl_seconds: Option<i64>,
    pub user_ids: Option<Vec<String>>,
    pub agent_ids: Option<Vec<String>>,
    pub tag_prefixes: Option<Vec<String>>,
}

/// A minted token and what it grants.
#[derive(Debug, Clone)]
pub struct Minted {
    pub token: String,
    pub expires_at: chrono::DateTime<Utc>,
    pub ttl_seconds: i64,
    pub scopes: Vec<String>,
    pub scope: Option<KeyScope>,
}

/// Mints a short-lived token from the acting admin key ([`crate::auth::token`]): read or write, limited to
/// the scope asked, dying with the key. Nothing is stored; each mint is counted (`cairn_tokens_minted_total`).
pub async fn mint(svc: &Services, t: &Tenant, req: &TokenRequest) -> Result<Minted> {
    t.require(Scope::Admin)?;
    let Some(key_id) = t.key_id() else {
        return Err(Error::Forbidden("only an API key mints tokens".into()));
    };
    let scopes = auth::parse_scopes(&req.scopes.clone().unwrap_or_else(|| vec!["read".into(), "write".into()]))
        .map_err(|e| bad("scopes", e))?;
    if scopes.iter().any(|s| s == "admin") {
        return Err(bad("scopes", "a token cannot hold the admin scope; mint it with read or write"));
    }
    let ttl_seconds = req.ttl_seconds.unwrap_or(DEFAULT_TOKEN_TTL_SECS);
    if !(1..=MAX_TOKEN_TTL_SECS).contains(&ttl_seconds) {
        return Err(bad("ttl_seconds", format!("must be between 1 and {MAX_TOKEN_TTL_SECS} (got {ttl_seconds})")));
    }
    let scope = KeyScope::parse(req.user_ids.clone(), req.agent_ids.clone(), req.tag_prefixes.clone())?;
    let claims = TokenClaims::new(key_id, t.id, scopes.clone(), scope.as_ref(), &svc.tokens.issuer, ttl_seconds);
    let jwt = svc.tokens.sign(&claims)?;
    metrics::counter!("cairn_tokens_minted_total").increment(1);
    let expires_at = chrono::DateTime::from_timestamp(claims.exp, 0).unwrap_or_else(Utc::now);
    Ok(Minted { token: format!("{TOKEN_PREFIX}{jwt}"), expires_at, ttl_seconds, scopes, scope })
}

// ---- Operators (admin API, CLI) --------------------------------------------------------------------------

/// A tenant's keys, for an operator.
pub async fn list_for(svc: &Services, _op: &Operator, tenant_id: Uuid) -> Result<Vec<ApiKeyInfo>> {
    if tenants::get_tenant(svc.db.owner(), tenant_id).await?.is_none() {
        return Err(Error::not_found(format!("tenant {tenant_id} not found")));
    }
    Ok(tenants::list_keys(svc.db.owner(), tenant_id).await?)
}

/// Issues a key for a tenant, for an operator.
pub async fn create_for(
    svc: &Services,
    op: &Operator,
    tenant_id: Uuid,
    req: &KeyRequest,
) -> Result<(ApiKeyInfo, String)> {
    issue(svc, &op.actor(), tenant_id, req).await
}

/// Revokes a key, for an operator (`tenant_id` restricts it to one tenant's keys).
pub async fn revoke_for(svc: &Services, op: &Operator, tenant_id: Option<Uuid>, id: Uuid) -> Result<ApiKeyInfo> {
    revoke_as(svc, &op.actor(), tenant_id, id).await
}

/// Rotates a key, for an operator.
pub async fn rotate_for(
    svc: &Services,
    op: &Operator,
    tenant_id: Option<Uuid>,
    id: Uuid,
    grace_secs: i64,
) -> Result<(ApiKeyInfo, String, ApiKeyInfo)> {
    rotate_as(svc, &op.actor(), tenant_id, id, grace_secs).await
}
