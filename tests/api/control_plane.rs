//! The SaaS control plane: operators' sessions (JWT, refresh-token families), the admin API over tenants and
//! keys, suspension on every surface, revocation across instances, rate limits and quotas, usage, metrics,
//! and the audit log.

use std::time::{Duration, Instant};

use base64::Engine;
use cairn::auth::admin::Operator;
use cairn::config::AppArgs;
use cairn::queue::Workers;
use reqwest::Method;
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::helpers::{new_key, second_instance, spawn_with, spawn_with_queues, Res, TestApp};

const SECRET: &str = "test-signing-secret-of-at-least-32-bytes";
const EMAIL: &str = "ops@example.com";
const PASSWORD: &str = "a long enough password";

fn config() -> AppArgs {
    AppArgs { jwt_secret: Some(SecretString::from(SECRET)), usage_flush_ms: 100_000, ..AppArgs::default() }
}

async fn app_with_admin(config: AppArgs) -> TestApp {
    let app = spawn_with(config, None).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    app
}

async fn login(app: &TestApp) -> Value {
    let res =
        app.send(Method::POST, "/admin/v1/login", None, Some(&json!({"email": EMAIL, "password": PASSWORD}))).await;
    res.ok(200).clone()
}

async fn token(app: &TestApp) -> String {
    login(app).await["access_token"].as_str().unwrap().to_owned()
}

/// A token with `claims`, signed HS256 with `secret`.
fn signed(claims: &Value, secret: &str, alg: jsonwebtoken::Algorithm) -> String {
    let key = jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()).unwrap();
    jsonwebtoken::encode(&jsonwebtoken::Header::new(alg), claims, &key).unwrap()
}

#[tokio::test]
async fn access_tokens_are_checked_for_key_algorithm_expiry_issuer_and_audience() {
    let app = app_with_admin(config()).await;
    let session = login(&app).await;
    assert_eq!(session["token_type"], "Bearer");
    assert_eq!(session["admin"]["email"], EMAIL);
    let good = session["access_token"].as_str().unwrap();
    app.get(good, "/admin/v1/tenants").await.ok(200);

    // The claims of the real token, re-signed or altered.
    let payload = good.split('.').nth(1).unwrap();
    let claims: Value =
        serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    let now = chrono::Utc::now().timestamp();
    let with = |patch: Value| {
        let mut c = claims.clone();
        for (k, v) in patch.as_object().unwrap() {
            c[k] = v.clone();
        }
        c
    };
    let other_key = signed(&claims, "another-secret-of-at-least-32-bytes!!", jsonwebtoken::Algorithm::HS256);
    app.get(&other_key, "/admin/v1/tenants").await.assert_error(401, "bad signature");
    let switched = signed(&claims, SECRET, jsonwebtoken::Algorithm::HS384);
    app.get(&switched, "/admin/v1/tenants").await.assert_error(401, "algorithm");
    let expired = signed(&with(json!({"exp": now - 120, "iat": now - 1000})), SECRET, jsonwebtoken::Algorithm::HS256);
    app.get(&expired, "/admin/v1/tenants").await.assert_error(401, "expired");
    let audience = signed(&with(json!({"aud": "someone-else"})), SECRET, jsonwebtoken::Algorithm::HS256);
    app.get(&audience, "/admin/v1/tenants").await.assert_error(401, "audience");
    let issuer = signed(&with(json!({"iss": "someone-else"})), SECRET, jsonwebtoken::Algorithm::HS256);
    app.get(&issuer, "/admin/v1/tenants").await.assert_error(401, "issuer");
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let none = format!("{}.{}.", b64(&json!({"alg": "none", "typ": "JWT"})), b64(&claims));
    app.get(&none, "/admin/v1/tenants").await.assert_error(401, "invalid admin token");
    // A tenant's API key is no admin token, and no admin token is a tenant key.
    app.get(&app.a.key, "/admin/v1/tenants").await.assert_error(401, "invalid admin token");
    app.get(good, "/api/v1/memories").await.assert_error(401, "malformed API key");
    app.send(Method::GET, "/admin/v1/tenants", None, None).await.assert_error(401, "missing admin token");

    // Wrong passwords and unknown accounts look alike.
    let wrong = json!({"email": EMAIL, "password": "not the password"});
    app.send(Method::POST, "/admin/v1/login", None, Some(&wrong)).await.assert_error(401, "invalid email or password");
    let unknown = json!({"email": "nobody@example.com", "password": PASSWORD});
    app.send(Method::POST, "/admin/v1/login", None, Some(&unknown))
        .await
        .assert_error(401, "invalid email or password");
}

