//! Cairn on Citus. These run where `CAIRN_TEST_CITUS_NODES` names a cluster (coordinator first; see
//! `helpers::citus_nodes`); there the whole suite runs on it as well, each test's database distributed by
//! `cairn migrate`. Without it they say that they were skipped, and pass.

use serde_json::json;
use sqlx::{Connection, Executor, PgConnection};
use uuid::Uuid;

use cairn::store::distribute;

use crate::helpers::*;

/// The cluster's nodes, or None after saying why the test does not run.
fn cluster(test: &str) -> Option<Vec<String>> {
    let nodes = citus_nodes();
    if nodes.is_none() {
        eprintln!("skipped {test}: CAIRN_TEST_CITUS_NODES is not set (no Citus cluster to run on)");
    }
    nodes
}

/// Writes and reads along every route family a tenant uses: memories (single, batch, update, delete,
/// restore), recall in every mode, associations and traversal, entities, stats, tags, history, export and
/// import, consolidation and the jobs' status.
async fn exercise(app: &TestApp, key: &str) {
    let first = app.store_text(key, "Alice moved to Berlin in 2021 to start a bakery").await;
    let batch: Vec<_> = (0..20)
        .map(|i| {
            let mut item = json!({"content": format!("turn {i} of the planning session about the Berlin bakery"),
                         "episode_id": "session-1", "sequence_number": i, "tags": ["plans", format!("t{i}")]});
            if i == 19 {
                // A supplied vector: the batch's vectors travel as their own parameter beside the rows.
                item["embedding"] = json!((0..384).map(|d| if d == 0 { 1.0 } else { 0.0 }).collect::<Vec<f32>>());
            }
            item
        })
        .collect();
    let ids = app.store_batch(key, &batch).await;
    app.send(
        reqwest::Method::PATCH,
        &format!("/api/v1/memories/{}", ids[3]),
        Some(key),
        Some(&json!({"content": "turn 3, rewritten: the bakery opens in May"})),
    )
    .await
    .ok(200);
    app.delete(key, &format!("/api/v1/memories/{}", ids[5])).await.ok(200);
    app.post(key, &format!("/api/v1/memories/{}/restore", ids[5]), &json!({})).await.ok(200);
    for mode in ["keyword", "hybrid", "semantic", "associative"] {
        let recalled =
            app.post(key, "/api/v1/recall", &json!({"query": "when does the bakery open", "mode": mode})).await;
        assert!(recalled.status == 200 || recalled.status == 400, "{mode}: {}", recalled.body);
    }
    app.post(
        key,
        "/api/v1/associations",
        &json!({"memory1_id": first, "memory2_id": ids[0], "type": "RELATES_TO", "strength": 0.5}),
    )
    .await
    .ok(201);
    for path in [
        "/api/v1/stats",
        "/api/tags",
        "/api/stats",
        "/api/v1/entities",
        "/api/v1/jobs/status",
        "/api/v1/usage",
        &format!("/api/v1/memories/{first}/history"),
        &format!("/api/v1/memories/{first}/related"),
        "/api/v1/memories?limit=5",
        "/api/v1/trash",
        "/api/v1/episodes/session-1",
    ] {
        let read = app.get(key, path).await;
        assert_eq!(read.status, 200, "{path}: {}", read.body);
    }
    let export = app.get(key, "/api/v1/export").await;
    export.ok(200);
    app.post(key, "/api/v1/consolidate", &json!({"mode": "cluster"})).await;
}

#[tokio::test]
async fn every_tenant_table_is_distributed_and_colocated_and_reference_tables_are_in_place() {
    let Some(_) = cluster("every_tenant_table_is_distributed_and_colocated_and_reference_tables_are_in_place") else {
        return;
    };
    let app = spawn().await;
    let problems = cairn::store::distribute::check(app.db.owner()).await.unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    // Distributing again finds nothing left to do.
    assert_eq!(app.db.migrate().await.unwrap(), Vec::<String>::new());
}

