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
    /// The memory before it in its episode (embedded with it under `CAIRN_CONTEXT_VECTOR=model`), if any.
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

/// The id of the memory before the memory aliased `m` in its episode, as `cairn_episode_predecessor` finds it
/// (the highest lower sequence number, else the latest created before it), written out so a statement stays
/// on the tenant's shard. `$1` is the tenant.
fn predecessor_of(m: &str) -> String {
    format!(
        "CASE WHEN {m}.sequence_number IS NOT NULL THEN
             (SELECT p.id FROM memories p
               WHERE p.tenant_id = $1 AND p.episode_id = {m}.episode_id AND p.id <> {m}.id
                 AND p.sequence_number < {m}.sequence_number
               ORDER BY p.sequence_number DESC, p.id DESC LIMIT 1)
         ELSE
             (SELECT p.id FROM memories p
               WHERE p.tenant_id = $1 AND p.episode_id = {m}.episode_id AND p.id <> {m}.id
                 AND p.sequence_number IS NULL AND p.created_at < {m}.created_at
               ORDER BY p.created_at DESC, p.id DESC LIMIT 1)
         END"
    )
}

/// The id of the memory after the memory aliased `m` in its episode, as `cairn_episode_successor` finds it.
fn successor_of(m: &str) -> String {
    format!(
        "CASE WHEN {m}.sequence_number IS NOT NULL THEN
             (SELECT s.id FROM memories s
               WHERE s.tenant_id = $1 AND s.episode_id = {m}.episode_id AND s.id <> {m}.id
                 AND s.sequence_number > {m}.sequence_number
               ORDER BY s.sequence_number ASC, s.id ASC LIMIT 1)
         ELSE
             (SELECT s.id FROM memories s
               WHERE s.tenant_id = $1 AND s.episode_id = {m}.episode_id AND s.id <> {m}.id
                 AND s.sequence_number IS NULL AND s.created_at > {m}.created_at
               ORDER BY s.created_at ASC, s.id ASC LIMIT 1)
         END"
    )
}

/// [`write_vectors`]' statement: $1 tenant, $2 ids, $3 vectors, $4 content hashes, $5 model, $6 only unready,
/// $7 contents, $8 episode contexts, $9 context vectors, $10 fold weight (NULL: none), $11 the batch's run
/// vectors, $12 each one's memory (its 1-based place in $2), in order, $13 whether the runs were measured (a
/// memory with none then gets an empty array; NULL means never measured, see migration 44).
///
/// `before` and `folded` are materialised, so each is computed once per statement and each predecessor is
/// looked up once. Inlined, where the planner estimated a new tenant's rows at a handful (until the next
/// ANALYZE), they ran inside a nested loop that scanned the tenant's memories and looked up their
/// predecessors once per batch member: 54 of a batch's 84 ms with 700 turns stored (conversation bench), and
/// quadratic in a bulk import. The batch's rows are also named by id (`id = ANY($2)`), which lets a planner
/// that knows the tenant's size probe them by key.
pub fn write_vectors_sql() -> String {
    let (predecessor, runs) = (predecessor_of("m"), runs_cte(11, 12));
    // Written only over the content (and, for an embedded context, the episode context) that was embedded.
    format!(
        "WITH u AS MATERIALIZED (
             SELECT * FROM unnest($2::uuid[], $3::vector[], $4::text[], $7::text[], $8::text[], $9::vector[])
               WITH ORDINALITY AS u(id, embedding, content_hash, content, context, context_embedding, n)),
         {runs},
         before AS MATERIALIZED (
             SELECT u.id, {predecessor} AS prev_id
               FROM u JOIN memories m ON m.tenant_id = $1 AND m.id = u.id AND m.id = ANY($2)
              WHERE $10::real IS NOT NULL AND m.episode_id IS NOT NULL AND m.context IS NOT NULL),
         folded AS MATERIALIZED (
             SELECT before.id, l2_normalize(u.embedding + coalesce(b.embedding, p.embedding)
                        * array_fill($10::real, ARRAY[vector_dims(u.embedding)])::vector) AS v
               FROM before JOIN u ON u.id = before.id
               JOIN memories p ON p.tenant_id = $1 AND p.id = before.prev_id
               LEFT JOIN u b ON b.id = before.prev_id
              WHERE b.id IS NOT NULL OR (p.embedding IS NOT NULL AND p.embedding_model = $5))
         UPDATE memories m SET embedding = u.embedding,
                context_embedding = CASE WHEN $10::real IS NULL THEN u.context_embedding ELSE f.v END,
                sentence_embeddings = CASE WHEN $13 THEN coalesce(runs.vs, '{{}}') END,
                embedding_status = 'ready', embedding_model = $5, embedding_error = NULL
           FROM u LEFT JOIN folded f ON f.id = u.id LEFT JOIN runs ON runs.owner = u.n
          WHERE m.tenant_id = $1 AND m.id = ANY($2) AND m.id = u.id
            AND m.content_hash = u.content_hash AND m.content = u.content
            AND ($10::real IS NOT NULL OR m.context IS NOT DISTINCT FROM u.context)
            AND (NOT $6 OR m.embedding_status <> 'ready')
         RETURNING m.id"
    )
}

