//! Export and import: a tenant's data as JSON Lines, restored into another tenant with the same recall.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

/// Stores a small graph in tenant a: memories with tags, metadata and importance, an association, an edit.
async fn seed(app: &TestApp) -> Vec<String> {
    let key = &app.a.key;
    let mut ids = Vec::new();
    for (content, tags, importance) in [
        ("Deploys happen on Fridays after the review", vec!["ops", "deploy"], 0.9),
        ("The review needs two approvals", vec!["process"], 0.6),
        ("Rollbacks use the blue-green switch", vec!["ops"], 0.4),
    ] {
        let stored = app
            .store(
                key,
                json!({"content": content, "tags": tags, "importance": importance, "metadata": {"source": "wiki"}}),
            )
            .await;
        ids.push(stored["id"].as_str().unwrap().to_owned());
    }
    app.post(
        key,
        "/api/v1/associations",
        &json!({"memory1_id": ids[0], "memory2_id": ids[1], "type": "RelatedTo", "strength": 0.8}),
    )
    .await
    .ok(201);
    app.patch(key, &format!("/api/v1/memories/{}", ids[2]), &json!({"importance": 0.5})).await.ok(200);
    ids
}

async fn export(app: &TestApp, key: &str, query: &str) -> String {
    let res = app.client.get(app.url(&format!("/api/v1/export{query}"))).bearer_auth(key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    res.text().await.unwrap()
}

async fn import(app: &TestApp, key: &str, body: String) -> crate::helpers::Res {
    app.import(key, body).await
}

fn memories(listing: &Value) -> Vec<Value> {
    let mut all: Vec<Value> = listing["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            json!({"id": m["id"], "content": m["content"], "tags": m["tags"], "importance": m["importance"],
                "metadata": m["metadata"], "created_at": m["created_at"]})
        })
        .collect();
    all.sort_by_key(|m| m["id"].as_str().unwrap().to_owned());
    all
}

