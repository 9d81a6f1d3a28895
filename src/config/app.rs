//! The settings shared by everything that serves requests or runs jobs, as the command line and the
//! environment give them, and the plain settings built from them for each part.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use secrecy::SecretString;

use super::parse_secret;
use super::settings::{
    cores, ContextVectors, EmbedSettings, Fusion, JwtSettings, LlmConfig, OpenAiConfig, RerankApi, RerankConfig,
    Settings, VectorKinds, VerifierSettings, WebhookSettings,
};

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
    /// How often recall accesses (access counts, last access times) are written, in milliseconds: they are
    /// coalesced in memory per memory until then; a crash loses at most this interval's.
    #[arg(long, env = "CAIRN_ACCESS_FLUSH_MS", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub access_flush_ms: u64,
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
    /// Weight of the episode context's keyword score beside the memory's own, from 0 (off) to 1.
    #[arg(long, env = "CAIRN_CONTEXT_KEYWORD_WEIGHT", default_value_t = DEFAULT_CONTEXT_KEYWORD_WEIGHT, value_parser = parse_share)]
    pub context_keyword_weight: f64,
    /// What a recall result that is all question loses from its score, in proportion to its share of words in
    /// questions (`score_components.question`; 0 turns it off).
    #[arg(long, env = "CAIRN_QUESTION_WEIGHT", default_value_t = DEFAULT_QUESTION_WEIGHT, value_parser = parse_share)]
    pub question_weight: f64,
    /// What a recall result attributed to a person the question names gains (its text opens with their speaker
    /// label, "Melanie: …"; `score_components.speaker`; 0 turns it off).
    #[arg(long, env = "CAIRN_SPEAKER_WEIGHT", default_value_t = DEFAULT_SPEAKER_WEIGHT, value_parser = parse_share)]
    pub speaker_weight: f64,
    /// The share of the query's vector taken from the question without the names a fifth or more of the
    /// tenant's memories hold (a speaker's, whose every line opens with it), the rest from the question as asked;
    /// 0 embeds the question only as asked.
    #[arg(long, env = "CAIRN_NAMELESS_SHARE", default_value_t = DEFAULT_NAMELESS_SHARE, value_parser = parse_share)]
    pub nameless_share: f64,
    /// How much of a conversation, in words, a recall result's episode neighbours span either side of it (the
    /// neighbour lift's reach: as many places as hold that many words of the episode's memories, from 2 to 8;
    /// 0 keeps it at 2 places whatever their length).
    #[arg(long, env = "CAIRN_NEIGHBOUR_WORDS", default_value_t = DEFAULT_NEIGHBOUR_WORDS, value_parser = clap::value_parser!(u16).range(0..=2000))]
    pub neighbour_words: u16,
    /// How a memory of an episode gets its context vector: `fold` (its own vector plus
    /// CAIRN_CONTEXT_FOLD_WEIGHT times the previous memory's, normalised: no second pass through the model) or
    /// `model` (the previous memory's text and its own embedded together: twice the model's work, no better
    /// on LoCoMo).
    #[arg(long, env = "CAIRN_CONTEXT_VECTOR", default_value = "fold", value_parser = ["fold", "model"])]
    pub context_vector: String,
    /// With CAIRN_CONTEXT_VECTOR=fold: the previous memory's share of a context vector.
    #[arg(long, env = "CAIRN_CONTEXT_FOLD_WEIGHT", default_value_t = 0.5, value_parser = parse_fold_weight)]
    pub context_fold_weight: f64,
    /// Embed each run of a memory's sentences beside the memory (when it has two or more), for recall to match
    /// a question with the part of a memory it is about: about 70% more of the model's work on ingest for
    /// conversation turns. Turned off, recall still reads the runs already stored until a memory is embedded
    /// again.
    #[arg(long, env = "CAIRN_SENTENCE_VECTORS", default_value_t = true, action = clap::ArgAction::Set)]
    pub sentence_vectors: bool,
    /// Share of recall's semantic signal that is the better of a memory's cosine and its best run of sentences'
    /// (where it has runs); the rest is its own cosine. 0 reads the memory's own cosine alone.
    #[arg(long, env = "CAIRN_SENTENCE_SHARE", default_value_t = DEFAULT_SENTENCE_SHARE, value_parser = parse_share)]
    pub sentence_share: f64,
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
    #[arg(long, env = "CAIRN_RERANKER_API", value_enum, default_value_t = RerankApi::Cohere)]
    pub reranker_api: RerankApi,
    /// How many fused results are reranked (recall asks for at least this many, reranks them, then cuts).
    #[arg(long, env = "CAIRN_RERANKER_TOP_N", default_value_t = 30)]
    pub reranker_top_n: usize,
    /// Milliseconds before the reranker is given up on (the fused order stands).
    #[arg(long, env = "CAIRN_RERANKER_TIMEOUT_MS", default_value_t = 2000)]
    pub reranker_timeout_ms: u64,
    /// A bearer token `/metrics` requires (unset: open, for a scraper on a private network).
    #[arg(long, env = "CAIRN_METRICS_TOKEN", hide_env_values = true, value_parser = parse_secret)]
    pub metrics_token: Option<SecretString>,
    /// Networks webhooks may reach although they are loopback, private, link-local or otherwise internal
    /// (comma-separated CIDRs, e.g. `10.20.0.0/16`); by default none: such endpoints are refused.
    #[arg(long, env = "CAIRN_WEBHOOK_ALLOW_NETWORKS", value_delimiter = ',', value_parser = parse_network)]
    pub webhook_allow_networks: Vec<ipnet::IpNet>,
    /// Milliseconds one webhook delivery may take (connect, send, answer).
    #[arg(long, env = "CAIRN_WEBHOOK_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(100..=60_000))]
    pub webhook_timeout_ms: u64,
    /// The first retry's delay after a failed webhook delivery; each next one doubles, up to
    /// CAIRN_WEBHOOK_RETRY_MAX_MS.
    #[arg(long, env = "CAIRN_WEBHOOK_RETRY_BASE_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(10..))]
    pub webhook_retry_base_ms: u64,
    /// The longest delay between two attempts of a webhook delivery.
    #[arg(long, env = "CAIRN_WEBHOOK_RETRY_MAX_MS", default_value_t = 3_600_000,
          value_parser = clap::value_parser!(u64).range(10..))]
    pub webhook_retry_max_ms: u64,
    /// How long a webhook delivery is retried; when it still fails after that, it is given up and its endpoint
    /// disabled (the tenant enables it again).
    #[arg(long, env = "CAIRN_WEBHOOK_RETRY_FOR_SECS", default_value_t = 86_400,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub webhook_retry_for_secs: u64,
    /// Most webhook endpoints per tenant.
    #[arg(long, env = "CAIRN_WEBHOOK_MAX_ENDPOINTS", default_value_t = 10,
          value_parser = clap::value_parser!(i64).range(1..=1000))]
    pub webhook_max_endpoints: i64,
    /// Most undelivered events per endpoint: beyond it the endpoint is disabled (its events kept, delivered
    /// when it is enabled again) rather than the backlog growing without end.
    #[arg(long, env = "CAIRN_WEBHOOK_MAX_BACKLOG", default_value_t = 10_000,
          value_parser = clap::value_parser!(i64).range(1..))]
    pub webhook_max_backlog: i64,
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
    /// Which vectors the embedding job computes beside each memory's own.
    pub fn vector_kinds(&self) -> VectorKinds {
        VectorKinds { context: self.context_vectors(), sentences: self.sentence_vectors }
    }

    /// How memories of an episode get their context vectors.
    pub fn context_vectors(&self) -> ContextVectors {
        match (self.episode_context, self.context_vector.as_str()) {
            (false, _) => ContextVectors::Off,
            (true, "fold") => ContextVectors::Fold(self.context_fold_weight as f32),
            (true, _) => ContextVectors::Model,
        }
    }

    /// What the services, the surfaces and the jobs read while they run; refuses settings that contradict
    /// each other.
    pub fn settings(&self) -> anyhow::Result<Settings> {
        anyhow::ensure!(
            self.reranker != "http" || self.rerank().is_some(),
            "CAIRN_RERANKER_URL: is required with CAIRN_RERANKER=http"
        );
        Ok(Settings {
            max_body_bytes: self.max_body_bytes,
            request_timeout_secs: self.request_timeout_secs,
            header_read_timeout_secs: self.header_read_timeout_secs,
            embedding_dim: self.embedding_dim,
            recall_fusion: self.recall_fusion,
            compact_responses: self.compact_responses,
            consolidate_wait_ms: self.consolidate_wait_ms,
            expiry_interval_ms: self.expiry_interval_ms,
            schedule_interval_ms: self.schedule_interval_ms,
            jwt: JwtSettings {
                secret: self.jwt_secret.clone(),
                previous_secrets: self.jwt_previous_secrets.clone(),
                issuer: self.jwt_issuer.clone(),
                audience: self.jwt_audience.clone(),
                access_token_ttl: Duration::from_secs(self.access_token_ttl_secs.max(1)),
            },
            refresh_token_ttl_secs: self.refresh_token_ttl_secs,
            client_ip_header: self.client_ip_header.clone(),
            allow_query_api_key: self.allow_query_api_key,
            login_per_ip_per_minute: self.login_per_ip_per_minute,
            default_plan: self.default_plan.clone(),
            usage_flush_ms: self.usage_flush_ms,
            access_flush_ms: self.access_flush_ms,
            max_import_bytes: self.max_import_bytes,
            transfer_min_bytes_per_sec: self.transfer_min_bytes_per_sec,
            transfer_window_secs: self.transfer_window_secs,
            import_kib_per_sec: self.import_kib_per_sec,
            transfer_deadline_secs: self.transfer_deadline_secs,
            episode_context: self.episode_context,
            context_keyword_weight: self.context_keyword_weight,
            question_weight: self.question_weight,
            speaker_weight: self.speaker_weight,
            nameless_share: self.nameless_share,
            neighbour_words: f64::from(self.neighbour_words),
            context_vectors: self.context_vectors(),
            sentence_vectors: self.sentence_vectors,
            sentence_share: self.sentence_share,
            metrics_token: self.metrics_token.clone(),
            verifier: self.verifier(),
            llm: self.llm(),
            rerank: self.rerank(),
            webhooks: WebhookSettings {
                allow_networks: self.webhook_allow_networks.clone(),
                timeout: Duration::from_millis(self.webhook_timeout_ms),
                retry_base: Duration::from_millis(self.webhook_retry_base_ms),
                retry_max: Duration::from_millis(self.webhook_retry_max_ms.max(self.webhook_retry_base_ms)),
                retry_for: Duration::from_secs(self.webhook_retry_for_secs),
                max_endpoints: self.webhook_max_endpoints,
                max_backlog: self.webhook_max_backlog,
            },
        })
    }

    /// The embedder this deployment loads.
    pub fn embedding(&self) -> EmbedSettings {
        match self.embedder {
            EmbedderKind::None => EmbedSettings::None,
            EmbedderKind::Local => EmbedSettings::Local { dir: self.model_dir(), dim: self.embedding_dim },
            EmbedderKind::OpenAi => EmbedSettings::OpenAi(self.openai()),
        }
    }

    /// The OpenAI-compatible embedder's settings.
    pub fn openai(&self) -> OpenAiConfig {
        let dimensions = match self.openai_dimensions {
            Some(0) => None,
            Some(d) => Some(d),
            None => Some(self.embedding_dim),
        };
        OpenAiConfig {
            base_url: self.openai_base_url.clone(),
            api_key: self.openai_api_key.clone(),
            model: self.openai_model.clone(),
            dimensions,
            expected_dim: self.embedding_dim,
            batch: self.openai_batch.max(1),
            timeout: Duration::from_secs(self.openai_timeout_secs.max(1)),
            retries: self.openai_retries,
        }
    }

    /// The rerank stage's settings, when `CAIRN_RERANKER=http` with a URL.
    pub fn rerank(&self) -> Option<RerankConfig> {
        if self.reranker != "http" {
            return None;
        }
        let base_url = self.reranker_url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
        Some(RerankConfig {
            base_url: base_url.to_owned(),
            api_key: self.reranker_api_key.clone(),
            model: self.reranker_model.clone().filter(|m| !m.trim().is_empty()),
            api: self.reranker_api,
            top_n: self.reranker_top_n.clamp(1, 200),
            timeout: Duration::from_millis(self.reranker_timeout_ms.max(1)),
        })
    }

    /// The chat model's settings, when both its URL and model are configured.
    pub fn llm(&self) -> Option<LlmConfig> {
        let base_url = self.llm_base_url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
        let model = self.llm_model.as_deref().map(str::trim).filter(|m| !m.is_empty())?;
        Some(LlmConfig {
            base_url: base_url.to_owned(),
            api_key: self.llm_api_key.clone(),
            model: model.to_owned(),
            timeout: Duration::from_secs(self.llm_timeout_secs.max(1)),
            retries: self.llm_retries,
        })
    }

    /// How key verification protects the server.
    pub fn verifier(&self) -> VerifierSettings {
        VerifierSettings {
            cache_ttl: Duration::from_secs(self.key_cache_ttl_secs),
            failure_ttl: Duration::from_secs(self.auth_failure_ttl_secs),
            hashing: match self.argon2_concurrency {
                0 => (cores() / 2).max(1),
                n => n as usize,
            },
            hashing_wait: Duration::from_secs(2),
            per_ip_per_second: self.auth_per_ip_per_second,
            per_ip_burst: self.auth_per_ip_burst,
            tenant_concurrency: match self.tenant_concurrency {
                0 => cores(),
                n => n as usize,
            },
            tenant_concurrency_wait: Duration::from_millis(self.tenant_concurrency_wait_ms),
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
            access_flush_ms: 1_000,
            metrics_token: None,
            max_import_bytes: 1 << 30,
            transfer_min_bytes_per_sec: 16_384,
            transfer_window_secs: 30,
            transfer_deadline_secs: 3600,
            import_kib_per_sec: 8192,
            episode_context: true,
            context_keyword_weight: DEFAULT_CONTEXT_KEYWORD_WEIGHT,
            question_weight: DEFAULT_QUESTION_WEIGHT,
            speaker_weight: DEFAULT_SPEAKER_WEIGHT,
            nameless_share: DEFAULT_NAMELESS_SHARE,
            neighbour_words: DEFAULT_NEIGHBOUR_WORDS,
            context_vector: "fold".into(),
            context_fold_weight: 0.5,
            sentence_vectors: true,
            sentence_share: DEFAULT_SENTENCE_SHARE,
            reranker: "none".into(),
            reranker_url: None,
            reranker_api_key: None,
            reranker_model: None,
            reranker_api: RerankApi::Cohere,
            reranker_top_n: 30,
            reranker_timeout_ms: 2000,
            webhook_allow_networks: Vec::new(),
            webhook_timeout_ms: 10_000,
            webhook_retry_base_ms: 5_000,
            webhook_retry_max_ms: 3_600_000,
            webhook_retry_for_secs: 86_400,
            webhook_max_endpoints: 10,
            webhook_max_backlog: 10_000,
        }
    }
}

