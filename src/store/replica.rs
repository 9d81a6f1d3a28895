//! Read replicas (`CAIRN_READ_DATABASE_URL`): Postgres streaming replicas that serve reads, so that read
//! load leaves the primary.
//!
//! A client never misses its own write. Each instance remembers, per tenant, the WAL position just past its
//! last commit for that tenant (and hands it to the client as the `Cairn-Consistency-Token` of the
//! response); a read goes to a replica only when the replica has replayed at least that position (and the
//! client's token, when it sends one), checked on the connection that then serves the read, before its
//! snapshot is taken. Otherwise, or when no replica answers, or every replica lags past the bound, the read
//! goes to the primary. A monitor polls each replica twice a second for its lag; a replica that fails is
//! skipped by its breaker (as the primary's), and the read still answers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Executor, Postgres, Row, Transaction};
use uuid::Uuid;

use super::Breaker;

pub use crate::tenancy::consistency::{format_lsn, parse_lsn, Lsn};

/// The SQL of a position as a number (`pg_lsn` minus the start of the WAL).
const AS_NUMBER: &str = "- '0/0'::pg_lsn)::bigint";

/// One replica: its pool, its breaker and what its monitor last saw.
#[derive(Debug)]
struct Replica {
    /// `host:port` (for logs and metrics; never the password).
    name: String,
    pool: PgPool,
    breaker: Breaker,
    /// The position it had replayed at the last poll.
    replayed: AtomicU64,
    /// Its lag at the last poll, in milliseconds (`u64::MAX`: unknown, or it failed).
    lag_ms: AtomicU64,
    /// Reads it served (for tests and `/metrics`).
    served: AtomicU64,
}

/// The replicas of one deployment, with this instance's last commit position per tenant.
#[derive(Debug)]
pub struct Replicas {
    members: Vec<Replica>,
    max_lag: Duration,
    next: AtomicUsize,
    written: Mutex<HashMap<Uuid, Lsn>>,
    /// Positions up to this one have been forgotten (every replica that answered had replayed them): a replica
    /// known to be behind it (one back from an outage) serves nothing until it has caught up.
    pruned_upto: AtomicU64,
    /// Tenants whose last commit's position could not be read: their reads go to the primary until then.
    pinned: Mutex<HashMap<Uuid, std::time::Instant>>,
    /// Reads that went to the primary because no replica could serve them.
    fell_back: AtomicU64,
    monitoring: AtomicBool,
}

/// A replica's state, for operators (`/metrics`) and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaState {
    pub name: String,
    pub replayed: Lsn,
    pub lag_ms: Option<u64>,
    pub served: u64,
}

impl Replicas {
    /// Pools for each replica URL (lazily connected, each session `SET ROLE`-free: the replica URL logs in as
    /// the tenant pool's role, which replicas have as the primary does), with `pool` building their options.
    pub fn new(
        urls: &[PgConnectOptions],
        pool: impl Fn() -> PgPoolOptions,
        connect_timeout: Duration,
        max_lag: Duration,
    ) -> Self {
        let members = urls
            .iter()
            .map(|options| Replica {
                name: format!("{}:{}", options.get_host(), options.get_port()),
                // A busy replica is no reason to wait: the read goes to the primary instead.
                pool: pool()
                    .acquire_timeout(connect_timeout)
                    .connect_lazy_with(options.clone().application_name("cairn-read")),
                breaker: Breaker::new(connect_timeout),
                replayed: AtomicU64::new(0),
                lag_ms: AtomicU64::new(u64::MAX),
                served: AtomicU64::new(0),
            })
            .collect();
        Self {
            members,
            max_lag,
            next: AtomicUsize::new(0),
            written: Mutex::default(),
            pruned_upto: AtomicU64::new(0),
            pinned: Mutex::default(),
            fell_back: AtomicU64::new(0),
            monitoring: AtomicBool::new(false),
        }
    }

