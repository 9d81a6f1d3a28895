//! Who is asking: API keys (generation, argon2id hashing, verification with a short cache), scopes, and
//! the [`Tenant`] context every use case takes. No HTTP here: `api::auth` reads a key off a request.
//!
//! A key looks like `cairn_<prefix>_<secret>`. The prefix finds the row; argon2id verifies the whole key
//! (its comparison is constant-time). Verified keys are cached for at most 30 s under the sha-256 of the
//! key, so argon2's deliberate cost is paid once per key and instance, not per request; a revocation,
//! rotation, suspension or deletion is announced by the database on `cairn_auth` and every instance forgets
//! just the affected entries at once ([`KeyVerifier::forget`]).
//!
//! `admin` holds the operators' identity (passwords, access JWTs, refresh-token families); `limits` the rate
//! limiters, tenant turns and login throttling (what a plan allows is `crate::tenancy`'s).

pub mod admin;
pub mod limits;
pub mod token;

use std::net::IpAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, SaltString};
use argon2::Argon2;
use chrono::{DateTime, Utc};
use rand::distributions::Alphanumeric;
use rand::Rng;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use uuid::Uuid;

pub use self::limits::{RateLimits, RateState};
use crate::config::VerifierSettings;
use crate::error::Error;
use crate::store::tenants;
use crate::tenancy::{ApiKeyInfo, KeyScope, LimitOverrides, NewKey, TenantAccess};

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
    /// The limits in force (the tenant's over its plan's); none for the service's own jobs.
    pub limits: Arc<LimitOverrides>,
    /// The request's turn among the tenant's requests in flight ([`limits::Concurrency`]), held as long as
    /// this context lives; none for jobs and the CLI.
    pub turn: Option<Arc<tokio::sync::OwnedSemaphorePermit>>,
    /// The WAL position a read must see (the client's `Cairn-Consistency-Token`, from a write of its own
    /// through another instance); none for jobs and the CLI.
    pub read_after: Option<crate::tenancy::consistency::Lsn>,
    /// What a scoped key or token is limited to (end users, agents, tag prefixes); None: the whole tenant.
    pub scope: Option<Arc<KeyScope>>,
}

impl Tenant {
    /// The service itself acting for a tenant (a background job): every scope.
    pub fn system(id: Uuid, job: &'static str) -> Self {
        Self {
            id,
            actor: Actor::System(job),
            scopes: vec![Scope::Admin],
            limits: Arc::default(),
            turn: None,
            read_after: None,
            scope: None,
        }
    }

