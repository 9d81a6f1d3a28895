//! Recall: find a tenant's memories by meaning, keywords, tags, time and the other filters, scored and
//! explained. `params` parses filters, `time` natural-language time, `score` fusion and scoring; the
//! SQL lives in `store::recall`.

pub mod bm25;
pub mod params;
pub mod score;
pub mod time;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use pgvector::Vector;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use self::bm25::{KeywordQuery, TermStatsCache};
use self::params::{bad, StringList};
use self::score::{Fusion, ScoreComponents, ScoreOptions, Signals};
use crate::embed::{EmbedderSlot, SlotState};
use crate::error::ApiError;
use crate::memory::{normalize_tag_filter, Memory};
use crate::store::memories::ListFilter;
use crate::store::{entities, recall as sql, relations, Db, TenantTx};

pub const MAX_QUERY_CHARS: usize = 1000;
pub const MAX_LIMIT: i64 = 100;
pub const DEFAULT_LIMIT: i64 = 10;

/// A recall request: the same fields as a JSON body (POST) or a query string (GET, lists as repeated keys).
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
#[schema(example = json!({"query": "which database did we choose?", "limit": 5, "tags": ["project-alpha"], "since": "last month"}))]
pub struct RecallParams {
    /// What to look for, 1..=1000 characters. Without it: filters and ordering only.
    pub query: Option<String>,
    /// `hybrid` (default), `semantic`, `keyword` or `associative` (semantic hits, then activation spread
    /// along associations).
    pub mode: Option<String>,
    /// 1..=100, default 10.
    pub limit: Option<i64>,
    /// Results to skip.
    pub offset: Option<i64>,
    /// Tags to require (see `tag_mode`, `tag_match`).
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    #[param(value_type = Vec<String>)]
    pub tags: StringList,
    /// `any` (default) or `all`.
    pub tag_mode: Option<String>,
    /// `exact` (default) or `prefix`.
    pub tag_match: Option<String>,
    /// Leave out memories with any of these tags.
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    #[param(value_type = Vec<String>)]
    pub exclude_tags: StringList,
    /// Classifications to keep.
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    #[param(value_type = Vec<String>)]
    pub types: StringList,
    /// `short_term` or `long_term`.
    pub memory_type: Option<String>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub episode_id: Option<String>,
    pub min_importance: Option<f64>,
    pub max_importance: Option<f64>,
    /// Lower time bound: ISO 8601 or English/German ("last week", "vor 2 Wochen"). Alias `from`.
    #[serde(alias = "from")]
    pub since: Option<String>,
    /// Upper time bound, inclusive of a named day or period. Aliases `before`, `to`.
    #[serde(alias = "before", alias = "to")]
    pub until: Option<String>,
    /// Only memories valid at this time (t_valid/t_invalid); ISO 8601 or natural language.
    pub valid_at: Option<String>,
    /// Include archived and expired memories (default false).
    pub include_archived: Option<bool>,
    /// `score` (default with a query), `time_desc` (default without), `time_asc`.
    pub sort: Option<String>,
    /// Blend in `quality_score` (SHODH).
    pub quality_boost: Option<bool>,
    /// Weight of quality when `quality_boost` is on, 0..=1 (default 0.3).
    pub quality_weight: Option<f64>,
    /// `current` (default): a superseded memory is replaced by the head of its supersede chain (at most 5
    /// hops); `history`: every memory as stored.
    pub state_mode: Option<String>,
    /// Add memories one association away from the results, in `expansions`.
    pub expand_relations: Option<bool>,
    /// Add memories that mention the same entities as the results (the rarest shared entity first), in
    /// `expansions`.
    pub expand_entities: Option<bool>,
    /// Most expansions per result, 1..=50 (default 5).
    pub relation_limit: Option<i64>,
    /// Most expansions in all, 1..=200 (default 25).
    pub expansion_limit: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Hybrid,
    Semantic,
    Keyword,
    /// Semantic seeds, then activation spread along associations (SHODH).
    Associative,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Score,
    TimeDesc,
    TimeAsc,
}

