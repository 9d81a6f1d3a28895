//! Aggregates over a tenant's memories: counts for the stats routes of every surface, and the tag list.

use super::TenantTx;
use crate::error::Error;
use crate::memory::{EmbeddingCounts, TenantStats, TypeCount};

/// The tenant's distinct live tags (a count above zero), for the listing and the stats' total.
const LIVE_TAGS: &str =
    "SELECT key FROM memory_counts WHERE tenant_id = $1 AND kind = 'tag' GROUP BY key HAVING sum(n) > 0";

/// The `hour` key of the hour `$interval` before now (the same format the count trigger writes).
fn hour_ago(interval: &str) -> String {
    format!("to_char(now() AT TIME ZONE 'UTC' - interval '{interval}', 'YYYY-MM-DD\"T\"HH24')")
}

/// The tenant's statistics, from the counts the triggers of `memory_counts` maintain (a read of a few rows per
/// count, whatever the tenant's size). A memory counts as active until archived (one past its TTL until the
/// expiry pass archives it); "the last 7 days" is counted to the hour.
pub async fn tenant_stats(tx: &mut TenantTx) -> Result<TenantStats, Error> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(&format!(
        "SELECT kind, key, sum(n)::bigint FROM memory_counts
          WHERE tenant_id = $1
            AND kind IN ('active', 'archived', 'lifecycle', 'type', 'embedding', 'hour', 'relations', 'entities')
            AND (kind <> 'hour' OR key >= {})
          GROUP BY kind, key HAVING sum(n) <> 0",
        hour_ago("7 days")
    ))
    .bind(tx.tenant_id())
    .fetch_all(tx.conn())
    .await?;
    let tags: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM ({LIVE_TAGS}) t"))
        .bind(tx.tenant_id())
        .fetch_one(tx.conn())
        .await?;
    Ok(stats_of(&rows, tags))
}

/// Statistics from (kind, key, count) rows as the counts keep them, and the number of distinct tags.
fn stats_of(rows: &[(String, String, i64)], tags: i64) -> TenantStats {
    let count = |kind: &str, key: &str| rows.iter().find(|r| r.0 == kind && r.1 == key).map_or(0, |r| r.2);
    let mut by_type: Vec<TypeCount> = rows
        .iter()
        .filter(|r| r.0 == "type" && r.2 > 0)
        .map(|r| TypeCount { memory_type: r.1.clone(), count: r.2 })
        .collect();
    by_type.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.memory_type.cmp(&b.memory_type)));
    TenantStats {
        total_memories: count("active", ""),
        memories_last_7_days: rows.iter().filter(|r| r.0 == "hour").map(|r| r.2).sum(),
        archived: count("archived", ""),
        short_term: count("lifecycle", "short_term"),
        long_term: count("lifecycle", "long_term"),
        embeddings: EmbeddingCounts {
            ready: count("embedding", "ready"),
            pending: count("embedding", "pending"),
            failed: count("embedding", "failed"),
        },
        by_type,
        associations: count("relations", ""),
        entities: count("entities", ""),
        tags,
    }
}

/// The statistics of what a scoped key sees (the transaction's scope hides the rest): counted from the
/// memories themselves, with the counts' own rules, since the maintained counts are the whole tenant's.
/// Bounded like any statement by the transaction's timeout.
pub async fn scoped_stats(tx: &mut TenantTx) -> Result<TenantStats, Error> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(&format!(
        "SELECT c.kind, c.key, sum(c.n)::bigint
           FROM memories m,
                cairn_memory_count_keys(m.archived_at, m.memory_type, m.type, m.embedding_status, m.created_at, m.tags, 1) c
          WHERE m.tenant_id = $1 AND c.kind <> 'tag' AND (c.kind <> 'hour' OR c.key >= {})
          GROUP BY 1, 2",
        hour_ago("7 days")
    ))
    .bind(tx.tenant_id())
    .fetch_all(tx.conn())
    .await?;
    let (associations, entities, tags): (i64, i64, i64) = sqlx::query_as(&format!(
        "SELECT (SELECT count(*) FROM relations WHERE tenant_id = $1),
                (SELECT count(*) FROM entities WHERE tenant_id = $1),
                (SELECT count(*) FROM ({VISIBLE_TAGS}) t)"
    ))
    .bind(tx.tenant_id())
    .fetch_one(tx.conn())
    .await?;
    let mut rows = rows;
    rows.push(("relations".into(), String::new(), associations));
    rows.push(("entities".into(), String::new(), entities));
    Ok(stats_of(&rows, tags))
}