    /// Forbidden for a scoped key or token: `what` covers the whole tenant.
    pub fn require_unscoped(&self, what: &str) -> Result<(), Error> {
        match &self.scope {
            None => Ok(()),
            Some(_) => Err(Error::Forbidden(format!(
                "this key is scoped to some end users, agents or tags; {what} covers the whole tenant and needs an unscoped key"
            ))),
        }
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

impl From<&Tenant> for crate::store::TxFor {
    fn from(t: &Tenant) -> Self {
        Self { tenant_id: t.id, scope: t.scope.as_ref().map(|s| s.setting()) }
    }
}

/// A verified key: its tenant context, its own rate limit and until when it is valid.
#[derive(Debug, Clone)]
struct Verified {
    tenant: Tenant,
    expires_at: Option<DateTime<Utc>>,
    key_rate: Option<u32>,
}

impl Verified {
    /// The context of a stored key (its tenant's limits are filled in per request).
    fn of(record: tenants::KeyRecord) -> Self {
        let scope = KeyScope::stored(record.scope_user_ids, record.scope_agent_ids, record.scope_tag_prefixes);
        Self {
            tenant: Tenant {
                id: record.tenant_id,
                actor: Actor::Key(record.id),
                scopes: record.scopes.iter().filter_map(|s| Scope::parse(s)).collect(),
                limits: Arc::new(LimitOverrides::default()),
                turn: None,
                read_after: None,
                scope: scope.map(Arc::new),
            },
            expires_at: record.expires_at,
            key_rate: record.rate_limit_per_second.and_then(|r| u32::try_from(r).ok()),
        }
    }
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

/// Generates a key and its argon2id hash (on the calling thread: callers go through an [`Argon2Budget`]).
pub fn generate_key() -> anyhow::Result<GeneratedKey> {
    generate_key_in(&mut Vec::new())
}

/// [`generate_key`] hashing in the working memory `blocks` (see [`verify_hash_in`]).
fn generate_key_in(blocks: &mut Vec<argon2::Block>) -> anyhow::Result<GeneratedKey> {
    let prefix = random_alnum(KEY_PREFIX_LEN).to_ascii_lowercase();
    let secret = format!("cairn_{prefix}_{}", random_alnum(KEY_SECRET_LEN));
    let hash = hash_in(&secret, blocks)?;
    Ok(GeneratedKey { secret, prefix, hash })
}

/// The argon2id PHC string of `secret` with a fresh salt, hashed in `blocks` (grown as needed, kept by the
/// caller: no 19 MiB allocation per hash).
fn hash_in(secret: &str, blocks: &mut Vec<argon2::Block>) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let argon = hasher();
    let params = argon.params().clone();
    if blocks.len() < params.block_count() {
        blocks.resize(params.block_count(), argon2::Block::default());
    }
    let mut salt_buf = [0u8; 64];
    let raw_salt = salt.decode_b64(&mut salt_buf).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    let mut out = [0u8; 32];
    argon
        .hash_password_into_with_memory(secret.as_bytes(), raw_salt, &mut out, &mut blocks[..params.block_count()])
        .map_err(|e| anyhow::anyhow!("hashing key: {e}"))?;
    let output = argon2::password_hash::Output::new(&out).map_err(|e| anyhow::anyhow!("hash output: {e}"))?;
    let (m, t, p) = (params.m_cost(), params.t_cost(), params.p_cost());
    Ok(format!("$argon2id$v=19$m={m},t={t},p={p}${}${output}", salt.as_str()))
}

/// Creates and stores a key for a tenant; returns the stored row and the secret (shown once). Hashes under
/// the process's shared [`Argon2Budget`]; the server's own paths use [`KeyVerifier::create_key`], whose budget
/// its verifications share.
pub async fn create_key(pool: &PgPool, tenant_id: Uuid, new: &NewKey) -> Result<(ApiKeyInfo, String), Error> {
    static SHARED: OnceLock<Argon2Budget> = OnceLock::new();
    let budget = SHARED.get_or_init(|| Argon2Budget::new(2, Duration::from_secs(30)));
    let key = budget.generate().await?;
    let info = tenants::insert_key(pool, tenant_id, &key.prefix, &key.hash, new).await?;
    Ok((info, key.secret))
}

/// The network an address counts against: itself for IPv4, its /64 for IPv6 (one host usually holds a whole
/// /64, so per-address limits would be trivial to dodge).
pub fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

/// The prefix of a well-formed key.
fn key_prefix(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("cairn_")?;
    let (prefix, secret) = rest.split_once('_')?;
    (prefix.len() == KEY_PREFIX_LEN && secret.len() == KEY_SECRET_LEN).then_some(prefix)
}

/// A hash to verify against when no admin account matches, so an unknown email costs as much as a wrong
/// password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        hasher().hash_password(b"cairn-decoy-key", &salt).map(|h| h.to_string()).unwrap_or_default()
    })
}

fn verify_hash(key: &str, hash: &str) -> bool {
    verify_hash_in(key, hash, &mut Vec::new())
}

/// Largest argon2 memory cost accepted from a stored hash, in KiB (ours is 19 MiB).
const MAX_M_COST_KIB: usize = 64 * 1024;

/// Verifies `key` against the PHC string `hash` in the working memory `blocks` (grown as needed and kept by
/// the caller): argon2's 19 MiB are allocated once per verifier slot, not per verification, so memory stays
/// flat under a flood (the allocator would otherwise keep a freed 19 MiB per thread that ever hashed). The
/// comparison is constant-time.
fn verify_hash_in(key: &str, hash: &str, blocks: &mut Vec<argon2::Block>) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    let Ok(params) = argon2::Params::try_from(&parsed) else { return false };
    let (Some(expected), Some(salt)) = (parsed.hash, parsed.salt) else { return false };
    let Ok(algorithm) = argon2::Algorithm::try_from(parsed.algorithm) else { return false };
    let version = match parsed.version.map(argon2::Version::try_from) {
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
        None => argon2::Version::V0x13,
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else { return false };
    let needed = params.block_count();
    if needed > MAX_M_COST_KIB {
        return false;
    }
    if blocks.len() < needed {
        blocks.resize(needed, argon2::Block::default());
    }
    let mut out = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params);
    argon.hash_password_into_with_memory(key.as_bytes(), salt, &mut out, &mut blocks[..needed]).is_ok()
        && argon2::password_hash::Output::new(&out).is_ok_and(|computed| computed == expected)
}

