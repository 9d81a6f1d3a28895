//! Background work, one job per file. `cairn serve` runs the workers in-process; `cairn worker` runs
//! them alone. Each pass works tenant by tenant, in that tenant's own transaction.

pub mod expire;

use std::time::Duration;

use crate::store::Db;

/// Runs every periodic job until `shutdown` resolves.
pub async fn run_workers(db: Db, every: Duration, shutdown: impl std::future::Future<Output = ()>) {
    tokio::pin!(shutdown);
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut shutdown => return,
            _ = tick.tick() => {
                match expire::run_once(&db, chrono::Utc::now()).await {
                    Ok(report) if report.promoted + report.archived > 0 => {
                        tracing::info!(promoted = report.promoted, archived = report.archived, "expired short-term memories");
                    }
                    Ok(_) => {}
                    Err(err) => tracing::warn!(error = %err, "expiry pass failed; will retry"),
                }
            }
        }
    }
}
