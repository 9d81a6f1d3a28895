//! SQL for recall: keyword and vector candidates under the request's filters, then one query that loads
//! the candidates with both signals for each (so fusion never guesses a missing one): measured by the load,
//! or, where a probe measured it already, the probe's figure ([`Known`]).
//!
//! Plans: a statement whose best plan depends on its values (how many memories a word or a filter selects,
//! a LIMIT; every statement under the request's filters) is sent unnamed (`persistent(false)`), which
//! Postgres plans with the values every time: a generic plan chose a sequential scan of the tenant for a
//! keyword search that a custom plan answers from the index (22 ms against 6.5 ms at 10k memories, pipeline
//! bench). The others (lookups by id) are prepared once per connection, and Postgres keeps their generic
//! plan once it costs no more than the custom ones: planning a statement each time was most of what they
//! cost (`chain_heads`: 3.1 ms planned each time, 0.3-0.4 ms on its generic plan, at 100k memories). (sqlx
//! reuses a statement of the same text already prepared on the connection, unnamed or not: so a statement
//! of a filter's shape is sent unnamed wherever it is written, `memories::count_with_tags` too.)

use std::collections::HashMap;

use pgvector::Vector;
use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use super::memories::push_filter;
use super::memories::MEMORY_COLUMNS;
use super::TenantTx;
use crate::error::Error;
use crate::memory::ListFilter;
use crate::memory::Memory;
use crate::recall::bm25::{KeywordQuery, B, K1, MAX_SCORED};

/// Pushes `WITH kq AS MATERIALIZED (...)`: the query's terms, each parsed once per statement with its
/// weight. (Unnested inside the per-row score they were parsed again for every row scored, which was most
/// of a keyword search's time.) The statement's text does not depend on the number of terms, so one
/// prepared statement serves every query.
fn push_terms(qb: &mut QueryBuilder<'_, Postgres>, query: &KeywordQuery) {
    qb.push("WITH kq AS MATERIALIZED (SELECT CAST(q AS tsquery) AS q, idf FROM unnest(CAST(")
        .push_bind(query.terms.clone())
        .push(" AS text[]), CAST(")
        .push_bind(query.idfs.clone())
        .push(" AS float8[])) AS t(q, idf)) ");
}

/// Pushes the BM25 score of the row's `search_tsv` for `query` (0 when nothing matches): each matched
/// term's IDF, term frequency taken as 1, with length normalisation. [`Terms::Table`] needs [`push_terms`]'
/// `kq`.
fn push_keyword_score(qb: &mut QueryBuilder<'_, Postgres>, query: &KeywordQuery, terms: Terms) {
    qb.push("(");
    push_bm25(qb, query, "search_tsv", terms);
    if query.context_weight > 0.0 {
        // The episode context's words count too, at a lower weight. (Tested for NULL first: most memories
        // have no context, and the terms would be matched against it for them anyway.)
        qb.push(" + CASE WHEN context_tsv IS NULL THEN 0 ELSE ").push_bind(query.context_weight).push("::float8 * ");
        push_bm25(qb, query, "context_tsv", terms);
        qb.push(" END");
    }
    qb.push(")::float8");
}

/// How a statement sums the IDFs of the query's terms a row matches.
#[derive(Clone, Copy)]
enum Terms {
    /// From [`push_terms`]' `kq`, one subquery per row: the statement's text is the same for any number of
    /// terms, for statements prepared once per connection (their generic plan would cast a term bound in
    /// the row's expression again for every row).
    Table,
    /// One `CASE` per term, each term bound as a constant of the statement: for statements planned with their
    /// values (`persistent(false)`), where each cast is folded once. Cheaper per row than the subquery
    /// (13.4-14.4 against 16.0-18.2 ms for 4,000 rows, pgbench), which the keyword search scores.
    Inline,
}

/// BM25 of the tsvector column `column` (a fixed name, never input).
fn push_bm25(qb: &mut QueryBuilder<'_, Postgres>, query: &KeywordQuery, column: &'static str, terms: Terms) {
    match terms {
        Terms::Table => {
            qb.push(format_args!("((SELECT coalesce(sum(kq.idf), 0) FROM kq WHERE {column} @@ kq.q)"));
        }
        Terms::Inline => {
            qb.push("((0");
            for (term, idf) in query.terms.iter().zip(&query.idfs) {
                qb.push(format_args!(" + CASE WHEN {column} @@ CAST("))
                    .push_bind(term.clone())
                    .push(" AS tsquery) THEN ")
                    .push_bind(*idf)
                    .push("::float8 ELSE 0 END");
            }
            qb.push(")");
        }
    }
    qb.push(format_args!(" * {k1p1} / ({K1} * (1 - {B} + {B} * length({column}) / ", k1p1 = K1 + 1.0))
        .push_bind(query.avg_len)
        .push("::float8) + 1))");
}

