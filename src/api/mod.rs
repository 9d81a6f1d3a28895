//! HTTP: the router, shared state, the OpenAPI document, and the layers every request passes through.
//! One folder per surface (`native/`, `compat/` for AutoMem and SHODH, `mcp`); each resource is one file with
//! its own routes.

pub mod admin;
pub mod auth;
pub mod automem;
pub mod dashboard;
pub mod error;
pub mod extract;
pub(crate) mod health;
pub mod mcp;
pub mod metrics;
pub mod native;
pub mod observe;
pub mod remem;
pub mod schema;
pub mod shodh;
pub mod views;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, StatusCode};
use axum::routing::get;
use axum::{middleware, Json, Router};
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{OpenApi as OpenApiDoc, Ref, RefOr, Response as OaResponse};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_swagger_ui::SwaggerUi;

use self::error::{envelope, envelope_errors, ApiError, ErrorBody};
use crate::service::Services;

/// What every handler can reach: the deployment's services.
pub type AppState = Services;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Cairn",
        description = "A hosted, multi-tenant memory service for AI agents. Every error is \
            `{\"status\":\"error\",\"code\":N,\"message\":\"...\"}`; the message names the offending field.",
        license(name = "Apache-2.0")
    ),
    components(schemas(ErrorBody, shodh::ShodhError)),
    paths(mcp::mcp_endpoint, metrics::metrics),
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
        (name = "webhooks", description = "Endpoints the tenant's events are posted to, signed, and their delivery log (admin scope)"),
        (name = "usage", description = "The tenant's usage per day, what it stores, and its limits"),
        (name = "transfer", description = "Export and import the tenant's data as JSON Lines"),
        (name = "health", description = "Liveness, database reachability and Prometheus metrics"),
        (name = "admin", description = "The operators' API under `/admin/v1`: sessions (login with email and \
            password, refresh, logout), tenants and their lifecycle, keys, usage, plans and the audit log. \
            Authenticated with an access JWT (`admin_jwt`), never with a tenant's API key"),
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
        let mut jwt = Http::new(HttpAuthScheme::Bearer);
        jwt.bearer_format = Some("JWT".into());
        jwt.description = Some("An operator's access token from POST /admin/v1/login".into());
        components.add_security_scheme("admin_jwt", SecurityScheme::Http(jwt));
        let mut metrics = Http::new(HttpAuthScheme::Bearer);
        metrics.description = Some("CAIRN_METRICS_TOKEN, when the deployment sets one".into());
        components.add_security_scheme("metrics_token", SecurityScheme::Http(metrics));
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
                if !public {
                    responses.entry("403".into()).or_insert_with(|| error("The key lacks the scope this call needs"));
                }
                responses.entry("400".into()).or_insert_with(|| error("Invalid request; the message names the field"));
                responses.entry("429".into()).or_insert_with(|| {
                    error("A rate limit or a daily quota is spent; `Retry-After` says when to retry")
                });
                responses.entry("503".into()).or_insert_with(|| error("Database unavailable; retry later"));
                if op.request_body.is_some() {
                    responses.entry("413".into()).or_insert_with(|| error("Body over the size limit"));
                    responses.entry("415".into()).or_insert_with(|| error("Body is not JSON"));
                }
            }
        }
    }
}

fn api_router(config: &crate::config::Settings) -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::router())
        .merge(admin::router(config.login_per_ip_per_minute, config.client_ip_header.clone()))
        .merge(native::router())
        .merge(remem::router())
        .merge(automem::router())
        .merge(shodh::router())
}

