//! Usage per end user: `GET /api/v1/usage?group_by=user_id|agent_id` (admin scope) answers what each end user
//! or agent of the tenant stores and stored in the window, for the tenant's own billing.

use serde_json::json;

use crate::helpers::{new_key, spawn};

#[tokio::test]
async fn usage_grouped_by_end_user_or_agent_answers_the_billing_question() {
    let app = spawn().await;
    let key = &app.a.key;
    for (content, user, agent) in [
        ("Ann prefers tea", Some("ann"), Some("support-bot")),
        ("Ann moved to Lisbon", Some("ann"), Some("support-bot")),
        ("Ann's order shipped on Monday", Some("ann"), None),
        ("Bo asked about invoices", Some("bo"), Some("billing-bot")),
        ("A note with nobody behind it", None, None),
    ] {
        let mut body = json!({"content": content});
        if let Some(u) = user {
            body["user_id"] = json!(u);
        }
        if let Some(a) = agent {
            body["agent_id"] = json!(a);
        }
        app.store(key, body).await;
    }
    // B's end users are B's own.
    app.store(&app.b.key, json!({"content": "Cy is B's user", "user_id": "cy"})).await;

    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let report = app.get(&admin, "/api/v1/usage?group_by=user_id").await.ok(200).clone();
    let page = &report["end_users"];
    assert_eq!(
        (page["group_by"].clone(), page["total"].clone(), page["count"].clone()),
        (json!("user_id"), json!(2), json!(2)),
        "{report}"
    );
    let ann = &page["end_users"][0];
    assert_eq!(
        (ann["end_user"].clone(), ann["memories"].clone(), ann["stored_in_window"].clone()),
        (json!("ann"), json!(3), json!(3))
    );
    assert!(ann["storage_bytes"].as_i64().unwrap() >= ("Ann prefers tea".len() * 3) as i64, "{ann}");
    assert_eq!(
        (page["end_users"][1]["end_user"].clone(), page["end_users"][1]["memories"].clone()),
        (json!("bo"), json!(1))
    );
    assert_eq!(
        (page["unattributed"]["end_user"].clone(), page["unattributed"]["memories"].clone()),
        (json!(null), json!(1))
    );
    assert!(!report.to_string().contains("\"cy\""), "no end user of another tenant: {report}");
    assert_eq!(report["memories"], 5, "the tenant's own figures are still there");

    let agents = app.get(&admin, "/api/v1/usage?group_by=agent_id&limit=1").await.ok(200)["end_users"].clone();
    assert_eq!(
        (agents["end_users"][0]["end_user"].clone(), agents["end_users"][0]["memories"].clone()),
        (json!("support-bot"), json!(2))
    );
    assert_eq!(
        (agents["total"].clone(), agents["has_more"].clone(), agents["unattributed"]["memories"].clone()),
        (json!(2), json!(true), json!(2))
    );
    let second = app.get(&admin, "/api/v1/usage?group_by=agent_id&limit=1&offset=1").await.ok(200)["end_users"].clone();
    assert_eq!(
        (second["end_users"][0]["end_user"].clone(), second["has_more"].clone()),
        (json!("billing-bot"), json!(false))
    );

    // A window before any of it: held, but none stored in it.
    let old = app.get(&admin, "/api/v1/usage?group_by=user_id&from=2020-01-01&to=2020-01-31").await.ok(200).clone();
    assert_eq!(
        (
            old["end_users"]["end_users"][0]["memories"].clone(),
            old["end_users"]["end_users"][0]["stored_in_window"].clone()
        ),
        (json!(3), json!(0))
    );

    // Without the grouping, no end users; with it, the admin scope and sane parameters are needed.
    assert!(app.get(key, "/api/v1/usage").await.ok(200).get("end_users").is_none());
    app.get(key, "/api/v1/usage?group_by=user_id").await.assert_error(403, "admin");
    app.get(&admin, "/api/v1/usage?group_by=session_id").await.assert_error(400, "group_by");
    app.get(&admin, "/api/v1/usage?group_by=user_id&limit=0").await.assert_error(400, "limit");
    app.get(&admin, "/api/v1/usage?group_by=user_id&offset=-1").await.assert_error(400, "offset");
    app.get(&admin, "/api/v1/usage?group_by=user_id&from=2026-12-31&to=2026-01-01").await.assert_error(400, "from");
    app.get(&admin, "/api/v1/usage?grouped=user_id").await.assert_error(400, "grouped");
}

