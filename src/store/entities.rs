//! SQL for entities: linking a memory to the entities found in it (with its `entity:` tags), listing,
//! merging, and the entity views recall uses.

use std::collections::HashSet;

use chrono::Utc;
use serde_json::Value;
use sqlx::types::Json;
use uuid::Uuid;

use super::memories::memory_columns;
use super::TenantTx;
use crate::entities::{self, Entity, Found};
use crate::error::Error;
use crate::memory::{tag_prefixes, Memory, MAX_TAGS};
use crate::recall::results::Mention;

/// (`$1` is the tenant, named in each subquery too: Citus then runs the whole statement on the tenant's shard.)
const ENTITY_COLUMNS: &str = "e.id, e.entity_type, e.name, e.normalized_name,
    ARRAY(SELECT a.alias FROM entity_aliases a WHERE a.tenant_id = $1 AND a.entity_id = e.id ORDER BY a.alias)
        AS aliases,
    (SELECT count(*) FROM memory_entities me WHERE me.tenant_id = $1 AND me.entity_id = e.id) AS memory_count,
    e.created_at";

/// Fills in what SQL does not compute.
fn finish(mut e: Entity) -> Entity {
    e.tag = entities::tag(&e.kind, &e.normalized_name);
    e
}

/// The key an alias is recorded under.
fn alias_key(kind: &str, normalized: &str) -> String {
    format!("{kind}:{normalized}")
}

/// The entity a found name links to: the one of that type and name, else the one it was merged into,
/// else a new one. Returns (id, type, normalised name).
async fn resolve(tx: &mut TenantTx, found: &Found) -> Result<(Uuid, String, String), Error> {
    let tenant_id = tx.tenant_id();
    let normalized = found.normalized();
    let exact: Option<Uuid> = sqlx::query_scalar(
        "SELECT id FROM entities WHERE tenant_id = $1 AND entity_type = $2 AND normalized_name = $3",
    )
    .bind(tenant_id)
    .bind(found.kind)
    .bind(&normalized)
    .fetch_optional(tx.conn())
    .await?;
    if let Some(id) = exact {
        return Ok((id, found.kind.to_owned(), normalized));
    }
    let merged: Option<(Uuid, String, String)> = sqlx::query_as(
        "SELECT e.id, e.entity_type, e.normalized_name FROM entity_aliases a
           JOIN entities e ON e.tenant_id = a.tenant_id AND e.id = a.entity_id
          WHERE a.tenant_id = $1 AND a.alias = $2",
    )
    .bind(tenant_id)
    .bind(alias_key(found.kind, &normalized))
    .fetch_optional(tx.conn())
    .await?;
    if let Some(e) = merged {
        return Ok(e);
    }
    // A concurrent job may insert the same entity: the no-op update returns its id either way.
    let id: Uuid = sqlx::query_scalar(
        "INSERT INTO entities (tenant_id, entity_type, name, normalized_name) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, entity_type, normalized_name) DO UPDATE SET name = entities.name
         RETURNING id",
    )
    .bind(tenant_id)
    .bind(found.kind)
    .bind(&found.name)
    .bind(&normalized)
    .fetch_one(tx.conn())
    .await?;
    Ok((id, found.kind.to_owned(), normalized))
}

/// The `entity:` tags of the entities a memory is linked to.
async fn linked_tags(tx: &mut TenantTx, memory_id: Uuid) -> Result<Vec<String>, Error> {
    let tenant_id = tx.tenant_id();
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT e.entity_type, e.normalized_name FROM memory_entities me
           JOIN entities e ON e.tenant_id = me.tenant_id AND e.id = me.entity_id
          WHERE me.tenant_id = $1 AND me.memory_id = $2",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.iter().map(|(kind, name)| entities::tag(kind, name)).collect())
}

