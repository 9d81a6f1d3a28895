//! `cargo bench --bench load`: mixed traffic against a release build with the local model, printed, not
//! asserted.
//!
//! On a scratch database (from DATABASE_URL, dropped afterwards), a server on loopback with all its workers,
//! and CAIRN_LOAD_TENANTS tenants (20) seeded with 50 memories each, CAIRN_LOAD_CLIENTS clients (16) send for
//! CAIRN_LOAD_SECS seconds (300): 70% hybrid recall, 25% store, 3% update, 2% delete, each to a random
//! tenant. Printed: requests and errors per operation, p50/p99, the process's RSS every 15 s with its trend
//! (MB per minute, least squares over the second half: the first half includes warm-up), and how long the
//! job queues take to drain afterwards. The RSS is the whole process's: the load generator (a reqwest client,
//! and its log of latencies, 8 bytes per request) shares it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::EmbedderSlot;
use cairn::queue::Workers;
use cairn::server::Application;
use cairn::store::tenants;
use serde_json::{json, Value};
use sqlx::{Connection, Executor, PgConnection};

mod common;

const WHO: &[&str] = &["Dana", "the support team", "our CTO", "Ravi", "the designer", "a customer", "Lena"];
const DID: &[&str] = &["asked about", "approved", "rejected", "shipped", "reviewed", "postponed", "measured"];
const WHAT: &[&str] = &[
    "the invoice export",
    "dark mode",
    "the Postgres upgrade",
    "the onboarding email",
    "rate limits",
    "the mobile app release",
    "SSO with Okta",
    "the quarterly report",
];

/// A small xorshift generator: the bench needs cheap, seedable choices, not quality randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Recall,
    Store,
    Update,
    Delete,
}

const OPS: [Op; 4] = [Op::Recall, Op::Store, Op::Update, Op::Delete];

#[derive(Default)]
struct Tally {
    ms: Vec<f64>,
    errors: u64,
    first_error: Option<String>,
}

