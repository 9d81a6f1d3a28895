//! AutoMem's surface at the root: every request example of seed 000 replayed, with status and body shape,
//! plus the surface's own rules (duplicates answer 200, batch refusals, recall parameters) and cross-tenant
//! attempts on each route.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

/// The seed's `POST /memory` example.
fn decision() -> Value {
    json!({
        "content": "Chose PostgreSQL over MongoDB. Need ACID guarantees for transactions. Impact: ensures data consistency.",
        "type": "Decision",
        "tags": ["project-alpha", "database", "architecture"],
        "importance": 0.9,
        "metadata": {"files_modified": ["db/config.py"], "alternatives": ["MongoDB", "MySQL"]}
    })
}

async fn store(app: &TestApp, body: Value) -> String {
    let res = app.post(&app.a.key, "/memory", &body).await;
    res.ok(201)["memory_id"].as_str().unwrap().to_owned()
}

#[track_caller]
fn has_keys(body: &Value, keys: &[&str]) {
    for key in keys {
        assert!(body.get(*key).is_some(), "{key} missing from {body}");
    }
}

#[tokio::test]
async fn store_answers_automems_201_and_duplicates_answer_200_with_the_existing_id() {
    let app = spawn().await;
    let res = app.post(&app.a.key, "/memory", &decision()).await;
    let body = res.ok(201);
    has_keys(
        body,
        &[
            "status",
            "memory_id",
            "stored_at",
            "type",
            "confidence",
            "qdrant",
            "embedding_status",
            "enrichment",
            "metadata",
            "timestamp",
            "updated_at",
            "last_accessed",
            "query_time_ms",
        ],
    );
    assert_eq!(body["status"], "success");
    assert_eq!(body["type"], "Decision");
    assert_eq!(body["confidence"], 0.9);
    assert_eq!(body["enrichment"], "queued");
    // No embedder in this deployment: AutoMem says "unconfigured".
    assert_eq!(body["qdrant"], "unconfigured");
    assert_eq!(body["embedding_status"], "unconfigured");
    assert_eq!(body["metadata"]["alternatives"][1], "MySQL");
    assert!(body["query_time_ms"].is_number());
    assert!(body.get("deduplicated").is_none());
    let id = body["memory_id"].as_str().unwrap().to_owned();

    // The same content (case and spacing aside) is not a 409 here.
    let mut again = decision();
    again["content"] = json!(
        "chose postgresql over mongodb.  Need ACID guarantees for transactions. Impact: ensures data consistency."
    );
    let res = app.post(&app.a.key, "/memory", &again).await;
    let body = res.ok(200);
    assert_eq!(body["memory_id"], id.as_str());
    assert_eq!(body["deduplicated"], true);
    assert_eq!(app.count(&app.a.key).await, 1);

    // The seed's MCP example stores too; a supplied embedding reads "stored".
    let mcp = json!({
        "content": "Login failing on special characters. Root: missing input sanitization. Added validator. Files: auth/login.ts",
        "tags": ["auth", "bug-fix"], "importance": 0.8,
        "metadata": {"files_modified": ["auth/login.ts", "auth/validator.ts"], "error_signature": "ValidationError: special_chars",
            "solution_pattern": "input-sanitization"},
        "embedding": vec![0.1_f32; 384]
    });
    let body = app.post(&app.a.key, "/memory", &mcp).await.ok(201).clone();
    assert_eq!(body["qdrant"], "stored");
    // Without a type it is classified: none of AutoMem's patterns matches this one and no chat model is
    // configured, so it is Context at AutoMem's low confidence until enrichment can do better.
    assert_eq!(body["type"], "Context");
    assert_eq!(body["confidence"], 0.3);
}

