//! Every collection input has a cap, checked before any work: the maximum allowed of each list-valued field
//! is accepted by each route that reads it, one more is a 400 naming the field and the cap.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{new_key, spawn, Res, TestApp};

/// Where a list goes: a JSON body field, or repeated query parameters.
enum In {
    Body(Method, &'static str),
    Query(Method, &'static str),
}

/// A list-valued field of one route, its cap and the values it accepts (`valid(i)`: the i-th distinct one).
struct Case {
    at: In,
    field: &'static str,
    cap: usize,
    /// How many distinct values can succeed (fewer than the cap where only so many exist, e.g. types).
    most: usize,
    valid: fn(usize) -> String,
    /// The rest of a body.
    extra: fn() -> Value,
}

fn tag(i: usize) -> String {
    format!("tag-{i}")
}
fn memory_type(i: usize) -> String {
    cairn::memory::TYPES[i % cairn::memory::TYPES.len()].to_owned()
}
fn relation_type(i: usize) -> String {
    let all: Vec<&str> = cairn::graph::AUTHORABLE.iter().chain(cairn::graph::SYSTEM).copied().collect();
    all[i % all.len()].to_owned()
}
fn entity_type(i: usize) -> String {
    cairn::entities::TYPES[i % cairn::entities::TYPES.len()].to_owned()
}
fn query(i: usize) -> String {
    format!("question number {i}")
}
fn uuid(_: usize) -> String {
    uuid::Uuid::new_v4().to_string()
}
fn none() -> Value {
    json!({})
}
fn with_query() -> Value {
    json!({"query": "anything"})
}
fn confirmed() -> Value {
    json!({"confirm": true})
}

fn cases() -> Vec<Case> {
    use In::*;
    use Method as M;
    let tags = |at, field| Case { at, field, cap: 100, most: 100, valid: tag, extra: none };
    let types = cairn::memory::TYPES.len();
    vec![
        tags(Body(M::POST, "/api/v1/recall"), "tags"),
        tags(Body(M::POST, "/api/v1/recall"), "exclude_tags"),
        Case {
            at: Body(M::POST, "/api/v1/recall"),
            field: "types",
            cap: 32,
            most: types,
            valid: memory_type,
            extra: none,
        },
        tags(Query(M::GET, "/api/v1/recall"), "tags"),
        Case {
            at: Query(M::GET, "/api/v1/recall"),
            field: "types",
            cap: 32,
            most: types,
            valid: memory_type,
            extra: none,
        },
        tags(Query(M::GET, "/api/v1/memories"), "tags"),
        Case {
            at: Query(M::GET, "/api/v1/memories"),
            field: "type",
            cap: 32,
            most: types,
            valid: memory_type,
            extra: none,
        },
        tags(Query(M::GET, "/api/v1/memories/by-tag"), "tags"),
        Case {
            at: Query(M::DELETE, "/api/v1/memories/by-tag"),
            field: "tags",
            cap: 100,
            most: 100,
            valid: tag,
            extra: confirmed,
        },
        tags(Query(M::POST, "/api/v1/memories/by-tag/restore"), "tags"),
        tags(Query(M::GET, "/recall"), "tags"),
        tags(Query(M::GET, "/recall"), "exclude_tags"),
        tags(Query(M::GET, "/recall"), "context_tags"),
        Case { at: Query(M::GET, "/recall"), field: "queries", cap: 10, most: 10, valid: query, extra: none },
        tags(Query(M::GET, "/memory/by-tag"), "tags"),
        tags(Body(M::POST, "/api/recall/by-tags"), "tags"),
        Case {
            at: Body(M::POST, "/api/forget/by-tags"),
            field: "tags",
            cap: 100,
            most: 100,
            valid: tag,
            extra: confirmed,
        },
        Case {
            at: Body(M::POST, "/api/recall"),
            field: "memory_types",
            cap: 32,
            most: types,
            valid: memory_type,
            extra: with_query,
        },
        Case {
            at: Body(M::POST, "/api/v1/memories/search"),
            field: "tags",
            cap: 100,
            most: 100,
            valid: tag,
            extra: with_query,
        },
        Case {
            at: Body(M::POST, "/api/v1/recall/entities"),
            field: "entityTypes",
            cap: 16,
            most: cairn::entities::TYPES.len(),
            valid: entity_type,
            extra: with_query,
        },
        Case {
            at: Body(M::POST, "/api/v1/memories"),
            field: "tags",
            cap: 64,
            most: 64,
            valid: tag,
            extra: || json!({"content": "capped tags"}),
        },
        Case {
            at: Body(M::POST, "/api/v1/enrichment/reprocess"),
            field: "ids",
            cap: 500,
            most: 500,
            valid: uuid,
            extra: none,
        },
    ]
}

fn related_cases() -> Vec<(&'static str, &'static str)> {
    vec![("/api/v1/memories/{id}/related", "types"), ("/memories/{id}/related", "relationship_types")]
}

async fn send(app: &TestApp, key: &str, at: In, field: &str, values: &[String], extra: Value) -> Res {
    match at {
        In::Body(method, path) => {
            let mut body = extra;
            body[field] = json!(values);
            app.send(method, path, Some(key), Some(&body)).await
        }
        In::Query(method, path) => {
            let mut query: Vec<(String, String)> = values.iter().map(|v| (field.to_owned(), v.clone())).collect();
            if let Value::Object(extra) = extra {
                query.extend(extra.into_iter().map(|(k, v)| (k, v.to_string().trim_matches('"').to_owned())));
            }
            let req = app.client.request(method, app.url(path)).bearer_auth(key).query(&query);
            TestApp::read(req.send().await.unwrap()).await
        }
    }
}

#[track_caller]
fn not_capped(res: &Res, what: &str) {
    assert!(res.status < 500, "{what}: {} {}", res.status, res.body);
    let message = res.body["message"].as_str().unwrap_or_default();
    assert!(!message.contains("at most"), "{what}: the maximum allowed was refused: {message}");
}

#[tokio::test]
async fn every_list_field_takes_its_maximum_and_refuses_one_more_naming_field_and_cap() {
    let app = spawn().await;
    let admin = new_key(&app.db, app.a.id, &["admin", "write"]).await;
    for case in cases() {
        let what = format!(
            "{} of {:?}",
            case.field,
            match case.at {
                In::Body(ref m, p) | In::Query(ref m, p) => format!("{m} {p}"),
            }
        );
        let most: Vec<String> = (0..case.most).map(case.valid).collect();
        let res = send(&app, &admin, case.at.clone_at(), case.field, &most, (case.extra)()).await;
        not_capped(&res, &what);
        // Distinct values, one past the cap (past the valid ones, made-up ones: the cap is checked first).
        let mut seen = std::collections::HashSet::new();
        let over: Vec<String> = (0..=case.cap)
            .map(|i| (case.valid)(i))
            .map(|v| if seen.insert(v.clone()) { v } else { format!("{v}{}", seen.len()) })
            .collect();
        let res = send(&app, &admin, case.at.clone_at(), case.field, &over, (case.extra)()).await;
        assert_eq!(res.status, 400, "{what}: {}", res.body);
        let message = res.body["message"].as_str().or(res.body["error"].as_str()).unwrap_or_default();
        assert!(message.contains(case.field), "{what}: {message}");
        assert!(message.contains(&format!("at most {}", case.cap)), "{what}: {message}");
    }

    // Traversals' type filters, from a stored memory.
    let id = app.store_text(&app.a.key, "the start of a traversal").await;
    for (path, field) in related_cases() {
        let path = path.replace("{id}", &id);
        let all: Vec<String> = (0..15).map(relation_type).collect();
        let query: Vec<(&str, &str)> = all.iter().map(|t| (field, t.as_str())).collect();
        let res =
            TestApp::read(app.client.get(app.url(&path)).bearer_auth(&app.a.key).query(&query).send().await.unwrap())
                .await;
        not_capped(&res, &path);
        let over: Vec<String> = (0..33).map(|i| format!("TYPE_{i}")).collect();
        let query: Vec<(&str, &str)> = over.iter().map(|t| (field, t.as_str())).collect();
        let res =
            TestApp::read(app.client.get(app.url(&path)).bearer_auth(&app.a.key).query(&query).send().await.unwrap())
                .await;
        res.assert_error(400, "at most 32");
    }

    // Batches: 500 items are read, 501 are refused before any is.
    let most: Vec<Value> = (0..500).map(|i| json!({"content": format!("batch item {i}")})).collect();
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": most})).await.ok(201);
    let over: Vec<Value> = (0..501).map(|i| json!({"content": format!("over item {i}")})).collect();
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": over})).await.assert_error(400, "at most 500");
    let edge = |i: usize| json!({"memory1_id": uuid(i), "memory2_id": uuid(i), "type": "RELATES_TO"});
    let most: Vec<Value> = (0..500).map(edge).collect();
    let res = app.post(&app.a.key, "/api/v1/associations", &json!({"associations": most})).await;
    not_capped(&res, "associations");
    let over: Vec<Value> = (0..501).map(edge).collect();
    app.post(&app.a.key, "/api/v1/associations", &json!({"associations": over})).await.assert_error(400, "at most 500");
    let ids: Vec<String> = (0..100).map(uuid).collect();
    let merge = format!("/api/v1/entities/{}/merge", uuid(0));
    not_capped(&app.post(&admin, &merge, &json!({"entity_ids": ids})).await, "entity_ids");
    let ids: Vec<String> = (0..101).map(uuid).collect();
    app.post(&admin, &merge, &json!({"entity_ids": ids})).await.assert_error(400, "at most 100");

    // Strings: a query of 1000 characters is read, 1001 is refused; so are time phrases past 200.
    let body = json!({"query": "q".repeat(1000)});
    not_capped(&app.post(&app.a.key, "/api/v1/recall", &body).await, "query");
    let body = json!({"query": "q".repeat(1001)});
    app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(400, "query");
    let body = json!({"since": "x".repeat(201)});
    app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(400, "since: must be at most 200 characters");
    let body = json!({"user_id": "u".repeat(257)});
    app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(400, "user_id: must be at most 256 characters");

    // Metadata nests 32 levels deep at most.
    let nested = |depth: usize| (1..depth).fold(json!({"leaf": 1}), |inner, _| json!({ "n": inner }));
    app.store(&app.a.key, json!({"content": "deep but allowed", "metadata": nested(32)})).await;
    let body = json!({"content": "too deep", "metadata": nested(33)});
    app.post(&app.a.key, "/api/v1/memories", &body).await.assert_error(400, "metadata: must not nest deeper than 32");

    // Lists past what any list may hold are refused while they are read.
    let endless: Vec<String> = (0..1001).map(tag).collect();
    app.post(&app.a.key, "/api/v1/recall", &json!({"tags": endless})).await.assert_error(400, "at most 1000 items");
}

impl In {
    fn clone_at(&self) -> Self {
        match self {
            In::Body(m, p) => In::Body(m.clone(), p),
            In::Query(m, p) => In::Query(m.clone(), p),
        }
    }
}
