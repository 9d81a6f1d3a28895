//! Recall in every form: one query ([`recall`]), several merged ([`recall_many`], AutoMem's), grouped by
//! entity ([`recall_grouped`], textrawl's), and proactive context ([`context`], SHODH's). Each reads one
//! consistent snapshot of the tenant (a read-only, repeatable-read transaction); accesses are counted
//! after the answer, in the background, for the memories returned.
//!
//! The pipeline: vector candidates (pgvector, cosine) and keyword candidates (BM25) under the filters,
//! loaded with both signals, fused and scored (`recall::score`); associative mode spreads activation
//! along associations; superseded memories give their place to the head of their chain; expansions add
//! associated memories or memories sharing an entity.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use pgvector::Vector;
use uuid::Uuid;

use super::usage;
use super::Services;
use crate::auth::{Scope, Tenant};
use crate::config::Fusion;
use crate::error::{Error, Result};
use crate::memory::{ListFilter, Memory};
use crate::models::embed::SlotState;
use crate::recall::bm25::KeywordQuery;
use crate::recall::results::{self, current_state, sort_hits};
use crate::recall::score::{self, ScoreOptions, Signals};
use crate::recall::{Mode, MultiRequest, RecallHit, RecallRequest, RecallResponse, Sort};
use crate::store::{recall as sql, relations, terms, TenantTx};

mod graph;
mod variants;

use self::graph::{chain_heads, expand, restrict_to_neighbours, spread};
pub use self::variants::{context, recall_grouped, summarize_hits, Grouped, Surfaced};

/// Activation decays by this factor per hop.
const HOP_DECAY: f64 = 0.6;
/// Semantic hits that seed spreading activation.
const SEEDS: usize = 10;
/// Hops activation spreads.
const HOPS: usize = 2;
/// Hebbian learning rate: results returned together strengthen their edge by `rate * (1 - strength)`.
pub const HEBBIAN_RATE: f64 = 0.1;
/// Strength given to an entity expansion (a shared mention is a weaker tie than an authored association).
pub const SHARED_ENTITY_STRENGTH: f32 = 0.5;

/// Times one stage of the recall pipeline: a tracing span (`recall_stage`, field `stage`) around it, and its
/// duration in the `cairn_recall_stage_seconds{stage}` histogram of `/metrics` (the pipeline bench prints
/// the mean of each).
async fn stage<T>(name: &'static str, work: impl std::future::Future<Output = T>) -> T {
    use tracing::Instrument;
    let started = std::time::Instant::now();
    let out = work.instrument(tracing::debug_span!("recall_stage", stage = name)).await;
    record_stage(name, started);
    out
}

fn record_stage(name: &'static str, started: std::time::Instant) {
    metrics::histogram!("cairn_recall_stage_seconds", "stage" => name).record(started.elapsed().as_secs_f64());
}

/// Fewest candidates each signal (vector, keyword) brings. A larger pool finds a little more (LoCoMo dev file,
/// asking 10 results: recall@10 0.777 with 50 candidates, held out 0.749; 0.784 / 0.756 with 200; asking 100
/// results, 400 candidates, 0.787 / 0.763) but costs more than it finds: with 200, hybrid recall at 100k
/// memories took 29.1 ms p50 instead of 21.3 (the vector probe 2.7 -> 6.8 ms, loading 1.7 -> 4.4 ms).
const MIN_POOL: i64 = 50;
/// Most candidates each signal brings.
const MAX_POOL: i64 = 400;
/// Best results whose episode neighbours join the candidate pool (the page asked for, at most this many).
const NEIGHBOURS_OF: i64 = 20;

