//! Citus: the tenant tables hash-distributed by `tenant_id` in one colocation group, the small shared tables
//! as reference tables, everything else (keys, admins, sessions, the audit log, the job queue) on the
//! coordinator. Run by `cairn migrate` after the migrations, on a database with the `citus` extension only;
//! on plain Postgres it does nothing.
//!
//! Each step is one statement of its own and is skipped when already done, so a run that failed midway
//! (a worker unreachable, say) is finished by running it again.

use sqlx::{PgConnection, PgPool};

use super::TENANT_TABLES;

/// The tables distributed by tenant: the tenant tables, except the rolled-up usage totals (a reference
/// table: one small row per tenant, joined with the tenants by the operators' listings).
pub fn distributed_tables() -> Vec<&'static str> {
    TENANT_TABLES.iter().copied().filter(|t| !REFERENCE_TABLES.contains(t)).collect()
}

/// The first distributed table: the others are colocated with it.
pub const ANCHOR: &str = "memories";

/// The history, whose ids come from a sequence on every node.
const HISTORY: &str = "memory_events";

/// Small tables that every node reads (tenant standing and plans are joined with tenant data), copied to
/// every node, in this order (a reference table's foreign keys must point at reference tables).
pub const REFERENCE_TABLES: &[&str] = &["plans", "tenants", "tenant_usage"];

/// Whether the database runs Citus.
pub async fn is_citus(pool: &PgPool) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')").fetch_one(pool).await
}

/// How a table stands in Citus' metadata: `None` when it is a plain table of the coordinator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub table: String,
    /// `h` hash-distributed, `n` reference or coordinator-local (see `replicated`).
    pub method: Option<String>,
    pub column: Option<String>,
    pub colocation: Option<i32>,
    /// A reference table (one copy on every node).
    pub reference: bool,
}

/// How each named table stands.
pub async fn placements(pool: &PgPool, tables: &[&str]) -> Result<Vec<Placement>, sqlx::Error> {
    // (table, method, column, colocation, replication model)
    type Row = (String, Option<String>, Option<String>, Option<i32>, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT t.name, p.partmethod::text,
                CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END,
                p.colocationid, p.repmodel::text
           FROM unnest($1::text[]) WITH ORDINALITY AS t(name, n)
           LEFT JOIN pg_dist_partition p ON p.logicalrelid = to_regclass(t.name)
          ORDER BY t.n",
    )
    .bind(tables)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(table, method, column, colocation, repmodel)| Placement {
            reference: method.as_deref() == Some("n") && repmodel.as_deref() == Some("t"),
            table,
            method,
            column,
            colocation,
        })
        .collect())
}

/// What is wrong with the distribution, one line per table (empty when every tenant table is hash-distributed
/// by `tenant_id` with [`ANCHOR`], and every reference table is one).
pub async fn check(pool: &PgPool) -> Result<Vec<String>, sqlx::Error> {
    let tables = distributed_tables();
    let placed = placements(pool, &tables).await?;
    let anchor = placed.iter().find(|p| p.table == ANCHOR).and_then(|p| p.colocation);
    let mut problems = Vec::new();
    for p in &placed {
        if p.method.as_deref() != Some("h") {
            problems.push(format!("{}: not distributed", p.table));
        } else if p.column.as_deref() != Some("tenant_id") {
            problems.push(format!("{}: distributed by {:?}, not tenant_id", p.table, p.column));
        } else if p.colocation != anchor {
            problems.push(format!("{}: not colocated with {ANCHOR}", p.table));
        }
    }
    for p in placements(pool, REFERENCE_TABLES).await? {
        if !p.reference {
            problems.push(format!("{}: not a reference table", p.table));
        }
    }
    Ok(problems)
}

/// The tenant tables in an order where each comes after the tenant tables its foreign keys point at.
async fn dependency_order(conn: &mut PgConnection) -> Result<Vec<String>, sqlx::Error> {
    let tables = distributed_tables();
    let edges: Vec<(String, String)> = sqlx::query_as(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
          WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY($1) AND c.confrelid::regclass::text = ANY($1)
            AND c.conrelid <> c.confrelid",
    )
    .bind(&tables)
    .fetch_all(&mut *conn)
    .await?;
    let mut order: Vec<String> = vec![ANCHOR.to_owned()];
    let mut left: Vec<&str> = tables.iter().copied().filter(|t| *t != ANCHOR).collect();
    while !left.is_empty() {
        let ready = left
            .iter()
            .position(|t| edges.iter().filter(|(from, _)| from == t).all(|(_, to)| order.contains(to)))
            // A cycle (none today): the rest in the listed order, and Citus says which key it refuses.
            .unwrap_or(0);
        order.push(left.remove(ready).to_owned());
    }
    Ok(order)
}