#[tokio::test]
async fn store_validation_uses_the_error_envelope_naming_the_field() {
    let app = spawn().await;
    app.post(&app.a.key, "/memory", &json!({"type": "Decision"})).await.assert_error(400, "content: is required");
    app.post(&app.a.key, "/memory", &json!({"content": "x", "importance": 2})).await.assert_error(400, "importance");
    let long = "word ".repeat(401);
    app.post(&app.a.key, "/memory", &json!({"content": long})).await.assert_error(400, "at most 2000 characters");
    app.post(&app.a.key, "/memory", &json!({"content": "x", "type": "Nonsense"})).await.assert_error(400, "type");
    app.send(Method::POST, "/memory", None, Some(&decision())).await.assert_error(401, "missing API key");
    let reader = crate::helpers::new_key(&app.db, app.a.id, &["read"]).await;
    app.post(&reader, "/memory", &decision()).await.assert_error(403, "write");
}

#[tokio::test]
async fn keys_are_accepted_three_ways() {
    let app = spawn().await;
    let id = store(&app, decision()).await;
    let path = format!("/memory/{id}");
    let bearer = app.client.get(app.url(&path)).bearer_auth(&app.a.key).send().await.unwrap();
    assert_eq!(bearer.status(), 200);
    let header = app.client.get(app.url(&path)).header("X-API-Key", &app.a.key).send().await.unwrap();
    assert_eq!(header.status(), 200);
    let query = app.client.get(app.url(&format!("{path}?api_key={}", app.a.key))).send().await.unwrap();
    assert_eq!(query.status(), 200);
}

#[tokio::test]
async fn batch_replays_the_seed_and_keeps_automems_limits() {
    let app = spawn().await;
    let example = json!({"memories": [
        {"content": "Prefer PostgreSQL for transactional workloads", "type": "Preference", "importance": 0.9},
        {"content": "Redis used for session caching layer", "type": "Context", "importance": 0.6}
    ]});
    let body = app.post(&app.a.key, "/memory/batch", &example).await.ok(201).clone();
    has_keys(&body, &["status", "stored", "memory_ids", "qdrant", "enrichment", "query_time_ms"]);
    assert_eq!(body["stored"], 2);
    assert_eq!(body["memory_ids"].as_array().unwrap().len(), 2);
    assert_eq!(body["qdrant"], "unconfigured");

    // The other seed example, with one item already stored: it resolves to the existing memory.
    let second = json!({"memories": [
        {"content": "First memory content", "type": "Decision", "tags": ["project-alpha"], "importance": 0.9},
        {"content": "Second memory content", "type": "Context", "tags": ["project-alpha"], "importance": 0.5},
        {"content": "Redis used for session caching layer"}
    ]});
    let body = app.post(&app.a.key, "/memory/batch", &second).await.ok(201).clone();
    assert_eq!(body["stored"], 2);
    assert_eq!(body["deduplicated"], json!([2]));
    assert_eq!(body["memory_ids"][2], example_id(&app, "Redis used for session caching layer").await);
    assert_eq!(app.count(&app.a.key).await, 4);

    app.post(&app.a.key, "/memory/batch", &json!([{"content": "x"}])).await.assert_error(400, "bare array");
    app.post(&app.a.key, "/memory/batch", &json!({"memories": []}))
        .await
        .assert_error(400, "memories: must not be empty");
    let many: Vec<Value> = (0..501).map(|i| json!({"content": format!("item {i}")})).collect();
    app.post(&app.a.key, "/memory/batch", &json!({"memories": many})).await.assert_error(400, "at most 500");
    let missing = json!({"memories": [{"content": "a"}, {"content": "b"}, {"tags": ["x"]}]});
    app.post(&app.a.key, "/memory/batch", &missing).await.assert_error(400, "memories[2].content: is required");
    let with_vector = json!({"memories": [{"content": "a", "embedding": [0.1]}]});
    app.post(&app.a.key, "/memory/batch", &with_vector).await.assert_error(400, "memories[0].embedding");
    let with_validity = json!({"memories": [{"content": "a", "t_invalid": "2030-01-01T00:00:00Z"}]});
    app.post(&app.a.key, "/memory/batch", &with_validity).await.assert_error(400, "memories[0].t_invalid");
    // Nothing of the refused batches was stored.
    assert_eq!(app.count(&app.a.key).await, 4);
}