/// Runs one recall, and counts an access of each memory returned. With a reranker, at least its `top_n`
/// fused results are fetched, reranked, and then cut to the page asked for.
pub async fn recall(svc: &Services, t: &Tenant, req: RecallRequest) -> Result<RecallResponse> {
    // A page past the reranked head is the fused order's: no reranker call.
    let rerank = svc
        .reranker
        .as_ref()
        .filter(|r| req.query.is_some() && req.sort == crate::recall::Sort::Score && (req.offset as usize) < r.top_n());
    let asked = (req.offset, req.limit);
    let req = match rerank {
        Some(r) => RecallRequest { offset: 0, limit: (asked.0 + asked.1).max(r.top_n() as i64), ..req },
        None => req,
    };
    let (tx, mut answers) = in_snapshot(svc, t, std::slice::from_ref(&req)).await?;
    stage("commit", tx.commit()).await?;
    let mut answer = answers.pop().ok_or_else(|| Error::internal("a recall without an answer"))?;
    if let (Some(reranker), Some(query)) = (rerank, req.query.as_deref()) {
        stage("rerank", rerank_results(reranker, query, &mut answer)).await;
        let (offset, limit) = (asked.0.max(0) as usize, asked.1.max(0) as usize);
        answer.has_more = answer.has_more || answer.results.len() > offset + limit;
        answer.results = answer.results.into_iter().skip(offset).take(limit).collect();
        // Expansions of results that are not on the page go too.
        let page: HashSet<Uuid> = answer.results.iter().map(|h| h.memory.id).collect();
        if let Some(expansions) = answer.expansions.as_mut() {
            expansions.retain(|e| page.contains(&e.expanded_from));
        }
    }
    let hebbian = answer.mode == "associative" && strengthens(svc, t).await;
    count_access(svc, t.id, ids(&answer.results), hebbian);
    Ok(answer)
}

/// Answers each request on one snapshot without counting accesses or strengthening anything (a tenant's
/// quality report, `service::eval`), and without the rerank stage.
pub(crate) async fn answers_uncounted(
    svc: &Services,
    t: &Tenant,
    requests: &[RecallRequest],
) -> Result<Vec<RecallResponse>> {
    let (tx, answers) = in_snapshot(svc, t, requests).await?;
    tx.commit().await?;
    Ok(answers)
}

/// Reorders the first `top_n` results by the reranker's relevance (each result's other figures unchanged;
/// `score_components.rerank` says what it gave). On any failure the fused order stands, with a notice.
async fn rerank_results(reranker: &crate::models::rerank::Reranker, query: &str, answer: &mut RecallResponse) {
    let n = reranker.top_n().min(answer.results.len());
    if n < 2 {
        return;
    }
    let documents: Vec<&str> = answer.results[..n].iter().map(|h| h.memory.content.as_str()).collect();
    match reranker.scores(query, &documents).await {
        Ok(scores) => {
            let mut head: Vec<(Option<f64>, RecallHit)> = scores.into_iter().zip(answer.results.drain(..n)).collect();
            // Scored before unscored; stable, so ties keep the fused order.
            head.sort_by(|a, b| match (a.0, b.0) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            let reranked: Vec<RecallHit> = head
                .into_iter()
                .map(|(score, mut hit)| {
                    hit.score_components.rerank = score;
                    hit
                })
                .collect();
            answer.results.splice(0..0, reranked);
        }
        Err(err) => {
            tracing::warn!(error = format!("{err:#}"), "the reranker failed; keeping the fused order");
            let notice = "the reranker was unavailable; results are in fused order";
            answer.notice = Some(match answer.notice.take() {
                Some(earlier) => format!("{earlier}; {notice}"),
                None => notice.to_owned(),
            });
        }
    }
}

/// Runs each query of a multi-query recall on one snapshot and merges the answers (each memory once, at
/// its best score; `context_tags` lift, `min_score` cuts). Accesses are counted once per memory returned.
pub async fn recall_many(svc: &Services, t: &Tenant, req: MultiRequest) -> Result<RecallResponse> {
    let (tx, answers) = in_snapshot(svc, t, &req.runs).await?;
    tx.commit().await?;
    let merged = results::merge(&req, answers);
    let hebbian = merged.mode == "associative" && strengthens(svc, t).await;
    count_access(svc, t.id, ids(&merged.results), hebbian);
    Ok(merged)
}

fn ids(hits: &[RecallHit]) -> Vec<Uuid> {
    hits.iter().map(|h| h.memory.id).collect()
}

/// Runs `requests` on one read-only snapshot of the tenant, and hands it back open for further reads.
async fn in_snapshot(
    svc: &Services,
    t: &Tenant,
    requests: &[RecallRequest],
) -> Result<(TenantTx, Vec<RecallResponse>)> {
    t.require(Scope::Read)?;
    // A scoped key's filters narrowed to its end user or agent, where it has one.
    let requests: Cow<'_, [RecallRequest]> = match &t.scope {
        Some(scope) => Cow::Owned(
            requests
                .iter()
                .map(|req| {
                    let mut req = req.clone();
                    scope.narrow(&mut req.filter.user_id, &mut req.filter.agent_id);
                    req
                })
                .collect(),
        ),
        None => Cow::Borrowed(requests),
    };
    let acting: usage::Acting = requests
        .iter()
        .flat_map(|r| usage::acting_for(r.filter.user_id.as_deref(), r.filter.agent_id.as_deref(), None))
        .collect();
    usage::end_user_call(svc, t, &acting, Some(usage::counter::RECALLS))?;
    svc.usage.add(t.id, usage::counter::RECALLS, 1);
    let mut tx = stage("begin", svc.db.begin_read(t, t.read_after)).await?;
    let mut answers = Vec::with_capacity(requests.len());
    for req in requests.iter() {
        answers.push(run(svc, &mut tx, req).await?);
    }
    Ok((tx, answers))
}

