//! Bounds on what one request may cost: statements stop at their timeout (Postgres stops working for a
//! client that is gone), and a client must send its headers in time.

use std::time::Duration;

use cairn::config::{AppArgs, DbArgs};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{spawn_tuned, spawn_with};

fn short_statements(args: DbArgs) -> DbArgs {
    DbArgs { db_statement_timeout_ms: 300, db_job_statement_timeout_ms: 4_000, ..args }
}

#[tokio::test]
async fn a_statement_past_the_timeout_is_cancelled_and_answers_503() {
    let app = spawn_tuned(AppArgs::default(), short_statements, &[]).await;
    // A trigger that takes two seconds for one kind of content stands in for an expensive query.
    let mut conn = app.superuser_conn().await;
    if crate::helpers::citus_nodes().is_some() {
        // On Citus `memories` is distributed: the trigger goes to its shards, which Citus allows when told.
        sqlx::query("SET citus.enable_unsafe_triggers = on").execute(&mut conn).await.unwrap();
    }
    sqlx::query(
        "CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.content LIKE 'slow%' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query("CREATE TRIGGER slow_insert BEFORE INSERT ON memories FOR EACH ROW EXECUTE FUNCTION slow_insert()")
        .execute(&mut conn)
        .await
        .unwrap();

    let started = std::time::Instant::now();
    let res = app.post(&app.a.key, "/api/v1/memories", &json!({"content": "slow to store"})).await;
    res.assert_error(503, "took longer than the database allows");
    assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
    // Postgres stopped too: nothing of this database still sleeps (a cancel lands asynchronously; on Citus it
    // travels to the worker and back, so allow it a moment — well under the trigger's 2 s sleep).
    let mut sleeping = 1_i64;
    for _ in 0..10 {
        sleeping = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
               AND query LIKE '%INSERT INTO memories%' AND state = 'active' AND pid <> pg_backend_pid()",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        if sleeping == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(sleeping, 0);
    assert_eq!(app.count(&app.a.key).await, 0, "nothing was written");
    app.post(&app.a.key, "/api/v1/memories", &json!({"content": "quick"})).await.ok(201);

    // Requests and jobs get their own timeouts, each for its transaction only.
    let mut tx = app.db.begin_tenant(app.a.id).await.unwrap();
    let shown: String = sqlx::query_scalar("SHOW statement_timeout").fetch_one(tx.conn()).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(shown, "300ms");
    let mut tx = app.db.for_jobs().begin_snapshot(app.a.id).await.unwrap();
    let shown: String = sqlx::query_scalar("SHOW statement_timeout").fetch_one(tx.conn()).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(shown, "4s");
}

#[tokio::test]
async fn a_client_that_sends_its_headers_too_slowly_is_disconnected() {
    let app = spawn_with(AppArgs { header_read_timeout_secs: 1, ..AppArgs::default() }, None).await;
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(b"GET /livez HTTP/1.1\r\nHost: cairn\r\n").await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buf)).await;
    let read = read.expect("the server closes the connection well before 5 s");
    let text = String::from_utf8_lossy(&buf);
    assert!(read.is_err() || buf.is_empty() || text.starts_with("HTTP/1.1 408"), "{text}");
    // One that connects and sends nothing at all is closed too.
    let mut idle = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "an idle connection is closed well before 5 s");
    // A client that sends its request at once is served as ever.
    app.client.get(app.url("/livez")).send().await.unwrap().error_for_status().unwrap();
}
