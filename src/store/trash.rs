//! SQL for `memory_trash`: deleted memories kept for their tenant's undo window, restore, and erasure.
//!
//! Deletes fill the trash by themselves (a `BEFORE DELETE` trigger on `memories`, migration
//! `undo_and_erasure`), so no delete path can skip it. Erasing removes the trash row and strips the
//! memory's history down to ids, hashes and event types.

use std::collections::{BTreeMap, HashSet};

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
    pub memory_id: Uuid,
    pub deleted_at: DateTime<Utc>,
    pub content_hash: String,
    /// A repeat (`on_duplicate: store`), which duplicates nothing.
    pub repeated: bool,
    /// A live memory with the same content (stored again since), which a restore would duplicate.
    pub duplicate_of: Option<Uuid>,
}

/// The trash's entries for those of `ids` it holds, in the order of `ids`, locked for the rest of the
/// transaction.
pub async fn entries(tx: &mut TenantTx, ids: &[Uuid]) -> Result<Vec<TrashEntry>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(
        // The subquery names the tenant as a parameter, not through `t`: Citus locks rows (FOR UPDATE) only in a
        // statement it can route to one shard, and it proves that from constants.
        // (A repeat, stored with `on_duplicate: store`, duplicates nothing.)
        "SELECT t.memory_id, t.deleted_at, t.content_hash,
                coalesce((t.memory->>'repeated')::boolean, false) AS repeated,
                CASE WHEN coalesce((t.memory->>'repeated')::boolean, false) THEN NULL
                     ELSE (SELECT m.id FROM memories m
                            WHERE m.tenant_id = $1 AND m.content_hash = t.content_hash AND NOT m.repeated)
                END AS duplicate_of
           FROM memory_trash t WHERE t.tenant_id = $1 AND t.memory_id = ANY($2)
          ORDER BY array_position($2, t.memory_id) FOR UPDATE",
    )
    .bind(tenant_id)
    .bind(ids)
    .fetch_all(tx.conn())
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
#[derive(Debug, Default)]
pub struct Restored {
    /// The memories put back, in the order their ids were given.
    pub memories: Vec<Memory>,
    /// Those whose id or content a live memory has (left in the trash; nothing of them changed).
    pub conflicts: Vec<Uuid>,
}

/// What goes back with a trashed memory besides its row, read before the row's insert takes it out of the trash.
#[derive(sqlx::FromRow)]
struct Parts {
    memory_id: Uuid,
    /// The columns its saved row has (a row saved before a column was added restores with its default).
    columns: String,
    base_importance: Option<f32>,
    relations: sqlx::types::Json<Vec<serde_json::Value>>,
    entity_ids: Vec<Uuid>,
}

