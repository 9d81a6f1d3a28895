//! Background work, one job per file. `cairn serve` runs the workers in-process; `cairn worker` runs
//! them alone. Queued jobs (apalis, Postgres storage) carry their tenant and work in that tenant's own
//! transaction; periodic passes go tenant by tenant.

pub mod embed;
pub mod enrich;
pub mod expire;
pub mod lifecycle;
pub mod similar;

use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{Monitor, WorkerBuilder, WorkerBuilderExt, WorkerFactoryFn};
use apalis_sql::postgres::PostgresStorage;
use apalis_sql::Config;

use crate::embed::{EmbedderSlot, SlotState};
use crate::store::Db;

/// Enqueues a job `{tenant_id, memory_ids}` on `queue` in the caller's tenant transaction (through
/// `cairn_enqueue`, which stamps the transaction's own tenant), so the job exists exactly when the rows
/// that caused it do.
pub async fn enqueue_memories(
    tx: &mut crate::store::TenantTx,
    queue: &str,
    memory_ids: &[uuid::Uuid],
    max_attempts: usize,
) -> Result<(), crate::error::ApiError> {
    if memory_ids.is_empty() {
        return Ok(());
    }
    let payload = serde_json::json!({ "memory_ids": memory_ids });
    sqlx::query("SELECT cairn_enqueue($1, $2, $3)")
        .bind(queue)
        .bind(payload)
        .bind(max_attempts as i32)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// How often the periodic passes run.
pub const PERIODIC_INTERVAL: Duration = Duration::from_secs(30);
/// How often the consolidation schedule and archive retention are checked.
pub const CONSOLIDATION_INTERVAL: Duration = Duration::from_secs(3600);
/// Runs every worker until `shutdown` resolves: the embedding queue (unless this process has no
/// embedder), the enrichment queue and the periodic passes.
pub async fn run_workers(
    db: Db,
    embedder: EmbedderSlot,
    extractor: enrich::Extractor,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    let (stop, _) = tokio::sync::broadcast::channel::<()>(1);
    let mut stop_embed = stop.subscribe();
    let mut stop_enrich = stop.subscribe();
    let mut stop_similar = stop.subscribe();
    let mut stop_periodic = stop.subscribe();
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop.send(());
    });
    tokio::join!(
        embed_worker(db.clone(), embedder, async move {
            let _ = stop_embed.recv().await;
        }),
        enrich_worker(db.clone(), extractor, async move {
            let _ = stop_enrich.recv().await;
        }),
        similar_worker(db.clone(), async move {
            let _ = stop_similar.recv().await;
        }),
        periodic(db, async move {
            let _ = stop_periodic.recv().await;
        })
    );
}

/// Runs one apalis queue until `$stop` resolves: Postgres storage polled every `$poll_ms`, jobs of type
/// `$job` handed to `$handler` with `$data`, at most `$concurrency` at once. (A macro rather than a
/// function: apalis' worker builder types do not name well in a generic signature.)
macro_rules! serve_queue {
    ($db:expr, $queue:expr, $job:ty, $poll_ms:expr, $name:literal, $data:expr, $concurrency:expr, $handler:path, $stop:expr) => {{
        let config = Config::new($queue).set_poll_interval(Duration::from_millis($poll_ms));
        let storage: PostgresStorage<$job> = PostgresStorage::new_with_config($db.queue_pool(), config);
        let worker = WorkerBuilder::new(format!(concat!("cairn-", $name, "-{}"), uuid::Uuid::new_v4()))
            .data($data)
            .concurrency($concurrency)
            .backend(storage)
            .build_fn($handler);
        let stop = $stop;
        let signal = async move {
            stop.await;
            Ok(())
        };
        if let Err(err) = Monitor::new().register(worker).run_with_signal(signal).await {
            tracing::error!(error = %err, queue = $queue, "worker stopped");
        }
    }};
}

async fn similar_worker(db: Db, stop: impl std::future::Future<Output = ()> + Send + 'static) {
    let queue = db.clone();
    serve_queue!(queue, similar::QUEUE, similar::SimilarJob, 500, "similar", Arc::new(db), 1, similar::handle, stop);
}

async fn enrich_worker(
    db: Db,
    extractor: enrich::Extractor,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) {
    // A chat model is remote: several requests may be in flight. The local rules take microseconds.
    let concurrency = match extractor {
        enrich::Extractor::Llm(_) => 4,
        enrich::Extractor::Local => 1,
    };
    let queue = db.clone();
    let ctx = Arc::new(enrich::EnrichContext { db, extractor });
    serve_queue!(queue, enrich::QUEUE, enrich::EnrichJob, 500, "enrich", ctx, concurrency, enrich::handle, stop);
}

async fn embed_worker(db: Db, embedder: EmbedderSlot, stop: impl std::future::Future<Output = ()> + Send + 'static) {
    if embedder.state() == SlotState::Disabled {
        tracing::info!("no embedder configured: this process does not take embedding jobs");
        return;
    }
    let concurrency = embedder.concurrency();
    let queue = db.clone();
    let ctx = Arc::new(embed::EmbedContext { db, embedder });
    serve_queue!(queue, embed::QUEUE, embed::EmbedJob, 250, "embed", ctx, concurrency, embed::handle, stop);
}

async fn periodic(db: Db, stop: impl std::future::Future<Output = ()>) {
    tokio::pin!(stop);
    let mut tick = tokio::time::interval(PERIODIC_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut decay_tick = tokio::time::interval(CONSOLIDATION_INTERVAL);
    decay_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = decay_tick.tick() => {
                // Consolidation on its per-tenant schedule (decay, creative, cluster, forget), then retention.
                match crate::consolidate::run_due(&db, chrono::Utc::now()).await {
                    Ok(runs) if runs > 0 => tracing::info!(runs, "scheduled consolidation"),
                    Ok(_) => {}
                    Err(err) => tracing::warn!(error = %err, "scheduled consolidation failed; will retry"),
                }
                match lifecycle::run(&db, chrono::Utc::now(), lifecycle::Rules::RETENTION).await {
                    Ok(r) if r.purged > 0 => tracing::info!(purged = r.purged, "deleted memories past their archive retention"),
                    Ok(_) => {}
                    Err(err) => tracing::warn!(error = %err, "retention pass failed; will retry"),
                }
            }
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
