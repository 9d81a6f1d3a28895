//! Aggregates over a tenant's memories: counts for the stats routes of every surface, and the tag list.

use super::TenantTx;
use crate::error::Error;
use crate::memory::{EmbeddingCounts, TenantStats, TypeCount};

const ACTIVE: &str = "archived_at IS NULL AND (expires_at IS NULL OR expires_at > now())";

/// The tenant's statistics (a handful of index-assisted counts).
pub async fn tenant_stats(tx: &mut TenantTx) -> Result<TenantStats, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "SELECT count(*) FILTER (WHERE {ACTIVE}),
                count(*) FILTER (WHERE {ACTIVE} AND created_at > now() - interval '7 days'),
                count(*) FILTER (WHERE NOT ({ACTIVE})),
                count(*) FILTER (WHERE {ACTIVE} AND memory_type = 'short_term'),
                count(*) FILTER (WHERE {ACTIVE} AND memory_type = 'long_term'),
                count(*) FILTER (WHERE {ACTIVE} AND embedding_status = 'ready'),
                count(*) FILTER (WHERE {ACTIVE} AND embedding_status = 'pending'),
                count(*) FILTER (WHERE {ACTIVE} AND embedding_status = 'failed')
         FROM memories WHERE tenant_id = $1"
    );
    let row: (i64, i64, i64, i64, i64, i64, i64, i64) =
        sqlx::query_as(&sql).bind(tenant_id).fetch_one(tx.conn()).await?;
    let by_type: Vec<TypeCount> = sqlx::query_as(&format!(
        "SELECT type AS memory_type, count(*) AS count FROM memories WHERE tenant_id = $1 AND {ACTIVE}
         GROUP BY type ORDER BY count(*) DESC, type"
    ))
    .bind(tenant_id)
    .fetch_all(tx.conn())
    .await?;
    let (associations, entities, tags): (i64, i64, i64) = sqlx::query_as(&format!(
        "SELECT (SELECT count(*) FROM relations WHERE tenant_id = $1),
                (SELECT count(*) FROM entities WHERE tenant_id = $1),
                (SELECT count(DISTINCT t) FROM memories, unnest(tags) t WHERE tenant_id = $1 AND {ACTIVE})"
    ))
    .bind(tenant_id)
    .fetch_one(tx.conn())
    .await?;
    Ok(TenantStats {
        total_memories: row.0,
        memories_last_7_days: row.1,
        archived: row.2,
        short_term: row.3,
        long_term: row.4,
        embeddings: EmbeddingCounts { ready: row.5, pending: row.6, failed: row.7 },
        by_type,
        associations,
        entities,
        tags,
    })
}

/// Every distinct tag on the tenant's active memories, alphabetically, at most `limit`, with the total.
pub async fn tags(tx: &mut TenantTx, limit: i64) -> Result<(Vec<String>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH t AS (SELECT DISTINCT unnest(tags) AS tag FROM memories WHERE tenant_id = $1 AND {ACTIVE})
         SELECT tag, count(*) OVER () FROM t ORDER BY tag LIMIT $2"
    );
    let rows: Vec<(String, i64)> = sqlx::query_as(&sql).bind(tenant_id).bind(limit).fetch_all(tx.conn()).await?;
    let total = rows.first().map_or(0, |r| r.1);
    Ok((rows.into_iter().map(|r| r.0).collect(), total))
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
