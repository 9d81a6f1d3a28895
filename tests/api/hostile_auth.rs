//! Authentication cannot be turned against the server or an operator: every failed verification is remembered
//! and counted per address, one key costs one argon2 however many requests present it, key creation shares the
//! verifications' argon2 budget, and failed operator logins lock out the address that failed, not the
//! operator. Every admin, key, settings, purge, trash, export and import action is audited with its actor,
//! client address and request id.

use cairn::auth::admin::Operator;
use cairn::config::AppArgs;
use chrono::{Duration, Utc};
use reqwest::Method;
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::helpers::{new_key, spawn_with, Res, TestApp};

const EMAIL: &str = "ops@example.com";
const PASSWORD: &str = "a long enough password";

fn config() -> AppArgs {
    AppArgs {
        client_ip_header: Some("x-forwarded-for".into()),
        auth_per_ip_per_second: 1,
        auth_per_ip_burst: 5,
        jwt_secret: Some(SecretString::from("test-signing-secret-of-at-least-32-bytes")),
        ..AppArgs::default()
    }
}

/// `GET path` with `key`, from the client address `from` (through the trusted proxy header).
async fn get_from(app: &TestApp, key: &str, path: &str, from: &str) -> Res {
    let req = app.client.get(app.url(path)).bearer_auth(key).header("x-forwarded-for", from);
    TestApp::read(req.send().await.unwrap()).await
}

async fn login_from(app: &TestApp, password: &str, from: &str) -> Res {
    let req = app
        .client
        .post(app.url("/admin/v1/login"))
        .header("x-forwarded-for", from)
        .json(&json!({"email": EMAIL, "password": password}));
    TestApp::read(req.send().await.unwrap()).await
}

#[tokio::test]
async fn an_expired_key_costs_one_argon2_and_its_failures_count_against_the_address() {
    let app = spawn_with(config(), None).await;
    let new = cairn::tenancy::NewKey {
        scopes: vec!["read".into()],
        expires_at: Some(Utc::now() - Duration::minutes(1)),
        ..Default::default()
    };
    let (_, expired) = cairn::auth::create_key(app.db.owner(), app.a.id, &new).await.unwrap();
    let before = app.services.keys.argon2_computations();
    let mut refused = None;
    for attempt in 0..20 {
        let res = get_from(&app, &expired, "/api/v1/memories", "203.0.113.5").await;
        if res.status == 429 {
            refused = Some(attempt);
            break;
        }
        res.assert_error(401, "API key expired");
    }
    assert_eq!(app.services.keys.argon2_computations() - before, 1, "one argon2 for every presentation");
    let refused = refused.expect("the address is refused once its failures pass the allowance");
    assert!(refused <= 6, "refused after {refused} failures (burst 5)");
    // Another address, with a valid key, is not affected.
    get_from(&app, &app.a.key, "/api/v1/memories", "198.51.100.9").await.ok(200);
    // A revoked key likewise: verified once, then remembered with its reason.
    let doomed = new_key(&app.db, app.a.id, &["read"]).await;
    get_from(&app, &doomed, "/api/v1/memories", "192.0.2.10").await.ok(200);
    let key_id = cairn::store::tenants::list_keys(app.db.owner(), app.a.id).await.unwrap().last().unwrap().id;
    cairn::store::tenants::revoke_key(app.db.owner(), key_id, None).await.unwrap();
    app.services.keys.forget(&format!("key:{key_id}"));
    let before = app.services.keys.argon2_computations();
    for _ in 0..3 {
        get_from(&app, &doomed, "/api/v1/memories", "192.0.2.10").await.assert_error(401, "revoked");
    }
    assert_eq!(app.services.keys.argon2_computations() - before, 1);
}

#[tokio::test]
async fn concurrent_first_uses_of_a_key_share_one_verification() {
    let app = spawn_with(config(), None).await;
    let key = new_key(&app.db, app.a.id, &["read"]).await;
    let before = app.services.keys.argon2_computations();
    let requests = (0..16).map(|i| {
        let (app, key) = (&app, key.clone());
        async move { get_from(app, &key, "/api/v1/memories", &format!("198.51.100.{i}")).await.status }
    });
    let statuses = futures_util::future::join_all(requests).await;
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(app.services.keys.argon2_computations() - before, 1, "sixteen first uses, one argon2");
}

#[tokio::test]
async fn key_creation_runs_under_the_verifications_argon2_budget() {
    let app = spawn_with(config(), None).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    app.get(&admin, "/api/v1/keys").await.ok(200);
    let before = app.services.keys.argon2_computations();
    for _ in 0..3 {
        app.post(&admin, "/api/v1/keys", &json!({"scopes": ["read"]})).await.ok(201);
    }
    assert_eq!(app.services.keys.argon2_computations() - before, 3, "each new key hashed by the server's budget");
}

#[tokio::test]
async fn a_suspended_tenants_key_counts_against_the_address() {
    let app = spawn_with(config(), None).await;
    cairn::service::tenants::suspend(&app.services, &Operator::Cli, app.b.id, Some("unpaid")).await.unwrap();
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(get_from(&app, &app.b.key, "/api/v1/memories", "203.0.113.77").await.status);
    }
    assert_eq!(statuses[0], 403, "{statuses:?}");
    assert!(statuses.contains(&429), "the address is refused after its failures: {statuses:?}");
}

