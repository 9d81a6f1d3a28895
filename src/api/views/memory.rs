//! Memories as every surface shows them: one memory, a page of them, a delete by tag's count, a change in a memory's history.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

/// A stored memory, as every route returns it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "0b8c7a52-5c1e-4d6a-9f59-3f2d0f7f2a10",
    "content": "Chose PostgreSQL over MongoDB: we need ACID transactions.",
    "content_hash": "5d41402abc4b2a76b9719d911017c592ae1d8c5e0f0c6b5b1f3c7b6c0f3e2a1b",
    "type": "Decision", "confidence": 0.9, "memory_type": "long_term", "ttl": null, "expires_at": null,
    "tags": ["project-alpha", "database"], "tag_prefixes": ["project-alpha", "database"],
    "importance": 0.9, "metadata": {"alternatives": ["MongoDB"]}, "source_type": "user", "credibility": 1.0,
    "quality_score": null, "emotion": null, "emotional_valence": null, "emotional_arousal": null,
    "flashbulb_until": null, "episode_id": null, "sequence_number": null,
    "user_id": "user-42", "agent_id": null, "run_id": null, "t_valid": null, "t_invalid": null,
    "created_at": "2026-11-29T10:30:00Z", "updated_at": "2026-11-29T10:30:00Z", "last_accessed_at": null,
    "access_count": 0, "archived_at": null, "embedding_status": "pending", "embedding_model": null,
    "embedding_error": null, "enrichment_status": "pending", "summary": null,
    "summarized": false, "original_length": null, "summarized_length": null, "repeated": false,
    "created_by": "key:7f1d2c3b-9a8e-4f6d-b5c4-3e2a1f0d9c8b", "created_by_scope": {"user_ids": ["user-42"]}
}))]
pub struct Memory {
    pub id: Uuid,
    pub content: String,
    /// sha-256 (hex) of the normalised content; the tenant-wide dedup key.
    pub content_hash: String,
    /// The classification.
    #[serde(rename = "type")]
    pub kind: String,
    /// Confidence in the classification, 0..=1.
    pub confidence: f32,
    /// `short_term` or `long_term`.
    pub memory_type: String,
    /// Time to live in seconds, for short-term memories.
    pub ttl: Option<i64>,
    pub expires_at: Option<DateTime<Utc>>,
    pub tags: Vec<String>,
    /// Every hierarchical prefix of every tag (split on `:` and `/`).
    pub tag_prefixes: Vec<String>,
    pub importance: f32,
    #[schema(value_type = Object)]
    pub metadata: Value,
    pub source_type: String,
    pub credibility: f32,
    pub quality_score: Option<f32>,
    pub emotion: Option<String>,
    pub emotional_valence: Option<f32>,
    pub emotional_arousal: Option<f32>,
    /// Until when this flashbulb memory is exempt from decay and forgetting.
    pub flashbulb_until: Option<DateTime<Utc>>,
    pub episode_id: Option<String>,
    pub sequence_number: Option<i32>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub t_valid: Option<DateTime<Utc>>,
    pub t_invalid: Option<DateTime<Utc>>,
    /// The memory's own timestamp (may be back-dated).
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_accessed_at: Option<DateTime<Utc>>,
    pub access_count: i64,
    pub archived_at: Option<DateTime<Utc>>,
    /// `pending`, `ready` or `failed`.
    pub embedding_status: String,
    pub embedding_model: Option<String>,
    /// Why the last embedding attempt failed, while it is failing.
    pub embedding_error: Option<String>,
    /// Whether enrichment (entities and their tags) has run on the current content: `pending`, `ready` or
    /// `failed`.
    pub enrichment_status: String,
    /// Enrichment's one-line summary (the first sentence, at most 120 characters).
    pub summary: Option<String>,
    /// Whether the content is a summary of a longer original (500-2000 characters, kept in
    /// `metadata.original_content`).
    pub summarized: bool,
    pub original_length: Option<i32>,
    pub summarized_length: Option<i32>,
    /// Stored although the tenant held its content (`on_duplicate: store`): a repeat, which deduplication
    /// never finds (it finds the memory stored first).
    pub repeated: bool,
    /// Who stored it, stamped by the server from the request's credentials, never taken from a body:
    /// `key:<api key id>`, `system:<job>` (the service's own jobs, e.g. consolidation) or `admin:<email>`;
    /// null for memories stored before authorship was recorded. Filter with `created_by=`.
    pub created_by: Option<String>,
    /// When a scoped key or a token stored it: what that credential was limited to (its end users, agents,
    /// tag prefixes), stamped by the server. Null for an unscoped key or a job.
    pub created_by_scope: Option<ActorScope>,
}

/// What a scoped key or token was limited to when it acted (each list absent when the scope has none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ActorScope {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_prefixes: Option<Vec<String>>,
}

impl ActorScope {
    /// The scope as the database stamped it (`{"users": [...], "agents": [...], "tags": [...]}`).
    pub fn stored(value: Option<Value>) -> Option<Self> {
        let scope: crate::tenancy::KeyScope = serde_json::from_value(value?).ok()?;
        Some(Self { user_ids: scope.users, agent_ids: scope.agents, tag_prefixes: scope.tags })
    }
}

