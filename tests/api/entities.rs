//! Entities: enrichment links them and tags memories (idempotently, following content changes), listing,
//! detail, merge, entity-grouped recall (compact and verbose, the seed's errors), `expand_entities`,
//! extraction by a chat model (and the fallback when it fails), learned edge decay, and tenant isolation
//! on every entity route.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use cairn::config::LlmConfig;
use cairn::jobs::enrich::Extractor;
use cairn::models::chat::ChatModel;
use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

fn tags(memory: &Value) -> Vec<String> {
    memory["tags"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect()
}

fn entity_tags(memory: &Value) -> Vec<String> {
    let mut t: Vec<String> = tags(memory).into_iter().filter(|t| t.starts_with("entity:")).collect();
    t.sort();
    t
}

async fn memory(app: &TestApp, key: &str, id: &str) -> Value {
    app.get(key, &format!("/api/v1/memories/{id}")).await.ok(200).clone()
}

/// The id of the tenant's entity of `kind` named `normalized`.
async fn entity_id(app: &TestApp, key: &str, kind: &str, normalized: &str) -> String {
    let page = app.get(key, &format!("/api/v1/entities?type={kind}&limit=200")).await.ok(200).clone();
    let found = page["entities"].as_array().unwrap().iter().find(|e| e["normalized_name"] == normalized);
    found.unwrap_or_else(|| panic!("no {kind} {normalized} in {page}"))["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn enrichment_links_entities_tags_memories_and_is_idempotent() {
    let app = spawn().await;
    let key = &app.a.key;
    let stored = app
        .store(key, json!({"content": "Met with Sarah Chen about the Falcon project; we chose postgres over MongoDB.", "tags": ["work"]}))
        .await;
    let id = stored["id"].as_str().unwrap();
    assert_eq!(stored["enrichment_status"], "pending");
    assert_eq!(app.run_enrichment().await, 1);

    let m = memory(&app, key, id).await;
    assert_eq!(m["enrichment_status"], "ready");
    assert_eq!(
        entity_tags(&m),
        ["entity:person:sarah-chen", "entity:project:falcon", "entity:tool:mongodb", "entity:tool:postgresql"]
    );
    assert!(tags(&m).contains(&"work".to_owned()), "the caller's tags stay: {m}");
    // Entity tags work as tag filters and prefixes.
    let by_prefix = app.get(key, "/api/v1/recall?tags=entity:tool&tag_match=prefix").await.ok(200).clone();
    assert_eq!(by_prefix["count"], 1);

    let tools = app.get(key, "/api/v1/entities?type=tool").await.ok(200).clone();
    assert_eq!(tools["total"], 2);
    let pg = tools["entities"].as_array().unwrap().iter().find(|e| e["name"] == "PostgreSQL").unwrap();
    assert_eq!((pg["memory_count"].as_i64(), pg["tag"].as_str()), (Some(1), Some("entity:tool:postgresql")));

    // A redelivered job changes nothing: no second entity, link or tag.
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    cairn::queue::enrich::enqueue(&mut tx, &[id.parse().unwrap()]).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(app.run_enrichment().await, 1);
    let again = memory(&app, key, id).await;
    assert_eq!(tags(&again), tags(&m));
    assert_eq!(app.get(key, "/api/v1/entities").await.ok(200)["total"], 4);
    assert_eq!(app.count_as_app_role("memory_entities", Some(app.a.id)).await, 4);

    // A second memory mentioning Postgres links to the same entity.
    app.store_text(key, "Postgres needs a vacuum schedule").await;
    app.run_enrichment().await;
    let detail = app.get(key, &format!("/api/v1/entities/{}", pg["id"].as_str().unwrap())).await.ok(200).clone();
    assert_eq!(detail["entity"]["memory_count"], 2);
    assert_eq!(detail["memories"].as_array().unwrap().len(), 2);
    assert_eq!(detail["memories"][0]["content"], "Postgres needs a vacuum schedule", "newest first");
}

#[tokio::test]
async fn a_content_change_relinks_entities_and_keeps_the_callers_tags() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = app.store(key, json!({"content": "Talked to Bob about Kubernetes", "tags": ["infra"]})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.run_enrichment().await;
    assert_eq!(entity_tags(&memory(&app, key, &id).await), ["entity:person:bob", "entity:tool:kubernetes"]);

    let patched = app
        .patch(key, &format!("/api/v1/memories/{id}"), &json!({"content": "Talked to Alice about Terraform"}))
        .await
        .ok(200)
        .clone();
    assert_eq!(patched["enrichment_status"], "pending");
    app.run_enrichment().await;
    let m = memory(&app, key, &id).await;
    assert_eq!(entity_tags(&m), ["entity:person:alice", "entity:tool:terraform"]);
    assert!(tags(&m).contains(&"infra".to_owned()));
    // Bob no longer has a memory.
    let bob = entity_id(&app, key, "person", "bob").await;
    assert_eq!(app.get(key, &format!("/api/v1/entities/{bob}")).await.ok(200)["entity"]["memory_count"], 0);

    // Replacing the tags re-applies the entity tags.
    app.patch(key, &format!("/api/v1/memories/{id}"), &json!({"tags": ["ops"]})).await.ok(200);
    app.run_enrichment().await;
    let m = memory(&app, key, &id).await;
    assert_eq!(entity_tags(&m), ["entity:person:alice", "entity:tool:terraform"]);
    assert!(tags(&m).contains(&"ops".to_owned()) && !tags(&m).contains(&"infra".to_owned()));
}

#[tokio::test]
async fn entities_list_filter_page_and_validate() {
    let app = spawn().await;
    let key = &app.a.key;
    for text in ["Docker and Redis in staging", "Redis eviction policy is allkeys-lru", "Met with Priya in Berlin"] {
        app.store_text(key, text).await;
    }
    app.run_enrichment().await;
    let all = app.get(key, "/api/v1/entities").await.ok(200).clone();
    assert_eq!(all["total"], 4, "{all}");
    // LIKE's wildcards in a name prefix are literal.
    app.store_text(key, "Name it `snake_case` and `snakeXcase`").await;
    app.run_enrichment().await;
    let snake = app.get(key, "/api/v1/entities?q=snake_c").await.ok(200).clone();
    assert_eq!(
        (snake["total"].as_i64(), snake["entities"][0]["name"].as_str()),
        (Some(1), Some("snake_case")),
        "{snake}"
    );

    assert_eq!(all["entities"][0]["name"], "Redis", "most mentioned first: {all}");
    assert_eq!(all["entities"][0]["memory_count"], 2);
    let page = app.get(key, "/api/v1/entities?limit=2&offset=4").await.ok(200).clone();
    assert_eq!((page["count"].as_u64(), page["has_more"].as_bool()), (Some(2), Some(false)), "six in all: {page}");
    let places = app.get(key, "/api/v1/entities?type=location").await.ok(200).clone();
    assert_eq!(places["entities"][0]["name"], "Berlin");
    let named = app.get(key, "/api/v1/entities?q=pri").await.ok(200).clone();
    assert_eq!((named["total"].as_i64(), named["entities"][0]["type"].as_str()), (Some(1), Some("person")));

    app.get(key, "/api/v1/entities?type=planet").await.assert_error(400, "type: Invalid entity type \"planet\"");
    app.get(key, "/api/v1/entities?limit=0").await.assert_error(400, "limit: must be between 1 and 200");
    app.get(key, "/api/v1/entities/not-a-uuid").await.assert_error(400, "id:");
    let ghost = uuid::Uuid::new_v4();
    app.get(key, &format!("/api/v1/entities/{ghost}")).await.assert_error(404, "not found");
}

#[tokio::test]
async fn merging_moves_memories_and_tags_and_keeps_the_name_as_an_alias() {
    let app = spawn().await;
    let key = &app.a.key;
    let first = app.store_text(key, "We run Kubernetes in three regions").await;
    let second = app.store_text(key, "Use `kubectl` with the read-only context").await;
    app.run_enrichment().await;
    let k8s = entity_id(&app, key, "tool", "kubernetes").await;
    let kubectl = entity_id(&app, key, "tool", "kubectl").await;

    let merge = |body: Value, target: String| {
        let app = &app;
        async move { app.post(key, &format!("/api/v1/entities/{target}/merge"), &body).await }
    };
    merge(json!({"entity_ids": []}), k8s.clone()).await.assert_error(400, "entity_ids: must list 1..=100");
    merge(json!({"entity_ids": [k8s]}), k8s.clone()).await.assert_error(400, "into itself");
    let ghost = uuid::Uuid::new_v4();
    merge(json!({"entity_ids": [ghost]}), k8s.clone()).await.assert_error(404, "entity_ids: entity");
    merge(json!({"entity_ids": [kubectl]}), ghost.to_string()).await.assert_error(404, "not found");

    let merged = merge(json!({"entity_ids": [kubectl]}), k8s.clone()).await.ok(200).clone();
    assert_eq!(merged["memory_count"], 2);
    assert_eq!(merged["aliases"], json!(["tool:kubectl"]));
    assert_eq!(entity_tags(&memory(&app, key, &second).await), ["entity:tool:kubernetes"]);
    assert_eq!(entity_tags(&memory(&app, key, &first).await), ["entity:tool:kubernetes"]);
    app.get(key, &format!("/api/v1/entities/{kubectl}")).await.assert_error(404, "not found");

    // A later mention of the merged name links to the target.
    let third = app.store_text(key, "Pin the `kubectl` version everywhere").await;
    app.run_enrichment().await;
    assert_eq!(entity_tags(&memory(&app, key, &third).await), ["entity:tool:kubernetes"]);
    assert_eq!(app.get(key, &format!("/api/v1/entities/{k8s}")).await.ok(200)["entity"]["memory_count"], 3);
    assert_eq!(app.get(key, "/api/v1/entities?type=tool").await.ok(200)["total"], 1);
}

async fn seed_grouped(app: &TestApp, key: &str) {
    for text in [
        "Jeff prefers TypeScript over JavaScript for new services",
        "Jeff uses VS Code as primary editor",
        "The weekly sync moved to Thursdays",
        "Priya prefers dark mode in every editor",
    ] {
        app.store_text(key, text).await;
    }
    app.run_enrichment().await;
}

#[tokio::test]
async fn entity_grouped_recall_answers_compact_and_verbose_shapes() {
    let app = spawn().await;
    let key = &app.a.key;
    seed_grouped(&app, key).await;

    let body = json!({"query": "editor", "entityTypes": ["person"], "limit": 10, "searchMode": "hybrid"});
    let compact = app.post(key, "/api/v1/recall/entities", &body).await.ok(200).clone();
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&compact), ["e", "n"], "{compact}");
    assert_eq!(compact["n"], 2, "two memories mention a person and match 'editor': {compact}");
    let groups = compact["e"].as_array().unwrap();
    let names: Vec<&str> = groups.iter().map(|g| g["n"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"Jeff") && names.contains(&"Priya"), "{compact}");
    for g in groups {
        assert_eq!(keys(g), ["m", "n", "t"]);
        assert_eq!(g["t"], "person");
        for m in g["m"].as_array().unwrap() {
            assert_eq!(keys(m), ["c", "s"]);
            let s = m["s"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&s) && (s * 100.0).fract().abs() < 1e-9, "two decimals: {s}");
        }
    }

    let verbose =
        app.post(key, "/api/v1/recall/entities", &json!({"query": "Jeff", "compact": false})).await.ok(200).clone();
    assert_eq!(verbose["query"], "Jeff");
    assert_eq!(verbose["totalMemories"], 2);
    let jeff = verbose["entities"].as_array().unwrap().iter().find(|e| e["entityName"] == "Jeff").unwrap();
    assert_eq!(jeff["entityType"], "person");
    assert_eq!(jeff["memories"].as_array().unwrap().len(), 2);
    let first = &jeff["memories"][0];
    assert_eq!((first["source"].as_str(), first["confidence"].is_number()), (Some("user"), true));
    // Other entities of those memories group them too (tools, preferences).
    assert!(verbose["entities"].as_array().unwrap().iter().any(|e| e["entityType"] == "tool"), "{verbose}");
    // The limit counts memories.
    let one = app.post(key, "/api/v1/recall/entities", &json!({"query": "Jeff", "limit": 1})).await.ok(200).clone();
    assert_eq!(one["n"], 1);
}

