//! Cairn: a hosted, multi-tenant memory service for AI agents.
//!
//! Layers (README, "Layout"): `api/` holds the surfaces (native, AutoMem, SHODH, remem, MCP), which
//! translate; `service/` the use cases, which decide; `store/` all SQL, reached through a tenant
//! transaction; `memory/`, `recall/`, `graph/`, `entities/` and `consolidation/` the domain's types and pure
//! rules; `models/` the embedders and chat model; `jobs/` the background work; `auth/` keys and the tenant
//! context. `server` wires a process's roles; `cli` is the command line.

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
pub mod recall;
pub mod server;
pub mod service;
pub mod store;
pub mod validate;

#[cfg(test)]
mod properties;

/// The crate version, reported by `/health` and the OpenAPI document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
