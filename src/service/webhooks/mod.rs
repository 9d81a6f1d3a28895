//! Webhooks: a tenant's admin registers endpoints (a URL, the event types it wants, a secret), and the
//! service posts each event to them, signed the Standard Webhooks way.
//!
//! Events are written in the transaction that causes them (memory events by the trigger on the audit trail,
//! the others by the store's `emit`), as one delivery per endpoint, and sent by the `cairn::webhook` job
//! ([`deliver_due`]): at least once (the `webhook-id` header, the same on every attempt and redelivery, is
//! for dedup), one memory's events to one endpoint in the order they happened. A failed delivery pauses its
//! endpoint and is retried first, with exponential backoff (`CAIRN_WEBHOOK_RETRY_*`); one still failing
//! after the retry window (a day) is given up and its endpoint disabled, with the reason on the endpoint and
//! in the audit log. The tenant enables it again; what was pending is then delivered.

pub mod send;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use chrono::Utc;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::{Page, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::store::webhooks::{self as store, Attempt, EndpointChange, NewEndpoint};
pub use crate::store::webhooks::{DeliveryRow, EndpointRow};
pub use send::Sender;

/// The event types an endpoint can ask for.
pub const EVENT_TYPES: &[&str] = &[
    "memory.created",
    "memory.updated",
    "memory.deleted",
    "memory.embedded",
    "consolidation.finished",
    "import.finished",
    "job.failed",
    "quota.reached",
    "key.expiring",
];
/// Longest URL.
pub const MAX_URL_CHARS: usize = 2048;
/// Longest description.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// Most deliveries in one page of the log.
pub const MAX_PAGE: i64 = 200;
/// Deliveries one job takes at a time.
const BATCH: i64 = 20;
/// Deliveries one job attempts before it hands the rest to the next (fairness between tenants).
const PASS_ATTEMPTS: usize = 200;
/// How long one job keeps delivering before it hands the rest to the next.
const PASS_TIME: Duration = Duration::from_secs(30);
/// Delivered and given-up deliveries are kept this long in the log.
pub const LOG_DAYS: i64 = 14;

/// An endpoint to register.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointParams {
    /// Where events are posted: an `https://` (or `http://`) URL of a public address, at most 2048
    /// characters, without credentials.
    #[schemars(length(min = 1, max = MAX_URL_CHARS))]
    pub url: String,
    /// The event types wanted (default: all of them).
    #[schemars(extend("items" = {"type": "string", "enum": EVENT_TYPES}))]
    pub event_types: Option<Vec<String>>,
    /// A note for people (at most 500 characters).
    #[schemars(length(max = MAX_DESCRIPTION_CHARS))]
    pub description: Option<String>,
    /// Whether events are sent to it (default true).
    pub enabled: Option<bool>,
}

/// A change to an endpoint: each field given changes.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndpointPatch {
    #[schemars(length(min = 1, max = MAX_URL_CHARS))]
    pub url: Option<String>,
    #[schemars(extend("items" = {"type": "string", "enum": EVENT_TYPES}))]
    pub event_types: Option<Vec<String>>,
    /// An empty string removes it.
    #[schemars(length(max = MAX_DESCRIPTION_CHARS))]
    pub description: Option<String>,
    /// `true` enables it again after the service disabled it (what is pending is delivered).
    pub enabled: Option<bool>,
}

