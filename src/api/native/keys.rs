//! `/api/v1/keys`: a tenant's admin manages its own API keys. Revoking here takes effect at once on this
//! instance (its verification cache is cleared) and within the cache TTL (at most 30 s) on the others.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::{Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiJson, PathId};
use crate::api::AppState;
use crate::auth::{self, Admin};
use crate::error::ApiError;
use crate::store::tenants::{self, ApiKeyInfo};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_keys, create_key)).routes(routes!(revoke_key))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"scopes": ["read"], "name": "dashboard", "expires_in_days": 90}))]
pub struct NewKey {
    /// read, write (implies read), admin (implies both). Default: read, write.
    pub scopes: Option<Vec<String>>,
    /// A label.
    pub name: Option<String>,
    /// Days until expiry, 1..=3650 (never, if absent).
    pub expires_in_days: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedKey {
    pub key: ApiKeyInfo,
    /// The secret: shown this once, never stored in clear.
    pub api_key: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KeyList {
    pub keys: Vec<ApiKeyInfo>,
}

/// List the tenant's API keys (never their secrets).
#[utoipa::path(get, path = "/api/v1/keys", tag = "keys",
    responses(
        (status = 200, description = "The keys", body = KeyList),
        (status = 403, description = "Key lacks the admin scope", body = crate::error::ErrorBody)
    ))]
async fn list_keys(State(state): State<AppState>, Admin(auth): Admin) -> Result<Json<KeyList>, ApiError> {
    Ok(Json(KeyList { keys: tenants::list_keys(state.db.owner(), auth.tenant_id).await? }))
}

/// Create an API key for this tenant.
#[utoipa::path(post, path = "/api/v1/keys", tag = "keys", request_body = NewKey,
    responses(
        (status = 201, description = "Created; the secret is in `api_key`", body = CreatedKey),
        (status = 403, description = "Key lacks the admin scope", body = crate::error::ErrorBody)
    ))]
async fn create_key(
    State(state): State<AppState>,
    Admin(auth): Admin,
    ApiJson(body): ApiJson<NewKey>,
) -> Result<(StatusCode, Json<CreatedKey>), ApiError> {
    let scopes = auth::parse_scopes(&body.scopes.unwrap_or_else(|| vec!["read".into(), "write".into()]))
        .map_err(|e| ApiError::bad_request(format!("scopes: {e}")))?;
    let expires_at = match body.expires_in_days {
        Some(days) if (1..=3650).contains(&days) => Some(Utc::now() + Duration::days(days)),
        Some(days) => {
            return Err(ApiError::bad_request(format!("expires_in_days: must be between 1 and 3650 (got {days})")))
        }
        None => None,
    };
    let name = body.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.contains('\0') || n.chars().count() > 200) {
        return Err(ApiError::bad_request("name: must be at most 200 characters, without NUL"));
    }
    let (key, api_key) = auth::create_key(state.db.owner(), auth.tenant_id, &scopes, name, expires_at).await?;
    Ok((StatusCode::CREATED, Json(CreatedKey { key, api_key })))
}

/// Revoke one of this tenant's API keys.
#[utoipa::path(delete, path = "/api/v1/keys/{id}", tag = "keys",
    params(("id" = uuid::Uuid, Path, description = "Key id")),
    responses(
        (status = 200, description = "Revoked", body = ApiKeyInfo),
        (status = 403, description = "Key lacks the admin scope", body = crate::error::ErrorBody),
        (status = 404, description = "No such key in this tenant", body = crate::error::ErrorBody)
    ))]
async fn revoke_key(
    State(state): State<AppState>,
    Admin(auth): Admin,
    PathId(id): PathId,
) -> Result<Json<ApiKeyInfo>, ApiError> {
    state
        .keys
        .revoke(id, Some(auth.tenant_id))
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("API key {id} not found")))
}
