//! The response shapes the surfaces share: how a memory, an association, an entity, a key, a recall hit,
//! a run... look over HTTP and MCP. The domain and store types say what things are; these say how they
//! are shown, and carry the OpenAPI schemas. Each is built from its domain value by `From`, destructuring
//! it whole, so a field added to the domain cannot be forgotten here without the build failing.

pub mod automem;
pub mod control;
pub mod eval;
pub mod shodh;
pub mod webhooks;

mod consolidation;
mod entities;
mod graph;
mod health;
mod jobs;
mod keys;
mod memory;
mod recall;
mod settings;
mod stats;

pub use self::consolidation::{
    consolidated, ConsolidateResponse, ConsolidationMode, ConsolidationQueued, Report, RunRecord, TimeHorizon,
};
pub use self::entities::{
    CompactEntity, CompactMemory, CompactRecall, Entity, EntityRecallResponse, VerboseEntity, VerboseMemory,
    VerboseRecall,
};
pub use self::graph::{Association, PathStep, RelatedMemory};
pub use self::health::Health;
pub use self::jobs::{JobStatus, PipelineCounts, QueueLoad, ServiceJobs};
pub use self::keys::ApiKeyInfo;
pub use self::memory::{memories, DeletedByTag, Memory, MemoryEvent, MemoryList, MemoryPage};
pub use self::recall::{expansions, Expansion, RecallHit, RecallResponse, ScoreComponents};
pub use self::settings::TenantSettings;
pub use self::stats::{type_counts, EmbeddingCounts, TenantStats, TypeCount};
