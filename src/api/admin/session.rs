//! `/admin/v1/login`, `/refresh`, `/logout`: an operator's session.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AdminUser;
use crate::api::error::ApiResult;
use crate::api::extract::ApiJson;
use crate::api::AppState;
use crate::service::admins::{self, Session};

/// Login and refresh: no token needed, limited per client address.
pub fn public_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(refresh))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(logout))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ops@example.com", "password": "correct horse battery staple"}))]
pub struct Login {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"refresh_token": "crt_3kV9..."}))]
pub struct Refresh {
    /// The refresh token of the last login or refresh. Each is good for one refresh: presenting it again
    /// revokes the whole session.
    pub refresh_token: String,
}

/// A session's tokens.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"access_token": "eyJhbGciOiJIUzI1NiIs...", "token_type": "Bearer", "expires_in": 900,
    "refresh_token": "crt_3kV9...", "refresh_expires_in": 2592000,
    "admin": {"id": "0b8f3c1e-3f7a-4d0e-9d6b-2f1c7a9e5b40", "email": "ops@example.com"}}))]
pub struct TokenPair {
    /// A JWT (HS256) for `Authorization: Bearer` on `/admin/v1`.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds until the access token expires.
    pub expires_in: u64,
    /// Exchange it at `/admin/v1/refresh` for new tokens (once).
    pub refresh_token: String,
    pub refresh_expires_in: u64,
    pub admin: AdminIdentity,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminIdentity {
    pub id: uuid::Uuid,
    pub email: String,
}

impl From<Session> for TokenPair {
    fn from(s: Session) -> Self {
        Self {
            access_token: s.access_token,
            token_type: "Bearer",
            expires_in: s.expires_in,
            refresh_token: s.refresh_token,
            refresh_expires_in: s.refresh_expires_in,
            admin: AdminIdentity { id: s.admin_id, email: s.email },
        }
    }
}

/// Sign in with an operator's email and password.
#[utoipa::path(post, path = "/admin/v1/login", operation_id = "admin.login", tag = "admin", request_body = Login, security(()),
    responses(
        (status = 200, description = "Signed in", body = TokenPair),
        (status = 401, description = "Wrong email or password", body = crate::api::error::ErrorBody),
        (status = 429, description = "Too many attempts for this account or from this address", body = crate::api::error::ErrorBody)
    ))]
async fn login(
    State(services): State<AppState>,
    parts: axum::http::request::Parts,
    ApiJson(body): ApiJson<Login>,
) -> ApiResult<Json<TokenPair>> {
    let client =
        crate::api::auth::client_ip(&parts.headers, &parts.extensions, services.config.client_ip_header.as_deref());
    Ok(Json(admins::login(&services, &body.email, &body.password, client).await?.into()))
}

/// Exchange a refresh token for new tokens (the refresh token rotates).
#[utoipa::path(post, path = "/admin/v1/refresh", operation_id = "admin.refresh", tag = "admin", request_body = Refresh, security(()),
    responses(
        (status = 200, description = "New tokens", body = TokenPair),
        (status = 401, description = "Unknown, expired or reused refresh token (reuse ends the session)", body = crate::api::error::ErrorBody),
        (status = 429, description = "Too many attempts from this address", body = crate::api::error::ErrorBody)
    ))]
async fn refresh(State(services): State<AppState>, ApiJson(body): ApiJson<Refresh>) -> ApiResult<Json<TokenPair>> {
    Ok(Json(admins::refresh(&services, &body.refresh_token).await?.into()))
}

/// End this session: its refresh token and every access token of it stop working at once.
#[utoipa::path(post, path = "/admin/v1/logout", operation_id = "admin.logout", tag = "admin", security(("admin_jwt" = [])),
    responses((status = 204, description = "Signed out")))]
async fn logout(State(services): State<AppState>, admin: AdminUser) -> ApiResult<StatusCode> {
    admins::logout(&services, &admin.claims).await?;
    Ok(StatusCode::NO_CONTENT)
}