async fn example_id(app: &TestApp, content: &str) -> Value {
    let page = app.get(&app.a.key, "/api/v1/memories?limit=200").await.ok(200).clone();
    page["memories"].as_array().unwrap().iter().find(|m| m["content"] == content).unwrap()["id"].clone()
}

#[tokio::test]
async fn get_patch_and_delete_replay_the_seed() {
    let app = spawn().await;
    let id = store(&app, decision()).await;
    let other = store(&app, json!({"content": "MongoDB was considered and rejected"})).await;
    app.post(
        &app.a.key,
        "/associate",
        &json!({"memory1_id": id, "memory2_id": other, "type": "PREFERS_OVER", "strength": 0.8}),
    )
    .await
    .ok(201);

    let body = app.get(&app.a.key, &format!("/memory/{id}")).await.ok(200).clone();
    assert_eq!(body["status"], "success");
    let memory = &body["memory"];
    has_keys(
        memory,
        &[
            "id",
            "content",
            "type",
            "tags",
            "importance",
            "confidence",
            "timestamp",
            "updated_at",
            "last_accessed",
            "metadata",
            "relations",
        ],
    );
    assert_eq!(memory["relations"][0]["type"], "PREFERS_OVER");
    assert_eq!(memory["relations"][0]["memory_id"], other.as_str());
    assert_eq!(memory["relations"][0]["direction"], "outgoing");

    let patch = json!({"importance": 0.95, "tags": ["project-alpha", "database", "architecture", "reviewed"]});
    let body = app.patch(&app.a.key, &format!("/memory/{id}"), &patch).await.ok(200).clone();
    assert_eq!(body, json!({"status": "success", "memory_id": id}));
    let memory = app.get(&app.a.key, &format!("/memory/{id}")).await.ok(200)["memory"].clone();
    assert_eq!(memory["importance"], 0.95);
    assert_eq!(memory["tags"].as_array().unwrap().len(), 4);

    // Metadata is replaced, not merged.
    app.patch(&app.a.key, &format!("/memory/{id}"), &json!({"metadata": {"key1": "val1"}})).await.ok(200);
    app.patch(&app.a.key, &format!("/memory/{id}"), &json!({"metadata": {"key2": "val2"}})).await.ok(200);
    let memory = app.get(&app.a.key, &format!("/memory/{id}")).await.ok(200)["memory"].clone();
    assert_eq!(memory["metadata"], json!({"key2": "val2"}));

    let ghost = uuid::Uuid::new_v4();
    app.get(&app.a.key, &format!("/memory/{ghost}")).await.assert_error(404, "not found");
    app.patch(&app.a.key, &format!("/memory/{ghost}"), &patch).await.assert_error(404, "not found");
    app.get(&app.a.key, "/memory/abc-123-def-456").await.assert_error(400, "id: not a valid UUID");

    let body = app.delete(&app.a.key, &format!("/memory/{id}")).await.ok(200).clone();
    assert_eq!(body, json!({"status": "success", "memory_id": id}));
    // Non-idempotent: a second delete is a 404; the relation went with the memory.
    app.delete(&app.a.key, &format!("/memory/{id}")).await.assert_error(404, "not found");
    let related = app.get(&app.a.key, &format!("/memories/{other}/related")).await.ok(200).clone();
    assert_eq!(related["count"], 0);
}

