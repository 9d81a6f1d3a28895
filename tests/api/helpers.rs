//! `TestApp`: a migrated database of its own, a running server, two tenants with keys, typed helpers.

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use cairn::config::{AppArgs, DbArgs};
use cairn::models::embed::local::LocalEmbedder;
use cairn::models::embed::{EmbedFuture, Embedder, EmbedderSlot, LocalModel};
use cairn::queue::Workers;
use cairn::server::Application;
use cairn::service::Services;
use cairn::store::{tenants, Db};
use reqwest::Method;
use serde_json::Value;
use sqlx::{Connection, Executor, PgConnection};
use uuid::Uuid;

pub use cairn::config::with_database;

pub fn base_url() -> String {
    if let Some(nodes) = citus_nodes() {
        return format!("postgres://postgres@{}/postgres", nodes[0]);
    }
    std::env::var("DATABASE_URL").unwrap_or_else(|_| cairn::config::LOCAL_DATABASE_URL.into())
}

/// The Citus cluster the suite runs on (`CAIRN_TEST_CITUS_NODES=host:port,...`, coordinator first; the
/// superuser `postgres` reaches every node without a password, citus and pgvector installed on each): each
/// test's database is created on every node, the workers added, and the server migrates and distributes it.
/// None: plain Postgres (`DATABASE_URL`).
pub fn citus_nodes() -> Option<Vec<String>> {
    static NODES: OnceLock<Option<Vec<String>>> = OnceLock::new();
    NODES
        .get_or_init(|| {
            let nodes: Vec<String> = std::env::var("CAIRN_TEST_CITUS_NODES")
                .ok()?
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect();
            (!nodes.is_empty()).then_some(nodes)
        })
        .clone()
}

/// Whether scoped keys and tokens are refused here (on Citus: deploy/README.md, migration 0037), after saying
/// that `test` does not run.
pub fn scoped_keys_refused(test: &str) -> bool {
    let refused = citus_nodes().is_some();
    if refused {
        eprintln!("skipped {test}: scoped keys and tokens are refused on Citus");
    }
    refused
}

/// The tenant login on a Citus cluster: INHERIT (the coordinator connects to the workers as it), a member of
/// cairn_app only. On plain Postgres the suite uses `CAIRN_APP_DATABASE_URL`'s login (NOINHERIT).
pub const CITUS_LOGIN: &str = "cairn_login";

/// The role tests become to read as the server does: cairn_app, or on Citus the tenant login (cairn_app
/// cannot log in to the workers).
pub fn app_role() -> &'static str {
    if citus_nodes().is_some() {
        CITUS_LOGIN
    } else {
        "cairn_app"
    }
}

/// `url` with its host:port replaced (for the outage proxy).
pub fn with_port(url: &str, port: u16) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap();
    let (userinfo, _) = authority.rsplit_once('@').map_or(("", authority), |(u, h)| (u, h));
    let at = if userinfo.is_empty() { "" } else { "@" };
    format!("{scheme}://{userinfo}{at}127.0.0.1:{port}/{path}")
}

/// A tenant and its read+write key.
#[derive(Debug, Clone)]
pub struct TestTenant {
    pub id: Uuid,
    pub key: String,
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    /// The server's services (the use cases' deployment context).
    pub services: Services,
    pub db: Db,
    pub db_url: String,
    pub db_name: String,
    pub a: TestTenant,
    pub b: TestTenant,
    pub embedder: EmbedderSlot,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

/// A server on a fresh database with the default settings, without an embedder (keyword recall only).
pub async fn spawn() -> TestApp {
    spawn_with(AppArgs::default(), None).await
}

/// The real local model, loaded once per test binary.
pub fn local_model() -> Arc<dyn Embedder> {
    static MODEL: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = AppArgs::default().model_dir();
            let model = LocalEmbedder::load(&dir)
                .unwrap_or_else(|e| panic!("model in {}: {e:#} (run scripts/setup.sh)", dir.display()));
            Arc::new(LocalModel::new(model))
        })
        .clone()
}

/// A model that answers at once (a fixed vector), so tests can embed without the real one.
pub struct Instant384;

impl Embedder for Instant384 {
    fn model(&self) -> &str {
        "instant"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let mut v = vec![0.0_f32; 384];
        v[0] = 1.0;
        let out = texts.iter().map(|_| v.clone()).collect();
        Box::pin(async move { Ok(out) })
    }
}

