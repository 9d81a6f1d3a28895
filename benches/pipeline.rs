//! `cargo bench --bench pipeline`: throughput and latency figures of the embedding pipeline and recall,
//! printed, not asserted (timings belong here, not in tests).
//!
//! On a scratch database (from DATABASE_URL, dropped afterwards) with a real server on loopback:
//! 1. raw model throughput (batches of 32, no database) and one query's embedding latency;
//! 2. batch ingest throughput through `POST /api/v1/memories/batch` (500 per request);
//! 3. embedding throughput through the queue and worker (only the embedding queue runs: the similarity and
//!    enrichment jobs stay queued, so they share the CPU with neither this figure nor the next), and its share
//!    of (1);
//! 4. recall latency p50/p95/p99 through HTTP for each mode (cold questions, then the first mode's asked
//!    again), query embedding included, with CAIRN_BENCH_MEMORIES memories in the measured tenant and
//!    CAIRN_BENCH_OTHERS (default: as many) in each of two other tenants; the time each recall stage takes
//!    per request, mean (`cairn_recall_stage_seconds`); and the floor: the same top-10 by one hand-written statement through
//!    sqlx, with our overhead as a ratio;
//! 5. the database's size per memory, and the process's resident memory (server, model and this client
//!    together) after each phase.
//!
//! Knobs: CAIRN_BENCH_MODEL_ONLY (stop after the model's figures), CAIRN_BENCH_MEMORIES (10000), CAIRN_BENCH_OTHERS,
//! CAIRN_BENCH_QUERIES (200), CAIRN_BENCH_KEEP_DB (keep the database for EXPLAIN ANALYZE), CAIRN_BENCH_SHARE_SNAPSHOTS
//! (set: `CAIRN_DB_SHARE_SNAPSHOTS=true` in the server), CAIRN_BENCH_EDGES (4:
//! SIMILAR_TO edges per memory, as enrichment leaves them, stored by SQL before recall is measured),
//! CAIRN_BENCH_WORKER_MEMORIES (default: all): how many of the measured tenant's memories (stored last) go
//! through the worker. The rest carry supplied vectors: the model's vector of their sentence template plus a
//! little noise, so a 100k run takes minutes, not an hour of embedding (the templates' vectors, at most 16,000,
//! are computed before ingest is timed: inline, they were up to 90 s of this client's model inside the ingest
//! figure). CAIRN_BENCH_BUILD_INDEX: the rows with
//! supplied vectors are stored without the HNSW index, which is then built over them in one go (parallel, with
//! 4 GB of maintenance_work_mem) before the rest are stored and embedded: this machine inserts into an HNSW
//! graph at ~250-650 vectors/s, so a million inserted one by one would take hours. A million, in under an hour:
//! `CAIRN_BENCH_MEMORIES=1000000 CAIRN_BENCH_OTHERS=100000 CAIRN_BENCH_WORKER_MEMORIES=3000 CAIRN_BENCH_BUILD_INDEX=1`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::local::LocalEmbedder;
use cairn::models::embed::{Embedder, EmbedderSlot, LocalModel};
use cairn::server::Application;
use cairn::store::tenants;
use serde_json::json;
use sqlx::{Connection, Executor, PgConnection};

mod common;

use common::corpus::{ingest, question, sentence, Supplied};
use common::rss_mib;

type Stages = std::collections::BTreeMap<String, (f64, f64)>;

/// Sum and count of each recall stage's histogram (`cairn_recall_stage_seconds`), from `/metrics`.
async fn stage_totals(client: &reqwest::Client, url: &str) -> anyhow::Result<Stages> {
    let text = client.get(format!("{url}/metrics")).send().await?.text().await?;
    let mut totals = Stages::new();
    for line in text.lines() {
        for (suffix, is_sum) in [("_sum{", true), ("_count{", false)] {
            let Some(rest) = line.strip_prefix(&format!("cairn_recall_stage_seconds{suffix}")) else { continue };
            let Some((labels, value)) = rest.rsplit_once(' ') else { continue };
            let Some(stage) = labels.split('"').nth(1) else { continue };
            let entry = totals.entry(stage.to_owned()).or_default();
            let v: f64 = value.parse().unwrap_or(0.0);
            if is_sum {
                entry.0 = v;
            } else {
                entry.1 = v;
            }
        }
    }
    Ok(totals)
}

