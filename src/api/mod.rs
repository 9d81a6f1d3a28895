//! HTTP: the router, shared state, the OpenAPI document, and the layers every request passes through.
//! One folder per surface (`native/`, `compat/` for AutoMem and SHODH, `mcp`); each resource is one file with
//! its own routes.

pub mod compat;
pub mod extract;
pub(crate) mod health;
pub mod mcp;
pub mod native;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderName, StatusCode};
use axum::response::Response;
use axum::routing::get;
use axum::{middleware, Json, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{OpenApi as OpenApiDoc, Ref, RefOr, Response as OaResponse};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::KeyVerifier;
use crate::config::AppArgs;
use crate::embed::EmbedderSlot;
use crate::error::{envelope, ApiError, ErrorBody};
use crate::recall::bm25::TermStatsCache;
use crate::store::Db;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub keys: KeyVerifier,
    /// The embedder, once loaded.
    pub embedder: EmbedderSlot,
    pub config: Arc<AppArgs>,
    pub started: Instant,
    /// Per-tenant keyword statistics for BM25.
    pub term_stats: TermStatsCache,
    /// The configured chat model (`CAIRN_LLM_*`), if any: summarises long content.
    pub llm: Option<Arc<crate::llm::ChatModel>>,
}

impl AppState {
    /// Runs a recall for a tenant with this deployment's embedder, statistics and fusion.
    pub async fn recall(
        &self,
        tenant_id: uuid::Uuid,
        request: crate::recall::RecallRequest,
    ) -> Result<crate::recall::RecallResponse, crate::error::ApiError> {
        crate::recall::recall(&self.db, &self.embedder, &self.term_stats, self.config.recall_fusion, tenant_id, request)
            .await
    }

    pub fn new(db: Db, config: AppArgs, embedder: EmbedderSlot) -> Self {
        let keys = KeyVerifier::new(db.owner().clone(), Duration::from_secs(config.key_cache_ttl_secs));
        let llm = config.llm().and_then(|c| match crate::llm::ChatModel::new(c) {
            Ok(model) => Some(Arc::new(model)),
            Err(err) => {
                tracing::error!(
                    error = format!("{err:#}"),
                    "the chat model is configured but unusable; working without it"
                );
                None
            }
        });
        Self {
            db,
            keys,
            embedder,
            config: Arc::new(config),
            started: Instant::now(),
            term_stats: TermStatsCache::default(),
            llm,
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Cairn",
        description = "A hosted, multi-tenant memory service for AI agents. Every error is \
            `{\"status\":\"error\",\"code\":N,\"message\":\"...\"}`; the message names the offending field.",
        license(name = "Apache-2.0")
    ),
    components(schemas(ErrorBody, compat::shodh::ShodhError)),
    paths(mcp::mcp_endpoint),
    modifiers(&Security),
    security(("bearer" = []), ("api_key_header" = []), ("api_key_query" = [])),
    tags(
        (name = "memories", description = "Store, read, update and delete memories"),
        (name = "recall", description = "Find memories by meaning, keywords, tags and time"),
        (name = "graph", description = "Associations between memories, traversal and episodes"),
        (name = "entities", description = "People, projects, tools and other entities found in memories"),
        (name = "jobs", description = "Background work: queues, failures, pipeline states"),
        (name = "settings", description = "The tenant's lifecycle settings"),
        (name = "keys", description = "Manage the tenant's API keys (admin scope)"),
        (name = "health", description = "Liveness and database reachability"),
        (name = "automem", description = "AutoMem's API at the root: `/memory`, `/recall`, `/associate`... \
            (seed 000). Same tenant keys, same data; duplicates answer 200 with `deduplicated: true`"),
        (name = "mcp", description = "The MCP server (streamable HTTP, JSON-RPC 2.0), authenticated with the same keys"),
        (name = "shodh", description = "The SHODH unified memory API under `/api` (seed 004). Errors take \
            SHODH's `ErrorResponse` shape `{success: false, error, code, details}`")
    )
)]
struct ApiDoc;

/// The three ways to present a key.
struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut OpenApiDoc) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
        components.add_security_scheme(
            "api_key_header",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-Key"))),
        );
        components
            .add_security_scheme("api_key_query", SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::new("api_key"))));
    }
}