/// A server whose embedder is `embedder`, ready at once.
pub async fn spawn_with_embedder(embedder: Arc<dyn Embedder>) -> TestApp {
    spawn_inner(AppArgs::default(), None, EmbedderSlot::ready(embedder), &[]).await
}

/// A server whose model is still loading: `app.embedder.fill(model)` finishes the load.
pub async fn spawn_loading() -> TestApp {
    spawn_inner(AppArgs::default(), None, EmbedderSlot::loading(), &[]).await
}

/// As [`spawn_with_embedder`], with `app` settings.
pub async fn spawn_with_settings_and_embedder(app: AppArgs, embedder: Arc<dyn Embedder>) -> TestApp {
    spawn_inner(app, None, EmbedderSlot::ready(embedder), &[]).await
}

/// As [`spawn_with_embedder`], running `prepare` (e.g. `ALTER DATABASE {db} SET ...`, with `{db}` replaced by
/// the test database's name) before the server opens its first connection.
pub async fn spawn_prepared(embedder: Arc<dyn Embedder>, prepare: &[&str]) -> TestApp {
    spawn_inner(AppArgs::default(), None, EmbedderSlot::ready(embedder), prepare).await
}

/// The role that owns every test database and runs its migrations, as production's owner does: `LOGIN
/// CREATEROLE`, neither superuser nor `BYPASSRLS`, so row-level security binds it like any other role (FORCE
/// is on for every tenant table). Only test set-up and assertions that inspect the database use the superuser
/// of `DATABASE_URL` ([`superuser_url`], [`TestApp::superuser_conn`]).
pub const TEST_OWNER: &str = "cairn_owner";

/// `DATABASE_URL`: a superuser, for creating databases and inspecting them.
pub fn superuser_url() -> String {
    base_url()
}

/// `url` with its user replaced by `user` (no password: the test cluster trusts local logins).
pub fn with_user(url: &str, user: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let host = rest.split_once('@').map_or(rest, |(_, host)| host);
    format!("{scheme}://{user}@{host}")
}

/// `DATABASE_URL`'s server with [`TEST_OWNER`] as the user (the URL a server of a test logs in with).
pub fn owner_base_url() -> String {
    with_user(&base_url(), TEST_OWNER)
}

/// Creates the owner role once per cluster (roles are cluster-wide; a lost race is harmless).
async fn ensure_owner_role(conn: &mut PgConnection) {
    let sql = format!(
        "DO $$ BEGIN
             CREATE ROLE {TEST_OWNER} LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS NOCREATEDB NOREPLICATION;
         EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
         END $$"
    );
    conn.execute(sql.as_str()).await.expect("create the test owner role");
    let (superuser, bypass): (bool, bool) =
        sqlx::query_as("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1")
            .bind(TEST_OWNER)
            .fetch_one(&mut *conn)
            .await
            .expect("the test owner role exists");
    assert!(!superuser && !bypass, "{TEST_OWNER} must be neither superuser nor BYPASSRLS");
}

/// Creates an empty database for a test, owned by [`TEST_OWNER`], with what an operator prepares once as a
/// superuser (deploy/README.md, "Postgres in production"): the vector extension, and `ts_match_vq` marked
/// LEAKPROOF. Returns its name and the owner's URL; dropped by [`drop_database`].
pub async fn create_database() -> (String, String) {
    let base = superuser_url();
    let name = format!("cairn_test_{}", Uuid::new_v4().simple());
    if let Some(nodes) = citus_nodes() {
        create_citus_database(&nodes, &name).await;
        return (name.clone(), with_database(&owner_base_url(), &name));
    }
    let mut conn = PgConnection::connect(&base).await.expect("DATABASE_URL reachable");
    ensure_owner_role(&mut conn).await;
    conn.execute(format!("CREATE DATABASE {name} OWNER {TEST_OWNER}").as_str()).await.expect("create test database");
    let mut db = PgConnection::connect(&with_database(&base, &name)).await.expect("the new database is reachable");
    db.execute("CREATE EXTENSION IF NOT EXISTS vector; ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF")
        .await
        .expect("prepare the test database as its operator would");
    (name.clone(), with_database(&owner_base_url(), &name))
}

