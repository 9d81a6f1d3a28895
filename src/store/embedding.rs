//! SQL of the embedding pipeline: the memories waiting for a vector, writing vectors back (only over the
//! content that was embedded), recording failures, and paging a tenant for re-embedding.

use pgvector::Vector;
use uuid::Uuid;

use super::TenantTx;
use crate::error::Error;

/// A memory to embed: what was read, so the vector is written only if it still describes the memory.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Pending {
    pub id: Uuid,
    pub content: String,
    pub content_hash: String,
    /// The memory before it in its episode (embedded with it), if any.
    pub context: Option<String>,
}

/// How much of the episode context is embedded with a memory, in characters (its end: what was said last).
pub const CONTEXT_CHARS: usize = 400;

impl Pending {
    /// The text of its context vector: the episode's previous memory, then this one (None without an episode,
    /// or when `with_context` is off).
    ///
    /// The context is clipped to its last [`CONTEXT_CHARS`] characters, so the model's token limit never cuts
    /// the memory's own text.
    pub fn context_text(&self, with_context: bool) -> Option<String> {
        let context = self.context.as_deref().filter(|c| with_context && !c.is_empty())?;
        let skip = context.chars().count().saturating_sub(CONTEXT_CHARS);
        let tail: String = context.chars().skip(skip).collect();
        Some(format!("{tail}\n{}", self.content))
    }
}

/// The listed memories that are not ready, plus up to `sweep` other pending memories of the tenant (oldest
/// change first).
pub async fn pending(tx: &mut TenantTx, memory_ids: &[Uuid], sweep: i64) -> Result<Vec<Pending>, Error> {
    Ok(sqlx::query_as(
        "(SELECT id, content, content_hash, context FROM memories
            WHERE tenant_id = $1 AND id = ANY($2) AND embedding_status <> 'ready')
         UNION
         (SELECT id, content, content_hash, context FROM memories
            WHERE tenant_id = $1 AND embedding_status = 'pending' ORDER BY updated_at LIMIT $3)",
    )
    .bind(tx.tenant_id())
    .bind(memory_ids)
    .bind(sweep)
    .fetch_all(tx.conn())
    .await?)
}

/// Writes a batch's vectors in one statement, each only if its memory still holds the content that was
/// embedded (and, with `only_unready`, has no ready vector yet). Returns the ids written.
pub async fn write_vectors(
    tx: &mut TenantTx,
    model: &str,
    batch: &[Pending],
    vectors: Vec<Vec<f32>>,
    context_vectors: Vec<Option<Vec<f32>>>,
    only_unready: bool,
) -> Result<Vec<Uuid>, Error> {
    let ids: Vec<Uuid> = batch.iter().map(|p| p.id).collect();
    let hashes: Vec<&str> = batch.iter().map(|p| p.content_hash.as_str()).collect();
    let contents: Vec<&str> = batch.iter().map(|p| p.content.as_str()).collect();
    let contexts: Vec<Option<&str>> = batch.iter().map(|p| p.context.as_deref()).collect();
    let vectors: Vec<Vector> = vectors.into_iter().map(Vector::from).collect();
    let context_vectors: Vec<Option<Vector>> = context_vectors.into_iter().map(|v| v.map(Vector::from)).collect();
    // Written only over the content and episode context that were embedded.
    Ok(sqlx::query_scalar(
        "UPDATE memories m SET embedding = u.embedding, context_embedding = u.context_embedding,
                embedding_status = 'ready', embedding_model = $5, embedding_error = NULL
         FROM unnest($2::uuid[], $3::vector[], $4::text[], $7::text[], $8::text[], $9::vector[])
              AS u(id, embedding, content_hash, content, context, context_embedding)
         WHERE m.tenant_id = $1 AND m.id = u.id AND m.content_hash = u.content_hash AND m.content = u.content
           AND m.context IS NOT DISTINCT FROM u.context
           AND (NOT $6 OR m.embedding_status <> 'ready')
         RETURNING m.id",
    )
    .bind(tx.tenant_id())
    .bind(&ids)
    .bind(&vectors)
    .bind(&hashes)
    .bind(model)
    .bind(only_unready)
    .bind(&contents)
    .bind(&contexts)
    .bind(&context_vectors)
    .fetch_all(tx.conn())
    .await?)
}

