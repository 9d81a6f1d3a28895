//! SQL for `memory_events`, the audit trail. Snapshots are taken by Postgres itself ([`SNAPSHOT`]: the row's
//! columns without the vectors and the search columns), in the same transaction as the change they describe.

use uuid::Uuid;

use super::TenantTx;
use crate::error::Error;
use crate::memory::MemoryEvent;

/// A row snapshot for the trail (of a row aliased `m`): every column but [`SNAPSHOT_LEAVES_OUT`].
///
/// Named one by one: `to_jsonb(m) - 'embedding' - …` wrote each left-out column out as text first (a vector's
/// 384 floats, the tsvectors, the keys) and then dropped it, ~40 µs a row, 20-29 ms of a 500-memory batch with
/// vectors. A test (`tests/api/history.rs`) fails when a column of `memories` is in neither list. Two objects
/// joined: one `jsonb_build_object` takes at most 100 arguments (50 columns).
pub const SNAPSHOT: &str = "jsonb_build_object(
    'id', m.id, 'content', m.content, 'content_hash', m.content_hash, 'type', m.type, 'confidence', m.confidence,
    'memory_type', m.memory_type, 'ttl_seconds', m.ttl_seconds,
    'expires_at', m.expires_at, 'tags', m.tags, 'tag_prefixes', m.tag_prefixes,
    'importance', m.importance, 'metadata', m.metadata, 'source_type', m.source_type,
    'credibility', m.credibility, 'quality_score', m.quality_score, 'emotion', m.emotion,
    'emotional_valence', m.emotional_valence, 'emotional_arousal', m.emotional_arousal,
    'flashbulb_until', m.flashbulb_until, 'episode_id', m.episode_id,
    'sequence_number', m.sequence_number, 'user_id', m.user_id, 'agent_id', m.agent_id,
    'run_id', m.run_id) || jsonb_build_object(
    't_valid', m.t_valid, 't_invalid', m.t_invalid, 'created_at', m.created_at,
    'updated_at', m.updated_at, 'last_accessed_at', m.last_accessed_at, 'access_count', m.access_count,
    'archived_at', m.archived_at, 'embedding_status', m.embedding_status,
    'embedding_model', m.embedding_model, 'embedding_error', m.embedding_error,
    'enrichment_status', m.enrichment_status, 'base_importance', m.base_importance,
    'decayed_at', m.decayed_at, 'summary', m.summary, 'summarized', m.summarized,
    'original_length', m.original_length, 'summarized_length', m.summarized_length,
    'quality_computed', m.quality_computed, 'repeated', m.repeated, 'created_by', m.created_by)";

/// The columns of `memories` the trail's snapshots leave out: vectors, derived search columns, the tenant, the
/// episode context (derived) and the author's scope (shown through `cairn_visible_scope`).
pub const SNAPSHOT_LEAVES_OUT: &[&str] = &[
    "embedding",
    "search_tsv",
    "search_keys",
    "tenant_id",
    "context",
    "context_tsv",
    "context_keys",
    "context_embedding",
    "sentence_embeddings",
    "created_by_scope",
];

/// Appended to `WITH d AS (DELETE ... RETURNING *)` with the actor as `$3`: records one `deleted` event per
/// deleted row and returns the deleted ids.
pub fn record_deleted_from_d() -> String {
    format!(
        "INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before)
         SELECT m.tenant_id, m.id, 'deleted', $3, {SNAPSHOT} FROM d AS m RETURNING memory_id"
    )
}

/// Records the `created` event of a memory just inserted (its `after` is the row as stored). Updates,
/// deletes and expiry write their events in the same SQL statement as the change.
///
/// (On Citus an INSERT ... SELECT between the tenant's colocated rows runs on its shard as it is. One whose
/// rows come from elsewhere, a CTE for instance, is pulled through the coordinator and written by COPY, which
/// row-level security refuses, unless it has RETURNING or ON CONFLICT: such statements in the store have one.)
pub async fn record_created(tx: &mut TenantTx, memory_id: Uuid, actor: &str) -> Result<(), Error> {
    record_state(tx, memory_id, "created", actor).await
}

/// Records an event of `event_type` whose `after` is the memory as it now stands (created, restored).
pub async fn record_state(tx: &mut TenantTx, memory_id: Uuid, event_type: &str, actor: &str) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, after)
         SELECT tenant_id, id, $4, $3, {SNAPSHOT} FROM memories m WHERE tenant_id = $1 AND id = $2"
    );
    sqlx::query(&sql).bind(tenant_id).bind(memory_id).bind(actor).bind(event_type).execute(tx.conn()).await?;
    Ok(())
}

/// Records the creation of each of these memories (one statement).
pub async fn record_created_many(tx: &mut TenantTx, memory_ids: &[Uuid], actor: &str) -> Result<(), Error> {
    record_state_many(tx, memory_ids, "created", actor).await
}

/// [`record_state`] of each of these memories (one statement).
pub async fn record_state_many(
    tx: &mut TenantTx,
    memory_ids: &[Uuid],
    event_type: &str,
    actor: &str,
) -> Result<(), Error> {
    if memory_ids.is_empty() {
        return Ok(());
    }
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, after)
         SELECT tenant_id, id, $4, $3, {SNAPSHOT} FROM memories m WHERE tenant_id = $1 AND id = ANY($2)"
    );
    sqlx::query(&sql).bind(tenant_id).bind(memory_ids).bind(actor).bind(event_type).execute(tx.conn()).await?;
    Ok(())
}

/// Every event of one memory, oldest first: by the time of its transaction, then id (on Citus each node draws
/// ids from its own range, so ids alone do not order events written on different nodes).
pub async fn history(tx: &mut TenantTx, memory_id: Uuid) -> Result<Vec<MemoryEvent>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(
        "SELECT id, memory_id, event_type, actor, cairn_visible_scope(actor_scope) AS actor_scope, before, after,
                created_at FROM memory_events
         WHERE tenant_id = $1 AND memory_id = $2 ORDER BY created_at, id",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .fetch_all(tx.conn())
    .await?)
}
