//! How to reach Postgres.

use std::time::Duration;

use clap::Args;
use secrecy::{ExposeSecret, SecretString};

use super::parse_secret;
use super::settings::DbSettings;

/// How to reach Postgres.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// Postgres URL. Its user owns the schema and runs migrations; tenant queries run as the restricted
    /// role `cairn_app` (via `SET ROLE`), which this user must be a member of (migrations grant it).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, value_parser = parse_secret)]
    pub database_url: SecretString,

    /// Maximum connections in each of the server's two pools (owner and tenant).
    #[arg(long, env = "CAIRN_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,

    /// Seconds to wait for a pooled connection before answering 503.
    #[arg(long, env = "CAIRN_DB_ACQUIRE_TIMEOUT_SECS", default_value_t = 3)]
    pub db_acquire_timeout_secs: u64,

    /// Milliseconds opening a transaction (a pooled connection checked, or a new one connected) or looking a
    /// key up may take while the pool is not busy before Postgres counts as unreachable: a black-holed network
    /// (packets dropped, not refused) answers 503 that fast, then at once until a probe gets through.
    #[arg(long, env = "CAIRN_DB_CONNECT_TIMEOUT_MS", default_value_t = 1_500,
          value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub db_connect_timeout_ms: u64,

    /// Postgres URL of the tenant pool: a login role that is a member of `cairn_app` only (NOINHERIT, or
    /// INHERIT on Citus; not the owner, not superuser, not CREATEROLE; `scripts/setup.sh` creates `cairn_login`
    /// locally). Serving tenants refuses to start without it, or when its role could reach the owner's privileges.
    #[arg(long, env = "CAIRN_APP_DATABASE_URL", hide_env_values = true, value_parser = parse_secret)]
    pub app_database_url: Option<SecretString>,

    /// Milliseconds a statement of a request's tenant transaction may run before Postgres cancels it (the
    /// request answers 503): Postgres stops working when the client is gone.
    #[arg(long, env = "CAIRN_DB_STATEMENT_TIMEOUT_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub db_statement_timeout_ms: u64,

    /// As `CAIRN_DB_STATEMENT_TIMEOUT_MS`, for background jobs (re-indexing, consolidation, retention).
    #[arg(long, env = "CAIRN_DB_JOB_STATEMENT_TIMEOUT_MS", default_value_t = 120_000,
          value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub db_job_statement_timeout_ms: u64,

    /// Seconds after which a job still marked running is handed back to its queue by the expiry pass: a
    /// worker that lost it in a database outage (its fetch committed as the connection dropped, or its
    /// acknowledgement was lost) never finishes it, and apalis re-enqueues only a dead worker's jobs. A job
    /// counts as running from its fetch (a worker fetches up to 100 at once and runs them in turn), so this
    /// must exceed a full fetch's run time; a job handed back while still waiting or running runs twice,
    /// which every job tolerates (the second run finds its work done).
    #[arg(long, env = "CAIRN_JOB_STALE_AFTER_SECS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(5..=86_400))]
    pub job_stale_after_secs: u64,

    /// Postgres URLs of read replicas (comma-separated), each logging in as the tenant pool's role: recall,
    /// listing, history, stats and export read there, never missing this instance's own writes of the tenant
    /// (nor a client's, given the `Cairn-Consistency-Token` its write returned); everything else, and any
    /// read a replica cannot serve in time, goes to the primary.
    #[arg(long, env = "CAIRN_READ_DATABASE_URL", hide_env_values = true, value_parser = parse_secret)]
    pub read_database_url: Option<SecretString>,

    /// Milliseconds a replica may lag behind the primary (the age of the last transaction it replayed while
    /// more is waiting) before reads skip it.
    #[arg(long, env = "CAIRN_READ_MAX_LAG_MS", default_value_t = 2_000,
          value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub read_max_lag_ms: u64,

    /// Hybrid recall runs its vector probe beside the keyword search, in a second read-only transaction on the
    /// recall's snapshot, when the tenant pool has two connections idle; false (the default): one after the
    /// other on one connection. Off because on a 2-core machine shared with the server it was no faster
    /// (README, "Performance"); it can pay where Postgres has cores to spare for a request's two statements.
    #[arg(long, env = "CAIRN_DB_SHARE_SNAPSHOTS", default_value_t = false, action = clap::ArgAction::Set)]
    pub db_share_snapshots: bool,
}

/// The local owner URL when `DATABASE_URL` is unset (tests and benchmarks).
pub const LOCAL_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
/// The local tenant-pool URL when `CAIRN_APP_DATABASE_URL` is unset (`scripts/setup.sh` creates the role).
pub const LOCAL_APP_DATABASE_URL: &str = "postgres://cairn_login@127.0.0.1:5432/postgres";

/// `url` with its database name replaced.
pub fn with_database(url: &str, name: &str) -> String {
    let (head, query) = url.split_once('?').map_or((url, ""), |(h, q)| (h, q));
    let server = head.rsplit_once('/').map_or(head, |(server, _)| server);
    if query.is_empty() {
        format!("{server}/{name}")
    } else {
        format!("{server}/{name}?{query}")
    }
}

impl DbArgs {
    /// The store's settings.
    pub fn settings(&self) -> DbSettings {
        DbSettings {
            owner_url: self.database_url.clone(),
            app_url: self.app_database_url.clone(),
            max_connections: self.db_max_connections,
            acquire_timeout: Duration::from_secs(self.db_acquire_timeout_secs),
            connect_timeout: Duration::from_millis(self.db_connect_timeout_ms),
            statement_timeout_ms: self.db_statement_timeout_ms,
            job_statement_timeout_ms: self.db_job_statement_timeout_ms,
            job_stale_after: Duration::from_secs(self.job_stale_after_secs),
            read_urls: self
                .read_database_url
                .as_ref()
                .map(|urls| {
                    urls.expose_secret()
                        .split(',')
                        .map(str::trim)
                        .filter(|u| !u.is_empty())
                        .map(|u| SecretString::from(u.to_owned()))
                        .collect()
                })
                .unwrap_or_default(),
            read_max_lag: Duration::from_millis(self.read_max_lag_ms),
            share_snapshots: self.db_share_snapshots,
        }
    }

    /// Settings for database `name` on the servers of `DATABASE_URL` and `CAIRN_APP_DATABASE_URL` (or the
    /// local defaults), everything else at its default: for tests and benchmarks, which each create a
    /// database of their own.
    pub fn scratch(name: &str) -> Self {
        let owner = std::env::var("DATABASE_URL").unwrap_or_else(|_| LOCAL_DATABASE_URL.into());
        let app = std::env::var("CAIRN_APP_DATABASE_URL").unwrap_or_else(|_| LOCAL_APP_DATABASE_URL.into());
        Self::new(&with_database(&owner, name), &with_database(&app, name))
    }

    /// Settings for `database_url` with the defaults of everything else (tests and benches).
    pub fn new(database_url: &str, app_database_url: &str) -> Self {
        Self {
            database_url: SecretString::from(database_url.to_owned()),
            app_database_url: Some(SecretString::from(app_database_url.to_owned())),
            db_max_connections: 16,
            db_acquire_timeout_secs: 3,
            db_connect_timeout_ms: 1_500,
            db_statement_timeout_ms: 5_000,
            db_job_statement_timeout_ms: 120_000,
            job_stale_after_secs: 3600,
            read_database_url: None,
            read_max_lag_ms: 2_000,
            db_share_snapshots: false,
        }
    }
}
