//! SQL, one file per table family, and the tenant boundary.
//!
//! The server holds two pools: `owner` on `DATABASE_URL` (migrations and the control plane: tenants, keys)
//! and `app` on `CAIRN_APP_DATABASE_URL`, a login role that is a member of `cairn_app` only: NOINHERIT, its
//! connections `SET ROLE cairn_app` as soon as they open (and cannot `RESET ROLE` to anything more); or
//! INHERIT, it holds `cairn_app`'s privileges itself and stays itself (what Citus needs). Tenant data is only reachable
//! through a [`TenantTx`]: an `app` transaction with `app.tenant_id` and its statement timeout set by
//! `SET LOCAL` ([`set_local`]), so the settings die with the transaction and can never leak to the next borrower
//! of the connection. `SET LOCAL`, not `set_config(.., true)`: Citus forwards `SET LOCAL` to its workers (with
//! `citus.propagate_set_commands = 'local'`) and not `set_config`, and one code path serves both.

pub mod admins;
pub mod audit;
pub mod consolidation;
pub mod distribute;
pub mod embedding;
pub mod enrichment;
pub mod entities;
pub mod evals;
pub mod events;
pub mod lifecycle;
pub mod memories;
pub mod queue;
pub mod recall;
pub mod relations;
pub mod replica;
pub mod stats;
pub mod tenants;
pub mod terms;
pub mod transfer;
pub mod trash;
pub mod usage;
pub mod webhooks;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use secrecy::ExposeSecret;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Executor, PgConnection, PgPool, Postgres, Transaction};
use uuid::Uuid;

use crate::config::DbSettings;
use crate::error::Error;

/// The role tenant queries run as. Created by the first migration.
pub const APP_ROLE: &str = "cairn_app";

/// The tables under row-level security (the isolation test fails when one is missing).
pub const TENANT_TABLES: &[&str] = &[
    "memories",
    "relations",
    "entities",
    "entity_aliases",
    "memory_entities",
    "memory_events",
    "consolidation_runs",
    "eval_probe_sets",
    "eval_runs",
    "webhook_endpoints",
    "webhook_deliveries",
    "memory_trash",
    "memory_counts",
    "embed_outbox",
    "tenant_usage_delta",
    "tenant_usage",
];

/// Both pools of one deployment.
#[derive(Clone, Debug)]
pub struct Db {
    owner: PgPool,
    app: PgPool,
    /// Tenant transactions opened by this process, and how many of them were read-only snapshots.
    opened: Arc<TransactionCounts>,
    /// Open while Postgres is known to be unreachable: tenant transactions then fail at once.
    breaker: Arc<Breaker>,
    /// The same for the owner pool's lookups on the request path (API keys, tenant standing).
    owner_breaker: Arc<Breaker>,
    /// Each tenant transaction's `statement_timeout` (requests; [`Db::for_jobs`] has the jobs' one).
    statement_timeout_ms: u64,
    job_statement_timeout_ms: u64,
    /// When a job still marked running counts as lost (`CAIRN_JOB_STALE_AFTER_SECS`).
    job_stale_after: Duration,
    /// The tenant pool logs in as the owner (no `CAIRN_APP_DATABASE_URL`): fine for the control-plane CLI,
    /// refused by [`Db::check_app_role`].
    shared_login: bool,
    /// Read replicas (`CAIRN_READ_DATABASE_URL`), when there are any.
    replicas: Option<Arc<replica::Replicas>>,
    /// Whether the database runs Citus, once asked.
    citus: Arc<tokio::sync::OnceCell<bool>>,
    /// Whether [`Db::share_snapshot`] shares (`CAIRN_DB_SHARE_SNAPSHOTS`).
    share_snapshots: bool,
    /// A spare connection of the tenant pool is being opened ([`Db::share_snapshot`]).
    opening_spare: Arc<AtomicBool>,
}

/// Why a scoped key or token cannot act on a Citus deployment.
pub const SCOPED_ON_CITUS: &str = "scoped keys and tokens are not available on this deployment: it runs on Citus, \
    which refuses the row-level security policies that enforce a scope (their subqueries); use an unscoped key";

/// Tenant transactions a process has opened (for operators, and for tests that check how many a use case
/// needs).
#[derive(Debug, Default)]
pub struct TransactionCounts {
    pub tenant: AtomicU64,
    pub snapshots: AtomicU64,
    /// Second transactions on a snapshot already open ([`Db::share_snapshot`]), not counted above.
    pub shared: AtomicU64,
}

impl Db {
    /// Opens both pools lazily: the server starts (and answers 503) while Postgres is unreachable, and
    /// recovers by itself when it returns.
    pub fn connect_lazy(args: &DbSettings) -> anyhow::Result<Self> {
        let options: PgConnectOptions =
            args.owner_url.expose_secret().parse().context("DATABASE_URL is not a valid Postgres URL")?;
        let options = options.application_name("cairn");
        let pool = || {
            PgPoolOptions::new()
                .max_connections(args.max_connections)
                .acquire_timeout(args.acquire_timeout)
                .idle_timeout(Duration::from_secs(300))
        };
        let owner = pool().connect_lazy_with(options);
        let app_options: PgConnectOptions = match &args.app_url {
            Some(url) => url.expose_secret().parse().context("CAIRN_APP_DATABASE_URL is not a valid Postgres URL")?,
            None => args.owner_url.expose_secret().parse().context("DATABASE_URL is not a valid Postgres URL")?,
        };
        // A NOINHERIT login holds no privilege of its own and becomes cairn_app on each connection; an INHERIT
        // login that is a member of cairn_app only holds its privileges already and stays itself, which Citus
        // needs (its coordinator connects to the workers as the current role, and cairn_app cannot log in).
        // The owner's login (one-off commands without a tenant login) always becomes cairn_app.
        let shared_login = args.app_url.is_none();
        let app_pool = move || {
            pool().after_connect(move |conn, _meta| {
                Box::pin(async move {
                    let inherit: bool =
                        sqlx::query_scalar("SELECT rolinherit FROM pg_roles WHERE rolname = session_user")
                            .fetch_one(&mut *conn)
                            .await?;
                    if shared_login || !inherit {
                        conn.execute(format!("SET ROLE {APP_ROLE}").as_str()).await?;
                    }
                    Ok(())
                })
            })
        };
        let app = app_pool().connect_lazy_with(app_options.application_name("cairn"));
        let mut read_options = Vec::new();
        for url in &args.read_urls {
            let options: PgConnectOptions = url
                .expose_secret()
                .parse()
                .context("CAIRN_READ_DATABASE_URL holds a URL that is not a valid Postgres URL")?;
            read_options.push(options);
        }
        let replicas = (!read_options.is_empty()).then(|| {
            let replicas =
                Arc::new(replica::Replicas::new(&read_options, app_pool, args.connect_timeout, args.read_max_lag));
            if tokio::runtime::Handle::try_current().is_ok() {
                replicas.monitor();
            }
            replicas
        });
        let connect_timeout = args.connect_timeout;
        Ok(Self {
            owner,
            app,
            opened: Arc::default(),
            breaker: Arc::new(Breaker::new(connect_timeout)),
            owner_breaker: Arc::new(Breaker::new(connect_timeout)),
            statement_timeout_ms: args.statement_timeout_ms,
            job_statement_timeout_ms: args.job_statement_timeout_ms,
            job_stale_after: args.job_stale_after,
            shared_login,
            replicas,
            citus: Arc::default(),
            share_snapshots: args.share_snapshots,
            opening_spare: Arc::default(),
        })
    }

