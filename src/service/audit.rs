//! The audit log: every admin and key-management action, who did it, when, to what.

use serde_json::Value;
use uuid::Uuid;

use super::{Page, Services};
use crate::store::audit;
pub use crate::store::audit::{AuditFilter, AuditRow};

/// Records an action. A failure to record is logged for the operator and does not undo the action (which has
/// already happened).
pub async fn record(
    svc: &Services,
    actor: &str,
    tenant_id: Option<Uuid>,
    action: &str,
    target: Option<String>,
    details: Value,
) {
    if let Err(err) = audit::record(svc.db.owner(), actor, tenant_id, action, target.as_deref(), details).await {
        tracing::error!(error = ?err, actor, action, "could not record an audit entry");
    }
    tracing::info!(actor, ?tenant_id, action, target = target.as_deref().unwrap_or_default(), "audit");
}

/// Largest page of the audit log.
pub const MAX_PAGE: i64 = 500;
/// Default page of the audit log.
pub const DEFAULT_PAGE: i64 = 50;

/// One page of the audit log, newest first (for operators).
pub async fn list(
    svc: &Services,
    _operator: &crate::auth::admin::Operator,
    filter: &AuditFilter,
    limit: Option<i64>,
    offset: Option<i64>,
) -> crate::error::Result<Page<AuditRow>> {
    let (limit, offset) = crate::validate::page(limit, offset, MAX_PAGE, DEFAULT_PAGE)?;
    let (items, total) = audit::list(svc.db.owner(), filter, limit, offset).await?;
    Ok(Page { items, total, limit, offset })
}
