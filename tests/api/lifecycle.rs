//! remem's lifecycle rules: flashbulb memories, TTL, and expiry (promotion or archive).

use chrono::{Duration, Utc};
use serde_json::json;

use crate::helpers::{spawn, time};

#[tokio::test]
async fn high_arousal_makes_a_protected_long_term_memory() {
    let app = spawn().await;
    let m = app
        .store(
            &app.a.key,
            json!({"content": "The outage cost a major client", "arousal": 0.9, "emotional_valence": -0.8,
                   "memory_type": "short_term", "ttl": 60, "importance": 0.2}),
        )
        .await;
    assert_eq!(m["memory_type"], "long_term");
    assert_eq!(m["importance"], 0.9);
    assert!(m["expires_at"].is_null() && m["ttl"].is_null());
    let protected_for = time(&m["flashbulb_until"]) - Utc::now();
    assert!((protected_for - Duration::days(30)).num_seconds().abs() < 60, "{protected_for}");

    let exactly = app
        .store(&app.a.key, json!({"content": "at the threshold", "emotional_arousal": 0.8, "importance": 0.95}))
        .await;
    assert_eq!(exactly["importance"], 0.95, "the floor never lowers importance");
    assert!(!exactly["flashbulb_until"].is_null());

    let calm = app.store(&app.a.key, json!({"content": "calm", "arousal": 0.79})).await;
    assert!(calm["flashbulb_until"].is_null());
    assert_eq!(calm["importance"], 0.5);
}

#[tokio::test]
async fn raising_arousal_later_is_not_retroactively_flashbulb() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "calm at first").await;
    let m = app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"arousal": 0.95})).await.ok(200).clone();
    assert_eq!(m["emotional_arousal"], 0.95);
    assert!(m["flashbulb_until"].is_null());
    assert_eq!(m["importance"], 0.5);
}

#[tokio::test]
async fn short_term_ttl_sets_expires_at() {
    let app = spawn().await;
    let m = app
        .store(&app.a.key, json!({"content": "working on the Q3 report", "memory_type": "short_term", "ttl": 86400}))
        .await;
    assert_eq!(m["memory_type"], "short_term");
    assert_eq!(m["ttl"], 86400);
    let lives = time(&m["expires_at"]) - Utc::now();
    assert!((lives - Duration::seconds(86400)).num_seconds().abs() < 60, "{lives}");

    let implied = app.store(&app.a.key, json!({"content": "ttl alone implies short term", "ttl": 60})).await;
    assert_eq!(implied["memory_type"], "short_term");

    let no_ttl = app.store(&app.a.key, json!({"content": "short, no ttl", "memory_type": "short_term"})).await;
    assert!(no_ttl["expires_at"].is_null());
}

#[tokio::test]
async fn expiry_promotes_accessed_memories_and_archives_the_rest() {
    let app = spawn().await;
    let keep =
        app.store(&app.a.key, json!({"content": "used a lot", "ttl": 60})).await["id"].as_str().unwrap().to_owned();
    let drop =
        app.store(&app.a.key, json!({"content": "never used", "ttl": 60})).await["id"].as_str().unwrap().to_owned();
    let later =
        app.store(&app.a.key, json!({"content": "not yet due", "ttl": 86400})).await["id"].as_str().unwrap().to_owned();
    for _ in 0..3 {
        app.get(&app.a.key, &format!("/api/v1/memories/{keep}")).await.ok(200);
    }
    // Nothing is due now.
    let report = cairn::jobs::expire::run_once(&app.db, Utc::now()).await.unwrap();
    assert_eq!((report.promoted, report.archived), (0, 0));

    // Two minutes on, the 60 s memories are due; time is injected rather than waited for.
    let report = cairn::jobs::expire::run_once(&app.db, Utc::now() + Duration::minutes(2)).await.unwrap();
    assert_eq!((report.promoted, report.archived), (1, 1));
    let kept = app.get(&app.a.key, &format!("/api/v1/memories/{keep}")).await.ok(200).clone();
    assert_eq!(kept["memory_type"], "long_term");
    assert!(kept["expires_at"].is_null() && kept["archived_at"].is_null());
    let archived = app.get(&app.a.key, &format!("/api/v1/memories/{drop}")).await.ok(200).clone();
    assert!(!archived["archived_at"].is_null(), "archived, never deleted");
    let pending = app.get(&app.a.key, &format!("/api/v1/memories/{later}")).await.ok(200).clone();
    assert_eq!(pending["memory_type"], "short_term");

    // Archived memories leave the default listing but stay reachable.
    let listed = app.get(&app.a.key, "/api/v1/memories").await.ok(200).clone();
    assert_eq!(listed["total"], 2);
    assert_eq!(app.count(&app.a.key).await, 3);

    // Idempotent: a second pass finds nothing more.
    let again = cairn::jobs::expire::run_once(&app.db, Utc::now() + Duration::minutes(2)).await.unwrap();
    assert_eq!((again.promoted, again.archived), (0, 0));
    let history = app.get(&app.a.key, &format!("/api/v1/memories/{drop}/history")).await.ok(200).clone();
    let kinds: Vec<_> = history["events"].as_array().unwrap().iter().map(|e| e["event_type"].clone()).collect();
    assert_eq!(kinds, [json!("created"), json!("archived")]);
}
