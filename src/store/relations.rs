//! SQL for the knowledge graph: associations between two memories of one tenant, recursive traversal,
//! and episodes.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sqlx::types::Json;
use uuid::Uuid;

use super::memories::MEMORY_COLUMNS;
use super::Local;
use super::TenantTx;
use crate::error::Error;
use crate::graph::{Association, NewAssociation, PathStep, Reached, Walk};
use crate::memory::Memory;

const COLUMNS: &str =
    "id, source_id AS memory1_id, target_id AS memory2_id, rel_type, strength, properties, created_at, updated_at";

/// Which of these ids are memories of the transaction's tenant.
pub async fn existing(tx: &mut TenantTx, ids: &[Uuid]) -> Result<HashSet<Uuid>, Error> {
    let tenant_id = tx.tenant_id();
    let found: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM memories WHERE tenant_id = $1 AND id = ANY($2)")
        .bind(tenant_id)
        .bind(ids)
        .fetch_all(tx.conn())
        .await?;
    Ok(found.into_iter().collect())
}

/// Stores an association; an existing edge of the same type between the same memories takes the new
/// strength and properties. Both memories must exist (see [`existing`]); the foreign keys and row-level
/// security refuse anything else.
pub async fn upsert(tx: &mut TenantTx, a: &NewAssociation) -> Result<Association, Error> {
    let tenant_id = tx.tenant_id();
    let sql = format!(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength, properties)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, source_id, target_id, rel_type)
         DO UPDATE SET strength = EXCLUDED.strength, base_strength = EXCLUDED.strength,
                       properties = EXCLUDED.properties, learned_at = NULL
         RETURNING {COLUMNS}"
    );
    Ok(sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(a.source)
        .bind(a.target)
        .bind(a.rel_type)
        .bind(a.strength)
        .bind(Json(&a.properties))
        .fetch_one(tx.conn())
        .await?)
}

/// Deletes one association; false when the tenant has none with this id.
pub async fn delete(tx: &mut TenantTx, id: Uuid) -> Result<bool, Error> {
    let tenant_id = tx.tenant_id();
    let done = sqlx::query("DELETE FROM relations WHERE tenant_id = $1 AND id = $2")
        .bind(tenant_id)
        .bind(id)
        .execute(tx.conn())
        .await?;
    Ok(done.rows_affected() == 1)
}

/// A page of the tenant's associations, newest first (those touching `memory` in either direction when
/// given), with the total.
pub async fn list(
    tx: &mut TenantTx,
    memory: Option<Uuid>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Association>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let filter = "tenant_id = $1 AND ($2::uuid IS NULL OR source_id = $2 OR target_id = $2)";
    let total: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM relations WHERE {filter}"))
        .bind(tenant_id)
        .bind(memory)
        .fetch_one(tx.conn())
        .await?;
    let sql = format!("SELECT {COLUMNS} FROM relations WHERE {filter} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4");
    let page = sqlx::query_as(&sql).bind(tenant_id).bind(memory).bind(limit).bind(offset).fetch_all(tx.conn()).await?;
    Ok((page, total))
}

/// Deletes every association from `source` to `target` (any type); how many.
pub async fn delete_between(tx: &mut TenantTx, source: Uuid, target: Uuid) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let done = sqlx::query("DELETE FROM relations WHERE tenant_id = $1 AND source_id = $2 AND target_id = $3")
        .bind(tenant_id)
        .bind(source)
        .bind(target)
        .execute(tx.conn())
        .await?;
    Ok(done.rows_affected())
}

/// Most edges one hop of a walk reads (its strongest first).
const MAX_HOP_EDGES: i64 = 20_000;

