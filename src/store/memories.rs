//! SQL for the `memories` table. Every function takes a [`TenantTx`]; row-level security is the backstop
//! and every query also names `tenant_id` explicitly so the tenant-leading indexes are used.

use pgvector::Vector;
use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use super::events;
use super::TenantTx;
use crate::error::Error;
use crate::memory::{EmbeddingChange, ListFilter, Memory, NewMemory};

/// The columns selected into a [`Memory`].
pub const MEMORY_COLUMNS: &str = "id, content, content_hash, type, confidence, memory_type, ttl_seconds, \
    expires_at, tags, tag_prefixes, importance, metadata, source_type, credibility, quality_score, emotion, \
    emotional_valence, emotional_arousal, flashbulb_until, episode_id, sequence_number, user_id, agent_id, \
    run_id, t_valid, t_invalid, created_at, updated_at, last_accessed_at, access_count, archived_at, \
    embedding_status, embedding_model, embedding_error, enrichment_status, summary, \
    summarized, original_length, summarized_length, repeated, created_by, \
    cairn_visible_scope(created_by_scope) AS created_by_scope";

/// [`MEMORY_COLUMNS`] of the table aliased `alias`, for joins whose other tables share column names.
pub fn memory_columns(alias: &str) -> String {
    MEMORY_COLUMNS
        .split(", ")
        .map(|c| match c.trim() {
            // The authorship scope, as the reader may see it (migration 0039).
            c if c.starts_with("cairn_visible_scope(") => {
                format!("cairn_visible_scope({alias}.created_by_scope) AS created_by_scope")
            }
            c => format!("{alias}.{c}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome of an insert that may collide with existing content.
pub enum Inserted {
    Stored(Box<Memory>),
    Duplicate { existing_id: Uuid },
}

/// Inserts one memory; a duplicate of the tenant's existing content is reported, not an error.
#[tracing::instrument(skip_all, fields(tenant_id = %tx.tenant_id()))]
pub async fn insert(tx: &mut TenantTx, m: &NewMemory, actor: &str) -> Result<Inserted, Error> {
    if tx.is_scoped() {
        let mut out = insert_scoped(tx, &[m], actor).await?;
        return out.pop().ok_or_else(|| Error::internal("a scoped insert without an outcome"));
    }
    insert_attempt(tx, m, actor, 3).await
}

async fn insert_attempt(tx: &mut TenantTx, m: &NewMemory, actor: &str, attempts_left: u8) -> Result<Inserted, Error> {
    tx.note_memory_writes();
    let tenant_id = tx.tenant_id();
    let (status, model) = if m.embedding.is_some() { ("ready", Some("client")) } else { ("pending", None) };
    let sql = format!(
        "INSERT INTO memories (tenant_id, content, content_hash, type, confidence, memory_type, ttl_seconds, \
           expires_at, tags, tag_prefixes, importance, metadata, source_type, credibility, quality_score, \
           emotion, emotional_valence, emotional_arousal, flashbulb_until, episode_id, sequence_number, \
           user_id, agent_id, run_id, t_valid, t_invalid, created_at, embedding, embedding_status, embedding_model,
           repeated, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32)
         ON CONFLICT (tenant_id, content_hash) WHERE NOT repeated DO NOTHING
         RETURNING {MEMORY_COLUMNS}"
    );
    let stored: Option<Memory> = sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(&m.content)
        .bind(&m.content_hash)
        .bind(&m.kind)
        .bind(m.confidence)
        .bind(m.memory_type.as_str())
        .bind(m.ttl)
        .bind(m.expires_at)
        .bind(&m.tags)
        .bind(&m.tag_prefixes)
        .bind(m.importance)
        .bind(&m.metadata)
        .bind(&m.source_type)
        .bind(m.credibility)
        .bind(m.quality_score)
        .bind(&m.emotion)
        .bind(m.emotional_valence)
        .bind(m.emotional_arousal)
        .bind(m.flashbulb_until)
        .bind(&m.episode_id)
        .bind(m.sequence_number)
        .bind(&m.user_id)
        .bind(&m.agent_id)
        .bind(&m.run_id)
        .bind(m.t_valid)
        .bind(m.t_invalid)
        .bind(m.created_at)
        .bind(m.embedding.clone().map(Vector::from))
        .bind(status)
        .bind(model)
        .bind(m.repeated)
        .bind(actor)
        .fetch_optional(tx.conn())
        .await?;
    match stored {
        Some(memory) => {
            events::record_created(tx, memory.id, actor).await?;
            Ok(Inserted::Stored(Box::new(memory)))
        }
        None => match find_by_hash(tx, &m.content_hash, None).await? {
            Some(existing_id) => Ok(Inserted::Duplicate { existing_id }),
            // The conflicting row was deleted between our insert and the lookup: insert again.
            None if attempts_left > 0 => Box::pin(insert_attempt(tx, m, actor, attempts_left - 1)).await,
            None => Err(Error::Unavailable("content changed concurrently; retry".into())),
        },
    }
}

/// Inserts many memories in one statement, in the order given (callers sort by content hash, so two
/// batches take their unique-index locks in the same order), with their `created` events in a second;
/// per item, Stored or Duplicate. One row at a time cost two round trips per memory, most of a batch
/// store's time. Items not `repeated` must not repeat a content hash among themselves.
pub async fn insert_many(tx: &mut TenantTx, items: &[&NewMemory], actor: &str) -> Result<Vec<Inserted>, Error> {
    if tx.is_scoped() {
        return insert_scoped(tx, items, actor).await;
    }
    insert_rows(tx, items, actor).await
}

async fn insert_rows(tx: &mut TenantTx, items: &[&NewMemory], actor: &str) -> Result<Vec<Inserted>, Error> {
    tx.note_memory_writes();
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let episodes: Vec<String> = items.iter().filter_map(|m| m.episode_id.clone()).collect();
    lock_episodes_and(tx, &[], &episodes).await?;
    let tenant_id = tx.tenant_id();
    let at = |t: &chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    // Ids drawn here, so each returned row is matched to its item (content may repeat among `repeated` items).
    let ids: Vec<Uuid> = items.iter().map(|_| Uuid::new_v4()).collect();
    let rows: Vec<serde_json::Value> = items
        .iter()
        .zip(&ids)
        .enumerate()
        .map(|(ord, (m, id))| {
            serde_json::json!({
                "ord": ord, "id": id, "repeated": m.repeated, "content": m.content, "content_hash": m.content_hash, "type": m.kind,
                "confidence": m.confidence, "memory_type": m.memory_type.as_str(), "ttl_seconds": m.ttl,
                "expires_at": m.expires_at.as_ref().map(at), "tags": m.tags, "tag_prefixes": m.tag_prefixes,
                "importance": m.importance, "metadata": m.metadata, "source_type": m.source_type,
                "credibility": m.credibility, "quality_score": m.quality_score, "emotion": m.emotion,
                "emotional_valence": m.emotional_valence, "emotional_arousal": m.emotional_arousal,
                "flashbulb_until": m.flashbulb_until.as_ref().map(at), "episode_id": m.episode_id,
                "sequence_number": m.sequence_number, "user_id": m.user_id, "agent_id": m.agent_id,
                "run_id": m.run_id, "t_valid": m.t_valid.as_ref().map(at), "t_invalid": m.t_invalid.as_ref().map(at),
                "created_at": at(&m.created_at),
            })
        })
        .collect();
    let sql = format!(
        "INSERT INTO memories (tenant_id, content, content_hash, type, confidence, memory_type, ttl_seconds, \
           expires_at, tags, tag_prefixes, importance, metadata, source_type, credibility, quality_score, \
           emotion, emotional_valence, emotional_arousal, flashbulb_until, episode_id, sequence_number, \
           user_id, agent_id, run_id, t_valid, t_invalid, created_at, embedding, embedding_status, embedding_model,
           id, repeated, created_by)
         SELECT $1, x.content, x.content_hash, x.type, x.confidence, x.memory_type, x.ttl_seconds, x.expires_at,
                x.tags, x.tag_prefixes, x.importance, x.metadata, x.source_type, x.credibility, x.quality_score,
                x.emotion, x.emotional_valence, x.emotional_arousal, x.flashbulb_until, x.episode_id,
                x.sequence_number, x.user_id, x.agent_id, x.run_id, x.t_valid, x.t_invalid, x.created_at,
                x.unnest,
                CASE WHEN x.unnest IS NULL THEN 'pending' ELSE 'ready' END,
                CASE WHEN x.unnest IS NULL THEN NULL ELSE 'client' END, x.id, x.repeated, $3
           FROM ROWS FROM (jsonb_to_recordset($2) AS (ord int, id uuid, repeated boolean, content text, content_hash text, type text, confidence real,
                memory_type text, ttl_seconds bigint, expires_at timestamptz, tags text[], tag_prefixes text[],
                importance real, metadata jsonb, source_type text, credibility real, quality_score real,
                emotion text, emotional_valence real, emotional_arousal real, flashbulb_until timestamptz,
                episode_id text, sequence_number int, user_id text, agent_id text, run_id text,
                t_valid timestamptz, t_invalid timestamptz, created_at timestamptz),
                -- Each row's vector, paired by position (`unnest` names the column).
                unnest($4::vector[])) AS x
          ORDER BY x.ord
         ON CONFLICT (tenant_id, content_hash) WHERE NOT repeated DO NOTHING
         RETURNING {MEMORY_COLUMNS}"
    );
    // The vectors beside the rows, in binary: inside the JSON each of a vector's floats was written out as
    // text by us and parsed back by Postgres (a 500-item batch with vectors: 192,000 of them).
    let vectors: Vec<Option<Vector>> = items.iter().map(|m| m.embedding.clone().map(Vector::from)).collect();
    let stored: Vec<Memory> = sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(serde_json::Value::Array(rows))
        .bind(actor)
        .bind(&vectors)
        .fetch_all(tx.conn())
        .await?;
    let stored_ids: Vec<Uuid> = stored.iter().map(|m| m.id).collect();
    events::record_created_many(tx, &stored_ids, actor).await?;
    let mut by_id: std::collections::HashMap<Uuid, Memory> = stored.into_iter().map(|m| (m.id, m)).collect();
    // The rest collided with memories already stored.
    let missing: Vec<String> =
        items.iter().zip(&ids).filter(|(_, id)| !by_id.contains_key(id)).map(|(m, _)| m.content_hash.clone()).collect();
    let existing: std::collections::HashMap<String, Uuid> = match missing.is_empty() {
        true => Default::default(),
        false => sqlx::query_as::<_, (String, Uuid)>(
            "SELECT content_hash, id FROM memories WHERE tenant_id = $1 AND content_hash = ANY($2) AND NOT repeated",
        )
        .bind(tenant_id)
        .bind(&missing)
        .fetch_all(tx.conn())
        .await?
        .into_iter()
        .collect(),
    };
    let mut outcomes = Vec::with_capacity(items.len());
    for (m, id) in items.iter().zip(&ids) {
        outcomes.push(match (by_id.remove(id), existing.get(&m.content_hash)) {
            (Some(memory), _) => Inserted::Stored(Box::new(memory)),
            (None, Some(id)) => Inserted::Duplicate { existing_id: *id },
            // The colliding memory was deleted meanwhile: this one alone, as a single insert retries.
            (None, None) => insert(tx, m, actor).await?,
        });
    }
    Ok(outcomes)
}

/// The id of the tenant's memory with this content hash (the canonical one, not a repeat), other than `except`.
pub async fn find_by_hash(tx: &mut TenantTx, hash: &str, except: Option<Uuid>) -> Result<Option<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_scalar(
        "SELECT id FROM memories WHERE tenant_id = $1 AND content_hash = $2 AND NOT repeated
            AND id IS DISTINCT FROM $3",
    )
    .bind(tenant_id)
    .bind(hash)
    .bind(except)
    .fetch_optional(tx.conn())
    .await?)
}