#[tokio::test]
async fn a_reused_refresh_token_revokes_its_family_and_logout_ends_the_session() {
    let app = app_with_admin(config()).await;
    let first = login(&app).await;
    let r1 = first["refresh_token"].as_str().unwrap();
    let second = app.send(Method::POST, "/admin/v1/refresh", None, Some(&json!({"refresh_token": r1}))).await;
    let second = second.ok(200).clone();
    let r2 = second["refresh_token"].as_str().unwrap();
    assert_ne!(r1, r2, "the refresh token rotates");
    let access = second["access_token"].as_str().unwrap();
    app.get(access, "/admin/v1/tenants").await.ok(200);

    // r1 again: someone replayed it. The whole family ends, including r2 and its access tokens.
    app.send(Method::POST, "/admin/v1/refresh", None, Some(&json!({"refresh_token": r1})))
        .await
        .assert_error(401, "already used");
    app.send(Method::POST, "/admin/v1/refresh", None, Some(&json!({"refresh_token": r2})))
        .await
        .assert_error(401, "refresh token");
    app.get(access, "/admin/v1/tenants").await.assert_error(401, "session has ended");

    // Logout ends a session's access tokens at once.
    let other = token(&app).await;
    app.get(&other, "/admin/v1/tenants").await.ok(200);
    assert_eq!(app.send(Method::POST, "/admin/v1/logout", Some(&other), None).await.status, 204);
    app.get(&other, "/admin/v1/tenants").await.assert_error(401, "session has ended");

    // A password reset ends every session of the account.
    let before_reset = token(&app).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    app.get(&before_reset, "/admin/v1/tenants").await.assert_error(401, "session has ended");

    let audit = app.get(&token(&app).await, "/admin/v1/audit?action=admin.").await.ok(200).clone();
    let actions: Vec<&str> =
        audit["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    for expected in ["admin.create", "admin.login", "admin.refresh_reused", "admin.logout"] {
        assert!(actions.contains(&expected), "{expected} missing from {actions:?}");
    }
}

#[tokio::test]
async fn logins_are_limited_per_account_and_per_address() {
    let app = app_with_admin(AppArgs { login_per_ip_per_minute: 8, ..config() }).await;
    let wrong = json!({"email": EMAIL, "password": "guess"});
    for _ in 0..5 {
        app.send(Method::POST, "/admin/v1/login", None, Some(&wrong)).await.assert_error(401, "invalid");
    }
    // The account's allowance is spent, even for the right password.
    let right = json!({"email": EMAIL, "password": PASSWORD});
    app.send(Method::POST, "/admin/v1/login", None, Some(&right)).await.assert_error(429, "this account");
    // Another account from the same address: the address's allowance (8 per minute) runs out.
    let other = json!({"email": "other@example.com", "password": "guess"});
    for _ in 0..2 {
        app.send(Method::POST, "/admin/v1/login", None, Some(&other)).await.assert_error(401, "invalid");
    }
    let res = app.send(Method::POST, "/admin/v1/login", None, Some(&other)).await;
    res.assert_error(429, "from this address");
    assert!(res.headers.contains_key("retry-after"), "{:?}", res.headers);
}

