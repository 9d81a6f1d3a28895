//! The use cases, one file per domain: what Cairn does, whatever surface asks. Every function takes the
//! deployment's [`Services`] and a [`Tenant`](crate::auth::Tenant) context, checks the context's scope,
//! validates, decides, and reaches the database only through `store` in a tenant transaction. Errors are
//! [`crate::error::Error`]; nothing here knows HTTP, MCP or any surface's names and shapes.
//!
//! - `memories`: store (one, a batch, supersede), get, list, update, delete, by tag, history;
//! - `recall`: every form of recall (single, multi-query, entity-grouped, associative, expansions,
//!   proactive context), each on one read-only snapshot;
//! - `associations`: associations, traversal, episodes, connections;
//! - `entities`, `lifecycle` (promote, restore, archive, settings), `consolidation`, `keys`, `stats`,
//!   `jobs` (status, reprocessing, re-embedding) and `health`;
//! - the control plane: `tenants`, `admins` (operators' sessions), `audit`, `usage` (metering, quotas and
//!   daily budgets).

pub mod access;
pub mod admins;
pub mod associations;
pub mod audit;
pub mod consolidation;
pub mod entities;
pub mod eval;
pub mod health;
pub mod jobs;
pub mod keys;
pub mod lifecycle;
pub mod memories;
pub mod recall;
pub mod stats;
pub mod tenants;
pub mod transfer;
pub mod trash;
pub mod usage;
pub mod webhooks;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::auth::admin::TokenKeys;
use crate::auth::KeyVerifier;
use crate::config::Settings;
use crate::models::chat::ChatModel;
use crate::models::embed::EmbedderSlot;
use crate::store::Db;

/// What one deployment's use cases need: the database, the key verifier, the embedder (once loaded), the
/// optional chat model, per-tenant keyword statistics and the configuration. Cheap to clone.
#[derive(Clone)]
pub struct Services {
    pub db: Db,
    pub keys: KeyVerifier,
    /// The embedder, once loaded.
    pub embedder: EmbedderSlot,
    /// The configured chat model (`CAIRN_LLM_*`), if any.
    pub chat: Option<Arc<ChatModel>>,
    pub config: Arc<Settings>,
    pub started: Instant,
    /// Signs and verifies operators' access tokens.
    pub tokens: Arc<TokenKeys>,
    /// Usage counted on this instance and not yet flushed.
    pub usage: usage::Meter,
    /// Recall accesses counted on this instance and not yet written.
    pub accesses: access::Accesses,
    /// Failed operator logins per account and address on this instance.
    pub logins: Arc<crate::auth::limits::LoginThrottle>,
    /// The optional rerank stage (`CAIRN_RERANKER`).
    pub reranker: Option<Arc<crate::models::rerank::Reranker>>,
    /// Recent query vectors by (tenant, model, query text): at most 10,000, each for ten minutes.
    pub query_vectors: moka::sync::Cache<(uuid::Uuid, String, String), Arc<Vec<f32>>>,
    /// Import and export turns on this instance, per tenant and in all.
    pub transfers: Arc<transfer::Transfers>,
}

/// Runs CPU-heavy synchronous work (parsing a large body, batch or import) on the blocking pool, so the
/// executor threads keep answering other requests and tenants (and `/livez`) meanwhile. At most twice the
/// cores' worth runs at once (the rest wait their turn without holding a thread), which also bounds the memory
/// such work holds.
pub async fn offload<T: Send + 'static>(
    work: impl FnOnce() -> crate::error::Result<T> + Send + 'static,
) -> crate::error::Result<T> {
    static TURNS: std::sync::OnceLock<Arc<tokio::sync::Semaphore>> = std::sync::OnceLock::new();
    let turns = TURNS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Arc::new(tokio::sync::Semaphore::new(cores * 2))
    });
    let turn = turns.clone().acquire_owned().await.map_err(|e| crate::error::Error::Internal(e.into()))?;
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        work()
    })
    .await
    .map_err(|e| crate::error::Error::Internal(e.into()))?
}

impl Services {
    /// The token a client sends back to read its own writes of `tenant` from read replicas through any
    /// instance (`Cairn-Consistency-Token`); None without replicas or when every replica has them.
    pub fn consistency_token(&self, tenant: uuid::Uuid) -> Option<String> {
        self.db.consistency_token(tenant)
    }

    pub fn new(db: Db, config: Settings, embedder: EmbedderSlot) -> crate::error::Result<Self> {
        let keys = KeyVerifier::new(db.owner().clone(), db.owner_breaker(), &config.verifier);
        let tokens = Arc::new(TokenKeys::new(
            config.jwt.secret.as_ref().map(secrecy::ExposeSecret::expose_secret),
            config.jwt.previous_secrets.as_ref().map(secrecy::ExposeSecret::expose_secret),
            &config.jwt.issuer,
            &config.jwt.audience,
            config.jwt.access_token_ttl,
        )?);
        let chat = config.llm.clone().and_then(|c| match ChatModel::new(c) {
            Ok(model) => Some(Arc::new(model)),
            Err(err) => {
                tracing::error!(
                    error = format!("{err:#}"),
                    "the chat model is configured but unusable; working without it"
                );
                None
            }
        });
        let reranker = match config.rerank.clone().map(crate::models::rerank::Reranker::new).transpose() {
            Ok(r) => r.map(Arc::new),
            Err(err) => return Err(crate::error::Error::invalid(format!("CAIRN_RERANKER_URL: {err:#}"))),
        };
        let transfers = Arc::new(transfer::Transfers::new(config.import_kib_per_sec));
        Ok(Self {
            db,
            keys,
            reranker,
            query_vectors: moka::sync::Cache::builder()
                .max_capacity(10_000)
                .time_to_live(Duration::from_secs(600))
                .build(),
            embedder,
            chat,
            config: Arc::new(config),
            started: Instant::now(),
            tokens,
            usage: usage::Meter::default(),
            accesses: access::Accesses::default(),
            logins: Arc::default(),
            transfers,
        })
    }