    /// Starts the lag monitor (once; it stops when the replicas are dropped). Needs a Tokio runtime.
    pub fn monitor(self: &Arc<Self>) {
        if self.monitoring.swap(true, Ordering::AcqRel) {
            return;
        }
        let weak: Weak<Self> = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(replicas) = weak.upgrade() else { return };
                replicas.poll().await;
            }
        });
    }

    /// One poll of every replica: its replayed position and lag; then forgets the tenants' commit positions
    /// that every replica has replayed.
    pub async fn poll(&self) {
        for r in &self.members {
            let sql = format!(
                "SELECT (pg_last_wal_replay_lsn() {AS_NUMBER},
                        CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                             ELSE (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::bigint END"
            );
            let polled = tokio::time::timeout(Duration::from_secs(2), async {
                r.breaker.guard(&r.pool, sqlx::query_as::<_, (Option<i64>, Option<i64>)>(&sql).fetch_one(&r.pool)).await
            })
            .await;
            match polled {
                // Not in recovery (promoted, or not a replica at all): not a replica to read from.
                Ok(Ok((Some(replayed), lag))) => {
                    r.replayed.store(replayed.max(0) as u64, Ordering::Release);
                    r.lag_ms.store(lag.map_or(u64::MAX, |l| l.max(0) as u64), Ordering::Release);
                }
                Ok(Ok((None, _))) => {
                    tracing::warn!(replica = %r.name, "a read replica is not in recovery: reads skip it");
                    r.lag_ms.store(u64::MAX, Ordering::Release);
                }
                Ok(Err(err)) => {
                    tracing::warn!(replica = %r.name, error = %err, "a read replica did not answer its lag poll");
                    r.lag_ms.store(u64::MAX, Ordering::Release);
                }
                Err(_) => r.lag_ms.store(u64::MAX, Ordering::Release),
            }
        }
        // Forgotten: what every replica that answered has replayed (a dead or promoted one does not hold the
        // map's growth back; it serves nothing until it has replayed past the watermark again).
        let answering = self.members.iter().filter(|r| r.lag_ms.load(Ordering::Acquire) != u64::MAX);
        if let Some(replayed_everywhere) = answering.map(|r| r.replayed.load(Ordering::Acquire)).min() {
            if let Ok(mut written) = self.written.lock() {
                written.retain(|_, lsn| *lsn > replayed_everywhere);
            }
            self.pruned_upto.fetch_max(replayed_everywhere, Ordering::AcqRel);
        }
        if let Ok(mut pinned) = self.pinned.lock() {
            let now = std::time::Instant::now();
            pinned.retain(|_, until| *until > now);
        }
    }

    /// Sends `tenant`'s reads to the primary for a while: its last commit's position is unknown.
    pub fn pin(&self, tenant: Uuid) {
        if let Ok(mut pinned) = self.pinned.lock() {
            // Ten lag bounds: by then a replica within the bound has the commit.
            pinned.insert(tenant, std::time::Instant::now() + self.max_lag * 10);
        }
    }

    /// Whether `tenant`'s reads must go to the primary (see [`Replicas::pin`]).
    pub fn pinned(&self, tenant: Uuid) -> bool {
        self.pinned.lock().ok().is_some_and(|p| p.get(&tenant).is_some_and(|until| *until > std::time::Instant::now()))
    }

    /// Records a commit of `tenant` that ended at or before `lsn`.
    pub fn wrote(&self, tenant: Uuid, lsn: Lsn) {
        if let Ok(mut written) = self.written.lock() {
            let entry = written.entry(tenant).or_insert(0);
            *entry = (*entry).max(lsn);
        }
    }

    /// The position a read of `tenant` must see (this instance's last commit for it), 0 when none is pending.
    pub fn written(&self, tenant: Uuid) -> Lsn {
        self.written.lock().ok().and_then(|w| w.get(&tenant).copied()).unwrap_or(0)
    }

    /// Each replica's state.
    pub fn states(&self) -> Vec<ReplicaState> {
        self.members
            .iter()
            .map(|r| ReplicaState {
                name: r.name.clone(),
                replayed: r.replayed.load(Ordering::Acquire),
                lag_ms: Some(r.lag_ms.load(Ordering::Acquire)).filter(|l| *l != u64::MAX),
                served: r.served.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// Reads that no replica could serve.
    pub fn fell_back(&self) -> u64 {
        self.fell_back.load(Ordering::Relaxed)
    }

    /// A read-only repeatable-read transaction on a replica that has replayed `needed`, with `settings`
    /// set; None when no replica can serve it now (the caller reads from the primary).
    pub async fn begin(
        &self,
        needed: Lsn,
        settings: &[(&'static str, super::Local)],
    ) -> Option<Transaction<'static, Postgres>> {
        let count = self.members.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..count {
            let r = &self.members[(start + i) % count];
            // Lagging, failed, or back from an outage behind what was forgotten: skipped. One whose last poll is
            // behind `needed` is skipped without asking (it rarely has caught up since, and a forged token
            // costs no round trip).
            let polled = r.replayed.load(Ordering::Acquire);
            if r.lag_ms.load(Ordering::Acquire) > self.max_lag.as_millis() as u64
                || polled < self.pruned_upto.load(Ordering::Acquire)
                || polled < needed
            {
                continue;
            }
            let opened = r.breaker.guard(&r.pool, open(&r.pool, needed, settings)).await;
            match opened {
                Ok(Some(tx)) => {
                    r.served.fetch_add(1, Ordering::Relaxed);
                    return Some(tx);
                }
                Ok(None) => {}
                Err(err) => tracing::warn!(replica = %r.name, error = %err, "a read replica failed: read elsewhere"),
            }
        }
        self.fell_back.fetch_add(1, Ordering::Relaxed);
        None
    }
}

/// Opens the transaction on one replica when it has replayed `needed`: the position is read on the
/// connection before the transaction's snapshot exists, so the snapshot holds everything up to it.
async fn open(
    pool: &PgPool,
    needed: Lsn,
    settings: &[(&'static str, super::Local)],
) -> Result<Option<Transaction<'static, Postgres>>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    if needed > 0 {
        let replayed: Option<i64> =
            conn.fetch_one(format!("SELECT (pg_last_wal_replay_lsn() {AS_NUMBER}").as_str()).await?.try_get(0)?;
        if replayed.is_none_or(|r| (r.max(0) as u64) < needed) {
            return Ok(None);
        }
    }
    let mut tx = super::begin_on(conn, Some("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")).await?;
    super::set_local(&mut tx, settings).await?;
    Ok(Some(tx))
}

/// The position just past every commit so far, on the primary (after a commit: the commit is in it).
pub async fn primary_position(pool: &PgPool) -> Result<Lsn, sqlx::Error> {
    let lsn: i64 =
        sqlx::query_scalar(&format!("SELECT (pg_current_wal_insert_lsn() {AS_NUMBER}")).fetch_one(pool).await?;
    Ok(lsn.max(0) as u64)
}