#[tokio::test]
async fn entity_grouped_recall_reports_the_seeds_errors() {
    let app = spawn().await; // no embedder configured
    let key = &app.a.key;
    let post = |body: Value| {
        let app = &app;
        async move { app.post(key, "/api/v1/recall/entities", &body).await }
    };
    post(json!({"query": ""})).await.assert_error(400, "query: Invalid query length");
    post(json!({})).await.assert_error(400, "query: Invalid query length");
    post(json!({"query": "x".repeat(1001)})).await.assert_error(400, "query: Invalid query length");
    post(json!({"query": "ok", "limit": 0})).await.assert_error(400, "limit: Invalid limit");
    post(json!({"query": "ok", "limit": 51})).await.assert_error(400, "limit: Invalid limit");
    post(json!({"query": "ok", "entityTypes": ["person", "planet"]}))
        .await
        .assert_error(400, "entityTypes: Invalid entity type \"planet\"");
    post(json!({"query": "ok", "searchMode": "fuzzy"}))
        .await
        .assert_error(400, "searchMode: must be hybrid or semantic");
    post(json!({"query": "ok", "searchMode": "semantic"}))
        .await
        .assert_error(400, "searchMode: Embedding service not configured");
    // Hybrid without an embedder answers with keyword results, and says so when verbose.
    let verbose = post(json!({"query": "ok", "compact": false})).await.ok(200).clone();
    assert_eq!(verbose["searchMode"], "keyword");
}

