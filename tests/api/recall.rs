//! /api/v1/recall: modes, every filter, scoring, paging, the model not being ready, tenant isolation.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn::config::AppArgs;
use cairn::models::embed::{EmbedFuture, Embedder};
use chrono::{Duration as Days, Utc};
use serde_json::{json, Value};

use crate::helpers::{local_model, spawn, spawn_prepared, spawn_with, spawn_with_embedder, TestApp};

fn contents(body: &Value) -> Vec<String> {
    body["results"].as_array().unwrap().iter().map(|r| r["memory"]["content"].as_str().unwrap().to_owned()).collect()
}

async fn recall(app: &TestApp, key: &str, body: Value) -> Value {
    app.post(key, "/api/v1/recall", &body).await.ok(200).clone()
}

/// Stores memories with vectors from the real model (the embedding worker does this in production).
async fn store_embedded(app: &TestApp, key: &str, items: Vec<Value>) {
    let model = local_model();
    let texts: Vec<String> = items.iter().map(|i| i["content"].as_str().unwrap().to_owned()).collect();
    let vectors = model.embed(&texts).await.unwrap();
    let memories: Vec<Value> = items
        .into_iter()
        .zip(vectors)
        .map(|(mut item, v)| {
            item["embedding"] = json!(v);
            item
        })
        .collect();
    for m in memories {
        app.store(key, m).await;
    }
}

#[tokio::test]
async fn keyword_recall_finds_a_memory_the_moment_it_is_stored() {
    let app = spawn().await;
    app.store(&app.a.key, json!({"content": "The deploy key rotates every Tuesday"})).await;
    app.store(&app.a.key, json!({"content": "Lunch is at noon"})).await;
    let body = recall(&app, &app.a.key, json!({"query": "when does the deploy key rotate?"})).await;
    assert_eq!(contents(&body), ["The deploy key rotates every Tuesday"]);
    let hit = &body["results"][0];
    assert_eq!(hit["match_type"], "keyword");
    assert_eq!(hit["memory"]["embedding_status"], "pending", "found before any embedding exists");
    let score = hit["score"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&score));
    assert!(hit["score_components"]["keyword"].as_f64().unwrap() > 0.0);
    // Without an embedder, hybrid degrades to keywords and says so; semantic is refused clearly.
    assert_eq!(body["mode"], "keyword");
    assert!(body["notice"].as_str().unwrap().contains("keyword results only"));
    app.post(&app.a.key, "/api/v1/recall", &json!({"query": "x", "mode": "semantic"}))
        .await
        .assert_error(400, "mode: semantic and associative recall need an embedder");
}

#[tokio::test]
async fn semantic_recall_finds_meaning_without_shared_words() {
    let app = spawn_with_embedder(local_model()).await;
    store_embedded(
        &app,
        &app.a.key,
        vec![
            json!({"content": "We chose PostgreSQL as our primary datastore because we need ACID transactions."}),
            json!({"content": "The office plants need watering twice a week."}),
            json!({"content": "Alice prefers dark mode in every editor."}),
        ],
    )
    .await;
    let body =
        recall(&app, &app.a.key, json!({"query": "which database are we using?", "mode": "semantic", "limit": 3}))
            .await;
    assert_eq!(body["mode"], "semantic");
    let top = contents(&body);
    assert!(top[0].contains("PostgreSQL"), "{top:?}");
    assert_eq!(body["results"][0]["match_type"], "semantic");
    let scores: Vec<f64> = body["results"].as_array().unwrap().iter().map(|r| r["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "sorted by score: {scores:?}");
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));

    // Hybrid: a memory matching both by meaning and by words is marked so.
    let hybrid = recall(&app, &app.a.key, json!({"query": "dark mode editor preference"})).await;
    assert_eq!(hybrid["mode"], "hybrid");
    assert!(contents(&hybrid)[0].contains("dark mode"));
    assert_eq!(hybrid["results"][0]["match_type"], "hybrid");
    let components = &hybrid["results"][0]["score_components"];
    for key in ["semantic", "keyword", "relevance", "importance", "recency", "confidence", "credibility"] {
        assert!(components[key].is_number(), "{key} missing: {components}");
    }

    // Tenant B sees nothing of A's, by meaning or by words.
    let other = recall(&app, &app.b.key, json!({"query": "which database are we using?"})).await;
    assert_eq!(other["count"], 0);
}

