//! The control plane's domain: tenants and their standing, API keys as stored (never their secrets), plans'
//! and tenants' limits. Plain types used alike by the store (which reads and writes them), `auth` (which
//! verifies keys against them) and the services; no SQL, no HTTP, no verification here.

pub mod consistency;
mod limits;
pub mod scope;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use self::limits::{Budget, LimitOverrides, DEFAULT_MAX_METADATA_BYTES};
pub use self::scope::KeyScope;
use crate::error::Error;

/// A tenant, as the control plane records it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TenantInfo {
    pub id: Uuid,
    pub name: String,
    pub plan: String,
    /// The tenant's own limits over its plan's (as stored; see [`LimitOverrides::from_stored`]).
    pub limits: sqlx::types::Json<serde_json::Value>,
    /// `active`, `suspended`, `deleting` or `deleted`.
    pub status: String,
    pub status_reason: Option<String>,
    pub status_changed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// After deletion: rows removed per table, and when it finished.
    pub deletion_report: Option<sqlx::types::Json<serde_json::Value>>,
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
    /// The key's own requests-per-second limit (else its plan's).
    pub rate_limit_per_second: Option<i32>,
    /// The key this one replaced by rotation.
    pub rotated_from: Option<Uuid>,
    /// The key's scope ([`KeyScope`]): the end users, agents and tag prefixes it is limited to (None: any).
    pub scope_user_ids: Option<Vec<String>>,
    pub scope_agent_ids: Option<Vec<String>>,
    pub scope_tag_prefixes: Option<Vec<String>>,
}

impl ApiKeyInfo {
    /// The key's scope, when it has one.
    pub fn scope(&self) -> Option<KeyScope> {
        KeyScope::stored(self.scope_user_ids.clone(), self.scope_agent_ids.clone(), self.scope_tag_prefixes.clone())
    }
}

/// What a new key is: its scopes (parsed), name, expiry, own rate limit, and the key it replaces.
#[derive(Debug, Clone, Default)]
pub struct NewKey {
    pub scopes: Vec<String>,
    pub name: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub rate_limit_per_second: Option<i32>,
    pub rotated_from: Option<Uuid>,
    /// Limits the key to some end users, agents or tag prefixes.
    pub scope: Option<KeyScope>,
}

/// A tenant's standing, as authentication needs it: cached per instance.
#[derive(Debug, Clone)]
pub struct TenantAccess {
    pub id: Uuid,
    pub status: TenantStatus,
    pub plan: String,
    /// The tenant's overrides over its plan's limits.
    pub limits: LimitOverrides,
}

impl TenantAccess {
    /// The metadata cap in force.
    pub fn max_metadata_bytes(&self) -> u32 {
        self.limits.max_metadata_bytes.unwrap_or(DEFAULT_MAX_METADATA_BYTES)
    }

    /// Refuses a tenant that is not active, saying why.
    pub fn require_active(&self) -> Result<(), Error> {
        match self.status {
            TenantStatus::Active => Ok(()),
            TenantStatus::Suspended => Err(Error::Forbidden(format!(
                "tenant {} is suspended; its keys are refused until an operator resumes it",
                self.id
            ))),
            TenantStatus::Deleting | TenantStatus::Deleted => {
                Err(Error::Forbidden(format!("tenant {} is deleted; its keys no longer work", self.id)))
            }
        }
    }
}

/// A tenant's lifecycle state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TenantStatus {
    Active,
    Suspended,
    Deleting,
    Deleted,
}

impl TenantStatus {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "active" => Some(Self::Active),
            "suspended" => Some(Self::Suspended),
            "deleting" => Some(Self::Deleting),
            "deleted" => Some(Self::Deleted),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Suspended => "suspended",
            Self::Deleting => "deleting",
            Self::Deleted => "deleted",
        }
    }
}