/// Checks an endpoint's URL: http(s), a host, no credentials, no fragment, and not an internal address
/// (as far as can be told here: the address the name resolves to is checked again at every delivery).
async fn check_url(sender: &send::AddressPolicy, url: &str) -> Result<String> {
    let url = url.trim();
    if url.is_empty() || url.chars().count() > MAX_URL_CHARS {
        return Err(bad("url", format!("must be 1..={MAX_URL_CHARS} characters")));
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| bad("url", format!("not a URL: {e}")))?;
    if !matches!(parsed.scheme(), "https" | "http") {
        return Err(bad("url", "must be an https:// or http:// URL"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("url", "must not hold credentials (check the signature instead)"));
    }
    if parsed.fragment().is_some() {
        return Err(bad("url", "must not have a fragment"));
    }
    let Some(host) = parsed.host_str() else { return Err(bad("url", "has no host")) };
    let refused = |ip: std::net::IpAddr| {
        bad(
            "url",
            format!(
                "{host} is {ip}, an internal address webhooks may not reach (an operator can allow its network \
                 with CAIRN_WEBHOOK_ALLOW_NETWORKS)"
            ),
        )
    };
    if let Some(ip) = send::literal_ip(&parsed) {
        if !sender.permits(ip) {
            return Err(refused(ip));
        }
    } else if send::names_loopback(host) {
        let ip = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
        if !sender.permits(ip) {
            return Err(refused(ip));
        }
    } else {
        // A name resolving to an internal address now is refused now (a lookup failing is not an error
        // here: the name may exist later; each delivery resolves and checks again).
        let port = parsed.port_or_known_default().unwrap_or(443);
        let lookup = tokio::time::timeout(Duration::from_secs(2), tokio::net::lookup_host((host, port))).await;
        if let Ok(Ok(addrs)) = lookup {
            if let Some(addr) = addrs.into_iter().find(|a| !sender.permits(a.ip())) {
                return Err(refused(addr.ip()));
            }
        }
    }
    Ok(parsed.to_string())
}

/// Checks a list of event types: known ones, at least one; duplicates dropped, order kept.
fn check_types(types: Option<Vec<String>>) -> Result<Vec<String>> {
    let Some(types) = types else { return Ok(EVENT_TYPES.iter().map(|t| t.to_string()).collect()) };
    if types.is_empty() {
        return Err(bad("event_types", "must name at least one event type"));
    }
    let mut out: Vec<String> = Vec::new();
    for (i, t) in types.into_iter().enumerate() {
        if !EVENT_TYPES.contains(&t.as_str()) {
            return Err(bad(
                &format!("event_types[{i}]"),
                format!("unknown event type {t:?}; expected one of {}", EVENT_TYPES.join(", ")),
            ));
        }
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}

fn check_description(description: Option<String>) -> Result<Option<String>> {
    match description {
        Some(d) if d.chars().count() > MAX_DESCRIPTION_CHARS => {
            Err(bad("description", format!("must be at most {MAX_DESCRIPTION_CHARS} characters")))
        }
        other => Ok(other),
    }
}

fn not_found(id: Uuid) -> Error {
    Error::not_found(format!("id: no webhook endpoint {id} in this tenant"))
}

/// Registers an endpoint. Its secret is in the answer (and in `rotate_secret`'s), never listed after.
pub async fn create(svc: &Services, t: &Tenant, params: EndpointParams) -> Result<EndpointRow> {
    t.require(Scope::Admin)?;
    let policy = send::AddressPolicy::new(svc.config.webhooks.allow_networks.clone());
    let url = check_url(&policy, &params.url).await?;
    let event_types = check_types(params.event_types)?;
    let description = check_description(params.description)?.filter(|d| !d.trim().is_empty());
    let secret = send::new_secret();
    let max = svc.config.webhooks.max_endpoints;
    let mut tx = svc.db.begin_tenant(t).await?;
    store::lock_endpoints(&mut tx).await?;
    if store::count_endpoints(&mut tx).await? >= max {
        return Err(Error::Forbidden(format!("the tenant has {max} webhook endpoints already, the most it may have")));
    }
    let actor = t.actor();
    let new = NewEndpoint {
        url: &url,
        description: description.as_deref(),
        event_types: &event_types,
        secret: &secret,
        created_by: &actor,
    };
    let mut row = store::insert_endpoint(&mut tx, &new).await?;
    if params.enabled == Some(false) {
        let change = EndpointChange { enabled: Some(false), ..Default::default() };
        row = store::update_endpoint(&mut tx, row.id, &change).await?.ok_or_else(|| not_found(row.id))?;
    }
    tx.commit().await?;
    super::audit::record(svc, &actor, Some(t.id), "webhook.create", Some(row.id.to_string()), json!({"url": url}))
        .await;
    Ok(row)
}

/// The tenant's endpoints, oldest first.
pub async fn list(svc: &Services, t: &Tenant) -> Result<Vec<EndpointRow>> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let rows = store::list_endpoints(&mut tx, 1000).await?;
    tx.commit().await?;
    Ok(rows)
}

pub async fn get(svc: &Services, t: &Tenant, id: Uuid) -> Result<EndpointRow> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let row = store::get_endpoint(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    Ok(row)
}

/// Changes an endpoint. Enabling it again delivers what is pending.
pub async fn update(svc: &Services, t: &Tenant, id: Uuid, patch: EndpointPatch) -> Result<EndpointRow> {
    t.require(Scope::Admin)?;
    let policy = send::AddressPolicy::new(svc.config.webhooks.allow_networks.clone());
    let url = match patch.url {
        Some(u) => Some(check_url(&policy, &u).await?),
        None => None,
    };
    let event_types = match patch.event_types {
        Some(types) => Some(check_types(Some(types))?),
        None => None,
    };
    let description = check_description(patch.description)?;
    let change = EndpointChange {
        url: url.as_deref(),
        description: description.as_deref().map(|d| Some(d).filter(|d| !d.trim().is_empty())),
        event_types: event_types.as_deref(),
        enabled: patch.enabled,
        secret: None,
    };
    let mut tx = svc.db.begin_tenant(t).await?;
    let row = store::update_endpoint(&mut tx, id, &change).await?.ok_or_else(|| not_found(id))?;
    if patch.enabled == Some(true) {
        store::wake(&mut tx, Utc::now()).await?;
    }
    tx.commit().await?;
    super::audit::record(
        svc,
        &t.actor(),
        Some(t.id),
        "webhook.update",
        Some(id.to_string()),
        json!({"enabled": row.enabled}),
    )
    .await;
    Ok(row)
}

/// A new secret for an endpoint (the old one stops signing at once).
pub async fn rotate_secret(svc: &Services, t: &Tenant, id: Uuid) -> Result<EndpointRow> {
    t.require(Scope::Admin)?;
    let secret = send::new_secret();
    let change = EndpointChange { secret: Some(&secret), ..Default::default() };
    let mut tx = svc.db.begin_tenant(t).await?;
    let row = store::update_endpoint(&mut tx, id, &change).await?.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    super::audit::record(svc, &t.actor(), Some(t.id), "webhook.rotate_secret", Some(id.to_string()), json!({})).await;
    Ok(row)
}

/// Deletes an endpoint and its delivery log.
pub async fn delete(svc: &Services, t: &Tenant, id: Uuid) -> Result<()> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    if !store::delete_endpoint(&mut tx, id).await? {
        return Err(not_found(id));
    }
    tx.commit().await?;
    super::audit::record(svc, &t.actor(), Some(t.id), "webhook.delete", Some(id.to_string()), json!({})).await;
    Ok(())
}

