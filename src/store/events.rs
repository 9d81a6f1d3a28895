//! SQL for `memory_events`, the audit trail. Snapshots are taken by Postgres itself (`to_jsonb` of the
//! row, without the vector and the tsvector), in the same transaction as the change they describe.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::TenantTx;
use crate::error::ApiError;

/// A row snapshot for the trail (of a row aliased `m`).
pub const SNAPSHOT: &str = "to_jsonb(m) - 'embedding' - 'search_tsv' - 'tenant_id'";

/// Appended to `WITH d AS (DELETE ... RETURNING *)` with the actor as `$3`: records one `deleted` event per
/// deleted row and returns the deleted ids.
pub const RECORD_DELETED_FROM_D: &str = "INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before)
     SELECT m.tenant_id, m.id, 'deleted', $3, to_jsonb(m) - 'embedding' - 'search_tsv' - 'tenant_id' FROM d AS m
     RETURNING memory_id";

#[derive(Debug, Clone, Copy)]
pub enum EventType {
    Created,
}

impl EventType {
    fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
        }
    }
}

/// One change to a memory.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct MemoryEvent {
    /// Increases with every event of the tenant.
    pub id: i64,
    pub memory_id: Uuid,
    /// created, updated, deleted, archived, promoted or superseded.
    pub event_type: String,
    /// The API key id (`key:<uuid>`) or background job (`system:<job>`) that made the change.
    pub actor: String,
    /// The memory before the change (absent for `created`).
    #[schema(value_type = Option<Object>)]
    pub before: Option<Value>,
    /// The memory after the change (absent for `deleted`).
    #[schema(value_type = Option<Object>)]
    pub after: Option<Value>,
    pub created_at: DateTime<Utc>,
}

/// Records an event whose `after` is the memory's current row.
pub async fn record(
    tx: &mut TenantTx,
    memory_id: Uuid,
    event_type: EventType,
    actor: &str,
    before: Option<Value>,
) -> Result<(), ApiError> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after)
         SELECT tenant_id, id, $3, $4, $5, {SNAPSHOT} FROM memories m WHERE tenant_id = $1 AND id = $2"
    );
    sqlx::query(&sql)
        .bind(tenant_id)
        .bind(memory_id)
        .bind(event_type.as_str())
        .bind(actor)
        .bind(before)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Every event of one memory, oldest first.
pub async fn history(tx: &mut TenantTx, memory_id: Uuid) -> Result<Vec<MemoryEvent>, ApiError> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(
        "SELECT id, memory_id, event_type, actor, before, after, created_at FROM memory_events
         WHERE tenant_id = $1 AND memory_id = $2 ORDER BY id",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .fetch_all(tx.conn())
    .await?)
}