#[tokio::test]
async fn by_tag_replays_the_seed_examples() {
    let app = spawn().await;
    for (i, importance) in [0.2, 0.9, 0.5].into_iter().enumerate() {
        store(&app, json!({"content": format!("alpha note {i}"), "tags": ["project-alpha"], "importance": importance}))
            .await;
    }
    store(&app, json!({"content": "db note", "tags": ["database"], "importance": 0.7})).await;
    store(&app, json!({"content": "scratch note", "tags": ["scratch"]})).await;
    store(&app, json!({"content": "test run note", "tags": ["test-run"]})).await;

    let body = app.get(&app.a.key, "/memory/by-tag?tags=project-alpha").await.ok(200).clone();
    assert_eq!(body["status"], "success");
    assert_eq!(body["count"], 3);
    let importances: Vec<f64> =
        body["memories"].as_array().unwrap().iter().map(|m| m["importance"].as_f64().unwrap()).collect();
    assert_eq!(importances, [0.9, 0.5, 0.2]);
    assert!(body["memories"][0]["timestamp"].is_string());
    let body = app.get(&app.a.key, "/memory/by-tag?tags=project-alpha&tags=database&limit=20").await.ok(200).clone();
    assert_eq!(body["count"], 4);
    assert_eq!(body["has_more"], false);
    let body = app.get(&app.a.key, "/memory/by-tag?tags=project-alpha&limit=2&offset=0").await.ok(200).clone();
    assert_eq!(body["has_more"], true);
    let body = app.get(&app.a.key, "/memory/by-tag?tags=project-alpha&limit=50&offset=50").await.ok(200).clone();
    assert_eq!(body["count"], 0);
    app.get(&app.a.key, "/memory/by-tag").await.assert_error(400, "tags");
    app.get(&app.a.key, "/memory/by-tag?tags=x&limit=201").await.assert_error(400, "limit");

    let body = app.delete(&app.a.key, "/memory/by-tag?tags=scratch&tags=test-run").await.ok(200).clone();
    assert_eq!(body, json!({"status": "success", "tags": ["scratch", "test-run"], "deleted_count": 2}));
}

