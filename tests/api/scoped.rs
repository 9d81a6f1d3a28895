//! Keys and tokens scoped below the tenant (to end users, agents, tag prefixes): a scoped key sees and writes
//! only its scope, on every route of every surface (tried on each route of the OpenAPI document, as tenant
//! isolation is), and the database holds the line underneath.

use reqwest::Method;
use serde_json::{json, Value};
use sqlx::Executor;

use crate::helpers::{app_role_tx, new_key, spawn, TestApp};

/// The words only Bob's memories hold: no answer to Alice's key may carry them.
const CANARY: &str = "zebra";

struct World {
    admin: String,
    alice_key: String,
    alice: String,
    bob: String,
    bob_other: String,
}

async fn world(app: &TestApp) -> World {
    let key = &app.a.key;
    let alice = app
        .store(
            key,
            json!({"content": "Alice likes green tea in the morning", "user_id": "alice", "tags": ["notes"],
            "episode_id": "alice-chat", "metadata": {"topic": "tea"}}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let bob = app
        .store(
            key,
            json!({"content": "Bob's secret zebra launch plan for Tuesday", "user_id": "bob",
            "tags": ["notes", "launch"], "episode_id": "bob-chat"}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let bob_other = app
        .store(key, json!({"content": "Bob keeps the zebra codename between us", "user_id": "bob", "tags": ["notes"]}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        key,
        "/api/v1/associations",
        &json!({"memory1_id": alice, "memory2_id": bob, "type": "RELATES_TO", "strength": 0.5}),
    )
    .await
    .ok(201);
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let created = app
        .post(
            &admin,
            "/api/v1/keys",
            &json!({"scopes": ["read", "write"], "user_ids": ["alice"], "name": "alice's app"}),
        )
        .await
        .ok(201)
        .clone();
    assert_eq!(created["key"]["user_ids"], json!(["alice"]), "{created}");
    assert!(created["key"]["agent_ids"].is_null());
    let alice_key = created["api_key"].as_str().unwrap().to_owned();
    World { admin, alice_key, alice, bob, bob_other }
}

/// Bob's memories as an unscoped key sees them, without counting an access.
async fn bobs(app: &TestApp, w: &World) -> Vec<Value> {
    let mut out = Vec::new();
    for id in [&w.bob, &w.bob_other] {
        let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}?touch=false")).await.ok(200).clone();
        let history = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await.ok(200).clone();
        out.push(json!([
            m["content"],
            m["tags"],
            m["user_id"],
            m["importance"],
            m["access_count"],
            m["archived_at"],
            history["events"].as_array().unwrap().len()
        ]));
    }
    out
}

#[track_caller]
fn no_leak(res: &crate::helpers::Res, w: &World, what: &str) {
    let text = res.body.to_string();
    assert!(res.status < 500, "{what}: {} {text}", res.status);
    assert!(!text.contains(CANARY), "{what} shows Bob's words: {text}");
    assert!(!text.contains(&w.bob_other), "{what} names Bob's other memory: {text}");
}

#[tokio::test]
async fn a_scoped_key_reaches_nothing_outside_its_scope_on_any_route() {
    if crate::helpers::scoped_keys_refused("a_scoped_key_reaches_nothing_outside_its_scope_on_any_route") {
        return;
    }
    let app = spawn().await;
    let w = world(&app).await;
    let before = bobs(&app, &w).await;
    let doc: Value = serde_json::from_str(&std::fs::read_to_string("openapi/openapi.json").unwrap()).unwrap();
    let bodies = [
        json!({}),
        json!({"query": "launch codename Tuesday", "tags": ["notes"], "ids": [w.bob], "memory_ids": [w.bob], "memory1_id": w.alice,
            "memory2_id": w.bob, "source_id": w.alice, "target_id": w.bob, "content": "Alice's new note",
            "user_id": "bob", "memories": [{"content": "x", "user_id": "bob"}]}),
    ];
    let mut tried = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        if path.starts_with("/admin/v1") {
            continue; // operators' routes: no tenant key reaches them at all
        }
        let concrete = path
            .replace("{id}", &w.bob)
            .replace("{src}", &w.alice)
            .replace("{dst}", &w.bob)
            .replace("{episode_id}", "bob-chat")
            .replace("{name}", "probes")
            .replace("{delivery_id}", &w.bob);
        for (method, _) in item.as_object().unwrap() {
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            for query in
                ["", "?query=launch%20codename&tags=notes&q=launch%20codename&user_id=bob&include_archived=true"]
            {
                let url = format!("{concrete}{query}");
                if method == Method::GET || method == Method::DELETE {
                    let res = app.send(method.clone(), &url, Some(&w.alice_key), None).await;
                    no_leak(&res, &w, &format!("{method} {url}"));
                    tried += 1;
                } else {
                    for body in &bodies {
                        let res = app.send(method.clone(), &url, Some(&w.alice_key), Some(body)).await;
                        no_leak(&res, &w, &format!("{method} {url} {body}"));
                        tried += 1;
                    }
                }
            }
        }
    }
    assert!(tried > 150, "every route tried ({tried} requests)");
    app.flush_accesses().await;
    assert_eq!(bobs(&app, &w).await, before, "Bob's memories are untouched by all of it");
}

#[tokio::test]
async fn a_scoped_key_lists_recalls_and_writes_inside_its_scope() {
    if crate::helpers::scoped_keys_refused("a_scoped_key_lists_recalls_and_writes_inside_its_scope") {
        return;
    }
    let app = spawn().await;
    let w = world(&app).await;
    let k = &w.alice_key;
    let bob_path = format!("/api/v1/memories/{}", w.bob);
    app.get(k, &bob_path).await.assert_error(404, "not found");
    app.patch(k, &bob_path, &json!({"content": "Alice was here"})).await.assert_error(404, "not found");
    app.delete(k, &bob_path).await.assert_error(404, "not found");
    app.get(k, &format!("{bob_path}/history")).await.assert_error(404, "not found");
    let listed = app.get(k, "/api/v1/memories").await.ok(200).clone();
    assert_eq!(listed["total"], 1, "{listed}");
    assert_eq!(listed["memories"][0]["id"], w.alice.as_str());
    let recalled = app.get(k, "/api/v1/recall?query=launch%20plan%20codename").await.ok(200).clone();
    assert!(!recalled.to_string().contains(CANARY), "{recalled}");
    let recalled = app.get(k, "/api/v1/recall?query=green%20tea").await.ok(200).clone();
    assert_eq!(recalled["results"][0]["memory"]["id"], w.alice.as_str(), "{recalled}");
    let related = app.get(k, &format!("/api/v1/memories/{}/related", w.alice)).await.ok(200).clone();
    assert!(!related.to_string().contains(&w.bob), "the association across the scope is not followed: {related}");
    app.post(
        k,
        "/api/v1/associations",
        &json!({"memory1_id": w.alice, "memory2_id": w.bob_other, "type": "RELATES_TO"}),
    )
    .await
    .assert_error(404, "");

    // Writes: the scope's one end user is filled in; another end user is a 403 naming the field, and a
    // batch holding one such item writes nothing.
    let stored = app.store(k, json!({"content": "Alice switched to oolong"})).await;
    assert_eq!(
        (stored["user_id"].clone(), stored["created_by"].clone()),
        (json!("alice"), json!(format!("key:{}", key_id(&app, k).await)))
    );
    app.post(k, "/api/v1/memories", &json!({"content": "Mallory's note", "user_id": "bob"}))
        .await
        .assert_error(403, "user_id: \"bob\" is outside this key's scope");
    let batch = json!({"memories": [{"content": "fine one"}, {"content": "not fine", "user_id": "bob"}]});
    app.post(k, "/api/v1/memories/batch", &batch).await.assert_error(403, "memories[1].user_id");
    app.patch(k, &format!("/api/v1/memories/{}", w.alice), &json!({"user_id": "bob"}))
        .await
        .assert_error(403, "user_id");
    assert_eq!(app.get(k, "/api/v1/memories").await.ok(200)["total"], 2, "nothing of the refused writes landed");
    let import = format!(
        "{}\n{}\n",
        json!({"type": "cairn_export", "version": 1}),
        json!({"type": "memories", "data": {"id": uuid::Uuid::new_v4(), "content": "imported for bob", "user_id": "bob"}})
    );
    let imported = app.import(k, import).await.ok(200).clone();
    assert!(imported.to_string().contains("user_id: \\\"bob\\\" is outside this key's scope"), "{imported}");
    assert_eq!(
        app.get(&app.a.key, "/api/v1/memories?user_id=bob").await.ok(200)["total"],
        2,
        "nothing written for Bob"
    );
    // An import of Bob's exact words lands as Alice's own (no "skipped" betrays his); entities are the
    // tenant's and not a scoped key's to import.
    let header = json!({"type": "cairn_export", "version": 1});
    let words = json!({"type": "memories", "data": {"id": uuid::Uuid::new_v4(), "content": "Bob's secret zebra launch plan for Tuesday"}});
    let entity =
        json!({"type": "entities", "data": {"id": uuid::Uuid::new_v4(), "name": "Zebra", "entity_type": "project"}});
    let imported = app.import(k, format!("{header}\n{entity}\n")).await.ok(200).clone();
    assert!(imported.to_string().contains("imports memories, memory_events and relations only"), "{imported}");
    let imported = app.import(k, format!("{header}\n{words}\n")).await.ok(200).clone();
    assert_eq!(
        (imported["inserted"]["memories"].clone(), imported["skipped"]["memories"].clone()),
        (json!(1), json!(0)),
        "{imported}"
    );
    let copy = words["data"]["id"].as_str().unwrap().to_owned();
    app.delete(k, &format!("/api/v1/memories/{copy}")).await.ok(200);

    // The same words as one of Bob's: Alice gets a memory of her own, and learns nothing of his.
    let same = app.store(k, json!({"content": "Bob keeps the zebra codename between us"})).await;
    assert_ne!(same["id"], w.bob_other.as_str());
    assert_eq!(same["user_id"], "alice");
    let again = app.post(k, "/api/v1/memories", &json!({"content": "Bob keeps the zebra codename between us"})).await;
    assert_eq!(again.ok(200)["id"], same["id"], "within her scope, content still deduplicates");
    let mine = app.store(k, json!({"content": "A sentence nobody else wrote"})).await;
    assert_eq!(
        (same["repeated"].clone(), mine["repeated"].clone()),
        (json!(true), json!(true)),
        "the flag tells nothing"
    );

    // Counts are of what the key sees; tenant-wide work is refused.
    let stats = app.get(k, "/api/v1/stats").await.ok(200).clone();
    assert_eq!(stats["total_memories"], 4, "{stats}");
    assert_eq!(app.get(&app.a.key, "/api/v1/stats").await.ok(200)["total_memories"], 6);
    let tags = app.get(k, "/api/tags").await.ok(200).clone();
    assert!(!tags.to_string().contains("launch"), "Bob's tag is not listed: {tags}");
    app.post(k, "/api/v1/consolidate", &json!({})).await.assert_error(403, "whole tenant");
    app.get(k, "/api/v1/jobs/status").await.assert_error(403, "whole tenant");
    app.get(k, "/api/v1/keys").await.assert_error(403, "admin");

    // Other surfaces: AutoMem, SHODH-style search, remem, MCP.
    let automem = app.get(k, "/recall?query=launch%20codename").await.ok(200).clone();
    assert!(!automem.to_string().contains(&w.bob_other), "{automem}");
    let stored = app.post(k, "/memory", &json!({"content": "Alice prefers window seats"})).await.ok(201).clone();
    let id = stored["memory_id"].as_str().or(stored["id"].as_str()).unwrap().to_owned();
    assert_eq!(app.get(&app.a.key, &format!("/api/v1/memories/{id}?touch=false")).await.ok(200)["user_id"], "alice");
    app.get(k, &format!("/memory/{}", w.bob)).await.assert_error(404, "");
    let client = crate::mcp::connect(&app, k).await.unwrap();
    let found = crate::mcp::call(&client, "recall_memory", json!({"query": "launch codename"})).await;
    let text = serde_json::to_string(&found.content).unwrap();
    assert!(!text.contains(&w.bob) && !text.contains(&w.bob_other), "{text}");
    client.cancel().await.unwrap();
}

async fn key_id(app: &TestApp, key: &str) -> String {
    let prefix = key.split('_').nth(1).unwrap();
    let id: uuid::Uuid = sqlx::query_scalar("SELECT id FROM api_keys WHERE prefix = $1")
        .bind(prefix)
        .fetch_one(app.db.owner())
        .await
        .unwrap();
    id.to_string()
}

#[tokio::test]
async fn scoped_keys_are_validated_and_keep_their_scope_through_rotation() {
    if crate::helpers::scoped_keys_refused("scoped_keys_are_validated_and_keep_their_scope_through_rotation") {
        return;
    }
    let app = spawn().await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    app.post(&admin, "/api/v1/keys", &json!({"scopes": ["admin"], "user_ids": ["u"]}))
        .await
        .assert_error(400, "scopes");
    app.post(&admin, "/api/v1/keys", &json!({"user_ids": []})).await.assert_error(400, "user_ids");
    app.post(&admin, "/api/v1/keys", &json!({"agent_ids": [" "]})).await.assert_error(400, "agent_ids");
    let many: Vec<String> = (0..101).map(|i| format!("u{i}")).collect();
    app.post(&admin, "/api/v1/keys", &json!({"user_ids": many})).await.assert_error(400, "at most 100");
    let created = app
        .post(&admin, "/api/v1/keys", &json!({"agent_ids": ["bot"], "tag_prefixes": ["Project:X/"]}))
        .await
        .ok(201)
        .clone();
    assert_eq!(created["key"]["tag_prefixes"], json!(["project:x"]));
    let id = created["key"]["id"].as_str().unwrap();
    let rotated = app.post(&admin, &format!("/api/v1/keys/{id}/rotate"), &json!({})).await.ok(201).clone();
    assert_eq!(
        (rotated["key"]["agent_ids"].clone(), rotated["key"]["tag_prefixes"].clone()),
        (json!(["bot"]), json!(["project:x"]))
    );

    // Agent and tag scopes: the single agent and tag prefix are filled in; a tag outside is refused.
    let k = rotated["api_key"].as_str().unwrap();
    let m = app.store(k, json!({"content": "the bot's note", "tags": ["project:x/notes"]})).await;
    assert_eq!((m["agent_id"].clone(), m["tags"].clone()), (json!("bot"), json!(["project:x/notes"])));
    let m = app.store(k, json!({"content": "the bot's other note"})).await;
    assert_eq!(m["tags"], json!(["project:x"]));
    app.post(k, "/api/v1/memories", &json!({"content": "elsewhere", "tags": ["project:y"]}))
        .await
        .assert_error(403, "project:x");
    let unscoped =
        app.store(&app.a.key, json!({"content": "someone else's", "agent_id": "bot", "tags": ["project:y"]})).await;
    app.get(k, &format!("/api/v1/memories/{}", unscoped["id"].as_str().unwrap())).await.assert_error(404, "");
    assert_eq!(app.get(k, "/api/v1/memories").await.ok(200)["total"], 2);
}

#[tokio::test]
async fn tokens_minted_from_an_admin_key_act_for_it_within_their_scope_and_die_with_it() {
    if crate::helpers::scoped_keys_refused(
        "tokens_minted_from_an_admin_key_act_for_it_within_their_scope_and_die_with_it",
    ) {
        return;
    }
    let app = spawn().await;
    let w = world(&app).await;
    app.post(&app.a.key, "/api/v1/tokens", &json!({})).await.assert_error(403, "admin");
    app.post(&w.admin, "/api/v1/tokens", &json!({"scopes": ["admin"]})).await.assert_error(400, "scopes");
    app.post(&w.admin, "/api/v1/tokens", &json!({"ttl_seconds": 0})).await.assert_error(400, "ttl_seconds");
    app.post(&w.admin, "/api/v1/tokens", &json!({"ttl_seconds": 3601})).await.assert_error(400, "ttl_seconds");
    app.post(&w.admin, "/api/v1/tokens", &json!({"users": ["alice"]})).await.assert_error(400, "users");

    let minted =
        app.post(&w.admin, "/api/v1/tokens", &json!({"scopes": ["read"], "user_ids": ["alice"]})).await.ok(201).clone();
    assert_eq!((minted["expires_in"].clone(), minted["user_ids"].clone()), (json!(900), json!(["alice"])));
    let read = minted["token"].as_str().unwrap();
    assert!(read.starts_with("cairn_tok_"));
    let listed = app.get(read, "/api/v1/memories").await.ok(200).clone();
    assert_eq!(listed["total"], 1);
    app.get(read, &format!("/api/v1/memories/{}", w.bob)).await.assert_error(404, "");
    app.post(read, "/api/v1/memories", &json!({"content": "a read token writes nothing"}))
        .await
        .assert_error(403, "write");

    // A write token stores as the admin key that minted it, for its end user.
    let write = app.post(&w.admin, "/api/v1/tokens", &json!({"user_ids": ["alice"]})).await.ok(201)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let m = app.store(&write, json!({"content": "stored from Alice's phone"})).await;
    assert_eq!(
        (m["user_id"].clone(), m["created_by"].clone()),
        (json!("alice"), json!(format!("key:{}", key_id(&app, &w.admin).await)))
    );

    // A forged or altered token is refused; so is an expired one.
    let mut forged = read.to_owned();
    let last = forged.pop().unwrap();
    // 'A' to 'B' would flip only the signature's unused padding bits; 'Q' changes one it signs with.
    forged.push(if last == 'A' { 'Q' } else { 'A' });
    app.get(&forged, "/api/v1/memories").await.assert_error(401, "invalid token");
    app.get("cairn_tok_not.a.jwt", "/api/v1/memories").await.assert_error(401, "invalid token");
    let short = app.post(&w.admin, "/api/v1/tokens", &json!({"ttl_seconds": 1})).await.ok(201)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    app.get(&short, "/api/v1/memories").await.assert_error(401, "expired");

    // Revoking the admin key ends every token it minted, at once.
    let admin_id = key_id(&app, &w.admin).await;
    let other_admin = new_key(&app.db, app.a.id, &["admin"]).await;
    app.delete(&other_admin, &format!("/api/v1/keys/{admin_id}")).await.ok(200);
    app.get(read, "/api/v1/memories").await.assert_error(401, "invalid token");
}

#[tokio::test]
async fn the_database_hides_what_lies_outside_the_scope_of_the_transaction() {
    if crate::helpers::scoped_keys_refused("the_database_hides_what_lies_outside_the_scope_of_the_transaction") {
        return;
    }
    let app = spawn().await;
    let w = world(&app).await;
    let scope = hex(&json!({"users": ["alice"]}).to_string());
    let mut conn = app.superuser_conn().await;
    let mut tx = app_role_tx(&mut conn, Some(app.a.id)).await;
    tx.execute(format!("SET LOCAL app.scope = '{scope}'").as_str()).await.unwrap();
    let count = |table: &str| format!("SELECT count(*) FROM {table}");
    let memories: i64 = sqlx::query_scalar(&count("memories")).fetch_one(&mut *tx).await.unwrap();
    let relations: i64 = sqlx::query_scalar(&count("relations")).fetch_one(&mut *tx).await.unwrap();
    let events: i64 = sqlx::query_scalar(&count("memory_events")).fetch_one(&mut *tx).await.unwrap();
    assert_eq!((memories, relations, events), (1, 0, 1), "only Alice's memory and its history");
    let refused =
        sqlx::query("INSERT INTO memories (tenant_id, content, content_hash, user_id) VALUES ($1, 'x', 'h', 'bob')")
            .bind(app.a.id)
            .execute(&mut *tx)
            .await
            .unwrap_err();
    assert!(refused.to_string().contains("row-level security"), "{refused}");
    drop(tx);
    // Without a scope the same role sees the whole tenant.
    let mut tx = app_role_tx(&mut conn, Some(app.a.id)).await;
    let memories: i64 = sqlx::query_scalar(&count("memories")).fetch_one(&mut *tx).await.unwrap();
    let relations: i64 = sqlx::query_scalar(&count("relations")).fetch_one(&mut *tx).await.unwrap();
    assert_eq!((memories, relations), (3, 1));
    let _ = w.bob;
}

fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}
