//! Webhooks: endpoints under `/api/v1/webhooks`, events written with what causes them and posted by the
//! `cairn::webhook` job to a receiver the test runs on loopback (allowed by CAIRN_WEBHOOK_ALLOW_NETWORKS, as
//! an operator would allow an internal network), signed the Standard Webhooks way, retried, and the endpoint
//! disabled when a delivery fails for the whole retry window.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use cairn::config::AppArgs;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

use cairn::queue::{self, Workers};

use crate::helpers::{new_key, spawn_with_queues, spawn_with_queues_and_embedder, Instant384, TestApp};

/// A server whose workers deliver webhooks (and run consolidations, as every test server does).
async fn spawn_delivering(app: AppArgs) -> TestApp {
    spawn_with_queues(app, Workers::Only(vec![queue::webhook::QUEUE, queue::consolidate::QUEUE])).await
}

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: String,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// A receiver on loopback: records every request and answers with the status at the head of `script`
/// (the last one forever after).
struct Receiver {
    url: String,
    got: Arc<Mutex<Vec<Received>>>,
    status: Arc<AtomicU16>,
    failures_left: Arc<AtomicU16>,
}

impl Receiver {
    async fn start() -> Self {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let status = Arc::new(AtomicU16::new(200));
        let failures_left = Arc::new(AtomicU16::new(0));
        let (g, s, f) = (got.clone(), status.clone(), failures_left.clone());
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: String| {
                let (g, s, f) = (g.clone(), s.clone(), f.clone());
                async move {
                    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
                    g.lock().unwrap().push(Received {
                        id: header("webhook-id"),
                        timestamp: header("webhook-timestamp"),
                        signature: header("webhook-signature"),
                        body,
                    });
                    let failing = f.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
                    let code = if failing { 500 } else { s.load(Ordering::SeqCst) };
                    let mut answer = axum::response::Response::new(axum::body::Body::from("receiver says hi"));
                    *answer.status_mut() = StatusCode::from_u16(code).unwrap();
                    if code == 302 {
                        answer.headers_mut().insert("location", "http://127.0.0.1:1/elsewhere".parse().unwrap());
                    }
                    answer
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, got, status, failures_left }
    }

    fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until at least `n` requests came (failing after 20 s).
    async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..400 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the receiver got {} requests, not {n}: {:?}", self.received().len(), self.received());
    }
}

/// The settings of a deployment whose operator allows loopback, with fast retries.
fn loopback_allowed(retry_for_secs: u64) -> AppArgs {
    AppArgs {
        webhook_allow_networks: vec!["127.0.0.1/32".parse().unwrap()],
        webhook_retry_base_ms: 50,
        webhook_retry_max_ms: 200,
        webhook_retry_for_secs: retry_for_secs,
        webhook_timeout_ms: 2000,
        ..AppArgs::default()
    }
}

/// Checks a request's signature with the secret, as a receiver following the Standard Webhooks scheme does.
fn verify(secret: &str, got: &Received) {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").expect("whsec_ prefix")).unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{}.{}.{}", got.id, got.timestamp, got.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert_eq!(got.signature, expected, "signature of {got:?}");
    let sent: i64 = got.timestamp.parse().unwrap();
    assert!((chrono::Utc::now().timestamp() - sent).abs() < 120, "a fresh timestamp: {sent}");
    assert_eq!(got.json()["id"], got.id, "the body's id is the webhook-id");
}

async fn deliveries(app: &TestApp, admin: &str, hook: &str) -> Value {
    app.get(admin, &format!("/api/v1/webhooks/{hook}/deliveries?include_payload=true")).await.ok(200).clone()
}

