//! Recall's domain: what a caller may ask ([`RecallParams`], and the multi-query, entity-grouped and
//! proactive-context forms), its validation into a [`RecallRequest`], natural-language time (`time`),
//! keyword weighting (`bm25`), fusion and scoring (`score`), and what comes back (`results`: hits,
//! supersede heads, merging and grouping). Pure: the pipeline that runs a request against a tenant's
//! memories is `service::recall`, its SQL `store::recall`.

pub mod bm25;
pub mod query;
pub mod results;
pub mod score;
pub mod sentences;
pub mod time;

pub use results::{Expansion, Group, RecallHit, RecallResponse};

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use uuid::Uuid;

use crate::error::{bad, Error};
use crate::memory::filter::{self, ListFilter};
use crate::memory::LIFECYCLES;
use crate::validate::{self, StringList};

pub const MAX_QUERY_CHARS: usize = 1000;
pub const MAX_LIMIT: i64 = 100;
pub const DEFAULT_LIMIT: i64 = 10;
/// Most expansions per result, and in all (`relation_limit`, `expansion_limit`).
pub const MAX_RELATION_LIMIT: i64 = 50;
pub const MAX_EXPANSION_LIMIT: i64 = 200;
/// Most queries one multi-query recall merges.
pub const MAX_QUERIES: usize = 10;
/// What `context_tags` adds to a result carrying one of them.
pub const CONTEXT_BOOST: f64 = 0.1;
/// Entity-grouped recall: most results, and the default (textrawl's).
pub const MAX_GROUPED: i64 = 50;
pub const DEFAULT_GROUPED: i64 = 10;
/// Proactive context: most memories surfaced, and the default.
pub const MAX_SURFACED: i64 = 20;
pub const DEFAULT_SURFACED: i64 = 5;

/// The recall modes' names.
pub const MODES: &[&str] = &["hybrid", "semantic", "keyword", "associative"];
/// The sort orders' names.
pub const SORTS: &[&str] = &["score", "time_desc", "time_asc"];

/// A recall request: the same fields as a JSON body (POST) or a query string (GET, lists as repeated keys).
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*RECALL_EXAMPLE)]
pub struct RecallParams {
    /// What to look for, 1..=1000 characters. Without it: filters and ordering only.
    #[schemars(length(min = 1, max = MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// `hybrid` (default), `semantic`, `keyword` or `associative` (semantic hits, then activation spread
    /// along associations).
    #[schemars(extend("enum" = MODES))]
    pub mode: Option<String>,
    /// 1..=100, default 10.
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    pub limit: Option<i64>,
    /// Results to skip.
    #[schemars(range(min = 0, max = validate::MAX_OFFSET))]
    pub offset: Option<i64>,
    /// Tags to require (see `tag_mode`, `tag_match`).
    #[serde(default)]
    pub tags: StringList,
    /// `any` (default) or `all`.
    #[schemars(extend("enum" = ["any", "all"]))]
    pub tag_mode: Option<String>,
    /// `exact` (default) or `prefix`.
    #[schemars(extend("enum" = ["exact", "prefix"]))]
    pub tag_match: Option<String>,
    /// Leave out memories with any of these tags.
    #[serde(default)]
    pub exclude_tags: StringList,
    /// Classifications to keep.
    #[serde(default)]
    pub types: StringList,
    /// `short_term` or `long_term`.
    #[schemars(extend("enum" = LIFECYCLES))]
    pub memory_type: Option<String>,
    pub user_id: Option<String>,
    pub agent_id: Option<String>,
    pub run_id: Option<String>,
    pub episode_id: Option<String>,
    /// Only memories stored by this actor, as `created_by` shows it (`key:<api key id>`, `system:<job>`).
    pub created_by: Option<String>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_importance: Option<f64>,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub max_importance: Option<f64>,
    /// Lower time bound: ISO 8601 or English/German ("last week", "vor 2 Wochen"). Alias `from`.
    #[serde(alias = "from")]
    pub since: Option<String>,
    /// Upper time bound, inclusive of a named day or period. Aliases `before`, `to`.
    #[serde(alias = "before", alias = "to")]
    pub until: Option<String>,
    /// Only memories valid at this time (t_valid/t_invalid); ISO 8601 or natural language.
    pub valid_at: Option<String>,
    /// The moment the question is asked, ISO 8601 (default: now): relative times in `query`, `since`,
    /// `until` and `valid_at` ("last week", "3 days ago") count back from it. For questions about a past
    /// conversation, asked as of its date; recency and forgetting still count from the server's clock.
    pub reference_time: Option<String>,
    /// Include archived and expired memories (default false).
    pub include_archived: Option<bool>,
    /// `score` (default with a query), `time_desc` (default without), `time_asc`.
    #[schemars(extend("enum" = SORTS))]
    pub sort: Option<String>,
    /// Blend in `quality_score` (SHODH).
    pub quality_boost: Option<bool>,
    /// Weight of quality when `quality_boost` is on, 0..=1 (default 0.3).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub quality_weight: Option<f64>,
    /// `current` (default): a superseded memory is replaced by the head of its supersede chain (at most 5
    /// hops); `history`: every memory as stored.
    #[schemars(extend("enum" = ["current", "history"]))]
    pub state_mode: Option<String>,
    /// Add memories one association away from the results, in `expansions`.
    pub expand_relations: Option<bool>,
    /// Add memories that mention the same entities as the results (the rarest shared entity first), in
    /// `expansions`.
    pub expand_entities: Option<bool>,
    /// Most expansions per result, 1..=50 (default 5).
    #[schemars(range(min = 1, max = MAX_RELATION_LIMIT))]
    pub relation_limit: Option<i64>,
    /// Most expansions in all, 1..=200 (default 25).
    #[schemars(range(min = 1, max = MAX_EXPANSION_LIMIT))]
    pub expansion_limit: Option<i64>,
}