#[tokio::test]
async fn filters_narrow_recall() {
    let app = spawn().await;
    let now = Utc::now();
    let memories = json!({"memories": [
        {"content": "alpha note one", "tags": ["proj:alpha", "db"], "type": "Decision", "importance": 0.9,
         "user_id": "u1", "episode_id": "e1", "created_at": (now - Days::days(1)).to_rfc3339()},
        {"content": "alpha note two", "tags": ["proj:alpha"], "type": "Insight", "importance": 0.3,
         "user_id": "u2", "created_at": (now - Days::days(20)).to_rfc3339(), "t_valid": "2020-01-01", "t_invalid": "2021-01-01"},
        {"content": "alpha note three", "tags": ["proj:beta", "db"], "memory_type": "short_term", "ttl": 3600,
         "created_at": (now - Days::days(100)).to_rfc3339()}
    ]});
    app.post(&app.a.key, "/api/v1/memories/batch", &memories).await.ok(201);
    let q = |extra: Value| {
        let mut body = json!({"query": "alpha note", "sort": "time_desc"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!({}), vec!["alpha note one", "alpha note two", "alpha note three"]),
        (json!({"tags": ["db"]}), vec!["alpha note one", "alpha note three"]),
        (json!({"tags": "proj", "tag_match": "prefix"}), vec!["alpha note one", "alpha note two", "alpha note three"]),
        (json!({"tags": ["proj:alpha", "db"], "tag_mode": "all"}), vec!["alpha note one"]),
        (json!({"exclude_tags": ["db"]}), vec!["alpha note two"]),
        (json!({"types": ["insight"]}), vec!["alpha note two"]),
        (json!({"memory_type": "short_term"}), vec!["alpha note three"]),
        (json!({"user_id": "u2"}), vec!["alpha note two"]),
        (json!({"episode_id": "e1"}), vec!["alpha note one"]),
        (json!({"min_importance": 0.6}), vec!["alpha note one"]),
        (json!({"since": "last week"}), vec!["alpha note one"]),
        (json!({"since": "vor 2 Monaten", "until": "vor 2 Wochen"}), vec!["alpha note two"]),
        (json!({"valid_at": "2020-06-01"}), vec!["alpha note one", "alpha note two", "alpha note three"]),
        (json!({"valid_at": "2022-06-01"}), vec!["alpha note one", "alpha note three"]),
        (json!({"sort": "time_asc"}), vec!["alpha note three", "alpha note two", "alpha note one"]),
    ];
    for (extra, expected) in cases {
        let body = recall(&app, &app.a.key, q(extra.clone())).await;
        assert_eq!(contents(&body), expected, "filter {extra}");
    }
    // The GET form takes the same parameters, lists as repeated keys.
    let get = app
        .get(&app.a.key, "/api/v1/recall?query=alpha%20note&tags=db&tags=proj:alpha&tag_mode=all")
        .await
        .ok(200)
        .clone();
    assert_eq!(contents(&get), ["alpha note one"]);
    // Without a query: filters and ordering only, newest first.
    let no_query = recall(&app, &app.a.key, json!({"tags": ["db"]})).await;
    assert_eq!(contents(&no_query), ["alpha note one", "alpha note three"]);
    assert_eq!(no_query["results"][0]["match_type"], "filter");
}

#[tokio::test]
async fn expired_and_archived_memories_are_left_out_unless_asked_for() {
    let app = spawn().await;
    app.store(&app.a.key, json!({"content": "fleeting thought about kites", "ttl": 60})).await;
    app.store(&app.a.key, json!({"content": "lasting thought about kites"})).await;
    cairn::jobs::expire::run_once(&app.db, Utc::now() + Days::minutes(5)).await.unwrap();
    let body = recall(&app, &app.a.key, json!({"query": "kites"})).await;
    assert_eq!(contents(&body), ["lasting thought about kites"]);
    let all = recall(&app, &app.a.key, json!({"query": "kites", "include_archived": true})).await;
    assert_eq!(all["count"], 2);
}

#[tokio::test]
async fn paging_and_access_counting() {
    let app = spawn().await;
    let items: Vec<Value> = (0..15).map(|i| json!({"content": format!("river fact number {i}")})).collect();
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({ "memories": items })).await.ok(201);
    let first = recall(&app, &app.a.key, json!({"query": "river fact", "limit": 10})).await;
    assert_eq!((first["count"].clone(), first["has_more"].clone()), (json!(10), json!(true)));
    let second = recall(&app, &app.a.key, json!({"query": "river fact", "limit": 10, "offset": 10})).await;
    assert_eq!((second["count"].clone(), second["has_more"].clone()), (json!(5), json!(false)));
    let mut seen: Vec<String> = contents(&first);
    seen.extend(contents(&second));
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 15, "pages neither overlap nor skip");
    // Accesses are counted in the background, after the response.
    let id = first["results"][0]["memory"]["id"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let listed = app.get(&app.a.key, &format!("/api/v1/memories/{id}/history")).await;
        let count = app.get(&app.a.key, "/api/v1/memories?limit=20").await.ok(200)["memories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == id.as_str())
            .map(|m| m["access_count"].as_i64().unwrap())
            .unwrap();
        listed.ok(200);
        if count >= 1 {
            break;
        }
        assert!(Instant::now() < deadline, "recall never counted the access");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn invalid_recall_parameters_are_400s_naming_them() {
    let app = spawn().await;
    let cases = [
        (json!({"query": ""}), "query: must be 1..=1000 characters"),
        (json!({"query": "x".repeat(1001)}), "query: must be 1..=1000 characters"),
        (json!({"query": "x", "mode": "psychic"}), "mode: must be hybrid, semantic, keyword or associative"),
        (json!({"query": "x", "limit": 0}), "limit: must be between 1 and 100"),
        (json!({"query": "x", "limit": 101}), "limit: must be between 1 and 100"),
        (
            json!({"query": "x", "since": "the day the music died"}),
            "since: cannot understand the time \"the day the music died\"",
        ),
        (json!({"query": "x", "until": "someday"}), "until: cannot understand the time \"someday\""),
        (json!({"query": "x", "sort": "random"}), "sort: must be score, time_desc or time_asc"),
        (json!({"query": "x", "quality_weight": 2}), "quality_weight: must be between 0 and 1"),
        (json!({"query": "x", "tag_mode": "most"}), "tag_mode: must be any or all"),
        (json!({"query": "x", "types": ["Nope"]}), "types: unknown type"),
        (json!({"query": "x", "tags": 5}), "tags: invalid type"),
        (json!({"query": "x", "min_importance": -1}), "min_importance: must be between 0 and 1"),
    ];
    for (body, needle) in cases {
        app.post(&app.a.key, "/api/v1/recall", &body).await.assert_error(400, needle);
    }
    app.get(&app.a.key, "/api/v1/recall?query=x&limit=abc").await.assert_error(400, "limit");
    app.send(reqwest::Method::POST, "/api/v1/recall", None, Some(&json!({"query": "x"})))
        .await
        .assert_error(401, "missing API key");
}

/// Puts every query at one fixed point, so the test can place memories near or far from it.
struct FixedEmbedder(Vec<f32>);

impl Embedder for FixedEmbedder {
    fn model(&self) -> &str {
        "fixed"
    }
    fn dimension(&self) -> usize {
        self.0.len()
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let out = texts.iter().map(|_| self.0.clone()).collect();
        Box::pin(async move { Ok(out) })
    }
}

fn unit_vector(seed: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut v: Vec<f32> = (0..384)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        })
        .collect();
    let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
    v.iter_mut().for_each(|a| *a /= norm);
    v
}

#[tokio::test]
async fn a_filtered_vector_search_returns_every_match_not_just_the_nearest_few() {
    let query = unit_vector(0);
    // With a few hundred rows the planner would sort exactly instead of using the HNSW index; at scale it
    // uses the index, which is the case under test. Make it use the index here too.
    let prepare = [
        "ALTER DATABASE {db} SET enable_seqscan = off",
        "ALTER DATABASE {db} SET enable_bitmapscan = off",
        "ALTER DATABASE {db} SET enable_sort = off",
    ];
    let app = spawn_prepared(Arc::new(FixedEmbedder(query.clone())), &prepare).await;
    // 300 memories near the query, 5 "needles" far from it: an HNSW scan that filters after taking the
    // nearest candidates would find none of the needles.
    let near: Vec<Value> = (0..300)
        .map(|i| {
            let noise = unit_vector(1000 + i);
            let v: Vec<f32> = query.iter().zip(&noise).map(|(q, n)| q + 0.3 * n).collect();
            json!({"content": format!("near {i}"), "embedding": v})
        })
        .collect();
    let needles: Vec<Value> = (0..5)
        .map(|i| json!({"content": format!("needle {i}"), "tags": ["needle"], "embedding": query.iter().map(|a| -a).collect::<Vec<f32>>().iter().zip(unit_vector(50 + i)).map(|(a, n)| a + 0.1 * n).collect::<Vec<f32>>()}))
        .collect();
    let mut all = near;
    all.extend(needles);
    app.post(&app.a.key, "/api/v1/memories/batch", &json!({ "memories": all })).await.ok(201);
    let body =
        recall(&app, &app.a.key, json!({"query": "anything", "mode": "semantic", "tags": ["needle"], "limit": 10}))
            .await;
    let mut found = contents(&body);
    found.sort();
    assert_eq!(found, ["needle 0", "needle 1", "needle 2", "needle 3", "needle 4"]);
}

