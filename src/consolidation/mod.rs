//! Consolidation (SHODH's and AutoMem's): on demand (`POST /api/v1/consolidate`) and on a per-tenant
//! schedule. Modes:
//! - `decay`: learned association strength fades, long-term importance decays (the lifecycle rules);
//! - `creative`: association discovery — memories of *different* types whose meaning is related but not
//!   near-identical (cosine in [0.6, 0.8)) get a DISCOVERED edge, at most 50 a run;
//! - `cluster`: connected components of the horizon's memories at cosine ≥ 0.75; components of ≥ 3 are
//!   clusters, and each of ≥ 5 gets one consolidated summary memory with SUMMARIZES edges to its members
//!   (originals kept; memories already summarised are not clustered again);
//! - `forget`: active forgetting, where the tenant turned it on;
//! - `full`: all of them.
//!
//! A run is one tenant transaction; `dry_run` rolls it back, so the report says exactly what a real run
//! would have done and nothing is written.
//!
//! This module holds the vocabulary and the pure algorithms (similarity, clusters, discovery candidates,
//! cluster summaries). Runs are asked for and executed by `service::consolidation` (as `cairn::consolidate`
//! jobs); their SQL is `store::consolidation`.

use std::collections::HashMap;

use chrono::Duration;
use pgvector::Vector;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Cosine at or above which two memories belong to one cluster.
pub const CLUSTER_THRESHOLD: f64 = 0.75;
/// Members that make a cluster, and that earn it a summary memory.
pub const CLUSTER_MIN: usize = 3;
pub const SUMMARY_MIN: usize = 5;
/// Creative discovery's cosine band, and its cap per run.
pub const CREATIVE_RANGE: (f64, f64) = (0.6, 0.8);
pub const CREATIVE_MAX: usize = 50;
/// Most memories one run considers (the newest of the horizon).
pub const MAX_CONSIDERED: i64 = 2000;
/// The tag of summary memories.
pub const SUMMARY_TAG: &str = "consolidation:summary";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Decay,
    Creative,
    Cluster,
    Forget,
}

impl Mode {
    pub const ALL: [Mode; 5] = [Mode::Full, Mode::Decay, Mode::Creative, Mode::Cluster, Mode::Forget];

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str().eq_ignore_ascii_case(value.trim()))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Decay => "decay",
            Mode::Creative => "creative",
            Mode::Cluster => "cluster",
            Mode::Forget => "forget",
        }
    }

    pub fn has(self, part: Mode) -> bool {
        self == Mode::Full || self == part
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    Daily,
    Weekly,
    Monthly,
    Quarterly,
    Yearly,
}

impl Horizon {
    pub const ALL: [Horizon; 5] =
        [Horizon::Daily, Horizon::Weekly, Horizon::Monthly, Horizon::Quarterly, Horizon::Yearly];

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|h| h.as_str().eq_ignore_ascii_case(value.trim()))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Horizon::Daily => "daily",
            Horizon::Weekly => "weekly",
            Horizon::Monthly => "monthly",
            Horizon::Quarterly => "quarterly",
            Horizon::Yearly => "yearly",
        }
    }

    pub fn span(self) -> Duration {
        Duration::days(match self {
            Horizon::Daily => 1,
            Horizon::Weekly => 7,
            Horizon::Monthly => 30,
            Horizon::Quarterly => 91,
            Horizon::Yearly => 365,
        })
    }
}

/// What a run did (or, dry, would do). Kept as JSON with the run's record.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Report {
    /// Memories of the horizon considered by clustering and discovery.
    pub processed: usize,
    /// Memories archived by forgetting.
    pub archived: u64,
    /// Memories whose importance decayed.
    pub decayed: u64,
    /// DISCOVERED and SUMMARIZES edges created.
    pub associations_created: u64,
    /// Edges whose learned strength decayed.
    pub associations_decayed: u64,
    /// Clusters found (connected components of at least 3).
    pub clusters_created: usize,
    /// Summary memories written for clusters of at least 5.
    pub summaries_created: usize,
    pub duration_ms: u64,
    /// Set when part of the run was skipped, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// A memory consolidation looks at.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Item {
    pub id: Uuid,
    pub content: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub embedding: Vector,
}