    /// Whether the database runs Citus (asked once per process).
    pub async fn is_citus(&self) -> Result<bool, Error> {
        Ok(*self.citus.get_or_try_init(|| distribute::is_citus(&self.owner)).await?)
    }

    /// Refuses a scoped key's transaction on Citus (403, [`SCOPED_ON_CITUS`]): the policies that hide what lies
    /// outside a scope are not there (`distribute` replaces them with ones that hide everything from a scope).
    async fn refuse_scope_on_citus(&self, who: &TxFor) -> Result<(), Error> {
        if who.scope.is_some() && self.is_citus().await? {
            return Err(Error::Forbidden(SCOPED_ON_CITUS.to_owned()));
        }
        Ok(())
    }

    /// The same pools, whose tenant transactions get the background jobs' statement timeout.
    pub fn for_jobs(&self) -> Self {
        Self { statement_timeout_ms: self.job_statement_timeout_ms, ..self.clone() }
    }

    /// How long a job may stay marked running before the expiry pass hands it back to its queue.
    pub fn job_stale_after(&self) -> Duration {
        self.job_stale_after
    }

    /// The owner pool's breaker, for lookups on the request path (see [`Breaker`]; the tenant pool has its own).
    pub fn owner_breaker(&self) -> Arc<Breaker> {
        self.owner_breaker.clone()
    }

    /// The owner pool: control-plane tables only. Never use it for tenant data.
    pub fn owner(&self) -> &PgPool {
        &self.owner
    }

    /// Applies pending migrations: apalis's job tables (schema `apalis`) first, then Cairn's. Both record
    /// themselves in `_sqlx_migrations`, so each ignores the other's entries. On Citus, then distributes what
    /// is not yet distributed ([`distribute`]); returns the distribution steps taken (none on plain Postgres).
    pub async fn migrate(&self) -> anyhow::Result<Vec<String>> {
        let citus = distribute::is_citus(&self.owner).await?;
        let mut conn = self.owner.acquire().await?;
        if citus {
            // On Citus the migrations create objects on the coordinator only; what the distributed tables
            // need follows them to the workers when they are distributed, sent by Citus as its superuser (sent
            // within the migration's transaction they would go as the owner, whom the workers refuse to
            // re-create roles and extensions).
            conn.execute("SET citus.create_object_propagation = 'deferred'").await?;
        }
        let mut apalis = apalis_sql::postgres::PostgresStorage::migrations();
        apalis.set_ignore_missing(true);
        apalis.run(&mut *conn).await.context("running the job queue's migrations")?;
        let mut cairn = sqlx::migrate!("./migrations");
        cairn.set_ignore_missing(true);
        cairn.run(&mut *conn).await.context("running migrations")?;
        if !citus {
            return Ok(Vec::new());
        }
        conn.execute("RESET citus.create_object_propagation").await?;
        drop(conn);
        let steps = distribute::distribute(&self.owner).await.context("distributing the tables (Citus)")?;
        for step in &steps {
            tracing::info!(step = %step, "citus: distributed");
        }
        Ok(steps)
    }

