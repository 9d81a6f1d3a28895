//! The optional rerank stage against a scripted `/rerank` server: it reorders the fused results, and when it
//! fails the fused order stands with a notice.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::helpers::spawn_with;

/// A reranker that prefers the documents mentioning "choice" (Cohere shape, or TEI's with `tei`), or answers 500
/// while `failing` is set.
async fn scripted(tei: bool, failing: Arc<AtomicBool>) -> String {
    let handler = move |Json(body): Json<Value>| {
        let failing = failing.clone();
        async move {
            if failing.load(Ordering::Relaxed) {
                return Err(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
            }
            let docs = body
                .get(if tei { "texts" } else { "documents" })
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let scored: Vec<Value> = docs
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let score = if d.as_str().unwrap_or_default().contains("choice") { 0.9 } else { 0.1 };
                    if tei {
                        json!({"index": i, "score": score})
                    } else {
                        json!({"index": i, "relevance_score": score})
                    }
                })
                .collect();
            Ok(Json(if tei { Value::Array(scored) } else { json!({"results": scored}) }))
        }
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, Router::new().route("/rerank", post(handler))).await.unwrap() });
    format!("http://{addr}")
}

async fn check(tei: bool) {
    let failing = Arc::new(AtomicBool::new(false));
    let url = scripted(tei, failing.clone()).await;
    let config = cairn::config::AppArgs {
        reranker: "http".into(),
        reranker_url: Some(url),
        reranker_api: if tei { cairn::config::RerankApi::Tei } else { cairn::config::RerankApi::Cohere },
        reranker_top_n: 10,
        ..cairn::config::AppArgs::default()
    };
    let app = spawn_with(config, None).await;
    let key = &app.a.key;
    // "morning drink" matches all three by keywords; the fused order puts the short tea note first.
    app.store_text(key, "My morning drink is coffee, morning drink coffee every day").await;
    let choice = app.store_text(key, "Coffee is my morning drink of choice").await;
    let tea = app.store_text(key, "Lately my morning drink is tea").await;
    let path = "/api/v1/recall?query=morning+drink&mode=keyword&limit=2";
    let res = app.get(key, path).await.ok(200).clone();
    let results = res["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{res}");
    assert_eq!(results[0]["memory"]["id"], choice.as_str(), "the reranker's choice comes first: {res}");
    assert_eq!(results[0]["score_components"]["rerank"], 0.9, "{res}");
    assert_eq!(res["has_more"], true);

    failing.store(true, Ordering::Relaxed);
    let res = app.get(key, path).await.ok(200).clone();
    assert_eq!(res["results"].as_array().unwrap().len(), 2);
    assert!(res["notice"].as_str().is_some_and(|n| n.contains("reranker")), "{res}");
    assert!(res["results"][0]["score_components"].get("rerank").is_none());
    assert_eq!(res["results"][0]["memory"]["id"], tea.as_str(), "the fused order: {res}");
}

#[tokio::test]
async fn a_cohere_compatible_reranker_reorders_and_its_failure_keeps_the_fused_order() {
    check(false).await;
}

#[tokio::test]
async fn a_tei_reranker_works_too() {
    check(true).await;
}
