//! Enrichment beyond entities: PRECEDED_BY links (episode, else the same user's last 7 days), SIMILAR_TO
//! links at the cosine threshold, summary and quality, enrichment status and reprocessing.

use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

async fn related(app: &TestApp, key: &str, id: &str, kind: &str) -> Vec<(String, f64)> {
    let res = app.get(key, &format!("/api/v1/memories/{id}/related?types={kind}")).await.ok(200).clone();
    let mut out: Vec<(String, f64)> = res["related"]
        .as_array()
        .unwrap_or_else(|| panic!("{res}"))
        .iter()
        .map(|r| (r["memory"]["content"].as_str().unwrap().to_owned(), r["path_strength"].as_f64().unwrap()))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

async fn store(app: &TestApp, key: &str, body: Value) -> String {
    app.store(key, body).await["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn preceded_by_links_follow_the_episode_else_the_users_last_week() {
    let app = spawn().await;
    let key = &app.a.key;
    let mut episode = Vec::new();
    for (seq, text) in [(2, "second step"), (1, "first step"), (3, "third step")] {
        episode.push(store(&app, key, json!({"content": text, "episode_id": "ep", "sequence_number": seq})).await);
    }
    let ten_days = (chrono::Utc::now() - chrono::Duration::days(10)).to_rfc3339();
    let two_days = (chrono::Utc::now() - chrono::Duration::days(2)).to_rfc3339();
    store(&app, key, json!({"content": "long ago", "user_id": "u1", "created_at": ten_days})).await;
    store(&app, key, json!({"content": "earlier this week", "user_id": "u1", "created_at": two_days})).await;
    let now_u1 = store(&app, key, json!({"content": "today for u1", "user_id": "u1"})).await;
    let now_u2 = store(&app, key, json!({"content": "today for u2", "user_id": "u2"})).await;
    app.run_enrichment().await;

    // Episode order is by sequence number, whatever the order of storing.
    assert_eq!(related(&app, key, &episode[2], "PRECEDED_BY").await, [("second step".to_owned(), 1.0)]);
    assert_eq!(
        related(&app, key, &episode[0], "PRECEDED_BY").await,
        [("first step".to_owned(), 1.0), ("third step".to_owned(), 1.0)]
    );
    // Outside an episode: the same user's latest memory within 7 days.
    let u1 = related(&app, key, &now_u1, "PRECEDED_BY").await;
    assert_eq!(u1, [("earlier this week".to_owned(), 0.5)]);
    assert!(related(&app, key, &now_u2, "PRECEDED_BY").await.is_empty(), "another user's memories are not linked");
    // Eight days lie between "long ago" and "earlier this week": no link.
    let listed = app.get(key, "/api/v1/memories?user_id=u1").await.ok(200).clone();
    let earlier = listed["memories"].as_array().unwrap().iter().find(|m| m["content"] == "earlier this week").unwrap();
    let around = related(&app, key, earlier["id"].as_str().unwrap(), "PRECEDED_BY").await;
    assert_eq!(around, [("today for u1".to_owned(), 0.5)], "only the later memory points to it");
    // Redelivery adds nothing.
    let before = app.count_as_app_role("relations", Some(app.a.id)).await;
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    cairn::queue::enrich::enqueue(&mut tx, &[now_u1.parse().unwrap()]).await.unwrap();
    tx.commit().await.unwrap();
    app.run_enrichment().await;
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, before);
}

fn unit(cos: f64, sign: f64) -> Vec<f64> {
    let mut v = vec![0.0; 384];
    v[0] = cos;
    v[1] = sign * (1.0 - cos * cos).sqrt();
    v
}

#[tokio::test]
async fn similar_to_links_neighbours_at_cosine_080_and_not_079() {
    let app = spawn().await;
    let key = &app.a.key;
    let base = store(&app, key, json!({"content": "base vector", "embedding": unit(1.0, 1.0)})).await;
    store(&app, key, json!({"content": "just over", "embedding": unit(0.801, 1.0)})).await;
    store(&app, key, json!({"content": "just under", "embedding": unit(0.799, -1.0)})).await;
    assert_eq!(app.run_similar().await, 3, "one job per store with a supplied vector");
    let linked = related(&app, key, &base, "SIMILAR_TO").await;
    assert_eq!(linked.len(), 1, "{linked:?}");
    assert_eq!(linked[0].0, "just over");
    assert!((linked[0].1 - 0.801).abs() < 1e-3, "strength is the cosine: {linked:?}");
    // Each pair once, however often the jobs run.
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    cairn::queue::similar::enqueue(&mut tx, &[base.parse().unwrap()]).await.unwrap();
    tx.commit().await.unwrap();
    app.run_similar().await;
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, 1);
    // Repeats of one content (`on_duplicate: store`) are not linked to each other, only to what resembles them.
    let copy = json!({"content": "just over", "embedding": unit(0.801, 1.0)});
    let batch = json!({"memories": [copy.clone(), copy], "on_duplicate": "store"});
    app.post(key, "/api/v1/memories/batch", &batch).await.ok(201);
    app.run_similar().await;
    let linked = related(&app, key, &base, "SIMILAR_TO").await;
    assert_eq!(linked.len(), 3, "the base links to the first and both copies: {linked:?}");
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, 3, "no link among the three copies");
}