#[tokio::test]
async fn expand_entities_adds_memories_that_share_an_entity() {
    let app = spawn().await;
    let key = &app.a.key;
    let budget = app.store_text(key, "Talked to Priya about the Falcon project budget").await;
    let launch = app.store_text(key, "The Falcon project launch slipped to the next quarter").await;
    app.store_text(key, "Lunch options near the office").await;
    app.run_enrichment().await;

    let plain = app.post(key, "/api/v1/recall", &json!({"query": "budget"})).await.ok(200).clone();
    assert_eq!(plain["count"], 1);
    assert!(plain.get("expansions").is_none());
    let expanded =
        app.post(key, "/api/v1/recall", &json!({"query": "budget", "expand_entities": true})).await.ok(200).clone();
    let expansions = expanded["expansions"].as_array().unwrap();
    assert_eq!(expansions.len(), 1, "{expanded}");
    let e = &expansions[0];
    assert_eq!(
        (e["memory"]["id"].as_str(), e["expanded_from"].as_str(), e["relation"].as_str(), e["entity"].as_str()),
        (Some(launch.as_str()), Some(budget.as_str()), Some("SHARES_ENTITY"), Some("project:Falcon"))
    );
    assert_eq!(e["match_type"], "expansion");
    // Bounded by expansion_limit, validated like expand_relations'.
    app.post(key, "/api/v1/recall", &json!({"query": "budget", "expand_entities": true, "expansion_limit": 0}))
        .await
        .assert_error(400, "expansion_limit: must be between 1 and 200");
}

