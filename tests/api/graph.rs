//! The knowledge graph: associations (one, batch, delete), traversal, episodes, and tenant isolation on
//! each of those routes.

use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

async fn memories(app: &TestApp, key: &str, contents: &[&str]) -> Vec<String> {
    let mut ids = Vec::new();
    for c in contents {
        ids.push(app.store_text(key, c).await);
    }
    ids
}

async fn associate(app: &TestApp, key: &str, from: &str, to: &str, kind: &str, strength: f64) -> Value {
    let body = json!({"memory1_id": from, "memory2_id": to, "type": kind, "strength": strength});
    app.post(key, "/api/v1/associations", &body).await.ok(201)["association"].clone()
}

#[tokio::test]
async fn associations_are_validated_stored_updated_and_deleted() {
    let app = spawn().await;
    let key = &app.a.key;
    let ids = memories(&app, key, &["We chose PostgreSQL", "MySQL was considered"]).await;
    let (a, b) = (&ids[0], &ids[1]);

    let stored = associate(&app, key, a, b, "PREFERS_OVER", 0.8).await;
    assert_eq!(
        (&stored["memory1_id"], &stored["memory2_id"], &stored["type"]),
        (&json!(a), &json!(b), &json!("PREFERS_OVER"))
    );
    assert!((stored["strength"].as_f64().unwrap() - 0.8).abs() < 1e-6);
    // The same edge again updates it rather than duplicating it; remem's names are aliases.
    let again = associate(&app, key, a, b, "prefers-over", 0.3).await;
    assert_eq!(again["id"], stored["id"]);
    assert!((again["strength"].as_f64().unwrap() - 0.3).abs() < 1e-6);
    assert_eq!(associate(&app, key, b, a, "RelatedTo", 0.5).await["type"], "RELATES_TO");
    assert_eq!(associate(&app, key, b, a, "Supports", 0.5).await["type"], "REINFORCES");

    let app = &app;
    let post = |body: Value| async move { app.post(key, "/api/v1/associations", &body).await };
    post(json!({"memory1_id": a, "memory2_id": a}))
        .await
        .assert_error(400, "memory2_id: a memory cannot be associated with itself");
    post(json!({"memory1_id": a, "memory2_id": b, "type": "FRIENDS_WITH"}))
        .await
        .assert_error(400, "type: unknown relation type");
    post(json!({"memory1_id": a, "memory2_id": b, "type": "SIMILAR_TO"}))
        .await
        .assert_error(400, "SIMILAR_TO is created by the service");
    post(json!({"memory1_id": a, "memory2_id": b, "strength": 1.5}))
        .await
        .assert_error(400, "strength: must be a number between 0 and 1");
    post(json!({"memory1_id": a, "memory2_id": "nope"})).await.assert_error(400, "memory2_id: not a valid UUID");
    post(json!({"memory2_id": b})).await.assert_error(400, "memory1_id: is required");
    post(json!({"memory1_id": a, "memory2_id": b, "properties": [1]}))
        .await
        .assert_error(400, "properties: must be an object");
    let ghost = uuid::Uuid::new_v4();
    post(json!({"memory1_id": a, "memory2_id": ghost}))
        .await
        .assert_error(404, &format!("memory2_id: memory {ghost} not found"));

    let id = stored["id"].as_str().unwrap();
    app.delete(key, &format!("/api/v1/associations/{id}")).await.ok(200);
    app.delete(key, &format!("/api/v1/associations/{id}")).await.assert_error(404, "not found");
    app.delete(key, "/api/v1/associations/xyz").await.assert_error(400, "id: not a valid UUID");
}