#[tokio::test]
async fn operators_manage_tenants_and_keys() {
    let app = app_with_admin(config()).await;
    let admin = token(&app).await;
    let created = app
        .post(&admin, "/admin/v1/tenants", &json!({"name": "acme", "plan": "free", "limits": {"max_memories": 5}}))
        .await;
    let tenant = created.ok(201).clone();
    assert_eq!((tenant["plan"].as_str(), tenant["status"].as_str()), (Some("free"), Some("active")));
    let id = tenant["id"].as_str().unwrap().to_owned();
    app.post(&admin, "/admin/v1/tenants", &json!({"name": "acme"})).await.assert_error(409, "already exists");
    app.post(&admin, "/admin/v1/tenants", &json!({"name": "x", "plan": "gold"})).await.assert_error(400, "plan");
    app.post(&admin, "/admin/v1/tenants", &json!({"name": "y", "limits": {"max_batch": 0}}))
        .await
        .assert_error(400, "limits: max_batch");
    app.post(&admin, "/admin/v1/tenants", &json!({"name": "z", "limits": {"bogus": 1}}))
        .await
        .assert_error(400, "bogus");

    let page = app.get(&admin, "/admin/v1/tenants?limit=2").await.ok(200).clone();
    assert_eq!(page["total"], 3, "tenant-a, tenant-b and acme: {page}");
    assert_eq!(page["tenants"].as_array().unwrap().len(), 2);
    assert_eq!(page["has_more"], true);
    app.get(&admin, "/admin/v1/tenants?limit=0").await.assert_error(400, "limit");
    app.get(&admin, "/admin/v1/tenants?status=sleeping").await.assert_error(400, "status");

    // A key, issued with a secret shown once; listed without it.
    let issued = app
        .post(
            &admin,
            &format!("/admin/v1/tenants/{id}/keys"),
            &json!({"scopes": ["read", "write"], "name": "svc", "rate_limit_per_second": 50}),
        )
        .await
        .ok(201)
        .clone();
    let secret = issued["api_key"].as_str().unwrap().to_owned();
    let key_id = issued["key"]["id"].as_str().unwrap().to_owned();
    assert_eq!(issued["key"]["rate_limit_per_second"], 50);
    app.store_text(&secret, "acme's first memory").await;
    let keys = app.get(&admin, &format!("/admin/v1/tenants/{id}/keys")).await.ok(200).clone();
    let listed = &keys["keys"][0];
    assert!(listed["last_used_at"].is_string(), "last use recorded: {listed}");
    assert!(!keys.to_string().contains(&secret[10..]), "never the secret");

    // Rotation with a grace period: both work; the old one ends at the grace period's end.
    let rotated = app
        .post(&admin, &format!("/admin/v1/tenants/{id}/keys/{key_id}/rotate"), &json!({"grace_period_secs": 3600}))
        .await
        .ok(201)
        .clone();
    let new_secret = rotated["api_key"].as_str().unwrap().to_owned();
    assert_eq!(rotated["key"]["rotated_from"], key_id.as_str());
    assert!(rotated["previous"]["expires_at"].is_string());
    app.get(&secret, "/api/v1/memories").await.ok(200);
    app.get(&new_secret, "/api/v1/memories").await.ok(200);
    // Rotation without a body: grace 0, the old secret stops at once.
    let new_id = rotated["key"]["id"].as_str().unwrap();
    let again =
        app.send(Method::POST, &format!("/admin/v1/tenants/{id}/keys/{new_id}/rotate"), Some(&admin), None).await;
    let newest = again.ok(201)["api_key"].as_str().unwrap().to_owned();
    app.get(&new_secret, "/api/v1/memories").await.assert_error(401, "revoked");
    app.get(&newest, "/api/v1/memories").await.ok(200);

    // Update: limits, name, settings; a wrong value changes nothing.
    let updated = app
        .patch(
            &admin,
            &format!("/admin/v1/tenants/{id}"),
            &json!({"name": "acme-2", "settings": {"forgetting_enabled": true}}),
        )
        .await
        .ok(200)
        .clone();
    assert_eq!(updated["name"], "acme-2");
    assert_eq!(updated["settings"]["forgetting_enabled"], true);
    app.patch(
        &admin,
        &format!("/admin/v1/tenants/{id}"),
        &json!({"name": "acme-3", "settings": {"forgetting_grace_days": -1}}),
    )
    .await
    .assert_error(400, "forgetting_grace_days");
    assert_eq!(app.get(&admin, &format!("/admin/v1/tenants/{id}")).await.ok(200)["name"], "acme-2");
    let missing = uuid::Uuid::new_v4();
    app.get(&admin, &format!("/admin/v1/tenants/{missing}")).await.assert_error(404, "not found");
    app.delete(&admin, &format!("/admin/v1/tenants/{id}/keys/{missing}")).await.assert_error(404, "not found");
    app.delete(&admin, &format!("/admin/v1/tenants/{id}/keys/nope")).await.assert_error(400, "key_id");

    let plans = app.get(&admin, "/admin/v1/plans").await.ok(200).clone();
    assert!(plans["plans"].as_array().unwrap().iter().any(|p| p["name"] == "free"));

    let audit = app.get(&admin, &format!("/admin/v1/audit?tenant_id={id}")).await.ok(200).clone();
    let actions: Vec<&str> =
        audit["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["tenant.update", "key.rotate", "key.rotate", "key.create", "tenant.create"], "newest first");
    assert!(audit["entries"][0]["actor"].as_str().unwrap().starts_with("admin:ops@"));
    let keys_only =
        app.get(&admin, &format!("/admin/v1/audit?tenant_id={id}&action=key.&limit=1")).await.ok(200).clone();
    assert_eq!((keys_only["total"].as_i64(), keys_only["has_more"].as_bool()), (Some(3), Some(true)));
}

#[tokio::test]
async fn a_tenant_admin_key_manages_only_its_own_tenants_keys() {
    let app = app_with_admin(config()).await;
    let a_admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let b_admin = new_key(&app.db, app.b.id, &["admin"]).await;
    let b_keys = app.get(&b_admin, "/api/v1/keys").await.ok(200).clone();
    let b_key_id = b_keys["keys"][0]["id"].as_str().unwrap().to_owned();
    let a_keys = app.get(&a_admin, "/api/v1/keys").await.ok(200).clone();
    assert!(a_keys["keys"].as_array().unwrap().iter().all(|k| k["tenant_id"] == app.a.id.to_string()));
    app.delete(&a_admin, &format!("/api/v1/keys/{b_key_id}")).await.assert_error(404, "not found");
    app.post(&a_admin, &format!("/api/v1/keys/{b_key_id}/rotate"), &json!({})).await.assert_error(404, "not found");
    app.get(&app.b.key, "/api/v1/memories").await.ok(200);
    // Its own keys: rotated (the tenant's audit trail names the key that acted).
    let a_key_id = a_keys["keys"][0]["id"].as_str().unwrap();
    let rotated =
        app.post(&a_admin, &format!("/api/v1/keys/{a_key_id}/rotate"), &json!({"grace_period_secs": 60})).await;
    assert!(rotated.ok(201)["api_key"].as_str().unwrap().starts_with("cairn_"));
    app.post(&a_admin, &format!("/api/v1/keys/{a_key_id}/rotate"), &json!({"grace_period_secs": -1}))
        .await
        .assert_error(400, "grace_period_secs");
    let audit = app.get(&token(&app).await, &format!("/admin/v1/audit?tenant_id={}", app.a.id)).await.ok(200).clone();
    assert!(audit["entries"][0]["actor"].as_str().unwrap().starts_with("key:"), "{audit}");
}

#[tokio::test]
async fn a_suspended_tenant_is_refused_on_every_surface_until_resumed() {
    let app = app_with_admin(config()).await;
    let admin = token(&app).await;
    let key = app.a.key.clone();
    app.get(&key, "/api/v1/memories").await.ok(200);
    let suspended =
        app.post(&admin, &format!("/admin/v1/tenants/{}/suspend", app.a.id), &json!({"reason": "unpaid"})).await;
    assert_eq!(suspended.ok(200)["status"], "suspended");
    app.get(&key, "/api/v1/memories").await.assert_error(403, "suspended");
    app.get(&key, "/recall?query=x").await.assert_error(403, "suspended");
    let shodh = app.post(&key, "/api/recall", &json!({"query": "x"})).await;
    assert_eq!(shodh.status, 403, "{}", shodh.body);
    assert!(shodh.body.to_string().contains("suspended"), "{}", shodh.body);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let mcp = app
        .client
        .post(app.url("/mcp"))
        .bearer_auth(&key)
        .header("accept", "application/json, text/event-stream")
        .json(&init)
        .send()
        .await
        .unwrap();
    let mcp = TestApp::read(mcp).await;
    mcp.assert_error(403, "suspended");
    app.get(&app.b.key, "/api/v1/memories").await.ok(200);
    app.post(&admin, &format!("/admin/v1/tenants/{}/suspend", app.a.id), &json!({}))
        .await
        .assert_error(409, "suspended");
    let resumed = app.send(Method::POST, &format!("/admin/v1/tenants/{}/resume", app.a.id), Some(&admin), None).await;
    assert_eq!(resumed.ok(200)["status"], "active");
    app.get(&key, "/api/v1/memories").await.ok(200);
}

/// Polls `check` every 20 ms for up to `within`; returns how long it took to hold.
async fn within(within: Duration, mut check: impl AsyncFnMut() -> bool) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < within {
        if check().await {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

#[tokio::test]
async fn revocation_reaches_another_instance_and_the_cli_within_a_second() {
    let app = app_with_admin(config()).await;
    let admin = token(&app).await;
    let (addr, _stop) = second_instance(&app, config()).await;
    let other = |key: String| {
        let client = app.client.clone();
        async move {
            let res = client.get(format!("http://{addr}/api/v1/memories")).bearer_auth(key).send().await.unwrap();
            res.status().as_u16()
        }
    };
    let issued = app.post(&admin, &format!("/admin/v1/tenants/{}/keys", app.a.id), &json!({})).await.ok(201).clone();
    let (secret, key_id) =
        (issued["api_key"].as_str().unwrap().to_owned(), issued["key"]["id"].as_str().unwrap().to_owned());
    assert_eq!(other(secret.clone()).await, 200, "the second instance has verified and cached the key");
    app.delete(&admin, &format!("/admin/v1/tenants/{}/keys/{key_id}", app.a.id)).await.ok(200);
    let took = within(Duration::from_secs(1), async || other(secret.clone()).await == 401).await;
    assert!(took.is_some(), "the second instance still accepts a revoked key after 1 s");

    // The CLI revokes from the database host; both instances refuse within a second.
    let cli_key = new_key(&app.db, app.a.id, &["read"]).await;
    assert_eq!(other(cli_key.clone()).await, 200);
    app.get(&cli_key, "/api/v1/memories").await.ok(200);
    let listed = app.get(&admin, &format!("/admin/v1/tenants/{}/keys", app.a.id)).await.ok(200).clone();
    let cli_key_id = listed["keys"].as_array().unwrap().last().unwrap()["id"].as_str().unwrap().to_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["key", "revoke", &cli_key_id])
        .env("DATABASE_URL", &app.db_url)
        .env("CAIRN_APP_DATABASE_URL", crate::helpers::app_url(&app.db_url))
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let took = within(Duration::from_secs(1), async || {
        other(cli_key.clone()).await == 401 && app.get(&cli_key, "/api/v1/memories").await.status == 401
    })
    .await;
    assert!(took.is_some(), "a CLI revocation was not seen within 1 s");

    // Suspension too, and an unknown key's revocation changes nothing.
    app.delete(&admin, &format!("/admin/v1/tenants/{}/keys/{}", app.a.id, uuid::Uuid::new_v4()))
        .await
        .assert_error(404, "not found");
    let b_key = app.b.key.clone();
    assert_eq!(other(b_key.clone()).await, 200);
    app.post(&admin, &format!("/admin/v1/tenants/{}/suspend", app.b.id), &json!({})).await.ok(200);
    let took = within(Duration::from_secs(1), async || other(b_key.clone()).await == 403).await;
    assert!(took.is_some(), "the second instance still serves a suspended tenant after 1 s");
}

#[tokio::test]
async fn rate_limits_answer_429_with_their_headers() {
    let app = app_with_admin(config()).await;
    let admin = token(&app).await;
    let limits = json!({"limits": {"requests_per_second": 1, "burst": 2}});
    app.patch(&admin, &format!("/admin/v1/tenants/{}", app.a.id), &limits).await.ok(200);
    let first = app.get(&app.a.key, "/api/v1/memories").await;
    first.ok(200);
    let header = |res: &Res, name: &str| res.headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(header(&first, "x-ratelimit-limit").as_deref(), Some("2"));
    assert_eq!(header(&first, "x-ratelimit-remaining").as_deref(), Some("1"));
    assert!(header(&first, "x-ratelimit-reset").is_some());
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);
    let limited = app.get(&app.a.key, "/api/v1/memories").await;
    limited.assert_error(429, "rate limit exceeded");
    assert_eq!(header(&limited, "x-ratelimit-remaining").as_deref(), Some("0"));
    assert_eq!(header(&limited, "retry-after").as_deref(), Some("1"));
    // The other tenant, health and readiness are not limited by it.
    app.get(&app.b.key, "/api/v1/memories").await.ok(200);
    for _ in 0..5 {
        let health = app.send(Method::GET, "/health", None, None).await;
        assert_eq!(health.status, 200);
        assert!(header(&health, "x-ratelimit-limit").is_none());
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);

    // A key's own limit binds that key only.
    let slow = app
        .post(&admin, &format!("/admin/v1/tenants/{}/keys", app.b.id), &json!({"rate_limit_per_second": 1}))
        .await
        .ok(201)["api_key"]
        .as_str()
        .unwrap()
        .to_owned();
    app.get(&slow, "/api/v1/memories").await.ok(200);
    app.get(&slow, "/api/v1/memories").await.ok(200);
    app.get(&slow, "/api/v1/memories").await.assert_error(429, "this key");
    app.get(&app.b.key, "/api/v1/memories").await.ok(200);
}

#[tokio::test]
async fn unverified_keys_are_refused_cheaply_and_limited_per_address() {
    let app = app_with_admin(AppArgs { auth_per_ip_burst: 3, auth_per_ip_per_second: 1, ..config() }).await;
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);
    app.get("not-a-key", "/api/v1/memories").await.assert_error(401, "malformed");
    // The same wrong key again and again: remembered (never looked up or hashed again) and still counted against
    // the address, whose allowance (a burst of 3, one of which the malformed key took) runs out.
    let wrong = format!("cairn_{}_{}", "a".repeat(12), "b".repeat(40));
    let before = app.services.keys.argon2_computations();
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(app.get(&wrong, "/api/v1/memories").await.status);
    }
    assert_eq!(&statuses[..2], [401, 401], "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");
    assert_eq!(app.services.keys.argon2_computations(), before, "an unknown prefix is refused without argon2");
    // New made-up keys are refused for the address too, before any lookup.
    let made_up = format!("cairn_{}_{:0>40}", "c".repeat(12), 1);
    app.get(&made_up, "/api/v1/memories").await.assert_error(429, "too many invalid API keys");
    // A valid key already verified is served from the cache, whatever the address's allowance.
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);
}