/// A validated recall request.
#[derive(Debug, Clone)]
pub struct RecallRequest {
    pub query: Option<String>,
    pub mode: Mode,
    pub limit: i64,
    pub offset: i64,
    pub filter: ListFilter,
    pub sort: Sort,
    pub quality_weight: f64,
    /// `state_mode=history`: superseded memories are returned as they are.
    pub history: bool,
    /// `expand_relations` / `expand_entities`: (per result, in all).
    pub expand: Option<(i64, i64)>,
    pub expand_relations: bool,
    pub expand_entities: bool,
    /// Count an access of each returned memory (off for callers that return only some of the results
    /// and count those themselves).
    pub count_access: bool,
}

fn time_bound(
    field: &str,
    value: Option<String>,
    now: DateTime<Utc>,
    upper: bool,
) -> Result<Option<DateTime<Utc>>, ApiError> {
    value
        .map(|v| {
            let span = time::parse_time(&v, now)
                .ok_or_else(|| bad(field, format!("cannot understand the time {v:?}; use ISO 8601 or e.g. \"last week\", \"3 days ago\", \"vor 2 Wochen\"")))?;
            Ok(if upper { span.end } else { span.start })
        })
        .transpose()
}

impl RecallRequest {
    pub fn parse(p: RecallParams, now: DateTime<Utc>) -> Result<Self, ApiError> {
        let query = match p.query {
            None => None,
            Some(q) => {
                let q = q.trim().to_owned();
                let chars = q.chars().count();
                if chars == 0 || chars > MAX_QUERY_CHARS || q.contains('\0') {
                    return Err(bad(
                        "query",
                        format!("must be 1..={MAX_QUERY_CHARS} characters without NUL (got {chars})"),
                    ));
                }
                Some(q)
            }
        };
        let mode = match p.mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("hybrid") => Mode::Hybrid,
            Some("semantic") => Mode::Semantic,
            Some("keyword") => Mode::Keyword,
            Some("associative") => Mode::Associative,
            Some(other) => {
                return Err(bad("mode", format!("must be hybrid, semantic, keyword or associative (got {other:?})")))
            }
        };
        let sort = match p.sort.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None if query.is_some() => Sort::Score,
            None => Sort::TimeDesc,
            Some("score") => Sort::Score,
            Some("time_desc") => Sort::TimeDesc,
            Some("time_asc") => Sort::TimeAsc,
            Some(other) => return Err(bad("sort", format!("must be score, time_desc or time_asc (got {other:?})"))),
        };
        let (limit, offset) = params::page(p.limit, p.offset, MAX_LIMIT, DEFAULT_LIMIT)?;
        let (expand_relations, expand_entities) =
            (p.expand_relations.unwrap_or(false), p.expand_entities.unwrap_or(false));
        let expand = match expand_relations || expand_entities {
            false => None,
            true => Some((
                params::bounded("relation_limit", p.relation_limit, 1, 50, 5)?,
                params::bounded("expansion_limit", p.expansion_limit, 1, 200, 25)?,
            )),
        };
        let history = match p.state_mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("current") => false,
            Some("history") => true,
            Some(other) => return Err(bad("state_mode", format!("must be current or history (got {other:?})"))),
        };
        let quality_weight = match (p.quality_boost.unwrap_or(false), p.quality_weight) {
            (_, Some(w)) if !(0.0..=1.0).contains(&w) => {
                return Err(bad("quality_weight", format!("must be between 0 and 1 (got {w})")))
            }
            (true, w) => w.unwrap_or(0.3),
            (false, _) => 0.0,
        };
        let since = time_bound("since", p.since, now, false)?;
        let until = time_bound("until", p.until, now, true)?;
        let valid_at = time_bound("valid_at", p.valid_at, now, false)?;
        let filter = ListFilter {
            kinds: params::kinds("types", &p.types.0)?,
            memory_type: params::lifecycle(p.memory_type)?,
            tags: normalize_tag_filter(&p.tags.0),
            tags_all: params::tag_mode_all(p.tag_mode.as_deref())?,
            tags_prefix: params::tag_match_prefix(p.tag_match.as_deref())?,
            user_id: p.user_id,
            agent_id: p.agent_id,
            run_id: p.run_id,
            created_after: since,
            created_before: until,
            min_importance: params::unit("min_importance", p.min_importance)?,
            max_importance: params::unit("max_importance", p.max_importance)?,
            include_archived: p.include_archived.unwrap_or(false),
            exclude_tags: normalize_tag_filter(&p.exclude_tags.0),
            episode_id: p.episode_id,
            valid_at,
            only_ids: None,
        };
        Ok(Self {
            query,
            mode,
            limit,
            offset,
            filter,
            sort,
            quality_weight,
            history,
            expand,
            expand_relations,
            expand_entities,
            count_access: true,
        })
    }
}

