//! The MCP server at `/mcp` (streamable HTTP, rmcp), authenticated with the tenant keys of the HTTP API.
//!
//! Stateless: every JSON-RPC request is one HTTP POST answered with JSON, so any instance behind a load
//! balancer can serve any call and no session outlives its request. The tools are AutoMem's
//! (`store_memory`, `recall_memory`, `update_memory`, `delete_memory`, `associate_memories`), remem's
//! `promote_to_longterm`, textrawl's `recall_memories`, SHODH's `proactive_context`, and `memory_stats` /
//! `check_database_health`; each reads the same input types as the HTTP surfaces (so its schema is theirs,
//! limits included) and calls the same use cases. A failed call is a tool result with `isError: true`
//! whose text is the error envelope (`{"status":"error","code":N,"message":"..."}`), arguments of the wrong
//! type included (the message names the field). The connection is never dropped.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ErrorData as McpError, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::auth::tenant_of;
use super::error::{body_of, ApiError};
use super::extract::{batch_values, on_duplicate, parse_uuid};
use super::views::automem::{AutoMemBatchStored, MemoryIdResponse, RecallAnswer, Stored};
use super::views::shodh::ContextResponse;
use super::views::{Association, DeletedByTag, EntityRecallResponse, Health, Memory, TenantStats};
use super::AppState;
use crate::auth::{Scope, Tenant};
use crate::error::Error;
use crate::graph::AssociationInput;
use crate::memory::{MemoryInput, MemoryPatch};
use crate::recall::{ContextParams, GroupedParams, GroupedRequest, MultiParams, MultiRequest};
use crate::service::lifecycle::{self, Change};
use crate::service::memories::{self, BatchRules, Duplicates, MAX_BATCH};
use crate::service::{associations, health, recall, stats};

/// The MCP service for `/mcp`, behind [`authenticate`].
pub fn service(services: AppState) -> StreamableHttpService<CairnMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(services.config.max_body_bytes)
        // The Host check guards unauthenticated local servers against DNS rebinding; every call here needs
        // a tenant key, and a hosted service answers on names we cannot list in advance.
        .disable_allowed_hosts();
    StreamableHttpService::new(
        move || Ok(CairnMcp::new(services.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Authenticates an MCP request with the HTTP API's keys (401/403 in the envelope otherwise) and hands the
/// tenant to the tools through the request's extensions.
///
/// rmcp answers a JSON body it cannot parse (nested past serde's recursion limit, say) with 415; with a JSON
/// content type that is a bad request, and it is answered as one (400), as the other surfaces do.
pub async fn authenticate(State(services): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let json = parts
        .headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/json"));
    match tenant_of(&parts, &services).await {
        Ok(tenant) => {
            parts.extensions.insert(tenant);
            let response = next.run(Request::from_parts(parts, body)).await;
            if json && response.status() == axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE {
                let text = axum::body::to_bytes(response.into_body(), 16 * 1024).await.unwrap_or_default();
                let text = String::from_utf8_lossy(&text);
                return ApiError::from(Error::invalid(format!("body: invalid JSON-RPC request: {}", text.trim())))
                    .into_response();
            }
            response
        }
        Err(err) => ApiError::from(err).into_response(),
    }
}

#[derive(Clone)]
pub struct CairnMcp {
    services: AppState,
    tool_router: ToolRouter<Self>,
}

/// The tenant of the request, as [`authenticate`] left it.
fn tenant(parts: &Parts) -> Result<Tenant, McpError> {
    parts.extensions.get::<Tenant>().cloned().ok_or_else(|| McpError::internal_error("request not authenticated", None))
}

/// A tool's outcome: its value as JSON text, or the error envelope with `isError`.
fn reply<T: Serialize>(outcome: Result<T, Error>) -> Result<CallToolResult, McpError> {
    Ok(match outcome {
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(
            serde_json::to_string(&value).map_err(|e| McpError::internal_error(e.to_string(), None))?,
        )]),
        Err(err) => {
            let body = body_of(&err);
            let text = serde_json::to_string(&body).unwrap_or_else(|_| err.to_string());
            CallToolResult::error(vec![ContentBlock::text(text)])
        }
    })
}

/// A tool's arguments as given (an object; absent and null mean the same), parsed inside the tool so that
/// a wrong type is a tool error naming the field. The input schema is `T`'s: the same type, with the same
/// limits, that the HTTP surfaces read.
pub struct Args<T> {
    fields: Map<String, Value>,
    schema: std::marker::PhantomData<T>,
}

impl<T> Args<T> {
    /// The arguments parsed as `U` (errors name the field).
    fn parse<U: serde::de::DeserializeOwned>(&self) -> Result<U, Error> {
        crate::validate::from_json(Value::Object(self.fields.clone()), "")
    }

    fn take(&mut self, field: &str) -> Option<Value> {
        self.fields.remove(field)
    }
}

impl<'de, T> Deserialize<'de> for Args<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Option::<Map<String, Value>>::deserialize(deserializer)?.unwrap_or_default();
        let fields = fields.into_iter().filter(|(_, v)| !v.is_null()).collect();
        Ok(Self { fields, schema: std::marker::PhantomData })
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

/// `store_memory`: one memory (every field of the native store), a supersede, or a batch (`memories`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct StoreArgs {
    #[serde(flatten)]
    pub memory: MemoryInput,
    /// Batch mode: up to 500 memories (no supersede fields, vectors or validity bounds), instead of the
    /// single-memory fields.
    #[schemars(length(min = 1, max = MAX_BATCH))]
    pub memories: Option<Vec<MemoryInput>>,
}

