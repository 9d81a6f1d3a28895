//! The benches' corpus: deterministic sentences and questions, supplied vectors, and batch ingest.

use std::sync::Arc;

use cairn::models::embed::Embedder;
use serde_json::{json, Value};

const SUBJECTS: &[&str] = &[
    "The user",
    "Alice",
    "Bob",
    "Our team",
    "The client",
    "My sister",
    "The new hire",
    "Priya",
    "Marco",
    "The ops team",
];
const VERBS: &[&str] = &[
    "prefers",
    "decided to use",
    "is migrating to",
    "complained about",
    "wants to try",
    "stopped using",
    "recommended",
    "is learning",
    "fixed a bug in",
    "wrote a guide on",
];
const OBJECTS: &[&str] = &[
    "PostgreSQL",
    "dark mode",
    "Rust",
    "the billing service",
    "Kubernetes",
    "a standing desk",
    "TypeScript",
    "the Berlin office",
    "weekly retros",
    "vim keybindings",
    "the mobile app",
    "GraphQL",
    "pair programming",
    "the staging cluster",
    "Redis caching",
    "hiking trips",
    "sourdough baking",
    "the quarterly report",
    "accessibility audits",
    "the onboarding checklist",
];
const REASONS: &[&str] = &[
    "because it is faster",
    "after the outage",
    "for the next release",
    "since last spring",
    "to cut costs",
    "on weekends",
    "despite the risks",
    "as agreed in the retro",
];

/// A deterministic, varied sentence.
pub fn sentence(i: usize) -> String {
    let mut x = (i as u64).wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut pick = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    format!(
        "{} {} {} {} (note {i}).",
        SUBJECTS[pick(SUBJECTS.len())],
        VERBS[pick(VERBS.len())],
        OBJECTS[pick(OBJECTS.len())],
        REASONS[pick(REASONS.len())]
    )
}

/// The i-th question: distinct for every i below 800.
pub fn question(i: usize) -> String {
    let (subject, object) = (SUBJECTS[i % SUBJECTS.len()], OBJECTS[(i / SUBJECTS.len()) % OBJECTS.len()]);
    match (i / (SUBJECTS.len() * OBJECTS.len())) % 4 {
        0 => format!("What does {subject} think about {object}?"),
        1 => format!("Why did {subject} bring up {object}?"),
        2 => format!("{subject} and {object}: what happened?"),
        _ => format!("Tell me what {subject} said on {object}"),
    }
}

/// Vectors for supplied embeddings: one model vector per sentence template, jittered per memory.
pub struct Supplied {
    pub model: Arc<dyn Embedder>,
    pub templates: std::collections::HashMap<String, Vec<f32>>,
}

impl Supplied {
    /// Computes the vectors of the templates of sentences `range` (at most 16,000, ~90 s of the model here), so
    /// that ingest timed after it measures the service, not this client's model; returns how many it computed.
    #[allow(dead_code)] // not every bench that shares this module calls it
    pub async fn warm(&mut self, range: std::ops::Range<usize>) -> anyhow::Result<usize> {
        let before = self.templates.len();
        for start in range.clone().step_by(10_000) {
            self.vectors(start..(start + 10_000).min(range.end)).await?;
        }
        Ok(self.templates.len() - before)
    }

    pub async fn vectors(&mut self, range: std::ops::Range<usize>) -> anyhow::Result<Vec<Vec<f32>>> {
        let template = |i: usize| sentence(i).split(" (note").next().unwrap_or_default().to_owned();
        let mut missing: Vec<String> =
            range.clone().map(template).filter(|t| !self.templates.contains_key(t)).collect();
        missing.sort();
        missing.dedup();
        for chunk in missing.chunks(32) {
            for (t, v) in chunk.iter().zip(self.model.embed(chunk).await?) {
                self.templates.insert(t.clone(), v);
            }
        }
        Ok(range
            .map(|i| {
                let mut v = self.templates[&template(i)].clone();
                let mut x = i as u64 | 1;
                for f in &mut v {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *f += ((x % 2001) as f32 / 1000.0 - 1.0) * 0.01;
                }
                let norm = v.iter().map(|f| f * f).sum::<f32>().sqrt();
                v.iter().map(|f| f / norm).collect()
            })
            .collect())
    }
}

pub async fn ingest(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    from: usize,
    count: usize,
    mut supplied: Option<&mut Supplied>,
) -> anyhow::Result<()> {
    for start in (from..from + count).step_by(500) {
        let end = (start + 500).min(from + count);
        let vectors = match supplied.as_deref_mut() {
            Some(s) => s.vectors(start..end).await?.into_iter().map(Some).collect(),
            None => vec![None; end - start],
        };
        let items: Vec<Value> = (start..end)
            .zip(vectors)
            .map(|(i, v)| {
                let mut item = json!({"content": sentence(i), "tags": [format!("group:{}", i % 10)]});
                if let Some(v) = v {
                    item["embedding"] = json!(v);
                }
                item
            })
            .collect();
        let res = client
            .post(format!("{url}/api/v1/memories/batch"))
            .bearer_auth(key)
            .json(&json!({"memories": items}))
            .send()
            .await?;
        anyhow::ensure!(res.status().as_u16() == 201, "batch failed: {}", res.text().await?);
    }
    Ok(())
}
