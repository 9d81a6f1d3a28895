//! Retention (periodic queue `cairn::retention`, hourly by default): deletes the memories archived longer
//! than their tenant's `archive_retention_days` (off unless a tenant sets it), erases for good the deleted
//! memories past their tenant's undo window (`undo_days`), and forgets the periodic jobs' claims of past
//! periods.

use std::sync::Arc;

use apalis::prelude::{Data, Error as JobError};
use chrono::{Duration, Utc};

use super::clock;
use crate::queue::Tick;
use crate::service::lifecycle::{self, Rules};
use crate::store::{queue, Db};

/// How long the claims of past periods are kept.
pub const CLAIMS_KEPT: Duration = Duration::days(7);

/// The apalis handler of the periodic job.
pub async fn handle(_tick: Tick, db: Data<Arc<Db>>) -> Result<(), JobError> {
    let now = Utc::now();
    // The claims are pruned whatever the tenants' share did.
    let pruned = queue::prune_periods(db.owner(), now - CLAIMS_KEPT).await;
    let report = lifecycle::apply(&db, now, Rules::RETENTION).await.map_err(|e| clock::failed("retention", e))?;
    if report.purged > 0 {
        tracing::info!(purged = report.purged, "deleted memories past their archive retention");
    }
    if report.erased > 0 {
        tracing::info!(erased = report.erased, "erased deleted memories past their undo window");
    }
    pruned.map_err(|e| clock::failed("retention", e))?;
    Ok(())
}