    /// A pool for the job queue's own tables (owner connection; never tenant data).
    /// Each pool's name, open connections and idle ones (for `/metrics`).
    pub fn pool_stats(&self) -> [(&'static str, u32, usize); 2] {
        [("owner", self.owner.size(), self.owner.num_idle()), ("app", self.app.size(), self.app.num_idle())]
    }

    pub fn queue_pool(&self) -> PgPool {
        self.owner.clone()
    }

    /// Refuses to go on unless tenant queries run as a role that row-level security binds, from a login
    /// that cannot reach more: the tenant pool logs in (`CAIRN_APP_DATABASE_URL`) as a role that is not
    /// superuser, BYPASSRLS, CREATEROLE or REPLICATION and is a member of `cairn_app` only — NOINHERIT (its
    /// connections `SET ROLE cairn_app`) or INHERIT (it holds cairn_app's privileges itself, as Citus needs) —
    /// and `cairn_app` owns no tenant table. (A login as the owner could `RESET ROLE`; any other membership
    /// could `SET ROLE` or lend its privileges.)
    pub async fn check_app_role(&self) -> anyhow::Result<()> {
        if self.shared_login {
            bail!(
                "refusing to start: CAIRN_APP_DATABASE_URL is not set, so tenant queries would log in as \
                 DATABASE_URL's user, which owns the tables and could RESET ROLE; set it to a login \
                 role that is a member of {APP_ROLE} only (scripts/setup.sh creates cairn_login; see deploy/README.md)"
            );
        }
        let mut conn = self.app.acquire().await.context("connecting as the application role")?;
        let (current, login, superuser, bypass, createrole, inherit, replication): (
            String,
            String,
            bool,
            bool,
            bool,
            bool,
            bool,
        ) = sqlx::query_as(
            "SELECT current_user::text, session_user::text, rolsuper, rolbypassrls, rolcreaterole, rolinherit,
                    rolreplication
               FROM pg_roles WHERE rolname = session_user",
        )
        .fetch_one(&mut *conn)
        .await?;
        let (app_superuser, app_bypass): (bool, bool) =
            sqlx::query_as("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
                .fetch_one(&mut *conn)
                .await?;
        let owners: Vec<String> = sqlx::query_scalar(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()
               AND tablename = ANY($1) AND pg_has_role(session_user, tableowner, 'MEMBER')",
        )
        .bind(TENANT_TABLES)
        .fetch_all(&mut *conn)
        .await?;
        // Privileges or schemas of the login's own would apply to tenant queries (an INHERIT login stays
        // itself; a schema named after it comes first on the default search_path).
        let own: Vec<String> = sqlx::query_scalar(
            "SELECT 'schema ' || nspname FROM pg_namespace WHERE pg_has_role(session_user, nspowner, 'MEMBER')
             UNION ALL
             SELECT DISTINCT 'grants on ' || table_name FROM information_schema.role_table_grants
              WHERE grantee = session_user::text
             ORDER BY 1",
        )
        .fetch_all(&mut *conn)
        .await?;
        let others: Vec<String> = sqlx::query_scalar(
            "SELECT rolname::text FROM pg_roles
              WHERE pg_has_role(session_user, oid, 'MEMBER') AND rolname NOT IN (session_user, $1) ORDER BY 1",
        )
        .bind(APP_ROLE)
        .fetch_all(&mut *conn)
        .await?;
        // An INHERIT login stays itself and must hold cairn_app's privileges by that membership.
        let holds_app: bool = sqlx::query_scalar("SELECT pg_has_role(session_user, $1, 'USAGE')")
            .bind(APP_ROLE)
            .fetch_one(&mut *conn)
            .await?;
        let expected = if inherit { login.as_str() } else { APP_ROLE };
        let problems: Vec<String> = [
            (current != expected).then(|| format!("runs as {current:?}, not {expected}")),
            (inherit && !holds_app).then(|| format!("is not a member of {APP_ROLE}")),
            superuser.then(|| "is superuser".to_owned()),
            bypass.then(|| "has BYPASSRLS".to_owned()),
            createrole.then(|| "has CREATEROLE".to_owned()),
            replication.then(|| "has REPLICATION".to_owned()),
            (app_superuser || app_bypass).then(|| format!("{APP_ROLE} is superuser or BYPASSRLS")),
            (!owners.is_empty()).then(|| format!("reaches the owner of {}", owners.join(", "))),
            (!others.is_empty()).then(|| format!("is also a member of {}", others.join(", "))),
            (!own.is_empty()).then(|| format!("holds {} of its own", own.join(", "))),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !problems.is_empty() {
            bail!(
                "refusing to start: the tenant pool's login role {login:?} {}; row-level security must bind \
                 every tenant query",
                problems.join("; ")
            );
        }
        Ok(())
    }

    /// Refuses to go on when the database's vector column has another dimension than `expected`.
    pub async fn check_embedding_dimension(&self, expected: usize) -> anyhow::Result<()> {
        // Every vector column of `memories` (the runs of sentences' too: a migration of the others alone would fail
        // every embedding batch that holds a memory with runs).
        let declared: Vec<(String, i32)> = sqlx::query_as(
            "SELECT attname::text, atttypmod FROM pg_attribute
              WHERE attrelid = 'memories'::regclass
                AND attname IN ('embedding', 'context_embedding', 'sentence_embeddings') ORDER BY attname",
        )
        .fetch_all(&self.owner)
        .await?;
        for (column, dim) in declared {
            if dim > 0 && dim as usize != expected {
                bail!(
                    "the database stores {dim}-dimensional vectors in memories.{column} but CAIRN_EMBEDDING_DIM is \
                     {expected}; a different dimension needs a migration of memories.embedding, context_embedding \
                     and sentence_embeddings (and a reembed)"
                );
            }
        }
        Ok(())
    }

    /// Opens a transaction scoped to one tenant (and to the acting key's scope, when `who` has one). The only
    /// way to reach tenant data.
    #[tracing::instrument(skip_all, fields(tenant_id), err(Debug))]
    pub async fn begin_tenant(&self, who: impl Into<TxFor>) -> Result<TenantTx, Error> {
        self.begin_as(who.into(), None).await
    }

    /// A tenant transaction for writes no client reads back at once (recall's access counts): with read
    /// replicas its commit is not recorded, so the tenant's next reads are not held to the primary waiting for
    /// a replica to replay it.
    pub async fn begin_tenant_unobserved(&self, who: impl Into<TxFor>) -> Result<TenantTx, Error> {
        let mut tx = self.begin_as(who.into(), None).await?;
        tx.written = None;
        Ok(tx)
    }

    /// A read-only tenant transaction on one consistent snapshot (repeatable read): every query of a
    /// recall sees the tenant as it was at its first query, whatever commits meanwhile.
    #[tracing::instrument(skip_all, err(Debug))]
    pub async fn begin_snapshot(&self, who: impl Into<TxFor>) -> Result<TenantTx, Error> {
        self.begin_as(who.into(), Some("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")).await
    }

    /// A read-only snapshot of the tenant for a read that may be served by a replica: one that has replayed
    /// this instance's last commit for the tenant and the client's consistency token (`after`), else the
    /// primary ([`Db::begin_snapshot`]). Only for reads that write nothing.
    #[tracing::instrument(skip_all, err(Debug))]
    pub async fn begin_read(&self, who: impl Into<TxFor>, after: Option<replica::Lsn>) -> Result<TenantTx, Error> {
        let who = who.into();
        self.refuse_scope_on_citus(&who).await?;
        let tenant_id = who.tenant_id;
        if let Some(replicas) = self.replicas.as_ref().filter(|r| !r.pinned(tenant_id)) {
            let needed = replicas.written(tenant_id).max(after.unwrap_or(0));
            let settings = self.tenant_settings(&who, true);
            if let Some(tx) = replicas.begin(needed, &settings).await {
                self.opened.tenant.fetch_add(1, Ordering::Relaxed);
                self.opened.snapshots.fetch_add(1, Ordering::Relaxed);
                let scoped = who.scope.is_some();
                let ef_search = Some(SNAPSHOT_EF_SEARCH);
                // A replica's snapshot is not shared (exporting one needs a primary).
                let (written, shareable) = (None, None);
                return Ok(TenantTx { tx, tenant_id, embeds_noted: false, written, scoped, ef_search, shareable });
            }
        }
        self.begin_snapshot(who).await
    }

    /// The read replicas, when there are any.
    pub fn replicas(&self) -> Option<&Arc<replica::Replicas>> {
        self.replicas.as_ref()
    }

    /// The token a client passes to read its writes of `tenant` from any instance (the position of this
    /// instance's last commit for it), while a replica may not have it yet; None without replicas.
    pub fn consistency_token(&self, tenant_id: Uuid) -> Option<String> {
        let written = self.replicas.as_ref()?.written(tenant_id);
        (written > 0).then(|| replica::format_lsn(written))
    }

    /// Tenant transactions opened so far by this process: (all, read-only snapshots).
    pub fn transactions_opened(&self) -> (u64, u64) {
        (self.opened.tenant.load(Ordering::Relaxed), self.opened.snapshots.load(Ordering::Relaxed))
    }

    /// Whether recalls may share their snapshots ([`Db::share_snapshot`], `CAIRN_DB_SHARE_SNAPSHOTS`).
    pub fn shares_snapshots(&self) -> bool {
        self.share_snapshots
    }

    /// Second transactions opened so far on a snapshot already open ([`Db::share_snapshot`]).
    pub fn snapshots_shared(&self) -> u64 {
        self.opened.shared.load(Ordering::Relaxed)
    }

    /// Whether the tenant pool holds a connection a second transaction may take while one more stays idle for
    /// everyone else ([`Db::share_snapshot`]).
    fn spare_idle(&self) -> bool {
        self.app.num_idle() >= 2
    }

    /// Opens one more connection of the tenant pool in the background and leaves it idle, when fewer than two
    /// are idle, the pool may still grow, and no other is being opened: a snapshot not shared for want of one
    /// finds it next time. (The pool grows only as connections are asked for: one client asking in turn
    /// keeps it at the one or two its requests hold at once.) Bounded by the connect timeout, so it never
    /// queues for long behind requests that wait for a connection.
    fn spare_connection(&self) {
        let pool = &self.app;
        if self.spare_idle()
            || pool.size() >= pool.options().get_max_connections()
            || self.opening_spare.swap(true, Ordering::AcqRel)
        {
            return;
        }
        let (pool, opening, timeout) = (pool.clone(), self.opening_spare.clone(), self.breaker.connect_timeout);
        tokio::spawn(async move {
            // Two held at once, then both returned: an idle one taken first makes the second a new one.
            let two = async { Ok::<_, sqlx::Error>((pool.acquire().await?, pool.acquire().await?)) };
            match tokio::time::timeout(timeout, two).await {
                Ok(Ok(_idle_again)) => {}
                Ok(Err(err)) => tracing::debug!(error = %err, "could not open a spare connection"),
                Err(_) => tracing::debug!("no spare connection within the connect timeout"),
            }
            opening.store(false, Ordering::Release);
        });
    }

    /// Readies a second read-only transaction on `tx`'s snapshot, so that a statement can run beside `tx`'s
    /// own on another connection (recall's vector probe beside its keyword search) and still read the tenant
    /// exactly as `tx` does: `tx`'s snapshot is exported (`pg_export_snapshot`, one round trip on `tx`);
    /// [`SharedSnapshot::open`] imports it on an idle connection while `tx` is still open. None, and nothing
    /// done on `tx`, where it is turned off (`CAIRN_DB_SHARE_SNAPSHOTS`, off by default) or cannot be had
    /// cheaply: `tx` is not a snapshot of the primary (a replica's, or a read-write transaction), the database
    /// runs Citus (its workers would not see an imported snapshot; until that is known, nothing is shared), or
    /// fewer than two connections are idle (one is left for other requests; under load a recall's statements
    /// run one after the other on `tx`, as without this, and no request waits for a second connection).
    ///
    /// A failed export fails `tx` (Postgres exports no snapshot from a savepoint, so it cannot be isolated):
    /// it fails only where the database itself does.
    pub async fn share_snapshot(&self, tx: &mut TenantTx) -> Result<Option<SharedSnapshot>, Error> {
        let Some(who) = tx.shareable.clone().filter(|_| self.share_snapshots) else {
            return Ok(None);
        };
        match self.citus.get() {
            Some(false) => {}
            Some(true) => return Ok(None),
            None => {
                // Asked once, in the background: a recall does not wait on the owner pool for it.
                let db = self.clone();
                tokio::spawn(async move { db.is_citus().await });
                return Ok(None);
            }
        }
        if !self.spare_idle() {
            self.spare_connection();
            return Ok(None);
        }
        let id: String = sqlx::query_scalar("SELECT pg_export_snapshot()").fetch_one(tx.conn()).await?;
        // Written into a statement (SET TRANSACTION takes no parameter): Postgres' own identifier, hex digits
        // and hyphens; anything else is not imported.
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
            tracing::warn!(snapshot = %id, "an exported snapshot's identifier was not as expected; not shared");
            return Ok(None);
        }
        Ok(Some(SharedSnapshot { db: self.clone(), id, who }))
    }

    /// Opens a transaction (with `begin`, a BEGIN statement of its own: one round trip, not two) and sets
    /// its tenant.
    async fn begin_as(&self, who: TxFor, begin: Option<&'static str>) -> Result<TenantTx, Error> {
        tracing::Span::current().record("tenant_id", tracing::field::display(who.tenant_id));
        self.refuse_scope_on_citus(&who).await?;
        self.breaker.guard(&self.app, self.open_tenant_tx(who, begin)).await
    }

    async fn open_tenant_tx(&self, who: TxFor, begin: Option<&'static str>) -> Result<TenantTx, sqlx::Error> {
        self.opened.tenant.fetch_add(1, Ordering::Relaxed);
        let mut tx = match begin {
            Some(statement) => {
                self.opened.snapshots.fetch_add(1, Ordering::Relaxed);
                crate::store::begin(&self.app, Some(statement)).await?
            }
            None => crate::store::begin(&self.app, None).await?,
        };
        set_local(&mut tx, &self.tenant_settings(&who, begin.is_some())).await?;
        // A read-write transaction on the primary records where its commit ends, for the replicas.
        let written = match (&self.replicas, begin) {
            (Some(replicas), None) => Some((replicas.clone(), self.app.clone())),
            _ => None,
        };
        let (tenant_id, scoped) = (who.tenant_id, who.scope.is_some());
        let ef_search = begin.map(|_| SNAPSHOT_EF_SEARCH);
        // Every read-only snapshot of the primary can be shared.
        let shareable = begin.map(|_| who);
        Ok(TenantTx { tx, tenant_id, embeds_noted: false, written, scoped, ef_search, shareable })
    }

    /// The settings of a tenant transaction (`snapshot`: a read-only one).
    fn tenant_settings(&self, who: &TxFor, snapshot: bool) -> Vec<(&'static str, Local)> {
        // Every statement is bounded: Postgres cancels one that runs past the timeout (the caller answers
        // 503), so it stops working for a client that is gone.
        let mut settings = vec![
            PROPAGATE,
            ("app.tenant_id", Local::Uuid(who.tenant_id)),
            ("statement_timeout", Local::Number(self.statement_timeout_ms)),
            // No JIT compilation: a tenant's statements read few rows, and compiling one whose estimate passes
            // `jit_above_cost` costs more than running it (the chain heads' custom plan at 100k memories: 40 ms
            // with JIT, 2 ms without). Postgres' default is on; a deployment need not remember to turn it off.
            ("jit", Local::Word("off")),
        ];
        // Row-level security hides what lies outside a scoped key's scope (migration 0037); without a scope the
        // setting stays empty (a pooled connection's earlier value died with its transaction).
        if let Some(scope) = &who.scope {
            settings.push(("app.scope", Local::Hex(scope.clone())));
        }
        if snapshot {
            // Recall's vector search: an iterative scan, so filters never leave it short (`TenantTx::ef_search`).
            settings.extend(hnsw_settings(SNAPSHOT_EF_SEARCH));
        }
        settings
    }

    /// Whether the database answers, within `timeout`.
    pub async fn ping(&self, timeout: Duration) -> bool {
        matches!(tokio::time::timeout(timeout, sqlx::query("SELECT 1").execute(&self.owner)).await, Ok(Ok(_)))
    }
}

/// First among the settings of a tenant transaction: on Citus, the settings after it reach the workers that
/// the transaction's statements run on (row-level security there needs the tenant); on plain Postgres it is an
/// inert placeholder.
pub(crate) const PROPAGATE: (&str, Local) = ("citus.propagate_set_commands", Local::Word("local"));

/// A value [`set_local`] writes. `SET` takes no bind parameter, so the value is written into the statement,
/// and only these can be: a parsed UUID (its text is hex digits and hyphens), a number, a word of the
/// code's own (a constant, never text from a request), or hex digits (anything else, encoded).
#[derive(Debug, Clone)]
pub enum Local {
    Uuid(Uuid),
    Number(u64),
    Word(&'static str),
    Hex(String),
}

impl Local {
    fn literal(&self) -> String {
        match self {
            Self::Uuid(id) => format!("'{}'", id.hyphenated()),
            Self::Number(n) => n.to_string(),
            Self::Hex(hex) => {
                assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()), "a SET LOCAL hex value must be hex digits");
                format!("'{hex}'")
            }
            Self::Word(word) => {
                assert!(
                    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                    "a SET LOCAL word must be plain: {word:?}"
                );
                (*word).to_owned()
            }
        }
    }
}

/// Opens a transaction on a connection of `pool` (`statement`: a BEGIN of its own), safe to cancel.
///
/// sqlx's own `begin` is not: on Postgres it counts the transaction only once `BEGIN` has answered, so a
/// request dropped while `BEGIN` is in flight (a client that hangs up, a timeout) leaves the session inside
/// a transaction nothing rolls back, and the pool hands it to the next borrower, who runs in it (transact-rs/sqlx#4393,
/// in 0.8.6 and 0.9.0; found here as a 500: a write landed in a read-only recall snapshot left open by a
/// reload). The `BEGIN` runs in a task of its own, which finishes whoever waits for it: a transaction no one
/// takes is dropped there, counted, and so rolled back.
pub async fn begin(
    pool: &PgPool,
    statement: Option<&'static str>,
) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
    begin_on(pool.acquire().await?, statement).await
}