/// For each content hash, the memory holding it that the transaction sees (the canonical one first, else the
/// oldest repeat): a scoped key's duplicates are found among what it sees, never through the unique index,
/// which would betray memories outside its scope.
pub async fn find_visible(
    tx: &mut TenantTx,
    hashes: &[String],
) -> Result<std::collections::HashMap<String, Uuid>, Error> {
    if hashes.is_empty() {
        return Ok(Default::default());
    }
    let tenant_id = tx.tenant_id();
    let rows: Vec<(String, Uuid)> = sqlx::query_as(
        "SELECT DISTINCT ON (content_hash) content_hash, id FROM memories
          WHERE tenant_id = $1 AND content_hash = ANY($2) ORDER BY content_hash, repeated, created_at, id",
    )
    .bind(tenant_id)
    .bind(hashes)
    .fetch_all(tx.conn())
    .await?;
    Ok(rows.into_iter().collect())
}

/// A scoped key's inserts: each item deduplicated against the memories the key sees, the rest stored as
/// repeats (outside the unique index), so neither a conflict nor a flag tells it that a memory outside its
/// scope holds the same content. Outcomes in the items' order.
async fn insert_scoped(tx: &mut TenantTx, items: &[&NewMemory], actor: &str) -> Result<Vec<Inserted>, Error> {
    let hashes: Vec<String> = items.iter().filter(|m| !m.repeated).map(|m| m.content_hash.clone()).collect();
    let visible = find_visible(tx, &hashes).await?;
    let seen = |m: &NewMemory| (!m.repeated).then(|| visible.get(&m.content_hash).copied()).flatten();
    let own: Vec<NewMemory> =
        items.iter().filter(|m| seen(m).is_none()).map(|m| NewMemory { repeated: true, ..(*m).clone() }).collect();
    let refs: Vec<&NewMemory> = own.iter().collect();
    let mut stored = match refs.as_slice() {
        [] => Vec::new(),
        [one] => vec![insert_attempt(tx, one, actor, 0).await?],
        _ => Box::pin(insert_rows(tx, &refs, actor)).await?,
    }
    .into_iter();
    let mut out = Vec::with_capacity(items.len());
    for m in items {
        out.push(match seen(m) {
            Some(existing_id) => Inserted::Duplicate { existing_id },
            None => stored.next().ok_or_else(|| Error::internal("a scoped insert without its row"))?,
        });
    }
    Ok(out)
}