/// Memories reached from `start` within `walk.depth` hops (either edge direction), each once at its
/// strongest path (the product of the edge strengths; a path never revisits a memory). A frontier walk: each
/// hop reads the edges of the memories the previous hop reached, keeping one path per memory, so the work
/// grows with the edges, not with the paths (a walk of depth 3 on 120 memories linked pairwise enumerated
/// every path: 25 s). One statement per hop, at most [`MAX_HOP_EDGES`] edges each.
pub async fn related(tx: &mut TenantTx, start: Uuid, walk: &Walk) -> Result<Vec<Reached>, Error> {
    use std::collections::HashMap;
    let tenant_id = tx.tenant_id();
    // Each hop planned for its frontier: a generic plan compares every edge with every frontier node one by one
    // (35 ms a hop for a hub's 1,500 spokes), a custom one hashes the frontier (2 ms).
    super::set_local(tx.conn(), &[("plan_cache_mode", Local::Word("force_custom_plan"))]).await?;
    // node -> (depth, strength, path)
    let mut best: HashMap<Uuid, (i32, f64, Vec<PathStep>)> = HashMap::new();
    let mut frontier: HashMap<Uuid, (f64, Vec<PathStep>)> = HashMap::from([(start, (1.0, Vec::new()))]);
    for depth in 1..=walk.depth {
        if frontier.is_empty() {
            break;
        }
        let nodes: Vec<Uuid> = frontier.keys().copied().collect();
        // Past the first hop, edges that touch the start lead nowhere (a path never returns to it): left out, so
        // a hub's spokes do not read their thousands of edges back to the hub at every further hop.
        let edges: Vec<(Uuid, Uuid, Uuid, String, f32)> = sqlx::query_as(
            "SELECT id, source_id, target_id, rel_type, strength FROM relations
              WHERE tenant_id = $1 AND (source_id = ANY($2) OR target_id = ANY($2))
                AND strength >= $3 AND ($4::text[] IS NULL OR rel_type = ANY($4))
                AND ($6 OR (source_id <> $7 AND target_id <> $7))
              ORDER BY strength DESC, id LIMIT $5",
        )
        .bind(tenant_id)
        .bind(&nodes)
        .bind(walk.min_strength)
        .bind(walk.types.clone())
        .bind(MAX_HOP_EDGES)
        .bind(depth == 1)
        .bind(start)
        .fetch_all(tx.conn())
        .await?;
        let mut next: HashMap<Uuid, (f64, Vec<PathStep>)> = HashMap::new();
        for (id, source, target, rel_type, strength) in edges {
            for (from, to) in [(source, target), (target, source)] {
                let Some((reached, path)) = frontier.get(&from) else { continue };
                // A simple path: never back to the start or a memory already on it.
                if to == start || path.iter().any(|step| step.from == to) {
                    continue;
                }
                let value = reached * f64::from(strength);
                if next.get(&to).is_some_and(|(v, _)| *v >= value) {
                    continue;
                }
                let mut extended = path.clone();
                extended.push(PathStep {
                    association_id: id,
                    from,
                    to,
                    rel_type: rel_type.clone(),
                    strength: f64::from(strength),
                });
                next.insert(to, (value, extended));
            }
        }
        for (node, (value, path)) in &next {
            if best.get(node).is_none_or(|(_, v, _)| value > v) {
                best.insert(*node, (depth, *value, path.clone()));
            }
        }
        frontier = next;
    }
    // Ranked and cut before any memory is read: only the `limit` best are loaded (a hub's 1,500 spokes with
    // their metadata cost 0.9 s and 55 MiB for `limit=1`). Ids whose memory is gone meanwhile are skipped, and
    // the next ones read in their place.
    let mut ranked: Vec<(Uuid, i32, f64)> = best.iter().map(|(id, (depth, value, _))| (*id, *depth, *value)).collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.1.cmp(&b.1)).then(a.0.cmp(&b.0)));
    let limit = usize::try_from(walk.limit).unwrap_or(0);
    let mut reached: Vec<Reached> = Vec::with_capacity(limit.min(ranked.len()));
    let sql = format!("SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = ANY($2)");
    for chunk in ranked.chunks(limit.max(1)) {
        if reached.len() >= limit {
            break;
        }
        let ids: Vec<Uuid> = chunk.iter().map(|(id, _, _)| *id).collect();
        let memories: Vec<Memory> = sqlx::query_as(&sql).bind(tenant_id).bind(&ids).fetch_all(tx.conn()).await?;
        let mut by_id: HashMap<Uuid, Memory> = memories.into_iter().map(|m| (m.id, m)).collect();
        for (id, _, _) in chunk {
            if reached.len() >= limit {
                break;
            }
            let (Some(memory), Some((depth, strength, path))) = (by_id.remove(id), best.remove(id)) else { continue };
            reached.push(Reached { memory, depth, path_strength: strength, path: Json(path) });
        }
    }
    Ok(reached)
}

