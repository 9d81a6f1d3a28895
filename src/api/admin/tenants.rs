//! `/admin/v1/tenants`, `/admin/v1/plans`: tenants (with usage), their lifecycle, keys and usage.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::AdminUser;
use crate::api::error::{ApiError, ApiResult};
use crate::api::extract::{parse_uuid, ApiJson, ApiQuery, OptionalJson, PathId};
use crate::api::views::control::{
    CreatedKey, KeyList, NewKey, RotateKey, RotatedKey, SettingsPatch, UsageReport, UsageWindow,
};
use crate::api::views::eval::EvalRunPage;
use crate::api::views::{ApiKeyInfo, JobStatus, MemoryList, MemoryPage, TenantSettings};
use crate::api::AppState;
use crate::service::tenants::{self, TenantChange, TenantView};
use crate::service::{jobs, keys, memories, usage};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tenants, create_tenant))
        .routes(routes!(get_tenant, update_tenant, delete_tenant))
        .routes(routes!(suspend_tenant))
        .routes(routes!(resume_tenant))
        .routes(routes!(list_keys, create_key))
        .routes(routes!(revoke_key))
        .routes(routes!(rotate_key))
        .routes(routes!(tenant_usage))
        .routes(routes!(tenant_jobs))
        .routes(routes!(tenant_memories))
        .routes(routes!(tenant_eval_runs))
        .routes(routes!(list_plans))
}

/// A tenant, with what it stores and its settings.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21", "name": "acme", "plan": "standard",
    "status": "active", "limits": {"max_memories": 50000}, "memories": 1200, "storage_bytes": 480000,
    "created_at": "2026-11-30T12:00:00Z"}))]
pub struct TenantDetail {
    pub id: Uuid,
    pub name: String,
    pub plan: String,
    /// `active`, `suspended`, `deleting` (its data is being removed) or `deleted`.
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_changed_at: Option<DateTime<Utc>>,
    /// The tenant's own limits over its plan's (see `GET /admin/v1/plans`).
    #[schema(value_type = Object)]
    pub limits: crate::tenancy::LimitOverrides,
    /// Memories stored now.
    pub memories: i64,
    /// Bytes of content and metadata stored now.
    pub storage_bytes: i64,
    pub created_at: DateTime<Utc>,
    /// Lifecycle settings (absent in listings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settings: Option<TenantSettings>,
    /// After deletion: rows removed per table and when it finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub deletion_report: Option<serde_json::Value>,
}

impl From<crate::service::tenants::TenantRow> for TenantDetail {
    fn from(row: crate::service::tenants::TenantRow) -> Self {
        let t = row.tenant;
        Self {
            id: t.id,
            name: t.name,
            plan: t.plan,
            status: t.status,
            status_reason: t.status_reason,
            status_changed_at: t.status_changed_at,
            limits: crate::tenancy::LimitOverrides::from_stored(&t.limits.0),
            memories: row.memories,
            storage_bytes: row.storage_bytes,
            created_at: t.created_at,
            settings: None,
            deletion_report: t.deletion_report.map(|r| r.0),
        }
    }
}

impl From<TenantView> for TenantDetail {
    fn from(view: TenantView) -> Self {
        Self { settings: view.settings.map(Into::into), ..view.row.into() }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TenantPage {
    pub tenants: Vec<TenantDetail>,
    /// Tenants the filter matches.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TenantQuery {
    /// Only tenants in this state: active, suspended, deleting, deleted.
    pub status: Option<String>,
    /// Page size, 1..=500 (default 50).
    pub limit: Option<i64>,
    /// Tenants to skip (default 0).
    pub offset: Option<i64>,
}

/// A new tenant, or changes to one; absent fields keep their value.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "acme", "plan": "standard", "limits": {"max_memories": 50000, "requests_per_second": 50}}))]
pub struct TenantBody {
    /// Unique, 1..=200 characters (required on create).
    pub name: Option<String>,
    /// A plan from `GET /admin/v1/plans` (default on create: the deployment's default plan).
    pub plan: Option<String>,
    /// The tenant's own limits, replacing its previous ones: requests_per_second, burst,
    /// key_requests_per_second, max_memories, max_storage_bytes, max_memories_per_user, max_memories_per_agent,
    /// max_storage_bytes_per_user, max_storage_bytes_per_agent, user_requests_per_second, agent_requests_per_second,
    /// max_metadata_bytes, max_batch,
    /// summaries_per_day, reenrich_per_day, consolidations_per_day, reembeds_per_day.
    #[schema(value_type = Option<Object>)]
    pub limits: Option<serde_json::Value>,
    /// Lifecycle settings.
    pub settings: Option<SettingsPatch>,
}

impl From<TenantBody> for TenantChange {
    fn from(b: TenantBody) -> Self {
        Self { name: b.name, plan: b.plan, limits: b.limits, settings: b.settings.unwrap_or_default().into() }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"reason": "invoice overdue"}))]