/// `update_memory`: AutoMem's PATCH.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UpdateArgs {
    /// The memory to update.
    pub memory_id: Uuid,
    #[serde(flatten)]
    pub patch: MemoryPatch,
    /// Accepted for AutoMem compatibility; the service keeps this itself.
    pub updated_at: Option<String>,
    /// Accepted for AutoMem compatibility; the service keeps this itself.
    pub last_accessed: Option<String>,
}

/// `delete_memory`: one memory by id, or every memory with any of the tags (exactly one of the two).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeleteArgs {
    /// The memory to delete (not with `tags`).
    pub memory_id: Option<String>,
    /// Delete every memory with any of these tags (exact, case-insensitive; not with `memory_id`).
    pub tags: Option<Vec<String>>,
    /// With `tags`: `true` to delete more than 1000 memories at once.
    pub confirm: Option<bool>,
}

/// A memory id.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MemoryIdArgs {
    pub memory_id: String,
}

// Replies built from typed values: `json!` would widen their f32 fields (0.3 -> 0.30000001192092896).
#[derive(Serialize)]
#[serde(untagged)]
enum StoreReply {
    One(Stored),
    Many(AutoMemBatchStored),
}

#[derive(Serialize)]
#[serde(untagged)]
enum DeleteReply {
    One(MemoryIdResponse),
    Tags(DeletedByTag),
}

#[derive(Serialize)]
struct Updated {
    status: &'static str,
    memory_id: Uuid,
    memory: Memory,
}

#[derive(Serialize)]
struct Associated {
    status: &'static str,
    association: Association,
}

/// Runs `f` for the request's tenant, first requiring `scope`.
macro_rules! as_tenant {
    ($parts:expr, $scope:expr, |$tenant:ident| $body:expr) => {{
        let $tenant = tenant(&$parts)?;
        reply(match $tenant.require($scope) {
            Ok(()) => $body.await,
            Err(err) => Err(err),
        })
    }};
}

#[tool_router]
impl CairnMcp {
    pub fn new(services: AppState) -> Self {
        Self { services, tool_router: Self::tool_router() }
    }

