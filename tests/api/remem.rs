//! remem's routes on `/api/v1`: soft and hard delete, `POST /api/v1/memories/search`, connections, stats,
//! health and readiness, with cross-tenant attempts.

use reqwest::Method;
use serde_json::json;

use crate::helpers::spawn;

#[tokio::test]
async fn delete_archives_by_default_and_removes_with_hard_true() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "User prefers bullet points").await;
    let body = app.delete(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(body["hard"], false);
    // Archived: out of listings and recall, still readable, restorable.
    assert_eq!(app.get(&app.a.key, "/api/v1/memories").await.ok(200)["total"], 0);
    assert_eq!(app.get(&app.a.key, "/api/v1/recall?query=bullet").await.ok(200)["count"], 0);
    let memory = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert!(memory["archived_at"].is_string());
    app.post(&app.a.key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.ok(200);
    assert_eq!(app.get(&app.a.key, "/api/v1/recall?query=bullet").await.ok(200)["count"], 1);
    let history = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    let events: Vec<&str> =
        history["events"].as_array().unwrap().iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert!(events.contains(&"archived"), "{events:?}");

    let body = app.delete(&app.a.key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200).clone();
    assert_eq!(body["hard"], true);
    app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.assert_error(404, "not found");
    app.delete(&app.a.key, &format!("/api/v1/memories/{id}")).await.assert_error(404, "not found");
    app.delete(&app.a.key, &format!("/api/v1/memories/{id}?hard=maybe")).await.assert_error(400, "hard");
    let other = app.store_text(&app.a.key, "Another memory").await;
    app.delete(&app.b.key, &format!("/api/v1/memories/{other}")).await.assert_error(404, "not found");
    app.delete(&app.b.key, &format!("/api/v1/memories/{other}?hard=true")).await.assert_error(404, "not found");
    assert!(app.get(&app.a.key, &format!("/api/v1/memories/{other}")).await.ok(200)["archived_at"].is_null());
}

#[tokio::test]
async fn search_maps_search_type_related_to_and_importance_bounds() {
    let app = spawn().await;
    let low = app
        .store(&app.a.key, json!({"content": "Coffee preference: oat milk flat white", "importance": 0.2}))
        .await["id"]
        .clone();
    let high = app
        .store(&app.a.key, json!({"content": "Coffee allergy: none, but avoid decaf", "importance": 0.9}))
        .await["id"]
        .clone();
    let hub = app.store_text(&app.a.key, "Morning routine").await;
    app.post(
        &app.a.key,
        "/api/v1/connections",
        &json!({"source_id": hub, "target_id": low, "relationship": "RelatedTo"}),
    )
    .await
    .ok(201);

    let body = app
        .post(&app.a.key, "/api/v1/memories/search", &json!({"query": "coffee", "search_type": "keyword"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 2);
    assert_eq!(body["mode"], "keyword");
    let body = app
        .post(&app.a.key, "/api/v1/memories/search", &json!({"query": "coffee", "min_importance": 0.5}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["results"][0]["memory"]["id"], high);
    assert_eq!(body["count"], 1);
    let body = app
        .post(&app.a.key, "/api/v1/memories/search", &json!({"query": "coffee", "max_importance": 0.5}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["results"][0]["memory"]["id"], low);
    assert_eq!(body["count"], 1);
    let body = app
        .post(&app.a.key, "/api/v1/memories/search", &json!({"query": "coffee", "related_to": hub}))
        .await
        .ok(200)
        .clone();
    assert_eq!(body["count"], 1);
    assert_eq!(body["results"][0]["memory"]["id"], low);
    let body = app.post(&app.a.key, "/api/v1/memories/search", &json!({"related_to": hub})).await.ok(200).clone();
    assert_eq!(body["count"], 1);

    app.post(&app.a.key, "/api/v1/memories/search", &json!({"query": "x", "search_type": "fuzzy"}))
        .await
        .assert_error(400, "search_type");
    app.post(&app.a.key, "/api/v1/memories/search", &json!({"query": "x", "search_type": "semantic"}))
        .await
        .assert_error(400, "semantic");
    app.post(&app.a.key, "/api/v1/memories/search", &json!({"query": "x", "max_importance": 7}))
        .await
        .assert_error(400, "max_importance");
    app.post(&app.a.key, "/api/v1/memories/search", &json!({"query": "x", "bogus": 1}))
        .await
        .assert_error(400, "bogus");
    app.post(&app.a.key, "/api/v1/memories/search", &json!({}))
        .await
        .assert_error(400, "query: is required (or related_to)");
    let ghost = uuid::Uuid::new_v4();
    app.post(&app.a.key, "/api/v1/memories/search", &json!({"related_to": ghost}))
        .await
        .assert_error(404, "related_to");
    // Another tenant's memory is not a starting point, and b's search sees none of a's memories.
    app.post(&app.b.key, "/api/v1/memories/search", &json!({"related_to": hub})).await.assert_error(404, "related_to");
    assert_eq!(app.post(&app.b.key, "/api/v1/memories/search", &json!({"query": "coffee"})).await.ok(200)["count"], 0);
}

#[tokio::test]
async fn connections_list_create_and_delete() {
    let app = spawn().await;
    let a = app.store_text(&app.a.key, "Project Falcon uses Rust").await;
    let b = app.store_text(&app.a.key, "Rust services are deployed on Fly").await;
    let c = app.store_text(&app.a.key, "Fly regions: ams, iad").await;
    let body = app
        .post(
            &app.a.key,
            "/api/v1/connections",
            &json!({"source_id": a, "target_id": b, "relationship": "CausedBy", "strength": 0.7}),
        )
        .await
        .ok(201)
        .clone();
    assert_eq!(body["source_id"], a.as_str());
    assert_eq!(body["target_id"], b.as_str());
    assert_eq!(body["strength"], 0.7);
    app.post(&app.a.key, "/api/v1/connections", &json!({"source_id": b, "target_id": c})).await.ok(201);
    app.post(
        &app.a.key,
        "/api/v1/connections",
        &json!({"source_id": a, "target_id": b, "relationship_type": "RelatedTo"}),
    )
    .await
    .ok(201);

    let page = app.get(&app.a.key, "/api/v1/connections").await.ok(200).clone();
    assert_eq!(page["total"], 3);
    let page = app.get(&app.a.key, &format!("/api/v1/connections?memory_id={c}")).await.ok(200).clone();
    assert_eq!(page["total"], 1);
    let page = app.get(&app.a.key, "/api/v1/connections?limit=2").await.ok(200).clone();
    assert_eq!(page["has_more"], true);

    app.post(&app.a.key, "/api/v1/connections", &json!({"target_id": b}))
        .await
        .assert_error(400, "source_id: is required");
    app.post(&app.a.key, "/api/v1/connections", &json!({"source_id": a, "target_id": "nope"}))
        .await
        .assert_error(400, "target_id");
    app.post(&app.a.key, "/api/v1/connections", &json!({"source_id": a, "target_id": b, "relationship": "Loves"}))
        .await
        .assert_error(400, "relationship");
    let ghost = uuid::Uuid::new_v4();
    app.post(&app.a.key, "/api/v1/connections", &json!({"source_id": a, "target_id": ghost}))
        .await
        .assert_error(404, "target_id");

    // Cross-tenant: b can neither link a's memories, see a's connections nor delete them.
    let own = app.store_text(&app.b.key, "b's memory").await;
    app.post(&app.b.key, "/api/v1/connections", &json!({"source_id": own, "target_id": a}))
        .await
        .assert_error(404, "target_id");
    assert_eq!(app.get(&app.b.key, "/api/v1/connections").await.ok(200)["total"], 0);
    app.delete(&app.b.key, &format!("/api/v1/connections/{a}/{b}")).await.assert_error(404, "no connection");

    let body = app.delete(&app.a.key, &format!("/api/v1/connections/{a}/{b}")).await.ok(200).clone();
    assert_eq!(body["deleted_count"], 2, "both types between the pair");
    app.delete(&app.a.key, &format!("/api/v1/connections/{a}/{b}")).await.assert_error(404, "no connection");
    app.delete(&app.a.key, &format!("/api/v1/connections/{a}/zzz")).await.assert_error(400, "dst");
    assert_eq!(app.get(&app.a.key, "/api/v1/connections").await.ok(200)["total"], 1);
}

#[tokio::test]
async fn stats_health_and_readiness() {
    let app = spawn().await;
    app.store(&app.a.key, json!({"content": "Decided on Postgres", "type": "Decision", "tags": ["db"]})).await;
    app.store(
        &app.a.key,
        json!({"content": "Session note", "memory_type": "short_term", "ttl": 3600, "tags": ["db", "session"]}),
    )
    .await;
    let gone = app.store_text(&app.a.key, "Old note").await;
    app.delete(&app.a.key, &format!("/api/v1/memories/{gone}")).await.ok(200);
    let stats = app.get(&app.a.key, "/api/v1/stats").await.ok(200).clone();
    assert_eq!(stats["total_memories"], 2);
    assert_eq!(stats["archived"], 1);
    assert_eq!(stats["short_term"], 1);
    assert_eq!(stats["long_term"], 1);
    assert_eq!(stats["embeddings"]["pending"], 2);
    assert_eq!(stats["tags"], 2);
    assert_eq!(
        stats["by_type"].as_array().unwrap().iter().find(|t| t["memory_type"] == "Decision").unwrap()["count"],
        1
    );
    assert_eq!(app.get(&app.b.key, "/api/v1/stats").await.ok(200)["total_memories"], 0);
    app.send(Method::GET, "/api/v1/stats", None, None).await.assert_error(401, "API key");

    let health = app.send(Method::GET, "/api/v1/health", None, None).await.ok(200).clone();
    assert_eq!(health["status"], "healthy");
    let ready = app.send(Method::GET, "/api/v1/ready", None, None).await.ok(200).clone();
    assert_eq!(ready["embedder"], "disabled");
}

#[tokio::test]
async fn readiness_waits_for_the_model() {
    let app = spawn().await;
    // A model that cannot load: loading, then failed; either way the instance is not ready.
    app.embedder.load_local_in_background("/nonexistent/model".into(), 384);
    let res = app.send(Method::GET, "/api/v1/ready", None, None).await;
    assert_eq!(res.status, 503, "{}", res.body);
    assert!(["loading", "failed"].contains(&res.body["embedder"].as_str().unwrap()), "{}", res.body);
    // Liveness does not depend on the model.
    app.send(Method::GET, "/api/v1/health", None, None).await.ok(200);
}