#[tokio::test]
async fn a_batch_stores_what_it_can_and_reports_each_item() {
    let app = spawn().await;
    let key = &app.a.key;
    let ids = memories(&app, key, &["one", "two", "three"]).await;
    let all = json!({"associations": [
        {"memory1_id": ids[0], "memory2_id": ids[1], "type": "LEADS_TO"},
        {"memory1_id": ids[1], "memory2_id": ids[2], "type": "LEADS_TO"}
    ]});
    let body = app.post(key, "/api/v1/associations", &all).await.ok(201).clone();
    assert_eq!((body["stored"].as_u64(), body["failed"].as_u64()), (Some(2), Some(0)));

    let ghost = uuid::Uuid::new_v4();
    let mixed = json!({"associations": [
        {"memory1_id": ids[0], "memory2_id": ids[2], "type": "PART_OF"},
        {"memory1_id": ids[0], "memory2_id": ids[2], "type": "NOPE"},
        {"memory1_id": ids[0], "memory2_id": ghost}
    ]});
    let body = app.post(key, "/api/v1/associations", &mixed).await.ok(207).clone();
    assert_eq!(body["status"], "partial");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results[0]["status"], "stored");
    assert_eq!((&results[1]["code"], &results[2]["code"]), (&json!(400), &json!(404)));
    assert!(results[1]["message"].as_str().unwrap().starts_with("associations[1].type"));

    let none = json!({"associations": [{"memory1_id": ids[0], "memory2_id": ids[0]}]});
    app.post(key, "/api/v1/associations", &none).await.assert_error(400, "associations[0].memory2_id");
    app.post(key, "/api/v1/associations", &json!({"associations": []})).await.assert_error(400, "must not be empty");
    let many: Vec<Value> = (0..501).map(|_| json!({"memory1_id": ids[0], "memory2_id": ids[1]})).collect();
    app.post(key, "/api/v1/associations", &json!({"associations": many})).await.assert_error(400, "at most 500");
    // Only the stored items exist: 2 + 1.
    let related = app.get(key, &format!("/api/v1/memories/{}/related?depth=3", ids[0])).await.ok(200).clone();
    assert_eq!(related["count"], 2);
}

