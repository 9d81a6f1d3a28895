//! The OpenAI-compatible embedder against a scripted `/v1/embeddings` server on loopback: batching,
//! retries with backoff on 429 and 5xx, no retry on other 4xx, dimension checks.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use cairn::config::AppArgs;
use cairn::config::OpenAiConfig;
use cairn::models::embed::openai::OpenAiEmbedder;
use cairn::models::embed::Embedder;
use cairn::server::Application;
use serde_json::{json, Value};

use crate::helpers::{create_database, db_args, drop_database};

/// A scripted failure: the status and an optional `Retry-After`.
type Failure = (u16, Option<&'static str>);

/// What the scripted server answers, request by request; after the script, 200s.
#[derive(Clone, Default)]
struct Script {
    failures: Arc<Mutex<Vec<Failure>>>,
    requests: Arc<AtomicUsize>,
    batch_sizes: Arc<Mutex<Vec<usize>>>,
    auth: Arc<Mutex<Vec<String>>>,
    dim: usize,
}

async fn embeddings(State(script): State<Script>, headers: axum::http::HeaderMap, Json(body): Json<Value>) -> Response {
    script.requests.fetch_add(1, Ordering::SeqCst);
    script
        .auth
        .lock()
        .unwrap()
        .push(headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned());
    let next = {
        let mut failures = script.failures.lock().unwrap();
        (!failures.is_empty()).then(|| failures.remove(0))
    };
    if let Some((status, retry_after)) = next {
        let mut res = (StatusCode::from_u16(status).unwrap(), "scripted failure").into_response();
        if let Some(after) = retry_after {
            res.headers_mut().insert("retry-after", after.parse().unwrap());
        }
        return res;
    }
    let inputs = body["input"].as_array().unwrap();
    script.batch_sizes.lock().unwrap().push(inputs.len());
    // Answer out of order, as servers may: the client must reorder by index.
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .rev()
        .map(|(i, text)| {
            let mut v = vec![0.0_f32; script.dim];
            v[0] = text.as_str().unwrap().len() as f32;
            json!({"object": "embedding", "index": i, "embedding": v})
        })
        .collect();
    Json(json!({"object": "list", "data": data, "model": body["model"]})).into_response()
}

async fn serve(script: Script) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new().route("/v1/embeddings", post(embeddings)).with_state(script);
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}/v1")
}

fn config(base_url: String) -> OpenAiConfig {
    OpenAiConfig {
        base_url,
        api_key: Some("sk-test".to_owned().into()),
        model: "text-embedding-3-small".into(),
        dimensions: Some(384),
        expected_dim: 384,
        batch: 2,
        timeout: Duration::from_secs(5),
        retries: 3,
    }
}

fn texts(n: usize) -> Vec<String> {
    (0..n).map(|i| "x".repeat(i + 1)).collect()
}

