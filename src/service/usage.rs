//! Usage metering and quotas.
//!
//! Hot-path counts (requests by class, recalls, memories stored, embeddings computed, chat-model calls) are
//! added to an in-memory [`Meter`] and flushed to `usage_daily` every few seconds: no write per request.
//! The daily budgets of costly calls are spent atomically in the database ([`spend`]), so no instance can
//! overshoot them; storage quotas are checked in the writing transaction after the write was counted
//! ([`check_storage`]), so a write over quota leaves nothing behind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{Duration, NaiveDate, Utc};
use uuid::Uuid;

use super::Services;
use crate::auth::{Scope, Tenant};
use crate::error::{Error, Result};
use crate::store::{usage, Db, TenantTx};
use crate::tenancy::{Budget, LimitOverrides};

/// Counters of the meter.
pub mod counter {
    pub const READS: &str = "requests_read";
    pub const WRITES: &str = "requests_write";
    pub const RECALLS: &str = "recalls";
    pub const STORED: &str = "memories_stored";
    pub const EMBEDDINGS: &str = "embeddings";
    pub const CHAT_CALLS: &str = "chat_calls";
    /// Per end user: the requests that stored, listed or recalled for it.
    pub const REQUESTS: &str = "requests";
}

/// A tenant's counter on one UTC day.
type CounterKey = (Uuid, NaiveDate, &'static str);

/// An end user's counter on one UTC day: (tenant, day, `user_id` or `agent_id`, the end user, counter).
type EndUserKey = (Uuid, NaiveDate, &'static str, String, &'static str);

/// Counts not yet flushed, per tenant (and per end user), day and counter. Cheap to clone (shared).
#[derive(Clone, Default)]
pub struct Meter {
    pending: Arc<Mutex<HashMap<CounterKey, i64>>>,
    end_users: Arc<Mutex<HashMap<EndUserKey, i64>>>,
}

impl Meter {
    /// Adds `n` to a tenant's counter for today.
    pub fn add(&self, tenant_id: Uuid, counter: &'static str, n: i64) {
        if n == 0 {
            return;
        }
        let day = Utc::now().date_naive();
        if let Ok(mut pending) = self.pending.lock() {
            *pending.entry((tenant_id, day, counter)).or_default() += n;
        }
    }

    /// Adds `n` to an end user's counter for today (`kind` is `user_id` or `agent_id`).
    pub fn add_end_user(&self, tenant_id: Uuid, kind: &'static str, end_user: &str, counter: &'static str, n: i64) {
        if n == 0 {
            return;
        }
        let day = Utc::now().date_naive();
        if let Ok(mut pending) = self.end_users.lock() {
            *pending.entry((tenant_id, day, kind, end_user.to_owned(), counter)).or_default() += n;
        }
    }

    /// Writes the pending counts; on failure they are kept for the next flush.
    pub async fn flush(&self, db: &Db) -> Result<()> {
        let taken = drain(&self.pending);
        let rows: Vec<(Uuid, NaiveDate, &str, i64)> = taken.iter().map(|((t, d, c), n)| (*t, *d, *c, *n)).collect();
        if let Err(err) = usage::add(db.owner(), &rows).await {
            keep(&self.pending, taken);
            return Err(err);
        }
        let taken = drain(&self.end_users);
        let rows: Vec<usage::EndUserCount> = taken
            .iter()
            .map(|((t, d, kind, who, c), n)| usage::EndUserCount {
                tenant_id: *t,
                day: *d,
                kind,
                end_user: who,
                counter: c,
                value: *n,
            })
            .collect();
        if let Err(err) = usage::add_end_users(db.owner(), &rows).await {
            keep(&self.end_users, taken);
            return Err(err);
        }
        Ok(())
    }
}

fn drain<K: std::hash::Hash + Eq>(pending: &Mutex<HashMap<K, i64>>) -> Vec<(K, i64)> {
    match pending.lock() {
        Ok(mut pending) => pending.drain().collect(),
        Err(_) => Vec::new(),
    }
}

/// Puts counts that could not be written back, for the next flush.
fn keep<K: std::hash::Hash + Eq>(pending: &Mutex<HashMap<K, i64>>, taken: Vec<(K, i64)>) {
    if let Ok(mut pending) = pending.lock() {
        for (key, n) in taken {
            *pending.entry(key).or_default() += n;
        }
    }
}

/// The end users a call acts for: `(kind, end user, batch item)`, `kind` being `user_id` or `agent_id`, and the
/// index of the batch item that names it, if a batch does (errors name `memories[{i}].user_id`).
pub type Acting<'a> = Vec<(&'static str, &'a str, Option<usize>)>;

/// The end user and agent one memory (or filter) is for, as [`Acting`] entries.
pub fn acting_for<'a>(user_id: Option<&'a str>, agent_id: Option<&'a str>, batch_item: Option<usize>) -> Acting<'a> {
    let mut acting = Vec::with_capacity(2);
    if let Some(user) = user_id {
        acting.push(("user_id", user, batch_item));
    }
    if let Some(agent) = agent_id {
        acting.push(("agent_id", agent, batch_item));
    }
    acting
}

/// Admits one call of a tenant's key or token for the end users it acts for (each once): against the
/// tenant's `user_requests_per_second` / `agent_requests_per_second` (a 429 naming the field and the end user),
/// then counted as a request of each, plus `counter` when given (`recalls`). The service's own jobs and
/// operators' looks are neither limited nor counted.
pub fn end_user_call(svc: &Services, t: &Tenant, acting: &Acting<'_>, counter: Option<&'static str>) -> Result<()> {
    if t.key_id().is_none() || acting.is_empty() {
        return Ok(());
    }
    let mut seen = std::collections::HashSet::with_capacity(acting.len());
    let acting: Vec<_> = acting.iter().filter(|(kind, who, _)| seen.insert((*kind, *who))).collect();
    for (kind, who, item) in &acting {
        let rate = match *kind {
            "user_id" => t.limits.user_requests_per_second,
            _ => t.limits.agent_requests_per_second,
        };
        if let Some(rate) = rate {
            let field = || item.map_or_else(|| kind.to_string(), |i| format!("memories[{i}].{kind}"));
            if let Err(err) = svc.keys.rates.check_end_user(t.id, kind, who, rate, field) {
                note_quota(t.id, &format!("{}_requests_per_second", kind.trim_end_matches("_id")), &err.to_string());
                return Err(err);
            }
        }
    }
    for (kind, who, _) in acting {
        svc.usage.add_end_user(t.id, kind, who, counter::REQUESTS, 1);
        if let Some(counter) = counter {
            svc.usage.add_end_user(t.id, kind, who, counter, 1);
        }
    }
    Ok(())
}

/// Days of per-end-user counts kept (the longest usage window, and a margin); older ones are pruned.
pub const END_USER_DAYS_KEPT: i64 = 400;
/// How often an instance prunes them (at most 10,000 rows a time: a backlog goes over several passes).
const END_USER_PRUNE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// How often one quota of one tenant is announced (`quota.reached`) at most, per instance.
const QUOTA_NOTICE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Quotas reached on this instance, waiting to be announced to their tenants' webhooks at the next flush, and
/// when each was last announced. (Process-wide: the storage check that refuses a write runs inside the
/// writing transaction, which rolls back, and has nothing else to hand a notice to.)
#[derive(Default)]
struct QuotaNotices {
    pending: HashMap<(Uuid, String), String>,
    announced: HashMap<(Uuid, String), std::time::Instant>,
}

static QUOTA_NOTICES: std::sync::LazyLock<Mutex<QuotaNotices>> = std::sync::LazyLock::new(Mutex::default);

/// Notes that a tenant reached `quota` (refused with `message`), unless this instance announced it within
/// the hour.
fn note_quota(tenant_id: Uuid, quota: &str, message: &str) {
    let Ok(mut notices) = QUOTA_NOTICES.lock() else { return };
    let key = (tenant_id, quota.to_owned());
    if notices.announced.get(&key).is_some_and(|at| at.elapsed() < QUOTA_NOTICE_EVERY) {
        return;
    }
    notices.pending.insert(key, message.to_owned());
}

/// Announces the quotas noted since the last flush: a `quota.reached` event for each tenant's webhooks.
pub async fn announce_quotas(db: &Db) {
    let taken: Vec<((Uuid, String), String)> = match QUOTA_NOTICES.lock() {
        Ok(mut notices) => {
            let taken: Vec<_> = notices.pending.drain().collect();
            let now = std::time::Instant::now();
            notices.announced.retain(|_, at| at.elapsed() < QUOTA_NOTICE_EVERY);
            for (key, _) in &taken {
                notices.announced.insert(key.clone(), now);
            }
            taken
        }
        Err(_) => return,
    };
    for ((tenant_id, quota), message) in taken {
        let announced = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            let data = serde_json::json!({"quota": quota, "message": message});
            crate::store::webhooks::emit(&mut tx, "quota.reached", None, &data).await?;
            tx.commit().await
        };
        if let Err(err) = announced.await {
            tracing::warn!(%tenant_id, error = %err, "could not record a quota.reached webhook event");
        }
    }
}

