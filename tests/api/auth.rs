//! API keys: the three ways to present one, 401s, scopes and 403s, revocation, expiry.

use chrono::{Duration, Utc};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{new_key, spawn, TestApp};

#[tokio::test]
async fn missing_wrong_and_malformed_keys_are_401s() {
    let app = spawn().await;
    app.send(Method::GET, "/api/v1/memories", None, None).await.assert_error(401, "missing API key");
    app.get("cairn_aaaaaaaaaaaa_0000000000000000000000000000000000000000", "/api/v1/memories")
        .await
        .assert_error(401, "invalid API key");
    // Not even shaped like a key: refused without hashing.
    app.get("garbage", "/api/v1/memories").await.assert_error(401, "malformed API key");
    // Right prefix, wrong secret: the last character changed (to one it is not: a key may end in 'x').
    let (head, last) = app.a.key.split_at(app.a.key.len() - 1);
    let forged = format!("{head}{}", if last == "x" { "y" } else { "x" });
    assert_ne!(forged, app.a.key);
    app.get(&forged, "/api/v1/memories").await.assert_error(401, "invalid API key");
    let res = TestApp::read(
        app.client
            .get(app.url("/api/v1/memories"))
            .header("Authorization", format!("Basic {}", app.a.key))
            .send()
            .await
            .unwrap(),
    )
    .await;
    res.assert_error(401, "Bearer");
    // Authentication comes before body validation.
    app.send(Method::POST, "/api/v1/memories", None, Some(&json!({"content": ""})))
        .await
        .assert_error(401, "missing API key");
}

#[tokio::test]
async fn a_key_is_accepted_as_bearer_header_or_query() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "three ways").await;
    let path = format!("/api/v1/memories/{id}");
    let by_header =
        TestApp::read(app.client.get(app.url(&path)).header("X-API-Key", &app.a.key).send().await.unwrap()).await;
    by_header.ok(200);
    let by_query =
        TestApp::read(app.client.get(app.url(&format!("{path}?api_key={}", app.a.key))).send().await.unwrap()).await;
    by_query.ok(200);
    assert_eq!(by_query.body["access_count"], 2);
}

#[tokio::test]
async fn a_read_only_key_reads_but_cannot_write() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "readable").await;
    let reader = new_key(&app.db, app.a.id, &["read"]).await;
    let path = format!("/api/v1/memories/{id}");
    app.get(&reader, &path).await.ok(200);
    app.get(&reader, "/api/v1/memories").await.ok(200);
    app.get(&reader, "/api/v1/memories/by-tag?tags=x").await.ok(200);
    app.get(&reader, &format!("{path}/history")).await.ok(200);
    app.post(&reader, "/api/v1/memories", &json!({"content": "nope"})).await.assert_error(403, "write");
    app.post(&reader, "/api/v1/memories", &json!({"content": ""})).await.assert_error(403, "write");
    app.post(&reader, "/api/v1/memories/batch", &json!({"memories": [{"content": "x"}]}))
        .await
        .assert_error(403, "write");
    app.patch(&reader, &path, &json!({"importance": 1})).await.assert_error(403, "write");
    app.put(&reader, &path, &json!({"importance": 1})).await.assert_error(403, "write");
    app.delete(&reader, &path).await.assert_error(403, "write");
    app.delete(&reader, "/api/v1/memories/by-tag?tags=x").await.assert_error(403, "write");
    app.get(&reader, "/api/v1/keys").await.assert_error(403, "admin");
    app.get(&app.a.key, "/api/v1/keys").await.assert_error(403, "admin");
    assert_eq!(app.count(&app.a.key).await, 1);
}

#[tokio::test]
async fn admins_manage_keys_and_a_revocation_holds_at_once() {
    let app = spawn().await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    app.post(&admin, "/api/v1/memories", &json!({"content": "admin implies write"})).await.ok(201);
    let created = app.post(&admin, "/api/v1/keys", &json!({"scopes": ["read"], "name": "dash"})).await.ok(201).clone();
    let secret = created["api_key"].as_str().unwrap().to_owned();
    assert_eq!(created["key"]["scopes"], json!(["read"]));
    app.get(&secret, "/api/v1/memories").await.ok(200); // now cached
    let keys = app.get(&admin, "/api/v1/keys").await.ok(200).clone();
    assert_eq!(keys["keys"].as_array().unwrap().len(), 3);
    assert!(!keys.to_string().contains(&secret), "secrets are never listed");
    let key_id = created["key"]["id"].as_str().unwrap();
    let revoked = app.delete(&admin, &format!("/api/v1/keys/{key_id}")).await.ok(200).clone();
    assert!(!revoked["revoked_at"].is_null());
    app.get(&secret, "/api/v1/memories").await.assert_error(401, "revoked");
    app.post(&admin, "/api/v1/keys", &json!({"scopes": ["root"]})).await.assert_error(400, "scopes: unknown scope");
    app.post(&admin, "/api/v1/keys", &json!({"expires_in_days": 0})).await.assert_error(400, "expires_in_days");
    app.post(&admin, "/api/v1/keys", &json!({"name": "a\u{0}"})).await.assert_error(400, "name: ");
    app.delete(&admin, &format!("/api/v1/keys/{}", uuid::Uuid::new_v4())).await.assert_error(404, "not found");
}

#[tokio::test]
async fn expired_keys_are_401s() {
    let app = spawn().await;
    let new = cairn::tenancy::NewKey {
        scopes: vec!["read".to_owned()],
        expires_at: Some(Utc::now() - Duration::minutes(1)),
        ..Default::default()
    };
    let (_, secret) = cairn::auth::create_key(app.db.owner(), app.a.id, &new).await.unwrap();
    app.get(&secret, "/api/v1/memories").await.assert_error(401, "expired");
}

#[tokio::test]
async fn keys_are_stored_as_argon2id_hashes_only() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT prefix, key_hash FROM api_keys").fetch_all(&mut conn).await.unwrap();
    assert!(!rows.is_empty());
    for (prefix, hash) in rows {
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains(&app.a.key) && !hash.contains(&app.b.key));
        assert!(app.a.key.contains(&prefix) || app.b.key.contains(&prefix));
    }
}