/// Replaces a memory's tags: `remove` dropped, `add` appended (once each), prefixes recomputed.
async fn retag(tx: &mut TenantTx, memory_id: Uuid, remove: &[String], add: &[String]) -> Result<(), Error> {
    let Some((tags, prefixes)) = retagged(tx, memory_id, remove, add).await? else { return Ok(()) };
    sqlx::query("UPDATE memories SET tags = $3, tag_prefixes = $4 WHERE tenant_id = $1 AND id = $2")
        .bind(tx.tenant_id())
        .bind(memory_id)
        .bind(&tags)
        .bind(&prefixes)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// A memory's tags with `remove` dropped and `add` appended (once each), and their prefixes, when they differ
/// from its tags now (locked until the transaction ends); None when nothing changes or the memory is gone.
async fn retagged(
    tx: &mut TenantTx,
    memory_id: Uuid,
    remove: &[String],
    add: &[String],
) -> Result<Option<(Vec<String>, Vec<String>)>, Error> {
    let current: Option<Vec<String>> =
        sqlx::query_scalar("SELECT tags FROM memories WHERE tenant_id = $1 AND id = $2 FOR UPDATE")
            .bind(tx.tenant_id())
            .bind(memory_id)
            .fetch_optional(tx.conn())
            .await?;
    let Some(current) = current else { return Ok(None) };
    let mut tags: Vec<String> = current.iter().filter(|t| !remove.contains(t)).cloned().collect();
    // Entity tags never push a memory past the tag limit (a client sending the tags back must not fail).
    for t in add {
        if !tags.contains(t) && tags.len() < MAX_TAGS {
            tags.push(t.clone());
        }
    }
    if tags == current {
        return Ok(None);
    }
    let prefixes = tag_prefixes(&tags);
    Ok(Some((tags, prefixes)))
}

/// What enrichment sets on the memory besides its entity links.
pub struct Enriched<'a> {
    /// The one-line summary.
    pub summary: &'a str,
    /// The quality score, set unless the caller gave one (a computed score is recomputed, so it follows
    /// content changes).
    pub quality: f32,
}

/// Links a memory to exactly the entities `found` (replacing earlier links), makes its `entity:` tags match,
/// sets what `enriched` holds and marks it enriched: the memory is written once (one row version, so one set
/// of index entries, its vectors' included). Idempotent: running it twice with the same input changes nothing
/// more. Returns the tags of the linked entities.
pub async fn link_memory(
    tx: &mut TenantTx,
    memory_id: Uuid,
    found: &[Found],
    enriched: &Enriched<'_>,
) -> Result<Vec<String>, Error> {
    let tenant_id = tx.tenant_id();
    let old_tags = linked_tags(tx, memory_id).await?;
    sqlx::query("DELETE FROM memory_entities WHERE tenant_id = $1 AND memory_id = $2")
        .bind(tenant_id)
        .bind(memory_id)
        .execute(tx.conn())
        .await?;
    let mut ids = Vec::with_capacity(found.len());
    let mut new_tags = Vec::with_capacity(found.len());
    // Entities are created in one global order, so two jobs inserting the same new entities cannot
    // deadlock on each other's uncommitted rows.
    let mut ordered: Vec<&Found> = found.iter().collect();
    ordered.sort_by_key(|f| (f.kind, f.normalized()));
    for f in ordered {
        let (id, kind, normalized) = resolve(tx, f).await?;
        ids.push(id);
        new_tags.push(entities::tag(&kind, &normalized));
    }
    sqlx::query(
        "INSERT INTO memory_entities (tenant_id, memory_id, entity_id) SELECT $1, $2, unnest($3::uuid[])
         ON CONFLICT DO NOTHING",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .bind(&ids)
    .execute(tx.conn())
    .await?;
    let (tags, prefixes) = retagged(tx, memory_id, &old_tags, &new_tags).await?.unzip();
    sqlx::query(
        "UPDATE memories SET tags = coalesce($3, tags), tag_prefixes = coalesce($4, tag_prefixes),
                summary = $5,
                quality_score = CASE WHEN quality_score IS NULL OR quality_computed THEN $6 ELSE quality_score END,
                quality_computed = (quality_score IS NULL OR quality_computed),
                enrichment_status = 'ready'
          WHERE tenant_id = $1 AND id = $2",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .bind(&tags)
    .bind(&prefixes)
    .bind(enriched.summary)
    .bind(enriched.quality)
    .execute(tx.conn())
    .await?;
    Ok(new_tags)
}

/// A page of the tenant's entities, most mentioned first, and how many match in all.
pub async fn list(
    tx: &mut TenantTx,
    kind: Option<&str>,
    name_prefix: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Entity>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let filter = "e.tenant_id = $1 AND ($2::text IS NULL OR e.entity_type = $2)
        AND ($3::text IS NULL OR e.normalized_name LIKE $3 || '%')";
    let prefix =
        name_prefix.map(|p| entities::normalize_name(p).replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    let page: Vec<Entity> = sqlx::query_as(&format!(
        "SELECT {ENTITY_COLUMNS} FROM entities e WHERE {filter}
         ORDER BY memory_count DESC, e.normalized_name, e.id LIMIT $4 OFFSET $5"
    ))
    .bind(tenant_id)
    .bind(kind)
    .bind(&prefix)
    .bind(limit)
    .bind(offset)
    .fetch_all(tx.conn())
    .await?;
    let page = page.into_iter().map(finish).collect();
    let total: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM entities e WHERE {filter}"))
        .bind(tenant_id)
        .bind(kind)
        .bind(&prefix)
        .fetch_one(tx.conn())
        .await?;
    Ok((page, total))
}

/// One entity of the tenant.
pub async fn get(tx: &mut TenantTx, id: Uuid) -> Result<Option<Entity>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(&format!("SELECT {ENTITY_COLUMNS} FROM entities e WHERE e.tenant_id = $1 AND e.id = $2"))
        .bind(tenant_id)
        .bind(id)
        .fetch_optional(tx.conn())
        .await?
        .map(finish))
}

/// The memories that mention an entity, newest first (archived ones only with `include_archived`).
pub async fn memories_of(
    tx: &mut TenantTx,
    id: Uuid,
    include_archived: bool,
    limit: i64,
    offset: i64,
) -> Result<Vec<Memory>, Error> {
    let tenant_id = tx.tenant_id();
    let columns = memory_columns("m");
    Ok(sqlx::query_as(&format!(
        "SELECT {columns} FROM memory_entities me JOIN memories m ON m.tenant_id = me.tenant_id AND m.id = me.memory_id
          WHERE me.tenant_id = $1 AND me.entity_id = $2 AND ($3 OR m.archived_at IS NULL)
          ORDER BY m.created_at DESC, m.id DESC LIMIT $4 OFFSET $5"
    ))
    .bind(tenant_id)
    .bind(id)
    .bind(include_archived)
    .bind(limit)
    .bind(offset)
    .fetch_all(tx.conn())
    .await?)
}

/// Locks these entities of the tenant (in id order, so concurrent merges queue rather than deadlock) and
/// returns those that exist. Called first by a merge: enrichment linking to them waits until it is done.
pub async fn lock(tx: &mut TenantTx, ids: &[Uuid]) -> Result<HashSet<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    let found: Vec<Uuid> =
        sqlx::query_scalar("SELECT id FROM entities WHERE tenant_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE")
            .bind(tenant_id)
            .bind(ids)
            .fetch_all(tx.conn())
            .await?;
    Ok(found.into_iter().collect())
}

