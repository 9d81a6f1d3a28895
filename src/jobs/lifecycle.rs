//! The lifecycle rules over every tenant: importance decay of long-term memories, active forgetting where a
//! tenant turned it on, and deletion of long-archived memories where a tenant set a retention. The
//! service runs decay and forgetting as scheduled consolidation and retention hourly; `run_once` runs all
//! three at once. Time is a parameter, so tests run a year of days without waiting.

use chrono::{DateTime, Utc};

use crate::error::ApiError;
use crate::store::{lifecycle, tenants, Db};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LifecycleReport {
    pub decayed: u64,
    pub forgotten: u64,
    pub purged: u64,
}

/// One pass over every tenant as of `now`.
pub async fn run_once(db: &Db, now: DateTime<Utc>) -> Result<LifecycleReport, ApiError> {
    let mut report = LifecycleReport::default();
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let Some(settings) = tenants::settings(db.owner(), tenant_id).await? else { continue };
        let mut tx = db.begin_tenant(tenant_id).await?;
        report.decayed += lifecycle::decay_importance(&mut tx, now).await?;
        if settings.forgetting_enabled {
            report.forgotten += lifecycle::forget(&mut tx, now, settings.forgetting_grace_days).await?;
        }
        if let Some(days) = settings.archive_retention_days {
            report.purged += lifecycle::purge_archived(&mut tx, now, days).await?;
        }
        tx.commit().await?;
    }
    Ok(report)
}

/// Archive retention alone, over every tenant that set one (the hourly pass; decay and forgetting run as
/// scheduled consolidation).
pub async fn purge_all(db: &Db, now: DateTime<Utc>) -> Result<u64, ApiError> {
    let mut purged = 0;
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let Some(days) = tenants::settings(db.owner(), tenant_id).await?.and_then(|s| s.archive_retention_days) else {
            continue;
        };
        let mut tx = db.begin_tenant(tenant_id).await?;
        purged += lifecycle::purge_archived(&mut tx, now, days).await?;
        tx.commit().await?;
    }
    Ok(purged)
}