static RECALL_EXAMPLE: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(
    || serde_json::json!({"query": "which database did we choose?", "limit": 5, "tags": ["project-alpha"], "since": "last month"}),
);

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
    /// Only memories one association away from this one (remem's `related_to`; its 200 strongest
    /// neighbours). Resolved inside the recall's snapshot.
    pub related_to: Option<Uuid>,
    /// What the query says beyond its words: names, quoted phrases, a time (`query`).
    pub hints: query::QueryHints,
}

fn time_bound(
    field: &str,
    value: Option<String>,
    now: DateTime<Utc>,
    upper: bool,
) -> Result<Option<DateTime<Utc>>, Error> {
    value
        .map(|v| {
            validate::check_chars(field, &v, validate::MAX_TIME_CHARS)?;
            let span = time::parse_time(&v, now).ok_or_else(|| {
                bad(
                    field,
                    format!("cannot understand the time {v:?}; use ISO 8601 or e.g. \"last week\", \"3 days ago\", \"vor 2 Wochen\""),
                )
            })?;
            Ok(if upper { span.end } else { span.start })
        })
        .transpose()
}

/// A query: trimmed, 1..=1000 characters, no NUL.
pub fn query(field: &str, value: &str) -> Result<String, Error> {
    let q = value.trim().to_owned();
    let chars = q.chars().count();
    if chars == 0 || chars > MAX_QUERY_CHARS || q.contains('\0') {
        return Err(bad(field, format!("must be 1..={MAX_QUERY_CHARS} characters without NUL (got {chars})")));
    }
    Ok(q)
}

