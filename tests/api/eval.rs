//! `cairn eval locomo` and `cairn eval longmemeval` against a running server, on tiny files of their shapes.

use std::process::Command;

use serde_json::json;

use crate::helpers::{local_model, spawn_with_embedder};

/// Runs `cairn eval ARGS --data FILE --url URL` (the data written to a temporary file) against `app` with its
/// workers running; its stdout. Fails the test when the command fails.
async fn run_eval(app: &crate::helpers::TestApp, args: &[&str], data: &serde_json::Value) -> String {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(cairn::jobs::run_workers(
        app.services.clone(),
        cairn::jobs::enrich::Extractor::Local,
        cairn::queue::Workers::All,
        async move {
            let _ = stopped.await;
        },
    ));
    let path = std::env::temp_dir().join(format!("eval-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&path, serde_json::to_vec(data).unwrap()).unwrap();
    let url = format!("http://{}", app.addr);
    let db_url = app.db_url.clone();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let file = path.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_cairn"))
            .arg("eval")
            .args(&args)
            .args(["--data", file.to_str().unwrap(), "--url", &url])
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
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[tokio::test]
async fn eval_locomo_prints_per_category_figures_and_the_summary_line() {
    let app = spawn_with_embedder(local_model()).await;
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
    let stdout = run_eval(&app, &["locomo"], &data).await;
    let lines: Vec<&str> = stdout.lines().collect();
    let last = lines.last().unwrap();
    assert!(last.starts_with("categories 1-4: recall@1="), "{last}");
    assert!(last.contains("recall@10=1.000") && last.contains("mrr="), "three easy questions, all found: {last}");
    assert!(last.contains("session@10=1.000"), "their sessions too, at session level: {last}");
    for category in ["category 1:", "category 2:", "category 4:"] {
        assert!(lines.iter().any(|l| l.starts_with(category)), "{category} missing:\n{stdout}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("category 5:")), "questions without valid evidence are skipped");
    // The same conversation as a messenger's short messages, each sentence on its own.
    let messages = run_eval(&app, &["locomo", "--as-messages"], &data).await;
    let last = messages.lines().last().unwrap();
    assert!(last.starts_with("categories 1-4: recall@1=") && last.contains("recall@10=1.000"), "{messages}");
    // Its tenants are removed afterwards: only the test's own two remain.
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM tenants").fetch_one(app.db.owner()).await.unwrap();
    assert_eq!(left, 2);
}

/// Two LongMemEval questions with their haystacks, in the official schema.
fn longmemeval_data() -> serde_json::Value {
    let turn = |role: &str, content: &str| json!({"role": role, "content": content});
    let answer = |content: &str| json!({"role": "user", "content": content, "has_answer": true});
    let long = format!("{} The end.", "Here is a very long answer about pasta sauces. ".repeat(60));
    json!([
        {
            "question_id": "q1", "question_type": "single-session-user",
            "question": "Where do I keep my old sneakers?", "question_date": "2023/06/23 (Fri) 07:31",
            "answer": "in a shoe rack", "answer_session_ids": ["answer_1"],
            "haystack_session_ids": ["noise_1", "answer_1"],
            "haystack_dates": ["2023/05/02 (Tue) 05:35", "2023/05/25 (Thu) 10:04"],
            "haystack_sessions": [
                [turn("user", "What is a good pasta sauce?"), turn("assistant", &long)],
                [answer("I keep my old sneakers in a shoe rack in my closet."), turn("assistant", "Sounds tidy!"),
                 turn("user", "ok"), turn("assistant", "ok")]
            ]
        },
        {
            "question_id": "q2", "question_type": "temporal-reasoning",
            "question": "What bread did I bake two months ago?", "question_date": "2023/05/15 (Mon) 09:00",
            "answer": 3, "answer_session_ids": ["answer_2"],
            "haystack_session_ids": ["answer_2", "noise_2"],
            "haystack_dates": ["2023/03/15 (Wed) 18:00", "2023/05/01 (Mon) 18:00"],
            "haystack_sessions": [
                [answer("I baked sourdough bread this evening.")],
                [turn("user", "I baked rye bread this evening.")]
            ]
        }
    ])
}

#[tokio::test]
async fn eval_longmemeval_prints_per_type_figures_and_the_summary_line() {
    let app = spawn_with_embedder(local_model()).await;
    let data = longmemeval_data();
    let stdout = run_eval(&app, &["longmemeval", "--questions", "2", "--limit", "10"], &data).await;
    let lines: Vec<&str> = stdout.lines().collect();
    let last = *lines.last().unwrap();
    // Both answers come first: the second only because "two months ago" counts back from the question's date.
    assert_eq!(
        last,
        "longmemeval: questions=2 any@1=1.000 any@5=1.000 any@10=1.000 all@5=1.000 all@10=1.000 turn@10=1.000 ndcg@10=1.000",
        "{stdout}"
    );
    for kind in ["single-session-user: questions=1", "temporal-reasoning: questions=1"] {
        assert!(lines.iter().any(|l| l.starts_with(kind)), "{kind} missing:\n{stdout}");
    }
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM tenants").fetch_one(app.db.owner()).await.unwrap();
    assert_eq!(left, 2, "the evaluation's tenants are deleted afterwards");
}

#[tokio::test]
async fn eval_longmemeval_asks_again_the_tenants_a_kept_run_left() {
    let app = spawn_with_embedder(local_model()).await;
    let data = longmemeval_data();
    let first = run_eval(&app, &["longmemeval", "--limit", "10", "--keep-tenants"], &data).await;
    let tenants = || async {
        let count: i64 = sqlx::query_scalar("SELECT count(*) FROM tenants").fetch_one(app.db.owner()).await.unwrap();
        count
    };
    let kept = tenants().await;
    let memories: i64 = sqlx::query_scalar("SELECT count(*) FROM memories").fetch_one(app.db.owner()).await.unwrap();
    let again = run_eval(&app, &["longmemeval", "--limit", "10", "--reuse-tenants"], &data).await;
    // The same figures from the same tenants: nothing stored, nothing created, nothing deleted.
    assert_eq!(first.lines().last(), again.lines().last(), "{first}\n{again}");
    assert!(again.lines().last().unwrap().starts_with("longmemeval: questions=2 any@1=1.000"), "{again}");
    assert_eq!(tenants().await, kept, "a reuse creates and deletes no tenant");
    let after: i64 = sqlx::query_scalar("SELECT count(*) FROM memories").fetch_one(app.db.owner()).await.unwrap();
    assert_eq!(after, memories, "a reuse stores nothing");
}

/// The evaluations' client sends a request the server put off (429 with its `Retry-After`, or 503) again after
/// the pause it asked for, instead of ending an ingest of hours at the first busy answer; a refused request (400)
/// is reported at once.
#[tokio::test]
async fn the_eval_client_sends_a_put_off_batch_again_and_reports_a_refused_one() {
    let app = crate::helpers::spawn().await;
    let mut conn = app.superuser_conn().await;
    // One request a second, no burst: the second batch in a row is put off with `Retry-After: 1`.
    sqlx::query(r#"UPDATE tenants SET limits = '{"requests_per_second": 1, "burst": 1}' WHERE id = $1"#)
        .bind(app.a.id)
        .execute(&mut conn)
        .await
        .unwrap();
    let (client, url) = (reqwest::Client::new(), format!("http://{}", app.addr));
    let batch = |n: usize| vec![json!({"content": format!("memory number {n} of the batch")})];
    let started = std::time::Instant::now();
    let first = cairn::eval::store_batch(&client, &url, &app.a.key, batch(1), false).await.unwrap();
    let second = cairn::eval::store_batch(&client, &url, &app.a.key, batch(2), false).await.unwrap();
    assert_eq!((first.len(), second.len()), (1, 1));
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(900),
        "the second was not put off: the test proves nothing"
    );
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE tenant_id = $1")
        .bind(app.a.id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(stored, 2, "each batch stored once");
    // A request the server refuses is not one to send again.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let refused = cairn::eval::store_batch(&client, &url, &app.a.key, vec![json!({"content": ""})], false).await;
    let message = refused.expect_err("an empty content is refused").to_string();
    assert!(message.contains("400") && message.contains("content"), "{message}");
}

/// An evaluation asks nothing before the server's model has loaded: a question asked earlier is answered by
/// keywords alone, and `--reuse-tenants` asks at once while its own server is still loading the model. A model
/// that failed to load ends the run with why instead of ten minutes' wait.
#[tokio::test]
async fn the_eval_client_waits_for_the_server_s_model_and_reports_one_that_failed() {
    let app = crate::helpers::spawn_loading().await;
    let (client, url) = (reqwest::Client::new(), format!("http://{}", app.addr));
    let waiting = {
        let (client, url) = (client.clone(), url.clone());
        tokio::spawn(async move { cairn::eval::wait_until_ready(&client, &url).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(!waiting.is_finished(), "the client went on while the model was loading");
    app.embedder.fill(std::sync::Arc::new(crate::helpers::Instant384));
    tokio::time::timeout(std::time::Duration::from_secs(10), waiting)
        .await
        .expect("the client goes on once the model has loaded")
        .unwrap()
        .unwrap();

    let failed = crate::helpers::spawn_loading().await;
    failed.embedder.load_local_in_background("/nonexistent/model".into(), 384);
    let url = format!("http://{}", failed.addr);
    let outcome =
        tokio::time::timeout(std::time::Duration::from_secs(60), cairn::eval::wait_until_ready(&client, &url))
            .await
            .expect("a model that failed is reported, not waited for");
    let message = outcome.expect_err("no model, no evaluation").to_string();
    assert!(message.contains("failed to load"), "{message}");
}
