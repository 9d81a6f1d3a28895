//! A memory's runs of sentences (`recall::sentences`): embedded by the job beside the memory, read by recall as
//! the best run's cosine, replaced with the content, kept by the trash, left out of exports, under the
//! tenant's row-level security like the rest of the row, and not computed where the deployment turns them off.

use cairn::config::AppArgs;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::{local_model, spawn_with_embedder, spawn_with_settings_and_embedder, TestApp};

/// Three sentences: a greeting that joins the next, work, and (last, where the whole memory's vector hears it
/// least) the dog.
const TURN: &str = "Caroline: Hey Mel! Work has been really busy with all the quarterly \
                    reports and endless meetings lately. Oh, and last weekend my sister adopted a golden retriever \
                    puppy named Biscuit.";
const QUESTION: &str = "What kind of puppy did Caroline's sister adopt?";

/// `expr` of the memory's row, read as the superuser.
async fn read<T>(app: &TestApp, id: &str, expr: &str) -> T
where
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
{
    let mut conn = app.superuser_conn().await;
    sqlx::query_scalar(&format!("SELECT {expr} FROM memories WHERE id = $1"))
        .bind(id.parse::<Uuid>().unwrap())
        .fetch_one(&mut conn)
        .await
        .unwrap()
}

/// How many run vectors the memory has (None: none stored).
async fn runs_of(app: &TestApp, id: &str) -> Option<i32> {
    read(app, id, "cardinality(sentence_embeddings)").await
}

/// The memory's run vectors as text.
async fn stored(app: &TestApp, id: &str) -> Option<String> {
    read(app, id, "sentence_embeddings::text").await
}

fn hit<'a>(body: &'a Value, id: &str) -> &'a Value {
    body["results"].as_array().unwrap().iter().find(|r| r["memory"]["id"] == id).expect("recalled")
}

#[tokio::test]
async fn recall_reads_a_memory_s_best_run_of_sentences_and_only_the_tenant_s_own() {
    let app = spawn_with_embedder(local_model()).await;
    let turn = app.store_text(&app.a.key, TURN).await;
    let short = app.store_text(&app.a.key, "Melanie: Thanks, I will!").await;
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &turn).await, Some(2), "the greeting joins the sentence after it");
    assert_eq!(runs_of(&app, &short).await, Some(0), "a memory of one run has none (measured: an empty array)");

    let body = app
        .post(&app.a.key, "/api/v1/recall", &json!({"query": QUESTION, "mode": "semantic", "limit": 5}))
        .await
        .ok(200)
        .clone();
    let c = &hit(&body, &turn)["score_components"];
    let (semantic, sentence) = (c["semantic"].as_f64().unwrap(), c["sentence"].as_f64().expect("a sentence cosine"));
    // The dog's run is nearer the question than the whole turn: the semantic signal is 0.75 of it and 0.25 of
    // the turn's own cosine, so it lies between the two.
    assert!(sentence > semantic, "{c}");
    let share = cairn::config::DEFAULT_SENTENCE_SHARE;
    let own = (semantic - share * sentence) / (1.0 - share);
    assert!(own > 0.0 && own < semantic, "the turn's own cosine {own} is below its semantic signal {semantic}");
    assert!(hit(&body, &short)["score_components"].get("sentence").is_none());

    // Keyword recall reads no vectors and shows none.
    let keyword = app
        .post(&app.a.key, "/api/v1/recall", &json!({"query": "golden retriever puppy", "mode": "keyword"}))
        .await
        .ok(200)
        .clone();
    assert!(hit(&keyword, &turn)["score_components"].get("sentence").is_none());

    // Another tenant's key finds none of it, by meaning or by words, and its own memory (the same words) carries
    // its own runs: its recall returns that one alone.
    let theirs = app.store_text(&app.b.key, TURN).await;
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &theirs).await, Some(2));
    let other = app.post(&app.b.key, "/api/v1/recall", &json!({"query": QUESTION})).await.ok(200).clone();
    let ids: Vec<&Value> = other["results"].as_array().unwrap().iter().map(|r| &r["memory"]["id"]).collect();
    assert_eq!(ids, [&json!(theirs)]);
}