#[tokio::test]
async fn batches_are_split_and_answers_reordered() {
    let script = Script { dim: 384, ..Script::default() };
    let embedder = OpenAiEmbedder::new(config(serve(script.clone()).await)).unwrap();
    let vectors = embedder.embed(&texts(5)).await.unwrap();
    assert_eq!(vectors.iter().map(|v| v[0]).collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(*script.batch_sizes.lock().unwrap(), [2, 2, 1]);
    assert!(script.auth.lock().unwrap().iter().all(|a| a == "Bearer sk-test"));
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_with_backoff() {
    let script = Script { dim: 384, ..Script::default() };
    *script.failures.lock().unwrap() = vec![(429, Some("0")), (503, None), (502, None)];
    let embedder = OpenAiEmbedder::new(config(serve(script.clone()).await)).unwrap();
    let vectors = embedder.embed(&texts(1)).await.unwrap();
    assert_eq!(vectors.len(), 1);
    assert_eq!(script.requests.load(Ordering::SeqCst), 4, "three failures, then success");
}

#[tokio::test]
async fn retries_end_and_other_client_errors_are_not_retried() {
    let script = Script { dim: 384, ..Script::default() };
    *script.failures.lock().unwrap() = vec![(500, None); 10];
    let base = serve(script.clone()).await;
    let embedder = OpenAiEmbedder::new(config(base.clone())).unwrap();
    let err = embedder.embed(&texts(1)).await.unwrap_err();
    assert!(format!("{err:#}").contains("500"), "{err:#}");
    // What reaches a tenant (a memory's embedding_error, a job's error) names neither the provider's address
    // nor its answer: those go to the log.
    let (host, text) = (base.trim_start_matches("http://").split('/').next().unwrap().to_owned(), format!("{err:#}"));
    assert!(!text.contains("127.0.0.1") && !text.contains(&host) && !text.contains("scripted failure"), "{text}");
    assert_eq!(script.requests.load(Ordering::SeqCst), 4, "the first attempt and three retries");

    // A server that always asks to retry later is still given up on.
    let script = Script { dim: 384, ..Script::default() };
    *script.failures.lock().unwrap() = vec![(429, Some("0")); 10];
    let embedder = OpenAiEmbedder::new(config(serve(script.clone()).await)).unwrap();
    embedder.embed(&texts(1)).await.unwrap_err();
    assert_eq!(script.requests.load(Ordering::SeqCst), 4);

    let script = Script { dim: 384, ..Script::default() };
    *script.failures.lock().unwrap() = vec![(400, None)];
    let embedder = OpenAiEmbedder::new(config(serve(script.clone()).await)).unwrap();
    let err = embedder.embed(&texts(1)).await.unwrap_err();
    assert!(format!("{err:#}").contains("400"));
    // Nobody listens here: the connection error names no address either.
    let gone = OpenAiEmbedder::new(config("http://127.0.0.1:9/v1".into())).unwrap();
    let err = format!("{:#}", gone.embed(&texts(1)).await.unwrap_err());
    assert!(!err.contains("127.0.0.1"), "{err}");
    assert_eq!(script.requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn vectors_of_another_dimension_are_refused() {
    let script = Script { dim: 768, ..Script::default() };
    let embedder = OpenAiEmbedder::new(config(serve(script.clone()).await)).unwrap();
    let err = embedder.embed(&texts(1)).await.unwrap_err();
    assert!(format!("{err:#}").contains("768-dimensional"), "{err:#}");
    assert_eq!(script.requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_deployment_dimension_unlike_the_database_column_is_a_start_up_error() {
    let (name, url) = create_database().await;
    let app = AppArgs { embedding_dim: 768, embedder: cairn::config::EmbedderKind::None, ..AppArgs::default() };
    let err = Application::build(&db_args(&url), app, "127.0.0.1:0".parse().unwrap()).await.err();
    drop_database(&name);
    let err = format!("{:#}", err.expect("start-up must fail"));
    assert!(err.contains("768") && err.contains("384"), "{err}");

    let model = AppArgs { embedding_dim: 768, ..AppArgs::default() };
    let err = cairn::models::embed::EmbedderSlot::from_config(&model.embedding())
        .err()
        .expect("the local model declares 384");
    assert!(format!("{err:#}").contains("384-dimensional"), "{err:#}");
}

/// A deployment's embedding server that is not up yet when Cairn starts (both restart together) is probed again
/// until it answers, the slot loading meanwhile: one failed probe used to fail the slot until the process
/// restarted, and its embedding jobs with it. Vectors of another dimension, or a refusal (401), which no retry
/// mends, fail the slot at once.
#[tokio::test]
async fn the_start_up_probe_waits_for_a_server_that_is_not_up_yet() {
    use cairn::models::embed::{EmbedderSlot, SlotState};
    let quick = || {
        backon::ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(10))
            .with_max_delay(Duration::from_millis(50))
            .without_max_times()
    };
    // Twelve failed probes (no retries within a probe here), then an answer.
    let script = Script { dim: 384, failures: Arc::new(Mutex::new(vec![(503, None); 12])), ..Script::default() };
    let slot = EmbedderSlot::disabled();
    slot.load_openai_with_pauses(OpenAiConfig { retries: 0, ..config(serve(script.clone()).await) }, quick()).unwrap();
    let state = tokio::time::timeout(Duration::from_secs(30), slot.settled()).await.expect("the slot settles");
    assert_eq!(state, SlotState::Ready);
    assert!(script.failures.lock().unwrap().is_empty(), "every scripted failure was a probe's");
    assert!(slot.get().is_some());

    let script = Script { dim: 768, ..Script::default() };
    let slot = EmbedderSlot::disabled();
    slot.load_openai_with_pauses(OpenAiConfig { retries: 0, ..config(serve(script.clone()).await) }, quick()).unwrap();
    let state = tokio::time::timeout(Duration::from_secs(30), slot.settled()).await.expect("the slot settles");
    assert!(matches!(&state, SlotState::Failed(why) if why.contains("768-dimensional")), "{state:?}");
    assert_eq!(script.requests.load(Ordering::SeqCst), 1, "another dimension is not probed again");

    // Nor is a refusal: a wrong key stays wrong (the endpoint's own retries on, which a probe does not use).
    let script = Script { dim: 384, failures: Arc::new(Mutex::new(vec![(401, None)])), ..Script::default() };
    let slot = EmbedderSlot::disabled();
    slot.load_openai_with_pauses(config(serve(script.clone()).await), quick()).unwrap();
    let state = tokio::time::timeout(Duration::from_secs(30), slot.settled()).await.expect("the slot settles");
    assert!(matches!(&state, SlotState::Failed(why) if why.contains("401")), "{state:?}");
    assert_eq!(script.requests.load(Ordering::SeqCst), 1, "a refusal is not probed again");
}
