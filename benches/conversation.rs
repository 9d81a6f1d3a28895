//! `cargo bench --bench conversation`: how long a stored conversation takes to become searchable by meaning,
//! as a new user would try it, beside the model's own batched rate on the same texts. Printed, not asserted.
//!
//! A conversation of CAIRN_BENCH_TURNS turns (700; two sentences each, about the length of a chat turn), 20
//! per session, each session an episode with its turns numbered, stored through `POST /api/v1/memories/batch`
//! in batches of 500 against a server running every worker (embedding, enrichment, similarity links: what
//! competes in production). The clock runs from the first request to `GET /api/v1/stats` showing no
//! embedding pending (polled every 100 ms). Once per way of computing context vectors
//! (`CAIRN_CONTEXT_VECTOR`: `model`, a second pass through the model per turn, and `fold`, none), `fold` with and
//! without the runs of sentences (`CAIRN_SENTENCE_VECTORS`), each on a fresh database, alternating for CAIRN_BENCH_ROUNDS rounds (1). Before that, the model alone on the turns in
//! batches of each size in CAIRN_BENCH_BATCHES (8,16,32,64,128), for the worker's batch size.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::local::LocalEmbedder;
use cairn::models::embed::{Embedder, EmbedderSlot, LocalModel};
use cairn::server::Application;
use cairn::store::tenants;
use serde_json::{json, Value};
use sqlx::{Connection, Executor, PgConnection};

mod common;

use common::corpus::sentence;

const PER_SESSION: usize = 20;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The i-th turn: two sentences, about 140 characters.
fn turn(i: usize) -> String {
    format!("{} {}", sentence(2 * i), sentence(2 * i + 1))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // RUST_LOG=cairn::jobs=debug: which rule let each waiting enrichment or similarity job start.
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let turns = env_usize("CAIRN_BENCH_TURNS", 700);
    let rounds = env_usize("CAIRN_BENCH_ROUNDS", 1).max(1);
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let app_args = AppArgs::default();
    let model: Arc<dyn Embedder> = Arc::new(LocalModel::new(LocalEmbedder::load(&app_args.model_dir())?));
    println!("conversation benchmark: {turns} turns, {PER_SESSION} per session, batches of 500, every worker running");

    // The model alone on the same texts: each turn's own, and (as `model` embeds them) its session's previous
    // turn and itself together.
    let texts: Vec<String> = (0..turns).map(turn).collect();
    let contexts: Vec<String> =
        (0..turns).filter(|i| i % PER_SESSION != 0).map(|i| format!("{}\n{}", texts[i - 1], texts[i])).collect();
    let started = Instant::now();
    for chunk in texts.chunks(32) {
        model.embed(chunk).await?;
    }
    let own = started.elapsed().as_secs_f64();
    let started = Instant::now();
    for chunk in contexts.chunks(32) {
        model.embed(chunk).await?;
    }
    let both = own + started.elapsed().as_secs_f64();
    println!(
        "model alone, batches of 32: own texts {own:5.1} s ({:.1} turns/s); own and context texts {both:5.1} s ({:.1} turns/s)",
        turns as f64 / own,
        turns as f64 / both
    );

    // The worker's batch size (`jobs::embed::BATCH`) against others, on the own texts.
    let sizes = std::env::var("CAIRN_BENCH_BATCHES").unwrap_or_else(|_| "8,16,32,64,128".into());
    for size in sizes.split(',').filter_map(|s| s.trim().parse::<usize>().ok()).filter(|&s| s > 0) {
        let started = Instant::now();
        for chunk in texts.chunks(size) {
            model.embed(chunk).await?;
        }
        let secs = started.elapsed().as_secs_f64();
        println!("model alone, batches of {size:3}: own texts {secs:5.1} s ({:.1} turns/s)", turns as f64 / secs);
    }

    let runs: usize = texts.iter().map(|t| cairn::recall::sentences::runs(t).len()).sum();
    println!("runs of sentences: {runs} ({:.2} a turn)", runs as f64 / turns as f64);

    for round in 0..rounds {
        // A turn's two sentences are one run or two (`recall::sentences`: a sentence under eight words joins the
        // next); with CAIRN_SENTENCE_VECTORS on, a turn of two runs sends two more texts through the model.
        for (mode, sentences) in [("model", true), ("fold", false), ("fold", true)] {
            let name = format!("cairn_bench_conv_{}_{round}_{mode}_{sentences}", std::process::id());
            let mut admin = PgConnection::connect(&base).await?;
            admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
            let outcome = measure(&name, mode, sentences, model.clone(), &texts).await;
            admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
            let m = outcome?;
            println!(
                "CAIRN_CONTEXT_VECTOR={mode:5} CAIRN_SENTENCE_VECTORS={sentences:5}  stored {:5.1} s; searchable by meaning after {:5.1} s ({:.1} turns/s); \
                 every job done after {:5.1} s; CPU until searchable: this process {:.1} s, Postgres {:.1} s",
                m.stored,
                m.searchable,
                turns as f64 / m.searchable,
                m.settled,
                m.cpu_self,
                m.cpu_postgres
            );
        }
    }
    Ok(())
}

