//! `/api/v1/stats` and the tag listings read counts that triggers maintain (`memory_counts`), not a scan of
//! the tenant: after every kind of write they equal what a scan finds, concurrent writers included, and the
//! expiry pass folds them to one row per count.

use chrono::Utc;
use serde_json::{json, Value};
use sqlx::PgConnection;

use crate::helpers::{new_key, spawn, TestApp};

const ACTIVE: &str = "archived_at IS NULL AND (expires_at IS NULL OR expires_at > now())";

/// The statistics as a scan of the tenant computes them (the queries the routes ran before the counts).
async fn scanned(conn: &mut PgConnection, tenant: uuid::Uuid) -> Value {
    let sql = format!(
        "SELECT count(*) FILTER (WHERE {ACTIVE}),
                count(*) FILTER (WHERE {ACTIVE} AND created_at > now() - interval '7 days'),
                count(*) FILTER (WHERE NOT ({ACTIVE})),
                count(*) FILTER (WHERE {ACTIVE} AND memory_type = 'short_term'),
                count(*) FILTER (WHERE {ACTIVE} AND memory_type = 'long_term'),
                count(*) FILTER (WHERE {ACTIVE} AND embedding_status = 'pending'),
                (SELECT count(*) FROM relations WHERE tenant_id = $1),
                (SELECT count(*) FROM entities WHERE tenant_id = $1)
         FROM memories WHERE tenant_id = $1"
    );
    let row: (i64, i64, i64, i64, i64, i64, i64, i64) =
        sqlx::query_as(&sql).bind(tenant).fetch_one(&mut *conn).await.unwrap();
    let tags: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT DISTINCT unnest(tags) AS tag FROM memories WHERE tenant_id = $1 AND {ACTIVE} ORDER BY 1"
    ))
    .bind(tenant)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let by_type: Vec<(String, i64)> = sqlx::query_as(&format!(
        "SELECT type, count(*) FROM memories WHERE tenant_id = $1 AND {ACTIVE} GROUP BY type ORDER BY count(*) DESC, type"
    ))
    .bind(tenant)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    json!({
        "total_memories": row.0, "memories_last_7_days": row.1, "archived": row.2, "short_term": row.3,
        "long_term": row.4, "pending": row.5, "associations": row.6, "entities": row.7, "tags": tags,
        "by_type": by_type.into_iter().map(|(t, n)| json!({"memory_type": t, "count": n})).collect::<Vec<_>>(),
    })
}

/// The statistics and tags as the routes answer them, in the shape of [`scanned`].
async fn served(app: &TestApp, key: &str) -> Value {
    let stats = app.get(key, "/api/v1/stats").await.ok(200).clone();
    let tags = app.get(key, "/api/tags").await.ok(200).clone();
    assert_eq!(stats["tags"], tags["tags"].as_array().unwrap().len(), "{stats} vs {tags}");
    json!({
        "total_memories": stats["total_memories"], "memories_last_7_days": stats["memories_last_7_days"],
        "archived": stats["archived"], "short_term": stats["short_term"], "long_term": stats["long_term"],
        "pending": stats["embeddings"]["pending"], "associations": stats["associations"],
        "entities": stats["entities"], "tags": tags["tags"], "by_type": stats["by_type"],
    })
}

/// Rows of the tenant's counts that match `condition` (a fixed SQL condition, never input).
async fn count_rows(conn: &mut PgConnection, tenant: uuid::Uuid, condition: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM memory_counts WHERE tenant_id = $1 AND {condition}"))
        .bind(tenant)
        .fetch_one(conn)
        .await
        .unwrap()
}

async fn unfolded(conn: &mut PgConnection, tenant: uuid::Uuid) -> i64 {
    count_rows(conn, tenant, "NOT folded").await
}

/// Rows of keyword counts the tenant has, folded or not.
async fn terms_written(conn: &mut PgConnection, tenant: uuid::Uuid) -> i64 {
    count_rows(conn, tenant, "kind IN ('term', 'lexemes')").await
}

