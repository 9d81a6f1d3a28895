//! Background work on apalis and the process roles: consolidation as a job (wait, else 202 and the run),
//! periodic jobs once per period across worker processes, AutoMem's re-embedding, and one snapshot per
//! recall.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::config::AppArgs;
use serde_json::json;

use crate::helpers::{spawn, spawn_with_embedder, spawn_without_workers, Instant384, TestApp};

#[tokio::test]
async fn consolidation_past_the_wait_answers_202_and_the_run_finishes_in_the_background() {
    let app = spawn_without_workers(AppArgs { consolidate_wait_ms: 200, ..AppArgs::default() }).await;
    let key = &app.a.key;
    app.store_text(key, "a memory to consolidate").await;
    let started = Instant::now();
    let res = app.post(key, "/api/v1/consolidate", &json!({"mode": "decay"})).await;
    assert!(started.elapsed() >= Duration::from_millis(200), "it waited for the worker first");
    let queued = res.ok(202).clone();
    assert_eq!(queued["status"], "queued");
    let run = format!("/api/v1/consolidate/runs/{}", queued["run_id"].as_str().unwrap());
    assert_eq!(app.get(key, &run).await.ok(200)["status"], "queued");
    // The job is the tenant's, visible in its job status.
    let status = app.get(key, "/api/v1/jobs/status").await.ok(200).clone();
    let queue = status["queues"].as_array().unwrap().iter().find(|q| q["queue"] == "cairn::consolidate").unwrap();
    assert_eq!(queue["pending"], 1, "{status}");
    // AutoMem's and SHODH's routes queue the same way.
    app.post(key, "/consolidate", &json!({"mode": "decay"})).await.ok(202);
    app.post(key, "/api/consolidate", &json!({"time_horizon": "daily"})).await.ok(202);

    let ran_at = chrono::Utc::now();
    assert_eq!(app.run_consolidations().await, 3);
    let done = app.get(key, &run).await.ok(200).clone();
    assert_eq!((done["status"].as_str(), done["mode"].as_str()), (Some("done"), Some("decay")));
    assert!(done["report"]["decayed"].is_u64(), "{done}");
    // It finished when the worker ran it, not when it was asked for.
    let finished = crate::helpers::time(&done["finished_at"]);
    assert!(finished >= ran_at && finished > crate::helpers::time(&done["started_at"]), "{done}");
    // A second delivery of a finished run (apalis delivers at least once) leaves it as it is.
    let run_id = queued["run_id"].as_str().unwrap().parse().unwrap();
    let again = cairn::queue::consolidate::ConsolidateJob { tenant_id: app.a.id, run_id };
    assert!(cairn::jobs::consolidate::process(&app.db, &again, 0).await.is_ok());
    assert_eq!(app.get(key, &run).await.ok(200).clone(), done, "not run twice");
    // Another tenant cannot read the run.
    app.get(&app.b.key, &run).await.assert_error(404, "consolidation run");
    app.get(key, "/api/v1/consolidate/runs/nope").await.assert_error(400, "id: not a valid UUID");
}

#[tokio::test]
async fn a_dry_run_reports_exactly_and_writes_nothing_but_its_record() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = app.store_text(key, "decaying slowly").await;
    let mut conn = app.superuser_conn().await;
    sqlx::query("UPDATE memories SET created_at = now() - interval '40 days' WHERE id = $1::uuid")
        .bind(&id)
        .execute(&mut conn)
        .await
        .unwrap();
    let dry = app.post(key, "/api/v1/consolidate", &json!({"mode": "decay", "dry_run": true})).await.ok(200).clone();
    assert_eq!((dry["decayed"].as_u64(), dry["dry_run"].as_bool()), (Some(1), Some(true)));
    let importance = app.get(key, &format!("/api/v1/memories/{id}")).await.ok(200)["importance"].clone();
    assert_eq!(importance, 0.5, "nothing was written");
    let run = app.get(key, &format!("/api/v1/consolidate/runs/{}", dry["run_id"].as_str().unwrap())).await;
    assert_eq!(run.ok(200)["report"]["decayed"], 1);
    let real = app.post(key, "/api/v1/consolidate", &json!({"mode": "decay"})).await.ok(200).clone();
    assert_eq!(real["decayed"], 1);
}

/// Starts `cairn worker --queues QUEUES` on the test's database.
fn worker(app: &TestApp, queues: &str, expiry_ms: u64) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["worker", "--queues", queues])
        .env("DATABASE_URL", &app.db_url)
        .env("CAIRN_APP_DATABASE_URL", crate::helpers::app_url(&app.db_url))
        .env("CAIRN_EMBEDDER", "none")
        .env("CAIRN_EXPIRY_INTERVAL_MS", expiry_ms.to_string())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the cairn binary runs")
}

