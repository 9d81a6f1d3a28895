//! SQL for `memory_trash`: deleted memories kept for their tenant's undo window, restore, and erasure.
//!
//! Deletes fill the trash by themselves (a `BEFORE DELETE` trigger on `memories`, migration
//! `undo_and_erasure`), so no delete path can skip it. Erasing removes the trash row and strips the
//! memory's history down to ids, hashes and event types.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::memories::MEMORY_COLUMNS;
use super::{events, TenantTx};
use crate::error::Error;
use crate::memory::Memory;

/// A deleted memory still in the undo window (as listed).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Trashed {
    pub id: Uuid,
    pub content: String,
    pub tags: Vec<String>,
    pub deleted_at: DateTime<Utc>,
}

/// What the trash holds for one memory, for the restore's checks.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrashEntry {
    pub deleted_at: DateTime<Utc>,
    pub content_hash: String,
    /// A live memory with the same content (stored again since), which a restore would duplicate.
    pub duplicate_of: Option<Uuid>,
}

/// The trash's entry for `id`, locked for the rest of the transaction.
pub async fn entry(tx: &mut TenantTx, id: Uuid) -> Result<Option<TrashEntry>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(
        // The subquery names the tenant as a parameter, not through `t`: Citus locks rows (FOR UPDATE) only in a
        // statement it can route to one shard, and it proves that from constants.
        "SELECT t.deleted_at, t.content_hash,
                (SELECT m.id FROM memories m WHERE m.tenant_id = $1 AND m.content_hash = t.content_hash)
                  AS duplicate_of
           FROM memory_trash t WHERE t.tenant_id = $1 AND t.memory_id = $2 FOR UPDATE",
    )
    .bind(tenant_id)
    .bind(id)
    .fetch_optional(tx.conn())
    .await?)
}

/// Takes the episode locks of these trashed memories, in name order, before a restore writes any row
/// (store::memories::lock_episodes).
pub async fn lock_episodes(tx: &mut TenantTx, ids: &[Uuid]) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    sqlx::query(&super::memories::episode_locks(
        "SELECT memory->>'episode_id' FROM memory_trash WHERE tenant_id = $1 AND memory_id = ANY($2)",
    ))
    .bind(tenant_id)
    .bind(ids)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// What a restore did.
pub enum Restored {
    /// The trash does not hold it.
    Absent,
    /// A live memory has its id or its content; nothing changed (the transaction stays usable).
    Conflict,
    Restored(Box<Memory>),
}

/// Puts a memory back from the trash (with its relations whose other end exists, and its entity links) and
/// records a `restored` event. The caller checks [`entry`] first.
pub async fn restore(tx: &mut TenantTx, id: Uuid, actor: &str) -> Result<Restored, Error> {
    tx.note_memory_writes();
    let tenant_id = tx.tenant_id();
    let outcome: String =
        sqlx::query_scalar("SELECT cairn_restore_memory($1, $2)").bind(tenant_id).bind(id).fetch_one(tx.conn()).await?;
    match outcome.as_str() {
        "restored" => {}
        "conflict" => return Ok(Restored::Conflict),
        _ => return Ok(Restored::Absent),
    }
    // Its own statement, not a CTE of the read below: Citus deparses an INSERT ... SELECT of a whole row
    // (`to_jsonb(m)`) inside a CTE wrongly for the shard ("missing FROM-clause entry for table memory_events").
    events::record_state(tx, id, "restored", actor).await?;
    let memory: Memory =
        sqlx::query_as(&format!("SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = $2"))
            .bind(tenant_id)
            .bind(id)
            .fetch_one(tx.conn())
            .await?;
    Ok(Restored::Restored(Box::new(memory)))
}

/// The ids of trashed memories with any of `tags` deleted after `since`, oldest deletion first, at most
/// `limit`; and how many match in all.
pub async fn ids_by_tags(
    tx: &mut TenantTx,
    tags: &[String],
    since: DateTime<Utc>,
    limit: i64,
) -> Result<(Vec<Uuid>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let filter = "tenant_id = $1 AND tags && $2 AND deleted_at > $3";
    let total: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM memory_trash WHERE {filter}"))
        .bind(tenant_id)
        .bind(tags)
        .bind(since)
        .fetch_one(tx.conn())
        .await?;
    let ids = sqlx::query_scalar(&format!(
        "SELECT memory_id FROM memory_trash WHERE {filter} ORDER BY deleted_at, memory_id LIMIT $4"
    ))
    .bind(tenant_id)
    .bind(tags)
    .bind(since)
    .bind(limit)
    .fetch_all(tx.conn())
    .await?;
    Ok((ids, total))
}

