//! Lifecycle by hand on `/api/v1`: promote a short-term memory, restore an archived one, and the tenant's
//! lifecycle settings (active forgetting, archive retention).

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiJson, PathId};
use crate::api::AppState;
use crate::auth::{Admin, Auth, Writer};
use crate::error::ApiError;
use crate::memory::Memory;
use crate::recall::params::bad;
use crate::store::lifecycle;
use crate::store::tenants::{self, TenantSettings};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(promote_memory))
        .routes(routes!(restore_memory))
        .routes(routes!(get_settings, patch_settings))
}

fn not_found(id: uuid::Uuid) -> ApiError {
    ApiError::not_found(format!("memory {id} not found"))
}

/// Promote a short-term memory to long-term.
///
/// Clears its TTL (and brings it back if expiry had archived it); recorded as a `promoted` event. A
/// long-term memory is returned unchanged.
#[utoipa::path(post, path = "/api/v1/memories/{id}/promote", tag = "memories", params(("id" = uuid::Uuid, Path)),
    responses(
        (status = 200, description = "The memory, long-term", body = Memory),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn promote_memory(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
) -> Result<Json<Memory>, ApiError> {
    Ok(Json(change(&state, &auth, id, Change::Promote).await?))
}

/// A lifecycle change made by hand.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Change {
    /// Short-term to long-term.
    Promote,
    /// Out of the archive.
    Restore,
    /// Into the archive (remem's soft delete).
    Archive,
}

/// Applies a lifecycle change to one memory and returns it as it is afterwards (404 when the tenant has no
/// such memory): the one every surface calls.
pub(crate) async fn change(state: &AppState, auth: &Auth, id: uuid::Uuid, change: Change) -> Result<Memory, ApiError> {
    let mut tx = state.db.begin_tenant(auth.tenant_id).await?;
    let actor = auth.actor();
    let memory = match change {
        Change::Promote => lifecycle::promote(&mut tx, id, &actor).await?,
        Change::Restore => lifecycle::restore(&mut tx, id, &actor).await?,
        Change::Archive => lifecycle::archive(&mut tx, id, &actor).await?,
    };
    let memory = memory.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    Ok(memory)
}

/// Restore an archived memory.
///
/// It returns to default recall and listings; a short-term memory comes back as long-term (expiry would
/// archive it again otherwise); the restore counts as an access, so forgetting starts over. Recorded as a `restored` event.
/// A memory that is not archived is returned unchanged.
#[utoipa::path(post, path = "/api/v1/memories/{id}/restore", tag = "memories", params(("id" = uuid::Uuid, Path)),
    responses(
        (status = 200, description = "The memory, no longer archived", body = Memory),
        (status = 404, description = "No such memory in this tenant", body = crate::error::ErrorBody)
    ))]
async fn restore_memory(
    State(state): State<AppState>,
    Writer(auth): Writer,
    PathId(id): PathId,
) -> Result<Json<Memory>, ApiError> {
    Ok(Json(change(&state, &auth, id, Change::Restore).await?))
}

async fn load(state: &AppState, auth: &Auth) -> Result<TenantSettings, ApiError> {
    tenants::settings(state.db.owner(), auth.tenant_id)
        .await?
        .ok_or_else(|| ApiError::not_found("tenant not found".to_owned()))
}

/// The tenant's lifecycle settings.
#[utoipa::path(get, path = "/api/v1/settings", tag = "settings",
    responses((status = 200, description = "The settings", body = TenantSettings)))]
async fn get_settings(State(state): State<AppState>, auth: Auth) -> Result<Json<TenantSettings>, ApiError> {
    Ok(Json(load(&state, &auth).await?))
}

/// Changes to the lifecycle settings; absent fields keep their value, `archive_retention_days: null`
/// turns retention off.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"forgetting_enabled": true, "forgetting_grace_days": 120}))]
pub struct SettingsPatch {
    pub forgetting_enabled: Option<bool>,
    pub forgetting_grace_days: Option<i64>,
    #[serde(default, deserialize_with = "crate::memory::nullable")]
    #[schema(value_type = Option<i64>, nullable)]
    pub archive_retention_days: Option<Option<i64>>,
}

/// Change the tenant's lifecycle settings (admin scope).
///
/// Active forgetting archives (never deletes) memories whose health reached 0; retention deletes archived
/// memories for good after the given number of days. Both are off by default.
#[utoipa::path(patch, path = "/api/v1/settings", tag = "settings", request_body = SettingsPatch,
    responses(
        (status = 200, description = "The settings now", body = TenantSettings),
        (status = 400, description = "A value out of range", body = crate::error::ErrorBody),
        (status = 403, description = "Key lacks the admin scope", body = crate::error::ErrorBody)
    ))]
async fn patch_settings(
    State(state): State<AppState>,
    Admin(auth): Admin,
    ApiJson(patch): ApiJson<SettingsPatch>,
) -> Result<Json<TenantSettings>, ApiError> {
    let mut settings = load(&state, &auth).await?;
    if let Some(on) = patch.forgetting_enabled {
        settings.forgetting_enabled = on;
    }
    if let Some(days) = patch.forgetting_grace_days {
        if !(0..=3650).contains(&days) {
            return Err(bad("forgetting_grace_days", format!("must be between 0 and 3650 (got {days})")));
        }
        settings.forgetting_grace_days = days as i32;
    }
    if let Some(retention) = patch.archive_retention_days {
        if let Some(days) = retention.filter(|d| !(1..=36500).contains(d)) {
            return Err(bad("archive_retention_days", format!("must be between 1 and 36500, or null (got {days})")));
        }
        settings.archive_retention_days = retention.map(|d| d as i32);
    }
    tenants::set_settings(state.db.owner(), auth.tenant_id, &settings).await?;
    Ok(Json(settings))
}