#[tokio::test]
async fn runs_follow_the_content_survive_an_undone_delete_and_stay_out_of_exports() {
    let app = spawn_with_embedder(local_model()).await;
    let key = app.a.key.clone();
    let id = app.store_text(&key, TURN).await;
    app.drain_jobs().await;
    let before = stored(&app, &id).await.expect("runs");

    // New content: the old runs go with the old vector, and the new content's come with its new one.
    let one = "Caroline: The puppy is called Biscuit.";
    app.patch(&key, &format!("/api/v1/memories/{id}"), &json!({"content": one})).await.ok(200);
    assert_eq!(runs_of(&app, &id).await, None);
    let three = format!("{TURN} We are thinking of getting him a second puppy to keep him company next year.");
    app.patch(&key, &format!("/api/v1/memories/{id}"), &json!({"content": three})).await.ok(200);
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &id).await, Some(3));
    app.patch(&key, &format!("/api/v1/memories/{id}"), &json!({"content": TURN})).await.ok(200);
    app.drain_jobs().await;
    assert_eq!(stored(&app, &id).await.as_deref(), Some(before.as_str()), "the same content, the same runs");

    // A vector the client supplies has no runs, stored with it or set later.
    let client =
        app.store(&key, json!({"content": TURN.replace("Biscuit", "Pretzel"), "embedding": vec![0.1_f32; 384]})).await;
    let client = client["id"].as_str().unwrap().to_owned();
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &client).await, None);
    let later = app.store_text(&key, &TURN.replace("Biscuit", "Muffin")).await;
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &later).await, Some(2));
    app.patch(&key, &format!("/api/v1/memories/{later}"), &json!({"embedding": vec![0.2_f32; 384]})).await.ok(200);
    assert_eq!(runs_of(&app, &later).await, None);
    // Content written around the service (as a process of an earlier release would) drops its runs too.
    let mut conn = app.superuser_conn().await;
    let client_id = client.parse::<Uuid>().unwrap();
    let runs_before: Option<i32> = sqlx::query_scalar(
        "UPDATE memories SET sentence_embeddings = ARRAY[embedding, embedding] WHERE id = $1
         RETURNING cardinality(sentence_embeddings)",
    )
    .bind(client_id)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(runs_before, Some(2));
    sqlx::query("UPDATE memories SET content = content || ' Really.' WHERE id = $1")
        .bind(client_id)
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(runs_of(&app, &client).await, None);

    // Deleted and restored: the runs come back with the vector, as they were.
    app.delete(&key, &format!("/api/v1/memories/{id}?hard=true")).await.ok(200);
    assert_eq!(app.get(&key, "/api/v1/trash").await.ok(200)["total"], 1);
    app.post(&key, &format!("/api/v1/memories/{id}/restore"), &json!({})).await.ok(200);
    assert_eq!(stored(&app, &id).await.as_deref(), Some(before.as_str()));

    // An export leaves them out; the import embeds them again.
    let res = app.client.get(app.url("/api/v1/export")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    assert!(text.contains("Biscuit") && !text.contains("sentence_embeddings"), "{text}");
    app.import(&app.b.key, text).await.ok(200);
    app.drain_jobs().await;
    assert_eq!(app.count(&app.b.key).await, 3);
    // (The import keeps the ids, so the tenant is named.)
    let mut conn = app.superuser_conn().await;
    let with_runs: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM memories WHERE tenant_id = $1 AND cardinality(sentence_embeddings) = 2",
    )
    .bind(app.b.id)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(with_runs, 3, "the import embedded every memory's runs (the clients' vectors were not exported)");
}

#[tokio::test]
async fn a_deployment_that_turns_them_off_embeds_none_and_recall_reads_the_cosine_alone() {
    let app =
        spawn_with_settings_and_embedder(AppArgs { sentence_vectors: false, ..AppArgs::default() }, local_model())
            .await;
    let id = app.store_text(&app.a.key, TURN).await;
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &id).await, None);
    let body =
        app.post(&app.a.key, "/api/v1/recall", &json!({"query": QUESTION, "mode": "semantic"})).await.ok(200).clone();
    assert!(hit(&body, &id)["score_components"].get("sentence").is_none());
}

