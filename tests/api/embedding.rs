//! The embedding pipeline: jobs enqueued in the storing transaction, batched embedding, retries and
//! visible failures, and the real apalis worker end to end.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::jobs::embed::{process, EmbedContext};
use cairn::models::embed::{EmbedFuture, Embedder};
use cairn::queue::embed::EmbedJob;
use serde_json::json;

use crate::helpers::{app_role_tx, local_model, spawn, spawn_with_embedder, TestApp};

#[tokio::test]
async fn storing_enqueues_an_embedding_job_in_the_same_transaction() {
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "embed me").await;
    let jobs = app.queued_jobs().await;
    assert_eq!(jobs, [json!({"tenant_id": app.a.id, "memory_ids": [id]})]);

    // A rejected store enqueues nothing: the job shares the memory's transaction.
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "EMBED me", "on_duplicate": "error"}))
        .await
        .assert_error(409, "already exists");
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": [{"content": "ok"}, {"content": ""}]}))
        .await
        .assert_error(400, "memories[1].content");
    assert_eq!(app.queued_jobs().await.len(), 1);

    // A batch is one job; a supplied embedding needs none.
    let batch = app
        .post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": [{"content": "b1"}, {"content": "b2"}, {"content": "b3", "embedding": vec![0.1_f32; 384]}]}))
        .await
        .ok(201)
        .clone();
    let jobs = app.queued_jobs().await;
    assert_eq!(jobs.len(), 2);
    assert_eq!(jobs[1]["memory_ids"].as_array().unwrap().len(), 2);
    assert!(!jobs[1]["memory_ids"].as_array().unwrap().contains(&batch["memory_ids"][2]));

    // Only a content change re-embeds.
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"importance": 0.9})).await.ok(200);
    assert_eq!(app.queued_jobs().await.len(), 2);
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"content": "embed me again"})).await.ok(200);
    assert_eq!(app.queued_jobs().await.len(), 3);
}

#[tokio::test]
async fn the_server_role_can_only_enqueue_for_its_own_tenant_and_cannot_read_the_queue() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let forged = json!({"tenant_id": app.b.id, "memory_ids": []});

    // As tenant A, a payload naming tenant B is stamped with A.
    let mut tx = app_role_tx(&mut conn, None).await;
    sqlx::query("SELECT set_config('app.tenant_id', $1, true)")
        .bind(app.a.id.to_string())
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("SELECT cairn_enqueue('cairn::embed', $1)").bind(&forged).execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(app.queued_jobs().await, [json!({"tenant_id": app.a.id, "memory_ids": []})]);

    // The queue itself is out of the role's reach.
    let mut tx = app_role_tx(&mut conn, None).await;
    let read = sqlx::query("SELECT count(*) FROM apalis.jobs").execute(&mut *tx).await.unwrap_err();
    assert!(read.to_string().contains("permission denied"), "{read}");
    drop(tx);

    // Without a tenant, nothing can be enqueued.
    let mut tx = app_role_tx(&mut conn, None).await;
    let err =
        sqlx::query("SELECT cairn_enqueue('cairn::embed', $1)").bind(&forged).execute(&mut *tx).await.unwrap_err();
    assert!(err.to_string().contains("needs app.tenant_id"), "{err}");
}

