//! Context-aware indexing: a memory of an episode is embedded with the memory before it and found by that
//! memory's words at a lower weight, while its own content is what comes back. A neighbour that arrives later
//! re-indexes the memory after it.

use std::sync::{Arc, Mutex};

use cairn::config::AppArgs;
use cairn::models::embed::{EmbedFuture, Embedder};
use serde_json::json;

use crate::helpers::{spawn, spawn_with, spawn_with_embedder, spawn_with_settings_and_embedder, TestApp};

/// Records every text it embeds; answers a fixed vector.
#[derive(Default)]
struct Recording(Mutex<Vec<String>>);

impl Embedder for Recording {
    fn model(&self) -> &str {
        "recording"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        self.0.lock().unwrap().extend(texts.iter().cloned());
        let mut v = vec![0.0_f32; 384];
        v[1] = 1.0;
        let out = texts.iter().map(|_| v.clone()).collect();
        Box::pin(async move { Ok(out) })
    }
}

/// Settings that embed a memory of an episode with its predecessor's text (`CAIRN_CONTEXT_VECTOR=model`).
fn embedded_together() -> cairn::config::AppArgs {
    cairn::config::AppArgs { context_vector: "model".into(), ..Default::default() }
}

async fn context_of(app: &TestApp, id: &str) -> Option<String> {
    let mut conn = app.superuser_conn().await;
    sqlx::query_scalar("SELECT context FROM memories WHERE id = $1::uuid").bind(id).fetch_one(&mut conn).await.unwrap()
}

