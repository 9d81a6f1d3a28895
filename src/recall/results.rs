//! What a recall returns, and the pure steps between candidates and answer: supersede heads standing in
//! for what they replace, ordering, the merge of several queries' results, and grouping by entity.

use std::collections::HashMap;

use uuid::Uuid;

use super::score::ScoreComponents;
use super::{MultiRequest, Sort, CONTEXT_BOOST};
use crate::memory::Memory;

/// One recalled memory.
#[derive(Debug, Clone)]
pub struct RecallHit {
    pub memory: Memory,
    /// Overall score in [0, 1].
    pub score: f64,
    /// `hybrid` (found by meaning and keywords), `semantic`, `keyword`, `associative`, or `filter` (no query).
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
    /// Set when this memory stands in for a superseded one that matched (`state_mode=current`): its id.
    pub replaces: Option<Uuid>,
}

/// A recall's answer.
#[derive(Debug, Clone)]
pub struct RecallResponse {
    pub results: Vec<RecallHit>,
    /// Whether more results follow (`offset + limit`).
    pub has_more: bool,
    /// The mode actually used (`keyword` when the model is not ready for a hybrid request).
    pub mode: &'static str,
    /// Set when the answer is degraded, saying why.
    pub notice: Option<String>,
    /// With `expand_relations` / `expand_entities`: memories one association away from the results, or
    /// sharing an entity with them (not among them).
    pub expansions: Option<Vec<Expansion>>,
}

/// A memory added by `expand_relations` or `expand_entities`.
#[derive(Debug, Clone)]
pub struct Expansion {
    pub memory: Memory,
    /// The result it is associated with.
    pub expanded_from: Uuid,
    /// The association's type (`SHARES_ENTITY` for an entity expansion) and strength.
    pub relation: String,
    pub strength: f32,
    /// For an entity expansion: the shared entity, as `type:name`.
    pub entity: Option<String>,
    /// The result's score times the strength.
    pub score: f64,
}

/// Each superseded memory among the hits gives its place (and score) to the head of its chain; a head
/// found twice is kept once, at its best score.
pub fn current_state(hits: Vec<RecallHit>, mut heads: HashMap<Uuid, Memory>) -> Vec<RecallHit> {
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

/// Orders hits: by score (then newer, then id), or by time.
pub fn sort_hits(hits: &mut [RecallHit], sort: Sort) {
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

/// Merges the answers of a multi-query recall: each memory once at its best score, lifted by
/// `context_tags`, cut by `min_score`, in the requested order, at most `limit`. Expansions of one query
/// that are results of another are dropped.
pub fn merge(req: &MultiRequest, answers: Vec<RecallResponse>) -> RecallResponse {
    let mut merged: Vec<RecallHit> = Vec::new();
    let mut index: HashMap<Uuid, usize> = HashMap::new();
    let (mut mode, mut notice, mut expansions) = ("hybrid", None, None::<Vec<Expansion>>);
    for answer in answers {
        (mode, notice) = (answer.mode, answer.notice.or(notice));
        if let Some(more) = answer.expansions {
            expansions.get_or_insert_with(Vec::new).extend(more);
        }
        for hit in answer.results {
            match index.get(&hit.memory.id) {
                Some(&i) if merged[i].score >= hit.score => {}
                Some(&i) => merged[i] = hit,
                None => {
                    index.insert(hit.memory.id, merged.len());
                    merged.push(hit);
                }
            }
        }
    }
    if !req.context_tags.is_empty() {
        let context: std::collections::HashSet<&str> = req.context_tags.iter().map(String::as_str).collect();
        for hit in &mut merged {
            if hit.memory.tag_prefixes.iter().chain(&hit.memory.tags).any(|t| context.contains(t.as_str())) {
                hit.score = (hit.score + CONTEXT_BOOST).min(1.0);
            }
        }
    }
    if let Some(min) = req.min_score {
        merged.retain(|h| h.score >= f64::from(min));
    }
    // One run is already in order; merged runs and lifted scores are ordered again.
    if req.runs.len() > 1 || !req.context_tags.is_empty() {
        match req.sort {
            Sort::Score => merged.sort_by(|a, b| b.score.total_cmp(&a.score)),
            Sort::TimeDesc => merged.sort_by_key(|h| std::cmp::Reverse(h.memory.created_at)),
            Sort::TimeAsc => merged.sort_by_key(|h| h.memory.created_at),
        }
    }
    let has_more = merged.len() > req.limit;
    merged.truncate(req.limit);
    if let Some(expansions) = &mut expansions {
        expansions.retain(|e| !index.contains_key(&e.memory.id));
    }
    RecallResponse { results: merged, has_more, mode, notice, expansions }
}

/// An entity and the recalled memories that mention it.
#[derive(Debug, Clone)]
pub struct Group {
    pub entity_id: Uuid,
    pub name: String,
    pub entity_type: String,
    pub hits: Vec<RecallHit>,
}

/// A memory's mention of an entity.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Mention {
    pub memory_id: Uuid,
    pub entity_id: Uuid,
    pub entity_type: String,
    pub name: String,
}

/// The best `limit` hits that mention an entity, grouped by entity, each entity in the order its best
/// memory comes; a memory that mentions several entities appears under each. Returns the groups and the
/// hits kept.
pub fn group(hits: &[RecallHit], mentions: &[Mention], limit: usize) -> (Vec<Group>, Vec<Uuid>) {
    let mut by_memory: HashMap<Uuid, Vec<&Mention>> = HashMap::new();
    for m in mentions {
        by_memory.entry(m.memory_id).or_default().push(m);
    }
    let kept: Vec<&RecallHit> = hits.iter().filter(|h| by_memory.contains_key(&h.memory.id)).take(limit).collect();
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<Uuid, usize> = HashMap::new();
    for hit in &kept {
        for mention in &by_memory[&hit.memory.id] {
            let i = *index.entry(mention.entity_id).or_insert_with(|| {
                groups.push(Group {
                    entity_id: mention.entity_id,
                    name: mention.name.clone(),
                    entity_type: mention.entity_type.clone(),
                    hits: Vec::new(),
                });
                groups.len() - 1
            });
            groups[i].hits.push((*hit).clone());
        }
    }
    (groups, kept.iter().map(|h| h.memory.id).collect())
}