#[tokio::test]
async fn an_end_user_or_agent_cannot_hold_more_than_its_cap() {
    let app = spawn().await;
    // Before any request, so that no instance has the tenant's limits cached.
    sqlx::query(
        "UPDATE tenants SET limits = '{\"max_memories_per_user\": 2, \"max_memories_per_agent\": 3}' WHERE id = $1",
    )
    .bind(app.a.id)
    .execute(&mut app.superuser_conn().await)
    .await
    .unwrap();
    let key = &app.a.key;
    let first = app.store(key, json!({"content": "Ann one", "user_id": "ann", "agent_id": "bot"})).await;
    app.store(key, json!({"content": "Ann two", "user_id": "ann", "agent_id": "bot"})).await;
    let refused = app.post(key, "/api/v1/memories", &json!({"content": "Ann three", "user_id": "ann"})).await;
    refused.assert_error(403, "user_id: quota max_memories_per_user exceeded");
    refused.assert_error(403, "\"ann\" may hold 2");
    let bo = app.store(key, json!({"content": "Bo one", "user_id": "bo"})).await;

    // A batch that would take Bo over is refused whole; nothing of it is written.
    let batch = json!({"memories": [{"content": "Bo two", "user_id": "bo"}, {"content": "Bo three", "user_id": "bo"}]});
    app.post(key, "/api/v1/memories/batch", &batch).await.assert_error(403, "max_memories_per_user");
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let held = app.get(&admin, "/api/v1/usage?group_by=user_id").await.ok(200)["end_users"].clone();
    assert_eq!(
        (held["end_users"][1]["end_user"].clone(), held["end_users"][1]["memories"].clone()),
        (json!("bo"), json!(1)),
        "{held}"
    );

    // Moving a memory to a full end user is refused too; the agent has its own cap.
    let bo_id = bo["id"].as_str().unwrap();
    app.patch(key, &format!("/api/v1/memories/{bo_id}"), &json!({"user_id": "ann"})).await.assert_error(403, "user_id");
    app.store(key, json!({"content": "Cy one", "user_id": "cy", "agent_id": "bot"})).await;
    app.post(key, "/api/v1/memories", &json!({"content": "Dee one", "user_id": "dee", "agent_id": "bot"}))
        .await
        .assert_error(403, "agent_id: quota max_memories_per_agent exceeded");

    // Room again once one is deleted.
    let first_id = first["id"].as_str().unwrap();
    app.delete(key, &format!("/api/v1/memories/{first_id}?hard=true")).await.ok(200);
    app.store(key, json!({"content": "Ann three", "user_id": "ann"})).await;
    // Another tenant's end user of the same name is not counted here.
    app.store(&app.b.key, json!({"content": "B's Ann", "user_id": "ann"})).await;
}