#[tokio::test]
async fn recall_takes_automems_parameters() {
    let app = spawn().await;
    let pg = store(&app, decision()).await;
    let redis =
        store(&app, json!({"content": "Redis used for session caching layer in the database tier", "tags": ["cache"]}))
            .await;
    store(&app, json!({"content": "The team lunch is on Friday", "tags": ["social"]})).await;

    let body = app.get(&app.a.key, "/recall?query=database%20transactions").await.ok(200).clone();
    assert_eq!(body["status"], "success");
    let hit = &body["results"][0];
    has_keys(hit, &["id", "memory", "score", "match_type", "score_components"]);
    assert_eq!(hit["id"], hit["memory"]["id"]);
    assert!(body["query_time_ms"].is_number());
    assert_eq!(body["count"], 2);

    // Tags, exclude_tags, tag_mode, tag_match.
    let body = app.get(&app.a.key, "/recall?query=database&tags=project&tag_match=prefix").await.ok(200).clone();
    assert_eq!(body["count"], 0, "prefix matches whole levels only");
    let body = app.get(&app.a.key, "/recall?query=database%20transactions&exclude_tags=cache").await.ok(200).clone();
    assert_eq!(body["results"][0]["id"], pg.as_str());
    assert_eq!(body["count"], 1);
    let body = app.get(&app.a.key, "/recall?tags=database&tags=architecture&tag_mode=all").await.ok(200).clone();
    assert_eq!(body["count"], 1);

    // Several queries merge, each memory once.
    let body = app.get(&app.a.key, "/recall?queries=PostgreSQL&queries=Redis&queries=caching").await.ok(200).clone();
    assert_eq!(body["count"], 2);
    assert_eq!(body["queries"].as_array().unwrap().len(), 3);

    // context_tags lift the results carrying them by 0.1.
    let plain = app.get(&app.a.key, "/recall?query=caching%20transactions").await.ok(200).clone();
    let lifted =
        app.get(&app.a.key, "/recall?query=caching%20transactions&context_tags=project-alpha").await.ok(200).clone();
    let lifted_pg =
        lifted["results"].as_array().unwrap().iter().find(|h| h["id"] == pg.as_str()).unwrap()["score"].as_f64();
    let plain_pg =
        plain["results"].as_array().unwrap().iter().find(|h| h["id"] == pg.as_str()).unwrap()["score"].as_f64();
    let expected = (plain_pg.unwrap() + 0.1).min(1.0);
    assert!(plain_pg.unwrap() < 0.9, "the lift must be visible: {plain_pg:?}");
    assert!((lifted_pg.unwrap() - expected).abs() < 1e-9, "{lifted_pg:?} vs {expected}");
    // A result without the context tag keeps its score.
    let redis_score = |body: &Value| {
        body["results"].as_array().unwrap().iter().find(|h| h["id"] == redis.as_str()).unwrap()["score"].clone()
    };
    assert_eq!(redis_score(&plain), redis_score(&lifted));

    // min_score drops weak results.
    let body = app.get(&app.a.key, "/recall?query=database%20transactions&min_score=0.99").await.ok(200).clone();
    assert_eq!(body["count"], 0);

    // Time: a period in words, explicit bounds, and a phrase it cannot read.
    let body = app.get(&app.a.key, "/recall?query=database%20transactions&time_query=today").await.ok(200).clone();
    assert_eq!(body["count"], 2);
    let body = app.get(&app.a.key, "/recall?query=database&time_query=last%20year").await.ok(200).clone();
    assert_eq!(body["count"], 0);
    let body = app
        .get(&app.a.key, "/recall?query=database&start=2020-01-01T00:00:00Z&end=2020-02-01T00:00:00Z")
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 0);
    app.get(&app.a.key, "/recall?query=x&time_query=blorp").await.assert_error(400, "blorp");
    app.get(&app.a.key, "/recall?query=x&min_score=2").await.assert_error(400, "min_score");
    app.get(&app.a.key, "/recall?query=x&limit=0").await.assert_error(400, "limit");
    let eleven: String = (0..11).map(|i| format!("queries=q{i}&")).collect();
    app.get(&app.a.key, &format!("/recall?{eleven}")).await.assert_error(400, "queries");

    // Sort and expansions pass through.
    let body = app.get(&app.a.key, "/recall?sort=time_asc&limit=1").await.ok(200).clone();
    assert_eq!(body["results"][0]["id"], pg.as_str());
    app.post(&app.a.key, "/associate", &json!({"memory1_id": pg, "memory2_id": redis})).await.ok(201);
    let body = app
        .get(&app.a.key, "/recall?query=PostgreSQL&expand_relations=true&relation_limit=2&expansion_limit=5")
        .await
        .ok(200)
        .clone();
    assert_eq!(body["expansions"][0]["memory"]["id"], redis.as_str());
}

#[tokio::test]
async fn associate_related_and_consolidate() {
    let app = spawn().await;
    let a = store(&app, json!({"content": "Bug: login fails on unicode"})).await;
    let b = store(&app, json!({"content": "Fix: normalise input before validation"})).await;
    let c = store(&app, json!({"content": "Validation helpers live in auth/validator.ts"})).await;
    let body = app
        .post(
            &app.a.key,
            "/associate",
            &json!({"memory1_id": b, "memory2_id": a, "type": "DERIVED_FROM", "strength": 0.9}),
        )
        .await
        .ok(201)
        .clone();
    assert_eq!(body["status"], "success");
    assert_eq!(body["relation_type"], "DERIVED_FROM");
    app.post(&app.a.key, "/associate", &json!({"memory1_id": b, "memory2_id": c, "type": "RELATES_TO"})).await.ok(201);
    app.post(&app.a.key, "/associate", &json!({"memory1_id": a, "memory2_id": a})).await.assert_error(400, "itself");
    app.post(&app.a.key, "/associate", &json!({"memory1_id": a, "memory2_id": b, "type": "LIKES"}))
        .await
        .assert_error(400, "type");
    let ghost = uuid::Uuid::new_v4();
    app.post(&app.a.key, "/associate", &json!({"memory1_id": a, "memory2_id": ghost}))
        .await
        .assert_error(404, "memory2_id");

    let body = app.get(&app.a.key, &format!("/memories/{a}/related?max_depth=2")).await.ok(200).clone();
    assert_eq!(body["status"], "success");
    assert_eq!(body["count"], 2);
    let body = app
        .get(&app.a.key, &format!("/memories/{a}/related?relationship_types=DERIVED_FROM&max_depth=2"))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 1);
    app.get(&app.a.key, &format!("/memories/{a}/related?max_depth=9")).await.assert_error(400, "max_depth");

    let body = app.post(&app.a.key, "/consolidate", &json!({"mode": "decay", "dry_run": true})).await.ok(200).clone();
    assert_eq!(body["status"], "success");
    assert_eq!(body["dry_run"], true);
    app.post(&app.a.key, "/consolidate", &json!({"mode": "everything"})).await.assert_error(400, "mode");
}