#[tokio::test]
async fn no_statement_of_a_tenant_request_or_job_fans_out_to_every_shard() {
    let Some(_) = cluster("no_statement_of_a_tenant_request_or_job_fans_out_to_every_shard") else { return };
    let app = spawn_with_embedder(local_model()).await;
    // A statement the tenant login issues that needs more than one shard is an error from here on: every
    // request below (and the jobs it queues) must route each statement to its tenant's shard.
    let mut conn = app.superuser_conn().await;
    conn.execute(
        format!("ALTER ROLE {CITUS_LOGIN} IN DATABASE {} SET citus.multi_task_query_log_level = 'error'", app.db_name)
            .as_str(),
    )
    .await
    .unwrap();
    exercise(&app, &app.a.key).await;
    exercise(&app, &app.b.key).await;
    app.drain_jobs().await;
    app.run_enrichment().await;
    app.run_similar().await;
    app.run_consolidations().await;
    let failed: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE status IN ('Failed', 'Killed')")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(failed, 0, "background jobs failed on Citus");
}

#[tokio::test]
async fn two_tenants_on_different_workers_see_only_their_own_rows_even_reading_a_shard_directly() {
    let Some(nodes) = cluster("two_tenants_on_different_workers_see_only_their_own_rows_even_reading_a_shard_directly")
    else {
        return;
    };
    assert!(nodes.len() >= 3, "a coordinator and two workers");
    let app = spawn().await;
    // Tenants until two sit on different workers (32 shards over two workers: a few tries at most).
    let mut conn = app.superuser_conn().await;
    let worker_of = |tenant: Uuid| {
        format!(
            "SELECT nodename || ':' || nodeport FROM citus_shards
              WHERE table_name = 'memories'::regclass AND shardid = get_shard_id_for_distribution_column('memories', '{tenant}')"
        )
    };
    let a_worker: String = sqlx::query_scalar(&worker_of(app.a.id)).fetch_one(&mut conn).await.unwrap();
    let mut other = app.b.clone();
    for i in 0..20 {
        let worker: String = sqlx::query_scalar(&worker_of(other.id)).fetch_one(&mut conn).await.unwrap();
        if worker != a_worker {
            break;
        }
        let tenant = cairn::store::tenants::create_tenant(
            app.db.owner(),
            &format!("other-{i}"),
            "unlimited",
            &Default::default(),
        )
        .await
        .unwrap();
        other = TestTenant { id: tenant.id, key: new_key(&app.db, tenant.id, &["read", "write"]).await };
    }
    let b_worker: String = sqlx::query_scalar(&worker_of(other.id)).fetch_one(&mut conn).await.unwrap();
    assert_ne!(a_worker, b_worker, "no tenant landed on the other worker");
    let a_memory = app.store_text(&app.a.key, "a's secret plan").await;
    let b_memory = app.store_text(&other.key, "b's secret plan").await;
    // Through the API: neither reaches the other's memory.
    app.get(&app.a.key, &format!("/api/v1/memories/{b_memory}")).await.assert_error(404, "");
    app.get(&other.key, &format!("/api/v1/memories/{a_memory}")).await.assert_error(404, "");
    // On a's worker, reading the shard itself as the tenant login: only the tenant set sees its row, and a
    // shard of b's (if one is there) shows a nothing.
    let shard_of = |tenant: Uuid| {
        format!(
            "SELECT shard_name::text FROM citus_shards
              WHERE table_name = 'memories'::regclass AND shardid = get_shard_id_for_distribution_column('memories', '{tenant}')"
        )
    };
    let a_shard: String = sqlx::query_scalar(&shard_of(app.a.id)).fetch_one(&mut conn).await.unwrap();
    let mut worker = PgConnection::connect(&format!("postgres://postgres@{a_worker}/{}", app.db_name)).await.unwrap();
    for (tenant, expected) in [(Some(app.a.id), 1_i64), (Some(other.id), 0), (None, 0)] {
        let mut tx = worker.begin().await.unwrap();
        tx.execute(format!("SET LOCAL ROLE {CITUS_LOGIN}").as_str()).await.unwrap();
        if let Some(tenant) = tenant {
            tx.execute(format!("SET LOCAL app.tenant_id = '{tenant}'").as_str()).await.unwrap();
        }
        let seen: i64 =
            sqlx::query_scalar(&format!("SELECT count(*) FROM {a_shard} WHERE content LIKE '%secret plan'"))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        assert_eq!(seen, expected, "tenant {tenant:?} reading a's shard on its worker");
    }
    // (Citus hides shards from the catalog views of other clients unless asked.)
    worker.execute("SET citus.show_shards_for_app_name_prefixes = '*'").await.unwrap();
    let policies: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM pg_policies WHERE tablename = '{a_shard}' AND policyname LIKE '%tenant_isolation%'"
    ))
    .fetch_one(&mut worker)
    .await
    .unwrap();
    assert_eq!(policies, 1, "the shard carries the tenant policy");
}

