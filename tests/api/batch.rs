//! POST /api/v1/memories/batch: 1..=500 items, all or nothing, errors naming the index.

use serde_json::{json, Value};

use crate::helpers::spawn;

fn items(n: usize) -> Vec<Value> {
    (0..n).map(|i| json!({"content": format!("batch memory number {i}")})).collect()
}

#[tokio::test]
async fn a_batch_is_stored_whole() {
    let app = spawn().await;
    let res = app
        .post(
            &app.a.key,
            "/api/v1/memories/batch",
            &json!({"memories": [
                {"content": "Prefer PostgreSQL for transactional workloads", "type": "Preference", "importance": 0.9},
                {"content": "Redis is the session cache", "tags": "infra,cache", "arousal": 0.85}
            ]}),
        )
        .await;
    let body = res.ok(201);
    assert_eq!(body["stored"], 2);
    assert_eq!(body["memory_ids"].as_array().unwrap().len(), 2);
    assert_eq!(body["memories"][0]["type"], "Preference");
    assert_eq!(body["memories"][1]["tags"], json!(["infra", "cache"]));
    assert!(!body["memories"][1]["flashbulb_until"].is_null(), "creation rules apply to batch items");
    assert_eq!(body["memory_ids"][0], body["memories"][0]["id"]);
    assert_eq!(app.count(&app.a.key).await, 2);
}

#[tokio::test]
async fn five_hundred_items_are_accepted_and_501_rejected() {
    let app = spawn().await;
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": items(501)}))
        .await
        .assert_error(400, "memories: at most 500 items (got 501)");
    assert_eq!(app.count(&app.a.key).await, 0);
    let res = app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": items(500)})).await;
    assert_eq!(res.ok(201)["stored"], 500);
    assert_eq!(app.count(&app.a.key).await, 500);
}

#[tokio::test]
async fn malformed_batches_are_400s() {
    let app = spawn().await;
    let cases = [
        (json!([{"content": "bare array"}]), "not a bare array"),
        (json!({"memories": []}), "memories: must not be empty"),
        (json!({}), "memories: is required"),
        (json!({"memories": {"content": "x"}}), "memories: must be an array"),
        (json!("text"), "body: must be an object"),
    ];
    for (body, needle) in cases {
        app.post(&app.a.key, "/api/v1/memories/batch", &body).await.assert_error(400, needle);
    }
}

#[tokio::test]
async fn one_bad_item_rejects_the_batch_and_names_its_index() {
    let app = spawn().await;
    let mut memories = items(4);
    memories[2] = json!({"importance": 0.5});
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": memories.clone()}))
        .await
        .assert_error(400, "memories[2].content: is required");
    memories[2] = json!({"content": "ok", "importance": "very"});
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": memories.clone()}))
        .await
        .assert_error(400, "memories[2].importance: invalid type");
    memories[2] = json!({"content": "ok", "confidence": 7});
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": memories}))
        .await
        .assert_error(400, "memories[2].confidence: must be between 0 and 1");
    assert_eq!(app.count(&app.a.key).await, 0);
}

#[tokio::test]
async fn duplicates_reject_the_whole_batch() {
    let app = spawn().await;
    let existing = app.store_text(&app.a.key, "already stored").await;
    let res = app
        .post(
            &app.a.key,
            "/api/v1/memories/batch",
            &json!({"memories": [{"content": "new one"}, {"content": "Already  Stored"}], "on_duplicate": "error"}),
        )
        .await;
    res.assert_error(409, "memories[1].content");
    assert_eq!(res.body["existing_id"], existing.as_str());
    let twice = json!({"memories": [{"content": "twice"}, {"content": "TWICE"}], "on_duplicate": "error"});
    app.post(&app.a.key, "/api/v1/memories/batch", &twice)
        .await
        .assert_error(409, "memories[1].content: duplicates memories[0].content");
    assert_eq!(app.count(&app.a.key).await, 1, "nothing of either batch was stored");
}