/// The statuses a delivery can have.
pub const DELIVERY_STATUSES: &[&str] = &["pending", "delivered", "failed"];

/// A page of an endpoint's delivery log, newest first.
pub async fn deliveries(
    svc: &Services,
    t: &Tenant,
    id: Uuid,
    status: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<Page<DeliveryRow>> {
    t.require(Scope::Admin)?;
    if let Some(s) = status.as_deref() {
        if !DELIVERY_STATUSES.contains(&s) {
            return Err(bad("status", format!("must be one of {}", DELIVERY_STATUSES.join(", "))));
        }
    }
    let limit = limit.unwrap_or(50);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(bad("limit", format!("must be 1..={MAX_PAGE}")));
    }
    let offset = offset.unwrap_or(0);
    if !(0..=1_000_000).contains(&offset) {
        return Err(bad("offset", "must be 0..=1000000"));
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    if store::get_endpoint(&mut tx, id).await?.is_none() {
        return Err(not_found(id));
    }
    let (items, total) = store::list_deliveries(&mut tx, id, status.as_deref(), limit, offset).await?;
    tx.commit().await?;
    Ok(Page { items, total, limit, offset })
}

/// Sends an event of the log again: a new delivery of the same event (same `webhook-id`), due now.
pub async fn redeliver(svc: &Services, t: &Tenant, id: Uuid, delivery_id: Uuid) -> Result<DeliveryRow> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let endpoint = store::get_endpoint(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    let row = store::redeliver(&mut tx, endpoint.id, delivery_id)
        .await?
        .ok_or_else(|| Error::not_found(format!("delivery_id: no delivery {delivery_id} of endpoint {id}")))?;
    tx.commit().await?;
    Ok(row)
}

/// What one delivering job did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pass {
    pub delivered: usize,
    pub failed: usize,
    pub given_up: usize,
    pub disabled: usize,
}

