//! Every setting of the `cairn` binary: one clap tree, each option also an environment variable.
//!
//! `DATABASE_URL` is the only required setting; everything else has a default that suits a local run.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use secrecy::SecretString;
use uuid::Uuid;

use crate::recall::score::Fusion;

/// Cairn: a hosted, multi-tenant memory service for AI agents.
#[derive(Debug, Parser)]
#[command(name = "cairn", version, about)]
pub struct Cli {
    /// Log output format.
    #[arg(long, env = "CAIRN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log shippers.
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run migrations, then serve the HTTP API, with the background workers `--workers` selects.
    Serve(ServeArgs),
    /// Run background workers only (no HTTP): the queues `--queues` selects.
    Worker(WorkerArgs),
    /// Apply pending database migrations and exit.
    Migrate(DbArgs),
    /// Print the OpenAPI document (JSON) to stdout.
    Openapi,
    /// Manage tenants.
    #[command(subcommand)]
    Tenant(TenantCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Manage the operators who sign in to the admin API.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Write a tenant's data as JSON Lines to stdout (progress on stderr).
    Export {
        /// The tenant's id.
        #[arg(long, env = "CAIRN_TENANT")]
        tenant: Uuid,
        /// Include the memories' vectors.
        #[arg(long)]
        vectors: bool,
        /// Leave out the memories' history.
        #[arg(long)]
        no_history: bool,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Import JSON Lines written by `cairn export` (or GET /api/v1/export) into a tenant, with a progress bar.
    Import {
        /// The tenant's id.
        #[arg(long, env = "CAIRN_TENANT")]
        tenant: Uuid,
        /// The export file.
        file: PathBuf,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Measure retrieval quality.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Serve MCP for a desktop client: `--stdio` bridges stdin/stdout to a remote Cairn's `/mcp`.
    Mcp {
        /// Speak MCP on stdin/stdout (the only transport of this command; the HTTP server serves `/mcp`).
        #[arg(long)]
        stdio: bool,
        /// The Cairn to use, e.g. https://cairn.example.com.
        #[arg(long, env = "CAIRN_URL")]
        url: String,
        /// The tenant API key.
        #[arg(long, env = "CAIRN_API_KEY", hide_env_values = true, value_parser = parse_secret)]
        key: SecretString,
    },
    /// Re-embed memories with the configured local model (after a model change), with a progress bar.
    Reembed {
        /// Only this tenant (default: every tenant).
        #[arg(long, env = "CAIRN_TENANT")]
        tenant: Option<Uuid>,
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        app: AppArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Evidence recall@k, hit@k, MRR and latency of /api/v1/recall on LoCoMo conversations.
    Locomo {
        /// The LoCoMo JSON file (a list of conversations with their questions).
        #[arg(long, env = "CAIRN_EVAL_DATA")]
        data: PathBuf,
        /// A running server to evaluate; without it, one is started on DATABASE_URL with its workers.
        #[arg(long, env = "CAIRN_EVAL_URL")]
        url: Option<String>,
        /// Recall mode to evaluate: hybrid, semantic or keyword.
        #[arg(long, env = "CAIRN_EVAL_MODE", default_value = "hybrid")]
        mode: String,
        /// Keep the evaluation's tenants (default: delete them afterwards).
        #[arg(long, env = "CAIRN_EVAL_KEEP_TENANTS")]
        keep_tenants: bool,
        /// Also sweep the fusion weights offline over each question's top 100 (with their score components):
        /// chosen on conversations 1-3, reported on the others.
        #[arg(long, env = "CAIRN_EVAL_SWEEP")]
        sweep: bool,
        /// Results asked for per question (`limit`; recall's candidate pool grows with it): default 20, or 100
        /// with `--sweep`. Metrics at k above it count what a page of that size holds.
        #[arg(long, env = "CAIRN_EVAL_LIMIT", value_parser = clap::value_parser!(u16).range(1..=100))]
        limit: Option<u16>,
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        app: AppArgs,
    },
}

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

    /// Postgres URL of the tenant pool: a NOINHERIT login role that is a member of `cairn_app` only (not the
    /// owner, not superuser, not CREATEROLE; `scripts/setup.sh` creates `cairn_login` locally). Serving
    /// tenants refuses to start without it, or when its role could reach the owner's privileges.
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
        }
    }
}

/// Settings of the HTTP server.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DbArgs,

