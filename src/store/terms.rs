//! SQL for keyword statistics: a query's lexemes as Postgres' English configuration makes them, with the
//! tenant's document frequencies of those lexemes (for BM25), which the count triggers keep (migration 40).

use std::collections::HashMap;

use super::TenantTx;
use crate::error::Error;
use crate::recall::bm25::TermStats;

/// A query's words as Postgres' English configuration makes them (stemmed, no stop words), and the tenant's
/// statistics for them.
#[derive(Debug, Default)]
pub struct QueryLexemes {
    /// The query's lexemes.
    pub all: Vec<String>,
    /// The lexemes of its names and quoted phrases.
    pub emphasised: Vec<String>,
    /// Each quoted phrase of two or more lexemes as a phrase tsquery (`'lean' <-> 'startup'`).
    pub phrases: Vec<String>,
    /// The tenant's active memories, their average lexemes, and the document frequency of each of `all`
    /// found in at least one of them.
    pub stats: TermStats,
    /// For each of the names asked about, in order: how many of the tenant's active memories hold it (the
    /// fewest of its lexemes' counts; 0 for a name that is only stop words).
    pub name_docs: Vec<u64>,
}

#[derive(sqlx::FromRow)]
struct Row {
    all: Vec<String>,
    emphasised: Vec<String>,
    phrases: Vec<String>,
    docs: i64,
    lexemes: i64,
    words: Vec<String>,
    counts: Vec<i64>,
    name_counts: Vec<i64>,
}

/// The lexemes of a query, of its names and phrases (`emphasised`, words joined by spaces), its quoted
/// phrases as tsqueries, and the tenant's counts for them and for each of `names` (a few index reads, whatever
/// the tenant's size): one round trip.
pub async fn lexemes(
    tx: &mut TenantTx,
    text: &str,
    emphasised: &str,
    phrases: &[String],
    names: &[String],
) -> Result<QueryLexemes, Error> {
    // The counts are deltas until the expiry pass folds them: each is summed (a few rows at most per count
    // between folds of a busy tenant). Each lexeme is looked up by the whole index key: `key = ANY (...)` was
    // left as a filter over all the tenant's lexemes when `memory_counts` had no statistics yet (5 ms at 30k
    // memories, pipeline bench), this plan takes 0.5 ms with or without them.
    let row: Row = sqlx::query_as(
        "WITH q AS (
             SELECT coalesce(tsvector_to_array(to_tsvector('english', $1)), '{}') AS all,
                    coalesce(tsvector_to_array(to_tsvector('english', $2)), '{}') AS emphasised,
                    ARRAY(SELECT q FROM (SELECT phraseto_tsquery('english', p)::text AS q FROM unnest($3::text[]) p) x
                          WHERE q LIKE '%<%') AS phrases)
         SELECT q.all, q.emphasised, q.phrases, c.docs, c.lexemes, d.words, d.counts, nc.name_counts
           FROM q,
                LATERAL (SELECT coalesce(sum(n) FILTER (WHERE kind = 'active'), 0)::bigint AS docs,
                                coalesce(sum(n) FILTER (WHERE kind = 'lexemes'), 0)::bigint AS lexemes
                           FROM memory_counts WHERE tenant_id = $4 AND kind IN ('active', 'lexemes') AND key = '') c,
                LATERAL (SELECT coalesce(array_agg(u.w ORDER BY u.w), '{}') AS words,
                                coalesce(array_agg(s.n ORDER BY u.w), '{}') AS counts
                           FROM unnest(q.all) AS u(w),
                                LATERAL (SELECT sum(m.n)::bigint AS n FROM memory_counts m
                                          WHERE m.tenant_id = $4 AND m.kind = 'term' AND m.key = u.w) s
                          WHERE s.n > 0) d,
                LATERAL (SELECT coalesce(array_agg(coalesce(f.n, 0) ORDER BY u.i), '{}') AS name_counts
                           FROM unnest($5::text[]) WITH ORDINALITY AS u(name, i),
                                LATERAL (SELECT min(s.n)::bigint AS n
                                           FROM unnest(tsvector_to_array(to_tsvector('english', u.name))) AS l(w),
                                                LATERAL (SELECT coalesce(sum(m.n), 0)::bigint AS n FROM memory_counts m
                                                          WHERE m.tenant_id = $4 AND m.kind = 'term' AND m.key = l.w) s
                                        ) f) nc",
    )
    .bind(text)
    .bind(emphasised)
    .bind(phrases)
    .bind(tx.tenant_id())
    .bind(names)
    .fetch_one(tx.conn())
    .await?;
    let docs = u64::try_from(row.docs).unwrap_or(0);
    let avg_len = if docs > 0 { row.lexemes.max(0) as f64 / docs as f64 } else { 0.0 };
    let df: HashMap<String, u64> =
        row.words.into_iter().zip(row.counts).map(|(w, n)| (w, u64::try_from(n).unwrap_or(0))).collect();
    Ok(QueryLexemes {
        all: row.all,
        emphasised: row.emphasised,
        phrases: row.phrases,
        stats: TermStats::new(docs, avg_len, df),
        name_docs: row.name_counts.into_iter().map(|n| u64::try_from(n).unwrap_or(0)).collect(),
    })
}