#[tokio::test]
async fn tenants_cannot_see_or_touch_each_others_entities() {
    let app = spawn().await;
    let (a, b) = (&app.a.key, &app.b.key);
    let mine = app.store_text(a, "Met with Sarah Chen about the Falcon project").await;
    app.store_text(b, "The Falcon project is ours too, says Omar Haddad").await;
    app.run_enrichment().await;
    let falcon_a = entity_id(&app, a, "project", "falcon").await;
    let falcon_b = entity_id(&app, b, "project", "falcon").await;
    assert_ne!(falcon_a, falcon_b, "each tenant has its own entity");

    let listed = app.get(b, "/api/v1/entities").await.ok(200).clone();
    assert!(listed["entities"].as_array().unwrap().iter().all(|e| e["name"] != "Sarah Chen"), "{listed}");
    app.get(b, &format!("/api/v1/entities/{falcon_a}")).await.assert_error(404, "not found");
    app.post(b, &format!("/api/v1/entities/{falcon_a}/merge"), &json!({"entity_ids": [falcon_b]}))
        .await
        .assert_error(404, "not found");
    app.post(b, &format!("/api/v1/entities/{falcon_b}/merge"), &json!({"entity_ids": [falcon_a]}))
        .await
        .assert_error(404, "entity_ids: entity");
    let grouped = app
        .post(b, "/api/v1/recall/entities", &json!({"query": "Falcon project", "compact": false}))
        .await
        .ok(200)
        .clone();
    let names: Vec<&str> =
        grouped["entities"].as_array().unwrap().iter().map(|e| e["entityName"].as_str().unwrap()).collect();
    assert!(!names.contains(&"Sarah Chen"), "{grouped}");
    let expanded =
        app.post(b, "/api/v1/recall", &json!({"query": "Falcon", "expand_entities": true})).await.ok(200).clone();
    assert!(!expanded.to_string().contains(&mine), "{expanded}");
    // A's entity and links are untouched by B's attempts.
    assert_eq!(app.get(a, &format!("/api/v1/entities/{falcon_a}")).await.ok(200)["entity"]["memory_count"], 1);
    assert_eq!(app.count_as_app_role("entities", None).await, 0, "no tenant set: no rows");
}

