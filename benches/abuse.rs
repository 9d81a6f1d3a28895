//! Hostile tenants against a real server: each attack of issue 24 runs for a while beside a client with a valid
//! key of another tenant, and the bench prints, per attack, the valid client's p50/p99 against its quiet figure,
//! `/livez`'s p99 and the server's resident memory before, at its peak and after, with the attack's answers.
//!
//! `cargo bench --bench abuse` (release). The server is the real `cairn serve` binary (its memory measured alone),
//! on a database laid out as production's: owned by a role that is not a superuser, the tenant pool on
//! `cairn_login`, keyword recall (no model). Loopback only; each attack lasts CAIRN_ABUSE_SECS (default 15).
//! Each attacking client pauses 10 ms between its requests (the load generator shares the two cores).
//! Targets: the valid client's p99 within 2x quiet, `/livez` p99 under 50 ms, peak memory within 64 MiB of the
//! start.

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use rand::Rng;
use reqwest::Client;
use serde_json::{json, Value};
use sqlx::{Connection, Executor, PgConnection};
use tokio::io::AsyncWriteExt;

#[path = "common/mod.rs"]
mod common;

use common::{alnum, latencies, percentile};

const OWNER: &str = "cairn_owner";

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `url` with its user replaced.
fn with_user(url: &str, user: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let host = rest.split_once('@').map_or(rest, |(_, h)| h);
    format!("{scheme}://{user}@{host}")
}

/// The server process and its resident memory.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn rss_mib(&self) -> f64 {
        common::rss_mib(&self.child.id().to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A tenant and a read/write key, through the CLI (as an operator makes them).
fn tenant(owner_url: &str, name: &str) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["tenant", "create", name, "--json"])
        .env("DATABASE_URL", owner_url)
        .env("RUST_LOG", "error")
        .output()
        .expect("cairn tenant create");
    let v: Value = serde_json::from_slice(&out.stdout).expect("tenant JSON");
    (v["tenant_id"].as_str().unwrap().to_owned(), v["api_key"].as_str().unwrap().to_owned())
}

/// The valid client: keyword recall of tenant `key` from its own address, two in flight, for `duration`.
async fn valid_latencies(client: &Client, base: &str, key: &str, duration: Duration) -> Vec<f64> {
    let (client, base, key) = (client.clone(), base.to_owned(), key.to_owned());
    latencies(2, duration, Duration::from_millis(10), move |i| {
        let body = json!({"query": format!("deploy review {}", i % 50), "mode": "keyword", "limit": 10});
        client
            .post(format!("{base}/api/v1/recall"))
            .bearer_auth(&key)
            .header("x-forwarded-for", "198.51.100.200")
            .json(&body)
    })
    .await
}

/// `/livez` every 50 ms until `stop`: its latencies (ms), sorted.
async fn livez_latencies(client: Client, base: String, stop: Arc<AtomicBool>) -> Vec<f64> {
    let mut ms = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        if let Ok(res) = client.get(format!("{base}/livez")).send().await {
            let _ = res.bytes().await;
            ms.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ms.sort_by(f64::total_cmp);
    ms
}

type Statuses = Arc<Mutex<BTreeMap<u16, u64>>>;

/// Each attacking client's pause between its requests: the load generator shares the machine's two cores
/// with the server and Postgres, and a client that never pauses measures the machine more than the server.
const ATTACK_PAUSE: Duration = Duration::from_millis(10);

/// One attack: `tasks` copies of `work`, each looping until `stop`, recording each answer's status.
fn spawn_attack<F, Fut>(
    tasks: usize,
    stop: Arc<AtomicBool>,
    statuses: Statuses,
    work: F,
) -> Vec<tokio::task::JoinHandle<()>>
where
    F: Fn(usize) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = Option<u16>> + Send,
{
    (0..tasks)
        .map(|i| {
            let (stop, statuses, work) = (stop.clone(), statuses.clone(), work.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(status) = work(i).await {
                        *statuses.lock().unwrap().entry(status).or_default() += 1;
                    }
                    tokio::time::sleep(ATTACK_PAUSE).await;
                }
            })
        })
        .collect()
}

