//! Authorship: every memory records who stored it, stamped by the server from the request's credentials
//! (never from the body), listed, filterable, carried by history, and re-stamped by an import.

use serde_json::json;

use crate::helpers::{new_key, spawn};

#[tokio::test]
async fn every_memory_records_the_key_that_stored_it_and_can_be_listed_by_it() {
    let app = spawn().await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let created = app.post(&admin, "/api/v1/keys", &json!({"scopes": ["read", "write"], "name": "agent"})).await;
    let created = created.ok(201).clone();
    let (agent, agent_id) = (created["api_key"].as_str().unwrap().to_owned(), created["key"]["id"].as_str().unwrap());
    let stamp = format!("key:{agent_id}");

    // A body cannot claim an author.
    let forged = json!({"content": "stored by the agent", "created_by": "key:00000000-0000-0000-0000-000000000000"});
    let one = app.post(&agent, "/api/v1/memories", &forged).await.ok(201).clone();
    assert_eq!(one["created_by"], stamp.as_str(), "{one}");
    let batch = json!({"memories": [{"content": "batch one"}, {"content": "batch two", "created_by": "system:x"}]});
    let stored = app.post(&agent, "/api/v1/memories/batch", &batch).await.ok(201).clone();
    for m in stored["memories"].as_array().unwrap() {
        assert_eq!(m["created_by"], stamp.as_str(), "{m}");
    }
    let other = app.post(&app.a.key, "/api/v1/memories", &json!({"content": "stored by another key"})).await;
    let other = other.ok(201).clone();
    assert!(other["created_by"].as_str().is_some_and(|s| s.starts_with("key:") && s != stamp), "{other}");

    // Listed by author, with the total.
    let page = app.get(&app.a.key, &format!("/api/v1/memories?created_by={stamp}&limit=2")).await.ok(200).clone();
    assert_eq!(page["total"], 3, "{page}");
    assert_eq!(page["memories"].as_array().unwrap().len(), 2);
    assert!(page["memories"].as_array().unwrap().iter().all(|m| m["created_by"] == stamp.as_str()), "{page}");
    // A key id in another form (upper case) finds the same memories.
    let upper = format!("/api/v1/memories?created_by=key:{}", agent_id.to_uppercase());
    assert_eq!(app.get(&app.a.key, &upper).await.ok(200)["total"], 3);
    let by_other = format!("/api/v1/memories?created_by={}", other["created_by"].as_str().unwrap());
    assert_eq!(app.get(&app.a.key, &by_other).await.ok(200)["total"], 1);
    // Another tenant's key sees none of them, whatever it filters by.
    assert_eq!(app.get(&app.b.key, &format!("/api/v1/memories?created_by={stamp}")).await.ok(200)["total"], 0);
    for bad in ["bob", "key:not-a-uuid", "system:", "root:x"] {
        app.get(&app.a.key, &format!("/api/v1/memories?created_by={bad}")).await.assert_error(400, "created_by");
    }

    // The history's creation event names the same actor; an edit by another key does not change the author.
    let id = one["id"].as_str().unwrap();
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.2})).await.ok(200);
    let history = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    let events = history["events"].as_array().unwrap();
    let created = events.iter().find(|e| e["event_type"] == "created").unwrap();
    assert_eq!(created["actor"], stamp.as_str(), "{history}");
    let now = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(now["created_by"], stamp.as_str());

    // Deleted and restored by another key, it keeps its author.
    app.delete(&app.a.key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200);
    let restored = app.post(&app.a.key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.ok(200).clone();
    assert_eq!(restored["created_by"], stamp.as_str(), "{restored}");
}

#[tokio::test]
async fn an_import_stamps_the_importer_not_the_file() {
    let app = spawn().await;
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "exported memory"})).await.ok(201);
    let res = app.client.get(app.url("/api/v1/export")).bearer_auth(&app.a.key).send().await.unwrap();
    let text = res.text().await.unwrap();
    let exported = text.lines().find(|l| l.contains("exported memory")).unwrap().to_owned();
    let author = serde_json::from_str::<serde_json::Value>(&exported).unwrap()["data"]["created_by"].clone();
    assert!(author.as_str().is_some_and(|a| a.starts_with("key:")), "the export carries the author: {exported}");

    app.import(&app.b.key, text).await.ok(200);
    let listed = app.get(&app.b.key, "/api/v1/memories").await.ok(200).clone();
    let imported = &listed["memories"][0];
    assert_eq!(imported["content"], "exported memory");
    let stamped = imported["created_by"].as_str().unwrap();
    assert!(stamped.starts_with("key:") && author != stamped, "stamped by the importing key: {imported}");
}

