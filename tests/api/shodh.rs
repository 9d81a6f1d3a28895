//! The SHODH unified API under `/api`: every request example of seed 004's openapi.yaml replayed with status
//! and body shape, its precedence and error rules, and cross-tenant attempts on each route.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{local_model, spawn, spawn_with_embedder, TestApp};

#[track_caller]
fn shodh_error(res: &crate::helpers::Res, status: u16, code: &str, needle: &str) {
    assert_eq!(res.status, status, "body: {}", res.body);
    assert_eq!(res.body["success"], false, "{}", res.body);
    assert_eq!(res.body["code"], code, "{}", res.body);
    assert_eq!(res.body["details"]["status"], status, "{}", res.body);
    let error = res.body["error"].as_str().unwrap();
    assert!(error.contains(needle), "{error:?} does not contain {needle:?}");
}

/// The four `RememberRequest` examples of the seed.
fn remember_examples() -> Vec<Value> {
    vec![
        json!({"content": "Use JWT tokens with 24h expiry for authentication", "type": "Decision", "tags": ["auth", "security"]}),
        json!({"content": "Finally fixed the production bug after 6 hours", "type": "Discovery", "tags": ["bugfix", "production"],
            "emotion": "relief", "emotional_valence": 0.8, "emotional_arousal": 0.3}),
        json!({"content": "Step 2: Implement user registration", "type": "Task", "episode_id": "auth-implementation-2024", "sequence_number": 2}),
        json!({"content": "KW 49 (2024-12-02 bis 2024-12-08): Weekly summary - Project kickoff completed", "type": "Context",
            "tags": ["weekly-summary", "kw49-2024"], "created_at": "2024-12-05T12:00:00Z"}),
    ]
}

async fn remember_all(app: &TestApp) -> Vec<String> {
    let mut ids = Vec::new();
    for example in remember_examples() {
        let body = app.post(&app.a.key, "/api/remember", &example).await.ok(201).clone();
        assert_eq!(body["success"], true);
        assert_eq!(body["content_hash"].as_str().unwrap().len(), 64);
        ids.push(body["id"].as_str().unwrap().to_owned());
    }
    ids
}

#[tokio::test]
async fn remember_replays_the_seed_examples_and_keeps_their_fields() {
    let app = spawn().await;
    let ids = remember_all(&app).await;
    let emotional = app.get(&app.a.key, &format!("/api/memories/{}", ids[1])).await.ok(200).clone();
    assert_eq!(emotional["type"], "Discovery");
    assert_eq!(emotional["emotion"], "relief");
    assert_eq!(emotional["emotional_valence"], 0.8);
    let episodic = app.get(&app.a.key, &format!("/api/memories/{}", ids[2])).await.ok(200).clone();
    assert_eq!(episodic["episode_id"], "auth-implementation-2024");
    assert_eq!(episodic["sequence_number"], 2);
    let backdated = app.get(&app.a.key, &format!("/api/memories/{}", ids[3])).await.ok(200).clone();
    assert_eq!(backdated["created_at"], "2024-12-05T12:00:00Z");
    for key in [
        "id",
        "content",
        "content_hash",
        "created_at",
        "tags",
        "source_type",
        "credibility",
        "access_count",
        "metadata",
    ] {
        assert!(backdated.get(key).is_some(), "{key} missing");
    }

    // No type: SHODH's default, Observation.
    let body = app
        .post(&app.a.key, "/api/remember", &json!({"content": "The build takes four minutes"}))
        .await
        .ok(201)
        .clone();
    let memory = app.get(&app.a.key, &format!("/api/memories/{}", body["id"].as_str().unwrap())).await.ok(200).clone();
    assert_eq!(memory["type"], "Observation");

    // Duplicate: 409 with the existing id.
    let res = app.post(&app.a.key, "/api/remember", &remember_examples()[0]).await;
    assert_eq!(res.status, 409);
    assert_eq!(res.body["success"], false);
    assert_eq!(res.body["error"], "Memory already exists");
    assert_eq!(res.body["existing_id"], ids[0].as_str());

    // Errors in SHODH's shape.
    let future = json!({"content": "From the future", "created_at": "2999-01-01T00:00:00Z"});
    shodh_error(
        &app.post(&app.a.key, "/api/remember", &future).await,
        400,
        "BAD_REQUEST",
        "created_at: must not be in the future",
    );
    shodh_error(
        &app.post(&app.a.key, "/api/remember", &json!({"type": "Decision"})).await,
        400,
        "BAD_REQUEST",
        "content: is required",
    );
    shodh_error(
        &app.post(&app.a.key, "/api/remember", &json!({"content": "x", "emotional_valence": 3})).await,
        400,
        "BAD_REQUEST",
        "emotional_valence",
    );
    shodh_error(
        &app.post(&app.a.key, "/api/remember", &json!({"content": "x", "source_type": "rumour"})).await,
        400,
        "BAD_REQUEST",
        "source_type",
    );
    shodh_error(
        &app.send(Method::POST, "/api/remember", None, Some(&remember_examples()[0])).await,
        401,
        "UNAUTHORIZED",
        "API key",
    );
}

