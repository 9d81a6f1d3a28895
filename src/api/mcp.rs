//! The MCP server at `/mcp` (streamable HTTP, rmcp), authenticated with the tenant keys of the HTTP API.
//!
//! Stateless: every JSON-RPC request is one HTTP POST answered with JSON, so any instance behind a load
//! balancer can serve any call and no session outlives its request. The tools are AutoMem's
//! (`store_memory`, `recall_memory`, `update_memory`, `delete_memory`, `associate_memories`), remem's
//! `promote_to_longterm`, textrawl's `recall_memories`, SHODH's `proactive_context`, and `memory_stats` /
//! `check_database_health`; each translates its arguments onto the same native calls as the HTTP surfaces.
//! A failed call is a tool result with `isError: true` whose text is the error envelope
//! (`{"status":"error","code":N,"message":"..."}`); arguments of the wrong shape are JSON-RPC
//! `invalid_params` errors. The connection is never dropped.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::compat::{automem, shodh};
use super::extract::from_json_slice;
use super::native::{entities, graph, lifecycle, memories, remem};
use super::AppState;
use crate::auth::{Auth, Scope};
use crate::error::ApiError;
use crate::recall::params::StringList;

/// The MCP service for `/mcp`, behind [`authenticate`].
pub fn service(state: AppState) -> StreamableHttpService<CairnMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(state.config.max_body_bytes)
        // The Host check guards unauthenticated local servers against DNS rebinding; every call here needs
        // a tenant key, and a hosted service answers on names we cannot list in advance.
        .disable_allowed_hosts();
    StreamableHttpService::new(
        move || Ok(CairnMcp::new(state.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Authenticates an MCP request with the HTTP API's keys (401/403 in the envelope otherwise) and hands the
/// tenant to the tools through the request's extensions.
pub async fn authenticate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match Auth::from_request_parts(&mut parts, &state).await {
        Ok(auth) => {
            parts.extensions.insert(auth);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(err) => err.into_response(),
    }
}

#[derive(Clone)]
pub struct CairnMcp {
    state: AppState,
    tool_router: ToolRouter<Self>,
}

/// The tenant of the request, as [`authenticate`] left it.
fn tenant(parts: &Parts) -> Result<Auth, McpError> {
    parts.extensions.get::<Auth>().cloned().ok_or_else(|| McpError::internal_error("request not authenticated", None))
}

/// A tool's outcome: its value as JSON text, or the error envelope with `isError`.
fn reply<T: Serialize>(outcome: Result<T, ApiError>) -> Result<CallToolResult, McpError> {
    Ok(match outcome {
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(
            serde_json::to_string(&value).map_err(|e| McpError::internal_error(e.to_string(), None))?,
        )]),
        Err(err) => {
            if let ApiError::Internal(cause) = &err {
                tracing::error!(error = ?cause, "internal error in an MCP tool");
            }
            let body = serde_json::to_string(&err.body()).unwrap_or_else(|_| err.to_string());
            CallToolResult::error(vec![ContentBlock::text(body)])
        }
    })
}

/// Reads tool arguments as a native request body (so errors name the field as the HTTP API does).
fn native<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    from_json_slice(&serde_json::to_vec(&value).map_err(|e| ApiError::Internal(e.into()))?)
}

/// The arguments as a JSON object without nulls (absent and null mean the same to a tool).
fn object<T: Serialize>(args: &T) -> Map<String, Value> {
    match serde_json::to_value(args) {
        Ok(Value::Object(map)) => map.into_iter().filter(|(_, v)| !v.is_null()).collect(),
        _ => Map::new(),
    }
}

/// Tool arguments whose deserialization errors name the field (`content: invalid type: integer 5, expected a
/// string`); the input schema is `T`'s.
pub struct Args<T>(pub T);

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Args<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        serde_path_to_error::deserialize(value).map(Args).map_err(|err| {
            let path = err.path().to_string();
            let inner = err.into_inner();
            serde::de::Error::custom(if path == "." { inner.to_string() } else { format!("{path}: {inner}") })
        })
    }
}