/// A batch's vectors, each list in the batch's order (as one forward pass computes them, `jobs::embed`).
pub struct Vectors {
    /// Each memory's own.
    pub own: Vec<Vec<f32>>,
    /// Its context vector as embedded (ignored when folding).
    pub context: Vec<Option<Vec<f32>>>,
    /// Its runs of sentences' (`recall::sentences`; none for a memory of one run).
    pub runs: Vec<Vec<Vec<f32>>>,
    /// Whether the runs were measured (sentence vectors on): a memory without runs is then marked as measured.
    pub runs_measured: bool,
}

/// Writes a batch's vectors in one statement, each only if its memory still holds the content that was
/// embedded (and, with `only_unready`, has no ready vector yet). Returns the ids written. A memory's run
/// vectors replace those it had (none: NULL).
///
/// Without `fold`, each memory's context vector is the one given, written only over the episode context that
/// was embedded. With `fold = Some(weight)` the context vectors given are ignored: each written memory of an
/// episode gets its own vector plus `weight` times its predecessor's (from this batch, or as stored by the
/// same model), normalised, in the same statement (one row version, so one set of index entries). The caller
/// holds the episodes' locks, so a predecessor written by a concurrent job is either seen here or sees this.
pub async fn write_vectors(
    tx: &mut TenantTx,
    model: &str,
    batch: &[Pending],
    vectors: Vectors,
    only_unready: bool,
    fold: Option<f32>,
) -> Result<Vec<Uuid>, Error> {
    let ids: Vec<Uuid> = batch.iter().map(|p| p.id).collect();
    let hashes: Vec<&str> = batch.iter().map(|p| p.content_hash.as_str()).collect();
    let contents: Vec<&str> = batch.iter().map(|p| p.content.as_str()).collect();
    let contexts: Vec<Option<&str>> = batch.iter().map(|p| p.context.as_deref()).collect();
    let Vectors { own, context, runs, runs_measured } = vectors;
    let (runs, owners) = flatten_runs(runs);
    let vectors: Vec<Vector> = own.into_iter().map(Vector::from).collect();
    let context_vectors: Vec<Option<Vector>> = context.into_iter().map(|v| v.map(Vector::from)).collect();
    Ok(sqlx::query_scalar(&write_vectors_sql())
        .bind(tx.tenant_id())
        .bind(&ids)
        .bind(&vectors)
        .bind(&hashes)
        .bind(model)
        .bind(only_unready)
        .bind(&contents)
        .bind(&contexts)
        .bind(&context_vectors)
        .bind(fold)
        .bind(&runs)
        .bind(&owners)
        .bind(runs_measured)
        .fetch_all(tx.conn())
        .await?)
}

/// The CTE `runs` of a statement writing runs of sentences: each memory's run vectors (parameter `$vectors`, as
/// [`flatten_runs`] lays them out) gathered in order, by the memory's 1-based place in the batch (`$owners`).
fn runs_cte(vectors: u8, owners: u8) -> String {
    format!(
        "runs AS MATERIALIZED (
             SELECT r.owner, array_agg(r.v ORDER BY r.o) AS vs
               FROM unnest(${vectors}::vector[], ${owners}::int[]) WITH ORDINALITY AS r(v, owner, o) GROUP BY r.owner)"
    )
}

/// Each memory's run vectors in one list, and beside each the memory's 1-based place in the batch (what
/// [`runs_cte`] groups by).
fn flatten_runs(runs: Vec<Vec<Vec<f32>>>) -> (Vec<Vector>, Vec<i32>) {
    let owners = runs.iter().enumerate().flat_map(|(i, r)| std::iter::repeat_n(i as i32 + 1, r.len())).collect();
    (runs.into_iter().flatten().map(Vector::from).collect(), owners)
}