/// Distributes what is not yet distributed; returns one line per step taken (empty when nothing was left).
/// Needs the owner of the tables, on the coordinator. One process at a time (instances starting together
/// wait for each other; the later ones then find nothing left to do).
pub async fn distribute(pool: &PgPool) -> Result<Vec<String>, sqlx::Error> {
    // A connection of its own, closed at the end: the session lock goes with it, whatever happened.
    let mut conn = pool.acquire().await?.detach();
    sqlx::query("SELECT pg_advisory_lock(hashtextextended('cairn_distribute', 0))").execute(&mut conn).await?;
    let done = distribute_locked(pool, &mut conn).await;
    let _ = sqlx::Connection::close(conn).await;
    done
}

/// The restrictive policies of scoped keys (migration 0037, named `<table>_key_scope`) cannot go to Citus: their tests use
/// subqueries, which Citus refuses in a distributed table's policies, and Citus writes a restrictive policy to
/// the shards as a permissive one, which would open every shard to whatever the policy allows (found with a
/// sublink-free `NOT cairn_scoped()`: every tenant's rows on a shard were readable). So on Citus they are
/// dropped, and the store refuses scoped keys' transactions there ([`super::SCOPED_ON_CITUS`]).
/// The functions of scoped keys' policies (migration 0037) and of the authorship scope's columns (0039).
const SCOPE_FUNCTIONS: &[&str] =
    &["cairn_scoped()", "cairn_scope_list(text)", "cairn_actor_scope()", "cairn_visible_scope(jsonb)"];

