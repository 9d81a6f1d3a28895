//! Expiry of short-term memories (remem; periodic queue `cairn::expire`, every 30 s by default): when a
//! short-term memory's TTL has elapsed it is promoted to long-term if it was accessed at least
//! [`PROMOTION_ACCESS_COUNT`] times, and archived otherwise. Nothing is deleted. Idempotent: a memory is
//! handled once, since both outcomes take it out of the set.

use chrono::{DateTime, Utc};

use crate::error::Error;
use crate::store::{lifecycle, tenants, Db};

/// Accesses at or above which an expiring short-term memory is kept as long-term.
pub const PROMOTION_ACCESS_COUNT: i64 = 3;

/// Most fold statements (of `store::stats::FOLD_KEYS` counts each) per tenant and pass.
const FOLD_ROUNDS: usize = 20;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ExpireReport {
    pub promoted: u64,
    pub archived: u64,
}

/// One pass over every tenant, as of `now` (injectable so tests need not wait).
pub async fn run_once(db: &Db, now: DateTime<Utc>) -> Result<ExpireReport, Error> {
    let (mut report, mut pass) = (ExpireReport::default(), crate::service::Pass::default());
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let expired = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            let outcomes = lifecycle::expire(&mut tx, now, PROMOTION_ACCESS_COUNT).await?;
            tx.commit().await?;
            Ok(outcomes)
        };
        // The stats', tags' and keyword statistics' counts, folded as often as expiry runs (their reads stay a
        // few rows); in a transaction of its own, so that neither can undo the other. At most FOLD_ROUNDS
        // statements per tenant and pass: a bulk load's backlog is folded over a few passes.
        let folded = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            crate::store::stats::fold_counts(&mut tx, FOLD_ROUNDS).await?;
            tx.commit().await
        };
        pass.note(tenant_id, "count folding", folded.await);
        // Webhook deliveries: the log's old entries forgotten, and a delivering job woken where one is due.
        pass.note(tenant_id, "webhook sweep", crate::service::webhooks::sweep(db, tenant_id).await);
        for outcome in pass.note(tenant_id, "expiry", expired.await).unwrap_or_default() {
            if outcome == "promoted" {
                report.promoted += 1;
            } else {
                report.archived += 1;
            }
        }
    }
    pass.finish(report)
}

/// The apalis handler of the periodic job: one pass as of now.
pub async fn handle(
    _tick: crate::queue::Tick,
    db: apalis::prelude::Data<std::sync::Arc<Db>>,
) -> Result<(), apalis::prelude::Error> {
    // Jobs a live worker lost (an outage cut its fetch or its acknowledgement) go back to their queues.
    match crate::store::queue::requeue_stale(&db.queue_pool(), db.job_stale_after()).await {
        Ok(0) => {}
        Ok(handed_back) => tracing::warn!(handed_back, "handed back jobs marked running for too long"),
        Err(err) => tracing::warn!(error = %err, "could not hand back stale jobs"),
    }
    match run_once(&db, Utc::now()).await {
        Ok(report) => {
            if report.promoted + report.archived > 0 {
                tracing::info!(promoted = report.promoted, archived = report.archived, "expired short-term memories");
            }
            Ok(())
        }
        Err(err) => Err(super::clock::failed("expiry", err)),
    }
}