impl From<crate::memory::Memory> for Memory {
    fn from(m: crate::memory::Memory) -> Self {
        let crate::memory::Memory {
            id,
            content,
            content_hash,
            kind,
            confidence,
            memory_type,
            ttl,
            expires_at,
            tags,
            tag_prefixes,
            importance,
            metadata,
            source_type,
            credibility,
            quality_score,
            emotion,
            emotional_valence,
            emotional_arousal,
            flashbulb_until,
            episode_id,
            sequence_number,
            user_id,
            agent_id,
            run_id,
            t_valid,
            t_invalid,
            created_at,
            updated_at,
            last_accessed_at,
            access_count,
            archived_at,
            embedding_status,
            embedding_model,
            embedding_error,
            enrichment_status,
            summary,
            summarized,
            original_length,
            summarized_length,
            repeated,
            created_by,
            created_by_scope,
        } = m;
        Self {
            id,
            content,
            content_hash,
            kind,
            confidence,
            memory_type,
            ttl,
            expires_at,
            tags,
            tag_prefixes,
            importance,
            metadata,
            source_type,
            credibility,
            quality_score,
            emotion,
            emotional_valence,
            emotional_arousal,
            flashbulb_until,
            episode_id,
            sequence_number,
            user_id,
            agent_id,
            run_id,
            t_valid,
            t_invalid,
            created_at,
            updated_at,
            last_accessed_at,
            access_count,
            archived_at,
            embedding_status,
            embedding_model,
            embedding_error,
            enrichment_status,
            summary,
            summarized,
            original_length,
            summarized_length,
            repeated,
            created_by,
            created_by_scope: ActorScope::stored(created_by_scope),
        }
    }
}

/// Memories shown.
pub fn memories(list: Vec<crate::memory::Memory>) -> Vec<Memory> {
    list.into_iter().map(Memory::from).collect()
}

/// A page of memories, in whichever shape a surface shows a memory (`T`): every listing's page.
#[derive(Debug, Serialize)]
pub struct MemoryPage<T: ToSchema> {
    pub memories: Vec<T>,
    /// Memories on this page.
    pub count: usize,
    /// How many memories match in all.
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    /// Whether another page follows.
    pub has_more: bool,
}

/// Written by hand: utoipa's derive copies a generic field's schema inline, and SDK generators then make an
/// anonymous type of each copy; here `memories` refers to `T`'s schema by name.
impl<T: ToSchema> utoipa::PartialSchema for MemoryPage<T> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
        let integer =
            |description: &str| ObjectBuilder::new().schema_type(Type::Integer).description(Some(description));
        ObjectBuilder::new()
            .description(Some("A page of memories, with the total the listing's filters match."))
            .property("memories", ArrayBuilder::new().items(utoipa::openapi::Ref::from_schema_name(T::name())))
            .property("count", integer("Memories on this page.").minimum(Some(0.0)))
            .property("total", integer("How many memories match in all."))
            .property("limit", integer("The page size asked for."))
            .property("offset", integer("Memories skipped."))
            .property(
                "has_more",
                ObjectBuilder::new().schema_type(Type::Boolean).description(Some("Whether another page follows.")),
            )
            .required("memories")
            .required("count")
            .required("total")
            .required("limit")
            .required("offset")
            .required("has_more")
            .into()
    }
}

impl<T: ToSchema> ToSchema for MemoryPage<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        // "MemoryPage" for the native shape, "AutoMemMemoryPage" for AutoMem's: names SDK generators keep as
        // they are (`MemoryPage_Memory` became `MemoryPageMemory`).
        match T::name() {
            name if name == "Memory" => "MemoryPage".into(),
            name => format!("{name}Page").into(),
        }
    }

    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        schemas.push((T::name().into_owned(), T::schema()));
        T::schemas(schemas);
    }
}

/// A page of memories in the native shape (what utoipa's macros name: they take no generic arguments
/// of a hand-written schema).
pub type MemoryList = MemoryPage<Memory>;

impl<T: ToSchema> MemoryPage<T> {
    /// The page of a listing, each memory shown as `T`.
    pub fn new(page: crate::service::Page<crate::memory::Memory>) -> Self
    where
        T: From<crate::memory::Memory>,
    {
        let has_more = page.has_more();
        let memories: Vec<T> = page.items.into_iter().map(T::from).collect();
        Self { count: memories.len(), memories, total: page.total, limit: page.limit, offset: page.offset, has_more }
    }
}

/// What a delete by tag removed (native, AutoMem and MCP).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "success", "tags": ["scratch"], "deleted_count": 42}))]
pub struct DeletedByTag {
    pub status: &'static str,
    pub tags: Vec<String>,
    pub deleted_count: i64,
}

/// One change to a memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemoryEvent {
    /// Increases with every event of the tenant.
    pub id: i64,
    pub memory_id: Uuid,
    /// created, updated, deleted, archived, promoted, superseded, decayed, restored or forgotten.
    pub event_type: String,
    /// The API key id (`key:<uuid>`) or background job (`system:<job>`) that made the change.
    pub actor: String,
    /// When a scoped key or a token made the change: what it was limited to.
    pub actor_scope: Option<ActorScope>,
    /// The memory before the change (absent for `created`).
    #[schema(value_type = Option<Object>)]
    pub before: Option<Value>,
    /// The memory after the change (absent for `deleted`).
    #[schema(value_type = Option<Object>)]
    pub after: Option<Value>,
    pub created_at: DateTime<Utc>,
}

impl From<crate::memory::MemoryEvent> for MemoryEvent {
    fn from(e: crate::memory::MemoryEvent) -> Self {
        let crate::memory::MemoryEvent { id, memory_id, event_type, actor, actor_scope, before, after, created_at } = e;
        Self {
            id,
            memory_id,
            event_type,
            actor,
            actor_scope: ActorScope::stored(actor_scope),
            before,
            after,
            created_at,
        }
    }
}
