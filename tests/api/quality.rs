//! A tenant's quality report on its own data (`POST /api/v1/eval`, `service::eval`): figures, ranks and
//! score components of the expected memories, the history, stored probe sets and their schedule, bad input,
//! and that evaluating changes nothing it measures.

use chrono::{Duration, Utc};
use serde_json::{json, Value};

use crate::helpers::{new_key, spawn};

#[tokio::test]
async fn a_quality_report_ranks_each_expected_memory_and_keeps_the_history() {
    let app = spawn().await;
    let key = &app.a.key;
    let kubernetes = app.store_text(key, "Alice deploys the Kubernetes cluster on Fridays").await;
    let postgres = app.store_text(key, "We chose Postgres as the primary database").await;
    let unrelated = app.store_text(key, "The office plants need water twice a week").await;
    app.store_text(key, "Bob writes the release notes for every deploy").await;
    let probes = json!([
        {"query": "who deploys the Kubernetes cluster", "expected": [kubernetes]},
        {"query": "which database did we choose", "expected": [postgres, unrelated]},
        {"query": "favourite ice cream flavour", "expected": [postgres]},
    ]);
    let body = json!({"probes": probes, "k": 3, "mode": "keyword"});
    let run = app.post(key, "/api/v1/eval", &body).await.ok(200).clone();
    assert_eq!((run["k"].clone(), run["mode"].clone(), run["probes"].clone()), (json!(3), json!("keyword"), json!(3)));
    assert_eq!((run["trigger"].as_str(), run["probe_set"].clone()), (Some("manual"), Value::Null));
    let results = run["results"].as_array().unwrap();
    // The first probe's memory at rank 1, with the components that put it there.
    let first = &results[0]["expected"][0];
    assert_eq!((first["id"].as_str(), first["rank"].as_u64()), (Some(kubernetes.as_str()), Some(1)));
    assert!(first["score_components"]["keyword"].as_f64().unwrap() > 0.0, "{first}");
    assert!(first["score"].as_f64().unwrap() > 0.0);
    // The second finds one of its two; the other is not ranked at all.
    assert_eq!(results[1]["recall"], 0.5);
    assert!(results[1]["expected"][1]["rank"].is_null() && results[1]["expected"][1]["score_components"].is_null());
    // The third finds nothing.
    assert_eq!((results[2]["recall"].as_f64(), results[2]["reciprocal_rank"].as_f64()), (Some(0.0), Some(0.0)));
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 1e-4;
    assert!(close(&run["recall_at_k"], 1.5 / 3.0), "{run}");
    assert!(close(&run["hit_at_k"], 2.0 / 3.0), "{run}");
    assert!(close(&run["mrr"], 2.0 / 3.0), "{run}");

    // Evaluating counts no access: the forgetting clock of the probed memories does not move.
    app.flush_accesses().await;
    let read = app.get(key, &format!("/api/v1/memories/{kubernetes}?touch=false")).await.ok(200).clone();
    assert_eq!(read["access_count"], 0, "{read}");

    // The history: newest first, without per-probe results; one run with them.
    let history = app.get(key, "/api/v1/eval/runs").await.ok(200).clone();
    assert_eq!((history["total"].clone(), history["count"].clone()), (json!(1), json!(1)));
    assert!(history["runs"][0].get("results").is_none(), "{history}");
    let id = run["id"].as_str().unwrap();
    let one = app.get(key, &format!("/api/v1/eval/runs/{id}")).await.ok(200).clone();
    assert_eq!(one["results"].as_array().unwrap().len(), 3);
    assert_eq!(one["results"][0]["expected"][0]["rank"], 1);
    app.get(key, &format!("/api/v1/eval/runs/{}", uuid::Uuid::new_v4())).await.assert_error(404, "id");
}