#[tokio::test]
async fn keyword_relevance_weighs_rare_words_over_words_every_memory_shares() {
    let app = spawn().await;
    for i in 0..12 {
        let content = format!("Caroline told Caroline's sister about the weather on day {i}");
        app.store(&app.a.key, json!({"content": content})).await;
    }
    app.store(&app.a.key, json!({"content": "Melanie adopted a puppy from the shelter"})).await;
    // Another tenant's memories are all about puppies: its word statistics must not leak into tenant A's.
    for i in 0..12 {
        app.store(&app.b.key, json!({"content": format!("The puppy chewed shoe number {i}")})).await;
    }
    // Plain ts_rank_cd prefers the memories naming Caroline twice; BM25 knows "Caroline" is everywhere.
    let body = recall(&app, &app.a.key, json!({"query": "What did Caroline say about the puppy?", "limit": 3})).await;
    assert_eq!(contents(&body)[0], "Melanie adopted a puppy from the shelter");
    let components = &body["results"][0]["score_components"];
    assert_eq!(components["keyword"], 1.0);
    assert!(body["results"][1]["score_components"]["keyword"].as_f64().unwrap() < 0.5);
    // A query of only the common word still finds its memories.
    let body = recall(&app, &app.a.key, json!({"query": "Caroline", "limit": 20, "mode": "keyword"})).await;
    assert_eq!(body["count"], 12);
}

#[tokio::test]
async fn a_query_of_common_words_finds_the_memory_holding_all_of_them_in_a_large_tenant() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    // Every word of the question is in thousands of memories: more than a keyword search scores
    // (MAX_SCORED, 4,000). The one memory holding all of them is stored last, so it is last in the table.
    sqlx::query(
        "INSERT INTO memories (tenant_id, content, content_hash)
         SELECT $1, 'The billing service note ' || g, md5('b' || g) FROM generate_series(1, 4500) g
         UNION ALL
         SELECT $1, 'Alice note ' || g, md5('a' || g) FROM generate_series(1, 6000) g",
    )
    .bind(app.a.id)
    .execute(&mut conn)
    .await
    .unwrap();
    app.store(&app.a.key, json!({"content": "Alice fixed a bug in the billing service"})).await;
    // Only common words; then with a word no memory holds ("think"), which selects nothing by itself. Both
    // used to score 4,000 of the 4,501 memories holding two of the words, in table order, without this one.
    for query in ["Alice billing service", "What does Alice think about the billing service?"] {
        let body = recall(&app, &app.a.key, json!({"query": query, "limit": 5, "mode": "keyword"})).await;
        assert_eq!(contents(&body)[0], "Alice fixed a bug in the billing service", "{query}");
        assert_eq!(body["results"].as_array().unwrap().len(), 5, "{query}: the pool is filled past the one");
    }
}

#[tokio::test]
async fn keyword_search_uses_its_index_under_row_level_security() {
    use sqlx::Executor;
    let app = spawn().await;
    app.store(&app.a.key, json!({"content": "The deploy key rotates every Tuesday"})).await;
    let mut conn = app.superuser_conn().await;
    let leakproof: bool = sqlx::query_scalar("SELECT proleakproof FROM pg_proc WHERE proname = 'ts_match_vq'")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert!(leakproof, "the migrations mark ts_match_vq LEAKPROOF");
    // Enough rows in the tenant that its words index beats walking the tenant.
    insert_fillers(&mut conn, app.a.id, 2000).await;
    conn.execute("ANALYZE memories").await.unwrap();
    let mut tx = crate::helpers::app_role_tx(&mut conn, Some(app.a.id)).await;
    tx.execute("SET LOCAL enable_seqscan = off").await.unwrap();
    // With the tenant named, as the store's statements do (on Citus that makes it one task on the tenant's
    // shard, whose plan the coordinator's EXPLAIN shows beneath its own).
    // By the tenant's key of the word (migration 41), as the keyword search selects.
    let plan: String = sqlx::query_scalar::<_, String>(&format!(
        "EXPLAIN SELECT id FROM memories WHERE tenant_id = '{}' AND search_keys @@ '''{}:deploy'''::tsquery",
        app.a.id,
        &app.a.id.simple().to_string()[..8]
    ))
    .fetch_all(&mut *tx)
    .await
    .unwrap()
    .join("\n");
    // Without LEAKPROOF on ts_match_vq the policy keeps `@@` out of the index condition.
    let index_cond = plan.lines().find(|l| l.contains("Index Cond")).unwrap_or_default();
    assert!(index_cond.contains("search_keys @@"), "keyword match is not an index condition:\n{plan}");
}

/// Stores `n` filler memories in `tenant` by SQL (no vectors, no jobs): a tenant large enough for the planner's
/// choices to be those of a real one.
async fn insert_fillers(conn: &mut sqlx::PgConnection, tenant: uuid::Uuid, n: i32) {
    sqlx::query(
        "INSERT INTO memories (tenant_id, content, content_hash)
         SELECT $1, 'filler number ' || g, md5(g::text) FROM generate_series(1, $2) g",
    )
    .bind(tenant)
    .bind(n)
    .execute(conn)
    .await
    .unwrap();
}