    /// Address to listen on.
    #[arg(long, env = "CAIRN_LISTEN", default_value = "127.0.0.1:4545")]
    pub listen: SocketAddr,

    /// Background queues this process also serves: `all` (one machine runs everything), `none` (an API
    /// pod; workers run elsewhere), or names separated by commas (embed, enrich, similar, summarize,
    /// consolidate, expire, retention, schedule).
    #[arg(long, env = "CAIRN_WORKERS", default_value = "all")]
    pub workers: crate::jobs::Workers,

    #[command(flatten)]
    pub app: AppArgs,
}

/// Settings shared by everything that serves requests.
#[derive(Debug, Clone, Args)]
pub struct AppArgs {
    /// Seconds a verified API key stays cached (0 disables the cache; at most 30). Revocations, rotations,
    /// suspensions and deletions are announced by the database and forgotten at once on every instance; the
    /// TTL bounds a cached key if an announcement is lost.
    #[arg(long, env = "CAIRN_KEY_CACHE_TTL_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(0..=30))]
    pub key_cache_ttl_secs: u64,

    /// Largest accepted request body, in bytes (larger: 413).
    #[arg(long, env = "CAIRN_MAX_BODY_BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_body_bytes: usize,

    /// Seconds after which a request is abandoned with 503.
    #[arg(long, env = "CAIRN_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub request_timeout_secs: u64,

    /// Seconds a client may take to send a request's headers before its connection is closed (slow clients
    /// cannot hold connections).
    #[arg(long, env = "CAIRN_HEADER_READ_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_read_timeout_secs: u64,

    /// Dimension of embedding vectors; a supplied embedding of another length is a 400, and a model of
    /// another dimension is refused at start-up.
    #[arg(long, env = "CAIRN_EMBEDDING_DIM", default_value_t = 384)]
    pub embedding_dim: usize,

    /// Which embedder computes vectors: `local` (a sentence-transformers model on CPU) or `none`.
    #[arg(long, env = "CAIRN_EMBEDDER", value_enum, default_value_t = EmbedderKind::Local)]
    pub embedder: EmbedderKind,

    /// Directory of the local sentence-transformers model (default: the set-up's cache,
    /// ~/.cache/cairn/models/all-MiniLM-L6-v2).
    #[arg(long, env = "CAIRN_MODEL_DIR")]
    pub model_dir: Option<PathBuf>,

    /// How recall fuses vector and keyword candidates.
    #[arg(long, env = "CAIRN_RECALL_FUSION", value_enum, default_value_t = Fusion::Weighted)]
    pub recall_fusion: Fusion,

    /// OpenAI-compatible embeddings endpoint's base URL, with its version (`CAIRN_EMBEDDER=openai`).
    #[arg(long, env = "CAIRN_OPENAI_BASE_URL", default_value = "https://api.openai.com/v1")]
    pub openai_base_url: String,

    /// API key for the embeddings endpoint (optional for local servers such as Ollama).
    #[arg(long, env = "CAIRN_OPENAI_API_KEY", hide_env_values = true, value_parser = parse_secret)]
    pub openai_api_key: Option<SecretString>,

    /// Embedding model name.
    #[arg(long, env = "CAIRN_OPENAI_MODEL", default_value = "text-embedding-3-small")]
    pub openai_model: String,

    /// `dimensions` to request (default: CAIRN_EMBEDDING_DIM; 0 sends none, for servers that reject it).
    #[arg(long, env = "CAIRN_OPENAI_DIMENSIONS")]
    pub openai_dimensions: Option<usize>,

    /// Texts per embeddings request.
    #[arg(long, env = "CAIRN_OPENAI_BATCH", default_value_t = 64)]
    pub openai_batch: usize,