#[tokio::test]
async fn summary_quality_status_and_reprocessing() {
    let app = spawn().await;
    let key = &app.a.key;
    let rich = store(
        &app,
        key,
        json!({"content": "We moved the ledger to PostgreSQL 15 because MongoDB could not give us serializable isolation across accounts. It took 3 days with `pg_dump` and a careful cut-over plan."}),
    )
    .await;
    let given = store(&app, key, json!({"content": "Short note. More.", "quality_score": 0.42})).await;
    let status = app.get(key, "/api/v1/enrichment/status").await.ok(200).clone();
    assert_eq!((status["pending"].as_i64(), status["ready"].as_i64()), (Some(2), Some(0)));
    app.run_enrichment().await;

    let m = app.get(key, &format!("/api/v1/memories/{rich}")).await.ok(200).clone();
    assert_eq!(
        m["summary"],
        "We moved the ledger to PostgreSQL 15 because MongoDB could not give us serializable isolation across accounts."
    );
    assert!(m["quality_score"].as_f64().unwrap() > 0.8, "{m}");
    let g = app.get(key, &format!("/api/v1/memories/{given}")).await.ok(200).clone();
    assert_eq!(
        (g["summary"].as_str(), g["quality_score"].as_f64()),
        (Some("Short note."), Some(0.42)),
        "given quality stays"
    );
    assert_eq!(app.get(key, "/api/v1/enrichment/status").await.ok(200)["ready"], 2);
    // A computed score follows new content; a given one stays, also when the owner sets it later.
    let first = m["quality_score"].as_f64().unwrap();
    app.patch(key, &format!("/api/v1/memories/{rich}"), &json!({"content": "ok then"})).await.ok(200);
    app.patch(key, &format!("/api/v1/memories/{given}"), &json!({"content": "Short note, changed."})).await.ok(200);
    app.run_enrichment().await;
    let recomputed = app.get(key, &format!("/api/v1/memories/{rich}")).await.ok(200)["quality_score"].as_f64().unwrap();
    assert!(recomputed < first, "{recomputed} vs {first}");
    assert_eq!(app.get(key, &format!("/api/v1/memories/{given}")).await.ok(200)["quality_score"], 0.42);
    app.patch(key, &format!("/api/v1/memories/{rich}"), &json!({"quality_score": 0.9})).await.ok(200);
    app.patch(key, &format!("/api/v1/memories/{rich}"), &json!({"content": "ok then, again"})).await.ok(200);
    app.run_enrichment().await;
    assert_eq!(app.get(key, &format!("/api/v1/memories/{rich}")).await.ok(200)["quality_score"], 0.9);

    let queued = app.post(key, "/api/v1/enrichment/reprocess", &json!({"ids": [rich, rich]})).await.ok(202).clone();
    assert_eq!(queued["queued"], 1);
    assert_eq!(app.get(key, "/api/v1/enrichment/status").await.ok(200)["pending"], 1);
    app.post(key, "/api/v1/enrichment/reprocess", &json!({"ids": []}))
        .await
        .assert_error(400, "ids: must list 1..=500");
    let ghost = uuid::Uuid::new_v4();
    app.post(key, "/api/v1/enrichment/reprocess", &json!({"ids": [ghost]})).await.assert_error(404, "ids: memory");
    app.post(&app.b.key, "/api/v1/enrichment/reprocess", &json!({"ids": [given]}))
        .await
        .assert_error(404, "ids: memory");
    assert_eq!(app.get(&app.b.key, "/api/v1/enrichment/status").await.ok(200)["ready"], 0);
}