pub struct SuspendBody {
    /// Why (shown to operators), at most 500 characters.
    pub reason: Option<String>,
}

/// List tenants with what each stores, oldest first.
#[utoipa::path(get, path = "/admin/v1/tenants", operation_id = "tenants.list", tag = "admin", params(TenantQuery), security(("admin_jwt" = [])),
    responses((status = 200, description = "One page of tenants", body = TenantPage)))]
async fn list_tenants(
    State(services): State<AppState>,
    admin: AdminUser,
    ApiQuery(q): ApiQuery<TenantQuery>,
) -> ApiResult<Json<TenantPage>> {
    let page = tenants::list(&services, &admin.operator, q.status.as_deref(), q.limit, q.offset).await?;
    let (limit, offset, has_more) = (page.limit, page.offset, page.has_more());
    Ok(Json(TenantPage {
        tenants: page.items.into_iter().map(Into::into).collect(),
        total: page.total,
        limit,
        offset,
        has_more,
    }))
}

/// Create a tenant.
#[utoipa::path(post, path = "/admin/v1/tenants", operation_id = "tenants.create", tag = "admin", request_body = TenantBody, security(("admin_jwt" = [])),
    responses(
        (status = 201, description = "Created", body = TenantDetail),
        (status = 409, description = "The name is taken", body = crate::api::error::ErrorBody)
    ))]
async fn create_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    ApiJson(body): ApiJson<TenantBody>,
) -> ApiResult<(StatusCode, Json<TenantDetail>)> {
    let view = tenants::create(&services, &admin.operator, &body.into()).await?;
    Ok((StatusCode::CREATED, Json(view.into())))
}

/// A tenant, with its usage now, limits and settings (and, once deleted, the deletion's report).
#[utoipa::path(get, path = "/admin/v1/tenants/{id}", operation_id = "tenants.get", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "The tenant", body = TenantDetail),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn get_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
) -> ApiResult<Json<TenantDetail>> {
    Ok(Json(tenants::get(&services, &admin.operator, id).await?.into()))
}

/// Change a tenant's name, plan, limits or lifecycle settings.
#[utoipa::path(patch, path = "/admin/v1/tenants/{id}", operation_id = "tenants.update", tag = "admin", request_body = TenantBody, security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "The tenant now", body = TenantDetail),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "Name taken, or the tenant is deleted", body = crate::api::error::ErrorBody)
    ))]
async fn update_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    ApiJson(body): ApiJson<TenantBody>,
) -> ApiResult<Json<TenantDetail>> {
    Ok(Json(tenants::update(&services, &admin.operator, id, &body.into()).await?.into()))
}

/// Delete a tenant: its keys stop at once; a background job removes all its data, then the tenant reads
/// `deleted` with a report.
#[utoipa::path(delete, path = "/admin/v1/tenants/{id}", operation_id = "tenants.delete", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 202, description = "Deleting", body = TenantDetail),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "Already deleting or deleted", body = crate::api::error::ErrorBody)
    ))]
async fn delete_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
) -> ApiResult<(StatusCode, Json<TenantDetail>)> {
    Ok((StatusCode::ACCEPTED, Json(tenants::delete(&services, &admin.operator, id).await?.into())))
}

/// Suspend a tenant: its keys get 403 (saying so) until it is resumed.
#[utoipa::path(post, path = "/admin/v1/tenants/{id}/suspend", operation_id = "tenants.suspend", tag = "admin", security(("admin_jwt" = [])),
    request_body(content = SuspendBody, description = "Optional"),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "Suspended", body = TenantDetail),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "Not active", body = crate::api::error::ErrorBody)
    ))]