#[tokio::test]
async fn probe_sets_are_stored_run_by_name_and_on_their_schedule() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = app.store_text(key, "The deploy key rotates every Tuesday").await;
    let set = json!({"probes": [{"query": "when does the deploy key rotate", "expected": [id]}], "k": 5, "mode": "keyword", "every_hours": 24});
    let stored = app.put(key, "/api/v1/eval/probe-sets/weekly", &set).await.ok(200).clone();
    assert_eq!((stored["name"].as_str(), stored["every_hours"].as_i64()), (Some("weekly"), Some(24)));
    assert_eq!(stored["probes"][0]["expected"][0], id.as_str());
    let listed = app.get(key, "/api/v1/eval/probe-sets").await.ok(200).clone();
    assert_eq!(listed["probe_sets"].as_array().unwrap().len(), 1);

    // Run by name: the set's own k and mode.
    let run = app.post(key, "/api/v1/eval", &json!({"probe_set": "weekly"})).await.ok(200).clone();
    assert_eq!(
        (run["probe_set"].as_str(), run["k"].as_i64(), run["recall_at_k"].as_f64()),
        (Some("weekly"), Some(5), Some(1.0))
    );

    // The schedule: a new set at the next pass, taken once, then every 24 hours to the hour (a run by hand
    // does not move it).
    let now = Utc::now();
    assert_eq!(cairn::service::eval::schedule_due(&app.db, now).await.unwrap(), 1);
    assert_eq!(cairn::service::eval::schedule_due(&app.db, now).await.unwrap(), 0);
    assert_eq!(cairn::service::eval::schedule_due(&app.db, now + Duration::hours(23)).await.unwrap(), 0);
    assert_eq!(cairn::service::eval::schedule_due(&app.db, now + Duration::hours(24)).await.unwrap(), 1);
    let mut conn = app.superuser_conn().await;
    let queued: Vec<(String, cairn::queue::eval::EvalJob)> =
        app.pending_jobs(&mut conn, cairn::queue::eval::QUEUE).await;
    assert_eq!(queued.len(), 2);
    assert_eq!((queued[0].1.tenant_id, queued[0].1.probe_set.as_str()), (app.a.id, "weekly"));
    // What the job does: the run recorded as the schedule's.
    let report = cairn::service::eval::run_scheduled(&app.services, app.a.id, "weekly").await.unwrap().unwrap();
    assert_eq!((report.run.trigger.as_str(), report.run.probes), ("schedule", 1));
    let history = app.get(key, "/api/v1/eval/runs?probe_set=weekly&limit=1").await.ok(200).clone();
    assert_eq!((history["total"].clone(), history["has_more"].clone()), (json!(2), json!(true)));
    assert_eq!(history["runs"][0]["trigger"], "schedule");
    assert!(history["runs"][0].get("results").is_none(), "{history}");

    // Deleted: its runs stay; the job of a deleted set does nothing; a second delete is 404.
    app.delete(key, "/api/v1/eval/probe-sets/weekly").await.ok(200);
    assert!(cairn::service::eval::run_scheduled(&app.services, app.a.id, "weekly").await.unwrap().is_none());
    app.delete(key, "/api/v1/eval/probe-sets/weekly").await.assert_error(404, "name");
    app.post(key, "/api/v1/eval", &json!({"probe_set": "weekly"})).await.assert_error(404, "probe_set");
    assert_eq!(app.get(key, "/api/v1/eval/runs").await.ok(200)["total"], 2);
}

#[tokio::test]
async fn bad_quality_report_input_is_a_400_naming_the_field() {
    let app = spawn().await;
    let key = &app.a.key;
    let id = uuid::Uuid::new_v4();
    let probe = json!({"query": "anything", "expected": [id]});
    let cases = [
        (json!({}), "probes"),
        (json!({"probes": []}), "probes"),
        (json!({"probes": [probe], "probe_set": "weekly"}), "probes"),
        (json!({"probes": [{"query": "", "expected": [id]}]}), "probes[0].query"),
        (json!({"probes": [probe, {"query": "q", "expected": []}]}), "probes[1].expected"),
        (json!({"probes": [probe], "k": 0}), "k"),
        (json!({"probes": [probe], "k": 101}), "k"),
        (json!({"probes": [probe], "mode": "fuzzy"}), "mode"),
        (json!({"probes": vec![probe.clone(); 51]}), "probes"),
        (json!({"probe_set": "no spaces allowed"}), "probe_set"),
    ];
    for (body, field) in cases {
        app.post(key, "/api/v1/eval", &body).await.assert_error(400, &format!("{field}:"));
    }
    let set = json!({"probes": [probe], "every_hours": 0});
    app.put(key, "/api/v1/eval/probe-sets/weekly", &set).await.assert_error(400, "every_hours");
    app.put(key, "/api/v1/eval/probe-sets/bad%20name", &json!({"probes": [probe]})).await.assert_error(400, "name");
    app.get(key, "/api/v1/eval/runs?limit=0").await.assert_error(400, "limit");
    assert_eq!(app.get(key, "/api/v1/eval/runs").await.ok(200)["total"], 0, "nothing was recorded");
    // At most 20 sets.
    for i in 0..20 {
        app.put(key, &format!("/api/v1/eval/probe-sets/s{i}"), &json!({"probes": [probe]})).await.ok(200);
    }
    app.put(key, "/api/v1/eval/probe-sets/s20", &json!({"probes": [probe]})).await.assert_error(403, "20");
    app.put(key, "/api/v1/eval/probe-sets/s3", &json!({"probes": [probe], "k": 3})).await.ok(200);
    // A read-only key may look but not run (a run is recorded).
    let reader = new_key(&app.db, app.a.id, &["read"]).await;
    app.post(&reader, "/api/v1/eval", &json!({"probes": [probe]})).await.assert_error(403, "write");
    app.get(&reader, "/api/v1/eval/runs").await.ok(200);
}

#[tokio::test]
async fn concurrent_new_probe_sets_never_pass_the_cap() {
    let app = spawn().await;
    let probe = json!({"probes": [{"query": "anything", "expected": [uuid::Uuid::new_v4()]}]});
    let puts = (0..26).map(|i| {
        let (app, probe) = (&app, &probe);
        async move { app.put(&app.a.key, &format!("/api/v1/eval/probe-sets/p{i}"), probe).await.status }
    });
    let statuses = futures_util::future::join_all(puts).await;
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 20, "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 200 || *s == 403), "{statuses:?}");
    let listed = app.get(&app.a.key, "/api/v1/eval/probe-sets").await.ok(200).clone();
    assert_eq!(listed["probe_sets"].as_array().unwrap().len(), 20);
}
