//! `/api/v1/keys`: a tenant's admin manages its own API keys (never another tenant's). Revoking or rotating
//! takes effect at once on every instance (the database announces it).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Admin;
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, OptionalJson, PathId};
use crate::api::views::control::{CreatedKey, KeyList, MintedToken, NewKey, NewToken, RotateKey, RotatedKey};
use crate::api::views::ApiKeyInfo;
use crate::api::AppState;
use crate::service::keys;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_keys, create_key))
        .routes(routes!(revoke_key))
        .routes(routes!(rotate_key))
        .routes(routes!(mint_token))
}

/// List the tenant's API keys (never their secrets).
#[utoipa::path(get, path = "/api/v1/keys", operation_id = "keys.list", tag = "keys",
    responses(
        (status = 200, description = "The keys", body = KeyList),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn list_keys(State(services): State<AppState>, Admin(tenant): Admin) -> ApiResult<Json<KeyList>> {
    let keys = keys::list(&services, &tenant).await?;
    Ok(Json(KeyList { keys: keys.into_iter().map(ApiKeyInfo::from).collect() }))
}

/// Create an API key for this tenant.
#[utoipa::path(post, path = "/api/v1/keys", operation_id = "keys.create", tag = "keys", request_body = NewKey,
    responses(
        (status = 201, description = "Created; the secret is in `api_key`", body = CreatedKey),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn create_key(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    ApiJson(body): ApiJson<NewKey>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let (key, api_key) = keys::create(&services, &tenant, &body.into()).await?;
    Ok((StatusCode::CREATED, Json(CreatedKey { key: key.into(), api_key })))
}

/// Revoke one of this tenant's API keys.
#[utoipa::path(delete, path = "/api/v1/keys/{id}", operation_id = "keys.revoke", tag = "keys",
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

/// Rotate one of this tenant's API keys: a new secret; the old one works for the grace period chosen.
#[utoipa::path(post, path = "/api/v1/keys/{id}/rotate", operation_id = "keys.rotate", tag = "keys", request_body(content = RotateKey, description = "Optional"),
    params(("id" = uuid::Uuid, Path, description = "Key id")),
    responses(
        (status = 201, description = "Rotated; the new secret is in `api_key`", body = RotatedKey),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such key in this tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "The key is revoked or expired", body = crate::api::error::ErrorBody)
    ))]
async fn rotate_key(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
    OptionalJson(body): OptionalJson<RotateKey>,
) -> ApiResult<(StatusCode, Json<RotatedKey>)> {
    let (key, api_key, previous) = keys::rotate(&services, &tenant, id, body.grace_period_secs).await?;
    Ok((StatusCode::CREATED, Json(RotatedKey { key: key.into(), api_key, previous: previous.into() })))
}

/// Mint a short-lived token from this admin key, for a browser or device that must not hold a key: read or
/// write (never admin), limited to end users, agents and/or tag prefixes, living up to an hour. It acts as
/// this key (its rate limit, its authorship) and stops working when this key is revoked or expires.
#[utoipa::path(post, path = "/api/v1/tokens", operation_id = "tokens.mint", tag = "keys", request_body = NewToken,
    responses(
        (status = 201, description = "Minted; send `token` as a bearer token", body = MintedToken),
        (status = 400, description = "A field is invalid (named in the message)", body = crate::api::error::ErrorBody),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn mint_token(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    OptionalJson(body): OptionalJson<NewToken>,
) -> ApiResult<(StatusCode, Json<MintedToken>)> {
    let minted = keys::mint(&services, &tenant, &body.into()).await?;
    Ok((StatusCode::CREATED, Json(minted.into())))
}
