//! `/api/v1/keys`: a tenant's admin manages its own API keys. Revoking here takes effect at once on this
//! instance (its verification cache is cleared) and within the cache TTL (at most 30 s) on the others.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Admin;
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, PathId};
use crate::api::views::ApiKeyInfo;
use crate::api::AppState;
use crate::service::keys;

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
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn list_keys(State(services): State<AppState>, Admin(tenant): Admin) -> ApiResult<Json<KeyList>> {
    let keys = keys::list(&services, &tenant).await?;
    Ok(Json(KeyList { keys: keys.into_iter().map(ApiKeyInfo::from).collect() }))
}

/// Create an API key for this tenant.
#[utoipa::path(post, path = "/api/v1/keys", tag = "keys", request_body = NewKey,
    responses(
        (status = 201, description = "Created; the secret is in `api_key`", body = CreatedKey),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn create_key(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    ApiJson(body): ApiJson<NewKey>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let (key, api_key) =
        keys::create(&services, &tenant, body.scopes, body.name.as_deref(), body.expires_in_days).await?;
    Ok((StatusCode::CREATED, Json(CreatedKey { key: key.into(), api_key })))
}

/// Revoke one of this tenant's API keys.
#[utoipa::path(delete, path = "/api/v1/keys/{id}", tag = "keys",
    params(("id" = uuid::Uuid, Path, description = "Key id")),
    responses(
        (status = 200, description = "Revoked", body = ApiKeyInfo),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such key in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn revoke_key(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
) -> ApiResult<Json<ApiKeyInfo>> {
    Ok(Json(keys::revoke(&services, &tenant, id).await?.into()))
}
