//! The [`Auth`] extractor: finds the key (`Authorization: Bearer`, `X-API-Key`, or `?api_key=`) and
//! verifies it. Handlers then check scopes with [`Auth::require`] and open a tenant transaction.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use uuid::Uuid;

use super::Scope;
use crate::api::AppState;
use crate::error::ApiError;

/// The verified identity behind a request.
#[derive(Debug, Clone)]
pub struct Auth {
    pub tenant_id: Uuid,
    pub key_id: Uuid,
    pub scopes: Vec<Scope>,
    pub expires_at: Option<DateTime<Utc>>,
}

impl Auth {
    /// Whether the key grants `scope` (`write` implies `read`; `admin` implies both).
    pub fn has(&self, scope: Scope) -> bool {
        self.scopes.iter().any(|s| match scope {
            Scope::Read => true,
            Scope::Write => matches!(s, Scope::Write | Scope::Admin),
            Scope::Admin => matches!(s, Scope::Admin),
        })
    }

    /// 403 unless the key grants `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.has(scope) {
            Ok(())
        } else {
            Err(ApiError::Forbidden(format!("this API key lacks the {:?} scope", scope.as_str())))
        }
    }

    /// Who to name in the audit trail.
    pub fn actor(&self) -> String {
        format!("key:{}", self.key_id)
    }
}

#[derive(Deserialize)]
struct KeyQuery {
    api_key: Option<String>,
}

/// The presented key, from the first of: `Authorization: Bearer`, `X-API-Key`, `?api_key=`.
fn presented_key(headers: &HeaderMap, query: Option<&str>) -> Result<Option<String>, ApiError> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = value.to_str().unwrap_or_default().trim();
        let token = value
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty())
            .ok_or_else(|| ApiError::Unauthorized("Authorization header must be \"Bearer <API key>\"".into()))?;
        return Ok(Some(token.to_owned()));
    }
    if let Some(value) = headers.get("x-api-key") {
        let value = value.to_str().unwrap_or_default().trim();
        if !value.is_empty() {
            return Ok(Some(value.to_owned()));
        }
    }
    let from_query = query
        .and_then(|q| serde_html_form::from_str::<KeyQuery>(q).ok())
        .and_then(|q| q.api_key)
        .filter(|k| !k.trim().is_empty());
    Ok(from_query)
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let key = presented_key(&parts.headers, parts.uri.query())?.ok_or_else(|| {
            ApiError::Unauthorized(
                "missing API key: send \"Authorization: Bearer <key>\", \"X-API-Key\" or ?api_key=".into(),
            )
        })?;
        let auth: Arc<Auth> = state.keys.verify(&key).await?;
        tracing::Span::current().record("tenant_id", tracing::field::display(auth.tenant_id));
        Ok((*auth).clone())
    }
}

/// An [`Auth`] whose key has the `write` scope (else 403, before the body is read).
pub struct Writer(pub Auth);

/// An [`Auth`] whose key has the `admin` scope (else 403).
pub struct Admin(pub Auth);

macro_rules! scoped_extractor {
    ($name:ident, $scope:expr) => {
        impl FromRequestParts<AppState> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
                let auth = Auth::from_request_parts(parts, state).await?;
                auth.require($scope)?;
                Ok(Self(auth))
            }
        }
    };
}

scoped_extractor!(Writer, Scope::Write);
scoped_extractor!(Admin, Scope::Admin);