/// [`begin`] on a connection already taken from its pool.
pub async fn begin_on(
    conn: sqlx::pool::PoolConnection<Postgres>,
    statement: Option<&'static str>,
) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
    let begin = Transaction::begin(sqlx::pool::MaybePoolConnection::PoolConnection(conn), statement.map(Into::into));
    match tokio::spawn(begin).await {
        Ok(tx) => tx,
        Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
        Err(_) => Err(sqlx::Error::PoolClosed), // the runtime is shutting down
    }
}

/// Sets `settings` for the current transaction only (`SET LOCAL`), in one round trip. Call it inside a
/// transaction: outside one Postgres only warns and sets nothing. Names are the code's own
/// constants (`app.tenant_id`, `statement_timeout`, `hnsw.ef_search`...).
pub async fn set_local(conn: &mut PgConnection, settings: &[(&'static str, Local)]) -> Result<(), sqlx::Error> {
    let mut sql = String::new();
    for (name, value) in settings {
        sql.push_str(&local_statement(name, value));
    }
    // A statement without arguments goes by the simple protocol, which takes several at once.
    conn.execute(sql.as_str()).await?;
    Ok(())
}

/// `SET LOCAL name = value;` for [`set_local`].
fn local_statement(name: &'static str, value: &Local) -> String {
    assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.'), "setting {name:?}");
    format!("SET LOCAL {name} = {};", value.literal())
}

/// The 503 message of an unreachable database.
pub const UNAVAILABLE: &str = "database unavailable, retry later";

/// Fails requests fast while Postgres is known to be unreachable through one pool (one breaker for tenant
/// transactions, one for the key and tenant lookups of authentication). Without it every request of an
/// outage waited the whole acquire timeout before its 503 (sqlx retries the connection until then): 3.0 s
/// each in the fault test, so clients and their retries piled up. After a connection failure the breaker is
/// open: transactions fail at once, except one caller at a time that probes (and may wait the acquire
/// timeout); the first probe that gets through closes it. Hand-written (a few lines): the breaker crates
/// count failure rates, where here one refused connection is the signal and one success the all-clear.
#[derive(Debug)]
pub struct Breaker {
    open: AtomicBool,
    probing: AtomicBool,
    /// How long guarded work may take while its pool is not busy (see [`Breaker::guard`]).
    connect_timeout: Duration,
}

impl Default for Breaker {
    fn default() -> Self {
        Self::new(Duration::from_millis(1_500))
    }
}

impl Breaker {
    pub fn new(connect_timeout: Duration) -> Self {
        Self { open: AtomicBool::new(false), probing: AtomicBool::new(false), connect_timeout }
    }

    /// Lets the caller try the database: always while closed; while open only one caller at a time (the
    /// probe, released when its [`Admission`] drops, also when its request is cancelled), and everyone else
    /// gets an `Unavailable` error at once.
    fn admit(&self) -> Result<Admission<'_>, Error> {
        if !self.open.load(Ordering::Acquire) {
            return Ok(Admission { breaker: self, probing: false });
        }
        if self.probing.swap(true, Ordering::AcqRel) {
            return Err(Error::Unavailable(UNAVAILABLE.into()));
        }
        Ok(Admission { breaker: self, probing: true })
    }

    /// Runs `work` on `pool` (a store call) through the breaker: at once a 503 while it is open (unless this
    /// caller probes), and opens it when `work` could not reach the database; any other outcome closes it.
    ///
    /// Guarded work (a connection checked or connected, a transaction begun, a key looked up) is short. When
    /// it has not finished within the connect timeout and the pool is not busy (a connection is free, or one
    /// could be opened), the database counts as unreachable: a black-holed network, where nothing is refused
    /// and a pooled connection's ping or a new connection's handshake would hang until the acquire timeout
    /// or far longer, answers 503 within that time. (sqlx 0.8 cannot set TCP keepalive on its sockets; this
    /// deadline stands in for it and for a connect timeout.) A busy pool is load, not an outage: the work
    /// then waits on for its turn, up to the acquire timeout.
    pub async fn guard<T, E: Into<Error>>(
        &self,
        pool: &PgPool,
        work: impl std::future::Future<Output = Result<T, E>>,
    ) -> Result<T, Error> {
        let _admission = self.admit()?;
        let mut work = std::pin::pin!(work);
        let outcome = match tokio::time::timeout(self.connect_timeout, &mut work).await {
            Ok(done) => done.map_err(Into::into),
            Err(_) if pool.num_idle() == 0 && pool.size() >= pool.options().get_max_connections() => {
                work.await.map_err(Into::into)
            }
            Err(_) => {
                tracing::warn!(
                    timeout_ms = self.connect_timeout.as_millis() as u64,
                    "the database did not answer within the connect timeout"
                );
                Err(Error::Unavailable(UNAVAILABLE.into()))
            }
        };
        // A timeout while the pool is full is load, not an outage.
        let unreachable = matches!(&outcome, Err(Error::Unavailable(m)) if m == UNAVAILABLE)
            && pool.size() < pool.options().get_max_connections();
        if unreachable != self.open.swap(unreachable, Ordering::AcqRel) {
            if unreachable {
                tracing::warn!("the database is unreachable: requests fail fast until a probe gets through");
            } else {
                tracing::info!("the database answers again");
            }
        }
        outcome
    }
}

/// A caller let through by the [`Breaker`]; the probe's turn ends when it drops.
struct Admission<'a> {
    breaker: &'a Breaker,
    probing: bool,
}

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        if self.probing {
            self.breaker.probing.store(false, Ordering::Release);
        }
    }
}