async fn suspend_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    OptionalJson(body): OptionalJson<SuspendBody>,
) -> ApiResult<Json<TenantDetail>> {
    Ok(Json(tenants::suspend(&services, &admin.operator, id, body.reason.as_deref()).await?.into()))
}

/// Resume a suspended tenant.
#[utoipa::path(post, path = "/admin/v1/tenants/{id}/resume", operation_id = "tenants.resume", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "Active again", body = TenantDetail),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "Not suspended", body = crate::api::error::ErrorBody)
    ))]
async fn resume_tenant(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
) -> ApiResult<Json<TenantDetail>> {
    Ok(Json(tenants::resume(&services, &admin.operator, id).await?.into()))
}

/// A tenant's API keys (never their secrets).
#[utoipa::path(get, path = "/admin/v1/tenants/{id}/keys", operation_id = "tenantKeys.list", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "The keys", body = KeyList),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn list_keys(State(services): State<AppState>, admin: AdminUser, PathId(id): PathId) -> ApiResult<Json<KeyList>> {
    let keys = keys::list_for(&services, &admin.operator, id).await?;
    Ok(Json(KeyList { keys: keys.into_iter().map(ApiKeyInfo::from).collect() }))
}

/// Issue an API key for a tenant; the secret is shown once.
#[utoipa::path(post, path = "/admin/v1/tenants/{id}/keys", operation_id = "tenantKeys.create", tag = "admin", request_body = NewKey, security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 201, description = "Issued; the secret is in `api_key`", body = CreatedKey),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn create_key(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    ApiJson(body): ApiJson<NewKey>,
) -> ApiResult<(StatusCode, Json<CreatedKey>)> {
    let (key, api_key) = keys::create_for(&services, &admin.operator, id, &body.into()).await?;
    Ok((StatusCode::CREATED, Json(CreatedKey { key: key.into(), api_key })))
}

/// The `{id}` and `{key_id}` path segments.
async fn two_ids(Path((id, key_id)): Path<(String, String)>) -> Result<(Uuid, Uuid), ApiError> {
    Ok((parse_uuid("id", &id)?, parse_uuid("key_id", &key_id)?))
}

/// Revoke one of a tenant's keys: refused at once on every instance.
#[utoipa::path(delete, path = "/admin/v1/tenants/{id}/keys/{key_id}", operation_id = "tenantKeys.revoke", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id"), ("key_id" = Uuid, Path, description = "Key id")),
    responses(
        (status = 200, description = "Revoked", body = ApiKeyInfo),
        (status = 404, description = "No such key in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn revoke_key(
    State(services): State<AppState>,
    admin: AdminUser,
    path: Path<(String, String)>,
) -> ApiResult<Json<ApiKeyInfo>> {
    let (id, key_id) = two_ids(path).await?;
    Ok(Json(keys::revoke_for(&services, &admin.operator, Some(id), key_id).await?.into()))
}

/// Rotate one of a tenant's keys: a new secret; the old one works for the grace period chosen (default 0).
#[utoipa::path(post, path = "/admin/v1/tenants/{id}/keys/{key_id}/rotate", operation_id = "tenantKeys.rotate", tag = "admin", security(("admin_jwt" = [])),
    request_body(content = RotateKey, description = "Optional"),
    params(("id" = Uuid, Path, description = "Tenant id"), ("key_id" = Uuid, Path, description = "Key id")),
    responses(
        (status = 201, description = "Rotated; the new secret is in `api_key`", body = RotatedKey),
        (status = 404, description = "No such key in this tenant", body = crate::api::error::ErrorBody),
        (status = 409, description = "The key is revoked or expired", body = crate::api::error::ErrorBody)
    ))]
async fn rotate_key(
    State(services): State<AppState>,
    admin: AdminUser,
    path: Path<(String, String)>,
    OptionalJson(body): OptionalJson<RotateKey>,
) -> ApiResult<(StatusCode, Json<RotatedKey>)> {
    let (id, key_id) = two_ids(path).await?;
    let (key, api_key, previous) =
        keys::rotate_for(&services, &admin.operator, Some(id), key_id, body.grace_period_secs).await?;
    Ok((StatusCode::CREATED, Json(RotatedKey { key: key.into(), api_key, previous: previous.into() })))
}