async fn assert_counts_match(app: &TestApp, conn: &mut PgConnection, when: &str) {
    for tenant in [&app.a, &app.b] {
        let (scan, read) = (scanned(conn, tenant.id).await, served(app, &tenant.key).await);
        assert_eq!(read, scan, "{when}: the maintained counts differ from a scan");
        assert_terms_match(app, conn, tenant.id, when).await;
    }
}

/// The keyword statistics the triggers keep (`term` and `lexemes` counts) against `ts_stat` over the tenant's
/// active memories, and as a recall reads them (`store::terms::lexemes`) for a query of some of its words.
async fn assert_terms_match(app: &TestApp, conn: &mut PgConnection, tenant: uuid::Uuid, when: &str) {
    let active = format!("SELECT search_tsv FROM memories WHERE tenant_id = '{tenant}' AND archived_at IS NULL");
    let scan: Vec<(String, i64)> = sqlx::query_as(&format!(
        "SELECT word, ndoc::bigint FROM ts_stat('{}') ORDER BY word",
        active.replace('\'', "''")
    ))
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let kept: Vec<(String, i64)> = sqlx::query_as(
        "SELECT key, sum(n)::bigint FROM memory_counts WHERE tenant_id = $1 AND kind = 'term'
          GROUP BY key HAVING sum(n) <> 0 ORDER BY key",
    )
    .bind(tenant)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(kept, scan, "{when}: the document frequencies kept differ from ts_stat");
    let (docs, lexemes): (i64, i64) = sqlx::query_as(
        "SELECT count(*), coalesce(sum(length(search_tsv)), 0)::bigint FROM memories WHERE tenant_id = $1 AND archived_at IS NULL",
    )
    .bind(tenant)
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    let mut tx = app.db.begin_tenant(tenant).await.unwrap();
    let read =
        cairn::store::terms::lexemes(&mut tx, "counted notes of the writer, and a word nobody wrote", "", &[], &[])
            .await
            .unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(read.stats.docs, docs as u64, "{when}");
    let avg = if docs > 0 { lexemes as f64 / docs as f64 } else { 0.0 };
    assert!((read.stats.avg_len - avg).abs() < 1e-9, "{when}: average length {} vs {avg}", read.stats.avg_len);
    for word in &read.all {
        let expected = scan.iter().find(|(w, _)| w == word).map_or(0, |(_, n)| *n);
        assert_eq!(read.stats.df.get(word).copied().unwrap_or(0), expected as u64, "{when}: {word}");
    }
}