impl<T: JsonSchema> JsonSchema for Args<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }

    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

fn parse_id(field: &str, raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw.trim()).map_err(|_| ApiError::bad_request(format!("{field}: not a valid UUID: {raw:?}")))
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    ShortTerm,
    LongTerm,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SupersedeRelation {
    InvalidatedBy,
    EvolvedInto,
}

/// One memory of a batch.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct BatchItem {
    /// The memory content, under 2000 characters.
    #[schemars(length(min = 1, max = 2000))]
    pub content: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    pub tags: Option<Vec<String>>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub importance: Option<f64>,
    pub metadata: Option<Map<String, Value>>,
    /// ISO 8601; when the memory was created (default now).
    pub timestamp: Option<String>,
}

/// `store_memory`: one memory, a supersede, or a batch (`memories`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct StoreArgs {
    /// The memory content. Must be under 2000 characters (hard limit); over 500 it is summarised.
    #[schemars(length(min = 1, max = 2000))]
    pub content: Option<String>,
    /// Decision, Pattern, Preference, Style, Habit, Insight, Context (default: classified from the content).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Confidence in the type, 0..=1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// Tags for categorization and filtering (hierarchical with ':' or '/').
    pub tags: Option<Vec<String>>,
    /// Importance score affecting recall ranking, 0..=1 (default 0.5).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub importance: Option<f64>,
    /// Structured metadata (files modified, error signatures...).
    pub metadata: Option<Map<String, Value>>,
    /// ISO 8601; when the memory was created (default now).
    pub timestamp: Option<String>,
    /// A precomputed vector of the deployment's dimension (default: generated).
    pub embedding: Option<Vec<f32>>,
    /// short_term or long_term (default long_term; short_term when only ttl is given).
    pub memory_type: Option<Lifecycle>,
    /// Seconds a short-term memory lives.
    #[schemars(range(min = 1))]
    pub ttl: Option<i64>,
    /// ISO 8601 start of validity.
    pub t_valid: Option<String>,
    /// ISO 8601 end of validity.
    pub t_invalid: Option<String>,
    /// Supersede mode: the existing memory this one replaces or corrects.
    pub supersedes_memory_id: Option<String>,
    /// Relationship from old to new (default INVALIDATED_BY).
    pub supersede_relation: Option<SupersedeRelation>,
    /// Why, stored on the old memory's metadata.
    pub supersede_reason: Option<String>,
    /// Batch mode: up to 500 memories (no supersede fields); instead of `content`.
    #[schemars(length(min = 1, max = 500))]
    pub memories: Option<Vec<BatchItem>>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecallMode {
    Hybrid,
    Semantic,
    Keyword,
    Associative,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TagMode {
    Any,
    All,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TagMatch {
    Exact,
    Prefix,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    Score,
    TimeDesc,
    TimeAsc,
}

/// `recall_memory`: AutoMem's recall.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct RecallArgs {
    /// What to look for (1..=1000 characters).
    #[schemars(length(min = 1, max = 1000))]
    pub query: Option<String>,
    /// Several queries, merged (at most 10).
    #[schemars(length(max = 10))]
    pub queries: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
    pub tag_mode: Option<TagMode>,
    pub tag_match: Option<TagMatch>,
    pub exclude_tags: Option<Vec<String>>,
    /// A period in words: "last week", "yesterday", "vor 2 Wochen".
    pub time_query: Option<String>,
    /// Lower time bound (ISO 8601).
    pub start: Option<String>,
    /// Upper time bound (ISO 8601).
    pub end: Option<String>,
    /// Results, 1..=100 (default 10).
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<i64>,
    pub sort: Option<SortOrder>,
    pub mode: Option<RecallMode>,
    /// Add memories one association away.
    pub expand_relations: Option<bool>,
    /// Add memories sharing an entity.
    pub expand_entities: Option<bool>,
    #[schemars(range(min = 1, max = 50))]
    pub relation_limit: Option<i64>,
    #[schemars(range(min = 1, max = 200))]
    pub expansion_limit: Option<i64>,
    /// Drop results scoring below this.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_score: Option<f64>,
    /// Tags of the current context: matching results are lifted.
    pub context_tags: Option<Vec<String>>,
}

/// `update_memory`: AutoMem's PATCH.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UpdateArgs {
    /// The memory to update.
    pub memory_id: String,
    /// New content (replaces the old; re-embedded), under 2000 characters.
    #[schemars(length(min = 1, max = 2000))]
    pub content: Option<String>,
    /// New tags (replace the old).
    pub tags: Option<Vec<String>>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub importance: Option<f64>,
    /// Replaces the stored metadata; omit to keep it.
    pub metadata: Option<Map<String, Value>>,
    /// Override the creation time (ISO 8601).
    pub timestamp: Option<String>,
    /// Accepted for AutoMem compatibility; the service keeps this itself.
    pub updated_at: Option<String>,
    /// Accepted for AutoMem compatibility; the service keeps this itself.
    pub last_accessed: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
}

