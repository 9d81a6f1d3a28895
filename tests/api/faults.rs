//! Faults, with the processes a deployment runs: `cairn serve` and `cairn worker` started from the built
//! binary with the environment the compose file gives them (this machine has no Docker, so the processes run
//! by hand). Postgres unreachable for 20 s under mixed load, a worker killed mid-batch, and SIGTERM.
//!
//! The outage goes through a TCP proxy the test switches off and on: every connection of both processes is
//! cut and new ones are closed at once, as when Postgres stops, without stopping the database server the
//! other tests share.
//! The figures are printed (`cargo test --test api faults -- --nocapture`).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cairn::config::AppArgs;
use reqwest::Method;
use serde_json::{json, Value};
use sqlx::PgConnection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::helpers::{app_url, spawn_without_workers, with_port, Res, TestApp};
use crate::outage::upstream;

/// A `cairn` process of this test; killed when dropped. Its log is in the temp directory, removed with it unless the
/// test is failing (then kept to read; every run used to leave each process's log behind).
struct Process {
    child: Child,
    log: PathBuf,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

impl Process {
    /// `cairn ARGS` on the owner URL `owner_url`, its tenant pool logging in as the app login role.
    fn start(args: &[&str], owner_url: &str) -> Self {
        Self::start_with(args, owner_url, &[])
    }

    /// As [`Process::start`], with more environment.
    fn start_with(args: &[&str], owner_url: &str, envs: &[(&str, &str)]) -> Self {
        let log = std::env::temp_dir().join(format!("cairn-faults-{}-{}.log", args[0], uuid::Uuid::new_v4().simple()));
        let child = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .env("DATABASE_URL", owner_url)
            .env("CAIRN_APP_DATABASE_URL", app_url(owner_url))
            .env("CAIRN_EMBEDDER", "local")
            .env("RUST_LOG", "warn,cairn=info")
            .envs(envs.iter().copied())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("the cairn binary runs");
        Self { child, log }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().expect("process state").is_none()
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        text.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill").args([signal, &self.child.id().to_string()]).status().unwrap();
        assert!(status.success(), "kill {signal}");
    }

    /// Waits for the process to exit by itself.
    async fn exit_status(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "still running after {within:?}; log:\n{}", self.log_tail());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A TCP proxy to Postgres, switched off (every proxied connection dropped, new ones closed at once, as
/// when Postgres stops) and on again on the same port, which stays bound throughout.
struct Link {
    port: u16,
    up: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Link {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (up, state) = tokio::sync::watch::channel(true);
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    continue;
                };
                if !*state.borrow() {
                    continue; // dropped: closed at once
                }
                let mut down = state.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(upstream()).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = down.wait_for(|up| !*up) => {}
                    }
                });
            }
        });
        Self { port, up, task }
    }

    fn set(&self, up: bool) {
        self.up.send_replace(up);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.set(false);
        self.task.abort();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A `cairn serve` process's HTTP API.
#[derive(Clone)]
struct Api {
    base: String,
    client: reqwest::Client,
}

impl Api {
    fn new(port: u16) -> Self {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        Self { base: format!("http://127.0.0.1:{port}"), client }
    }

    async fn send(&self, method: Method, path: &str, key: &str, body: Option<&Value>) -> Result<Res, reqwest::Error> {
        let mut req = self.client.request(method, format!("{}{path}", self.base)).bearer_auth(key);
        if let Some(body) = body {
            req = req.json(body);
        }
        Ok(TestApp::read(req.send().await?).await)
    }

    /// Waits until the server is ready (`/api/v1/ready`: the database answers, the model is loaded).
    async fn wait_ready(&self, server: &mut Process) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(server.running(), "cairn serve exited; log:\n{}", server.log_tail());
            if let Ok(res) = self.client.get(format!("{}/api/v1/ready", self.base)).send().await {
                if res.status() == 200 {
                    return;
                }
            }
            assert!(Instant::now() < deadline, "cairn serve not ready; log:\n{}", server.log_tail());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// How many of `ids` have reached `ready` in both pipelines.
async fn processed(conn: &mut PgConnection, ids: &[uuid::Uuid]) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM memories WHERE id = ANY($1) AND embedding_status = 'ready' AND enrichment_status = 'ready'",
    )
    .bind(ids)
    .fetch_one(conn)
    .await
    .unwrap()
}