#[tokio::test]
async fn the_worker_embeds_pending_memories_and_recall_then_finds_them_by_meaning() {
    let app = spawn_with_embedder(local_model()).await;
    let items = json!({"memories": [
        {"content": "We chose PostgreSQL as the primary datastore for its ACID transactions."},
        {"content": "The office plants need watering twice a week."},
        {"content": "Bob is allergic to peanuts."}
    ]});
    let stored = app.post(&app.a.key, "/api/v1/memories/batch", &items).await.ok(201).clone();
    assert!(stored["memories"].as_array().unwrap().iter().all(|m| m["embedding_status"] == "pending"));
    assert_eq!(app.drain_jobs().await, 1);
    let listed = app.get(&app.a.key, "/api/v1/memories").await.ok(200).clone();
    for m in listed["memories"].as_array().unwrap() {
        assert_eq!(
            (m["embedding_status"].as_str(), m["embedding_model"].as_str()),
            (Some("ready"), Some("all-MiniLM-L6-v2"))
        );
    }
    let found = app
        .post(
            &app.a.key,
            "/api/v1/recall",
            &json!({"query": "which database do we use?", "mode": "semantic", "limit": 1}),
        )
        .await
        .ok(200)
        .clone();
    assert!(found["results"][0]["memory"]["content"].as_str().unwrap().contains("PostgreSQL"));

    // New content is embedded again.
    let id = found["results"][0]["memory"]["id"].as_str().unwrap().to_owned();
    app.patch(&app.a.key, &format!("/api/v1/memories/{id}"), &json!({"content": "Our cat is named Miso."}))
        .await
        .ok(200);
    app.drain_jobs().await;
    let cat = app
        .post(&app.a.key, "/api/v1/recall", &json!({"query": "pet's name", "mode": "semantic", "limit": 1}))
        .await
        .ok(200)
        .clone();
    assert_eq!(cat["results"][0]["memory"]["id"], id.as_str());
    assert_eq!(cat["results"][0]["memory"]["embedding_status"], "ready");
}

/// What a job of the app's embedder runs with, as a worker's (context vectors embedded by the model).
fn job_context(app: &TestApp) -> EmbedContext {
    EmbedContext {
        db: app.db.clone(),
        embedder: app.embedder.clone(),
        usage: Default::default(),
        vectors: cairn::config::ContextVectors::Model.into(),
        first: cairn::jobs::EmbedFirst::new(false),
    }
}

#[tokio::test]
async fn a_job_takes_other_pending_memories_of_its_tenant_along() {
    let app = spawn_with_embedder(local_model()).await;
    for i in 0..5 {
        app.store_text(&app.a.key, &format!("sweep candidate {i}")).await;
    }
    let job = EmbedJob { tenant_id: app.a.id, memory_ids: vec![] };
    let ctx = job_context(&app);
    process(&ctx, &job, 0).await.unwrap();
    let listed = app.get(&app.a.key, "/api/v1/memories").await.ok(200).clone();
    assert!(listed["memories"].as_array().unwrap().iter().all(|m| m["embedding_status"] == "ready"));
}

struct FailingEmbedder;

impl Embedder for FailingEmbedder {
    fn model(&self) -> &str {
        "failing"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, _texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async { Err(anyhow::anyhow!("upstream embedding service answered 503")) })
    }
}

/// Answers its first call for memories (a unit vector for each text) and fails every later one; the calibration's
/// probes, which hold no "memory", are answered.
struct FailsAfterOneCall(std::sync::atomic::AtomicUsize);

impl Embedder for FailsAfterOneCall {
    fn model(&self) -> &str {
        "fails-after-one-call"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let memories = texts.iter().any(|t| t.contains("memory"));
        let first = !memories || self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0;
        Box::pin(async move {
            let mut unit = vec![0.0_f32; 384];
            unit[0] = 1.0;
            match first {
                true => Ok(vec![unit; texts.len()]),
                false => Err(anyhow::anyhow!("upstream embedding service answered 503")),
            }
        })
    }
}

/// A job that fails after some of its batches were written has those metered: they are stored (and its retry
/// finds them ready, so it writes and meters them no more). The job used to meter only when it succeeded.
#[tokio::test]
async fn embeddings_a_failed_job_wrote_are_metered() {
    let app = spawn_with_embedder(Arc::new(FailsAfterOneCall(Default::default()))).await;
    let memories: Vec<_> = (0..40).map(|i| json!({"content": format!("metered memory {i}")})).collect();
    let stored = app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": memories})).await.ok(201).clone();
    let ids: Vec<uuid::Uuid> =
        stored["memory_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse().unwrap()).collect();
    let job = EmbedJob { tenant_id: app.a.id, memory_ids: ids };
    let ctx = job_context(&app);
    let retry = process(&ctx, &job, 0).await.unwrap_err();
    assert!(retry.contains("503"), "{retry}");
    ctx.usage.flush(&app.db).await.unwrap();
    let mut conn = app.superuser_conn().await;
    let (ready, metered): (i64, Option<i64>) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM memories WHERE tenant_id = $1 AND embedding_status = 'ready'),
                (SELECT sum(value)::int8 FROM usage_daily WHERE tenant_id = $1 AND counter = 'embeddings')",
    )
    .bind(app.a.id)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!((ready, metered), (32, Some(32)), "a batch of 32 was written before the second failed");
}

