//! The lifecycle: promote, restore and archive by hand; the tenant's lifecycle settings; and the rules
//! over every tenant (importance decay, active forgetting where a tenant turned it on, deletion of
//! long-archived memories where a tenant set a retention). Time is a parameter, so tests run a year of
//! days without waiting.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::Services;
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::memory::Memory;
use crate::memory::TenantSettings;
use crate::store::tenants;
use crate::store::{lifecycle, Db};

/// A lifecycle change made by hand.
#[derive(Debug, Clone, Copy)]
pub enum Change {
    /// Short-term to long-term.
    Promote,
    /// Out of the archive.
    Restore,
    /// Into the archive (remem's soft delete).
    Archive,
}

/// Applies a lifecycle change to one memory and returns it as it is afterwards (not found when the tenant
/// has no such memory). A change that does not apply (promoting a long-term memory) returns it unchanged.
/// Restore brings an archived memory back, or a deleted one while the tenant's undo window lasts.
pub async fn change(svc: &Services, t: &Tenant, id: Uuid, change: Change) -> Result<Memory> {
    t.require(Scope::Write)?;
    if matches!(change, Change::Restore) {
        return restore(svc, t, id).await;
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let actor = t.actor();
    let memory = match change {
        Change::Promote => lifecycle::promote(&mut tx, id, &actor).await?,
        Change::Restore => lifecycle::restore(&mut tx, id, &actor).await?,
        Change::Archive => lifecycle::archive(&mut tx, id, &actor).await?,
    };
    let memory = memory.ok_or_else(|| Error::not_found(format!("memory {id} not found")))?;
    // A promotion writes history, which counts towards what the tenant stores; archiving, like deleting, is
    // never refused.
    super::usage::check_storage(&mut tx, &t.limits, matches!(change, Change::Promote)).await?;
    tx.commit().await?;
    Ok(memory)
}

/// Restores an archived memory, or else a deleted one from the trash.
async fn restore(svc: &Services, t: &Tenant, id: Uuid) -> Result<Memory> {
    let mut tx = svc.db.begin_tenant(t).await?;
    if let Some(memory) = lifecycle::restore(&mut tx, id, &t.actor()).await? {
        super::usage::check_storage(&mut tx, &t.limits, true).await?;
        tx.commit().await?;
        return Ok(memory);
    }
    tx.rollback().await?;
    super::trash::restore(svc, t, id).await
}

/// The tenant's lifecycle settings.
pub async fn settings(svc: &Services, t: &Tenant) -> Result<TenantSettings> {
    t.require(Scope::Read)?;
    tenants::settings(svc.db.owner(), t.id).await?.ok_or_else(|| Error::not_found("tenant not found"))
}

/// Changes to the settings; `None` keeps a value. `archive_retention_days: Some(None)` turns retention off.
#[derive(Debug, Default, Clone)]
pub struct SettingsChange {
    pub forgetting_enabled: Option<bool>,
    pub forgetting_grace_days: Option<i64>,
    pub archive_retention_days: Option<Option<i64>>,
    pub undo_days: Option<i64>,
    pub read_keys_strengthen: Option<bool>,
}

impl SettingsChange {
    /// Refuses a value out of range, naming its field.
    pub fn check(&self) -> Result<()> {
        if let Some(days) = self.forgetting_grace_days.filter(|d| !(0..=3650).contains(d)) {
            return Err(bad("forgetting_grace_days", format!("must be between 0 and 3650 (got {days})")));
        }
        if let Some(days) = self.archive_retention_days.flatten().filter(|d| !(1..=36500).contains(d)) {
            return Err(bad("archive_retention_days", format!("must be between 1 and 36500, or null (got {days})")));
        }
        if let Some(days) = self.undo_days.filter(|d| !(0..=365).contains(d)) {
            return Err(bad("undo_days", format!("must be between 0 and 365 (got {days})")));
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.forgetting_enabled.is_none()
            && self.forgetting_grace_days.is_none()
            && self.archive_retention_days.is_none()
            && self.undo_days.is_none()
            && self.read_keys_strengthen.is_none()
    }
}

/// Changes the tenant's lifecycle settings (admin scope), audited as the key's `settings.update`; returns them
/// as they are now.
pub async fn update_settings(svc: &Services, t: &Tenant, change: SettingsChange) -> Result<TenantSettings> {
    let settings = apply_settings(svc, t, change).await?;
    let details = serde_json::json!({"forgetting_enabled": settings.forgetting_enabled,
        "forgetting_grace_days": settings.forgetting_grace_days, "archive_retention_days": settings.archive_retention_days,
        "undo_days": settings.undo_days, "read_keys_strengthen": settings.read_keys_strengthen});
    super::audit::record(svc, &t.actor(), Some(t.id), "settings.update", None, details).await;
    Ok(settings)
}

/// [`update_settings`] without its audit entry, for an operator's tenant update (audited as `tenant.update`).
pub async fn apply_settings(svc: &Services, t: &Tenant, change: SettingsChange) -> Result<TenantSettings> {
    t.require(Scope::Admin)?;
    change.check()?;
    let mut settings = settings(svc, t).await?;
    if let Some(on) = change.forgetting_enabled {
        settings.forgetting_enabled = on;
    }
    if let Some(days) = change.forgetting_grace_days {
        settings.forgetting_grace_days = days as i32;
    }
    if let Some(retention) = change.archive_retention_days {
        settings.archive_retention_days = retention.map(|d| d as i32);
    }
    if let Some(days) = change.undo_days {
        settings.undo_days = days as i32;
    }
    if let Some(on) = change.read_keys_strengthen {
        settings.read_keys_strengthen = on;
    }
    tenants::set_settings(svc.db.owner(), t.id, &settings).await?;
    Ok(settings)
}

/// What a pass of the rules did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LifecycleReport {
    pub decayed: u64,
    pub forgotten: u64,
    pub purged: u64,
    /// Deleted memories erased for good (their undo window passed).
    pub erased: u64,
}

/// Which rules a pass applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub decay: bool,
    pub forget: bool,
    pub purge: bool,
}