/// The refusal when no argon2 turn comes in time.
const ARGON2_BUSY: &str = "too many API keys are being verified; retry shortly";

/// argon2's work in one process, bounded: at most `permits` computations at once (verifying keys and
/// passwords, hashing new keys), each in a 19 MiB buffer allocated once per permit and reused, so neither a
/// flood of verifications nor of key creations grows memory beyond `permits` buffers.
#[derive(Debug)]
pub struct Argon2Budget {
    permits: Arc<tokio::sync::Semaphore>,
    memory: Arc<std::sync::Mutex<Vec<Vec<argon2::Block>>>>,
    wait: Duration,
    computed: std::sync::atomic::AtomicU64,
}

impl Argon2Budget {
    pub fn new(permits: usize, wait: Duration) -> Self {
        Self {
            permits: Arc::new(tokio::sync::Semaphore::new(permits.max(1))),
            memory: Arc::default(),
            wait,
            computed: Default::default(),
        }
    }

    /// Runs `work` on the blocking pool with a turn and a buffer (503 when no turn comes within the wait).
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<argon2::Block>) -> T + Send + 'static,
    ) -> Result<T, Error> {
        let permit = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| Error::Unavailable(ARGON2_BUSY.into()))?
            .map_err(|e| Error::Internal(e.into()))?;
        let memory = self.memory.clone();
        self.computed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        metrics::counter!("cairn_argon2_computations_total").increment(1);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            // At most `permits` buffers exist: one per permit.
            let mut blocks = memory.lock().ok().and_then(|mut m| m.pop()).unwrap_or_default();
            let out = work(&mut blocks);
            if let Ok(mut m) = memory.lock() {
                m.push(blocks);
            }
            out
        })
        .await
        .map_err(|e| Error::Internal(e.into()))
    }

    /// Whether `secret` matches the PHC string `hash`.
    pub async fn verify(&self, secret: &str, hash: String) -> Result<bool, Error> {
        let secret = secret.to_owned();
        self.run(move |blocks| verify_hash_in(&secret, &hash, blocks)).await
    }

    /// A new key and its hash.
    pub async fn generate(&self) -> Result<GeneratedKey, Error> {
        self.run(generate_key_in).await?.map_err(Error::Internal)
    }
}

/// A verified request: who acts for which tenant, the tenant's standing and the key's own rate limit.
#[derive(Debug, Clone)]
pub struct Authenticated {
    pub tenant: Tenant,
    pub access: Arc<TenantAccess>,
    pub key_rate: Option<u32>,
}

/// What the first verification of a key found, shared by every request that presented it meanwhile.
#[derive(Debug, Clone)]
enum Lookup {
    Valid(Arc<Verified>, Uuid),
    Invalid(Arc<str>),
}

/// First verifications under way: each key's shared outcome, by fingerprint.
type Inflight = std::collections::HashMap<[u8; 32], Arc<tokio::sync::OnceCell<Lookup>>>;

/// Addresses (or /64s) whose failures are tracked at most, before the stale ones are pruned at once.
const MAX_TRACKED_ADDRESSES: usize = 100_000;

