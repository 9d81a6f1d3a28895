//! SQL for enrichment beyond entities: PRECEDED_BY links, SIMILAR_TO links. (Summary and quality are written
//! with the entity links, `entities::link_memory`.)

use uuid::Uuid;

use super::Local;
use super::TenantTx;
use crate::error::Error;

/// Cosine similarity at or above which two memories are linked SIMILAR_TO.
pub const SIMILAR_THRESHOLD: f64 = 0.8;
/// Most SIMILAR_TO links one memory makes.
pub const SIMILAR_NEIGHBOURS: i64 = 5;

/// Links a memory PRECEDED_BY the memory just before it: in its episode (by sequence number, then time;
/// strength 1), else among the same user's memories of the 7 days before it (strength 0.5). Idempotent.
pub async fn link_preceding(tx: &mut TenantTx, memory_id: Uuid) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let done = sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         SELECT $1, m.id, p.id, 'PRECEDED_BY', CASE WHEN m.episode_id IS NULL THEN 0.5 ELSE 1 END,
                jsonb_build_object('created_by', 'enrichment')
           FROM memories m
           CROSS JOIN LATERAL (
               SELECT p.id FROM memories p
                WHERE p.tenant_id = $1 AND p.id <> m.id AND p.archived_at IS NULL
                  AND CASE WHEN m.episode_id IS NOT NULL THEN
                          p.episode_id = m.episode_id
                          AND (coalesce(p.sequence_number, 2147483647), p.created_at, p.id)
                              < (coalesce(m.sequence_number, 2147483647), m.created_at, m.id)
                      ELSE
                          p.episode_id IS NULL AND p.user_id IS NOT DISTINCT FROM m.user_id
                          AND p.created_at >= m.created_at - interval '7 days'
                          AND (p.created_at, p.id) < (m.created_at, m.id)
                      END
                ORDER BY CASE WHEN m.episode_id IS NULL THEN 0 ELSE coalesce(p.sequence_number, 2147483647) END DESC,
                         p.created_at DESC, p.id DESC
                LIMIT 1
           ) p
          WHERE m.tenant_id = $1 AND m.id = $2
         ON CONFLICT (tenant_id, source_id, target_id, rel_type) DO NOTHING",
    )
    .bind(tenant_id)
    .bind(memory_id)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

/// Links each of these memories (those with a vector) SIMILAR_TO its nearest neighbours at cosine ≥ 0.8, at
/// most five, strength the cosine; each pair once (the lower id is the source). Idempotent. Copies of the same
/// content (repeats, `on_duplicate: store`) are not each other's neighbours: they would fill the five places.
pub async fn link_similar(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    super::set_local(tx.conn(), &[("hnsw.iterative_scan", Local::Word("relaxed_order"))]).await?;
    let done = sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         SELECT DISTINCT ON (least(s.id, n.id), greatest(s.id, n.id))
                $1, least(s.id, n.id), greatest(s.id, n.id), 'SIMILAR_TO', least(n.cosine, 1)::real,
                jsonb_build_object('created_by', 'enrichment')
           FROM memories s
           CROSS JOIN LATERAL (
               SELECT c.id, 1 - (c.embedding <=> s.embedding) AS cosine FROM memories c
                WHERE c.tenant_id = $1 AND c.id <> s.id AND c.embedding IS NOT NULL AND c.archived_at IS NULL
                  AND c.content_hash <> s.content_hash
                ORDER BY c.embedding <=> s.embedding LIMIT $3
           ) n
          WHERE s.tenant_id = $1 AND s.id = ANY($2) AND s.embedding IS NOT NULL AND n.cosine >= $4
         ON CONFLICT (tenant_id, source_id, target_id, rel_type) DO NOTHING",
    )
    .bind(tenant_id)
    .bind(memory_ids)
    .bind(SIMILAR_NEIGHBOURS)
    .bind(SIMILAR_THRESHOLD)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

/// A memory as enrichment reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Target {
    pub id: Uuid,
    pub content: String,
    pub content_hash: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub confidence: f32,
}

