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

/// A query's words as Postgres' English configuration makes them (stemmed, no stop words).
#[derive(Debug, Default, sqlx::FromRow)]
pub struct QueryLexemes {
    /// The query's lexemes.
    pub all: Vec<String>,
    /// The lexemes of its names and quoted phrases.
    pub emphasised: Vec<String>,
    /// Each quoted phrase of two or more lexemes as a phrase tsquery (`'lean' <-> 'startup'`).
    pub phrases: Vec<String>,
}

/// The lexemes of a query, of its names and phrases (`emphasised`, words joined by spaces), and its
/// quoted phrases as tsqueries: one round trip.
pub async fn lexemes(
    tx: &mut TenantTx,
    text: &str,
    emphasised: &str,
    phrases: &[String],
) -> Result<QueryLexemes, Error> {
    Ok(sqlx::query_as(
        "SELECT coalesce(tsvector_to_array(to_tsvector('english', $1)), '{}') AS all, \
                coalesce(tsvector_to_array(to_tsvector('english', $2)), '{}') AS emphasised, \
                ARRAY(SELECT q FROM (SELECT phraseto_tsquery('english', p)::text AS q FROM unnest($3::text[]) p) x \
                      WHERE q LIKE '%<%') AS phrases",
    )
    .bind(text)
    .bind(emphasised)
    .bind(phrases)
    .fetch_one(tx.conn())
    .await?)
}