/// `delete_memory`: one memory by id, or every memory with any of the tags (exactly one of the two).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeleteArgs {
    /// The memory to delete (not with `tags`).
    pub memory_id: Option<String>,
    /// Delete every memory with any of these tags (exact, case-insensitive; not with `memory_id`).
    pub tags: Option<Vec<String>>,
}

/// `associate_memories`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AssociateArgs {
    pub memory1_id: String,
    pub memory2_id: String,
    /// RELATES_TO (default), LEADS_TO, OCCURRED_BEFORE, PREFERS_OVER, EXEMPLIFIES, CONTRADICTS, REINFORCES,
    /// INVALIDATED_BY, EVOLVED_INTO, DERIVED_FROM, PART_OF.
    #[serde(rename = "type")]
    pub rel_type: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub strength: Option<f64>,
}

/// A memory id.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MemoryIdArgs {
    pub memory_id: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntityType {
    Person,
    Concept,
    Project,
    Preference,
    Fact,
    Location,
    Organization,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GroupedMode {
    Hybrid,
    Semantic,
}

/// `recall_memories`: textrawl's entity-grouped recall.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupedArgs {
    /// Search query (1-1000 chars).
    #[schemars(length(min = 1, max = 1000))]
    pub query: String,
    /// Filter by entity types.
    pub entity_types: Option<Vec<EntityType>>,
    /// Max results (1-50, default 10).
    #[schemars(range(min = 1, max = 50))]
    pub limit: Option<i64>,
    /// hybrid (default) or semantic.
    pub search_mode: Option<GroupedMode>,
    /// Short keys (default: the deployment's setting).
    pub compact: Option<bool>,
}

/// `proactive_context`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ContextArgs {
    /// The current conversation context or user message.
    #[schemars(length(min = 1, max = 2000))]
    pub context: String,
    /// 1..=20, default 5.
    #[schemars(range(min = 1, max = 20))]
    pub max_results: Option<i64>,
    /// Store the context as a Conversation memory (default true).
    pub auto_ingest: Option<bool>,
}

// Replies built from typed values: `json!` would widen their f32 fields (0.3 -> 0.30000001192092896).
#[derive(Serialize)]
#[serde(untagged)]
enum StoreReply {
    One(automem::Stored),
    Many(automem::BatchStored),
}

#[derive(Serialize)]
#[serde(untagged)]
enum DeleteReply {
    One(automem::MemoryIdResponse),
    Tags(memories::DeletedByTag),
}

#[derive(Serialize)]
struct Updated {
    status: &'static str,
    memory_id: Uuid,
    memory: crate::memory::Memory,
}

#[derive(Serialize)]
struct Associated {
    status: &'static str,
    association: crate::store::relations::Association,
}

/// Runs `f` for the request's tenant, first requiring `scope`.
macro_rules! as_tenant {
    ($parts:expr, $scope:expr, |$auth:ident| $body:expr) => {{
        let $auth = tenant(&$parts)?;
        reply(match $auth.require($scope) {
            Ok(()) => $body.await,
            Err(err) => Err(err),
        })
    }};
}

