//! Background work: every job is an apalis job on Postgres, one file each, with a stable queue name.
//!
//! Jobs of a tenant (`embed`, `enrich`, `similar`, `summarize`, `consolidate`) are enqueued in the
//! transaction that causes them, carry their `tenant_id` and work in that tenant's own transaction;
//! redelivery is harmless. Periodic jobs (`expire`, `retention`, `schedule`) are enqueued by the `clock`
//! once per period across every process. Which queues a process serves is its role: `cairn serve
//! --workers all|none|QUEUE,...` and `cairn worker --queues ...` ([`Workers`]). The queues' names, payloads
//! and `enqueue` are `crate::queue`'s, below the services these handlers call.

pub mod clock;
pub mod consolidate;
pub mod embed;
pub mod enrich;
pub mod eval;
pub mod expire;
pub mod retention;
pub mod schedule;
pub mod similar;
pub mod summarize;
pub mod tenant_delete;
pub mod webhook;

use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{Monitor, WorkerBuilder, WorkerBuilderExt, WorkerFactoryFn};
use apalis_sql::postgres::{PgListen, PostgresStorage};
use apalis_sql::Config;

use crate::models::embed::SlotState;
use crate::queue::{self, Tick, Workers};
use crate::service::Services;

/// The queues woken by a notification when a job is enqueued (rare jobs someone waits for: a consolidation
/// request, a periodic pass, a summary); they poll only as a fallback. The others poll.
const WOKEN: [&str; 8] = [
    queue::summarize::QUEUE,
    queue::webhook::QUEUE,
    queue::eval::QUEUE,
    queue::consolidate::QUEUE,
    queue::expire::QUEUE,
    queue::retention::QUEUE,
    queue::schedule::QUEUE,
    queue::tenant_delete::QUEUE,
];

