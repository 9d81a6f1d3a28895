//! Undo, then real erasure: every delete is restorable for the tenant's undo window, then erased; an explicit
//! purge erases at once and leaves no byte of the memory in any table; by-tag deletes are capped.

use chrono::{Duration, Utc};
use serde_json::{json, Value};
use sqlx::Row;

use crate::helpers::{new_key, spawn, TestApp};

async fn associate(app: &TestApp, from: &str, to: &str) {
    let body = json!({"memory1_id": from, "memory2_id": to, "type": "RELATES_TO", "strength": 0.7});
    app.post(&app.a.key, "/api/v1/associations", &body).await.ok(201);
}

async fn related_ids(app: &TestApp, id: &str) -> Vec<String> {
    let related = app.get(&app.a.key, &format!("/api/v1/memories/{id}/related?types=RELATES_TO")).await.ok(200).clone();
    let mut ids: Vec<String> =
        related["related"].as_array().unwrap().iter().map(|r| r["memory"]["id"].as_str().unwrap().to_owned()).collect();
    ids.sort();
    ids
}

/// Tables (in every schema but the catalogs) whose rows' text contains `needle`, with how many rows.
async fn tables_containing(app: &TestApp, needle: &str) -> Vec<(String, i64)> {
    let mut conn = app.superuser_conn().await;
    let tables: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_schema::text, table_name::text FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert!(tables.len() > 10, "{tables:?}");
    let mut found = Vec::new();
    for (schema, table) in tables {
        let sql = format!("SELECT count(*) FROM \"{schema}\".\"{table}\" t WHERE t::text LIKE '%' || $1 || '%'");
        let n: i64 = sqlx::query(&sql).bind(needle).fetch_one(&mut conn).await.unwrap().get(0);
        if n > 0 {
            found.push((format!("{schema}.{table}"), n));
        }
    }
    found
}

