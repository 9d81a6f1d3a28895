//! `cargo bench --bench scaleout`: the scale-out figures, printed, not asserted (issue 26).
//!
//! 1. **Citus beside plain Postgres, same run.** CAIRN_BENCH_TENANTS (10) tenants × CAIRN_BENCH_MEMORIES (10000)
//!    memories, stored by batches of 500 (supplied vectors: the pipeline bench's jittered template vectors)
//!    from CAIRN_BENCH_CLIENTS (4) clients at once; then CAIRN_BENCH_QUERIES (100) recalls per mode, spread over
//!    the tenants, query embedding included. On a scratch database of DATABASE_URL's server, and, when
//!    CAIRN_BENCH_CITUS_NODES=host:port,... names a cluster (coordinator first; superuser `postgres` without a
//!    password on each, citus and pgvector installed: what the API suite's Citus run needs), on a database
//!    created on every node and distributed by `cairn migrate`. Without the variable the plain figures only,
//!    and a line saying so.
//! 2. **A read replica.** A streaming replica of DATABASE_URL's server (`pg_basebackup -R` into a scratch
//!    directory, started on a free port, as the API suite's replica test does; `scripts/setup.sh` allows the
//!    replication), then keyword and hybrid recall throughput of CAIRN_BENCH_CLIENTS clients for
//!    CAIRN_BENCH_SECONDS (15) s against the plain database's server without, then with, the replica serving
//!    reads. On one machine the replica shares the cores with the primary: the figure says what the routing
//!    costs or gains here, not what a replica on its own machine adds.
//!
//! Scratch databases are dropped at the end (CAIRN_BENCH_KEEP_DB keeps them).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::config::{with_database, AppArgs, DbArgs};
use cairn::models::embed::local::LocalEmbedder;
use cairn::models::embed::{Embedder, EmbedderSlot, LocalModel};
use cairn::server::Application;
use cairn::store::tenants;
use futures_util::StreamExt;
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;
use sqlx::{Connection, Executor, PgConnection};

mod common;

use common::corpus::{ingest, question, Supplied};
use common::{latencies, percentile};

const MODES: [&str; 3] = ["keyword", "semantic", "hybrid"];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

struct Knobs {
    tenants: usize,
    memories: usize,
    clients: usize,
    queries: usize,
    seconds: u64,
}

/// What one database did: ingest per second and recall (p50, p95) per mode, in ms.
struct Figures {
    ingest_per_s: f64,
    recall: Vec<(f64, f64)>,
}

/// A running server on `args` with its tenants' keys.
struct Served {
    url: String,
    keys: Vec<String>,
    stop: tokio::sync::oneshot::Sender<()>,
}

async fn serve(args: &DbArgs, model: &Arc<dyn Embedder>, tenants: Option<usize>) -> anyhow::Result<Served> {
    let slot = EmbedderSlot::ready(model.clone());
    let app = Application::build_with_embedder(args, AppArgs::default(), "127.0.0.1:0".parse()?, slot).await?;
    let url = format!("http://{}", app.local_addr());
    let db = app.services().db.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app.run(async move {
        let _ = stopped.await;
    }));
    let mut keys = Vec::new();
    if let Some(count) = tenants {
        for t in 0..count {
            let tenant =
                tenants::create_tenant(db.owner(), &format!("bench-{t}"), "unlimited", &Default::default()).await?;
            let new = cairn::tenancy::NewKey { scopes: vec!["read".into(), "write".into()], ..Default::default() };
            keys.push(cairn::auth::create_key(db.owner(), tenant.id, &new).await?.1);
        }
    }
    Ok(Served { url, keys, stop })
}