impl Rules {
    pub const ALL: Rules = Rules { decay: true, forget: true, purge: true };
    /// The retention job's share: decay and forgetting run as scheduled consolidation.
    pub const RETENTION: Rules = Rules { decay: false, forget: false, purge: true };
}

/// One pass of `rules` over every tenant as of `now` (forgetting and retention where the tenant set them).
pub async fn apply(db: &Db, now: DateTime<Utc>, rules: Rules) -> Result<LifecycleReport> {
    let (mut report, mut pass) = (LifecycleReport::default(), super::Pass::default());
    for (tenant_id, settings) in tenants::all_settings(db.owner()).await? {
        let forget = rules.forget && settings.forgetting_enabled;
        let purge = settings.archive_retention_days.filter(|_| rules.purge);
        let applied = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            if let Some(days) = purge {
                // Deleting re-indexes episode neighbours under the episode's lock: taken before any row.
                lifecycle::lock_purge_episodes(&mut tx, now, days).await?;
            }
            let mut done = LifecycleReport::default();
            if rules.decay {
                done.decayed = lifecycle::decay_importance(&mut tx, now).await?;
            }
            if forget {
                done.forgotten = lifecycle::forget(&mut tx, now, settings.forgetting_grace_days).await?;
            }
            if let Some(days) = purge {
                done.purged = lifecycle::purge_archived(&mut tx, now, days).await?;
            }
            if rules.purge {
                done.erased = super::trash::erase_expired(&mut tx, now, settings.undo_days).await?;
            }
            tx.commit().await?;
            Ok(done)
        };
        if let Some(done) = pass.note(tenant_id, "the lifecycle rules", applied.await) {
            report.decayed += done.decayed;
            report.forgotten += done.forgotten;
            report.purged += done.purged;
            report.erased += done.erased;
        }
    }
    pass.finish(report)
}