/// Waits until the endpoint's log satisfies `done` (failing after 20 s).
async fn wait_for_log(app: &TestApp, admin: &str, hook: &str, done: impl Fn(&Value) -> bool) -> Value {
    let mut log = Value::Null;
    for _ in 0..400 {
        log = deliveries(app, admin, hook).await;
        if done(&log) {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the delivery log never got there: {log}");
}

#[tokio::test]
async fn events_are_signed_delivered_in_order_logged_and_redelivered() {
    let receiver = Receiver::start().await;
    let app = spawn_delivering(loopback_allowed(3600)).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let types = ["memory.created", "memory.updated", "memory.deleted"];
    let created = app.post(&admin, "/api/v1/webhooks", &json!({"url": receiver.url, "event_types": types})).await;
    let hook = created.ok(201).clone();
    let secret = hook["secret"].as_str().unwrap().to_owned();
    let hook_id = hook["id"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{hook}");
    assert_eq!((hook["enabled"].clone(), hook["event_types"].clone()), (json!(true), json!(types)));

    // The secret is shown once: never listed or read after.
    let listed = app.get(&admin, "/api/v1/webhooks").await.ok(200).clone();
    assert_eq!(listed["webhooks"].as_array().unwrap().len(), 1);
    assert!(listed["webhooks"][0].get("secret").is_none() && !listed.to_string().contains(&secret), "{listed}");
    assert!(app.get(&admin, &format!("/api/v1/webhooks/{hook_id}")).await.ok(200).get("secret").is_none());

    let memory = app.store(&app.a.key, json!({"content": "The launch moved to March", "tags": ["plan"]})).await;
    let id = memory["id"].as_str().unwrap();
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"content": "The launch moved to April"}))
        .await
        .ok(200);
    app.delete(&app.a.key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200);

    let got = receiver.wait_for(3).await;
    let kinds: Vec<Value> = got.iter().map(|g| g.json()["type"].clone()).collect();
    assert_eq!(kinds, [json!("memory.created"), json!("memory.updated"), json!("memory.deleted")], "in order");
    for g in &got {
        verify(&secret, g);
        assert_eq!(g.json()["data"]["memory_id"], id);
        assert_eq!(g.json()["data"]["actor"].as_str().unwrap().split(':').next(), Some("key"), "{}", g.body);
    }
    assert_eq!(got[0].json()["data"]["memory"]["content"], "The launch moved to March");
    assert_eq!(got[1].json()["data"]["memory"]["content"], "The launch moved to April");
    assert_eq!(got[2].json()["data"]["change"], "deleted");
    let ids: std::collections::HashSet<&str> = got.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids.len(), 3, "each event its own id");

    // The log: each delivered at the first attempt, with the answer's status and latency.
    let log = wait_for_log(&app, &admin, &hook_id, |l| {
        l["deliveries"].as_array().unwrap().iter().all(|d| d["status"] == "delivered")
    })
    .await;
    assert_eq!(log["total"], 3, "{log}");
    for d in log["deliveries"].as_array().unwrap() {
        assert_eq!((d["attempts"].clone(), d["last_status_code"].clone()), (json!(1), json!(200)), "{d}");
        assert!(d["last_latency_ms"].as_i64().unwrap() >= 0 && d["payload"]["type"] == d["event_type"], "{d}");
    }
    let only_pending =
        app.get(&admin, &format!("/api/v1/webhooks/{hook_id}/deliveries?status=pending")).await.ok(200).clone();
    assert_eq!(only_pending["total"], 0);

    // Redelivery: the same event (same webhook-id and body) once more.
    let first = log["deliveries"].as_array().unwrap().last().unwrap().clone();
    let path = format!("/api/v1/webhooks/{hook_id}/deliveries/{}/redeliver", first["id"].as_str().unwrap());
    let again = app.post(&admin, &path, &json!({})).await.ok(202).clone();
    assert_eq!((again["event_id"].clone(), again["status"].clone()), (first["event_id"].clone(), json!("pending")));
    let got = receiver.wait_for(4).await;
    assert_eq!((got[3].id.as_str(), got[3].body.as_str()), (got[0].id.as_str(), got[0].body.as_str()));
    verify(&secret, &got[3]);

    // A new secret signs from now on; the old one no longer verifies.
    let rotated =
        app.post(&admin, &format!("/api/v1/webhooks/{hook_id}/rotate-secret"), &json!({})).await.ok(200).clone();
    let new_secret = rotated["secret"].as_str().unwrap().to_owned();
    assert_ne!(new_secret, secret);
    app.store_text(&app.a.key, "After the rotation").await;
    let got = receiver.wait_for(5).await;
    verify(&new_secret, &got[4]);

    // Erased for good, the memory's content leaves the delivery log too (ids and hashes stay).
    app.delete(&admin, &format!("/api/v1/memories/{id}?purge=true")).await.ok(200);
    let log = deliveries(&app, &admin, &hook_id).await;
    assert!(!log.to_string().contains("The launch moved"), "{log}");
    let scrubbed = log["deliveries"].as_array().unwrap().iter().find(|d| d["memory_id"] == id).unwrap().clone();
    assert_eq!(scrubbed["payload"]["data"]["memory"]["id"], id, "{scrubbed}");

    // Types it does not want are not sent; disabled, nothing is; deleted, its log goes with it.
    app.patch(&admin, &format!("/api/v1/webhooks/{hook_id}"), &json!({"event_types": ["memory.deleted"]}))
        .await
        .ok(200);
    app.store_text(&app.a.key, "Nobody hears of this one").await;
    app.patch(&admin, &format!("/api/v1/webhooks/{hook_id}"), &json!({"enabled": false})).await.ok(200);
    let quiet = app.store_text(&app.a.key, "Nor of this one").await;
    app.delete(&app.a.key, &format!("/api/v1/memories/{quiet}")).await.ok(200);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(receiver.received().len(), 5, "nothing more was sent");
    assert_eq!(deliveries(&app, &admin, &hook_id).await["total"], 5);
    app.delete(&admin, &format!("/api/v1/webhooks/{hook_id}")).await.ok(200);
    app.get(&admin, &format!("/api/v1/webhooks/{hook_id}")).await.assert_error(404, "id");
    app.get(&admin, &format!("/api/v1/webhooks/{hook_id}/deliveries")).await.assert_error(404, "id");
}

