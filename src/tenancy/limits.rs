//! What a plan or a tenant may spend: limits that fall through from tenant to plan to none, and the daily
//! budgets of costly calls.

use serde::{Deserialize, Serialize};

/// Limits a plan or a tenant may set; each absent one falls through (tenant → plan → unlimited).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    /// Requests per second across all the tenant's keys (sustained rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_second: Option<u32>,
    /// Requests the tenant may make at once above its sustained rate (default: twice the rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst: Option<u32>,
    /// Requests per second of each key (a key's own `rate_limit_per_second` overrides it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_requests_per_second: Option<u32>,
    /// Memories the tenant may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memories: Option<u64>,
    /// Bytes of content and metadata the tenant may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_storage_bytes: Option<u64>,
    /// Memories one end user (`user_id`) of the tenant may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memories_per_user: Option<u64>,
    /// Memories one agent (`agent_id`) of the tenant may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memories_per_agent: Option<u64>,
    /// Bytes of content and metadata one end user's (`user_id`'s) memories may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_storage_bytes_per_user: Option<u64>,
    /// Bytes of content and metadata one agent's (`agent_id`'s) memories may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_storage_bytes_per_agent: Option<u64>,
    /// Requests per second that store, list or recall for one end user (`user_id`), across all keys and tokens
    /// (bursts of twice the rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_requests_per_second: Option<u32>,
    /// Requests per second that store, list or recall for one agent (`agent_id`) (bursts of twice the rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_requests_per_second: Option<u32>,
    /// Bytes of one memory's metadata (JSON text). Everyone has a cap: 64 KiB unless set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_metadata_bytes: Option<u32>,
    /// Items in one batch call (never above the API's own bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_batch: Option<u32>,
    /// Chat-model summaries per UTC day (recall with `summarize`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summaries_per_day: Option<u64>,
    /// Memories re-enriched per UTC day (reprocessing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reenrich_per_day: Option<u64>,
    /// Consolidation runs (and dry runs) per UTC day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consolidations_per_day: Option<u64>,
    /// Memories re-embedded on request per UTC day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reembeds_per_day: Option<u64>,
}

/// The metadata cap everyone has unless a plan or tenant sets another.
pub const DEFAULT_MAX_METADATA_BYTES: u32 = 64 * 1024;

impl LimitOverrides {
    /// `self`, with `fallback`'s value wherever `self` has none.
    pub fn over(&self, fallback: &LimitOverrides) -> LimitOverrides {
        macro_rules! pick {
            ($($f:ident),*) => { LimitOverrides { $($f: self.$f.or(fallback.$f)),* } };
        }
        pick!(
            requests_per_second,
            burst,
            key_requests_per_second,
            max_memories,
            max_storage_bytes,
            max_memories_per_user,
            max_memories_per_agent,
            max_storage_bytes_per_user,
            max_storage_bytes_per_agent,
            user_requests_per_second,
            agent_requests_per_second,
            max_metadata_bytes,
            max_batch,
            summaries_per_day,
            reenrich_per_day,
            consolidations_per_day,
            reembeds_per_day
        )
    }

    /// Limits as stored (a plan edited by hand): unknown keys and unusable values are ignored (and logged),
    /// so one typo never locks a whole plan out.
    pub fn from_stored(value: &serde_json::Value) -> Self {
        let Some(object) = value.as_object() else { return Self::default() };
        let mut parsed = Self::default();
        for (key, v) in object {
            let one = serde_json::json!({ key: v });
            match Self::from_json(&one) {
                Ok(limit) => parsed = limit.over(&parsed),
                Err(err) => tracing::warn!(limit = %key, error = %err, "ignoring an unusable stored limit"),
            }
        }
        parsed
    }

    /// Parses requested limits; the message names the offending key.
    pub fn from_json(value: &serde_json::Value) -> Result<Self, String> {
        let parsed: Self = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
        let zero = [
            ("requests_per_second", parsed.requests_per_second.map(u64::from)),
            ("burst", parsed.burst.map(u64::from)),
            ("key_requests_per_second", parsed.key_requests_per_second.map(u64::from)),
            ("user_requests_per_second", parsed.user_requests_per_second.map(u64::from)),
            ("agent_requests_per_second", parsed.agent_requests_per_second.map(u64::from)),
            ("max_metadata_bytes", parsed.max_metadata_bytes.map(u64::from)),
            ("max_batch", parsed.max_batch.map(u64::from)),
        ]
        .into_iter()
        .find(|(_, v)| *v == Some(0));
        if let Some((name, _)) = zero {
            return Err(format!("{name} must be at least 1 (omit it for no limit)"));
        }
        Ok(parsed)
    }
}

/// A daily budget of a costly call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    Summaries,
    Reenrich,
    Consolidations,
    Reembeds,
}

impl Budget {
    /// The usage counter it is spent from (and the name of its limit, with `_per_day`).
    pub fn counter(self) -> &'static str {
        match self {
            Self::Summaries => "summaries",
            Self::Reenrich => "reenrich",
            Self::Consolidations => "consolidations",
            Self::Reembeds => "reembeds",
        }
    }

    pub fn limit(self, limits: &LimitOverrides) -> Option<u64> {
        match self {
            Self::Summaries => limits.summaries_per_day,
            Self::Reenrich => limits.reenrich_per_day,
            Self::Consolidations => limits.consolidations_per_day,
            Self::Reembeds => limits.reembeds_per_day,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_zero_rate_is_refused_naming_it_and_absent_limits_fall_through() {
        for name in
            ["requests_per_second", "key_requests_per_second", "user_requests_per_second", "agent_requests_per_second"]
        {
            let err = LimitOverrides::from_json(&json!({ name: 0 })).unwrap_err();
            assert!(err.starts_with(name), "{err}");
        }
        let own = LimitOverrides::from_json(&json!({"max_storage_bytes_per_user": 100})).unwrap();
        let plan = LimitOverrides::from_json(&json!({"max_storage_bytes_per_user": 5, "user_requests_per_second": 3}))
            .unwrap();
        let both = own.over(&plan);
        assert_eq!((both.max_storage_bytes_per_user, both.user_requests_per_second), (Some(100), Some(3)));
        assert!(LimitOverrides::from_json(&json!({"max_storage_bytes_per_users": 1})).is_err());
    }
}