/// Runs one delivery of a job over `memories` memories of a tenant and logs (debug) how long it took.
pub async fn timed<T, E>(
    job: &'static str,
    tenant_id: uuid::Uuid,
    memories: usize,
    run: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, E> {
    let started = std::time::Instant::now();
    let outcome = run.await;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    tracing::debug!(job, tenant_id = %tenant_id, memories, ms, ok = outcome.is_ok(), "job done");
    outcome
}

/// A failed delivery, handed back to apalis after a backoff (2^attempt seconds, at most a minute) so that it
/// retries the job.
pub async fn retry_later(attempt: usize, message: String) -> apalis::prelude::Error {
    tokio::time::sleep(embed::backoff(attempt)).await;
    apalis::prelude::Error::Failed(Arc::new(message.into()))
}

/// Records, in the tenant transaction that marks a job's work failed for good (its last attempt failed), a
/// `job.failed` event for the tenant's webhooks: the queue, the memories, the attempts and the last error.
pub async fn announce_failure(
    tx: &mut crate::store::TenantTx,
    queue: &str,
    memory_ids: &[uuid::Uuid],
    attempts: usize,
    error: &str,
) -> Result<(), crate::error::Error> {
    let data = serde_json::json!({"queue": queue, "memory_ids": memory_ids, "attempts": attempts, "error": error});
    crate::store::webhooks::emit(tx, "job.failed", None, &data).await.map(|_| ())
}

/// Embedding first: while this process embeds on a local model, its enrichment and similarity jobs wait
/// before they start, so that a stored batch becomes searchable by meaning at the model's pace and the links
/// follow. They share the machine's cores with the model; run alongside it, they slowed a 700-turn
/// conversation's embedding by a third (issue 28). A conversation stored in batches is several embedding jobs
/// with short gaps between them (a burst), so a waiting job starts
/// - once no embedding job has run for [`Wait::quiet`] (at once when the model is idle), or
/// - at or after the end of an embedding job once the burst is older than [`Wait::patience`]: under a steady
///   load the links keep pace with the embedding jobs, as they share the cores, instead of waiting long each, or
/// - after [`Wait::at_most`] in any case (one long embedding job).
///
/// A long job that started anyway pauses once, between two of its steps, for a young burst that began after it
/// started (its embedding job, enqueued with it, began a moment later): [`Pauses::pause`].
///
/// The wait is per process, as the cores are.
#[derive(Clone)]
pub struct EmbedFirst {
    /// The embedding jobs' state; None where embedding does not compete (a remote model, or none).
    state: Option<Arc<tokio::sync::watch::Sender<Embeddings>>>,
    wait: Wait,
}

/// How an enrichment or similarity job waits for the embedding ([`EmbedFirst`]).
#[derive(Debug, Clone, Copy)]
pub struct Wait {
    /// How long no embedding job must have run; also the longest gap between two jobs of one burst.
    pub quiet: Duration,
    /// How long a burst of embedding keeps the cores to itself.
    pub patience: Duration,
    /// The longest wait of one job.
    pub at_most: Duration,
}

impl Wait {
    /// The service's: 0.3 s quiet, 10 s patience, at most 10 s.
    pub const SERVICE: Self =
        Self { quiet: Duration::from_millis(300), patience: Duration::from_secs(10), at_most: Duration::from_secs(10) };
}

/// This process's embedding jobs, as the waiting jobs see them.
#[derive(Debug, Clone, Copy, Default)]
struct Embeddings {
    running: usize,
    /// Jobs ended so far: a job that ends while the next starts at once still counts as an end.
    ended: u64,
    last_end: Option<tokio::time::Instant>,
    /// When the current burst began: a job started with none running and none ended within `quiet`.
    burst_start: Option<tokio::time::Instant>,
}

impl EmbedFirst {
    /// Embedding first when `local` (the model runs on this machine), waiting as [`Wait::SERVICE`] says;
    /// otherwise nothing waits.
    pub fn new(local: bool) -> Self {
        Self {
            state: local.then(|| Arc::new(tokio::sync::watch::Sender::new(Embeddings::default()))),
            wait: Wait::SERVICE,
        }
    }

    /// Marks an embedding job running until the guard is dropped.
    pub fn embedding(&self) -> Embedding {
        if let Some(state) = &self.state {
            let quiet = self.wait.quiet;
            let mut begins = false;
            state.send_modify(|s| {
                if s.running == 0 && s.last_end.is_none_or(|t| t.elapsed() >= quiet) {
                    s.burst_start = Some(tokio::time::Instant::now());
                    begins = true;
                }
                s.running += 1;
            });
            if begins {
                tracing::debug!("embedding first: a burst of embedding begins");
            }
        }
        Embedding(self.state.clone())
    }

    /// A long job that has started: see [`Pauses::pause`].
    pub fn pauses(&self) -> Pauses {
        Pauses { first: self.clone(), started: tokio::time::Instant::now(), paused: false }
    }

    /// Returns once a waiting enrichment or similarity job may start ([`EmbedFirst`]).
    pub async fn wait(&self) {
        self.wait_as("start").await
    }

    /// [`Self::wait`]; logs how long it waited and which rule let it go (debug, trace when it did not wait).
    async fn wait_as(&self, why: &'static str) {
        let Some(state) = &self.state else { return };
        let started = tokio::time::Instant::now();
        let released = tokio::time::timeout(self.wait.at_most, Self::released(state, self.wait)).await;
        let rule = released.unwrap_or("at most");
        let waited_ms = started.elapsed().as_secs_f64() * 1e3;
        if waited_ms >= 1.0 {
            tracing::debug!(why, rule, waited_ms, "embedding first: waited for the embedding");
        } else {
            tracing::trace!(why, rule, waited_ms, "embedding first: no wait");
        }
    }

    /// Waits until a rule of [`EmbedFirst`] other than the time limit lets a waiting job go; returns its name.
    async fn released(state: &tokio::sync::watch::Sender<Embeddings>, wait: Wait) -> &'static str {
        let Wait { quiet, patience, .. } = wait;
        let burst_is_old = |s: &Embeddings| s.burst_start.is_none_or(|t| t.elapsed() >= patience);
        let mut rx = state.subscribe();
        loop {
            let now = *rx.borrow_and_update();
            if now.running == 0 {
                let idle = now.last_end.map_or(Duration::MAX, |t| t.elapsed());
                if idle >= quiet {
                    return "quiet";
                }
                if burst_is_old(&now) {
                    return "old burst";
                }
                // The rest of the quiet period, unless a job starts (or starts and ends) within it.
                let changed = rx.wait_for(|s| s.running > 0 || s.ended != now.ended);
                match tokio::time::timeout(quiet - idle, changed).await {
                    Err(_) => return "quiet",
                    Ok(Err(_)) => return "closed",
                    // A new burst: the quiet period passed before this waiter saw it.
                    Ok(Ok(s)) if s.burst_start != now.burst_start => return "quiet",
                    Ok(Ok(_)) => continue,
                }
            }
            // A job runs: wait for an end, counted, so that a next job starting at once cannot hide it.
            match rx.wait_for(|s| s.running == 0 || s.ended != now.ended).await {
                Err(_) => return "closed",
                Ok(s) if burst_is_old(&s) => return "old burst",
                Ok(s) if s.burst_start != now.burst_start => return "quiet",
                Ok(_) => continue,
            }
        }
    }
}