#[tokio::test]
async fn a_failing_endpoint_is_retried_then_disabled_and_redirects_are_not_followed() {
    let receiver = Receiver::start().await;
    let app = spawn_delivering(loopback_allowed(3)).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let hook =
        app.post(&admin, "/api/v1/webhooks", &json!({"url": receiver.url, "event_types": ["memory.created"]})).await;
    let hook_id = hook.ok(201)["id"].as_str().unwrap().to_owned();

    // Two failures, then it takes it: one delivery, three attempts, the same event id each time.
    receiver.failures_left.store(2, Ordering::SeqCst);
    app.store_text(&app.a.key, "Retried until it lands").await;
    let got = receiver.wait_for(3).await;
    assert!(got.iter().all(|g| g.id == got[0].id), "every attempt carries the event's id");
    let log = wait_for_log(&app, &admin, &hook_id, |l| l["deliveries"][0]["status"] == "delivered").await;
    assert_eq!((log["total"].clone(), log["deliveries"][0]["attempts"].clone()), (json!(1), json!(3)), "{log}");

    // A redirect is a failure (not followed), and so is every 500 after: retried for the window (3 s),
    // then given up and the endpoint disabled, saying why.
    receiver.status.store(302, Ordering::SeqCst);
    app.store_text(&app.a.key, "Never lands").await;
    let log = wait_for_log(&app, &admin, &hook_id, |l| l["deliveries"][0]["attempts"].as_i64() >= Some(1)).await;
    let error = log["deliveries"][0]["last_error"].as_str().unwrap_or_default().to_owned();
    assert!(error.contains("redirect"), "{log}");
    assert_eq!(log["deliveries"][0]["last_status_code"], 302);
    receiver.status.store(500, Ordering::SeqCst);
    let log = wait_for_log(&app, &admin, &hook_id, |l| l["deliveries"][0]["status"] == "failed").await;
    let attempts = log["deliveries"][0]["attempts"].as_i64().unwrap();
    assert!(attempts >= 3, "retried with backoff for the window: {log}");
    let endpoint = app.get(&admin, &format!("/api/v1/webhooks/{hook_id}")).await.ok(200).clone();
    assert_eq!(endpoint["enabled"], false, "{endpoint}");
    assert!(endpoint["disabled_reason"].as_str().unwrap().contains("retry window"), "{endpoint}");
    let audit: i64 =
        sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE action = 'webhook.disabled' AND tenant_id = $1")
            .bind(app.a.id)
            .fetch_one(app.db.owner())
            .await
            .unwrap();
    assert_eq!(audit, 1, "the notice is in the audit log");

    // Disabled, events are not recorded for it; enabled again, new ones flow.
    let before = receiver.received().len();
    app.store_text(&app.a.key, "While it was off").await;
    receiver.status.store(204, Ordering::SeqCst);
    let enabled =
        app.patch(&admin, &format!("/api/v1/webhooks/{hook_id}"), &json!({"enabled": true})).await.ok(200).clone();
    assert!(enabled["disabled_reason"].is_null() && enabled["enabled"] == true, "{enabled}");
    app.store_text(&app.a.key, "Back on").await;
    let got = receiver.wait_for(before + 1).await;
    assert_eq!(got[before].json()["data"]["memory"]["content"], "Back on");
    assert_eq!(deliveries(&app, &admin, &hook_id).await["total"], 3);
}

