//! One integration-test binary, its modules mirroring the routes. Every test gets its own database
//! (created from DATABASE_URL, dropped afterwards) and a real server on a free port.

mod helpers;

mod architecture;
mod auth;
mod automem;
mod batch;
mod bounds;
mod by_tag;
mod cli;
mod consolidation;
mod control_plane;
mod counts;
mod deploy;
mod embedding;
mod enrichment;
mod entities;
mod episodes;
mod errors;
mod eval;
mod faults;
mod forgetting;
mod fuzz;
mod governance;
mod graph;
mod health;
mod history;
mod isolation;
mod jobs;
mod lifecycle;
mod listing;
mod mcp;
mod memories;
mod openai;
mod openapi;
mod outage;
mod recall;
mod remem;
mod rerank;
mod robustness;
mod roles;
mod sdk;
mod shodh;
mod transfer;
mod undo;
mod update;