#[tokio::test]
async fn a_share_of_0_reads_the_memory_s_own_cosine_alone() {
    let app =
        spawn_with_settings_and_embedder(AppArgs { sentence_share: 0.0, ..AppArgs::default() }, local_model()).await;
    let id = app.store_text(&app.a.key, TURN).await;
    app.drain_jobs().await;
    assert_eq!(runs_of(&app, &id).await, Some(2), "still embedded: a later share can read them");
    let body =
        app.post(&app.a.key, "/api/v1/recall", &json!({"query": QUESTION, "mode": "semantic"})).await.ok(200).clone();
    assert!(hit(&body, &id)["score_components"].get("sentence").is_none());
}

#[tokio::test]
async fn an_import_with_vectors_keeps_a_one_run_memory_s_and_embeds_a_memory_with_runs_again() {
    let app = spawn_with_embedder(local_model()).await;
    let turn = app.store_text(&app.a.key, TURN).await;
    let short = app.store_text(&app.a.key, "Melanie: Thanks, I will!").await;
    app.drain_jobs().await;
    let res = app.client.get(app.url("/api/v1/export?vectors=true")).bearer_auth(&app.a.key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    assert!(text.contains("\"embedding\":") && !text.contains("sentence_embeddings"));
    app.import(&app.b.key, text).await.ok(200);
    assert_eq!(
        status_in(&app, app.b.id, &short).await,
        ("ready".to_owned(), None),
        "a one-run memory's vector is kept"
    );
    assert_eq!(status_in(&app, app.b.id, &turn).await, ("pending".to_owned(), None), "the runs are not in the file");
    app.drain_jobs().await;
    assert_eq!(status_in(&app, app.b.id, &turn).await, ("ready".to_owned(), Some(2)));
}

/// Memories whose runs were never measured (stored by a release before the runs existed: NULL, where a measured
/// memory of one run has an empty array) are measured once a worker's model has loaded, with no re-embedding by
/// hand: the runs alone, the memories' own vectors kept; a client's vectors are left alone (this model's runs
/// would not compare with them); each tenant's own; and a tenant with more than a job's sweep over several jobs.
#[tokio::test]
async fn runs_never_measured_are_measured_once_a_worker_has_its_model() {
    let app = spawn_with_embedder(local_model()).await;
    let turn = app.store_text(&app.a.key, TURN).await;
    let short = app.store_text(&app.a.key, "Melanie: Thanks, I will!").await;
    let client = app
        .store(&app.a.key, json!({"content": TURN.replace("Biscuit", "Pretzel"), "embedding": vec![0.1_f32; 384]}))
        .await;
    let client = client["id"].as_str().unwrap().to_owned();
    let theirs = app.store_text(&app.b.key, TURN).await;
    app.drain_jobs().await;
    let (runs, own): (String, String) =
        (stored(&app, &turn).await.expect("runs"), read(&app, &turn, "embedding::text").await);

    // As an earlier release left them, with 300 more one-sentence memories of the first tenant's, ready.
    let model = local_model().model().to_owned();
    let mut conn = app.superuser_conn().await;
    sqlx::query("UPDATE memories SET sentence_embeddings = NULL WHERE embedding_model = $1")
        .bind(&model)
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO memories (tenant_id, content, content_hash, embedding, embedding_status, embedding_model)
         SELECT $1, 'Note number ' || g || '.', md5('note ' || g), m.embedding, 'ready', $3
           FROM generate_series(1, 300) g, memories m WHERE m.id = $2",
    )
    .bind(app.a.id)
    .bind(turn.parse::<Uuid>().unwrap())
    .bind(&model)
    .execute(&mut conn)
    .await
    .unwrap();
    async fn count(conn: &mut sqlx::PgConnection) -> i64 {
        let sql = "SELECT count(*) FROM memories WHERE embedding_status = 'ready' AND sentence_embeddings IS NULL";
        sqlx::query_scalar(sql).fetch_one(conn).await.unwrap()
    }
    assert_eq!(count(&mut conn).await, 304, "the client's memory too");

    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let queues = cairn::queue::Workers::Only(vec![cairn::queue::embed::QUEUE]);
    let workers = tokio::spawn(cairn::jobs::run_workers(
        app.services.clone(),
        cairn::jobs::enrich::Extractor::Local,
        queues,
        async move {
            let _ = stopped.await;
        },
    ));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while count(&mut conn).await > 1 {
        assert!(std::time::Instant::now() < deadline, "runs still unmeasured: {}", count(&mut conn).await);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let _ = stop.send(());
    tokio::time::timeout(std::time::Duration::from_secs(10), workers).await.expect("workers stop").unwrap();

    // The same runs as the embedding job measured (to the float: a forward pass pads its texts to the longest).
    let (n, nearest): (i64, f64) = sqlx::query_as(
        "SELECT count(*), min(1 - (o <=> n)) FROM unnest($1::text::vector[],
                (SELECT sentence_embeddings FROM memories WHERE id = $2)) AS x(o, n)",
    )
    .bind(&runs)
    .bind(turn.parse::<Uuid>().unwrap())
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(n == 2 && nearest > 0.9999, "{n} runs, the least alike at cosine {nearest}");
    assert_eq!(read::<String>(&app, &turn, "embedding::text").await, own, "the memory's own vector is kept");
    assert_eq!(runs_of(&app, &short).await, Some(0));
    assert_eq!(runs_of(&app, &theirs).await, Some(2));
    assert_eq!(runs_of(&app, &client).await, None, "a client's vectors get no runs of this model");
    let notes: Vec<Option<i32>> = sqlx::query_scalar(
        "SELECT DISTINCT cardinality(sentence_embeddings) FROM memories WHERE content LIKE 'Note number %'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(notes, [Some(0)]);
    // One job per tenant when the worker started, and one more for the first tenant, whose 302 were more than
    // a job's sweep.
    let sweeps: Vec<(Uuid, i64)> = sqlx::query_as(
        "SELECT (job->>'tenant_id')::uuid, count(*) FROM apalis.jobs
          WHERE job_type = $1 AND (job->'memory_ids')::jsonb = '[]'::jsonb GROUP BY 1 ORDER BY 2 DESC",
    )
    .bind(cairn::queue::embed::QUEUE)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(sweeps, [(app.a.id, 2), (app.b.id, 1)]);
}

/// A memory's embedding status and number of runs in `tenant`, read as the superuser.
async fn status_in(app: &TestApp, tenant: Uuid, id: &str) -> (String, Option<i32>) {
    let mut conn = app.superuser_conn().await;
    sqlx::query_as(
        "SELECT embedding_status, cardinality(sentence_embeddings) FROM memories WHERE tenant_id = $1 AND id = $2",
    )
    .bind(tenant)
    .bind(id.parse::<Uuid>().unwrap())
    .fetch_one(&mut conn)
    .await
    .unwrap()
}

/// A deployment that fuses by reciprocal rank, with the local model.
async fn rrf_app() -> TestApp {
    let rrf = AppArgs { recall_fusion: cairn::config::Fusion::Rrf, ..AppArgs::default() };
    spawn_with_settings_and_embedder(rrf, local_model()).await
}

/// The question asked in hybrid mode for 10 results, once every memory is embedded.
async fn hybrid_recall_once_embedded(app: &TestApp) -> Value {
    app.drain_jobs().await;
    app.post(&app.a.key, "/api/v1/recall", &json!({"query": QUESTION, "mode": "hybrid", "limit": 10}))
        .await
        .ok(200)
        .clone()
}

/// With reciprocal-rank fusion a memory's semantic place is its place by the semantic signal recall reads (its
/// best run of sentences included), not the vector probe's order of memories' own vectors, and every candidate
/// has a place in each signal it has.
#[tokio::test]
async fn reciprocal_rank_fusion_places_memories_by_the_signals_recall_shows() {
    let app = rrf_app().await;
    let turn = app.store_text(&app.a.key, TURN).await;
    // About the question throughout, in one sentence, without its words "puppy" and "adopt": nearer the question
    // than the turn's own vector, less near than the turn's sentence about the puppy.
    let near = app.store_text(&app.a.key, "Caroline: My sister has always wanted a dog of her own.").await;
    for filler in [
        "Melanie: We took the kids hiking near the lake and Caroline came along.",
        "Caroline: My sister and I finally finished painting the kitchen.",
        "Melanie: Caroline, the pottery class was so much fun this week!",
    ] {
        app.store_text(&app.a.key, filler).await;
    }
    let body = hybrid_recall_once_embedded(&app).await;
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 5, "the pool is every memory: {body}");
    let value = |r: &Value, k: &str| r["score_components"][k].as_f64();
    // The premise: the turn's own cosine (its semantic signal less its run's share) is below the other memory's,
    // and its semantic signal, with the run, above it.
    let (c, n) = (&hit(&body, &turn)["score_components"], &hit(&body, &near)["score_components"]);
    let (semantic, sentence) = (c["semantic"].as_f64().unwrap(), c["sentence"].as_f64().unwrap());
    let share = cairn::config::DEFAULT_SENTENCE_SHARE;
    let own = (semantic - share * sentence) / (1.0 - share);
    let near_semantic = n["semantic"].as_f64().unwrap();
    assert!(
        own < near_semantic && near_semantic < semantic,
        "own {own}, the other {near_semantic}, with the run {semantic}"
    );
    let place =
        |v: Option<f64>, k: &str| v.map(|v| 1 + results.iter().filter(|r| value(r, k).is_some_and(|o| o > v)).count());
    for r in results {
        let (s, k) = (value(r, "semantic"), value(r, "keyword").filter(|k| *k > 0.0));
        let rr = |p: Option<usize>| p.map_or(0.0, |p| 1.0 / (60.0 + p as f64));
        let expected = (rr(place(s, "semantic")) + rr(place(k, "keyword"))) * 61.0 / 2.0;
        let relevance = value(r, "relevance").unwrap();
        assert!((relevance - expected).abs() < 1e-9, "relevance {relevance}, expected {expected}: {r}");
    }
}

