//! `/api/v1/webhooks`: a tenant's admin registers endpoints for its events and reads their delivery log
//! (`service::webhooks`). Every route needs the admin scope.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Admin;
use crate::api::error::ApiResult;
use crate::api::extract::{parse_uuid, ApiJson, ApiQuery, PathId};
use crate::api::views::webhooks::{Webhook, WebhookDeleted, WebhookDelivery, WebhookDeliveryPage, WebhookList};
use crate::api::AppState;
use crate::service::webhooks::{self, EndpointParams, EndpointPatch};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_webhooks, create_webhook))
        .routes(routes!(get_webhook, update_webhook, delete_webhook))
        .routes(routes!(rotate_secret))
        .routes(routes!(list_deliveries))
        .routes(routes!(redeliver))
}

/// The tenant's webhook endpoints (never their secrets).
#[utoipa::path(get, path = "/api/v1/webhooks", operation_id = "webhooks.list", tag = "webhooks",
    responses(
        (status = 200, description = "The endpoints, oldest first", body = WebhookList),
        (status = 403, description = "Key lacks the admin scope", body = crate::api::error::ErrorBody)
    ))]
async fn list_webhooks(State(services): State<AppState>, Admin(tenant): Admin) -> ApiResult<Json<WebhookList>> {
    let rows = webhooks::list(&services, &tenant).await?;
    Ok(Json(WebhookList { webhooks: rows.into_iter().map(|r| Webhook::from_row(r, false)).collect() }))
}

/// Register a webhook endpoint.
///
/// Events of the types it wants are posted to it as JSON (`{"id", "type", "timestamp", "data"}`), signed the
/// Standard Webhooks way: headers `webhook-id` (the event id: the same on every retry, dedup by it),
/// `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of HMAC-SHA256 over
/// `id.timestamp.body`, keyed by the base64 after `whsec_` of the secret in this answer, shown only here and
/// when rotated). Any 2xx answer within 10 s is a delivery; anything else is retried with exponential backoff
/// for a day, each endpoint's oldest failed event first, one memory's events in order; then the endpoint is
/// disabled (with the reason). Internal addresses (loopback, private, link-local, metadata) are refused and
/// redirects are not followed. At most 10 endpoints per tenant.
#[utoipa::path(post, path = "/api/v1/webhooks", operation_id = "webhooks.create", tag = "webhooks",
    request_body = EndpointParams,
    responses(
        (status = 201, description = "Registered; the signing secret is in `secret`", body = Webhook),
        (status = 400, description = "A bad URL (or an internal address) or an unknown event type", body = crate::api::error::ErrorBody),
        (status = 403, description = "Key lacks the admin scope, or the tenant has the most endpoints it may", body = crate::api::error::ErrorBody)
    ))]
async fn create_webhook(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    ApiJson(params): ApiJson<EndpointParams>,
) -> ApiResult<(StatusCode, Json<Webhook>)> {
    let row = webhooks::create(&services, &tenant, params).await?;
    Ok((StatusCode::CREATED, Json(Webhook::from_row(row, true))))
}

/// One webhook endpoint.
#[utoipa::path(get, path = "/api/v1/webhooks/{id}", operation_id = "webhooks.get", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "The endpoint", body = Webhook),
        (status = 404, description = "No such endpoint in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn get_webhook(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
) -> ApiResult<Json<Webhook>> {
    Ok(Json(Webhook::from_row(webhooks::get(&services, &tenant, id).await?, false)))
}

/// Change a webhook endpoint: its URL, event types, description, or whether it is enabled (enabling it again
/// after the service disabled it delivers what is pending).
#[utoipa::path(patch, path = "/api/v1/webhooks/{id}", operation_id = "webhooks.update", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id")),
    request_body = EndpointPatch,
    responses(
        (status = 200, description = "The endpoint as it now stands", body = Webhook),
        (status = 400, description = "A bad field", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such endpoint in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn update_webhook(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
    ApiJson(patch): ApiJson<EndpointPatch>,
) -> ApiResult<Json<Webhook>> {
    Ok(Json(Webhook::from_row(webhooks::update(&services, &tenant, id, patch).await?, false)))
}

/// Delete a webhook endpoint and its delivery log (events not yet delivered are dropped).
#[utoipa::path(delete, path = "/api/v1/webhooks/{id}", operation_id = "webhooks.delete", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "Deleted", body = WebhookDeleted),
        (status = 404, description = "No such endpoint in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn delete_webhook(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
) -> ApiResult<Json<WebhookDeleted>> {
    webhooks::delete(&services, &tenant, id).await?;
    Ok(Json(WebhookDeleted { status: "deleted", id }))
}

/// Give a webhook endpoint a new signing secret (the old one stops signing at once).
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/rotate-secret", operation_id = "webhooks.rotateSecret", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id")),
    responses(
        (status = 200, description = "The endpoint with its new secret in `secret`", body = Webhook),
        (status = 404, description = "No such endpoint in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn rotate_secret(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
) -> ApiResult<Json<Webhook>> {
    Ok(Json(Webhook::from_row(webhooks::rotate_secret(&services, &tenant, id).await?, true)))
}

/// Paging and filtering of a delivery log.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeliveriesQuery {
    /// Only deliveries of this status: `pending`, `delivered` or `failed`.
    pub status: Option<String>,
    /// Include each delivery's body (default false).
    pub include_payload: Option<bool>,
    /// 1..=200, default 50.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// A webhook endpoint's delivery log, newest first: each event's status, attempts, the last answer's status
/// code, error and latency. Kept 14 days after delivery.
#[utoipa::path(get, path = "/api/v1/webhooks/{id}/deliveries", operation_id = "webhooks.listDeliveries", tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id"), DeliveriesQuery),
    responses(
        (status = 200, description = "A page of deliveries", body = WebhookDeliveryPage),
        (status = 400, description = "A bad parameter", body = crate::api::error::ErrorBody),
        (status = 404, description = "No such endpoint in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn list_deliveries(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    PathId(id): PathId,
    ApiQuery(query): ApiQuery<DeliveriesQuery>,
) -> ApiResult<Json<WebhookDeliveryPage>> {
    let page = webhooks::deliveries(&services, &tenant, id, query.status, query.limit, query.offset).await?;
    Ok(Json(WebhookDeliveryPage::from_page(page, query.include_payload.unwrap_or(false))))
}

/// Send an event of the log again: a new delivery of the same event (same `webhook-id` and body), due now.
#[utoipa::path(post, path = "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", operation_id = "webhooks.redeliver",
    tag = "webhooks",
    params(("id" = uuid::Uuid, Path, description = "Endpoint id"), ("delivery_id" = uuid::Uuid, Path, description = "Delivery id")),
    responses(
        (status = 202, description = "Queued; the new delivery", body = WebhookDelivery),
        (status = 404, description = "No such endpoint or delivery in this tenant", body = crate::api::error::ErrorBody)
    ))]
async fn redeliver(
    State(services): State<AppState>,
    Admin(tenant): Admin,
    Path((id, delivery_id)): Path<(String, String)>,
) -> ApiResult<(StatusCode, Json<WebhookDelivery>)> {
    let (id, delivery_id) = (parse_uuid("id", &id)?, parse_uuid("delivery_id", &delivery_id)?);
    let row = webhooks::redeliver(&services, &tenant, id, delivery_id).await?;
    Ok((StatusCode::ACCEPTED, Json(WebhookDelivery::from_row(row, false))))
}