/// Stores the tenants' memories and measures recall on `args`' database; the server keeps running (its keys
/// serve the replica part).
async fn measure(args: &DbArgs, model: &Arc<dyn Embedder>, knobs: &Knobs) -> anyhow::Result<(Figures, Served)> {
    let served = serve(args, model, Some(knobs.tenants)).await?;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(300)).build()?;
    // Template vectors once, so ingest measures the server, not the model.
    let mut supplied = Supplied { model: model.clone(), templates: Default::default() };
    supplied.vectors(0..knobs.memories).await?;
    let templates = supplied.templates.clone();
    let started = Instant::now();
    let jobs = served.keys.iter().map(|key| {
        let (client, url, key) = (client.clone(), served.url.clone(), key.clone());
        let mut supplied = Supplied { model: model.clone(), templates: templates.clone() };
        // Every tenant stores the same sentences (content is unique per tenant only), so the template vectors
        // computed above serve them all and the figure is the server's, not the model's.
        async move { ingest(&client, &url, &key, 0, knobs.memories, Some(&mut supplied)).await }
    });
    let results: Vec<anyhow::Result<()>> =
        futures_util::stream::iter(jobs).buffer_unordered(knobs.clients.max(1)).collect().await;
    results.into_iter().collect::<anyhow::Result<Vec<()>>>()?;
    let ingest_per_s = (knobs.tenants * knobs.memories) as f64 / started.elapsed().as_secs_f64();
    let mut recall = Vec::new();
    for mode in MODES {
        let mut ms = Vec::with_capacity(knobs.queries);
        for q in 0..knobs.queries {
            let key = &served.keys[q % served.keys.len()];
            let body = json!({"query": question(q), "mode": mode, "limit": 10});
            let t = Instant::now();
            let res = client.post(format!("{}/api/v1/recall", served.url)).bearer_auth(key).json(&body).send().await?;
            anyhow::ensure!(res.status().is_success(), "{mode} recall failed: {}", res.text().await?);
            let _ = res.bytes().await?;
            ms.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        ms.sort_by(f64::total_cmp);
        recall.push((percentile(&ms, 0.5), percentile(&ms, 0.95)));
    }
    Ok((Figures { ingest_per_s, recall }, served))
}

/// The tenant login of the local set-up (`CAIRN_APP_DATABASE_URL`, default `cairn_login`).
fn app_login_url() -> String {
    std::env::var("CAIRN_APP_DATABASE_URL").unwrap_or_else(|_| "postgres://cairn_login@127.0.0.1:5432/cairn".into())
}

/// A database `name` on every node of the cluster, prepared as deploy/README's "Scale-out with Citus" says
/// (the tenant roles on every node, citus in each copy, workers added, pgvector through the coordinator); the
/// superuser owns it here. Returns its settings (owner `postgres`, tenant login `cairn_login`, INHERIT).
async fn citus_database(nodes: &[String], name: &str) -> anyhow::Result<DbArgs> {
    for node in nodes {
        let mut conn = PgConnection::connect(&format!("postgres://postgres@{node}/postgres")).await?;
        let _ = conn
            .execute(
                "DO $$ BEGIN CREATE ROLE cairn_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
                 EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
                 DO $$ BEGIN CREATE ROLE cairn_login LOGIN INHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
                 EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;
                 GRANT cairn_app TO cairn_login",
            )
            .await;
        conn.execute(format!("CREATE DATABASE {name}").as_str()).await?;
        let mut db = PgConnection::connect(&format!("postgres://postgres@{node}/{name}")).await?;
        db.execute("CREATE EXTENSION citus; ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF").await?;
    }
    let mut db = PgConnection::connect(&format!("postgres://postgres@{}/{name}", nodes[0])).await?;
    let (host, port) = nodes[0].rsplit_once(':').expect("host:port");
    sqlx::query("SELECT citus_set_coordinator_host($1, $2)")
        .bind(host)
        .bind(port.parse::<i32>()?)
        .execute(&mut db)
        .await?;
    for worker in &nodes[1..] {
        let (host, port) = worker.rsplit_once(':').expect("host:port");
        sqlx::query("SELECT citus_add_node($1, $2)").bind(host).bind(port.parse::<i32>()?).execute(&mut db).await?;
    }
    db.execute("CREATE EXTENSION vector").await?;
    let coordinator = &nodes[0];
    Ok(DbArgs::new(
        &format!("postgres://postgres@{coordinator}/{name}"),
        &format!("postgres://cairn_login@{coordinator}/{name}"),
    ))
}

