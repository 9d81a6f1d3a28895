//! Cairn: a hosted, multi-tenant memory service for AI agents.
//!
//! Layers, top to bottom (README, "Layout", lists what each may import; `docs/design.md` explains them):
//! `cli`, `server` and `eval` run a process; `api/` holds the surfaces (native, AutoMem, SHODH, remem, MCP,
//! admin), which translate; `jobs/` the job handlers; `service/` the use cases, which decide; `auth/` identity
//! (keys, the tenant context); `queue/` the jobs' names, payloads and enqueueing; `store/` all SQL, reached
//! through a tenant transaction; `tenancy/` (the control plane), `consolidation/`, `recall/`, `graph/`,
//! `entities/` and `memory/` the domain's types and pure rules; `models/` the embedders, chat model and
//! reranker; `validate`, `config` (settings as plain values) and `error` underneath everything.
// The OpenAPI examples of the widest views (a memory) nest deeper than serde_json's `json!` expands by default.
#![recursion_limit = "256"]

pub mod api;
pub mod auth;
pub mod cli;
pub mod config;
pub mod consolidation;
pub mod entities;
pub mod error;
pub mod eval;
pub mod graph;
pub mod jobs;
pub mod memory;
pub mod models;
pub mod queue;
pub mod recall;
pub mod server;
pub mod service;
pub mod store;
pub mod tenancy;
pub mod validate;

#[cfg(test)]
mod properties;

/// The crate version, reported by `/health` and the OpenAPI document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
