//! The plain settings each part of the program takes, built by [`super::AppArgs`] and [`super::DbArgs`]: the
//! services, surfaces and jobs read [`Settings`]; the key verifier [`VerifierSettings`]; the models their
//! endpoints'. None of them knows clap.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use secrecy::SecretString;

/// How a memory of an episode gets its second vector, the one recall reads beside its own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContextVectors {
    /// None (`CAIRN_EPISODE_CONTEXT=false`).
    Off,
    /// The previous memory's text and the memory's own embedded together: a second pass through the model.
    Model,
    /// The memory's own vector plus this share of the previous memory's, normalised: no second pass.
    Fold(f32),
}

/// Which vectors the embedding job computes beside each memory's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorKinds {
    /// A memory of an episode's context vector.
    pub context: ContextVectors,
    /// The runs of a memory's sentences (`recall::sentences`).
    pub sentences: bool,
}

impl From<ContextVectors> for VectorKinds {
    /// Context vectors as given, and no sentence vectors.
    fn from(context: ContextVectors) -> Self {
        Self { context, sentences: false }
    }
}

/// How the store reaches Postgres: the owner's URL (migrations, the control plane) and the tenant pool's, each
/// pool's size and waits, and the statements' time limits.
#[derive(Debug, Clone)]
pub struct DbSettings {
    pub owner_url: SecretString,
    /// The tenant pool's login (None: the owner's URL, which only one-off commands accept; serving and workers
    /// refuse to start without a tenant login of its own).
    pub app_url: Option<SecretString>,
    pub max_connections: u32,
    pub acquire_timeout: Duration,
    pub connect_timeout: Duration,
    pub statement_timeout_ms: u64,
    pub job_statement_timeout_ms: u64,
    pub job_stale_after: Duration,
    /// Read replicas' URLs (none: every read on the primary).
    pub read_urls: Vec<SecretString>,
    /// How far a replica may lag before reads skip it.
    pub read_max_lag: Duration,
    /// Whether a recall's snapshot may be shared with a second transaction (`Db::share_snapshot`).
    pub share_snapshots: bool,
}

/// What the services, the surfaces and the jobs read while they run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub max_body_bytes: usize,
    pub request_timeout_secs: u64,
    pub header_read_timeout_secs: u64,
    /// The dimension of every stored vector.
    pub embedding_dim: usize,
    pub recall_fusion: Fusion,
    pub compact_responses: bool,
    pub consolidate_wait_ms: u64,
    pub expiry_interval_ms: u64,
    pub schedule_interval_ms: u64,
    pub jwt: JwtSettings,
    pub refresh_token_ttl_secs: u64,
    pub client_ip_header: Option<String>,
    pub allow_query_api_key: bool,
    pub login_per_ip_per_minute: u64,
    pub default_plan: String,
    pub usage_flush_ms: u64,
    pub access_flush_ms: u64,
    pub max_import_bytes: u64,
    pub transfer_min_bytes_per_sec: u64,
    pub transfer_window_secs: u64,
    pub import_kib_per_sec: u32,
    pub transfer_deadline_secs: u64,
    pub episode_context: bool,
    pub context_keyword_weight: f64,
    /// What a recall result that is all question loses from its score (`CAIRN_QUESTION_WEIGHT`).
    pub question_weight: f64,
    /// What a recall result attributed to a person the question names gains (`CAIRN_SPEAKER_WEIGHT`).
    pub speaker_weight: f64,
    /// The share of the query's vector from the question without its common names (`CAIRN_NAMELESS_SHARE`).
    pub nameless_share: f64,
    /// How many words of conversation a recall result's episode neighbours span (`CAIRN_NEIGHBOUR_WORDS`).
    pub neighbour_words: f64,
    /// How memories of an episode get their context vectors (`CAIRN_CONTEXT_VECTOR`).
    pub context_vectors: ContextVectors,
    /// Whether the embedding job embeds the runs of a memory's sentences (`CAIRN_SENTENCE_VECTORS`).
    pub sentence_vectors: bool,
    /// Share of recall's semantic signal a memory's best run of sentences takes (`CAIRN_SENTENCE_SHARE`).
    pub sentence_share: f64,
    pub metrics_token: Option<SecretString>,
    pub verifier: VerifierSettings,
    /// The chat model, when one is configured.
    pub llm: Option<LlmConfig>,
    /// The rerank stage, when one is configured.
    pub rerank: Option<RerankConfig>,
    pub webhooks: WebhookSettings,
}

/// How webhooks are delivered (`CAIRN_WEBHOOK_*`).
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// Internal networks endpoints may nevertheless reach (none by default).
    pub allow_networks: Vec<ipnet::IpNet>,
    /// One delivery's time limit.
    pub timeout: Duration,
    /// The first retry's delay; doubled each time up to `retry_max`.
    pub retry_base: Duration,
    pub retry_max: Duration,
    /// How long a delivery is retried before it is given up and its endpoint disabled.
    pub retry_for: Duration,
    pub max_endpoints: i64,
    /// Most undelivered events of one endpoint before it is disabled.
    pub max_backlog: i64,
}

