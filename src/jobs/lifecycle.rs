//! The lifecycle rules over every tenant: importance decay of long-term memories, active forgetting where a
//! tenant turned it on, and deletion of long-archived memories where a tenant set a retention. The
//! service runs decay and forgetting as scheduled consolidation and retention hourly ([`Rules::RETENTION`]);
//! `run_once` runs all three at once. Time is a parameter, so tests run a year of days without waiting.

use chrono::{DateTime, Utc};

use crate::error::ApiError;
use crate::store::{lifecycle, tenants, Db};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LifecycleReport {
    pub decayed: u64,
    pub forgotten: u64,
    pub purged: u64,
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
    /// The hourly pass's share: decay and forgetting run as scheduled consolidation.
    pub const RETENTION: Rules = Rules { decay: false, forget: false, purge: true };
}

/// One pass of `rules` over every tenant as of `now` (forgetting and retention where the tenant set them).
pub async fn run(db: &Db, now: DateTime<Utc>, rules: Rules) -> Result<LifecycleReport, ApiError> {
    let mut report = LifecycleReport::default();
    for (tenant_id, settings) in tenants::all_settings(db.owner()).await? {
        let forget = rules.forget && settings.forgetting_enabled;
        let purge = settings.archive_retention_days.filter(|_| rules.purge);
        if !rules.decay && !forget && purge.is_none() {
            continue;
        }
        let mut tx = db.begin_tenant(tenant_id).await?;
        if rules.decay {
            report.decayed += lifecycle::decay_importance(&mut tx, now).await?;
        }
        if forget {
            report.forgotten += lifecycle::forget(&mut tx, now, settings.forgetting_grace_days).await?;
        }
        if let Some(days) = purge {
            report.purged += lifecycle::purge_archived(&mut tx, now, days).await?;
        }
        tx.commit().await?;
    }
    Ok(report)
}

/// Every rule at once (what a day of the service's passes does, in one call).
pub async fn run_once(db: &Db, now: DateTime<Utc>) -> Result<LifecycleReport, ApiError> {
    run(db, now, Rules::ALL).await
}