/// Merges `sources` into `target`: their memories link to the target instead (and carry its tag instead
/// of theirs), their names (and aliases) become the target's aliases, so later mentions link to it too,
/// and they are deleted. The caller has locked every entity (see [`lock`]) and checked that none is the
/// target.
pub async fn merge(tx: &mut TenantTx, target: &Entity, sources: &[Entity]) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    let source_ids: Vec<Uuid> = sources.iter().map(|s| s.id).collect();
    // The affected memories, locked in id order before their links and tags change.
    let affected: Vec<Uuid> = sqlx::query_scalar(
        "SELECT id FROM memories WHERE tenant_id = $1 AND id IN
           (SELECT memory_id FROM memory_entities WHERE tenant_id = $1 AND entity_id = ANY($2))
         ORDER BY id FOR UPDATE",
    )
    .bind(tenant_id)
    .bind(&source_ids)
    .fetch_all(tx.conn())
    .await?;
    sqlx::query(
        "INSERT INTO memory_entities (tenant_id, memory_id, entity_id) SELECT $1, unnest($2::uuid[]), $3
         ON CONFLICT DO NOTHING",
    )
    .bind(tenant_id)
    .bind(&affected)
    .bind(target.id)
    .execute(tx.conn())
    .await?;
    let old_tags: Vec<String> = sources.iter().map(|s| s.tag.clone()).collect();
    for memory_id in &affected {
        retag(tx, *memory_id, &old_tags, std::slice::from_ref(&target.tag)).await?;
    }
    let names: Vec<String> = sources.iter().map(|s| alias_key(&s.kind, &s.normalized_name)).collect();
    // The sources' own aliases move with them (the update), then their names join (the insert).
    sqlx::query("UPDATE entity_aliases SET entity_id = $2 WHERE tenant_id = $1 AND entity_id = ANY($3)")
        .bind(tenant_id)
        .bind(target.id)
        .bind(&source_ids)
        .execute(tx.conn())
        .await?;
    sqlx::query(
        "INSERT INTO entity_aliases (tenant_id, alias, entity_id) SELECT $1, unnest($3::text[]), $2
         ON CONFLICT (tenant_id, alias) DO UPDATE SET entity_id = EXCLUDED.entity_id",
    )
    .bind(tenant_id)
    .bind(target.id)
    .bind(&names)
    .execute(tx.conn())
    .await?;
    let merged: Vec<Value> = sources
        .iter()
        .map(|s| serde_json::json!({"id": s.id, "type": s.kind, "name": s.name, "merged_at": Utc::now()}))
        .collect();
    sqlx::query(
        "UPDATE entities SET metadata = jsonb_set(metadata, '{merged}', coalesce(metadata->'merged', '[]') || $3::jsonb)
          WHERE tenant_id = $1 AND id = $2",
    )
    .bind(tenant_id)
    .bind(target.id)
    .bind(Json(&merged))
    .execute(tx.conn())
    .await?;
    sqlx::query("DELETE FROM entities WHERE tenant_id = $1 AND id = ANY($2)")
        .bind(tenant_id)
        .bind(&source_ids)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// The entities (of `kinds`, or all) that these memories mention.
