//! Every setting of the `cairn` binary: one clap tree, each option also an environment variable, and the plain
//! settings it builds for each part of the program (`settings`). Nothing here imports the parts that use them:
//! the store, the services, the jobs and the models take their settings from here.
//!
//! `DATABASE_URL` is the only required setting; everything else has a default that suits a local run.

mod app;
mod db;
mod settings;

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use secrecy::SecretString;
use uuid::Uuid;

pub use self::app::{
    AppArgs, EmbedderKind, DEFAULT_CONTEXT_KEYWORD_WEIGHT, DEFAULT_NAMELESS_SHARE, DEFAULT_NEIGHBOUR_WORDS,
    DEFAULT_QUESTION_WEIGHT, DEFAULT_SENTENCE_SHARE, DEFAULT_SPEAKER_WEIGHT,
};
pub use self::db::{with_database, DbArgs, LOCAL_APP_DATABASE_URL, LOCAL_DATABASE_URL};
pub use self::settings::{
    ContextVectors, DbSettings, EmbedSettings, Fusion, JwtSettings, LlmConfig, OpenAiConfig, RerankApi, RerankConfig,
    Settings, VectorKinds, VerifierSettings, WebhookSettings, WorkerRoles,
};

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
    /// Apply pending database migrations and exit. On Citus, also distribute the tables (by tenant) and
    /// report each step taken.
    Migrate {
        /// Change nothing: list every tenant table that is not distributed by tenant and colocated (Citus),
        /// and fail when there is one.
        #[arg(long)]
        check_distribution: bool,
        #[command(flatten)]
        db: DbArgs,
    },
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
        /// The LoCoMo JSON file (a list of conversations with their questions), and where and how to evaluate.
        #[command(flatten)]
        run: EvalRun,
        /// Also sweep the fusion weights offline over each question's top 100 (with their score components):
        /// chosen on conversations 1-3, reported on the others.
        #[arg(long, env = "CAIRN_EVAL_SWEEP")]
        sweep: bool,
        /// Results asked for per question (`limit`; recall's candidate pool grows with it): default 20, or 100
        /// with `--sweep`. Metrics at k above it count what a page of that size holds.
        #[arg(long, env = "CAIRN_EVAL_LIMIT", value_parser = clap::value_parser!(u16).range(1..=100))]
        limit: Option<u16>,
        /// Store a turn that shared an image with the image's caption, as LoCoMo's own evaluation code renders
        /// it (`text and shared <caption>.`). Off by default: measured 2026-12-04 on the dev file (10 results
        /// asked), recall@10 0.781 with captions against 0.788 without (tuning 0.807 / 0.808, held out 0.754 /
        /// 0.767).
        #[arg(long, env = "CAIRN_EVAL_WITH_CAPTIONS")]
        with_captions: bool,
        /// Store each turn as its sentences, each a message of its own by the same speaker (keeping the turn's
        /// dia_id: its evidence is found when any of them is), as people type in a messenger: the same
        /// conversations and questions in the form of short messages (README, "Neighbours as far as 80 words").
        #[arg(long, env = "CAIRN_EVAL_AS_MESSAGES")]
        as_messages: bool,
        /// Ask the questions again of the tenants an earlier run of the same file and form left with
        /// `--keep-tenants`, storing nothing (a ranking change measured without storing and embedding the
        /// conversations again); they are kept again.
        #[arg(long, env = "CAIRN_EVAL_REUSE_TENANTS")]
        reuse_tenants: bool,
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        app: AppArgs,
    },
    /// Session recall_any/recall_all@k, turn recall@10, NDCG@10 and latency of /api/v1/recall on LongMemEval
    /// questions (the official longmemeval_s.json or longmemeval_oracle.json), each question's haystack in a
    /// tenant of its own.
    Longmemeval {
        /// The LongMemEval JSON file (a list of questions, each with its haystack sessions), and where and how to
        /// evaluate.
        #[command(flatten)]
        run: EvalRun,
        /// Results asked for per question (default 50: ten distinct sessions take more than ten turns).
        #[arg(long, env = "CAIRN_EVAL_LIMIT", value_parser = clap::value_parser!(u16).range(1..=100))]
        limit: Option<u16>,
        /// At most this many questions, taken in turn from each question type (default: all).
        #[arg(long, env = "CAIRN_EVAL_QUESTIONS", value_parser = clap::value_parser!(u32).range(1..))]
        questions: Option<u32>,
        /// Ask the questions again of the tenants an earlier run left with `--keep-tenants`, storing nothing (a
        /// ranking change measured without waiting for the embeddings again); they are kept again.
        #[arg(long, env = "CAIRN_EVAL_REUSE_TENANTS")]
        reuse_tenants: bool,
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        app: AppArgs,
    },
}

/// What every evaluation takes: its data, the server, the recall mode, and whether its tenants stay.
#[derive(Debug, Args)]
pub struct EvalRun {
    /// The data file.
    #[arg(long, env = "CAIRN_EVAL_DATA")]
    pub data: PathBuf,
    /// A running server to evaluate; without it, one is started on DATABASE_URL with its workers.
    #[arg(long, env = "CAIRN_EVAL_URL")]
    pub url: Option<String>,
    /// Recall mode to evaluate: hybrid, semantic or keyword.
    #[arg(long, env = "CAIRN_EVAL_MODE", default_value = "hybrid")]
    pub mode: String,
    /// Keep the evaluation's tenants (default: delete them afterwards).
    #[arg(long, env = "CAIRN_EVAL_KEEP_TENANTS")]
    pub keep_tenants: bool,
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
    pub workers: WorkerRoles,

    #[command(flatten)]
    pub app: AppArgs,
}

/// Settings of `cairn worker`.
#[derive(Debug, Clone, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub db: DbArgs,

    /// Queues to serve: `all` (default) or names separated by commas (embed, enrich, similar, summarize,
    /// consolidate, expire, retention, schedule).
    #[arg(long, env = "CAIRN_QUEUES", default_value = "all")]
    pub queues: WorkerRoles,

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
    /// On Citus: give a tenant a shard of its own (`isolate_tenant_to_new_shard`) and, with --to, move it to
    /// that worker (`citus_move_shard_placement` by logical replication; the tenant's writes wait only during
    /// the isolation's copy). Run as the owner; prints each step, nothing when already done.
    Move {
        /// The tenant's id.
        tenant: Uuid,
        /// The worker to move it to, as host:port (as `citus_shards` names it).
        #[arg(long)]
        to: Option<String>,
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

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::AppArgs;

    /// The recall settings alone (`cairn serve` would also need a database URL from the environment).
    #[derive(Debug, Parser)]
    struct Settings {
        #[command(flatten)]
        app: AppArgs,
    }

    #[test]
    fn a_context_keyword_weight_outside_0_to_1_is_refused_at_start() {
        let parse = |value: &str| Settings::try_parse_from(["cairn", &format!("--context-keyword-weight={value}")]);
        for bad in ["1.5", "-0.1", "NaN", "heavy"] {
            let err = parse(bad).expect_err(bad).to_string();
            assert!(err.contains("--context-keyword-weight") && err.contains("from 0 to 1"), "{err}");
        }
        assert_eq!(parse("0.5").unwrap().app.context_keyword_weight, 0.5);
    }
}
