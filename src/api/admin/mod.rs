//! The admin API under `/admin/v1`, for operators: sessions (login, refresh, logout), tenants, their keys
//! and usage, plans, and the audit log. Authenticated by short-lived access JWTs (`admin_jwt` in the OpenAPI
//! document); login and refresh are rate-limited per client address (tower-governor) and login per account.
//! A thin translation over `service::{admins, tenants, keys, usage, audit}`.

mod audit;
mod jobs;
mod session;
mod tenants;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::GovernorLayer;
use utoipa_axum::router::OpenApiRouter;

use super::auth::ClientIpKey;
use super::error::{envelope, ApiError};
use super::AppState;
use crate::auth::admin::{Claims, Operator};
use crate::error::Error;
use crate::service::admins;

/// Every admin route; `login_per_minute` is the per-address allowance of login and refresh.
pub fn router(login_per_minute: u64, client_ip_header: Option<String>) -> OpenApiRouter<AppState> {
    let period = Duration::from_millis((60_000 / login_per_minute.max(1)).max(1));
    let config = GovernorConfigBuilder::default()
        .period(period)
        .burst_size(login_per_minute.clamp(1, u64::from(u32::MAX)) as u32)
        .key_extractor(ClientIpKey { header: client_ip_header })
        .use_headers()
        .finish();
    let public = session::public_router();
    let public = match config {
        Some(config) => {
            let config = Arc::new(config);
            prune_every_minute(Arc::downgrade(&config));
            public.layer(GovernorLayer::new(config).error_handler(|err| match err {
                tower_governor::GovernorError::TooManyRequests { wait_time, headers } => {
                    let mut response = envelope(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        format!("too many login attempts from this address; retry after {wait_time} s"),
                    );
                    if let Some(headers) = headers {
                        response.headers_mut().extend(headers);
                    }
                    response
                }
                _ => envelope(axum::http::StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
            }))
        }
        None => public,
    };
    OpenApiRouter::new()
        .merge(public)
        .merge(session::router())
        .merge(tenants::router())
        .merge(audit::router())
        .merge(jobs::router())
}

/// Drops the per-address login allowances of addresses not seen for a while, every minute, for as long as the
/// router that holds `config` lives (the map would otherwise keep every address that ever tried).
fn prune_every_minute<K: tower_governor::key_extractor::KeyExtractor + Send + Sync + 'static, M>(
    config: std::sync::Weak<tower_governor::governor::GovernorConfig<K, M>>,
) where
    K::Key: Send + Sync,
    M: governor::middleware::RateLimitingMiddleware<governor::clock::QuantaInstant> + Send + Sync + 'static,
{
    // Outside a runtime the router only describes itself (`cairn openapi`): nothing to prune.
    let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            let Some(config) = config.upgrade() else { return };
            config.limiter().retain_recent();
            config.limiter().shrink_to_fit();
        }
    });
}

/// A request signed by an operator: the access token's claims, and who acts.
pub struct AdminUser {
    pub operator: Operator,
    pub claims: Claims,
}

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, services: &AppState) -> Result<Self, Self::Rejection> {
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim().to_owned())
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                Error::Unauthenticated("missing admin token: send \"Authorization: Bearer <access token>\"".into())
            })?;
        let (operator, claims) = admins::authenticate(services, &token).await?;
        tracing::Span::current().record("tenant_id", tracing::field::display(format!("admin:{}", claims.sub)));
        Ok(Self { operator, claims })
    }
}