/// Every recall resolves its results' supersession chains: that looks up the edges of those memories by
/// their ids, whatever the plan, and never reads the tenant's other edges (enrichment leaves a large tenant
/// several SIMILAR_TO edges per memory; a join the planner hashed read them all on every recall), nor even
/// the results' own other edges: each probe reads the index of superseding edges only (migration 42).
#[tokio::test]
async fn chain_heads_look_up_the_results_edges_never_the_tenants() {
    use sqlx::Executor;
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    insert_fillers(&mut conn, app.a.id, 3000).await;
    // Each memory SIMILAR_TO its next four, and one superseded by the next.
    sqlx::query(
        "WITH m AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM memories WHERE tenant_id = $1)
         INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength)
         SELECT $1, a.id, b.id, CASE WHEN a.n = 1 AND b.n = 2 THEN 'INVALIDATED_BY' ELSE 'SIMILAR_TO' END, 0.9
           FROM m a JOIN m b ON b.n BETWEEN a.n + 1 AND a.n + 4",
    )
    .bind(app.a.id)
    .execute(&mut conn)
    .await
    .unwrap();
    conn.execute("ANALYZE memories; ANALYZE relations").await.unwrap();
    let ids: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT id FROM memories WHERE tenant_id = $1 ORDER BY id LIMIT 100")
        .bind(app.a.id)
        .fetch_all(&mut conn)
        .await
        .unwrap();
    for (mode, found, plan) in heads_in_both_plans(&mut conn, app.a.id, &ids).await {
        assert_eq!(found.len(), 1, "the one superseded memory has its head ({mode})");
        let lines: Vec<&str> = plan.lines().collect();
        let scans: Vec<usize> =
            (0..lines.len()).filter(|&i| lines[i].contains("Scan") && lines[i].contains(" on relations r")).collect();
        assert!(!scans.is_empty(), "no scan of relations ({mode}):\n{plan}");
        for i in scans {
            // A bitmap heap scan names its index on its child, the next line.
            let reads = match lines[i].contains("Bitmap Heap Scan") {
                true => {
                    lines[i..].iter().take(3).find(|l| l.contains("Bitmap Index Scan")).copied().unwrap_or_default()
                }
                false => lines[i],
            };
            assert!(
                reads.contains("relations_superseding_idx"),
                "a probe reads more than the superseding edges ({mode}):\n{plan}"
            );
            let cond = lines[i + 1..].iter().take(2).find(|l| l.contains(" Cond: ")).copied().unwrap_or_default();
            assert!(
                cond.contains("source_id = c.node"),
                "the tenant's edges are read, not the results' ({mode}):\n{plan}"
            );
        }
    }
}

/// The chain heads of `ids` of `tenant`, as the application role, and the plan that found them: under a generic
/// and a custom plan in turn.
async fn heads_in_both_plans(
    conn: &mut sqlx::PgConnection,
    tenant: uuid::Uuid,
    ids: &[uuid::Uuid],
) -> Vec<(&'static str, Vec<sqlx::postgres::PgRow>, String)> {
    use sqlx::Executor;
    let mut tx = crate::helpers::app_role_tx(conn, Some(tenant)).await;
    let prepare = format!("PREPARE heads(uuid, uuid[], int) AS {}", cairn::store::relations::chain_heads_sql());
    tx.execute(prepare.as_str()).await.unwrap();
    let list = ids.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(",");
    let execute = format!("EXECUTE heads('{tenant}', '{{{list}}}', {})", cairn::store::relations::MAX_CHAIN);
    let mut out = Vec::new();
    for mode in ["force_generic_plan", "force_custom_plan"] {
        tx.execute(format!("SET LOCAL plan_cache_mode = {mode}").as_str()).await.unwrap();
        let rows = sqlx::query(&execute).fetch_all(&mut *tx).await.unwrap();
        let plan = sqlx::query_scalar::<_, String>(&format!("EXPLAIN {execute}"))
            .fetch_all(&mut *tx)
            .await
            .unwrap()
            .join("\n");
        out.push((mode, rows, plan));
    }
    out
}

/// 3,000 fillers of `tenant` in a `memories` the statistics have never seen (autovacuum off on it, whatever the
/// cluster's does meanwhile); the first 400 of their ids.
async fn unanalysed_fillers(conn: &mut sqlx::PgConnection, tenant: uuid::Uuid) -> Vec<uuid::Uuid> {
    use sqlx::Executor;
    conn.execute("ALTER TABLE memories SET (autovacuum_enabled = off)").await.unwrap();
    insert_fillers(&mut *conn, tenant, 3000).await;
    let reltuples: f32 = sqlx::query_scalar("SELECT reltuples FROM pg_class WHERE relname = 'memories'")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert!(reltuples < 0.0, "memories was analysed: this test needs a table the statistics have not seen");
    sqlx::query_scalar("SELECT id FROM memories WHERE tenant_id = $1 ORDER BY id LIMIT 400")
        .bind(tenant)
        .fetch_all(conn)
        .await
        .unwrap()
}

/// The chain heads' steps and heads are looked up by id whatever the statistics say: a tenant that grew since
/// the table was last analysed (here never: the planner's defaults estimate one live memory of a tenant) was
/// walked whole as the outer side of each step, the chain's edges probed again for each of its memories (0.6 s of
/// a LongMemEval recall instead of 3 ms).
#[tokio::test]
async fn chain_heads_look_up_memories_by_id_before_the_statistics_see_the_tenant() {
    use sqlx::Executor;
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    conn.execute("ALTER TABLE relations SET (autovacuum_enabled = off)").await.unwrap();
    let ids = unanalysed_fillers(&mut conn, app.a.id).await;
    // The first memory superseded by the second, the second by the third: two chains, one head.
    sqlx::query(
        "INSERT INTO relations (tenant_id, source_id, target_id, rel_type, strength)
         VALUES ($1, $2, $3, 'INVALIDATED_BY', 1), ($1, $3, $4, 'EVOLVED_INTO', 1)",
    )
    .bind(app.a.id)
    .bind(ids[0])
    .bind(ids[1])
    .bind(ids[2])
    .execute(&mut conn)
    .await
    .unwrap();
    for (mode, rows, plan) in heads_in_both_plans(&mut conn, app.a.id, &ids).await {
        let mut heads: Vec<(uuid::Uuid, uuid::Uuid)> = rows
            .iter()
            .map(|r| (sqlx::Row::get::<uuid::Uuid, _>(r, "start"), sqlx::Row::get::<uuid::Uuid, _>(r, "id")))
            .collect();
        heads.sort();
        let mut want = vec![(ids[0], ids[2]), (ids[1], ids[2])];
        want.sort();
        assert_eq!(heads, want, "both superseded memories lead to the third ({mode})");
        let lines: Vec<&str> = plan.lines().collect();
        // The step's `memories h` (shown as `h_1` beside its subquery `h`), the heads' unaliased `memories` (the
        // relations policy's own lookups, `m`, `m_1`, are checked below with the rest).
        assert!(lines.iter().any(|l| l.contains(" on memories h")), "the step reads no memories ({mode}):\n{plan}");
        assert!(lines.iter().any(|l| l.contains(" on memories  (")), "the heads read no memories ({mode}):\n{plan}");
        let scans: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" on memories")).collect();
        for i in scans {
            // The scan's own condition: the lines up to its first child node.
            let own = lines[i + 1..].iter().take_while(|l| !l.contains("->"));
            let cond = own.filter(|l| l.contains(" Cond: ")).last().copied().unwrap_or_default();
            assert!(
                cond.contains("(id = "),
                "memories are read by more than the ids the chain reached ({mode}):\n{plan}"
            );
        }
    }
}