/// The distinct tags of the active memories a scoped key sees (counted from the memories: the maintained
/// counts are the whole tenant's).
const VISIBLE_TAGS: &str =
    "SELECT DISTINCT t AS key FROM memories m, unnest(m.tags) t WHERE m.tenant_id = $1 AND m.archived_at IS NULL";

/// Every distinct tag on the active memories the transaction sees, alphabetically, at most `limit`, with the
/// total: from the maintained counts, or (`scoped`: a scoped key's) from the memories it sees.
pub async fn tags(tx: &mut TenantTx, limit: i64, scoped: bool) -> Result<(Vec<String>, i64), Error> {
    let source = if scoped { VISIBLE_TAGS } else { LIVE_TAGS };
    let rows: Vec<(String, i64)> =
        sqlx::query_as(&format!("WITH t AS ({source}) SELECT key, count(*) OVER () FROM t ORDER BY key LIMIT $2"))
            .bind(tx.tenant_id())
            .bind(limit)
            .fetch_all(tx.conn())
            .await?;
    let total = rows.first().map_or(0, |r| r.1);
    Ok((rows.into_iter().map(|r| r.0).collect(), total))
}

/// Most counts one fold statement folds: a statement stays well inside the statement timeout however many
/// deltas a bulk load left (a million memories leave about as many lexeme deltas; folding them in one
/// statement ran past the 5 s timeout, so the fold never finished and the deltas kept growing).
pub const FOLD_KEYS: i64 = 10_000;

/// Folds the tenant's count deltas into one row per count, drops counts that reached zero (a tag no memory
/// has any more leaves no trace) and hours older than the stats window, in statements of at most
/// [`FOLD_KEYS`] counts, at most `max_rounds` of them. Concurrent writers are not blocked: the deltas they
/// commit meanwhile are not in a statement's snapshot and wait for the next fold. Only the counts that have
/// deltas (and the old hours) are read, through the index: a tenant's many folded counts (one per lexeme) are
/// not. Returns whether every count was folded.
pub async fn fold_counts(tx: &mut TenantTx, max_rounds: usize) -> Result<bool, Error> {
    for _ in 0..max_rounds {
        let keys: i64 = sqlx::query_scalar(&format!(
            "WITH due AS MATERIALIZED (
                 SELECT kind, key FROM (SELECT DISTINCT kind, key FROM memory_counts
                                         WHERE tenant_id = $1 AND NOT folded LIMIT $2) d
                 UNION
                 SELECT kind, key FROM memory_counts WHERE tenant_id = $1 AND kind = 'hour' AND key < {old}
             ), gone AS (
                 DELETE FROM memory_counts m USING due
                  WHERE m.tenant_id = $1 AND m.kind = due.kind AND m.key = due.key
                 RETURNING m.kind, m.key, m.n
             ), kept AS (
                 INSERT INTO memory_counts (tenant_id, kind, key, n, folded)
                 SELECT $1, kind, key, sum(n), true FROM gone WHERE NOT (kind = 'hour' AND key < {old})
                  GROUP BY kind, key HAVING sum(n) <> 0
                 RETURNING n
             )
             SELECT count(*) FROM due",
            old = hour_ago("8 days")
        ))
        .bind(tx.tenant_id())
        .bind(FOLD_KEYS)
        .fetch_one(tx.conn())
        .await?;
        if keys < FOLD_KEYS {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The tenant's memories by pipeline state (`embedding_status` or `enrichment_status`): (state, count).
pub async fn pipeline_counts(tx: &mut TenantTx, pipeline: Pipeline) -> Result<Vec<(String, i64)>, Error> {
    let column = match pipeline {
        Pipeline::Embedding => "embedding_status",
        Pipeline::Enrichment => "enrichment_status",
    };
    let sql = format!("SELECT {column}, count(*) FROM memories WHERE tenant_id = $1 GROUP BY {column}");
    Ok(sqlx::query_as(&sql).bind(tx.tenant_id()).fetch_all(tx.conn()).await?)
}

/// A memory's background pipelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pipeline {
    Embedding,
    Enrichment,
}