#[tokio::test]
async fn recall_replays_the_seed_examples_with_the_real_model() {
    let app = spawn_with_embedder(local_model()).await;
    remember_all(&app).await;
    for content in [
        ("Chose PostgreSQL indexes to speed up slow database queries", "Decision"),
        ("Learned that retries need jitter to avoid thundering herds", "Learning"),
        ("Error handling pattern: wrap errors with context at each layer", "Pattern"),
        ("Bug fix: null pointer in the session cache", "Error"),
    ] {
        app.post(&app.a.key, "/api/remember", &json!({"content": content.0, "type": content.1, "quality_score": 0.9}))
            .await
            .ok(201);
    }
    assert!(app.drain_jobs().await > 0);

    let examples = [
        json!({"query": "authentication decisions", "limit": 5}),
        json!({"query": "database optimization", "limit": 10, "memory_types": ["Decision", "Learning"]}),
        json!({"query": "error handling patterns", "limit": 10, "quality_boost": true, "quality_weight": 0.3}),
        json!({"query": "project updates", "from": "last month", "to": "last week", "limit": 10}),
        json!({"query": "bug fixes", "before": "2024-12-31", "limit": 20}),
    ];
    let mut answers = Vec::new();
    for example in &examples {
        let body = app.post(&app.a.key, "/api/recall", example).await.ok(200).clone();
        assert_eq!(body["query"], example["query"]);
        assert_eq!(body["count"], body["memories"].as_array().unwrap().len());
        answers.push(body);
    }
    let top = &answers[0]["memories"][0];
    assert_eq!(top["content"], "Use JWT tokens with 24h expiry for authentication");
    for key in ["similarity_score", "relevance_score", "content_hash", "created_at", "type"] {
        assert!(top.get(key).is_some(), "{key} missing from {top}");
    }
    assert!(top["similarity_score"].as_f64().unwrap() > 0.2, "{top}");
    for m in answers[1]["memories"].as_array().unwrap() {
        assert!(["Decision", "Learning"].contains(&m["type"].as_str().unwrap()), "{m}");
    }
    assert_eq!(answers[2]["memories"][0]["content"], "Error handling pattern: wrap errors with context at each layer");
    // Everything was stored today: "last month" .. "last week" holds nothing; before 2024-12-31 only the
    // back-dated weekly summary.
    assert_eq!(answers[3]["count"], 0);
    assert_eq!(answers[4]["count"], 1);
    assert_eq!(answers[4]["memories"][0]["tags"][0], "weekly-summary");

    // Modes.
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "authentication", "mode": "semantic"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["mode"], "semantic");
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "authentication", "mode": "associative"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["mode"], "associative");
    shodh_error(
        &app.post(&app.a.key, "/api/recall", &json!({"query": "x", "mode": "psychic"})).await,
        400,
        "BAD_REQUEST",
        "mode",
    );

    // German time phrases; precedence: from over since, to over until over before.
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "weekly summary", "since": "vor 2 wochen"}))
        .await
        .ok(200)
        .clone();
    assert!(body["memories"].as_array().unwrap().iter().all(|m| m["tags"][0] != "weekly-summary"));
    let body = app
        .post(
            &app.a.key,
            "/api/recall",
            &json!({"query": "weekly summary", "since": "vor 2 wochen", "from": "2024-12-01"}),
        )
        .await
        .ok(200)
        .clone();
    assert!(body["memories"].as_array().unwrap().iter().any(|m| m["tags"][0] == "weekly-summary"));
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "weekly summary", "before": "yesterday", "to": "2024-12-01"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 0, "`to` wins over `before`");
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "weekly summary", "until": "2024-12-01", "to": "2025-01-01"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 1, "`to` wins over `until`");
    shodh_error(
        &app.post(&app.a.key, "/api/recall", &json!({"query": "x", "since": "whenever"})).await,
        400,
        "BAD_REQUEST",
        "whenever",
    );

    // Summaries: extractive without a chat model, in the memories' own words.
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "authentication", "summarize": true, "language": "en"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["summary_method"], "extractive");
    let summary = body["summary"].as_str().unwrap();
    assert!(
        body["memories"].as_array().unwrap().iter().any(|m| summary.contains(m["content"].as_str().unwrap())),
        "{summary}"
    );
    shodh_error(
        &app.post(&app.a.key, "/api/recall", &json!({"query": "x", "language": "fr"})).await,
        400,
        "BAD_REQUEST",
        "language",
    );
    shodh_error(&app.post(&app.a.key, "/api/recall", &json!({"limit": 5})).await, 400, "BAD_REQUEST", "query");
    shodh_error(
        &app.post(&app.a.key, "/api/recall", &json!({"query": "x", "limit": 101})).await,
        400,
        "BAD_REQUEST",
        "limit",
    );
}