/// Recall loads its candidates by id whatever the statistics say: on a tenant stored since the table was last
/// analysed (here never), the join of the memories to the ids read the tenant's memories through another index
/// (here `memories_tenant_importance_idx`, in the generic plan) and filtered them by the ids, linear in the tenant's
/// size on every recall until the next `ANALYZE`. Checked on the statement the store prepares, under the
/// application's login, in both plan modes, with the keyword signal's terms and without: every scan of `memories`
/// is a probe of its primary key by one id.
#[tokio::test]
async fn candidates_load_by_id_before_the_statistics_see_the_tenant() {
    use sqlx::Executor;
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let ids = unanalysed_fillers(&mut conn, app.a.id).await;
    // As recall loads them (no probe measured anything: every signal is measured here), under the app's login:
    // with the keyword signal's terms (hybrid and keyword recall) and without (semantic).
    let raw = vec![0.05_f32; 384];
    let vector = pgvector::Vector::from(raw.clone());
    let terms = cairn::recall::bm25::KeywordQuery {
        terms: vec!["'filler'".into(), "'note'".into()],
        idfs: vec![1.5, 0.5],
        select: "'filler' | 'note'".into(),
        widen: Vec::new(),
        select_holds_nothing: false,
        avg_len: 6.0,
        context_weight: 0.3,
    };
    for (variant, keywords) in [("semantic", None), ("with keywords", Some(&terms))] {
        let mut tx = app.db.begin_snapshot(app.a.id).await.unwrap();
        let known = cairn::store::recall::Known::default();
        let loaded = cairn::store::recall::load_candidates(&mut tx, &ids, Some(&vector), keywords, true, true, &known)
            .await
            .unwrap();
        assert_eq!(loaded.len(), ids.len());
        let statement: String = sqlx::query_scalar(
            "SELECT statement FROM pg_prepared_statements
              WHERE statement LIKE '%AS keyword FROM%' AND statement NOT LIKE '%pg_prepared_statements%'
                AND (statement LIKE 'WITH kq%') = $1",
        )
        .bind(keywords.is_some())
        .fetch_one(tx.conn())
        .await
        .unwrap();
        // Prepared again by name, so that Postgres tells the types of its parameters.
        tx.conn().execute(format!("PREPARE load_candidates AS {statement}").as_str()).await.unwrap();
        let types: Vec<String> = sqlx::query_scalar(
            "SELECT parameter_types::text[] FROM pg_prepared_statements WHERE name = 'load_candidates'",
        )
        .fetch_one(tx.conn())
        .await
        .unwrap();
        let list = ids.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(",");
        let args = types
            .iter()
            .map(|t| match t.as_str() {
                "uuid[]" => format!("'{{{list}}}'"),
                "integer[]" => format!("'{{{}}}'", vec!["7"; ids.len()].join(",")),
                "uuid" => format!("'{}'", app.a.id),
                "vector" => format!("'{}'", serde_json::to_string(&raw).unwrap()),
                "text[]" => "'{\"''filler''\",\"''note''\"}'".to_owned(),
                "double precision[]" => "'{1.5,0.5}'".to_owned(),
                "double precision" => "0.3".to_owned(),
                other => panic!("a parameter of type {other} ({variant})"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        for mode in ["force_generic_plan", "force_custom_plan"] {
            tx.conn().execute(format!("SET LOCAL plan_cache_mode = {mode}").as_str()).await.unwrap();
            let plan = sqlx::query_scalar::<_, String>(&format!("EXPLAIN EXECUTE load_candidates({args})"))
                .fetch_all(tx.conn())
                .await
                .unwrap()
                .join("\n");
            let lines: Vec<&str> = plan.lines().collect();
            let scans: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" on memories")).collect();
            assert!(!scans.is_empty(), "no scan of memories ({variant}, {mode}):\n{plan}");
            for i in scans {
                // A bitmap heap scan names its index, and the index's condition, on its child.
                let at = match lines[i].contains("Bitmap Heap Scan") {
                    true => (i..lines.len()).find(|&j| lines[j].contains("Bitmap Index Scan")).unwrap_or(i),
                    false => i,
                };
                assert!(
                    lines[at].contains("memories_pkey"),
                    "memories read by another index than their ids' ({variant}, {mode}):\n{plan}"
                );
                let own = lines[at + 1..].iter().take_while(|l| !l.contains("->"));
                let cond = own.filter(|l| l.contains("Index Cond: ")).last().copied().unwrap_or_default();
                assert!(
                    cond.contains("(id = k.kid)"),
                    "memories read by more than one id a probe ({variant}, {mode}):\n{plan}"
                );
            }
        }
        tx.conn().execute("DEALLOCATE load_candidates").await.unwrap();
        tx.rollback().await.unwrap();
    }
}

/// Keyword search selects by the tenant's own keys of its words (migration 41): the service's keys and the
/// database's agree, and a tenant whose id begins like another's (so its words have the same keys) never
/// sees the other's memories.
#[tokio::test]
async fn keyword_search_by_tenant_keys_finds_the_tenants_words_and_only_its_own() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let prefix = app.a.id.simple().to_string()[..8].to_owned();
    let twin: uuid::Uuid = format!("{prefix}-0000-4000-8000-000000000001").parse().unwrap();
    sqlx::query("INSERT INTO tenants (id, name, plan) VALUES ($1, 'twin', 'unlimited')")
        .bind(twin)
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO memories (tenant_id, content, content_hash) VALUES ($1, 'The deploy key of the twin', 'twin')",
    )
    .bind(twin)
    .execute(&mut conn)
    .await
    .unwrap();
    app.store(&app.a.key, json!({"content": "The deploy key rotates every Tuesday"})).await;
    app.store(&app.a.key, json!({"content": "Lunch on Friday", "tags": ["deploy"]})).await;
    app.store(&app.b.key, json!({"content": "Tenant b has a deploy key too"})).await;
    // The twin's memory holds tenant a's key of the word: the statement's tenant is what keeps it out.
    let keyed: i64 = sqlx::query_scalar("SELECT count(*) FROM memories WHERE search_keys @@ $1::tsquery")
        .bind(format!("'{prefix}:deploy'"))
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(keyed, 3, "the twin's memory and tenant a's two hold the key");
    let body = recall(&app, &app.a.key, json!({"query": "deploy key", "mode": "keyword", "limit": 10})).await;
    let mut found = contents(&body);
    found.sort();
    assert_eq!(found, ["Lunch on Friday", "The deploy key rotates every Tuesday"], "{body}");
    // Two words together (the memory holding both first) through the keys too.
    let both = recall(&app, &app.a.key, json!({"query": "Tuesday deploy", "mode": "keyword", "limit": 1})).await;
    assert_eq!(contents(&both), ["The deploy key rotates every Tuesday"]);
}

