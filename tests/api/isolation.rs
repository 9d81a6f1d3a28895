//! Tenant isolation: tenant B tries every route against tenant A's data; RLS holds underneath.

use cairn::config::AppArgs;
use cairn::server::Application;
use cairn::store::Db;
use serde_json::json;
use sqlx::{Connection, Executor};

use crate::helpers::{app_role_tx, create_database, db_args, drop_database, new_key, spawn, superuser_url};

#[tokio::test]
async fn tenant_b_cannot_reach_tenant_a_on_any_route() {
    let app = spawn().await;
    let a = app.store(&app.a.key, json!({"content": "A's secret plan", "tags": ["shared-tag"]})).await;
    let id = a["id"].as_str().unwrap();
    let path = format!("/api/v1/memories/{id}");
    let b = &app.b.key;

    app.get(b, &path).await.assert_error(404, "not found");
    app.patch(b, &path, &json!({"content": "B was here"})).await.assert_error(404, "not found");
    app.put(b, &path, &json!({"importance": 0})).await.assert_error(404, "not found");
    app.delete(b, &path).await.assert_error(404, "not found");
    app.get(b, &format!("{path}/history")).await.assert_error(404, "not found");
    let listed = app.get(b, "/api/v1/memories?include_archived=true").await.ok(200).clone();
    assert_eq!((listed["total"].clone(), listed["memories"].clone()), (json!(0), json!([])));
    let tagged = app.get(b, "/api/v1/memories/by-tag?tags=shared-tag").await.ok(200).clone();
    assert_eq!(tagged["total"], 0);
    assert_eq!(app.delete(b, "/api/v1/memories/by-tag?tags=shared-tag").await.ok(200)["deleted_count"], 0);

    // Dedup is per tenant: B may hold the same text.
    let b_copy = app.store(b, json!({"content": "A's secret plan", "tags": ["shared-tag"]})).await;
    assert_ne!(b_copy["id"], a["id"]);

    // Quality reports: A's runs and probe sets are not B's to see, run or delete, and a probe naming A's
    // memory finds nothing from B's side.
    let probes = json!({"probes": [{"query": "secret plan", "expected": [id]}], "k": 5, "mode": "keyword"});
    app.put(&app.a.key, "/api/v1/eval/probe-sets/a-set", &probes).await.ok(200);
    let run = app.post(&app.a.key, "/api/v1/eval", &json!({"probe_set": "a-set"})).await.ok(200).clone();
    assert_eq!(run["results"][0]["expected"][0]["rank"], 1, "A's own probe finds A's memory");
    app.get(b, &format!("/api/v1/eval/runs/{}", run["id"].as_str().unwrap())).await.assert_error(404, "id");
    assert_eq!(app.get(b, "/api/v1/eval/runs").await.ok(200)["total"], 0);
    assert_eq!(app.get(b, "/api/v1/eval/probe-sets").await.ok(200)["probe_sets"], json!([]));
    app.post(b, "/api/v1/eval", &json!({"probe_set": "a-set"})).await.assert_error(404, "probe_set");
    app.delete(b, "/api/v1/eval/probe-sets/a-set").await.assert_error(404, "name");
    let theirs = app.post(b, "/api/v1/eval", &probes).await.ok(200).clone();
    let expected_a = theirs["results"][0]["expected"][0].clone();
    assert!(expected_a["rank"].is_null(), "B's probe never ranks A's memory: {theirs}");
    assert_eq!(app.get(&app.a.key, "/api/v1/eval/runs").await.ok(200)["total"], 1, "B's run is B's");

    // A's memory is untouched by all of it.
    let after = app.get(&app.a.key, &path).await.ok(200).clone();
    assert_eq!(
        (after["content"].clone(), after["importance"].clone(), after["access_count"].clone()),
        (json!("A's secret plan"), json!(0.5), json!(1))
    );
    let history = app.get(&app.a.key, &format!("{path}/history")).await.ok(200).clone();
    assert_eq!(history["events"].as_array().unwrap().len(), 1);

    // Admin routes too: B's admin cannot revoke A's key.
    let b_admin = new_key(&app.db, app.b.id, &["admin"]).await;
    let a_keys: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT id FROM api_keys WHERE tenant_id = $1")
        .bind(app.a.id)
        .fetch_all(app.db.owner())
        .await
        .unwrap();
    app.delete(&b_admin, &format!("/api/v1/keys/{}", a_keys[0])).await.assert_error(404, "not found");
    let listed_keys = app.get(&b_admin, "/api/v1/keys").await.ok(200).clone();
    assert!(listed_keys["keys"].as_array().unwrap().iter().all(|k| k["tenant_id"] == app.b.id.to_string()));
    app.get(&app.a.key, "/api/v1/memories").await.ok(200);
}

