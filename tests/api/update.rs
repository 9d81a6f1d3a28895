//! PATCH and PUT /api/v1/memories/{id}: partial updates.

use serde_json::json;

use crate::helpers::spawn;

#[tokio::test]
async fn patch_updates_only_the_given_fields() {
    let app = spawn().await;
    let before = app
        .store(
            &app.a.key,
            json!({"content": "orig", "tags": ["a"], "metadata": {"key1": "val1"}, "user_id": "u1", "importance": 0.4}),
        )
        .await;
    let id = before["id"].as_str().unwrap();
    let after = app
        .patch(
            &app.a.key,
            &format!("/api/v1/memories/{id}"),
            &json!({"id": "ignored", "importance": 0.95, "metadata": {"key2": "val2"}, "tags": ["x:y/z"], "type": "insight", "user_id": null}),
        )
        .await
        .ok(200)
        .clone();
    assert_eq!(after["id"], id);
    assert_eq!(after["importance"], 0.95);
    assert_eq!(after["metadata"], json!({"key2": "val2"}), "metadata replaces, never merges");
    assert_eq!(after["tags"], json!(["x:y/z"]));
    assert_eq!(after["tag_prefixes"], json!(["x", "x:y", "x:y/z"]));
    assert_eq!(after["type"], "Insight");
    assert!(after["user_id"].is_null(), "null clears a nullable field");
    assert_eq!(after["content"], "orig");
    assert_eq!(after["content_hash"], before["content_hash"]);
    assert_ne!(after["updated_at"], before["updated_at"]);
    assert_eq!(after["created_at"], before["created_at"]);
}

#[tokio::test]
async fn a_content_change_rehashes_and_resets_the_embedding() {
    let app = spawn().await;
    let before = app.store(&app.a.key, json!({"content": "old text", "embedding": vec![0.5_f32; 384]})).await;
    assert_eq!(before["embedding_status"], "ready");
    let id = before["id"].as_str().unwrap();
    let after =
        app.put(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"content": "new text"})).await.ok(200).clone();
    assert_eq!(after["content"], "new text");
    assert_ne!(after["content_hash"], before["content_hash"]);
    assert_eq!(after["embedding_status"], "pending");
    assert!(after["embedding_model"].is_null());
    let mut conn = app.superuser_conn().await;
    let has_vector: bool = sqlx::query_scalar("SELECT embedding IS NOT NULL FROM memories WHERE id = $1::uuid")
        .bind(id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert!(!has_vector);
    // The same content again (case aside) keeps the embedding.
    let same = app
        .patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"embedding": vec![0.1_f32; 384]}))
        .await
        .ok(200)
        .clone();
    assert_eq!(same["embedding_status"], "ready");
}

#[tokio::test]
async fn ttl_and_lifecycle_changes() {
    let app = spawn().await;
    let id = app.store(&app.a.key, json!({"content": "temp", "ttl": 60})).await["id"].as_str().unwrap().to_owned();
    let longer = app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"ttl": 7200})).await.ok(200).clone();
    assert_eq!(longer["ttl"], 7200);
    let promoted = app
        .patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"memory_type": "long_term"}))
        .await
        .ok(200)
        .clone();
    assert!(promoted["expires_at"].is_null() && promoted["ttl"].is_null());
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"ttl": 60}))
        .await
        .assert_error(400, "ttl: only applies to short_term");
}

#[tokio::test]
async fn invalid_updates_are_rejected_without_a_change() {
    let app = spawn().await;
    let other = app.store_text(&app.a.key, "taken").await;
    let id = app.store_text(&app.a.key, "mine").await;
    let path = format!("/api/v1/memories/{id}");
    app.patch(&app.a.key, &path, &json!({})).await.assert_error(400, "body: no updatable field given");
    app.patch(&app.a.key, &path, &json!({"importance": 3}))
        .await
        .assert_error(400, "importance: must be between 0 and 1");
    app.patch(&app.a.key, &path, &json!({"content": ""})).await.assert_error(400, "content: must not be empty");
    app.patch(&app.a.key, &path, &json!({"tags": 5})).await.assert_error(400, "tags: must be an array");
    app.patch(&app.a.key, &path, &json!({"t_valid": "2025-01-02", "t_invalid": "2025-01-01"}))
        .await
        .assert_error(400, "t_invalid");
    app.patch(&app.a.key, &path, &json!({"embedding": [1.0]}))
        .await
        .assert_error(400, "embedding must contain exactly 384 values");
    let dup = app.patch(&app.a.key, &path, &json!({"content": "TAKEN"})).await;
    dup.assert_error(409, "already exists");
    assert_eq!(dup.body["existing_id"], other.as_str());
    let unchanged = app.get(&app.a.key, &path).await.ok(200).clone();
    assert_eq!((unchanged["content"].clone(), unchanged["importance"].clone()), (json!("mine"), json!(0.5)));
    app.patch(&app.a.key, &format!("/api/v1/memories/{}", uuid::Uuid::new_v4()), &json!({"importance": 0.1}))
        .await
        .assert_error(404, "not found");
}
