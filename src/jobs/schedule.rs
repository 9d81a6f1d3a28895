//! The per-tenant consolidation schedule (periodic queue `cairn::schedule`, hourly by default): records
//! and enqueues, for every tenant, each consolidation mode that is due (decay and forget daily, creative
//! and cluster weekly); the `cairn::consolidate` jobs then run them. It also enqueues the stored probe sets
//! whose `every_hours` has come round (`cairn::eval`), and announces the keys that expire within a week
//! (webhook `key.expiring`).

use std::sync::Arc;

use apalis::prelude::{Data, Error as JobError};

use super::clock;
use crate::queue::Tick;
use crate::service::consolidation;
use crate::store::Db;

/// The apalis handler of the periodic job.
pub async fn handle(tick: Tick, db: Data<Arc<Db>>) -> Result<(), JobError> {
    // As of the period's start, so queue delays never push a mode's due time into the next period.
    let runs = consolidation::schedule_due(&db, tick.period_start).await.map_err(|e| clock::failed("schedule", e))?;
    if runs > 0 {
        tracing::info!(runs, "scheduled consolidation");
    }
    let reports =
        crate::service::eval::schedule_due(&db, tick.period_start).await.map_err(|e| clock::failed("schedule", e))?;
    if reports > 0 {
        tracing::info!(reports, "scheduled quality reports");
    }
    let keys = crate::service::webhooks::announce_expiring_keys(&db).await.map_err(|e| clock::failed("schedule", e))?;
    if keys > 0 {
        tracing::info!(keys, "announced keys about to expire");
    }
    Ok(())
}
