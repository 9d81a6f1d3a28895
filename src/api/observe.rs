//! What every request leaves behind: Prometheus metrics (latency per route template, status counts), the
//! tenant's usage count (by route class, in memory, flushed in batches), and the `X-RateLimit-*` headers of
//! a rate-limited request. Authentication fills the request's [`Observed`] slot; this layer reads it once
//! the response is ready.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use uuid::Uuid;

use super::AppState;
use crate::auth::RateState;
use crate::service::usage::counter;

#[derive(Debug, Default)]
struct Seen {
    tenant: Option<Uuid>,
    rate: Option<RateState>,
}

/// The slot authentication writes into: the tenant whose request it is, and its rate-limit standing.
#[derive(Debug, Clone, Default)]
pub struct Observed(Arc<Mutex<Seen>>);

impl Observed {
    /// An admitted request of `tenant`, with its standing (None: not limited).
    pub fn record(&self, tenant: Uuid, rate: Option<RateState>) {
        if let Ok(mut seen) = self.0.lock() {
            seen.tenant = Some(tenant);
            seen.rate = rate;
        }
    }

    /// A request refused by a rate limit.
    pub fn refused(&self, rate: RateState) {
        if let Ok(mut seen) = self.0.lock() {
            seen.rate = Some(rate);
        }
    }

    fn take(&self) -> Seen {
        self.0.lock().map(|mut s| std::mem::take(&mut *s)).unwrap_or_default()
    }
}

/// A route template as a label, `/api/v1/memories/:id`: braces inside label values trip some Prometheus
/// parsers.
fn route_label(template: &str) -> String {
    template.replace('{', ":").replace('}', "")
}

/// The layer: times the request, counts it, and adds the rate-limit headers.
pub async fn observe(State(services): State<AppState>, mut request: Request, next: Next) -> Response {
    let observed = Observed::default();
    request.extensions_mut().insert(observed.clone());
    let route =
        request.extensions().get::<MatchedPath>().map_or_else(|| "unmatched".to_owned(), |p| route_label(p.as_str()));
    let method = request.method().clone();
    // A fixed set of method labels: a client inventing methods must not mint new series.
    let method_label = match method {
        Method::GET | Method::POST | Method::PUT | Method::PATCH | Method::DELETE | Method::HEAD | Method::OPTIONS => {
            method.as_str().to_owned()
        }
        _ => "OTHER".to_owned(),
    };
    let started = Instant::now();
    let mut response = next.run(request).await;
    let elapsed = started.elapsed().as_secs_f64();
    let status = response.status().as_u16().to_string();
    metrics::histogram!("cairn_http_request_duration_seconds", "method" => method_label.clone(), "route" => route.clone())
        .record(elapsed);
    metrics::counter!("cairn_http_requests_total", "method" => method_label, "route" => route, "status" => status)
        .increment(1);
    let seen = observed.take();
    if let Some(tenant) = seen.tenant {
        let class = if matches!(method, Method::GET | Method::HEAD) { counter::READS } else { counter::WRITES };
        services.usage.add(tenant, class, 1);
        // While a read replica may not have this instance's last write of the tenant yet.
        if let Some(token) = services.consistency_token(tenant).and_then(|t| HeaderValue::from_str(&t).ok()) {
            response.headers_mut().insert(super::auth::CONSISTENCY_TOKEN, token);
        }
    }
    if let Some(rate) = seen.rate {
        let headers = response.headers_mut();
        headers.insert("x-ratelimit-limit", HeaderValue::from(rate.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(rate.remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(rate.reset_secs));
        if let Some(wait) = rate.retry_after_secs {
            headers.insert(axum::http::header::RETRY_AFTER, HeaderValue::from(wait));
        }
    }
    response
}
