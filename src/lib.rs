//! Cairn: a hosted, multi-tenant memory service for AI agents.
//!
//! Layout: `api/` is HTTP (one folder per surface), `memory/` the domain types and rules, `store/` the SQL
//! (one file per table family), `auth/` API keys and scopes. `cli` and `server` wire them together.

pub mod api;
pub mod auth;
pub mod cli;
pub mod config;
pub mod consolidate;
pub mod embed;
pub mod entities;
pub mod error;
pub mod eval;
pub mod graph;
pub mod jobs;
pub mod llm;
pub mod mcp_stdio;
pub mod memory;
pub mod openai_compat;
pub mod recall;
pub mod server;
pub mod store;

/// The crate version, reported by `/health` and the OpenAPI document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