#[tokio::test]
async fn traversal_follows_edges_both_ways_by_strongest_path_and_ends_on_cycles() {
    let app = spawn().await;
    let key = &app.a.key;
    let ids = memories(&app, key, &["start", "near", "middle", "far", "side"]).await;
    let [start, near, middle, far, side] = [&ids[0], &ids[1], &ids[2], &ids[3], &ids[4]];
    associate(&app, key, start, near, "LEADS_TO", 0.9).await;
    associate(&app, key, near, middle, "LEADS_TO", 0.8).await;
    associate(&app, key, middle, far, "DERIVED_FROM", 0.7).await;
    associate(&app, key, far, start, "RELATES_TO", 0.1).await; // a cycle back to the start
    associate(&app, key, side, start, "CONTRADICTS", 0.5).await; // an incoming edge

    let app = &app;
    let walk = |query: &'static str| async move {
        let body = app.get(key, &format!("/api/v1/memories/{start}/related{query}")).await.ok(200).clone();
        body["related"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["memory"]["content"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(walk("").await, ["near", "side", "far"]);
    // Depth 3: "far" is reached more strongly through the chain (0.9*0.8*0.7) than by its own 0.1 edge.
    assert_eq!(walk("?depth=3").await, ["near", "middle", "far", "side"]);
    let body = app.get(key, &format!("/api/v1/memories/{start}/related?depth=3")).await.ok(200).clone();
    let far_hit = &body["related"][2];
    assert_eq!(far_hit["depth"], 3);
    assert!((far_hit["path_strength"].as_f64().unwrap() - 0.504).abs() < 1e-4);
    let path: Vec<&str> = far_hit["path"].as_array().unwrap().iter().map(|s| s["type"].as_str().unwrap()).collect();
    assert_eq!(path, ["LEADS_TO", "LEADS_TO", "DERIVED_FROM"]);
    assert_eq!(far_hit["path"][2]["to"], json!(far));
    // Filters: types (aliases and system types accepted), strength, limit.
    assert_eq!(walk("?depth=3&types=LEADS_TO").await, ["near", "middle"]);
    assert_eq!(walk("?depth=3&types=leads_to,Supports").await, ["near", "middle"]);
    assert_eq!(walk("?depth=3&min_strength=0.75").await, ["near", "middle"]);
    assert_eq!(walk("?depth=3&limit=1").await, ["near"]);
    assert!(walk("?types=SIMILAR_TO").await.is_empty());

    let path = format!("/api/v1/memories/{start}/related");
    app.get(key, &format!("{path}?depth=4")).await.assert_error(400, "depth: must be between 1 and 3");
    app.get(key, &format!("{path}?types=FOO")).await.assert_error(400, "types: unknown relation type");
    app.get(key, &format!("{path}?min_strength=2")).await.assert_error(400, "min_strength");
    app.get(key, &format!("{path}?limit=201")).await.assert_error(400, "limit");
    let ghost = uuid::Uuid::new_v4();
    app.get(key, &format!("/api/v1/memories/{ghost}/related")).await.assert_error(404, "not found");
    // Deleting a memory removes its edges.
    app.delete(key, &format!("/api/v1/memories/{near}?hard=true")).await.ok(200);
    assert_eq!(walk("?depth=3").await, ["side", "far", "middle"]);
}

#[tokio::test]
async fn an_episode_lists_its_memories_in_sequence_with_preceded_by_edges() {
    let app = spawn().await;
    let key = &app.a.key;
    for (seq, text) in [(2, "third"), (0, "first"), (1, "second")] {
        app.store(key, json!({"content": text, "episode_id": "standup-42", "sequence_number": seq})).await;
    }
    app.store(key, json!({"content": "elsewhere", "episode_id": "other"})).await;
    let body = app.get(key, "/api/v1/episodes/standup-42").await.ok(200).clone();
    let order: Vec<&str> =
        body["memories"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(order, ["first", "second", "third"]);
    assert_eq!(body["total"], 3);
    let ids: Vec<&Value> = body["memories"].as_array().unwrap().iter().map(|m| &m["id"]).collect();
    assert_eq!(
        body["edges"],
        json!([
            {"from": ids[1], "to": ids[0], "type": "PRECEDED_BY"},
            {"from": ids[2], "to": ids[1], "type": "PRECEDED_BY"}
        ])
    );
    let page = app.get(key, "/api/v1/episodes/standup-42?limit=2&offset=1").await.ok(200).clone();
    assert_eq!((page["count"].as_u64(), page["has_more"].as_bool()), (Some(2), Some(false)));
    assert_eq!(page["memories"][0]["content"], "second");
    assert_eq!(app.get(key, "/api/v1/episodes/unknown").await.ok(200)["total"], 0);
    app.get(key, "/api/v1/episodes/x?limit=0").await.assert_error(400, "limit");
}

#[tokio::test]
async fn no_graph_route_crosses_tenants() {
    let app = spawn().await;
    let (a, b) = (&app.a.key, &app.b.key);
    let a_ids = memories(&app, a, &["alpha one", "alpha two"]).await;
    let b_id = app.store_text(b, "beta one").await;
    app.store(a, json!({"content": "alpha episode", "episode_id": "shared-name"})).await;
    let edge = associate(&app, a, &a_ids[0], &a_ids[1], "RELATES_TO", 0.5).await;

    // B cannot link A's memories, nor join its own memory to one of A's, from either side.
    let link = |from: &str, to: &str| json!({"memory1_id": from, "memory2_id": to});
    app.post(b, "/api/v1/associations", &link(&a_ids[0], &a_ids[1])).await.assert_error(404, "not found");
    app.post(b, "/api/v1/associations", &link(&b_id, &a_ids[0])).await.assert_error(404, "memory2_id");
    app.post(a, "/api/v1/associations", &link(&a_ids[0], &b_id)).await.assert_error(404, "memory2_id");
    let batch = json!({"associations": [link(&b_id, &a_ids[1])]});
    app.post(b, "/api/v1/associations", &batch).await.assert_error(400, "no item could be stored");
    // B can neither delete A's edge, walk from A's memory, nor read A's episode.
    let edge_id = edge["id"].as_str().unwrap();
    app.delete(b, &format!("/api/v1/associations/{edge_id}")).await.assert_error(404, "not found");
    app.get(b, &format!("/api/v1/memories/{}/related", a_ids[0])).await.assert_error(404, "not found");
    assert_eq!(app.get(b, "/api/v1/episodes/shared-name").await.ok(200)["total"], 0);
    // A's edge is intact.
    let body = app.get(a, &format!("/api/v1/memories/{}/related", a_ids[0])).await.ok(200).clone();
    assert_eq!(body["count"], 1);
    assert_eq!(app.count_as_app_role("relations", Some(app.b.id)).await, 0);
}

#[tokio::test]
async fn superseding_invalidates_the_old_memory_and_recall_returns_the_head_of_its_chain() {
    let app = spawn().await;
    let key = &app.a.key;
    let v1 = app.store_text(key, "The deploy window is Tuesday at nine").await;
    let body = json!({"content": "The deploy window moved to Wednesday at ten", "supersedes_memory_id": v1,
        "supersede_reason": "the team moved"});
    let v2 = app.store(key, body).await["id"].as_str().unwrap().to_owned();
    let body = json!({"content": "The deploy window is Thursday at eleven now", "supersedes_memory_id": v2,
        "supersede_relation": "EVOLVED_INTO"});
    let v3 = app.store(key, body).await["id"].as_str().unwrap().to_owned();

    let old = app.get(key, &format!("/api/v1/memories/{v1}")).await.ok(200).clone();
    assert!(old["t_invalid"].is_string(), "the old memory is no longer valid: {old}");
    assert_eq!(
        (&old["metadata"]["superseded_by"], &old["metadata"]["supersede_reason"]),
        (&json!(v2), &json!("the team moved"))
    );
    let history = app.get(key, &format!("/api/v1/memories/{v1}/history")).await.ok(200).clone();
    assert_eq!(history["events"][1]["event_type"], "superseded");
    let edges = app.get(key, &format!("/api/v1/memories/{v1}/related?depth=2")).await.ok(200).clone();
    let steps: Vec<(&str, &str)> = edges["related"][1]["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["type"].as_str().unwrap(), s["to"].as_str().unwrap()))
        .collect();
    assert_eq!(steps, [("INVALIDATED_BY", v2.as_str()), ("EVOLVED_INTO", v3.as_str())]);

    // Current state: every version that matches stands for the head, once; "Tuesday" only matched v1.
    let app = &app;
    let recall = |body: Value| async move { app.post(key, "/api/v1/recall", &body).await.ok(200).clone() };
    let current = recall(json!({"query": "deploy window Tuesday"})).await;
    assert_eq!(current["count"], 1);
    assert_eq!(current["results"][0]["memory"]["id"], json!(v3));
    assert_eq!(current["results"][0]["replaces"], json!(v1));
    let listed = recall(json!({"tags": [], "limit": 10})).await;
    assert_eq!(listed["count"], 1, "filter-only recall resolves chains too");
    let all = recall(json!({"query": "deploy window Tuesday", "state_mode": "history"})).await;
    assert_eq!(all["count"], 3);
    assert_eq!(all["results"][0]["memory"]["id"], json!(v1));
    assert!(all["results"][0].get("replaces").is_none());
    recall_error(app, json!({"query": "x", "state_mode": "future"}), "state_mode: must be current or history").await;

    // A missing old memory stores nothing; bad fields are 400s; a batch refuses supersede mode.
    let ghost = uuid::Uuid::new_v4();
    let body = json!({"content": "replacement of nothing", "supersedes_memory_id": ghost});
    app.post(key, "/api/v1/memories", &body).await.assert_error(404, "supersedes_memory_id: memory");
    assert_eq!(app.count(key).await, 3);
    let body = json!({"content": "x1", "supersedes_memory_id": v3, "supersede_relation": "RELATES_TO"});
    app.post(key, "/api/v1/memories", &body)
        .await
        .assert_error(400, "supersede_relation: must be INVALIDATED_BY or EVOLVED_INTO");
    app.post(key, "/api/v1/memories", &json!({"content": "x2", "supersede_reason": "why"}))
        .await
        .assert_error(400, "supersedes_memory_id: is required");
    let batch = json!({"memories": [{"content": "x3", "supersedes_memory_id": v3}]});
    app.post(key, "/api/v1/memories/batch", &batch).await.assert_error(400, "memories[0].supersedes_memory_id");
    // Another tenant's memory cannot be superseded.
    let body = json!({"content": "B's takeover", "supersedes_memory_id": v3});
    app.post(&app.b.key, "/api/v1/memories", &body).await.assert_error(404, "supersedes_memory_id");
    let head = app.get(key, &format!("/api/v1/memories/{v3}")).await.ok(200).clone();
    assert!(head["t_invalid"].is_null());
}

async fn recall_error(app: &TestApp, body: Value, needle: &str) {
    app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(400, needle);
}

#[tokio::test]
async fn expand_relations_adds_associated_memories_marked_as_expansions() {
    let app = spawn().await;
    let key = &app.a.key;
    let ids = memories(
        &app,
        key,
        &[
            "The deploy key rotates every Tuesday",
            "Rotation script lives in the ops repository",
            "Lunch is at noon",
            "Weak link",
        ],
    )
    .await;
    associate(&app, key, &ids[0], &ids[1], "RELATES_TO", 0.8).await;
    associate(&app, key, &ids[3], &ids[0], "RELATES_TO", 0.2).await;

    let plain = app.post(key, "/api/v1/recall", &json!({"query": "deploy key"})).await.ok(200).clone();
    assert!(plain.get("expansions").is_none());
    let body = json!({"query": "deploy key", "expand_relations": true});
    let expanded = app.post(key, "/api/v1/recall", &body).await.ok(200).clone();
    assert_eq!(expanded["count"], 1);
    let expansions = expanded["expansions"].as_array().unwrap();
    let found: Vec<&str> = expansions.iter().map(|e| e["memory"]["content"].as_str().unwrap()).collect();
    assert_eq!(found, ["Rotation script lives in the ops repository", "Weak link"]);
    assert_eq!((&expansions[0]["expanded_from"], &expansions[0]["match_type"]), (&json!(ids[0]), &json!("expansion")));
    let expected = expanded["results"][0]["score"].as_f64().unwrap() * 0.8;
    assert!((expansions[0]["score"].as_f64().unwrap() - expected).abs() < 1e-6);
    // Limits: per result and in all, validated.
    let body = json!({"query": "deploy key", "expand_relations": true, "relation_limit": 1});
    let one = app.post(key, "/api/v1/recall", &body).await.ok(200).clone();
    assert_eq!(one["expansions"].as_array().unwrap().len(), 1);
    let body = json!({"query": "deploy key", "expand_relations": true, "relation_limit": 0});
    app.post(key, "/api/v1/recall", &body).await.assert_error(400, "relation_limit: must be between 1 and 50");
    let body = json!({"query": "deploy key", "expand_relations": true, "expansion_limit": 500});
    app.post(key, "/api/v1/recall", &body).await.assert_error(400, "expansion_limit");
    // Another tenant's recall never expands into A's graph.
    app.store_text(&app.b.key, "The deploy key of tenant B").await;
    let body = json!({"query": "deploy key", "expand_relations": true});
    let b = app.post(&app.b.key, "/api/v1/recall", &body).await.ok(200).clone();
    assert_eq!(b["expansions"], json!([]));
}

/// A walk visits each memory once per hop (a frontier), not every path: depth 3 on 120 memories linked
/// pairwise (7,140 edges) enumerated ~1.6M paths before and took 25 s; it now reads each hop's edges once.
#[tokio::test]
async fn a_deep_walk_on_a_complete_graph_keeps_one_path_per_memory() {
    let app = spawn().await;
    let key = &app.a.key;
    let items: Vec<Value> = (0..120).map(|i| json!({"content": format!("node {i}")})).collect();
    let ids = app.store_batch(key, &items).await;
    // Every pair linked at 0.5, except node 1 - node 2 at 1.0 and node 0 - node 1 at 0.9: node 2 is reached
    // more strongly through node 1 (0.9 * 1.0) than by its own edge (0.5).
    let mut edges = Vec::new();
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            let strength = match (i, j) {
                (0, 1) => 0.9,
                (1, 2) => 1.0,
                _ => 0.5,
            };
            edges.push(json!({"memory1_id": ids[i], "memory2_id": ids[j], "type": "RELATES_TO", "strength": strength}));
        }
    }
    assert_eq!(edges.len(), 7140);
    for chunk in edges.chunks(500) {
        app.post(key, "/api/v1/associations", &json!({"associations": chunk})).await.ok(201);
    }
    let body = app.get(key, &format!("/api/v1/memories/{}/related?depth=3&limit=200", ids[0])).await.ok(200).clone();
    let related = body["related"].as_array().unwrap();
    assert_eq!(related.len(), 119, "every other memory once");
    assert_eq!(related[0]["memory"]["id"], ids[1].as_str());
    assert_eq!(related[1]["memory"]["id"], ids[2].as_str());
    assert_eq!(related[1]["depth"], 2);
    assert!((related[1]["path_strength"].as_f64().unwrap() - 0.9).abs() < 1e-6);
    // The rest: their direct edge (0.5) beats any longer path (at most 0.9 * 0.5 = 0.45).
    assert!(related[2..].iter().all(|r| r["depth"] == 1 && (r["path_strength"].as_f64().unwrap() - 0.5).abs() < 1e-6));
    let unique: std::collections::HashSet<&str> = related.iter().map(|r| r["memory"]["id"].as_str().unwrap()).collect();
    assert_eq!(unique.len(), 119);
}
