//! The `cairn` binary's tenant, key and openapi commands, against a test database.

use std::process::{Command, Output};

use serde_json::{json, Value};

use crate::helpers::spawn;

fn cairn(db_url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CAIRN_APP_DATABASE_URL", crate::helpers::app_url(db_url))
        .env("RUST_LOG", "warn")
        .output()
        .expect("cairn runs")
}

#[tokio::test]
async fn tenant_create_json_prints_one_object_whose_key_works() {
    let app = spawn().await;
    let out = cairn(&app.db_url, &["tenant", "create", "demo", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.trim().lines().count(), 1, "exactly one line on stdout: {stdout:?}");
    let created: Value = serde_json::from_str(stdout.trim()).unwrap();
    let object = created.as_object().unwrap();
    let mut keys: Vec<_> = object.keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["api_key", "name", "tenant_id"]);
    assert_eq!(created["name"], "demo");
    let key = created["api_key"].as_str().unwrap();

    let stored = app.store(key, json!({"content": "stored with the CLI's key"})).await;
    let fetched = app.get(key, &format!("/api/v1/memories/{}", stored["id"].as_str().unwrap())).await.ok(200).clone();
    assert_eq!(fetched["content"], "stored with the CLI's key");

    let again = cairn(&app.db_url, &["tenant", "create", "demo", "--json"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert!(again.stdout.is_empty());

    let listed = cairn(&app.db_url, &["tenant", "list", "--json"]);
    let tenants: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert!(tenants.as_array().unwrap().iter().any(|t| t["name"] == "demo"));
}

#[tokio::test]
async fn key_create_and_revoke() {
    let app = spawn().await;
    let tenant = app.a.id.to_string();
    let out = cairn(&app.db_url, &["key", "create", "--tenant", &tenant, "--scopes", "read", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let created: Value = serde_json::from_slice(&out.stdout).unwrap();
    let key = created["api_key"].as_str().unwrap();
    assert_eq!(created["scopes"], json!(["read"]));
    app.get(key, "/api/v1/memories").await.ok(200);
    app.post(key, "/api/v1/memories", &json!({"content": "x"})).await.assert_error(403, "write");

    let unknown = cairn(&app.db_url, &["key", "create", "--tenant", &uuid::Uuid::new_v4().to_string()]);
    assert!(!unknown.status.success());
    let bad_scope = cairn(&app.db_url, &["key", "create", "--tenant", &tenant, "--scopes", "root"]);
    assert!(String::from_utf8_lossy(&bad_scope.stderr).contains("unknown scope"));

    // A key never verified by the server is refused at once after a CLI revocation.
    let fresh = cairn(&app.db_url, &["key", "create", "--tenant", &tenant, "--json"]);
    let fresh: Value = serde_json::from_slice(&fresh.stdout).unwrap();
    let revoked = cairn(&app.db_url, &["key", "revoke", fresh["key_id"].as_str().unwrap()]);
    assert!(revoked.status.success(), "{}", String::from_utf8_lossy(&revoked.stderr));
    app.get(fresh["api_key"].as_str().unwrap(), "/api/v1/memories").await.assert_error(401, "revoked");
}

#[test]
fn openapi_command_prints_the_document() {
    let out = Command::new(env!("CARGO_BIN_EXE_cairn")).arg("openapi").env_remove("DATABASE_URL").output().unwrap();
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed, serde_json::to_value(cairn::api::openapi()).unwrap());
}

#[tokio::test]
async fn reembed_rewrites_every_vector_with_the_local_model() {
    let app = spawn().await;
    let items = json!({"memories": [
        {"content": "first, with a client vector", "embedding": vec![0.5_f32; 384]},
        {"content": "second, still pending"}
    ]});
    app.post(&app.a.key, "/api/v1/memories/batch", &items).await.ok(201);
    app.store_text(&app.b.key, "tenant b's memory").await;
    let tenant = app.a.id.to_string();
    let db_url = app.db_url.clone();
    let out = tokio::task::spawn_blocking(move || cairn(&db_url, &["reembed", "--tenant", &tenant])).await.unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("re-embedded 2 of 2 memories with all-MiniLM-L6-v2"));
    let listed = app.get(&app.a.key, "/api/v1/memories").await.ok(200).clone();
    for m in listed["memories"].as_array().unwrap() {
        assert_eq!(
            (m["embedding_status"].as_str(), m["embedding_model"].as_str()),
            (Some("ready"), Some("all-MiniLM-L6-v2"))
        );
    }
    let other = app.get(&app.b.key, "/api/v1/memories").await.ok(200).clone();
    assert_eq!(other["memories"][0]["embedding_status"], "pending", "only the named tenant");
    let missing = cairn(&app.db_url, &["reembed", "--tenant", &uuid::Uuid::new_v4().to_string()]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no tenant with id"));
}
