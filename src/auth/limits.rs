//! How fast and how much at once a tenant may ask: the per-instance rate limiters (governor's GCRA, the engine
//! under tower-governor) of each key and tenant, applying its plan's limits with its own overrides
//! (`crate::tenancy`, read from the database once and cached; changes are announced on `cairn_auth`, see
//! [`super::KeyVerifier::forget`]); a tenant's turns; the bounded per-address limiter; login throttling.
//!
//! Rate-limit state is per instance: behind N instances a tenant can make up to N times its limit. The
//! README says so; operators set the limits per instance accordingly.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use uuid::Uuid;

use crate::error::Error;
use crate::tenancy::TenantAccess;

type Limiter = RateLimiter<NotKeyed, InMemoryState, DefaultClock, StateInformationMiddleware>;

/// A rate-limited request's standing: what the response's `X-RateLimit-*` headers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateState {
    /// Requests allowed in a burst.
    pub limit: u32,
    /// Requests left in the current burst.
    pub remaining: u32,
    /// Seconds until the burst is whole again.
    pub reset_secs: u64,
    /// When refused: seconds to wait before retrying.
    pub retry_after_secs: Option<u64>,
}

/// One limiter and the quota it was built with (rebuilt when the quota changes).
struct Bucket {
    rate: u32,
    burst: u32,
    limiter: Limiter,
}

impl Bucket {
    fn new(rate: u32, burst: u32) -> Self {
        let rate_nz = NonZeroU32::new(rate.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst_nz = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        let limiter = RateLimiter::direct(Quota::per_second(rate_nz).allow_burst(burst_nz))
            .with_middleware::<StateInformationMiddleware>();
        Self { rate, burst, limiter }
    }

    fn check(&self) -> RateState {
        let per_request = Duration::from_secs_f64(1.0 / f64::from(self.rate.max(1)));
        match self.limiter.check() {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                let reset = per_request.mul_f64(f64::from(self.burst.saturating_sub(remaining)));
                RateState {
                    limit: self.burst,
                    remaining,
                    reset_secs: reset.as_secs_f64().ceil() as u64,
                    retry_after_secs: None,
                }
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let reset = per_request.mul_f64(f64::from(self.burst));
                RateState {
                    limit: self.burst,
                    remaining: 0,
                    reset_secs: reset.as_secs_f64().ceil() as u64,
                    retry_after_secs: Some(wait.as_secs_f64().ceil().max(1.0) as u64),
                }
            }
        }
    }
}

/// Requests of one tenant in flight on this instance at once: a tenant may have at most `per_tenant` served
/// together, the rest wait for a turn (up to `wait`, then 429). Rate limits bound how often a tenant asks; this
/// bounds how much of the instance its costly requests (traversals, imports, recalls) can hold at once, so one
/// tenant's load cannot take every core from the others. Idle tenants' entries are dropped after ten minutes.
#[derive(Clone)]
pub struct Concurrency {
    per_tenant: usize,
    wait: Duration,
    tenants: moka::sync::Cache<Uuid, Arc<tokio::sync::Semaphore>>,
}

impl Concurrency {
    pub fn new(per_tenant: usize, wait: Duration) -> Self {
        let tenants = moka::sync::Cache::builder().max_capacity(200_000).time_to_idle(Duration::from_secs(600)).build();
        Self { per_tenant: per_tenant.max(1), wait, tenants }
    }

    /// A turn for one request of `tenant`, held until it is dropped.
    pub async fn turn(&self, tenant: Uuid) -> Result<Arc<tokio::sync::OwnedSemaphorePermit>, Error> {
        let turns = self.tenants.get_with(tenant, || Arc::new(tokio::sync::Semaphore::new(self.per_tenant)));
        match tokio::time::timeout(self.wait, turns.acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Arc::new(permit)),
            Ok(Err(e)) => Err(Error::Internal(e.into())),
            Err(_) => Err(Error::RateLimited {
                message: format!(
                    "this tenant already has {} requests in progress on this instance; retry when one ends",
                    self.per_tenant
                ),
                retry_after_secs: 1,
            }),
        }
    }
}