/// `select` (a tsquery of quoted lexemes, `&`, `|` and parentheses, as `recall::bm25` writes it) over the
/// tenant's keys: each lexeme prefixed as `cairn_search_keys` (migration 41) indexes it, with the first 8 hex
/// digits of the tenant id and a colon.
fn keyed(select: &str, tenant_id: Uuid) -> String {
    let key = tenant_id.simple().to_string();
    let mut out = String::with_capacity(select.len() * 2);
    let mut chars = select.chars().peekable();
    let mut inside = false;
    while let Some(c) = chars.next() {
        out.push(c);
        match c {
            // An escaped character inside a lexeme, kept as it is.
            '\\' if inside => out.extend(chars.next()),
            // A doubled quote is a quote of the lexeme; a single one ends it.
            '\'' if inside => match chars.peek() {
                Some('\'') => out.extend(chars.next()),
                _ => inside = false,
            },
            '\'' => {
                inside = true;
                out.push_str(&key[..8]);
                out.push(':');
            }
            _ => {}
        }
    }
    out
}

/// Keyword candidates: memories matching `select` (the query's candidate-selecting tsquery), at most
/// [`MAX_SCORED`] of them scored, best BM25 first.
pub async fn keyword_candidates(
    tx: &mut TenantTx,
    filter: &ListFilter,
    query: &KeywordQuery,
    select: &str,
    limit: i64,
) -> Result<Vec<(Uuid, f64)>, Error> {
    let tenant_id = tx.tenant_id();
    let mut qb = QueryBuilder::new("SELECT id, ");
    push_keyword_score(&mut qb, query, Terms::Inline);
    qb.push(" AS rank FROM (SELECT id, search_tsv, context_tsv FROM memories");
    push_filter(filter, &mut qb, tenant_id);
    // Selected by the tenant's keys (migration 41): the same words, each a posting list of the tenant's own.
    let keys = keyed(select, tenant_id);
    if query.context_weight > 0.0 {
        qb.push(" AND (search_keys @@ CAST(").push_bind(keys.clone()).push(" AS tsquery)");
        qb.push(" OR (context_keys IS NOT NULL AND context_keys @@ CAST(").push_bind(keys).push(" AS tsquery)))");
    } else {
        qb.push(" AND search_keys @@ CAST(").push_bind(keys).push(" AS tsquery)");
    }
    qb.push(" LIMIT ").push_bind(MAX_SCORED).push(") matched");
    qb.push(" ORDER BY rank DESC, id LIMIT ").push_bind(limit);
    Ok(qb.build_query_as().persistent(false).fetch_all(tx.conn()).await?)
}

/// A vector candidate: its cosine by the vectors that found it (the better of the two where both did), and
/// which of them found it, so that loading it need not compute those distances again ([`Known`]).
#[derive(Debug, Clone, Copy, sqlx::FromRow)]
pub struct VectorHit {
    pub id: Uuid,
    pub cosine: f64,
    /// Found by the memory's own vector.
    pub own: bool,
    /// Found by its episode context's vector.
    pub context: bool,
}