/// One memory, without counting an access. `lock` takes a row lock for a following update.
pub async fn get(tx: &mut TenantTx, id: Uuid, lock: bool) -> Result<Option<Memory>, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = $2{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    Ok(sqlx::query_as(&sql).bind(tenant_id).bind(id).fetch_optional(tx.conn()).await?)
}

/// Takes the episode locks of these memories (their episodes', in name order) before their rows are
/// locked. Updating or deleting a memory of an episode re-indexes the memory after it, under the episode's
/// lock, which the triggers take after the row lock; a writer that already held the next memory's row and
/// waited for the episode's lock deadlocked with it (found by schemathesis: two PATCHes of one episode).
/// Taking the episode first orders every writer the same way. (Idempotent: the locks are re-entrant.)
pub async fn lock_episodes(tx: &mut TenantTx, ids: &[Uuid]) -> Result<(), Error> {
    lock_episodes_and(tx, ids, &[]).await
}

/// The statement that takes the episode locks of the tenant `$1` for the episodes `select` names (one text
/// column; nulls and repeats ignored). Locks are striped (migration 26): an episode's is one of 32 per tenant,
/// so however many episodes a write touches, it holds at most 32 advisory locks; stripes are taken in number
/// order, so every writer locks the same way.
pub(crate) fn episode_locks(select: &str) -> String {
    format!(
        "SELECT cairn_lock_episode_stripe($1, x.s)
           FROM (SELECT DISTINCT cairn_episode_stripe(e) AS s FROM ({select}) s(e) WHERE e IS NOT NULL) x
          ORDER BY x.s"
    )
}

