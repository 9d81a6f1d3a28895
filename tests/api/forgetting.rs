//! The lifecycle rules at their boundaries: expiry (2 vs 3 accesses), promote and restore by hand,
//! importance decay (floor, flashbulb day 29 vs 31), active forgetting (off by default, each guard),
//! retention, settings — and a year of simulated days showing that nothing protected or in use is lost.

use chrono::{Duration, Utc};
use serde_json::{json, Value};

use crate::helpers::{new_key, spawn, TestApp};

async fn sql(app: &TestApp, statement: &str, id: &str) {
    let mut conn = app.superuser_conn().await;
    sqlx::query(statement).bind(id).execute(&mut conn).await.unwrap();
}

async fn field(app: &TestApp, id: &str, column: &str) -> Value {
    let mut conn = app.superuser_conn().await;
    let q = format!("SELECT to_jsonb({column}) FROM memories WHERE id = $1::uuid");
    sqlx::query_scalar::<_, Option<Value>>(&q).bind(id).fetch_one(&mut conn).await.unwrap().unwrap_or(Value::Null)
}

async fn events(app: &TestApp, key: &str, id: &str) -> Vec<String> {
    let history = app.get(key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    history["events"].as_array().unwrap().iter().map(|e| e["event_type"].as_str().unwrap().to_owned()).collect()
}

async fn store(app: &TestApp, key: &str, body: Value) -> String {
    app.store(key, body).await["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn expiry_promotes_at_three_accesses_not_two_and_both_can_be_undone_by_hand() {
    let app = spawn().await;
    let key = &app.a.key;
    let two = store(&app, key, json!({"content": "accessed twice", "ttl": 60})).await;
    let three = store(&app, key, json!({"content": "accessed three times", "ttl": 60})).await;
    sql(&app, "UPDATE memories SET access_count = 2 WHERE id = $1::uuid", &two).await;
    sql(&app, "UPDATE memories SET access_count = 3 WHERE id = $1::uuid", &three).await;
    cairn::jobs::expire::run_once(&app.db, Utc::now() + Duration::minutes(2)).await.unwrap();
    assert!(!field(&app, &two, "archived_at").await.is_null());
    assert_eq!(field(&app, &three, "memory_type").await, "long_term");

    // Restore brings the archived one back, as long-term since its time is up.
    let restored = app.post(key, &format!("/api/v1/memories/{two}/restore"), &json!({})).await.ok(200).clone();
    assert!(restored["archived_at"].is_null());
    assert_eq!((restored["memory_type"].as_str(), restored["expires_at"].is_null()), (Some("long_term"), true));
    assert_eq!(events(&app, key, &two).await, ["created", "archived", "restored"]);
    let found = app.post(key, "/api/v1/recall", &json!({"query": "accessed twice"})).await.ok(200).clone();
    assert_eq!(found["results"][0]["memory"]["id"], two.as_str());
    // Restoring again changes nothing and records nothing.
    app.post(key, &format!("/api/v1/memories/{two}/restore"), &json!({})).await.ok(200);
    assert_eq!(events(&app, key, &two).await.len(), 3);

    // Promote by hand.
    let short = store(&app, key, json!({"content": "keep me", "ttl": 3600})).await;
    let promoted = app.post(key, &format!("/api/v1/memories/{short}/promote"), &json!({})).await.ok(200).clone();
    assert_eq!((promoted["memory_type"].as_str(), promoted["expires_at"].is_null()), (Some("long_term"), true));
    assert_eq!(events(&app, key, &short).await, ["created", "promoted"]);
    app.post(key, &format!("/api/v1/memories/{short}/promote"), &json!({})).await.ok(200);
    assert_eq!(events(&app, key, &short).await.len(), 2, "already long-term: nothing to record");

    let ghost = uuid::Uuid::new_v4();
    app.post(key, &format!("/api/v1/memories/{ghost}/promote"), &json!({})).await.assert_error(404, "not found");
    // Another tenant cannot promote or restore A's memories.
    app.post(&app.b.key, &format!("/api/v1/memories/{short}/promote"), &json!({})).await.assert_error(404, "not found");
    app.post(&app.b.key, &format!("/api/v1/memories/{two}/restore"), &json!({})).await.assert_error(404, "not found");
}

#[tokio::test]
async fn importance_decays_daily_to_a_floor_and_not_under_flashbulb_protection() {
    let app = spawn().await;
    let key = &app.a.key;
    let ten_days = store(&app, key, json!({"content": "ten days old", "importance": 0.8})).await;
    let ancient = store(&app, key, json!({"content": "ancient", "importance": 0.8})).await;
    let day29 = store(&app, key, json!({"content": "flashbulb day 29", "importance": 0.8})).await;
    let day31 = store(&app, key, json!({"content": "flashbulb day 31", "importance": 0.8})).await;
    let short = store(&app, key, json!({"content": "short-term", "importance": 0.8, "ttl": 999999})).await;
    let fresh = store(&app, key, json!({"content": "fresh", "importance": 0.8})).await;
    sql(&app, "UPDATE memories SET created_at = now() - interval '10 days' WHERE id = $1::uuid", &ten_days).await;
    sql(&app, "UPDATE memories SET created_at = now() - interval '1000 days' WHERE id = $1::uuid", &ancient).await;
    // Flashbulb protection lasts 30 days from creation.
    for (id, age) in [(&day29, 29), (&day31, 31)] {
        let q = format!(
            "UPDATE memories SET created_at = now() - interval '{age} days',
                    flashbulb_until = now() - interval '{age} days' + interval '30 days' WHERE id = $1::uuid"
        );
        sql(&app, &q, id).await;
    }
    sql(&app, "UPDATE memories SET created_at = now() - interval '100 days' WHERE id = $1::uuid", &short).await;
    let now = Utc::now(); // after the database's now() above, so "ten days" is at least ten days

    let report = cairn::service::lifecycle::apply(&app.db, now, cairn::service::lifecycle::Rules::ALL).await.unwrap();
    assert_eq!(report.decayed, 3, "{report:?}");
    let importance = |id: String| {
        let app = &app;
        async move { field(app, &id, "importance").await.as_f64().unwrap() }
    };
    assert!((importance(ten_days.clone()).await - 0.8 * 0.995_f64.powi(10)).abs() < 1e-4);
    assert!((importance(ancient.clone()).await - 0.24).abs() < 1e-4, "floored at 30% of 0.8");
    assert_eq!(importance(day29.clone()).await, 0.8, "still protected");
    // Protection ended a day ago: one day of decay, not thirty.
    assert!((importance(day31.clone()).await - 0.8 * 0.995).abs() < 1e-4);
    assert_eq!(importance(short.clone()).await, 0.8, "short-term memories do not decay");
    assert_eq!(importance(fresh.clone()).await, 0.8, "less than a day old");
    assert_eq!(events(&app, key, &ten_days).await, ["created", "decayed"]);

    // At most once a day: an hour later nothing changes; a day later it decays again.
    let again =
        cairn::service::lifecycle::apply(&app.db, now + Duration::hours(1), cairn::service::lifecycle::Rules::ALL)
            .await
            .unwrap();
    assert_eq!(again.decayed, 0);
    cairn::service::lifecycle::apply(&app.db, now + Duration::days(1), cairn::service::lifecycle::Rules::ALL)
        .await
        .unwrap();
    assert!((importance(ten_days.clone()).await - 0.8 * 0.995_f64.powi(11)).abs() < 1e-4);
    // An owner who sets importance sets the new floor's base.
    app.patch(key, &format!("/api/v1/memories/{ancient}"), &json!({"importance": 0.5})).await.ok(200);
    assert_eq!(field(&app, &ancient, "base_importance").await.as_f64(), Some(0.5));
    // ... and the decay clock restarts: a day later it has decayed by one day, not by a thousand.
    cairn::service::lifecycle::apply(
        &app.db,
        Utc::now() + Duration::days(1) + Duration::hours(1),
        cairn::service::lifecycle::Rules::ALL,
    )
    .await
    .unwrap();
    let after = importance(ancient.clone()).await;
    assert!((0.49..0.5).contains(&after), "{after}");
}

#[tokio::test]
async fn forgetting_is_off_by_default_and_spares_every_protected_memory() {
    let app = spawn().await;
    let key = &app.a.key;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let stale = |content: &str, extra: Value| {
        let mut body = json!({"content": content, "importance": 0.3});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let plain = store(&app, key, stale("stale note", json!({}))).await;
    let important = store(&app, key, stale("important note", json!({"importance": 0.7}))).await;
    let decision = store(&app, key, stale("a decision note", json!({"type": "Decision"}))).await;
    let insight = store(&app, key, stale("an insight note", json!({"type": "Insight"}))).await;
    let young = store(&app, key, stale("young note", json!({}))).await;
    let used = store(&app, key, stale("recently used note", json!({}))).await;
    let flash = store(&app, key, stale("flashbulb note", json!({}))).await;
    for id in [&plain, &important, &decision, &insight, &used, &flash] {
        sql(&app, "UPDATE memories SET created_at = now() - interval '100 days' WHERE id = $1::uuid", id).await;
    }
    sql(&app, "UPDATE memories SET created_at = now() - interval '89 days' WHERE id = $1::uuid", &young).await;
    // Health: long-term loses 2 a day since the last access; 49 days idle leaves 2, 51 leaves none.
    sql(&app, "UPDATE memories SET last_accessed_at = now() - interval '49 days' WHERE id = $1::uuid", &used).await;
    sql(&app, "UPDATE memories SET flashbulb_until = now() + interval '1 day' WHERE id = $1::uuid", &flash).await;

    let report =
        cairn::service::lifecycle::apply(&app.db, Utc::now(), cairn::service::lifecycle::Rules::ALL).await.unwrap();
    assert_eq!(report.forgotten, 0, "off unless the tenant turns it on");

    let settings = app.get(key, "/api/v1/settings").await.ok(200).clone();
    assert_eq!(
        settings,
        json!({"forgetting_enabled": false, "forgetting_grace_days": 90, "archive_retention_days": null, "undo_days": 7,
               "read_keys_strengthen": false})
    );
    app.patch(key, "/api/v1/settings", &json!({"forgetting_enabled": true})).await.assert_error(403, "admin");
    app.patch(&admin, "/api/v1/settings", &json!({"forgetting_grace_days": -1}))
        .await
        .assert_error(400, "forgetting_grace_days: must be between 0 and 3650");
    app.patch(&admin, "/api/v1/settings", &json!({"archive_retention_days": 0}))
        .await
        .assert_error(400, "archive_retention_days: must be between 1 and 36500");
    let on = app.patch(&admin, "/api/v1/settings", &json!({"forgetting_enabled": true})).await.ok(200).clone();
    assert_eq!(on["forgetting_enabled"], true);
    assert_eq!(app.get(&app.b.key, "/api/v1/settings").await.ok(200)["forgetting_enabled"], false, "per tenant");

    let report =
        cairn::service::lifecycle::apply(&app.db, Utc::now(), cairn::service::lifecycle::Rules::ALL).await.unwrap();
    assert_eq!(report.forgotten, 1, "only the plain stale note");
    assert!(!field(&app, &plain, "archived_at").await.is_null());
    for id in [&important, &decision, &insight, &young, &used, &flash] {
        assert!(field(&app, id, "archived_at").await.is_null(), "{id} was forgotten");
    }
    assert_eq!(events(&app, key, &plain).await, ["created", "decayed", "forgotten"]);
    // Two days on: the used note's health is gone, the young one is past its grace, the flashbulb one past
    // its protection; importance, type and the guard of 0.7 still hold.
    let report = cairn::service::lifecycle::apply(
        &app.db,
        Utc::now() + Duration::days(2),
        cairn::service::lifecycle::Rules::ALL,
    )
    .await
    .unwrap();
    assert_eq!(report.forgotten, 3);
    for id in [&important, &decision, &insight] {
        assert!(field(&app, id, "archived_at").await.is_null(), "{id} was forgotten");
    }
    // Forgotten is archived, not lost: listed with include_archived, and restorable.
    assert_eq!(app.count(key).await, 7);
    app.post(key, &format!("/api/v1/memories/{plain}/restore"), &json!({})).await.ok(200);
    let report =
        cairn::service::lifecycle::apply(&app.db, Utc::now(), cairn::service::lifecycle::Rules::ALL).await.unwrap();
    assert_eq!(report.forgotten, 0, "a restore counts as an access");
}

#[tokio::test]
async fn retention_deletes_long_archived_memories_only_when_set() {
    let app = spawn().await;
    let key = &app.a.key;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let old = store(&app, key, json!({"content": "archived long ago"})).await;
    let recent = store(&app, key, json!({"content": "archived lately"})).await;
    sql(&app, "UPDATE memories SET archived_at = now() - interval '31 days' WHERE id = $1::uuid", &old).await;
    sql(&app, "UPDATE memories SET archived_at = now() - interval '29 days' WHERE id = $1::uuid", &recent).await;
    assert_eq!(
        cairn::service::lifecycle::apply(&app.db, Utc::now(), cairn::service::lifecycle::Rules::ALL)
            .await
            .unwrap()
            .purged,
        0,
        "off by default"
    );
    app.patch(&admin, "/api/v1/settings", &json!({"archive_retention_days": 30})).await.ok(200);
    assert_eq!(
        cairn::service::lifecycle::apply(&app.db, Utc::now(), cairn::service::lifecycle::Rules::ALL)
            .await
            .unwrap()
            .purged,
        1
    );
    assert_eq!(app.count(key).await, 1);
    assert_eq!(events(&app, key, &old).await, ["created", "deleted"], "the trail outlives it");
    let off = app.patch(&admin, "/api/v1/settings", &json!({"archive_retention_days": null})).await.ok(200).clone();
    assert!(off["archive_retention_days"].is_null());
}

/// A year of daily lifecycle passes over a realistic store with forgetting on: every protected or
/// regularly used memory is still recallable at the end, and nothing at all is deleted.
#[tokio::test]
async fn a_simulated_year_keeps_every_protected_and_used_memory_recallable() {
    let app = spawn().await;
    let key = &app.a.key;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    app.patch(&admin, "/api/v1/settings", &json!({"forgetting_enabled": true})).await.ok(200);
    let kinds = ["Decision", "Insight", "Pattern", "Context", "Habit", "Preference"];
    let mut protected = Vec::new();
    let mut used = Vec::new();
    let mut ordinary = Vec::new();
    for i in 0..120 {
        let kind = kinds[i % kinds.len()];
        let importance = [0.9, 0.75, 0.5, 0.3][i % 4];
        let body =
            json!({"content": format!("memory number {i} about topic{i}"), "type": kind, "importance": importance});
        let id = store(&app, key, body).await;
        if kind == "Decision" || kind == "Insight" || importance >= 0.7 {
            protected.push((i, id));
        } else if i % 3 == 0 {
            used.push((i, id));
        } else {
            ordinary.push((i, id));
        }
    }
    let start = Utc::now();
    let mut conn = app.superuser_conn().await;
    for day in 1..=365 {
        let now = start + Duration::days(day);
        if day % 7 == 0 {
            let ids: Vec<uuid::Uuid> = used.iter().map(|(_, id)| id.parse().unwrap()).collect();
            sqlx::query(
                "UPDATE memories SET last_accessed_at = $2, access_count = access_count + 1 WHERE id = ANY($1)",
            )
            .bind(&ids)
            .bind(now)
            .execute(&mut conn)
            .await
            .unwrap();
        }
        cairn::service::lifecycle::apply(&app.db, now, cairn::service::lifecycle::Rules::ALL).await.unwrap();
    }
    for (i, id) in protected.iter().chain(&used) {
        let found = app.post(key, "/api/v1/recall", &json!({"query": format!("topic{i}")})).await.ok(200).clone();
        assert_eq!(found["results"][0]["memory"]["id"], id.as_str(), "memory {i} lost after a year: {found}");
    }
    let archived: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE archived_at IS NOT NULL")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(archived as usize, ordinary.len(), "only idle, unprotected memories are forgotten");
    assert_eq!(app.count(key).await, 120, "forgetting archives; nothing is deleted");
    // Decay floored every importance at 30% of what it was given.
    let below: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memories WHERE importance < base_importance * 0.3 - 1e-6")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!(below, 0);
}