#[tokio::test]
async fn stats_and_tags_are_maintained_counts_that_equal_a_scan() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let key = app.a.key.clone();
    let kinds = ["Decision", "Pattern", "Context", "Insight"];
    let batch: Vec<Value> = (0..40)
        .map(|i| {
            let mut m = json!({"content": format!("counted note {i}"), "type": kinds[i % 4],
                               "tags": [format!("t{}", i % 5), "shared"]});
            if i % 6 == 0 {
                m["memory_type"] = json!("short_term");
                m["ttl"] = json!(3600);
            }
            m
        })
        .collect();
    let ids = app.store_batch(&key, &batch).await;
    app.store(&app.b.key, json!({"content": "the other tenant's note", "tags": ["theirs"]})).await;
    assert_counts_match(&app, &mut conn, "after a batch").await;

    // Tags changed, a memory archived, one deleted to the trash, one restored, an association, a purge.
    app.patch(&key, &format!("/api/v1/memories/{}", ids[1]), &json!({"tags": ["renamed", "shared"]})).await.ok(200);
    app.patch(&key, &format!("/api/v1/memories/{}", ids[2]), &json!({"type": "Decision"})).await.ok(200);
    app.delete(&key, &format!("/api/v1/memories/{}", ids[3])).await.ok(200);
    app.delete(&key, &format!("/api/v1/memories/{}?hard=true", ids[4])).await.ok(200);
    app.delete(&key, &format!("/api/v1/memories/{}?hard=true", ids[5])).await.ok(200);
    app.post(&key, &format!("/api/v1/memories/{}/restore", ids[5]), &json!({})).await.ok(200);
    let link = json!({"memory1_id": ids[6], "memory2_id": ids[7], "type": "RelatedTo", "strength": 0.7});
    app.post(&key, "/api/v1/associations", &link).await.ok(201);
    let secret = app.store(&key, json!({"content": "a secret stored by mistake", "tags": ["secret-project-x"]})).await;
    assert_counts_match(&app, &mut conn, "after updates, deletes, a restore and an association").await;
    let admin = new_key(&app.db, app.a.id, &["read", "write", "admin"]).await;
    app.delete(&admin, &format!("/api/v1/memories/{}?purge=true", secret["id"].as_str().unwrap())).await.ok(200);
    let trace: i64 = sqlx::query_scalar("SELECT count(*) FROM memory_counts WHERE key = 'secret-project-x'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(trace, 0, "a purged memory's tag leaves no trace in the counts");
    // New words for a memory, and the archived one back: the keyword statistics follow.
    app.patch(&key, &format!("/api/v1/memories/{}", ids[8]), &json!({"content": "rewritten entirely: zebra writer"}))
        .await
        .ok(200);
    app.post(&key, &format!("/api/v1/memories/{}/restore", ids[3]), &json!({})).await.ok(200);
    assert_counts_match(&app, &mut conn, "after new content and an unarchived memory").await;
    // An update that changes no words (an access, a vector) writes no keyword count.
    let before = terms_written(&mut conn, app.a.id).await;
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    sqlx::query("UPDATE memories SET access_count = access_count + 1, last_accessed_at = now() WHERE tenant_id = $1")
        .bind(app.a.id)
        .execute(tx.conn())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(terms_written(&mut conn, app.a.id).await, before, "an access wrote keyword counts");

    // Concurrent writers with the same tags: each statement appends its own delta, nobody waits, nothing is lost.
    let writers: Vec<_> = (0..4)
        .map(|w| {
            let (client, url, key) = (app.client.clone(), app.url("/api/v1/memories/batch"), key.clone());
            tokio::spawn(async move {
                for round in 0..3 {
                    let memories: Vec<Value> = (0..25)
                        .map(|i| json!({"content": format!("writer {w} round {round} item {i}"), "tags": ["shared", format!("w{w}")]}))
                        .collect();
                    let res = client.post(&url).bearer_auth(&key).json(&json!({"memories": memories})).send().await.unwrap();
                    assert_eq!(res.status(), 201);
                }
            })
        })
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    assert_counts_match(&app, &mut conn, "after concurrent batches").await;

    // The expiry pass folds the deltas: one row per count, the same figures.
    assert!(unfolded(&mut conn, app.a.id).await > 10);
    cairn::jobs::expire::run_once(&app.db, Utc::now()).await.unwrap();
    assert_eq!(unfolded(&mut conn, app.a.id).await, 0);
    let (rows, keys): (i64, i64) =
        sqlx::query_as("SELECT count(*), count(DISTINCT (kind, key)) FROM memory_counts WHERE tenant_id = $1")
            .bind(app.a.id)
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!(rows, keys, "one row per count after a fold");
    assert_counts_match(&app, &mut conn, "after the fold").await;

    // Tenant isolation holds for the counts too.
    let theirs = app.get(&app.b.key, "/api/tags").await.ok(200)["tags"].clone();
    assert_eq!(theirs, json!(["theirs"]));
}