#[tokio::test]
async fn failures_retry_and_stay_visible_until_the_last_attempt_marks_them_failed() {
    let app = spawn_with_embedder(Arc::new(FailingEmbedder)).await;
    let id = app.store_text(&app.a.key, "doomed").await;
    let job = EmbedJob { tenant_id: app.a.id, memory_ids: vec![id.parse().unwrap()] };
    let ctx = job_context(&app);
    let retry = process(&ctx, &job, 0).await.unwrap_err();
    assert!(retry.contains("503"));
    let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(m["embedding_status"], "pending");
    assert!(m["embedding_error"].as_str().unwrap().contains("upstream embedding service answered 503"));

    process(&ctx, &job, cairn::queue::embed::MAX_ATTEMPTS - 1).await.expect("the last attempt gives up cleanly");
    let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert_eq!(m["embedding_status"], "failed");
    // The memory is still found by its words.
    let found =
        app.post(&app.a.key, "/api/v1/recall", &json!({"query": "doomed", "mode": "keyword"})).await.ok(200).clone();
    assert_eq!(found["count"], 1);
    assert!(cairn::jobs::embed::backoff(1) < cairn::jobs::embed::backoff(3));
    assert_eq!(cairn::jobs::embed::backoff(30), Duration::from_secs(60));
}

#[tokio::test]
async fn the_apalis_worker_processes_the_queue_end_to_end() {
    let app = spawn_with_embedder(local_model()).await;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(cairn::jobs::run_workers(
        app.services.clone(),
        cairn::jobs::enrich::Extractor::Local,
        cairn::queue::Workers::All,
        async move {
            let _ = stopped.await;
        },
    ));
    let id = app.store_text(&app.a.key, "processed by the real worker").await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
        if m["embedding_status"] == "ready" {
            break;
        }
        assert!(Instant::now() < deadline, "the worker never embedded the memory: {m}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), workers).await.expect("workers stop on shutdown").unwrap();
}

/// A worker takes embedding jobs only once its model has loaded. Taken at once, a job failed an attempt ("the
/// embedding model is not ready", written on the memory) and waited out a backoff before its retry; where the
/// model never loads, every attempt failed and the memories were failed for good, where another process
/// could have embedded them. The worker runs the enrichment queue too: once its job is done, the worker has
/// polled its queues for a while.
#[tokio::test]
async fn a_worker_takes_embedding_jobs_only_once_its_model_has_loaded() {
    use cairn::models::embed::{EmbedderSlot, SlotState};
    let app = spawn_with_embedder(local_model()).await;
    let id = app.store_text(&app.a.key, "stored while the worker's model was loading").await;
    let mut conn = app.superuser_conn().await;
    let queues = || cairn::queue::Workers::Only(vec![cairn::queue::embed::QUEUE, cairn::queue::enrich::QUEUE]);
    let start = |slot: EmbedderSlot| {
        let mut services = app.services.clone();
        services.embedder = slot;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let extractor = cairn::jobs::enrich::Extractor::Local;
        let workers = tokio::spawn(cairn::jobs::run_workers(services, extractor, queues(), async move {
            let _ = stopped.await;
        }));
        (stop, workers)
    };
    // The queue's one job: its status and the attempts apalis counted.
    async fn job(conn: &mut sqlx::PgConnection, queue: &str) -> (String, i32) {
        let sql = "SELECT status, attempts FROM apalis.jobs WHERE job_type = $1";
        sqlx::query_as(sql).bind(queue).fetch_one(conn).await.unwrap()
    }
    let untouched = |m: &serde_json::Value| m["embedding_status"] == "pending" && m["embedding_error"].is_null();

    // A model that fails to load: the job is left for another process.
    let failing = EmbedderSlot::disabled();
    failing.load_local_in_background(std::path::PathBuf::from("/nonexistent/model"), 384);
    assert!(matches!(failing.settled().await, SlotState::Failed(_)));
    let (stop, workers) = start(failing);
    let deadline = Instant::now() + Duration::from_secs(60);
    while job(&mut conn, cairn::queue::enrich::QUEUE).await.0 != "Done" {
        assert!(Instant::now() < deadline, "the enrichment job never ran");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await; // four polls of the embedding queue
    let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert!(untouched(&m), "a worker without its model took the job: {m}");
    assert_eq!(job(&mut conn, cairn::queue::embed::QUEUE).await, ("Pending".to_owned(), 0));
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), workers).await.expect("workers stop on shutdown").unwrap();

    // A model still loading: the job waits for it, then runs once.
    let loading = EmbedderSlot::loading();
    let (stop, workers) = start(loading.clone());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert!(untouched(&m), "a worker whose model was loading took the job: {m}");
    assert_eq!(job(&mut conn, cairn::queue::embed::QUEUE).await, ("Pending".to_owned(), 0));
    loading.fill(local_model());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let m = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
        if m["embedding_status"] == "ready" {
            assert!(m["embedding_error"].is_null(), "{m}");
            break;
        }
        assert!(Instant::now() < deadline, "the worker never embedded the memory once its model loaded: {m}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    // Acknowledged once, on its first delivery (apalis writes the acknowledgement a moment later).
    while job(&mut conn, cairn::queue::embed::QUEUE).await.0 != "Done" {
        assert!(Instant::now() < deadline, "the embedding job was never acknowledged");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(job(&mut conn, cairn::queue::embed::QUEUE).await, ("Done".to_owned(), 1));
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), workers).await.expect("workers stop on shutdown").unwrap();
}

