//! POST/GET/DELETE /api/v1/memories/{id}: the success paths, every validation error, dedup.

use chrono::{Duration, Utc};
use serde_json::{json, Value};

use crate::helpers::{spawn, time};

#[tokio::test]
async fn store_returns_the_stored_memory_with_defaults() {
    let app = spawn().await;
    let res = app
        .post(
            &app.a.key,
            "/api/v1/memories",
            &json!({
                "id": "caller-chosen-id",
                "content": "  Chose PostgreSQL over MongoDB: we need ACID.  ",
                "type": "decision",
                "tags": ["Project-Alpha", "slack:channel:general", "project-alpha", " "],
                "metadata": {"alternatives": ["MongoDB"]},
                "user_id": "user-42", "agent_id": "agent-7", "run_id": "run-1",
                "episode_id": "ep-1", "sequence_number": 2, "emotion": "relief", "emotional_valence": 0.5,
                "source_type": "API", "credibility": 0.8, "quality_score": 0.7
            }),
        )
        .await;
    let m = res.ok(201);
    assert_ne!(m["id"], "caller-chosen-id");
    assert!(uuid::Uuid::parse_str(m["id"].as_str().unwrap()).is_ok());
    assert_eq!(m["content"], "Chose PostgreSQL over MongoDB: we need ACID.");
    assert_eq!(m["content_hash"].as_str().unwrap().len(), 64);
    assert_eq!(m["type"], "Decision");
    assert_eq!(m["confidence"], 0.9);
    assert_eq!(m["memory_type"], "long_term");
    assert_eq!(m["importance"], 0.5);
    assert_eq!(m["tags"], json!(["project-alpha", "slack:channel:general"]));
    assert_eq!(m["tag_prefixes"], json!(["project-alpha", "slack", "slack:channel", "slack:channel:general"]));
    assert_eq!(m["metadata"], json!({"alternatives": ["MongoDB"]}));
    assert_eq!(m["source_type"], "api");
    assert_eq!(m["credibility"], 0.8);
    assert_eq!(m["quality_score"], 0.7);
    assert_eq!(
        (m["user_id"].clone(), m["agent_id"].clone(), m["run_id"].clone()),
        (json!("user-42"), json!("agent-7"), json!("run-1"))
    );
    assert_eq!((m["episode_id"].clone(), m["sequence_number"].clone()), (json!("ep-1"), json!(2)));
    assert_eq!(m["embedding_status"], "pending");
    assert_eq!(m["access_count"], 0);
    assert!(m["flashbulb_until"].is_null() && m["expires_at"].is_null() && m["archived_at"].is_null());
    assert!((Utc::now() - time(&m["created_at"])).num_seconds().abs() < 10);
}

#[tokio::test]
async fn untyped_memory_is_classified_by_patterns_else_context_at_low_confidence() {
    let app = spawn().await;
    let key = &app.a.key;
    let m = app.store(key, json!({"content": "something happened"})).await;
    assert_eq!((m["type"].clone(), m["confidence"].clone()), (json!("Context"), json!(0.3)));
    let one = app.store(key, json!({"content": "We decided on Postgres for the ledger"})).await;
    assert_eq!((one["type"].as_str(), one["confidence"].as_f64()), (Some("Decision"), Some(0.6)));
    // One more matching pattern: +0.1.
    let two = app.store(key, json!({"content": "We decided on Postgres; going with it for the ledger"})).await;
    assert_eq!((two["type"].as_str(), two["confidence"].as_f64()), (Some("Decision"), Some(0.7)));
    let habit = app.store(key, json!({"content": "I always run the linter before pushing"})).await;
    assert_eq!(habit["type"], "Habit");
    // An explicit type wins, at 0.9 unless a confidence is given.
    let typed = app.store(key, json!({"content": "We decided to ship on Friday", "type": "insight"})).await;
    assert_eq!((typed["type"].as_str(), typed["confidence"].as_f64()), (Some("Insight"), Some(0.9)));
}

#[tokio::test]
async fn every_seed_spelling_is_accepted() {
    let app = spawn().await;
    let m = app
        .store(
            &app.a.key,
            json!({"content": "aliases", "arousal": 0.3, "valence": -0.4, "timestamp": "2024-12-05T12:00:00Z",
                   "tags": "a, B ,a", "type": "codeedit"}),
        )
        .await;
    assert_eq!(m["emotional_arousal"], 0.3);
    assert_eq!(m["emotional_valence"], -0.4);
    assert_eq!(m["created_at"], "2024-12-05T12:00:00Z");
    assert_eq!(m["tags"], json!(["a", "b"]));
    assert_eq!(m["type"], "CodeEdit");
}

#[tokio::test]
async fn a_supplied_embedding_is_stored_ready() {
    let app = spawn().await;
    let m = app.store(&app.a.key, json!({"content": "with a vector", "embedding": vec![0.1_f32; 384]})).await;
    assert_eq!(m["embedding_status"], "ready");
    assert_eq!(m["embedding_model"], "client");
}