/// Vector candidates: nearest by cosine distance. The tenant filter is explicit and the HNSW scan is
/// iterative (`relaxed_order`, then re-sorted), so filters never make it return fewer rows than exist.
pub async fn vector_candidates(
    tx: &mut TenantTx,
    filter: &ListFilter,
    query: &Vector,
    limit: i64,
    with_context: bool,
) -> Result<Vec<VectorHit>, Error> {
    let tenant_id = tx.tenant_id();
    tx.hnsw_search(limit.clamp(40, 1000) as u64).await?;
    // Nearest by each vector (a memory's own, and its episode context's), the better of the two per memory.
    let mut qb = QueryBuilder::new("WITH own AS MATERIALIZED (SELECT id, embedding <=> ");
    qb.push_bind(query.clone()).push(" AS distance FROM memories");
    push_filter(filter, &mut qb, tenant_id);
    qb.push(" AND embedding IS NOT NULL ORDER BY embedding <=> ").push_bind(query.clone());
    qb.push(" LIMIT ").push_bind(limit);
    qb.push("), ctx AS MATERIALIZED (SELECT id, context_embedding <=> ").push_bind(query.clone());
    qb.push(" AS distance FROM memories");
    push_filter(filter, &mut qb, tenant_id);
    // Only for a tenant that has context vectors at all (a one-time check on a small partial index), so a
    // tenant without episodes never walks the shared context index.
    qb.push(" AND ").push_bind(with_context);
    qb.push(" AND EXISTS (SELECT 1 FROM memories e WHERE e.tenant_id = ").push_bind(tenant_id);
    qb.push(" AND e.context_embedding IS NOT NULL)");
    qb.push(" AND context_embedding IS NOT NULL AND embedding IS NOT NULL ORDER BY context_embedding <=> ");
    qb.push_bind(query.clone());
    qb.push(" LIMIT ").push_bind(limit);
    qb.push(
        "), best AS (SELECT id, min(distance) AS distance, bool_or(own) AS own, bool_or(NOT own) AS context \
           FROM (SELECT id, distance, true AS own FROM own UNION ALL SELECT id, distance, false FROM ctx) b GROUP BY id)",
    );
    qb.push(" SELECT id, (1 - distance)::float8 AS cosine, own, context FROM best ORDER BY distance, id LIMIT ");
    qb.push_bind(limit);
    Ok(qb.build_query_as().persistent(false).fetch_all(tx.conn()).await?)
}

/// A place in an episode whose neighbours recall wants, and how many places either side they may sit.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub episode: String,
    pub sequence: i32,
    pub reach: i32,
}

/// Memories at most its reach from one of `places` (episode, sequence number) in its episode, under the
/// request's filters, other than `present` (at most 200, the nearest first): the episode neighbours of the best results, which
/// join recall's candidate pool.
pub async fn episode_neighbours(
    tx: &mut TenantTx,
    filter: &ListFilter,
    places: &[Place],
    present: &[Uuid],
) -> Result<Vec<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    let episodes: Vec<&str> = places.iter().map(|p| p.episode.as_str()).collect();
    let sequences: Vec<i32> = places.iter().map(|p| p.sequence).collect();
    let reaches: Vec<i32> = places.iter().map(|p| p.reach).collect();
    // In int8: a place near the largest sequence number plus its reach does not overflow.
    let mut qb = QueryBuilder::new("SELECT id FROM memories JOIN unnest(");
    qb.push_bind(episodes).push("::text[], ").push_bind(sequences).push("::int8[], ").push_bind(reaches);
    qb.push("::int8[]) AS p(episode, place, reach)");
    qb.push(" ON episode_id = p.episode AND sequence_number BETWEEN p.place - p.reach AND p.place + p.reach");
    push_filter(filter, &mut qb, tenant_id);
    // The nearest first, when more than 200 are that near.
    qb.push(" AND NOT (id = ANY(").push_bind(present.to_vec());
    qb.push(")) GROUP BY id ORDER BY min(abs(sequence_number - p.place)), id LIMIT 200");
    Ok(qb.build_query_scalar().persistent(false).fetch_all(tx.conn()).await?)
}

/// A candidate with its signals.
#[derive(Debug, sqlx::FromRow)]
pub struct Candidate {
    #[sqlx(flatten)]
    pub memory: Memory,
    pub cosine: Option<f64>,
    /// The cosine of its best run of sentences, where it has two or more.
    pub sentence: Option<f64>,
    pub keyword: Option<f64>,
}

/// What recall's probes already computed for some candidates, which loading them need not compute again: each
/// vector of a candidate is measured once, by the probe that found it or else by the load. (A vector is stored
/// out of line: loading 100 memories with their distances took 3.3 ms against 1.4 without them in `psql` at 100k
/// memories, cold; in recall the probe has just read those vectors, and the gain is smaller, README.)
#[derive(Debug, Default)]
pub struct Known {
    /// The vector probe's hits: each one's cosine and which of its vectors were measured.
    pub vectors: HashMap<Uuid, VectorHit>,
    /// Memories whose BM25 a probe computed, and it.
    pub keywords: HashMap<Uuid, f64>,
}

/// [`load_candidates`]' per-memory flags: what the load measures.
const MEASURE_OWN: i32 = 1;
const MEASURE_CONTEXT: i32 = 2;
const MEASURE_KEYWORD: i32 = 4;

