//! Parity test: `LocalEmbedder` against reference vectors for all-MiniLM-L6-v2 that were computed independently
//! (float64 numpy BERT forward, truncation at 256 tokens, masked mean pooling, L2 norm).
//!
//! The reference texts are embedded twice: all in one padded batch and each on its own. Both must give cosine
//! >= 0.999 against the reference, which checks the tokenizer settings, the padding mask, pooling and normalisation.
//!
//! The reference vectors are `tests/fixtures/all-MiniLM-L6-v2-reference.json` (see `tests/fixtures/README.md`).
//! The model directory is `CAIRN_MODEL_DIR`, or `$HOME/.cache/cairn/models/all-MiniLM-L6-v2` by default. The test
//! fails if the model or the reference file is missing. Without `opt-level = 3` for the candle crates, a debug
//! build runs this test very slowly. `cargo test --test embed_reference -- --nocapture` prints each cosine.

use std::path::PathBuf;
use std::time::Instant;

use cairn::models::embed::local::LocalEmbedder;
use serde::Deserialize;

const REFERENCE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/all-MiniLM-L6-v2-reference.json");
const MIN_COSINE: f64 = 0.999;

#[derive(Deserialize)]
struct Reference {
    model: String,
    items: Vec<ReferenceItem>,
}

#[derive(Deserialize)]
struct ReferenceItem {
    text: String,
    tokens: usize,
    embedding: Vec<f64>,
}

fn model_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CAIRN_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").expect("neither CAIRN_MODEL_DIR nor HOME is set; cannot find the model");
    PathBuf::from(home).join(".cache/cairn/models/all-MiniLM-L6-v2")
}

fn load_reference() -> Reference {
    let text = std::fs::read_to_string(REFERENCE_PATH)
        .unwrap_or_else(|e| panic!("cannot read the reference vectors at {REFERENCE_PATH}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{REFERENCE_PATH} is not valid reference JSON: {e}"))
}

fn load_embedder() -> LocalEmbedder {
    let dir = model_dir();
    LocalEmbedder::load(&dir)
        .unwrap_or_else(|e| panic!("cannot load the model from {} (set CAIRN_MODEL_DIR): {e:#}", dir.display()))
}

fn cosine(actual: &[f32], expected: &[f64]) -> f64 {
    assert_eq!(actual.len(), expected.len(), "vector length differs from the reference");
    let dot: f64 = actual.iter().zip(expected).map(|(a, e)| f64::from(*a) * e).sum();
    let norm_actual = actual.iter().map(|a| f64::from(*a).powi(2)).sum::<f64>().sqrt();
    let norm_expected = expected.iter().map(|e| e * e).sum::<f64>().sqrt();
    dot / (norm_actual * norm_expected)
}

fn norm(vector: &[f32]) -> f64 {
    vector.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>().sqrt()
}

/// Prints and checks one vector; returns a description of the failure, if any.
fn check(mode: &str, item: &ReferenceItem, actual: &[f32]) -> Option<String> {
    let cos = cosine(actual, &item.embedding);
    let length = norm(actual);
    let preview: String = item.text.chars().take(48).collect();
    println!("{mode:<6} cos={cos:.6} norm={length:.6} ref_tokens={:<3} {preview:?}", item.tokens);
    if cos < MIN_COSINE || (length - 1.0).abs() > 1e-4 {
        return Some(format!("{mode}: cos={cos:.6} norm={length:.6} for {preview:?}"));
    }
    None
}

#[test]
fn local_embedder_matches_sentence_transformers_reference() {
    let reference = load_reference();
    assert!(!reference.items.is_empty(), "{REFERENCE_PATH} has no items");
    let embedder = load_embedder();
    println!("model {} (reference: {}), dimension {}", embedder.model_name(), reference.model, embedder.dimension());
    assert_eq!(embedder.dimension(), reference.items[0].embedding.len(), "dimension differs from the reference");

    let texts: Vec<&str> = reference.items.iter().map(|item| item.text.as_str()).collect();
    let started = Instant::now();
    let batch = embedder.embed_batch(&texts).unwrap_or_else(|e| panic!("embedding the batch failed: {e:#}"));
    println!("batch of {} texts in {:?}", texts.len(), started.elapsed());
    assert_eq!(batch.len(), texts.len(), "one vector per text");

    let mut failures = Vec::new();
    for (item, batched) in reference.items.iter().zip(&batch) {
        let single = embedder
            .embed_batch(&[item.text.as_str()])
            .unwrap_or_else(|e| panic!("embedding {:?} alone failed: {e:#}", item.text));
        assert_eq!(single.len(), 1, "one vector for one text");
        failures.extend(check("batch", item, batched));
        failures.extend(check("single", item, &single[0]));
    }
    assert!(failures.is_empty(), "vectors below cosine {MIN_COSINE} or not unit length:\n{}", failures.join("\n"));
}

#[test]
fn empty_batch_returns_no_vectors() {
    let embedder = load_embedder();
    let vectors = embedder.embed_batch(&[]).unwrap_or_else(|e| panic!("empty batch failed: {e:#}"));
    assert!(vectors.is_empty());
}

/// The reference scale of `models::embed::calibrate` is this model's background on its probe sentences: if
/// the model (or its tokenizer or pooling) changes, the constant must be measured again, or every other
/// model would be mapped onto a scale that no longer is MiniLM's.
#[test]
fn the_reference_scale_is_this_models_background() {
    use cairn::models::embed::calibrate::{Calibration, PROBES, REFERENCE};
    let embedder = load_embedder();
    let vectors = embedder.embed_batch(&PROBES).expect("the probes embed");
    let measured = Calibration::measure(&vectors).expect("the probes' cosines spread");
    println!("measured: mean {:.6}, spread {:.6}", measured.mean, measured.spread);
    assert!(
        (measured.mean - REFERENCE.mean).abs() < 1e-4 && (measured.spread - REFERENCE.spread).abs() < 1e-4,
        "REFERENCE is {REFERENCE:?}, the model measures {measured:?}"
    );
    for c in [0.1, 0.5, 0.8] {
        assert_eq!(measured.to_reference(c), c, "with the reference model itself, cosines are not mapped");
    }
}
