//! Webhook endpoints and their delivery log (`service::webhooks`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::service::webhooks::{DeliveryRow, EndpointRow};
use crate::service::Page;

/// A webhook endpoint (its secret only in the answers that create or rotate it).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "3f1c2b9e-0d4a-4e8b-9c71-5a2f6e8d1b40", "url": "https://hooks.example.com/cairn",
    "description": "sync to our CRM", "event_types": ["memory.created", "memory.deleted"], "enabled": true,
    "disabled_reason": null, "disabled_at": null, "retry_at": null, "created_by": "key:7c9e6679-7425-40de-944b-e07fc1f90ae7",
    "created_at": "2026-12-03T09:00:00Z", "updated_at": "2026-12-03T09:00:00Z"}))]
pub struct Webhook {
    pub id: Uuid,
    pub url: String,
    pub description: Option<String>,
    pub event_types: Vec<String>,
    /// Whether events are sent to it.
    pub enabled: bool,
    /// Why the service disabled it (a delivery failing for the whole retry window, a backlog over the cap);
    /// null when enabled or disabled by the tenant. Enable it again with `PATCH {"enabled": true}`.
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<DateTime<Utc>>,
    /// A delivery failed: nothing more is sent before this time, when the failed one is retried first.
    pub retry_at: Option<DateTime<Utc>>,
    /// The key that registered it (`key:<id>`).
    pub created_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The signing secret (`whsec_...`): only when the endpoint is created or its secret rotated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl Webhook {
    pub fn from_row(row: EndpointRow, with_secret: bool) -> Self {
        let EndpointRow {
            id,
            url,
            description,
            event_types,
            secret,
            enabled,
            disabled_reason,
            disabled_at,
            retry_at,
            created_by,
            created_at,
            updated_at,
        } = row;
        Self {
            id,
            url,
            description,
            event_types,
            enabled,
            disabled_reason,
            disabled_at,
            retry_at,
            created_by,
            created_at,
            updated_at,
            secret: with_secret.then_some(secret),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    pub webhooks: Vec<Webhook>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookDeleted {
    /// `deleted`
    pub status: &'static str,
    pub id: Uuid,
}

/// One event's delivery to an endpoint.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "b7e1d2c3-4f5a-4b6c-8d7e-9f0a1b2c3d4e", "event_id": "0b6f1c2e-8d4a-4f53-9a3e-2c1d5e7f9a10",
    "event_type": "memory.created", "memory_id": "5d2c1b0a-9e8f-4a7b-8c6d-1e2f3a4b5c6d", "status": "delivered", "attempts": 1,
    "next_attempt_at": "2026-12-03T09:00:01Z", "last_status_code": 204, "last_error": null, "last_latency_ms": 38,
    "created_at": "2026-12-03T09:00:00Z", "delivered_at": "2026-12-03T09:00:01Z"}))]
pub struct WebhookDelivery {
    pub id: Uuid,
    /// The event's id, sent as `webhook-id` (the same on every attempt and redelivery: dedup by it).
    pub event_id: Uuid,
    pub event_type: String,
    pub memory_id: Option<Uuid>,
    /// `pending` (to be sent or retried), `delivered`, or `failed` (given up after the retry window).
    pub status: String,
    pub attempts: i32,
    /// When it is (or was last) due.
    pub next_attempt_at: DateTime<Utc>,
    /// The endpoint's HTTP status at the last attempt (null: no answer).
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
    pub last_latency_ms: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
    /// The body sent (with `include_payload=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

impl WebhookDelivery {
    pub fn from_row(row: DeliveryRow, with_payload: bool) -> Self {
        Self {
            id: row.id,
            event_id: row.event_id,
            event_type: row.event_type,
            memory_id: row.memory_id,
            status: row.status,
            attempts: row.attempts,
            next_attempt_at: row.next_attempt_at,
            last_status_code: row.last_status_code,
            last_error: row.last_error,
            last_latency_ms: row.last_latency_ms,
            created_at: row.created_at,
            delivered_at: row.delivered_at,
            payload: with_payload.then_some(row.payload),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookDeliveryPage {
    /// Newest first.
    pub deliveries: Vec<WebhookDelivery>,
    pub count: usize,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

impl WebhookDeliveryPage {
    pub fn from_page(page: Page<DeliveryRow>, with_payload: bool) -> Self {
        let has_more = page.has_more();
        let Page { items, total, limit, offset } = page;
        let deliveries: Vec<WebhookDelivery> =
            items.into_iter().map(|d| WebhookDelivery::from_row(d, with_payload)).collect();
        Self { count: deliveries.len(), deliveries, total, limit, offset, has_more }
    }
}