/// A scripted `/v1/chat/completions`: fails `failures` times with 500, then answers `answer`.
#[derive(Clone)]
struct Chat {
    answer: String,
    failures: usize,
    requests: Arc<AtomicUsize>,
}

async fn completions(State(chat): State<Chat>, Json(body): Json<Value>) -> Response {
    let n = chat.requests.fetch_add(1, Ordering::SeqCst);
    assert_eq!(body["messages"][1]["role"], "user");
    if n < chat.failures {
        return (StatusCode::INTERNAL_SERVER_ERROR, "scripted failure").into_response();
    }
    let classifying = body["messages"][0]["content"].as_str().unwrap().starts_with("Classify");
    let answer = if classifying { r#"{"type": "insight", "confidence": 0.8}"# } else { chat.answer.as_str() };
    Json(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]})).into_response()
}

async fn chat_model(chat: Chat, retries: usize) -> ChatModel {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = Router::new().route("/v1/chat/completions", post(completions)).with_state(chat);
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    ChatModel::new(LlmConfig {
        base_url: format!("http://{addr}/v1"),
        api_key: None,
        model: "scripted".into(),
        timeout: Duration::from_secs(5),
        retries,
    })
    .unwrap()
}

#[tokio::test]
async fn a_configured_chat_model_extracts_entities_and_its_failure_falls_back_to_the_rules() {
    let app = spawn().await;
    let key = &app.a.key;
    let answer = "Here you go:\n```json\n{\"entities\": [{\"name\": \"Zorblax\", \"type\": \"Project\"}, \
                  {\"name\": \"Mars\", \"type\": \"planet\"}]}\n```";
    let chat = Chat { answer: answer.into(), failures: 1, requests: Arc::default() };
    let requests = chat.requests.clone();
    let id = app.store_text(key, "Kicked off the new initiative with Dana Scully").await;
    let typed = app.store(key, json!({"content": "Met Dana Scully", "type": "Context", "confidence": 0.5})).await;
    assert_eq!(app.run_enrichment_with(Extractor::Llm(chat_model(chat, 2).await)).await, 2);
    // A 500, retried, then per memory the entities and a quality judgement, and (for the untyped,
    // unmatched memory only) its classification.
    assert_eq!(requests.load(Ordering::SeqCst), 6);
    // The model's entities replace the rules' (which would have found Dana Scully); unknown types are dropped.
    let m = memory(&app, key, &id).await;
    assert_eq!(entity_tags(&m), ["entity:project:zorblax"]);
    assert_eq!((m["type"].as_str(), m["confidence"].as_f64()), (Some("Insight"), Some(0.8)));
    let typed = memory(&app, key, typed["id"].as_str().unwrap()).await;
    assert_eq!(
        (typed["type"].as_str(), typed["confidence"].as_f64()),
        (Some("Context"), Some(0.5)),
        "given types stay"
    );

    let down = Chat { answer: String::new(), failures: usize::MAX, requests: Arc::default() };
    let other = app.store_text(key, "Met with Dana Scully about the budget").await;
    app.run_enrichment_with(Extractor::Llm(chat_model(down, 0).await)).await;
    let m = memory(&app, key, &other).await;
    assert_eq!(m["enrichment_status"], "ready");
    assert_eq!(entity_tags(&m), ["entity:person:dana-scully"], "the local rules stand in");
}