impl RecallRequest {
    pub fn parse(p: RecallParams, now: DateTime<Utc>) -> Result<Self, Error> {
        let now = match p.reference_time.as_deref() {
            None => now,
            Some(v) => {
                validate::check_chars("reference_time", v, validate::MAX_TIME_CHARS)?;
                validate::parse_timestamp(v)
                    .ok_or_else(|| bad("reference_time", format!("must be an ISO 8601 time (got {v:?})")))?
            }
        };
        let query = p.query.as_deref().map(|q| query("query", q)).transpose()?;
        let hints = query.as_deref().map(|q| query::analyze(q, now)).unwrap_or_default();
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
        let (limit, offset) = validate::page(p.limit, p.offset, MAX_LIMIT, DEFAULT_LIMIT)?;
        let (expand_relations, expand_entities) =
            (p.expand_relations.unwrap_or(false), p.expand_entities.unwrap_or(false));
        let expand = match expand_relations || expand_entities {
            false => None,
            true => Some((
                validate::bounded("relation_limit", p.relation_limit, 1, MAX_RELATION_LIMIT, 5)?,
                validate::bounded("expansion_limit", p.expansion_limit, 1, MAX_EXPANSION_LIMIT, 25)?,
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
            kinds: filter::kinds("types", &p.types.0)?,
            memory_type: filter::lifecycle(p.memory_type)?,
            tags: filter::tags("tags", &p.tags.0)?,
            tags_all: filter::tag_mode_all(p.tag_mode.as_deref())?,
            tags_prefix: filter::tag_match_prefix(p.tag_match.as_deref())?,
            user_id: filter::scope("user_id", p.user_id)?,
            agent_id: filter::scope("agent_id", p.agent_id)?,
            run_id: filter::scope("run_id", p.run_id)?,
            created_after: since,
            created_before: until,
            min_importance: validate::unit("min_importance", p.min_importance)?,
            max_importance: validate::unit("max_importance", p.max_importance)?,
            include_archived: p.include_archived.unwrap_or(false),
            exclude_tags: filter::tags("exclude_tags", &p.exclude_tags.0)?,
            episode_id: filter::scope("episode_id", p.episode_id)?,
            valid_at,
            only_ids: None,
            created_by: filter::actor("created_by", p.created_by)?,
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
            related_to: None,
            hints,
        })
    }
}

/// Several queries recalled and merged, each memory once with its best score (AutoMem's `/recall`, MCP's
/// `recall_memory`): the one definition both read.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
pub struct MultiParams {
    /// What to look for (1..=1000 characters).
    #[schemars(length(min = 1, max = MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// Several queries (repeat the key, at most 10): each is recalled and the results merged, each memory
    /// once with its best score.
    #[serde(default)]
    #[schemars(length(max = MAX_QUERIES))]
    pub queries: StringList,
    #[serde(default)]
    pub tags: StringList,
    /// `any` (default) or `all`.
    #[schemars(extend("enum" = ["any", "all"]))]
    pub tag_mode: Option<String>,
    /// `exact` (default) or `prefix`.
    #[schemars(extend("enum" = ["exact", "prefix"]))]
    pub tag_match: Option<String>,
    #[serde(default)]
    pub exclude_tags: StringList,
    /// A natural-language period ("last week", "yesterday", "vor 2 Wochen"): both bounds.
    pub time_query: Option<String>,
    /// Lower bound (ISO 8601 or natural language); wins over `time_query`'s.
    pub start: Option<String>,
    /// Upper bound; wins over `time_query`'s.
    pub end: Option<String>,
    /// 1..=100, default 10.
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    pub limit: Option<i64>,
    /// `score` (default with a query), `time_desc`, `time_asc`.
    #[schemars(extend("enum" = SORTS))]
    pub sort: Option<String>,
    /// Add memories one association away.
    pub expand_relations: Option<bool>,
    /// Add memories sharing an entity.
    pub expand_entities: Option<bool>,
    #[schemars(range(min = 1, max = MAX_RELATION_LIMIT))]
    pub relation_limit: Option<i64>,
    #[schemars(range(min = 1, max = MAX_EXPANSION_LIMIT))]
    pub expansion_limit: Option<i64>,
    /// Drop results scoring below this, 0..=1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_score: Option<f64>,
    /// Tags of the current context: results carrying one (or a hierarchical child) gain 0.1 (capped at 1)
    /// and are re-ranked.
    #[serde(default)]
    pub context_tags: StringList,
    /// `hybrid` (default), `semantic`, `keyword` or `associative`.
    #[schemars(extend("enum" = MODES))]
    pub mode: Option<String>,
}

/// A validated multi-query recall: one request per query (or one without a query).
#[derive(Debug, Clone)]
pub struct MultiRequest {
    pub runs: Vec<RecallRequest>,
    /// The distinct queries, in order.
    pub queries: Vec<String>,
    pub min_score: Option<f32>,
    pub context_tags: Vec<String>,
    pub limit: usize,
    pub sort: Sort,
}

impl MultiRequest {
    /// Validates; errors name AutoMem's fields (`start`, `time_query`, `queries`...).
    pub fn parse(p: MultiParams, now: DateTime<Utc>) -> Result<Self, Error> {
        let mut seen = std::collections::HashSet::new();
        let queries: Vec<String> =
            p.query.iter().chain(p.queries.0.iter()).filter(|q| seen.insert(q.as_str())).cloned().collect();
        if queries.len() > MAX_QUERIES {
            return Err(bad("queries", format!("at most {MAX_QUERIES} queries (got {})", queries.len())));
        }
        let min_score = validate::unit("min_score", p.min_score)?;
        let context_tags = filter::tags("context_tags", &p.context_tags.0)?;
        let names = [
            ("since", if p.start.is_some() { "start" } else { "time_query" }),
            ("until", if p.end.is_some() { "end" } else { "time_query" }),
            ("query", if queries.len() > 1 { "queries" } else { "query" }),
        ];
        let params = |query: Option<String>| RecallParams {
            query,
            mode: p.mode.clone(),
            limit: p.limit,
            tags: p.tags.clone(),
            tag_mode: p.tag_mode.clone(),
            tag_match: p.tag_match.clone(),
            exclude_tags: p.exclude_tags.clone(),
            since: p.start.clone().or_else(|| p.time_query.clone()),
            until: p.end.clone().or_else(|| p.time_query.clone()),
            sort: p.sort.clone(),
            expand_relations: p.expand_relations,
            expand_entities: p.expand_entities,
            relation_limit: p.relation_limit,
            expansion_limit: p.expansion_limit,
            ..RecallParams::default()
        };
        let texts: Vec<Option<String>> =
            if queries.is_empty() { vec![None] } else { queries.iter().cloned().map(Some).collect() };
        let runs = texts
            .into_iter()
            .map(|q| RecallRequest::parse(params(q), now).map_err(|e| e.renamed(&names)))
            .collect::<Result<Vec<_>, _>>()?;
        let (limit, sort) = (runs[0].limit as usize, runs[0].sort);
        Ok(Self { runs, queries, min_score, context_tags, limit, sort })
    }
}

/// The entity types' names, for schemas.
pub use crate::entities::TYPES as ENTITY_TYPES;

/// Entity-grouped recall (textrawl's `recall_memories`; native `POST /api/v1/recall/entities` and MCP's
/// `recall_memories`).
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(example = &*GROUPED_EXAMPLE)]
pub struct GroupedParams {
    /// What to look for, 1..=1000 characters.
    #[schemars(length(min = 1, max = MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// Only these entity types (default: all).
    #[serde(default)]
    #[schemars(with = "Vec<String>", extend("items" = {"type": "string", "enum": ENTITY_TYPES}))]
    pub entity_types: StringList,
    /// Memories to return, 1..=50 (default 10).
    #[schemars(range(min = 1, max = MAX_GROUPED))]
    pub limit: Option<i64>,
    /// `hybrid` (default: keywords and meaning) or `semantic`.
    #[schemars(extend("enum" = ["hybrid", "semantic"]))]
    pub search_mode: Option<String>,
    /// Short keys (default: the deployment's `CAIRN_COMPACT_RESPONSES`, true unless changed).
    pub compact: Option<bool>,
}