#[tokio::test]
async fn the_server_role_sees_nothing_without_a_tenant() {
    let app = spawn().await;
    let a = app.store_text(&app.a.key, "alpha").await;
    let a2 = app.store_text(&app.a.key, "alpha two").await;
    let b = app.store_text(&app.b.key, "beta").await;
    // Rows in every tenant table, written as the owner.
    let mut conn = app.superuser_conn().await;
    sqlx::query("INSERT INTO relations (tenant_id, source_id, target_id, rel_type) VALUES ($1, $2::uuid, $3::uuid, 'RELATES_TO')")
        .bind(app.a.id)
        .bind(&a)
        .bind(&a2)
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(
        "WITH e AS (INSERT INTO entities (tenant_id, entity_type, name, normalized_name) VALUES ($1, 'tool', 'Postgres', 'postgres') RETURNING id)
         INSERT INTO memory_entities (tenant_id, memory_id, entity_id) SELECT $1, $2::uuid, id FROM e",
    )
    .bind(app.a.id)
    .bind(&a)
    .execute(&mut conn)
    .await
    .unwrap();
    // The start-up ownership check covers every table row-level security guards.
    let mut guarded: Vec<String> = sqlx::query_scalar(
        "SELECT relname::text FROM pg_class WHERE relrowsecurity AND relnamespace = current_schema()::regnamespace",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    guarded.sort();
    let mut listed: Vec<String> = cairn::store::TENANT_TABLES.iter().map(|t| t.to_string()).collect();
    listed.sort();
    assert_eq!(listed, guarded, "TENANT_TABLES must name every table under row-level security");
    for table in cairn::store::TENANT_TABLES {
        assert_eq!(app.count_as_app_role(table, None).await, 0, "{table} leaks without a tenant");
    }
    assert_eq!(app.count_as_app_role("memories", Some(app.a.id)).await, 2);
    assert_eq!(app.count_as_app_role("relations", Some(app.a.id)).await, 1);
    assert_eq!(app.count_as_app_role("relations", Some(app.b.id)).await, 0);
    assert_eq!(app.count_as_app_role("memory_entities", Some(app.b.id)).await, 0);
    assert_eq!(app.count_as_app_role("memory_events", Some(app.b.id)).await, 1);
    assert_ne!(a, b);

    // Writing another tenant's row is refused by the policy's WITH CHECK.
    let mut tx = app_role_tx(&mut conn, Some(app.a.id)).await;
    let err = sqlx::query("INSERT INTO memories (tenant_id, content, content_hash) VALUES ($1, 'x', 'x')")
        .bind(app.b.id)
        .execute(&mut *tx)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("row-level security"), "{err}");
}

#[tokio::test]
async fn the_server_refuses_to_start_when_its_role_owns_the_tables() {
    let (name, url) = create_database().await;
    let db = Db::connect_lazy(&db_args(&url).settings()).unwrap();
    db.migrate().await.unwrap();
    // A mistake only an administrator can make (the new owner needs CREATE on the schema).
    let mut conn = sqlx::PgConnection::connect(&cairn::config::with_database(&superuser_url(), &name)).await.unwrap();
    conn.execute("ALTER TABLE memories OWNER TO cairn_app").await.unwrap();
    let err = Application::build(&db_args(&url), AppArgs::default(), "127.0.0.1:0".parse().unwrap()).await.err();
    drop(conn);
    drop_database(&name);
    let err = err.expect("start-up must fail");
    assert!(format!("{err:#}").contains("refusing to start"), "{err:#}");
}

#[tokio::test]
async fn the_server_role_cannot_read_the_control_plane() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    for table in ["tenants", "api_keys", "admins"] {
        let mut tx = app_role_tx(&mut conn, None).await;
        let err = sqlx::query(&format!("SELECT count(*) FROM {table}")).execute(&mut *tx).await.unwrap_err();
        assert!(err.to_string().contains("permission denied"), "{table}: {err}");
    }
}