fn drop_citus_database(nodes: &[String], name: &str) {
    let nodes = nodes.to_vec();
    let name = name.to_owned();
    let _ = std::thread::spawn(move || {
        tokio::runtime::Runtime::new().unwrap().block_on(async {
            for node in nodes.iter().rev() {
                if let Ok(mut conn) = PgConnection::connect(&format!("postgres://postgres@{node}/postgres")).await {
                    let _ = conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
                }
            }
        })
    })
    .join();
}

/// Runs a PostgreSQL 15 tool, as the `postgres` OS user when this runs as root (the server refuses root).
fn pg_tool(tool: &str, args: &[&str]) -> anyhow::Result<()> {
    let bin =
        Path::new(&std::env::var("CAIRN_PG_BIN").unwrap_or_else(|_| "/usr/lib/postgresql/15/bin".into())).join(tool);
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let mut command = if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(&bin);
        c
    } else {
        Command::new(&bin)
    };
    let out = command.args(args).output()?;
    anyhow::ensure!(out.status.success(), "{tool} failed: {}", String::from_utf8_lossy(&out.stderr));
    Ok(())
}

/// A streaming replica of the server at `host:port`, stopped and removed on drop.
struct Standby {
    dir: PathBuf,
    port: u16,
}

impl Standby {
    fn start(host: &str, primary_port: &str) -> anyhow::Result<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = std::env::temp_dir().join(format!("cairn-bench-standby-{}", std::process::id()));
        let d = dir.to_str().expect("utf-8 path").to_owned();
        pg_tool(
            "pg_basebackup",
            &["-h", host, "-p", primary_port, "-U", "postgres", "-D", &d, "-R", "-X", "stream", "-c", "fast"],
        )?;
        let standby = Self { dir, port };
        std::fs::write(
            standby.dir.join("postgresql.conf"),
            format!(
                "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{d}'\nhot_standby = on\n\
                 hot_standby_feedback = on\nshared_buffers = 128MB\n"
            ),
        )?;
        std::fs::write(standby.dir.join("pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n")?;
        let log = format!("{d}/standby.log");
        pg_tool("pg_ctl", &["-D", &d, "-l", &log, "-w", "-t", "120", "start"])?;
        Ok(standby)
    }
}