/// An attack's work: the request `build` makes, sent with `key` from `addr` (X-Forwarded-For); its status.
fn sending<B>(key: String, addr: &'static str, build: B) -> impl Fn(usize) -> Sending + Send + Sync + Clone + 'static
where
    B: Fn() -> reqwest::RequestBuilder + Send + Sync + Clone + 'static,
{
    move |_| {
        let request = build().bearer_auth(&key).header("x-forwarded-for", addr);
        Box::pin(async move { status_of(request.send().await).await })
    }
}

type Sending = std::pin::Pin<Box<dyn std::future::Future<Output = Option<u16>> + Send>>;

async fn status_of(res: Result<reqwest::Response, reqwest::Error>) -> Option<u16> {
    let res = res.ok()?;
    let status = res.status().as_u16();
    let _ = res.bytes().await;
    Some(status)
}

struct Quiet {
    p50: f64,
    p99: f64,
    rss: f64,
}

/// Runs one attack beside the valid client and prints the figures; returns whether every target held.
async fn measure<F, Fut>(
    label: &str,
    server: &Server,
    victim: &str,
    quiet: &Quiet,
    duration: Duration,
    tasks: usize,
    work: F,
) -> bool
where
    F: Fn(usize) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = Option<u16>> + Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    let statuses: Statuses = Arc::default();
    let before = server.rss_mib();
    let peak = Arc::new(Mutex::new(before));
    let pid = server.child.id();
    let sampler = {
        let (stop, peak) = (stop.clone(), peak.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let rss = common::rss_mib(&pid.to_string());
                {
                    let mut p = peak.lock().unwrap();
                    *p = p.max(rss);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    let client = Client::builder().timeout(Duration::from_secs(60)).build().unwrap();
    let livez = tokio::spawn(livez_latencies(client.clone(), server.base.clone(), stop.clone()));
    let attackers = spawn_attack(tasks, stop.clone(), statuses.clone(), work);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let valid = valid_latencies(&client, &server.base, victim, duration).await;
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        let _ = tokio::time::timeout(Duration::from_secs(30), a).await;
    }
    let live = livez.await.unwrap_or_default();
    let _ = sampler.await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = server.rss_mib();
    let peak = *peak.lock().unwrap();
    let (p50, p99, live99) = (percentile(&valid, 0.5), percentile(&valid, 0.99), percentile(&live, 0.99));
    let held = [p99 <= 2.0 * quiet.p99, live99 < 50.0, peak - quiet.rss <= 64.0];
    let mark = |ok: bool| if ok { "ok" } else { "MISSED" };
    println!("{label}");
    println!("  attack answers by status: {:?}", statuses.lock().unwrap());
    println!(
        "  valid client: {} requests, p50 {p50:.2} ms, p99 {p99:.2} ms ({:.2}x quiet p99 {:.2} ms; p50 quiet {:.2}) [{}]",
        valid.len(),
        p99 / quiet.p99,
        quiet.p99,
        quiet.p50,
        mark(held[0])
    );
    println!("  /livez: {} probes, p99 {live99:.2} ms [{}]", live.len(), mark(held[1]));
    println!(
        "  server memory: before {before:.0} MiB, peak {peak:.0} MiB, after {after:.0} MiB (start {:.0}) [{}]",
        quiet.rss,
        mark(held[2])
    );
    held.iter().all(|h| *h)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let app_base = std::env::var("CAIRN_APP_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://cairn_login@127.0.0.1:5432/postgres".into());
    let name = format!("cairn_bench_abuse_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin
        .execute(
            format!(
                "DO $$ BEGIN CREATE ROLE {OWNER} LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS;
                 EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
            )
            .as_str(),
        )
        .await?;
    admin.execute(format!("CREATE DATABASE {name} OWNER {OWNER}").as_str()).await?;
    let mut db = PgConnection::connect(&cairn::config::with_database(&base, &name)).await?;
    db.execute("CREATE EXTENSION IF NOT EXISTS vector; ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF")
        .await?;
    let owner_url = cairn::config::with_database(&with_user(&base, OWNER), &name);
    let app_url = cairn::config::with_database(&app_base, &name);
    let outcome = run(&owner_url, &app_url, &mut db).await;
    drop(db);
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    outcome
}

async fn run(owner_url: &str, app_url: &str, superuser: &mut PgConnection) -> anyhow::Result<()> {
    let secs = env_u64("CAIRN_ABUSE_SECS", 15);
    let duration = Duration::from_secs(secs);
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let migrate = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .arg("migrate")
        .env("DATABASE_URL", owner_url)
        .env("RUST_LOG", "error")
        .status()?;
    anyhow::ensure!(migrate.success(), "cairn migrate failed");
    let (attacker_id, attacker) = tenant(owner_url, "attacker");
    let (_, victim) = tenant(owner_url, "victim");
    let child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--workers", "none"])
        .env("DATABASE_URL", owner_url)
        .env("CAIRN_APP_DATABASE_URL", app_url)
        .env("CAIRN_EMBEDDER", "none")
        .env("CAIRN_CLIENT_IP_HEADER", "x-forwarded-for")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let server = Server { child, base: format!("http://127.0.0.1:{port}") };
    let client = Client::builder().timeout(Duration::from_secs(60)).build()?;
    let ready = Instant::now();
    while client.get(format!("{}/api/v1/ready", server.base)).send().await.map(|r| r.status() != 200).unwrap_or(true) {
        anyhow::ensure!(ready.elapsed() < Duration::from_secs(60), "the server did not become ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The victim's memories (what the valid client recalls), the attacker's hub of 1,500 spokes.
    let words = ["deploy", "review", "postgres", "rollback", "incident", "latency", "budget", "release"];
    for chunk in 0..4 {
        let items: Vec<Value> = (0..500)
            .map(|i| {
                let n = chunk * 500 + i;
                json!({"content": format!("{} {} note {n}", words[n % 8], words[(n / 8) % 8]), "tags": [format!("t{}", n % 20)]})
            })
            .collect();
        client
            .post(format!("{}/api/v1/memories/batch", server.base))
            .bearer_auth(&victim)
            .json(&json!({"memories": items}))
            .send()
            .await?;
    }
    let hub: Value = client
        .post(format!("{}/api/v1/memories", server.base))
        .bearer_auth(&attacker)
        .json(&json!({"content": "the hub"}))
        .send()
        .await?
        .json()
        .await?;
    let hub = hub["id"].as_str().unwrap().to_owned();
    for chunk in 0..3 {
        let items: Vec<Value> = (0..500)
            .map(|i| json!({"content": format!("spoke {}", chunk * 500 + i), "metadata": {"pad": "p".repeat(2000)}}))
            .collect();
        let res: Value = client
            .post(format!("{}/api/v1/memories/batch", server.base))
            .bearer_auth(&attacker)
            .json(&json!({"memories": items}))
            .send()
            .await?
            .json()
            .await?;
        let edges: Vec<Value> = res["memory_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| json!({"memory1_id": hub, "memory2_id": id, "type": "RELATES_TO"}))
            .collect();
        client
            .post(format!("{}/api/v1/associations", server.base))
            .bearer_auth(&attacker)
            .json(&json!({"associations": edges}))
            .send()
            .await?;
    }
    // An expired key of the attacker's tenant (made as an operator would, then expired).
    let expired = tenant_key(owner_url, &attacker_id);
    sqlx::query("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE prefix = $1")
        .bind(expired.split('_').nth(1).unwrap_or_default())
        .execute(&mut *superuser)
        .await?;
    let attacker_prefix = attacker.split('_').nth(1).unwrap_or_default().to_owned();

    println!("abuse benchmark: release server (keyword recall, no model), {secs} s per attack, valid client = keyword recall of another tenant");
    let warm = valid_latencies(&client, &server.base, &victim, Duration::from_secs(3)).await;
    drop(warm);
    let quiet_ms = valid_latencies(&client, &server.base, &victim, duration).await;
    let quiet = Quiet { p50: percentile(&quiet_ms, 0.5), p99: percentile(&quiet_ms, 0.99), rss: server.rss_mib() };
    println!(
        "quiet: {} requests, p50 {:.2} ms, p99 {:.2} ms, server memory {:.0} MiB",
        quiet_ms.len(),
        quiet.p50,
        quiet.p99,
        quiet.rss
    );

    let base = server.base.clone();
    let mut all = true;
    let http = Client::builder().pool_max_idle_per_host(256).timeout(Duration::from_secs(60)).build()?;

    // 1. Long filter lists: the most a list may hold as it is read, past every field's cap.
    // The attacks' bodies are made once: the load generator shares the server's two cores, and its own work is
    // not the server's cost.
    let list: Vec<String> = (0..1000).map(|n| format!("value{n}")).collect();
    let lists = Bytes::from(json!({"query": "x", "types": list, "tags": list, "exclude_tags": list}).to_string());
    let (h, b) = (http.clone(), base.clone());
    all &= measure(
        "attack 1: recall with 1,000-item types/tags/exclude_tags lists (8 clients)",
        &server,
        &victim,
        &quiet,
        duration,
        8,
        sending(attacker.clone(), "203.0.113.1", move || {
            h.post(format!("{b}/api/v1/recall")).header("content-type", "application/json").body(lists.clone())
        }),
    )
    .await;

    // 2. A hostile import: 32 KB lines of one memory with one tag of 16,000 levels.
    let tag = vec!["a"; 16_000].join(":");
    let mut file = format!("{}\n", json!({"type": "cairn_export", "version": 1}));
    for n in 0..100 {
        let line = json!({"type": "memories", "data": {"content": format!("hostile {n}"), "tags": [tag]}});
        file.push_str(&line.to_string());
        file.push('\n');
    }
    let file = Bytes::from(file);
    let (h, b) = (http.clone(), base.clone());
    all &= measure(
        "attack 2: imports of 32 KB lines holding a tag 'a:a:a:...' (4 clients)",
        &server,
        &victim,
        &quiet,
        duration,
        4,
        sending(attacker.clone(), "203.0.113.2", move || {
            h.post(format!("{b}/api/v1/import")).header("content-type", "application/x-ndjson").body(file.clone())
        }),
    )
    .await;

    // 3. One expired key, 64 clients, one address.
    let (h, b) = (http.clone(), base.clone());
    all &= measure(
        "attack 3: an expired key from 64 clients at one address",
        &server,
        &victim,
        &quiet,
        duration,
        64,
        sending(expired.clone(), "203.0.113.3", move || h.get(format!("{b}/api/v1/memories"))),
    )
    .await;

    // 4. The real key's prefix with wrong secrets (argon2 each), a new address every request.
    let (h, b, p) = (http.clone(), base.clone(), attacker_prefix.clone());
    all &= measure(
        "attack 4: wrong secrets of a real prefix, 64 clients, a new address each request",
        &server,
        &victim,
        &quiet,
        duration,
        64,
        move |_| {
            let (h, b, p) = (h.clone(), b.clone(), p.clone());
            async move {
                let key = format!("cairn_{p}_{}", alnum(40));
                let addr = {
                    let mut r = rand::thread_rng();
                    format!("10.{}.{}.{}", r.gen::<u8>(), r.gen::<u8>(), r.gen::<u8>())
                };
                status_of(
                    h.get(format!("{b}/api/v1/memories"))
                        .bearer_auth(&key)
                        .header("x-forwarded-for", addr)
                        .send()
                        .await,
                )
                .await
            }
        },
    )
    .await;

    // 5. Stalled imports: 8 connections trickling a byte a second to hold import turns.
    let (b, k) = (base.clone(), attacker.clone());
    let port_s = port;
    all &= measure("attack 5: 8 imports trickling a byte a second (the victim's imports must still run)", &server, &victim, &quiet, duration, 8, move |_| {
        let k = k.clone();
        let _ = &b;
        async move {
            let Ok(mut s) = tokio::net::TcpStream::connect(("127.0.0.1", port_s)).await else { return None };
            let head = format!("POST /api/v1/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {k}\r\nX-Forwarded-For: 203.0.113.5\r\n\
                                Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n");
            s.write_all(head.as_bytes()).await.ok()?;
            for _ in 0..60 {
                if s.write_all(b"1\r\n \r\n").await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Some(0)
        }
    })
    .await;
    let file = format!(
        "{}\n{}\n",
        json!({"type": "cairn_export", "version": 1}),
        json!({"type": "memories", "data": {"content": "victim import"}})
    );
    let victim_import = client
        .post(format!("{base}/api/v1/import"))
        .bearer_auth(&victim)
        .header("content-type", "application/x-ndjson")
        .body(file)
        .send()
        .await?;
    println!("  the victim's import after the stalled ones: {}", victim_import.status());

    // 6. A hub traversal: limit=1 on a hub of 1,500 spokes with 2 KB of metadata each.
    let (h, b, hub) = (http.clone(), base.clone(), hub.clone());
    all &= measure(
        "attack 6: related?depth=3&limit=1 on a hub of 1,500 spokes (8 clients)",
        &server,
        &victim,
        &quiet,
        duration,
        8,
        sending(attacker.clone(), "203.0.113.6", move || {
            h.get(format!("{b}/api/v1/memories/{hub}/related?depth=3&limit=1"))
        }),
    )
    .await;

    println!("abuse: {}", if all { "every target held" } else { "some targets MISSED (see above)" });
    Ok(())
}

/// Another key of tenant `id`, through the CLI.
fn tenant_key(owner_url: &str, id: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["key", "create", "--tenant", id, "--scopes", "read", "--json"])
        .env("DATABASE_URL", owner_url)
        .env("RUST_LOG", "error")
        .output()
        .expect("cairn key create");
    let v: Value = serde_json::from_slice(&out.stdout).expect("key JSON");
    v["api_key"].as_str().unwrap().to_owned()
}