#[tokio::test]
async fn a_deleted_memory_leaves_every_read_and_comes_back_whole_within_the_undo_window() {
    let app = spawn().await;
    let key = &app.a.key;
    let kept = app.store_text(key, "The staging database runs on port 5433").await;
    let doomed = app
        .store(
            key,
            json!({"content": "Deploys to production go out on Tuesdays", "tags": ["ops", "deploy"],
            "importance": 0.9, "metadata": {"source": "runbook"}}),
        )
        .await;
    let id = doomed["id"].as_str().unwrap().to_owned();
    associate(&app, &id, &kept).await;
    app.run_enrichment().await;
    let before = app.get(key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    let links_before = app.count_as_app_role("memory_entities", Some(app.a.id)).await;

    // Every surface's delete answers as its seed says, and the memory is gone from every read.
    app.delete(key, &format!("/memory/{id}")).await.ok(200);
    app.get(key, &format!("/api/v1/memories/{id}")).await.assert_error(404, "not found");
    let recalled = app.get(key, "/api/v1/recall?query=Tuesdays&mode=keyword").await.ok(200).clone();
    assert_eq!(recalled["results"].as_array().map(Vec::len), Some(0), "{recalled}");
    let listed = app.get(key, "/api/v1/memories?include_archived=true").await.ok(200).clone();
    assert_eq!(listed["total"], 1);
    assert!(related_ids(&app, &kept).await.is_empty());

    // The trash lists it with the time it will be erased.
    let trash = app.get(key, "/api/v1/trash").await.ok(200).clone();
    assert_eq!((trash["total"].clone(), trash["memories"][0]["id"].clone()), (json!(1), json!(id)));
    let deleted_at = crate::helpers::time(&trash["memories"][0]["deleted_at"]);
    let erased_after = crate::helpers::time(&trash["memories"][0]["erased_after"]);
    assert_eq!(erased_after - deleted_at, Duration::days(7));
    // Another tenant sees none of it and cannot restore it.
    assert_eq!(app.get(&app.b.key, "/api/v1/trash").await.ok(200)["total"], 0);
    app.post(&app.b.key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.assert_error(404, "not found");

    // Restored: the same memory, its relation and its entity links.
    let restored = app.post(key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.ok(200).clone();
    for field in ["id", "content", "tags", "importance", "metadata", "created_at", "content_hash"] {
        assert_eq!(restored[field], before[field], "{field}");
    }
    assert_eq!(related_ids(&app, &kept).await, std::slice::from_ref(&id));
    assert_eq!(app.count_as_app_role("memory_entities", Some(app.a.id)).await, links_before);
    assert_eq!(app.get(key, "/api/v1/trash").await.ok(200)["total"], 0);
    let history = app.get(key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    let kinds: Vec<&str> =
        history["events"].as_array().unwrap().iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["created", "deleted", "restored"]);
    let recalled = app.get(key, "/api/v1/recall?query=Tuesdays&mode=keyword").await.ok(200).clone();
    assert_eq!(recalled["results"][0]["memory"]["id"], json!(id), "{recalled}");

    // Storing the same content while it is deleted makes its restore a conflict naming the live copy.
    app.delete(key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200);
    let again = app.store_text(key, "Deploys to production go out on Tuesdays").await;
    let conflict = app.post(key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await;
    conflict.assert_error(409, &again);
}

#[tokio::test]
async fn past_the_undo_window_the_retention_pass_erases_deleted_memories() {
    let app = spawn().await;
    let key = &app.a.key;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let settings = app.patch(&admin, "/api/v1/settings", &json!({"undo_days": 2})).await.ok(200).clone();
    assert_eq!(settings["undo_days"], 2);
    app.patch(&admin, "/api/v1/settings", &json!({"undo_days": 366})).await.assert_error(400, "undo_days");
    let id = app.store_text(key, "A note about the old VPN gateway").await;
    app.delete(key, &format!("/api/forget/{id}")).await.ok(200);

    let rules = cairn::service::lifecycle::Rules::RETENTION;
    let now = Utc::now();
    let report = cairn::service::lifecycle::apply(&app.db, now + Duration::days(1), rules).await.unwrap();
    assert_eq!(report.erased, 0, "still in the window");
    let report = cairn::service::lifecycle::apply(&app.db, now + Duration::days(3), rules).await.unwrap();
    assert_eq!(report.erased, 1, "{report:?}");
    app.post(key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.assert_error(404, "not found");
    assert!(tables_containing(&app, "old VPN gateway").await.is_empty());
}

#[tokio::test]
async fn a_purge_leaves_no_byte_of_the_memory_in_any_table() {
    let app = spawn().await;
    let key = &app.a.key;
    let secret = format!("the root password is hunter{}", uuid::Uuid::new_v4().simple());
    let other = app.store_text(key, "Alice Johnson maintains the billing service").await;
    let doomed = app
        .store(
            key,
            json!({"content": format!("Met with Bartholomew Quince and Alice Johnson: {secret}"),
            "tags": ["secrets"], "metadata": {"note": secret.clone()}, "episode_id": "chat-1", "sequence_number": 1}),
        )
        .await;
    let id = doomed["id"].as_str().unwrap().to_owned();
    // The next turn of the episode is indexed with this one's words as context; it is deleted first, so the
    // trash holds it (without that context).
    let next = app.store(key, json!({"content": "ok, noted", "episode_id": "chat-1", "sequence_number": 2})).await;
    let next = next["id"].as_str().unwrap().to_owned();
    associate(&app, &id, &other).await;
    app.patch(key, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.8})).await.ok(200);
    app.run_enrichment().await;
    app.drain_jobs().await;
    assert!(!tables_containing(&app, &secret).await.is_empty(), "the needle is found while the memory lives");
    async fn entities(app: &TestApp) -> String {
        let mut conn = app.superuser_conn().await;
        let names: Vec<String> = sqlx::query_scalar("SELECT normalized_name FROM entities WHERE tenant_id = $1")
            .bind(app.a.id)
            .fetch_all(&mut conn)
            .await
            .unwrap();
        names.join(",")
    }
    let before = entities(&app).await;
    assert!(before.contains("bartholomew quince") && before.contains("alice johnson"), "{before}");
    app.delete(key, &format!("/api/v1/memories/{next}?hard=true")).await.ok(200);

    app.delete(key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200);
    let trashed = tables_containing(&app, &secret).await;
    assert!(trashed.iter().any(|(t, _)| t == "public.memory_trash"), "{trashed:?}");

    // Erasing at once skips the undo window: a write key may not, an admin key may.
    app.delete(key, &format!("/api/v1/memories/{id}?purge=true")).await.assert_error(403, "admin");
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let res = app.delete(&admin, &format!("/api/v1/memories/{id}?purge=true")).await.ok(200).clone();
    assert_eq!((res["hard"].clone(), res["purged"].clone()), (json!(true), json!(true)));
    app.drain_jobs().await;
    assert_eq!(tables_containing(&app, &secret).await, [], "no table holds the purged content");
    assert_eq!(tables_containing(&app, "hunter").await, []);

    // Its history keeps only ids, hashes and event types.
    let history = app.get(key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    for event in history["events"].as_array().unwrap() {
        for side in ["before", "after"] {
            if let Some(snapshot) = event[side].as_object() {
                let mut fields: Vec<&str> = snapshot.keys().map(String::as_str).collect();
                fields.sort();
                assert_eq!(fields, ["content_hash", "id"], "{event}");
                assert_eq!(snapshot["id"], json!(id));
            }
        }
    }
    app.post(key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.assert_error(404, "not found");
    app.delete(&admin, &format!("/api/v1/memories/{id}?purge=true")).await.assert_error(404, "not found");
    // The entity only it mentioned is gone with it; one another memory mentions stays.
    let after = entities(&app).await;
    assert!(after.contains("alice johnson") && !after.contains("bartholomew"), "{after}");
    app.get(key, &format!("/api/v1/memories/{other}")).await.ok(200);
    // The deleted next turn comes back without the erased words as its context.
    app.post(key, &format!("/api/v1/memories/{next}/restore"), &json!({})).await.ok(200);
    assert_eq!(tables_containing(&app, &secret).await, []);
}

#[tokio::test]
async fn by_tag_deletes_are_capped_without_confirm_and_restorable_by_tag() {
    let app = spawn().await;
    let key = &app.a.key;
    for batch in 0..3 {
        let items: Vec<Value> = (0..(if batch == 2 { 1 } else { 500 }))
            .map(|i| json!({"content": format!("scratch note {batch}-{i}"), "tags": ["scratch"]}))
            .collect();
        app.post(key, "/api/v1/memories/batch", &json!({"memories": items})).await.ok(201);
    }
    app.store(key, json!({"content": "keep me", "tags": ["keep"]})).await;

    for path in ["/api/v1/memories/by-tag?tags=scratch", "/memory/by-tag?tags=scratch"] {
        app.delete(key, path).await.assert_error(400, "confirm: these tags would delete 1001 memories");
    }
    let shodh = app.post(key, "/api/forget/by-tags", &json!({"tags": ["scratch"]})).await;
    assert_eq!(shodh.status, 400);
    assert!(shodh.body["error"].as_str().unwrap().starts_with("confirm: "), "{}", shodh.body);
    assert_eq!(app.count(key).await, 1002, "nothing was deleted");

    let done = app.delete(key, "/api/v1/memories/by-tag?tags=scratch&confirm=true").await.ok(200).clone();
    assert_eq!(done["deleted_count"], 1001);
    assert_eq!(app.count(key).await, 1);
    let trash = app.get(key, "/api/v1/trash?limit=5").await.ok(200).clone();
    assert_eq!(
        (trash["total"].clone(), trash["count"].clone(), trash["has_more"].clone()),
        (json!(1001), json!(5), json!(true))
    );

    let path = "/api/v1/memories/by-tag/restore?tags=scratch";
    app.post(&app.b.key, path, &json!({})).await.ok(200);
    assert_eq!(app.count(key).await, 1, "another tenant restores nothing of A's");
    // At most 1000 per call; the answer says how many remain.
    let first = app.post(key, path, &json!({})).await.ok(200).clone();
    assert_eq!(
        (first["restored_count"].clone(), first["conflicts"].clone(), first["remaining"].clone()),
        (json!(1000), json!([]), json!(1))
    );
    let second = app.post(key, path, &json!({})).await.ok(200).clone();
    assert_eq!((second["restored_count"].clone(), second["remaining"].clone()), (json!(1), json!(0)));
    assert_eq!(app.count(key).await, 1002);

    // The admin's purge empties the trash at once; a read key may not.
    app.delete(key, "/api/v1/memories/by-tag?tags=keep").await.ok(200);
    app.delete(key, "/api/v1/trash").await.assert_error(403, "admin");
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    assert_eq!(app.delete(&admin, "/api/v1/trash").await.ok(200)["erased_count"], 1);
    assert!(tables_containing(&app, "keep me").await.is_empty());
}

#[tokio::test]
async fn memories_deleted_together_come_back_together_with_the_links_between_them() {
    let app = spawn().await;
    let key = &app.a.key;
    let first =
        app.store(key, json!({"content": "Ana leads the billing team", "tags": ["team"], "importance": 0.9})).await;
    let second = app.store(key, json!({"content": "The billing team ships on Fridays", "tags": ["team"]})).await;
    let outside = app.store_text(key, "Billing runs on Postgres").await;
    let (first, second) = (first["id"].as_str().unwrap().to_owned(), second["id"].as_str().unwrap().to_owned());
    associate(&app, &first, &second).await;
    associate(&app, &first, &outside).await;
    app.run_enrichment().await;
    let before = app.get(key, &format!("/api/v1/memories/{first}")).await.ok(200).clone();
    let links_before = app.count_as_app_role("memory_entities", Some(app.a.id)).await;
    let relations_before = app.count_as_app_role("relations", Some(app.a.id)).await;

    // The same content stored again under a new id while the pair is deleted: that one stays in the trash.
    app.delete(key, "/api/v1/memories/by-tag?tags=team").await.ok(200);
    let again = app.store_text(key, "The billing team ships on Fridays").await;
    let done = app.post(key, "/api/v1/memories/by-tag/restore?tags=team", &json!({})).await.ok(200).clone();
    assert_eq!((done["restored_count"].clone(), done["conflicts"].clone()), (json!(1), json!([second])), "{done}");
    let restored = app.get(key, &format!("/api/v1/memories/{first}")).await.ok(200).clone();
    for field in ["content", "tags", "importance", "created_at"] {
        assert_eq!(restored[field], before[field], "{field}");
    }
    assert_eq!(related_ids(&app, &first).await, std::slice::from_ref(&outside));

    // With the copy gone, the second comes back too, and the link between the two once.
    app.delete(key, &format!("/api/v1/memories/{again}?hard=true")).await.ok(200);
    let done = app.post(key, "/api/v1/memories/by-tag/restore?tags=team", &json!({})).await.ok(200).clone();
    assert_eq!((done["restored"].clone(), done["remaining"].clone()), (json!([second]), json!(0)), "{done}");
    let mut expected = vec![second.clone(), outside.clone()];
    expected.sort();
    assert_eq!(related_ids(&app, &first).await, expected);
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, relations_before);
    assert_eq!(app.count_as_app_role("memory_entities", Some(app.a.id)).await, links_before);
    let history = app.get(key, &format!("/api/v1/memories/{second}/history")).await.ok(200).clone();
    let kinds: Vec<&str> =
        history["events"].as_array().unwrap().iter().map(|e| e["event_type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["created", "deleted", "restored"]);
}

#[tokio::test]
async fn of_two_deleted_copies_of_one_content_the_first_deleted_comes_back() {
    let app = spawn().await;
    let key = &app.a.key;
    let body = json!({"content": "Standup moves to 10:00", "tags": ["twin"]});
    let first = app.store(key, body.clone()).await["id"].as_str().unwrap().to_owned();
    app.delete(key, &format!("/api/v1/memories/{first}?hard=true")).await.ok(200);
    let second = app.store(key, body).await["id"].as_str().unwrap().to_owned();
    app.delete(key, &format!("/api/v1/memories/{second}?hard=true")).await.ok(200);
    let done = app.post(key, "/api/v1/memories/by-tag/restore?tags=twin", &json!({})).await.ok(200).clone();
    assert_eq!((done["restored"].clone(), done["conflicts"].clone()), (json!([first]), json!([second])), "{done}");
    assert_eq!(app.count(key).await, 1);
}