/// Recall's lookups by id may keep the generic plan Postgres caches for them (planning one each time cost more
/// than running it), while its searches, whose best plan depends on their values, are planned with their values
/// every time.
#[tokio::test]
async fn recall_plans_its_lookups_once_and_its_searches_with_their_values() {
    use cairn::recall::bm25::KeywordQuery;
    use cairn::store::{recall as sql, relations, terms};
    let app = spawn().await;
    let id = app.store_text(&app.a.key, "The deploy key rotates every Tuesday").await;
    let id: uuid::Uuid = id.parse().unwrap();
    // Recall's snapshot, as the service opens it, under the application's login.
    let mut tx = app.db.begin_snapshot(app.a.id).await.unwrap();
    let filter = cairn::memory::ListFilter::default();
    for _ in 0..8 {
        assert!(relations::chain_heads(&mut tx, &[id]).await.unwrap().is_empty());
        let words = terms::lexemes(&mut tx, "deploy key", "", &[], &[]).await.unwrap();
        let kq = KeywordQuery::plan(&words.all, &words.emphasised, &words.phrases, &words.stats).unwrap();
        let found = sql::keyword_candidates(&mut tx, &filter, &kq, &kq.select, 10).await.unwrap();
        assert_eq!(found.iter().map(|(m, _)| *m).collect::<Vec<_>>(), vec![id]);
    }
    let prepared: Vec<String> =
        sqlx::query_scalar("SELECT statement FROM pg_prepared_statements").fetch_all(tx.conn()).await.unwrap();
    // A lookup is prepared, and the snapshot leaves Postgres free to keep its generic plan (whether it does is
    // Postgres' cost comparison: at 100k memories it did, 0.3 ms against 3.1 ms planned each time).
    assert!(prepared.iter().any(|s| s.contains("WITH RECURSIVE chain")), "chain_heads is prepared: {prepared:?}");
    let mode: String = sqlx::query_scalar("SHOW plan_cache_mode").fetch_one(tx.conn()).await.unwrap();
    assert_eq!(mode, "auto", "recall's snapshot forces a plan mode");
    // The keyword search is sent unnamed: never prepared, so never run on a generic plan.
    assert!(!prepared.iter().any(|s| s.contains("search_keys @@")), "a keyword search was prepared: {prepared:?}");
}

/// A unit vector `cos` away from axis 0, the rest along axis `axis`.
fn at_cosine(cos: f32, axis: usize) -> Vec<f32> {
    let mut v = vec![0.0_f32; 384];
    v[0] = cos;
    v[axis] = (1.0 - cos * cos).sqrt();
    v
}

#[tokio::test]
async fn associative_recall_surfaces_a_linked_memory_semantic_recall_misses_and_learns() {
    let app = spawn_with_embedder(Arc::new(FixedEmbedder(at_cosine(1.0, 1)))).await;
    let key = &app.a.key;
    let mut items = vec![json!({"content": "the seed", "embedding": at_cosine(1.0, 1)})];
    items.extend((0..5).map(|i| json!({"content": format!("decoy {i}"), "embedding": at_cosine(0.5, 2 + i)})));
    items.push(json!({"content": "the linked one", "embedding": at_cosine(-0.5, 10)}));
    let stored = app.post(key, "/api/v1/memories/batch", &json!({"memories": items})).await.ok(201).clone();
    let ids: Vec<&str> = stored["memory_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let (seed, linked) = (ids[0], ids[6]);
    let body = json!({"memory1_id": seed, "memory2_id": linked, "type": "LEADS_TO", "strength": 0.9});
    app.post(key, "/api/v1/associations", &body).await.ok(201);

    let semantic = recall(&app, key, json!({"query": "q", "mode": "semantic", "limit": 3})).await;
    assert!(!contents(&semantic).contains(&"the linked one".to_owned()));
    // 1.0 (the seed) * 0.9 (strength) * 0.6 (one hop) = 0.54 > 0.5 (the decoys).
    let associative = recall(&app, key, json!({"query": "q", "mode": "associative", "limit": 3})).await;
    assert_eq!(associative["mode"], "associative");
    assert_eq!(contents(&associative)[..2], ["the seed", "the linked one"]);
    let hit = &associative["results"][1];
    assert_eq!(hit["match_type"], "associative");
    assert!((hit["score_components"]["relevance"].as_f64().unwrap() - 0.54).abs() < 1e-3);

    // Hebbian learning: recalled together, their edge grows by 0.1 * (1 - 0.9), after the response.
    let path = format!("/api/v1/memories/{seed}/related");
    let mut strength = 0.0;
    for _ in 0..50 {
        strength = app.get(key, &path).await.ok(200)["related"][0]["path_strength"].as_f64().unwrap();
        if strength > 0.9 + 1e-4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!((strength - 0.91).abs() < 1e-4, "edge strength after one associative recall: {strength}");
    // Semantic recall does not learn, nor does a read-only key's associative recall, unless the tenant says so.
    let reader = crate::helpers::new_key(&app.db, app.a.id, &["read"]).await;
    recall(&app, key, json!({"query": "q", "mode": "semantic", "limit": 10})).await;
    recall(&app, &reader, json!({"query": "q", "mode": "associative", "limit": 3})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = app.get(key, &path).await.ok(200)["related"][0]["path_strength"].as_f64().unwrap();
    assert!((after - 0.91).abs() < 1e-4, "a read key changed the edge: {after}");
    let admin = crate::helpers::new_key(&app.db, app.a.id, &["admin"]).await;
    let on = app.patch(&admin, "/api/v1/settings", &json!({"read_keys_strengthen": true})).await.ok(200).clone();
    assert_eq!(on["read_keys_strengthen"], true);
    recall(&app, &reader, json!({"query": "q", "mode": "associative", "limit": 3})).await;
    let learned = 0.91 + 0.1 * (1.0 - 0.91);
    for _ in 0..50 {
        strength = app.get(key, &path).await.ok(200)["related"][0]["path_strength"].as_f64().unwrap();
        if strength > 0.91 + 1e-4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!((strength - learned).abs() < 1e-4, "edge strength after the read key's recall, turned on: {strength}");
}

#[tokio::test]
async fn query_words_find_memories_by_their_tags() {
    let app = spawn().await;
    let tagged = app
        .store(&app.a.key, json!({"content": "Chose PostgreSQL over MongoDB", "tags": ["database", "project-alpha"]}))
        .await;
    app.store_text(&app.a.key, "Lunch is on Friday").await;
    for query in ["database", "databases", "alpha", "project-alpha"] {
        let body = app.get(&app.a.key, &format!("/api/v1/recall?mode=keyword&query={query}")).await.ok(200).clone();
        assert_eq!(body["count"], 1, "{query}: {body}");
        assert_eq!(body["results"][0]["memory"]["id"], tagged["id"], "{query}");
    }
}

/// Keyword relevance of each result, by content.
fn keyword_of(body: &Value, content: &str) -> f64 {
    let hit = body["results"].as_array().unwrap().iter().find(|r| r["memory"]["content"] == content).unwrap();
    hit["score_components"]["keyword"].as_f64().unwrap()
}

#[tokio::test]
async fn a_time_named_in_the_query_is_a_preference_not_a_filter() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "Maria baked sourdough bread", "created_at": "2023-05-10T12:00:00Z"})).await;
    app.store(key, json!({"content": "Maria baked rye bread", "created_at": "2023-09-10T12:00:00Z"})).await;
    // Without a time the newer memory leads (recency); with one, the memory from that period does.
    let plain = recall(&app, key, json!({"query": "what bread did Maria bake?", "mode": "keyword"})).await;
    assert_eq!(contents(&plain)[0], "Maria baked rye bread");
    assert!(plain["results"][0]["score_components"].get("time_match").is_none());
    for (query, first) in [
        ("what bread did Maria bake in May 2023?", "Maria baked sourdough bread"),
        ("what bread did Maria bake on 10 May 2023?", "Maria baked sourdough bread"),
        ("what bread did Maria bake in September?", "Maria baked rye bread"),
        ("welches Brot hat Maria im Mai 2023 gebacken?", "Maria baked sourdough bread"),
    ] {
        let body = recall(&app, key, json!({"query": query, "mode": "keyword"})).await;
        assert_eq!(contents(&body).len(), 2, "{query}: a preference, never a filter");
        assert_eq!(contents(&body)[0], first, "{query}");
        assert_eq!(body["results"][0]["score_components"]["time_match"], 1.0, "{query}");
        assert!(body["results"][1]["score_components"]["time_match"].as_f64().unwrap() < 0.5, "{query}");
    }
}