/// Which signals a request can use, given the embedder's state: (semantic, keyword, notice). Hybrid and
/// keyword recall always use keywords.
fn plan(mode: Mode, svc: &Services) -> Result<(bool, bool, Option<String>)> {
    let slot = &svc.embedder;
    let ready = slot.get().is_some();
    let why = match slot.state() {
        SlotState::Disabled => "no embedding model is configured (CAIRN_EMBEDDER=none)",
        SlotState::Loading => "the embedding model is still loading",
        _ => "the embedding model is unavailable",
    };
    match (mode, ready) {
        (Mode::Keyword, _) => Ok((false, true, None)),
        (Mode::Semantic | Mode::Associative, true) => Ok((true, false, None)),
        (Mode::Hybrid, true) => Ok((true, true, None)),
        (Mode::Semantic | Mode::Associative, false) if slot.state() == SlotState::Disabled => {
            Err(Error::invalid(format!("mode: semantic and associative recall need an embedder: {why}")))
        }
        (Mode::Semantic | Mode::Associative, false) => {
            Err(Error::Unavailable(format!("{why}; retry shortly or use mode=keyword")))
        }
        (Mode::Hybrid, false) => Ok((false, true, Some(format!("{why}: keyword results only")))),
    }
}

async fn embed_query(svc: &Services, tenant_id: Uuid, query: &str) -> Result<Vector> {
    let embedder = svc.embedder.get().ok_or_else(|| Error::Unavailable("the embedding model is unavailable".into()))?;
    // Repeated questions (an agent asking again) skip the model. Per tenant: a shared entry would let one tenant
    // time whether another asked the same question.
    let key = (tenant_id, embedder.model().to_owned(), query.to_owned());
    if let Some(vector) = svc.query_vectors.get(&key) {
        return Ok(Vector::from(vector.as_ref().clone()));
    }
    let texts = [query.to_owned()];
    let mut vectors = embedder.embed(&texts).await.map_err(|e| {
        tracing::error!(error = format!("{e:#}"), "embedding the query failed");
        Error::Unavailable("embedding the query failed; retry later".into())
    })?;
    let vector = vectors.pop().ok_or_else(|| Error::internal("embedder returned no vector"))?;
    svc.query_vectors.insert(key, std::sync::Arc::new(vector.clone()));
    Ok(Vector::from(vector))
}

/// The query's vector when it names someone ([`crate::recall::query::common_names`]): a name in a fifth or more
/// of the tenant's memories (a speaker's, whose every line opens with it) weighs in a short question's vector as
/// much as what is asked about it, and ranks that person's every line alike. Such names are left out of a second
/// vector of the question, mixed with the question as asked (`CAIRN_NAMELESS_SHARE` of the way, half by default);
/// the keyword side, the speaker rule and the other half keep the names. The names' counts come from the keyword
/// side's first statement (`common`), while the question as asked is embedded, so the `embed` stage also waits for
/// that statement (a question asked again, its vector cached, waits for it alone). A question whose names are all
/// rare, or that is only stop words without them ("Who is Caroline?"), is embedded once, as before; a second
/// embedding that fails leaves the question as asked.
async fn embed_naming(
    svc: &Services,
    tenant_id: Uuid,
    query: &str,
    common: tokio::sync::oneshot::Receiver<Vec<String>>,
) -> Result<Vector> {
    // The second text goes to the model as soon as the counts say so, beside the first (each on a thread of its
    // own), not after it.
    let without = async {
        let common = common.await.unwrap_or_default();
        let text = (!common.is_empty()).then(|| crate::recall::query::without_names(query, &common)).flatten()?;
        match embed_query(svc, tenant_id, &text).await {
            Ok(vector) => Some(vector),
            Err(err) => {
                tracing::warn!(error = %err, "embedding the question without its common names failed; recall uses the question as asked");
                None
            }
        }
    };
    let (asked, without) = tokio::join!(embed_query(svc, tenant_id, query), without);
    let asked = asked?;
    let Some(without) = without else { return Ok(asked) };
    let share = svc.config.nameless_share as f32;
    Ok(Vector::from(crate::recall::query::mix(asked.as_slice(), without.as_slice(), share)))
}

