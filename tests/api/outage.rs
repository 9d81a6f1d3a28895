//! Postgres unreachable: 503 in the envelope, the server stays up, and recovers by itself.
//!
//! The server reaches Postgres through a TCP proxy the test controls, so the outage is real (connections
//! drop, new ones are refused) without touching the shared database server.

use std::time::{Duration, Instant};

use cairn::config::AppArgs;
use reqwest::Method;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use crate::helpers::{base_url, owner_base_url, spawn_full, spawn_with, with_port};

pub(crate) fn upstream() -> String {
    let url = base_url();
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split('/').next().unwrap();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:5432")
    }
}

/// Forwards `port` to Postgres until aborted; aborting drops every proxied connection.
fn proxy(listener: TcpListener) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut connections = tokio::task::JoinSet::new();
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else {
                continue;
            };
            let target = upstream();
            connections.spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    })
}

#[tokio::test]
async fn an_unreachable_database_is_a_503_and_the_server_recovers() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let running = proxy(listener);
    let app = spawn_with(AppArgs::default(), Some(with_port(&owner_base_url(), port))).await;
    let id = app.store_text(&app.a.key, "survives the outage").await;
    let path = format!("/api/v1/memories/{id}");

    running.abort();
    let _ = running.await;
    let started = Instant::now();
    let down = app.get(&app.a.key, &path).await;
    down.assert_error(503, "database unavailable");
    assert!(started.elapsed() < Duration::from_secs(15), "503 must come quickly, took {:?}", started.elapsed());
    // Recall too, including its first computation of the tenant's keyword statistics.
    let body = serde_json::json!({"query": "outage"});
    app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(503, "database unavailable");
    let health = app.send(Method::GET, "/health", None, None).await;
    assert_eq!((health.status, health.body["database"].as_str()), (503, Some("unreachable")));
    // Liveness does not depend on the database: an outage must not restart every pod.
    let live = app.send(Method::GET, "/livez", None, None).await;
    assert_eq!((live.status, live.body["status"].as_str()), (200, Some("ok")));
    assert_eq!(
        (health.body["falkordb"].as_str(), health.body["qdrant"].as_str()),
        (Some("disconnected"), Some("disconnected"))
    );
    app.post(&app.a.key, "/api/v1/memories", &serde_json::json!({"content": "during the outage"}))
        .await
        .assert_error(503, "database unavailable");

    let listener = TcpListener::bind(("127.0.0.1", port)).await.expect("rebind the proxy port");
    let _restored = proxy(listener);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let res = app.get(&app.a.key, &path).await;
        if res.status == 200 {
            assert_eq!(res.body["content"], "survives the outage");
            break;
        }
        assert!(Instant::now() < deadline, "no recovery: {}", res.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.send(Method::GET, "/health", None, None).await.ok(200);
}

/// A proxy to Postgres that can turn into a black hole: connections stay open and accepted, nothing is
/// forwarded either way (packets dropped, not refused), as when a network path to the database dies.
fn black_hole_proxy(listener: TcpListener, forward: tokio::sync::watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else { continue };
            if !*forward.borrow() {
                held.push(inbound); // accepted, never answered
                continue;
            }
            let mut forward = forward.clone();
            tokio::spawn(async move {
                let Ok(mut outbound) = TcpStream::connect(upstream()).await else { return };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                    _ = async { forward.wait_for(|on| !*on).await.is_ok() } => {
                        // Nothing more passes; the sockets stay open until the network is back.
                        let _ = async { forward.wait_for(|on| *on).await.is_ok() }.await;
                    }
                }
            });
        }
    })
}

#[tokio::test]
async fn a_black_holed_database_is_a_503_within_the_connect_timeout_and_recovers() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (forward, receiver) = tokio::sync::watch::channel(true);
    let _proxy = black_hole_proxy(listener, receiver);
    // An acquire timeout far above the connect timeout: without the deadline, a pooled connection's ping into
    // the black hole would hold the request for all of it.
    let tune = |args: cairn::config::DbArgs| cairn::config::DbArgs {
        db_connect_timeout_ms: 1_000,
        db_acquire_timeout_secs: 15,
        ..args
    };
    let workers = cairn::queue::Workers::None;
    let embedder = cairn::models::embed::EmbedderSlot::disabled();
    let via_proxy = Some(with_port(&owner_base_url(), port));
    let app = spawn_full(AppArgs::default(), via_proxy, embedder, &[], workers, tune).await;
    let id = app.store_text(&app.a.key, "survives the black hole").await;
    let path = format!("/api/v1/memories/{id}");
    app.get(&app.a.key, &path).await.ok(200);

    forward.send_replace(false);
    let started = Instant::now();
    app.get(&app.a.key, &path).await.assert_error(503, "database unavailable");
    let first = started.elapsed();
    let started = Instant::now();
    app.post(&app.a.key, "/api/v1/recall", &serde_json::json!({"query": "hole"}))
        .await
        .assert_error(503, "unavailable");
    let then = started.elapsed();
    println!("black hole: first 503 after {first:?}, the next after {then:?}");
    // The connect timeout (1 s), not the acquire timeout or the request timeout (30 s), bounds the wait.
    assert!(first < Duration::from_secs(5), "the first 503 took {first:?}");
    assert!(then < Duration::from_secs(5), "the next 503 took {then:?}");
    let live = app.send(Method::GET, "/livez", None, None).await;
    assert_eq!(live.status, 200);

    forward.send_replace(true);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let res = app.get(&app.a.key, &path).await;
        if res.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "no recovery: {}", res.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
