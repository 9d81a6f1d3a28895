//! Bounded cost per request and per tenant: a traversal ranks and cuts before it reads memories, a write that
//! touches thousands of episodes holds a bounded number of locks, and import and export turns are per tenant,
//! with a stalled stream ended.

use std::time::Duration;

use cairn::config::AppArgs;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{spawn, spawn_with, TestApp};

/// Rows of `memories` this transaction has read through an index (the counters of the current transaction).
async fn memories_fetched(tx: &mut cairn::store::TenantTx) -> i64 {
    sqlx::query_scalar(
        "SELECT coalesce(sum(idx_tup_fetch + seq_tup_read), 0)::bigint FROM pg_stat_xact_user_tables
          WHERE relname = 'memories'",
    )
    .fetch_one(tx.conn())
    .await
    .unwrap()
}

#[tokio::test]
async fn a_traversal_reads_only_the_memories_it_returns() {
    let app = spawn().await;
    let key = &app.a.key;
    let hub = app.store_text(key, "the hub everything links to").await;
    let spokes: Vec<Value> =
        (0..300).map(|i| json!({"content": format!("spoke {i}"), "metadata": {"blob": "x".repeat(2000)}})).collect();
    let ids = app.store_batch(key, &spokes).await;
    let edges: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| json!({"memory1_id": hub, "memory2_id": id, "type": "RELATES_TO", "strength": (i % 100) as f64 / 100.0}))
        .collect();
    app.post(key, "/api/v1/associations", &json!({"associations": edges})).await.ok(201);

    // Statistics, as a table in use has them (on a fresh one the planner reads the whole tenant for any key).
    sqlx::query("ANALYZE memories, relations").execute(&mut app.superuser_conn().await).await.unwrap();
    let walk = cairn::graph::RelatedParams { limit: Some(1), ..Default::default() }.parse().unwrap();
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    let before = memories_fetched(&mut tx).await;
    let reached = cairn::store::relations::related(&mut tx, hub.parse().unwrap(), &walk).await.unwrap();
    let read = memories_fetched(&mut tx).await - before;

    tx.rollback().await.unwrap();
    assert_eq!(reached.len(), 1);
    assert!((reached[0].path_strength - 0.99).abs() < 1e-6, "the strongest spoke: {}", reached[0].path_strength);
    assert!(read <= 2, "a traversal with limit=1 read {read} memories of the 300 it reached");

    // Through the API: the same answer, strongest first.
    let body = app.get(key, &format!("/api/v1/memories/{hub}/related?limit=3")).await.ok(200).clone();
    let strengths: Vec<f64> =
        body["related"].as_array().unwrap().iter().map(|r| r["path_strength"].as_f64().unwrap()).collect();
    assert!(strengths.len() == 3 && strengths.iter().all(|s| (s - 0.99).abs() < 1e-6), "{strengths:?}");
}

#[tokio::test]
async fn a_delete_across_thousands_of_episodes_holds_at_most_32_locks() {
    let app = spawn().await;
    let key = &app.a.key;
    let items: Vec<Value> = (0..1000)
        .map(|i| json!({"content": format!("turn of episode {i}"), "episode_id": format!("chat-{i}"), "tags": ["doomed"]}))
        .collect();
    for chunk in items.chunks(500) {
        app.store_batch(key, chunk).await;
    }
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    let deleted = cairn::store::memories::delete_by_tags(&mut tx, &["doomed".to_owned()], "test").await.unwrap();
    // Counted where the locks are held: the episode stripes (two-key advisory locks 1900..1931, migration 26)
    // held by the session that deleted. The trash row makes the statement run where the tenant's rows are (on
    // Citus, the worker's session of this transaction, not the coordinator's, which holds Citus's own locks).
    let locks: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
                    AND objid BETWEEN 1900 AND 1931 AND pid = pg_backend_pid() AND granted)
           FROM memory_trash WHERE tenant_id = $1 LIMIT 1",
    )
    .bind(app.a.id)
    .fetch_one(tx.conn())
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(deleted, 1000);
    assert!(locks <= 32, "{locks} advisory locks held for 1000 episodes");
    assert_eq!(app.count(key).await, 0);
}

/// An import whose body is still open: the request line, headers and the export's header line are sent,
/// the rest is up to the caller.
async fn open_import(app: &TestApp, key: &str) -> TcpStream {
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let head = format!(
        "POST /api/v1/import HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {key}\r\nContent-Type: application/x-ndjson\r\n\
         Transfer-Encoding: chunked\r\n\r\n",
        app.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    chunk(&mut stream, &format!("{}\n", json!({"type": "cairn_export", "version": 1}))).await;
    stream
}

async fn chunk(stream: &mut (impl AsyncWriteExt + Unpin), data: &str) {
    stream.write_all(format!("{:x}\r\n{data}\r\n", data.len()).as_bytes()).await.unwrap();
}

/// The status line and body of the response on `stream` (the server answers before the body ends when it
/// refuses it).
async fn response(stream: &mut (impl AsyncReadExt + Unpin)) -> (u16, String) {
    let mut buf = vec![0u8; 16 * 1024];
    let mut read = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let n = tokio::time::timeout_at(deadline, stream.read(&mut buf[read..])).await.expect("a response").unwrap();
        read += n;
        let text = String::from_utf8_lossy(&buf[..read]).to_string();
        if n == 0 || text.contains("\r\n\r\n") && text.trim_end().ends_with('}') {
            let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            return (status, text);
        }
    }
}

