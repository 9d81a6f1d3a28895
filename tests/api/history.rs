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

/// The trail's snapshot names its columns one by one (writing a vector out as text only to drop it cost ~40 µs a
/// row): every column of `memories` is either in the snapshot, as `to_jsonb` of the row would have it, or left
/// out on purpose. A new column in neither list fails here.
#[tokio::test]
async fn the_trail_snapshots_every_column_of_a_memory_but_those_left_out_on_purpose() {
    let app = spawn().await;
    let vector: Vec<f32> = (0..384).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    let body = json!({"content": "snapshot me", "tags": ["a"], "metadata": {"k": 1}, "embedding": vector,
                      "episode_id": "e", "sequence_number": 1, "t_valid": "2026-01-01T00:00:00Z"});
    let id = app.store(&app.a.key, body).await["id"].as_str().unwrap().to_owned();
    let history = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    let after = history["events"][0]["after"].as_object().unwrap().clone();
    let mut shown: Vec<&str> = after.keys().map(String::as_str).collect();
    shown.sort_unstable();

    let mut conn = app.superuser_conn().await;
    let columns: Vec<String> = sqlx::query_scalar(
        "SELECT column_name::text FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'memories'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let left_out = cairn::store::events::SNAPSHOT_LEAVES_OUT;
    let mut expected: Vec<&str> = columns.iter().map(String::as_str).filter(|c| !left_out.contains(c)).collect();
    expected.sort_unstable();
    assert_eq!(shown, expected, "columns of memories in neither the snapshot nor SNAPSHOT_LEAVES_OUT");
    assert!(left_out.iter().all(|c| columns.iter().any(|k| k == c)), "{left_out:?} names a column memories lacks");

    // Each value as `to_jsonb` of the row gives it.
    let sql = "SELECT to_jsonb(m) FROM memories m WHERE id = $1::uuid";
    let whole: serde_json::Value = sqlx::query_scalar(sql).bind(&id).fetch_one(&mut conn).await.unwrap();
    for (column, value) in &after {
        assert_eq!(&whole[column], value, "{column}");
    }
}
