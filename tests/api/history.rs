//! GET /api/v1/memories/{id}/history: the audit trail, oldest first.

use serde_json::json;

use crate::helpers::spawn;

#[tokio::test]
async fn history_lists_every_change_oldest_first_and_outlives_the_memory() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "v1").await;
    let path = format!("/api/v1/memories/{id}");
    app.patch(&app.a.key, &path, &json!({"content": "v2"})).await.ok(200);
    app.patch(&app.a.key, &path, &json!({"importance": 0.8})).await.ok(200);
    app.delete(&app.a.key, &format!("{path}?hard=true")).await.ok(200);
    let history = app.get(&app.a.key, &format!("{path}/history")).await.ok(200).clone();
    let events = history["events"].as_array().unwrap();
    let kinds: Vec<_> = events.iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["created", "updated", "updated", "deleted"]);
    assert!(events[0]["before"].is_null());
    assert_eq!(events[0]["after"]["content"], "v1");
    assert_eq!(events[1]["before"]["content"], "v1");
    assert_eq!(events[1]["after"]["content"], "v2");
    assert_eq!(events[2]["after"]["importance"], 0.8);
    assert_eq!(events[3]["before"]["content"], "v2");
    assert!(events[3]["after"].is_null());
    assert!(events.iter().all(|e| e["actor"].as_str().unwrap().starts_with("key:")));
    assert!(events[0].get("embedding").is_none() && events[0]["after"].get("embedding").is_none());
    let ids: Vec<i64> = events.iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
}

#[tokio::test]
async fn history_of_an_unknown_memory_is_404() {
    let app = spawn().await;
    app.get(&app.a.key, &format!("/api/v1/memories/{}/history", uuid::Uuid::new_v4()))
        .await
        .assert_error(404, "not found");
}