/// Share of the requested tags a memory carries.
fn tag_match(memory: &Memory, filter: &ListFilter) -> Option<f64> {
    if filter.tags.is_empty() {
        return None;
    }
    let pool = if filter.tags_prefix { &memory.tag_prefixes } else { &memory.tags };
    // Linear: the memory's tags (at most 64, or 512 prefixes) looked up among the requested ones.
    let pool: std::collections::HashSet<&str> = pool.iter().map(String::as_str).collect();
    let hits = filter.tags.iter().filter(|t| pool.contains(t.as_str())).count();
    Some(hits as f64 / filter.tags.len() as f64)
}

/// A loaded candidate's cosines put on the scale the weights were chosen on.
fn on_reference_scale(c: &mut sql::Candidate, scale: &crate::models::embed::calibrate::Calibration) {
    c.cosine = c.cosine.map(|v| scale.to_reference(v));
    c.sentence = c.sentence.map(|v| scale.to_reference(v));
}

fn signals(memory: &Memory, filter: &ListFilter) -> Signals {
    Signals {
        importance: f64::from(memory.importance),
        confidence: f64::from(memory.confidence),
        credibility: f64::from(memory.credibility),
        quality: memory.quality_score.map(f64::from),
        created_at: Some(memory.created_at),
        tag_match: tag_match(memory, filter),
        ..Signals::default()
    }
}

