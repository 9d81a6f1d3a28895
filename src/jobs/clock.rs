//! The clock of the periodic jobs (expiry, retention, the consolidation schedule): every worker process
//! that serves one of their queues ticks, and at each tick claims the current period of each job
//! (`store::queue::claim_period`: a row per job and period, inserted once). Only the process whose claim
//! wins enqueues that period's job, so each period runs once across any number of processes, whichever
//! worker picks it up.

use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};

use crate::queue::PERIODIC_MAX_ATTEMPTS;
use crate::store::{queue, Db};

/// A periodic job: its queue and period.
#[derive(Debug, Clone, Copy)]
pub struct Periodic {
    pub queue: &'static str,
    pub every: Duration,
}

/// The start of the period of length `every` that contains `now` (periods are aligned to the epoch).
pub fn period_start(now: DateTime<Utc>, every: Duration) -> DateTime<Utc> {
    let every = every.as_millis().max(1) as i64;
    let ms = now.timestamp_millis();
    Utc.timestamp_millis_opt(ms - ms.rem_euclid(every)).single().unwrap_or(now)
}

/// Claims the current period of each job, enqueueing those this process claimed first; returns them.
pub async fn tick(db: &Db, jobs: &[Periodic], now: DateTime<Utc>, claimed_by: &str) -> Vec<&'static str> {
    let mut enqueued = Vec::new();
    for job in jobs {
        let start = period_start(now, job.every);
        let payload = serde_json::json!({ "period_start": start });
        match queue::claim_period(db.owner(), job.queue, start, claimed_by, payload, PERIODIC_MAX_ATTEMPTS).await {
            Ok(true) => enqueued.push(job.queue),
            Ok(false) => {}
            Err(err) => tracing::warn!(queue = job.queue, error = %err, "could not claim a periodic job's period"),
        }
    }
    enqueued
}

/// Ticks until `stop` resolves: at once, then several times per shortest period (at least every 5 s).
pub async fn run(db: Db, jobs: Vec<Periodic>, claimed_by: String, stop: impl std::future::Future<Output = ()>) {
    if jobs.is_empty() {
        return;
    }
    let shortest = jobs.iter().map(|j| j.every).min().unwrap_or(Duration::from_secs(30));
    let every = (shortest / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = ticks.tick() => {
                tick(&db, &jobs, Utc::now(), &claimed_by).await;
            }
        }
    }
}

/// A periodic job's failure, logged and handed to apalis (which retries it).
pub fn failed(what: &str, err: crate::error::Error) -> apalis::prelude::Error {
    tracing::warn!(job = what, error = ?err, "periodic job failed; will retry");
    apalis::prelude::Error::Failed(std::sync::Arc::new(err.to_string().into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_are_aligned_to_the_epoch() {
        let at = Utc.with_ymd_and_hms(2026, 11, 30, 10, 17, 45).unwrap();
        assert_eq!(period_start(at, Duration::from_secs(30)), Utc.with_ymd_and_hms(2026, 11, 30, 10, 17, 30).unwrap());
        assert_eq!(period_start(at, Duration::from_secs(3600)), Utc.with_ymd_and_hms(2026, 11, 30, 10, 0, 0).unwrap());
    }
}