#[tokio::test]
async fn relative_times_count_back_from_the_reference_time_the_question_is_asked_at() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "Maria baked sourdough bread", "created_at": "2023-05-10T12:00:00Z"})).await;
    app.store(key, json!({"content": "Maria baked rye bread", "created_at": "2023-09-10T12:00:00Z"})).await;
    // Asked on 15 May 2023, "last week" is 8-14 May: the May memory, although the other one is newer.
    let query = "what bread did Maria bake last week?";
    let asked = json!({"query": query, "mode": "keyword", "reference_time": "2023-05-15T09:00:00Z"});
    let body = recall(&app, key, asked).await;
    assert_eq!(contents(&body)[0], "Maria baked sourdough bread", "{body}");
    assert_eq!(body["results"][0]["score_components"]["time_match"], 1.0);
    // The same holds for since/until, and for a GET.
    let path = "/api/v1/recall?query=bread&mode=keyword&since=last%20week&until=last%20week&reference_time=2023-05-15T09:00:00Z";
    let listed = app.get(key, path).await.ok(200).clone();
    assert_eq!(contents(&listed), ["Maria baked sourdough bread"], "{listed}");
    // Without it, "last week" is the server's and neither memory is from then.
    let now = recall(&app, key, json!({"query": query, "mode": "keyword"})).await;
    assert!(now["results"][0]["score_components"]["time_match"].as_f64().unwrap() < 1e-6, "{now}");
    for bad in ["yesterday", "2023-13-01", ""] {
        let res = app.post(key, "/api/v1/recall", &json!({"query": query, "reference_time": bad})).await;
        res.assert_error(400, "reference_time");
    }
}

#[tokio::test]
async fn a_question_about_when_prefers_memories_that_state_a_time() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "Bob fixed the bike yesterday", "created_at": "2024-01-01T00:00:00Z"})).await;
    app.store(key, json!({"content": "Bob fixed the bike carefully", "created_at": "2024-02-01T00:00:00Z"})).await;
    let how = recall(&app, key, json!({"query": "How did Bob fix the bike?", "mode": "keyword"})).await;
    assert_eq!(contents(&how)[0], "Bob fixed the bike carefully");
    for query in ["When did Bob fix the bike?", "Wann hat Bob the bike fixed?", "what day did Bob fix the bike"] {
        let when = recall(&app, key, json!({"query": query, "mode": "keyword"})).await;
        assert_eq!(contents(&when)[0], "Bob fixed the bike yesterday", "{query}");
        assert_eq!(when["results"][1]["score_components"]["time_match"], 0.0, "{query}");
    }
}

#[tokio::test]
async fn names_and_quoted_phrases_weigh_more() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "Alice ordered coffee"})).await;
    app.store(key, json!({"content": "Rust ordered coffee"})).await;
    // Lowercase, neither word is a name: they weigh alike. Written as a name, Alice weighs 1.5 times more.
    let plain = recall(&app, key, json!({"query": "what did alice think of rust", "mode": "keyword"})).await;
    assert!((keyword_of(&plain, "Alice ordered coffee") - keyword_of(&plain, "Rust ordered coffee")).abs() < 1e-9);
    let named = recall(&app, key, json!({"query": "what did Alice think of rust", "mode": "keyword"})).await;
    assert_eq!(contents(&named)[0], "Alice ordered coffee");
    assert!((keyword_of(&named, "Rust ordered coffee") - 1.0 / 1.5).abs() < 1e-6);

    let phrase = "We discussed The Lean Startup at length during the offsite";
    app.store(key, json!({"content": phrase})).await;
    app.store(key, json!({"content": "Startup teams stay lean"})).await;
    // Shorter memories win a plain keyword match; the quoted phrase, matched word for word, wins when quoted.
    let loose = recall(&app, key, json!({"query": "lean startup", "mode": "keyword"})).await;
    assert_eq!(contents(&loose)[0], "Startup teams stay lean");
    let quoted = recall(&app, key, json!({"query": "who recommended \"The Lean Startup\"?", "mode": "keyword"})).await;
    assert_eq!(contents(&quoted)[0], phrase);
    assert!(keyword_of(&quoted, "Startup teams stay lean") < keyword_of(&quoted, phrase));
}