pub fn drop_database(name: &str) {
    let servers: Vec<String> = match citus_nodes() {
        Some(nodes) => nodes.iter().map(|n| format!("postgres://postgres@{n}/postgres")).collect(),
        None => vec![base_url()],
    };
    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
    let _ = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            for base in servers {
                if let Ok(mut conn) = PgConnection::connect(&base).await {
                    let _ = conn.execute(sql.as_str()).await;
                }
            }
        });
    })
    .join();
}

/// A test database on every node of a Citus cluster, prepared as its operator would (deploy/citus.md): the
/// roles on every node, the citus extension in each copy of the database, the workers added, pgvector
/// created through the coordinator (which installs it on the workers), and the roles known to Citus as
/// created by the superuser (otherwise the owner's migrations would ask the workers to re-create them).
async fn create_citus_database(nodes: &[String], name: &str) {
    for node in nodes {
        let server = format!("postgres://postgres@{node}/postgres");
        let mut conn = PgConnection::connect(&server).await.expect("a Citus node reachable");
        ensure_owner_role(&mut conn).await;
        let roles = format!(
            "DO $$ BEGIN
                 CREATE ROLE cairn_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
             EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
             END $$;
             DO $$ BEGIN
                 CREATE ROLE {CITUS_LOGIN} LOGIN INHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
             EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
             END $$;
             GRANT cairn_app TO {CITUS_LOGIN}"
        );
        let _ = conn.execute(roles.as_str()).await;
        conn.execute(format!("CREATE DATABASE {name} OWNER {TEST_OWNER}").as_str())
            .await
            .expect("create test database");
        let mut db = PgConnection::connect(&with_database(&server, name)).await.unwrap();
        db.execute("CREATE EXTENSION citus; ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF").await.unwrap();
    }
    let coordinator = format!("postgres://postgres@{}/{name}", nodes[0]);
    let mut db = PgConnection::connect(&coordinator).await.unwrap();
    let (host, port) = nodes[0].rsplit_once(':').expect("host:port");
    sqlx::query("SELECT citus_set_coordinator_host($1, $2)")
        .bind(host)
        .bind(port.parse::<i32>().unwrap())
        .execute(&mut db)
        .await
        .unwrap();
    for worker in &nodes[1..] {
        let (host, port) = worker.rsplit_once(':').expect("host:port");
        sqlx::query("SELECT citus_add_node($1, $2)")
            .bind(host)
            .bind(port.parse::<i32>().unwrap())
            .execute(&mut db)
            .await
            .unwrap();
    }
    db.execute("CREATE EXTENSION vector").await.unwrap();
    for role in [TEST_OWNER, "cairn_app", CITUS_LOGIN] {
        for sql in [
            "CREATE FUNCTION public.cairn_prepare() RETURNS int LANGUAGE sql AS 'SELECT 1'".to_owned(),
            format!("ALTER FUNCTION public.cairn_prepare() OWNER TO {role}"),
            "DROP FUNCTION public.cairn_prepare()".to_owned(),
        ] {
            // Roles are cluster-wide: databases prepared at once on the same nodes can race on their catalog
            // rows ("tuple concurrently updated", raised by a worker); that attempt is simply made again.
            let mut attempt = 0;
            loop {
                match db.execute(sql.as_str()).await {
                    Err(sqlx::Error::Database(e)) if e.message().contains("concurrently updated") && attempt < 5 => {
                        attempt += 1;
                        tokio::time::sleep(std::time::Duration::from_millis(100 * attempt)).await;
                    }
                    other => break other.map(|_| ()).unwrap(),
                }
            }
        }
    }
}

/// Settings for the owner URL `url`; the tenant pool logs in on the same server and database as the login
/// role of `CAIRN_APP_DATABASE_URL` (default `cairn_login`, which `scripts/setup.sh` creates).
pub fn db_args(url: &str) -> DbArgs {
    // A connect deadline above what a busy CI machine can take to open a connection (the fault tests set theirs).
    DbArgs {
        db_max_connections: 5,
        db_acquire_timeout_secs: 2,
        db_connect_timeout_ms: 5_000,
        ..DbArgs::new(url, &app_url(url))
    }
}