async fn distribute_locked(pool: &PgPool, conn: &mut PgConnection) -> Result<Vec<String>, sqlx::Error> {
    let mut done = Vec::new();
    let policies: Vec<(String, String)> = sqlx::query_as(
        "SELECT tablename::text, policyname::text FROM pg_policies
          WHERE schemaname = current_schema() AND policyname LIKE '%\\_key\\_scope' ORDER BY 1",
    )
    .fetch_all(&mut *conn)
    .await?;
    for (table, policy) in policies {
        sqlx::query(&format!("DROP POLICY \"{policy}\" ON \"{table}\"")).execute(&mut *conn).await?;
        done.push(format!("{table}: scoped keys' policy dropped (scoped keys are refused on Citus)"));
    }
    // The scope functions (the column defaults and reads call them), on every node before any table leaves the
    // coordinator (making the reference tables turns the tables keyed to them into Citus tables, policies and
    // all). They read settings only, no table.
    for function in SCOPE_FUNCTIONS {
        let placed: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM pg_dist_object WHERE classid = 'pg_proc'::regclass
                              AND objid = $1::regprocedure)",
        )
        .bind(function)
        .fetch_one(&mut *conn)
        .await?;
        if !placed {
            sqlx::query("SELECT create_distributed_function($1::regprocedure)")
                .bind(function)
                .execute(&mut *conn)
                .await?;
            done.push(format!("{function}: on every node"));
        }
    }
    for p in placements(pool, REFERENCE_TABLES).await? {
        if !p.reference {
            // Their triggers announce changes to the instances' caches (`cairn_auth`): they fire on every
            // node's copy, and only the coordinator's is heard.
            let mut tx = sqlx::Connection::begin(&mut *conn).await?;
            sqlx::query("SET LOCAL citus.enable_unsafe_triggers = on").execute(&mut *tx).await?;
            sqlx::query("SELECT create_reference_table($1::regclass)").bind(&p.table).execute(&mut *tx).await?;
            tx.commit().await?;
            done.push(format!("{}: reference table", p.table));
        }
    }
    // Cairn's functions, on every node: the shards' triggers and the statements routed to the workers call them
    // (a trigger function follows its table there by itself; the functions it calls do not). Those of the job
    // queue stay on the coordinator with its tables (`apalis.jobs` exists nowhere else).
    let functions: Vec<String> = sqlx::query_scalar(
        "SELECT p.oid::regprocedure::text FROM pg_proc p
          WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p')
            AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                                                        AND d.deptype = 'e')
            AND NOT EXISTS (SELECT 1 FROM pg_dist_object o WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)
            AND p.prosrc NOT LIKE '%apalis.%' AND p.proname NOT IN ('cairn_enqueue', 'cairn_drain_embed_outbox')
          ORDER BY 1",
    )
    .fetch_all(&mut *conn)
    .await?;
    // A SQL function's body is checked where it is created, against the functions it calls: those go first.
    // The order is found by trying (a pass creates what it can, until one creates nothing).
    let mut left: Vec<&String> = functions.iter().collect();
    while !left.is_empty() {
        let mut failed = Vec::new();
        let mut last_error = None;
        for function in left.iter().copied() {
            let created = sqlx::query("SELECT create_distributed_function($1::regprocedure)")
                .bind(function)
                .execute(&mut *conn)
                .await;
            if let Err(err) = created {
                failed.push(function);
                last_error = Some(err);
            }
        }
        if failed.len() == left.len() {
            return Err(last_error.expect("a failure"));
        }
        left = failed;
    }
    if !functions.is_empty() {
        done.push(format!("{} functions created on every node", functions.len()));
    }
    // The keys between tenant tables not all distributed yet are set aside first (one transaction: each is
    // recorded as it is dropped) and restored once every table is distributed.
    let pending: Vec<String> = placements(pool, &distributed_tables())
        .await?
        .into_iter()
        .filter(|p| p.method.as_deref() != Some("h"))
        .map(|p| p.table)
        .collect();
    if !pending.is_empty() {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        let keys: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT c.conrelid::regclass::text, c.conname::text, pg_get_constraintdef(c.oid) FROM pg_constraint c
              WHERE c.contype = 'f' AND c.conrelid::regclass::text = ANY($1) AND c.confrelid::regclass::text = ANY($1)
                AND (c.conrelid::regclass::text = ANY($2) OR c.confrelid::regclass::text = ANY($2))",
        )
        .bind(distributed_tables())
        .bind(&pending)
        .fetch_all(&mut *tx)
        .await?;
        for (table, name, definition) in &keys {
            sqlx::query("INSERT INTO distribution_deferred_keys VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(table)
                .bind(name)
                .bind(definition)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&format!("ALTER TABLE {} DROP CONSTRAINT {}", quote_ident(table), quote_ident(name)))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        if !keys.is_empty() {
            done.push(format!("{} foreign keys between tenant tables set aside while distributing", keys.len()));
        }
    }
    for table in dependency_order(conn).await? {
        let placed = placements(pool, &[table.as_str()]).await?.pop();
        if placed.is_some_and(|p| p.method.as_deref() == Some("h")) {
            continue;
        }
        // The triggers of the tenant tables only touch their own tenant's colocated rows (migration 30), which
        // is what this setting asks of them; it is read when the table is distributed.
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        sqlx::query("SET LOCAL citus.enable_unsafe_triggers = on").execute(&mut *tx).await?;
        if table == HISTORY {
            // History ids are drawn by a trigger on the node that writes the row (migration 30): Citus creates
            // the sequence on every node, each with a range of its own, for a distributed table whose default
            // uses it. The default is there only while the table is distributed (dropped below).
            sqlx::query("ALTER TABLE memory_events ALTER COLUMN id SET DEFAULT nextval('memory_events_id_seq')")
                .execute(&mut *tx)
                .await?;
        }
        if table == ANCHOR {
            sqlx::query("SELECT create_distributed_table($1::regclass, 'tenant_id')")
                .bind(&table)
                .execute(&mut *tx)
                .await?;
        } else {
            sqlx::query("SELECT create_distributed_table($1::regclass, 'tenant_id', colocate_with => $2)")
                .bind(&table)
                .bind(ANCHOR)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        done.push(format!("{table}: distributed by tenant_id, colocated with {ANCHOR}"));
    }
    let defaulted: bool = sqlx::query_scalar(
        "SELECT column_default IS NOT NULL FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 AND column_name = 'id'",
    )
    .bind(HISTORY)
    .fetch_one(&mut *conn)
    .await?;
    if defaulted {
        sqlx::query("ALTER TABLE memory_events ALTER COLUMN id DROP DEFAULT").execute(&mut *conn).await?;
    }
    // Every key set aside, back (each restored and forgotten in one transaction).
    let deferred: Vec<(String, String, String)> =
        sqlx::query_as("SELECT table_name, constraint_name, definition FROM distribution_deferred_keys ORDER BY 1, 2")
            .fetch_all(&mut *conn)
            .await?;
    for (table, name, definition) in &deferred {
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        sqlx::query(&format!("ALTER TABLE {} ADD CONSTRAINT {} {definition}", quote_ident(table), quote_ident(name)))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM distribution_deferred_keys WHERE table_name = $1 AND constraint_name = $2")
            .bind(table)
            .bind(name)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    if !deferred.is_empty() {
        done.push(format!("{} foreign keys between tenant tables restored", deferred.len()));
    }
    Ok(done)
}

/// An identifier quoted for SQL (names from the catalog, written into DDL).
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Where a tenant's rows are: the worker (`host:port`) holding its shard of the anchor table, and the shard.
pub async fn tenant_placement(pool: &PgPool, tenant: uuid::Uuid) -> Result<(String, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT nodename || ':' || nodeport, shardid FROM citus_shards
          WHERE table_name = $1::regclass AND shardid = get_shard_id_for_distribution_column($1, $2::text)",
    )
    .bind(ANCHOR)
    .bind(tenant.to_string())
    .fetch_one(pool)
    .await
}

