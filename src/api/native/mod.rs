//! The native API under `/api/v1`, one file per resource.

pub(crate) mod associations;
pub(crate) mod consolidation;
pub(crate) mod entities;
mod eval;
mod jobs;
mod keys;
pub(crate) mod lifecycle;
pub(crate) mod memories;
pub(crate) mod recall;
mod transfer;
mod trash;
mod usage;
mod webhooks;

use utoipa_axum::router::OpenApiRouter;

use super::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(memories::router())
        .merge(recall::router())
        .merge(keys::router())
        .merge(associations::router())
        .merge(entities::router())
        .merge(jobs::router())
        .merge(lifecycle::router())
        .merge(consolidation::router())
        .merge(usage::router())
        .merge(transfer::router())
        .merge(trash::router())
        .merge(eval::router())
        .merge(webhooks::router())
}