/// Flushes `meter` every `every` until `stop` resolves, and once more then.
pub async fn flush_every(
    db: Db,
    meter: Meter,
    every: std::time::Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    let pruned_at = Mutex::new(None::<std::time::Instant>);
    let (db, meter, pruned_at) = (&db, &meter, &pruned_at);
    let tick = move || async move {
        if let Err(err) = meter.flush(db).await {
            tracing::warn!(error = %err, "could not flush usage counts; kept for the next flush");
        }
        announce_quotas(db).await;
        if let Err(err) = usage::rollup(db.owner()).await {
            tracing::warn!(error = %err, "could not fold the storage counters; the next flush will");
        }
        let due = pruned_at.lock().is_ok_and(|mut at| match *at {
            Some(t) if t.elapsed() < END_USER_PRUNE_EVERY => false,
            _ => {
                *at = Some(std::time::Instant::now());
                true
            }
        });
        if due {
            let before = Utc::now().date_naive() - Duration::days(END_USER_DAYS_KEPT);
            // In batches of 10,000 until none is left or 30 s have gone (the next pass goes on).
            let started = std::time::Instant::now();
            let mut pruned = 0;
            while started.elapsed() < std::time::Duration::from_secs(30) {
                match usage::prune_end_users(db.owner(), before, 10_000).await {
                    Ok(0) => break,
                    Ok(n) => pruned += n,
                    Err(err) => {
                        tracing::warn!(error = %err, "could not prune old per-end-user usage counts");
                        break;
                    }
                }
            }
            if pruned > 0 {
                tracing::info!(rows = pruned, %before, "pruned old per-end-user usage counts");
            }
        }
    };
    let last = async move {
        if let Err(err) = meter.flush(db).await {
            tracing::warn!(error = %err, "could not flush usage counts at shutdown");
        }
    };
    super::every_until(every, stop, tick, last).await;
}