/// The pipeline, inside the caller's snapshot. Counts nothing.
async fn run(svc: &Services, tx: &mut TenantTx, req: &RecallRequest) -> Result<RecallResponse> {
    let now = Utc::now();
    let filter = restrict_to_neighbours(tx, req).await?;
    let Some(query) = req.query.clone() else {
        return run_without_query(tx, req, &filter, now).await;
    };
    let (use_semantic, use_keyword, notice) = plan(req.mode, svc)?;
    let pool_size = ((req.offset + req.limit) * 4).clamp(MIN_POOL, MAX_POOL);

    // The query's embedding (CPU) and the keyword search (database) do not depend on each other: run
    // them at once. In hybrid recall, when the embedding is ready while the keyword search still runs (a
    // vector asked before, or a large tenant), the vector probe runs beside it too, in a second transaction on
    // this one's snapshot (`Db::share_snapshot`: with `CAIRN_DB_SHARE_SNAPSHOTS`, where the pool has
    // connections idle); else after it, here.
    let tenant_id = tx.tenant_id();
    let share = use_semantic && use_keyword && svc.db.shares_snapshots();
    let (snapshot_shared, shared_snapshot) = tokio::sync::oneshot::channel::<Option<crate::store::SharedSnapshot>>();
    let keywords_done = std::sync::atomic::AtomicBool::new(false);
    // The question's names that are common in the tenant, from the keyword side to the embedding.
    let (common_found, common) = tokio::sync::oneshot::channel::<Vec<String>>();
    let embedding = async {
        if !use_semantic {
            return Ok((None, None));
        }
        let vector = match use_keyword && !req.hints.names.is_empty() && svc.config.nameless_share > 0.0 {
            true => stage("embed", embed_naming(svc, tenant_id, &query, common)).await?,
            false => stage("embed", embed_query(svc, tenant_id, &query)).await?,
        };
        if !share || keywords_done.load(std::sync::atomic::Ordering::Acquire) {
            return Ok((Some(vector), None));
        }
        let Ok(Some(shared)) = shared_snapshot.await else {
            return Ok((Some(vector), None));
        };
        let side = match stage("share_open", shared.open()).await {
            Ok(side) => side,
            Err(err) => {
                tracing::warn!(error = %err, "could not share recall's snapshot; probing vectors after keywords");
                None
            }
        };
        let Some(mut side) = side else {
            return Ok((Some(vector), None));
        };
        let probe = sql::vector_candidates(&mut side, &filter, &vector, pool_size, svc.config.episode_context);
        let hits = stage("vector", probe).await?;
        // Its rollback goes with the connection back to the pool, off this request's path.
        drop(side);
        Ok::<_, Error>((Some(vector), Some(hits)))
    };
    let keywords = async {
        if share {
            let shared = stage("share", svc.db.share_snapshot(tx)).await?;
            let _ = snapshot_shared.send(shared);
        }
        let found = keyword_search(svc, tx, req, &query, &filter, use_keyword, pool_size, common_found).await;
        keywords_done.store(true, std::sync::atomic::Ordering::Release);
        found
    };
    let ((vector, probed), (keyword_query, keyword_hits)) = tokio::try_join!(embedding, keywords)?;
    let notice = match (&keyword_query, use_semantic, use_keyword) {
        (None, false, true) => Some(notice.map_or_else(
            || match svc.embedder.state() {
                SlotState::Disabled => "the query has only common words (stop words), which keyword search ignores".to_owned(),
                _ => "the query has only common words (stop words) that keyword search ignores: use mode=hybrid or semantic"
                    .to_owned(),
            },
            |n| format!("{n}; the query has only common words (stop words), which keyword search ignores"),
        )),
        _ => notice,
    };

    // Cosines on the scale the weights were chosen on, whatever the model (`models::embed::calibrate`).
    let scale = match &vector {
        Some(_) => svc.embedder.calibration().await,
        None => Default::default(),
    };
    let vector_probe = match (&vector, probed) {
        (_, Some(hits)) => hits,
        (Some(v), None) => {
            stage("vector", sql::vector_candidates(tx, &filter, v, pool_size, svc.config.episode_context)).await?
        }
        (None, None) => Vec::new(),
    };
    let vector_hits: Vec<(Uuid, f64)> = vector_probe.iter().map(|h| (h.id, scale.to_reference(h.cosine))).collect();
    let activation = match req.mode {
        Mode::Associative => spread(tx, &vector_hits, filter.include_archived).await?,
        _ => HashMap::new(),
    };
    let mut ranks: HashMap<Uuid, (Option<usize>, Option<usize>)> = HashMap::new();
    for (rank, (id, _)) in vector_hits.iter().enumerate() {
        ranks.entry(*id).or_default().0 = Some(rank + 1);
    }
    for (rank, (id, _)) in keyword_hits.iter().enumerate() {
        ranks.entry(*id).or_default().1 = Some(rank + 1);
    }
    let ids: Vec<Uuid> = ranks.keys().chain(activation.keys()).copied().collect::<HashSet<_>>().into_iter().collect();
    // What the probes measured is not measured again (`sql::Known`); cosines are put on the reference scale
    // once merged (an increasing map: the better cosine stays the better).
    let known = sql::Known::from_hits(&vector_probe, &keyword_hits);
    // A memory's runs of sentences are read only where they count.
    let sentences = svc.config.sentence_share > 0.0;
    let load = sql::load_candidates(
        tx,
        &ids,
        vector.as_ref(),
        keyword_query.as_ref(),
        svc.config.episode_context,
        sentences,
        &known,
    );
    let mut candidates = stage("load", load).await?;
    for c in &mut candidates {
        on_reference_scale(c, &scale);
    }
    let scoring = std::time::Instant::now();
    let best_keyword = candidates.iter().filter_map(|c| c.keyword).fold(0.0_f64, f64::max);
    let fusion = svc.config.recall_fusion;
    let opts = ScoreOptions {
        fusion,
        has_query: true,
        use_semantic,
        use_keyword,
        quality_weight: req.quality_weight,
        sentence_share: svc.config.sentence_share,
        now,
    };
    // Reciprocal-rank fusion ranks each signal among the pool as it is scored (the runs of sentences included).
    let pool_ranks = (fusion == Fusion::Rrf && use_semantic && use_keyword).then(|| {
        score::PoolRanks::new(
            candidates
                .iter()
                .map(|c| (c.cosine.map(|v| score::semantic(v, c.sentence, opts.sentence_share)), c.keyword)),
        )
    });
    let score_one = |c: sql::Candidate| {
        let (found_by_vector, found_by_keyword) = ranks.get(&c.memory.id).copied().unwrap_or_default();
        // Its similarity (with its best run of sentences): its place by meaning under reciprocal-rank fusion, and
        // in associative recall what its activation must beat to be its relevance instead.
        let similarity = c.cosine.map(|v| score::semantic(v, c.sentence, opts.sentence_share));
        let (vector_rank, keyword_rank) = match &pool_ranks {
            Some(pool) => (pool.semantic(similarity), pool.keyword(c.keyword)),
            None => (found_by_vector, found_by_keyword),
        };
        let s = Signals {
            cosine: c.cosine,
            sentence: c.sentence,
            vector_rank,
            keyword: c.keyword.filter(|k| *k > 0.0),
            keyword_rank,
            time_match: req.hints.time_match(c.memory.created_at, &c.memory.content),
            coverage: use_keyword.then(|| req.hints.coverage(&c.memory.content)).flatten(),
            ..signals(&c.memory, &filter)
        };
        let spread_to = activation.get(&c.memory.id).copied().filter(|a| *a > similarity.unwrap_or(0.0));
        let s = match spread_to {
            Some(activation) => Signals { cosine: Some(activation), sentence: None, ..s },
            None => s,
        };
        let (value, mut components) = score::score(&s, best_keyword, &opts);
        if spread_to.is_some() {
            components.semantic = similarity.map(|v| v.clamp(0.0, 1.0));
            components.sentence = c.sentence.map(|v| v.clamp(0.0, 1.0));
        }
        let match_type = match (found_by_vector.is_some(), found_by_keyword.is_some()) {
            _ if spread_to.is_some() => "associative",
            (true, true) => "hybrid",
            (false, true) => "keyword",
            (true, false) => "semantic",
            // An episode neighbour of a result (below): found by the request's mode.
            (false, false) if use_semantic && use_keyword => "hybrid",
            (false, false) if use_semantic => "semantic",
            (false, false) => "keyword",
        };
        RecallHit { memory: c.memory, score: value, match_type, score_components: components, replaces: None }
    };
    let mut hits: Vec<RecallHit> = candidates.into_iter().map(&score_one).collect();
    let mut scored_for = scoring.elapsed();
    // The episode neighbours of the best results join the pool: the neighbour lift can only lift from a
    // neighbour that is present, and an answer often sits next to the turn that matches the question.
    // Hybrid only (the default): a keyword or semantic recall returns what its one signal found.
    if svc.config.episode_context && req.sort == Sort::Score && req.mode == Mode::Hybrid {
        let wanted = (req.offset + req.limit).clamp(1, NEIGHBOURS_OF) as usize;
        let places = best_places(&hits, wanted, svc.config.neighbour_words);
        if !places.is_empty() {
            let present: Vec<Uuid> = hits.iter().map(|h| h.memory.id).collect();
            let found = sql::episode_neighbours(tx, &filter, &places, &present);
            let extra_ids = stage("neighbours", found).await?;
            if !extra_ids.is_empty() {
                let nothing_known = sql::Known::default();
                let load = sql::load_candidates(
                    tx,
                    &extra_ids,
                    vector.as_ref(),
                    keyword_query.as_ref(),
                    svc.config.episode_context,
                    sentences,
                    &nothing_known,
                );
                let loaded = stage("neighbours_load", load).await?;
                let scoring = std::time::Instant::now();
                for mut c in loaded {
                    on_reference_scale(&mut c, &scale);
                    hits.push(score_one(c));
                }
                scored_for += scoring.elapsed();
            }
        }
    }
    let all: Vec<Uuid> = hits.iter().map(|h| h.memory.id).collect();
    let heads = stage("chain_heads", chain_heads(tx, &all, req)).await?;
    // Scoring's time: the pool's, the neighbours', and the ranking below.
    let scoring = std::time::Instant::now().checked_sub(scored_for).unwrap_or_else(std::time::Instant::now);
    let mut hits = current_state(hits, heads);
    // After the chains are resolved: a result lifts and is lifted from where its current version sits.
    if svc.config.episode_context {
        lift_by_neighbours(&mut hits, svc.config.neighbour_words);
    }
    // After the lift: a question keeps lifting the answer beside it, and gives way to it; a line of the person the
    // question names rises above the others' lines about them.
    for h in &mut hits {
        score::demote_question(&h.memory.content, &mut h.score, &mut h.score_components, svc.config.question_weight);
        let named = req.hints.names_speaker(&h.memory.content);
        score::favour_speaker(named, &mut h.score, &mut h.score_components, svc.config.speaker_weight);
    }
    sort_hits(&mut hits, req.sort);
    let mode = if req.mode == Mode::Associative {
        "associative"
    } else if use_semantic && use_keyword {
        "hybrid"
    } else if use_semantic {
        "semantic"
    } else {
        "keyword"
    };
    let answer = page(hits, req, mode, notice);
    record_stage("score", scoring);
    stage("expand", expand(tx, answer, req, &filter)).await
}

