//! The native API under `/api/v1` (remem's paths; AutoMem's and SHODH's fields).

mod consolidate;
mod entities;
mod graph;
mod jobs;
mod keys;
mod lifecycle;
mod memories;
mod recall;

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
}
