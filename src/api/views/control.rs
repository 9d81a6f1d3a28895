//! Bodies of the control plane shared by the tenant's own routes (`/api/v1/keys`, `/api/v1/settings`,
//! `/api/v1/usage`) and the admin API: keys, rotation, lifecycle settings, usage.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::ApiKeyInfo;
use crate::service::lifecycle::SettingsChange;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"scopes": ["read", "write"], "name": "support-bot", "expires_in_days": 90, "rate_limit_per_second": 20,
    "agent_ids": ["support-bot"]}))]
pub struct NewKey {
    /// read, write (implies read), admin (implies both). Default: read, write.
    pub scopes: Option<Vec<String>>,
    /// A label.
    pub name: Option<String>,
    /// Days until expiry, 1..=3650 (never, if absent).
    pub expires_in_days: Option<i64>,
    /// The key's own requests-per-second limit, 1..=100000 (absent: the plan's).
    pub rate_limit_per_second: Option<i64>,
    /// Limits the key to memories of these end users (`user_id`), 1 to 100 of them; absent: any. A scoped key
    /// sees nothing outside its scope on any surface, and may not hold the admin scope.
    pub user_ids: Option<Vec<String>>,
    /// Limits the key to memories of these agents (`agent_id`).
    pub agent_ids: Option<Vec<String>>,
    /// Limits the key to memories with a tag at or under one of these prefixes (`project:x` covers
    /// `project:x/notes`).
    pub tag_prefixes: Option<Vec<String>>,
}

impl From<NewKey> for crate::service::keys::KeyRequest {
    fn from(b: NewKey) -> Self {
        Self {
            scopes: b.scopes,
            name: b.name,
            expires_in_days: b.expires_in_days,
            rate_limit_per_second: b.rate_limit_per_second,
            user_ids: b.user_ids,
            agent_ids: b.agent_ids,
            tag_prefixes: b.tag_prefixes,
        }
    }
}

/// A short-lived token to mint (`POST /api/v1/tokens`), for a browser or device that must not hold a key.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"scopes": ["read", "write"], "user_ids": ["user-42"], "ttl_seconds": 900}))]
pub struct NewToken {
    /// read, or read and write (admin is never granted to a token). Default: read, write.
    pub scopes: Option<Vec<String>>,
    /// Seconds the token lives, 1..=3600 (default 900).
    pub ttl_seconds: Option<i64>,
    /// Limits the token to memories of these end users; absent: any.
    pub user_ids: Option<Vec<String>>,
    /// Limits the token to memories of these agents; absent: any.
    pub agent_ids: Option<Vec<String>>,
    /// Limits the token to memories with a tag at or under one of these prefixes; absent: any.
    pub tag_prefixes: Option<Vec<String>>,
}

impl From<NewToken> for crate::service::keys::TokenRequest {
    fn from(b: NewToken) -> Self {
        Self {
            scopes: b.scopes,
            ttl_seconds: b.ttl_seconds,
            user_ids: b.user_ids,
            agent_ids: b.agent_ids,
            tag_prefixes: b.tag_prefixes,
        }
    }
}

/// A minted token: send it as `Authorization: Bearer <token>` (or `X-API-Key`) until `expires_at`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"token": "cairn_tok_eyJ...", "token_type": "Bearer", "expires_at": "2026-12-04T10:15:00Z",
    "expires_in": 900, "scopes": ["read", "write"], "user_ids": ["user-42"], "agent_ids": null, "tag_prefixes": null}))]
pub struct MintedToken {
    pub token: String,
    /// Always `Bearer`.
    pub token_type: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
    /// Seconds from now until it expires.
    pub expires_in: i64,
    pub scopes: Vec<String>,
    pub user_ids: Option<Vec<String>>,
    pub agent_ids: Option<Vec<String>>,
    pub tag_prefixes: Option<Vec<String>>,
}

