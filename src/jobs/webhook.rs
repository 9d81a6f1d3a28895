//! Webhook delivery (queue `cairn::webhook`): sends one tenant's due events to its endpoints
//! (`service::webhooks::deliver_due`). An endpoint that fails is retried by the service's own schedule, not
//! by failing the job; the job fails (and apalis retries it) only when the database does.

use std::sync::Arc;

use apalis::prelude::{Attempt, Data, Error as JobError};

use crate::queue::webhook::WebhookJob;
use crate::service::webhooks::{self, Sender};
use crate::service::Services;

/// What the handler needs: the services and the one HTTP client of this process.
pub struct WebhookContext {
    pub services: Services,
    pub sender: Sender,
}

/// The apalis handler.
pub async fn handle(job: WebhookJob, ctx: Data<Arc<WebhookContext>>, attempt: Attempt) -> Result<(), JobError> {
    match webhooks::deliver_due(&ctx.services, &ctx.sender, job.tenant_id).await {
        Ok(pass) => {
            if pass.disabled > 0 || pass.given_up > 0 {
                tracing::warn!(tenant_id = %job.tenant_id, ?pass, "webhook deliveries given up");
            }
            Ok(())
        }
        Err(err) => {
            tracing::warn!(tenant_id = %job.tenant_id, error = %err, "webhook delivery pass failed");
            Err(super::retry_later(attempt.current(), err.to_string()).await)
        }
    }
}