/// The keyword candidates of `query` (BM25, the selections widened while too few are found), and the
/// keyword query they were scored by (None when `use_keyword` is false or the query has only stop words). The
/// question's names that are common in the tenant go to `common_names` as soon as their counts are read.
#[allow(clippy::too_many_arguments)]
async fn keyword_search(
    svc: &Services,
    tx: &mut TenantTx,
    req: &RecallRequest,
    query: &str,
    filter: &ListFilter,
    use_keyword: bool,
    pool_size: i64,
    common_names: tokio::sync::oneshot::Sender<Vec<String>>,
) -> Result<(Option<KeywordQuery>, Vec<(Uuid, f64)>)> {
    if !use_keyword {
        return Ok((None, Vec::new()));
    }
    let hints = &req.hints;
    let emphasised = hints.names.iter().chain(&hints.phrases).cloned().collect::<Vec<_>>().join(" ");
    let lexemes = stage("lexemes", terms::lexemes(tx, query, &emphasised, &hints.phrases, &hints.names)).await?;
    let common = crate::recall::query::common_names(&hints.names, &lexemes.name_docs, lexemes.stats.docs);
    // The embedding may have gone without it (an error on its side ends the recall anyway).
    let _ = common_names.send(common);
    let Some(mut kq) = KeywordQuery::plan(&lexemes.all, &lexemes.emphasised, &lexemes.phrases, &lexemes.stats) else {
        return Ok((None, Vec::new()));
    };
    if svc.config.episode_context {
        kq.context_weight = svc.config.context_keyword_weight.clamp(0.0, 1.0);
    }
    // A selection that no active memory holds finds nothing (an archived memory, or a match only in an
    // episode's context, could; the wider ones hold the same words, so they find those unless their matches
    // pass MAX_SCORED): straight to the wider ones.
    let doomed = kq.select_holds_nothing && !filter.include_archived && !kq.widen.is_empty();
    let mut hits = match doomed {
        true => Vec::new(),
        false => stage("keyword", sql::keyword_candidates(tx, filter, &kq, &kq.select, pool_size)).await?,
    };
    for wider in &kq.widen {
        if hits.len() as i64 >= pool_size {
            break;
        }
        // Too few memories hold the selecting words: the next wider selection, keeping what was found.
        let more = stage("keyword", sql::keyword_candidates(tx, filter, &kq, wider, pool_size)).await?;
        let found: HashSet<Uuid> = hits.iter().map(|(id, _)| *id).collect();
        hits.extend(more.into_iter().filter(|(id, _)| !found.contains(id)));
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(pool_size as usize);
    }
    Ok((Some(kq), hits))
}

