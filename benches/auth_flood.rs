//! Authentication under a flood of made-up keys: 500 concurrent clients presenting keys that do not exist
//! (or a real key's prefix with a wrong secret, the costly case: argon2 each time), while one client with a
//! valid key measures its latency. Prints the process's resident memory before, at its peak during, and after
//! each flood, the flood's answers by status, and the valid key's p50/p99 against the quiet figure.
//!
//! `cargo bench --bench auth_flood` (CAIRN_BENCH_FLOOD_SECS, default 5; CAIRN_BENCH_FLOOD_CLIENTS, default 500;
//! CAIRN_BENCH_FLOOD_PAUSE_MS, each client's pause between its requests, default 100: 500 clients then offer
//! up to 5,000 requests/s; 0 floods as fast as this process can, the clients then take most of the cores).
//! The server runs in this process on its own database, with `X-Forwarded-For` trusted so that the second
//! flood can come from a new address on every request (the worst case for per-address limits).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::EmbedderSlot;
use cairn::server::Application;
use cairn::store::tenants;
use rand::Rng;
use reqwest::Client;
use sqlx::{Connection, Executor, PgConnection};

#[path = "common/mod.rs"]
mod common;

use common::{alnum, latencies, percentile, rss_mib};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The valid key's latencies (ms) over `duration`, four requests in flight.
async fn measure_valid(client: &Client, url: &str, key: &str, duration: Duration) -> Vec<f64> {
    let (client, url, key) = (client.clone(), url.to_owned(), key.to_owned());
    latencies(4, duration, Duration::from_millis(5), move |_| {
        client.get(format!("{url}/api/v1/memories?limit=1")).bearer_auth(&key)
    })
    .await
}

/// One flood: what the made-up keys look like.
struct Flood {
    label: &'static str,
    /// A real key's prefix (wrong secrets: argon2 each), or random prefixes.
    known_prefix: Option<String>,
    /// A new `X-Forwarded-For` address on every request.
    new_address_each_time: bool,
}

/// Floods with `clients` concurrent made-up keys for `duration` while the valid key is measured.
async fn flood(f: Flood, url: &str, valid: &str, clients: u64, duration: Duration, quiet_p99: f64) {
    let Flood { label, known_prefix, new_address_each_time } = f;
    let pause = Duration::from_millis(env_u64("CAIRN_BENCH_FLOOD_PAUSE_MS", 100));
    let client = Client::builder().pool_max_idle_per_host(1024).timeout(Duration::from_secs(30)).build().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let statuses: Arc<Mutex<BTreeMap<u16, u64>>> = Arc::default();
    let before = rss_mib("self");
    let peak = Arc::new(Mutex::new(before));
    let sampler = {
        let (stop, peak) = (stop.clone(), peak.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let now = rss_mib("self");
                {
                    let mut p = peak.lock().unwrap();
                    *p = p.max(now);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    let mut attackers = Vec::new();
    for _ in 0..clients {
        let (client, url, stop, statuses, prefix) =
            (client.clone(), url.to_owned(), stop.clone(), statuses.clone(), known_prefix.clone());
        attackers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let prefix = prefix.clone().unwrap_or_else(|| alnum(12).to_lowercase());
                let key = format!("cairn_{prefix}_{}", alnum(40));
                let mut req = client.get(format!("{url}/api/v1/memories")).bearer_auth(key);
                if new_address_each_time {
                    let mut r = rand::thread_rng();
                    req = req
                        .header("x-forwarded-for", format!("10.{}.{}.{}", r.gen::<u8>(), r.gen::<u8>(), r.gen::<u8>()));
                }
                if let Ok(res) = req.send().await {
                    let status = res.status().as_u16();
                    let _ = res.bytes().await;
                    *statuses.lock().unwrap().entry(status).or_default() += 1;
                }
                tokio::time::sleep(pause).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let valid_client = Client::new();
    let ms = measure_valid(&valid_client, url, valid, duration).await;
    stop.store(true, Ordering::Relaxed);
    for a in attackers {
        let _ = a.await;
    }
    let _ = sampler.await;
    let flood_secs = duration.as_secs_f64() + 0.3;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_mib("self");
    let peak = *peak.lock().unwrap();
    let p99 = percentile(&ms, 0.99);
    println!("{label}");
    let statuses = statuses.lock().unwrap().clone();
    let total: u64 = statuses.values().sum();
    println!("  flood answers by status: {statuses:?} ({:.0} requests/s)", total as f64 / flood_secs);
    println!("  resident memory: before {before:.0} MiB, peak {peak:.0} MiB, after {after:.0} MiB");
    println!(
        "  valid key during the flood: {} requests, p50 {:.2} ms, p99 {:.2} ms ({:.2}x the quiet p99)",
        ms.len(),
        percentile(&ms, 0.5),
        p99,
        p99 / quiet_p99
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = format!("cairn_bench_auth_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let db_url = format!("{}/{name}", base.rsplit_once('/').map_or(base.as_str(), |(head, _)| head));
    let outcome = run(&db_url).await;
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    outcome
}

async fn run(db_url: &str) -> anyhow::Result<()> {
    let secs = env_u64("CAIRN_BENCH_FLOOD_SECS", 5);
    let clients = env_u64("CAIRN_BENCH_FLOOD_CLIENTS", 500);
    let db_name = db_url.rsplit('/').next().unwrap_or_default();
    let db_args = DbArgs { db_acquire_timeout_secs: 5, ..DbArgs::scratch(db_name) };
    let config = AppArgs { client_ip_header: Some("x-forwarded-for".into()), ..AppArgs::default() };
    let app =
        Application::build_with_embedder(&db_args, config, "127.0.0.1:0".parse()?, EmbedderSlot::disabled()).await?;
    let url = format!("http://{}", app.local_addr());
    let db = app.services().db.clone();
    tokio::spawn(app.run(std::future::pending()));
    let tenant = tenants::create_tenant(db.owner(), "bench", "unlimited", &Default::default()).await?;
    let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
    let (info, key) = cairn::auth::create_key(db.owner(), tenant.id, &new).await?;

    println!("auth flood benchmark: {clients} concurrent clients with made-up keys for {secs} s per flood");
    let duration = Duration::from_secs(secs);
    let quiet = measure_valid(&Client::new(), &url, &key, duration).await;
    let quiet_p99 = percentile(&quiet, 0.99);
    println!(
        "quiet: {} requests, p50 {:.2} ms, p99 {:.2} ms, resident memory {:.0} MiB",
        quiet.len(),
        percentile(&quiet, 0.5),
        quiet_p99,
        rss_mib("self")
    );
    let unknown =
        Flood { label: "flood 1: unknown prefixes, one address", known_prefix: None, new_address_each_time: false };
    flood(unknown, &url, &key, clients, duration, quiet_p99).await;
    let costly = Flood {
        label: "flood 2: the real key's prefix with wrong secrets (argon2 each), a new address every request",
        known_prefix: Some(info.prefix.clone()),
        new_address_each_time: true,
    };
    flood(costly, &url, &key, clients, duration, quiet_p99).await;
    Ok(())
}
