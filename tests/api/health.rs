//! GET /health needs no key.

use reqwest::Method;

use crate::helpers::spawn;

#[tokio::test]
async fn health_reports_the_database_without_auth() {
    let app = spawn().await;
    let res = app.send(Method::GET, "/health", None, None).await;
    let body = res.ok(200);
    assert_eq!(body["status"], "healthy");
    assert_eq!(body["database"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert!(body["uptime_seconds"].is_u64());
    // AutoMem's clients look for its two stores; Postgres holds Cairn's graph and vectors.
    assert_eq!((body["falkordb"].as_str(), body["qdrant"].as_str()), (Some("connected"), Some("connected")));
}