/// What one conversation's storing took.
struct Measured {
    /// Seconds to the last batch's 201.
    stored: f64,
    /// Seconds to no embedding pending.
    searchable: f64,
    /// Seconds to no job of the embedding, enrichment or similarity queues left.
    settled: f64,
    /// CPU seconds of this process (server, workers, model) and of Postgres until searchable.
    cpu_self: f64,
    cpu_postgres: f64,
}

/// Stores the conversation on a fresh server and database, and times it.
async fn measure(
    db: &str,
    mode: &str,
    sentences: bool,
    model: Arc<dyn Embedder>,
    texts: &[String],
) -> anyhow::Result<Measured> {
    let args = AppArgs { context_vector: mode.into(), sentence_vectors: sentences, ..Default::default() };
    let db_args = DbArgs { db_acquire_timeout_secs: 5, ..DbArgs::scratch(db) };
    let app =
        Application::build_with_embedder(&db_args, args, "127.0.0.1:0".parse()?, EmbedderSlot::ready(model)).await?;
    let url = format!("http://{}", app.local_addr());
    let services = app.services().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_with_workers(cairn::queue::Workers::All, async move {
        let _ = stopped.await;
    }));
    let tenant = tenants::create_tenant(services.db.owner(), "conversation", "unlimited", &Default::default()).await?;
    let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
    let key = cairn::auth::create_key(services.db.owner(), tenant.id, &new).await?.1;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(300)).build()?;

    let cpu_before = common::cpu_seconds();
    let started = Instant::now();
    let items: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"content": t, "episode_id": format!("session-{}", i / PER_SESSION),
                   "sequence_number": i % PER_SESSION + 1})
        })
        .collect();
    for batch in items.chunks(500) {
        let res = client
            .post(format!("{url}/api/v1/memories/batch"))
            .bearer_auth(&key)
            .json(&json!({"memories": batch}))
            .send()
            .await?;
        anyhow::ensure!(res.status().as_u16() == 201, "batch failed: {}", res.text().await?);
    }
    let stored = started.elapsed().as_secs_f64();
    loop {
        let stats: Value = client
            .get(format!("{url}/api/v1/stats"))
            .bearer_auth(&key)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        if stats["embeddings"]["pending"].as_i64() == Some(0) {
            break;
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(1800), "still embedding after 30 minutes: {stats}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let searchable = started.elapsed().as_secs_f64();
    let cpu = common::cpu_seconds();
    let busy = [cairn::queue::embed::QUEUE, cairn::queue::enrich::QUEUE, cairn::queue::similar::QUEUE];
    loop {
        let (queues, _) = cairn::store::queue::load(services.db.owner(), 1).await?;
        if !queues.iter().any(|q| busy.contains(&q.queue.as_str()) && q.pending + q.running > 0) {
            break;
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(1800), "jobs still queued after 30 minutes");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let settled = started.elapsed().as_secs_f64();
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(30), server).await;
    Ok(Measured { stored, searchable, settled, cpu_self: cpu.0 - cpu_before.0, cpu_postgres: cpu.1 - cpu_before.1 })
}