#[tokio::test]
async fn an_export_imported_into_another_tenant_recalls_the_same() {
    let app = spawn().await;
    let ids = seed(&app).await;
    let text = export(&app, &app.a.key, "").await;
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["type"], "cairn_export");
    assert_eq!(lines[0]["version"], 1);
    let count = |t: &str| lines.iter().filter(|l| l["type"] == t).count();
    assert_eq!(count("memories"), 3);
    assert_eq!(count("relations"), 1);
    assert!(count("memory_events") >= 4, "history travels: {}", count("memory_events"));
    assert!(lines.iter().filter(|l| l["type"] == "memories").all(|l| l["data"].get("embedding").is_none()));
    assert!(!text.contains(&app.a.id.to_string()[..8]) || lines[0]["tenant_id"] == app.a.id.to_string());

    let report = import(&app, &app.b.key, text.clone()).await;
    let report = report.ok(200).clone();
    assert_eq!(report["failed_batches"], 0, "{report}");
    assert_eq!(report["inserted"]["memories"], 3);
    assert_eq!(report["inserted"]["relations"], 1);

    let a = app.get(&app.a.key, "/api/v1/memories?limit=50").await.ok(200).clone();
    let b = app.get(&app.b.key, "/api/v1/memories?limit=50").await.ok(200).clone();
    assert_eq!(memories(&a), memories(&b));
    for query in ["review", "ops deploy Fridays", "rollbacks"] {
        let path = format!("/api/v1/recall?query={}&mode=keyword", query.replace(' ', "+"));
        let ra = app.get(&app.a.key, &path).await.ok(200).clone();
        let rb = app.get(&app.b.key, &path).await.ok(200).clone();
        let pick = |r: &Value| {
            r["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| (h["memory"]["id"].clone(), h["score"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(&ra), pick(&rb), "recall of {query:?} differs after the round trip");
        assert!(!pick(&ra).is_empty());
    }
    let related = app.get(&app.b.key, &format!("/api/v1/memories/{}/related", ids[0])).await.ok(200).clone();
    assert!(related.to_string().contains(&ids[1]), "{related}");
    let history = app.get(&app.b.key, &format!("/api/v1/memories/{}/history", ids[2])).await.ok(200).clone();
    assert!(history.to_string().contains("updated"), "{history}");
    assert!(history.to_string().contains("import:"), "imported history says so: {history}");

    // Again: everything is already there.
    let again = import(&app, &app.b.key, text).await.ok(200).clone();
    assert_eq!(again["inserted"]["memories"], 0, "{again}");
    assert_eq!(again["skipped"]["memories"], 3);
    assert_eq!(app.count(&app.b.key).await, 3);

    // Into a tenant that already holds one of the memories under another id: that memory is skipped, and the
    // association that names the exported id is skipped with it instead of failing its batch.
    let tenant_c = cairn::store::tenants::create_tenant(app.db.owner(), "tenant-c", "unlimited", &Default::default())
        .await
        .unwrap();
    let c_key = crate::helpers::new_key(&app.db, tenant_c.id, &["read", "write"]).await;
    app.store_text(&c_key, "Deploys happen on Fridays after the review").await;
    let text = export(&app, &app.a.key, "").await;
    let report = import(&app, &c_key, text).await.ok(200).clone();
    assert_eq!(report["failed_batches"], 0, "{report}");
    assert_eq!((report["inserted"]["memories"].as_u64(), report["skipped"]["memories"].as_u64()), (Some(2), Some(1)));
    assert_eq!(report["skipped"]["relations"], 1, "{report}");
}

#[tokio::test]
async fn a_broken_batch_is_reported_and_the_others_land() {
    let app = spawn().await;
    let mut body = String::from("{\"type\":\"cairn_export\",\"version\":1}\n");
    for i in 0..600 {
        let id = uuid::Uuid::new_v4();
        body.push_str(
            &json!({"type": "memories", "data": {"id": id, "content": format!("imported memory {i}"),
            "content_hash": format!("{:064x}", i), "tags": [], "tag_prefixes": [], "importance": 0.5}})
            .to_string(),
        );
        body.push('\n');
    }
    // An association whose memories are missing is skipped; a value of the wrong type fails its batch.
    body.push_str("{\"type\":\"relations\",\"data\":{\"id\":\"00000000-0000-0000-0000-000000000001\",\"source_id\":\"00000000-0000-0000-0000-000000000002\",\"target_id\":\"00000000-0000-0000-0000-000000000003\",\"rel_type\":\"RELATES_TO\",\"strength\":0.5}}\n");
    body.push_str(&json!({"type": "memories", "data": {"id": uuid::Uuid::new_v4(), "content": "typed wrong", "importance": "high"}}).to_string());
    body.push('\n');
    let report = import(&app, &app.a.key, body).await.ok(200).clone();
    assert_eq!(report["batches"], 2, "{report}");
    assert_eq!(report["failed_batches"], 1, "{report}");
    assert_eq!(report["errors"][0]["first_line"], 501);
    assert_eq!(report["inserted"]["memories"], 499, "the first batch: header and 499 memories");
    assert_eq!(app.count(&app.a.key).await, 499, "nothing of the failed batch was written");

    let bad = import(&app, &app.a.key, "{\"type\":\"nonsense\",\"data\":{}}\n".into()).await.ok(200).clone();
    assert!(bad["errors"][0]["message"].as_str().unwrap().contains("line 1: unknown type"), "{bad}");
    let not_json = app
        .client
        .post(app.url("/api/v1/import"))
        .bearer_auth(&app.a.key)
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    TestApp::read(not_json).await.assert_error(415, "Content-Type");
    let read_only = crate::helpers::new_key(&app.db, app.a.id, &["read"]).await;
    import(&app, &read_only, "{}\n".into()).await.assert_error(403, "write");
    app.send(Method::GET, "/api/v1/export", None, None).await.assert_error(401, "missing API key");
}

#[tokio::test]
async fn the_cli_exports_and_imports_with_vectors() {
    let app = spawn().await;
    seed(&app).await;
    let file = std::env::temp_dir().join(format!("cairn-export-{}.jsonl", uuid::Uuid::new_v4()));
    let run = |args: Vec<String>| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .env("DATABASE_URL", &app.db_url)
            .env("CAIRN_APP_DATABASE_URL", crate::helpers::app_url(&app.db_url))
            .env("RUST_LOG", "warn")
            .output()
            .unwrap()
    };
    let out = run(vec!["export".into(), "--tenant".into(), app.a.id.to_string(), "--vectors".into()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&file, &out.stdout).unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("exported 3 memories"));
    let out = run(vec!["import".into(), "--tenant".into(), app.b.id.to_string(), file.display().to_string()]);
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["inserted"]["memories"], 3, "{report}");
    assert_eq!(app.count(&app.b.key).await, 3);
}

#[tokio::test]
async fn an_export_near_every_limit_imports_whole() {
    // Metadata at the tenant's quota, a summarised memory (its original in metadata), a superseded one (the
    // service's record in its metadata), history snapshots larger than the metadata quota, metadata 32 levels
    // deep: what an export holds, an import under the same limits takes back.
    let app = spawn().await;
    let limits = json!({"max_metadata_bytes": 2000});
    for tenant in [app.a.id, app.b.id] {
        sqlx::query("UPDATE tenants SET limits = $2 WHERE id = $1")
            .bind(tenant)
            .bind(&limits)
            .execute(&mut app.superuser_conn().await)
            .await
            .unwrap();
        app.services.keys.forget(&format!("tenant:{tenant}"));
    }
    let key = &app.a.key;
    let deep = (1..32).fold(json!({"leaf": 1}), |inner, _| json!({ "n": inner }));
    let padded = json!({"pad": "p".repeat(1900)});
    let long = "Deploys happen on Fridays. ".repeat(60);
    let first = app.store(key, json!({"content": long, "metadata": padded})).await;
    let old = app.store(key, json!({"content": "the old rule", "metadata": deep})).await;
    let body = json!({"content": "the new rule", "supersedes_memory_id": old["id"], "supersede_reason": "changed"});
    app.post(key, "/api/v1/memories", &body).await.ok(201);
    app.patch(key, &format!("/api/v1/memories/{}", first["id"].as_str().unwrap()), &json!({"importance": 0.7}))
        .await
        .ok(200);
    let text = export(&app, key, "").await;
    let report = import(&app, &app.b.key, text).await.ok(200).clone();
    assert_eq!(report["failed_batches"], 0, "{report}");
    assert_eq!(report["inserted"]["memories"], 3, "{report}");
    assert!(report["inserted"]["memory_events"].as_u64().unwrap() >= 4, "{report}");
}
