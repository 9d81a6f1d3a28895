//! The envelope everywhere: unknown routes, wrong methods, non-JSON and malformed bodies, size limits.

use cairn::config::AppArgs;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{spawn, spawn_with, TestApp};

#[tokio::test]
async fn unknown_routes_and_wrong_methods_use_the_envelope() {
    let app = spawn().await;
    app.get(&app.a.key, "/api/v1/nothing-here").await.assert_error(404, "no such route");
    app.send(Method::GET, "/", None, None).await.assert_error(404, "no such route");
    app.send(Method::DELETE, "/api/v1/memories", Some(&app.a.key), None).await.assert_error(405, "method not allowed");
    app.send(Method::POST, "/health", None, None).await.assert_error(405, "method not allowed");
}

#[tokio::test]
async fn bodies_that_are_not_json_are_rejected_in_the_envelope() {
    let app = spawn().await;
    let url = app.url("/api/v1/memories");
    let plain = app.client.post(&url).bearer_auth(&app.a.key).header("content-type", "text/plain").body("hello");
    TestApp::read(plain.send().await.unwrap()).await.assert_error(415, "Content-Type: must be application/json");
    let none = app.client.post(&url).bearer_auth(&app.a.key).body("{\"content\":\"x\"}");
    TestApp::read(none.send().await.unwrap()).await.assert_error(415, "Content-Type");
    let broken =
        app.client.post(&url).bearer_auth(&app.a.key).header("content-type", "application/json").body("{\"content\": ");
    TestApp::read(broken.send().await.unwrap()).await.assert_error(400, "body: invalid JSON");
    let trailing = app
        .client
        .post(&url)
        .bearer_auth(&app.a.key)
        .header("content-type", "application/json")
        .body("{\"content\":\"x\"} []");
    TestApp::read(trailing.send().await.unwrap()).await.assert_error(400, "body: invalid JSON");
    let charset = app
        .client
        .post(&url)
        .bearer_auth(&app.a.key)
        .header("content-type", "application/json; charset=utf-8")
        .body("{\"content\":\"ok\"}");
    TestApp::read(charset.send().await.unwrap()).await.ok(201);
    assert_eq!(app.count(&app.a.key).await, 1);
}

#[tokio::test]
async fn bodies_over_the_limit_are_413s() {
    let app = spawn_with(AppArgs { max_body_bytes: 2048, ..AppArgs::default() }, None).await;
    let big = json!({"memories": (0..100).map(|i| json!({"content": format!("{i} {}", "x".repeat(100))})).collect::<Vec<_>>()});
    app.post(&app.a.key, "/api/v1/memories/batch", &big).await.assert_error(413, "size limit");
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "small enough"})).await.ok(201);
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn().await;
    let ok = app.get(&app.a.key, "/api/v1/memories").await;
    let err = app.get("bad", "/api/v1/memories").await;
    for res in [ok, err] {
        let id = res.headers.get("x-request-id").expect("x-request-id").to_str().unwrap().to_owned();
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    }
    let given = app.client.get(app.url("/health")).header("x-request-id", "trace-me-123").send().await.unwrap();
    assert_eq!(given.headers()["x-request-id"], "trace-me-123");
}