/// Verifies keys against the database. Successes are cached under the sha-256 of the key (for at most
/// `cache_ttl`, and forgotten at once when the key or its tenant changes, see [`KeyVerifier::forget`]); so are
/// failures of every kind (unknown, wrong, revoked, expired), with their reason, so a failing key costs a
/// lookup and argon2 once per `failure_ttl`, never per request. Requests presenting the same key before its
/// first verification ends share that one verification. Malformed keys are refused without any work.
///
/// Every failed verification (malformed, unknown, wrong, revoked, expired, a suspended or deleted tenant,
/// remembered or not) is counted against the client's address (its /64 for IPv6): past `per_ip_per_second`
/// (bursts of `per_ip_burst`) the address is refused (429) before any key work for a second. Valid keys never
/// spend that allowance. argon2 runs under the [`Argon2Budget`] that key creation shares.
#[derive(Clone)]
pub struct KeyVerifier {
    pool: PgPool,
    /// Fails lookups fast while the database is known to be unreachable.
    breaker: Arc<crate::store::Breaker>,
    cache: Option<moka::sync::Cache<[u8; 32], Arc<Verified>>>,
    failures: moka::sync::Cache<[u8; 32], Arc<str>>,
    tenants: Option<moka::sync::Cache<Uuid, Arc<TenantAccess>>>,
    argon: Arc<Argon2Budget>,
    /// Operators' passwords have a budget of their own: a flood of logins never takes the keys' turns.
    passwords: Arc<Argon2Budget>,
    /// First verifications under way, by key fingerprint.
    inflight: Arc<std::sync::Mutex<Inflight>>,
    per_ip: Arc<limits::BoundedLimiter<Option<IpAddr>>>,
    blocked: moka::sync::Cache<Option<IpAddr>, ()>,
    /// Bumped by every [`KeyVerifier::forget`]: a lookup that started before a change never caches its
    /// (possibly stale) answer after it.
    generation: Arc<std::sync::atomic::AtomicU64>,
    /// Every key's and tenant's request-rate limiter on this instance.
    pub rates: RateLimits,
    /// Every tenant's requests in flight on this instance.
    pub concurrency: limits::Concurrency,
}

/// How long a tenant's standing is cached at most when no change is announced (a safety net; changes are
/// announced). Never longer than the key cache.
const TENANT_CACHE_TTL: Duration = Duration::from_secs(60);
/// How long an address that failed too often is refused.
const BLOCKED_FOR: Duration = Duration::from_secs(1);

impl KeyVerifier {
    pub fn new(pool: PgPool, breaker: Arc<crate::store::Breaker>, settings: &VerifierSettings) -> Self {
        let cache = (!settings.cache_ttl.is_zero()).then(|| {
            moka::sync::Cache::builder()
                .max_capacity(100_000)
                .time_to_live(settings.cache_ttl)
                .support_invalidation_closures()
                .build()
        });
        let failures = moka::sync::Cache::builder()
            .max_capacity(200_000)
            .time_to_live(settings.failure_ttl.max(Duration::from_millis(1)))
            .build();
        let tenants = (!settings.cache_ttl.is_zero()).then(|| {
            moka::sync::Cache::builder()
                .max_capacity(100_000)
                .time_to_live(TENANT_CACHE_TTL.min(settings.cache_ttl))
                .build()
        });
        let rate = std::num::NonZeroU32::new(settings.per_ip_per_second.max(1)).unwrap_or(std::num::NonZeroU32::MIN);
        let burst = std::num::NonZeroU32::new(settings.per_ip_burst.max(1)).unwrap_or(std::num::NonZeroU32::MIN);
        Self {
            pool,
            breaker,
            cache,
            failures,
            tenants,
            argon: Arc::new(Argon2Budget::new(settings.hashing, settings.hashing_wait)),
            passwords: Arc::new(Argon2Budget::new(1, settings.hashing_wait)),
            inflight: Arc::default(),
            per_ip: Arc::new(limits::BoundedLimiter::new(
                governor::Quota::per_second(rate).allow_burst(burst),
                MAX_TRACKED_ADDRESSES,
            )),
            blocked: moka::sync::Cache::builder().max_capacity(100_000).time_to_live(BLOCKED_FOR).build(),
            generation: Arc::default(),
            rates: RateLimits::default(),
            concurrency: limits::Concurrency::new(settings.tenant_concurrency, settings.tenant_concurrency_wait),
        }
    }

    fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Counts a failed verification against `client` (past its allowance it is refused for a while).
    fn count_failure(&self, client: Option<IpAddr>) {
        let client = client.map(network);
        if !self.per_ip.check(&client) {
            self.blocked.insert(client, ());
        }
    }

    /// Remembers a failing key with its reason, counts the failure against `client`, and returns the error.
    fn failed(&self, fingerprint: [u8; 32], client: Option<IpAddr>, reason: Arc<str>) -> Error {
        self.failures.insert(fingerprint, reason.clone());
        self.count_failure(client);
        Error::Unauthenticated(reason.to_string())
    }