    #[tool(description = "Store a memory (content under 2000 characters, with any field of the native store: \
        type, tags, importance, metadata, emotion and arousal, episode, source and credibility...), a replacement \
        of an existing memory (supersedes_memory_id), or a batch of up to 500 (memories). Content already stored \
        returns the existing memory's id with deduplicated: true.")]
    async fn store_memory(
        &self,
        Parameters(mut args): Parameters<Args<StoreArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Write, |tenant| async {
            let started = Instant::now();
            let embedder = services.embedder.state();
            match args.take("memories") {
                Some(items) => {
                    let body = serde_json::json!({ "on_duplicate": args.take("on_duplicate") });
                    let rules = BatchRules::AUTOMEM.with(on_duplicate(&body, BatchRules::AUTOMEM.duplicates)?);
                    if let Some(field) = args.fields.keys().next() {
                        return Err(Error::invalid(format!(
                            "{field}: batch mode (memories) takes no single-memory fields"
                        )));
                    }
                    let items = batch_values(serde_json::json!({ "memories": items }), "memories", MAX_BATCH)?;
                    let outcome = memories::store_batch(services, &tenant, items, rules).await?;
                    Ok(StoreReply::Many(AutoMemBatchStored::new(&embedder, outcome, started)))
                }
                None => {
                    let outcome = memories::store(services, &tenant, args.parse()?, Duplicates::Reuse).await?;
                    Ok(StoreReply::One(Stored::new(&embedder, &outcome, started)))
                }
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
        Parameters(args): Parameters<Args<MultiParams>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Read, |tenant| async {
            let started = Instant::now();
            let request = MultiRequest::parse(args.parse()?, Utc::now())?;
            let queries = request.queries.clone();
            let answer = recall::recall_many(services, &tenant, request).await?;
            Ok(RecallAnswer::new(queries, answer, started))
        })
    }

    #[tool(description = "Update a memory: content (re-embedded), tags, importance, metadata (replaces the \
        stored object), type, confidence, timestamp or any other field of the native update. Omitted fields keep \
        their value.")]
    async fn update_memory(
        &self,
        Parameters(mut args): Parameters<Args<UpdateArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Write, |tenant| async {
            let id = match args.take("memory_id") {
                Some(Value::String(raw)) => parse_uuid("memory_id", &raw)?,
                Some(_) => return Err(Error::invalid("memory_id: must be a UUID string")),
                None => return Err(Error::invalid("memory_id: is required")),
            };
            for ignored in ["updated_at", "last_accessed"] {
                args.take(ignored);
            }
            let memory = memories::update(services, &tenant, id, args.parse()?).await?;
            Ok(Updated { status: "success", memory_id: memory.id, memory: memory.into() })
        })
    }

    #[tool(
        description = "Delete one memory (memory_id) or every memory carrying any of the tags (tags; exact, \
        case-insensitive). Give exactly one of the two. Restorable for the tenant's undo window (7 days by \
        default), then erased; more than 1000 by tag needs confirm=true.",
        annotations(destructive_hint = true)
    )]
    async fn delete_memory(
        &self,
        Parameters(args): Parameters<Args<DeleteArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Write, |tenant| async {
            let args: DeleteArgs = args.parse()?;
            match (args.memory_id, args.tags) {
                (Some(id), None) => {
                    let id = parse_uuid("memory_id", &id)?;
                    memories::delete(services, &tenant, id).await?;
                    Ok(DeleteReply::One(MemoryIdResponse { status: "success", memory_id: id }))
                }
                (None, Some(tags)) => {
                    let (tags, deleted_count) =
                        memories::remove_by_tag(services, &tenant, &tags, args.confirm.unwrap_or(false)).await?;
                    Ok(DeleteReply::Tags(DeletedByTag { status: "success", tags, deleted_count }))
                }
                _ => Err(Error::invalid("memory_id: give exactly one of memory_id and tags")),
            }
        })
    }

    #[tool(description = "Associate two memories with a typed, weighted relation (RELATES_TO by default). The \
        same pair and type again updates the strength.")]
    async fn associate_memories(
        &self,
        Parameters(args): Parameters<Args<AssociationInput>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Write, |tenant| async {
            let association = associations::associate(services, &tenant, &Value::Object(args.fields.clone())).await?;
            Ok(Associated { status: "success", association: association.into() })
        })
    }

    #[tool(description = "Promote a short-term memory to long-term (clears its TTL).")]
    async fn promote_to_longterm(
        &self,
        Parameters(args): Parameters<Args<MemoryIdArgs>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Write, |tenant| async {
            let args: MemoryIdArgs = args.parse()?;
            let id = parse_uuid("memory_id", &args.memory_id)?;
            lifecycle::change(services, &tenant, id, Change::Promote).await.map(Memory::from)
        })
    }

    #[tool(
        description = "Recall memories grouped by the entities they mention (people, projects, preferences...). \
        Compact answers use short keys: n count/name, e entities, t type, m memories, c content, s score.",
        annotations(read_only_hint = true)
    )]
    async fn recall_memories(
        &self,
        Parameters(args): Parameters<Args<GroupedParams>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Read, |tenant| async {
            let request = GroupedRequest::parse(args.parse()?)?;
            let query = request.query.clone();
            let grouped = recall::recall_grouped(services, &tenant, request).await?;
            Ok(EntityRecallResponse::new(query, grouped))
        })
    }

    #[tool(description = "Surface memories relevant to the current conversation without an explicit search, and \
        (auto_ingest, default true) store the context as a Conversation memory.")]
    async fn proactive_context(
        &self,
        Parameters(args): Parameters<Args<ContextParams>>,
        Extension(parts): Extension<Parts>,
    ) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Read, |tenant| async {
            recall::context(services, &tenant, args.parse()?).await.map(ContextResponse::from)
        })
    }

    #[tool(
        description = "Counts of the tenant's memories: totals, by type, by lifecycle, embedding states, \
        associations, entities and tags.",
        annotations(read_only_hint = true)
    )]
    async fn memory_stats(&self, Extension(parts): Extension<Parts>) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Read, |tenant| async { stats::stats(services, &tenant).await.map(TenantStats::from) })
    }

    #[tool(
        description = "Whether the database answers and the embedding model is loaded.",
        annotations(read_only_hint = true)
    )]
    async fn check_database_health(&self, Extension(parts): Extension<Parts>) -> Result<CallToolResult, McpError> {
        let services = &self.services;
        as_tenant!(parts, Scope::Read, |_tenant| async { Ok::<_, Error>(Health::from(health::check(services).await)) })
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
#[utoipa::path(post, path = "/mcp", operation_id = "mcp.call", tag = "mcp",
    request_body(content = Object, description = "A JSON-RPC 2.0 message",
        example = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "recall_memory", "arguments": {"query": "database decisions", "limit": 5}}})),
    responses(
        (status = 200, description = "The JSON-RPC response", body = Object,
            example = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "{\"status\":\"success\",\"results\":[]}"}], "isError": false}})),
        (status = 202, description = "A notification, accepted"),
        (status = 406, description = "Accept does not list application/json and text/event-stream", body = crate::api::error::ErrorBody)
    ))]
#[allow(dead_code)]
pub fn mcp_endpoint() {}