impl Known {
    /// From the probes' hits (cosines and BM25 as the probes computed them).
    pub fn from_hits(vector: &[VectorHit], keyword: &[(Uuid, f64)]) -> Self {
        Self { vectors: vector.iter().map(|h| (h.id, *h)).collect(), keywords: keyword.iter().copied().collect() }
    }

    /// What loading `id` has to measure ([`MEASURE_OWN`] and the others).
    fn to_measure(&self, id: &Uuid) -> i32 {
        let (own, context) = self.vectors.get(id).map_or((false, false), |h| (h.own, h.context));
        let keyword = self.keywords.contains_key(id);
        let unless = |measured: bool, flag: i32| if measured { 0 } else { flag };
        unless(own, MEASURE_OWN) | unless(context, MEASURE_CONTEXT) | unless(keyword, MEASURE_KEYWORD)
    }

    /// A loaded candidate's signals completed with what the probes knew: its cosine is the better of the
    /// loaded one (the vectors no probe measured) and the probe's, its BM25 the probe's where loading left it out.
    fn merge(&self, candidate: &mut Candidate) {
        let id = candidate.memory.id;
        if let Some(hit) = self.vectors.get(&id) {
            candidate.cosine = Some(candidate.cosine.map_or(hit.cosine, |c| c.max(hit.cosine)));
        }
        if let Some(known) = self.keywords.get(&id) {
            candidate.keyword = Some(*known);
        }
    }
}

/// Loads the candidates with both signals: the cosine (the better of the memory's own vector and its episode
/// context's) and BM25, each measured here unless `known` holds it; and, with `sentences`, the cosine of its
/// best run of sentences. Each memory's flags (what to measure) are
/// joined by position, not looked up in an array per row: a generic plan searches a parameter array linearly.
pub async fn load_candidates(
    tx: &mut TenantTx,
    ids: &[Uuid],
    query: Option<&Vector>,
    keywords: Option<&KeywordQuery>,
    with_context: bool,
    sentences: bool,
    known: &Known,
) -> Result<Vec<Candidate>, Error> {
    let tenant_id = tx.tenant_id();
    let flags: Vec<i32> = ids.iter().map(|id| known.to_measure(id)).collect();
    let mut qb = QueryBuilder::new("");
    if let Some(k) = keywords {
        push_terms(&mut qb, k);
    }
    qb.push(format!("SELECT {MEMORY_COLUMNS}, "));
    // least() passes over NULLs: NULL when the probes measured every vector.
    let own = format!("CASE WHEN k.measure & {MEASURE_OWN} <> 0 THEN embedding <=> ");
    let context = format!("CASE WHEN k.measure & {MEASURE_CONTEXT} <> 0 THEN context_embedding <=> ");
    match (query, with_context) {
        (Some(v), true) => qb
            .push(format!("CASE WHEN embedding IS NULL THEN NULL ELSE (1 - least({own}"))
            .push_bind(v.clone())
            .push(format!(" END, {context}"))
            .push_bind(v.clone())
            .push(" END))::float8 END"),
        (Some(v), false) => qb
            .push(format!("CASE WHEN embedding IS NULL THEN NULL ELSE (1 - {own}"))
            .push_bind(v.clone())
            .push(" END)::float8 END"),
        (None, _) => qb.push("NULL::float8"),
    };
    qb.push(" AS cosine, ");
    // The best of its runs of sentences (`recall::sentences`), where it has them and they count: no probe
    // measures these.
    match query.filter(|_| sentences) {
        Some(v) => qb
            .push("CASE WHEN sentence_embeddings IS NULL THEN NULL ELSE (SELECT (1 - min(r <=> ")
            .push_bind(v.clone())
            .push("))::float8 FROM unnest(sentence_embeddings) AS r) END"),
        None => qb.push("NULL::float8"),
    };
    qb.push(" AS sentence, ");
    match keywords {
        Some(k) => {
            qb.push(format!("CASE WHEN k.measure & {MEASURE_KEYWORD} <> 0 THEN "));
            push_keyword_score(&mut qb, k, Terms::Table);
            qb.push(" END");
        }
        None => {
            qb.push("NULL::float8");
        }
    }
    // Each memory looked up by its id (a `LIMIT 1` subquery the planner cannot turn into a join): with no
    // statistics of the tenant's memories (stored since the last `ANALYZE`) a join read the tenant's memories
    // through another index and filtered them by the ids, on every recall.
    qb.push(" AS keyword FROM unnest(").push_bind(ids.to_vec());
    qb.push("::uuid[], ").push_bind(flags).push("::int[]) AS k(kid, measure)");
    qb.push(" CROSS JOIN LATERAL (SELECT * FROM memories WHERE tenant_id = ").push_bind(tenant_id);
    qb.push(" AND id = k.kid LIMIT 1) AS memories");
    let mut loaded: Vec<Candidate> = qb.build_query_as().fetch_all(tx.conn()).await?;
    for candidate in &mut loaded {
        known.merge(candidate);
    }
    Ok(loaded)
}