#[tool_router]
impl CairnMcp {
    pub fn new(state: AppState) -> Self {
        Self { state, tool_router: Self::tool_router() }
    }

    #[tool(description = "Store a memory (content under 2000 characters), a replacement of an existing memory \
        (supersedes_memory_id), or a batch of up to 500 (memories). Content already stored returns the existing \
        memory's id with deduplicated: true.")]
    async fn store_memory(
        &self,
        Parameters(Args(args)): Parameters<Args<StoreArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Write, |auth| async {
            let mut body = object(&args);
            match body.remove("memories") {
                Some(items) => {
                    if let Some(field) = body.keys().next() {
                        return Err(ApiError::bad_request(format!(
                            "{field}: batch mode (memories) takes no single-memory fields"
                        )));
                    }
                    automem::store_many(state, &auth, json!({ "memories": items })).await.map(StoreReply::Many)
                }
                None => automem::store_one(state, &auth, native(Value::Object(body))?).await.map(StoreReply::One),
            }
        })
    }

    #[tool(
        description = "Recall memories by meaning and keywords, filtered by tags and time (AutoMem's recall). \
        Results carry a score in [0, 1], the match type and the score's components.",
        annotations(read_only_hint = true)
    )]
    async fn recall_memory(
        &self,
        Parameters(Args(args)): Parameters<Args<RecallArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Read, |auth| async {
            let word = |v: Option<Value>| v.and_then(|v| v.as_str().map(str::to_owned));
            let query = automem::RecallQuery {
                query: args.query,
                queries: StringList(args.queries.unwrap_or_default()),
                tags: StringList(args.tags.unwrap_or_default()),
                tag_mode: word(args.tag_mode.map(|v| json!(v))),
                tag_match: word(args.tag_match.map(|v| json!(v))),
                exclude_tags: StringList(args.exclude_tags.unwrap_or_default()),
                time_query: args.time_query,
                start: args.start,
                end: args.end,
                limit: args.limit,
                sort: word(args.sort.map(|v| json!(v))),
                expand_relations: args.expand_relations,
                expand_entities: args.expand_entities,
                relation_limit: args.relation_limit,
                expansion_limit: args.expansion_limit,
                min_score: args.min_score,
                context_tags: StringList(args.context_tags.unwrap_or_default()),
                mode: word(args.mode.map(|v| json!(v))),
            };
            automem::recall(state, &auth, query).await
        })
    }

    #[tool(description = "Update a memory: content (re-embedded), tags, importance, metadata (replaces the \
        stored object), type, confidence or timestamp. Omitted fields keep their value.")]
    async fn update_memory(
        &self,
        Parameters(Args(args)): Parameters<Args<UpdateArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Write, |auth| async {
            let id = parse_id("memory_id", &args.memory_id)?;
            let mut body = object(&args);
            for ignored in ["memory_id", "updated_at", "last_accessed"] {
                body.remove(ignored);
            }
            let memory = memories::update(state, &auth, id, native(Value::Object(body))?).await?;
            Ok(Updated { status: "success", memory_id: memory.id, memory })
        })
    }

    #[tool(
        description = "Delete one memory (memory_id) or every memory carrying any of the tags (tags; exact, \
        case-insensitive). Give exactly one of the two. Permanent.",
        annotations(destructive_hint = true)
    )]
    async fn delete_memory(
        &self,
        Parameters(Args(args)): Parameters<Args<DeleteArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Write, |auth| async {
            match (args.memory_id, args.tags) {
                (Some(id), None) => {
                    let id = parse_id("memory_id", &id)?;
                    memories::delete(state, &auth, id).await?;
                    Ok(DeleteReply::One(automem::MemoryIdResponse { status: "success", memory_id: id }))
                }
                (None, Some(tags)) => memories::remove_by_tag(state, &auth, &tags).await.map(DeleteReply::Tags),
                _ => Err(ApiError::bad_request("memory_id: give exactly one of memory_id and tags")),
            }
        })
    }

    #[tool(description = "Associate two memories with a typed, weighted relation (RELATES_TO by default). The \
        same pair and type again updates the strength.")]
    async fn associate_memories(
        &self,
        Parameters(Args(args)): Parameters<Args<AssociateArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Write, |auth| async {
            let association = graph::associate(state, &auth, &Value::Object(object(&args))).await?;
            Ok(Associated { status: "success", association })
        })
    }

    #[tool(description = "Promote a short-term memory to long-term (clears its TTL).")]
    async fn promote_to_longterm(
        &self,
        Parameters(Args(args)): Parameters<Args<MemoryIdArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Write, |auth| async {
            let id = parse_id("memory_id", &args.memory_id)?;
            lifecycle::change(state, &auth, id, lifecycle::Change::Promote).await
        })
    }

    #[tool(
        description = "Recall memories grouped by the entities they mention (people, projects, preferences...). \
        Compact answers use short keys: n count/name, e entities, t type, m memories, c content, s score.",
        annotations(read_only_hint = true)
    )]
    async fn recall_memories(
        &self,
        Parameters(Args(args)): Parameters<Args<GroupedArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Read, |auth| async {
            entities::recall_grouped(state, &auth, native(Value::Object(object(&args)))?).await
        })
    }

    #[tool(description = "Surface memories relevant to the current conversation without an explicit search, and \
        (auto_ingest, default true) store the context as a Conversation memory.")]
    async fn proactive_context(
        &self,
        Parameters(Args(args)): Parameters<Args<ContextArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Read, |auth| async {
            shodh::surface(state, &auth, Some(args.context), args.max_results, args.auto_ingest.unwrap_or(true)).await
        })
    }

    #[tool(
        description = "Counts of the tenant's memories: totals, by type, by lifecycle, embedding states, \
        associations, entities and tags.",
        annotations(read_only_hint = true)
    )]
    async fn memory_stats(&self, Extension(parts): Extension<Parts>) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Read, |auth| async { remem::load_stats(state, &auth).await })
    }

    #[tool(
        description = "Whether the database answers and the embedding model is loaded.",
        annotations(read_only_hint = true)
    )]
    async fn check_database_health(&self, Extension(parts): Extension<Parts>) -> Result<CallToolResult, McpError> {
        let state = &self.state;
        as_tenant!(parts, Scope::Read, |_auth| async { Ok::<_, ApiError>(super::health::check(state).await.1) })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CairnMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cairn", crate::VERSION))
            .with_instructions(
                "Cairn is a memory service: store what you learn with store_memory, find it again with \
                 recall_memory (or recall_memories, grouped by entity), and link related memories with \
                 associate_memories. Every call acts on the tenant of your API key.",
            )
    }
}

/// The MCP endpoint (documentation only; rmcp serves it).
///
/// Streamable HTTP, stateless: POST one JSON-RPC 2.0 message with `Accept: application/json,
/// text/event-stream` and a tenant key; requests are answered with JSON, notifications with 202. Methods:
/// `initialize`, `tools/list`, `tools/call` (tools: store_memory, recall_memory, update_memory,
/// delete_memory, associate_memories, promote_to_longterm, recall_memories, proactive_context,
/// memory_stats, check_database_health).
#[utoipa::path(post, path = "/mcp", tag = "mcp",
    request_body(content = Object, description = "A JSON-RPC 2.0 message",
        example = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "recall_memory", "arguments": {"query": "database decisions", "limit": 5}}})),
    responses(
        (status = 200, description = "The JSON-RPC response", body = Object,
            example = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "{\"status\":\"success\",\"results\":[]}"}], "isError": false}})),
        (status = 202, description = "A notification, accepted"),
        (status = 406, description = "Accept does not list application/json and text/event-stream", body = crate::error::ErrorBody)
    ))]
#[allow(dead_code)]
pub fn mcp_endpoint() {}