/// `url` (an owner URL) with the tenant pool's login instead of its user.
pub fn app_url(url: &str) -> String {
    if citus_nodes().is_some() {
        return with_user(url, CITUS_LOGIN);
    }
    let app = std::env::var("CAIRN_APP_DATABASE_URL").unwrap_or_else(|_| cairn::config::LOCAL_APP_DATABASE_URL.into());
    let login = app.split_once("://").and_then(|(_, rest)| rest.split_once('@')).map_or("cairn_login", |(u, _)| u);
    with_user(url, login)
}

/// A server with `app` settings; `server_db_url` overrides the URL the server uses (the outage test points
/// it through a proxy).
pub async fn spawn_with(app: AppArgs, server_db_url: Option<String>) -> TestApp {
    spawn_inner(app, server_db_url, EmbedderSlot::disabled(), &[]).await
}

/// A server with `app` settings that runs no background worker at all (consolidation requests wait, then
/// answer 202; the test runs the queued jobs itself).
pub async fn spawn_without_workers(app: AppArgs) -> TestApp {
    spawn_workers(app, None, EmbedderSlot::disabled(), &[], Workers::None).await
}

/// A server with `app` settings serving the queues `workers` selects.
pub async fn spawn_with_queues(app: AppArgs, workers: Workers) -> TestApp {
    spawn_workers(app, None, EmbedderSlot::disabled(), &[], workers).await
}

/// As [`spawn_with_queues`], with `embedder` ready at once.
pub async fn spawn_with_queues_and_embedder(app: AppArgs, workers: Workers, embedder: Arc<dyn Embedder>) -> TestApp {
    spawn_workers(app, None, EmbedderSlot::ready(embedder), &[], workers).await
}

/// A second server (another instance of the deployment) on `app`'s database, with its own caches; it stops
/// when the returned sender is dropped.
pub async fn second_instance(app: &TestApp, config: AppArgs) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let application = Application::build_with_embedder(
        &db_args(&app.db_url),
        config,
        "127.0.0.1:0".parse().unwrap(),
        EmbedderSlot::disabled(),
    )
    .await
    .expect("second instance builds");
    let addr = application.local_addr();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run(async move {
        let _ = rx.await;
    }));
    (addr, tx)
}

async fn spawn_inner(app: AppArgs, server_db_url: Option<String>, embedder: EmbedderSlot, prepare: &[&str]) -> TestApp {
    // The server, and the consolidation worker its consolidation requests wait for; every other queue is
    // drained by the tests themselves (`drain_jobs`, `run_enrichment`...), so that they decide when jobs run.
    let workers = Workers::Only(vec![cairn::queue::consolidate::QUEUE]);
    spawn_workers(app, server_db_url, embedder, prepare, workers).await
}

/// A server whose database settings `tune` changes (e.g. a short statement timeout), after `prepare` ran.
pub async fn spawn_tuned(app: AppArgs, tune: fn(DbArgs) -> DbArgs, prepare: &[&str]) -> TestApp {
    let workers = Workers::Only(vec![cairn::queue::consolidate::QUEUE]);
    spawn_full(app, None, EmbedderSlot::disabled(), prepare, workers, tune).await
}

async fn spawn_workers(
    app: AppArgs,
    server_db_url: Option<String>,
    embedder: EmbedderSlot,
    prepare: &[&str],
    workers: Workers,
) -> TestApp {
    spawn_full(app, server_db_url, embedder, prepare, workers, |args| args).await
}

pub(crate) async fn spawn_full(
    app: AppArgs,
    server_db_url: Option<String>,
    embedder: EmbedderSlot,
    prepare: &[&str],
    workers: Workers,
    tune: impl FnOnce(DbArgs) -> DbArgs,
) -> TestApp {
    let (db_name, db_url) = create_database().await;
    if !prepare.is_empty() {
        let mut conn = PgConnection::connect(&with_database(&superuser_url(), &db_name)).await.unwrap();
        for sql in prepare {
            conn.execute(sql.replace("{db}", &db_name).as_str()).await.unwrap();
        }
    }
    let server_url = server_db_url.map(|u| with_database(&u, &db_name)).unwrap_or_else(|| db_url.clone());
    let application =
        Application::build_with_embedder(&tune(db_args(&server_url)), app, "127.0.0.1:0".parse().unwrap(), embedder)
            .await
            .expect("application builds");
    let addr = application.local_addr();
    let services = application.services().clone();
    let (db, embedder) = (services.db.clone(), services.embedder.clone());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run_with_workers(workers, async move {
        let _ = rx.await;
    }));
    let a = create_tenant(&db, "tenant-a").await;
    let b = create_tenant(&db, "tenant-b").await;
    TestApp { addr, client: reqwest::Client::new(), services, db, db_url, db_name, a, b, embedder, shutdown: Some(tx) }
}