/// Without a query: memories under the filters in the requested order.
pub async fn filtered(tx: &mut TenantTx, filter: &ListFilter, order: &str, limit: i64) -> Result<Vec<Memory>, Error> {
    let tenant_id = tx.tenant_id();
    let mut qb = QueryBuilder::new(format!("SELECT {MEMORY_COLUMNS} FROM memories"));
    push_filter(filter, &mut qb, tenant_id);
    qb.push(format_args!(" ORDER BY {order} LIMIT ")).push_bind(limit);
    Ok(qb.build_query_as().persistent(false).fetch_all(tx.conn()).await?)
}

/// Which of these memories pass the filters.
pub async fn matching(
    tx: &mut TenantTx,
    filter: &ListFilter,
    ids: &[Uuid],
) -> Result<std::collections::HashSet<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    let mut qb = QueryBuilder::new("SELECT id FROM memories");
    push_filter(filter, &mut qb, tenant_id);
    qb.push(" AND id = ANY(").push_bind(ids.to_vec()).push(")");
    let found: Vec<Uuid> = qb.build_query_scalar().persistent(false).fetch_all(tx.conn()).await?;
    Ok(found.into_iter().collect())
}

/// Adds `counts[i]` accesses to memory `ids[i]`, last at `lasts[i]` (the coalesced recall accesses of one
/// flush, `service::access`), in one statement; returns the ids counted. Rows another transaction holds
/// are skipped, not waited for: the flusher tries them again at its next round. (Waiting queued bumps behind
/// each other until they ran into the statement timeout, seen in the LoCoMo evaluation.) FOR NO KEY UPDATE,
/// the lock the UPDATE takes anyway: it does not conflict with the key-share locks of foreign-key checks.
pub async fn count_accesses(
    tx: &mut TenantTx,
    ids: &[Uuid],
    counts: &[i32],
    lasts: &[chrono::DateTime<chrono::Utc>],
) -> Result<Vec<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_scalar(
        "UPDATE memories m
            SET access_count = m.access_count + d.n,
                last_accessed_at = greatest(m.last_accessed_at, d.at)
           FROM unnest($2::uuid[], $3::int[], $4::timestamptz[]) AS d(id, n, at)
          WHERE m.tenant_id = $1 AND m.id = d.id
            AND m.id IN (SELECT id FROM memories WHERE tenant_id = $1 AND id = ANY($2) FOR NO KEY UPDATE SKIP LOCKED)
         RETURNING m.id",
    )
    .bind(tenant_id)
    .bind(ids)
    .bind(counts)
    .bind(lasts)
    .fetch_all(tx.conn())
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selection_is_keyed_by_the_tenant_lexeme_by_lexeme() {
        let tenant: Uuid = "1a2b3c4d-0000-4000-8000-000000000000".parse().unwrap();
        assert_eq!(keyed("'alic' & 'bill'", tenant), "'1a2b3c4d:alic' & '1a2b3c4d:bill'");
        assert_eq!(
            keyed("('a' & 'b') | ('a' & 'c') | 'd'", tenant),
            "('1a2b3c4d:a' & '1a2b3c4d:b') | ('1a2b3c4d:a' & '1a2b3c4d:c') | '1a2b3c4d:d'"
        );
        // Quotes and backslashes inside a lexeme (as `bm25::quote` escapes them) stay part of it.
        assert_eq!(keyed(r"'o''neil' | 'a\'b'", tenant), r"'1a2b3c4d:o''neil' | '1a2b3c4d:a\'b'");
        assert_eq!(keyed("'it''' & 'x'", tenant), "'1a2b3c4d:it''' & '1a2b3c4d:x'");
    }
}
