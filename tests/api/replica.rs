//! Read replicas (`CAIRN_READ_DATABASE_URL`) against a real streaming replica of the test server: a base backup
//! (`pg_basebackup -R`, which `scripts/setup.sh` allows from 127.0.0.1) started on a free port in a scratch
//! directory, stopped and removed when the test ends.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::EmbedderSlot;
use cairn::server::Application;
use cairn::store::replica::Replicas;
use secrecy::{ExposeSecret, SecretString};
use serde_json::{json, Value};
use sqlx::{Connection, PgConnection};

use crate::helpers::*;

/// The PostgreSQL binaries (pg_basebackup, pg_ctl) of the server's major version.
fn pg_bin(tool: &str) -> PathBuf {
    let dir = std::env::var("CAIRN_PG_BIN").unwrap_or_else(|_| "/usr/lib/postgresql/15/bin".into());
    Path::new(&dir).join(tool)
}

/// Runs a PostgreSQL tool as the `postgres` OS user when the tests run as root (the server refuses root).
fn run_pg(tool: &str, args: &[&str]) -> std::process::Output {
    let root = is_root();
    let mut command = if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(pg_bin(tool));
        c
    } else {
        Command::new(pg_bin(tool))
    };
    command.args(args).output().unwrap_or_else(|e| panic!("running {tool}: {e}"))
}

/// Whether the process runs as root.
fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A streaming replica of the test server.
struct Standby {
    dir: PathBuf,
    port: u16,
}

impl Standby {
    async fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("cairn-standby-{}", uuid::Uuid::new_v4().simple()));
        let primary = base_url();
        let (_, rest) = primary.split_once('@').expect("DATABASE_URL with a user");
        let (host_port, _) = rest.split_once('/').unwrap_or((rest, ""));
        let (host, primary_port) = host_port.split_once(':').unwrap_or((host_port, "5432"));
        let backup = run_pg(
            "pg_basebackup",
            &[
                "-h",
                host,
                "-p",
                primary_port,
                "-U",
                "postgres",
                "-D",
                dir.to_str().unwrap(),
                "-R",
                "-X",
                "stream",
                "-c",
                "fast",
            ],
        );
        assert!(
            backup.status.success(),
            "pg_basebackup failed (scripts/setup.sh allows replication from 127.0.0.1): {}",
            String::from_utf8_lossy(&backup.stderr)
        );
        // Debian keeps the configuration outside the data directory: the replica gets its own.
        let conf = format!(
            "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{dir}'\nhot_standby = on\n\
             hot_standby_feedback = on\nshared_buffers = 32MB\n",
            dir = dir.display()
        );
        std::fs::write(dir.join("postgresql.conf"), conf).unwrap();
        std::fs::write(dir.join("pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n").unwrap();
        let log = dir.join("standby.log");
        let started =
            run_pg("pg_ctl", &["-D", dir.to_str().unwrap(), "-l", log.to_str().unwrap(), "-w", "-t", "60", "start"]);
        let standby = Self { dir, port };
        assert!(started.status.success(), "the replica did not start: {}", String::from_utf8_lossy(&started.stderr));
        standby
    }

    /// `url` (a URL of the primary) pointed at the replica.
    fn url(&self, url: &str) -> String {
        with_port(url, self.port)
    }

    async fn superuser(&self, db: &str) -> PgConnection {
        PgConnection::connect(&self.url(&with_database(&superuser_url(), db))).await.unwrap()
    }

    fn stop(&self) {
        let _ = run_pg("pg_ctl", &["-D", self.dir.to_str().unwrap(), "-m", "immediate", "-w", "stop"]);
    }
}

impl Drop for Standby {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Database settings reading from `standby` with `max_lag_ms`.
fn reading_from(args: DbArgs, standby_port: u16, max_lag_ms: u64) -> DbArgs {
    let app = args.app_database_url.as_ref().expect("a tenant login").expose_secret().to_owned();
    DbArgs {
        read_database_url: Some(SecretString::from(with_port(&app, standby_port))),
        read_max_lag_ms: max_lag_ms,
        ..args
    }
}

/// Another instance of the deployment on `app`'s database, reading from the replica with `max_lag_ms`.
async fn instance(
    app: &TestApp,
    port: u16,
    max_lag_ms: u64,
) -> (SocketAddr, Arc<Replicas>, tokio::sync::oneshot::Sender<()>) {
    let args = reading_from(db_args(&app.db_url), port, max_lag_ms);
    let application = Application::build_with_embedder(
        &args,
        AppArgs::default(),
        "127.0.0.1:0".parse().unwrap(),
        EmbedderSlot::disabled(),
    )
    .await
    .expect("instance builds");
    let addr = application.local_addr();
    let replicas = application.services().db.replicas().expect("replicas configured").clone();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run(async move {
        let _ = rx.await;
    }));
    (addr, replicas, tx)
}