async fn wait_processed(conn: &mut PgConnection, ids: &[uuid::Uuid], within: Duration, worker: &Process) {
    let deadline = Instant::now() + within;
    loop {
        let done = processed(conn, ids).await;
        if done == ids.len() as i64 {
            return;
        }
        if Instant::now() >= deadline {
            // A short account, printed last and without a backtrace after it (`resume_unwind` runs no panic
            // hook), so that it is among the last lines of a CI log that keeps only the ends of long output.
            let left: Vec<(String, String, i64, Option<String>)> = sqlx::query_as(
                "SELECT embedding_status, enrichment_status, count(*), min(left(embedding_error, 120))
                   FROM memories WHERE id = ANY($1) AND NOT (embedding_status = 'ready' AND enrichment_status = 'ready')
                  GROUP BY 1, 2 ORDER BY 1, 2",
            )
            .bind(ids)
            .fetch_all(&mut *conn)
            .await
            .unwrap();
            let jobs: Vec<(String, String, i32, i64, Option<String>)> = sqlx::query_as(
                "SELECT job_type, status, attempts, count(*), min(left(last_error, 120)) FROM apalis.jobs
                  WHERE status <> 'Done' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            )
            .fetch_all(&mut *conn)
            .await
            .unwrap();
            let log = worker.log_tail();
            let log: Vec<String> = log
                .lines()
                .rev()
                .take(8)
                .map(|l| l.chars().take(240).collect())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let account = format!(
                "{done} of {} memories processed after {within:?}\nunprocessed (embedding, enrichment, count, an error): \
                 {left:?}\njobs not done (queue, status, attempts, count, an error): {jobs:?}\nthe worker's last lines:\n{}",
                ids.len(),
                log.join("\n")
            );
            eprintln!("{account}");
            std::panic::resume_unwind(Box::new(account));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

const TOPICS: [&str; 6] = ["the garden", "a train timetable", "tax forms", "a birthday party", "the database", "piano"];

/// One request of the load and what came of it.
struct Outcome {
    op: &'static str,
    started: Instant,
    latency: Duration,
    /// The status, or 0 when no response came.
    status: u16,
    envelope: bool,
}

/// What the load's writers were told: acknowledged content per memory, and content an unanswered (503)
/// update may or may not have written.
#[derive(Default)]
struct Ledger {
    acknowledged: HashMap<String, String>,
    maybe: HashMap<String, Vec<String>>,
    outcomes: Vec<Outcome>,
}

/// One client of the mixed load: 70% recall, 25% store, 5% update, until `stop`.
async fn client(api: Api, key: String, me: usize, ledger: Arc<Mutex<Ledger>>, stop: Arc<AtomicBool>) {
    let mut n = 0usize;
    let mut mine: Vec<String> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let topic = TOPICS[(me + n) % TOPICS.len()];
        let (op, method, path, body, updating) = match n % 20 {
            0..=13 => (
                "recall",
                Method::POST,
                "/api/v1/recall".to_owned(),
                json!({"query": format!("what about {topic}"), "limit": 5}),
                None,
            ),
            14..=18 => {
                let content = format!("client {me} note {n} about {topic}");
                ("store", Method::POST, "/api/v1/memories".to_owned(), json!({"content": content}), None)
            }
            _ => match mine.get(n % mine.len().max(1)) {
                Some(id) => {
                    let content = format!("client {me} note {n} revised: {topic}");
                    (
                        "update",
                        Method::PATCH,
                        format!("/api/v1/memories/{id}"),
                        json!({"content": content}),
                        Some((id.clone(), content)),
                    )
                }
                None => continue,
            },
        };
        let started = Instant::now();
        let res = api.send(method, &path, &key, Some(&body)).await;
        let latency = started.elapsed();
        let (status, envelope, res_body) = match res {
            Ok(res) => {
                let envelope = res.status < 400 || (res.body["status"] == "error" && res.body["code"] == res.status);
                (res.status, envelope, res.body)
            }
            Err(_) => (0, false, Value::Null),
        };
        {
            let mut ledger = ledger.lock().unwrap();
            match (op, status) {
                ("store", 201) => {
                    let id = res_body["id"].as_str().unwrap().to_owned();
                    ledger.acknowledged.insert(id.clone(), body["content"].as_str().unwrap().to_owned());
                    mine.push(id);
                }
                ("update", 200) => {
                    let (id, content) = updating.unwrap();
                    ledger.acknowledged.insert(id, content);
                }
                ("update", _) => {
                    let (id, content) = updating.unwrap();
                    ledger.maybe.entry(id).or_default().push(content);
                }
                _ => {}
            }
            ledger.outcomes.push(Outcome { op, started, latency, status, envelope });
        }
        // A 503 comes back at once: pace the retries as a client with a backoff would.
        tokio::time::sleep(Duration::from_millis(if status == 503 { 100 } else { 20 })).await;
    }
}

fn percentile(mut latencies: Vec<Duration>, p: f64) -> Duration {
    if latencies.is_empty() {
        return Duration::ZERO;
    }
    latencies.sort();
    latencies[((latencies.len() - 1) as f64 * p).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_unreachable_for_20_s_under_load_fails_fast_and_loses_no_acknowledged_write() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let link = Link::start().await;
    let via_proxy = with_port(&app.db_url, link.port);
    let http_port = free_port();
    let listen = format!("127.0.0.1:{http_port}");
    // Three clients per tenant on an instance of two cores: on a busy machine a request can wait past the
    // per-tenant turn's 2 s and get a 429 (the fairness gate, not the outage this test is about).
    let mut server = Process::start_with(
        &["serve", "--listen", &listen, "--workers", "none"],
        &via_proxy,
        &[("CAIRN_TENANT_CONCURRENCY_WAIT_MS", "30000")],
    );
    // The worker also runs the expiry pass, which hands back jobs lost in the outage (20 s here, 15 min by
    // default).
    let mut worker = Process::start_with(
        &["worker", "--queues", "embed,enrich,similar,expire"],
        &via_proxy,
        &[("CAIRN_EXPIRY_INTERVAL_MS", "2000"), ("CAIRN_JOB_STALE_AFTER_SECS", "20")],
    );
    let api = Api::new(http_port);
    api.wait_ready(&mut server).await;

    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..6)
        .map(|me| {
            let key = if me % 2 == 0 { app.a.key.clone() } else { app.b.key.clone() };
            tokio::spawn(client(api.clone(), key, me, ledger.clone(), stop.clone()))
        })
        .collect();

    tokio::time::sleep(Duration::from_secs(6)).await;
    link.set(false);
    let cut = Instant::now();
    tokio::time::sleep(Duration::from_secs(20)).await;
    link.set(true);
    let restored = Instant::now();
    tokio::time::sleep(Duration::from_secs(15)).await;
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.await.unwrap();
    }
    let ledger = Arc::try_unwrap(ledger).ok().unwrap().into_inner().unwrap();
    assert!(server.running(), "the server must survive the outage; log:\n{}", server.log_tail());
    assert!(worker.running(), "the worker must survive the outage; log:\n{}", worker.log_tail());

    // Every answer is a success or a 503 envelope; nothing else, and no request without an answer.
    let total = ledger.outcomes.len();
    let bad: Vec<_> = ledger
        .outcomes
        .iter()
        .filter(|o| !matches!(o.status, 200 | 201 | 503) || !o.envelope)
        .map(|o| (o.op, o.status))
        .collect();
    assert!(bad.is_empty(), "answers other than success or a 503 envelope: {bad:?}");
    // While the database is away (after the first second), every request fails, and fast.
    let during: Vec<&Outcome> = ledger
        .outcomes
        .iter()
        .filter(|o| o.started > cut + Duration::from_secs(1) && o.started + o.latency < restored)
        .collect();
    assert!(during.len() > 50, "the load went on during the outage: {} requests", during.len());
    let served: Vec<(&str, u16, Duration)> =
        during.iter().filter(|o| o.status != 503).map(|o| (o.op, o.status, o.started - cut)).collect();
    assert!(served.is_empty(), "requests succeeded without a database: {served:?}");
    let during_p99 = percentile(during.iter().map(|o| o.latency).collect(), 0.99);
    let during_max = during.iter().map(|o| o.latency).max().unwrap();
    // Fast: one request at a time probes the database (and may wait the 3 s acquire timeout); the others
    // answer at once.
    let during_p50 = percentile(during.iter().map(|o| o.latency).collect(), 0.5);
    let slow = during.iter().filter(|o| o.latency > Duration::from_millis(500)).count();
    let slow_ones: Vec<(&str, Duration, Duration)> = during
        .iter()
        .filter(|o| o.latency > Duration::from_millis(500))
        .map(|o| (o.op, o.started - cut, o.latency))
        .collect();
    assert!(
        during_p50 < Duration::from_millis(100) && slow * 20 <= during.len(),
        "503s must come fast: p50 {during_p50:?}, {slow} of {} over 500 ms: {slow_ones:?}",
        during.len()
    );
    assert!(during_max < Duration::from_secs(5), "the slowest 503 took {during_max:?}");
    // The server recovers by itself: the first success after the restore, and only successes at the end.
    let recovered = ledger
        .outcomes
        .iter()
        .filter(|o| o.started >= restored && o.status < 400)
        .map(|o| o.started + o.latency - restored)
        .min()
        .expect("requests succeed again after the restore");
    assert!(recovered < Duration::from_secs(10), "recovery took {recovered:?}");
    let settled = restored + recovered + Duration::from_secs(3);
    let late_failures = ledger.outcomes.iter().filter(|o| o.started > settled && o.status >= 400).count();
    assert_eq!(late_failures, 0, "failures after the recovery");

    // Every acknowledged write is there, with its last acknowledged content (or a later unanswered update's).
    let mut found = 0;
    for (id, content) in &ledger.acknowledged {
        let res = api.send(Method::GET, &format!("/api/v1/memories/{id}"), &app.a.key, None).await.unwrap();
        let res = if res.status == 404 {
            api.send(Method::GET, &format!("/api/v1/memories/{id}"), &app.b.key, None).await.unwrap()
        } else {
            res
        };
        let got = res.ok(200)["content"].as_str().unwrap().to_owned();
        let allowed: HashSet<&String> = ledger.maybe.get(id).into_iter().flatten().chain([content]).collect();
        assert!(allowed.contains(&got), "memory {id} holds {got:?}, acknowledged {content:?}");
        found += 1;
    }
    // Queued jobs resume: every acknowledged memory gets its vector and its enrichment.
    let ids: Vec<uuid::Uuid> = ledger.acknowledged.keys().map(|id| id.parse().unwrap()).collect();
    let mut conn = app.superuser_conn().await;
    wait_processed(&mut conn, &ids, Duration::from_secs(240), &worker).await;

    let stat = |op: &str, p: f64| {
        percentile(ledger.outcomes.iter().filter(|o| o.op == op && o.status < 400).map(|o| o.latency).collect(), p)
    };
    println!(
        "faults/outage: {total} requests ({} during the 20 s outage, all 503: p50 {during_p50:?}, p99 {during_p99:?}, max {during_max:?}); \
         recovered {recovered:?} after the restore; writes acknowledged {} / found {found}; \
         {} updates unanswered; success p50/p99 recall {:?}/{:?} store {:?}/{:?}; jobs done for all",
        during.len(),
        ledger.acknowledged.len(),
        ledger.maybe.len(),
        stat("recall", 0.5),
        stat("recall", 0.99),
        stat("store", 0.5),
        stat("store", 0.99),
    );
    assert_eq!(found, ledger.acknowledged.len());

    for p in [&server, &worker] {
        p.signal("-TERM");
    }
    assert!(server.exit_status(Duration::from_secs(45)).await.success(), "serve exits 0 on SIGTERM");
    assert!(worker.exit_status(Duration::from_secs(45)).await.success(), "worker exits 0 on SIGTERM");
}

const PEOPLE: [&str; 8] = ["Alice", "Bob", "Carmen", "Dmitri", "Esther", "Farid", "Greta", "Hiro"];
const PLACES: [&str; 5] = ["Paris", "Lisbon", "Nairobi", "Osaka", "Toronto"];

fn contents(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let (who, other, place) = (PEOPLE[i % 8], PEOPLE[(i / 8 + 3) % 8], PLACES[i % 5]);
            json!({"content": format!("{who} met {other} in {place} to plan milestone {i} of the {} project", TOPICS[i % 6]),
                   "tags": ["plan", format!("milestone-{}", i % 7)]})
        })
        .collect()
}

