//! GET and DELETE /api/v1/memories/by-tag: AutoMem's semantics.

use serde_json::json;

use crate::helpers::spawn;

#[tokio::test]
async fn by_tag_matches_any_tag_in_importance_then_time_order() {
    let app = spawn().await;
    let memories = json!({"memories": [
        {"content": "low", "tags": ["alpha"], "importance": 0.2, "created_at": "2024-01-01T00:00:00Z"},
        {"content": "high-old", "tags": ["beta"], "importance": 0.9, "created_at": "2024-01-01T00:00:00Z"},
        {"content": "high-new", "tags": ["alpha", "beta"], "importance": 0.9, "created_at": "2024-06-01T00:00:00Z"},
        {"content": "unrelated", "tags": ["gamma"], "importance": 1.0},
        {"content": "prefixed", "tags": ["alpha:child"], "importance": 1.0}
    ]});
    app.post(&app.a.key, "/api/v1/memories/batch", &memories).await.ok(201);
    let page = app.get(&app.a.key, "/api/v1/memories/by-tag?tags=ALPHA&tags=beta&limit=2").await.ok(200).clone();
    let contents: Vec<_> = page["memories"].as_array().unwrap().iter().map(|m| m["content"].clone()).collect();
    assert_eq!(contents, [json!("high-new"), json!("high-old")]);
    assert_eq!(
        (page["total"].clone(), page["has_more"].clone(), page["count"].clone()),
        (json!(3), json!(true), json!(2))
    );
    assert_eq!(page["tags"], json!(["alpha", "beta"]));
    let rest = app.get(&app.a.key, "/api/v1/memories/by-tag?tags=alpha,beta&limit=2&offset=2").await.ok(200).clone();
    assert_eq!(rest["memories"][0]["content"], "low");
    assert_eq!(rest["has_more"], false);
}

#[tokio::test]
async fn delete_by_tag_removes_exact_case_insensitive_matches() {
    let app = spawn().await;
    let memories = json!({"memories": [
        {"content": "one", "tags": ["Scratch"]},
        {"content": "two", "tags": ["test-run", "keep"]},
        {"content": "three", "tags": ["scratch:sub"]},
        {"content": "four", "tags": ["keep"]}
    ]});
    app.post(&app.a.key, "/api/v1/memories/batch", &memories).await.ok(201);
    let res = app.delete(&app.a.key, "/api/v1/memories/by-tag?tags=SCRATCH&tags=test-run").await;
    let body = res.ok(200);
    assert_eq!(body["deleted_count"], 2);
    assert_eq!(body["tags"], json!(["scratch", "test-run"]));
    assert_eq!(app.count(&app.a.key).await, 2);
    let again = app.delete(&app.a.key, "/api/v1/memories/by-tag?tags=scratch").await;
    assert_eq!(again.ok(200)["deleted_count"], 0);
}

#[tokio::test]
async fn by_tag_needs_tags_and_valid_paging() {
    let app = spawn().await;
    app.get(&app.a.key, "/api/v1/memories/by-tag").await.assert_error(400, "tags: at least one tag is required");
    app.get(&app.a.key, "/api/v1/memories/by-tag?tags=%20,").await.assert_error(400, "tags: at least one tag");
    app.delete(&app.a.key, "/api/v1/memories/by-tag").await.assert_error(400, "tags: at least one tag is required");
    app.get(&app.a.key, "/api/v1/memories/by-tag?tags=a&limit=201")
        .await
        .assert_error(400, "limit: must be between 1 and 200");
    app.get(&app.a.key, "/api/v1/memories/by-tag?tags=a&offset=-5").await.assert_error(400, "offset");
}