/// An end user of a tenant: (tenant, `user_id` or `agent_id`, the end user).
type EndUser = (Uuid, &'static str, String);

/// Every key's, tenant's and end user's limiter on this instance (idle ones are dropped after ten minutes; at
/// most 200,000 of each kind are kept, the least recently used dropped first).
#[derive(Clone)]
pub struct RateLimits {
    keys: moka::sync::Cache<Uuid, Arc<Bucket>>,
    tenants: moka::sync::Cache<Uuid, Arc<Bucket>>,
    end_users: moka::sync::Cache<EndUser, Arc<Bucket>>,
}

fn limiter_cache<K: std::hash::Hash + Eq + Send + Sync + 'static>() -> moka::sync::Cache<K, Arc<Bucket>> {
    moka::sync::Cache::builder().max_capacity(200_000).time_to_idle(Duration::from_secs(600)).build()
}

impl Default for RateLimits {
    fn default() -> Self {
        Self { keys: limiter_cache(), tenants: limiter_cache(), end_users: limiter_cache() }
    }
}

impl RateLimits {
    fn bucket<K: std::hash::Hash + Eq + Send + Sync + 'static>(
        cache: &moka::sync::Cache<K, Arc<Bucket>>,
        id: K,
        rate: u32,
        burst: u32,
    ) -> Arc<Bucket> {
        match cache.get(&id) {
            Some(bucket) if bucket.rate == rate && bucket.burst == burst => bucket,
            _ => {
                let bucket = Arc::new(Bucket::new(rate, burst));
                cache.insert(id, bucket.clone());
                bucket
            }
        }
    }

    /// Counts one request of `tenant` for an end user (`kind` is `user_id` or `agent_id`) limited to `rate`
    /// requests per second (bursts of twice that), whichever key or token makes it. A refusal is a 429 naming
    /// the field `field()` names, the end user and the limit.
    pub fn check_end_user(
        &self,
        tenant: Uuid,
        kind: &'static str,
        end_user: &str,
        rate: u32,
        field: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        let state =
            Self::bucket(&self.end_users, (tenant, kind, end_user.to_owned()), rate, rate.saturating_mul(2)).check();
        match state.retry_after_secs {
            None => Ok(()),
            Some(wait) => Err(Error::RateLimited {
                message: format!(
                    "{}: rate limit exceeded: {kind} {end_user:?} may make {rate} requests per second (bursts of {}); \
                     retry after {wait} s",
                    field(),
                    state.limit
                ),
                retry_after_secs: wait,
            }),
        }
    }

    /// Counts one request of `key_id` (whose own limit is `key_rate`, never above its plan's per-key limit) of
    /// `tenant`: the tighter of the key's and the tenant's standing, or None when neither is limited. The key
    /// is checked first, so a key over its own limit does not spend its tenant's allowance. A refusal is an
    /// error naming the limit.
    pub fn check(
        &self,
        tenant: &TenantAccess,
        key_id: Option<Uuid>,
        key_rate: Option<u32>,
    ) -> Result<Option<RateState>, (Error, RateState)> {
        let planned = tenant.limits.key_requests_per_second;
        let key_rate = match (key_rate, planned) {
            (Some(own), Some(plan)) => Some(own.min(plan)),
            (own, plan) => own.or(plan),
        };
        let refuse = |whose: &str, rate: u32, refused: RateState| {
            let wait = refused.retry_after_secs.unwrap_or(1);
            let message = format!(
                "rate limit exceeded: this {whose} may make {rate} requests per second (bursts of {}); retry after {wait} s",
                refused.limit
            );
            (Error::RateLimited { message, retry_after_secs: wait }, refused)
        };
        let mut states = Vec::with_capacity(2);
        if let (Some(key_id), Some(rate)) = (key_id, key_rate) {
            let state = Self::bucket(&self.keys, key_id, rate, rate.saturating_mul(2)).check();
            if state.retry_after_secs.is_some() {
                return Err(refuse("key", rate, state));
            }
            states.push(state);
        }
        if let Some(rate) = tenant.limits.requests_per_second {
            let burst = tenant.limits.burst.unwrap_or(rate.saturating_mul(2));
            let state = Self::bucket(&self.tenants, tenant.id, rate, burst).check();
            if state.retry_after_secs.is_some() {
                return Err(refuse("tenant", rate, state));
            }
            states.push(state);
        }
        Ok(states.into_iter().min_by_key(|s| s.remaining))
    }

    /// Forgets a key's or tenant's limiter (its limits changed).
    pub fn forget(&self, id: Uuid) {
        self.keys.invalidate(&id);
        self.tenants.invalidate(&id);
    }
}