    /// Seconds before an embeddings request is abandoned (and retried).
    #[arg(long, env = "CAIRN_OPENAI_TIMEOUT_SECS", default_value_t = 30)]
    pub openai_timeout_secs: u64,

    /// Retries of a failed embeddings request (429, 5xx, timeouts), with exponential backoff.
    #[arg(long, env = "CAIRN_OPENAI_RETRIES", default_value_t = 5)]
    pub openai_retries: usize,

    /// An OpenAI-compatible chat endpoint's base URL, with its version; with `CAIRN_LLM_MODEL` it replaces
    /// the local rules for entity extraction. Unset: no LLM is used.
    #[arg(long, env = "CAIRN_LLM_BASE_URL")]
    pub llm_base_url: Option<String>,

    /// The chat model's name.
    #[arg(long, env = "CAIRN_LLM_MODEL")]
    pub llm_model: Option<String>,

    /// API key for the chat endpoint (optional for local servers such as Ollama).
    #[arg(long, env = "CAIRN_LLM_API_KEY", hide_env_values = true, value_parser = parse_secret)]
    pub llm_api_key: Option<SecretString>,

    /// Seconds before a chat request is abandoned (and retried).
    #[arg(long, env = "CAIRN_LLM_TIMEOUT_SECS", default_value_t = 60)]
    pub llm_timeout_secs: u64,

    /// Retries of a failed chat request (429, 5xx, timeouts), with exponential backoff.
    #[arg(long, env = "CAIRN_LLM_RETRIES", default_value_t = 3)]
    pub llm_retries: usize,

    /// Whether entity-grouped recall answers in the compact short-key shape unless a request says
    /// otherwise (textrawl's COMPACT_RESPONSES).
    #[arg(long, env = "CAIRN_COMPACT_RESPONSES", default_value_t = true, action = clap::ArgAction::Set)]
    pub compact_responses: bool,

    /// How long a consolidation request waits for its run, in milliseconds; past it the answer is 202 with
    /// the run's id.
    #[arg(long, env = "CAIRN_CONSOLIDATE_WAIT_MS", default_value_t = 25_000)]
    pub consolidate_wait_ms: u64,