pub async fn mentions(tx: &mut TenantTx, memory_ids: &[Uuid], kinds: &[&str]) -> Result<Vec<Mention>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(
        "SELECT me.memory_id, e.id AS entity_id, e.entity_type, e.name
           FROM memory_entities me JOIN entities e ON e.tenant_id = me.tenant_id AND e.id = me.entity_id
          WHERE me.tenant_id = $1 AND me.memory_id = ANY($2) AND (cardinality($3::text[]) = 0 OR e.entity_type = ANY($3))
          ORDER BY e.name, e.id",
    )
    .bind(tenant_id)
    .bind(memory_ids)
    .bind(kinds)
    .fetch_all(tx.conn())
    .await?)
}

/// A memory that shares an entity with a recalled one.
#[derive(Debug, sqlx::FromRow)]
pub struct Sharing {
    /// The recalled memory it was reached from.
    pub origin: Uuid,
    pub entity_type: String,
    pub entity_name: String,
    #[sqlx(flatten)]
    pub memory: Memory,
}

/// Entities mentioned by more memories than this do not expand recall (a tenant's own name, say): they
/// tie everything to everything.
pub const MAX_EXPANDING_MENTIONS: i64 = 1000;

/// `expand_entities`: memories (not among `ids`) that share an entity with them, through the rarest shared
/// entity first, at most `per_origin` per recalled memory and `total` in all, newest first among equals.
pub async fn sharing(
    tx: &mut TenantTx,
    ids: &[Uuid],
    per_origin: i64,
    total: i64,
    include_archived: bool,
) -> Result<Vec<Sharing>, Error> {
    let tenant_id = tx.tenant_id();
    let columns = memory_columns("m");
    let sql = format!(
        "WITH src AS (
            SELECT memory_id AS origin, entity_id FROM memory_entities WHERE tenant_id = $1 AND memory_id = ANY($2)
        ),
        freq AS (
            SELECT entity_id, count(*) AS mentions FROM memory_entities
             WHERE tenant_id = $1 AND entity_id IN (SELECT entity_id FROM src) GROUP BY entity_id
        ),
        shared AS (
            SELECT DISTINCT ON (me.memory_id) s.origin, me.memory_id AS neighbour, s.entity_id, f.mentions
              FROM src s JOIN freq f ON f.entity_id = s.entity_id AND f.mentions <= $6
              JOIN memory_entities me ON me.tenant_id = $1 AND me.entity_id = s.entity_id
             WHERE me.memory_id <> ALL($2)
             ORDER BY me.memory_id, f.mentions, s.origin
        ),
        ranked AS (
            SELECT *, row_number() OVER (PARTITION BY origin ORDER BY mentions, neighbour) AS n FROM shared
        )
        SELECT r.origin, e.entity_type, e.name AS entity_name, {columns}
          FROM ranked r JOIN memories m ON m.tenant_id = $1 AND m.id = r.neighbour
          JOIN entities e ON e.tenant_id = $1 AND e.id = r.entity_id
         WHERE r.n <= $3 AND ($5 OR m.archived_at IS NULL)
         ORDER BY r.mentions, m.created_at DESC, m.id LIMIT $4"
    );
    Ok(sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(ids)
        .bind(per_origin)
        .bind(total)
        .bind(include_archived)
        .bind(MAX_EXPANDING_MENTIONS)
        .fetch_all(tx.conn())
        .await?)
}