/// The ids a batch store answered (asserting 201).
fn stored_ids(res: &Res) -> Vec<uuid::Uuid> {
    let ids = res.ok(201)["memory_ids"].as_array().expect("memory_ids");
    ids.iter().map(|id| id.as_str().unwrap().parse().unwrap()).collect()
}

async fn store_all(app: &TestApp, key: &str, items: &[Value]) -> Vec<uuid::Uuid> {
    let mut ids = Vec::new();
    for chunk in items.chunks(200) {
        let res = app.post(key, "/api/v1/memories/batch", &json!({"memories": chunk})).await;
        ids.extend(stored_ids(&res));
    }
    ids
}

/// Counts that a job run twice would inflate: entity links, entities, tags, history events, relations.
async fn footprint(conn: &mut PgConnection, tenant: uuid::Uuid) -> Value {
    let row: (i64, i64, i64, i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM memory_entities WHERE tenant_id = $1),
                (SELECT count(*) FROM entities WHERE tenant_id = $1),
                (SELECT coalesce(sum(cardinality(tags)), 0)::bigint FROM memories WHERE tenant_id = $1),
                (SELECT count(*) FROM memory_events WHERE tenant_id = $1),
                (SELECT count(*) FROM memories WHERE tenant_id = $1
                    AND cardinality(tags) <> (SELECT count(DISTINCT t) FROM unnest(tags) t)),
                (SELECT count(*) FROM (SELECT source_id, target_id FROM relations WHERE tenant_id = $1
                    GROUP BY 1, 2 HAVING count(*) > 1) d)",
    )
    .bind(tenant)
    .fetch_one(conn)
    .await
    .unwrap();
    json!({"entity_links": row.0, "entities": row.1, "tags": row.2, "events": row.3,
           "memories_with_a_repeated_tag": row.4, "repeated_relations": row.5})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_batch_has_its_jobs_run_again_without_duplicates() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let items = contents(400);
    let ids = store_all(&app, &app.a.key, &items).await;
    let mut conn = app.superuser_conn().await;

    let mut first = Process::start(&["worker", "--queues", "embed,enrich,similar"], &app.db_url);
    let deadline = Instant::now() + Duration::from_secs(120);
    let embedded = loop {
        let embedded: i64 =
            sqlx::query_scalar("SELECT count(*) FROM memories WHERE id = ANY($1) AND embedding_status = 'ready'")
                .bind(&ids)
                .fetch_one(&mut conn)
                .await
                .unwrap();
        if embedded > 0 {
            break embedded;
        }
        assert!(first.running() && Instant::now() < deadline, "the worker embeds nothing; log:\n{}", first.log_tail());
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    first.signal("-KILL");
    first.exit_status(Duration::from_secs(10)).await;
    // Killed mid-run: work was left, some of it fetched by the dead worker (apalis marks a fetched batch
    // `Running` under the worker's name).
    let orphaned: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status = 'Running'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let left = ids.len() as i64 - processed(&mut conn, &ids).await;
    assert!(left > 0 && orphaned > 0, "the kill came too late: {left} memories left, {orphaned} jobs orphaned");

    // A new worker takes the dead one's jobs up at once (apalis hands back jobs of workers not seen since).
    let second = Process::start(&["worker", "--queues", "embed,enrich,similar"], &app.db_url);
    wait_processed(&mut conn, &ids, Duration::from_secs(180), &second).await;
    // A control tenant: the same memories, processed without interruption by the same worker.
    let control = store_all(&app, &app.b.key, &items).await;
    wait_processed(&mut conn, &control, Duration::from_secs(180), &second).await;
    let killed = footprint(&mut conn, app.a.id).await;
    let clean = footprint(&mut conn, app.b.id).await;
    println!(
        "faults/killed worker: killed with {embedded} of {} embedded and {orphaned} jobs running; \
         after the restart {killed} vs uninterrupted {clean}",
        ids.len()
    );
    assert_eq!(killed["memories_with_a_repeated_tag"], 0);
    assert_eq!(killed["repeated_relations"], 0);
    for field in ["entity_links", "entities", "tags", "events"] {
        assert_eq!(killed[field], clean[field], "{field}: a job that ran twice left more behind");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_accepting_drains_requests_and_jobs_and_exits_0() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut server = Process::start(&["serve", "--listen", &listen, "--workers", "embed,enrich,similar"], &app.db_url);
    let api = Api::new(port);
    api.wait_ready(&mut server).await;
    let items = contents(300);
    let mut ids: Vec<uuid::Uuid> = Vec::new();
    for chunk in items.chunks(150) {
        let res = api.send(Method::POST, "/api/v1/memories/batch", &app.a.key, Some(&json!({"memories": chunk}))).await;
        let res = res.unwrap();
        ids.extend(stored_ids(&res));
    }
    let mut conn = app.superuser_conn().await;
    // The workers are busy.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let running: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status = 'Running'")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        if running > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "no job started; log:\n{}", server.log_tail());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // A request in flight: its headers and half its body are sent when the signal comes.
    let body = json!({"content": "written while the server was stopping"}).to_string();
    let (head, tail) = body.split_at(body.len() / 2);
    let mut slow = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = format!(
        "POST /api/v1/memories HTTP/1.1\r\nHost: {listen}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{head}",
        app.a.key,
        body.len()
    );
    slow.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.signal("-TERM");
    let signalled = Instant::now();

    // It stops accepting: new connections are refused.
    loop {
        if TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            break;
        }
        assert!(signalled.elapsed() < Duration::from_secs(5), "still accepting connections after SIGTERM");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let refused_after = signalled.elapsed();
    // The request in flight completes.
    slow.write_all(tail.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), slow.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the in-flight request was not answered");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 201"), "in-flight request: {answer}");
    let status = server.exit_status(Duration::from_secs(60)).await;
    assert!(status.success(), "exit status {status:?}; log:\n{}", server.log_tail());

    // Nothing is left `Running` under the stopped process: finished jobs are acknowledged, fetched ones are
    // handed back, so nothing waits for the orphan sweep.
    let stuck: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status = 'Running'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memories WHERE content = 'written while the server was stopping'")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    let done_before = processed(&mut conn, &ids).await;
    println!(
        "faults/sigterm: refused new connections {:?} after the signal, in-flight request 201, exit 0 after {:?}; \
         {done_before} of {} memories processed before the stop, {stuck} jobs left running",
        refused_after,
        signalled.elapsed(),
        ids.len()
    );
    assert_eq!((stuck, stored), (0, 1));
    // What was not done runs on the next worker: nothing was lost.
    let worker = Process::start(&["worker", "--queues", "embed,enrich,similar"], &app.db_url);
    wait_processed(&mut conn, &ids, Duration::from_secs(180), &worker).await;
}