/// A transaction in which row-level security sees exactly one tenant's rows.
pub struct TenantTx {
    tx: Transaction<'static, Postgres>,
    tenant_id: Uuid,
    /// A statement ran that may have noted memories for embedding (`embed_outbox`): they are queued at commit.
    embeds_noted: bool,
    /// With read replicas, a read-write transaction on the primary: where its commit ends is recorded (with
    /// the primary's tenant pool, which tells it).
    written: Option<(Arc<replica::Replicas>, PgPool)>,
    /// A scoped key's transaction: rows outside its scope are hidden.
    scoped: bool,
    /// The `hnsw.ef_search` set for the transaction with `hnsw.iterative_scan = relaxed_order` (a read-only
    /// snapshot sets [`SNAPSHOT_EF_SEARCH`] as it begins), so that a vector search sets them only when it
    /// needs other values: a round trip less for most recalls.
    ef_search: Option<u64>,
    /// A read-only snapshot of the primary: whose it is, for a second transaction on it
    /// ([`Db::share_snapshot`]).
    shareable: Option<TxFor>,
}

/// A snapshot exported for a second transaction on it ([`Db::share_snapshot`]); open that while the
/// transaction that exported it is still open.
pub struct SharedSnapshot {
    db: Db,
    /// The exported snapshot's identifier (hex digits and hyphens, checked).
    id: String,
    /// Whose snapshot it is: the second transaction begins with the settings the first began with (tenant,
    /// scope, timeouts, the vector search's). A transaction whose row-level security settings change after it
    /// begins is not shareable.
    who: TxFor,
}

