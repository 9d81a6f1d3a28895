//! Regressions found by fuzzing (schemathesis and hand-made races): none of these may ever be a 500.

use std::time::{Duration, Instant};

use cairn::config::AppArgs;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{spawn, spawn_with};

#[tokio::test]
async fn metadata_numbers_survive_every_round_trip_exactly() {
    let app = spawn().await;
    let metadata = json!({"max": 1.7976931348623157e308, "min": -1.7976931348623157e308, "near": 1.7976931348623153e308,
                          "tenth": 0.1, "third": 0.333_333_333_333_333_3, "tiny": 5e-324, "big_int": 9_007_199_254_740_993_u64});
    let stored = app.store(&app.a.key, json!({"content": "numbers", "metadata": metadata})).await;
    assert_eq!(stored["metadata"], metadata);
    let id = stored["id"].as_str().unwrap();
    let path = format!("/api/v1/memories/{id}");
    let patched = app.patch(&app.a.key, &path, &json!({"importance": 0.7})).await.ok(200).clone();
    assert_eq!(patched["metadata"], metadata);
    app.patch(&app.a.key, &path, &json!({"metadata": {}})).await.ok(200);
    let history = app.get(&app.a.key, &format!("{path}/history")).await.ok(200).clone();
    assert_eq!(history["events"][1]["before"]["metadata"], metadata);
    assert_eq!(history["events"][2]["before"]["metadata"], metadata);
}

#[tokio::test]
async fn concurrent_batches_in_opposite_orders_never_deadlock_into_a_500() {
    let app = spawn().await;
    for round in 0..5 {
        let items: Vec<Value> = (0..30).map(|i| json!({"content": format!("round {round} item {i}")})).collect();
        let reversed: Vec<Value> = items.iter().rev().cloned().collect();
        let forward = json!({ "memories": items, "on_duplicate": "error" });
        let backward = json!({ "memories": reversed, "on_duplicate": "error" });
        let (a, b) = tokio::join!(
            app.post(&app.a.key, "/api/v1/memories/batch", &forward),
            app.post(&app.a.key, "/api/v1/memories/batch", &backward),
        );
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [201, 409], "round {round}: {} / {}", a.body, b.body);
    }
}

#[tokio::test]
async fn inserts_racing_deletes_of_the_same_content_never_500() {
    let app = spawn().await;
    let deadline = Instant::now() + Duration::from_millis(1500);
    let body = json!({"content": "raced content", "tags": ["race"]});
    let insert = || async {
        let mut statuses = Vec::new();
        while Instant::now() < deadline {
            let res = app.post(&app.a.key, "/api/v1/memories", &body).await;
            statuses.push((res.status, res.body.clone()));
        }
        statuses
    };
    let delete = async {
        let mut statuses = Vec::new();
        while Instant::now() < deadline {
            statuses.push(app.delete(&app.a.key, "/api/v1/memories/by-tag?tags=race").await.status);
        }
        statuses
    };
    let (i1, i2, d1) = tokio::join!(insert(), insert(), delete);
    for (status, body) in i1.iter().chain(&i2) {
        // Stored, or the memory holding the content (`on_duplicate: existing`); under a storm of deletes of that
        // very memory, after a few tries, a 503 that says to retry.
        let retry = *status == 503 && body["message"].as_str().is_some_and(|m| m.ends_with("retry"));
        assert!(matches!(status, 200 | 201) || retry, "insert answered {status}: {body}");
    }
    assert!(d1.iter().all(|s| *s == 200));
}

#[tokio::test]
async fn a_request_that_times_out_still_gets_the_envelope() {
    let app = spawn_with(AppArgs { request_timeout_secs: 1, ..AppArgs::default() }, None).await;
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let head = format!(
        "POST /api/v1/memories HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{{\"co",
        app.a.key
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains(r#""status":"error""#) && text.contains(r#""code":503"#), "{text}");
}

#[tokio::test]
async fn long_bad_ids_are_not_echoed_in_full() {
    let app = spawn().await;
    let res = app.get(&app.a.key, &format!("/api/v1/memories/{}", "x".repeat(5000))).await;
    res.assert_error(400, "id: not a valid UUID");
    assert!(res.body["message"].as_str().unwrap().len() < 200);
}

/// A request dropped while its transaction's `BEGIN` is in flight (a client that hangs up, a reload) leaves
/// nothing open on the connection: the next borrower gets a transaction of its own. sqlx's `begin` left the
/// session inside the dropped one (transact-rs/sqlx#4393), so a page reload during a recall handed the next
/// request the recall's read-only snapshot, and its write failed with a 500 (the dashboard test, on CI).
#[tokio::test]
async fn a_request_dropped_while_its_transaction_begins_leaves_nothing_open() {
    use std::future::Future;
    use std::task::Poll;

    let app = spawn().await;
    // One connection, so every transaction below is on the one the dropped ones used.
    let db = cairn::store::Db::connect_lazy(
        &cairn::config::DbArgs { db_max_connections: 1, ..crate::helpers::db_args(&app.db_url) }.settings(),
    )
    .unwrap();
    db.begin_tenant(app.a.id).await.unwrap().commit().await.unwrap();
    let (mut dropped, mut finished) = (0, 0);
    // Dropped after 0 µs to 3 ms of polling: the acquire, its check and the BEGIN each take some of that.
    for step in 0..300u64 {
        let budget = Duration::from_micros(step * 10);
        let mut begin = Box::pin(db.begin_snapshot(app.a.id));
        let start = Instant::now();
        let outcome = std::future::poll_fn(|cx| match begin.as_mut().poll(cx) {
            Poll::Ready(tx) => Poll::Ready(Some(tx)),
            Poll::Pending if start.elapsed() >= budget => Poll::Ready(None),
            Poll::Pending => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await;
        match outcome {
            Some(tx) => {
                finished += 1;
                tx.unwrap().rollback().await.unwrap();
            }
            None => dropped += 1,
        }
        drop(begin);
        let mut tx = db.begin_tenant(app.a.id).await.unwrap();
        let (read_only, isolation): (String, String) =
            sqlx::query_as("SELECT current_setting('transaction_read_only'), current_setting('transaction_isolation')")
                .fetch_one(tx.conn())
                .await
                .unwrap();
        assert_eq!(
            (read_only.as_str(), isolation.as_str()),
            ("off", "read committed"),
            "the transaction after a begin dropped at {budget:?} is the dropped one"
        );
        tx.rollback().await.unwrap();
    }
    assert!(dropped > 0 && finished > 0, "{dropped} dropped, {finished} finished: the window was not crossed");
}