#[tokio::test]
async fn embeddings_consolidations_and_imports_send_their_events() {
    let receiver = Receiver::start().await;
    let app = spawn_with_queues_and_embedder(
        loopback_allowed(3600),
        Workers::Only(vec![queue::webhook::QUEUE, queue::consolidate::QUEUE, queue::embed::QUEUE]),
        Arc::new(Instant384),
    )
    .await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let body =
        json!({"url": receiver.url, "event_types": ["memory.embedded", "consolidation.finished", "import.finished"]});
    let secret = app.post(&admin, "/api/v1/webhooks", &body).await.ok(201)["secret"].as_str().unwrap().to_owned();

    let id = app.store_text(&app.a.key, "Embedded soon").await;
    let got = receiver.wait_for(1).await;
    assert_eq!(got[0].json()["type"], "memory.embedded", "{:?}", got[0]);
    assert_eq!(
        (got[0].json()["data"]["memory_id"].clone(), got[0].json()["data"]["model"].clone()),
        (json!(id), json!("instant"))
    );
    verify(&secret, &got[0]);

    app.post(&app.a.key, "/api/v1/consolidate", &json!({"mode": "cluster"})).await.ok(200);
    let got = receiver.wait_for(2).await;
    let event = got[1].json();
    assert_eq!(
        (event["type"].clone(), event["data"]["status"].clone(), event["data"]["mode"].clone()),
        (json!("consolidation.finished"), json!("finished"), json!("cluster")),
        "{event}"
    );

    let line = json!({"type": "memories", "data": {"id": uuid::Uuid::new_v4(), "content": "Imported from elsewhere"}});
    app.import(&app.a.key, format!("{line}\n")).await.ok(200);
    let got = receiver.wait_for(3).await;
    let event =
        got.iter().map(Received::json).find(|e| e["type"] == "import.finished").expect("an import.finished event");
    assert_eq!(
        (event["data"]["status"].clone(), event["data"]["inserted"]["memories"].clone()),
        (json!("finished"), json!(1)),
        "{event}"
    );
}

