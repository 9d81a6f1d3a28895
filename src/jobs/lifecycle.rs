//! The daily lifecycle pass (periodic; run hourly, each rule acting at most once a day per memory):
//! importance decay of long-term memories, active forgetting where a tenant turned it on, and deletion of
//! long-archived memories where a tenant set a retention. Time is a parameter, so tests run a year of
//! days without waiting.

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