#[tokio::test]
async fn counting_accesses_never_waits_for_a_row_another_transaction_holds() {
    use sqlx::Connection;
    let app = spawn().await;
    let held = app.store_text(&app.a.key, "a memory someone is editing").await;
    let free = app.store_text(&app.a.key, "a memory nobody holds").await;
    let (held, free): (uuid::Uuid, uuid::Uuid) = (held.parse().unwrap(), free.parse().unwrap());
    let mut owner = app.superuser_conn().await;
    let mut lock = owner.begin().await.unwrap();
    // With the tenant named, as Citus needs to lock a row of a distributed table.
    sqlx::query("SELECT 1 FROM memories WHERE tenant_id = $1 AND id = $2 FOR UPDATE")
        .bind(app.a.id)
        .bind(held)
        .execute(&mut *lock)
        .await
        .unwrap();

    // A tally of its own (the server's flusher would race this one): two recalls of `free`, one of `held`.
    let accesses = cairn::service::access::Accesses::default();
    accesses.add(app.a.id, &[held, free]);
    accesses.add(app.a.id, &[free]);
    let flushed = tokio::time::timeout(std::time::Duration::from_secs(2), accesses.flush(&app.db));
    flushed.await.expect("the flush does not wait for the held row").unwrap();
    let counts = || async {
        sqlx::query_as::<_, (uuid::Uuid, i64, bool)>(
            "SELECT id, access_count, last_accessed_at IS NOT NULL FROM memories WHERE id = ANY($1) ORDER BY id",
        )
        .bind(vec![held, free])
        .fetch_all(&mut app.superuser_conn().await)
        .await
    };
    let now: std::collections::HashMap<uuid::Uuid, (i64, bool)> =
        counts().await.unwrap().into_iter().map(|(id, n, at)| (id, (n, at))).collect();
    assert_eq!((now[&free], now[&held]), ((2, true), (0, false)), "two accesses in one write; the held row skipped");
    assert_eq!(accesses.pending(), 1, "the held row's count is kept for the next flush");
    lock.rollback().await.unwrap();
    // The next flush counts the held row once it is free.
    accesses.flush(&app.db).await.unwrap();
    let now: Vec<(uuid::Uuid, i64, bool)> = counts().await.unwrap();
    assert!(now.iter().all(|(id, n, at)| *at && *n == if *id == free { 2 } else { 1 }), "{now:?}");
    assert_eq!(accesses.pending(), 0);
}

#[tokio::test]
async fn recall_accesses_pending_at_shutdown_are_written() {
    let app = spawn().await;
    let id: uuid::Uuid =
        app.store_text(&app.a.key, "a memory recalled just before the server stops").await.parse().unwrap();
    let accesses = cairn::service::access::Accesses::default();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // An interval far longer than the test: only the flush at shutdown can write the count.
    let flusher = tokio::spawn(cairn::service::access::flush_every(
        app.db.clone(),
        accesses.clone(),
        std::time::Duration::from_secs(3600),
        async move {
            let _ = stopped.await;
        },
    ));
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    accesses.add(app.a.id, &[id]);
    stop.send(()).unwrap();
    flusher.await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT access_count FROM memories WHERE id = $1")
        .bind(id)
        .fetch_one(&mut app.superuser_conn().await)
        .await
        .unwrap();
    assert_eq!(n, 1);
}

#[tokio::test]
async fn a_backlog_larger_than_one_fold_statement_is_folded_in_rounds() {
    // A bulk load leaves more counts with deltas than one fold statement takes (FOLD_KEYS): each round folds
    // that many, and the counts stay right.
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let per_memory = 25;
    let memories = (cairn::store::stats::FOLD_KEYS as usize).div_ceil(per_memory) + 20;
    for chunk in (0..memories).collect::<Vec<_>>().chunks(500) {
        let items: Vec<Value> = chunk
            .iter()
            .map(|i| {
                let words: Vec<String> = (0..per_memory).map(|j| format!("zq{i}x{j}")).collect();
                json!({"content": words.join(" ")})
            })
            .collect();
        app.store_batch(&app.a.key, &items).await;
    }
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    assert!(!cairn::store::stats::fold_counts(&mut tx, 1).await.unwrap(), "one round cannot fold them all");
    tx.commit().await.unwrap();
    assert!(unfolded(&mut conn, app.a.id).await > 0);
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    assert!(cairn::store::stats::fold_counts(&mut tx, 10).await.unwrap());
    tx.commit().await.unwrap();
    assert_eq!(unfolded(&mut conn, app.a.id).await, 0);
    assert_terms_match(&app, &mut conn, app.a.id, "after folding in rounds").await;
    assert_counts_match(&app, &mut conn, "after folding in rounds").await;
}