/// The delay before the `attempt`-th retry: the base doubled each time, at most the maximum.
pub fn backoff(settings: &crate::config::WebhookSettings, attempt: i32) -> Duration {
    let doublings = attempt.clamp(1, 31) as u32 - 1;
    settings.retry_base.saturating_mul(1u32 << doublings.min(20)).min(settings.retry_max)
}

/// Delivers the tenant's due events (the `cairn::webhook` job): in batches, oldest first, each endpoint's
/// deliveries one after another and none after one of them failed; then wakes the next job for what remains
/// (at once when this one stopped for fairness, or when the next retry falls due).
pub async fn deliver_due(svc: &Services, sender: &Sender, tenant_id: Uuid) -> Result<Pass> {
    let settings = &svc.config.webhooks;
    let db = svc.db.for_jobs();
    let mut pass = Pass::default();
    // An endpoint whose backlog outgrew the cap is disabled (its events stay, delivered when enabled again).
    let mut tx = db.begin_tenant(tenant_id).await?;
    let mut disabled = Vec::new();
    for (id, pending) in store::over_backlog(&mut tx, settings.max_backlog).await? {
        let reason = format!(
            "more than {} events were waiting for delivery ({pending} counted); enable it again once it can take them",
            settings.max_backlog
        );
        if store::disable_endpoint(&mut tx, id, &reason).await? {
            disabled.push((id, reason));
        }
    }
    tx.commit().await?;
    for (id, reason) in disabled {
        note_disabled(svc, tenant_id, id, &reason).await;
        pass.disabled += 1;
    }
    let started = Instant::now();
    let lease = settings.timeout * BATCH as u32 + Duration::from_secs(60);
    let mut attempts = 0;
    while started.elapsed() < PASS_TIME && attempts < PASS_ATTEMPTS {
        let mut tx = db.begin_tenant(tenant_id).await?;
        let due = store::take_due(&mut tx, BATCH, lease).await?;
        if due.is_empty() {
            tx.commit().await?;
            break;
        }
        // Each batch with the endpoints as they stand now: a rotated secret signs from the next batch on.
        let endpoints: HashMap<Uuid, EndpointRow> =
            store::list_endpoints(&mut tx, 1000).await?.into_iter().map(|e| (e.id, e)).collect();
        tx.commit().await?;
        let (mut failing, mut untried) = (HashSet::new(), Vec::new());
        for d in due {
            let Some(endpoint) = endpoints.get(&d.endpoint_id).filter(|_| !failing.contains(&d.endpoint_id)) else {
                untried.push(d.id);
                continue;
            };
            attempts += 1;
            let body = serde_json::to_vec(&d.payload).map_err(|e| Error::Internal(e.into()))?;
            let outcome = sender.send(&endpoint.url, &endpoint.secret, &d.event_id.to_string(), body).await;
            let now = Utc::now();
            let expired = now.signed_duration_since(d.created_at).to_std().unwrap_or_default() >= settings.retry_for;
            let status = match (outcome.delivered, expired) {
                (true, _) => "delivered",
                (false, true) => "failed",
                (false, false) => "pending",
            };
            let retry = chrono::Duration::from_std(backoff(settings, d.attempts + 1)).unwrap_or_default();
            let attempt = Attempt {
                status_code: outcome.status_code.map(i32::from),
                error: outcome.error.as_deref(),
                latency_ms: outcome.latency.as_millis().min(i32::MAX as u128) as i32,
                status,
                next_attempt_at: if status == "pending" { now + retry } else { now },
            };
            let mut tx = db.begin_tenant(tenant_id).await?;
            store::record_attempt(&mut tx, d.endpoint_id, d.id, &attempt).await?;
            let mut reason = None;
            if status == "failed" {
                let why = format!(
                    "a delivery ({}) failed for {} s, the retry window; last error: {}",
                    d.event_id,
                    settings.retry_for.as_secs(),
                    outcome.error.as_deref().unwrap_or("none")
                );
                if store::disable_endpoint(&mut tx, d.endpoint_id, &why).await? {
                    reason = Some(why);
                }
            }
            tx.commit().await?;
            match status {
                "delivered" => pass.delivered += 1,
                "failed" => pass.given_up += 1,
                _ => pass.failed += 1,
            }
            if !outcome.delivered {
                tracing::info!(%tenant_id, endpoint_id = %d.endpoint_id, event_id = %d.event_id, attempt = d.attempts + 1,
                    error = outcome.error.as_deref().unwrap_or(""), "webhook delivery failed");
                failing.insert(d.endpoint_id);
            }
            if let Some(reason) = reason {
                note_disabled(svc, tenant_id, d.endpoint_id, &reason).await;
                pass.disabled += 1;
            }
        }
        let mut tx = db.begin_tenant(tenant_id).await?;
        store::release(&mut tx, &untried).await?;
        tx.commit().await?;
    }
    // What remains: at once if this pass stopped early, else when the next retry falls due.
    let mut tx = db.begin_tenant(tenant_id).await?;
    if let Some(at) = store::next_due(&mut tx).await? {
        store::wake(&mut tx, at.max(Utc::now())).await?;
    }
    tx.commit().await?;
    Ok(pass)
}