    /// Period of the expiry job (short-term memories past their TTL), in milliseconds.
    #[arg(long, env = "CAIRN_EXPIRY_INTERVAL_MS", default_value_t = 30_000,
          value_parser = clap::value_parser!(u64).range(100..))]
    pub expiry_interval_ms: u64,

    /// Period of the consolidation schedule and of retention, in milliseconds.
    #[arg(long, env = "CAIRN_SCHEDULE_INTERVAL_MS", default_value_t = 3_600_000,
          value_parser = clap::value_parser!(u64).range(1000..))]
    pub schedule_interval_ms: u64,

    /// Secret (at least 32 bytes) signing admin access tokens (HS256). Unset: a random secret of this process,
    /// so tokens work on this instance only. To rotate: move the old secret to CAIRN_JWT_PREVIOUS_SECRETS, set a
    /// new one, drop the old one after CAIRN_ACCESS_TOKEN_TTL_SECS.
    #[arg(long, env = "CAIRN_JWT_SECRET", hide_env_values = true, value_parser = parse_secret)]
    pub jwt_secret: Option<SecretString>,
    /// Former signing secrets, separated by commas: their tokens still verify (rotation).
    #[arg(long, env = "CAIRN_JWT_PREVIOUS_SECRETS", hide_env_values = true, value_parser = parse_secret)]
    pub jwt_previous_secrets: Option<SecretString>,
    /// The `iss` of admin access tokens.
    #[arg(long, env = "CAIRN_JWT_ISSUER", default_value = "cairn")]
    pub jwt_issuer: String,
    /// The `aud` of admin access tokens.
    #[arg(long, env = "CAIRN_JWT_AUDIENCE", default_value = "cairn-admin")]
    pub jwt_audience: String,
    /// Lifetime of an admin access token, in seconds.
    #[arg(long, env = "CAIRN_ACCESS_TOKEN_TTL_SECS", default_value_t = 900,
          value_parser = clap::value_parser!(u64).range(10..=86_400))]
    pub access_token_ttl_secs: u64,
    /// Lifetime of an admin refresh token, in seconds (each refresh issues a new one).
    #[arg(long, env = "CAIRN_REFRESH_TOKEN_TTL_SECS", default_value_t = 30 * 86_400,
          value_parser = clap::value_parser!(u64).range(60..=365 * 86_400))]
    pub refresh_token_ttl_secs: u64,
    /// The header holding the client's address when a trusted proxy sets it (e.g. `x-forwarded-for`, whose
    /// right-most entry is used, or `x-real-ip`). Unset: the peer address; never set it without such a proxy.
    #[arg(long, env = "CAIRN_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,
    /// Accept an API key in the query string (`?api_key=`, as AutoMem's clients send it). Keys in URLs end up
    /// in proxies' and browsers' logs: turn it off where no such client is served. Never logged here.
    #[arg(long, env = "CAIRN_ALLOW_QUERY_API_KEY", default_value_t = true, action = clap::ArgAction::Set)]
    pub allow_query_api_key: bool,
    /// Keys needing verification (not cached) accepted per second from one client address.
    #[arg(long, env = "CAIRN_AUTH_PER_IP_PER_SECOND", default_value_t = 10)]
    pub auth_per_ip_per_second: u32,
    /// Burst of the above.
    #[arg(long, env = "CAIRN_AUTH_PER_IP_BURST", default_value_t = 30)]
    pub auth_per_ip_burst: u32,
    /// Requests of one tenant served at once on this instance (its costly ones, traversals, imports, recalls,
    /// can then hold no more than that many cores); more wait for a turn. 0: the instance's cores.
    #[arg(long, env = "CAIRN_TENANT_CONCURRENCY", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub tenant_concurrency: u32,
    /// Milliseconds a tenant's request waits for a turn before it is refused (429).
    #[arg(long, env = "CAIRN_TENANT_CONCURRENCY_WAIT_MS", default_value_t = 2_000)]
    pub tenant_concurrency_wait_ms: u64,
    /// Seconds a failed key verification is remembered (the same wrong key is refused without hashing).
    #[arg(long, env = "CAIRN_AUTH_FAILURE_TTL_SECS", default_value_t = 60)]
    pub auth_failure_ttl_secs: u64,
    /// Argon2 verifications at once (each takes 19 MiB and a core for ~20 ms); 0: half the cores, at least one,
    /// so a flood of wrong keys leaves cores for the requests of valid ones.
    #[arg(long, env = "CAIRN_ARGON2_CONCURRENCY", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=64))]
    pub argon2_concurrency: u64,
    /// Admin logins accepted per minute from one client address.
    #[arg(long, env = "CAIRN_LOGIN_PER_IP_PER_MINUTE", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub login_per_ip_per_minute: u64,
    /// The plan of tenants created without one.
    #[arg(long, env = "CAIRN_DEFAULT_PLAN", default_value = "standard")]
    pub default_plan: String,
    /// How often usage counts are written, in milliseconds.
    #[arg(long, env = "CAIRN_USAGE_FLUSH_MS", default_value_t = 10_000)]
    pub usage_flush_ms: u64,
    /// Largest accepted import (`POST /api/v1/import`), in bytes; it is read as a stream, batch by batch.
    #[arg(long, env = "CAIRN_MAX_IMPORT_BYTES", default_value_t = 1 << 30)]
    pub max_import_bytes: u64,
    /// Slowest an import's body or an export's reader may go, in bytes per second of waiting on the client
    /// (measured over CAIRN_TRANSFER_WINDOW_SECS of waiting); slower, the transfer is ended and its slot freed.
    #[arg(long, env = "CAIRN_TRANSFER_MIN_BYTES_PER_SEC", default_value_t = 16_384)]
    pub transfer_min_bytes_per_sec: u64,
    /// The window of waiting over which a transfer's pace is measured.
    #[arg(long, env = "CAIRN_TRANSFER_WINDOW_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub transfer_window_secs: u64,
    /// Fastest one tenant's imports are read on one instance, in KiB per second (parsing and checking every
    /// line is CPU work: a tenant importing at full speed would take the cores from everyone else). A faster
    /// client waits; the import is not refused.
    #[arg(long, env = "CAIRN_IMPORT_KIB_PER_SEC", default_value_t = 8192, value_parser = clap::value_parser!(u32).range(64..))]
    pub import_kib_per_sec: u32,
    /// Longest an import or export may run in all.
    #[arg(long, env = "CAIRN_TRANSFER_DEADLINE_SECS", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    pub transfer_deadline_secs: u64,
    /// Index a memory of an episode with the memory before it: embedded together, and its words searched at
    /// CAIRN_CONTEXT_KEYWORD_WEIGHT (what is returned is always the memory's own content).
    #[arg(long, env = "CAIRN_EPISODE_CONTEXT", default_value_t = true, action = clap::ArgAction::Set)]
    pub episode_context: bool,
    /// Weight of the episode context's keyword score beside the memory's own (0 turns it off).
    #[arg(long, env = "CAIRN_CONTEXT_KEYWORD_WEIGHT", default_value_t = 0.3)]
    pub context_keyword_weight: f64,
    /// An optional rerank stage: `none` (default) or `http` (a Cohere/Jina/TEI-compatible `/rerank` endpoint).
    #[arg(long, env = "CAIRN_RERANKER", default_value = "none", value_parser = ["none", "http"])]
    pub reranker: String,
    /// The rerank endpoint's base URL (the request goes to `{url}/rerank`).
    #[arg(long, env = "CAIRN_RERANKER_URL")]
    pub reranker_url: Option<String>,
    /// Bearer key of the rerank endpoint.
    #[arg(long, env = "CAIRN_RERANKER_API_KEY", hide_env_values = true, value_parser = parse_secret)]
    pub reranker_api_key: Option<SecretString>,
    /// The rerank model's name, when the endpoint wants one.
    #[arg(long, env = "CAIRN_RERANKER_MODEL")]
    pub reranker_model: Option<String>,
    /// The endpoint's shape: `cohere` (Cohere, Jina, Voyage...) or `tei` (text-embeddings-inference).
    #[arg(long, env = "CAIRN_RERANKER_API", value_enum, default_value_t = crate::models::rerank::RerankApi::Cohere)]
    pub reranker_api: crate::models::rerank::RerankApi,
    /// How many fused results are reranked (recall asks for at least this many, reranks them, then cuts).
    #[arg(long, env = "CAIRN_RERANKER_TOP_N", default_value_t = 30)]
    pub reranker_top_n: usize,
    /// Milliseconds before the reranker is given up on (the fused order stands).
    #[arg(long, env = "CAIRN_RERANKER_TIMEOUT_MS", default_value_t = 2000)]
    pub reranker_timeout_ms: u64,
    /// A bearer token `/metrics` requires (unset: open, for a scraper on a private network).
    #[arg(long, env = "CAIRN_METRICS_TOKEN", hide_env_values = true, value_parser = parse_secret)]
    pub metrics_token: Option<SecretString>,
}

