//! The undo window on `/api/v1`: the deleted memories still restorable, restore by tag, and the admin's purge
//! of the whole trash. (One memory comes back with `POST /api/v1/memories/{id}/restore`; one is erased at
//! once with `DELETE /api/v1/memories/{id}?purge=true`.)

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::api::auth::{Admin, Writer};
use crate::api::error::ApiResult;
use crate::api::extract::ApiQuery;
use crate::api::AppState;
use crate::auth::Tenant;
use crate::memory::filter::TagParams;
use crate::service::trash;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_trash, purge_trash)).routes(routes!(restore_by_tag))
}

/// A deleted memory that can still be restored.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrashedMemory {
    pub id: Uuid,
    pub content: String,
    pub tags: Vec<String>,
    pub deleted_at: DateTime<Utc>,
    /// When it will be erased for good (the deletion plus the tenant's `undo_days`).
    pub erased_after: DateTime<Utc>,
}

/// A page of the trash.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"memories": [{"id": "0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10", "content": "Deploys go out on Tuesdays",
    "tags": ["ops"], "deleted_at": "2026-11-30T10:00:00Z", "erased_after": "2026-12-07T10:00:00Z"}],
    "count": 1, "total": 1, "limit": 20, "offset": 0, "has_more": false}))]
pub struct TrashPage {
    pub memories: Vec<TrashedMemory>,
    pub count: usize,
    /// Deleted memories still restorable in all.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// Paging of the trash.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrashQuery {
    /// 1..=200, default 20.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// Deleted memories that can still be restored.
///
/// Latest deletion first. Each is erased for good once the tenant's undo window (`undo_days` in the
/// lifecycle settings, default 7) has passed since its deletion.
#[utoipa::path(get, path = "/api/v1/trash", operation_id = "trash.list", tag = "memories", params(TrashQuery),
    responses((status = 200, description = "A page of deleted memories", body = TrashPage)))]
async fn list_trash(
    State(services): State<AppState>,
    tenant: Tenant,
    ApiQuery(query): ApiQuery<TrashQuery>,
) -> ApiResult<Json<TrashPage>> {
    let (page, window) = trash::list(&services, &tenant, query.limit, query.offset).await?;
    let memories: Vec<TrashedMemory> = page
        .items
        .into_iter()
        .map(|t| TrashedMemory {
            id: t.id,
            content: t.content,
            tags: t.tags,
            deleted_at: t.deleted_at,
            erased_after: t.deleted_at + window,
        })
        .collect();
    let has_more = page.offset + (memories.len() as i64) < page.total;
    Ok(Json(TrashPage {
        count: memories.len(),
        memories,
        total: page.total,
        limit: page.limit,
        offset: page.offset,
        has_more,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "erased_count": 12}))]
pub struct Purged {
    pub status: &'static str,
    /// Memories erased for good.
    pub erased_count: u64,
}

/// Erase every deleted memory now (admin scope).
///
/// Nothing of them remains but ids, content hashes and event types in their history. Cannot be undone.
#[utoipa::path(delete, path = "/api/v1/trash", operation_id = "trash.purge", tag = "memories",
    responses(
        (status = 200, description = "How many were erased", body = Purged),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn purge_trash(State(services): State<AppState>, Admin(tenant): Admin) -> ApiResult<Json<Purged>> {
    let erased_count = trash::purge_all(&services, &tenant).await?;
    Ok(Json(Purged { status: "success", erased_count }))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "tags": ["ops"], "restored_count": 2,
    "restored": ["0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10", "5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21"], "conflicts": [],
    "remaining": 0}))]
pub struct RestoredByTag {
    pub status: &'static str,
    pub tags: Vec<String>,
    pub restored_count: usize,
    pub restored: Vec<Uuid>,
    /// Deleted memories left in the trash because their content is stored again (delete that one first).
    pub conflicts: Vec<Uuid>,
    /// Deleted memories with these tags still restorable after this call: call again for the next 1000.
    pub remaining: i64,
}

/// Restore the deleted memories with any of the tags.
///
/// Those still in the undo window, with their relations (where the other end exists) and entity links: at
/// most 1000 per call, the earliest deleted first; `remaining` says how many are left for the next call.
#[utoipa::path(post, path = "/api/v1/memories/by-tag/restore", operation_id = "memories.restoreByTag", tag = "memories", params(TagParams),
    responses(
        (status = 200, description = "What was restored", body = RestoredByTag),
        (status = 400, description = "No tags", body = crate::api::error::ErrorBody),
        (status = 403, description = "Key lacks the write scope, or a quota would be exceeded", body = crate::api::error::ErrorBody)
    ))]
async fn restore_by_tag(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    ApiQuery(query): ApiQuery<TagParams>,
) -> ApiResult<Json<RestoredByTag>> {
    let done = trash::restore_by_tag(&services, &tenant, &query.tags.0).await?;
    Ok(Json(RestoredByTag {
        status: "success",
        tags: done.tags,
        restored_count: done.restored.len(),
        restored: done.restored,
        conflicts: done.conflicts,
        remaining: done.remaining,
    }))
}