/// Adds the error responses every authenticated route can give, so each `#[utoipa::path]` lists only
/// its own.
struct ErrorResponses;

impl Modify for ErrorResponses {
    fn modify(&self, openapi: &mut OpenApiDoc) {
        let response = |schema: &str, description: &str| -> RefOr<OaResponse> {
            utoipa::openapi::ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    utoipa::openapi::ContentBuilder::new().schema(Some(Ref::from_schema_name(schema))).build(),
                )
                .into()
        };
        for item in openapi.paths.paths.values_mut() {
            let operations = [&mut item.get, &mut item.post, &mut item.put, &mut item.patch, &mut item.delete];
            for op in operations.into_iter().flatten() {
                // The SHODH surface answers errors in its own shape.
                let shodh = op.tags.as_ref().is_some_and(|t| t.iter().any(|t| t == "shodh"));
                let schema = if shodh { "ShodhError" } else { "ErrorBody" };
                let error = |description: &str| response(schema, description);
                let public = op.security.as_ref().is_some_and(|s| s.iter().all(|r| r == &Default::default()));
                let responses = &mut op.responses.responses;
                if !public {
                    responses
                        .entry("401".into())
                        .or_insert_with(|| error("Missing, invalid, revoked or expired API key"));
                }
                responses.entry("400".into()).or_insert_with(|| error("Invalid request; the message names the field"));
                responses.entry("503".into()).or_insert_with(|| error("Database unavailable; retry later"));
                if op.request_body.is_some() {
                    responses.entry("413".into()).or_insert_with(|| error("Body over the size limit"));
                    responses.entry("415".into()).or_insert_with(|| error("Body is not JSON"));
                }
            }
        }
    }
}

fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::router())
        .merge(native::router())
        .merge(compat::automem::router())
        .merge(compat::shodh::router())
}

/// The OpenAPI document of every route.
pub fn openapi() -> OpenApiDoc {
    document(api_router().split_for_parts().1)
}

/// Finishes the merged document: modifiers on `ApiDoc` run before routes are merged, so the shared error
/// responses are added here.
fn document(mut doc: OpenApiDoc) -> OpenApiDoc {
    doc.info.version = crate::VERSION.to_owned();
    ErrorResponses.modify(&mut doc);
    doc
}

/// The complete application: routes, docs, and the layers (request ids, tracing, timeout, body limit,
/// panics as 500s, every error in the envelope).
pub fn router(state: AppState) -> Router {
    let (routes, doc) = api_router().split_for_parts();
    let doc = document(doc);
    let request_id = HeaderName::from_static("x-request-id");
    let spec = Arc::new(doc.clone());
    let mcp = Router::new()
        .fallback_service(mcp::service(state.clone()))
        .layer(middleware::from_fn_with_state(state.clone(), mcp::authenticate));
    routes
        .nest("/mcp", mcp)
        .route("/openapi.json", get(move || async move { Json(spec.as_ref().clone()) }))
        .merge(SwaggerUi::new("/docs").url("/docs/openapi.json", doc))
        .fallback(|| async { ApiError::not_found("no such route") })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed("method not allowed on this route".into()) })
        .with_state(state.clone())
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(CatchPanicLayer::custom(|_| envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal error")))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            Duration::from_secs(state.config.request_timeout_secs),
        ))
        // Outside the timeout, so its bare 503 is rewritten too.
        .layer(middleware::map_response(envelope_errors))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request| {
                    let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default();
                    tracing::info_span!("request", method = %req.method(), path = %req.uri().path(),
                        request_id = %id, tenant_id = tracing::field::Empty)
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO).latency_unit(LatencyUnit::Micros))
                .on_failure(DefaultOnFailure::new().level(tracing::Level::WARN)),
        )
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
}

/// Rewrites any error response that is not already JSON (axum's own rejections, timeouts) into the
/// envelope, keeping its status and, where there is one, its text.
async fn envelope_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let message = if text.is_empty() { status.canonical_reason().unwrap_or("error").to_lowercase() } else { text };
    keep_headers(&parts, envelope(status, message))
}

/// `rewritten` with the headers of the response it replaces (request id and the like), but its own
/// content type and length.
pub(crate) fn keep_headers(original: &axum::http::response::Parts, mut rewritten: Response) -> Response {
    for (name, value) in original.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rewritten.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rewritten
}
