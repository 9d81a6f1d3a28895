//! Content-size governance: over 500 characters, content is stored as an extractive summary of about 300
//! with the original kept; over 2000 is refused; the original's words still find the memory.

use axum::routing::post;
use axum::{Json, Router};
use cairn::config::AppArgs;
use serde_json::{json, Value};

use crate::helpers::{local_model, spawn, spawn_with, spawn_with_embedder};

fn long_text() -> String {
    let mut text = String::from("The ledger service moved to PostgreSQL after the March review. ");
    text.push_str("PostgreSQL gives the ledger service serializable transactions across accounts. ");
    text.push_str("The ledger service team also rehearsed PostgreSQL failover twice. ");
    for remark in [
        "Lunch was pizza again.",
        "It rained all afternoon.",
        "Parking was full by nine.",
        "Someone brought a dog to work.",
        "The coffee machine broke.",
        "Bob wore a new hat.",
        "The elevator was slow.",
        "Music played in the kitchen.",
        "A delivery arrived late.",
        "The printer jammed twice.",
        "Plants were watered on Friday.",
        "The windows were cleaned.",
        "Fire drill at three.",
        "New chairs were ordered for the ledger service team.",
    ] {
        text.push_str(remark);
        text.push(' ');
    }
    text.push_str("A visitor from Zanzibar joined the demo.");
    text
}

#[tokio::test]
async fn long_content_is_summarised_with_the_original_kept_and_searchable() {
    let app = spawn().await;
    let key = &app.a.key;
    let original = long_text();
    assert!(original.chars().count() > 500 && original.chars().count() <= 2000);
    let m = app.store(key, json!({"content": original, "metadata": {"source": "notes"}})).await;
    let content = m["content"].as_str().unwrap();
    assert!(content.chars().count() <= 320, "{content}");
    assert!(content.starts_with("The ledger service moved to PostgreSQL"), "{content}");
    assert_eq!(m["summarized"], true);
    assert_eq!(m["original_length"], original.chars().count());
    assert_eq!(m["summarized_length"], content.chars().count());
    assert_eq!(
        (m["metadata"]["original_content"].as_str(), m["metadata"]["source"].as_str()),
        (Some(original.as_str()), Some("notes"))
    );

    // A word only the original holds still finds it.
    let found = app.post(key, "/api/v1/recall", &json!({"query": "Zanzibar"})).await.ok(200).clone();
    assert_eq!(found["results"][0]["memory"]["id"], m["id"]);
    // The same original again is a duplicate: the memory holding it answers, or a 409 when asked.
    let again = app.post(key, "/api/v1/memories", &json!({"content": original})).await.ok(200).clone();
    assert_eq!(again["id"], m["id"]);
    app.post(key, "/api/v1/memories", &json!({"content": original, "on_duplicate": "error"}))
        .await
        .assert_error(409, "content:");

    // 500 characters stay as they are; 2001 are refused.
    let exact = "a".repeat(499) + ".";
    let kept = app.store(key, json!({"content": exact})).await;
    assert_eq!((kept["summarized"].as_bool(), kept["original_length"].is_null()), (Some(false), true));
    app.post(key, "/api/v1/memories", &json!({"content": "b".repeat(2001)})).await.assert_error(400, "content:");

    // Batches summarise too.
    let batch = app
        .post(
            key,
            "/api/v1/memories/batch",
            &json!({"memories": [{"content": long_text().replace("ledger", "billing")}]}),
        )
        .await
        .ok(201)
        .clone();
    assert_eq!(batch["memories"][0]["summarized"], true);
}