/// Enrichment writes a memory once: its entity tags, summary, quality and status in one row version. Each
/// extra version is a new entry in every index of `memories` (its two HNSW graphs among them), and the three
/// updates it made before cost a third of a 700-turn conversation's embedding time (issue 28).
#[tokio::test]
async fn enrichment_writes_each_memory_once() {
    let app = spawn().await;
    let key = &app.a.key;
    let id =
        store(&app, key, json!({"content": "Alice met Bob at Acme Corp in Paris to plan the launch. It went well."}))
            .await;
    let mut conn = app.superuser_conn().await;
    for statement in [
        "CREATE TABLE test_memory_updates (memory_id uuid NOT NULL)",
        "CREATE FUNCTION test_memory_updated() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
         BEGIN INSERT INTO test_memory_updates VALUES (NEW.id); RETURN NEW; END $$",
        "CREATE TRIGGER test_memory_updated AFTER UPDATE ON memories FOR EACH ROW EXECUTE FUNCTION test_memory_updated()",
    ] {
        sqlx::query(statement).execute(&mut conn).await.unwrap();
    }
    assert_eq!(app.run_enrichment().await, 1);

    let updates: i64 = sqlx::query_scalar("SELECT count(*) FROM test_memory_updates WHERE memory_id = $1::uuid")
        .bind(&id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(updates, 1, "one row version for the whole enrichment");
    let m = app.get(key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    let tags: Vec<&str> = m["tags"].as_array().unwrap().iter().filter_map(|t| t.as_str()).collect();
    assert!(tags.iter().any(|t| t.starts_with("entity:")), "entity tags: {m}");
    assert_eq!(m["summary"], "Alice met Bob at Acme Corp in Paris to plan the launch.", "{m}");
    assert!(m["quality_score"].as_f64().is_some(), "{m}");
    assert_eq!(app.get(key, "/api/v1/enrichment/status").await.ok(200)["ready"], 1);
}

/// An enrichment job that started just before a burst of embedding (both are enqueued by the same store, and
/// either may start first) pauses at its next memory until the burst is over (issue 28), instead of running its
/// whole length beside the model.
#[tokio::test]
async fn a_started_enrichment_job_pauses_for_a_burst_of_embedding_that_began_after_it() {
    use cairn::jobs::{enrich, EmbedFirst};
    let app = spawn().await;
    let items: Vec<Value> = (0..200)
        .map(|i| json!({"content": format!("Ada Lovelace wrote program {i} in London with Babbage")}))
        .collect();
    let stored = app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": items})).await.ok(201).clone();
    let ids: Vec<uuid::Uuid> =
        stored["items"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().parse().unwrap()).collect();
    assert_eq!(ids.len(), 200, "{stored}");
    let first = EmbedFirst::new(true);
    let ctx = std::sync::Arc::new(enrich::EnrichContext {
        db: app.db.clone(),
        extractor: enrich::Extractor::Local,
        usage: Default::default(),
        first: first.clone(),
    });
    let enriched = || async {
        let mut conn = app.superuser_conn().await;
        let sql = "SELECT count(*) FROM memories WHERE tenant_id = $1 AND enrichment_status = 'ready'";
        sqlx::query_scalar::<_, i64>(sql).bind(app.a.id).fetch_one(&mut conn).await.unwrap()
    };

    let tenant = app.a.id;
    let mut job = tokio::spawn(async move { enrich::enrich(&ctx, tenant, &ids).await.map_err(|e| format!("{e:#}")) });
    // The job is under way; then the embedding begins.
    let started = std::time::Instant::now();
    while enriched().await == 0 {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the job never enriched a memory");
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let embedding = first.embedding();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let during = enriched().await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(enriched().await, during, "enrichment went on beside a young burst of embedding");
    assert!(during < 200 && !job.is_finished(), "the job finished beside the burst");

    drop(embedding);
    let done = tokio::time::timeout(std::time::Duration::from_secs(10), &mut job).await;
    assert_eq!(done.expect("still paused 10 s after the burst ended").unwrap(), Ok(200));
    assert_eq!(enriched().await, 200);
}