async fn create_tenant(db: &Db, name: &str) -> TestTenant {
    // On Citus `tenants` is a reference table, written on every node: an insert racing the workers' first
    // periodic jobs can fail as a transient conflict (the API answers it 503, retry). The suite retries too.
    let mut attempt = 0;
    let tenant = loop {
        match tenants::create_tenant(db.owner(), name, "unlimited", &Default::default()).await {
            Err(cairn::error::Error::Unavailable(_)) if attempt < 3 => attempt += 1,
            other => break other.unwrap(),
        }
    };
    let key = new_key(db, tenant.id, &["read", "write"]).await;
    TestTenant { id: tenant.id, key }
}

pub async fn new_key(db: &Db, tenant_id: Uuid, scopes: &[&str]) -> String {
    let new = cairn::tenancy::NewKey { scopes: scopes.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    cairn::auth::create_key(db.owner(), tenant_id, &new).await.unwrap().1
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        drop_database(&self.db_name);
    }
}

/// A response's status and body (JSON, or the text as a JSON string).
pub struct Res {
    pub status: u16,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Res {
    /// Asserts the error envelope with `status` and a message containing `needle`.
    #[track_caller]
    pub fn assert_error(&self, status: u16, needle: &str) {
        assert_eq!(self.status, status, "unexpected status; body: {}", self.body);
        assert_eq!(self.body["status"], "error", "not the envelope: {}", self.body);
        assert_eq!(self.body["code"], status, "envelope code: {}", self.body);
        let message = self.body["message"].as_str().expect("message is a string");
        assert!(message.contains(needle), "message {message:?} does not contain {needle:?}");
    }

    #[track_caller]
    pub fn ok(&self, status: u16) -> &Value {
        assert_eq!(self.status, status, "unexpected status; body: {}", self.body);
        &self.body
    }
}

impl TestApp {
    /// Writes the recall accesses the server has counted and not yet written (it does so every
    /// `CAIRN_ACCESS_FLUSH_MS`); waits for a flush under way.
    pub async fn flush_accesses(&self) {
        self.services.accesses.flush(&self.db).await.expect("recall accesses are written");
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn send(&self, method: Method, path: &str, key: Option<&str>, body: Option<&Value>) -> Res {
        let mut req = self.client.request(method, self.url(path));
        if let Some(key) = key {
            req = req.bearer_auth(key);
        }
        if let Some(body) = body {
            req = req.json(body);
        }
        Self::read(req.send().await.expect("request sent")).await
    }

    pub async fn read(res: reqwest::Response) -> Res {
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Res { status, body, headers }
    }

    pub async fn get(&self, key: &str, path: &str) -> Res {
        self.send(Method::GET, path, Some(key), None).await
    }

    pub async fn post(&self, key: &str, path: &str, body: &Value) -> Res {
        self.send(Method::POST, path, Some(key), Some(body)).await
    }

    pub async fn patch(&self, key: &str, path: &str, body: &Value) -> Res {
        self.send(Method::PATCH, path, Some(key), Some(body)).await
    }

    pub async fn put(&self, key: &str, path: &str, body: &Value) -> Res {
        self.send(Method::PUT, path, Some(key), Some(body)).await
    }

    pub async fn delete(&self, key: &str, path: &str) -> Res {
        self.send(Method::DELETE, path, Some(key), None).await
    }

    /// `POST /api/v1/import` of `body` (JSON Lines).
    pub async fn import(&self, key: &str, body: String) -> Res {
        let req = self
            .client
            .post(self.url("/api/v1/import"))
            .bearer_auth(key)
            .header("content-type", "application/x-ndjson");
        Self::read(req.body(body).send().await.unwrap()).await
    }

    /// Stores a memory and returns it (asserting 201).
    pub async fn store(&self, key: &str, body: Value) -> Value {
        self.post(key, "/api/v1/memories", &body).await.ok(201).clone()
    }

    /// Stores `items` in one batch and returns their ids in order (asserting 201).
    pub async fn store_batch(&self, key: &str, items: &[Value]) -> Vec<String> {
        let res = self.post(key, "/api/v1/memories/batch", &serde_json::json!({ "memories": items })).await;
        let ids = res.ok(201)["memory_ids"].as_array().expect("memory_ids").clone();
        ids.iter().map(|v| v.as_str().unwrap().to_owned()).collect()
    }

    /// Stores `content` and returns the new id.
    pub async fn store_text(&self, key: &str, content: &str) -> String {
        self.store(key, serde_json::json!({ "content": content })).await["id"].as_str().unwrap().to_owned()
    }

    /// How many memories the tenant sees (all of them, archived included).
    pub async fn count(&self, key: &str) -> i64 {
        self.get(key, "/api/v1/memories?include_archived=true").await.ok(200)["total"].as_i64().unwrap()
    }

    /// A direct connection to this test's database as the cluster's superuser: for test set-up and for
    /// assertions that inspect the database (row-level security does not bind it). The server itself runs as
    /// [`TEST_OWNER`] and `cairn_login`.
    pub async fn superuser_conn(&self) -> PgConnection {
        PgConnection::connect(&with_database(&superuser_url(), &self.db_name)).await.unwrap()
    }

    /// Counts `table` rows as the server's role would see them with `tenant` (or nothing) set.
    pub async fn count_as_app_role(&self, table: &str, tenant: Option<Uuid>) -> i64 {
        let mut conn = self.superuser_conn().await;
        let mut tx = app_role_tx(&mut conn, tenant).await;
        sqlx::query_scalar(&format!("SELECT count(*) FROM {table}")).fetch_one(&mut *tx).await.unwrap()
    }
}

impl TestApp {
    /// The pending jobs of `queue`, oldest first: (id, payload).
    pub async fn pending_jobs<T: serde::de::DeserializeOwned>(
        &self,
        conn: &mut PgConnection,
        queue: &str,
    ) -> Vec<(String, T)> {
        let jobs: Vec<(String, serde_json::Value)> = sqlx::query_as(
            "SELECT id, job::jsonb FROM apalis.jobs WHERE job_type = $1 AND status = 'Pending' ORDER BY run_at, id",
        )
        .bind(queue)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        jobs.into_iter().map(|(id, job)| (id, serde_json::from_value(job).unwrap())).collect()
    }