/// An episode's memories in `sequence_number` order (then time), with the episode's size.
pub async fn episode(
    tx: &mut TenantTx,
    episode_id: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Memory>, i64), Error> {
    let tenant_id = tx.tenant_id();
    let total: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1 AND episode_id = $2")
        .bind(tenant_id)
        .bind(episode_id)
        .fetch_one(tx.conn())
        .await?;
    let sql = format!(
        "SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND episode_id = $2
         ORDER BY sequence_number NULLS LAST, created_at, id LIMIT $3 OFFSET $4"
    );
    let memories =
        sqlx::query_as(&sql).bind(tenant_id).bind(episode_id).bind(limit).bind(offset).fetch_all(tx.conn()).await?;
    Ok((memories, total))
}

/// Longest supersede chain followed to its head.
pub const MAX_CHAIN: i32 = 5;

/// Marks `old` as superseded by `new` (same transaction as storing `new`): `t_invalid` now, the new id and
/// the reason in its metadata, a `superseded` event, and the edge old → new. False when `old` does not exist.
pub async fn supersede(
    tx: &mut TenantTx,
    old: Uuid,
    new: Uuid,
    relation: &'static str,
    reason: Option<&str>,
    actor: &str,
) -> Result<bool, Error> {
    let tenant_id = tx.tenant_id();
    let snapshot = super::events::SNAPSHOT;
    let sql = format!(
        "WITH before AS MATERIALIZED (SELECT {snapshot} AS snap FROM memories m WHERE tenant_id = $1 AND id = $2 FOR UPDATE),
         changed AS (
            UPDATE memories SET t_invalid = coalesce(least(t_invalid, $7), $7),
                metadata = metadata || jsonb_strip_nulls(jsonb_build_object(
                    'superseded_by', $3::text, 'supersede_relation', $4::text, 'supersede_reason', $5::text))
            WHERE tenant_id = $1 AND id = $2 RETURNING *
         )
         INSERT INTO memory_events (tenant_id, memory_id, event_type, actor, before, after)
         SELECT m.tenant_id, m.id, 'superseded', $6, (SELECT snap FROM before), {snapshot} FROM changed m
         RETURNING memory_id"
    );
    let done: Option<Uuid> = sqlx::query_scalar(&sql)
        .bind(tenant_id)
        .bind(old)
        .bind(new.to_string())
        .bind(relation)
        .bind(reason)
        .bind(actor)
        // Now, bound (Citus refuses a clock read inside an UPDATE's COALESCE).
        .bind(chrono::Utc::now())
        .fetch_optional(tx.conn())
        .await?;
    if done.is_none() {
        return Ok(false);
    }
    let properties = reason.map_or_else(|| serde_json::json!({}), |r| serde_json::json!({"reason": r}));
    upsert(tx, &NewAssociation { source: old, target: new, rel_type: relation, strength: 1.0, properties }).await?;
    Ok(true)
}

/// Most superseding edges followed out of one memory (a fork wider than this keeps its newest).
pub const MAX_CHAIN_FORK: i64 = 16;

/// [`chain_heads`]' statement: `$1` the tenant, `$2` the memories, `$3` the most hops; the superseding relation
/// types are written in, so that each probe reads `relations_superseding_idx` (those edges only). Each step
/// looks up the edges of the chain's current memories by their id (a `LATERAL` subquery with a `LIMIT` is never
/// flattened into a join): joined instead, the planner, which expects a recursive step to yield many rows,
/// hashed every superseding-type edge of the tenant, and `rel_type` is the edge key's last column, so that read
/// all the tenant's edges (SIMILAR_TO ones included) on every recall: 15-19 ms with 135k edges in a tenant of
/// 100k memories, against 0.9 ms looked up by id.
/// The memories an edge leads to, and the heads, are looked up by their id the same way, whatever the statistics
/// say: joined, a tenant the statistics had not yet seen (estimated at one live memory) was walked whole as the
/// outer side of each step, the chain's rows and their edges probed again for each of its memories (1,261
/// memories × 400 results: 504,400 edge probes, 0.57-0.66 s of a LongMemEval recall, against 2.6 ms by id), and
/// the heads hashed against another walk of it. Ties between edges of one instant go to the larger id, so the
/// head never depends on the plan.
pub fn chain_heads_sql() -> String {
    let types = superseding_list();
    format!(
        "WITH RECURSIVE chain(start, node, hops, at) AS (
            SELECT id, id, 0, now() FROM unnest($2::uuid[]) AS id
          UNION ALL
            SELECT c.start, r.target_id, c.hops + 1, r.created_at
            FROM chain c CROSS JOIN LATERAL (
                SELECT r.target_id, r.created_at FROM relations r
                 WHERE r.tenant_id = $1 AND r.source_id = c.node AND r.rel_type IN ({types})
                 ORDER BY r.created_at DESC LIMIT {MAX_CHAIN_FORK}
            ) r
            CROSS JOIN LATERAL (
                SELECT 1 FROM memories h WHERE h.tenant_id = $1 AND h.id = r.target_id AND h.archived_at IS NULL LIMIT 1
            ) h
            WHERE c.hops < $3
        ),
        heads AS (
            SELECT DISTINCT ON (start) start, node FROM chain WHERE hops > 0 ORDER BY start, hops DESC, at DESC, node DESC
        )
        SELECT heads.start, m.* FROM heads CROSS JOIN LATERAL (
            SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant_id = $1 AND id = heads.node LIMIT 1
        ) m"
    )
}