/// The node (`host:port`) holding `tenant`'s shard of `memories`, and the shard's id.
async fn placement_of(conn: &mut PgConnection, tenant: Uuid) -> (String, i64) {
    sqlx::query_as(
        "SELECT nodename || ':' || nodeport, shardid FROM citus_shards
          WHERE table_name = 'memories'::regclass AND shardid = get_shard_id_for_distribution_column('memories', $1::text)",
    )
    .bind(tenant.to_string())
    .fetch_one(conn)
    .await
    .unwrap()
}

/// A big tenant is isolated to a shard of its own and moved to the other worker (`distribute::move_tenant`, as
/// the owner login runs it) while a client writes and reads it: no write or read fails, none is lost, and
/// afterwards the tenant's rows live on the new worker, alone in their shard, with the neighbour untouched and
/// every table still distributed, colocated and forcing row-level security.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_tenant_isolated_and_moved_under_load_loses_no_acknowledged_write() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let Some(_) = cluster("a_tenant_isolated_and_moved_under_load_loses_no_acknowledged_write") else { return };
    let app = spawn().await;
    let tenant = app.a.id;
    let seed: Vec<_> = (0..200).map(|i| json!({"content": format!("seed memory {i} of the big tenant")})).collect();
    let mut acknowledged = app.store_batch(&app.a.key, &seed).await;
    app.store_text(&app.b.key, "the neighbour's memory").await;
    let mut conn = app.superuser_conn().await;
    let (before, old_shard) = placement_of(&mut conn, tenant).await;
    let neighbour = placement_of(&mut conn, app.b.id).await;
    let stop = AtomicBool::new(false);

    let writer = async {
        let (mut ids, mut refused, mut n) = (Vec::new(), Vec::new(), 0);
        while !stop.load(Ordering::Relaxed) {
            n += 1;
            let res = app
                .post(&app.a.key, "/api/v1/memories", &json!({"content": format!("written during the move {n}")}))
                .await;
            match res.status {
                201 => ids.push(res.body["id"].as_str().unwrap().to_owned()),
                status => refused.push(format!("{status} {}", res.body)),
            }
        }
        (ids, refused)
    };
    let reader = async {
        let (mut reads, mut failed) = (0, Vec::new());
        while !stop.load(Ordering::Relaxed) {
            reads += 1;
            let res = app
                .post(&app.a.key, "/api/v1/recall", &json!({"query": "memory of the big tenant", "mode": "keyword"}))
                .await;
            if res.status != 200 {
                failed.push(format!("{} {}", res.status, res.body));
            }
        }
        (reads, failed)
    };
    let mover = async {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let (node, _) = distribute::tenant_placement(app.db.owner(), tenant).await.unwrap();
        let workers: Vec<(String, i32)> = sqlx::query_as(
            "SELECT nodename::text, nodeport FROM pg_dist_node WHERE groupid > 0 AND isactive ORDER BY nodeport",
        )
        .fetch_all(&mut conn)
        .await
        .unwrap();
        let target = workers.iter().map(|(h, p)| format!("{h}:{p}")).find(|w| *w != node).expect("a second worker");
        let steps = distribute::move_tenant(app.db.owner(), tenant, Some(&target)).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        stop.store(true, Ordering::Relaxed);
        (steps.expect("move_tenant"), target)
    };
    let ((written, refused), (reads, failed_reads), (steps, moved_to)) = tokio::join!(writer, reader, mover);
    let (_, shard) = distribute::tenant_placement(app.db.owner(), tenant).await.unwrap();
    eprintln!(
        "tenant on {before} (shard {old_shard}): {steps:?}; {} writes acknowledged during it, {} refused; {reads} \
         reads, {} failed",
        written.len(),
        refused.len(),
        failed_reads.len()
    );
    assert!(refused.is_empty(), "writes refused during the move: {refused:?}");
    assert!(failed_reads.is_empty(), "reads failed during the move: {failed_reads:?}");
    assert!(!written.is_empty(), "the writer made no progress during the move");

    // Every acknowledged write is there, once.
    acknowledged.extend(written);
    assert_eq!(steps.len(), 2, "isolated, then moved: {steps:?}");
    let (after, _) = placement_of(&mut conn, tenant).await;
    assert_eq!(after, moved_to, "the tenant's shard is on the worker it was moved to");
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1")
        .bind(tenant)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let listed = app.get(&app.a.key, "/api/v1/memories?limit=1").await.ok(200).clone();
    assert_eq!(
        (rows, listed["total"].as_u64()),
        (acknowledged.len() as i64, Some(acknowledged.len() as u64)),
        "memories after the move (rows, the listing's total)"
    );
    for id in acknowledged.iter().step_by(7) {
        app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200);
    }
    // The shard holds the tenant alone, and the neighbour is where it was, intact.
    let shard_tenants: i64 = sqlx::query_scalar(&format!(
        "SELECT count(DISTINCT tenant_id) FROM memories WHERE get_shard_id_for_distribution_column('memories', tenant_id) = {shard}"
    ))
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(shard_tenants, 1);
    assert_eq!(placement_of(&mut conn, app.b.id).await.0, neighbour.0);
    let theirs = app.get(&app.b.key, "/api/v1/memories?limit=1").await.ok(200).clone();
    assert_eq!(theirs["total"], 1);
    let problems = distribute::check(app.db.owner()).await.unwrap();
    assert!(problems.is_empty(), "still distributed and colocated after the move: {problems:?}");
    let unforced: Vec<String> = sqlx::query_scalar(
        "SELECT relname::text FROM pg_class WHERE relname = ANY($1) AND relkind = 'r' AND NOT relforcerowsecurity",
    )
    .bind(distribute::distributed_tables())
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert!(unforced.is_empty(), "FORCE ROW LEVEL SECURITY back on every table: {unforced:?}");
    // Moving it again where it is, or isolating it again, does nothing.
    assert!(distribute::move_tenant(app.db.owner(), tenant, Some(&moved_to)).await.unwrap().is_empty());
}

#[tokio::test]
async fn scoped_keys_are_refused_on_citus_and_no_shard_keeps_their_policies() {
    if cluster("scoped_keys_are_refused_on_citus_and_no_shard_keeps_their_policies").is_none() {
        return;
    }
    let app = spawn().await;
    app.store_text(&app.a.key, "alice's note").await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let token = app.post(&admin, "/api/v1/tokens", &json!({"user_ids": ["alice"]})).await.ok(201)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    // Every read and write of a scoped credential: a 403 saying why, never a 500 and never the tenant's data.
    app.get(&token, "/api/v1/memories").await.assert_error(403, "Citus");
    app.post(&token, "/api/v1/memories", &json!({"content": "x"})).await.assert_error(403, "Citus");
    app.post(&token, "/api/v1/recall", &json!({"query": "note"})).await.assert_error(403, "Citus");
    // The scoped keys' policies (restrictive, which Citus would write to the shards as permissive) are gone.
    let mut conn = app.superuser_conn().await;
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_policies WHERE policyname LIKE '%key_scope'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