/// [`lock_episodes`] of `ids` together with the episodes named in `also` (where a write moves a memory, or
/// new memories arrive), all in name order.
pub async fn lock_episodes_and(tx: &mut TenantTx, ids: &[Uuid], also: &[String]) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    sqlx::query(&episode_locks(
        "SELECT episode_id FROM memories WHERE tenant_id = $1 AND id = ANY($2) UNION ALL SELECT unnest($3::text[])",
    ))
    .bind(tenant_id)
    .bind(ids)
    .bind(also)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// [`lock_episodes`] for the memories carrying any of `tags`.
pub async fn lock_episodes_tagged(tx: &mut TenantTx, tags: &[String]) -> Result<(), Error> {
    let tenant_id = tx.tenant_id();
    sqlx::query(&episode_locks("SELECT episode_id FROM memories WHERE tenant_id = $1 AND tags && $2"))
        .bind(tenant_id)
        .bind(tags)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// One memory, counting the read as an access.
pub async fn get_and_touch(tx: &mut TenantTx, id: Uuid) -> Result<Option<Memory>, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "UPDATE memories SET access_count = access_count + 1, last_accessed_at = now()
         WHERE tenant_id = $1 AND id = $2 RETURNING {MEMORY_COLUMNS}"
    );
    Ok(sqlx::query_as(&sql).bind(tenant_id).bind(id).fetch_optional(tx.conn()).await?)
}

