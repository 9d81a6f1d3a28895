//! SQL for keyword statistics: a tenant's document frequencies (`ts_stat`) for BM25, and a query's lexemes
//! as Postgres' English configuration makes them.

use super::TenantTx;
use crate::error::Error;
use crate::recall::bm25::TermStats;

/// At most this many memories are read to count document frequencies: a larger tenant is sampled and the
/// counts scaled, so the cost is bounded whatever the tenant's size. Memory ids are random (v4), so the
/// first memories in id order are a uniform sample (imported ids of another kind make it a biased one).
pub const MAX_SAMPLE: i64 = 100_000;
/// At most this many lexemes are kept, the most frequent (a rarer one counts as found in one memory, which
/// changes its weight a little and keeps every tenant's statistics small enough to cache).
pub const MAX_LEXEMES: i64 = 500_000;

/// The transaction's tenant's statistics: memories, average lexemes per memory, and the document frequency
/// of the lexemes found in at least two memories (of the sample, scaled to the tenant).
pub async fn compute(tx: &mut TenantTx) -> Result<TermStats, Error> {
    compute_bounded(tx, MAX_SAMPLE, MAX_LEXEMES).await
}

/// [`compute`] with other bounds (tests use small ones).
pub async fn compute_bounded(tx: &mut TenantTx, max_sample: i64, max_lexemes: i64) -> Result<TermStats, Error> {
    let tenant_id = tx.tenant_id();
    let docs: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1")
        .bind(tenant_id)
        .fetch_one(tx.conn())
        .await?;
    let sample =
        format!("SELECT search_tsv FROM memories WHERE tenant_id = '{tenant_id}' ORDER BY id LIMIT {max_sample}");
    let (sampled, avg_len): (i64, f64) =
        sqlx::query_as(&format!("SELECT count(*), coalesce(avg(length(search_tsv)), 0)::float8 FROM ({sample}) s"))
            .fetch_one(tx.conn())
            .await?;
    // ts_stat runs its query text under the caller's role, so row-level security still applies; the
    // tenant id is a formatted Uuid, never user text.
    let df: Vec<(String, i32)> = sqlx::query_as(&format!(
        "SELECT word, ndoc FROM ts_stat('{}') WHERE ndoc > 1 ORDER BY ndoc DESC, word LIMIT {max_lexemes}",
        sample.replace('\'', "''")
    ))
    .fetch_all(tx.conn())
    .await?;
    let scale = if sampled > 0 && docs > sampled { docs as f64 / sampled as f64 } else { 1.0 };
    let df = df.into_iter().map(|(w, n)| (w, (f64::from(n) * scale).round() as u64)).collect();
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