impl SharedSnapshot {
    /// Opens the transaction on a connection idle now (None where fewer than two are: one stays for other
    /// requests): read-only, repeatable read, on the exported snapshot, with the tenant and settings of the
    /// transaction it shares, so row-level security binds it to the same tenant and scope. Two round trips,
    /// within the connect timeout (an idle connection is not checked before it is handed out, and one the
    /// network dropped would otherwise hang here).
    pub async fn open(self) -> Result<Option<TenantTx>, Error> {
        if !self.db.spare_idle() {
            return Ok(None);
        }
        let Some(conn) = self.db.app.try_acquire() else {
            return Ok(None);
        };
        let timeout = self.db.breaker.connect_timeout;
        let opened = tokio::time::timeout(timeout, async {
            let mut tx = begin_on(conn, Some("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")).await?;
            // First in the transaction, as Postgres requires; then its settings, in the same round trip.
            let mut sql = format!("SET TRANSACTION SNAPSHOT '{}';", self.id);
            for (name, value) in &self.db.tenant_settings(&self.who, true) {
                sql.push_str(&local_statement(name, value));
            }
            let conn: &mut PgConnection = &mut tx;
            conn.execute(sql.as_str()).await?;
            Ok::<_, sqlx::Error>(tx)
        });
        let tx = match opened.await {
            Ok(tx) => tx?,
            Err(_) => return Err(Error::Unavailable(UNAVAILABLE.into())),
        };
        self.db.opened.shared.fetch_add(1, Ordering::Relaxed);
        Ok(Some(TenantTx {
            tx,
            tenant_id: self.who.tenant_id,
            embeds_noted: false,
            written: None,
            scoped: self.who.scope.is_some(),
            ef_search: Some(SNAPSHOT_EF_SEARCH),
            shareable: None,
        }))
    }
}