    /// The tenant context behind a presented key, from the client at `client` (None when unknown: such
    /// clients share one allowance), or unauthenticated.
    pub async fn verify(&self, key: &str, client: Option<IpAddr>) -> Result<Authenticated, Error> {
        let fingerprint: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        if let Some(verified) = self.cache.as_ref().and_then(|c| c.get(&fingerprint)) {
            if verified.expires_at.is_none_or(|t| t > Utc::now()) {
                return self.standing(verified.tenant.clone(), verified.key_rate, client).await;
            }
            if let Some(cache) = &self.cache {
                cache.invalidate(&fingerprint);
            }
            return Err(self.failed(fingerprint, client, "API key expired".into()));
        }
        let Some(prefix) = key_prefix(key) else {
            self.count_failure(client);
            return Err(Error::Unauthenticated(
                "malformed API key: expected cairn_<12 characters>_<40 characters>".into(),
            ));
        };
        if self.blocked.contains_key(&client.map(network)) {
            return Err(Error::RateLimited {
                message: "too many invalid API keys from this address; retry in a second".into(),
                retry_after_secs: 1,
            });
        }
        if let Some(reason) = self.failures.get(&fingerprint) {
            self.count_failure(client);
            return Err(Error::Unauthenticated(reason.to_string()));
        }
        match self.first_verification(fingerprint, key, prefix, client).await? {
            (Lookup::Valid(verified, key_id), _) => {
                let pool = self.pool.clone();
                tokio::spawn(async move {
                    if let Err(err) = tenants::touch_key(&pool, key_id).await {
                        tracing::debug!(error = %err, "could not record key use");
                    }
                });
                self.standing(verified.tenant.clone(), verified.key_rate, client).await
            }
            // The first request's failure was counted by the verification itself; each other one counts its own.
            (Lookup::Invalid(reason), true) => Err(Error::Unauthenticated(reason.to_string())),
            (Lookup::Invalid(reason), false) => Err(self.failed(fingerprint, client, reason)),
        }
    }

    /// The tenant context behind a tenant token (`cairn_tok_` + JWT, [`token`]), from the client at `client`:
    /// the signature and expiry checked, then the key that minted it, which must still be a live admin key of
    /// the token's tenant (its state cached like a key's, and forgotten with it). The context acts as that
    /// key, with the token's scopes and scope; its requests count against that key's rate.
    pub async fn verify_token(
        &self,
        keys: &admin::TokenKeys,
        jwt: &str,
        client: Option<IpAddr>,
    ) -> Result<Authenticated, Error> {
        if self.blocked.contains_key(&client.map(network)) {
            return Err(Error::RateLimited {
                message: "too many invalid API keys from this address; retry in a second".into(),
                retry_after_secs: 1,
            });
        }
        let claims: token::TokenClaims = keys.decode(jwt, token::TOKEN_AUDIENCE, "token", 0).inspect_err(|_| {
            self.count_failure(client);
        })?;
        let refuse = |why: &str| {
            self.count_failure(client);
            Error::Unauthenticated(format!("invalid token: {why}"))
        };
        let parent = match self.minting_key(claims.sub).await? {
            Some(parent) if parent.tenant.id == claims.tid => parent,
            _ => return Err(refuse("the key that minted it no longer exists")),
        };
        if parent.expires_at.is_some_and(|t| t <= Utc::now()) {
            return Err(refuse("the key that minted it expired"));
        }
        if !parent.tenant.has(Scope::Admin) {
            return Err(refuse("the key that minted it is not an admin key"));
        }
        let scopes: Vec<Scope> =
            claims.scp.iter().filter_map(|s| Scope::parse(s)).filter(|s| *s != Scope::Admin).collect();
        if scopes.is_empty() {
            return Err(refuse("it grants no scope"));
        }
        let tenant = Tenant { scopes, scope: claims.scope().map(Arc::new), ..parent.tenant.clone() };
        self.standing(tenant, parent.key_rate, client).await
    }

    /// A live key by id, for the tokens it minted: cached with the keys (so forgotten with them), None when it
    /// is unknown or revoked.
    async fn minting_key(&self, id: Uuid) -> Result<Option<Arc<Verified>>, Error> {
        let fingerprint: [u8; 32] = Sha256::digest(format!("minting-key:{id}").as_bytes()).into();
        if let Some(verified) = self.cache.as_ref().and_then(|c| c.get(&fingerprint)) {
            return Ok(Some(verified));
        }
        let generation = self.generation();
        let Some(record) = self.breaker.guard(&self.pool, tenants::find_key_by_id(&self.pool, id)).await? else {
            return Ok(None);
        };
        if record.revoked_at.is_some() {
            return Ok(None);
        }
        let verified = Arc::new(Verified::of(record));
        self.remember(fingerprint, &verified, generation);
        Ok(Some(verified))
    }