/// Folds the context vectors the vectors of `ids` complete: each listed memory's own (its vector plus `weight`
/// times its episode predecessor's, normalised) and its successor's (the successor's vector plus `weight` times
/// the listed memory's), wherever both vectors are there. Returns how many were written.
///
/// The predecessor and successor are found as `cairn_episode_predecessor` and `cairn_episode_successor` find
/// them (sequence numbers, else creation times), written out here so the statement stays on one shard.
pub async fn fold_context_vectors(tx: &mut TenantTx, ids: &[Uuid], weight: f32) -> Result<u64, Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let done = sqlx::query(
        "WITH w AS MATERIALIZED (
             SELECT id, episode_id, sequence_number, created_at FROM memories
              WHERE tenant_id = $1 AND id = ANY($2) AND episode_id IS NOT NULL),
         pairs AS (
             SELECT w.id AS id, CASE WHEN w.sequence_number IS NOT NULL THEN
                 (SELECT p.id FROM memories p
                   WHERE p.tenant_id = $1 AND p.episode_id = w.episode_id AND p.id <> w.id
                     AND p.sequence_number < w.sequence_number
                   ORDER BY p.sequence_number DESC, p.id DESC LIMIT 1)
             ELSE
                 (SELECT p.id FROM memories p
                   WHERE p.tenant_id = $1 AND p.episode_id = w.episode_id AND p.id <> w.id
                     AND p.sequence_number IS NULL AND p.created_at < w.created_at
                   ORDER BY p.created_at DESC, p.id DESC LIMIT 1)
             END AS prev FROM w
             UNION
             SELECT CASE WHEN w.sequence_number IS NOT NULL THEN
                 (SELECT s.id FROM memories s
                   WHERE s.tenant_id = $1 AND s.episode_id = w.episode_id AND s.id <> w.id
                     AND s.sequence_number > w.sequence_number
                   ORDER BY s.sequence_number ASC, s.id ASC LIMIT 1)
             ELSE
                 (SELECT s.id FROM memories s
                   WHERE s.tenant_id = $1 AND s.episode_id = w.episode_id AND s.id <> w.id
                     AND s.sequence_number IS NULL AND s.created_at > w.created_at
                   ORDER BY s.created_at ASC, s.id ASC LIMIT 1)
             END, w.id FROM w)
         UPDATE memories m SET context_embedding = l2_normalize(
                m.embedding + p.embedding * array_fill($3::real, ARRAY[vector_dims(p.embedding)])::vector)
           FROM pairs JOIN memories p ON p.tenant_id = $1 AND p.id = pairs.prev
          WHERE m.tenant_id = $1 AND m.id = pairs.id AND m.context IS NOT NULL
            AND m.embedding IS NOT NULL AND p.embedding IS NOT NULL",
    )
    .bind(tx.tenant_id())
    .bind(ids)
    .bind(weight)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

/// Records a failed attempt on the memories (still pending), or marks them `failed` after the last one.
pub async fn record_failure(tx: &mut TenantTx, memory_ids: &[Uuid], error: &str, last: bool) -> Result<(), Error> {
    let status = if last { "failed" } else { "pending" };
    sqlx::query(
        "UPDATE memories SET embedding_status = $3, embedding_error = $4
         WHERE tenant_id = $1 AND id = ANY($2) AND embedding_status <> 'ready'",
    )
    .bind(tx.tenant_id())
    .bind(memory_ids)
    .bind(status)
    .bind(error)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// A page of the tenant's memories in id order after `after`, for re-embedding.
pub async fn page_after(tx: &mut TenantTx, after: Uuid, limit: i64) -> Result<Vec<Pending>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, content, content_hash, context FROM memories WHERE tenant_id = $1 AND id > $2 ORDER BY id LIMIT $3",
    )
    .bind(tx.tenant_id())
    .bind(after)
    .bind(limit)
    .fetch_all(tx.conn())
    .await?)
}

/// How many memories the tenant has.
pub async fn count(tx: &mut TenantTx) -> Result<i64, Error> {
    Ok(sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1")
        .bind(tx.tenant_id())
        .fetch_one(tx.conn())
        .await?)
}

/// Marks up to `limit` of the tenant's memories (in id order) as waiting for a new vector, keeping the old
/// one until it is replaced; returns their ids.
pub async fn mark_for_reembedding(tx: &mut TenantTx, limit: i64) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar(
        "UPDATE memories SET embedding_status = 'pending', embedding_error = NULL
          WHERE tenant_id = $1 AND id IN (SELECT id FROM memories WHERE tenant_id = $1 ORDER BY id LIMIT $2)
          RETURNING id",
    )
    .bind(tx.tenant_id())
    .bind(limit)
    .fetch_all(tx.conn())
    .await?)
}