/// The embedder a deployment uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EmbedderKind {
    /// A sentence-transformers model on CPU (candle), from `CAIRN_MODEL_DIR`.
    Local,
    /// An OpenAI-compatible `/v1/embeddings` server (`CAIRN_OPENAI_*`).
    #[value(name = "openai")]
    OpenAi,
    /// No embedder: keyword recall only.
    None,
}

impl AppArgs {
    /// The OpenAI-compatible embedder's settings.
    pub fn openai(&self) -> crate::models::embed::openai::OpenAiConfig {
        let dimensions = match self.openai_dimensions {
            Some(0) => None,
            Some(d) => Some(d),
            None => Some(self.embedding_dim),
        };
        crate::models::embed::openai::OpenAiConfig {
            base_url: self.openai_base_url.clone(),
            api_key: self.openai_api_key.clone(),
            model: self.openai_model.clone(),
            dimensions,
            expected_dim: self.embedding_dim,
            batch: self.openai_batch.max(1),
            timeout: std::time::Duration::from_secs(self.openai_timeout_secs.max(1)),
            retries: self.openai_retries,
        }
    }

    /// The rerank stage's settings, when `CAIRN_RERANKER=http` with a URL.
    pub fn rerank(&self) -> Option<crate::models::rerank::RerankConfig> {
        if self.reranker != "http" {
            return None;
        }
        let base_url = self.reranker_url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
        Some(crate::models::rerank::RerankConfig {
            base_url: base_url.to_owned(),
            api_key: self.reranker_api_key.clone(),
            model: self.reranker_model.clone().filter(|m| !m.trim().is_empty()),
            api: self.reranker_api,
            top_n: self.reranker_top_n.clamp(1, 200),
            timeout: std::time::Duration::from_millis(self.reranker_timeout_ms.max(1)),
        })
    }

