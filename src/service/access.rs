//! Recall accesses, coalesced: a recall adds its results to an in-memory tally per tenant
//! ([`Accesses::add`]), and a flusher writes the tally about once a second, one statement per tenant
//! ([`Accesses::flush`]). A memory recalled by a hundred requests in that second costs one row update, not
//! a hundred, and no recall's answer waits for (or queues behind) the bumps of the others. Flushed when the
//! server stops; a crash loses at most one interval's counts (README, "Performance").
//!
//! A row another transaction holds at flush time is skipped, not waited for (the bump must never queue
//! behind a long write), and tried again at the next flushes; after [`MAX_TRIES`] the count is dropped
//! (the memory was most likely deleted meanwhile).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::error::Result;
use crate::store::{recall as sql, Db};

/// Flushes a pending count may be tried in before it is dropped.
pub const MAX_TRIES: u8 = 5;
/// Most memories pending per tenant; beyond it a recall's accesses are not counted until the next flush
/// (bounds the tally's memory whatever the request rate).
pub const MAX_PENDING_PER_TENANT: usize = 100_000;

/// One memory's accesses not yet written.
#[derive(Debug, Clone, Copy)]
struct Pending {
    count: i32,
    last: DateTime<Utc>,
    tries: u8,
}

/// Accesses counted on this instance and not yet written, per tenant and memory. Cheap to clone (shared).
#[derive(Clone, Default)]
pub struct Accesses {
    pending: Arc<Mutex<HashMap<Uuid, HashMap<Uuid, Pending>>>>,
    /// Held by a flush while it writes: a second flush waits for the first, so once `flush` returns,
    /// every access added before the call is written (or put back).
    flushing: Arc<tokio::sync::Mutex<()>>,
}

impl Accesses {
    /// Counts one access of each of `ids` now.
    pub fn add(&self, tenant_id: Uuid, ids: &[Uuid]) {
        if ids.is_empty() {
            return;
        }
        let now = Utc::now();
        let Ok(mut pending) = self.pending.lock() else { return };
        let tenant = pending.entry(tenant_id).or_default();
        for id in ids {
            if tenant.len() >= MAX_PENDING_PER_TENANT && !tenant.contains_key(id) {
                metrics::counter!("cairn_recall_accesses_dropped_total", "reason" => "full").increment(1);
                continue;
            }
            let p = tenant.entry(*id).or_insert(Pending { count: 0, last: now, tries: 0 });
            p.count = p.count.saturating_add(1);
            p.last = p.last.max(now);
        }
    }

    /// Memories with accesses not yet written (all tenants).
    pub fn pending(&self) -> usize {
        self.pending.lock().map(|p| p.values().map(HashMap::len).sum()).unwrap_or(0)
    }

    /// Puts counts back for a later flush (merged with what arrived meanwhile); with `spend`, one try spent
    /// (a row another transaction held), else none (the database could not be written: nothing is dropped
    /// for an outage, the per-tenant bound keeps the tally's size).
    fn put_back(&self, tenant_id: Uuid, back: impl IntoIterator<Item = (Uuid, Pending)>, spend: bool) {
        let Ok(mut pending) = self.pending.lock() else { return };
        let tenant = pending.entry(tenant_id).or_default();
        for (id, p) in back {
            let tries = if spend { p.tries + 1 } else { p.tries };
            if tries >= MAX_TRIES {
                metrics::counter!("cairn_recall_accesses_dropped_total", "reason" => "held").increment(1);
                continue;
            }
            let slot = tenant.entry(id).or_insert(Pending { count: 0, last: p.last, tries: 0 });
            slot.count = slot.count.saturating_add(p.count);
            slot.last = slot.last.max(p.last);
            slot.tries = slot.tries.max(tries);
        }
    }

    /// Writes the pending counts, one transaction and statement per tenant. Rows another transaction holds,
    /// and a tenant whose write failed, are kept for the next flush.
    pub async fn flush(&self, db: &Db) -> Result<()> {
        let _one_at_a_time = self.flushing.lock().await;
        let taken: Vec<(Uuid, HashMap<Uuid, Pending>)> = match self.pending.lock() {
            Ok(mut pending) => pending.drain().filter(|(_, m)| !m.is_empty()).collect(),
            Err(_) => return Ok(()),
        };
        let mut failed = None;
        for (tenant_id, memories) in taken {
            let (mut ids, mut counts, mut lasts) = (Vec::new(), Vec::new(), Vec::new());
            for (id, p) in &memories {
                ids.push(*id);
                counts.push(p.count);
                lasts.push(p.last);
            }
            let written = async {
                let mut tx = db.begin_tenant_unobserved(tenant_id).await?;
                let counted = sql::count_accesses(&mut tx, &ids, &counts, &lasts).await?;
                tx.commit().await?;
                Ok::<_, crate::error::Error>(counted)
            }
            .await;
            match written {
                Ok(counted) => {
                    let counted: std::collections::HashSet<Uuid> = counted.into_iter().collect();
                    metrics::counter!("cairn_recall_accesses_written_total").increment(counted.len() as u64);
                    self.put_back(tenant_id, memories.into_iter().filter(|(id, _)| !counted.contains(id)), true);
                }
                Err(err) => {
                    self.put_back(tenant_id, memories, false);
                    failed = Some(err);
                }
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

/// Flushes `accesses` every `every` until `stop` resolves, and once more then.
pub async fn flush_every(
    db: Db,
    accesses: Accesses,
    every: std::time::Duration,
    stop: impl std::future::Future<Output = ()>,
) {
    let (db, accesses) = (&db, &accesses);
    let tick = move || async move {
        if let Err(err) = accesses.flush(db).await {
            tracing::warn!(error = %err, "could not write recall accesses; kept for the next flush");
        }
    };
    let last = async move {
        if let Err(err) = accesses.flush(db).await {
            tracing::warn!(error = %err, pending = accesses.pending(), "could not write recall accesses at shutdown");
        }
    };
    super::every_until(every, stop, tick, last).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_of_one_memory_add_up_and_keep_the_latest_time() {
        let a = Accesses::default();
        let (t, m, n) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        a.add(t, &[m, n]);
        a.add(t, &[m]);
        let pending = a.pending.lock().unwrap();
        let tenant = &pending[&t];
        assert_eq!((tenant[&m].count, tenant[&n].count), (2, 1));
        assert!(tenant[&m].last >= tenant[&n].last);
    }

    #[test]
    fn counts_put_back_merge_with_new_ones_and_are_dropped_after_the_last_try() {
        let a = Accesses::default();
        let (t, m, gone) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        a.add(t, &[m]);
        let now = Utc::now();
        a.put_back(
            t,
            [
                (m, Pending { count: 3, last: now, tries: 0 }),
                (gone, Pending { count: 1, last: now, tries: MAX_TRIES - 1 }),
            ],
            true,
        );
        // A failed write (the database unreachable) spends no try: nothing is dropped for an outage.
        let outage = Uuid::new_v4();
        a.put_back(t, [(outage, Pending { count: 2, last: now, tries: MAX_TRIES - 1 })], false);
        let pending = a.pending.lock().unwrap();
        assert_eq!((pending[&t][&m].count, pending[&t][&m].tries), (4, 1));
        assert!(!pending[&t].contains_key(&gone), "a count held past its last try is dropped");
        assert_eq!(pending[&t][&outage].count, 2);
    }
}