/// The superseding types as SQL constants, `'INVALIDATED_BY', 'EVOLVED_INTO'`, as `relations_superseding_idx`'s
/// predicate names them (migration 42), so that even a generic plan proves it; fixed words, never input.
fn superseding_list() -> String {
    let quoted = |t: &str| {
        debug_assert!(t.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'), "{t} is not a relation type");
        format!("'{t}'")
    };
    crate::graph::SUPERSEDING.map(quoted).join(", ")
}

/// For each memory that has been superseded, the head of its chain (following INVALIDATED_BY and
/// EVOLVED_INTO edges, at most [`MAX_CHAIN`] hops; the newest branch where a chain forks), as
/// `(superseded id, head)`. Memories not superseded are left out; archived heads are not followed.
pub async fn chain_heads(tx: &mut TenantTx, ids: &[Uuid]) -> Result<Vec<(Uuid, Memory)>, Error> {
    let tenant_id = tx.tenant_id();
    let sql = chain_heads_sql();
    #[derive(sqlx::FromRow)]
    struct Row {
        start: Uuid,
        #[sqlx(flatten)]
        head: Memory,
    }
    let rows: Vec<Row> = sqlx::query_as(&sql).bind(tenant_id).bind(ids).bind(MAX_CHAIN).fetch_all(tx.conn()).await?;
    Ok(rows.into_iter().map(|r| (r.start, r.head)).collect())
}

/// A memory one edge away from a recalled one.
#[derive(Debug, sqlx::FromRow)]
pub struct Neighbour {
    /// The recalled memory it was reached from.
    pub origin: Uuid,
    pub rel_type: String,
    pub strength: f32,
    #[sqlx(flatten)]
    pub memory: Memory,
}

/// A memory one edge away, without the memory itself (for spreading activation).
#[derive(Debug, sqlx::FromRow)]
pub struct NeighbourEdge {
    pub origin: Uuid,
    pub neighbour: Uuid,
    pub strength: f32,
}

/// The direct neighbours (either edge direction) of `$2`, each by its strongest edge, at most `$3` per
/// origin and `$4` in all, archived ones only with `$5`, and (with `$6`) only those not among `$2`;
/// selecting `columns` of the ranked edge `r` and the memory `m`.
fn neighbour_sql(columns: &str) -> String {
    format!(
        "WITH edges AS (
            SELECT source_id AS origin, target_id AS neighbour, rel_type, strength FROM relations
             WHERE tenant_id = $1 AND source_id = ANY($2)
            UNION ALL
            SELECT target_id, source_id, rel_type, strength FROM relations
             WHERE tenant_id = $1 AND target_id = ANY($2)
        ),
        best AS (
            SELECT DISTINCT ON (neighbour) origin, neighbour, rel_type, strength FROM edges
             WHERE NOT ($6 AND neighbour = ANY($2)) ORDER BY neighbour, strength DESC, origin
        ),
        ranked AS (
            SELECT *, row_number() OVER (PARTITION BY origin ORDER BY strength DESC, neighbour) AS n FROM best
        )
        SELECT {columns}
        FROM ranked r JOIN memories m ON m.tenant_id = $1 AND m.id = r.neighbour
        WHERE r.n <= $3 AND ($5 OR m.archived_at IS NULL)
        ORDER BY r.strength DESC, m.id LIMIT $4"
    )
}