/// Spends `n` of a tenant's daily budget, or refuses with 429 naming the budget, its limit and when it
/// renews. Unlimited budgets spend nothing.
pub async fn spend(svc: &Services, t: &Tenant, budget: Budget, n: u64) -> Result<()> {
    let Some(limit) = budget.limit(&t.limits) else { return Ok(()) };
    if n == 0 {
        return Ok(());
    }
    if n > limit {
        return Err(Error::Forbidden(format!(
            "quota {}_per_day is {limit} per UTC day and this call needs {n}: ask for at most {limit} at once",
            budget.counter()
        )));
    }
    let now = Utc::now();
    let spent = usage::spend(
        svc.db.owner(),
        t.id,
        now.date_naive(),
        budget.counter(),
        i64::try_from(n).unwrap_or(i64::MAX),
        i64::try_from(limit).unwrap_or(i64::MAX),
    )
    .await?;
    if spent.is_some() {
        return Ok(());
    }
    let midnight = (now.date_naive() + Duration::days(1)).and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let retry_after_secs = (midnight - now).num_seconds().max(1) as u64;
    let message = format!(
        "quota {}_per_day exceeded: the limit is {limit} per UTC day and this call needs {n}; it renews at 00:00 UTC",
        budget.counter()
    );
    note_quota(t.id, &format!("{}_per_day", budget.counter()), &message);
    Err(Error::RateLimited { message, retry_after_secs })
}

