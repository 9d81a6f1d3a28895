//! `cargo bench --bench surfaces`: what each API surface adds on top of the native calls it translates to,
//! printed, not asserted.
//!
//! On a scratch database (from DATABASE_URL, dropped afterwards) with a real server on loopback and no
//! embedding model (keyword recall), so the figures are the surfaces' own cost plus the shared database
//! work: store latency through `POST /api/v1/memories`, AutoMem's `POST /memory`, SHODH's
//! `POST /api/remember` and MCP's `store_memory`; recall latency through `POST /api/v1/recall`, AutoMem's
//! `GET /recall`, SHODH's `POST /api/recall` and MCP's `recall_memory`, over CAIRN_BENCH_MEMORIES (2000)
//! memories, CAIRN_BENCH_QUERIES (200) requests each.

use std::time::{Duration, Instant};

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::EmbedderSlot;
use cairn::server::Application;
use cairn::store::tenants;
use reqwest::{Client, Method};
use serde_json::{json, Value};
use sqlx::{Connection, Executor, PgConnection};

const WORDS: &[&str] = &[
    "postgres",
    "billing",
    "kubernetes",
    "retro",
    "desk",
    "typescript",
    "berlin",
    "graphql",
    "staging",
    "redis",
    "hiking",
    "sourdough",
    "report",
    "audit",
    "onboarding",
    "latency",
    "invoice",
    "migration",
    "sprint",
    "budget",
];

fn text(i: usize) -> String {
    let w = |k: usize| WORDS[(i / k) % WORDS.len()];
    format!("Note {i}: the {} team discussed {} and {} during the {} review", w(1), w(3), w(7), w(11))
}

fn percentiles(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() as f64 - 1.0) * p).round() as usize];
    (at(0.5), at(0.95))
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One request of a surface: method, path, body.
type Request = (Method, String, Option<Value>);

async fn measure(client: &Client, url: &str, key: &str, label: &str, requests: Vec<Request>) -> anyhow::Result<()> {
    let mut ms = Vec::with_capacity(requests.len());
    for (method, path, body) in requests {
        let mut req = client
            .request(method, format!("{url}{path}"))
            .bearer_auth(key)
            .header("Accept", "application/json, text/event-stream");
        if let Some(body) = &body {
            req = req.json(body);
        }
        let started = Instant::now();
        let res = req.send().await?;
        let status = res.status();
        let answer = res.text().await?;
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(status.is_success() && !answer.contains("\"isError\":true"), "{label}: {status} {answer}");
    }
    let (p50, p95) = percentiles(ms);
    println!("{label:<34} p50 {p50:6.2} ms  p95 {p95:6.2} ms");
    Ok(())
}

fn mcp_call(id: usize, tool: &str, arguments: Value) -> Request {
    let body =
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    (Method::POST, "/mcp".into(), Some(body))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let n = env_usize("CAIRN_BENCH_MEMORIES", 2000);
    let q = env_usize("CAIRN_BENCH_QUERIES", 200);
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = format!("cairn_bench_surfaces_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let db_url = format!("{}/{name}", base.rsplit_once('/').map_or(base.as_str(), |(head, _)| head));
    let outcome = run(&db_url, n, q).await;
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    outcome
}

async fn run(db_url: &str, n: usize, q: usize) -> anyhow::Result<()> {
    println!("surfaces benchmark: {n} memories, {q} requests per surface, keyword recall (no model)");
    let db_name = db_url.rsplit('/').next().unwrap_or_default();
    let db_args = DbArgs { db_acquire_timeout_secs: 5, ..DbArgs::scratch(db_name) };
    let app = Application::build_with_embedder(
        &db_args,
        AppArgs::default(),
        "127.0.0.1:0".parse()?,
        EmbedderSlot::disabled(),
    )
    .await?;
    let url = format!("http://{}", app.local_addr());
    let db = app.services().db.clone();
    tokio::spawn(app.run(std::future::pending()));
    let tenant = tenants::create_tenant(db.owner(), "bench", "unlimited", &Default::default()).await?;
    let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
    let key = cairn::auth::create_key(db.owner(), tenant.id, &new).await?.1;
    let client = Client::builder().timeout(Duration::from_secs(60)).build()?;

    for start in (0..n).step_by(500) {
        let items: Vec<Value> = (start..(start + 500).min(n)).map(|i| json!({"content": text(i)})).collect();
        let res = client
            .post(format!("{url}/api/v1/memories/batch"))
            .bearer_auth(&key)
            .json(&json!({"memories": items}))
            .send()
            .await?;
        anyhow::ensure!(res.status().as_u16() == 201, "batch: {}", res.text().await?);
    }

    let fresh = |surface: usize, i: usize| text(1_000_000 * (surface + 1) + i);
    let store =
        |surface: usize, make: &dyn Fn(String, usize) -> Request| (0..q).map(|i| make(fresh(surface, i), i)).collect();
    measure(
        &client,
        &url,
        &key,
        "store, native",
        store(0, &|c, _| (Method::POST, "/api/v1/memories".into(), Some(json!({"content": c})))),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "store, AutoMem POST /memory",
        store(1, &|c, _| (Method::POST, "/memory".into(), Some(json!({"content": c})))),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "store, SHODH /api/remember",
        store(2, &|c, _| (Method::POST, "/api/remember".into(), Some(json!({"content": c})))),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "store, MCP store_memory",
        store(3, &|c, i| mcp_call(i, "store_memory", json!({"content": c}))),
    )
    .await?;

    let query = |i: usize| format!("{} {}", WORDS[i % WORDS.len()], WORDS[(i * 3 + 1) % WORDS.len()]);
    let recall = |make: &dyn Fn(String, usize) -> Request| (0..q).map(|i| make(query(i), i)).collect();
    measure(
        &client,
        &url,
        &key,
        "recall, native POST /api/v1/recall",
        recall(&|t, _| (Method::POST, "/api/v1/recall".into(), Some(json!({"query": t, "limit": 10})))),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "recall, AutoMem GET /recall",
        recall(&|t, _| (Method::GET, format!("/recall?query={}&limit=10", t.replace(' ', "%20")), None)),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "recall, SHODH /api/recall",
        recall(&|t, _| (Method::POST, "/api/recall".into(), Some(json!({"query": t, "limit": 10})))),
    )
    .await?;
    measure(
        &client,
        &url,
        &key,
        "recall, MCP recall_memory",
        recall(&|t, i| mcp_call(i, "recall_memory", json!({"query": t, "limit": 10}))),
    )
    .await?;
    Ok(())
}
