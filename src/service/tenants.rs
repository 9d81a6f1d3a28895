//! Tenants, for operators (admin API, CLI): create, list with usage, read, update (name, plan, limits,
//! lifecycle settings), suspend and resume, delete. Deleting marks the tenant `deleting` (its keys stop at
//! once) and enqueues `cairn::tenant_delete`, which removes all its data and leaves a report.

use serde_json::json;
use uuid::Uuid;

use super::lifecycle::{self, SettingsChange};
use super::{audit, Page, Services};
use crate::auth::admin::Operator;
use crate::auth::Tenant;
use crate::error::{bad, Error, Result};
use crate::memory::TenantSettings;
use crate::store::tenants;
pub use crate::store::tenants::TenantRow;
use crate::tenancy::LimitOverrides;

/// Longest tenant name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Largest page of tenants.
pub const MAX_PAGE: i64 = 500;
/// Default page of tenants.
pub const DEFAULT_PAGE: i64 = 50;

/// A new tenant, or changes to one (each `None` keeps the value).
#[derive(Debug, Clone, Default)]
pub struct TenantChange {
    pub name: Option<String>,
    pub plan: Option<String>,
    /// The tenant's own limits (replacing its previous overrides), as JSON.
    pub limits: Option<serde_json::Value>,
    pub settings: SettingsChange,
}

/// A tenant with its usage and lifecycle settings.
#[derive(Debug, Clone)]
pub struct TenantView {
    pub row: TenantRow,
    pub settings: Option<TenantSettings>,
}

fn check_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.contains('\0') {
        return Err(bad("name", format!("must be 1 to {MAX_NAME_CHARS} characters, without NUL")));
    }
    Ok(name)
}

fn check_limits(limits: Option<&serde_json::Value>) -> Result<Option<LimitOverrides>> {
    limits.map(|l| LimitOverrides::from_json(l).map_err(|e| bad("limits", e))).transpose()
}

fn not_found(id: Uuid) -> Error {
    Error::not_found(format!("tenant {id} not found"))
}

/// Creates a tenant (default plan: the deployment's `CAIRN_DEFAULT_PLAN`).
pub async fn create(svc: &Services, op: &Operator, change: &TenantChange) -> Result<TenantView> {
    let name = check_name(change.name.as_deref().ok_or_else(|| bad("name", "is required"))?)?;
    let limits = check_limits(change.limits.as_ref())?.unwrap_or_default();
    change.settings.check()?;
    let plan = change.plan.as_deref().map(str::trim).unwrap_or(&svc.config.default_plan);
    let created = tenants::create_tenant(svc.db.owner(), name, plan, &limits).await?;
    if !change.settings.is_empty() {
        lifecycle::apply_settings(svc, &Tenant::system(created.id, "admin"), change.settings.clone()).await?;
    }
    let details = json!({"name": created.name, "plan": created.plan, "limits": limits});
    audit::record(svc, &op.actor(), Some(created.id), "tenant.create", Some(created.id.to_string()), details).await;
    get(svc, op, created.id).await
}

/// One page of tenants (oldest first), optionally of one status.
pub async fn list(
    svc: &Services,
    _op: &Operator,
    status: Option<&str>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<Page<TenantRow>> {
    let (limit, offset) = crate::validate::page(limit, offset, MAX_PAGE, DEFAULT_PAGE)?;
    if let Some(s) = status.filter(|s| crate::tenancy::TenantStatus::parse(s).is_none()) {
        return Err(bad("status", format!("unknown status {s:?}; expected active, suspended, deleting or deleted")));
    }
    let (items, total) = tenants::list_tenants(svc.db.owner(), status, limit, offset).await?;
    Ok(Page { items, total, limit, offset })
}

/// One tenant with its usage and settings.
pub async fn get(svc: &Services, _op: &Operator, id: Uuid) -> Result<TenantView> {
    let row = tenants::get_tenant(svc.db.owner(), id).await?.ok_or_else(|| not_found(id))?;
    let settings = tenants::settings(svc.db.owner(), id).await?;
    Ok(TenantView { row, settings })
}

/// Changes a tenant's name, plan, limits or lifecycle settings. Everything is validated before anything is
/// written; a deleted tenant cannot be changed.
pub async fn update(svc: &Services, op: &Operator, id: Uuid, change: &TenantChange) -> Result<TenantView> {
    let name = change.name.as_deref().map(check_name).transpose()?;
    let limits = check_limits(change.limits.as_ref())?;
    change.settings.check()?;
    let plan = change.plan.as_deref().map(str::trim);
    if let Some(plan) = plan {
        if !tenants::plans(svc.db.owner()).await?.iter().any(|(p, _)| p == plan) {
            return Err(bad("plan", format!("no plan named {plan:?}")));
        }
    }
    let current = get(svc, op, id).await?;
    if !matches!(current.row.tenant.status.as_str(), "active" | "suspended") {
        return Err(Error::Conflict {
            message: format!("tenant {id} is {}", current.row.tenant.status),
            existing_id: None,
        });
    }
    if name.is_some() || plan.is_some() || limits.is_some() {
        tenants::update_tenant(svc.db.owner(), id, name, plan, limits.as_ref()).await?.ok_or_else(|| not_found(id))?;
    }
    if !change.settings.is_empty() {
        lifecycle::apply_settings(svc, &Tenant::system(id, "admin"), change.settings.clone()).await?;
    }
    svc.keys.forget(&format!("tenant:{id}"));
    let details = json!({"name": name, "plan": plan, "limits": limits, "settings": {
        "forgetting_enabled": change.settings.forgetting_enabled,
        "forgetting_grace_days": change.settings.forgetting_grace_days,
        "archive_retention_days": change.settings.archive_retention_days,
        "undo_days": change.settings.undo_days,
    }});
    audit::record(svc, &op.actor(), Some(id), "tenant.update", Some(id.to_string()), details).await;
    get(svc, op, id).await
}

/// Moves a tenant between states, saying why a move is impossible.
async fn transition(
    svc: &Services,
    op: &Operator,
    id: Uuid,
    from: &[&str],
    to: &str,
    reason: Option<&str>,
    action: &str,
) -> Result<TenantView> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if reason.is_some_and(|r| r.chars().count() > 500 || r.contains('\0')) {
        return Err(bad("reason", "must be at most 500 characters, without NUL"));
    }
    if tenants::set_status(svc.db.owner(), id, from, to, reason).await?.is_none() {
        let current = get(svc, op, id).await?;
        return Err(Error::Conflict {
            message: format!(
                "tenant {id} is {}; it must be {} to become {to}",
                current.row.tenant.status,
                from.join(" or ")
            ),
            existing_id: None,
        });
    }
    svc.keys.forget(&format!("tenant:{id}"));
    audit::record(svc, &op.actor(), Some(id), action, Some(id.to_string()), json!({"reason": reason})).await;
    get(svc, op, id).await
}

