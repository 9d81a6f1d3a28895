//! `GET /api/v1/jobs/status`: counts per queue and state, recent failures, pipeline states — each tenant
//! its own.

use serde_json::Value;

use crate::helpers::spawn;

fn queue<'a>(status: &'a Value, name: &str) -> &'a Value {
    status["queues"].as_array().unwrap().iter().find(|q| q["queue"] == name).unwrap_or_else(|| panic!("{status}"))
}

#[tokio::test]
async fn job_status_counts_the_tenants_queues_failures_and_pipelines() {
    let app = spawn().await;
    let (a, b) = (&app.a.key, &app.b.key);
    let first = app.store_text(a, "Met with Sarah Chen").await;
    app.store_text(a, "Redis eviction policy").await;

    let status = app.get(a, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(queue(&status, "cairn::enrich")["pending"], 2);
    assert_eq!(queue(&status, "cairn::embed")["pending"], 2);
    assert_eq!((status["embedding"]["pending"].as_i64(), status["enrichment"]["pending"].as_i64()), (Some(2), Some(2)));
    assert_eq!(status["recent_failures"], serde_json::json!([]));

    // Tenant B has its own (empty) picture.
    let other = app.get(b, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(queue(&other, "cairn::enrich")["pending"], 0);
    assert_eq!(other["enrichment"]["pending"], 0);

    // An attempt that failed is listed with its error and memories, for its tenant only.
    let mut conn = app.superuser_conn().await;
    sqlx::query(
        "UPDATE apalis.jobs SET attempts = 1, last_error = 'embedding server answered 503'
          WHERE job_type = 'cairn::embed' AND job->'memory_ids' ? $1",
    )
    .bind(&first)
    .execute(&mut conn)
    .await
    .unwrap();
    app.run_enrichment().await;
    let status = app.get(a, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(
        (queue(&status, "cairn::enrich")["done"].as_i64(), queue(&status, "cairn::enrich")["pending"].as_i64()),
        (Some(2), Some(0))
    );
    assert_eq!(status["enrichment"]["ready"], 2);
    let failure = &status["recent_failures"][0];
    assert_eq!(failure["queue"], "cairn::embed");
    assert_eq!(failure["last_error"], "embedding server answered 503");
    assert_eq!(failure["memory_ids"], serde_json::json!([first]));
    let other = app.get(b, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(other["recent_failures"], serde_json::json!([]));

    // apalis records a success in last_error too ({"Ok":...}): that is not a failure.
    sqlx::query(
        "UPDATE apalis.jobs SET status = 'Done', last_error = '{\"Ok\":null}' WHERE job_type = 'cairn::enrich'",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let status = app.get(a, "/api/v1/jobs/status").await.ok(200).clone();
    assert_eq!(status["recent_failures"].as_array().unwrap().len(), 1, "{status}");
}