    /// Records a job's first attempt as the worker would.
    async fn finish_job(conn: &mut PgConnection, id: &str, ok: bool) {
        let status = if ok { "Done" } else { "Failed" };
        sqlx::query("UPDATE apalis.jobs SET status = $2, done_at = now(), attempts = attempts + 1 WHERE id = $1")
            .bind(id)
            .bind(status)
            .execute(conn)
            .await
            .unwrap();
    }

    /// Runs every queued embedding job synchronously, as the worker would (first attempt); returns how many.
    pub async fn drain_jobs(&self) -> usize {
        let ctx = cairn::jobs::embed::EmbedContext {
            db: self.db.clone(),
            embedder: self.embedder.clone(),
            usage: Default::default(),
            vectors: cairn::config::VectorKinds {
                context: self.services.config.context_vectors,
                sentences: self.services.config.sentence_vectors,
            },
            first: cairn::jobs::EmbedFirst::new(false),
        };
        let mut conn = self.superuser_conn().await;
        let jobs: Vec<(String, cairn::queue::embed::EmbedJob)> =
            self.pending_jobs(&mut conn, cairn::queue::embed::QUEUE).await;
        for (id, job) in &jobs {
            let ok = cairn::jobs::embed::process(&ctx, job, 0).await.is_ok();
            Self::finish_job(&mut conn, id, ok).await;
        }
        jobs.len()
    }