/// Writes back an updated memory (see [`crate::memory::MemoryPatch::apply`]) and records the `updated`
/// event in the same statement: the `before` snapshot is taken by Postgres, never round-tripped through
/// Rust (where floats in metadata could drift).
pub async fn update(
    tx: &mut TenantTx,
    id: Uuid,
    m: &NewMemory,
    embedding: EmbeddingChange,
    actor: &str,
) -> Result<Memory, Error> {
    tx.note_memory_writes();
    let tenant_id = tx.tenant_id();
    let mut qb: QueryBuilder<Postgres> = QueryBuilder::new("WITH old AS MATERIALIZED (SELECT ");
    qb.push(events::SNAPSHOT).push(" AS snap FROM memories m WHERE tenant_id = ").push_bind(tenant_id);
    qb.push(" AND id = ").push_bind(id);
    qb.push("), upd AS (UPDATE memories SET updated_at = now()");
    qb.push(", content = ").push_bind(&m.content);
    qb.push(", content_hash = ").push_bind(&m.content_hash);
    // A repeat whose content changes becomes an ordinary memory (the caller checked no other holds the content),
    // unless the caller makes it a repeat (a scoped key, which cannot see every holder).
    qb.push(", repeated = (repeated AND content_hash = ").push_bind(&m.content_hash);
    qb.push(") OR ").push_bind(m.repeated);
    qb.push(", type = ").push_bind(&m.kind);
    qb.push(", confidence = ").push_bind(m.confidence);
    qb.push(", memory_type = ").push_bind(m.memory_type.as_str());
    qb.push(", ttl_seconds = ").push_bind(m.ttl);
    qb.push(", expires_at = ").push_bind(m.expires_at);
    qb.push(", tags = ").push_bind(&m.tags);
    qb.push(", tag_prefixes = ").push_bind(&m.tag_prefixes);
    qb.push(", importance = ").push_bind(m.importance);
    // An owner-set importance is the new base that decay floors at; decay's own changes keep the base.
    qb.push(", base_importance = CASE WHEN importance IS DISTINCT FROM ")
        .push_bind(m.importance)
        .push(" THEN ")
        .push_bind(m.importance)
        .push(" ELSE base_importance END");
    // ... and restarts the decay clock, so time before the change does not count against the new value.
    // (The time is bound, not `now()`: Citus refuses a function that is not immutable inside a CASE of an
    // UPDATE.)
    qb.push(", decayed_at = CASE WHEN importance IS DISTINCT FROM ")
        .push_bind(m.importance)
        .push(" THEN ")
        .push_bind(chrono::Utc::now())
        .push(" ELSE decayed_at END");
    qb.push(", metadata = ").push_bind(&m.metadata);
    qb.push(", source_type = ").push_bind(&m.source_type);
    qb.push(", credibility = ").push_bind(m.credibility);
    qb.push(", quality_score = ").push_bind(m.quality_score);
    // A score the owner sets is theirs: enrichment no longer recomputes it.
    qb.push(", quality_computed = quality_computed AND quality_score IS NOT DISTINCT FROM ").push_bind(m.quality_score);
    qb.push(", emotion = ").push_bind(&m.emotion);
    qb.push(", emotional_valence = ").push_bind(m.emotional_valence);
    qb.push(", emotional_arousal = ").push_bind(m.emotional_arousal);
    qb.push(", episode_id = ").push_bind(&m.episode_id);
    qb.push(", sequence_number = ").push_bind(m.sequence_number);
    qb.push(", user_id = ").push_bind(&m.user_id);
    qb.push(", agent_id = ").push_bind(&m.agent_id);
    qb.push(", run_id = ").push_bind(&m.run_id);
    qb.push(", t_valid = ").push_bind(m.t_valid);
    qb.push(", t_invalid = ").push_bind(m.t_invalid);
    qb.push(", created_at = ").push_bind(m.created_at);
    match embedding {
        EmbeddingChange::Keep => {}
        // New content: its runs of sentences go by the trigger of migration 43, as for every writer of content.
        EmbeddingChange::Reset => {
            qb.push(
                ", embedding = NULL, context_embedding = NULL, embedding_status = 'pending', embedding_model = NULL",
            );
        }
        EmbeddingChange::Set(v) => {
            qb.push(", embedding = ").push_bind(Vector::from(v));
            qb.push(", context_embedding = NULL, sentence_embeddings = NULL, embedding_status = 'ready'");
            qb.push(", embedding_model = 'client'");
        }
    }
    qb.push(" WHERE tenant_id = ").push_bind(tenant_id);
    qb.push(" AND id = ").push_bind(id);
    qb.push(" RETURNING *), ev AS (INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after) SELECT m.tenant_id, m.id, 'updated', ");
    qb.push_bind(actor.to_owned());
    qb.push(", (SELECT snap FROM old), ")
        .push(events::SNAPSHOT)
        .push(" FROM upd m RETURNING id) SELECT ")
        .push(MEMORY_COLUMNS)
        .push(" FROM upd");
    Ok(qb.build_query_as().fetch_one(tx.conn()).await?)
}