/// Refuses (403, naming the quota and its limit) when the tenant of `tx`, counting this transaction's writes,
/// stores more than its limits allow. Call after writing, before committing: the transaction then rolls back.
///
/// `grew` says whether this transaction added memories or bytes: a write that adds nothing (a duplicate
/// resolved to the memory that holds it, archiving, deleting) is never refused, even over quota. Every edit
/// grows what is stored, by its history.
pub async fn check_storage(tx: &mut TenantTx, limits: &LimitOverrides, grew: bool) -> Result<()> {
    if !grew || (limits.max_memories.is_none() && limits.max_storage_bytes.is_none()) {
        return Ok(());
    }
    let (memories, bytes) = usage::stored_in(tx).await?;
    if let Some(max) = limits.max_memories.filter(|max| memories > i64::try_from(*max).unwrap_or(i64::MAX)) {
        let message = format!(
            "quota max_memories exceeded: the tenant may hold {max} memories and this write would make {memories}"
        );
        note_quota(tx.tenant_id(), "max_memories", &message);
        return Err(Error::Forbidden(message));
    }
    if let Some(max) = limits.max_storage_bytes.filter(|max| bytes > i64::try_from(*max).unwrap_or(i64::MAX)) {
        let message = format!(
            "quota max_storage_bytes exceeded: the tenant may store {max} bytes (memories' content and metadata, \
             their history, the trash, associations and entities) and this write would make {bytes}"
        );
        note_quota(tx.tenant_id(), "max_storage_bytes", &message);
        return Err(Error::Forbidden(message));
    }
    Ok(())
}

/// Refuses (403, naming the quota, the end user and the limit) when a memory among `ids`, just written by the
/// transaction, belongs to an end user (`user_id`) or agent (`agent_id`) that would then hold more memories
/// than the tenant's `max_memories_per_user` / `max_memories_per_agent`, or more bytes of content and metadata
/// than its `max_storage_bytes_per_user` / `max_storage_bytes_per_agent`. Call after writing, before
/// committing. Writes of one end user wait for each other here, so concurrent ones cannot both pass the cap.
pub async fn check_end_users(tx: &mut TenantTx, limits: &LimitOverrides, ids: &[Uuid]) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let caps = [
        ("user_id", "user", limits.max_memories_per_user, limits.max_storage_bytes_per_user),
        ("agent_id", "agent", limits.max_memories_per_agent, limits.max_storage_bytes_per_agent),
    ];
    for (column, per, max_memories, max_bytes) in caps {
        if max_memories.is_none() && max_bytes.is_none() {
            continue;
        }
        let cap = |max: Option<u64>| max.map_or(i64::MAX, |m| i64::try_from(m).unwrap_or(i64::MAX));
        let over = usage::end_users_over(tx, column, ids, cap(max_memories), cap(max_bytes)).await?;
        let Some((owner, held, bytes)) = over.into_iter().next() else { continue };
        // A scoped key learns the verdict, not the count (which includes memories outside its scope).
        let made = |n: i64| match tx.is_scoped() {
            true => "this write would go over it".to_owned(),
            false => format!("this write would make {n}"),
        };
        let (quota, message) = match max_memories.filter(|max| held > cap(Some(*max))) {
            Some(max) => (
                format!("max_memories_per_{per}"),
                format!("{column} {owner:?} may hold {max} memories and {}", made(held)),
            ),
            None => (
                format!("max_storage_bytes_per_{per}"),
                format!(
                    "{column} {owner:?} may hold {} bytes of content and metadata and {}",
                    max_bytes.unwrap_or_default(),
                    made(bytes)
                ),
            ),
        };
        let message = format!("{column}: quota {quota} exceeded: {message}");
        note_quota(tx.tenant_id(), &quota, &message);
        return Err(Error::Forbidden(message));
    }
    Ok(())
}