/// One recalled memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallHit {
    pub memory: Memory,
    /// Overall score in [0, 1].
    pub score: f64,
    /// `hybrid` (found by meaning and keywords), `semantic`, `keyword`, or `filter` (no query).
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
    /// Set when this memory stands in for a superseded one that matched (`state_mode=current`): its id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Uuid>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecallResponse {
    pub results: Vec<RecallHit>,
    /// Results on this page.
    pub count: usize,
    /// Whether more results follow (`offset + limit`).
    pub has_more: bool,
    /// The mode actually used (`keyword` when the model is not ready for a hybrid request).
    pub mode: &'static str,
    /// Set when the answer is degraded, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// With `expand_relations` / `expand_entities`: memories one association away from the results, or
    /// sharing an entity with them (not among them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansions: Option<Vec<Expansion>>,
}

/// A memory added by `expand_relations` or `expand_entities`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Expansion {
    pub memory: Memory,
    /// The result it is associated with.
    pub expanded_from: Uuid,
    /// The association's type (`SHARES_ENTITY` for an entity expansion) and strength.
    pub relation: String,
    pub strength: f32,
    /// For an entity expansion: the shared entity, as `type:name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// The result's score times the strength.
    pub score: f64,
    /// Always `expansion`.
    pub match_type: &'static str,
}

/// Which signals a request can use, given the embedder's state.
fn plan(mode: Mode, slot: &EmbedderSlot) -> Result<(bool, bool, Option<String>), ApiError> {
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
            Err(ApiError::bad_request(format!("mode: semantic and associative recall need an embedder: {why}")))
        }
        (Mode::Semantic | Mode::Associative, false) => {
            Err(ApiError::Unavailable(format!("{why}; retry shortly or use mode=keyword")))
        }
        (Mode::Hybrid, false) => Ok((false, true, Some(format!("{why}: keyword results only")))),
    }
}

async fn embed_query(slot: &EmbedderSlot, query: &str) -> Result<Vector, ApiError> {
    let embedder = slot.get().ok_or_else(|| ApiError::Unavailable("the embedding model is unavailable".into()))?;
    let texts = [query.to_owned()];
    let mut vectors = embedder.embed(&texts).await.map_err(|e| {
        tracing::error!(error = format!("{e:#}"), "embedding the query failed");
        ApiError::Unavailable("embedding the query failed; retry later".into())
    })?;
    vectors.pop().map(Vector::from).ok_or_else(|| ApiError::Internal(anyhow::anyhow!("embedder returned no vector")))
}

