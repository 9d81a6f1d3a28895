//! Reading a key off a request: `Authorization: Bearer`, `X-API-Key`, `X-Admin-Token` (AutoMem's admin
//! routes) or `?api_key=`, verified into the [`Tenant`] context the use cases take, then counted against the
//! key's and tenant's rate limits (their standing goes to the response's `X-RateLimit-*` headers through
//! [`super::observe::Observed`]). [`Writer`] and [`Admin`] refuse a key without the scope before the body
//! is read. [`client_ip`] is the client's address (a trusted proxy's header, else the peer).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Request};
use serde::Deserialize;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::GovernorError;

use super::error::ApiError;
use super::observe::Observed;
use crate::auth::{Scope, Tenant};
use crate::error::Error;
use crate::service::Services;

#[derive(Deserialize)]
struct KeyQuery {
    api_key: Option<String>,
}

/// A non-empty header value.
fn header_value(headers: &HeaderMap, name: &str) -> Option<String> {
    let value = headers.get(name)?.to_str().unwrap_or_default().trim();
    (!value.is_empty()).then(|| value.to_owned())
}

/// The presented key, from the first of: `Authorization: Bearer`, `X-API-Key`, `X-Admin-Token`, `?api_key=`
/// (unless `query_allowed` is false: then a key there is refused, saying why). Where an admin scope is needed,
/// `X-Admin-Token` comes first: AutoMem's clients send their ordinary key as the bearer and the admin one
/// beside it.
fn presented_key(
    headers: &HeaderMap,
    query: Option<&str>,
    admin: bool,
    query_allowed: bool,
) -> Result<Option<String>, Error> {
    if let Some(token) = header_value(headers, "x-admin-token").filter(|_| admin) {
        return Ok(Some(token));
    }
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = value.to_str().unwrap_or_default().trim();
        let token = value
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty())
            .ok_or_else(|| Error::Unauthenticated("Authorization header must be \"Bearer <API key>\"".into()))?;
        return Ok(Some(token.to_owned()));
    }
    if let Some(key) = header_value(headers, "x-api-key").or_else(|| header_value(headers, "x-admin-token")) {
        return Ok(Some(key));
    }
    let from_query = query
        .and_then(|q| serde_html_form::from_str::<KeyQuery>(q).ok())
        .and_then(|q| q.api_key)
        .filter(|k| !k.trim().is_empty());
    if from_query.is_some() && !query_allowed {
        return Err(Error::Unauthenticated(
            "api_key: keys in the query string are turned off on this deployment (CAIRN_ALLOW_QUERY_API_KEY); send \"Authorization: Bearer <key>\" or \"X-API-Key\""
                .into(),
        ));
    }
    Ok(from_query)
}

/// Whether a raw `name=value` pair of a query string names the API key (its name decoded as the query parser
/// decodes it, so `api%5Fkey` is it too).
pub fn is_key_pair(pair: &str) -> bool {
    form_urlencoded::parse(pair.as_bytes()).next().is_some_and(|(name, _)| name.eq_ignore_ascii_case("api_key"))
}

/// A query string with the value of every `api_key` parameter replaced by `[redacted]`, for logs and traces.
pub fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| if is_key_pair(pair) { "api_key=[redacted]".to_owned() } else { pair.to_owned() })
        .collect::<Vec<_>>()
        .join("&")
}

/// The tenant context of a request's key.
pub async fn tenant_of(parts: &Parts, services: &Services) -> Result<Tenant, Error> {
    verified(parts, services, false).await
}

/// The client's address: from `header` when a trusted proxy sets it (`X-Forwarded-For`: its right-most
/// entry, the one the proxy appended), else the peer's.
pub fn client_ip(headers: &HeaderMap, extensions: &axum::http::Extensions, header: Option<&str>) -> Option<IpAddr> {
    let forwarded = header.and_then(|name| headers.get(name)).and_then(|v| v.to_str().ok()).and_then(|v| {
        let last = v.rsplit(',').next().unwrap_or_default().trim();
        last.parse::<IpAddr>().ok().or_else(|| last.parse::<SocketAddr>().ok().map(|a| a.ip()))
    });
    forwarded.or_else(|| extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()))
}