/// Refuses metadata larger than the tenant's `max_metadata_bytes` (64 KiB unless its plan says otherwise),
/// naming `field` and the quota.
pub fn check_metadata(t: &Tenant, metadata: &serde_json::Value, field: &str) -> Result<()> {
    let max = t.limits.max_metadata_bytes.unwrap_or(crate::tenancy::DEFAULT_MAX_METADATA_BYTES) as usize;
    let size = serde_json::to_string(metadata).map(|s| s.len()).unwrap_or(usize::MAX);
    if size > max {
        return Err(Error::Forbidden(format!(
            "{field}: {size} bytes of JSON is over the quota max_metadata_bytes of {max} bytes per memory"
        )));
    }
    Ok(())
}

/// Refuses a batch larger than the tenant's `max_batch` (403 naming the quota).
pub fn check_batch(t: &Tenant, field: &str, len: usize) -> Result<()> {
    match t.limits.max_batch {
        Some(max) if len > max as usize => Err(Error::Forbidden(format!(
            "{field}: quota max_batch exceeded: at most {max} items per call on this plan (got {len})"
        ))),
        _ => Ok(()),
    }
}

/// A tenant's usage: counters per day and what it stores now.
#[derive(Debug, Clone)]
pub struct Usage {
    pub tenant_id: Uuid,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Per day (ascending): counter → value.
    pub days: Vec<(NaiveDate, Vec<(String, i64)>)>,
    pub memories: i64,
    pub storage_bytes: i64,
    /// The limits in force.
    pub limits: LimitOverrides,
}

/// Longest window of one usage read, in days.
pub const MAX_USAGE_DAYS: i64 = 366;

/// Usage of `tenant_id` from `from` to `to` (UTC days, inclusive; default the last 30 days). Flushes this
/// instance's pending counts first, so a client reading its own usage sees its latest calls.
pub async fn read(svc: &Services, tenant_id: Uuid, from: Option<NaiveDate>, to: Option<NaiveDate>) -> Result<Usage> {
    let to = to.unwrap_or_else(|| Utc::now().date_naive());
    let from = from.unwrap_or(to - Duration::days(29));
    if from > to {
        return Err(crate::error::bad("from", format!("must not be after to ({to})")));
    }
    if (to - from).num_days() >= MAX_USAGE_DAYS {
        return Err(crate::error::bad("from", format!("the window is at most {MAX_USAGE_DAYS} days")));
    }
    if let Err(err) = svc.usage.flush(&svc.db).await {
        tracing::warn!(error = %err, "could not flush usage counts before a read");
    }
    let access = svc.keys.access(tenant_id).await?;
    let rows = usage::daily(svc.db.owner(), tenant_id, from, to).await?;
    let mut days: Vec<(NaiveDate, Vec<(String, i64)>)> = Vec::new();
    for (day, counter, value) in rows {
        match days.last_mut() {
            Some((d, counters)) if *d == day => counters.push((counter, value)),
            _ => days.push((day, vec![(counter, value)])),
        }
    }
    let (memories, storage_bytes) = usage::stored(svc.db.owner(), tenant_id).await?;
    Ok(Usage { tenant_id, from, to, days, memories, storage_bytes, limits: access.limits.clone() })
}