/// Puts these memories back from the trash, with their relations whose other end exists and their entity
/// links, and records a `restored` event for each; a memory the trash does not hold is left out. A set of
/// statements whatever the count (a by-tag restore brings back a thousand at once). The caller checks
/// [`entries`] first.
pub async fn restore(tx: &mut TenantTx, ids: &[Uuid], actor: &str) -> Result<Restored, Error> {
    tx.note_memory_writes();
    let tenant_id = tx.tenant_id();
    let parts: Vec<Parts> = sqlx::query_as(
        "SELECT memory_id, cairn_insertable_columns('memories', memory) AS columns,
                (memory->>'base_importance')::real AS base_importance, relations, entity_ids
           FROM memory_trash WHERE tenant_id = $1 AND memory_id = ANY($2)",
    )
    .bind(tenant_id)
    .bind(ids)
    .fetch_all(tx.conn())
    .await?;
    let mut by_columns: BTreeMap<&str, Vec<Uuid>> = BTreeMap::new();
    for p in &parts {
        by_columns.entry(&p.columns).or_default().push(p.memory_id);
    }
    let mut back: HashSet<Uuid> = HashSet::new();
    for (columns, group) in by_columns {
        // Rows straight from the trash rows of the tenant's shard (the tenant from the trash row, so Citus runs
        // it there as it is). The insert's trigger takes each row out of the trash; one that conflicts stays.
        let values = columns
            .split(", ")
            .map(|c| if c == "tenant_id" { "t.tenant_id".to_owned() } else { format!("r.{c}") })
            .collect::<Vec<_>>()
            .join(", ");
        let inserted: Vec<Uuid> = sqlx::query_scalar(&format!(
            "INSERT INTO memories ({columns}) SELECT {values}
               FROM memory_trash t, jsonb_populate_record(NULL::memories, t.memory) r
              WHERE t.tenant_id = $1 AND t.memory_id = ANY($2)
             ON CONFLICT DO NOTHING RETURNING id"
        ))
        .bind(tenant_id)
        .bind(&group)
        .fetch_all(tx.conn())
        .await?;
        back.extend(inserted);
    }
    let held: HashSet<Uuid> = parts.iter().map(|p| p.memory_id).collect();
    let conflicts = ids.iter().copied().filter(|id| held.contains(id) && !back.contains(id));
    let mut done = Restored { conflicts: conflicts.collect(), ..Restored::default() };
    let parts: Vec<Parts> = parts.into_iter().filter(|p| back.contains(&p.memory_id)).collect();
    if parts.is_empty() {
        return Ok(done);
    }
    let restored: Vec<Uuid> = parts.iter().map(|p| p.memory_id).collect();
    // The insert trigger took the decayed importance as the base; the base it had is kept. Its episode context
    // was recomputed; unless the client supplied its vector, the vectors are computed again.
    let bases: Vec<Option<f32>> = parts.iter().map(|p| p.base_importance).collect();
    sqlx::query(
        "UPDATE memories SET base_importance = coalesce(($3::real[])[array_position($2::uuid[], id)], base_importance),
                embedding_status = CASE WHEN context IS NOT NULL AND embedding_status = 'ready'
                                             AND embedding_model IS DISTINCT FROM 'client'
                                        THEN 'pending' ELSE embedding_status END
          WHERE tenant_id = $1 AND id = ANY($2)",
    )
    .bind(tenant_id)
    .bind(&restored)
    .bind(&bases)
    .execute(tx.conn())
    .await?;
    restore_relations(tx, parts.iter().flat_map(|p| p.relations.0.iter())).await?;
    let (linked, entities): (Vec<Uuid>, Vec<Uuid>) =
        parts.iter().flat_map(|p| p.entity_ids.iter().map(|e| (p.memory_id, *e))).unzip();
    if !linked.is_empty() {
        sqlx::query(
            "INSERT INTO memory_entities (tenant_id, memory_id, entity_id)
             SELECT e.tenant_id, x.memory_id, e.id FROM unnest($2::uuid[], $3::uuid[]) x(memory_id, entity_id)
               JOIN entities e ON e.tenant_id = $1 AND e.id = x.entity_id
             ON CONFLICT DO NOTHING RETURNING memory_id",
        )
        .bind(tenant_id)
        .bind(&linked)
        .bind(&entities)
        .fetch_all(tx.conn())
        .await?;
    }
    events::record_state_many(tx, &restored, "restored", actor).await?;
    done.memories = sqlx::query_as(&format!(
        "SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = ANY($2) ORDER BY array_position($3, id)"
    ))
    .bind(tenant_id)
    .bind(&restored)
    .bind(ids)
    .fetch_all(tx.conn())
    .await?;
    Ok(done)
}

/// Puts back the saved relations whose two ends are live (those of two memories restored together come
/// twice; the second is a conflict, skipped). Grouped by the columns each has, as for the memories.
async fn restore_relations<'a>(
    tx: &mut TenantTx,
    relations: impl Iterator<Item = &'a serde_json::Value>,
) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    let mut by_keys: BTreeMap<Vec<&str>, Vec<&serde_json::Value>> = BTreeMap::new();
    for r in relations {
        let keys = r.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        by_keys.entry(keys).or_default().push(r);
    }
    for group in by_keys.into_values() {
        let columns: Option<String> = sqlx::query_scalar("SELECT cairn_insertable_columns('relations', $1)")
            .bind(group[0])
            .fetch_one(tx.conn())
            .await?;
        let Some(columns) = columns else { continue };
        // RETURNING: on Citus rows that come from a parameter are written through the coordinator, and only a
        // statement that returns rows is sent to the shard as plain INSERTs (row-level security refuses COPY).
        sqlx::query(&format!(
            "INSERT INTO relations ({columns}) SELECT {columns} FROM jsonb_populate_recordset(NULL::relations, $1) r
              WHERE r.tenant_id = $2
                AND EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.source_id)
                AND EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.target_id)
             ON CONFLICT DO NOTHING RETURNING source_id"
        ))
        .bind(sqlx::types::Json(&group))
        .bind(tenant_id)
        .fetch_all(tx.conn())
        .await?;
    }
    Ok(())
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
/// history and their webhook deliveries keep only ids, content hashes and event types, and entities no memory (live or trashed) links
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
                    SET before = cairn_scrubbed(e.before, e.memory_id), after = cairn_scrubbed(e.after, e.memory_id),
                        actor_scope = NULL
                   FROM gone WHERE e.tenant_id = $1 AND e.memory_id = gone.memory_id
                 RETURNING e.id
             ), hooks AS (
                 UPDATE webhook_deliveries w
                    SET payload = jsonb_set(w.payload, '{data,memory}', cairn_scrubbed(w.payload #> '{data,memory}', w.memory_id))
                   FROM gone WHERE w.tenant_id = $1 AND w.memory_id = gone.memory_id
                    AND jsonb_typeof(w.payload #> '{data,memory}') = 'object'
                 RETURNING w.id
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
                super::stats::fold_counts(tx, usize::MAX).await?;
            }
            return Ok(erased);
        }
    }
}