/// The pause of a long job that has started ([`EmbedFirst::pauses`]).
pub struct Pauses {
    first: EmbedFirst,
    started: tokio::time::Instant,
    paused: bool,
}

impl Pauses {
    /// Between the steps of the job: once per job, while a burst of embedding that began after the job started
    /// is running and younger than [`Wait::patience`], waits as [`EmbedFirst::wait`]; else returns at once.
    /// A job can start a moment before the embedding of the batch it belongs to (both are enqueued by one
    /// store, and the model was idle): without this it ran its whole length beside the model (a 500-memory
    /// enrichment job ran 4.3-4.6 s of a 700-turn conversation's 8 s). Once per job, and only for a burst that
    /// is new to it, so that bursts of other tenants one after another cannot hold it back for long.
    pub async fn pause(&mut self) {
        let Some(state) = &self.first.state else { return };
        if self.paused {
            return;
        }
        let now = *state.borrow();
        let new_burst = now.burst_start.is_some_and(|t| t >= self.started && t.elapsed() < self.first.wait.patience);
        if now.running > 0 && new_burst {
            self.paused = true;
            self.first.wait_as("pause").await;
        }
    }
}

/// A running embedding job ([`EmbedFirst::embedding`]).
pub struct Embedding(Option<Arc<tokio::sync::watch::Sender<Embeddings>>>);

impl Drop for Embedding {
    fn drop(&mut self) {
        if let Some(state) = &self.0 {
            state.send_modify(|s| {
                s.running -= 1;
                s.ended += 1;
                s.last_end = Some(tokio::time::Instant::now());
            });
        }
    }
}

/// The periodic jobs and their periods in this deployment.
pub fn periodic(services: &Services) -> Vec<clock::Periodic> {
    let expiry = Duration::from_millis(services.config.expiry_interval_ms.max(1));
    let schedule = Duration::from_millis(services.config.schedule_interval_ms.max(1));
    vec![
        clock::Periodic { queue: queue::expire::QUEUE, every: expiry },
        clock::Periodic { queue: queue::retention::QUEUE, every: schedule },
        clock::Periodic { queue: queue::schedule::QUEUE, every: schedule },
    ]
}

/// Jobs a queue fetches per poll.
const JOBS_PER_POLL: usize = 100;