impl Default for Settings {
    /// The command line's defaults.
    fn default() -> Self {
        super::AppArgs::default().settings().expect("the defaults are consistent")
    }
}

/// How operators' access tokens are signed.
#[derive(Debug, Clone)]
pub struct JwtSettings {
    pub secret: Option<SecretString>,
    /// Earlier secrets still accepted, separated by commas.
    pub previous_secrets: Option<SecretString>,
    pub issuer: String,
    pub audience: String,
    pub access_token_ttl: Duration,
}

/// How key verification protects the server: at most `hashing` argon2 computations at once (waiting at most
/// `hashing_wait` for a turn), failures remembered for `failure_ttl`, and at most `per_ip_per_second` (bursts of
/// `per_ip_burst`) failed verifications per client address (its /64 for IPv6).
#[derive(Debug, Clone)]
pub struct VerifierSettings {
    pub cache_ttl: Duration,
    pub failure_ttl: Duration,
    pub hashing: usize,
    pub hashing_wait: Duration,
    pub per_ip_per_second: u32,
    pub per_ip_burst: u32,
    /// Requests of one tenant served at once on this instance, and how long another waits for a turn.
    pub tenant_concurrency: usize,
    pub tenant_concurrency_wait: Duration,
}

impl Default for VerifierSettings {
    fn default() -> Self {
        Self {
            cache_ttl: Duration::from_secs(30),
            failure_ttl: Duration::from_secs(60),
            hashing: 4,
            hashing_wait: Duration::from_secs(2),
            per_ip_per_second: 10,
            per_ip_burst: 30,
            tenant_concurrency: cores(),
            tenant_concurrency_wait: Duration::from_secs(2),
        }
    }
}

/// The cores this process may use.
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// Which embedder a deployment loads, and where from.
#[derive(Debug, Clone)]
pub enum EmbedSettings {
    /// None: memories are found by keywords only.
    None,
    /// The local model in `dir`, producing `dim`-dimensional vectors.
    Local { dir: PathBuf, dim: usize },
    /// An OpenAI-compatible embedding server.
    OpenAi(OpenAiConfig),
}

/// Settings of an OpenAI-compatible embedder.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// Base URL including the version, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.
    pub base_url: String,
    pub api_key: Option<SecretString>,
    pub model: String,
    /// Requested dimensions (sent as `dimensions`; None: the model's own).
    pub dimensions: Option<usize>,
    /// The dimension every returned vector must have.
    pub expected_dim: usize,
    /// Texts per request.
    pub batch: usize,
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: usize,
}

/// Which request and response shape a rerank endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RerankApi {
    /// Cohere, Jina, and the servers that copy them.
    Cohere,
    /// Hugging Face text-embeddings-inference.
    Tei,
}

/// The rerank stage's settings.
#[derive(Debug, Clone)]
pub struct RerankConfig {
    /// Base URL; the request goes to `{base_url}/rerank`.
    pub base_url: String,
    pub api_key: Option<SecretString>,
    pub model: Option<String>,
    pub api: RerankApi,
    /// How many of the fused results are reranked.
    pub top_n: usize,
    pub timeout: Duration,
}

/// Settings of the chat model.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    pub base_url: String,
    pub api_key: Option<SecretString>,
    pub model: String,
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: usize,
}

/// How recall combines vector and keyword candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Fusion {
    /// `w·cosine + (1-w)·(keyword rank / best keyword rank)`.
    #[default]
    Weighted,
    /// Reciprocal-rank fusion, `Σ 1/(60 + rank)`, scaled so a first place in both lists scores 1; a candidate's rank
    /// in each signal is its place among the candidates by that signal (`recall::score::PoolRanks`).
    Rrf,
}

/// The background queues a process serves, as named on the command line: `all`, `none`, or queue names
/// separated by commas (`embed,enrich` or `cairn::embed,...`). `queue::Workers` checks the names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerRoles {
    All,
    None,
    /// The names as given (trimmed), each once.
    Only(Vec<String>),
}

impl FromStr for WorkerRoles {
    type Err = String;

    fn from_str(value: &str) -> Result<Self, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "all" => return Ok(Self::All),
            "none" | "" => return Ok(Self::None),
            _ => {}
        }
        let mut names: Vec<String> = Vec::new();
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                names.push(name.to_owned());
            }
        }
        Ok(Self::Only(names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_parse_from_the_command_line() {
        assert_eq!("all".parse::<WorkerRoles>(), Ok(WorkerRoles::All));
        assert_eq!(" None ".parse::<WorkerRoles>(), Ok(WorkerRoles::None));
        let some: WorkerRoles = "embed, cairn::Enrich,EMBED".parse().unwrap();
        assert_eq!(some, WorkerRoles::Only(vec!["embed".into(), "cairn::Enrich".into()]));
    }
}