impl Drop for Standby {
    fn drop(&mut self) {
        let d = self.dir.to_str().unwrap_or_default().to_owned();
        let _ = pg_tool("pg_ctl", &["-D", &d, "-m", "immediate", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `url` with its host and port replaced by 127.0.0.1:`port`.
fn with_port(url: &str, port: u16) -> String {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let user = authority.rsplit_once('@').map(|(u, _)| format!("{u}@")).unwrap_or_default();
    format!("{scheme}://{user}127.0.0.1:{port}/{path}")
}

/// Recalls per second, (p50, p95) ms, of `clients` clients for `seconds` against `served`, in `mode`.
async fn throughput(served: &Served, mode: &'static str, knobs: &Knobs) -> (f64, f64, f64) {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let (url, keys) = (served.url.clone(), Arc::new(served.keys.clone()));
    let started = Instant::now();
    let ms = latencies(knobs.clients, Duration::from_secs(knobs.seconds), Duration::ZERO, move |i| {
        client
            .post(format!("{url}/api/v1/recall"))
            .bearer_auth(&keys[i as usize % keys.len()])
            .json(&json!({"query": question(i as usize), "mode": mode, "limit": 10}))
    })
    .await;
    (ms.len() as f64 / started.elapsed().as_secs_f64(), percentile(&ms, 0.5), percentile(&ms, 0.95))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let knobs = Knobs {
        tenants: env_usize("CAIRN_BENCH_TENANTS", 10).max(1),
        memories: env_usize("CAIRN_BENCH_MEMORIES", 10_000),
        clients: env_usize("CAIRN_BENCH_CLIENTS", 4).max(1),
        queries: env_usize("CAIRN_BENCH_QUERIES", 100).clamp(1, 266),
        seconds: env_usize("CAIRN_BENCH_SECONDS", 15) as u64,
    };
    let keep = std::env::var_os("CAIRN_BENCH_KEEP_DB").is_some();
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let model: Arc<dyn Embedder> = Arc::new(LocalModel::new(LocalEmbedder::load(&AppArgs::default().model_dir())?));
    println!(
        "scale-out benchmark: {} tenants × {} memories, {} clients, {} recalls per mode",
        knobs.tenants, knobs.memories, knobs.clients, knobs.queries
    );

    // Plain Postgres.
    let name = format!("cairn_bench_scale_{}", std::process::id());
    let mut admin = PgConnection::connect(&base).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let plain_args = DbArgs::new(&with_database(&base, &name), &with_database(&app_login_url(), &name));
    let plain = measure(&plain_args, &model, &knobs).await;

    // Citus.
    let nodes: Option<Vec<String>> = std::env::var("CAIRN_BENCH_CITUS_NODES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
        .filter(|v: &Vec<String>| !v.is_empty());
    let citus = match &nodes {
        Some(nodes) => {
            let args = citus_database(nodes, &name).await?;
            let migrated = cairn::store::Db::connect_lazy(&args.settings())?.migrate().await?;
            println!("citus: {} distribution steps on {} nodes", migrated.len(), nodes.len());
            let outcome = measure(&args, &model, &knobs).await;
            let figures = outcome.map(|(f, served)| {
                let _ = served.stop.send(());
                f
            });
            if !keep {
                drop_citus_database(nodes, &name);
            }
            Some(figures?)
        }
        None => {
            println!("citus: skipped (CAIRN_BENCH_CITUS_NODES names no cluster)");
            None
        }
    };
    let (plain, served) = plain?;
    println!("\n{:<28} {:>16} {:>16}", "", "plain Postgres", "Citus");
    let cell = |f: Option<String>| f.unwrap_or_else(|| "-".into());
    println!(
        "{:<28} {:>16} {:>16}",
        "batch ingest (memories/s)",
        format!("{:.0}", plain.ingest_per_s),
        cell(citus.as_ref().map(|c| format!("{:.0}", c.ingest_per_s)))
    );
    for (i, mode) in MODES.iter().enumerate() {
        let show = |f: &Figures| format!("{:.1} / {:.1}", f.recall[i].0, f.recall[i].1);
        println!(
            "{:<28} {:>16} {:>16}",
            format!("recall {mode} p50/p95 (ms)"),
            show(&plain),
            cell(citus.as_ref().map(show))
        );
    }

    // A read replica of the plain database's server.
    let (_, rest) = base.split_once('@').unwrap_or(("", &base));
    let host_port = rest.split('/').next().unwrap_or("127.0.0.1:5432");
    let (host, port) = host_port.split_once(':').unwrap_or((host_port, "5432"));
    let replica = match Standby::start(host, port) {
        Ok(standby) => {
            let app = plain_args.app_database_url.as_ref().expect("a tenant login").expose_secret().to_owned();
            let reading = DbArgs {
                read_database_url: Some(SecretString::from(with_port(&app, standby.port))),
                ..DbArgs::new(&with_database(&base, &name), &with_database(&app_login_url(), &name))
            };
            let mut with = serve(&reading, &model, None).await?;
            with.keys = served.keys.clone();
            // The replica has replayed the set-up before the first figure.
            tokio::time::sleep(Duration::from_secs(2)).await;
            let mut rows = Vec::new();
            for mode in ["keyword", "hybrid"] {
                rows.push((mode, throughput(&served, mode, &knobs).await, throughput(&with, mode, &knobs).await));
            }
            let _ = with.stop.send(());
            Some((rows, standby))
        }
        Err(err) => {
            println!("\nreplica: skipped ({err:#})");
            None
        }
    };
    if let Some((rows, _standby)) = &replica {
        println!(
            "\nrecall throughput, {} clients × {} s:  primary only         with one replica",
            knobs.clients, knobs.seconds
        );
        for (mode, without, with) in rows {
            println!(
                "  {mode:<8} req/s (p50/p95 ms)        {:>6.1} ({:.1}/{:.1})    {:>6.1} ({:.1}/{:.1})",
                without.0, without.1, without.2, with.0, with.1, with.2
            );
        }
    }
    drop(replica);
    let _ = served.stop.send(());
    if keep {
        eprintln!("kept database {name}");
    } else {
        tokio::time::sleep(Duration::from_millis(200)).await;
        admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    }
    Ok(())
}
