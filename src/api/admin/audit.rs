//! `/admin/v1/audit`: every admin and key-management action, newest first.

use axum::extract::State;
use axum::Json;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::AdminUser;
use crate::api::error::ApiResult;
use crate::api::extract::ApiQuery;
use crate::api::AppState;
use crate::service::audit::{self, AuditFilter};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_audit))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Only actions on this tenant.
    pub tenant_id: Option<Uuid>,
    /// Only actions by this actor (`admin:<email>`, `key:<id>`, `cli`, `system:<job>`).
    pub actor: Option<String>,
    /// Only this action (`key.revoke`), or a family of them ending in a dot (`tenant.`).
    pub action: Option<String>,
    /// Only actions at or after this time (RFC 3339).
    pub since: Option<DateTime<Utc>>,
    /// Only actions before this time (RFC 3339).
    pub until: Option<DateTime<Utc>>,
    /// Page size, 1..=500 (default 50).
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": 42, "at": "2026-11-30T12:00:00Z", "actor": "admin:ops@example.com",
    "tenant_id": "5f0c6c3e-8d2a-4a4b-9a57-0d4c1f7e9b21", "action": "key.revoke",
    "target": "0b8f3c1e-3f7a-4d0e-9d6b-2f1c7a9e5b40", "details": {"prefix": "k3v9x0p2q8r1"},
    "client_address": "203.0.113.7", "request_id": "5e0f6c1a-8f1e-4f7e-9a51-0c1d2e3f4a5b"}))]
pub struct AuditEntry {
    pub id: i64,
    pub at: DateTime<Utc>,
    /// Who: `admin:<email>`, `key:<id>`, `cli`, `system:<job>`, or `anonymous` (a failed login: the email it
    /// claimed is in `details`).
    pub actor: String,
    pub tenant_id: Option<Uuid>,
    /// What: `tenant.create`, `tenant.suspend`, `key.rotate`, `admin.login`, `admin.login_failed`,
    /// `settings.update`, `memory.purge`, `trash.empty`, `data.export`, `data.import`...
    pub action: String,
    /// The id acted on.
    pub target: Option<String>,
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    /// The client's address, when a request caused it (a trusted proxy's `CAIRN_CLIENT_IP_HEADER`, else the peer).
    pub client_address: Option<String>,
    /// The request's `X-Request-Id` (also in the server's logs), when a request caused it.
    pub request_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

/// The audit log, newest first, filtered and paged.
#[utoipa::path(get, path = "/admin/v1/audit", operation_id = "admin.listAudit", tag = "admin", params(AuditQuery), security(("admin_jwt" = [])),
    responses((status = 200, description = "One page of the audit log", body = AuditPage)))]
async fn list_audit(
    State(services): State<AppState>,
    admin: AdminUser,
    ApiQuery(q): ApiQuery<AuditQuery>,
) -> ApiResult<Json<AuditPage>> {
    let filter =
        AuditFilter { tenant_id: q.tenant_id, actor: q.actor, action: q.action, since: q.since, until: q.until };
    let page = audit::list(&services, &admin.operator, &filter, q.limit, q.offset).await?;
    let (limit, offset, has_more) = (page.limit, page.offset, page.has_more());
    let entries = page
        .items
        .into_iter()
        .map(|r| AuditEntry {
            id: r.id,
            at: r.at,
            actor: r.actor,
            tenant_id: r.tenant_id,
            action: r.action,
            target: r.target,
            details: r.details.0,
            client_address: r.client_address,
            request_id: r.request_id,
        })
        .collect();
    Ok(Json(AuditPage { entries, total: page.total, limit, offset, has_more }))
}