#[tokio::test]
async fn the_server_refuses_a_tenant_pool_that_logs_in_as_the_owner() {
    let (name, url) = create_database().await;
    let build = |args: cairn::config::DbArgs| async move {
        Application::build(&args, AppArgs::default(), "127.0.0.1:0".parse().unwrap())
            .await
            .err()
            .map(|e| format!("{e:#}"))
    };
    let unset = build(cairn::config::DbArgs { app_database_url: None, ..db_args(&url) }).await;
    let as_owner = build(cairn::config::DbArgs::new(&url, &url)).await;
    drop_database(&name);
    let unset = unset.expect("start-up must fail without CAIRN_APP_DATABASE_URL");
    assert!(unset.contains("refusing to start: CAIRN_APP_DATABASE_URL is not set"), "{unset}");
    let as_owner = as_owner.expect("start-up must fail when the tenant pool logs in as the owner");
    assert!(as_owner.contains("refusing to start") && as_owner.contains("reaches the owner of"), "{as_owner}");
}

/// The tenant pool may log in as an INHERIT member of cairn_app only (it then holds cairn_app's privileges
/// itself and never changes role, as Citus needs) or a NOINHERIT one (it becomes cairn_app); a login that
/// reaches further either way, or an INHERIT login outside cairn_app, is refused.
#[tokio::test]
async fn the_server_takes_a_login_of_cairn_app_only_inherit_or_not_and_refuses_one_that_reaches_further() {
    let (name, url) = create_database().await;
    let db = Db::connect_lazy(&db_args(&url).settings()).unwrap();
    db.migrate().await.unwrap();
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let role = |what: &str| format!("cairn_t_{what}_{suffix}");
    let (inherit, wider, wider_inherit, outside) = (role("inherit"), role("wider"), role("wideri"), role("outside"));
    let direct = role("direct");
    for sql in [
        format!("CREATE ROLE {inherit} LOGIN INHERIT"),
        format!("GRANT cairn_app TO {inherit}"),
        format!("CREATE ROLE {wider} LOGIN NOINHERIT"),
        format!("GRANT cairn_app, pg_read_all_data TO {wider}"),
        format!("CREATE ROLE {wider_inherit} LOGIN INHERIT"),
        format!("GRANT cairn_app, pg_read_all_data TO {wider_inherit}"),
        format!("CREATE ROLE {outside} LOGIN INHERIT"),
        format!("CREATE ROLE {direct} LOGIN INHERIT"),
        format!("GRANT cairn_app TO {direct}"),
        format!("GRANT SELECT ON memories TO {direct}"),
    ] {
        conn.execute(sql.as_str()).await.unwrap();
    }
    let as_login = |role: &str| {
        let (scheme, rest) = url.split_once("://").unwrap();
        let host = rest.split_once('@').map_or(rest, |(_, h)| h);
        cairn::config::DbArgs::new(&url, &format!("{scheme}://{role}@{host}"))
    };
    let build = |args: cairn::config::DbArgs| async move {
        Application::build(&args, AppArgs::default(), "127.0.0.1:0".parse().unwrap()).await
    };
    let refused = |args: cairn::config::DbArgs| async move { build(args).await.err().map(|e| format!("{e:#}")) };
    // The INHERIT login serves a tenant transaction as itself: no SET ROLE, cairn_app's privileges, RLS bound.
    let served = build(as_login(&inherit)).await.expect("an INHERIT member of cairn_app only is taken");
    let tenant = uuid::Uuid::new_v4();
    let mut tx = served.services().db.begin_tenant(tenant).await.unwrap();
    let (current, seen): (String, i64) = sqlx::query_as("SELECT current_user::text, (SELECT count(*) FROM memories)")
        .fetch_one(tx.conn())
        .await
        .unwrap();
    drop(tx);
    drop(served);
    let reaching = refused(as_login(&wider)).await;
    let reaching_inherit = refused(as_login(&wider_inherit)).await;
    let outsider = refused(as_login(&outside)).await;
    let granted = refused(as_login(&direct)).await;
    drop(db);
    conn.execute(format!("REVOKE ALL ON memories FROM {direct}").as_str()).await.unwrap();
    for role in [&inherit, &wider, &wider_inherit, &outside, &direct] {
        conn.execute(format!("DROP ROLE {role}").as_str()).await.unwrap();
    }
    drop(conn);
    drop_database(&name);
    assert_eq!((current.as_str(), seen), (inherit.as_str(), 0));
    let reaching = reaching.expect("a NOINHERIT login with another membership is refused");
    assert!(reaching.contains("also a member of pg_read_all_data"), "{reaching}");
    let reaching_inherit = reaching_inherit.expect("an INHERIT login with another membership is refused");
    assert!(reaching_inherit.contains("also a member of pg_read_all_data"), "{reaching_inherit}");
    let outsider = outsider.expect("an INHERIT login outside cairn_app is refused");
    assert!(outsider.contains("is not a member of cairn_app"), "{outsider}");
    let granted = granted.expect("an INHERIT login with privileges of its own is refused");
    assert!(granted.contains("holds grants on memories of its own"), "{granted}");
}

