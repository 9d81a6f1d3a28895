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
//!   `jobs` (status, reprocessing, re-embedding) and `health`.

pub mod associations;
pub mod consolidation;
pub mod entities;
pub mod health;
pub mod jobs;
pub mod keys;
pub mod lifecycle;
pub mod memories;
pub mod recall;
pub mod stats;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::auth::KeyVerifier;
use crate::config::AppArgs;
use crate::models::chat::ChatModel;
use crate::models::embed::EmbedderSlot;
use crate::recall::bm25::TermStatsCache;
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
    /// Per-tenant keyword statistics for BM25.
    pub term_stats: TermStatsCache,
    pub config: Arc<AppArgs>,
    pub started: Instant,
}

impl Services {
    pub fn new(db: Db, config: AppArgs, embedder: EmbedderSlot) -> Self {
        let keys = KeyVerifier::new(db.owner().clone(), Duration::from_secs(config.key_cache_ttl_secs));
        let chat = config.llm().and_then(|c| match ChatModel::new(c) {
            Ok(model) => Some(Arc::new(model)),
            Err(err) => {
                tracing::error!(
                    error = format!("{err:#}"),
                    "the chat model is configured but unusable; working without it"
                );
                None
            }
        });
        Self {
            db,
            keys,
            embedder,
            chat,
            config: Arc::new(config),
            started: Instant::now(),
            term_stats: TermStatsCache::default(),
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