impl From<crate::service::keys::Minted> for MintedToken {
    fn from(m: crate::service::keys::Minted) -> Self {
        let scope = m.scope.unwrap_or_default();
        Self {
            token: m.token,
            token_type: "Bearer".into(),
            expires_at: m.expires_at,
            expires_in: m.ttl_seconds,
            scopes: m.scopes,
            user_ids: scope.users,
            agent_ids: scope.agents,
            tag_prefixes: scope.tags,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedKey {
    pub key: ApiKeyInfo,
    /// The secret: shown this once, never stored in clear.
    pub api_key: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"grace_period_secs": 3600}))]
pub struct RotateKey {
    /// Seconds the old secret keeps working, 0..=2592000 (default 0: it stops at once).
    #[serde(default)]
    pub grace_period_secs: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RotatedKey {
    /// The new key; its secret is in `api_key`, shown this once.
    pub key: ApiKeyInfo,
    pub api_key: String,
    /// The old key, with the expiry the grace period gave it (or revoked).
    pub previous: ApiKeyInfo,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KeyList {
    pub keys: Vec<ApiKeyInfo>,
}

/// Changes to the lifecycle settings; absent fields keep their value, `archive_retention_days: null`
/// turns retention off.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"forgetting_enabled": true, "forgetting_grace_days": 120}))]
pub struct SettingsPatch {
    pub forgetting_enabled: Option<bool>,
    pub forgetting_grace_days: Option<i64>,
    #[serde(default, deserialize_with = "crate::memory::nullable")]
    #[schema(value_type = Option<i64>, nullable)]
    pub archive_retention_days: Option<Option<i64>>,
    /// Days a deleted memory can be restored before it is erased for good (0..=365).
    pub undo_days: Option<i64>,
    /// Associative recall with a read-only key strengthens associations too.
    pub read_keys_strengthen: Option<bool>,
}

impl From<SettingsPatch> for SettingsChange {
    fn from(p: SettingsPatch) -> Self {
        Self {
            forgetting_enabled: p.forgetting_enabled,
            forgetting_grace_days: p.forgetting_grace_days,
            archive_retention_days: p.archive_retention_days,
            undo_days: p.undo_days,
            read_keys_strengthen: p.read_keys_strengthen,
        }
    }
}

/// A tenant's usage: counters per UTC day, what it stores now, and the limits in force.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"tenant_id": "5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21", "from": "2026-11-01", "to": "2026-11-30",
    "days": [{"day": "2026-11-30", "counters": {"requests_read": 120, "requests_write": 40, "recalls": 80,
    "memories_stored": 35, "embeddings": 35}}], "totals": {"requests_read": 120}, "memories": 35,
    "storage_bytes": 5120, "limits": {"max_memories": 1000000}}))]
pub struct UsageReport {
    pub tenant_id: Uuid,
    pub from: NaiveDate,
    pub to: NaiveDate,
    /// Days with any usage, ascending: `requests_read`, `requests_write`, `recalls`, `memories_stored`,
    /// `embeddings`, `chat_calls`, and the daily budgets spent (`summaries`, `reenrich`, `consolidations`,
    /// `reembeds`).
    pub days: Vec<UsageDay>,
    /// Each counter summed over the window.
    pub totals: BTreeMap<String, i64>,
    /// Memories stored now.
    pub memories: i64,
    /// Bytes stored now: memories' content and metadata, their history (each event's before and after), the
    /// trash (each deleted memory's snapshot), associations (properties, and 64 bytes each) and entities (names
    /// and metadata, and 64 bytes each) — what the storage quota counts.
    pub storage_bytes: i64,
    /// The limits in force (the tenant's over its plan's); absent ones are unlimited.
    #[schema(value_type = Object)]
    pub limits: crate::tenancy::LimitOverrides,
    /// With `group_by`: what each end user (or agent) stores, most first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_users: Option<EndUserUsagePage>,
}

