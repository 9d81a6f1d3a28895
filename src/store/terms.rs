//! SQL for keyword statistics: a tenant's document frequencies (`ts_stat`) for BM25, and a query's lexemes
//! as Postgres' English configuration makes them.

use super::TenantTx;
use crate::error::Error;
use crate::recall::bm25::TermStats;

/// The transaction's tenant's statistics: memories, average lexemes per memory, and the document frequency
/// of every lexeme found in at least two memories.
pub async fn compute(tx: &mut TenantTx) -> Result<TermStats, Error> {
    let tenant_id = tx.tenant_id();
    let (docs, avg_len): (i64, f64) = sqlx::query_as(
        "SELECT count(*), coalesce(avg(length(search_tsv)), 0)::float8 FROM memories WHERE tenant_id = $1",
    )
    .bind(tenant_id)
    .fetch_one(tx.conn())
    .await?;
    // ts_stat runs its query text under the caller's role, so row-level security still applies; the
    // tenant id is a formatted Uuid, never user text.
    let df: Vec<(String, i32)> = sqlx::query_as(&format!(
        "SELECT word, ndoc FROM ts_stat('SELECT search_tsv FROM memories WHERE tenant_id = ''{tenant_id}''') WHERE ndoc > 1"
    ))
    .fetch_all(tx.conn())
    .await?;
    let df = df.into_iter().map(|(w, n)| (w, u64::try_from(n).unwrap_or(0))).collect();
    Ok(TermStats::new(u64::try_from(docs).unwrap_or(0), avg_len, df))
}

/// The query text's lexemes, as Postgres' English configuration makes them (stemmed, no stop words).
pub async fn lexemes(tx: &mut TenantTx, text: &str) -> Result<Vec<String>, Error> {
    Ok(sqlx::query_scalar("SELECT coalesce(tsvector_to_array(to_tsvector('english', $1)), '{}')")
        .bind(text)
        .fetch_one(tx.conn())
        .await?)
}
