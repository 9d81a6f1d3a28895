//! The native API under `/api/v1` (remem's paths; AutoMem's and SHODH's fields).

pub(crate) mod consolidate;
pub(crate) mod entities;
pub(crate) mod graph;
mod jobs;
mod keys;
pub(crate) mod lifecycle;
pub(crate) mod memories;
pub(crate) mod recall;
pub(crate) mod remem;

use utoipa_axum::router::OpenApiRouter;

use super::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(memories::router())
        .merge(recall::router())
        .merge(keys::router())
        .merge(graph::router())
        .merge(entities::router())
        .merge(jobs::router())
        .merge(lifecycle::router())
        .merge(consolidate::router())
        .merge(remem::router())
}
