//! Aggregates over a tenant's memories: counts for the stats routes of every surface, and the tag list.

use serde::Serialize;
use utoipa::ToSchema;

use super::TenantTx;
use crate::error::ApiError;

/// How many memories of one classification.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct TypeCount {
    /// The classification (`Decision`, `Observation`...).
    pub memory_type: String,
    pub count: i64,
}

/// A tenant's memories in numbers. "Active" memories are those recall and listings return: neither archived
/// nor expired.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"total_memories": 42, "memories_last_7_days": 5, "archived": 3, "short_term": 4,
    "long_term": 38, "embeddings": {"ready": 41, "pending": 1, "failed": 0},
    "by_type": [{"memory_type": "Decision", "count": 12}], "associations": 17, "entities": 9, "tags": 23}))]
pub struct TenantStats {
    /// Active memories.
    pub total_memories: i64,
    /// Active memories created in the last 7 days.
    pub memories_last_7_days: i64,
    /// Archived or expired memories, kept until retention purges them.
    pub archived: i64,
    /// Active short-term memories.
    pub short_term: i64,
    /// Active long-term memories.
    pub long_term: i64,
    /// Active memories by embedding state.
    pub embeddings: EmbeddingCounts,
    /// Active memories by classification, most first.
    pub by_type: Vec<TypeCount>,
    /// Associations between memories.
    pub associations: i64,
    /// Entities found in memories.
    pub entities: i64,
    /// Distinct tags on active memories.
    pub tags: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EmbeddingCounts {
    pub ready: i64,
    pub pending: i64,
    pub failed: i64,
}

const ACTIVE: &str = "archived_at IS NULL AND (expires_at IS NULL OR expires_at > now())";

/// The tenant's statistics (a handful of index-assisted counts).
pub async fn tenant_stats(tx: &mut TenantTx) -> Result<TenantStats, ApiError> {
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
pub async fn tags(tx: &mut TenantTx, limit: i64) -> Result<(Vec<String>, i64), ApiError> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "WITH t AS (SELECT DISTINCT unnest(tags) AS tag FROM memories WHERE tenant_id = $1 AND {ACTIVE})
         SELECT tag, count(*) OVER () FROM t ORDER BY tag LIMIT $2"
    );
    let rows: Vec<(String, i64)> = sqlx::query_as(&sql).bind(tenant_id).bind(limit).fetch_all(tx.conn()).await?;
    let total = rows.first().map_or(0, |r| r.1);
    Ok((rows.into_iter().map(|r| r.0).collect(), total))
}