/// A keyed rate limiter whose map stays bounded: keys not seen for a while are pruned, and when more than
/// `max` keys are still tracked after a prune (a flood from many addresses) it starts afresh, which costs the
/// flood its accumulated refusals but never the server its memory.
pub struct BoundedLimiter<K: std::hash::Hash + Eq + Clone> {
    quota: Quota,
    max: usize,
    inner: std::sync::RwLock<Arc<governor::DefaultKeyedRateLimiter<K>>>,
}

impl<K: std::hash::Hash + Eq + Clone> BoundedLimiter<K> {
    pub fn new(quota: Quota, max: usize) -> Self {
        Self { quota, max, inner: std::sync::RwLock::new(Arc::new(RateLimiter::keyed(quota))) }
    }

    fn current(&self) -> Arc<governor::DefaultKeyedRateLimiter<K>> {
        match self.inner.read() {
            Ok(inner) => inner.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Spends one cell of `key`'s allowance: false when it is spent.
    pub fn check(&self, key: &K) -> bool {
        let limiter = self.current();
        let allowed = limiter.check_key(key).is_ok();
        if limiter.len() > self.max {
            self.prune();
        }
        allowed
    }

    /// Drops keys not seen for a while; starts afresh when still over the bound.
    pub fn prune(&self) {
        let limiter = self.current();
        limiter.retain_recent();
        limiter.shrink_to_fit();
        if limiter.len() > self.max {
            if let Ok(mut inner) = self.inner.write() {
                *inner = Arc::new(RateLimiter::keyed(self.quota));
            }
        }
    }

    /// Keys tracked now.
    pub fn len(&self) -> usize {
        self.current().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Throttles operator logins by their failures only: a wrong password counts against the account *from that
/// address* (5 a minute, then that address is refused for that account for a minute) and against the address
/// (20 a minute for all accounts). A correct password from an address that has not failed is never refused
/// because another address failed, so nobody can lock the real operator out by guessing. Addresses count per
/// IPv4 address or IPv6 /64; the maps are pruned, and bounded.
pub struct LoginThrottle {
    per_account: BoundedLimiter<(String, Option<std::net::IpAddr>)>,
    per_address: BoundedLimiter<Option<std::net::IpAddr>>,
    refused: moka::sync::Cache<(String, Option<std::net::IpAddr>), ()>,
    refused_addresses: moka::sync::Cache<Option<std::net::IpAddr>, ()>,
}

/// Failed logins one address may make for one account, and for all accounts, per minute.
pub const LOGIN_FAILURES_PER_ACCOUNT: u32 = 5;
pub const LOGIN_FAILURES_PER_ADDRESS: u32 = 20;
/// How long an address is refused after too many failures.
pub const LOGIN_REFUSED_FOR: Duration = Duration::from_secs(60);
/// Keys each limiter tracks at most before stale ones are pruned at once.
const MAX_TRACKED: usize = 100_000;

impl Default for LoginThrottle {
    fn default() -> Self {
        // The n-th failure within a minute is the one that refuses: n - 1 pass.
        let per_minute = |n: u32| {
            Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
                .allow_burst(NonZeroU32::new(n.saturating_sub(1)).unwrap_or(NonZeroU32::MIN))
        };
        Self {
            per_account: BoundedLimiter::new(per_minute(LOGIN_FAILURES_PER_ACCOUNT), MAX_TRACKED),
            per_address: BoundedLimiter::new(per_minute(LOGIN_FAILURES_PER_ADDRESS), MAX_TRACKED),
            refused: moka::sync::Cache::builder().max_capacity(100_000).time_to_live(LOGIN_REFUSED_FOR).build(),
            refused_addresses: moka::sync::Cache::builder()
                .max_capacity(100_000)
                .time_to_live(LOGIN_REFUSED_FOR)
                .build(),
        }
    }
}

impl LoginThrottle {
    /// Refuses (429) an address that failed too often, for this account or for all; spends nothing.
    pub fn check(&self, account: &str, client: Option<std::net::IpAddr>) -> Result<(), Error> {
        let client = client.map(super::network);
        if self.refused_addresses.contains_key(&client) {
            return Err(Error::RateLimited {
                message: "too many failed logins from this address; retry in a minute".into(),
                retry_after_secs: LOGIN_REFUSED_FOR.as_secs(),
            });
        }
        if self.refused.contains_key(&(account.to_owned(), client)) {
            return Err(Error::RateLimited {
                message: "too many failed logins for this account from this address; retry in a minute".into(),
                retry_after_secs: LOGIN_REFUSED_FOR.as_secs(),
            });
        }
        Ok(())
    }

    /// Counts a failed login of `account` from `client`.
    pub fn failed(&self, account: &str, client: Option<std::net::IpAddr>) {
        let client = client.map(super::network);
        let key = (account.to_owned(), client);
        if !self.per_account.check(&key) {
            self.refused.insert(key, ());
        }
        if !self.per_address.check(&client) {
            self.refused_addresses.insert(client, ());
        }
    }

    /// Drops what is known of accounts and addresses not seen for a while.
    pub fn prune(&self) {
        self.per_account.prune();
        self.per_address.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenancy::{LimitOverrides, TenantStatus};

    #[test]
    fn a_bounded_limiter_never_tracks_more_than_its_bound() {
        let limiter = BoundedLimiter::new(Quota::per_minute(NonZeroU32::new(5).unwrap()), 100);
        for i in 0..10_000_u32 {
            assert!(limiter.check(&i), "a first failure is allowed");
            assert!(limiter.len() <= 101, "{} keys tracked", limiter.len());
        }
        // A key keeps its own allowance while the map is within bounds.
        for _ in 0..5 {
            assert!(limiter.check(&u32::MAX));
        }
        assert!(!limiter.check(&u32::MAX));
    }

    #[test]
    fn failed_logins_refuse_that_address_for_that_account_only() {
        let throttle = LoginThrottle::default();
        let attacker: Option<std::net::IpAddr> = "2001:db8:1:2::1".parse().ok();
        let same_net: Option<std::net::IpAddr> = "2001:db8:1:2::ffff".parse().ok();
        let operator: Option<std::net::IpAddr> = "198.51.100.7".parse().ok();
        for _ in 0..LOGIN_FAILURES_PER_ACCOUNT + 1 {
            throttle.failed("ops@example.com", attacker);
        }
        assert!(throttle.check("ops@example.com", attacker).is_err());
        assert!(throttle.check("ops@example.com", same_net).is_err(), "an IPv6 /64 counts as one address");
        assert!(throttle.check("ops@example.com", operator).is_ok(), "another address is not refused");
        assert!(throttle.check("other@example.com", attacker).is_ok(), "nor is another account from it");
        // Checking spends nothing: an address that never failed is never refused.
        for _ in 0..100 {
            assert!(throttle.check("ops@example.com", operator).is_ok());
        }
    }

    fn access(limits: LimitOverrides) -> TenantAccess {
        TenantAccess { id: Uuid::new_v4(), status: TenantStatus::Active, plan: "t".into(), limits }
    }

    #[test]
    fn overrides_fall_through_and_validate() {
        let plan = LimitOverrides { max_memories: Some(10), max_batch: Some(5), ..Default::default() };
        let tenant = LimitOverrides { max_memories: Some(20), ..Default::default() };
        let merged = tenant.over(&plan);
        assert_eq!((merged.max_memories, merged.max_batch), (Some(20), Some(5)));
        assert!(LimitOverrides::from_json(&serde_json::json!({"max_batch": 0})).unwrap_err().contains("max_batch"));
        assert!(LimitOverrides::from_json(&serde_json::json!({"bogus": 1})).unwrap_err().contains("bogus"));
    }

    #[test]
    fn a_burst_is_allowed_then_refused_with_a_wait() {
        let limits = RateLimits::default();
        let tenant = access(LimitOverrides { requests_per_second: Some(1), burst: Some(3), ..Default::default() });
        for remaining in [2, 1, 0] {
            let state = limits.check(&tenant, None, None).unwrap().unwrap();
            assert_eq!((state.limit, state.remaining), (3, remaining));
        }
        let (err, state) = limits.check(&tenant, None, None).unwrap_err();
        assert!(matches!(err, Error::RateLimited { retry_after_secs: 1, .. }), "{err:?}");
        assert_eq!(state.remaining, 0);
        let unlimited = access(LimitOverrides::default());
        assert_eq!(limits.check(&unlimited, Some(Uuid::new_v4()), None).unwrap(), None);
    }
}