#[tokio::test]
async fn an_end_users_storage_and_request_rate_have_caps_of_their_own() {
    if crate::helpers::scoped_keys_refused("an_end_users_storage_and_request_rate_have_caps_of_their_own") {
        return;
    }
    let app = spawn().await;
    sqlx::query(
        "UPDATE tenants SET limits = '{\"max_storage_bytes_per_user\": 40, \"user_requests_per_second\": 1}'
          WHERE id = $1",
    )
    .bind(app.a.id)
    .execute(&mut app.superuser_conn().await)
    .await
    .unwrap();
    let key = &app.a.key;
    // Bytes of content and metadata ("{}"): 19 + 2, then 18 + 2 would make 41.
    app.store(key, json!({"content": "Ann likes green tea", "user_id": "ann"})).await;
    app.post(key, "/api/v1/memories", &json!({"content": "Ann moved to Porto", "user_id": "ann"}))
        .await
        .assert_error(403, "user_id: quota max_storage_bytes_per_user exceeded: user_id \"ann\" may hold 40 bytes");
    let batch = json!({"memories": [{"content": "Bo one"}, {"content": "Ann moved to Porto", "user_id": "ann"}]});
    // (Ann's two requests so far are her burst: a second refills one.)
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    app.post(key, "/api/v1/memories/batch", &batch).await.assert_error(403, "max_storage_bytes_per_user");
    assert_eq!(app.get(key, "/api/v1/memories").await.ok(200)["total"], 1, "nothing of the batch was written");
    // An edit that grows a memory past the cap is refused too.
    let cleo = app.store(key, json!({"content": "Cleo is short", "user_id": "cleo"})).await;
    let grown = json!({"content": "Cleo wrote a much longer note than the cap allows"});
    app.patch(key, &format!("/api/v1/memories/{}", cleo["id"].as_str().unwrap()), &grown)
        .await
        .assert_error(403, "max_storage_bytes_per_user");
    // A token scoped to an agent counts the end user's memories of other agents too (hidden from it), and
    // learns the verdict, not the count.
    app.store(key, json!({"content": "Dana keeps a 30-byte note.", "user_id": "dana", "agent_id": "other"})).await;
    let admin = new_key(&app.db, app.a.id, &["admin"]).await;
    let bot = app.post(&admin, "/api/v1/tokens", &json!({"agent_ids": ["bot"]})).await.ok(201)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = app.post(&bot, "/api/v1/memories", &json!({"content": "Dana's second", "user_id": "dana"})).await;
    res.assert_error(403, "may hold 40 bytes of content and metadata and this write would go over it");

    // One request a second for each end user (bursts of two): Rita's run out, whichever key or token asks,
    // while Bo's are untouched.
    let recall = |user: &str| json!({"query": "tea", "user_id": user, "mode": "keyword"});
    // Six at once: at most the burst of two (and whatever a second refills meanwhile) are served.
    let refused = |user: &'static str, k: String| {
        let app = &app;
        async move {
            let body = recall(user);
            let all = futures_util::future::join_all((0..6).map(|_| app.post(&k, "/api/v1/recall", &body))).await;
            all.into_iter().find(|res| res.status != 200)
        }
    };
    let res = refused("rita", key.clone()).await.expect("Rita's requests are limited");
    res.assert_error(429, "user_id: rate limit exceeded: user_id \"rita\" may make 1 requests per second");
    assert!(res.headers.contains_key("retry-after"), "{:?}", res.headers);
    app.post(key, "/api/v1/recall", &recall("bo")).await.ok(200);
    let token = app.post(&admin, "/api/v1/tokens", &json!({"user_ids": ["rita"]})).await.ok(201)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = refused("rita", token).await.expect("a token for Rita shares her limit");
    res.assert_error(429, "\"rita\"");
    // A batch names the item whose end user is over the rate.
    let batch = json!({"memories": [{"content": "Rita's first"}, {"content": "Rita's second", "user_id": "rita"}]});
    let all = futures_util::future::join_all((0..6).map(|_| app.post(key, "/api/v1/memories/batch", &batch))).await;
    let res = all.into_iter().find(|res| res.status == 429).expect("Rita's batch requests are limited");
    res.assert_error(429, "memories[1].user_id: rate limit exceeded");
}