/// A network in CIDR form (`10.0.0.0/8`), or one address (`127.0.0.1`: that address alone).
fn parse_network(value: &str) -> Result<ipnet::IpNet, String> {
    let value = value.trim();
    value
        .parse::<ipnet::IpNet>()
        .or_else(|_| value.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{value:?} is not a network (CIDR such as 10.0.0.0/8) or an address"))
}

/// Weight of the words of a memory's predecessor in its episode in keyword scoring, beside its own words' 1, by
/// default. 0.3 was chosen when the episode context was built, before every later rule; swept again on
/// 2026-12-07 through the service (0-1, both forms of the LoCoMo dev file's tuning half), 0.5 and 0.75 tied
/// best and LongMemEval's development questions chose 0.75 (README "The context's words again").
pub const DEFAULT_CONTEXT_KEYWORD_WEIGHT: f64 = 0.75;

/// What a recall result that is all question loses by default (`recall::score::W_QUESTION`, where it was chosen).
pub const DEFAULT_QUESTION_WEIGHT: f64 = 0.05;

/// Share of the semantic signal a memory's best run of sentences takes by default
/// (`recall::score::SENTENCE_SHARE`, where it was chosen).
pub const DEFAULT_SENTENCE_SHARE: f64 = 0.75;

/// What a recall result attributed to a person the question names gains by default (`recall::score::W_SPEAKER`,
/// where it was chosen).
pub const DEFAULT_SPEAKER_WEIGHT: f64 = 0.05;

/// The share of the query's vector taken from the question without its common names by default
/// (`recall::query::NAMELESS_SHARE`, where it was chosen).
pub const DEFAULT_NAMELESS_SHARE: f64 = 0.5;

/// How many words of conversation a recall result's episode neighbours span by default
/// (`recall::score::episode_reaches`, README "Neighbours as far as 80 words").
pub const DEFAULT_NEIGHBOUR_WORDS: u16 = 80;

/// A share of the score, between 0 and 1 (the question and speaker weights).
fn parse_share(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("{value:?} is not a number from 0 to 1")),
    }
}

/// A fold weight: a share between 0 and 4 (more would drown the memory's own vector).
fn parse_fold_weight(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(w) if (0.0..=4.0).contains(&w) => Ok(w),
        _ => Err(format!("{value:?} is not a number from 0 to 4")),
    }
}
