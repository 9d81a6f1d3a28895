//! Who is asking: API keys (generation, argon2id hashing, verification with a short cache), scopes, and
//! the [`Tenant`] context every use case takes. No HTTP here: `api::auth` reads a key off a request.
//!
//! A key looks like `cairn_<prefix>_<secret>`. The prefix finds the row; argon2id verifies the whole key
//! (its comparison is constant-time). Verified keys are cached for at most 30 s under the sha-256 of the
//! key, so argon2's deliberate cost is paid once per key and instance, not per request; revoking through
//! this instance clears its cache at once.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use chrono::{DateTime, Utc};
use rand::distributions::Alphanumeric;
use rand::Rng;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::Error;
use crate::store::tenants;

/// A tenant, as the control plane records it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TenantInfo {
    pub id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// An API key's stored row, never its secret.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApiKeyInfo {
    pub id: Uuid,
    pub tenant_id: Uuid,
    /// The public part of the key (`cairn_<prefix>_...`), for recognising it.
    pub prefix: String,
    pub name: Option<String>,
    pub scopes: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// Who acts for a tenant: one of its API keys, or a background job of the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    Key(Uuid),
    System(&'static str),
}

/// The tenant context of a use case: whose data, who acts, and what they may do.
#[derive(Debug, Clone)]
pub struct Tenant {
    pub id: Uuid,
    pub actor: Actor,
    pub scopes: Vec<Scope>,
}

impl Tenant {
    /// The service itself acting for a tenant (a background job): every scope.
    pub fn system(id: Uuid, job: &'static str) -> Self {
        Self { id, actor: Actor::System(job), scopes: vec![Scope::Admin] }
    }

    /// Whether the context grants `scope` (`write` implies `read`; `admin` implies both).
    pub fn has(&self, scope: Scope) -> bool {
        self.scopes.iter().any(|s| match scope {
            Scope::Read => true,
            Scope::Write => matches!(s, Scope::Write | Scope::Admin),
            Scope::Admin => matches!(s, Scope::Admin),
        })
    }

    /// Forbidden unless the context grants `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), Error> {
        if self.has(scope) {
            Ok(())
        } else {
            Err(Error::Forbidden(format!("this API key lacks the {:?} scope", scope.as_str())))
        }
    }

    /// Who to name in the audit trail (`key:<uuid>`, `system:<job>`).
    pub fn actor(&self) -> String {
        match &self.actor {
            Actor::Key(id) => format!("key:{id}"),
            Actor::System(job) => format!("system:{job}"),
        }
    }

    /// The acting key, if a key acts.
    pub fn key_id(&self) -> Option<Uuid> {
        match self.actor {
            Actor::Key(id) => Some(id),
            Actor::System(_) => None,
        }
    }
}

/// A verified key: its tenant context and until when it is valid.
#[derive(Debug, Clone)]
struct Verified {
    tenant: Tenant,
    expires_at: Option<DateTime<Utc>>,
}

const KEY_PREFIX_LEN: usize = 12;
const KEY_SECRET_LEN: usize = 40;

/// What a key may do. `write` implies `read`; `admin` implies both and manages keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Read,
    Write,
    Admin,
}

impl Scope {
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "read" => Some(Self::Read),
            "write" => Some(Self::Write),
            "admin" => Some(Self::Admin),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Write => "write",
            Self::Admin => "admin",
        }
    }
}

/// Parses and normalises a list of scope names; errors name the unknown one.
pub fn parse_scopes(values: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for value in values.iter().flat_map(|v| v.split(',')).filter(|v| !v.trim().is_empty()) {
        let scope =
            Scope::parse(value).ok_or_else(|| format!("unknown scope {value:?}; expected read, write or admin"))?;
        if !out.iter().any(|s| s == scope.as_str()) {
            out.push(scope.as_str().to_owned());
        }
    }
    if out.is_empty() {
        return Err("at least one scope is required".into());
    }
    Ok(out)
}

/// A new key: the secret to show once, and what is stored.
pub struct GeneratedKey {
    pub secret: String,
    pub prefix: String,
    pub hash: String,
}

fn random_alnum(len: usize) -> String {
    rand::thread_rng().sample_iter(&Alphanumeric).take(len).map(char::from).collect()
}

fn hasher() -> Argon2<'static> {
    Argon2::default() // argon2id, v19, m = 19 MiB, t = 2, p = 1 (OWASP's minimum)
}

/// Generates a key and its argon2id hash.
pub fn generate_key() -> anyhow::Result<GeneratedKey> {
    let prefix = random_alnum(KEY_PREFIX_LEN).to_ascii_lowercase();
    let secret = format!("cairn_{prefix}_{}", random_alnum(KEY_SECRET_LEN));
    let salt = SaltString::generate(&mut OsRng);
    let hash = hasher().hash_password(secret.as_bytes(), &salt).map_err(|e| anyhow::anyhow!("hashing key: {e}"))?;
    Ok(GeneratedKey { secret, prefix, hash: hash.to_string() })
}