/// The OpenAPI document of every route.
pub fn openapi() -> OpenApiDoc {
    document(api_router(&crate::config::Settings::default()).split_for_parts().1)
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
    let (routes, doc) = api_router(&state.config).split_for_parts();
    metrics::handle();
    let doc = document(doc);
    let request_id = HeaderName::from_static("x-request-id");
    let spec = Arc::new(doc.clone());
    let mcp = Router::new()
        .fallback_service(mcp::service(state.clone()))
        .layer(middleware::from_fn_with_state(state.clone(), mcp::authenticate));
    routes
        .nest("/mcp", mcp)
        .route("/openapi.json", get(move || async move { Json(spec.as_ref().clone()) }))
        .route("/metrics", get(metrics::metrics))
        .merge(SwaggerUi::new("/docs").url("/docs/openapi.json", doc))
        .merge(dashboard::router())
        .fallback(|| async { ApiError::from(crate::error::Error::not_found("no such route")) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed("method not allowed on this route".into()) })
        .with_state(state.clone())
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(CatchPanicLayer::custom(|_| envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal error")))
        .layer(middleware::from_fn_with_state(state.clone(), deadline))
        // Outside the timeout, so its bare 503 is rewritten too.
        .layer(middleware::map_response(envelope_errors))
        // Outside both, so every response is measured, counted and given its rate-limit headers.
        .layer(middleware::from_fn_with_state(state.clone(), observe::observe))
        .layer(middleware::from_fn_with_state(state.clone(), origin))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request| {
                    let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default();
                    // The query without the value of any `api_key` (a key in a URL never reaches a log).
                    let query = req.uri().query().map(auth::redact_query).unwrap_or_default();
                    tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), query = %query,
                        request_id = %id, tenant_id = tracing::field::Empty)
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO).latency_unit(LatencyUnit::Micros))
                .on_failure(DefaultOnFailure::new().level(tracing::Level::WARN)),
        )
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
}

/// Longest request id kept in the audit log (a client may send its own `X-Request-Id`).
const MAX_REQUEST_ID_CHARS: usize = 128;

/// Every request's origin (the client's address, the request's id) for the audit entries of what it does.
async fn origin(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request,
    next: middleware::Next,
) -> axum::response::Response {
    let client = auth::client_ip(request.headers(), request.extensions(), state.config.client_ip_header.as_deref());
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(|id| id.chars().take(MAX_REQUEST_ID_CHARS).collect());
    crate::service::audit::with_origin(crate::service::audit::Origin { client, request_id }, next.run(request)).await
}

/// Ends a request that runs past `CAIRN_REQUEST_TIMEOUT_SECS` with 503 — except an import, which streams its
/// body batch by batch for as long as data keeps arriving (it bounds its own idle time).
async fn deadline(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request,
    next: middleware::Next,
) -> axum::response::Response {
    if request.uri().path() == "/api/v1/import" {
        return next.run(request).await;
    }
    let limit = Duration::from_secs(state.config.request_timeout_secs);
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => envelope(StatusCode::SERVICE_UNAVAILABLE, "the request took too long; retry later"),
    }
}

/// Serves the API on `listener` until `shutdown` resolves, then stops accepting and lets in-flight requests
/// finish, for at most the request timeout and a grace period (an import, which has no request timeout, is
/// cut off then).
///
/// Hand-written over hyper-util rather than `axum::serve`, which sets no timer and so cannot bound how long
/// a client may take to send its request headers: a slow client (one byte a minute), or one that connects
/// and sends nothing, would hold a connection and its task forever. Here a connection whose headers take
/// longer than `CAIRN_HEADER_READ_TIMEOUT_SECS`, counted from the connection's start or its first byte, is
/// closed. (An idle keep-alive connection between requests is not: hyper only polls it for its close.)
/// HTTP/1.1 only: sniffing for HTTP/2's preface has no timeout, and HTTP/2 belongs to the proxy in front.
pub async fn serve(
    listener: TcpListener,
    services: Services,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;

    let header_timeout = Duration::from_secs(services.config.header_read_timeout_secs);
    let drain_for = Duration::from_secs(services.config.request_timeout_secs + 5);
    let app = router(services);
    let mut builder = Builder::new(TokioExecutor::new()).http1_only();
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(error = %err, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = tower::ServiceExt::map_request(app.clone(), move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(axum::extract::ConnectInfo(remote));
            req.map(axum::body::Body::new)
        });
        let builder = builder.clone();
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // hyper's header timer starts with the first byte: a client that connects and sends nothing is
            // closed here.
            // (`readable()` would not do: a new socket starts out marked ready.)
            let mut first = [0_u8; 1];
            if !matches!(tokio::time::timeout(header_timeout, stream.peek(&mut first)).await, Ok(Ok(1..))) {
                return;
            }
            let connection =
                builder.serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service));
            if let Err(err) = watcher.watch(connection.into_owned()).await {
                tracing::debug!(error = %err, %remote, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(drain_for, graceful.shutdown()).await.is_err() {
        tracing::warn!(seconds = drain_for.as_secs(), "connections still open after the drain period; closing them");
    }
    Ok(())
}