/// Per stage between two readings of [`stage_totals`]: milliseconds per request (`requests` of them), and,
/// where a request ran the stage more than once on average (the keyword stage's wider second pass), the
/// runs per request.
fn stage_line(before: &Stages, after: &Stages, requests: usize) -> String {
    let mut line = String::new();
    for (stage, (sum, count)) in after {
        let (sum0, count0) = before.get(stage).copied().unwrap_or_default();
        if count - count0 > 0.0 {
            line.push_str(&format!(" {stage} {:.2}", 1000.0 * (sum - sum0) / requests as f64));
            let runs = (count - count0) / requests as f64;
            if runs > 1.005 {
                line.push_str(&format!(" ({runs:.2} runs)"));
            }
        }
    }
    line
}

fn percentiles(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() as f64 - 1.0) * p).round() as usize];
    (at(0.5), at(0.95), at(0.99))
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let n = env_usize("CAIRN_BENCH_MEMORIES", 10_000);
    let others = env_usize("CAIRN_BENCH_OTHERS", n);
    // At most 266, so the three cold runs ask distinct questions.
    let queries = env_usize("CAIRN_BENCH_QUERIES", 200).min(266);
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = format!("cairn_bench_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let url_db = format!("{}/{name}", base.rsplit_once('/').map_or(base.as_str(), |(head, _)| head));
    let outcome = run(&url_db, n, others, queries).await;
    if std::env::var_os("CAIRN_BENCH_KEEP_DB").is_some() {
        eprintln!("kept database {name}");
    } else {
        admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    }
    outcome
}