/// A tenant's usage per UTC day, what it stores, and its limits.
#[utoipa::path(get, path = "/admin/v1/tenants/{id}/usage", operation_id = "tenants.usage", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id"), UsageWindow),
    responses(
        (status = 200, description = "Usage", body = UsageReport),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn tenant_usage(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    ApiQuery(window): ApiQuery<UsageWindow>,
) -> ApiResult<Json<UsageReport>> {
    Ok(Json(usage::of_tenant(&services, &admin.operator, id, window.from, window.to).await?.into()))
}

/// An operator's look at a tenant's background work, as the tenant sees it (`GET /api/v1/jobs/status`),
/// without a key of the tenant's; audited (`tenant.jobs.read`).
#[utoipa::path(get, path = "/admin/v1/tenants/{id}/jobs", operation_id = "tenants.jobs", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id")),
    responses(
        (status = 200, description = "Its jobs", body = JobStatus),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn tenant_jobs(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
) -> ApiResult<Json<JobStatus>> {
    Ok(Json(jobs::status_of(&services, &admin.operator, id).await?.into()))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MemoriesQuery {
    /// 1..=200, default 20.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Include archived and expired memories (default false).
    pub include_archived: Option<bool>,
}

/// An operator's read-only look at a page of a tenant's memories, newest first, without a key of the
/// tenant's: counts no access and changes nothing; audited (`tenant.memories.read`).
#[utoipa::path(get, path = "/admin/v1/tenants/{id}/memories", operation_id = "tenants.memories", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id"), MemoriesQuery),
    responses(
        (status = 200, description = "A page of its memories", body = MemoryList),
        (status = 400, description = "A bad page", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn tenant_memories(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    ApiQuery(query): ApiQuery<MemoriesQuery>,
) -> ApiResult<Json<MemoryList>> {
    let (limit, offset) = crate::validate::page(query.limit, query.offset, memories::MAX_PAGE, memories::DEFAULT_PAGE)?;
    let filter =
        crate::memory::ListFilter { include_archived: query.include_archived.unwrap_or(false), ..Default::default() };
    let page = memories::list_of(&services, &admin.operator, id, &filter, limit, offset).await?;
    Ok(Json(MemoryPage::new(page)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EvalRunsQuery {
    /// 1..=200, default 50.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// An operator's look at a tenant's quality report history (`GET /api/v1/eval/runs`), newest first,
/// without a key of the tenant's; audited (`tenant.eval.read`).
#[utoipa::path(get, path = "/admin/v1/tenants/{id}/eval/runs", operation_id = "tenants.evalRuns", tag = "admin", security(("admin_jwt" = [])),
    params(("id" = Uuid, Path, description = "Tenant id"), EvalRunsQuery),
    responses(
        (status = 200, description = "A page of its runs", body = EvalRunPage),
        (status = 400, description = "A bad page", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such tenant", body = crate::api::error::ErrorBody)
    ))]
async fn tenant_eval_runs(
    State(services): State<AppState>,
    admin: AdminUser,
    PathId(id): PathId,
    ApiQuery(query): ApiQuery<EvalRunsQuery>,
) -> ApiResult<Json<EvalRunPage>> {
    let page = crate::service::eval::runs_of(&services, &admin.operator, id, query.limit, query.offset).await?;
    Ok(Json(page.into()))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlanList {
    pub plans: Vec<Plan>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Plan {
    pub name: String,
    /// Its limits; absent ones are unlimited (the metadata cap is 64 KiB unless set).
    #[schema(value_type = Object)]
    pub limits: crate::tenancy::LimitOverrides,
}

/// The plans and their limits.
#[utoipa::path(get, path = "/admin/v1/plans", operation_id = "admin.listPlans", tag = "admin", security(("admin_jwt" = [])),
    responses((status = 200, description = "The plans", body = PlanList)))]
async fn list_plans(State(services): State<AppState>, admin: AdminUser) -> ApiResult<Json<PlanList>> {
    let plans = tenants::plans(&services, &admin.operator).await?;
    Ok(Json(PlanList { plans: plans.into_iter().map(|(name, limits)| Plan { name, limits }).collect() }))
}