#[tokio::test]
async fn health_needs_no_key() {
    let app = spawn().await;
    let body = app.send(Method::GET, "/health", None, None).await.ok(200).clone();
    assert_eq!(body["status"], "healthy");
    assert_eq!(body["embedder"], "disabled");
}

#[tokio::test]
async fn another_tenants_key_reaches_nothing_on_the_automem_routes() {
    let app = spawn().await;
    let id = store(&app, decision()).await;
    let mine = store(&app, json!({"content": "a memory of tenant a"})).await;
    let b = &app.b.key;
    app.get(b, &format!("/memory/{id}")).await.assert_error(404, "not found");
    app.patch(b, &format!("/memory/{id}"), &json!({"importance": 0.1})).await.assert_error(404, "not found");
    app.delete(b, &format!("/memory/{id}")).await.assert_error(404, "not found");
    app.get(b, &format!("/memories/{id}/related")).await.assert_error(404, "not found");
    let b_own = app.post(b, "/memory", &json!({"content": "b's note"})).await.ok(201)["memory_id"].clone();
    app.post(b, "/associate", &json!({"memory1_id": b_own, "memory2_id": id})).await.assert_error(404, "memory2_id");
    assert_eq!(app.get(b, "/recall?query=PostgreSQL").await.ok(200)["count"], 0);
    assert_eq!(app.get(b, "/memory/by-tag?tags=database").await.ok(200)["count"], 0);
    assert_eq!(app.delete(b, "/memory/by-tag?tags=database").await.ok(200)["deleted_count"], 0);
    // b storing a's content is b's own memory, not a dedup onto a's.
    let res = app.post(b, "/memory", &decision()).await;
    assert_ne!(res.ok(201)["memory_id"], id.as_str());
    let body =
        app.post(b, "/memory/batch", &json!({"memories": [{"content": "a memory of tenant a"}]})).await.ok(201).clone();
    assert_ne!(body["memory_ids"][0], mine.as_str());
    assert_eq!(body["deduplicated"], json!([]));
    // a's data is unchanged.
    let memory = app.get(&app.a.key, &format!("/memory/{id}")).await.ok(200)["memory"].clone();
    assert_eq!(memory["importance"], 0.9);
}

/// The memory as stored, without counting a read (the listing does not touch).
async fn peek(app: &TestApp, id: &str) -> Value {
    let page = app.get(&app.a.key, "/api/v1/memories?include_archived=true&limit=200").await.ok(200).clone();
    page["memories"].as_array().unwrap().iter().find(|m| m["id"] == id).cloned().expect("memory listed")
}

#[tokio::test]
async fn several_queries_count_one_access_per_returned_memory() {
    let app = spawn().await;
    let id = store(&app, json!({"content": "Redis caches sessions for the checkout service"})).await;
    let res = app.get(&app.a.key, "/recall?queries=redis&queries=sessions&queries=checkout").await;
    assert_eq!(res.ok(200)["count"], 1);
    app.flush_accesses().await;
    assert_eq!(peek(&app, &id).await["access_count"], 1, "three queries, one returned memory, one access");
    // A memory dropped by min_score is not counted.
    app.get(&app.a.key, "/recall?query=redis&min_score=0.999").await.ok(200);
    app.flush_accesses().await;
    assert_eq!(peek(&app, &id).await["access_count"], 1);
}