/// With reciprocal-rank fusion a candidate only the keyword probe found has a place by meaning too: past the
/// memories the vector probe found, not none.
#[tokio::test]
async fn reciprocal_rank_fusion_places_a_candidate_found_by_keywords_alone_by_meaning_too() {
    let app = rrf_app().await;
    // Sixty memories near the question by meaning, none with its words: more than the vector probe's pool of 50.
    let near: Vec<Value> = (0..60)
        .map(|i| json!({"content": format!("Her sibling welcomed a little dog into the family, week {i}.")}))
        .collect();
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": near})).await.ok(201);
    // The question's words, far from it by meaning.
    let sheet = app
        .store_text(
            &app.a.key,
            "Spreadsheet columns: invoice total, VAT, puppy, shipping code, warehouse, pallet kind.",
        )
        .await;
    let body = hybrid_recall_once_embedded(&app).await;
    let found = hit(&body, &sheet);
    assert_eq!(found["match_type"], "keyword", "the premise: the vector probe did not find it: {found}");
    // First by keywords (the only match), and by meaning past the 50 the vector probe found: 1/61 + 1/(60 + p)
    // with p > 50, scaled by 61/2. Before, it had no place by meaning, and 0.5.
    let relevance = found["score_components"]["relevance"].as_f64().unwrap();
    let (rr_first, rr_past_the_probe) = (61.0 / 2.0 / 61.0, 61.0 / 2.0 / (60.0 + 51.0));
    assert!(
        relevance > rr_first && relevance <= rr_first + rr_past_the_probe + 1e-12,
        "relevance {relevance}: {found}"
    );
}