/// Share of the requested tags a memory carries.
fn tag_match(memory: &Memory, filter: &ListFilter) -> Option<f64> {
    if filter.tags.is_empty() {
        return None;
    }
    let pool = if filter.tags_prefix { &memory.tag_prefixes } else { &memory.tags };
    let hits = filter.tags.iter().filter(|t| pool.contains(t)).count();
    Some(hits as f64 / filter.tags.len() as f64)
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

/// Runs a recall for one tenant.
pub async fn recall(
    db: &Db,
    slot: &EmbedderSlot,
    term_stats: &TermStatsCache,
    fusion: Fusion,
    tenant_id: Uuid,
    req: RecallRequest,
) -> Result<RecallResponse, ApiError> {
    let now = Utc::now();
    let Some(query) = req.query.clone() else {
        return recall_without_query(db, tenant_id, req, now).await;
    };
    let (use_semantic, use_keyword, notice) = plan(req.mode, slot)?;
    let pool_size = ((req.offset + req.limit) * 4).clamp(50, 400);

    // The query's embedding (CPU) and the keyword search (database) do not depend on each other: run them
    // at once. They use separate transactions; a memory deleted in between simply does not load below.
    let embedding = async {
        match use_semantic {
            true => embed_query(slot, &query).await.map(Some),
            false => Ok(None),
        }
    };
    let keywords = async {
        if !use_keyword {
            return Ok((None, Vec::new()));
        }
        // Statistics first: a first computation takes a connection of its own.
        let stats = term_stats.get(db, tenant_id).await?;
        let mut tx = db.begin_tenant(tenant_id).await?;
        let lexemes = bm25::lexemes(&mut tx, &query).await?;
        let Some(kq) = KeywordQuery::plan(&lexemes, &stats) else {
            return Ok((None, Vec::new()));
        };
        let hits = sql::keyword_candidates(&mut tx, &req.filter, &kq, pool_size).await?;
        tx.commit().await?;
        Ok::<_, ApiError>((Some(kq), hits))
    };
    let (vector, (keyword_query, keyword_hits)) = tokio::try_join!(embedding, keywords)?;

    let mut tx = db.begin_tenant(tenant_id).await?;
    let vector_hits = match &vector {
        Some(v) => sql::vector_candidates(&mut tx, &req.filter, v, pool_size).await?,
        None => Vec::new(),
    };
    let activation = match req.mode {
        Mode::Associative => spread(&mut tx, &vector_hits, req.filter.include_archived).await?,
        _ => HashMap::new(),
    };
    let mut ranks: HashMap<Uuid, (Option<usize>, Option<usize>)> = HashMap::new();
    for (rank, (id, _)) in vector_hits.iter().enumerate() {
        ranks.entry(*id).or_default().0 = Some(rank + 1);
    }
    for (rank, (id, _)) in keyword_hits.iter().enumerate() {
        ranks.entry(*id).or_default().1 = Some(rank + 1);
    }
    let ids: Vec<Uuid> =
        ranks.keys().chain(activation.keys()).copied().collect::<std::collections::HashSet<_>>().into_iter().collect();
    let candidates = sql::load_candidates(&mut tx, &ids, vector.as_ref(), keyword_query.as_ref()).await?;
    let heads = chain_heads(&mut tx, &ids, &req).await?;
    tx.commit().await?;

    let best_keyword = candidates.iter().filter_map(|c| c.keyword).fold(0.0_f64, f64::max);
    let opts =
        ScoreOptions { fusion, has_query: true, use_semantic, use_keyword, quality_weight: req.quality_weight, now };
    let hits: Vec<RecallHit> = candidates
        .into_iter()
        .map(|c| {
            let (vector_rank, keyword_rank) = ranks.get(&c.memory.id).copied().unwrap_or_default();
            let s = Signals {
                cosine: c.cosine,
                vector_rank,
                keyword: c.keyword.filter(|k| *k > 0.0),
                keyword_rank,
                ..signals(&c.memory, &req.filter)
            };
            // Associative: a memory's relevance is the larger of its similarity and its activation.
            let spread_to = activation.get(&c.memory.id).copied().filter(|a| *a > s.cosine.unwrap_or(0.0));
            let s = Signals { cosine: spread_to.or(s.cosine), ..s };
            let (value, mut components) = score::score(&s, best_keyword, &opts);
            if spread_to.is_some() {
                components.semantic = c.cosine.map(|v| v.clamp(0.0, 1.0));
            }
            let match_type = match (vector_rank.is_some(), keyword_rank.is_some()) {
                _ if spread_to.is_some() => "associative",
                (true, true) => "hybrid",
                (false, true) => "keyword",
                _ => "semantic",
            };
            RecallHit { memory: c.memory, score: value, match_type, score_components: components, replaces: None }
        })
        .collect();
    let mut hits = current_state(hits, heads);
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
    expand(db, tenant_id, page(db, tenant_id, hits, &req, mode, notice), &req).await
}

async fn recall_without_query(
    db: &Db,
    tenant_id: Uuid,
    req: RecallRequest,
    now: DateTime<Utc>,
) -> Result<RecallResponse, ApiError> {
    let (order, fetch) = match req.sort {
        Sort::TimeDesc => ("created_at DESC, id DESC", req.offset + req.limit + 1),
        Sort::TimeAsc => ("created_at ASC, id ASC", req.offset + req.limit + 1),
        Sort::Score => ("importance DESC, created_at DESC, id DESC", ((req.offset + req.limit) * 4).clamp(50, 400)),
    };
    let mut tx = db.begin_tenant(tenant_id).await?;
    let memories = sql::filtered(&mut tx, &req.filter, order, fetch).await?;
    let ids: Vec<Uuid> = memories.iter().map(|m| m.id).collect();
    let heads = chain_heads(&mut tx, &ids, &req).await?;
    tx.commit().await?;
    let opts = ScoreOptions {
        fusion: Fusion::default(),
        has_query: false,
        use_semantic: false,
        use_keyword: false,
        quality_weight: req.quality_weight,
        now,
    };
    let hits: Vec<RecallHit> = memories
        .into_iter()
        .map(|m| {
            let (value, components) = score::score(&signals(&m, &req.filter), 0.0, &opts);
            RecallHit { memory: m, score: value, match_type: "filter", score_components: components, replaces: None }
        })
        .collect();
    let mut hits = current_state(hits, heads);
    sort_hits(&mut hits, req.sort);
    expand(db, tenant_id, page(db, tenant_id, hits, &req, "filter", None), &req).await
}

/// Activation decays by this factor per hop.
const HOP_DECAY: f64 = 0.6;
/// Semantic hits that seed spreading activation.
const SEEDS: usize = 10;
/// Hops activation spreads.
const HOPS: usize = 2;
/// Hebbian learning rate: results returned together strengthen their edge by `rate * (1 - strength)`.
pub const HEBBIAN_RATE: f64 = 0.1;

/// Spreading activation (SHODH's associative mode): the best semantic hits start with their cosine
/// similarity; each hop passes `activation * edge strength * HOP_DECAY` to neighbours in either edge
/// direction, a memory keeping the most it receives. Returns the activation of every memory reached.
async fn spread(
    tx: &mut TenantTx,
    seeds: &[(Uuid, f64)],
    include_archived: bool,
) -> Result<HashMap<Uuid, f64>, ApiError> {
    let mut activation: HashMap<Uuid, f64> = seeds.iter().take(SEEDS).map(|(id, c)| (*id, c.max(0.0))).collect();
    let mut frontier: Vec<Uuid> = activation.keys().copied().collect();
    for _ in 0..HOPS {
        if frontier.is_empty() {
            break;
        }
        let reached = relations::neighbour_edges(tx, &frontier, 10, 100, include_archived).await?;
        frontier.clear();
        for n in reached {
            let passed = activation.get(&n.origin).copied().unwrap_or(0.0) * f64::from(n.strength) * HOP_DECAY;
            let entry = activation.entry(n.neighbour).or_insert(0.0);
            if passed > *entry {
                *entry = passed;
                frontier.push(n.neighbour);
            }
        }
    }
    Ok(activation)
}

/// `state_mode=current`: the heads of the supersede chains of these memories (none with `history`).
async fn chain_heads(tx: &mut TenantTx, ids: &[Uuid], req: &RecallRequest) -> Result<HashMap<Uuid, Memory>, ApiError> {
    if req.history || ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(relations::chain_heads(tx, ids).await?.into_iter().collect())
}

/// Each superseded memory among the hits gives its place (and score) to the head of its chain; a head
/// found twice is kept once, at its best score.
fn current_state(hits: Vec<RecallHit>, mut heads: HashMap<Uuid, Memory>) -> Vec<RecallHit> {
    if heads.is_empty() {
        return hits;
    }
    let mut best: HashMap<Uuid, usize> = HashMap::new();
    let mut out: Vec<RecallHit> = Vec::with_capacity(hits.len());
    for mut hit in hits {
        if let Some(head) = heads.remove(&hit.memory.id) {
            hit.replaces = Some(hit.memory.id);
            hit.memory = head;
        }
        match best.get(&hit.memory.id) {
            Some(&i) if out[i].score >= hit.score => {}
            Some(&i) => out[i] = hit,
            None => {
                best.insert(hit.memory.id, out.len());
                out.push(hit);
            }
        }
    }
    out
}

/// Strength given to an entity expansion (a shared mention is a weaker tie than an authored association).
pub const SHARED_ENTITY_STRENGTH: f32 = 0.5;

/// `expand_relations` / `expand_entities`: adds the results' direct neighbours, then memories sharing an
/// entity with them, each memory once, within the limits.
async fn expand(
    db: &Db,
    tenant_id: Uuid,
    mut response: RecallResponse,
    req: &RecallRequest,
) -> Result<RecallResponse, ApiError> {
    let Some((per_result, total)) = req.expand else { return Ok(response) };
    let ids: Vec<Uuid> = response.results.iter().map(|h| h.memory.id).collect();
    let scores: HashMap<Uuid, f64> = response.results.iter().map(|h| (h.memory.id, h.score)).collect();
    let score_of = |origin: &Uuid, strength: f32| scores.get(origin).copied().unwrap_or(0.0) * f64::from(strength);
    let mut expansions: Vec<Expansion> = Vec::new();
    let mut tx = db.begin_tenant(tenant_id).await?;
    if req.expand_relations && !ids.is_empty() {
        for n in relations::neighbours(&mut tx, &ids, per_result, total, req.filter.include_archived).await? {
            expansions.push(Expansion {
                score: score_of(&n.origin, n.strength),
                memory: n.memory,
                expanded_from: n.origin,
                relation: n.rel_type,
                strength: n.strength,
                entity: None,
                match_type: "expansion",
            });
        }
    }
    let room = total - expansions.len() as i64;
    if req.expand_entities && !ids.is_empty() && room > 0 {
        let found = entities::sharing(&mut tx, &ids, per_result, total, req.filter.include_archived).await?;
        let mut seen: std::collections::HashSet<Uuid> = expansions.iter().map(|e| e.memory.id).collect();
        for s in found.into_iter().filter(|s| seen.insert(s.memory.id)).take(room as usize) {
            expansions.push(Expansion {
                score: score_of(&s.origin, SHARED_ENTITY_STRENGTH),
                memory: s.memory,
                expanded_from: s.origin,
                relation: "SHARES_ENTITY".into(),
                strength: SHARED_ENTITY_STRENGTH,
                entity: Some(format!("{}:{}", s.entity_type, s.entity_name)),
                match_type: "expansion",
            });
        }
    }
    // Expansions answer to the request's filters (user, agent, tags, time...) like the results do.
    let ids: Vec<Uuid> = expansions.iter().map(|e| e.memory.id).collect();
    let allowed = match ids.is_empty() {
        true => Default::default(),
        false => sql::matching(&mut tx, &req.filter, &ids).await?,
    };
    tx.commit().await?;
    expansions.retain(|e| allowed.contains(&e.memory.id));
    response.expansions = Some(expansions);
    Ok(response)
}

fn sort_hits(hits: &mut [RecallHit], sort: Sort) {
    match sort {
        Sort::Score => hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(b.memory.created_at.cmp(&a.memory.created_at))
                .then(a.memory.id.cmp(&b.memory.id))
        }),
        Sort::TimeDesc => {
            hits.sort_by(|a, b| b.memory.created_at.cmp(&a.memory.created_at).then(b.memory.id.cmp(&a.memory.id)))
        }
        Sort::TimeAsc => {
            hits.sort_by(|a, b| a.memory.created_at.cmp(&b.memory.created_at).then(a.memory.id.cmp(&b.memory.id)))
        }
    }
}