    /// The one verification of a key not seen before: requests presenting it meanwhile wait for its outcome
    /// instead of running argon2 each. (A verification whose caller went away is taken over by the next.)
    ///
    /// The lookup runs detached: it finishes, and records a failure (remembered, and counted against the
    /// client that asked first), even when every request waiting for it goes away, so a client that hangs up
    /// early cannot make argon2 work for free. Returns the outcome and whether this request asked first (its
    /// failure is counted already).
    async fn first_verification(
        &self,
        fingerprint: [u8; 32],
        key: &str,
        prefix: &str,
        client: Option<IpAddr>,
    ) -> Result<(Lookup, bool), Error> {
        let cell = {
            let mut inflight = self.inflight.lock().map_err(|_| Error::internal("key verifications poisoned"))?;
            inflight.entry(fingerprint).or_default().clone()
        };
        let mut initiated = false;
        let outcome = cell
            .get_or_try_init(|| {
                initiated = true;
                let (this, key, prefix, shared) = (self.clone(), key.to_owned(), prefix.to_owned(), cell.clone());
                async move {
                    tokio::spawn(async move {
                        let outcome = this.lookup(fingerprint, &key, &prefix).await;
                        match &outcome {
                            Ok(Lookup::Invalid(reason)) => {
                                this.failures.insert(fingerprint, reason.clone());
                                this.count_failure(client);
                            }
                            // No turn to verify in time: the attempt still counts against its address.
                            Err(Error::Unavailable(message)) if message == ARGON2_BUSY => this.count_failure(client),
                            _ => {}
                        }
                        this.done_verifying(fingerprint, &shared);
                        outcome
                    })
                    .await
                    .map_err(|e| Error::Internal(e.into()))?
                }
            })
            .await
            .cloned();
        self.done_verifying(fingerprint, &cell);
        outcome.map(|lookup| (lookup, initiated))
    }

    /// Forgets the in-flight verification `cell` of a key (its outcome is cached by now, or it failed).
    fn done_verifying(&self, fingerprint: [u8; 32], cell: &Arc<tokio::sync::OnceCell<Lookup>>) {
        if let Ok(mut inflight) = self.inflight.lock() {
            if inflight.get(&fingerprint).is_some_and(|c| Arc::ptr_eq(c, cell)) {
                inflight.remove(&fingerprint);
            }
        }
    }

    /// Looks a key up and checks it with argon2; a valid key is cached before the outcome is shared.
    async fn lookup(&self, fingerprint: [u8; 32], key: &str, prefix: &str) -> Result<Lookup, Error> {
        let generation = self.generation();
        let Some(record) = self.breaker.guard(&self.pool, tenants::find_key(&self.pool, prefix)).await? else {
            return Ok(Lookup::Invalid("invalid API key".into()));
        };
        if !self.argon.verify(key, record.key_hash.clone()).await? {
            return Ok(Lookup::Invalid("invalid API key".into()));
        }
        if record.revoked_at.is_some() {
            return Ok(Lookup::Invalid("API key revoked".into()));
        }
        if record.expires_at.is_some_and(|t| t <= Utc::now()) {
            return Ok(Lookup::Invalid("API key expired".into()));
        }
        let id = record.id;
        let verified = Arc::new(Verified::of(record));
        self.remember(fingerprint, &verified, generation);
        Ok(Lookup::Valid(verified, id))
    }

    /// Caches a key verified by a lookup that began at `generation`.
    fn remember(&self, fingerprint: [u8; 32], verified: &Arc<Verified>, generation: u64) {
        if let Some(cache) = &self.cache {
            cache.insert(fingerprint, verified.clone());
            // A change announced since the lookup began may have missed this entry: drop it again.
            if self.generation() != generation {
                cache.invalidate(&fingerprint);
            }
        }
    }