/// The listed memories that still exist.
pub async fn targets(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<Vec<Target>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, content, content_hash, type, confidence FROM memories WHERE tenant_id = $1 AND id = ANY($2)",
    )
    .bind(tx.tenant_id())
    .bind(memory_ids)
    .fetch_all(tx.conn())
    .await?)
}

/// Locks a memory and says whether it still holds the content that was read (None: it is gone).
pub async fn lock_if_unchanged(tx: &mut TenantTx, target: &Target) -> Result<Option<bool>, Error> {
    Ok(sqlx::query_scalar(
        "SELECT content_hash = $3 AND content = $4 FROM memories WHERE tenant_id = $1 AND id = $2 FOR UPDATE",
    )
    .bind(tx.tenant_id())
    .bind(target.id)
    .bind(&target.content_hash)
    .bind(&target.content)
    .fetch_optional(tx.conn())
    .await?)
}

/// Sets a memory's classification when it still has the fallback one (`from`).
pub async fn reclassify(tx: &mut TenantTx, memory_id: Uuid, to: (&str, f32), from: (&str, f32)) -> Result<(), Error> {
    sqlx::query(
        "UPDATE memories SET type = $3, confidence = $4 WHERE tenant_id = $1 AND id = $2 AND type = $5 AND confidence = $6",
    )
    .bind(tx.tenant_id())
    .bind(memory_id)
    .bind(to.0)
    .bind(to.1)
    .bind(from.0)
    .bind(from.1)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Marks the memories' enrichment `pending` again (their content or tags changed).
pub async fn mark_pending(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    sqlx::query("UPDATE memories SET enrichment_status = 'pending' WHERE tenant_id = $1 AND id = ANY($2)")
        .bind(tx.tenant_id())
        .bind(memory_ids)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Marks the memories' enrichment `failed` (the last attempt failed).
pub async fn mark_failed(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<(), Error> {
    sqlx::query(
        "UPDATE memories SET enrichment_status = 'failed'
          WHERE tenant_id = $1 AND id = ANY($2) AND enrichment_status <> 'ready'",
    )
    .bind(tx.tenant_id())
    .bind(memory_ids)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// A summarised memory: its summary and the original it was made from.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Summarized {
    pub id: Uuid,
    pub content: String,
    pub original: String,
}

/// The listed memories that are stored summarised.
pub async fn summarized(tx: &mut TenantTx, memory_ids: &[Uuid]) -> Result<Vec<Summarized>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, content, metadata->>'original_content' AS original FROM memories
          WHERE tenant_id = $1 AND id = ANY($2) AND metadata ? 'original_content'",
    )
    .bind(tx.tenant_id())
    .bind(memory_ids)
    .fetch_all(tx.conn())
    .await?)
}

/// Replaces a summary with a better one if the memory still holds the summary and the original that were
/// read; its vector becomes pending again (the old one serves until replaced). Recorded as an `updated`
/// event by `actor`. Returns whether it replaced.
pub async fn replace_summary(tx: &mut TenantTx, read: &Summarized, summary: &str, actor: &str) -> Result<bool, Error> {
    tx.note_memory_writes();
    let sql = format!(
        "WITH old AS (SELECT {snapshot} AS snap FROM memories m WHERE tenant_id = $1 AND id = $2 FOR UPDATE),
         upd AS (UPDATE memories SET content = $5, updated_at = now(), embedding_status = 'pending',
                        embedding_error = NULL
                  WHERE tenant_id = $1 AND id = $2 AND content = $3 AND metadata->>'original_content' = $4
                  RETURNING *),
         ev AS (INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after)
                SELECT m.tenant_id, m.id, 'updated', $6, (SELECT snap FROM old), {snapshot} FROM upd m RETURNING id)
         SELECT count(*) FROM upd",
        snapshot = super::events::SNAPSHOT
    );
    let replaced: i64 = sqlx::query_scalar(&sql)
        .bind(tx.tenant_id())
        .bind(read.id)
        .bind(&read.content)
        .bind(&read.original)
        .bind(summary)
        .bind(actor)
        .fetch_one(tx.conn())
        .await?;
    Ok(replaced > 0)
}
