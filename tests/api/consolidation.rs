//! Consolidation: clusters at the 0.75 threshold with summaries for five or more, creative discovery across
//! types, dry runs that write nothing, the schedule, the status, validation and tenant isolation.

use chrono::{Duration, Utc};
use serde_json::{json, Value};

use crate::helpers::{spawn, TestApp};

/// A unit vector: `weight` on axis `main`, the rest on axis `side`.
fn vector(main: usize, weight: f64, side: usize) -> Vec<f64> {
    let mut v = vec![0.0; 384];
    v[main] = weight;
    v[side] += (1.0 - weight * weight).sqrt();
    v
}

async fn store(app: &TestApp, key: &str, content: &str, kind: &str, embedding: Vec<f64>) -> String {
    let body = json!({"content": content, "type": kind, "embedding": embedding});
    app.store(key, body).await["id"].as_str().unwrap().to_owned()
}

async fn consolidate(app: &TestApp, key: &str, body: Value) -> Value {
    app.post(key, "/api/v1/consolidate", &body).await.ok(200).clone()
}

#[tokio::test]
async fn clusters_form_at_075_and_five_members_earn_a_summary_once() {
    let app = spawn().await;
    let key = &app.a.key;
    // Cluster A: six memories around axis 0 (pairwise cosine 0.92), plus one at 0.77 to them (joins) and one
    // at 0.71 (does not).
    let unit = 1.0 / 1.09_f64.sqrt();
    for i in 0..6 {
        let mut v = vec![0.0; 384];
        v[0] = unit;
        v[10 + i] = 0.3 * unit;
        store(&app, key, &format!("Deploy note {i}. More detail."), "Context", v).await;
    }
    store(&app, key, "Deploy note just over.", "Context", vector(0, 0.8, 300)).await;
    store(&app, key, "Deploy note just under.", "Context", vector(0, 0.74, 301)).await;
    // Cluster B: three memories around axis 100: a cluster, too small for a summary.
    for i in 0..3 {
        let mut v = vec![0.0; 384];
        v[100] = unit;
        v[110 + i] = 0.3 * unit;
        store(&app, key, &format!("Billing note {i}"), "Context", v).await;
    }
    store(&app, key, "Lonely note", "Context", vector(200, 1.0, 201)).await;
    let memories_before = app.count(key).await;

    let dry = consolidate(&app, key, json!({"mode": "cluster", "time_horizon": "weekly", "dry_run": true})).await;
    assert_eq!(
        (dry["clusters_created"].as_u64(), dry["summaries_created"].as_u64(), dry["associations_created"].as_u64()),
        (Some(2), Some(1), Some(7)),
        "{dry}"
    );
    assert_eq!(
        (dry["processed"].as_u64(), dry["dry_run"].as_bool(), dry["status"].as_str()),
        (Some(12), Some(true), Some("success"))
    );
    assert_eq!(app.count(key).await, memories_before, "a dry run writes nothing");
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, 0);

    let real = consolidate(&app, key, json!({"mode": "cluster"})).await;
    assert_eq!((real["clusters_created"].as_u64(), real["summaries_created"].as_u64()), (Some(2), Some(1)), "{real}");
    let summaries = app.get(key, "/api/v1/memories?tags=consolidation:summary").await.ok(200).clone();
    assert_eq!(summaries["total"], 1);
    let summary = &summaries["memories"][0];
    assert!(
        summary["content"].as_str().unwrap().starts_with("Summary of 7 related memories: Deploy note"),
        "{summary}"
    );
    assert_eq!((summary["type"].as_str(), summary["source_type"].as_str()), (Some("Insight"), Some("inferred")));
    let related = app
        .get(key, &format!("/api/v1/memories/{}/related?types=SUMMARIZES&limit=50", summary["id"].as_str().unwrap()))
        .await
        .ok(200)
        .clone();
    let members: Vec<&str> =
        related["related"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap()).collect();
    assert_eq!(members.len(), 7);
    assert!(members.contains(&"Deploy note just over.") && !members.contains(&"Deploy note just under."));
    assert_eq!(app.count(key).await, memories_before + 1, "the originals are kept");

    // Summarised memories are not clustered again: only cluster B remains, still without a summary.
    let again = consolidate(&app, key, json!({"mode": "cluster"})).await;
    assert_eq!(
        (again["clusters_created"].as_u64(), again["summaries_created"].as_u64()),
        (Some(1), Some(0)),
        "{again}"
    );
}

#[tokio::test]
async fn creative_mode_links_related_memories_of_different_types() {
    let app = spawn().await;
    let key = &app.a.key;
    let decision = store(&app, key, "We chose Postgres", "Decision", vector(0, 1.0, 1)).await;
    store(&app, key, "Postgres vacuum lesson", "Insight", vector(0, 0.7, 2)).await; // 0.70: discovered
    store(&app, key, "Postgres habit", "Context", vector(0, 0.7, 3)).await; // 0.70 to the decision: discovered
    store(&app, key, "Same type as the decision", "Decision", vector(0, 0.7, 4)).await; // same type: not
    store(&app, key, "Near-duplicate", "Pattern", vector(0, 0.85, 5)).await; // 0.85: too close, not creative
    store(&app, key, "Unrelated", "Insight", vector(50, 1.0, 51)).await;
    let report = consolidate(&app, key, json!({"mode": "creative"})).await;
    // Decision-Insight, Decision-Context, and the pairs among the 0.7s of different types (0.49: below 0.6).
    assert_eq!(report["associations_created"], 2, "{report}");
    let related = app.get(key, &format!("/api/v1/memories/{decision}/related?types=DISCOVERED")).await.ok(200).clone();
    let mut found: Vec<&str> =
        related["related"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap()).collect();
    found.sort();
    assert_eq!(found, ["Postgres habit", "Postgres vacuum lesson"]);
    // Running again discovers nothing new.
    assert_eq!(consolidate(&app, key, json!({"mode": "creative"})).await["associations_created"], 0);
}