    /// The chat model's settings, when both its URL and model are configured.
    pub fn llm(&self) -> Option<crate::models::chat::LlmConfig> {
        let base_url = self.llm_base_url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
        let model = self.llm_model.as_deref().map(str::trim).filter(|m| !m.is_empty())?;
        Some(crate::models::chat::LlmConfig {
            base_url: base_url.to_owned(),
            api_key: self.llm_api_key.clone(),
            model: model.to_owned(),
            timeout: std::time::Duration::from_secs(self.llm_timeout_secs.max(1)),
            retries: self.llm_retries,
        })
    }

    /// How key verification protects the server.
    pub fn verifier(&self) -> crate::auth::VerifierSettings {
        crate::auth::VerifierSettings {
            cache_ttl: std::time::Duration::from_secs(self.key_cache_ttl_secs),
            failure_ttl: std::time::Duration::from_secs(self.auth_failure_ttl_secs),
            hashing: match self.argon2_concurrency {
                0 => std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
                n => n as usize,
            },
            hashing_wait: std::time::Duration::from_secs(2),
            per_ip_per_second: self.auth_per_ip_per_second,
            per_ip_burst: self.auth_per_ip_burst,
            tenant_concurrency: match self.tenant_concurrency {
                0 => std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get),
                n => n as usize,
            },
            tenant_concurrency_wait: std::time::Duration::from_millis(self.tenant_concurrency_wait_ms),
        }
    }

    /// The model directory: `model_dir`, else the set-up's cache.
    pub fn model_dir(&self) -> PathBuf {
        self.model_dir.clone().unwrap_or_else(|| {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
            home.join(".cache/cairn/models/all-MiniLM-L6-v2")
        })
    }
}

impl Default for AppArgs {
    /// The command line's defaults.
    fn default() -> Self {
        Self {
            key_cache_ttl_secs: 30,
            max_body_bytes: 4 * 1024 * 1024,
            header_read_timeout_secs: 10,
            request_timeout_secs: 30,
            embedding_dim: 384,
            embedder: EmbedderKind::Local,
            model_dir: None,
            recall_fusion: Fusion::Weighted,
            openai_base_url: "https://api.openai.com/v1".into(),
            openai_api_key: None,
            openai_model: "text-embedding-3-small".into(),
            openai_dimensions: None,
            openai_batch: 64,
            openai_timeout_secs: 30,
            openai_retries: 5,
            llm_base_url: None,
            llm_model: None,
            llm_api_key: None,
            llm_timeout_secs: 60,
            llm_retries: 3,
            compact_responses: true,
            consolidate_wait_ms: 25_000,
            expiry_interval_ms: 30_000,
            schedule_interval_ms: 3_600_000,
            jwt_secret: None,
            jwt_previous_secrets: None,
            jwt_issuer: "cairn".into(),
            jwt_audience: "cairn-admin".into(),
            access_token_ttl_secs: 900,
            refresh_token_ttl_secs: 30 * 86_400,
            client_ip_header: None,
            allow_query_api_key: true,
            auth_per_ip_per_second: 10,
            auth_per_ip_burst: 30,
            tenant_concurrency: 0,
            tenant_concurrency_wait_ms: 2_000,
            auth_failure_ttl_secs: 60,
            argon2_concurrency: 0,
            login_per_ip_per_minute: 20,
            default_plan: "standard".into(),
            usage_flush_ms: 10_000,
            metrics_token: None,
            max_import_bytes: 1 << 30,
            transfer_min_bytes_per_sec: 16_384,
            transfer_window_secs: 30,
            transfer_deadline_secs: 3600,
            import_kib_per_sec: 8192,
            episode_context: true,
            context_keyword_weight: 0.3,
            reranker: "none".into(),
            reranker_url: None,
            reranker_api_key: None,
            reranker_model: None,
            reranker_api: crate::models::rerank::RerankApi::Cohere,
            reranker_top_n: 30,
            reranker_timeout_ms: 2000,
        }
    }
}