#[tokio::test]
async fn internal_addresses_bad_input_other_tenants_and_the_cap_are_refused() {
    let app = spawn_delivering(AppArgs { webhook_max_endpoints: 2, ..AppArgs::default() }).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    for (url, needle) in [
        ("http://127.0.0.1:9/hook", "internal address"),
        ("http://169.254.169.254/latest/meta-data", "internal address"),
        ("http://[::1]:8080/", "internal address"),
        ("http://[::ffff:10.0.0.1]/", "internal address"),
        ("http://10.1.2.3/hook", "internal address"),
        ("http://localhost:8080/hook", "internal address"),
        ("http://metadata.localhost/", "internal address"),
        ("ftp://93.184.216.34/hook", "https://"),
        ("https://user:pw@93.184.216.34/hook", "credentials"),
        ("not a url", "not a URL"),
        ("", "url"),
    ] {
        let res = app.post(&admin, "/api/v1/webhooks", &json!({"url": url})).await;
        res.assert_error(400, needle);
        res.assert_error(400, "url:");
    }
    let bad_type = json!({"url": "https://93.184.216.34/hook", "event_types": ["memory.created", "memory.eaten"]});
    app.post(&admin, "/api/v1/webhooks", &bad_type).await.assert_error(400, "event_types[1]");
    app.post(&admin, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/hook", "event_types": []}))
        .await
        .assert_error(400, "event_types");
    app.post(&admin, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/hook", "secret": "mine"}))
        .await
        .assert_error(400, "secret");
    // A read-write key is not an admin key.
    app.post(&app.a.key, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/hook"}))
        .await
        .assert_error(403, "admin");
    app.get(&app.a.key, "/api/v1/webhooks").await.assert_error(403, "admin");

    // All event types by default; at most two endpoints here.
    let hook =
        app.post(&admin, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/hook"})).await.ok(201).clone();
    assert_eq!(hook["event_types"].as_array().unwrap().len(), 9, "{hook}");
    let hook_id = hook["id"].as_str().unwrap().to_owned();
    app.post(&admin, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/other", "enabled": false}))
        .await
        .ok(201);
    app.post(&admin, "/api/v1/webhooks", &json!({"url": "https://93.184.216.34/third"}))
        .await
        .assert_error(403, "2 webhook endpoints");
    app.patch(&admin, &format!("/api/v1/webhooks/{hook_id}"), &json!({"url": "http://192.168.0.10/"}))
        .await
        .assert_error(400, "internal address");
    app.get(&admin, &format!("/api/v1/webhooks/{hook_id}/deliveries?status=lost")).await.assert_error(400, "status");
    app.get(&admin, &format!("/api/v1/webhooks/{hook_id}/deliveries?limit=0")).await.assert_error(400, "limit");
    app.get(&admin, "/api/v1/webhooks/not-an-id").await.assert_error(400, "id");
    let stray = format!("/api/v1/webhooks/{hook_id}/deliveries/{}/redeliver", uuid::Uuid::new_v4());
    app.post(&admin, &stray, &json!({})).await.assert_error(404, "delivery_id");

    // Another tenant's admin sees none of it and can change none of it.
    let b_admin = new_key(&app.db, app.b.id, &["admin"]).await;
    assert_eq!(app.get(&b_admin, "/api/v1/webhooks").await.ok(200)["webhooks"], json!([]));
    let path = format!("/api/v1/webhooks/{hook_id}");
    app.get(&b_admin, &path).await.assert_error(404, "id");
    app.patch(&b_admin, &path, &json!({"enabled": false})).await.assert_error(404, "id");
    app.post(&b_admin, &format!("{path}/rotate-secret"), &json!({})).await.assert_error(404, "id");
    app.get(&b_admin, &format!("{path}/deliveries")).await.assert_error(404, "id");
    app.delete(&b_admin, &path).await.assert_error(404, "id");
    // And B's events never reach A's endpoint.
    app.store_text(&app.b.key, "B's own business").await;
    let a_deliveries: i64 = sqlx::query_scalar("SELECT count(*) FROM webhook_deliveries")
        .fetch_one(&mut app.superuser_conn().await)
        .await
        .unwrap();
    assert_eq!(a_deliveries, 0, "B has no endpoint; A's wants none of B's events");
    assert_eq!(app.get(&admin, &path).await.ok(200)["enabled"], true);
}

#[tokio::test]
async fn a_name_that_resolves_to_an_internal_address_is_refused_at_delivery() {
    // An endpoint whose address was fine when it was registered and is internal now (DNS rebinding): stored
    // as the service would have, then its event is refused at the connection, and nothing reaches the receiver.
    let receiver = Receiver::start().await;
    let app =
        spawn_delivering(AppArgs { webhook_retry_base_ms: 50, webhook_retry_max_ms: 100, ..AppArgs::default() }).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let hook = app
        .post(
            &admin,
            "/api/v1/webhooks",
            &json!({"url": "https://93.184.216.34/hook", "event_types": ["memory.created"]}),
        )
        .await;
    let hook_id = hook.ok(201)["id"].as_str().unwrap().to_owned();
    let rebound = receiver.url.replace("127.0.0.1", "localhost");
    sqlx::query("UPDATE webhook_endpoints SET url = $1")
        .bind(&rebound)
        .execute(&mut app.superuser_conn().await)
        .await
        .unwrap();
    app.store_text(&app.a.key, "Must not reach loopback").await;
    let log = wait_for_log(&app, &admin, &hook_id, |l| l["deliveries"][0]["attempts"].as_i64() >= Some(1)).await;
    let error = log["deliveries"][0]["last_error"].as_str().unwrap_or_default();
    assert!(error.contains("internal address"), "{log}");
    assert!(receiver.received().is_empty(), "nothing reached loopback");
}

#[tokio::test]
async fn quotas_reached_jobs_failed_and_keys_expiring_are_announced() {
    let receiver = Receiver::start().await;
    let app = spawn_delivering(AppArgs { usage_flush_ms: 200, ..loopback_allowed(3600) }).await;
    // Before any request, so that no instance has the tenant's limits cached.
    sqlx::query("UPDATE tenants SET limits = '{\"max_memories\": 1}' WHERE id = $1")
        .bind(app.a.id)
        .execute(&mut app.superuser_conn().await)
        .await
        .unwrap();
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let types = ["quota.reached", "job.failed", "key.expiring"];
    let secret =
        app.post(&admin, "/api/v1/webhooks", &json!({"url": receiver.url, "event_types": types})).await.ok(201)
            ["secret"]
            .as_str()
            .unwrap()
            .to_owned();

    // Over its quota: refused, and announced once (not at every refusal).
    let id = app.store_text(&app.a.key, "The only one allowed").await;
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "one too many"}))
        .await
        .assert_error(403, "max_memories");
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "and another"}))
        .await
        .assert_error(403, "max_memories");
    let got = receiver.wait_for(1).await;
    let event = got[0].json();
    assert_eq!(
        (event["type"].clone(), event["data"]["quota"].clone()),
        (json!("quota.reached"), json!("max_memories")),
        "{event}"
    );
    assert!(event["data"]["message"].as_str().unwrap().contains("may hold 1 memories"), "{event}");
    verify(&secret, &got[0]);

    // A job whose last attempt fails (here: no model to embed with).
    let ctx = cairn::jobs::embed::EmbedContext {
        db: app.db.clone(),
        embedder: cairn::models::embed::EmbedderSlot::disabled(),
        usage: Default::default(),
        vectors: app.services.config.context_vectors.into(),
        first: cairn::jobs::EmbedFirst::new(false),
    };
    let memory_id: uuid::Uuid = id.parse().unwrap();
    let job = cairn::queue::embed::EmbedJob { tenant_id: app.a.id, memory_ids: vec![memory_id] };
    let last = cairn::queue::embed::MAX_ATTEMPTS - 1;
    cairn::jobs::embed::process(&ctx, &job, 0).await.expect_err("an earlier attempt is retried");
    cairn::jobs::embed::process(&ctx, &job, last).await.expect("the last attempt gives up");
    let got = receiver.wait_for(2).await;
    let event = got[1].json();
    assert_eq!(
        (event["type"].clone(), event["data"]["queue"].clone()),
        (json!("job.failed"), json!("cairn::embed")),
        "{event}"
    );
    assert_eq!(
        (event["data"]["memory_ids"].clone(), event["data"]["attempts"].clone()),
        (json!([id]), json!(last + 1))
    );

    // A key expiring within the week, announced once by the schedule's pass.
    let soon = chrono::Utc::now() + chrono::Duration::days(3);
    let new = cairn::tenancy::NewKey {
        scopes: vec!["read".into()],
        name: Some("ci".into()),
        expires_at: Some(soon),
        ..Default::default()
    };
    let (key, _) = cairn::auth::create_key(app.db.owner(), app.a.id, &new).await.unwrap();
    assert!(cairn::service::webhooks::announce_expiring_keys(&app.db).await.unwrap() >= 1);
    assert_eq!(cairn::service::webhooks::announce_expiring_keys(&app.db).await.unwrap(), 0, "once per key");
    let got = receiver.wait_for(3).await;
    let event = got.iter().map(Received::json).find(|e| e["type"] == "key.expiring").expect("a key.expiring event");
    assert_eq!(
        (event["data"]["key_id"].clone(), event["data"]["name"].clone()),
        (json!(key.id), json!("ci")),
        "{event}"
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    let quota_events = receiver.received().iter().filter(|g| g.json()["type"] == "quota.reached").count();
    assert_eq!(quota_events, 1, "one notice per quota and hour");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_delivering_jobs_send_each_event_once_and_in_order_per_memory() {
    // No webhook worker in this server: the test runs three delivering passes of the tenant at once.
    let receiver = Receiver::start().await;
    let app = crate::helpers::spawn_with_queues(loopback_allowed(3600), Workers::None).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let body = json!({"url": receiver.url, "event_types": ["memory.created", "memory.updated"]});
    app.post(&admin, "/api/v1/webhooks", &body).await.ok(201);
    let mut ids = Vec::new();
    for i in 0..20 {
        let id = app.store_text(&app.a.key, &format!("Event source number {i}")).await;
        app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.9})).await.ok(200);
        ids.push(id);
    }
    let sender = cairn::service::webhooks::Sender::new(&app.services.config.webhooks).unwrap();
    let pass = || cairn::service::webhooks::deliver_due(&app.services, &sender, app.a.id);
    let (a, b, c) = tokio::join!(pass(), pass(), pass());
    let (a, b, c) = (a.unwrap(), b.unwrap(), c.unwrap());
    // A memory's update waits for its creation to be delivered: passes again until all is out.
    let mut delivered = a.delivered + b.delivered + c.delivered;
    for _ in 0..10 {
        if delivered >= 40 {
            break;
        }
        delivered += pass().await.unwrap().delivered;
    }
    let got = receiver.received();
    assert_eq!((delivered, got.len()), (40, 40), "each event once");
    let unique: std::collections::HashSet<&str> = got.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(unique.len(), 40, "no event sent twice");
    for id in &ids {
        let kinds: Vec<Value> = got
            .iter()
            .map(Received::json)
            .filter(|e| e["data"]["memory_id"] == *id)
            .map(|e| e["type"].clone())
            .collect();
        assert_eq!(kinds, [json!("memory.created"), json!("memory.updated")], "memory {id} in order");
    }
}