/// One end user's (or agent's) share of what the tenant stores.
#[derive(Debug, Serialize, ToSchema)]
pub struct EndUserUsage {
    /// The `user_id` (or `agent_id`); null in `unattributed`.
    pub end_user: Option<String>,
    /// Memories it holds now (archived ones included).
    pub memories: i64,
    /// Bytes of those memories' content and metadata (the tenant's `storage_bytes` also counts history,
    /// trash, associations and entities).
    pub storage_bytes: i64,
    /// Of those, the ones stored in the window (`from`..=`to`).
    pub stored_in_window: i64,
    pub last_stored_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Requests that stored, listed or recalled for it in the window (0 in `unattributed`).
    pub requests: i64,
    /// Of those, recalls.
    pub recalls: i64,
}

impl From<crate::service::usage::EndUserRow> for EndUserUsage {
    fn from(r: crate::service::usage::EndUserRow) -> Self {
        Self {
            end_user: r.end_user,
            memories: r.memories,
            storage_bytes: r.storage_bytes,
            stored_in_window: r.stored_in_window,
            last_stored_at: r.last_stored_at,
            requests: r.requests,
            recalls: r.recalls,
        }
    }
}

/// A page of end users, most memories (or requests) first.
#[derive(Debug, Serialize, ToSchema)]
pub struct EndUserUsagePage {
    /// `user_id` or `agent_id`.
    pub group_by: String,
    /// `memories` or `requests`: the order of the page.
    pub sort: String,
    pub end_users: Vec<EndUserUsage>,
    pub count: usize,
    /// How many end users hold memories (`sort=memories`) or made requests in the window (`sort=requests`).
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
    /// The memories with no end user (or agent).
    pub unattributed: EndUserUsage,
}

impl From<crate::service::usage::EndUsers> for EndUserUsagePage {
    fn from(e: crate::service::usage::EndUsers) -> Self {
        let has_more = e.page.has_more();
        let crate::service::Page { items, total, limit, offset } = e.page;
        let end_users: Vec<EndUserUsage> = items.into_iter().map(EndUserUsage::from).collect();
        Self {
            group_by: e.by.to_owned(),
            sort: e.sort.to_owned(),
            count: end_users.len(),
            end_users,
            total,
            limit,
            offset,
            has_more,
            unattributed: e.unattributed.into(),
        }
    }
}

/// The tenant's usage query: the window, and optionally a grouping by end user.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsageQuery {
    /// First UTC day (YYYY-MM-DD; default 29 days before `to`).
    pub from: Option<NaiveDate>,
    /// Last UTC day (default today).
    pub to: Option<NaiveDate>,
    /// `user_id` or `agent_id` (admin scope): add `end_users`, what each end user or agent stores and stored
    /// in the window and the requests made for it, for the tenant's own billing.
    pub group_by: Option<String>,
    /// With `group_by`: `memories` (default, most memories first) or `requests` (most requests in the window
    /// first, including end users that hold nothing).
    pub sort: Option<String>,
    /// End users per page with `group_by`, 1..=500 (default 50).
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UsageDay {
    pub day: NaiveDate,
    pub counters: BTreeMap<String, i64>,
}

impl From<crate::service::usage::Usage> for UsageReport {
    fn from(u: crate::service::usage::Usage) -> Self {
        let mut totals = BTreeMap::new();
        let days = u
            .days
            .into_iter()
            .map(|(day, counters)| {
                for (c, v) in &counters {
                    *totals.entry(c.clone()).or_insert(0) += v;
                }
                UsageDay { day, counters: counters.into_iter().collect() }
            })
            .collect();
        Self {
            tenant_id: u.tenant_id,
            from: u.from,
            to: u.to,
            days,
            totals,
            memories: u.memories,
            storage_bytes: u.storage_bytes,
            limits: u.limits,
            end_users: None,
        }
    }
}

/// The window of a usage read.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsageWindow {
    /// First UTC day (YYYY-MM-DD; default 29 days before `to`).
    pub from: Option<NaiveDate>,
    /// Last UTC day (default today).
    pub to: Option<NaiveDate>,
}