/// Creates and stores a key for a tenant; returns the stored row and the secret (shown once).
pub async fn create_key(
    pool: &PgPool,
    tenant_id: Uuid,
    scopes: &[String],
    name: Option<&str>,
    expires_at: Option<DateTime<Utc>>,
) -> anyhow::Result<(ApiKeyInfo, String)> {
    let key = tokio::task::spawn_blocking(generate_key).await??;
    let info = tenants::insert_key(pool, tenant_id, &key.prefix, &key.hash, name, scopes, expires_at).await?;
    Ok((info, key.secret))
}

/// The prefix of a well-formed key.
fn key_prefix(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("cairn_")?;
    let (prefix, secret) = rest.split_once('_')?;
    (prefix.len() == KEY_PREFIX_LEN && secret.len() == KEY_SECRET_LEN).then_some(prefix)
}

/// A hash to verify against when no key matches, so an unknown prefix costs as much as a wrong secret.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        hasher().hash_password(b"cairn-decoy-key", &salt).map(|h| h.to_string()).unwrap_or_default()
    })
}

fn verify_hash(key: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| hasher().verify_password(key.as_bytes(), &parsed).is_ok())
}

/// Verifies keys against the database, with a short cache of successes.
#[derive(Clone)]
pub struct KeyVerifier {
    pool: PgPool,
    cache: Option<moka::sync::Cache<[u8; 32], Arc<Verified>>>,
}

impl KeyVerifier {
    pub fn new(pool: PgPool, cache_ttl: Duration) -> Self {
        let cache = (!cache_ttl.is_zero())
            .then(|| moka::sync::Cache::builder().max_capacity(100_000).time_to_live(cache_ttl).build());
        Self { pool, cache }
    }

    /// The tenant context behind a presented key, or unauthenticated.
    pub async fn verify(&self, key: &str) -> Result<Tenant, Error> {
        let fingerprint: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        if let Some(verified) = self.cache.as_ref().and_then(|c| c.get(&fingerprint)) {
            if verified.expires_at.is_none_or(|t| t > Utc::now()) {
                return Ok(verified.tenant.clone());
            }
        }
        let unauthorized = || Error::Unauthenticated("invalid API key".into());
        let record = match key_prefix(key) {
            Some(prefix) => tenants::find_key(&self.pool, prefix).await?,
            None => None,
        };
        let hash = record.as_ref().map_or_else(|| decoy_hash().to_owned(), |r| r.key_hash.clone());
        let presented = key.to_owned();
        let matches = tokio::task::spawn_blocking(move || verify_hash(&presented, &hash))
            .await
            .map_err(|e| Error::Internal(e.into()))?;
        let record = record.filter(|_| matches).ok_or_else(unauthorized)?;
        if record.revoked_at.is_some() {
            return Err(Error::Unauthenticated("API key revoked".into()));
        }
        if record.expires_at.is_some_and(|t| t <= Utc::now()) {
            return Err(Error::Unauthenticated("API key expired".into()));
        }
        let scopes = record.scopes.iter().filter_map(|s| Scope::parse(s)).collect();
        let tenant = Tenant { id: record.tenant_id, actor: Actor::Key(record.id), scopes };
        if let Some(cache) = &self.cache {
            cache.insert(fingerprint, Arc::new(Verified { tenant: tenant.clone(), expires_at: record.expires_at }));
        }
        let pool = self.pool.clone();
        tokio::spawn(async move {
            if let Err(err) = tenants::touch_key(&pool, record.id).await {
                tracing::debug!(error = %err, "could not record key use");
            }
        });
        Ok(tenant)
    }

    /// Revokes a key (restricted to `tenant_id` when given) and forgets every cached verification, so the
    /// revocation holds at once on this instance.
    pub async fn revoke(&self, key_id: Uuid, tenant_id: Option<Uuid>) -> Result<Option<ApiKeyInfo>, Error> {
        let revoked = tenants::revoke_key(&self.pool, key_id, tenant_id).await?;
        if let Some(cache) = &self.cache {
            cache.invalidate_all();
        }
        Ok(revoked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_verify_and_have_a_prefix() {
        let key = generate_key().unwrap();
        assert_eq!(key_prefix(&key.secret), Some(key.prefix.as_str()));
        assert!(verify_hash(&key.secret, &key.hash));
        assert!(!verify_hash(&format!("{}x", key.secret), &key.hash));
        assert!(key.hash.starts_with("$argon2id$"));
    }

    #[test]
    fn scopes_parse_and_reject_unknown() {
        assert_eq!(parse_scopes(&["read,write".into()]).unwrap(), ["read", "write"]);
        assert!(parse_scopes(&["root".into()]).is_err());
        assert!(parse_scopes(&[]).is_err());
    }
}
