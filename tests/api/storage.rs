//! The storage quota counts everything a tenant stores — memories' content and metadata, their history, the
//! trash, associations and entities — on every write that grows it, imports included; `/api/v1/usage` reports
//! the figure a scan of the tables finds.

use serde_json::{json, Value};

use crate::helpers::TestApp;

/// What a tenant stores, counted row by row as the superuser (row-level security hides nothing from it), with
/// the database's one definition of each row's bytes.
async fn scanned_bytes(app: &TestApp, tenant: uuid::Uuid) -> i64 {
    let mut conn = app.superuser_conn().await;
    sqlx::query_scalar(
        "SELECT ((SELECT coalesce(sum(cairn_memory_bytes(content, metadata, tags, summary)), 0) FROM memories WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('memory_events', to_jsonb(x))), 0) FROM memory_events x WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('memory_trash', to_jsonb(x))), 0) FROM memory_trash x WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('relations', to_jsonb(x))), 0) FROM relations x WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('entities', to_jsonb(x))), 0) FROM entities x WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('entity_aliases', to_jsonb(x))), 0) FROM entity_aliases x WHERE tenant_id = $1)
              + (SELECT coalesce(sum(cairn_stored_bytes('memory_entities', to_jsonb(x))), 0) FROM memory_entities x WHERE tenant_id = $1))::bigint",
    )
    .bind(tenant)
    .fetch_one(&mut conn)
    .await
    .unwrap()
}

/// The tenant's own usage: (memories, storage_bytes).
async fn reported(app: &TestApp, key: &str) -> (i64, i64) {
    let usage = app.get(key, "/api/v1/usage").await.ok(200).clone();
    (usage["memories"].as_i64().unwrap(), usage["storage_bytes"].as_i64().unwrap())
}

/// Sets the tenant's limits, as an operator would (and forgets the cached ones at once).
async fn limit(app: &TestApp, tenant: uuid::Uuid, limits: Value) {
    sqlx::query("UPDATE tenants SET limits = $2 WHERE id = $1")
        .bind(tenant)
        .bind(limits)
        .execute(&mut app.superuser_conn().await)
        .await
        .unwrap();
    app.services.keys.forget(&format!("tenant:{tenant}"));
}

#[tokio::test]
async fn usage_reports_what_a_scan_of_every_table_finds() {
    let app = crate::helpers::spawn().await;
    let key = &app.a.key;
    let first = app.store(key, json!({"content": "Alice deploys Kubernetes", "metadata": {"team": "ops"}})).await;
    let second = app.store_text(key, "Bob reviews the Postgres migration").await;
    let first = first["id"].as_str().unwrap();
    app.patch(key, &format!("/api/v1/memories/{first}"), &json!({"metadata": {"team": "platform", "n": 2}}))
        .await
        .ok(200);
    let edge =
        json!({"memory1_id": first, "memory2_id": second, "type": "RELATES_TO", "properties": {"why": "same project"}});
    app.post(key, "/api/v1/associations", &edge).await.ok(201);
    app.run_enrichment().await;
    let doomed = app.store_text(key, "a memory for the trash").await;
    app.delete(key, &format!("/api/v1/memories/{doomed}?hard=true")).await.ok(200);
    app.store_text(&app.b.key, "another tenant's memory").await;

    let scanned = scanned_bytes(&app, app.a.id).await;
    let (memories, bytes) = reported(&app, key).await;
    assert_eq!(memories, 2);
    assert_eq!(bytes, scanned, "the reported storage is what the tables hold");
    // History, trash, associations and entities are in it: well beyond the live memories' own bytes.
    let live: i64 = sqlx::query_scalar(
        "SELECT sum(octet_length(content) + octet_length(metadata::text))::bigint FROM memories WHERE tenant_id = $1",
    )
    .bind(app.a.id)
    .fetch_one(&mut app.superuser_conn().await)
    .await
    .unwrap();
    assert!(bytes > live + 300, "{bytes} reported, {live} in live memories");
    // Folded by the rollup, the figure stays the same.
    cairn::store::usage::rollup(app.db.owner()).await.unwrap();
    assert_eq!(reported(&app, key).await.1, scanned_bytes(&app, app.a.id).await);
}

#[tokio::test]
async fn history_associations_and_imports_count_against_the_storage_quota() {
    let app = crate::helpers::spawn().await;
    let key = &app.a.key;
    let first = app.store_text(key, "one memory").await;
    let second = app.store_text(key, "another memory").await;
    let used = reported(&app, key).await.1;
    limit(&app, app.a.id, json!({"max_storage_bytes": used + 2_000, "max_metadata_bytes": 65_536})).await;

    // History grows with each edit: an edit that adds bytes is refused once history fills the quota.
    let big = "x".repeat(600);
    let mut refused = None;
    for i in 0..10 {
        let res = app
            .patch(key, &format!("/api/v1/memories/{first}"), &json!({"metadata": {"note": format!("{big}{i}")}}))
            .await;
        if res.status == 403 {
            res.assert_error(403, "max_storage_bytes");
            refused = Some(i);
            break;
        }
        res.ok(200);
    }
    assert!(refused.is_some(), "history never counted");
    // An edit that changes no size still writes history: refused too, over the quota.
    app.patch(key, &format!("/api/v1/memories/{first}"), &json!({"importance": 0.9}))
        .await
        .assert_error(403, "max_storage_bytes");
    // An association with large properties likewise.
    let edge = json!({"memory1_id": first, "memory2_id": second, "properties": {"blob": "y".repeat(3000)}});
    app.post(key, "/api/v1/associations", &edge).await.assert_error(403, "max_storage_bytes");
    // An import of history alone (no memory in the batch) is checked too: the batch fails, nothing is written.
    let events: Vec<String> = (0..20)
        .map(|i| {
            json!({"type": "memory_events", "data": {"memory_id": first, "event_type": "updated",
            "after": {"blob": format!("{big}{i}")}, "created_at": "2024-01-01T00:00:00Z"}})
            .to_string()
        })
        .collect();
    let file = format!("{}\n{}\n", json!({"type": "cairn_export", "version": 1}), events.join("\n"));
    let before = scanned_bytes(&app, app.a.id).await;
    let report = app.import(key, file).await.ok(200).clone();
    assert_eq!(report["failed_batches"], 1, "{report}");
    assert!(report["errors"][0]["message"].as_str().unwrap().contains("max_storage_bytes"), "{report}");
    assert_eq!(scanned_bytes(&app, app.a.id).await, before, "nothing of the batch was written");
    // Deleting is never refused, whatever the quota.
    app.delete(key, &format!("/api/v1/memories/{second}?hard=true")).await.ok(200);
}