/// A tenant's usage, for an operator (404 for an unknown tenant).
pub async fn of_tenant(
    svc: &Services,
    _op: &crate::auth::admin::Operator,
    tenant_id: Uuid,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Usage> {
    if crate::store::tenants::get_tenant(svc.db.owner(), tenant_id).await?.is_none() {
        return Err(Error::not_found(format!("tenant {tenant_id} not found")));
    }
    read(svc, tenant_id, from, to).await
}

/// The calling tenant's own usage (any scope).
pub async fn own(svc: &Services, t: &Tenant, from: Option<NaiveDate>, to: Option<NaiveDate>) -> Result<Usage> {
    t.require(Scope::Read)?;
    read(svc, t.id, from, to).await
}

pub use crate::store::usage::EndUserRow;

/// Most end users in one page.
pub const MAX_END_USERS_PAGE: i64 = 500;

/// What the tenant stores per end user (`by` = `user_id`) or agent (`agent_id`).
#[derive(Debug, Clone)]
pub struct EndUsers {
    pub by: &'static str,
    /// `memories` or `requests`: what the page is ordered by.
    pub sort: &'static str,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub page: super::Page<EndUserRow>,
    /// The memories with no end user (or agent).
    pub unattributed: EndUserRow,
}

/// The tenant's memories and bytes per end user or agent, with how many each stored in the window (UTC days
/// `from`..=`to`, default the last 30) and the requests and recalls made for it then, for a customer's own
/// billing: most memories first, or (`sort` = `requests`) most requests first, which lists the end users that
/// only asked too. Admin scope: it names every end user of the tenant.
#[allow(clippy::too_many_arguments)]
pub async fn end_users(
    svc: &Services,
    t: &Tenant,
    by: &str,
    sort: Option<&str>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<EndUsers> {
    t.require(Scope::Admin)?;
    let by = match by {
        "user_id" => "user_id",
        "agent_id" => "agent_id",
        other => return Err(crate::error::bad("group_by", format!("{other:?} is not user_id or agent_id"))),
    };
    let sort = match sort.unwrap_or("memories") {
        "memories" => "memories",
        "requests" => "requests",
        other => return Err(crate::error::bad("sort", format!("{other:?} is not memories or requests"))),
    };
    let to = to.unwrap_or_else(|| Utc::now().date_naive());
    let from = from.unwrap_or(to - Duration::days(29));
    if from > to {
        return Err(crate::error::bad("from", format!("must not be after to ({to})")));
    }
    if (to - from).num_days() >= MAX_USAGE_DAYS {
        return Err(crate::error::bad("from", format!("the window is at most {MAX_USAGE_DAYS} days")));
    }
    let limit = limit.unwrap_or(50);
    if !(1..=MAX_END_USERS_PAGE).contains(&limit) {
        return Err(crate::error::bad("limit", format!("must be 1..={MAX_END_USERS_PAGE}")));
    }
    let offset = offset.unwrap_or(0);
    if !(0..=1_000_000).contains(&offset) {
        return Err(crate::error::bad("offset", "must be 0..=1000000"));
    }
    if let Err(err) = svc.usage.flush(&svc.db).await {
        tracing::warn!(error = %err, "could not flush usage counts before a read");
    }
    let start = from.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let end = (to + Duration::days(1)).and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let pool = svc.db.owner();
    let mut tx = svc.db.begin_snapshot(t).await?;
    let (items, total) = if sort == "memories" {
        let (mut items, total) = usage::end_users(&mut tx, by, start, end, limit, offset).await?;
        let names: Vec<String> = items.iter().filter_map(|r| r.end_user.clone()).collect();
        let (calls, _) = usage::end_user_calls(pool, t.id, by, from, to, Some(&names), limit, 0).await?;
        let calls: HashMap<String, usage::EndUserCalls> = calls.into_iter().map(|c| (c.end_user.clone(), c)).collect();
        for row in &mut items {
            if let Some(c) = row.end_user.as_ref().and_then(|name| calls.get(name)) {
                (row.requests, row.recalls) = (c.requests, c.recalls);
            }
        }
        (items, total)
    } else {
        let (calls, total) = usage::end_user_calls(pool, t.id, by, from, to, None, limit, offset).await?;
        let names: Vec<String> = calls.iter().map(|c| c.end_user.clone()).collect();
        let held = usage::end_users_held(&mut tx, by, &names, start, end).await?;
        let mut held: HashMap<String, EndUserRow> =
            held.into_iter().filter_map(|r| Some((r.end_user.clone()?, r))).collect();
        let items = calls
            .into_iter()
            .map(|c| {
                let row = held.remove(&c.end_user).unwrap_or_default();
                EndUserRow { end_user: Some(c.end_user), requests: c.requests, recalls: c.recalls, ..row }
            })
            .collect();
        (items, total)
    };
    let unattributed = usage::unattributed(&mut tx, by, start, end).await?;
    tx.commit().await?;
    Ok(EndUsers { by, sort, from, to, page: super::Page { items, total, limit, offset }, unattributed })
}