/// Gives `tenant` a shard of its own in every distributed table (`isolate_tenant_to_new_shard`, CASCADE)
/// and, with `to` (`host:port` of a worker), moves that shard group there; returns what it did, step by step
/// (nothing when the tenant is already alone, and there).
///
/// Row-level security is not forced on the distributed tables while it runs, and is forced again whatever
/// happens (the tenant login stays bound by the policies throughout; only the owner is exempt meanwhile):
/// - Citus copies a shard with a SELECT run as the caller, which under FORCE and without a tenant set sees no
///   rows: a split or move by the owner copied nothing and dropped the source (measured: 220 of 369 memories
///   gone);
/// - the move's subscription on the target runs as a role of Citus' that is a member of the owner but no
///   superuser, and Postgres refuses to replicate into a table whose policies bind it ("cannot replicate into
///   relation with row-level security enabled"): the move never caught up.
///
/// The split blocks the tenant's writes while it copies (`block_writes`: a split by logical replication under
/// concurrent updates stalls, its apply worker failing on "publisher did not send replica identity column",
/// citusdata/citus#6790); the move is by logical replication (writes continue until the final switch).
pub async fn move_tenant(pool: &PgPool, tenant: uuid::Uuid, to: Option<&str>) -> Result<Vec<String>, sqlx::Error> {
    let target = match to {
        None => None,
        Some(to) => {
            let (host, port) = to
                .rsplit_once(':')
                .and_then(|(h, p)| Some((h.to_owned(), p.parse::<i32>().ok()?)))
                .ok_or_else(|| sqlx::Error::Protocol(format!("a worker is host:port, not {to:?}")))?;
            Some((to.to_owned(), host, port))
        }
    };
    let tables = distributed_tables();
    set_force(pool, &tables, false).await?;
    let outcome = isolate_and_move(pool, tenant, target).await;
    let restored = set_force(pool, &tables, true).await;
    let steps = outcome?;
    restored?;
    Ok(steps)
}

async fn isolate_and_move(
    pool: &PgPool,
    tenant: uuid::Uuid,
    target: Option<(String, String, i32)>,
) -> Result<Vec<String>, sqlx::Error> {
    let mut steps = Vec::new();
    let (_, before) = tenant_placement(pool, tenant).await?;
    let alone: bool = sqlx::query_scalar("SELECT shardminvalue = shardmaxvalue FROM pg_dist_shard WHERE shardid = $1")
        .bind(before)
        .fetch_one(pool)
        .await?;
    if !alone {
        let shard: i64 = sqlx::query_scalar(
            "SELECT isolate_tenant_to_new_shard($1, $2::text, 'CASCADE', shard_transfer_mode => 'block_writes')",
        )
        .bind(ANCHOR)
        .bind(tenant.to_string())
        .fetch_one(pool)
        .await?;
        steps.push(format!("isolated tenant {tenant} to shard {shard}"));
    }
    let Some((to, to_host, to_port)) = target else { return Ok(steps) };
    let (from, shard) = tenant_placement(pool, tenant).await?;
    if from == to {
        return Ok(steps);
    }
    let (from_host, from_port) = from.rsplit_once(':').expect("citus_shards names host:port");
    sqlx::query("SELECT citus_move_shard_placement($1, $2, $3, $4, $5, shard_transfer_mode => 'force_logical')")
        .bind(shard)
        .bind(from_host)
        .bind(from_port.parse::<i32>().unwrap_or(5432))
        .bind(&to_host)
        .bind(to_port)
        .execute(pool)
        .await?;
    steps.push(format!("moved shard {shard} of tenant {tenant} from {from} to {to}"));
    Ok(steps)
}

/// Turns FORCE ROW LEVEL SECURITY on or off for `tables` (Citus applies it to every shard).
async fn set_force(pool: &PgPool, tables: &[&str], on: bool) -> Result<(), sqlx::Error> {
    let what = if on { "FORCE" } else { "NO FORCE" };
    for table in tables {
        sqlx::query(&format!("ALTER TABLE {table} {what} ROW LEVEL SECURITY")).execute(pool).await?;
    }
    Ok(())
}