#[tokio::test]
async fn an_episode_is_indexed_with_each_memorys_predecessor_whatever_the_arrival_order() {
    let model = Arc::new(Recording::default());
    let app = spawn_with_settings_and_embedder(embedded_together(), model.clone()).await;
    let key = &app.a.key;
    let store = |content: &str, seq: i64| json!({"content": content, "episode_id": "trip", "sequence_number": seq});
    let b = app.store(key, store("We visited Lisbon in May", 2)).await["id"].as_str().unwrap().to_owned();
    let a = app.store(key, store("Planning the holiday together", 1)).await["id"].as_str().unwrap().to_owned();
    let c = app.store(key, store("It was wonderful, the food was great", 3)).await["id"].as_str().unwrap().to_owned();
    let alone = app.store_text(key, "A memory of no episode").await;
    assert_eq!(context_of(&app, &a).await, None);
    assert_eq!(context_of(&app, &b).await.as_deref(), Some("Planning the holiday together"));
    assert_eq!(context_of(&app, &c).await.as_deref(), Some("We visited Lisbon in May"));
    assert_eq!(context_of(&app, &alone).await, None);

    app.drain_jobs().await;
    let texts = model.0.lock().unwrap().clone();
    assert!(texts.contains(&"Planning the holiday together\nWe visited Lisbon in May".to_owned()), "{texts:?}");
    assert!(texts.contains(&"We visited Lisbon in May\nIt was wonderful, the food was great".to_owned()), "{texts:?}");
    assert!(texts.contains(&"A memory of no episode".to_owned()));
    // What is returned is the memory's own content.
    let fetched = app.get(key, &format!("/api/v1/memories/{c}")).await.ok(200).clone();
    assert_eq!(fetched["content"], "It was wonderful, the food was great");

    // Found by its predecessor's words, below the memory that holds them.
    let res = app.get(key, "/api/v1/recall?query=Lisbon&mode=keyword").await.ok(200).clone();
    let ids: Vec<&str> =
        res["results"].as_array().unwrap().iter().map(|r| r["memory"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids.first().copied(), Some(b.as_str()), "{res}");
    assert!(ids.contains(&c.as_str()), "the next turn is found through its context: {res}");

    // A neighbour arriving later re-indexes the memory after it, already embedded.
    model.0.lock().unwrap().clear();
    app.store(key, store("Booked the flights first", 0)).await;
    assert_eq!(context_of(&app, &a).await.as_deref(), Some("Booked the flights first"));
    let status = app.get(key, &format!("/api/v1/memories/{a}")).await.ok(200)["embedding_status"].clone();
    assert_eq!(status, "pending", "its vector is computed again");
    app.drain_jobs().await;
    let texts = model.0.lock().unwrap().clone();
    assert!(texts.contains(&"Booked the flights first\nPlanning the holiday together".to_owned()), "{texts:?}");

    // Deleting a memory takes its words out of the next one's context (and index) at once.
    app.delete(key, &format!("/api/v1/memories/{b}?hard=true")).await;
    assert_eq!(context_of(&app, &c).await.as_deref(), Some("Planning the holiday together"));
    let res = app.get(key, "/api/v1/recall?query=Lisbon&mode=keyword").await.ok(200).clone();
    assert!(res["results"].as_array().unwrap().is_empty(), "nothing holds the deleted words: {res}");

    // A vector the client supplied is kept when its context changes.
    let mut v = vec![0.0_f32; 384];
    v[2] = 1.0;
    let own = json!({"content": "client vector turn", "episode_id": "vec", "sequence_number": 2, "embedding": v});
    let with_vector = app.store(key, own).await["id"].as_str().unwrap().to_owned();
    app.store(key, json!({"content": "earlier turn", "episode_id": "vec", "sequence_number": 1})).await;
    assert_eq!(context_of(&app, &with_vector).await.as_deref(), Some("earlier turn"));
    let kept = app.get(key, &format!("/api/v1/memories/{with_vector}")).await.ok(200).clone();
    assert_eq!((kept["embedding_status"].as_str(), kept["embedding_model"].as_str()), (Some("ready"), Some("client")));

    // A batch in any order ends with the same contexts.
    let batch: Vec<_> = [(5, "fifth"), (4, "fourth"), (6, "sixth")]
        .iter()
        .map(|(seq, text)| json!({"content": format!("{text} turn"), "episode_id": "chat", "sequence_number": seq}))
        .collect();
    let ids = app.post(key, "/api/v1/memories/batch", &json!({"memories": batch})).await.ok(201)["memory_ids"].clone();
    assert_eq!(context_of(&app, ids[0].as_str().unwrap()).await.as_deref(), Some("fourth turn"));
    assert_eq!(context_of(&app, ids[2].as_str().unwrap()).await.as_deref(), Some("fifth turn"));
    assert_eq!(context_of(&app, ids[1].as_str().unwrap()).await, None);
}

#[tokio::test]
async fn a_repeated_question_is_embedded_once_per_tenant() {
    let model = Arc::new(Recording::default());
    let app = spawn_with_embedder(model.clone()).await;
    app.store_text(&app.a.key, "Something to find").await;
    model.0.lock().unwrap().clear();
    for _ in 0..3 {
        app.get(&app.a.key, "/api/v1/recall?query=something+to+find").await.ok(200);
    }
    app.get(&app.b.key, "/api/v1/recall?query=something+to+find").await.ok(200);
    let asked: Vec<String> = model.0.lock().unwrap().iter().filter(|t| t.contains("something")).cloned().collect();
    // One forward pass per tenant: another tenant's identical question is never served from this one's cache.
    assert_eq!(asked, ["something to find", "something to find"], "three questions of a, one of b");
    app.get(&app.a.key, "/api/v1/recall?query=something+else").await.ok(200);
    assert_eq!(model.0.lock().unwrap().iter().filter(|t| t.contains("something")).count(), 3);
}

/// Puts every text mentioning Lisbon on one axis and everything else on another.
struct Lisbon;

impl Embedder for Lisbon {
    fn model(&self) -> &str {
        "lisbon"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let out = texts
            .iter()
            .map(|t| {
                let mut v = vec![0.0_f32; 384];
                v[if t.contains("Lisbon") { 0 } else { 1 }] = 1.0;
                v
            })
            .collect();
        Box::pin(async move { Ok(out) })
    }
}

#[tokio::test]
async fn a_memory_keeps_its_own_vector_and_is_also_found_by_its_context() {
    let app = spawn_with_settings_and_embedder(embedded_together(), Arc::new(Lisbon)).await;
    let key = &app.a.key;
    let turn = |content: &str, seq: i64| json!({"content": content, "episode_id": "trip", "sequence_number": seq});
    app.store(key, turn("We visited Lisbon in May", 1)).await;
    let reply =
        app.store(key, turn("It was wonderful, the food was great", 2)).await["id"].as_str().unwrap().to_owned();
    let other = app.store_text(key, "The food at the office is fine").await;
    app.drain_jobs().await;
    let mut conn = app.superuser_conn().await;
    let (own, context): (f64, Option<f64>) = sqlx::query_as(
        "SELECT (embedding <=> $2::vector)::float8, (context_embedding <=> $2::vector)::float8 FROM memories WHERE id = $1::uuid",
    )
    .bind(&reply)
    .bind(format!("[1{}]", ",0".repeat(383)))
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert!(own > 0.9 && context.is_some_and(|d| d < 0.1), "own vector {own}, context vector {context:?}");
    let res = app.get(key, "/api/v1/recall?query=Lisbon+trip&mode=semantic").await.ok(200).clone();
    let hit = res["results"].as_array().unwrap().iter().find(|r| r["memory"]["id"] == reply.as_str()).cloned();
    let hit = hit.unwrap_or_else(|| panic!("the reply is found by its context's meaning: {res}"));
    assert!(hit["score_components"]["semantic"].as_f64().unwrap() > 0.99, "{hit}");
    let plain = res["results"].as_array().unwrap().iter().find(|r| r["memory"]["id"] == other.as_str()).cloned();
    assert!(plain.is_none_or(|p| p["score_components"]["semantic"].as_f64().unwrap() < 0.01), "{res}");

    // History never carries vectors or the neighbour's words; new content drops both vectors until re-embedded.
    app.patch(key, &format!("/api/v1/memories/{reply}"), &json!({"content": "It rained the whole week"})).await.ok(200);
    let history = app.get(key, &format!("/api/v1/memories/{reply}/history")).await.ok(200).clone();
    let text = history.to_string();
    assert!(!text.contains("context_embedding") && !text.contains("We visited Lisbon"), "{history}");
    let vectors: (Option<f64>, Option<f64>) = sqlx::query_as(
        "SELECT (embedding <=> $2::vector)::float8, (context_embedding <=> $2::vector)::float8 FROM memories WHERE id = $1::uuid",
    )
    .bind(&reply)
    .bind(format!("[1{}]", ",0".repeat(383)))
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(vectors, (None, None), "both vectors wait for the new content");
}

#[tokio::test]
async fn concurrent_edits_of_neighbours_in_an_episode_do_not_deadlock() {
    let app = spawn().await;
    let key = &app.a.key;
    let mut ids = Vec::new();
    for seq in 1..=3 {
        let stored = app
            .store(key, json!({"content": format!("turn {seq}"), "episode_id": "talk", "sequence_number": seq}))
            .await;
        ids.push(stored["id"].as_str().unwrap().to_owned());
    }
    // Editing a turn re-indexes the next one: two edits of neighbours at once used to lock in opposite orders.
    for round in 0..15 {
        let (path0, path1) = (format!("/api/v1/memories/{}", ids[0]), format!("/api/v1/memories/{}", ids[1]));
        let (body0, body1) = (
            json!({"content": format!("turn one, edit {round}")}),
            json!({"content": format!("turn two, edit {round}")}),
        );
        let (first, second) = tokio::join!(app.patch(key, &path0, &body0), app.patch(key, &path1, &body1));
        first.ok(200);
        second.ok(200);
    }
    let third = app.get(key, &format!("/api/v1/memories/{}", ids[2])).await.ok(200).clone();
    assert_eq!(third["content"], "turn 3");

    // Moves between two episodes in opposite directions at once, and a delete racing an edit.
    let other = app.store(key, json!({"content": "other talk", "episode_id": "other", "sequence_number": 1})).await;
    let other = other["id"].as_str().unwrap().to_owned();
    for round in 0..10 {
        let (a, b) = if round % 2 == 0 { ("other", "talk") } else { ("talk", "other") };
        let (path0, path1) = (format!("/api/v1/memories/{}", ids[0]), format!("/api/v1/memories/{other}"));
        let (body0, body1) = (json!({"episode_id": a}), json!({"episode_id": b}));
        let (first, second) = tokio::join!(app.patch(key, &path0, &body0), app.patch(key, &path1, &body1));
        first.ok(200);
        second.ok(200);
    }
    let (path1, path2) = (format!("/api/v1/memories/{}?hard=true", ids[1]), format!("/api/v1/memories/{}", ids[2]));
    let body = json!({"content": "turn three, last edit"});
    let (deleted, edited) = tokio::join!(app.delete(key, &path1), app.patch(key, &path2, &body));
    deleted.ok(200);
    edited.ok(200);
}

#[tokio::test]
async fn a_memory_of_an_episode_is_lifted_towards_its_best_neighbour() {
    let app = spawn().await;
    let key = &app.a.key;
    let turn = |content: &str, episode: &str, seq: i64| json!({"content": content, "episode_id": episode, "sequence_number": seq});
    let question =
        app.store(key, turn("Where did the old cookie jar on the kitchen shelf come from?", "chat", 1)).await;
    let answer = app.store(key, turn("It belonged to my grandmother, she kept biscuits in it.", "chat", 2)).await;
    app.store(key, turn("We talked about the weather for a while.", "chat", 6)).await;
    let other = app.store(key, turn("I keep spare buttons in a jar.", "other", 1)).await;
    let res = app.post(key, "/api/v1/recall", &json!({"query": "cookie jar", "limit": 10})).await.ok(200).clone();
    let results = res["results"].as_array().unwrap();
    let hit = |id: &serde_json::Value| {
        results.iter().find(|r| r["memory"]["id"] == *id).unwrap_or_else(|| panic!("{id} not recalled: {res}"))
    };
    let (q, a, o) = (hit(&question["id"]), hit(&answer["id"]), hit(&other["id"]));
    // The question's score before it gave way as a question (`score_components.question`).
    let asked = q["score_components"]["question"].as_f64().unwrap_or(0.0);
    let q_score = q["score"].as_f64().unwrap() + cairn::recall::score::W_QUESTION * asked;
    // The answer's best neighbour is the question; it moved 0.4 of the way up to that score.
    let neighbour = a["score_components"]["neighbour"].as_f64().unwrap();
    assert!((neighbour - q_score).abs() < 1e-9, "{a}");
    assert!(a["score"].as_f64().unwrap() >= 0.4 * q_score - 1e-9, "{a}");
    // The question's neighbour scored lower: it is not lowered, its score is its own.
    assert!(q["score_components"]["neighbour"].as_f64().unwrap() <= q_score);
    // A memory alone in its episode has no neighbour among the candidates.
    assert!(o["score_components"].get("neighbour").is_none(), "{o}");
    // The answer ranks right after the question.
    assert_eq!(results[0]["memory"]["id"], question["id"]);
    assert_eq!(results[1]["memory"]["id"], answer["id"], "{res}");
}

#[tokio::test]
async fn the_episode_neighbours_of_the_best_results_join_the_candidates() {
    let app = spawn().await;
    let key = &app.a.key;
    let turn = |content: &str, seq: i64, tags: &[&str]| json!({"content": content, "episode_id": "trip", "sequence_number": seq, "tags": tags});
    let matched = app.store(key, turn("We booked the ferry to the island for Saturday", 1, &[])).await;
    let next = app.store(key, turn("Great, I will pack the snorkels and masks", 2, &["gear"])).await;
    let after = app.store(key, turn("Remember the sunscreen, it gets hot out there", 3, &[])).await;
    // Short messages: their neighbours sit up to 8 places away (80 words); this one is 19.
    let far = app.store(key, turn("Unrelated: the dentist moved my appointment", 20, &[])).await;
    // Only the first shares a word with the question (the second holds its words in its episode context, at a
    // lower weight); the others are no keyword candidates.
    let ask = |extra: serde_json::Value| {
        let mut body = json!({"query": "ferry island", "limit": 10});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let res = app.post(key, "/api/v1/recall", &ask(json!({}))).await.ok(200).clone();
    let ids: Vec<&str> =
        res["results"].as_array().unwrap().iter().map(|r| r["memory"]["id"].as_str().unwrap()).collect();
    assert_eq!(ids[0], matched["id"].as_str().unwrap(), "{res}");
    // Its neighbours within reach came in, lifted towards it; the one further away did not.
    for neighbour in [&next, &after] {
        let hit = res["results"].as_array().unwrap().iter().find(|r| r["memory"]["id"] == neighbour["id"]);
        let hit = hit.unwrap_or_else(|| panic!("{} is not among the results: {res}", neighbour["content"]));
        assert_eq!(hit["score_components"]["neighbour"], res["results"][0]["score"], "{hit}");
    }
    assert!(!ids.contains(&far["id"].as_str().unwrap()), "{res}");
    // A keyword recall returns what its words found, no more.
    let keyword = app.post(key, "/api/v1/recall", &ask(json!({"mode": "keyword"}))).await.ok(200).clone();
    let ids: Vec<&str> =
        keyword["results"].as_array().unwrap().iter().map(|r| r["memory"]["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&after["id"].as_str().unwrap()), "{keyword}");
    // The request's filters hold for them too.
    let filtered = app.post(key, "/api/v1/recall", &ask(json!({"exclude_tags": ["gear"]}))).await.ok(200).clone();
    let ids: Vec<&str> =
        filtered["results"].as_array().unwrap().iter().map(|r| r["memory"]["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&next["id"].as_str().unwrap()) && ids.contains(&after["id"].as_str().unwrap()), "{filtered}");
}

#[tokio::test]
async fn neighbours_sit_as_far_as_eighty_words_of_their_conversation() {
    for span in [cairn::config::DEFAULT_NEIGHBOUR_WORDS, 0] {
        let app = spawn_with(AppArgs { neighbour_words: span, ..AppArgs::default() }, None).await;
        let key = &app.a.key;
        // A messenger's short messages (about five words each: 80 words are 8 places either side) ...
        let chat = [
            "We booked the ferry to the island",
            "so excited",
            "me too honestly",
            "what time though",
            "eight sharp, bring coffee",
            "ok will do",
            "Packing snorkels and masks tonight",
            "need anything else",
            "nope all good",
            "see you then",
            "bye for now",
            "Dentist moved my appointment again",
        ];
        let mut items: Vec<serde_json::Value> = chat
            .iter()
            .enumerate()
            .map(|(i, text)| json!({"content": text, "episode_id": "chat", "sequence_number": i + 1}))
            .collect();
        // ... and a talk of long turns (about 40 words each: the fewest places, 2).
        let long = "and then we went on talking about the weather, the traffic on the way home, the price of bread \
                    at the bakery, what the neighbours said about the new fence and whether anyone had heard from the \
                    cousins lately";
        let talk = [
            format!("The ferry to the island leaves at eight {long}"),
            format!("Sure {long}"),
            format!("Right {long}"),
            format!("Also packing snorkels and masks {long}"),
        ];
        items.extend(
            talk.iter()
                .enumerate()
                .map(|(i, text)| json!({"content": text, "episode_id": "talk", "sequence_number": i + 1})),
        );
        let ids = app.store_batch(key, &items).await;
        let res = app.post(key, "/api/v1/recall", &json!({"query": "ferry island", "limit": 20})).await.ok(200).clone();
        let results = res["results"].as_array().unwrap();
        let hit = |id: &str| results.iter().find(|r| r["memory"]["id"] == id);
        let neighbour = |id: &str| hit(id).and_then(|r| r["score_components"]["neighbour"].as_f64());
        let score = |id: &str| hit(id).unwrap_or_else(|| panic!("{id} not found: {res}"))["score"].as_f64().unwrap();
        let (booked, packing, dentist) = (&ids[0], &ids[6], &ids[11]);
        let (ferry_talk, packing_talk) = (&ids[12], &ids[15]);
        if span > 0 {
            // Six short messages after the match: it joined the candidates and was lifted towards it.
            assert_eq!(neighbour(packing), Some(score(booked)), "{res}");
            // Eleven places away it is not a neighbour of the match, and nothing else found it.
            assert!(hit(dentist).is_none(), "{res}");
        } else {
            assert_ne!(neighbour(packing), Some(score(booked)), "span 0: two places only: {res}");
        }
        // Three long turns after the match is further than 80 words: not its neighbour either way.
        assert_ne!(neighbour(packing_talk), Some(score(ferry_talk)), "{res}");
    }
}

#[tokio::test]
async fn a_memory_at_the_last_place_an_episode_can_hold_is_recalled_with_its_neighbours() {
    let app = spawn().await;
    let key = &app.a.key;
    let last = i64::from(i32::MAX);
    let items = [
        json!({"content": "The ferry to the island leaves at eight", "episode_id": "e", "sequence_number": last}),
        json!({"content": "Bring the snorkels", "episode_id": "e", "sequence_number": last - 1}),
    ];
    let ids = app.store_batch(key, &items).await;
    // Its reach past the largest place is no overflow: both come back, the second lifted towards the first.
    let res = app.post(key, "/api/v1/recall", &json!({"query": "ferry island"})).await.ok(200).clone();
    let results = res["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{res}");
    assert_eq!(results[0]["memory"]["id"], ids[0].as_str());
    assert_eq!(results[1]["score_components"]["neighbour"], results[0]["score"], "{res}");
}

/// A one-hot vector per text: the axis is the number the text ends with. Records every text it embeds.
#[derive(Default)]
struct Axes(Mutex<Vec<String>>);

impl Embedder for Axes {
    fn model(&self) -> &str {
        "axes"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        self.0.lock().unwrap().extend(texts.iter().cloned());
        let out = texts
            .iter()
            .map(|t| {
                let axis: usize = t.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
                let mut v = vec![0.0_f32; 384];
                v[axis] = 1.0;
                v
            })
            .collect();
        Box::pin(async move { Ok(out) })
    }
}

/// The context vector of a memory: (axis of its own vector, weight) pairs, read from the database.
async fn context_vector(app: &TestApp, id: &str) -> Option<Vec<(usize, f32)>> {
    let mut conn = app.superuser_conn().await;
    let v: Option<pgvector::Vector> = sqlx::query_scalar("SELECT context_embedding FROM memories WHERE id = $1::uuid")
        .bind(id)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    v.map(|v| v.to_vec().into_iter().enumerate().filter(|(_, x)| x.abs() > 1e-6).collect())
}

#[tokio::test]
async fn folded_context_vectors_take_no_second_pass_and_follow_whichever_neighbour_is_embedded_last() {
    let axes = Arc::new(Axes::default());
    let settings =
        cairn::config::AppArgs { context_vector: "fold".into(), context_fold_weight: 0.5, ..Default::default() };
    let app = spawn_with_settings_and_embedder(settings, axes.clone()).await;
    let key = &app.a.key;
    let turn = |content: &str, seq: i64| json!({"content": content, "episode_id": "talk", "sequence_number": seq});
    let ids = app.store_batch(key, &[turn("turn 1", 1), turn("turn 2", 2), turn("turn 3", 3)]).await;
    let lone = app.store_text(key, "alone 4").await;
    // The successor first, then its predecessor: the second write completes the first's context vector.
    let tenant = app.a.id;
    let only = |id: &str| vec![id.parse::<uuid::Uuid>().unwrap()];
    let fold = cairn::config::ContextVectors::Fold(0.5);
    let model = axes.clone() as Arc<dyn Embedder>;
    cairn::jobs::embed::embed_pending(&app.db, model.as_ref(), tenant, &only(&ids[1]), 0, fold).await.unwrap();
    assert_eq!(context_vector(&app, &ids[1]).await, None, "its predecessor has no vector yet");
    cairn::jobs::embed::embed_pending(&app.db, model.as_ref(), tenant, &only(&ids[0]), 0, fold).await.unwrap();
    app.drain_jobs().await;

    // Own vector plus half the predecessor's, normalised: 1/sqrt(1.25) and 0.5/sqrt(1.25).
    let (own, prev) = (1.0 / 1.25_f32.sqrt(), 0.5 / 1.25_f32.sqrt());
    let close = |got: Option<Vec<(usize, f32)>>, want: &[(usize, f32)]| {
        let got = got.unwrap_or_default();
        got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.0 == w.0 && (g.1 - w.1).abs() < 1e-4)
    };
    assert_eq!(context_vector(&app, &ids[0]).await, None, "the first turn has no predecessor");
    let second = context_vector(&app, &ids[1]).await;
    assert!(close(second.clone(), &[(1, prev), (2, own)]), "{second:?}");
    let third = context_vector(&app, &ids[2]).await;
    assert!(close(third.clone(), &[(2, prev), (3, own)]), "{third:?}");
    assert_eq!(context_vector(&app, &lone).await, None, "a memory without an episode has no context vector");
    // Every text the model saw (the calibration's probes aside) is a memory's own content: no context text
    // went through it.
    let seen: Vec<String> =
        axes.0.lock().unwrap().iter().filter(|t| t.starts_with("turn") || t.starts_with("alone")).cloned().collect();
    assert!(seen.iter().all(|t| !t.contains('\n')), "{seen:?}");
    assert_eq!(seen.len(), 4, "{seen:?}");

    // Tied sequence numbers: the turn after them folds the one its context names (the higher id), whichever
    // of the two is embedded last.
    let tie = |content: &str, seq: i64| json!({"content": content, "episode_id": "ties", "sequence_number": seq});
    let tied = app.store_batch(key, &[tie("tie 6", 1), tie("tie 7", 1), tie("tie 8", 2)]).await;
    let (named, other) = match tied[0].parse::<uuid::Uuid>().unwrap() > tied[1].parse::<uuid::Uuid>().unwrap() {
        true => (0, 1),
        false => (1, 0),
    };
    for i in [2, named, other] {
        cairn::jobs::embed::embed_pending(&app.db, model.as_ref(), tenant, &only(&tied[i]), 0, fold).await.unwrap();
    }
    let after_tie = context_vector(&app, &tied[2]).await;
    assert!(close(after_tie.clone(), &[(6 + named, prev), (8, own)]), "{after_tie:?}");

    // A client's own vector is never mixed with the model's.
    let mut v = vec![0.0_f32; 384];
    v[9] = 1.0;
    let server = json!({"content": "server 10", "episode_id": "mixed", "sequence_number": 1});
    let client = json!({"content": "client 9", "episode_id": "mixed", "sequence_number": 2, "embedding": v});
    let mixed = app.store_batch(key, &[server, client]).await;
    app.drain_jobs().await;
    assert_eq!(context_vector(&app, &mixed[1]).await, None);

    // A turn taken out: the one after it folds its new predecessor.
    app.delete(key, &format!("/api/v1/memories/{}?hard=true", ids[1])).await.ok(200);
    app.drain_jobs().await;
    let third = context_vector(&app, &ids[2]).await;
    assert!(close(third.clone(), &[(1, prev), (3, own)]), "{third:?}");
}

/// Vectors written in the text: the numbers of its last `[...]` on the first axes, normalised (anything without
/// them on axis 9).
struct Written;

impl Embedder for Written {
    fn model(&self) -> &str {
        "written"
    }
    fn dimension(&self) -> usize {
        384
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let out = texts.iter().map(|t| unit(&written(t))).collect();
        Box::pin(async move { Ok(out) })
    }
}

fn written(text: &str) -> Vec<f32> {
    let inner = text.rsplit_once('[').and_then(|(_, rest)| rest.split_once(']')).map(|(inner, _)| inner);
    match inner {
        Some(inner) => inner.split(',').map(|x| x.trim().parse().unwrap()).collect(),
        None => {
            let mut v = vec![0.0; 10];
            v[9] = 1.0;
            v
        }
    }
}

/// `v` padded to 384 dimensions and normalised.
fn unit(v: &[f32]) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    let mut out: Vec<f32> = v.iter().map(|x| x / norm).collect();
    out.resize(384, 0.0);
    out
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (a, b) = (unit(a), unit(b));
    a.iter().zip(&b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

/// Loads `ids` as recall does with `known`: each candidate's cosine.
async fn load(
    tx: &mut cairn::store::TenantTx,
    ids: &[uuid::Uuid],
    query: &pgvector::Vector,
    known: cairn::store::recall::Known,
) -> Vec<(uuid::Uuid, Option<f64>)> {
    let loaded = cairn::store::recall::load_candidates(tx, ids, Some(query), None, true, true, &known).await.unwrap();
    loaded.iter().map(|c| (c.memory.id, c.cosine)).collect()
}

/// Recall measures each vector of a candidate once (`store::recall::Known`): the vector probe says which of a
/// memory's vectors found it and their cosine, and loading the candidates measures only the others (a vector is
/// read out of line). With either vector known, the loaded cosine is the other's, and the probe's figure merged in
/// gives the better of both; with both known, nothing is measured again.
#[tokio::test]
async fn loading_a_candidate_measures_only_the_vectors_its_probe_did_not() {
    let settings =
        cairn::config::AppArgs { context_vector: "fold".into(), context_fold_weight: 0.5, ..Default::default() };
    let app = spawn_with_settings_and_embedder(settings, Arc::new(Written)).await;
    let turn = |episode: &str, content: &str, seq: i64| json!({"content": content, "episode_id": episode, "sequence_number": seq});
    // x: own 0.5, context (with [0,0,0,1] before it) 0.447; y: own 0.3, context (with [1,0,0,0] before it) 0.643.
    let ids = app
        .store_batch(
            &app.a.key,
            &[
                turn("x", "x before [0,0,0,1]", 1),
                turn("x", "x [0.5,0.866,0,0]", 2),
                turn("y", "y before [1,0,0,0]", 1),
                turn("y", "y [0.3,0.954,0,0]", 2),
            ],
        )
        .await;
    app.drain_jobs().await;
    let (x, y): (uuid::Uuid, uuid::Uuid) = (ids[1].parse().unwrap(), ids[3].parse().unwrap());
    let query = pgvector::Vector::from(unit(&[1.0, 0.0, 0.0, 0.0]));
    let (x_own, x_context) = (cosine(&[0.5, 0.866], &[1.0]), cosine(&[0.5, 0.866, 0.0, 0.5], &[1.0]));
    let (y_own, y_context) = (cosine(&[0.3, 0.954], &[1.0]), cosine(&[0.8, 0.954], &[1.0]));

    let mut tx = app.db.begin_snapshot(app.a.id).await.unwrap();
    // The probe: in a tenant this small each memory with both vectors is found by both.
    let filter = cairn::memory::ListFilter::default();
    let hits = cairn::store::recall::vector_candidates(&mut tx, &filter, &query, 50, true).await.unwrap();
    let found = |id: &str| hits.iter().find(|h| h.id.to_string() == id).copied().unwrap();
    assert!(found(&ids[1]).own && found(&ids[1]).context, "{hits:?}");
    assert!(found(&ids[0]).own && !found(&ids[0]).context, "the first of an episode has no context vector: {hits:?}");
    assert!((found(&ids[1]).cosine - x_own.max(x_context)).abs() < 1e-3, "{hits:?}");

    let ids = [x, y];
    let of = |rows: &[(uuid::Uuid, Option<f64>)], id: uuid::Uuid| rows.iter().find(|r| r.0 == id).unwrap().1;
    let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-3);
    // The probe measured x's and y's `own` / `context` vectors, with a figure no vector of theirs gives, to see
    // where it is used.
    let known = |own: bool, context: bool| cairn::store::recall::Known {
        vectors: [x, y].map(|id| (id, cairn::store::recall::VectorHit { id, cosine: 0.1, own, context })).into(),
        ..Default::default()
    };

    // Nothing known: both vectors measured, the better counts.
    let loaded = load(&mut tx, &ids, &query, cairn::store::recall::Known::default()).await;
    assert!(close(of(&loaded, x), x_own) && close(of(&loaded, y), y_context), "{loaded:?}");
    // Own vectors known: only the context vectors are measured, the better of that and the probe's counts (x's
    // own 0.5 is nowhere).
    let loaded = load(&mut tx, &ids, &query, known(true, false)).await;
    assert!(close(of(&loaded, x), x_context) && close(of(&loaded, y), y_context), "{loaded:?}");
    // Context vectors known: only the own vectors are measured (y's context 0.643 is nowhere).
    let loaded = load(&mut tx, &ids, &query, known(false, true)).await;
    assert!(close(of(&loaded, x), x_own) && close(of(&loaded, y), y_own), "{loaded:?}");
    // Both known: nothing measured again, the probe's figure stands.
    let loaded = load(&mut tx, &ids, &query, known(true, true)).await;
    assert!(close(of(&loaded, x), 0.1) && close(of(&loaded, y), 0.1), "{loaded:?}");

    // As recall runs it: the probes' hits loaded with what they measured give every signal exactly as loading
    // everything does, BM25 included.
    let text = "x before y";
    let lexemes = cairn::store::terms::lexemes(&mut tx, text, "", &[], &[]).await.unwrap();
    let mut kq =
        cairn::recall::bm25::KeywordQuery::plan(&lexemes.all, &lexemes.emphasised, &lexemes.phrases, &lexemes.stats)
            .unwrap();
    // The episode context's words count too, as recall weighs them: the keyword search scores each term with a
    // `CASE` of its own, the load from a table of the terms, and the two must agree to the last bit.
    kq.context_weight = 0.3;
    let keyword_hits = cairn::store::recall::keyword_candidates(&mut tx, &filter, &kq, &kq.select, 50).await.unwrap();
    assert!(!keyword_hits.is_empty());
    let mut all: Vec<uuid::Uuid> = hits.iter().map(|h| h.id).chain(keyword_hits.iter().map(|k| k.0)).collect();
    all.sort();
    all.dedup();
    let probed = cairn::store::recall::Known::from_hits(&hits, &keyword_hits);
    let everything = cairn::store::recall::Known::default();
    let mut signals = Vec::new();
    for known in [&probed, &everything] {
        let loaded = cairn::store::recall::load_candidates(&mut tx, &all, Some(&query), Some(&kq), true, true, known)
            .await
            .unwrap();
        let mut rows: Vec<(uuid::Uuid, Option<f64>, Option<f64>)> =
            loaded.iter().map(|c| (c.memory.id, c.cosine, c.keyword)).collect();
        rows.sort_by_key(|r| r.0);
        signals.push(rows);
    }
    assert_eq!(signals[0].len(), all.len());
    assert_eq!(signals[0], signals[1], "with the probes' figures, and measuring everything");
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_reply_is_matched_by_its_predecessors_words_at_the_context_keyword_weight() {
    // The default, and a lower weight set by the operator (0 turns the context's words off).
    for weight in [cairn::config::DEFAULT_CONTEXT_KEYWORD_WEIGHT, 0.3, 0.0] {
        let app = spawn_with(AppArgs { context_keyword_weight: weight, ..AppArgs::default() }, None).await;
        let key = &app.a.key;
        let turn = |content: &str, seq: i64| json!({"content": content, "episode_id": "trip", "sequence_number": seq});
        let asked = app.store(key, turn("We booked the ferry to the island for Saturday", 1)).await;
        let reply = app.store(key, turn("Great, I will pack the snorkels and masks", 2)).await;
        let body = json!({"query": "ferry island", "mode": "keyword", "limit": 10});
        let res = app.post(key, "/api/v1/recall", &body).await.ok(200).clone();
        let results = res["results"].as_array().unwrap();
        let keyword = |id: &serde_json::Value| {
            results
                .iter()
                .find(|r| &r["memory"]["id"] == id)
                .map(|r| r["score_components"]["keyword"].as_f64().unwrap())
        };
        assert_eq!(keyword(&asked["id"]), Some(1.0), "{res}");
        // The reply's context is the turn before it, as long: its words score `weight` of that turn's own.
        match keyword(&reply["id"]) {
            Some(k) => assert!((k - weight).abs() < 1e-6, "weight {weight}: {res}"),
            None => assert_eq!(weight, 0.0, "{res}"),
        }
    }
}