/// A batch's vectors are written without reading the tenant's memories once per member of the batch. A new
/// tenant's rows are estimated at a handful until the next ANALYZE, and the write then scanned the tenant's
/// memories, and looked up their predecessors, once for each member of the batch (54 of 84 ms per batch of 32
/// with 700 turns stored, conversation bench; quadratic in a bulk import). Explained and executed under the
/// application role on 3,000 pending turns in episodes, unanalysed, with generic and custom plans of the
/// prepared statement: its predecessors are materialised, a scan of memories repeated in a loop reads at most
/// a batch's rows each time, and the batch is written and folded.
#[tokio::test]
async fn writing_a_batchs_vectors_never_reads_the_tenant_once_per_batch_member() {
    use sqlx::Executor;
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    sqlx::query(
        "INSERT INTO memories (tenant_id, content, content_hash, episode_id, sequence_number)
         SELECT $1, 'turn number ' || g, md5(g::text), 'session-' || (g / 20), g % 20 + 1
           FROM generate_series(0, 2999) g",
    )
    .bind(app.a.id)
    .execute(&mut conn)
    .await
    .unwrap();
    // Unanalysed, as a new tenant's rows are to the planner: autovacuum would analyse after 3,000 inserts.
    conn.execute("ALTER TABLE memories SET (autovacuum_enabled = off)").await.unwrap();
    type Row = (uuid::Uuid, String, String, Option<String>);
    let batch: Vec<Row> = sqlx::query_as(
        "SELECT id, content_hash, content, context FROM memories WHERE tenant_id = $1
          ORDER BY episode_id, sequence_number LIMIT 32",
    )
    .bind(app.a.id)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let sql = cairn::store::embedding::write_vectors_sql();
    // The arguments as literals: EXECUTE's cannot be bound.
    let text = |v: &str| format!("'{}'", v.replace('\'', "''"));
    let array = |items: Vec<String>, of: &str| format!("ARRAY[{}]::{of}[]", items.join(", "));
    let vector = |i: usize| text(&format!("[{}]", vec![format!("{}", 0.01 * (i as f32 + 1.0)); 384].join(",")));
    let explain = format!(
        "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE write_vectors({}, {}, {}, {}, 'test-model', true, {}, {}, {}, 0.5, {}, {}, true)",
        text(&app.a.id.to_string()),
        array(batch.iter().map(|b| text(&b.0.to_string())).collect(), "uuid"),
        array((0..batch.len()).map(vector).collect(), "vector"),
        array(batch.iter().map(|b| text(&b.1)).collect(), "text"),
        array(batch.iter().map(|b| text(&b.2)).collect(), "text"),
        array(batch.iter().map(|b| b.3.as_deref().map_or("NULL".into(), text)).collect(), "text"),
        array(vec!["NULL".into(); batch.len()], "vector"),
        // Two runs of sentences for the batch's third memory.
        array(vec![vector(40), vector(41)], "vector"),
        "ARRAY[3, 3]::int[]",
    );
    for mode in ["force_generic_plan", "force_custom_plan"] {
        let mut tx = app_role_tx(&mut conn, Some(app.a.id)).await;
        tx.execute(format!("SET LOCAL plan_cache_mode = {mode}").as_str()).await.unwrap();
        // Prepared, as the worker's connection holds it: an EXPLAIN of the statement itself would plan it with
        // the values, whatever plan_cache_mode says.
        let types = "uuid, uuid[], vector[], text[], text, bool, text[], text[], vector[], real, vector[], int[], bool";
        tx.execute(format!("PREPARE write_vectors({types}) AS {sql}").as_str()).await.unwrap();
        let plan: Vec<String> = sqlx::query_scalar(&explain).fetch_all(&mut *tx).await.unwrap();
        let plan = plan.join("\n");
        assert!(plan.contains("CTE before"), "the plan's predecessors are not materialised ({mode}):\n{plan}");
        // Each scan of memories or its indexes: the rows it read per loop (returned, and removed by its filter
        // or recheck), and its loops.
        let lines: Vec<&str> = plan.lines().collect();
        let number = |l: &str, key: &str| l.split(key).nth(1)?.split([' ', ')']).next()?.parse::<u64>().ok();
        let scans: Vec<(u64, u64)> = (0..lines.len())
            .filter(|&i| lines[i].contains("Scan") && lines[i].contains(" on memories"))
            .filter_map(|i| {
                let removed: u64 = lines[i + 1..]
                    .iter()
                    .take_while(|l| !l.contains("->"))
                    .filter_map(|l| {
                        number(l, "Rows Removed by Filter: ").or(number(l, "Rows Removed by Index Recheck: "))
                    })
                    .sum();
                Some((number(lines[i], " rows=")? + removed, number(lines[i], " loops=")?))
            })
            .collect();
        assert!(!scans.is_empty(), "no scan of memories ({mode}):\n{plan}");
        assert!(
            scans.iter().all(|&(read, loops)| loops == 1 || read <= 32),
            "the tenant's memories are read once per batch member ({mode}):\n{plan}"
        );
        let written: Vec<(i64, i64, i64, i64, Option<i64>)> = sqlx::query_as(
            "SELECT count(*) FILTER (WHERE embedding_status = 'ready'),
                    count(*) FILTER (WHERE context_embedding IS NOT NULL),
                    count(*) FILTER (WHERE cardinality(sentence_embeddings) > 0),
                    count(*) FILTER (WHERE sentence_embeddings = '{}'),
                    sum(cardinality(sentence_embeddings)) FILTER (WHERE id = $2)
               FROM memories WHERE tenant_id = $1",
        )
        .bind(app.a.id)
        .bind(batch[2].0)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
        // Every member written; each with a predecessor in the batch (all but the first of each session) folded;
        // the third with its two runs, the others measured with none (an empty array, not NULL: never measured).
        assert_eq!(written, [(32, 30, 1, 31, Some(2))], "{mode}:\n{plan}");
        // A prepared statement outlives the transaction.
        tx.execute("DEALLOCATE write_vectors").await.unwrap();
        tx.rollback().await.unwrap();
    }
}