/// The `hnsw.ef_search` every read-only snapshot starts with: what recall's smallest candidate pool asks.
pub const SNAPSHOT_EF_SEARCH: u64 = 50;

/// An iterative HNSW scan (`relaxed_order`, re-sorted by the statement) searching `ef_search` candidates.
fn hnsw_settings(ef_search: u64) -> [(&'static str, Local); 2] {
    [("hnsw.iterative_scan", Local::Word("relaxed_order")), ("hnsw.ef_search", Local::Number(ef_search))]
}

/// Whose transaction a [`TenantTx`] is: a tenant, and the scope of the key acting for it ([`KeyScope::setting`]),
/// None for the whole tenant (the service's own jobs, unscoped keys). `auth::Tenant` converts into one.
///
/// [`KeyScope::setting`]: crate::tenancy::KeyScope::setting
#[derive(Debug, Clone)]
pub struct TxFor {
    pub tenant_id: Uuid,
    pub scope: Option<String>,
}

impl From<Uuid> for TxFor {
    fn from(tenant_id: Uuid) -> Self {
        Self { tenant_id, scope: None }
    }
}

impl TenantTx {
    pub fn tenant_id(&self) -> Uuid {
        self.tenant_id
    }

    /// Whether a scoped key acts: rows outside its scope are hidden from this transaction.
    pub fn is_scoped(&self) -> bool {
        self.scoped
    }

    /// Sets `hnsw.iterative_scan = relaxed_order` and `hnsw.ef_search` for the rest of the transaction, unless
    /// they are set already (a snapshot begins with them): one round trip at most.
    pub(crate) async fn hnsw_search(&mut self, ef_search: u64) -> Result<(), Error> {
        if self.ef_search != Some(ef_search) {
            set_local(self.conn(), &hnsw_settings(ef_search)).await?;
            self.ef_search = Some(ef_search);
        }
        Ok(())
    }

    /// The connection, for queries inside this transaction.
    pub fn conn(&mut self) -> &mut PgConnection {
        &mut self.tx
    }

    /// Records that a statement of this transaction inserted, deleted or moved memories, or changed their
    /// content: the episode trigger may then have noted successors whose context changed, and [`commit`]
    /// queues their embedding. (The trigger runs where the tenant's rows are, a Citus shard, which cannot
    /// reach the job queue; the transaction can.)
    ///
    /// [`commit`]: TenantTx::commit
    pub(crate) fn note_memory_writes(&mut self) {
        self.embeds_noted = true;
    }

    pub async fn commit(mut self) -> Result<(), Error> {
        if self.embeds_noted {
            sqlx::query("SELECT cairn_drain_embed_outbox()").execute(&mut *self.tx).await?;
        }
        self.tx.commit().await?;
        if let Some((replicas, pool)) = self.written {
            // Where the commit ends, for the replicas (one more round trip, on writes with replicas only).
            match replica::primary_position(&pool).await {
                Ok(lsn) => replicas.wrote(self.tenant_id, lsn),
                Err(err) => {
                    // Unknown: the tenant reads from the primary for a while rather than maybe missing it.
                    tracing::warn!(error = %err, "could not read the primary's WAL position after a commit");
                    replicas.pin(self.tenant_id);
                }
            }
        }
        Ok(())
    }

    /// Undoes everything the transaction did (a dry run).
    pub async fn rollback(self) -> Result<(), Error> {
        self.tx.rollback().await?;
        Ok(())
    }
}

/// An error from code that speaks anyhow: a database error keeps its meaning, anything else is internal.
impl From<anyhow::Error> for Error {
    fn from(err: anyhow::Error) -> Self {
        match err.downcast::<sqlx::Error>() {
            Ok(db) => db.into(),
            Err(other) => match other.downcast::<Error>() {
                Ok(domain) => domain,
                Err(other) => Self::Internal(other),
            },
        }
    }
}

impl From<sqlx::Error> for Error {
    fn from(err: sqlx::Error) -> Self {
        if is_unavailable(&err) {
            return Self::Unavailable(UNAVAILABLE.into());
        }
        if let sqlx::Error::Database(db) = &err {
            if matches!(db.code().as_deref(), Some("40P01" | "40001")) {
                return Self::Unavailable("the write conflicted with a concurrent one; retry".into());
            }
            if db.code().as_deref() == Some("57014") {
                tracing::warn!(error = %db.message(), "a statement ran past its timeout and was cancelled");
                return Self::Unavailable(
                    "the request took longer than the database allows and was stopped; narrow it (a smaller \
                     limit, depth or time range) or retry later"
                        .into(),
                );
            }
        }
        if let Some(rejected) = rejected_input(&err) {
            return rejected;
        }
        Self::Internal(anyhow::Error::new(err).context("database query failed"))
    }
}

/// Whether a database error means "the database is unreachable" (retry later) rather than a bug. A
/// protocol error is a connection closed mid-handshake (a proxy or pooler in front of a stopped Postgres
/// accepts, then hangs up: sqlx reads "unexpected response from SSLRequest").
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    matches!(
        err,
        sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
    ) || matches!(err, sqlx::Error::Database(db) if db.code().is_some_and(|c| c.starts_with("57P") || c.starts_with("08")))
}