#[tokio::test]
async fn learned_association_strength_decays_but_authored_strength_stays() {
    let app = spawn().await;
    let key = &app.a.key;
    let ids: Vec<String> = {
        let mut v = Vec::new();
        for c in ["alpha note", "beta note", "gamma note"] {
            v.push(app.store_text(key, c).await);
        }
        v
    };
    for (from, to) in [(0, 1), (1, 2)] {
        let body = json!({"memory1_id": ids[from], "memory2_id": ids[to], "type": "RELATES_TO", "strength": 0.5});
        app.post(key, "/api/v1/associations", &body).await.ok(201);
    }
    // Recalled together (Hebbian learning) ten days ago: the first edge learned +0.4.
    let mut conn = app.superuser_conn().await;
    sqlx::query(
        "UPDATE relations SET strength = 0.9, learned_at = now() - interval '10 days' WHERE source_id = $1::uuid",
    )
    .bind(&ids[0])
    .execute(&mut conn)
    .await
    .unwrap();
    let now = chrono::Utc::now();
    let decay = || async {
        let (mode, horizon) = (cairn::consolidation::Mode::Decay, cairn::consolidation::Horizon::Daily);
        let request = cairn::service::consolidation::RunRequest { mode, horizon, dry_run: false };
        cairn::service::consolidation::run_now(&app.db, app.a.id, request, "manual", now)
            .await
            .unwrap()
            .associations_decayed
    };
    assert_eq!(decay().await, 1);
    let strengths: Vec<(f32, f32)> =
        sqlx::query_as("SELECT strength, base_strength FROM relations ORDER BY strength DESC")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    let expected = 0.5 + 0.4 * 0.95_f64.powi(10);
    assert!((f64::from(strengths[0].0) - expected).abs() < 1e-3, "{strengths:?} vs {expected}");
    assert_eq!(strengths[0].1, 0.5);
    assert_eq!(strengths[1], (0.5, 0.5), "an edge that learned nothing keeps its authored strength");
    // Running again at the same instant decays nothing further.
    assert_eq!(decay().await, 0);
    // Re-authoring an edge sets a new base and forgets what was learned.
    let body = json!({"memory1_id": ids[0], "memory2_id": ids[1], "type": "RELATES_TO", "strength": 0.7});
    let stored = app.post(key, "/api/v1/associations", &body).await.ok(201).clone();
    assert!((stored["association"]["strength"].as_f64().unwrap() - 0.7).abs() < 1e-6);
}

#[tokio::test]
async fn entity_tags_never_push_a_memory_past_the_tag_limit() {
    let app = spawn().await;
    let key = &app.a.key;
    let full: Vec<String> = (0..64).map(|i| format!("t{i}")).collect();
    let id = app.store(key, json!({"content": "Met with Sarah Chen about Kubernetes", "tags": full})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.run_enrichment().await;
    let m = memory(&app, key, &id).await;
    assert_eq!(tags(&m).len(), 64);
    assert_eq!(m["enrichment_status"], "ready");
    // The entities are linked even where their tags did not fit, and the tags can be sent back as they are.
    assert_eq!(app.get(key, "/api/v1/entities").await.ok(200)["total"], 2);
    app.patch(key, &format!("/api/v1/memories/{id}"), &json!({"tags": tags(&m)})).await.ok(200);
}

#[tokio::test]
async fn expansions_answer_to_the_requests_filters_and_grouped_recall_counts_only_what_it_returns() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "Talked to Priya about the Falcon project budget", "user_id": "alice"})).await;
    let launch = app.store(key, json!({"content": "The Falcon project launch slipped", "user_id": "alice"})).await;
    let hiring = app.store(key, json!({"content": "The Falcon project hiring plan", "user_id": "bob"})).await;
    app.run_enrichment().await;

    let everyone =
        app.post(key, "/api/v1/recall", &json!({"query": "budget", "expand_entities": true})).await.ok(200).clone();
    assert_eq!(everyone["expansions"].as_array().unwrap().len(), 2, "{everyone}");
    let alice = app
        .post(key, "/api/v1/recall", &json!({"query": "budget", "user_id": "alice", "expand_entities": true}))
        .await
        .ok(200)
        .clone();
    let expanded: Vec<&str> =
        alice["expansions"].as_array().unwrap().iter().map(|e| e["memory"]["id"].as_str().unwrap()).collect();
    assert_eq!(expanded, [launch["id"].as_str().unwrap()], "bob's memory stays out: {alice}");

    // Grouped recall of one memory counts one access, not the whole candidate pool's (after the recalls
    // above have counted theirs).
    app.flush_accesses().await;
    let before: i64 = sqlx::query_scalar("SELECT sum(access_count)::bigint FROM memories")
        .fetch_one(&mut app.superuser_conn().await)
        .await
        .unwrap();
    let one =
        app.post(key, "/api/v1/recall/entities", &json!({"query": "Falcon project", "limit": 1})).await.ok(200).clone();
    assert_eq!(one["n"], 1);
    app.flush_accesses().await;
    let after: i64 = sqlx::query_scalar("SELECT sum(access_count)::bigint FROM memories")
        .fetch_one(&mut app.superuser_conn().await)
        .await
        .unwrap();
    assert_eq!(after - before, 1, "{one}");
    let _ = hiring;
}