async fn run_without_query(
    tx: &mut TenantTx,
    req: &RecallRequest,
    filter: &ListFilter,
    now: DateTime<Utc>,
) -> Result<RecallResponse> {
    let (order, fetch) = match req.sort {
        Sort::TimeDesc => ("created_at DESC, id DESC", req.offset + req.limit + 1),
        Sort::TimeAsc => ("created_at ASC, id ASC", req.offset + req.limit + 1),
        Sort::Score => {
            ("importance DESC, created_at DESC, id DESC", ((req.offset + req.limit) * 4).clamp(MIN_POOL, MAX_POOL))
        }
    };
    let memories = sql::filtered(tx, filter, order, fetch).await?;
    let ids: Vec<Uuid> = memories.iter().map(|m| m.id).collect();
    let heads = chain_heads(tx, &ids, req).await?;
    let opts = ScoreOptions {
        fusion: Fusion::default(),
        has_query: false,
        use_semantic: false,
        use_keyword: false,
        quality_weight: req.quality_weight,
        sentence_share: 0.0,
        now,
    };
    let hits: Vec<RecallHit> = memories
        .into_iter()
        .map(|m| {
            let (value, components) = score::score(&signals(&m, filter), 0.0, &opts);
            RecallHit { memory: m, score: value, match_type: "filter", score_components: components, replaces: None }
        })
        .collect();
    let mut hits = current_state(hits, heads);
    sort_hits(&mut hits, req.sort);
    let answer = page(hits, req, "filter", None);
    expand(tx, answer, req, filter).await
}