#[tokio::test]
async fn the_worker_process_answers_its_liveness_probe() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut worker = Process::start_with(
        &["worker", "--queues", "expire", "--health-listen", &listen],
        &app.db_url,
        &[("CAIRN_EMBEDDER", "none")],
    );
    let client = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(worker.running(), "cairn worker exited; log:\n{}", worker.log_tail());
        if let Ok(res) = client.get(format!("http://{listen}/livez")).send().await {
            assert_eq!(res.status(), 200);
            assert_eq!(res.json::<Value>().await.unwrap()["status"], "ok");
            break;
        }
        assert!(Instant::now() < deadline, "no liveness answer; log:\n{}", worker.log_tail());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn keys_in_query_strings_never_reach_the_log_and_can_be_turned_off() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut server = Process::start_with(
        &["serve", "--listen", &listen, "--workers", "none"],
        &app.db_url,
        &[("CAIRN_EMBEDDER", "none"), ("RUST_LOG", "info")],
    );
    let api = Api::new(port);
    api.wait_ready(&mut server).await;
    let url = |key: &str| format!("{}/api/v1/memories?limit=1&api_key={key}", api.base);
    assert_eq!(api.client.get(url(&app.a.key)).send().await.unwrap().status(), 200);
    let wrong = format!("cairn_{}_{}", "z".repeat(12), "q".repeat(40));
    assert_eq!(api.client.get(url(&wrong)).send().await.unwrap().status(), 401);
    // The name percent-encoded (the query parser decodes it) is the key too, and redacted too.
    let encoded = format!("{}/api/v1/memories?api%5Fkey={}", api.base, app.b.key);
    assert_eq!(api.client.get(encoded).send().await.unwrap().status(), 200);
    // Request logs are written as responses go out: read the log once both are in it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = std::fs::read_to_string(&server.log).unwrap_or_default();
        if log.matches("api_key=[redacted]").count() >= 3 || Instant::now() > deadline {
            break log;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(log.matches("api_key=[redacted]").count() >= 3, "the requests are logged, redacted:\n{log}");
    for secret in [app.a.key.as_str(), app.b.key.as_str(), &wrong] {
        let tail = &secret[secret.len() - 40..];
        assert!(!log.contains(tail), "a key reached the log:\n{log}");
    }

    // Turned off, a key in the query is refused and says why; headers still work.
    let off = crate::helpers::spawn_with(AppArgs { allow_query_api_key: false, ..AppArgs::default() }, None).await;
    let res = off.client.get(off.url(&format!("/api/v1/memories?api_key={}", off.a.key))).send().await.unwrap();
    TestApp::read(res).await.assert_error(401, "CAIRN_ALLOW_QUERY_API_KEY");
    off.get(&off.a.key, "/api/v1/memories").await.ok(200);
}