/// Deletes one memory (its relations and entity links go with it by cascade); false when absent.
pub async fn delete(tx: &mut TenantTx, id: Uuid, actor: &str) -> Result<bool, Error> {
    tx.note_memory_writes();
    lock_episodes(tx, &[id]).await?;
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH d AS (DELETE FROM memories WHERE tenant_id = $1 AND id = $2 RETURNING *) {}",
        events::record_deleted_from_d()
    );
    let deleted: Vec<Uuid> = sqlx::query_scalar(&sql).bind(tenant_id).bind(id).bind(actor).fetch_all(tx.conn()).await?;
    Ok(!deleted.is_empty())
}

/// Appends ` WHERE tenant_id = .. AND ..` for a filter.
pub fn push_filter(filter: &ListFilter, qb: &mut QueryBuilder<'_, Postgres>, tenant_id: Uuid) {
    qb.push(" WHERE tenant_id = ").push_bind(tenant_id);
    if !filter.kinds.is_empty() {
        qb.push(" AND type = ANY(").push_bind(filter.kinds.clone()).push(")");
    }
    if let Some(lifecycle) = filter.memory_type {
        qb.push(" AND memory_type = ").push_bind(lifecycle.as_str());
    }
    if !filter.tags.is_empty() {
        let column = if filter.tags_prefix { "tag_prefixes" } else { "tags" };
        let op = if filter.tags_all { "@>" } else { "&&" };
        qb.push(format_args!(" AND {column} {op} ")).push_bind(filter.tags.clone());
    }
    for (column, value) in [("user_id", &filter.user_id), ("agent_id", &filter.agent_id), ("run_id", &filter.run_id)] {
        if let Some(value) = value {
            qb.push(format_args!(" AND {column} = ")).push_bind(value.clone());
        }
    }
    if let Some(t) = filter.created_after {
        qb.push(" AND created_at >= ").push_bind(t);
    }
    if let Some(t) = filter.created_before {
        qb.push(" AND created_at < ").push_bind(t);
    }
    if let Some(v) = filter.min_importance {
        qb.push(" AND importance >= ").push_bind(v);
    }
    if let Some(v) = filter.max_importance {
        qb.push(" AND importance <= ").push_bind(v);
    }
    if !filter.exclude_tags.is_empty() {
        qb.push(" AND NOT (tags && ").push_bind(filter.exclude_tags.clone()).push(")");
    }
    if let Some(episode) = &filter.episode_id {
        qb.push(" AND episode_id = ").push_bind(episode.clone());
    }
    if let Some(actor) = &filter.created_by {
        qb.push(" AND created_by = ").push_bind(actor.clone());
    }
    if let Some(t) = filter.valid_at {
        qb.push(" AND (t_valid IS NULL OR t_valid <= ").push_bind(t);
        qb.push(") AND (t_invalid IS NULL OR t_invalid > ").push_bind(t).push(")");
    }
    if let Some(ids) = &filter.only_ids {
        qb.push(" AND id = ANY(").push_bind(ids.clone()).push(")");
    }
    if !filter.include_archived {
        qb.push(" AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > now())");
    }
}