    /// The instance's own background duties until `stop` resolves: forgetting cached keys and tenants as
    /// the database announces changes (reconnecting, and forgetting everything, when the connection drops),
    /// pruning per-address allowances, and flushing usage counts.
    ///
    /// Returns the flusher's task: awaiting it after `stop` waits for the last flush.
    pub fn spawn_upkeep(
        &self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> tokio::task::JoinHandle<()> {
        let (done, _) = tokio::sync::broadcast::channel::<()>(1);
        let stopped = {
            let done = done.clone();
            move || {
                let mut rx = done.subscribe();
                async move {
                    let _ = rx.recv().await;
                }
            }
        };
        tokio::spawn(listen_auth(self.clone(), stopped()));
        let every = Duration::from_millis(self.config.usage_flush_ms.max(100));
        let flusher = tokio::spawn(usage::flush_every(self.db.clone(), self.usage.clone(), every, stopped()));
        let every = Duration::from_millis(self.config.access_flush_ms.max(10));
        let accesses = tokio::spawn(access::flush_every(self.db.clone(), self.accesses.clone(), every, stopped()));
        let flusher = tokio::spawn(async move {
            let _ = tokio::join!(flusher, accesses);
        });
        tokio::spawn(async move {
            stop.await;
            let _ = done.send(());
        });
        flusher
    }
}

/// Runs `tick` every `every` until `stop` resolves, then `last` once: the loop of the instance's flushers,
/// which write what they gathered in memory at each tick and once more at shutdown.
pub(crate) async fn every_until<T: std::future::Future<Output = ()>>(
    every: Duration,
    stop: impl std::future::Future<Output = ()>,
    mut tick: impl FnMut() -> T,
    last: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(stop);
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            _ = interval.tick() => tick().await,
        }
    }
    last.await;
}

/// Forgets what `cairn_auth` announcements name, until `stop` resolves.
async fn listen_auth(svc: Services, stop: impl std::future::Future<Output = ()>) {
    use crate::store::tenants::AuthChanges;
    tokio::pin!(stop);
    let mut prune = tokio::time::interval(Duration::from_secs(60));
    let mut listener: Option<AuthChanges> = None;
    loop {
        if listener.is_none() {
            match AuthChanges::connect(svc.db.owner()).await {
                Ok(l) => {
                    // Whatever changed while nobody listened is forgotten.
                    svc.keys.forget("*");
                    listener = Some(l);
                }
                Err(err) => {
                    tracing::warn!(error = %err, "cannot listen for key changes; retrying in 1 s");
                    tokio::select! {
                        _ = &mut stop => return,
                        _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    }
                }
            }
        }
        let Some(l) = listener.as_mut() else { continue };
        tokio::select! {
            _ = &mut stop => return,
            _ = prune.tick() => {
                svc.keys.prune();
                svc.logins.prune();
                svc.transfers.prune();
            }
            change = l.next() => match change {
                Ok(Some(change)) => svc.keys.forget(&change),
                Ok(None) => {
                    tracing::warn!("lost the key-change listener's connection; forgetting every cached key");
                    svc.keys.forget("*");
                }
                Err(err) => {
                    tracing::warn!(error = %err, "key-change listener failed; reconnecting");
                    svc.keys.forget("*");
                    listener = None;
                }
            },
        }
    }
}

/// A pass over every tenant (expiry, retention, the consolidation schedule): one tenant's failure is logged
/// and remembered, and never stops the others; the pass fails at its end if any tenant did.
#[derive(Debug, Default)]
pub struct Pass {
    failed: Option<crate::error::Error>,
}

impl Pass {
    /// `outcome` of one tenant's share: its value, or None (logged) when it failed.
    pub fn note<T>(&mut self, tenant_id: uuid::Uuid, what: &str, outcome: crate::error::Result<T>) -> Option<T> {
        match outcome {
            Ok(value) => Some(value),
            Err(err) => {
                tracing::warn!(%tenant_id, error = ?err, "{what} failed for a tenant; the others go on");
                self.failed = Some(err);
                None
            }
        }
    }

    /// `value` when every tenant's share succeeded, else the last failure.
    pub fn finish<T>(self, value: T) -> crate::error::Result<T> {
        self.failed.map_or(Ok(value), Err)
    }
}

/// One page of a listing, with the total the filters match.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
}

impl<T> Page<T> {
    /// Whether another page follows.
    pub fn has_more(&self) -> bool {
        self.offset + (self.items.len() as i64) < self.total
    }

    /// The same page with its items mapped.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            total: self.total,
            limit: self.limit,
            offset: self.offset,
        }
    }
}
