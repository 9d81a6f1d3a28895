//! The audit log: every admin and key-management action, who did it, when, to what.

use serde_json::Value;
use uuid::Uuid;

use super::{Page, Services};
use crate::store::audit;
pub use crate::store::audit::{AuditFilter, AuditRow};

/// Where an action came from: the client's address and the request's id. None of either for the CLI and
/// the service's own jobs.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub client: Option<std::net::IpAddr>,
    pub request_id: Option<String>,
}

tokio::task_local! {
    /// The origin of the request being served (set by the HTTP surface around each request).
    static ORIGIN: Origin;
}

/// Runs `work` (a request's handling) with `origin` as the origin of every action it records.
pub async fn with_origin<F: std::future::Future>(origin: Origin, work: F) -> F::Output {
    ORIGIN.scope(origin, work).await
}

/// The origin of the request being served, if any.
pub fn origin() -> Origin {
    ORIGIN.try_with(Origin::clone).unwrap_or_default()
}

/// Records an action, with the origin of the request that caused it. A failure to record is logged for the
/// operator and does not undo the action (which has already happened).
pub async fn record(
    svc: &Services,
    actor: &str,
    tenant_id: Option<Uuid>,
    action: &str,
    target: Option<String>,
    details: Value,
) {
    record_in(svc.db.owner(), &origin(), actor, tenant_id, action, target.as_deref(), details).await
}

/// [`record`] on `pool` with an explicit `origin` (work that outlives its request's task, jobs).
pub async fn record_in(
    pool: &sqlx::PgPool,
    origin: &Origin,
    actor: &str,
    tenant_id: Option<Uuid>,
    action: &str,
    target: Option<&str>,
    details: Value,
) {
    let entry = audit::Entry {
        actor,
        tenant_id,
        action,
        target,
        details,
        client_address: origin.client,
        request_id: origin.request_id.as_deref(),
    };
    if let Err(err) = audit::record(pool, entry).await {
        tracing::error!(error = ?err, actor, action, "could not record an audit entry");
    }
    tracing::info!(actor, ?tenant_id, action, target = target.unwrap_or_default(), client = ?origin.client,
        request_id = origin.request_id.as_deref().unwrap_or_default(), "audit");
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
