//! GET /api/v1/memories: paging with totals, every filter, deterministic order.

use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

async fn ids(app: &TestApp, query: &str) -> Vec<String> {
    let body = app.get(&app.a.key, &format!("/api/v1/memories?{query}")).await.ok(200).clone();
    body["memories"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap().to_owned()).collect()
}

async fn seed(app: &TestApp) {
    let memories: Vec<Value> = vec![
        json!({"content": "m1", "type": "Decision", "tags": ["slack:channel:general", "db"], "importance": 0.9,
               "user_id": "u1", "created_at": "2024-01-01T00:00:00Z"}),
        json!({"content": "m2", "type": "Preference", "tags": ["slack:user:u123"], "importance": 0.2,
               "user_id": "u2", "agent_id": "ag", "created_at": "2024-02-01T00:00:00Z"}),
        json!({"content": "m3", "type": "Decision", "tags": ["db", "perf"], "memory_type": "short_term",
               "run_id": "r1", "created_at": "2024-03-01T00:00:00Z"}),
        json!({"content": "m4", "tags": ["other"], "importance": 0.6, "created_at": "2024-04-01T00:00:00Z"}),
    ];
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({ "memories": memories })).await.ok(201);
}

#[tokio::test]
async fn pages_carry_totals_and_are_stable() {
    let app = spawn().await;
    seed(&app).await;
    let page = app.get(&app.a.key, "/api/v1/memories?limit=3").await.ok(200).clone();
    assert_eq!(
        (page["total"].clone(), page["has_more"].clone(), page["limit"].clone()),
        (json!(4), json!(true), json!(3))
    );
    assert_eq!(ids(&app, "limit=3").await, ["m4", "m3", "m2"]);
    let last = app.get(&app.a.key, "/api/v1/memories?limit=3&offset=3").await.ok(200).clone();
    assert_eq!(last["has_more"], false);
    assert_eq!(ids(&app, "limit=3&offset=3").await, ["m1"]);
    assert_eq!(app.get(&app.a.key, "/api/v1/memories").await.ok(200)["limit"], 20);
}

#[tokio::test]
async fn every_filter_narrows_the_listing() {
    let app = spawn().await;
    seed(&app).await;
    assert_eq!(ids(&app, "type=decision").await, ["m3", "m1"]);
    assert_eq!(ids(&app, "type=Decision,Preference").await, ["m3", "m2", "m1"]);
    assert_eq!(ids(&app, "memory_type=short_term").await, ["m3"]);
    assert_eq!(ids(&app, "tags=db&tags=other").await, ["m4", "m3", "m1"]);
    assert_eq!(ids(&app, "tags=db&tags=perf&tag_mode=all").await, ["m3"]);
    assert_eq!(ids(&app, "tags=slack").await, Vec::<String>::new());
    assert_eq!(ids(&app, "tags=slack&tag_match=prefix").await, ["m2", "m1"]);
    assert_eq!(ids(&app, "tags=slack:channel&tag_match=prefix").await, ["m1"]);
    assert_eq!(ids(&app, "tags=SLACK,db&tag_match=prefix&tag_mode=all").await, ["m1"]);
    assert_eq!(ids(&app, "user_id=u1").await, ["m1"]);
    assert_eq!(ids(&app, "agent_id=ag").await, ["m2"]);
    assert_eq!(ids(&app, "run_id=r1").await, ["m3"]);
    assert_eq!(ids(&app, "created_after=2024-02-01&created_before=2024-04-01").await, ["m3", "m2"]);
    assert_eq!(ids(&app, "min_importance=0.55").await, ["m4", "m1"]);
    assert_eq!(ids(&app, "max_importance=0.3").await, ["m2"]);
    assert_eq!(ids(&app, "type=decision&min_importance=0.8").await, ["m1"]);
}

#[tokio::test]
async fn invalid_listing_parameters_are_400s() {
    let app = spawn().await;
    let cases = [
        ("limit=0", "limit: must be between 1 and 200"),
        ("limit=201", "limit: must be between 1 and 200"),
        ("limit=ten", "limit: invalid digit"),
        ("offset=-1", "offset: must be between 0 and 1000000"),
        ("type=Banana", "type: unknown type"),
        ("memory_type=forever", "memory_type: must be short_term or long_term"),
        ("tag_mode=some", "tag_mode: must be any or all"),
        ("tag_match=fuzzy", "tag_match: must be exact or prefix"),
        ("created_after=last%20week", "created_after: not an ISO 8601 timestamp"),
        ("min_importance=2", "min_importance: must be between 0 and 1"),
        ("include_archived=perhaps", "include_archived"),
        ("user_id=%00", "query: parameters must not contain NUL"),
        ("tags=a%00b", "query: parameters must not contain NUL"),
    ];
    for (query, needle) in cases {
        app.get(&app.a.key, &format!("/api/v1/memories?{query}")).await.assert_error(400, needle);
    }
}