struct Tenant {
    key: String,
    ids: Mutex<Vec<String>>,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Least-squares slope of (minute, MB) points.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (mx, my) = (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n);
    let num: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let den: f64 = points.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    if den == 0.0 {
        0.0
    } else {
        num / den
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| cairn::config::LOCAL_DATABASE_URL.into());
    let name = format!("cairn_bench_load_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let outcome = run(&name).await;
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    outcome
}

async fn run(db_name: &str) -> anyhow::Result<()> {
    let secs = env_u64("CAIRN_LOAD_SECS", 300);
    let tenant_count = env_u64("CAIRN_LOAD_TENANTS", 20) as usize;
    let clients = env_u64("CAIRN_LOAD_CLIENTS", 16) as usize;
    println!("load: {tenant_count} tenants, {clients} clients, {secs} s; 70% recall, 25% store, 3% update, 2% delete");
    let db_args = DbArgs { db_max_connections: 24, ..DbArgs::scratch(db_name) };
    let app_args = AppArgs::default();
    let slot = EmbedderSlot::from_config(&app_args.embedding())?;
    let app = Application::build_with_embedder(&db_args, app_args, "127.0.0.1:0".parse()?, slot).await?;
    let url = format!("http://{}", app.local_addr());
    let services = app.services().clone();
    let (stop_server, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_with_workers(Workers::All, async move {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while services.embedder.get().is_none() {
        anyhow::ensure!(
            Instant::now() < deadline,
            "the model did not load within two minutes: {:?}",
            services.embedder.state()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tenants_list = Vec::new();
    for t in 0..tenant_count {
        let tenant =
            tenants::create_tenant(services.db.owner(), &format!("load-{t}"), "unlimited", &Default::default()).await?;
        let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
        let key = cairn::auth::create_key(services.db.owner(), tenant.id, &new).await?.1;
        let items: Vec<Value> = (0..50)
            .map(|i| json!({"content": format!("{} {} {} (note {t}-{i})", rng.pick(WHO), rng.pick(DID), rng.pick(WHAT))}))
            .collect();
        let res: Value = client
            .post(format!("{url}/api/v1/memories/batch"))
            .bearer_auth(&key)
            .json(&json!({"memories": items}))
            .send()
            .await?
            .json()
            .await?;
        let ids = res["memories"].as_array().map_or_else(Vec::new, |m| {
            m.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect::<Vec<_>>()
        });
        tenants_list.push(Arc::new(Tenant { key, ids: Mutex::new(ids) }));
    }
    let tenants_list = Arc::new(tenants_list);
    let tallies: Arc<Vec<Mutex<Tally>>> = Arc::new(OPS.iter().map(|_| Mutex::default()).collect());
    let running = Arc::new(AtomicBool::new(true));

    let started = Instant::now();
    let sampler = {
        let running = running.clone();
        tokio::spawn(async move {
            let mut samples = Vec::new();
            while running.load(Ordering::Relaxed) {
                samples.push((started.elapsed().as_secs_f64() / 60.0, common::rss_mib("self")));
                tokio::time::sleep(Duration::from_secs(15)).await;
            }
            samples
        })
    };
    let mut workers = Vec::new();
    for c in 0..clients {
        let (client, url, tenants_list, tallies, running) =
            (client.clone(), url.clone(), tenants_list.clone(), tallies.clone(), running.clone());
        workers.push(tokio::spawn(async move {
            let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ ((c as u64 + 1) << 32));
            let mut n = 0_u64;
            while running.load(Ordering::Relaxed) {
                n += 1;
                let tenant = tenants_list[rng.below(tenants_list.len())].clone();
                let roll = rng.below(100);
                let op = match roll {
                    0..70 => Op::Recall,
                    70..95 => Op::Store,
                    95..98 => Op::Update,
                    _ => Op::Delete,
                };
                let target = if matches!(op, Op::Update | Op::Delete) {
                    let ids = tenant.ids.lock().unwrap();
                    (!ids.is_empty()).then(|| ids[rng.below(ids.len())].clone())
                } else {
                    None
                };
                let request = match (op, &target) {
                    (Op::Recall, _) => client.get(format!("{url}/api/v1/recall")).query(&[
                        ("query", format!("what did {} say about {}", rng.pick(WHO), rng.pick(WHAT))),
                        ("limit", "10".into()),
                    ]),
                    (Op::Store, _) => client.post(format!("{url}/api/v1/memories")).json(&json!({
                        "content": format!("{} {} {} (client {c}, request {n})", rng.pick(WHO), rng.pick(DID), rng.pick(WHAT)),
                        "tags": ["load"],
                    })),
                    (Op::Update, Some(id)) => client
                        .patch(format!("{url}/api/v1/memories/{id}"))
                        .json(&json!({"importance": (rng.below(100) as f64) / 100.0})),
                    (Op::Delete, Some(id)) => client.delete(format!("{url}/api/v1/memories/{id}?hard=true")),
                    _ => continue,
                };
                let began = Instant::now();
                let outcome = request.bearer_auth(&tenant.key).send().await;
                let ms = began.elapsed().as_secs_f64() * 1000.0;
                let (ok, detail, body) = match outcome {
                    Ok(res) => {
                        let status = res.status();
                        let body: Value = res.json().await.unwrap_or(Value::Null);
                        // An update or delete may lose a race with another client's delete of the same memory.
                        let raced = matches!(op, Op::Update | Op::Delete) && status.as_u16() == 404;
                        (status.is_success() || raced, format!("{status} {body}"), body)
                    }
                    Err(e) => (false, e.to_string(), Value::Null),
                };
                match (op, ok) {
                    (Op::Store, true) => {
                        if let Some(id) = body["id"].as_str() {
                            tenant.ids.lock().unwrap().push(id.to_owned());
                        }
                    }
                    (Op::Delete, true) => tenant.ids.lock().unwrap().retain(|i| Some(i) != target.as_ref()),
                    _ => {}
                }
                let mut tally = tallies[OPS.iter().position(|o| *o == op).unwrap()].lock().unwrap();
                tally.ms.push(ms);
                if !ok {
                    tally.errors += 1;
                    tally.first_error.get_or_insert(detail);
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    running.store(false, Ordering::Relaxed);
    for w in workers {
        w.await?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let samples = sampler.await?;

    let mut total = 0;
    println!("operation   requests  errors   p50 ms   p99 ms");
    for (op, tally) in OPS.iter().zip(tallies.iter()) {
        let mut tally = tally.lock().unwrap();
        tally.ms.sort_by(f64::total_cmp);
        total += tally.ms.len();
        println!(
            "{:<10} {:>9} {:>7} {:>8.1} {:>8.1}",
            format!("{op:?}").to_lowercase(),
            tally.ms.len(),
            tally.errors,
            percentile(&tally.ms, 0.5),
            percentile(&tally.ms, 0.99)
        );
        if let Some(first) = &tally.first_error {
            println!("           first error: {first}");
        }
    }
    println!("{total} requests in {elapsed:.0} s ({:.1}/s)", total as f64 / elapsed);
    let rss: Vec<String> = samples.iter().map(|(m, mb)| format!("{m:.1}m {mb:.0}MB")).collect();
    println!("RSS samples: {}", rss.join(", "));
    let second_half: Vec<(f64, f64)> = samples.iter().copied().skip(samples.len() / 2).collect();
    println!("RSS trend over the second half: {:+.2} MB/min", slope(&second_half));

    let mut owner = PgConnection::connect(&db_args_owner_url(db_name)).await?;
    let drain_started = Instant::now();
    let mut pending: i64 = -1;
    while drain_started.elapsed() < Duration::from_secs(300) {
        // Failed jobs with attempts left are retried: they count as queued.
        pending = sqlx::query_scalar(
            "SELECT count(*) FROM apalis.jobs
              WHERE status IN ('Pending', 'Running') OR (status = 'Failed' AND attempts < max_attempts)",
        )
        .fetch_one(&mut owner)
        .await?;
        if pending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    println!("job queues: {pending} jobs left after {:.0} s of draining", drain_started.elapsed().as_secs_f64());
    let _ = stop_server.send(());
    let _ = server.await;
    Ok(())
}

fn db_args_owner_url(db_name: &str) -> String {
    secrecy::ExposeSecret::expose_secret(&DbArgs::scratch(db_name).database_url).to_owned()
}