/// The notice of an endpoint the service disabled: in the audit log and the operator's log (the endpoint
/// itself says why).
async fn note_disabled(svc: &Services, tenant_id: Uuid, endpoint_id: Uuid, reason: &str) {
    tracing::warn!(%tenant_id, %endpoint_id, reason, "webhook endpoint disabled");
    super::audit::record_in(
        svc.db.owner(),
        &super::audit::Origin::default(),
        "system:webhook",
        Some(tenant_id),
        "webhook.disabled",
        Some(&endpoint_id.to_string()),
        json!({"reason": reason}),
    )
    .await;
}

/// The periodic sweep: forgets deliveries done more than [`LOG_DAYS`] ago, and wakes the delivering job
/// where deliveries are due and no job is (a job lost, or events written on a Citus shard, which cannot
/// reach the queue).
pub async fn sweep(db: &crate::store::Db, tenant_id: Uuid) -> Result<u64> {
    let mut tx = db.begin_tenant(tenant_id).await?;
    let pruned = store::prune(&mut tx, Utc::now() - chrono::Duration::days(LOG_DAYS), 10_000).await?;
    if let Some(at) = store::next_due(&mut tx).await? {
        store::wake(&mut tx, at.max(Utc::now())).await?;
    }
    tx.commit().await?;
    Ok(pruned)
}

/// How long before a key expires `key.expiring` is announced.
pub const KEY_EXPIRY_NOTICE_DAYS: i64 = 7;

/// Announces the keys expiring within [`KEY_EXPIRY_NOTICE_DAYS`] (the schedule's pass): a `key.expiring`
/// event for each one's tenant, once per key. Returns how many.
pub async fn announce_expiring_keys(db: &crate::store::Db) -> Result<usize> {
    let keys =
        crate::store::tenants::keys_expiring(db.owner(), chrono::Duration::days(KEY_EXPIRY_NOTICE_DAYS), 1000).await?;
    for key in &keys {
        let mut tx = db.begin_tenant(key.tenant_id).await?;
        let data = json!({"key_id": key.id, "name": key.name, "expires_at": key.expires_at});
        store::emit(&mut tx, "key.expiring", None, &data).await?;
        tx.commit().await?;
        crate::store::tenants::mark_expiry_announced(db.owner(), key.id).await?;
    }
    Ok(keys.len())
}
