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