async fn verified(parts: &Parts, services: &Services, admin: bool) -> Result<Tenant, Error> {
    let allowed = services.config.allow_query_api_key;
    let key = presented_key(&parts.headers, parts.uri.query(), admin, allowed)?.ok_or_else(|| {
        Error::Unauthenticated(
            "missing API key: send \"Authorization: Bearer <key>\", \"X-API-Key\" or ?api_key=".into(),
        )
    })?;
    let client = client_ip(&parts.headers, &parts.extensions, services.config.client_ip_header.as_deref());
    let auth = match key.strip_prefix(crate::auth::token::TOKEN_PREFIX) {
        Some(jwt) => services.keys.verify_token(&services.tokens, jwt, client).await?,
        None => services.keys.verify(&key, client).await?,
    };
    tracing::Span::current().record("tenant_id", tracing::field::display(auth.tenant.id));
    let observed = parts.extensions.get::<Observed>();
    match services.keys.rates.check(&auth.access, auth.tenant.key_id(), auth.key_rate) {
        Ok(state) => {
            if let Some(observed) = observed {
                observed.record(auth.tenant.id, state);
            }
            let mut tenant = auth.tenant;
            tenant.read_after = consistency_token(&parts.headers)?;
            tenant.turn = Some(services.keys.concurrency.turn(tenant.id).await?);
            Ok(tenant)
        }
        Err((err, state)) => {
            if let Some(observed) = observed {
                observed.refused(state);
            }
            Err(err)
        }
    }
}

/// The header a write's response carries while read replicas may not have the write yet, and a read sends
/// back (through any instance) to be served from a replica only when the replica has it.
pub const CONSISTENCY_TOKEN: &str = "cairn-consistency-token";

/// The request's consistency token, when it sends one.
fn consistency_token(headers: &HeaderMap) -> Result<Option<u64>, Error> {
    let Some(value) = headers.get(CONSISTENCY_TOKEN) else { return Ok(None) };
    value.to_str().ok().and_then(crate::tenancy::consistency::parse_lsn).map(Some).ok_or_else(|| {
        Error::invalid(
            "Cairn-Consistency-Token: not a token this service returned (expected a WAL position such as 16/B374D848)",
        )
    })
}

/// tower-governor's key for unauthenticated routes (admin login and refresh): the client's address as
/// [`client_ip`] finds it (clients of unknown address share one allowance).
#[derive(Debug, Clone)]
pub struct ClientIpKey {
    pub header: Option<String>,
}

impl KeyExtractor for ClientIpKey {
    type Key = Option<IpAddr>;

    fn extract<T>(&self, req: &Request<T>) -> Result<Self::Key, GovernorError> {
        // Per IPv6 /64, as every other per-address allowance (one host holds a whole /64).
        Ok(client_ip(req.headers(), req.extensions(), self.header.as_deref()).map(crate::auth::network))
    }
}

impl FromRequestParts<Services> for Tenant {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, services: &Services) -> Result<Self, Self::Rejection> {
        Ok(tenant_of(parts, services).await?)
    }
}

/// A [`Tenant`] whose key has the `write` scope (else 403, before the body is read).
pub struct Writer(pub Tenant);

/// A [`Tenant`] whose key has the `admin` scope (else 403).
pub struct Admin(pub Tenant);

macro_rules! scoped_extractor {
    ($name:ident, $scope:expr) => {
        impl FromRequestParts<Services> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, services: &Services) -> Result<Self, Self::Rejection> {
                let tenant = verified(parts, services, $scope == Scope::Admin).await?;
                tenant.require($scope)?;
                Ok(Self(tenant))
            }
        }
    };
}

scoped_extractor!(Writer, Scope::Write);
scoped_extractor!(Admin, Scope::Admin);
