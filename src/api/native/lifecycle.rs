//! Lifecycle by hand on `/api/v1`: promote a short-term memory, restore an archived one, and the tenant's
//! lifecycle settings (active forgetting, archive retention).

use axum::extract::State;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::{Admin, Writer};
use crate::api::error::ApiResult;
use crate::api::extract::{ApiJson, PathId};
use crate::api::views::control::SettingsPatch;
use crate::api::views::{Memory, TenantSettings};
use crate::api::AppState;
use crate::auth::Tenant;
use crate::service::lifecycle::{self, Change};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(promote_memory))
        .routes(routes!(restore_memory))
        .routes(routes!(get_settings, patch_settings))
}

/// Promote a short-term memory to long-term.
///
/// Clears its TTL (and brings it back if expiry had archived it); recorded as a `promoted` event. A
/// long-term memory is returned unchanged.
#[utoipa::path(post, path = "/api/v1/memories/{id}/promote", operation_id = "memories.promote", tag = "memories", params(("id" = uuid::Uuid, Path)),
    responses(
        (status = 200, description = "The memory, long-term", body = Memory),
        (status = 404, description = "No such memory in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn promote_memory(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
) -> ApiResult<Json<Memory>> {
    Ok(Json(lifecycle::change(&services, &tenant, id, Change::Promote).await?.into()))
}

/// Restore an archived or deleted memory.
///
/// An archived memory returns to default recall and listings; a short-term memory comes back as long-term
/// (expiry would archive it again otherwise); the restore counts as an access, so forgetting starts over. A
/// deleted memory (any surface's delete, by id or by tag, retention, forgetting) comes back as it was, with
/// its vector, its relations whose other end exists and its entity links, while the tenant's undo window
/// lasts (`undo_days`, default 7). Recorded as a `restored` event. A memory that is neither is returned
/// unchanged.
#[utoipa::path(post, path = "/api/v1/memories/{id}/restore", operation_id = "memories.restore", tag = "memories", params(("id" = uuid::Uuid, Path)),
    responses(
        (status = 200, description = "The memory, no longer archived or deleted", body = Memory),
        (status = 404, description = "No such memory in this tenant, or its undo window has passed", body = crate::api::error::ErrorBody),
        (status = 409, description = "Its content is stored again in another memory", body = crate::api::error::ErrorBody)
    ))]
async fn restore_memory(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    PathId(id): PathId,
) -> ApiResult<Json<Memory>> {
    Ok(Json(lifecycle::change(&services, &tenant, id, Change::Restore).await?.into()))
}

/// The tenant's lifecycle settings.
#[utoipa::path(get, path = "/api/v1/settings", operation_id = "settings.get", tag = "settings",
    responses((status = 200, description = "The settings", body = TenantSettings)))]
async fn get_settings(State(services): State<AppState>, tenant: Tenant) -> ApiResult<Json<TenantSettings>> {
    Ok(Json(lifecycle::settings(&services, &tenant).await?.into()))
}

/// Change the tenant's lifecycle settings (admin scope).
///
/// Active forgetting archives (never deletes) memories whose health reached 0; retention deletes archived
/// memories for good after the given number of days. Both are off by default.
#[utoipa::path(patch, path = "/api/v1/settings", operation_id = "settings.update", tag = "settings", request_body = SettingsPatch,
    responses(
        (status = 200, description = "The settings now", body = TenantSettings),
        (status = 400, description = "A value out of range", body = crate::api::error::ErrorBody),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn patch_settings(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    ApiJson(patch): ApiJson<SettingsPatch>,
) -> ApiResult<Json<TenantSettings>> {
    Ok(Json(lifecycle::update_settings(&services, &tenant, patch.into()).await?.into()))
}