#[tokio::test]
async fn every_invalid_field_is_a_400_naming_it_and_stores_nothing() {
    let app = spawn().await;
    let future = (Utc::now() + Duration::days(1)).to_rfc3339();
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "content: is required"),
        (json!({"content": "   "}), "content: must not be empty"),
        (json!({"content": "x".repeat(2001)}), "content: must be at most 2000 characters"),
        (json!({"content": 42}), "content: invalid type"),
        (json!({"content": "x", "importance": 1.5}), "importance: must be between 0 and 1"),
        (json!({"content": "x", "importance": "high"}), "importance: invalid type"),
        (json!({"content": "x", "confidence": -0.1}), "confidence: must be between 0 and 1"),
        (json!({"content": "x", "credibility": 2}), "credibility: must be between 0 and 1"),
        (json!({"content": "x", "quality_score": 1.01}), "quality_score: must be between 0 and 1"),
        (json!({"content": "x", "emotional_valence": -1.5}), "emotional_valence: must be between -1 and 1"),
        (json!({"content": "x", "arousal": 1.2}), "emotional_arousal: must be between 0 and 1"),
        (json!({"content": "x", "type": "Banana"}), "type: unknown type \"Banana\""),
        (json!({"content": "x", "memory_type": "medium_term"}), "memory_type: must be short_term or long_term"),
        (json!({"content": "x", "memory_type": "long_term", "ttl": 60}), "ttl: only applies to short_term"),
        (json!({"content": "x", "memory_type": "short_term", "ttl": 0}), "ttl: must be between 1"),
        (json!({"content": "x", "tags": [1, 2]}), "tags[0]: must be a string"),
        (json!({"content": "x", "tags": {"a": 1}}), "tags: must be an array of strings"),
        (json!({"content": "x", "tags": ["t".repeat(129)]}), "tags: each tag must be at most 128"),
        (json!({"content": "x", "tags": ["a:b:c:d:e:f:g:h:i"]}), "tags: each tag may have at most 8 levels"),
        (json!({"content": "x", "created_at": "+12345-01-01T00:00:00"}), "created_at: not an ISO 8601 timestamp"),
        (json!({"content": "x", "t_valid": "-4713-01-01"}), "t_valid: not an ISO 8601 timestamp"),
        (json!({"content": "x", "metadata": [1]}), "metadata: must be a JSON object"),
        (json!({"content": "x", "source_type": "rumour"}), "source_type: unknown source type"),
        (json!({"content": "x", "created_at": "yesterday-ish"}), "created_at: not an ISO 8601 timestamp"),
        (json!({"content": "x", "created_at": future}), "created_at: must not be in the future"),
        (
            json!({"content": "x", "t_valid": "2024-02-01", "t_invalid": "2024-01-01"}),
            "t_invalid: must not be before t_valid",
        ),
        (json!({"content": "x", "t_valid": "soon"}), "t_valid: not an ISO 8601 timestamp"),
        (json!({"content": "x", "embedding": [0.1, 0.2]}), "embedding must contain exactly 384 values (got 2)"),
        (json!({"content": "x", "sequence_number": -1}), "sequence_number: must be between 0"),
        (json!({"content": "x", "user_id": ""}), "user_id: must not be empty"),
        (json!({"content": "x", "agent_id": "a".repeat(257)}), "agent_id: must be at most 256"),
        (json!({"content": "a\u{0}b"}), "content: must not contain NUL"),
        (json!({"content": "x", "metadata": {"k": ["a\u{0}"]}}), "metadata: must not contain NUL"),
        (json!({"content": "x", "tags": ["a\u{0}"]}), "tags: must not contain NUL"),
        (json!({"content": "x", "user_id": "\u{0}"}), "user_id: must not contain NUL"),
        (json!({"content": "x", "emotion": "\u{0}x"}), "emotion: must not contain NUL"),
        (json!({"content": "x", "sequence_number": 1e20}), "sequence_number: invalid type"),
        (json!([{"content": "x"}]), "body: must be a JSON object, not a bare array"),
        (json!("just text"), "body: invalid type"),
    ];
    for (body, needle) in cases {
        app.post(&app.a.key, "/api/v1/memories", &body).await.assert_error(400, needle);
    }
    assert_eq!(app.count(&app.a.key).await, 0);
}

#[tokio::test]
async fn content_of_exactly_2000_characters_is_accepted() {
    let app = spawn().await;
    let m = app.store(&app.a.key, json!({"content": "é".repeat(2000)})).await;
    // Accepted, and (being over 500 characters) kept whole as the original of its summary.
    assert_eq!(m["original_length"], 2000);
    assert_eq!(m["metadata"]["original_content"].as_str().unwrap().chars().count(), 2000);
}