/// Suspends a tenant: every key of it is refused (403, saying so) until it is resumed.
pub async fn suspend(svc: &Services, op: &Operator, id: Uuid, reason: Option<&str>) -> Result<TenantView> {
    transition(svc, op, id, &["active"], "suspended", reason, "tenant.suspend").await
}

/// Resumes a suspended tenant.
pub async fn resume(svc: &Services, op: &Operator, id: Uuid) -> Result<TenantView> {
    transition(svc, op, id, &["suspended"], "active", None, "tenant.resume").await
}

/// Deletes a tenant: `deleting` at once (its keys stop), then the `cairn::tenant_delete` job removes all its
/// data and records the report (`deleted`).
///
/// A tenant stuck in `deleting` (its job gave up) can be deleted again: the job is enqueued anew.
pub async fn delete(svc: &Services, op: &Operator, id: Uuid) -> Result<TenantView> {
    if tenants::begin_deletion(svc.db.owner(), id, crate::queue::tenant_delete::QUEUE).await?.is_none() {
        let current = get(svc, op, id).await?;
        return Err(Error::Conflict {
            message: format!("tenant {id} is {}; it cannot be deleted again", current.row.tenant.status),
            existing_id: None,
        });
    }
    svc.keys.forget(&format!("tenant:{id}"));
    audit::record(svc, &op.actor(), Some(id), "tenant.delete", Some(id.to_string()), json!({})).await;
    get(svc, op, id).await
}

/// The deletion job's work: removes every row the tenant owns, records the report. Idempotent.
pub async fn erase(svc_db: &crate::store::Db, id: Uuid) -> Result<()> {
    let report = tenants::erase_tenant(svc_db.owner(), id, crate::queue::TENANT_QUEUES).await?;
    let rows: serde_json::Map<String, serde_json::Value> = report.into_iter().map(|(t, n)| (t, n.into())).collect();
    let details = json!({ "rows_deleted": rows });
    let origin = audit::Origin::default();
    audit::record_in(
        svc_db.owner(),
        &origin,
        "system:tenant_delete",
        Some(id),
        "tenant.deleted",
        Some(&id.to_string()),
        details,
    )
    .await;
    Ok(())
}

/// Every plan and its limits.
pub async fn plans(svc: &Services, _op: &Operator) -> Result<Vec<(String, LimitOverrides)>> {
    tenants::plans(svc.db.owner()).await
}

/// An operator's read-only look at a tenant's data, without issuing it a key: a context with the read scope
/// only, for the service's reads (which change nothing for an operator: no access counted). Each look is
/// audited as `action` against the tenant; not found when the tenant does not exist.
pub(crate) async fn look(svc: &Services, op: &Operator, tenant_id: Uuid, action: &str) -> Result<Tenant> {
    if tenants::get_tenant(svc.db.owner(), tenant_id).await?.is_none() {
        return Err(Error::not_found(format!("tenant {tenant_id} not found")));
    }
    audit::record(svc, &op.actor(), Some(tenant_id), action, Some(tenant_id.to_string()), json!({})).await;
    Ok(Tenant {
        id: tenant_id,
        actor: crate::auth::Actor::System("operator"),
        scopes: vec![crate::auth::Scope::Read],
        limits: std::sync::Arc::default(),
        turn: None,
        read_after: None,
        scope: None,
    })
}
