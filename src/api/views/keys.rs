//! API keys as stored, never their secrets.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// An API key's stored row, never its secret.
#[derive(Debug, Clone, Serialize, ToSchema)]
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
    /// The key's own requests-per-second limit (absent: its plan's).
    pub rate_limit_per_second: Option<i32>,
    /// The key this one replaced by rotation.
    pub rotated_from: Option<Uuid>,
    /// The end users the key is limited to (absent: any).
    pub user_ids: Option<Vec<String>>,
    /// The agents the key is limited to (absent: any).
    pub agent_ids: Option<Vec<String>>,
    /// The tag prefixes the key is limited to (absent: any).
    pub tag_prefixes: Option<Vec<String>>,
}

impl From<crate::tenancy::ApiKeyInfo> for ApiKeyInfo {
    fn from(k: crate::tenancy::ApiKeyInfo) -> Self {
        let crate::tenancy::ApiKeyInfo {
            id,
            tenant_id,
            prefix,
            name,
            scopes,
            created_at,
            expires_at,
            revoked_at,
            last_used_at,
            rate_limit_per_second,
            rotated_from,
            scope_user_ids,
            scope_agent_ids,
            scope_tag_prefixes,
        } = k;
        Self {
            id,
            tenant_id,
            prefix,
            name,
            scopes,
            created_at,
            expires_at,
            revoked_at,
            last_used_at,
            rate_limit_per_second,
            rotated_from,
            user_ids: scope_user_ids,
            agent_ids: scope_agent_ids,
            tag_prefixes: scope_tag_prefixes,
        }
    }
}