#[tokio::test]
async fn import_turns_are_per_tenant_and_a_stalled_import_is_ended() {
    let config = AppArgs { transfer_min_bytes_per_sec: 1000, transfer_window_secs: 2, ..AppArgs::default() };
    let app = spawn_with(config, None).await;
    let line = |content: &str| format!("{}\n", json!({"type": "memories", "data": {"content": content}}));
    // Tenant a holds an import open, trickling.
    let mut held = open_import(&app, &app.a.key).await;
    chunk(&mut held, &line("first line of a slow import")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A second import of the same tenant waits for its turn (429)...
    let second = app.import(&app.a.key, format!("{}\n", json!({"type": "cairn_export", "version": 1}))).await;
    second.assert_error(429, "already runs 1 import");
    // ...while another tenant's import runs at once.
    let other =
        app.import(&app.b.key, format!("{}\n{}", json!({"type": "cairn_export", "version": 1}), line("b's"))).await;
    assert_eq!(other.ok(200)["inserted"]["memories"], 1);

    // The trickle is below the minimum pace: the import is ended (408) within a window or two, and its turn
    // comes back.
    let started = std::time::Instant::now();
    let (mut reader, mut writer) = held.into_split();
    let trickle = async {
        loop {
            chunk(&mut writer, " ").await;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    };
    let (status, body) = tokio::select! {
        answer = response(&mut reader) => answer,
        _ = trickle => unreachable!(),
    };
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("below the minimum of 1000 bytes/s"), "{body}");
    assert!(started.elapsed() < Duration::from_secs(10), "ended after {:?}", started.elapsed());
    let again =
        app.import(&app.a.key, format!("{}\n{}", json!({"type": "cairn_export", "version": 1}), line("again"))).await;
    assert_eq!(again.ok(200)["inserted"]["memories"], 1, "the turn came back");
}

#[tokio::test]
async fn an_export_turn_is_per_tenant_and_a_client_that_stops_reading_loses_it() {
    let config = AppArgs { transfer_min_bytes_per_sec: 1000, transfer_window_secs: 1, ..AppArgs::default() };
    let app = spawn_with(config, None).await;
    let items: Vec<Value> = (0..500)
        .map(|i| json!({"content": format!("exported memory {i}"), "metadata": {"pad": "p".repeat(4000)}}))
        .collect();
    app.store_batch(&app.a.key, &items).await;
    // A client that asks for an export and never reads it.
    let mut idle = TcpStream::connect(app.addr).await.unwrap();
    let head =
        format!("GET /api/v1/export HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\r\n", app.addr, app.a.key);
    idle.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let res = app.client.get(app.url("/api/v1/export")).bearer_auth(&app.a.key).send().await.unwrap();
    TestApp::read(res).await.assert_error(429, "already runs 1 export");
    let res = app.client.get(app.url("/api/v1/export")).bearer_auth(&app.b.key).send().await.unwrap();
    assert_eq!(res.status(), 200, "another tenant exports meanwhile");
    // Past a window of not reading, the export ends and the turn comes back.
    let mut freed = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let res = app.client.get(app.url("/api/v1/export?history=false")).bearer_auth(&app.a.key).send().await.unwrap();
        if res.status() == 200 {
            let text = res.text().await.unwrap();
            assert_eq!(text.lines().count(), 501, "the whole export");
            freed = true;
            break;
        }
    }
    assert!(freed, "the stalled export kept its turn");
    // What the idle client gets when it finally reads: a cut-off body, never one that looks complete (no
    // chunked terminator), so a backup taken this way is known to be broken.
    let mut received = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), idle.read_to_end(&mut received)).await;
    let text = String::from_utf8_lossy(&received);
    assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..text.len().min(200)]);
    assert!(!text.ends_with("\r\n0\r\n\r\n"), "the stalled export ended as if complete");
}

#[tokio::test]
async fn a_tenant_holds_at_most_its_turns_of_an_instance() {
    let config = AppArgs { tenant_concurrency: 2, tenant_concurrency_wait_ms: 300, ..AppArgs::default() };
    let app = spawn_with(config, None).await;
    // Two requests of tenant a stay in flight: an import whose body keeps coming, and another.
    let mut first = open_import(&app, &app.a.key).await;
    let mut second = TcpStream::connect(app.addr).await.unwrap();
    let head = format!(
        "POST /api/v1/memories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{",
        app.a.key
    );
    second.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A third waits for a turn, then is refused; another tenant is served at once.
    app.get(&app.a.key, "/api/v1/memories").await.assert_error(429, "requests in progress");
    app.get(&app.b.key, "/api/v1/memories").await.ok(200);
    // As soon as one ends, the tenant is served again.
    chunk(&mut first, "").await; // the chunked body's end
    let (status, _) = response(&mut first).await;
    assert_eq!(status, 200, "an import of nothing but its header");
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);
    drop(second);
}