/// Counts an access of each memory in the background (and, with `hebbian`, strengthens the edges between
/// them), so the response does not wait for it.
pub fn count_access(db: &Db, tenant_id: Uuid, ids: Vec<Uuid>, hebbian: bool) {
    if ids.is_empty() {
        return;
    }
    let db = db.clone();
    tokio::spawn(async move {
        let touched = async {
            let mut tx = db.begin_tenant(tenant_id).await?;
            sql::touch(&mut tx, &ids).await?;
            if hebbian {
                relations::strengthen(&mut tx, &ids, HEBBIAN_RATE).await?;
            }
            tx.commit().await
        };
        if let Err(err) = touched.await {
            tracing::warn!(error = %err, "could not count recall accesses");
        }
    });
}

/// Cuts the page, and counts an access of each returned memory in the background.
fn page(
    db: &Db,
    tenant_id: Uuid,
    hits: Vec<RecallHit>,
    req: &RecallRequest,
    mode: &'static str,
    notice: Option<String>,
) -> RecallResponse {
    let total = hits.len();
    let results: Vec<RecallHit> = hits.into_iter().skip(req.offset as usize).take(req.limit as usize).collect();
    let has_more = total > (req.offset + req.limit) as usize;
    if req.count_access {
        count_access(db, tenant_id, results.iter().map(|h| h.memory.id).collect(), mode == "associative");
    }
    RecallResponse { count: results.len(), results, has_more, mode, notice, expansions: None }
}