/// Serves the selected queues until `shutdown` resolves, and ticks the clock of the selected periodic
/// jobs. The embedding queue is skipped where no embedder is configured.
pub async fn run_workers(
    services: Services,
    extractor: enrich::Extractor,
    workers: Workers,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    let (stop, _) = tokio::sync::broadcast::channel::<()>(1);
    let stopper = || {
        let mut rx = stop.subscribe();
        async move {
            let _ = rx.recv().await;
        }
    };
    let mut tasks = tokio::task::JoinSet::new();
    // Jobs' statements may run longer than a request's (CAIRN_DB_JOB_STATEMENT_TIMEOUT_MS).
    let jobs_db = services.db.for_jobs();
    let db = Arc::new(jobs_db.clone());
    // One listener connection wakes the queues whose work is rare and wanted at once (`WOKEN`) when a job is
    // enqueued (`cairn_enqueue` and the clock notify with the queue's name). The busy queues are not
    // subscribed: apalis fetches once per notification, so under a write load polling is cheaper, and it
    // paces a backlog. Without a listener (its connection failed) every queue polls.
    let mut listener = None;
    if WOKEN.iter().any(|queue| workers.runs(queue)) {
        match PgListen::new(services.db.queue_pool()).await {
            Ok(l) => listener = Some(l),
            Err(err) => tracing::warn!(error = %err, "could not listen for new jobs; those queues only poll"),
        }
    }
    // One apalis monitor per queue: Postgres storage polled every `$poll_ms` (for a woken queue, the
    // fallback when a notification is missed), jobs of type `$job` handed to `$handler`
    // with `$data`, at most `$concurrency` at once. (A macro rather than a function: apalis' worker
    // builder types do not name well in a generic signature.)
    macro_rules! spawn_queue {
        ($queue:expr, $job:ty, $poll_ms:expr, $data:expr, $concurrency:expr, $handler:path) => {
            spawn_queue!($queue, $job, $poll_ms, $data, $concurrency, $handler, std::future::ready(true))
        };
        // `$gate` resolves to whether the queue may start taking jobs (it waits for what they need).
        ($queue:expr, $job:ty, $poll_ms:expr, $data:expr, $concurrency:expr, $handler:path, $gate:expr) => {
            if workers.runs($queue) {
                // apalis fetches `buffer_size` jobs per poll: at its default (10) and a 500 ms poll a queue ran
                // at most 20 jobs/s, less than one store per second per client under load (the load bench's
                // queues never drained). A fetched job that its worker never finishes is re-enqueued.
                let config = Config::new($queue)
                    .set_poll_interval(Duration::from_millis($poll_ms))
                    .set_buffer_size(JOBS_PER_POLL);
                let mut storage: PostgresStorage<$job> =
                    PostgresStorage::new_with_config(services.db.queue_pool(), config);
                if let Some(listener) = listener.as_mut().filter(|_| WOKEN.contains(&$queue)) {
                    listener.subscribe_with(&mut storage);
                }
                let (data, signal, concurrency, gate) = ($data, stopper(), $concurrency, $gate);
                let pool = services.db.queue_pool();
                tasks.spawn(async move {
                    let mut signal = Box::pin(signal);
                    let start = tokio::select! {
                        start = gate => start,
                        _ = &mut signal => false,
                    };
                    if !start {
                        return;
                    }
                    let name = format!("{}-{}", $queue.replace("::", "-"), uuid::Uuid::new_v4());
                    let worker = WorkerBuilder::new(name.clone())
                        .data(data)
                        .concurrency(concurrency)
                        .backend(storage)
                        .build_fn($handler);
                    let signal = async move {
                        signal.await;
                        Ok(())
                    };
                    if let Err(err) = Monitor::new().register(worker).run_with_signal(signal).await {
                        tracing::error!(error = %err, queue = $queue, "worker stopped");
                    }
                    // In-flight jobs have finished; those fetched but not started go back to the queue now.
                    match crate::store::queue::release_fetched(&pool, &name).await {
                        Ok(0) => {}
                        Ok(released) => tracing::info!(queue = $queue, released, "handed unstarted jobs back"),
                        Err(err) => tracing::warn!(error = %err, queue = $queue, "could not hand unstarted jobs back"),
                    }
                });
            }
        };
    }
    // Enrichment and similarity wait for the embedding only where this process embeds on its own cores.
    let first = EmbedFirst::new(workers.runs(queue::embed::QUEUE) && services.embedder.is_local());
    if workers.runs(queue::embed::QUEUE) && services.embedder.state() == SlotState::Disabled {
        tracing::info!("no embedder configured: this process does not take embedding jobs");
    } else {
        let ctx = Arc::new(embed::EmbedContext {
            db: jobs_db.clone(),
            embedder: services.embedder.clone(),
            usage: services.usage.clone(),
            vectors: crate::config::VectorKinds {
                context: services.config.context_vectors,
                sentences: services.config.sentence_vectors,
            },
            first: first.clone(),
        });
        // A job taken before the model has loaded would fail an attempt and wait out a backoff (and, were the
        // model never to load, fail its memories for good where another process could embed them).
        let slot = services.embedder.clone();
        let (db, sentences) = (jobs_db.clone(), services.config.sentence_vectors);
        let model_loaded = async move {
            if slot.state() == SlotState::Loading {
                tracing::info!("embedding jobs wait for the embedding model to load");
            }
            match slot.settled().await {
                SlotState::Ready => {
                    // Memories whose runs of sentences were never measured (stored by an earlier release, or
                    // imported with their vectors) are measured by the jobs this enqueues.
                    if let Some(model) = slot.get().map(|e| e.model().to_owned()).filter(|_| sentences) {
                        tokio::spawn(async move {
                            match embed::enqueue_backfills(&db, &model).await {
                                Ok(0) => {}
                                Ok(tenants) => tracing::info!(tenants, "runs of sentences to measure: jobs enqueued"),
                                Err(err) => tracing::warn!(
                                    error = format!("{err:#}"),
                                    "could not look for runs of sentences to measure"
                                ),
                            }
                        });
                    }
                    true
                }
                state => {
                    tracing::error!(?state, "the embedding model did not load: this process takes no embedding jobs");
                    false
                }
            }
        };
        spawn_queue!(
            queue::embed::QUEUE,
            queue::embed::EmbedJob,
            250,
            ctx,
            services.embedder.concurrency(),
            embed::handle,
            model_loaded
        );
    }
    // A chat model is remote: several requests may be in flight. The local rules take microseconds.
    let enrich_concurrency = if matches!(extractor, enrich::Extractor::Llm(_)) { 4 } else { 1 };
    let ctx = Arc::new(enrich::EnrichContext {
        db: jobs_db.clone(),
        extractor,
        usage: services.usage.clone(),
        first: first.clone(),
    });
    spawn_queue!(queue::enrich::QUEUE, queue::enrich::EnrichJob, 500, ctx, enrich_concurrency, enrich::handle);
    let ctx = Arc::new(similar::SimilarContext { db: jobs_db.clone(), first });
    spawn_queue!(queue::similar::QUEUE, queue::similar::SimilarJob, 500, ctx, 1, similar::handle);
    let ctx = Arc::new(summarize::SummarizeContext {
        db: jobs_db.clone(),
        embedder: services.embedder.clone(),
        chat: services.chat.clone(),
        usage: services.usage.clone(),
    });
    spawn_queue!(queue::summarize::QUEUE, queue::summarize::SummarizeJob, 2000, ctx, 1, summarize::handle);
    spawn_queue!(
        queue::consolidate::QUEUE,
        queue::consolidate::ConsolidateJob,
        500,
        db.clone(),
        2,
        consolidate::handle
    );
    spawn_queue!(queue::eval::QUEUE, queue::eval::EvalJob, 2000, services.clone(), 1, eval::handle);
    match crate::service::webhooks::Sender::new(&services.config.webhooks) {
        Ok(sender) => {
            let ctx = Arc::new(webhook::WebhookContext { services: services.clone(), sender });
            spawn_queue!(queue::webhook::QUEUE, queue::webhook::WebhookJob, 1000, ctx, 4, webhook::handle);
        }
        Err(err) => tracing::error!(error = %err, "no webhook client: this process does not deliver webhooks"),
    }
    spawn_queue!(queue::expire::QUEUE, Tick, 2000, db.clone(), 1, expire::handle);
    spawn_queue!(queue::retention::QUEUE, Tick, 2000, db.clone(), 1, retention::handle);
    spawn_queue!(queue::schedule::QUEUE, Tick, 2000, db.clone(), 1, schedule::handle);
    spawn_queue!(
        queue::tenant_delete::QUEUE,
        queue::tenant_delete::TenantDeleteJob,
        2000,
        db.clone(),
        1,
        tenant_delete::handle
    );
    if let Some(listener) = listener {
        let stop = stopper();
        tasks.spawn(async move {
            tokio::select! {
                _ = stop => {}
                outcome = listener.listen() => match outcome {
                    Ok(()) => tracing::warn!("the job listener's connection ended; the woken queues only poll until restart"),
                    Err(err) => tracing::warn!(error = %err, "stopped listening for new jobs; the woken queues only poll until restart"),
                },
            }
        });
    }
    let periodic: Vec<clock::Periodic> = periodic(&services).into_iter().filter(|p| workers.runs(p.queue)).collect();
    if !periodic.is_empty() {
        let name = format!("cairn-clock-{}", uuid::Uuid::new_v4());
        tasks.spawn(clock::run(jobs_db.clone(), periodic, name, stopper()));
    }
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop.send(());
    });
    while tasks.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Duration = Duration::from_secs(1);
    const PATIENCE: Duration = Duration::from_secs(4);
    const WAIT: Wait = Wait { quiet: QUIET, patience: PATIENCE, at_most: Duration::from_secs(30) };

    /// Whether `wait` is still waiting after the quiet period.
    async fn still_waiting(first: &EmbedFirst) -> bool {
        tokio::time::timeout(QUIET, first.wait()).await.is_err()
    }

    fn waiter(first: &EmbedFirst) -> tokio::task::JoinHandle<()> {
        let first = first.clone();
        tokio::spawn(async move { first.wait().await })
    }

    /// Whether `waiting` finishes within a moment (a tenth of the quiet period).
    async fn goes(waiting: &mut tokio::task::JoinHandle<()>) -> bool {
        tokio::time::timeout(QUIET / 10, waiting).await.is_ok()
    }

    #[tokio::test]
    async fn enrichment_and_similarity_wait_for_a_burst_of_local_embedding_and_no_longer() {
        let first = EmbedFirst { wait: WAIT, ..EmbedFirst::new(true) };
        let mut waiting = waiter(&first);
        assert!(goes(&mut waiting).await, "nothing ever embedded: no wait");

        let one = first.embedding();
        let two = first.embedding();
        assert!(still_waiting(&first).await, "an embedding job runs: the others wait");
        drop(one);
        assert!(still_waiting(&first).await, "one of two embedding jobs still runs");
        let mut waiting = waiter(&first);
        drop(two);
        tokio::time::sleep(QUIET / 2).await;
        assert!(!goes(&mut waiting).await, "released before the quiet period after the last job");
        tokio::time::sleep(QUIET * 3 / 4).await;
        assert!(goes(&mut waiting).await, "still waiting after the quiet period");
        let mut waiting = waiter(&first);
        assert!(goes(&mut waiting).await, "the model idle for longer than the quiet period: no wait");

        // A job that starts and ends at once within the quiet period starts the quiet again.
        drop(first.embedding());
        let mut waiting = waiter(&first);
        tokio::time::sleep(QUIET / 2).await;
        drop(first.embedding());
        tokio::time::sleep(QUIET * 3 / 4).await;
        assert!(!goes(&mut waiting).await, "released within the quiet period after a job");
        tokio::time::sleep(QUIET / 2).await;
        assert!(goes(&mut waiting).await, "still waiting after the quiet period");

        // A burst of embedding jobs one after another (a conversation stored in batches), each next one
        // starting at once as a worker takes its next job: the links wait until the burst is older than the
        // patience, and then go at the next job's end.
        tokio::time::sleep(QUIET * 2).await;
        let burst = tokio::time::Instant::now();
        let mut job = first.embedding();
        let mut waiting = waiter(&first);
        let released_after = loop {
            tokio::time::sleep(QUIET / 4).await;
            drop(job);
            job = first.embedding();
            if goes(&mut waiting).await {
                break burst.elapsed();
            }
            assert!(burst.elapsed() < PATIENCE * 3, "never released during a burst");
        };
        assert!(released_after >= PATIENCE, "released {released_after:?} into a burst");
        // Then every job's end releases a waiter, as the burst goes on.
        let mut waiting = waiter(&first);
        assert!(!goes(&mut waiting).await, "released while a job runs");
        drop(job);
        let job = first.embedding();
        assert!(goes(&mut waiting).await, "a job's end in an old burst did not release the waiter");

        // Never longer than `at_most`, however long the embedding runs.
        let first_short = EmbedFirst { wait: Wait { at_most: Duration::from_millis(100), ..WAIT }, ..first.clone() };
        let started = tokio::time::Instant::now();
        first_short.wait().await;
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(100) && waited < Duration::from_secs(5), "{waited:?}");
        drop(job);
    }

    fn pause(pauses: Pauses) -> tokio::task::JoinHandle<Pauses> {
        tokio::spawn(async move {
            let mut pauses = pauses;
            pauses.pause().await;
            pauses
        })
    }

    /// The job's pauses, if its pause ends within a moment (a tenth of the quiet period).
    async fn paused(pausing: &mut tokio::task::JoinHandle<Pauses>) -> Option<Pauses> {
        tokio::time::timeout(QUIET / 10, pausing).await.ok().map(|done| done.unwrap())
    }

    #[tokio::test]
    async fn a_started_job_pauses_once_for_a_young_burst_that_began_after_it() {
        let first = EmbedFirst { wait: WAIT, ..EmbedFirst::new(true) };
        let pauses = paused(&mut pause(first.pauses())).await.expect("nothing embeds: no pause");

        // The job's own embedding begins a moment after the job: it pauses until the quiet period after it.
        let job = first.embedding();
        let mut pausing = pause(pauses);
        assert!(paused(&mut pausing).await.is_none(), "went on while a young burst that began after it runs");
        drop(job);
        tokio::time::sleep(QUIET / 2).await;
        assert!(paused(&mut pausing).await.is_none(), "went on before the quiet period after the burst");
        tokio::time::sleep(QUIET * 3 / 4).await;
        let pauses = paused(&mut pausing).await.expect("still paused after the quiet period");

        // Once per job: the next burst (another tenant's, say) does not hold it again.
        tokio::time::sleep(QUIET).await;
        let job = first.embedding();
        assert!(paused(&mut pause(pauses)).await.is_some(), "paused a second time");
        drop(job);

        // A burst that was running when the job started (the job was let go by a rule of the wait): no pause.
        tokio::time::sleep(QUIET * 2).await;
        let job = first.embedding();
        assert!(paused(&mut pause(first.pauses())).await.is_some(), "paused for a burst that began before it");
        drop(job);
    }

    #[tokio::test]
    async fn nothing_waits_for_a_remote_or_absent_embedder() {
        let first = EmbedFirst { wait: WAIT, ..EmbedFirst::new(false) };
        let _running = first.embedding();
        assert!(!still_waiting(&first).await);
    }
}