/// Asks the processes to stop (SIGTERM, all at once: a worker finishes its job first), then waits for them.
fn stop(children: Vec<Child>) {
    for child in &children {
        let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    for mut child in children {
        while Instant::now() < deadline && child.try_wait().ok().flatten().is_none() {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[tokio::test]
async fn two_worker_processes_run_each_period_of_a_periodic_job_once() {
    let app = spawn().await;
    let key = &app.a.key;
    // Short-term memories that expire at once: each must be archived once, by one of the processes.
    for i in 0..5 {
        app.store(key, json!({"content": format!("fleeting {i}"), "ttl": 1})).await;
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let workers = vec![worker(&app, "expire", 400), worker(&app, "expire", 400)];
    tokio::time::sleep(Duration::from_millis(4000)).await;
    stop(workers);

    let mut conn = app.superuser_conn().await;
    let claims: Vec<(chrono::DateTime<chrono::Utc>, String)> = sqlx::query_as(
        "SELECT period_start, claimed_by FROM job_schedule WHERE job = 'cairn::expire' ORDER BY period_start",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert!(claims.len() >= 4, "a period every 400 ms over about 4 s: {claims:?}");
    let jobs: Vec<(String, serde_json::Value, i32)> = sqlx::query_as(
        "SELECT status, job::jsonb, attempts FROM apalis.jobs WHERE job_type = 'cairn::expire' ORDER BY run_at",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(jobs.len(), claims.len(), "one job per claimed period, whichever process claimed it");
    let mut periods: Vec<&str> = jobs.iter().map(|(_, job, _)| job["period_start"].as_str().unwrap()).collect();
    periods.dedup();
    assert_eq!(periods.len(), jobs.len(), "no period enqueued twice");
    let ran: Vec<&(String, serde_json::Value, i32)> = jobs.iter().filter(|(status, _, _)| status == "Done").collect();
    assert!(ran.len() + 2 >= jobs.len(), "every period's job ran (the last ones may be in flight): {jobs:?}");
    assert!(ran.iter().all(|(_, _, attempts)| *attempts == 1), "each ran once: {jobs:?}");
    let workers: i64 =
        sqlx::query_scalar("SELECT count(DISTINCT id) FROM apalis.workers WHERE worker_type = 'cairn::expire'")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!(workers, 2, "both processes served the queue");
    let archived: Vec<i64> = sqlx::query_scalar(
        "SELECT count(*) FROM memory_events WHERE event_type = 'archived' AND actor = 'system:expire' GROUP BY memory_id",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(archived, vec![1; 5], "each expired memory archived once");
    // The tenant's job status shows the service's periodic jobs.
    let status = app.get(key, "/api/v1/jobs/status").await.ok(200).clone();
    let periodic = status["periodic"].as_array().unwrap();
    let expire = periodic.iter().find(|p| p["queue"] == "cairn::expire").unwrap_or_else(|| panic!("{status}"));
    assert!(expire["period_start"].is_string() && expire["status"].is_string(), "{expire}");
}

#[tokio::test]
async fn enqueueing_wakes_the_workers_of_that_queue_at_commit() {
    let app = spawn_without_workers(AppArgs::default()).await;
    let mut listener = sqlx::postgres::PgListener::connect(&app.db_url).await.unwrap();
    listener.listen("apalis::job").await.unwrap();
    // A tenant's job (enrichment of a stored memory), from its own transaction.
    app.store_text(&app.a.key, "Alice moved to Lisbon in May").await;
    heard(&mut listener, "cairn::enrich").await;
    // A periodic job's period, claimed once.
    let period = chrono::Utc::now();
    let claimed =
        cairn::store::queue::claim_period(app.db.owner(), "cairn::expire", period, "test", json!({}), 1).await.unwrap();
    assert!(claimed);
    heard(&mut listener, "cairn::expire").await;
}

/// Waits for a notification on apalis' channel whose payload is `queue` (apalis' listener matches the payload
/// against each worker's queue name).
async fn heard(listener: &mut sqlx::postgres::PgListener, queue: &str) {
    let mut payloads = Vec::new();
    while !payloads.iter().any(|p| p == queue) {
        let next = tokio::time::timeout(Duration::from_secs(10), listener.recv()).await;
        let notification = next.unwrap_or_else(|_| panic!("no {queue} among {payloads:?}")).unwrap();
        payloads.push(notification.payload().to_owned());
    }
}

#[tokio::test]
async fn one_tenants_failure_does_not_stop_the_schedule_for_the_others() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    // Tenant A's runs cannot be recorded.
    let block = format!("ALTER TABLE consolidation_runs ADD CONSTRAINT test_block CHECK (tenant_id <> '{}')", app.a.id);
    sqlx::query(&block).execute(&mut conn).await.unwrap();
    let outcome = cairn::service::consolidation::schedule_due(&app.db, chrono::Utc::now()).await;
    assert!(outcome.is_err(), "the pass reports the failure");
    let runs: Vec<(uuid::Uuid, i64)> =
        sqlx::query_as("SELECT tenant_id, count(*) FROM consolidation_runs GROUP BY tenant_id")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(runs, vec![(app.b.id, 4)], "tenant B was scheduled all the same");
}

#[tokio::test]
async fn pruning_period_claims_keeps_each_jobs_latest() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    sqlx::query(
        "INSERT INTO job_schedule (job, period_start, claimed_by) VALUES
            ('cairn::expire', now() - interval '10 days', 'test'), ('cairn::expire', now() - interval '9 days', 'test'),
            ('cairn::expire', now(), 'test'), ('cairn::schedule', now() - interval '30 days', 'test')",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let pruned = cairn::store::queue::prune_periods(app.db.owner(), chrono::Utc::now() - chrono::Duration::days(7))
        .await
        .unwrap();
    assert_eq!(pruned, 2, "expire's two old periods");
    let left: Vec<String> =
        sqlx::query_scalar("SELECT job FROM job_schedule ORDER BY job").fetch_all(&mut conn).await.unwrap();
    assert_eq!(left, ["cairn::expire", "cairn::schedule"], "a period longer than the retention keeps its claim");
}

#[tokio::test]
async fn automems_reembed_requeues_the_tenants_embeddings_with_an_admin_key() {
    let app = spawn_with_embedder(Arc::new(Instant384)).await;
    let key = &app.a.key;
    for i in 0..5 {
        app.store_text(key, &format!("memory number {i}")).await;
    }
    app.store_text(&app.b.key, "tenant b's memory").await;
    app.drain_jobs().await;
    let admin = crate::helpers::new_key(&app.db, app.a.id, &["admin"]).await;
    app.post(key, "/admin/reembed", &json!({})).await.assert_error(403, "admin");
    app.post(&admin, "/admin/reembed", &json!({"limit": 0})).await.assert_error(400, "limit");
    let body = app.post(&admin, "/admin/reembed", &json!({"limit": 3, "batch_size": 2})).await.ok(200).clone();
    assert_eq!(
        (body["status"].as_str(), body["queued"].as_u64(), body["batch_size"].as_i64()),
        (Some("success"), Some(3), Some(2))
    );
    let app = &app;
    let pending = |tenant| async move {
        let mut conn = app.superuser_conn().await;
        sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM memories WHERE tenant_id = $1 AND embedding_status = 'pending'",
        )
        .bind(tenant)
        .fetch_one(&mut conn)
        .await
        .unwrap()
    };
    assert_eq!((pending(app.a.id).await, pending(app.b.id).await), (3, 0), "only the caller's tenant");
    // AutoMem's clients send their ordinary key as the bearer and the admin one as X-Admin-Token: the admin
    // token is the one that counts here. The worker then writes the new vectors.
    let res = app
        .client
        .post(app.url("/admin/reembed"))
        .bearer_auth(key)
        .header("X-Admin-Token", &admin)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(app.drain_jobs().await >= 3);
    assert_eq!(pending(app.a.id).await, 0);

    // Without an embedder: 503.
    let plain = spawn().await;
    let admin = crate::helpers::new_key(&plain.db, plain.a.id, &["admin"]).await;
    plain.post(&admin, "/admin/reembed", &json!({})).await.assert_error(503, "no embedding model");
}

#[tokio::test]
async fn a_recall_reads_one_snapshot() {
    let app = spawn().await;
    let key = &app.a.key;
    let a = app.store_text(key, "Postgres replication lag alarms").await;
    let b = app.store_text(key, "the pager rota for database alarms").await;
    app.post(key, "/api/v1/associations", &json!({"memory1_id": a, "memory2_id": b})).await.ok(201);
    let body = json!({"query": "alarms", "expand_relations": true, "expand_entities": true, "mode": "keyword"});
    app.post(key, "/api/v1/recall", &body).await.ok(200); // term statistics cached now
    app.flush_accesses().await;

    let (tenant_before, snapshots_before) = app.db.transactions_opened();
    let answer = app.post(key, "/api/v1/recall", &body).await.ok(200).clone();
    assert_eq!(answer["count"], 2);
    // The access counts are written after the answer, by the server's flusher or this one, in one transaction.
    app.flush_accesses().await;
    let (tenant_after, snapshots_after) = app.db.transactions_opened();
    assert_eq!(snapshots_after - snapshots_before, 1, "candidates, scores, heads and expansions: one snapshot");
    assert_eq!(tenant_after - tenant_before, 2, "the snapshot, and the one write of the access counts");

    // AutoMem's several queries share one snapshot too.
    let (_, before) = app.db.transactions_opened();
    app.get(key, "/recall?queries=alarms&queries=replication&queries=rota").await.ok(200);
    assert_eq!(app.db.transactions_opened().1 - before, 1);
}

/// A server without workers whose recalls may share their snapshots (`CAIRN_DB_SHARE_SNAPSHOTS=true`).
async fn sharing(embedder: cairn::models::embed::EmbedderSlot) -> TestApp {
    let on = |args: cairn::config::DbArgs| cairn::config::DbArgs { db_share_snapshots: true, ..args };
    crate::helpers::spawn_full(AppArgs::default(), None, embedder, &[], cairn::queue::Workers::None, on).await
}

/// Waits until the tenant pool holds `n` idle connections (each opened by a transaction, then returned), and
/// the process knows whether the database runs Citus (until then nothing is shared).
async fn idle_connections(app: &TestApp, n: usize) {
    app.db.is_citus().await.unwrap();
    let mut open = Vec::new();
    for _ in 0..n {
        open.push(app.db.begin_tenant(app.a.id).await.unwrap());
    }
    for tx in open {
        tx.rollback().await.unwrap();
    }
    wait_idle(app, n).await;
}

/// Waits until `n` connections of the tenant pool are idle (a connection goes back to the pool in a task of
/// sqlx's own, after its user is done).
async fn wait_idle(app: &TestApp, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while app.db.pool_stats()[1].2 < n {
        assert!(Instant::now() < deadline, "the pool never held {n} idle connections");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A second transaction on a recall's snapshot (`Db::share_snapshot`, where hybrid recall runs its vector
/// probe beside the keyword search) reads the tenant exactly as the first does: not what committed after the
/// snapshot was taken, nothing of another tenant, nothing outside the key's scope, and writes nothing.
#[tokio::test]
async fn a_shared_snapshot_reads_the_tenant_as_the_transaction_it_shares() {
    let app = sharing(cairn::models::embed::EmbedderSlot::disabled()).await;
    let key = &app.a.key;
    app.store(key, json!({"content": "alice's memory", "user_id": "alice"})).await;
    app.store(key, json!({"content": "bob's memory", "user_id": "bob"})).await;
    app.store_text(&app.b.key, "another tenant's memory").await;
    idle_connections(&app, 3).await;
    let count = "SELECT count(*) FROM memories";

    let mut tx = app.db.begin_snapshot(app.a.id).await.unwrap();
    let seen: i64 = sqlx::query_scalar(count).fetch_one(tx.conn()).await.unwrap();
    assert_eq!(seen, 2);
    let shared = app.db.share_snapshot(&mut tx).await.unwrap();
    if crate::helpers::citus_nodes().is_some() {
        assert!(shared.is_none(), "on Citus the workers would not see an imported snapshot: never shared");
        return;
    }
    let shared = shared.expect("connections are idle: the snapshot is shared");
    app.store_text(key, "stored after the snapshot was taken").await;
    wait_idle(&app, 2).await;
    let before = app.db.snapshots_shared();
    let mut side = shared.open().await.unwrap().expect("a connection is idle");
    assert_eq!(app.db.snapshots_shared() - before, 1);
    let seen: i64 = sqlx::query_scalar(count).fetch_one(side.conn()).await.unwrap();
    assert_eq!(seen, 2, "the shared snapshot's: not the memory stored since, nor the other tenant's");
    let mut fresh = app.db.begin_snapshot(app.a.id).await.unwrap();
    let seen: i64 = sqlx::query_scalar(count).fetch_one(fresh.conn()).await.unwrap();
    assert_eq!(seen, 3, "a snapshot of its own would have seen it");
    let refused = sqlx::query("DELETE FROM memories").execute(side.conn()).await.unwrap_err();
    assert!(refused.to_string().contains("read-only"), "{refused}");
    drop((side, fresh, tx));

    // A scoped key's snapshot shares its scope.
    idle_connections(&app, 3).await;
    let scope: String = json!({"users": ["alice"]}).to_string().bytes().map(|b| format!("{b:02x}")).collect();
    let who = cairn::store::TxFor { tenant_id: app.a.id, scope: Some(scope) };
    let mut tx = app.db.begin_snapshot(who).await.unwrap();
    let shared = app.db.share_snapshot(&mut tx).await.unwrap().expect("connections are idle");
    let mut side = shared.open().await.unwrap().expect("a connection is idle");
    let users: Vec<Option<String>> =
        sqlx::query_scalar("SELECT user_id FROM memories").fetch_all(side.conn()).await.unwrap();
    assert_eq!(users, [Some("alice".to_owned())], "only what the scope lets the key see");
    drop((side, tx));

    // Only a read-only snapshot of the primary is shared.
    idle_connections(&app, 3).await;
    let mut writing = app.db.begin_tenant(app.a.id).await.unwrap();
    assert!(app.db.share_snapshot(&mut writing).await.unwrap().is_none());
}

/// Two memories, one holding the word "zebra", embedded by [`Instant384`] (every vector the same, so the
/// vector probe finds both).
async fn store_zebras(app: &TestApp) {
    app.store_text(&app.a.key, "the zebra crossing by the school").await;
    app.store_text(&app.a.key, "a memory without the word").await;
    app.drain_jobs().await;
}

/// The hybrid recall of "zebra", as (contents in rank order, match types).
async fn hybrid_zebra(app: &TestApp) -> (Vec<String>, Vec<String>) {
    let key = &app.a.key;
    let answer = app.post(key, "/api/v1/recall", &json!({"query": "zebra", "mode": "hybrid"})).await.ok(200).clone();
    let results = answer["results"].as_array().unwrap();
    let field = |f: fn(&serde_json::Value) -> &serde_json::Value| {
        results.iter().map(|r| f(r).as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    (field(|r| &r["memory"]["content"]), field(|r| &r["match_type"]))
}

/// With `CAIRN_DB_SHARE_SNAPSHOTS=true`, hybrid recall probes vectors beside the keyword search on a shared
/// snapshot where the pool has connections idle, and one after the other where it has not, or by default;
/// the answer is the same every way (a match of both signals, and one the vector probe alone found), and a
/// keyword or semantic recall opens no second transaction.
#[tokio::test]
async fn hybrid_recall_probes_vectors_beside_keywords_on_a_shared_snapshot_where_connections_are_idle() {
    let expected = (
        vec!["the zebra crossing by the school".to_owned(), "a memory without the word".to_owned()],
        vec!["hybrid".to_owned(), "semantic".to_owned()],
    );
    let instant = || cairn::models::embed::EmbedderSlot::ready(Arc::new(Instant384));
    let app = sharing(instant()).await;
    store_zebras(&app).await;
    idle_connections(&app, 3).await;
    let before = app.db.snapshots_shared();
    assert_eq!(hybrid_zebra(&app).await, expected);
    if crate::helpers::citus_nodes().is_none() {
        assert_eq!(app.db.snapshots_shared() - before, 1, "the vector probe ran on a second transaction");
    }
    let before = app.db.snapshots_shared();
    for mode in ["keyword", "semantic"] {
        app.post(&app.a.key, "/api/v1/recall", &json!({"query": "zebra", "mode": mode})).await.ok(200);
    }
    assert_eq!(app.db.snapshots_shared(), before, "one signal: one transaction");

    // A pool of two connections never has two idle while a recall holds one: the probes run in turn.
    let small =
        |args: cairn::config::DbArgs| cairn::config::DbArgs { db_max_connections: 2, db_share_snapshots: true, ..args };
    let app =
        crate::helpers::spawn_full(AppArgs::default(), None, instant(), &[], cairn::queue::Workers::None, small).await;
    store_zebras(&app).await;
    idle_connections(&app, 2).await;
    assert_eq!(hybrid_zebra(&app).await, expected);
    assert_eq!(app.db.snapshots_shared(), 0, "no connection to spare: nothing shared");

    // Nor by default.
    let app = spawn_with_embedder(Arc::new(Instant384)).await;
    store_zebras(&app).await;
    idle_connections(&app, 3).await;
    assert_eq!(hybrid_zebra(&app).await, expected);
    assert_eq!(app.db.snapshots_shared(), 0, "CAIRN_DB_SHARE_SNAPSHOTS is false by default: nothing shared");
}