/// The direct neighbours of `ids` that are not among them, with their memories (recall's expansions).
pub async fn neighbours(
    tx: &mut TenantTx,
    ids: &[Uuid],
    per_origin: i64,
    total: i64,
    include_archived: bool,
) -> Result<Vec<Neighbour>, Error> {
    let tenant_id = tx.tenant_id();
    let sql = neighbour_sql(&format!("r.origin, r.rel_type, r.strength, {MEMORY_COLUMNS}"));
    Ok(sqlx::query_as(&sql)
        .bind(tenant_id)
        .bind(ids)
        .bind(per_origin)
        .bind(total)
        .bind(include_archived)
        .bind(true)
        .fetch_all(tx.conn())
        .await?)
}

/// The direct neighbours of `ids` (possibly among them), edges only: spreading activation reads no memory
/// it does not end up scoring, and the candidates it scores are loaded once, with the others.
pub async fn neighbour_edges(
    tx: &mut TenantTx,
    ids: &[Uuid],
    per_origin: i64,
    total: i64,
    include_archived: bool,
) -> Result<Vec<NeighbourEdge>, Error> {
    let tenant_id = tx.tenant_id();
    Ok(sqlx::query_as(&neighbour_sql("r.origin, r.neighbour, r.strength"))
        .bind(tenant_id)
        .bind(ids)
        .bind(per_origin)
        .bind(total)
        .bind(include_archived)
        .bind(false)
        .fetch_all(tx.conn())
        .await?)
}

/// Hebbian learning: the edges between memories recalled together grow by `rate * (1 - strength)`.
pub async fn strengthen(tx: &mut TenantTx, ids: &[Uuid], rate: f64) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let done = sqlx::query(
        "UPDATE relations SET strength = least(1, strength + $3 * (1 - strength)), learned_at = now()
         WHERE tenant_id = $1 AND source_id = ANY($2) AND target_id = ANY($2)",
    )
    .bind(tenant_id)
    .bind(ids)
    .bind(rate as f32)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

/// Daily factor by which learned strength (above an edge's base) fades while it is not reinforced.
pub const LEARNED_DECAY_PER_DAY: f64 = 0.95;
/// Learned strength below this is gone: the edge returns to its base and stops being rewritten.
pub const LEARNED_FLOOR: f32 = 0.001;

/// Consolidation's edge decay: the part of each edge's strength that Hebbian learning added above its base
/// fades by [`LEARNED_DECAY_PER_DAY`] per day since it last changed (fractional days count, so running
/// this often decays no faster than running it daily); once under [`LEARNED_FLOOR`] it is dropped.
/// Authored strength is never decayed. Returns how many edges changed.
pub async fn decay_learned(tx: &mut TenantTx, now: DateTime<Utc>) -> Result<u64, Error> {
    let tenant_id = tx.tenant_id();
    let done = sqlx::query(
        "WITH d AS (
            SELECT id, base_strength + (strength - base_strength)
                       * power($2::float8, extract(epoch FROM ($3 - learned_at)) / 86400.0)::real AS decayed
              FROM relations WHERE tenant_id = $1 AND strength > base_strength AND learned_at < $3
         )
         UPDATE relations r
            SET strength = CASE WHEN d.decayed - r.base_strength < $4 THEN r.base_strength ELSE d.decayed END,
                learned_at = CASE WHEN d.decayed - r.base_strength < $4 THEN NULL ELSE $3 END
           FROM d WHERE r.tenant_id = $1 AND r.id = d.id",
    )
    .bind(tenant_id)
    .bind(LEARNED_DECAY_PER_DAY)
    .bind(now)
    .bind(LEARNED_FLOOR)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index's predicate must be implied by the statement's list, or every probe falls back to the edge key:
    /// a change of `SUPERSEDING` needs a migration that replaces `relations_superseding_idx`.
    #[test]
    fn the_superseding_index_names_exactly_the_superseding_types() {
        let migration = include_str!("../../migrations/20261205000042_superseding_edges.sql");
        let predicate = format!("WHERE rel_type IN ({})", superseding_list());
        assert!(migration.contains(&predicate), "migration 42's predicate is not `{predicate}`");
        assert!(chain_heads_sql().contains(&format!("r.rel_type IN ({})", superseding_list())));
    }
}