/// The contents a tenant's listing shows, read through `addr` (with a consistency token when given).
async fn listed(addr: SocketAddr, key: &str, token: Option<&str>) -> Vec<String> {
    let mut request = reqwest::Client::new().get(format!("http://{addr}/api/v1/memories?limit=100")).bearer_auth(key);
    if let Some(token) = token {
        request = request.header("cairn-consistency-token", token);
    }
    let res = request.send().await.unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    body["memories"]
        .as_array()
        .or(body["items"].as_array())
        .expect("a page")
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

/// Waits until `check` holds (checked every 50 ms, at most 15 s).
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..300 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("not within 15 s: {what}");
}

#[tokio::test]
async fn reads_go_to_the_replica_and_a_client_never_misses_its_own_write() {
    if citus_nodes().is_some() {
        eprintln!("skipped: the read-replica test runs on plain Postgres (CAIRN_TEST_CITUS_NODES is set)");
        return;
    }
    let standby = Standby::start().await;
    let port = standby.port;
    // A lag bound no pause below reaches: which server answers depends only on what it has replayed.
    let app =
        spawn_full(AppArgs::default(), None, EmbedderSlot::disabled(), &[], cairn::queue::Workers::None, move |args| {
            reading_from(args, port, 600_000)
        })
        .await;
    let replicas = app.db.replicas().expect("replicas configured").clone();
    let served = || replicas.states()[0].served;

    // A write is seen at once, by the one who wrote it.
    app.store_text(&app.a.key, "first, before any pause").await;
    assert!(listed(app.addr, &app.a.key, None).await.contains(&"first, before any pause".to_owned()));
    // Reads go to the replica once it has the tenant's last write (tenant b wrote nothing).
    let before = served();
    eventually("a read served by the replica", || replicas.states()[0].lag_ms.is_some()).await;
    for _ in 0..5 {
        listed(app.addr, &app.b.key, None).await;
    }
    assert!(
        served() >= before + 5,
        "reads of a tenant without pending writes go to the replica: {:?}",
        replicas.states()
    );

    // The replica stops replaying: a write is still read back at once (from the primary), and its response
    // carries the token that lets another instance do the same.
    let mut replica = standby.superuser(&app.db_name).await;
    sqlx::query("SELECT pg_wal_replay_pause()").execute(&mut replica).await.unwrap();
    let fell_back = replicas.fell_back();
    let res = app
        .client
        .post(app.url("/api/v1/memories"))
        .bearer_auth(&app.a.key)
        .json(&json!({"content": "second, while the replica is paused"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let token = res.headers().get("cairn-consistency-token").expect("a write's token").to_str().unwrap().to_owned();
    assert!(cairn::tenancy::consistency::parse_lsn(&token).is_some(), "{token}");
    let seen = listed(app.addr, &app.a.key, None).await;
    assert!(seen.contains(&"second, while the replica is paused".to_owned()), "own write missed: {seen:?}");
    assert!(replicas.fell_back() > fell_back, "the read went to the primary");

    // Another instance has no record of that write: without the token it reads the paused replica and misses
    // it; with the token it does not.
    let (other, other_replicas, _stop) = instance(&app, port, 600_000).await;
    eventually("the other instance's monitor", || other_replicas.states()[0].lag_ms.is_some()).await;
    let stale = listed(other, &app.a.key, None).await;
    assert!(!stale.contains(&"second, while the replica is paused".to_owned()), "the replica had it: {stale:?}");
    let fresh = listed(other, &app.a.key, Some(&token)).await;
    assert!(fresh.contains(&"second, while the replica is paused".to_owned()), "the token was not honoured");
    // A token that is not one is refused, naming the header.
    let res = reqwest::Client::new()
        .get(format!("http://{other}/api/v1/memories"))
        .bearer_auth(&app.a.key)
        .header("cairn-consistency-token", "yesterday")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.text().await.unwrap().contains("Cairn-Consistency-Token"));

    // An instance with a tight lag bound skips the paused replica once it lags past it (a write it has not
    // replayed waits), and still answers.
    let (tight, tight_replicas, _stop_tight) = instance(&app, port, 200).await;
    app.store_text(&app.b.key, "third, so the replica has something to replay").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    eventually("the lag measured past the bound", || tight_replicas.states()[0].lag_ms.is_some_and(|l| l > 200)).await;
    let served_before = tight_replicas.states()[0].served;
    let seen = listed(tight, &app.b.key, None).await;
    assert!(seen.contains(&"third, so the replica has something to replay".to_owned()));
    assert_eq!(tight_replicas.states()[0].served, served_before, "a lagging replica served a read");

    // Replay resumes: the replica catches up and serves again; then it stops for good and reads still answer.
    sqlx::query("SELECT pg_wal_replay_resume()").execute(&mut replica).await.unwrap();
    drop(replica);
    eventually("the replica caught up", || {
        replicas.written(app.a.id) == 0 || replicas.states()[0].replayed >= replicas.written(app.a.id)
    })
    .await;
    standby.stop();
    for _ in 0..3 {
        assert!(listed(app.addr, &app.a.key, None).await.contains(&"second, while the replica is paused".to_owned()));
    }
}