async fn run(db_url: &str, n: usize, others: usize, queries: usize) -> anyhow::Result<()> {
    let app_args = AppArgs::default();
    let model = LocalEmbedder::load(&app_args.model_dir())?;
    let model: Arc<dyn Embedder> = Arc::new(LocalModel::new(model));
    println!(
        "pipeline benchmark: {n} memories in the measured tenant and {others} in each of two others; {queries} queries per mode"
    );

    // 1. Raw model throughput.
    let texts: Vec<String> = (0..1024).map(|i| sentence(10_000_000 + i)).collect();
    let started = Instant::now();
    for chunk in texts.chunks(32) {
        model.embed(chunk).await?;
    }
    let raw = texts.len() as f64 / started.elapsed().as_secs_f64();
    println!("model, raw (batches of 32):          {raw:8.1} texts/s");
    // One query's embedding: the part of every semantic or hybrid recall the database cannot help with.
    let mut ms = Vec::with_capacity(100);
    for q in 0..100 {
        let started = Instant::now();
        model.embed(&[question(q)]).await?;
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (p50, p95, p99) = percentiles(ms);
    let embed_p50 = p50;
    println!("model, one query:                    p50 {p50:6.1} ms  p95 {p95:6.1} ms  p99 {p99:6.1} ms");
    if std::env::var_os("CAIRN_BENCH_MODEL_ONLY").is_some() {
        return Ok(());
    }

    let db_name = db_url.rsplit('/').next().unwrap_or_default();
    // CAIRN_BENCH_SHARE_SNAPSHOTS: hybrid recall's vector probe beside its keyword search
    // (`CAIRN_DB_SHARE_SNAPSHOTS`), off as in the service's default.
    let db_share_snapshots = std::env::var_os("CAIRN_BENCH_SHARE_SNAPSHOTS").is_some();
    let db_args = DbArgs { db_acquire_timeout_secs: 5, db_share_snapshots, ..DbArgs::scratch(db_name) };
    let slot = EmbedderSlot::ready(model.clone());
    let app = Application::build_with_embedder(&db_args, app_args, "127.0.0.1:0".parse()?, slot).await?;
    let url = format!("http://{}", app.local_addr());
    let services = app.services().clone();
    let db = services.db.clone();
    tokio::spawn(app.run(std::future::pending()));
    let client = reqwest::Client::builder().timeout(Duration::from_secs(300)).build()?;
    let mut keys = Vec::new();
    let mut tenant_ids = Vec::new();
    for t in ["measured", "other-1", "other-2"] {
        let tenant = tenants::create_tenant(db.owner(), t, "unlimited", &Default::default()).await?;
        tenant_ids.push(tenant.id);
        let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
        keys.push(cairn::auth::create_key(db.owner(), tenant.id, &new).await?.1);
    }

    // 2. Batch ingest (keyword-searchable at once; embeddings queued).
    println!("resident memory after start:         {:8.0} MiB", rss_mib("self"));
    let all = n + 2 * others;
    let total = match env_usize("CAIRN_BENCH_WORKER_MEMORIES", all) {
        w if w < all => w.min(n),
        _ => all,
    };
    if total < all {
        let mut supplied = Supplied { model: model.clone(), templates: Default::default() };
        let started = Instant::now();
        let templates = supplied.warm(0..all).await?;
        println!("template vectors, before the clock:  {templates:8} in {:.0} s", started.elapsed().as_secs_f64());
        let build_index = std::env::var_os("CAIRN_BENCH_BUILD_INDEX").is_some();
        // The index exactly as the migrations leave it (its storage parameters included), rebuilt after ingest.
        let index_definition: Option<String> = if build_index {
            let definition = sqlx::query_scalar("SELECT pg_get_indexdef('memories_embedding_idx'::regclass)")
                .fetch_one(db.owner())
                .await?;
            sqlx::query("DROP INDEX memories_embedding_idx").execute(db.owner()).await?;
            Some(definition)
        } else {
            None
        };
        let started = Instant::now();
        ingest(&client, &url, &keys[1], n, others, Some(&mut supplied)).await?;
        ingest(&client, &url, &keys[2], n + others, others, Some(&mut supplied)).await?;
        // The measured tenant's in tenths, each timed: ingest as the tenant grows.
        let mut stored = 0;
        for tenth in 1..=10 {
            let upto = (n - total) * tenth / 10;
            let slice = Instant::now();
            ingest(&client, &url, &keys[0], stored, upto - stored, Some(&mut supplied)).await?;
            if upto > stored && n - total >= 100_000 {
                let rate = (upto - stored) as f64 / slice.elapsed().as_secs_f64();
                println!(
                    "  measured tenant at {upto}: {rate:8.1} memories/s with vectors, {:.0} s so far, {:.0} MiB resident",
                    started.elapsed().as_secs_f64(),
                    rss_mib("self")
                );
            }
            stored = upto;
        }
        let rate = (all - total) as f64 / started.elapsed().as_secs_f64();
        let without = if build_index { ", no HNSW index" } else { "" };
        println!(
            "batch ingest, vectors supplied:      {rate:8.1} memories/s (template vectors computed before{without})"
        );
        if let Some(definition) = &index_definition {
            let started = Instant::now();
            let mut conn = db.owner().acquire().await?;
            sqlx::query("SET maintenance_work_mem = '4GB'").execute(&mut *conn).await?;
            sqlx::query("SET max_parallel_maintenance_workers = 2").execute(&mut *conn).await?;
            sqlx::query(definition).execute(&mut *conn).await?;
            println!("HNSW index built over {} vectors in {:.0} s", all - total, started.elapsed().as_secs_f64());
        }
        let started = Instant::now();
        ingest(&client, &url, &keys[0], n - total, total, None).await?;
        let rate = total as f64 / started.elapsed().as_secs_f64();
        println!("batch ingest via HTTP (500/request): {rate:8.1} memories/s (into the measured tenant, last)");
    } else {
        let started = Instant::now();
        ingest(&client, &url, &keys[0], 0, n, None).await?;
        let ingest_rate = n as f64 / started.elapsed().as_secs_f64();
        println!("batch ingest via HTTP (500/request): {ingest_rate:8.1} memories/s");
        ingest(&client, &url, &keys[1], n, others, None).await?;
        ingest(&client, &url, &keys[2], n + others, others, None).await?;
    }
    println!("resident memory after ingest:        {:8.0} MiB", rss_mib("self"));

    // 3. The worker drains the queue. The table analyzed first, as autovacuum would after a bulk ingest (this
    // machine's Postgres runs without it): unanalyzed, the poll below was planned as a sequential scan of every
    // memory, active in 62% of the samples of `pg_stat_activity` taken during the worker phase at 100k, on the
    // cores the worker is measured on.
    sqlx::query("ANALYZE memories").execute(db.owner()).await?;
    let started = Instant::now();
    tokio::spawn(cairn::jobs::run_workers(
        services.clone(),
        cairn::jobs::enrich::Extractor::Local,
        // Only the embedding queue: the similarity and enrichment jobs the stores enqueued stay queued, so
        // neither the worker's figure nor the recall figures below share the CPU with them.
        cairn::queue::Workers::Only(vec![cairn::queue::embed::QUEUE]),
        std::future::pending(),
    ));
    loop {
        let pending: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE embedding_status <> 'ready'")
            .fetch_one(db.owner())
            .await?;
        if pending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let worker = total as f64 / started.elapsed().as_secs_f64();
    println!("embedding through queue + worker:    {worker:8.1} memories/s ({:.0}% of raw)", 100.0 * worker / raw);

    // The SIMILAR_TO edges enrichment leaves (it links each memory to at most five neighbours at cosine ≥ 0.8;
    // the bench's template sentences would fill all five): each memory linked to its next few by id. Their
    // similarity jobs stay queued above, so without this every tenant would have none, and a recall statement
    // that read the tenant's edges would look free here (the supersession chains did: 15-19 ms a recall with
    // 135k edges in a tenant of 100k memories).
    let edges = env_usize("CAIRN_BENCH_EDGES", 4) as i64;
    let started = Instant::now();
    for tenant in &tenant_ids {
        let mut tx = db.owner().begin().await?;
        sqlx::query("SELECT set_config('app.tenant_id', $1, true)").bind(tenant.to_string()).execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
             SELECT $1, a.id, a.next[k], 'SIMILAR_TO', 0.85, '{\"created_by\": \"enrichment\"}'
               FROM (SELECT id, array_agg(id) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND $2 FOLLOWING) AS next
                       FROM memories WHERE tenant_id = $1) a
              CROSS JOIN generate_series(1, $2) k
              WHERE a.next[k] IS NOT NULL
             ON CONFLICT DO NOTHING",
        )
        .bind(tenant)
        .bind(edges)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
    }
    let linked: i64 = sqlx::query_scalar("SELECT count(*) FROM relations").fetch_one(db.owner()).await?;
    println!("SIMILAR_TO edges, {edges} per memory:   {linked} stored in {:.0} s", started.elapsed().as_secs_f64());

    // 4. Recall latency per mode, in the steady state: statistics as autovacuum would have them by now (right
    // after a bulk load they are stale and the planner scans the tenant exactly instead of using HNSW).
    sqlx::query("ANALYZE memories").execute(db.owner()).await?;
    sqlx::query("ANALYZE relations").execute(db.owner()).await?;
    // The same for the counts (the keyword statistics among them): folded, as the expiry pass does every 30 s,
    // and vacuumed, as autovacuum would have them (a recall reads its query's counts by index only).
    let started = Instant::now();
    let mut passes = 0;
    loop {
        cairn::jobs::expire::run_once(&db, chrono::Utc::now()).await?;
        passes += 1;
        let unfolded: i64 =
            sqlx::query_scalar("SELECT count(*) FROM memory_counts WHERE NOT folded").fetch_one(db.owner()).await?;
        if unfolded == 0 || passes == 100 {
            break;
        }
    }
    println!("counts folded by {passes} expiry passes in {:.1} s", started.elapsed().as_secs_f64());
    sqlx::query("VACUUM ANALYZE memory_counts").execute(db.owner()).await?;
    let mut floor = std::collections::HashMap::new();
    // Each cold run asks questions no run asked before (the query-vector cache would answer them); the last
    // asks the first run's again.
    let runs =
        [("hybrid", false, 0), ("semantic", false, queries), ("keyword", false, 2 * queries), ("hybrid", true, 0)];
    for (mode, repeat, first) in runs {
        let before = stage_totals(&client, &url).await?;
        let mut ms = Vec::with_capacity(queries);
        for q in 0..queries {
            let started = Instant::now();
            let res = client
                .post(format!("{url}/api/v1/recall"))
                .bearer_auth(&keys[0])
                .json(&json!({"query": question(first + q), "mode": mode, "limit": 10}))
                .send()
                .await?;
            anyhow::ensure!(res.status().is_success(), "recall failed: {}", res.text().await?);
            res.bytes().await?;
            ms.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let (p50, p95, p99) = percentiles(ms);
        let label = if repeat { "hybrid, asked again (vector cached)" } else { mode };
        println!("recall {label} via HTTP at {n}:  p50 {p50:6.1} ms  p95 {p95:6.1} ms  p99 {p99:6.1} ms");
        println!(
            "  ms per request in each stage, mean (embed overlaps lexemes and keyword):{}",
            stage_line(&before, &stage_totals(&client, &url).await?, queries)
        );
        floor.insert((mode, repeat), p50);
    }
    // The floor: the same top-10 by one hand-written statement through sqlx (owner pool, tenant filter
    // written out, no fusion, no scoring; the keyword one selects by the tenant's keys of the words, as
    // recall does, migration 41), query vectors computed beforehand.
    let tenant_id: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM tenants WHERE name = 'measured'").fetch_one(db.owner()).await?;
    let mut vectors = Vec::with_capacity(queries);
    for q in 0..queries {
        vectors.push(pgvector::Vector::from(model.embed(&[question(q)]).await?.remove(0)));
    }
    let mut conn = db.owner().acquire().await?;
    sqlx::query("SET hnsw.iterative_scan = relaxed_order").execute(&mut *conn).await?;
    let mut sql_ms = Vec::with_capacity(queries);
    for v in &vectors {
        let started = Instant::now();
        let rows: Vec<(uuid::Uuid, String)> = sqlx::query_as(
            "SELECT id, content FROM memories WHERE tenant_id = $1 AND embedding IS NOT NULL \
             ORDER BY embedding <=> $2 LIMIT 10",
        )
        .bind(tenant_id)
        .bind(v)
        .fetch_all(&mut *conn)
        .await?;
        anyhow::ensure!(rows.len() == 10, "the vector floor found {} rows", rows.len());
        sql_ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (vector_floor, _, _) = percentiles(sql_ms);
    let mut sql_ms = Vec::with_capacity(queries);
    for q in 0..queries {
        let started = Instant::now();
        let _rows: Vec<(uuid::Uuid, String)> = sqlx::query_as(
            "SELECT id, content FROM memories, plainto_tsquery('english', $2) q, \
                 (SELECT string_agg(quote_literal(left($1::text, 8) || ':' || l), ' & ')::tsquery AS k \
                    FROM unnest(tsvector_to_array(to_tsvector('english', $2))) l) keys \
             WHERE tenant_id = $1 AND search_keys @@ k AND search_tsv @@ q \
             ORDER BY ts_rank_cd(search_tsv, q) DESC LIMIT 10",
        )
        .bind(tenant_id)
        .bind(question(q))
        .fetch_all(&mut *conn)
        .await?;
        sql_ms.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (keyword_floor, _, _) = percentiles(sql_ms);
    let (cached, keyword) = (floor[&("hybrid", true)], floor[&("keyword", false)]);
    println!(
        "hand-written SQL top-10 at {n}: vector p50 {vector_floor:.2} ms, keyword (ts_rank_cd) p50 {keyword_floor:.2} ms"
    );
    println!(
        "our overhead at {n}: hybrid with the vector cached {cached:.1} ms p50 = {:.1}x the vector statement; \
         keyword {keyword:.1} ms = {:.1}x its statement; hybrid beyond the query embedding ~ {:.1} ms",
        cached / vector_floor,
        keyword / keyword_floor,
        floor[&("hybrid", false)] - embed_p50,
    );
    drop(conn);
    let (database, table, rows): (i64, i64, i64) = sqlx::query_as(
        "SELECT pg_database_size(current_database()), pg_total_relation_size('memories'), (SELECT count(*) FROM memories)",
    )
    .fetch_one(db.owner())
    .await?;
    println!(
        "database: {:.0} MiB for {rows} memories ({:.0} bytes per memory; the memories table and its indexes {:.0})",
        database as f64 / 1048576.0,
        database as f64 / rows.max(1) as f64,
        table as f64 / rows.max(1) as f64,
    );
    println!("resident memory after recall:        {:8.0} MiB", rss_mib("self"));
    Ok(())
}