#[tokio::test]
async fn requests_and_recalls_are_counted_per_end_user_and_agent() {
    let app = spawn().await;
    let key = &app.b.key;
    let recall = |user: &str| json!({"query": "invoice", "user_id": user, "agent_id": "desk", "mode": "keyword"});
    app.post(key, "/api/v1/recall", &recall("cy")).await.ok(200);
    app.post(key, "/api/v1/recall", &recall("cy")).await.ok(200);
    app.get(key, "/api/v1/memories?user_id=cy").await.ok(200);
    app.store(key, json!({"content": "Cy asked about an invoice", "user_id": "cy"})).await;
    let batch = json!({"memories": [
        {"content": "Cy paid", "user_id": "cy"}, {"content": "Cy thanked us", "user_id": "cy"},
        {"content": "Dee signed up", "user_id": "dee"}]});
    app.post(key, "/api/v1/memories/batch", &batch).await.ok(201);
    app.post(key, "/api/v1/recall", &recall("zed")).await.ok(200);
    // Another tenant's requests for an end user of the same name are its own.
    app.post(&app.a.key, "/api/v1/recall", &recall("cy")).await.ok(200);

    let admin = new_key(&app.db, app.b.id, &["admin"]).await;
    let page = app.get(&admin, "/api/v1/usage?group_by=user_id").await.ok(200)["end_users"].clone();
    assert_eq!((page["sort"].clone(), page["total"].clone()), (json!("memories"), json!(2)), "{page}");
    let cy = &page["end_users"][0];
    assert_eq!(
        (cy["end_user"].clone(), cy["memories"].clone(), cy["requests"].clone(), cy["recalls"].clone()),
        (json!("cy"), json!(3), json!(5), json!(2)),
        "two recalls, a list, a store and a batch: {page}"
    );
    assert_eq!(
        (page["end_users"][1]["end_user"].clone(), page["end_users"][1]["requests"].clone()),
        (json!("dee"), json!(1))
    );

    // By requests: Zed, who holds nothing, is there too.
    let page = app.get(&admin, "/api/v1/usage?group_by=user_id&sort=requests").await.ok(200)["end_users"].clone();
    let rows: Vec<(String, i64, i64)> = page["end_users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["end_user"].as_str().unwrap().to_owned(),
                r["requests"].as_i64().unwrap(),
                r["memories"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, [("cy".into(), 5, 3), ("dee".into(), 1, 1), ("zed".into(), 1, 0)], "{page}");
    assert_eq!(page["total"], 3);
    let second = app.get(&admin, "/api/v1/usage?group_by=user_id&sort=requests&limit=1&offset=1").await.ok(200).clone();
    assert_eq!(second["end_users"]["end_users"][0]["end_user"], "dee");
    assert_eq!(second["end_users"]["has_more"], true);

    // The agent the recalls named.
    let agents = app.get(&admin, "/api/v1/usage?group_by=agent_id&sort=requests").await.ok(200)["end_users"].clone();
    assert_eq!(
        (agents["end_users"][0]["end_user"].clone(), agents["end_users"][0]["recalls"].clone()),
        (json!("desk"), json!(3))
    );
    // A window before any of it counts none.
    let old = app
        .get(&admin, "/api/v1/usage?group_by=user_id&sort=requests&from=2020-01-01&to=2020-01-31")
        .await
        .ok(200)
        .clone();
    assert_eq!(old["end_users"]["total"], 0);
    app.get(&admin, "/api/v1/usage?group_by=user_id&sort=newest").await.assert_error(400, "sort");
    // A NUL in a filter's end user is refused, never counted.
    app.post(key, "/api/v1/recall", &json!({"query": "invoice", "user_id": "a\u{0}b"}))
        .await
        .assert_error(400, "user_id");

    // Counts past retention are pruned; this year's stay.
    sqlx::query(
        "INSERT INTO usage_daily_end_users (tenant_id, day, kind, end_user, counter, value)
         VALUES ($1, '2020-01-01', 'user_id', 'old', 'requests', 3)",
    )
    .bind(app.b.id)
    .execute(app.db.owner())
    .await
    .unwrap();
    let before = chrono::Utc::now().date_naive() - chrono::Duration::days(cairn::service::usage::END_USER_DAYS_KEPT);
    assert_eq!(cairn::store::usage::prune_end_users(app.db.owner(), before, 10).await.unwrap(), 1);
    let page = app.get(&admin, "/api/v1/usage?group_by=user_id&sort=requests").await.ok(200)["end_users"].clone();
    assert_eq!(page["total"], 3, "{page}");
}
