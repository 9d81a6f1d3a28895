//! `cairn eval locomo` against a running server, on a tiny LoCoMo-shaped file.

use std::process::Command;

use serde_json::json;

use crate::helpers::{local_model, spawn_with_embedder};

#[tokio::test]
async fn eval_locomo_prints_per_category_figures_and_the_summary_line() {
    let app = spawn_with_embedder(local_model()).await;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(cairn::jobs::run_workers(
        app.services.clone(),
        cairn::jobs::enrich::Extractor::Local,
        cairn::queue::Workers::All,
        async move {
            let _ = stopped.await;
        },
    ));
    let data = json!([{
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a puppy named Biscuit last week."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Bye!"},
                {"speaker": "Ann", "dia_id": "D1:3", "text": "Bye!"}
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "My sister moved to Lisbon for a new job."},
                {"speaker": "Ann", "dia_id": "D2:2", "text": "Biscuit learned to sit this month."}
            ]
        },
        "qa": [
            {"question": "What is the name of Ann's dog?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4},
            {"question": "Where did Ben's sister move?", "answer": "Lisbon", "evidence": ["D2:1; D9:9"], "category": 1},
            {"question": "What did the dog learn?", "answer": "to sit", "evidence": ["D2:2", "D77:1"], "category": 2},
            {"question": "Unanswerable", "answer": "", "evidence": ["D99:1"], "category": 5}
        ]
    }]);
    let path = std::env::temp_dir().join(format!("locomo-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&path, serde_json::to_vec(&data).unwrap()).unwrap();
    let url = format!("http://{}", app.addr);
    let db_url = app.db_url.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["eval", "locomo", "--data", path.to_str().unwrap(), "--url", &url])
            .env("DATABASE_URL", &db_url)
            .env("CAIRN_APP_DATABASE_URL", crate::helpers::app_url(&db_url))
            .env("RUST_LOG", "warn")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let _ = stop.send(());
    let _ = workers.await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let last = lines.last().unwrap();
    assert!(last.starts_with("categories 1-4: recall@1="), "{last}");
    assert!(last.contains("recall@10=1.000") && last.contains("mrr="), "three easy questions, all found: {last}");
    for category in ["category 1:", "category 2:", "category 4:"] {
        assert!(lines.iter().any(|l| l.starts_with(category)), "{category} missing:\n{stdout}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("category 5:")), "questions without valid evidence are skipped");
    // Its tenants are removed afterwards: only the test's own two remain.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM tenants").fetch_one(app.db.owner()).await.unwrap();
    assert_eq!(left, 2);
}