/// Lists memories, newest first (id breaks ties, so pages are stable).
/// Returns the page and the total that match.
pub async fn list(
    tx: &mut TenantTx,
    filter: &ListFilter,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Memory>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let mut count = QueryBuilder::new("SELECT count(*) FROM memories");
    push_filter(filter, &mut count, tenant_id);
    // Both planned with their values (unnamed): how many memories the filter selects decides the plan.
    let total: i64 = count.build_query_scalar().persistent(false).fetch_one(tx.conn()).await?;

    let mut page = QueryBuilder::new(format!("SELECT {MEMORY_COLUMNS} FROM memories"));
    push_filter(filter, &mut page, tenant_id);
    page.push(" ORDER BY created_at DESC, id DESC LIMIT ").push_bind(limit).push(" OFFSET ").push_bind(offset);
    let memories = page.build_query_as().persistent(false).fetch_all(tx.conn()).await?;
    Ok((memories, total))
}

/// AutoMem's by-tag listing: active memories (not archived, not expired) with any of the (exact,
/// lowercased) tags, importance desc, time desc, id asc.
pub async fn list_by_tags(
    tx: &mut TenantTx,
    tags: &[String],
    limit: i64,
    offset: i64,
) -> Result<(Vec<Memory>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let filter = "tenant_id = $1 AND tags && $2 AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > now())";
    // Both planned with their values (unnamed): how many memories the tags select decides the plan.
    let total: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM memories WHERE {filter}"))
        .bind(tenant_id)
        .bind(tags)
        .persistent(false)
        .fetch_one(tx.conn())
        .await?;
    let sql = format!(
        "SELECT {MEMORY_COLUMNS} FROM memories WHERE {filter}
         ORDER BY importance DESC, created_at DESC, id ASC LIMIT $3 OFFSET $4"
    );
    let memories = sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(tags)
        .bind(limit)
        .bind(offset)
        .persistent(false)
        .fetch_all(tx.conn())
        .await?;
    Ok((memories, total))
}

/// How many memories carry any of the tags (archived ones too).
pub async fn count_with_tags(tx: &mut TenantTx, tags: &[String]) -> Result<i64, Error> {
    let tenant_id = tx.tenant_id();
    // Unnamed, as `list`'s count (whose text this can be) and for the same reason.
    Ok(sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1 AND tags && $2")
        .bind(tenant_id)
        .bind(tags)
        .persistent(false)
        .fetch_one(tx.conn())
        .await?)
}

/// Deletes every memory carrying any of the tags; returns how many.
/// In batches of this many rows, so each statement stays well inside the statement timeout (every deleted
/// row is copied to the trash, its cascades and its episode's successor updated).
const DELETE_BATCH: i64 = 1000;

pub async fn delete_by_tags(tx: &mut TenantTx, tags: &[String], actor: &str) -> Result<i64, Error> {
    tx.note_memory_writes();
    lock_episodes_tagged(tx, tags).await?;
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH d AS (DELETE FROM memories WHERE tenant_id = $1 AND id IN (
                        SELECT id FROM memories WHERE tenant_id = $1 AND tags && $2 ORDER BY id LIMIT $4)
                    RETURNING *) {}",
        events::record_deleted_from_d()
    );
    let mut total = 0_i64;
    loop {
        let deleted: Vec<Uuid> = sqlx::query_scalar(&sql)
            .bind(tenant_id)
            .bind(tags)
            .bind(actor)
            .bind(DELETE_BATCH)
            .fetch_all(tx.conn())
            .await?;
        total += deleted.len() as i64;
        if (deleted.len() as i64) < DELETE_BATCH {
            return Ok(total);
        }
    }
}