/// Every field a single store keeps, a batch (one statement for all its items) keeps alike.
#[tokio::test]
async fn a_batch_item_keeps_every_field_a_single_store_keeps() {
    let app = spawn().await;
    let key = &app.a.key;
    let vector: Vec<f32> = (0..384).map(|i| ((i % 7) as f32 - 3.0) / 10.0).collect();
    let item = |content: &str| {
        json!({
            "content": content, "type": "Decision", "confidence": 0.8, "memory_type": "short_term",
            "tags": ["project:alpha", "db"], "importance": 0.7, "metadata": {"source": "chat", "n": 3},
            "emotion": "joy", "emotional_valence": 0.5, "emotional_arousal": 0.25,
            "episode_id": "ep-1", "sequence_number": 4, "user_id": "u1", "agent_id": "a1", "run_id": "r1",
            "t_valid": "2024-01-02T03:04:05.123456Z", "t_invalid": "2025-01-02T03:04:05Z",
            "created_at": "2024-01-01T00:00:00.654321Z", "embedding": vector,
        })
    };
    let single = app.store(key, item("stored alone")).await;
    let id = single["memory_id"].as_str().or(single["id"].as_str()).unwrap().to_owned();
    let res = app
        .post(key, "/api/v1/memories/batch", &json!({"memories": [item("stored in a batch"), {"content": "plain"}]}))
        .await;
    let batch_id = res.ok(201)["memory_ids"][0].as_str().unwrap().to_owned();
    let alone = app.get(key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    let batched = app.get(key, &format!("/api/v1/memories/{batch_id}")).await.ok(200).clone();
    let (alone, batched) = (alone.get("memory").unwrap_or(&alone), batched.get("memory").unwrap_or(&batched));
    let fields = alone.as_object().unwrap();
    assert!(fields.len() > 20, "{alone}");
    for (field, value) in fields {
        if ["id", "content", "content_hash", "updated_at", "last_accessed_at"].contains(&field.as_str()) {
            continue;
        }
        assert_eq!(&batched[field], value, "{field}");
    }
    assert_eq!(batched["embedding_status"], "ready");
    // With `on_duplicate: error`, a repeat of stored content rejects the batch.
    let body = json!({"memories": [{"content": "plain"}, {"content": "new one"}], "on_duplicate": "error"});
    let res = app.post(key, "/api/v1/memories/batch", &body).await;
    assert_eq!(res.status, 409, "{:?}", res.body);
}

/// A transcript says "ok" and "haha" more than once: stored as it comes, each item answered with its id.
#[tokio::test]
async fn a_conversation_with_repeated_turns_is_stored_as_on_duplicate_says() {
    let app = spawn().await;
    let key = &app.a.key;
    let turns = |session: &str| -> Vec<Value> {
        ["ok", "haha", "OK", "the release is on Friday", "haha"]
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"content": t, "episode_id": session, "sequence_number": i}))
            .collect()
    };
    let created = |res: &Value| -> Vec<bool> {
        res["items"].as_array().unwrap().iter().map(|i| i["created"].as_bool().unwrap()).collect()
    };
    let ids = |res: &Value| -> Vec<String> {
        res["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect()
    };

    // `existing` (the default): a repeat answers with the memory stored first.
    let first = app.post(key, "/api/v1/memories/batch", &json!({"memories": turns("s1")})).await.ok(201).clone();
    assert_eq!(created(&first), [true, true, false, true, false], "{first}");
    let first_ids = ids(&first);
    assert_eq!((first_ids[2].clone(), first_ids[4].clone()), (first_ids[0].clone(), first_ids[1].clone()));
    assert_eq!(first["stored"], 3);
    assert_eq!(first["memory_ids"], json!(first_ids));
    assert_eq!(app.count(key).await, 3);

    // `store`: every turn its own memory, in its episode, the repeats marked.
    let second = app
        .post(key, "/api/v1/memories/batch", &json!({"memories": turns("s2"), "on_duplicate": "store"}))
        .await
        .ok(201)
        .clone();
    assert_eq!(created(&second), [true; 5], "{second}");
    let second_ids = ids(&second);
    assert!(second_ids.iter().all(|id| !first_ids.contains(id)), "{second}");
    let repeated: Vec<bool> =
        second["memories"].as_array().unwrap().iter().map(|m| m["repeated"].as_bool().unwrap()).collect();
    assert_eq!(repeated, [true; 5], "each repeats what s1 stored (its third turn repeats its first, too)");
    assert_eq!(app.count(key).await, 8);
    let episode = app.get(key, "/api/v1/memories?limit=50").await.ok(200).clone();
    let in_s2 = episode["memories"].as_array().unwrap().iter().filter(|m| m["episode_id"] == "s2").count();
    assert_eq!(in_s2, 5);

    // `error`: the whole batch refused, naming the first repeat; nothing stored.
    let refused =
        app.post(key, "/api/v1/memories/batch", &json!({"memories": turns("s3"), "on_duplicate": "error"})).await;
    refused.assert_error(409, "memories[0].content");
    assert_eq!(app.count(key).await, 8);
    // Set on the batch, not on an item; only the three values.
    let on_item = json!({"memories": [{"content": "x", "on_duplicate": "store"}]});
    app.post(key, "/api/v1/memories/batch", &on_item).await.assert_error(400, "memories[0].on_duplicate");
    for bad in [json!("twice"), json!(3)] {
        let body = json!({"memories": [{"content": "x"}], "on_duplicate": bad});
        app.post(key, "/api/v1/memories/batch", &body).await.assert_error(400, "on_duplicate");
    }
    // AutoMem's batch takes it too.
    let automem = app
        .post(key, "/memory/batch", &json!({"memories": [{"content": "haha"}], "on_duplicate": "store"}))
        .await
        .ok(201)
        .clone();
    assert_eq!(automem["deduplicated"], json!([]), "{automem}");
    assert_eq!(app.count(key).await, 9);

    // A repeat deleted and restored comes back beside the memory it repeats (it duplicates nothing).
    let repeat = &second_ids[0];
    app.delete(key, &format!("/api/v1/memories/{repeat}?hard=true")).await.ok(200);
    app.post(key, &format!("/api/v1/memories/{repeat}/restore"), &json!({})).await.ok(200);
    // A repeat whose content changes becomes an ordinary memory.
    let edited =
        app.patch(key, &format!("/api/v1/memories/{repeat}"), &json!({"content": "ok then"})).await.ok(200).clone();
    assert_eq!(edited["repeated"], false);
    let dup = app
        .patch(key, &format!("/api/v1/memories/{}", second_ids[1]), &json!({"content": "the release is on Friday"}))
        .await;
    dup.assert_error(409, "already exists");
}