    /// Runs every queued enrichment job synchronously with `extractor`, as the worker would (first attempt);
    /// returns how many.
    pub async fn run_enrichment_with(&self, extractor: cairn::jobs::enrich::Extractor) -> usize {
        let ctx = cairn::jobs::enrich::EnrichContext {
            db: self.db.clone(),
            extractor,
            usage: Default::default(),
            first: cairn::jobs::EmbedFirst::new(false),
        };
        let mut conn = self.superuser_conn().await;
        let jobs: Vec<(String, cairn::queue::enrich::EnrichJob)> =
            self.pending_jobs(&mut conn, cairn::queue::enrich::QUEUE).await;
        for (id, job) in &jobs {
            let ok = cairn::jobs::enrich::process(&ctx, job, 0).await.is_ok();
            Self::finish_job(&mut conn, id, ok).await;
        }
        jobs.len()
    }

    /// Runs every queued similarity job synchronously; returns how many.
    pub async fn run_similar(&self) -> usize {
        let mut conn = self.superuser_conn().await;
        let jobs: Vec<(String, cairn::queue::similar::SimilarJob)> =
            self.pending_jobs(&mut conn, cairn::queue::similar::QUEUE).await;
        for (id, job) in &jobs {
            let ok = cairn::jobs::similar::process(&self.db, job).await.is_ok();
            Self::finish_job(&mut conn, id, ok).await;
        }
        jobs.len()
    }

    /// Waits until no consolidation run of this test's database is still queued (the background worker runs
    /// them), at most 30 s.
    pub async fn wait_for_consolidations(&self) {
        let mut conn = self.superuser_conn().await;
        for _ in 0..600 {
            let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM consolidation_runs WHERE status = 'queued'")
                .fetch_one(&mut conn)
                .await
                .unwrap();
            if queued == 0 {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("consolidation runs still queued after 30 s");
    }

    /// Runs every queued consolidation job synchronously, as the worker would (first attempt); returns how
    /// many.
    pub async fn run_consolidations(&self) -> usize {
        let mut conn = self.superuser_conn().await;
        let jobs: Vec<(String, cairn::queue::consolidate::ConsolidateJob)> =
            self.pending_jobs(&mut conn, cairn::queue::consolidate::QUEUE).await;
        for (id, job) in &jobs {
            let ok = cairn::jobs::consolidate::process(&self.db, job, 0).await.is_ok();
            Self::finish_job(&mut conn, id, ok).await;
        }
        jobs.len()
    }

    /// Runs every queued summary job synchronously; returns how many.
    pub async fn run_summaries(&self) -> usize {
        let ctx = cairn::jobs::summarize::SummarizeContext {
            db: self.db.clone(),
            embedder: self.embedder.clone(),
            chat: self.services.chat.clone(),
            usage: Default::default(),
        };
        let mut conn = self.superuser_conn().await;
        let jobs: Vec<(String, cairn::queue::summarize::SummarizeJob)> =
            self.pending_jobs(&mut conn, cairn::queue::summarize::QUEUE).await;
        for (id, job) in &jobs {
            let ok = cairn::jobs::summarize::process(&ctx, job).await.is_ok();
            Self::finish_job(&mut conn, id, ok).await;
        }
        jobs.len()
    }

    /// [`Self::run_enrichment_with`] the local rules.
    pub async fn run_enrichment(&self) -> usize {
        self.run_enrichment_with(cairn::jobs::enrich::Extractor::Local).await
    }

    /// The queued embedding jobs' payloads, oldest first.
    pub async fn queued_jobs(&self) -> Vec<serde_json::Value> {
        let mut conn = self.superuser_conn().await;
        sqlx::query_scalar("SELECT job::jsonb FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at, id")
            .bind(cairn::queue::embed::QUEUE)
            .fetch_all(&mut conn)
            .await
            .unwrap()
    }
}

/// A timestamp field of a response.
pub fn time(v: &serde_json::Value) -> chrono::DateTime<chrono::Utc> {
    v.as_str().expect("a timestamp").parse().unwrap()
}

/// Begins a transaction as the server's role (`cairn_app`), with `tenant` set when given.
pub async fn app_role_tx(conn: &mut PgConnection, tenant: Option<Uuid>) -> sqlx::Transaction<'_, sqlx::Postgres> {
    let mut tx = conn.begin().await.unwrap();
    tx.execute(format!("SET LOCAL citus.propagate_set_commands = 'local'; SET LOCAL ROLE {}", app_role()).as_str())
        .await
        .unwrap();
    if let Some(tenant) = tenant {
        tx.execute(format!("SET LOCAL app.tenant_id = '{tenant}'").as_str()).await.unwrap();
    }
    tx
}