/// Settings of `cairn worker`.
#[derive(Debug, Clone, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub db: DbArgs,

    /// Queues to serve: `all` (default) or names separated by commas (embed, enrich, similar, summarize,
    /// consolidate, expire, retention, schedule).
    #[arg(long, env = "CAIRN_QUEUES", default_value = "all")]
    pub queues: crate::jobs::Workers,

    /// Address on which the worker answers its liveness probe (`GET /livez`); unset: none.
    #[arg(long, env = "CAIRN_HEALTH_LISTEN")]
    pub health_listen: Option<SocketAddr>,

    #[command(flatten)]
    pub app: AppArgs,
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an operator (or reset the password of an existing one). The password is read from stdin
    /// (one line; at least 12 characters).
    Create {
        /// The operator's email, their login.
        email: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum TenantCommand {
    /// Create a tenant and its first API key (scopes read, write unless --scopes says otherwise).
    Create {
        /// The tenant's unique name.
        name: String,
        /// Scopes of the first key, separated by commas: read, write, admin (admin lets the key manage the
        /// tenant's keys through /api/v1/keys).
        #[arg(long, default_value = "read,write", value_delimiter = ',')]
        scopes: Vec<String>,
        /// The tenant's plan (default: standard).
        #[arg(long)]
        plan: Option<String>,
        /// Print exactly one JSON object `{"tenant_id", "name", "api_key"}` on stdout.
        #[arg(long, env = "CAIRN_JSON")]
        json: bool,
        #[command(flatten)]
        db: DbArgs,
    },
    /// List tenants.
    List {
        /// Print a JSON array.
        #[arg(long, env = "CAIRN_JSON")]
        json: bool,
        #[command(flatten)]
        db: DbArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Create an API key for a tenant; the secret is printed once.
    Create {
        /// The tenant's id.
        #[arg(long, env = "CAIRN_TENANT")]
        tenant: Uuid,
        /// Comma-separated scopes: read, write (implies read), admin (implies both).
        #[arg(long, env = "CAIRN_KEY_SCOPES", default_value = "read,write", value_delimiter = ',')]
        scopes: Vec<String>,
        /// A label for the key.
        #[arg(long, env = "CAIRN_KEY_NAME")]
        name: Option<String>,
        /// Days until the key expires (never, if absent).
        #[arg(long, env = "CAIRN_KEY_EXPIRES_IN_DAYS")]
        expires_in_days: Option<u32>,
        /// Print exactly one JSON object on stdout.
        #[arg(long, env = "CAIRN_JSON")]
        json: bool,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Revoke an API key by its id.
    Revoke {
        /// The key's id (not the secret).
        key_id: Uuid,
        #[command(flatten)]
        db: DbArgs,
    },
    /// List a tenant's keys (never their secrets).
    List {
        /// The tenant's id.
        #[arg(long, env = "CAIRN_TENANT")]
        tenant: Uuid,
        /// Print a JSON array.
        #[arg(long, env = "CAIRN_JSON")]
        json: bool,
        #[command(flatten)]
        db: DbArgs,
    },
}

fn parse_secret(value: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(value.to_owned()))
}