#[tokio::test]
async fn wrong_passwords_lock_out_their_address_never_the_operator() {
    let app = spawn_with(AppArgs { login_per_ip_per_minute: 100, ..config() }, None).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    for _ in 0..5 {
        login_from(&app, "a guess", "2001:db8:7:7::1").await.assert_error(401, "invalid email or password");
    }
    // That address (and its /64) is refused for this account, even with the right password...
    login_from(&app, PASSWORD, "2001:db8:7:7::1").await.assert_error(429, "this account");
    login_from(&app, PASSWORD, "2001:db8:7:7::beef").await.assert_error(429, "this account");
    // ...but the operator, from an address that has not failed, signs in.
    let session = login_from(&app, PASSWORD, "198.51.100.20").await;
    let token = session.ok(200)["access_token"].as_str().unwrap().to_owned();
    // The failures are audited without taking the presented email for the actor.
    let res = app.get(&token, "/admin/v1/audit?action=admin.login_failed").await.ok(200).clone();
    let entries = res["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 5, "{res}");
    for entry in entries {
        assert_eq!(entry["actor"], "anonymous", "{entry}");
        assert_eq!(entry["details"]["claimed_email"], EMAIL, "{entry}");
        assert_eq!(entry["client_address"], "2001:db8:7:7::1", "{entry}");
        assert!(entry["request_id"].as_str().is_some_and(|id| !id.is_empty()), "{entry}");
    }
}

/// The audit entries of `action` for the tenant, newest first.
async fn audited(app: &TestApp, token: &str, tenant: uuid::Uuid, action: &str) -> Vec<Value> {
    let res = app.get(token, &format!("/admin/v1/audit?tenant_id={tenant}&action={action}")).await.ok(200).clone();
    res["entries"].as_array().unwrap().clone()
}

#[tokio::test]
async fn every_key_settings_purge_trash_export_and_import_action_is_audited_with_its_origin() {
    let app = spawn_with(config(), None).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    let token = login_from(&app, PASSWORD, "198.51.100.1").await.ok(200)["access_token"].as_str().unwrap().to_owned();
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let from = "203.0.113.44";
    let send = |method: Method, path: &str, body: Option<Value>| {
        let mut req = app.client.request(method, app.url(path)).bearer_auth(&admin).header("x-forwarded-for", from);
        if let Some(body) = body {
            req = req.json(&body);
        }
        async move {
            let res = req.send().await.unwrap();
            let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
            (TestApp::read(res).await, id)
        }
    };
    let mut expected: Vec<(&str, String)> = Vec::new();
    let (res, id) = send(Method::POST, "/api/v1/keys", Some(json!({"scopes": ["read"]}))).await;
    res.ok(201);
    expected.push(("key.create", id));
    let (res, id) = send(Method::PATCH, "/api/v1/settings", Some(json!({"undo_days": 3}))).await;
    res.ok(200);
    expected.push(("settings.update", id));
    let memory = app.store_text(&app.a.key, "to be purged").await;
    let (res, id) = send(Method::DELETE, &format!("/api/v1/memories/{memory}?hard=true&purge=true"), None).await;
    res.ok(200);
    expected.push(("memory.purge", id));
    let trashed = app.store_text(&app.a.key, "to the trash").await;
    app.delete(&app.a.key, &format!("/api/v1/memories/{trashed}?hard=true")).await.ok(200);
    let (res, id) = send(Method::DELETE, "/api/v1/trash", None).await;
    assert_eq!(res.ok(200)["erased_count"], 1);
    expected.push(("trash.empty", id));
    let (res, id) = send(Method::GET, "/api/v1/export", None).await;
    assert_eq!(res.status, 200);
    expected.push(("data.export", id));
    let file = format!(
        "{}\n{}\n",
        json!({"type": "cairn_export", "version": 1}),
        json!({"type": "memories", "data": {"content": "imported"}})
    );
    let req = app
        .client
        .post(app.url("/api/v1/import"))
        .bearer_auth(&admin)
        .header("x-forwarded-for", from)
        .header("content-type", "application/x-ndjson")
        .body(file);
    let res = req.send().await.unwrap();
    let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(TestApp::read(res).await.ok(200)["inserted"]["memories"], 1);
    expected.push(("data.import", id));

    let key_id = cairn::store::tenants::list_keys(app.db.owner(), app.a.id).await.unwrap();
    let admin_key = key_id.iter().find(|k| k.scopes == ["admin"]).unwrap().id;
    for (action, request_id) in expected {
        let entries = audited(&app, &token, app.a.id, action).await;
        let entry = entries.first().unwrap_or_else(|| panic!("{action} was not audited"));
        assert_eq!(entry["actor"], format!("key:{admin_key}"), "{entry}");
        assert_eq!(entry["client_address"], from, "{entry}");
        assert_eq!(entry["request_id"], request_id.as_str(), "{entry}");
    }
    let import = &audited(&app, &token, app.a.id, "data.import").await[0];
    assert_eq!(import["details"]["inserted"]["memories"], 1, "{import}");
}