/// Whether a database error is about the constraint `name`. On Citus the error of a worker arrives without its
/// constraint field, naming the shard's constraint in its message instead (`"tenants_name_key_102008"`), so that
/// name, less its `_<shard id>`, counts too.
pub(crate) fn violates(err: &dyn sqlx::error::DatabaseError, name: &str) -> bool {
    let matches = |found: &str| {
        found == name
            || found
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('_'))
                .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
    };
    match err.constraint() {
        Some(found) => matches(found),
        // The quoted name after "constraint" ("... on table "t_1" violates foreign key constraint "c_1"").
        None => err.message().split("constraint \"").skip(1).filter_map(|rest| rest.split('"').next()).any(matches),
    }
}

/// Safety net for input that validation should already have caught: Postgres refusing a value is the
/// caller's error, never an internal one. Logged, since reaching here means a validation gap.
fn rejected_input(err: &sqlx::Error) -> Option<Error> {
    let sqlx::Error::Database(db) = err else { return None };
    let code = db.code()?;
    let rejected = match code.as_ref() {
        "23505" if violates(db.as_ref(), "memories_tenant_content_hash_key") => Error::Conflict {
            message: "content: a memory with the same content already exists".into(),
            existing_id: None,
        },
        // Unique violations elsewhere, checks, NUL or unencodable characters, out-of-range values. The client
        // learns what kind of value was refused, never Postgres' own text (that goes to the log below).
        "23505" | "23503" | "23514" | "23502" | "22000" | "22021" | "22P05" | "22003" | "22008" | "22007" | "22P02"
        | "54000" => {
            let what = match code.as_ref() {
                "23505" => "a value that must be unique is already taken",
                "23503" => "it refers to something that does not exist",
                "23514" => "a value is out of its allowed range",
                "23502" => "a required value is missing",
                "22021" | "22P05" | "22000" => "text holds characters that cannot be stored (such as NUL)",
                "22003" => "a number is out of range",
                "22008" | "22007" => "a date or time is out of range",
                "54000" => "a value is too large",
                _ => "a value has the wrong form",
            };
            Error::Invalid(format!("body: value rejected by the database: {what}"))
        }
        _ => return None,
    };
    tracing::warn!(code = %code, error = %db.message(), constraint = ?db.constraint(),
        "database rejected input that passed validation");
    Some(rejected)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database error as Postgres (with its constraint) or Citus (the worker's, without it) reports it.
    #[derive(Debug)]
    struct Reported(Option<&'static str>, &'static str);

    impl std::fmt::Display for Reported {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.1)
        }
    }

    impl std::error::Error for Reported {}

    impl sqlx::error::DatabaseError for Reported {
        fn message(&self) -> &str {
            self.1
        }
        fn constraint(&self) -> Option<&str> {
            self.0
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    #[test]
    fn a_constraint_is_recognised_by_its_field_or_on_citus_by_its_shard_name_in_the_message() {
        let plain = Reported(Some("tenants_name_key"), "duplicate key value violates unique constraint");
        assert!(violates(&plain, "tenants_name_key"));
        assert!(!violates(&plain, "tenants_plan_fkey"));
        let citus = Reported(None, r#"duplicate key value violates unique constraint "tenants_name_key_102008""#);
        assert!(violates(&citus, "tenants_name_key"));
        assert!(!violates(&citus, "tenants_name"));
        let fk = Reported(
            None,
            r#"insert or update on table "tenants_102009" violates foreign key constraint "tenants_plan_fkey_102009""#,
        );
        assert!(violates(&fk, "tenants_plan_fkey"));
        assert!(!violates(&fk, "tenants"), "a table's name is not the constraint");
        assert!(!violates(&Reported(None, r#"constraint "tenants_name_key_x1""#), "tenants_name_key"));
    }

    #[test]
    fn set_local_writes_only_typed_values() {
        let id = Uuid::parse_str("0191c6a2-7d4e-7a3b-9c1d-2e3f4a5b6c7d").unwrap();
        assert_eq!(Local::Uuid(id).literal(), "'0191c6a2-7d4e-7a3b-9c1d-2e3f4a5b6c7d'");
        assert_eq!(Local::Number(5000).literal(), "5000");
        assert_eq!(Local::Word("force_custom_plan").literal(), "force_custom_plan");
        for word in ["", "on; RESET ROLE", "'x'", "relaxed order"] {
            let caught = std::panic::catch_unwind(|| Local::Word(word).literal());
            assert!(caught.is_err(), "{word:?} was written into a SET statement");
        }
    }

    fn unreachable() -> Result<(), Error> {
        Err(Error::Unavailable(UNAVAILABLE.into()))
    }

    #[tokio::test]
    async fn the_breaker_opens_on_an_outage_lets_one_probe_through_and_closes_on_success() {
        // A pool that never connected: none of its connections is busy, so a timeout is an outage.
        let pool = PgPoolOptions::new().connect_lazy("postgres://nobody@127.0.0.1:1/none").unwrap();
        let breaker = Breaker::default();
        assert!(breaker.guard(&pool, async { unreachable() }).await.is_err());
        assert!(breaker.open.load(Ordering::Acquire), "an unreachable database opens it");

        // While one probe is out, everyone else fails at once, without trying.
        let probe = breaker.admit().unwrap();
        let tried = AtomicBool::new(false);
        let attempt = async {
            tried.store(true, Ordering::Relaxed);
            Ok::<_, Error>(())
        };
        let refused = breaker.guard(&pool, attempt).await;
        assert!(matches!(refused, Err(Error::Unavailable(_))) && !tried.load(Ordering::Relaxed));
        drop(probe);

        // A probe whose request is cancelled mid-flight hands its turn on.
        let pending = breaker.guard(&pool, std::future::pending::<Result<(), Error>>());
        assert!(tokio::time::timeout(Duration::from_millis(10), pending).await.is_err());
        assert!(!breaker.probing.load(Ordering::Acquire), "a dropped probe releases its turn");

        // The next probe gets through: closed, and everyone may try again.
        breaker.guard(&pool, async { Ok::<_, Error>(()) }).await.unwrap();
        assert!(!breaker.open.load(Ordering::Acquire));
        breaker.guard(&pool, async { Ok::<_, Error>(()) }).await.unwrap();
    }
}