#[tokio::test]
async fn a_configured_chat_model_writes_the_summary_and_its_failure_falls_back_to_extraction() {
    async fn chat(Json(body): Json<Value>) -> Json<Value> {
        let user = body["messages"][1]["content"].as_str().unwrap_or("");
        let answer = if user.contains("Zanzibar") {
            "The ledger service moved to PostgreSQL for serializable transactions."
        } else {
            "?"
        };
        Json(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]}))
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, Router::new().route("/v1/chat/completions", post(chat))).await.unwrap()
    });
    let args = AppArgs {
        llm_base_url: Some(format!("http://{addr}/v1")),
        llm_model: Some("scripted".into()),
        llm_retries: 0,
        ..AppArgs::default()
    };
    let app = spawn_with(args, None).await;
    let key = &app.a.key;
    // The store answers at once with the sentences most central by word overlap...
    let m = app.store(key, json!({"content": long_text()})).await;
    assert!(m["content"].as_str().unwrap().starts_with("The ledger service moved to PostgreSQL after"), "{m}");
    assert_eq!(m["summarized"], true);
    let other = app.store(key, json!({"content": long_text().replace("Zanzibar", "Lisbon")})).await;
    let extracted = other["content"].clone();
    // ... and the `cairn::summarize` job, enqueued with each store, has the chat model write a better one.
    assert_eq!(app.run_summaries().await, 2);
    let path = format!("/api/v1/memories/{}", m["id"].as_str().unwrap());
    let m = app.get(key, &path).await.ok(200).clone();
    assert_eq!(m["content"], "The ledger service moved to PostgreSQL for serializable transactions.");
    assert_eq!((m["summarized"].as_bool(), m["embedding_status"].as_str()), (Some(true), Some("pending")));
    let history = app.get(key, &format!("{path}/history")).await.ok(200).clone();
    let last = history["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["event_type"].as_str(), last["actor"].as_str()), (Some("updated"), Some("system:summarize")));
    // An unusable answer ("?") keeps the extractive summary.
    let other = app.get(key, &format!("/api/v1/memories/{}", other["id"].as_str().unwrap())).await.ok(200).clone();
    assert_eq!(other["content"], extracted);
    // The job is done: it finds nothing more to refine.
    assert_eq!(app.run_summaries().await, 0);
}

#[tokio::test]
async fn with_the_embedding_model_the_job_ranks_sentences_by_meaning() {
    let app = spawn_with_embedder(local_model()).await;
    let key = &app.a.key;
    let original = long_text();
    let m = app.store(key, json!({"content": original})).await;
    assert_eq!(app.run_summaries().await, 1, "a summarised store enqueues its refinement");
    let m = app.get(key, &format!("/api/v1/memories/{}", m["id"].as_str().unwrap())).await.ok(200).clone();
    let summary = m["content"].as_str().unwrap();
    assert!(summary.chars().count() <= 320, "{summary}");
    // Still made of the original's own sentences, the original kept.
    assert!(summary.split(". ").all(|s| original.contains(s.trim_end_matches('.'))), "{summary}");
    assert_eq!(m["metadata"]["original_content"], original);
    // Short content is never queued.
    app.store(key, json!({"content": "short and sweet"})).await;
    assert_eq!(app.run_summaries().await, 0);
}

#[tokio::test]
async fn the_original_is_reserved_survives_a_metadata_replacement_and_follows_new_content() {
    let app = spawn().await;
    let key = &app.a.key;
    app.post(key, "/api/v1/memories", &json!({"content": "short", "metadata": {"original_content": "hidden words"}}))
        .await
        .assert_error(400, "metadata.original_content: is set by the service");
    app.post(
        key,
        "/api/v1/memories/batch",
        &json!({"memories": [{"content": "x", "metadata": {"original_content": "y"}}]}),
    )
    .await
    .assert_error(400, "memories[0].metadata.original_content");

    let original = long_text();
    let id = app.store(key, json!({"content": original})).await["id"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/memories/{id}");
    app.patch(key, &path, &json!({"metadata": {"original_content": "spoof"}}))
        .await
        .assert_error(400, "metadata.original_content");
    // Replacing metadata keeps the original.
    let m = app.patch(key, &path, &json!({"metadata": {"source": "notes"}})).await.ok(200).clone();
    assert_eq!(
        (m["metadata"]["original_content"].as_str(), m["summarized"].as_bool()),
        (Some(original.as_str()), Some(true))
    );
    // New short content drops it: not summarised any more, and the old words no longer find it.
    let m = app.patch(key, &path, &json!({"content": "Now a short note"})).await.ok(200).clone();
    assert_eq!((m["summarized"].as_bool(), m["metadata"].get("original_content")), (Some(false), None));
    let found = app.post(key, "/api/v1/recall", &json!({"query": "Zanzibar"})).await.ok(200).clone();
    assert_eq!(found["count"], 0, "{found}");
    // New long content is summarised again.
    let m = app.patch(key, &path, &json!({"content": long_text().replace("Zanzibar", "Oslo")})).await.ok(200).clone();
    assert_eq!(m["summarized"], true);
    assert!(m["content"].as_str().unwrap().chars().count() <= 320);
}
