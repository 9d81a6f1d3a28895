//! Scoring is not tied to one model's cosine range (`models::embed::calibrate`): a second embedder of the
//! suite's own, whose cosines are an affine squash of a first one's (0.15 · cosine + 0.85, the shape of
//! models that put every text above 0.8), ranks and scores the same memories exactly as the first.

use std::sync::Arc;

use cairn::models::embed::{EmbedFuture, Embedder};
use serde_json::{json, Value};

use crate::helpers::{spawn_with_embedder, TestApp};

const DIM: usize = 384;

/// Words hashed into 383 buckets, counted and normalised, then placed on a cone: `[√a · v, √(1-a)]`. Two
/// texts' cosine is `a · cos(v₁, v₂) + (1 - a)`: exactly an affine change of the bag-of-words cosine.
pub struct Words {
    pub squash: f64,
}

impl Words {
    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f64; DIM - 1];
        for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let hash = word
                .to_lowercase()
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
            v[(hash % (DIM as u64 - 1)) as usize] += 1.0;
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
        let mut out: Vec<f32> = v.iter().map(|x| (self.squash.sqrt() * x / norm) as f32).collect();
        out.push((1.0 - self.squash).sqrt() as f32);
        out
    }
}

impl Embedder for Words {
    fn model(&self) -> &str {
        "test-words"
    }
    fn dimension(&self) -> usize {
        DIM
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let out = texts.iter().map(|t| self.vector(t)).collect();
        Box::pin(async move { Ok(out) })
    }
}

const MEMORIES: [&str; 8] = [
    "The deploy pipeline runs the database migrations before the new release starts",
    "Alice moved the staging database to a bigger machine last week",
    "Bob prefers short standups and writes the release notes himself",
    "The release of version two slipped because the payment tests failed",
    "Lunch on Fridays is pizza at the office kitchen",
    "The database backups run every night and are kept for thirty days",
    "Carol reviews every pull request that touches the payment code",
    "The office kitchen got a new coffee machine in spring",
];

/// (content, score, semantic component) of each result, in rank order.
async fn ranked(app: &TestApp, query: &str, mode: &str) -> Vec<(String, f64, f64)> {
    let body = app
        .post(&app.a.key, "/api/v1/recall", &json!({"query": query, "mode": mode, "limit": 8}))
        .await
        .ok(200)
        .clone();
    body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r: &Value| {
            (
                r["memory"]["content"].as_str().unwrap().to_owned(),
                r["score"].as_f64().unwrap(),
                r["score_components"]["semantic"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect()
}

async fn app_with(squash: f64) -> TestApp {
    let embedder = Arc::new(Words { squash });
    let app = spawn_with_embedder(embedder.clone()).await;
    for (i, content) in MEMORIES.iter().enumerate() {
        // Vectors supplied with the memory; one importance apart so no two memories tie on the priors.
        let vector = embedder.vector(content);
        app.store(&app.a.key, json!({"content": content, "embedding": vector, "importance": 0.3 + 0.05 * i as f64}))
            .await;
    }
    app
}

#[tokio::test]
async fn a_model_with_another_cosine_range_ranks_and_scores_as_the_first() {
    let (plain, squashed) = (app_with(1.0).await, app_with(0.15).await);
    let mut compared = 0;
    for query in ["when do the database migrations run", "who writes the release notes", "office kitchen coffee"] {
        for mode in ["semantic", "hybrid"] {
            let (a, b) = (ranked(&plain, query, mode).await, ranked(&squashed, query, mode).await);
            assert!(!a.is_empty(), "{query} / {mode}: nothing found");
            let order = |r: &[(String, f64, f64)]| r.iter().map(|(c, _, _)| c.clone()).collect::<Vec<_>>();
            assert_eq!(order(&a), order(&b), "{query} / {mode}: the same order with either scale");
            for ((content, score_a, sem_a), (_, score_b, sem_b)) in a.iter().zip(&b) {
                assert!((sem_a - sem_b).abs() < 1e-4, "{query} / {mode} / {content}: semantic {sem_a} vs {sem_b}");
                // Recency differs by the milliseconds between the two apps' stores.
                assert!((score_a - score_b).abs() < 1e-3, "{query} / {mode} / {content}: score {score_a} vs {score_b}");
                compared += 1;
            }
        }
    }
    assert!(compared > 20, "{compared}");
    // Not vacuous: the squashed model's raw cosines really are elsewhere (its background well above 0.8).
    let scale = squashed.services.embedder.calibration().await;
    assert!(scale.mean > 0.8, "{scale:?}");
}