#[tokio::test]
async fn recall_by_tags_context_forget_and_listing() {
    let app = spawn().await;
    let ids = remember_all(&app).await;
    let body =
        app.post(&app.a.key, "/api/recall/by-tags", &json!({"tags": ["auth", "security"]})).await.ok(200).clone();
    assert_eq!(body["count"], 1);
    let newest_first = app
        .post(&app.a.key, "/api/remember", &json!({"content": "Rotate signing keys monthly", "tags": ["security"]}))
        .await
        .ok(201)["id"]
        .clone();
    let body = app
        .post(&app.a.key, "/api/recall/by-tags", &json!({"tags": ["auth", "security"], "limit": 20}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["memories"][0]["id"], newest_first);
    shodh_error(&app.post(&app.a.key, "/api/recall/by-tags", &json!({"tags": []})).await, 400, "BAD_REQUEST", "tags");
    shodh_error(
        &app.post(&app.a.key, "/api/recall/by-tags", &json!({"tags": ["a"], "limit": 101})).await,
        400,
        "BAD_REQUEST",
        "limit",
    );

    // Proactive context: surfaces, then ingests the context as a Conversation memory.
    let context = json!({"context": "I'm working on the authentication system", "max_results": 5, "auto_ingest": true});
    let body = app.post(&app.a.key, "/api/context", &context).await.ok(200).clone();
    assert_eq!(body["surfaced_memories"][0]["id"], ids[0].as_str());
    assert_eq!(body["ingested"], true);
    let ingested = body["ingested_id"].as_str().unwrap().to_owned();
    let memory = app.get(&app.a.key, &format!("/api/memories/{ingested}")).await.ok(200).clone();
    assert_eq!(memory["type"], "Conversation");
    assert_eq!(memory["content"], "I'm working on the authentication system");
    let again = app.post(&app.a.key, "/api/context", &context).await.ok(200).clone();
    assert_eq!(again["ingested"], false);
    assert_eq!(again["ingested_id"], ingested.as_str());
    let quiet =
        app.post(&app.a.key, "/api/context", &json!({"context": "tokens", "auto_ingest": false})).await.ok(200).clone();
    assert_eq!(quiet["ingested"], false);
    assert_eq!(quiet["ingested_id"], Value::Null);
    shodh_error(&app.post(&app.a.key, "/api/context", &json!({"context": " "})).await, 400, "BAD_REQUEST", "context");
    shodh_error(
        &app.post(&app.a.key, "/api/context", &json!({"context": "x", "max_results": 21})).await,
        400,
        "BAD_REQUEST",
        "max_results",
    );
    let long = "word ".repeat(500);
    shodh_error(&app.post(&app.a.key, "/api/context", &json!({"context": long})).await, 400, "BAD_REQUEST", "context");

    // Listing: limit, offset, type, total honouring the filter.
    let body = app.get(&app.a.key, "/api/memories?limit=2").await.ok(200).clone();
    assert_eq!(body["count"], 2);
    assert_eq!(body["total"], 6);
    let body = app.get(&app.a.key, "/api/memories?type=Task").await.ok(200).clone();
    assert_eq!(body["total"], 1);
    assert_eq!(body["memories"][0]["id"], ids[2].as_str());
    let body = app.get(&app.a.key, "/api/memories?limit=2&offset=5").await.ok(200).clone();
    assert_eq!(body["count"], 1);
    shodh_error(&app.get(&app.a.key, "/api/memories?limit=101").await, 400, "BAD_REQUEST", "limit");
    shodh_error(&app.get(&app.a.key, "/api/memories?type=Gossip").await, 400, "BAD_REQUEST", "type");

    // Patch: tags, classification, metadata; content is not SHODH's to change here.
    let patch = json!({"tags": ["auth", "reviewed"], "memory_type": "Learning", "metadata": {"reviewed_by": "ana"}});
    let body = app.patch(&app.a.key, &format!("/api/memories/{}", ids[0]), &patch).await.ok(200).clone();
    assert_eq!(body["type"], "Learning");
    assert_eq!(body["tags"], json!(["auth", "reviewed"]));
    assert_eq!(body["metadata"], json!({"reviewed_by": "ana"}));
    shodh_error(
        &app.patch(&app.a.key, &format!("/api/memories/{}", ids[0]), &json!({"content": "new"})).await,
        400,
        "BAD_REQUEST",
        "content",
    );
    shodh_error(
        &app.patch(&app.a.key, &format!("/api/memories/{}", ids[0]), &json!({"memory_type": "Gossip"})).await,
        400,
        "BAD_REQUEST",
        "memory_type",
    );

    // Forget one, then by tags.
    let body = app.delete(&app.a.key, &format!("/api/forget/{}", ids[1])).await.ok(200).clone();
    assert_eq!(body, json!({"success": true, "deleted": true}));
    shodh_error(&app.delete(&app.a.key, &format!("/api/forget/{}", ids[1])).await, 404, "NOT_FOUND", "not found");
    shodh_error(&app.get(&app.a.key, &format!("/api/memories/{}", ids[1])).await, 404, "NOT_FOUND", "not found");
    let body = app
        .post(&app.a.key, "/api/forget/by-tags", &json!({"tags": ["weekly-summary", "security"]}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body, json!({"success": true, "deleted_count": 2}));
    shodh_error(&app.post(&app.a.key, "/api/forget/by-tags", &json!({})).await, 400, "BAD_REQUEST", "tags");
}

#[tokio::test]
async fn consolidate_stats_tags_and_health() {
    let app = spawn().await;
    remember_all(&app).await;
    let body = app.post(&app.a.key, "/api/consolidate", &json!({"time_horizon": "weekly"})).await.ok(200).clone();
    assert_eq!(body["success"], true);
    for key in ["processed", "archived", "associations_created"] {
        assert!(body[key].is_u64(), "{key}: {body}");
    }
    shodh_error(&app.post(&app.a.key, "/api/consolidate", &json!({})).await, 400, "BAD_REQUEST", "time_horizon");
    shodh_error(
        &app.post(&app.a.key, "/api/consolidate", &json!({"time_horizon": "hourly"})).await,
        400,
        "BAD_REQUEST",
        "time_horizon",
    );

    let body = app.get(&app.a.key, "/api/stats").await.ok(200).clone();
    assert_eq!(body["total_memories"], 4);
    assert_eq!(body["memories_last_7_days"], 3, "the back-dated memory is older");
    assert_eq!(body["by_type"].as_array().unwrap().len(), 4);
    assert_eq!(body["database"], "postgresql");
    assert_eq!(body["vector_store"], "pgvector");

    let body = app.get(&app.a.key, "/api/tags").await.ok(200).clone();
    assert_eq!(body["tags"], json!(["auth", "bugfix", "kw49-2024", "production", "security", "weekly-summary"]));
    assert_eq!(body["count"], 6);

    let body = app.send(Method::GET, "/api/health", None, None).await.ok(200).clone();
    assert_eq!(body["status"], "healthy");
    assert!(body["uptime_seconds"].is_u64());
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn another_tenants_key_reaches_nothing_on_the_shodh_routes() {
    let app = spawn().await;
    let ids = remember_all(&app).await;
    let b = &app.b.key;
    shodh_error(&app.get(b, &format!("/api/memories/{}", ids[0])).await, 404, "NOT_FOUND", "not found");
    shodh_error(
        &app.patch(b, &format!("/api/memories/{}", ids[0]), &json!({"tags": ["x"]})).await,
        404,
        "NOT_FOUND",
        "not found",
    );
    shodh_error(&app.delete(b, &format!("/api/forget/{}", ids[0])).await, 404, "NOT_FOUND", "not found");
    assert_eq!(app.post(b, "/api/forget/by-tags", &json!({"tags": ["auth"]})).await.ok(200)["deleted_count"], 0);
    assert_eq!(app.post(b, "/api/recall", &json!({"query": "authentication"})).await.ok(200)["count"], 0);
    assert_eq!(app.post(b, "/api/recall/by-tags", &json!({"tags": ["auth"]})).await.ok(200)["count"], 0);
    let context =
        app.post(b, "/api/context", &json!({"context": "authentication", "auto_ingest": false})).await.ok(200).clone();
    assert_eq!(context["count"], 0);
    assert_eq!(app.get(b, "/api/memories").await.ok(200)["total"], 0);
    assert_eq!(app.get(b, "/api/stats").await.ok(200)["total_memories"], 0);
    assert_eq!(app.get(b, "/api/tags").await.ok(200)["count"], 0);
    // b may store a's content: dedup is per tenant.
    app.post(b, "/api/remember", &remember_examples()[0]).await.ok(201);
    assert_eq!(app.get(&app.a.key, "/api/stats").await.ok(200)["total_memories"], 4);
}

#[tokio::test]
async fn errors_name_shodhs_fields_and_patch_takes_a_quality_score() {
    let app = spawn().await;
    let id =
        app.post(&app.a.key, "/api/remember", &remember_examples()[0]).await.ok(201)["id"].as_str().unwrap().to_owned();
    let recall = |body: Value| {
        let app = &app;
        async move { app.post(&app.a.key, "/api/recall", &body).await }
    };
    shodh_error(&recall(json!({"query": "x", "memory_types": ["Gossip"]})).await, 400, "BAD_REQUEST", "memory_types:");
    shodh_error(&recall(json!({"query": "x", "from": "whenever"})).await, 400, "BAD_REQUEST", "from:");
    shodh_error(&recall(json!({"query": "x", "since": "whenever"})).await, 400, "BAD_REQUEST", "since:");
    shodh_error(&recall(json!({"query": "x", "to": "whenever"})).await, 400, "BAD_REQUEST", "to:");
    shodh_error(&recall(json!({"query": "x", "until": "whenever"})).await, 400, "BAD_REQUEST", "until:");
    shodh_error(&recall(json!({"query": "x", "before": "whenever"})).await, 400, "BAD_REQUEST", "before:");

    let body =
        app.patch(&app.a.key, &format!("/api/memories/{id}"), &json!({"quality_score": 0.8})).await.ok(200).clone();
    assert_eq!(body["quality_score"], 0.8);
    let body =
        app.patch(&app.a.key, &format!("/api/memories/{id}"), &json!({"quality_score": null})).await.ok(200).clone();
    assert_eq!(body["quality_score"], Value::Null);
    shodh_error(
        &app.patch(&app.a.key, &format!("/api/memories/{id}"), &json!({"quality_score": 2})).await,
        400,
        "BAD_REQUEST",
        "quality_score",
    );
}

#[tokio::test]
async fn a_configured_chat_model_summarises_recall_in_the_asked_language() {
    use axum::routing::post;
    use axum::{Json, Router};
    async fn chat(Json(body): Json<Value>) -> Json<Value> {
        let system = body["messages"][0]["content"].as_str().unwrap_or("");
        let user = body["messages"][1]["content"].as_str().unwrap_or("");
        let answer = match (system.contains("German"), user.contains("JWT")) {
            (true, true) => "Die Authentifizierung nutzt JWT mit 24 Stunden Laufzeit.",
            (false, true) => "Authentication uses JWT tokens that expire after 24 hours.",
            _ => "",
        };
        Json(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]}))
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, Router::new().route("/v1/chat/completions", post(chat))).await.unwrap()
    });
    let args = cairn::config::AppArgs {
        llm_base_url: Some(format!("http://{addr}/v1")),
        llm_model: Some("scripted".into()),
        llm_retries: 0,
        ..cairn::config::AppArgs::default()
    };
    let app = crate::helpers::spawn_with(args, None).await;
    app.post(&app.a.key, "/api/remember", &remember_examples()[0]).await.ok(201);
    // German is SHODH's default language.
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "JWT authentication", "summarize": true}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["summary"], "Die Authentifizierung nutzt JWT mit 24 Stunden Laufzeit.");
    assert_eq!(body["summary_method"], "llm");
    let body = app
        .post(&app.a.key, "/api/recall", &json!({"query": "JWT authentication", "summarize": true, "language": "en"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["summary"], "Authentication uses JWT tokens that expire after 24 hours.");
    // No results: nothing to summarise.
    let body = app.post(&app.a.key, "/api/recall", &json!({"query": "zebra", "summarize": true})).await.ok(200).clone();
    assert!(body.get("summary").is_none(), "{body}");

    // A daily budget of one chat summary: the second falls back to the extractive summary, the recall works.
    let mut conn = app.superuser_conn().await;
    sqlx::query("UPDATE tenants SET limits = '{\"summaries_per_day\": 1}' WHERE id = $1")
        .bind(app.a.id)
        .execute(&mut conn)
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // the change is announced
    let ask = json!({"query": "JWT authentication", "summarize": true, "language": "en"});
    let first = app.post(&app.a.key, "/api/recall", &ask).await.ok(200).clone();
    assert_eq!(first["summary_method"], "llm");
    let second = app.post(&app.a.key, "/api/recall", &ask).await.ok(200).clone();
    assert_ne!(second["summary_method"], "llm", "{second}");
    assert!(second["summary"].as_str().is_some_and(|s| !s.is_empty()), "{second}");
}