#[tokio::test]
async fn the_tenant_pools_login_cannot_leave_the_application_role() {
    let app = spawn().await;
    app.store_text(&app.a.key, "something to protect").await;
    let mut conn = sqlx::PgConnection::connect(&crate::helpers::app_url(&app.db_url)).await.unwrap();
    let (login, super_user): (String, bool) =
        sqlx::query_as("SELECT session_user::text, rolsuper FROM pg_roles WHERE rolname = session_user")
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert!(!super_user, "{login}");
    let err = conn.execute("SET ROLE postgres").await.unwrap_err();
    assert!(err.to_string().contains("permission denied"), "{err}");
    if crate::helpers::citus_nodes().is_some() {
        // On Citus the login is INHERIT (the coordinator reaches the workers as it): it reads with cairn_app's
        // grants as itself, and row-level security binds it the same.
        let seen: i64 = sqlx::query_scalar("SELECT count(*) FROM memories").fetch_one(&mut conn).await.unwrap();
        assert_eq!(seen, 0, "row-level security binds it: no tenant, no rows");
        return;
    }
    // Without SET ROLE it holds no privilege of its own (NOINHERIT); it can become nothing but cairn_app.
    let err = conn.execute("SELECT count(*) FROM memories").await.unwrap_err();
    assert!(err.to_string().contains("permission denied"), "{err}");
    conn.execute("SET ROLE cairn_app").await.unwrap();
    let seen: i64 = sqlx::query_scalar("SELECT count(*) FROM memories").fetch_one(&mut conn).await.unwrap();
    assert_eq!(seen, 0, "row-level security binds it: no tenant, no rows");
}

/// Every tenant table can be distributed by `tenant_id` (Citus, issue 26): its primary key (where it has one)
/// and every foreign key include `tenant_id`, and it has no identity column (refused on distributed tables).
#[tokio::test]
async fn every_tenant_table_is_keyed_for_distribution_by_tenant() {
    let app = spawn().await;
    let mut conn = app.superuser_conn().await;
    let tables: Vec<String> = cairn::store::TENANT_TABLES.iter().map(|t| t.to_string()).collect();
    let identity: Vec<(String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text FROM information_schema.columns
          WHERE table_schema = current_schema() AND is_identity = 'YES' AND table_name = ANY($1)",
    )
    .bind(&tables)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert!(identity.is_empty(), "identity columns on tenant tables: {identity:?}");
    // Each primary key and foreign key of a tenant table, with whether its columns include tenant_id.
    let keys: Vec<(String, String, String, bool)> = sqlx::query_as(
        "SELECT c.conrelid::regclass::text, c.conname::text, c.contype::text,
                EXISTS (SELECT 1 FROM pg_attribute a
                         WHERE a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey) AND a.attname = 'tenant_id')
           FROM pg_constraint c
          WHERE c.contype IN ('p', 'f') AND c.conrelid::regclass::text = ANY($1)",
    )
    .bind(&tables)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    // (`memory_counts` and `tenant_usage_delta` have none: they hold deltas, many rows per key; a distributed
    // table needs no key.)
    assert!(keys.iter().filter(|(_, _, kind, _)| kind == "p").count() >= tables.len() - 2, "{keys:?}");
    let without: Vec<_> = keys.iter().filter(|(_, _, _, has)| !has).collect();
    assert!(without.is_empty(), "keys of tenant tables without tenant_id: {without:?}");
    // The history's ids still rise with each change (a memory's history is read in id order).
    let first = app.store_text(&app.a.key, "first").await;
    app.store_text(&app.a.key, "second").await;
    app.delete(&app.a.key, &format!("/api/v1/memories/{first}")).await.ok(200);
    let mut tx = app_role_tx(&mut conn, Some(app.a.id)).await;
    let events: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM memory_events ORDER BY created_at, id").fetch_all(&mut *tx).await.unwrap();
    assert!(events.len() >= 3 && events.windows(2).all(|w| w[0] < w[1]), "{events:?}");
}
