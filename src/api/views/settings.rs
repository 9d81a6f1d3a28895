//! A tenant's lifecycle settings.

use serde::Serialize;
use utoipa::ToSchema;

/// A tenant's lifecycle settings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"forgetting_enabled": false, "forgetting_grace_days": 90, "archive_retention_days": null,
    "undo_days": 7, "read_keys_strengthen": false}))]
pub struct TenantSettings {
    /// Active forgetting: archive memories whose health reached 0 (off by default).
    pub forgetting_enabled: bool,
    /// Memories younger than this are never forgotten (0..=3650, default 90).
    pub forgetting_grace_days: i32,
    /// Archived memories older than this are deleted (1..=36500; null, the default: never); deleted
    /// memories stay restorable for `undo_days`.
    pub archive_retention_days: Option<i32>,
    /// Days a deleted memory can be restored (`POST /api/v1/memories/{id}/restore`) before it is erased for
    /// good (0..=365, default 7).
    pub undo_days: i32,
    /// Associative recall with a read-only key strengthens the associations between the memories it returns
    /// together, as a write key's does (default false: reading with a read-only key changes no data).
    pub read_keys_strengthen: bool,
}

impl From<crate::memory::TenantSettings> for TenantSettings {
    fn from(s: crate::memory::TenantSettings) -> Self {
        let crate::memory::TenantSettings {
            forgetting_enabled,
            forgetting_grace_days,
            archive_retention_days,
            undo_days,
            read_keys_strengthen,
        } = s;
        Self { forgetting_enabled, forgetting_grace_days, archive_retention_days, undo_days, read_keys_strengthen }
    }
}