/// Cosine similarity of two vectors (0 when either is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    // Stored vectors are unit length (models normalise; supplied ones are used as given).
    let (mut dot, mut na, mut nb) = (0.0_f64, 0.0_f64, 0.0_f64);
    for (x, y) in a.iter().zip(b) {
        dot += f64::from(*x) * f64::from(*y);
        na += f64::from(*x) * f64::from(*x);
        nb += f64::from(*y) * f64::from(*y);
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

/// Nearest neighbours each considered memory gets from the vector index; their pairs are the run's
/// candidates (not every pair: a run costs one index probe per memory, [`MAX_CONSIDERED`] at most).
pub const NEIGHBOURS: i64 = 16;

/// A candidate pair: indexes of two of the run's items (the lower first) and their cosine.
pub type Edge = (usize, usize, f64);

/// The candidate pairs among `items` from the index probes' (memory, neighbour, cosine) rows: each unordered
/// pair once, both ends among the items (a neighbour outside the run's set — a summary, an older memory — is
/// no candidate), the most similar first.
pub fn candidate_edges(items: &[Item], neighbours: &[(Uuid, Uuid, f64)]) -> Vec<Edge> {
    let index: HashMap<Uuid, usize> = items.iter().enumerate().map(|(i, item)| (item.id, i)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut edges: Vec<Edge> = neighbours
        .iter()
        .filter_map(|(a, b, c)| {
            let (i, j) = (*index.get(a)?, *index.get(b)?);
            (i != j && seen.insert((i.min(j), i.max(j)))).then_some((i.min(j), i.max(j), *c))
        })
        .collect();
    edges.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    edges
}

/// Connected components of the graph "cosine ≥ threshold" over the candidate `edges` of `n` items, by
/// union-find.
pub fn components(n: usize, edges: &[Edge], threshold: f64) -> Vec<Vec<usize>> {
    fn find(parent: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while parent[root] != root {
            root = parent[root];
        }
        let mut i = i;
        while parent[i] != root {
            let next = parent[i];
            parent[i] = root;
            i = next;
        }
        root
    }
    let mut parent: Vec<usize> = (0..n).collect();
    for &(i, j, c) in edges {
        if c >= threshold {
            let (a, b) = (find(&mut parent, i), find(&mut parent, j));
            if a != b {
                parent[a] = b;
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..n {
        let root = find(&mut parent, i);
        groups.entry(root).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_by_key(|g| std::cmp::Reverse(g.len()));
    out
}

/// The summary of a cluster: its most central members' first sentences, within 2000 characters.
pub fn cluster_summary(items: &[Item], members: &[usize]) -> String {
    let dim = items[members[0]].embedding.as_slice().len();
    let mut centroid = vec![0.0_f32; dim];
    for &m in members {
        for (c, v) in centroid.iter_mut().zip(items[m].embedding.as_slice()) {
            *c += v;
        }
    }
    let mut ranked: Vec<usize> = members.to_vec();
    ranked.sort_by(|a, b| {
        cosine(items[*b].embedding.as_slice(), &centroid).total_cmp(&cosine(items[*a].embedding.as_slice(), &centroid))
    });
    let mut text = format!("Summary of {} related memories: ", members.len());
    for m in ranked {
        let line = crate::memory::quality::summary(&items[m].content);
        if text.chars().count() + line.chars().count() + 3 > 1990 {
            break;
        }
        text.push_str(&line);
        text.push_str(" | ");
    }
    text.trim_end_matches(" | ").to_owned()
}

/// Creative candidates: pairs (as `[i, j]`) of memories of different types in the cosine band, the most
/// similar first.
pub fn creative_pairs(items: &[Item], edges: &[Edge]) -> Vec<Vec<usize>> {
    // `edges` come most similar first.
    edges
        .iter()
        .filter(|(i, j, c)| items[*i].kind != items[*j].kind && (CREATIVE_RANGE.0..CREATIVE_RANGE.1).contains(c))
        .map(|&(i, j, _)| vec![i, j])
        .collect()
}

/// A consolidation run, as recorded.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RunRecord {
    pub id: Uuid,
    pub mode: String,
    pub time_horizon: String,
    pub dry_run: bool,
    /// `manual` or `schedule`.
    pub trigger: String,
    /// `queued`, `done` or `failed`.
    pub status: String,
    /// The time the run works as of (when it was asked for).
    pub started_at: chrono::DateTime<chrono::Utc>,
    pub finished_at: Option<chrono::DateTime<chrono::Utc>>,
    pub report: Option<sqlx::types::Json<serde_json::Value>>,
    pub error: Option<String>,
}

/// The per-tenant schedule: each mode, its horizon and how often it runs.
pub const SCHEDULE: &[(Mode, Horizon, i64)] = &[
    (Mode::Decay, Horizon::Daily, 24),
    (Mode::Creative, Horizon::Weekly, 24 * 7),
    (Mode::Cluster, Horizon::Monthly, 24 * 7),
    (Mode::Forget, Horizon::Daily, 24),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_horizons_parse() {
        assert_eq!(Mode::parse("Cluster"), Some(Mode::Cluster));
        assert_eq!(Mode::parse("sleep"), None);
        assert_eq!(Horizon::parse("weekly").map(Horizon::span), Some(Duration::days(7)));
        assert!(Mode::Full.has(Mode::Forget) && !Mode::Decay.has(Mode::Forget));
    }

    fn item(id: u128, kind: &str) -> Item {
        Item {
            id: Uuid::from_u128(id),
            content: String::new(),
            kind: kind.into(),
            embedding: Vector::from(vec![1.0, 0.0]),
        }
    }

    #[test]
    fn candidates_are_neighbour_pairs_once_each_among_the_items() {
        let items = vec![item(1, "A"), item(2, "B"), item(3, "A"), item(4, "B")];
        let u = Uuid::from_u128;
        // Both directions of a pair, a neighbour outside the run's items, a self-match.
        let rows = vec![
            (u(1), u(2), 0.9),
            (u(2), u(1), 0.9),
            (u(3), u(9), 0.99),
            (u(4), u(3), 0.65),
            (u(2), u(3), 0.77),
            (u(1), u(1), 1.0),
        ];
        let edges = candidate_edges(&items, &rows);
        assert_eq!(edges, vec![(0, 1, 0.9), (1, 2, 0.77), (2, 3, 0.65)]);
        // A cluster follows chains of neighbours: 1-2 and 2-3 are at or above 0.75, 3-4 is not.
        assert_eq!(components(4, &edges, 0.75), vec![vec![0, 1, 2], vec![3]]);
        // Creative: different types in [0.6, 0.8), the most similar first.
        assert_eq!(creative_pairs(&items, &edges), vec![vec![1, 2], vec![2, 3]]);
    }
}