/// A page of the trash deleted after `since`, latest deletion first, and how many it holds in all.
pub async fn list(
    tx: &mut TenantTx,
    since: DateTime<Utc>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Trashed>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let total: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_trash WHERE tenant_id = $1 AND deleted_at > $2")
        .bind(tenant_id)
        .bind(since)
        .fetch_one(tx.conn())
        .await?;
    let items = sqlx::query_as(
        "SELECT memory_id AS id, memory->>'content' AS content, tags, deleted_at FROM memory_trash
          WHERE tenant_id = $1 AND deleted_at > $2
          ORDER BY deleted_at DESC, memory_id LIMIT $3 OFFSET $4",
    )
    .bind(tenant_id)
    .bind(since)
    .bind(limit)
    .bind(offset)
    .fetch_all(tx.conn())
    .await?;
    Ok((items, total))
}

/// Which trashed memories to erase.
#[derive(Debug, Clone, Copy)]
pub enum Erase<'a> {
    /// These ids.
    Ids(&'a [Uuid]),
    /// Those deleted at or before this time (past the undo window).
    DeletedBefore(DateTime<Utc>),
    /// Everything in the trash.
    All,
}

/// At most this many trashed memories are erased per statement batch.
const ERASE_BATCH: i64 = 1000;

/// Erases trashed memories for good: the trash rows (content, vector, relations, entity links) go, their
/// history keeps only ids, content hashes and event types, and entities no memory (live or trashed) links
/// any more go too. Returns how many memories were erased.
pub async fn erase(tx: &mut TenantTx, which: Erase<'_>) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let mut erased = 0_u64;
    loop {
        let (ids, before, all) = match which {
            Erase::Ids(ids) => (Some(ids.to_vec()), None, false),
            Erase::DeletedBefore(t) => (None, Some(t), false),
            Erase::All => (None, None, true),
        };
        // One statement: the trash rows, the history, then the orphaned entities. Data-modifying CTEs run
        // whether or not the final SELECT reads them, and all see the statement's snapshot (so the entity
        // check leaves out the rows being erased itself).
        let (count,): (i64,) = sqlx::query_as(
            "WITH doomed AS (
                 SELECT memory_id FROM memory_trash
                  WHERE tenant_id = $1
                    AND (($2::uuid[] IS NOT NULL AND memory_id = ANY($2))
                         OR ($3::timestamptz IS NOT NULL AND deleted_at <= $3) OR $4)
                  ORDER BY memory_id LIMIT $5 FOR UPDATE
             ), gone AS (
                 DELETE FROM memory_trash t USING doomed
                  WHERE t.tenant_id = $1 AND t.memory_id = doomed.memory_id
                 RETURNING t.memory_id, t.entity_ids
             ), scrubbed AS (
                 UPDATE memory_events e
                    SET before = cairn_scrubbed(e.before, e.memory_id), after = cairn_scrubbed(e.after, e.memory_id)
                   FROM gone WHERE e.tenant_id = $1 AND e.memory_id = gone.memory_id
                 RETURNING e.id
             ), orphans AS (
                 DELETE FROM entities en
                  WHERE en.tenant_id = $1
                    AND en.id IN (SELECT unnest(entity_ids) FROM gone)
                    AND NOT EXISTS (SELECT 1 FROM memory_entities me WHERE me.tenant_id = $1 AND me.entity_id = en.id)
                    AND NOT EXISTS (SELECT 1 FROM memory_trash t WHERE t.tenant_id = $1 AND en.id = ANY(t.entity_ids)
                                      AND t.memory_id NOT IN (SELECT memory_id FROM gone))
                 RETURNING en.id
             )
             SELECT count(*) FROM gone",
        )
        .bind(tenant_id)
        .bind(ids)
        .bind(before)
        .bind(all)
        .bind(ERASE_BATCH)
        .fetch_one(tx.conn())
        .await?;
        erased += count as u64;
        if count < ERASE_BATCH {
            // A tag only the erased memories had must not outlive them in the tag counts.
            if erased > 0 {
                super::stats::fold_counts(tx).await?;
            }
            return Ok(erased);
        }
    }
}