#[tokio::test]
async fn same_normalised_content_answers_as_on_duplicate_says() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = app.store_text(key, "User prefers dark mode").await;
    let again = |on: Option<&str>| json!({"content": "  user PREFERS   dark mode\n", "on_duplicate": on});
    // `existing` (the default): 200 with the memory that holds it.
    let existing = app.post(key, "/api/v1/memories", &again(None)).await.ok(200).clone();
    assert_eq!((existing["id"].as_str(), existing["repeated"].clone()), (Some(id.as_str()), json!(false)));
    assert_eq!(app.post(key, "/api/v1/memories", &again(Some("existing"))).await.ok(200)["id"], json!(id));
    // `error`: a 409 naming it.
    let res = app.post(key, "/api/v1/memories", &again(Some("error"))).await;
    res.assert_error(409, "already exists");
    assert_eq!(res.body["existing_id"], id.as_str());
    assert_eq!(app.count(key).await, 1);
    // `store`: a repeat of its own, which deduplication never finds.
    let repeat = app.post(key, "/api/v1/memories", &again(Some("store"))).await.ok(201).clone();
    assert_ne!(repeat["id"], json!(id));
    assert_eq!(
        (repeat["repeated"].clone(), repeat["content_hash"].clone()),
        (json!(true), existing["content_hash"].clone())
    );
    assert_eq!(app.post(key, "/api/v1/memories", &again(None)).await.ok(200)["id"], json!(id));
    assert_eq!(app.count(key).await, 2);
    app.post(key, "/api/v1/memories", &again(Some("sometimes"))).await.assert_error(400, "on_duplicate");
    // A repeat cannot supersede the very memory it repeats.
    let own = json!({"content": "User prefers dark mode", "supersedes_memory_id": id, "on_duplicate": "store"});
    app.post(key, "/api/v1/memories", &own).await.assert_error(400, "the memory it supersedes");
    assert_eq!(app.count(key).await, 2);
}

#[tokio::test]
async fn get_returns_the_memory_and_counts_the_access() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "remember me").await;
    let first = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(first["id"], id.as_str());
    assert_eq!(first["access_count"], 1);
    assert!(!first["last_accessed_at"].is_null());
    let second = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(second["access_count"], 2);
}

#[tokio::test]
async fn get_of_an_unknown_or_malformed_id() {
    let app = spawn().await;
    app.get(&app.a.key, &format!("/api/v1/memories/{}", uuid::Uuid::new_v4())).await.assert_error(404, "not found");
    app.get(&app.a.key, "/api/v1/memories/not-a-uuid").await.assert_error(400, "id: not a valid UUID");
}

#[tokio::test]
async fn delete_removes_the_memory_and_its_relations() {
    let app = spawn().await;
    let a = app.store_text(&app.a.key, "first").await;
    let b = app.store_text(&app.a.key, "second").await;
    let mut conn = app.superuser_conn().await;
    sqlx::query("INSERT INTO relations (tenant_id, source_id, target_id, rel_type) VALUES ($1, $2::uuid, $3::uuid, 'RELATES_TO')")
        .bind(app.a.id)
        .bind(&a)
        .bind(&b)
        .execute(&mut conn)
        .await
        .unwrap();
    let res = app.delete(&app.a.key, &format!("/api/v1/memories/{a}?hard=true")).await;
    assert_eq!(res.ok(200)["deleted"], true);
    app.get(&app.a.key, &format!("/api/v1/memories/{a}")).await.assert_error(404, "not found");
    app.delete(&app.a.key, &format!("/api/v1/memories/{a}?hard=true")).await.assert_error(404, "not found");
    let relations: i64 = sqlx::query_scalar("SELECT count(*) FROM relations").fetch_one(&mut conn).await.unwrap();
    assert_eq!(relations, 0);
    app.get(&app.a.key, &format!("/api/v1/memories/{b}")).await.ok(200);
}

#[tokio::test]
async fn a_read_with_touch_false_changes_nothing() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = app.store_text(key, "Looked at, not used").await;
    let path = format!("/api/v1/memories/{id}");
    let first = app.get(key, &format!("{path}?touch=false")).await.ok(200).clone();
    assert_eq!((first["access_count"].clone(), first["last_accessed_at"].clone()), (json!(0), Value::Null));
    let again = app.get(key, &format!("{path}?touch=false")).await.ok(200).clone();
    assert_eq!(again, first, "a look changes no field");
    // The default read counts, as the seeds say.
    assert_eq!(app.get(key, &path).await.ok(200)["access_count"], 1);
    assert_eq!(app.get(key, &format!("{path}?touch=true")).await.ok(200)["access_count"], 2);
    app.get(key, &format!("{path}?touch=maybe")).await.assert_error(400, "touch");
    // Another tenant's look is a 404 like any other read.
    app.get(&app.b.key, &format!("{path}?touch=false")).await.assert_error(404, "not found");
}