#[tokio::test]
async fn a_query_of_only_stop_words_still_answers() {
    let app = spawn().await;
    let key = &app.a.key;
    app.store(key, json!({"content": "The staging cluster is down"})).await;
    // Keyword search has nothing to match: an empty answer that says why, not an error.
    for mode in ["keyword", "hybrid"] {
        let body = recall(&app, key, json!({"query": "what is it?", "mode": mode})).await;
        assert_eq!(body["count"], 0, "{mode}");
        assert!(body["notice"].as_str().unwrap().contains("stop words"), "{mode}: {body}");
    }
    // With the model, hybrid answers by meaning.
    let app = spawn_with_embedder(local_model()).await;
    store_embedded(&app, &app.a.key, vec![json!({"content": "The staging cluster is down"})]).await;
    let body = recall(&app, &app.a.key, json!({"query": "is it down?"})).await;
    assert_eq!(contents(&body), ["The staging cluster is down"]);
    assert!(body.get("notice").is_none_or(Value::is_null), "{body}");
}

#[tokio::test]
async fn a_memory_that_asks_gives_way_to_the_one_that_states() {
    let app = spawn().await;
    // The same words, once asked and once stated: every other signal ties.
    app.store(&app.a.key, json!({"content": "Melanie plays the clarinet?"})).await;
    app.store(&app.a.key, json!({"content": "Melanie plays the clarinet."})).await;
    app.store(&app.a.key, json!({"content": "Melanie plays the clarinet. Does she play it well?"})).await;
    let body =
        recall(&app, &app.a.key, json!({"query": "Which instrument does Melanie play?", "mode": "keyword"})).await;
    let results = body["results"].as_array().unwrap();
    let at = |content: &str| results.iter().position(|r| r["memory"]["content"] == content).unwrap();
    let (stated, asked, both) = (
        at("Melanie plays the clarinet."),
        at("Melanie plays the clarinet?"),
        at("Melanie plays the clarinet. Does she play it well?"),
    );
    assert_eq!(stated, 0, "{body}");
    let score = |i: usize| results[i]["score"].as_f64().unwrap();
    let question = |i: usize| results[i]["score_components"].get("question").and_then(Value::as_f64);
    assert_eq!(question(stated), None, "a statement loses nothing and says nothing");
    assert_eq!(question(asked), Some(1.0));
    // The share is by words: 5 of the 9 are in the question.
    assert!((question(both).unwrap() - 5.0 / 9.0).abs() < 1e-9);
    let lost = score(stated) - score(asked);
    assert!((lost - cairn::recall::score::W_QUESTION).abs() < 1e-3, "{lost}");
}

#[tokio::test]
async fn a_line_of_the_speaker_the_question_names_rises_above_the_others_lines_about_them() {
    for weight in [cairn::recall::score::W_SPEAKER, 0.0] {
        let app = spawn_with(AppArgs { speaker_weight: weight, ..AppArgs::default() }, None).await;
        // The same words: one line is Melanie's, the other Caroline's about her.
        app.store(&app.a.key, json!({"content": "Caroline: Melanie and I play the clarinet."})).await;
        app.store(&app.a.key, json!({"content": "Melanie: Caroline and I play the clarinet."})).await;
        app.store(&app.a.key, json!({"content": "Note: Melanie plays the clarinet too."})).await;
        let body =
            recall(&app, &app.a.key, json!({"query": "Which instrument does Melanie play?", "mode": "keyword"})).await;
        let results = body["results"].as_array().unwrap();
        let at = |content: &str| results.iter().position(|r| r["memory"]["content"] == content).unwrap();
        let (hers, about_her, note) = (
            at("Melanie: Caroline and I play the clarinet."),
            at("Caroline: Melanie and I play the clarinet."),
            at("Note: Melanie plays the clarinet too."),
        );
        let score = |i: usize| results[i]["score"].as_f64().unwrap();
        let speaker = |i: usize| results[i]["score_components"].get("speaker").and_then(Value::as_f64);
        assert_eq!(speaker(hers), Some(1.0), "shown whatever the weight: {body}");
        assert_eq!((speaker(about_her), speaker(note)), (None, None), "{body}");
        let gained = score(hers) - score(about_her);
        assert!((gained - weight).abs() < 1e-3, "weight {weight}: gained {gained}: {body}");
        if weight > 0.0 {
            assert_eq!(hers, 0, "{body}");
        }
    }
}

/// A name most of a tenant's memories hold (a speaker's, whose every line opens with it) is left out of half the
/// query's vector: a line without it comes nearer the question, a line that shares only the name with it moves
/// away. Where the name is rare the question is embedded as asked. A bag-of-words embedder makes both moves exact.
#[tokio::test]
async fn a_name_most_of_the_tenant_s_memories_hold_weighs_less_in_the_query_s_vector() {
    let embedder = Arc::new(crate::calibration::Words { squash: 1.0 });
    let app = spawn_with_embedder(embedder.clone()).await;
    let (answer, greeting) = ("I play the clarinet and the violin", "Melanie: good morning to you");
    let common =
        [answer, greeting, "Melanie: we went hiking", "Melanie: the kids loved the museum", "Melanie: pottery"];
    let rare: Vec<String> = [answer.to_owned(), greeting.to_owned()]
        .into_iter()
        .chain((0..20).map(|i| format!("garden note {i}")))
        .collect();
    for (key, contents) in [(&app.a.key, common.map(str::to_owned).to_vec()), (&app.b.key, rare)] {
        for content in contents {
            app.store(key, json!({"content": content, "embedding": embedder.vector(&content)})).await;
        }
    }
    let query = json!({"query": "What instruments does Melanie play?", "mode": "hybrid", "limit": 30});
    let (a, b) = (recall(&app, &app.a.key, query.clone()).await, recall(&app, &app.b.key, query).await);
    let semantic = |body: &Value, content: &str| {
        let hit = body["results"].as_array().unwrap().iter().find(|r| r["memory"]["content"] == content);
        hit.unwrap_or_else(|| panic!("{content} not found: {body}"))["score_components"]["semantic"].as_f64().unwrap()
    };
    // Melanie is in 4 of tenant a's 5 memories and in 1 of tenant b's 22.
    let (answered, greeted) =
        ((semantic(&a, answer), semantic(&b, answer)), (semantic(&a, greeting), semantic(&b, greeting)));
    assert!(answered.0 > answered.1 + 0.005, "the answer, where the name is common and where it is rare: {answered:?}");
    assert!(greeted.0 < greeted.1 - 0.05, "the greeting, where the name is common and where it is rare: {greeted:?}");
}