#[tokio::test]
async fn schedule_status_validation_and_isolation() {
    let app = spawn().await;
    let (a, b) = (&app.a.key, &app.b.key);
    store(&app, a, "tenant A memory", "Context", vector(0, 1.0, 1)).await;

    app.post(a, "/api/v1/consolidate", &json!({"mode": "sleep"})).await.assert_error(400, "mode: must be full, decay");
    app.post(a, "/api/v1/consolidate", &json!({"time_horizon": "hourly"}))
        .await
        .assert_error(400, "time_horizon: must be daily, weekly");
    let forget = consolidate(&app, a, json!({"mode": "forget"})).await;
    assert!(forget["notice"].as_str().unwrap().contains("forgetting is off"), "{forget}");
    let full = consolidate(&app, a, json!({"dry_run": true})).await;
    assert_eq!(
        (full["mode"].as_str(), full["time_horizon"].as_str(), full["processed"].as_u64()),
        (Some("full"), Some("weekly"), Some(1))
    );

    // The schedule runs every mode once, then only what is due.
    let now = Utc::now();
    let schedule = |at| cairn::service::consolidation::schedule_due(&app.db, at);
    let runs = schedule(now).await.unwrap();
    assert_eq!(runs, 8, "four modes for each of the two tenants");
    assert_eq!(schedule(now + Duration::hours(1)).await.unwrap(), 0);
    assert_eq!(schedule(now + Duration::hours(25)).await.unwrap(), 4, "daily modes");
    app.wait_for_consolidations().await;

    let status = app.get(a, "/api/v1/consolidate/status").await.ok(200).clone();
    let schedule = status["schedule"].as_array().unwrap();
    assert_eq!(schedule.len(), 4);
    let creative = schedule.iter().find(|s| s["mode"] == "creative").unwrap();
    assert_eq!(creative["every_hours"], 168);
    assert!(!creative["last_run"].is_null());
    let history = status["history"].as_array().unwrap();
    assert_eq!(history.len(), 8, "{status}");
    assert!(history.iter().any(|r| r["trigger"] == "manual" && r["dry_run"] == true));
    assert!(history.iter().any(|r| r["trigger"] == "schedule"));

    // Tenant B's runs and reports are its own.
    let other = consolidate(&app, b, json!({"mode": "cluster"})).await;
    assert_eq!(other["processed"], 0);
    let b_status = app.get(b, "/api/v1/consolidate/status").await.ok(200).clone();
    assert!(b_status["history"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["report"]["processed"] == 0 || r["trigger"] == "schedule"));
    assert_eq!(b_status["history"].as_array().unwrap().iter().filter(|r| r["trigger"] == "manual").count(), 1);
}

#[tokio::test]
async fn creative_runs_past_the_cap_find_the_pairs_left_over() {
    let app = spawn().await;
    let key = &app.a.key;
    // 16 memories, two types alternating, every pair at cosine 0.64: 64 cross-type candidates.
    for i in 0..16 {
        let mut v = vec![0.0; 384];
        v[0] = 0.8;
        v[1 + i] = 0.6;
        store(&app, key, &format!("creative candidate {i}"), ["Decision", "Insight"][i % 2], v).await;
    }
    assert_eq!(consolidate(&app, key, json!({"mode": "creative"})).await["associations_created"], 50, "capped");
    assert_eq!(consolidate(&app, key, json!({"mode": "creative"})).await["associations_created"], 14, "the rest");
    assert_eq!(consolidate(&app, key, json!({"mode": "creative"})).await["associations_created"], 0);
}

#[tokio::test]
async fn a_runs_candidates_are_each_memorys_nearest_neighbours_from_the_index() {
    let app = spawn().await;
    let key = &app.a.key;
    // 21 memories of one type close together (cosine ≥ 0.92 among them), and one of another type at about
    // 0.67-0.70 to each of them: 21 pairs in the creative band. The lone memory's 16 nearest neighbours are
    // its candidates; the others' nearest are each other. All pairs would discover 21 links.
    let unit = 1.0 / 1.09_f64.sqrt();
    let mut v = vec![0.0; 384];
    v[0] = 1.0;
    store(&app, key, "the hub", "Context", v).await;
    for i in 0..20 {
        let mut v = vec![0.0; 384];
        v[0] = unit;
        v[10 + i] = 0.3 * unit;
        store(&app, key, &format!("around the hub {i}"), "Context", v).await;
    }
    store(&app, key, "the outsider", "Insight", vector(0, 0.7, 200)).await;
    let report = consolidate(&app, key, json!({"mode": "creative"})).await;
    assert_eq!(report["processed"], 22);
    assert_eq!(report["associations_created"], cairn::consolidation::NEIGHBOURS, "{report}");
}