#[tokio::test]
async fn quotas_are_enforced_and_name_their_limit() {
    let app = app_with_admin(config()).await;
    let admin = token(&app).await;
    let limits = json!({"limits": {"max_memories": 2, "max_batch": 3, "max_metadata_bytes": 1000,
        "consolidations_per_day": 1, "reenrich_per_day": 2}});
    app.patch(&admin, &format!("/admin/v1/tenants/{}", app.a.id), &limits).await.ok(200);
    let key = app.a.key.clone();
    app.store_text(&key, "one").await;
    app.store_text(&key, "two").await;
    app.post(&key, "/api/v1/memories", &json!({"content": "three"})).await.assert_error(403, "max_memories");
    app.post(
        &key,
        "/api/v1/memories/batch",
        &json!({"memories": [{"content": "x"}, {"content": "y"}, {"content": "z"}, {"content": "w"}]}),
    )
    .await
    .assert_error(403, "max_batch");
    app.post(&key, "/memory/batch", &json!({"memories": [{"content": "x"}, {"content": "y"}]}))
        .await
        .assert_error(403, "max_memories");
    assert_eq!(app.count(&key).await, 2, "nothing partial was written");
    let big = json!({"content": "four", "metadata": {"blob": "x".repeat(2000)}});
    app.post(&key, "/api/v1/memories", &big).await.assert_error(403, "metadata");

    // Everyone has the 64 KiB metadata cap; storage bytes are a quota too.
    let huge = json!({"content": "big", "metadata": {"blob": "x".repeat(70_000)}});
    app.post(&app.b.key, "/api/v1/memories", &huge).await.assert_error(403, "max_metadata_bytes of 65536");
    app.patch(&admin, &format!("/admin/v1/tenants/{}", app.b.id), &json!({"limits": {"max_storage_bytes": 100}}))
        .await
        .ok(200);
    app.post(&app.b.key, "/api/v1/memories", &json!({"content": "y".repeat(200)}))
        .await
        .assert_error(403, "max_storage_bytes");
    assert_eq!(app.count(&app.b.key).await, 0);

    // Daily budgets of costly calls: 429 naming the budget.
    let ids: Vec<String> = app.get(&key, "/api/v1/memories").await.ok(200)["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect();
    app.post(&key, "/api/v1/enrichment/reprocess", &json!({"ids": ids})).await.ok(202);
    let spent = app.post(&key, "/api/v1/enrichment/reprocess", &json!({"ids": [ids[0].clone()]})).await;
    spent.assert_error(429, "reenrich_per_day");
    assert!(spent.headers.contains_key("retry-after"));
    app.post(&key, "/api/v1/consolidate", &json!({"mode": "cluster", "dry_run": true})).await;
    app.post(&key, "/api/v1/consolidate", &json!({"mode": "cluster", "dry_run": true}))
        .await
        .assert_error(429, "consolidations_per_day");
}

#[tokio::test]
async fn usage_counts_the_requests_made() {
    let app = app_with_admin(config()).await;
    let key = app.a.key.clone();
    app.store_text(&key, "usage one").await;
    app.post(
        &key,
        "/api/v1/memories/batch",
        &json!({"memories": [{"content": "usage two"}, {"content": "usage three"}]}),
    )
    .await
    .ok(201);
    for _ in 0..3 {
        app.get(&key, "/api/v1/recall?query=usage").await.ok(200);
    }
    app.get(&key, "/api/v1/memories").await.ok(200);
    let usage = app.get(&key, "/api/v1/usage").await.ok(200).clone();
    let totals = &usage["totals"];
    assert_eq!(totals["requests_write"], 2, "{usage}");
    assert_eq!(totals["requests_read"], 4, "the usage read itself is counted after it answers: {usage}");
    assert_eq!(totals["recalls"], 3);
    assert_eq!(totals["memories_stored"], 3);
    assert_eq!(usage["memories"], 3);
    assert!(usage["storage_bytes"].as_i64().unwrap() > 0);
    // The operator's view of the same tenant (the usage read above now counted too).
    let admin = token(&app).await;
    let seen = app.get(&admin, &format!("/admin/v1/tenants/{}/usage", app.a.id)).await.ok(200).clone();
    assert_eq!(seen["totals"]["requests_read"], 5, "{seen}");
    assert_eq!(app.get(&app.b.key, "/api/v1/usage").await.ok(200)["totals"]["memories_stored"], Value::Null);
    app.get(&key, "/api/v1/usage?from=2026-12-02&to=2026-12-01").await.assert_error(400, "from");
    app.get(&key, "/api/v1/usage?from=yesterday").await.assert_error(400, "from");
}

#[tokio::test]
async fn metrics_parse_as_prometheus_text() {
    let app = app_with_admin(config()).await;
    app.store_text(&app.a.key, "measured").await;
    app.get(&app.a.key, "/api/v1/memories/00000000-0000-0000-0000-000000000000").await;
    let res = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    let lines = text.lines().map(|l| Ok(l.to_owned()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("Prometheus text format");
    let names: std::collections::HashSet<&str> = scrape.samples.iter().map(|s| s.metric.as_str()).collect();
    for expected in [
        "cairn_http_requests_total",
        "cairn_http_request_duration_seconds",
        "cairn_job_queue_depth",
        "cairn_job_queue_oldest_age_seconds",
        "cairn_db_pool_connections",
        "cairn_embedder_state",
    ] {
        assert!(names.contains(expected), "{expected} missing: {names:?}");
    }
    let latency = scrape.samples.iter().find(|s| s.metric == "cairn_http_request_duration_seconds").unwrap();
    assert!(matches!(latency.value, prometheus_parse::Value::Histogram(_)), "latency is a histogram: {latency:?}");
    let by_route = scrape.samples.iter().any(|s| {
        s.metric == "cairn_http_requests_total"
            && s.labels.get("route") == Some("/api/v1/memories/:id")
            && s.labels.get("status") == Some("404")
    });
    let routes: Vec<String> = scrape
        .samples
        .iter()
        .filter(|s| s.metric == "cairn_http_requests_total")
        .map(|s| format!("{:?} {:?}", s.labels.get("route"), s.labels.get("status")))
        .collect();
    assert!(by_route, "requests are counted per route template and status: {routes:?}");

    // With a token configured, /metrics needs it.
    let guarded = spawn_with(AppArgs { metrics_token: Some(SecretString::from("scrape-me")), ..config() }, None).await;
    let denied = TestApp::read(guarded.client.get(guarded.url("/metrics")).send().await.unwrap()).await;
    denied.assert_error(401, "metrics token");
    let allowed = guarded.client.get(guarded.url("/metrics")).bearer_auth("scrape-me").send().await.unwrap();
    assert_eq!(allowed.status(), 200);
}

/// Tables with a `tenant_id` that keep a deleted tenant's rows on purpose: the operator's records (the audit
/// log, and the daily usage a last invoice needs). Every other one must be empty after erasure.
const KEPT_AFTER_ERASURE: &[&str] = &["audit_log", "usage_daily"];

/// Rows of `tenant` in every table that has a `tenant_id` column, and its queued jobs (`jobs`), counted as the
/// superuser (row-level security does not hide anything from it).
async fn rows_of_tenant(app: &TestApp, tenant: uuid::Uuid) -> std::collections::BTreeMap<String, i64> {
    let mut conn = app.superuser_conn().await;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.columns
          WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY 1",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert!(tables.len() >= 14, "every tenant table is found: {tables:?}");
    let mut counts = std::collections::BTreeMap::new();
    for table in tables {
        let n: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM {table} WHERE tenant_id = $1"))
            .bind(tenant)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        counts.insert(table, n);
    }
    // The deletion's own job is the operator's (its payload is the tenant's id alone).
    let jobs: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job->>'tenant_id' = $1::text AND job_type <> 'cairn::tenant_delete'",
    )
    .bind(tenant)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    counts.insert("jobs".into(), jobs);
    counts
}

#[tokio::test]
async fn deleting_a_tenant_removes_its_data_and_leaves_a_report() {
    // As production runs: the tables' owner is not a superuser, so row-level security binds the erasure too.
    let config = AppArgs { consolidate_wait_ms: 0, ..config() };
    let app = spawn_with_queues(config, Workers::Only(vec![cairn::queue::tenant_delete::QUEUE])).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    let admin = token(&app).await;
    let first = app.store_text(&app.a.key, "Alice deploys Kubernetes on Fridays").await;
    let second = app.store_text(&app.a.key, "Bob reviews the deploy with Postgres").await;
    let third = app.store(&app.a.key, json!({"content": "a draft to throw away", "tags": ["draft"]})).await;
    app.post(
        &app.a.key,
        "/api/v1/associations",
        &json!({"memory1_id": first, "memory2_id": second, "type": "RelatedTo"}),
    )
    .await
    .ok(201);
    // Entities and mentions, history, the trash, a consolidation run and queued jobs of every kind.
    app.run_enrichment().await;
    app.patch(&app.a.key, &format!("/api/v1/memories/{first}"), &json!({"importance": 0.9})).await.ok(200);
    let draft = third["id"].as_str().unwrap();
    app.delete(&app.a.key, &format!("/api/v1/memories/{draft}?hard=true")).await.ok(200);
    app.post(&app.a.key, "/api/v1/consolidate", &json!({"mode": "decay"})).await;
    let probes = json!({"probes": [{"query": "who deploys Kubernetes", "expected": [first]}], "k": 5});
    app.put(&app.a.key, "/api/v1/eval/probe-sets/deploys", &probes).await.ok(200);
    app.post(&app.a.key, "/api/v1/eval", &json!({"probe_set": "deploys"})).await.ok(200);
    // A request for an end user, counted (reading the usage flushes the counts).
    app.post(&app.a.key, "/api/v1/recall", &json!({"query": "deploys", "user_id": "ann"})).await.ok(200);
    app.get(&app.a.key, "/api/v1/usage").await.ok(200);
    app.store_text(&app.b.key, "tenant b stays").await;
    let before = rows_of_tenant(&app, app.a.id).await;
    for table in [
        "memories",
        "relations",
        "entities",
        "memory_entities",
        "memory_events",
        "memory_trash",
        "memory_counts",
        "consolidation_runs",
        "eval_probe_sets",
        "eval_runs",
        "api_keys",
        "tenant_usage_delta",
        "usage_daily_end_users",
        "jobs",
    ] {
        assert!(before[table] > 0, "the test must put rows in {table}: {before:?}");
    }
    let b_before = rows_of_tenant(&app, app.b.id).await;

    let deleting = app.delete(&admin, &format!("/admin/v1/tenants/{}", app.a.id)).await;
    assert_eq!(deleting.status, 202, "{}", deleting.body);
    assert_eq!(deleting.body["status"], "deleting");
    app.get(&app.a.key, "/api/v1/memories").await.assert_error(403, "deleted");
    let done = within(Duration::from_secs(10), async || {
        app.get(&admin, &format!("/admin/v1/tenants/{}", app.a.id)).await.body["status"] == "deleted"
    })
    .await;
    assert!(done.is_some(), "the deletion job did not finish");
    let tenant = app.get(&admin, &format!("/admin/v1/tenants/{}", app.a.id)).await.ok(200).clone();
    assert_eq!(tenant["memories"], 0);
    let report = &tenant["deletion_report"]["rows_deleted"];
    let after = rows_of_tenant(&app, app.a.id).await;
    for (table, was) in &before {
        if KEPT_AFTER_ERASURE.contains(&table.as_str()) {
            continue;
        }
        assert_eq!(after[table], 0, "{table} still holds rows of the deleted tenant: {after:?}");
        assert_eq!(report[table].as_i64(), Some(*was), "the report's count for {table}: {report}");
    }
    assert_eq!(rows_of_tenant(&app, app.b.id).await, b_before, "the other tenant keeps everything");
    app.get(&app.a.key, "/api/v1/memories").await.assert_error(401, "invalid API key");
    assert_eq!(app.count(&app.b.key).await, 1);
    app.delete(&admin, &format!("/admin/v1/tenants/{}", app.a.id)).await.assert_error(409, "deleted");
    app.patch(&admin, &format!("/admin/v1/tenants/{}", app.a.id), &json!({"name": "again"}))
        .await
        .assert_error(409, "deleted");
}

#[tokio::test]
async fn operators_see_every_queue_and_look_at_a_tenant_without_a_key() {
    let app = crate::helpers::spawn_without_workers(config()).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    let admin = token(&app).await;
    let id = app.store_text(&app.a.key, "an operator may look at this").await;
    let items = json!({"memories": [{"content": "b one"}, {"content": "b two"}]});
    app.post(&app.b.key, "/api/v1/memories/batch", &items).await.ok(201);

    // Every queue, and each tenant's share of it (nothing runs the jobs here).
    let jobs = app.get(&admin, "/admin/v1/jobs").await.ok(200).clone();
    let pending = |tenant: Option<&str>| -> i64 {
        let rows = if tenant.is_some() { &jobs["tenants"] } else { &jobs["queues"] };
        let rows = rows.as_array().unwrap().iter();
        rows.filter(|q| tenant.is_none() || q["tenant_id"].as_str() == tenant)
            .map(|q| q["pending"].as_i64().unwrap())
            .sum()
    };
    let (a, b) = (app.a.id.to_string(), app.b.id.to_string());
    assert!(pending(Some(&a)) >= 1 && pending(Some(&b)) >= 1, "{jobs}");
    assert_eq!(pending(None), pending(Some(&a)) + pending(Some(&b)), "{jobs}");
    let row = jobs["tenants"].as_array().unwrap().iter().find(|q| q["tenant_id"] == json!(a)).unwrap();
    assert!(row["tenant_name"].is_string() && row["oldest_pending_secs"].as_f64().unwrap() >= 0.0, "{row}");
    assert_eq!(app.get(&admin, "/admin/v1/jobs?limit=1").await.ok(200)["tenants"].as_array().unwrap().len(), 1);
    app.get(&admin, "/admin/v1/jobs?limit=0").await.assert_error(400, "limit");
    // Tenants and their keys have no way in.
    app.get(&app.a.key, "/admin/v1/jobs").await.assert_error(401, "");

    // A look at one tenant's memories and jobs: only that tenant's, no access counted, each look audited.
    let seen = app.get(&admin, &format!("/admin/v1/tenants/{a}/memories")).await.ok(200).clone();
    assert_eq!((seen["total"].clone(), seen["memories"][0]["id"].clone()), (json!(1), json!(id)), "{seen}");
    app.get(&admin, &format!("/admin/v1/tenants/{a}/memories")).await.ok(200);
    let read = app.get(&app.a.key, &format!("/api/v1/memories/{id}?touch=false")).await.ok(200).clone();
    assert_eq!(read["access_count"], 0, "the operator's look counted an access");
    let theirs = app.get(&admin, &format!("/admin/v1/tenants/{b}/jobs")).await.ok(200).clone();
    let own = app.get(&app.b.key, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(theirs["queues"], own["queues"], "the operator sees what the tenant sees");
    app.get(&admin, &format!("/admin/v1/tenants/{}/memories", uuid::Uuid::new_v4()))
        .await
        .assert_error(404, "not found");
    app.get(&admin, &format!("/admin/v1/tenants/{a}/memories?limit=500")).await.assert_error(400, "limit");
    app.get(&app.a.key, &format!("/admin/v1/tenants/{a}/memories")).await.assert_error(401, "");
    let audit =
        app.get(&admin, &format!("/admin/v1/audit?tenant_id={a}&action=tenant.memories.read")).await.ok(200).clone();
    assert_eq!(audit["entries"].as_array().map(Vec::len), Some(2), "{audit}");
    assert_eq!(audit["entries"][0]["actor"], format!("admin:{EMAIL}"));
    let audit =
        app.get(&admin, &format!("/admin/v1/audit?tenant_id={b}&action=tenant.jobs.read")).await.ok(200).clone();
    assert_eq!(audit["entries"].as_array().map(Vec::len), Some(1), "{audit}");
}