/// The episode and place of the `n` best-scoring hits that have both, and how far their neighbours sit
/// ([`score::episode_reaches`] over all the hits, `span` words).
fn best_places(hits: &[RecallHit], n: usize, span: f64) -> Vec<sql::Place> {
    let reaches = score::episode_reaches(&placed(hits), span);
    let mut best: Vec<(&RecallHit, &str, i32)> =
        hits.iter().filter_map(|h| Some((h, h.memory.episode_id.as_deref()?, h.memory.sequence_number?))).collect();
    best.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    best.into_iter()
        .take(n)
        .map(|(_, episode, sequence)| sql::Place {
            episode: episode.to_owned(),
            sequence,
            reach: reaches.get(episode).copied().unwrap_or(score::NEIGHBOUR_REACH),
        })
        .collect()
}

/// The hits as the neighbour lift sees them.
fn placed(hits: &[RecallHit]) -> Vec<score::Placed<'_>> {
    hits.iter()
        .map(|h| score::Placed {
            episode: h.memory.episode_id.as_deref(),
            sequence: h.memory.sequence_number,
            score: h.score,
            // Only a memory of an episode has neighbours, and only its length sets their reach.
            words: h.memory.episode_id.as_ref().map_or(0, |_| h.memory.content.split_whitespace().count()),
        })
        .collect()
}

/// Moves each hit of an episode towards its best neighbour's score ([`score::lift_by_neighbours`], neighbours
/// as far as `span` words) and records that score in its components. The reaches are taken again from all the
/// hits, the neighbours that joined included, whose lengths may move an episode's mean a little from the one its
/// neighbours were fetched by.
fn lift_by_neighbours(hits: &mut [RecallHit], span: f64) {
    let lifted = score::lift_by_neighbours(&placed(hits), span);
    for (hit, (value, neighbour)) in hits.iter_mut().zip(lifted) {
        (hit.score, hit.score_components.neighbour) = (value, neighbour);
    }
}

/// Cuts the page.
fn page(hits: Vec<RecallHit>, req: &RecallRequest, mode: &'static str, notice: Option<String>) -> RecallResponse {
    let total = hits.len();
    let results: Vec<RecallHit> = hits.into_iter().skip(req.offset as usize).take(req.limit as usize).collect();
    let has_more = total > (req.offset + req.limit) as usize;
    RecallResponse { results, has_more, mode, notice, expansions: None }
}

/// Whether an associative recall strengthens the associations between its results: with a key that may
/// write, or a read-only key where the tenant turned `read_keys_strengthen` on (a read changes no data by
/// default).
async fn strengthens(svc: &Services, t: &Tenant) -> bool {
    if t.has(Scope::Write) {
        return true;
    }
    match crate::store::tenants::settings(svc.db.owner(), t.id).await {
        Ok(settings) => settings.is_some_and(|s| s.read_keys_strengthen),
        Err(err) => {
            tracing::warn!(error = %err, "could not read the tenant's settings; not strengthening");
            false
        }
    }
}

/// Counts an access of each memory (coalesced and written about once a second, `service::access`), and,
/// with `hebbian`, strengthens the edges between them in the background, so the answer waits for neither.
pub fn count_access(svc: &Services, tenant_id: Uuid, ids: Vec<Uuid>, hebbian: bool) {
    if ids.is_empty() {
        return;
    }
    svc.accesses.add(tenant_id, &ids);
    if !hebbian || ids.len() < 2 {
        return;
    }
    let db = svc.db.clone();
    tokio::spawn(async move {
        let strengthened = async {
            let mut tx = db.begin_tenant_unobserved(tenant_id).await?;
            relations::strengthen(&mut tx, &ids, HEBBIAN_RATE).await?;
            tx.commit().await?;
            Ok::<_, Error>(())
        };
        if let Err(err) = strengthened.await {
            tracing::warn!(error = %err, "could not strengthen the associations of recalled memories");
        }
    });
}