    /// Checks an admin's password under the passwords' own argon2 budget (`hash` None: the account does not
    /// exist, and a decoy is checked so the answer takes as long).
    pub async fn check_password(&self, password: &str, hash: Option<String>) -> Result<bool, Error> {
        let known = hash.is_some();
        let matches = self.passwords.verify(password, hash.unwrap_or_else(|| decoy_hash().to_owned())).await?;
        Ok(known && matches)
    }

    /// Creates and stores a key for a tenant under this verifier's argon2 budget; returns the stored row and
    /// the secret (shown once).
    pub async fn create_key(&self, tenant_id: Uuid, new: &NewKey) -> Result<(ApiKeyInfo, String), Error> {
        let key = self.generate_key().await?;
        let info = tenants::insert_key(&self.pool, tenant_id, &key.prefix, &key.hash, new).await?;
        Ok((info, key.secret))
    }

    /// A new key and its hash, under this verifier's argon2 budget (for rotation).
    pub async fn generate_key(&self) -> Result<GeneratedKey, Error> {
        self.argon.generate().await
    }

    /// `tenant` with its standing and limits, refused unless the tenant is active (a failure counted against
    /// `client`, like any other).
    async fn standing(
        &self,
        mut tenant: Tenant,
        key_rate: Option<u32>,
        client: Option<IpAddr>,
    ) -> Result<Authenticated, Error> {
        let access = self.access(tenant.id).await?;
        if let Err(refused) = access.require_active() {
            self.count_failure(client);
            if self.blocked.contains_key(&client.map(network)) {
                return Err(Error::RateLimited {
                    message: "too many refused API keys from this address; retry in a second".into(),
                    retry_after_secs: 1,
                });
            }
            return Err(refused);
        }
        tenant.limits = Arc::new(access.limits.clone());
        Ok(Authenticated { tenant, access, key_rate })
    }

    /// A tenant's standing and limits in force (cached).
    pub async fn access(&self, tenant_id: Uuid) -> Result<Arc<TenantAccess>, Error> {
        if let Some(access) = self.tenants.as_ref().and_then(|c| c.get(&tenant_id)) {
            return Ok(access);
        }
        let generation = self.generation();
        let access = Arc::new(
            self.breaker
                .guard(&self.pool, tenants::access(&self.pool, tenant_id))
                .await?
                .ok_or_else(|| Error::Unauthenticated("the API key's tenant no longer exists".into()))?,
        );
        if let Some(cache) = &self.tenants {
            cache.insert(tenant_id, access.clone());
            if self.generation() != generation {
                cache.invalidate(&tenant_id);
            }
        }
        Ok(access)
    }

    /// Forgets what this instance cached about a key, a tenant or every tenant of a plan, as announced on
    /// `cairn_auth` (`key:<id>`, `tenant:<id>`, `plan:<name>`); anything else forgets everything.
    pub fn forget(&self, change: &str) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let id = |s: &str| Uuid::parse_str(s).ok();
        match change.split_once(':') {
            Some(("key", k)) if id(k).is_some() => {
                let key_id = id(k);
                if let Some(cache) = &self.cache {
                    let _ = cache.invalidate_entries_if(move |_, v| v.tenant.key_id() == key_id);
                }
                self.rates.forget(key_id.unwrap_or_default());
            }
            Some(("tenant", t)) if id(t).is_some() => {
                let tenant_id = id(t).unwrap_or_default();
                if let Some(tenants) = &self.tenants {
                    tenants.invalidate(&tenant_id);
                }
                if let Some(cache) = &self.cache {
                    let _ = cache.invalidate_entries_if(move |_, v| v.tenant.id == tenant_id);
                }
                self.rates.forget(tenant_id);
            }
            Some(("plan", _)) => {
                if let Some(tenants) = &self.tenants {
                    tenants.invalidate_all();
                }
            }
            _ => {
                if let Some(tenants) = &self.tenants {
                    tenants.invalidate_all();
                }
                if let Some(cache) = &self.cache {
                    cache.invalidate_all();
                }
            }
        }
    }

    /// Drops the per-address allowances of addresses not seen for a while.
    pub fn prune(&self) {
        self.per_ip.prune();
    }

    /// argon2 computations this verifier has run (verifications and new keys): a flood of one failing key,
    /// or of concurrent first uses of one key, costs one.
    pub fn argon2_computations(&self) -> u64 {
        self.argon.computed.load(std::sync::atomic::Ordering::Relaxed)
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