/// Up to `limit` ready memories of the tenant whose runs of sentences were never measured, with vectors of
/// `model` (a client's vectors, or another model's, are left alone: runs of this model's would not compare
/// with them).
pub async fn runs_unmeasured(tx: &mut TenantTx, model: &str, limit: i64) -> Result<Vec<Pending>, Error> {
    Ok(sqlx::query_as(
        "SELECT id, content, content_hash, context FROM memories
          WHERE tenant_id = $1 AND embedding_model = $2 AND embedding_status = 'ready' AND sentence_embeddings IS NULL
          LIMIT $3",
    )
    .bind(tx.tenant_id())
    .bind(model)
    .bind(limit)
    .fetch_all(tx.conn())
    .await?)
}

/// Whether the tenant has a memory [`runs_unmeasured`] would return (through migration 44's index).
pub async fn has_runs_unmeasured(tx: &mut TenantTx, model: &str) -> Result<bool, Error> {
    Ok(!runs_unmeasured(tx, model, 1).await?.is_empty())
}

/// Writes the runs of sentences measured for `batch` (`runs[i]` the vectors of `batch[i]`'s runs, empty for
/// fewer than two), each only if the memory still holds the content measured, is ready with vectors of
/// `model`, and has none measured yet. Returns how many were written.
pub async fn write_runs(
    tx: &mut TenantTx,
    model: &str,
    batch: &[Pending],
    runs: Vec<Vec<Vec<f32>>>,
) -> Result<u64, Error> {
    let ids: Vec<Uuid> = batch.iter().map(|p| p.id).collect();
    let hashes: Vec<&str> = batch.iter().map(|p| p.content_hash.as_str()).collect();
    let contents: Vec<&str> = batch.iter().map(|p| p.content.as_str()).collect();
    let (runs, owners) = flatten_runs(runs);
    Ok(sqlx::query(&format!(
        "WITH u AS MATERIALIZED (
             SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, content_hash, content, n)),
         {runs}
         UPDATE memories m SET sentence_embeddings = coalesce(runs.vs, '{{}}')
           FROM u LEFT JOIN runs ON runs.owner = u.n
          WHERE m.tenant_id = $1 AND m.id = ANY($2) AND m.id = u.id
            AND m.content_hash = u.content_hash AND m.content = u.content
            AND m.embedding_status = 'ready' AND m.embedding_model = $7 AND m.sentence_embeddings IS NULL",
        runs = runs_cte(5, 6)
    ))
    .bind(tx.tenant_id())
    .bind(&ids)
    .bind(&hashes)
    .bind(&contents)
    .bind(&runs)
    .bind(&owners)
    .bind(model)
    .execute(tx.conn())
    .await?
    .rows_affected())
}

/// Folds the context vectors of the memories that follow `written` in their episodes, when one of `written`
/// is the predecessor they have now and both vectors are the model's (the memories after a predecessor that
/// was embedded after them). [`write_vectors`] folded the written memories' own. Returns how many changed.
pub async fn fold_successors(tx: &mut TenantTx, model: &str, written: &[Uuid], weight: f32) -> Result<u64, Error> {
    if written.is_empty() {
        return Ok(0);
    }
    let (predecessor, successor) = (predecessor_of("m"), successor_of("w"));
    let sql = format!(
        "WITH w AS MATERIALIZED (
             SELECT id, episode_id, sequence_number, created_at FROM memories
              WHERE tenant_id = $1 AND id = ANY($2) AND episode_id IS NOT NULL),
         after AS (
             SELECT DISTINCT {successor} AS id FROM w),
         pairs AS (
             SELECT m.id, {predecessor} AS prev_id
               FROM after JOIN memories m ON m.tenant_id = $1 AND m.id = after.id
              WHERE NOT (m.id = ANY($2)) AND m.context IS NOT NULL AND m.embedding IS NOT NULL
                AND m.embedding_model = $3)
         UPDATE memories m SET context_embedding = l2_normalize(
                m.embedding + p.embedding * array_fill($4::real, ARRAY[vector_dims(p.embedding)])::vector)
           FROM pairs JOIN memories p ON p.tenant_id = $1 AND p.id = pairs.prev_id
          WHERE m.tenant_id = $1 AND m.id = pairs.id AND pairs.prev_id = ANY($2)
            AND p.embedding IS NOT NULL AND p.embedding_model = $3"
    );
    let done = sqlx::query(&sql).bind(tx.tenant_id()).bind(written).bind(model).bind(weight).execute(tx.conn()).await?;
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