#[tokio::test]
async fn a_scoped_key_or_token_is_stamped_with_its_scope_kept_by_export_and_filterable_in_recall() {
    if crate::helpers::scoped_keys_refused(
        "a_scoped_key_or_token_is_stamped_with_its_scope_kept_by_export_and_filterable_in_recall",
    ) {
        return;
    }
    let app = spawn().await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let admin_id: String =
        sqlx::query_scalar("SELECT id::text FROM api_keys WHERE tenant_id = $1 AND 'admin' = ANY(scopes)")
            .bind(app.a.id)
            .fetch_one(&mut app.superuser_conn().await)
            .await
            .unwrap();
    let token = app.post(&admin, "/api/v1/tokens", &json!({"user_ids": ["alice"], "agent_ids": ["helper"]})).await;
    let token = token.ok(201)["token"].as_str().unwrap().to_owned();
    let forged = json!({"content": "Alice's kettle is blue", "created_by_scope": {"users": ["mallory"]}});
    let m = app.post(&token, "/api/v1/memories", &forged).await.ok(201).clone();
    // The token acts as its admin key, for Alice and the helper agent.
    assert_eq!(m["created_by"], format!("key:{admin_id}"), "{m}");
    // A scoped reader sees no stamp (a key scoped to several end users must not show one the others); an
    // unscoped key sees it whole.
    assert_eq!(m["created_by_scope"], json!(null), "{m}");
    let id = m["id"].as_str().unwrap();
    let seen = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(seen["created_by_scope"], json!({"user_ids": ["alice"], "agent_ids": ["helper"]}), "{seen}");

    // An edit by the token, and one by an unscoped key: the history tells them apart.
    app.patch(&token, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.7})).await.ok(200);
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.3})).await.ok(200);
    let history = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    let scopes: Vec<_> = history["events"].as_array().unwrap().iter().map(|e| e["actor_scope"].clone()).collect();
    let alice = json!({"user_ids": ["alice"], "agent_ids": ["helper"]});
    assert_eq!(scopes, [alice.clone(), alice.clone(), json!(null)], "{history}");
    let own = app.get(&token, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
    assert!(own["events"].as_array().unwrap().iter().all(|e| e["actor_scope"].is_null()), "{own}");
    assert!(!own.to_string().contains("created_by_scope"), "snapshots carry no stamp: {own}");
    let plain = app.store(&app.a.key, json!({"content": "the team's kettle is red", "user_id": "alice"})).await;
    assert_eq!(plain["created_by_scope"], json!(null), "{plain}");

    // Recall filters by author too: the admin key's memories (its token's) only.
    let by = |author: &str| json!({"query": "kettle", "mode": "keyword", "created_by": author});
    let found = app.post(&app.a.key, "/api/v1/recall", &by(&format!("key:{admin_id}"))).await.ok(200).clone();
    let ids: Vec<_> = found["results"].as_array().unwrap().iter().map(|r| r["memory"]["id"].clone()).collect();
    assert_eq!(ids, [json!(id)], "{found}");
    app.post(&app.a.key, "/api/v1/recall", &by("nobody")).await.assert_error(400, "created_by");

    // The export carries the events' scopes; an import keeps them beside the imported actor and stamps the
    // memory with the importer (unscoped here: none).
    let text = app.client.get(app.url("/api/v1/export")).bearer_auth(&app.a.key).send().await.unwrap();
    let text = text.text().await.unwrap();
    assert!(text.contains("\"actor_scope\":{\"agents\":[\"helper\"],\"users\":[\"alice\"]}"), "{text}");
    let report = app.import(&app.b.key, text).await.ok(200).clone();
    let listed = app.get(&app.b.key, "/api/v1/memories?user_id=alice").await.ok(200).clone();
    let imported = listed["memories"].as_array().unwrap().iter().find(|m| m["content"] == "Alice's kettle is blue");
    let imported = imported.unwrap_or_else(|| panic!("{report} {listed}"));
    assert_eq!(imported["created_by_scope"], json!(null), "{imported}");
    let history = app.get(&app.b.key, &format!("/api/v1/memories/{}/history", imported["id"].as_str().unwrap())).await;
    let events = history.ok(200)["events"].as_array().unwrap().clone();
    assert!(
        events.iter().any(|e| e["actor"].as_str().unwrap().starts_with("import:") && e["actor_scope"] == alice),
        "{events:?}"
    );
}