static GROUPED_EXAMPLE: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| {
    serde_json::json!({"query": "user preferences for development tools", "entityTypes": ["person", "preference"],
        "limit": 10, "searchMode": "hybrid"})
});

/// A validated entity-grouped recall.
#[derive(Debug, Clone)]
pub struct GroupedRequest {
    pub query: String,
    pub kinds: Vec<&'static str>,
    pub limit: i64,
    /// `hybrid` or `semantic`.
    pub mode: Mode,
    pub compact: Option<bool>,
}

impl GroupedRequest {
    /// Validates with textrawl's error words ("Invalid query length", "Invalid limit", "Invalid entity
    /// type").
    pub fn parse(p: GroupedParams) -> Result<Self, Error> {
        let query = p.query.as_deref().map(str::trim).unwrap_or("");
        let chars = query.chars().count();
        if chars == 0 || chars > MAX_QUERY_CHARS {
            return Err(bad(
                "query",
                format!("Invalid query length: must be 1..={MAX_QUERY_CHARS} characters (got {chars})"),
            ));
        }
        let limit = p.limit.unwrap_or(DEFAULT_GROUPED);
        if !(1..=MAX_GROUPED).contains(&limit) {
            return Err(bad("limit", format!("Invalid limit: must be between 1 and {MAX_GROUPED} (got {limit})")));
        }
        validate::check_len("entityTypes", p.entity_types.0.len(), validate::MAX_ENTITY_TYPES)?;
        let kinds = p
            .entity_types
            .0
            .iter()
            .map(|t| crate::entities::entity_type("entityTypes", t))
            .collect::<Result<_, _>>()?;
        let mode = match p.search_mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("hybrid") => Mode::Hybrid,
            Some("semantic") => Mode::Semantic,
            Some(other) => return Err(bad("searchMode", format!("must be hybrid or semantic (got {other:?})"))),
        };
        Ok(Self { query: query.to_owned(), kinds, limit, mode, compact: p.compact })
    }

    /// The wide recall behind it: memories without an entity of the wanted types are dropped afterwards.
    pub fn recall(&self, now: DateTime<Utc>) -> Result<RecallRequest, Error> {
        let mode = if self.mode == Mode::Semantic { "semantic" } else { "hybrid" };
        let params = RecallParams {
            query: Some(self.query.clone()),
            mode: Some(mode.to_owned()),
            limit: Some(MAX_LIMIT),
            ..RecallParams::default()
        };
        RecallRequest::parse(params, now)
    }
}

/// Proactive context (SHODH's `/api/context`, MCP's `proactive_context`): surface the memories relevant to
/// a conversation, then store it.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[schemars(example = &*CONTEXT_EXAMPLE)]
pub struct ContextParams {
    /// The current conversation context or user message (1..=2000 characters when ingested; the first 1000
    /// characters are searched).
    #[schemars(length(min = 1, max = crate::memory::MAX_CONTENT_CHARS))]
    pub context: Option<String>,
    /// 1..=20, default 5.
    #[schemars(range(min = 1, max = MAX_SURFACED))]
    pub max_results: Option<i64>,
    /// Store the context as a Conversation memory (default true).
    pub auto_ingest: Option<bool>,
}

static CONTEXT_EXAMPLE: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(
    || serde_json::json!({"context": "I'm working on the authentication system", "max_results": 5, "auto_ingest": true}),
);
