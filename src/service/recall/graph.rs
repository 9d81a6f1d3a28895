//! The parts of recall that follow associations: `related_to`, spreading activation, supersede chains,
//! and expansions.

use std::collections::{HashMap, HashSet};

use uuid::Uuid;

use super::*;
use crate::error::{Error, Result};
use crate::graph::{RelatedParams, MAX_RELATED};
use crate::memory::{ListFilter, Memory};
use crate::recall::{Expansion, RecallRequest, RecallResponse};
use crate::store::{entities, recall as sql, relations, TenantTx};

/// `related_to`: only the memory's neighbours (one hop, either direction, its strongest 200); not found
/// when the tenant has no such memory.
pub(super) async fn restrict_to_neighbours(tx: &mut TenantTx, req: &RecallRequest) -> Result<ListFilter> {
    let mut filter = req.filter.clone();
    if let Some(id) = req.related_to {
        if relations::existing(tx, &[id]).await?.is_empty() {
            return Err(Error::not_found(format!("related_to: memory {id} not found")));
        }
        let walk = RelatedParams { limit: Some(MAX_RELATED), ..RelatedParams::default() }.parse()?;
        let reached = relations::related(tx, id, &walk).await?;
        filter.only_ids = Some(reached.into_iter().map(|r| r.memory.id).collect());
    }
    Ok(filter)
}

/// Spreading activation (SHODH's associative mode): the best semantic hits start with their cosine
/// similarity; each hop passes `activation * edge strength * HOP_DECAY` to neighbours in either edge
/// direction, a memory keeping the most it receives. Returns the activation of every memory reached.
pub(super) async fn spread(
    tx: &mut TenantTx,
    seeds: &[(Uuid, f64)],
    include_archived: bool,
) -> Result<HashMap<Uuid, f64>> {
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
pub(super) async fn chain_heads(tx: &mut TenantTx, ids: &[Uuid], req: &RecallRequest) -> Result<HashMap<Uuid, Memory>> {
    if req.history || ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(relations::chain_heads(tx, ids).await?.into_iter().collect())
}

/// `expand_relations` / `expand_entities`: adds the results' direct neighbours, then memories sharing an
/// entity with them, each memory once, within the limits and the request's filters.
pub(super) async fn expand(
    tx: &mut TenantTx,
    mut response: RecallResponse,
    req: &RecallRequest,
    filter: &ListFilter,
) -> Result<RecallResponse> {
    let Some((per_result, total)) = req.expand else { return Ok(response) };
    let ids: Vec<Uuid> = response.results.iter().map(|h| h.memory.id).collect();
    let scores: HashMap<Uuid, f64> = response.results.iter().map(|h| (h.memory.id, h.score)).collect();
    let score_of = |origin: &Uuid, strength: f32| scores.get(origin).copied().unwrap_or(0.0) * f64::from(strength);
    let mut expansions: Vec<Expansion> = Vec::new();
    if req.expand_relations && !ids.is_empty() {
        for n in relations::neighbours(tx, &ids, per_result, total, filter.include_archived).await? {
            expansions.push(Expansion {
                score: score_of(&n.origin, n.strength),
                memory: n.memory,
                expanded_from: n.origin,
                relation: n.rel_type,
                strength: n.strength,
                entity: None,
            });
        }
    }
    let room = total - expansions.len() as i64;
    if req.expand_entities && !ids.is_empty() && room > 0 {
        let found = entities::sharing(tx, &ids, per_result, total, filter.include_archived).await?;
        let mut seen: HashSet<Uuid> = expansions.iter().map(|e| e.memory.id).collect();
        for s in found.into_iter().filter(|s| seen.insert(s.memory.id)).take(room as usize) {
            expansions.push(Expansion {
                score: score_of(&s.origin, SHARED_ENTITY_STRENGTH),
                memory: s.memory,
                expanded_from: s.origin,
                relation: "SHARES_ENTITY".into(),
                strength: SHARED_ENTITY_STRENGTH,
                entity: Some(format!("{}:{}", s.entity_type, s.entity_name)),
            });
        }
    }
    // Expansions answer to the request's filters (user, agent, tags, time...) like the results do.
    let ids: Vec<Uuid> = expansions.iter().map(|e| e.memory.id).collect();
    let allowed = match ids.is_empty() {
        true => Default::default(),
        false => sql::matching(tx, filter, &ids).await?,
    };
    expansions.retain(|e| allowed.contains(&e.memory.id));
    response.expansions = Some(expansions);
    Ok(response)
}