#[tokio::test]
async fn several_queries_keep_a_time_order() {
    let app = spawn().await;
    let mut ids = Vec::new();
    for content in ["alpha first", "beta second", "alpha third", "beta fourth"] {
        ids.push(store(&app, json!({ "content": content })).await);
    }
    let body = app.get(&app.a.key, "/recall?queries=alpha&queries=beta&sort=time_asc").await.ok(200).clone();
    let got: Vec<&str> = body["results"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(got, ids.iter().map(String::as_str).collect::<Vec<_>>());
    let body = app.get(&app.a.key, "/recall?queries=alpha&queries=beta&sort=time_desc&limit=2").await.ok(200).clone();
    let got: Vec<&str> = body["results"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(got, [ids[3].as_str(), ids[2].as_str()]);
}

#[tokio::test]
async fn errors_name_automems_fields() {
    let app = spawn().await;
    app.get(&app.a.key, "/recall?query=x&start=blorp").await.assert_error(400, "start: cannot understand");
    app.get(&app.a.key, "/recall?query=x&end=blorp").await.assert_error(400, "end: cannot understand");
    app.get(&app.a.key, "/recall?query=x&time_query=blorp").await.assert_error(400, "time_query: cannot understand");
    let long = "x".repeat(1001);
    app.get(&app.a.key, &format!("/recall?queries=a&queries={long}")).await.assert_error(400, "queries:");
    app.post(&app.a.key, "/associate", &json!("x")).await.assert_error(400, "body: must be an object");
}

#[tokio::test]
async fn a_duplicate_replacement_still_supersedes_and_an_archived_duplicate_comes_back() {
    let app = spawn().await;
    let old = store(&app, json!({"content": "The API runs on port 8080"})).await;
    let new = store(&app, json!({"content": "The API runs on port 9090"})).await;
    // The replacement's content is already stored: it becomes the replacement, in AutoMem's 200.
    let body = app
        .post(&app.a.key, "/memory", &json!({"content": "The API runs on port 9090", "supersedes_memory_id": old}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["memory_id"], new.as_str());
    assert_eq!(body["deduplicated"], true);
    let superseded = peek(&app, &old).await;
    assert!(superseded["t_invalid"].is_string());
    assert_eq!(superseded["metadata"]["superseded_by"], new.as_str());
    // Superseding a memory with its own content is refused, and nothing is written.
    app.post(&app.a.key, "/memory", &json!({"content": "The API runs on port 9090", "supersedes_memory_id": new}))
        .await
        .assert_error(400, "same content");
    assert!(peek(&app, &new).await["t_invalid"].is_null());

    // Archived (remem's soft delete): hidden from by-tag; the native store answers 409 saying so; AutoMem's
    // store brings it back.
    let tagged = store(&app, json!({"content": "Deploy freeze on Fridays", "tags": ["ops"]})).await;
    app.delete(&app.a.key, &format!("/api/v1/memories/{tagged}")).await.ok(200);
    assert_eq!(app.get(&app.a.key, "/memory/by-tag?tags=ops").await.ok(200)["count"], 0);
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "Deploy freeze on Fridays", "on_duplicate": "error"}))
        .await
        .assert_error(409, "archived");
    let body = app.post(&app.a.key, "/memory", &json!({"content": "Deploy freeze on Fridays"})).await.ok(200).clone();
    assert_eq!(body["memory_id"], tagged.as_str());
    assert!(peek(&app, &tagged).await["archived_at"].is_null());
    assert_eq!(app.get(&app.a.key, "/memory/by-tag?tags=ops").await.ok(200)["count"], 1);
}
