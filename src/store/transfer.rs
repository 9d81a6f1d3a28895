//! SQL for export and import: every row a tenant owns, as JSON, and back.
//!
//! Rows travel as `to_jsonb(row)` without `tenant_id` and generated columns, so every column any migration
//! adds travels too. Export reads each table through a cursor in one read-only snapshot; import inserts with
//! `jsonb_populate_recordset` into the insertable columns, `ON CONFLICT DO NOTHING` (idempotent by key and by
//! content hash), in the caller's tenant transaction (row-level security applies as to any write).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;
use uuid::Uuid;

use super::Local;
use super::TenantTx;
use crate::error::Error;

/// The tables of an export, in an order that satisfies their foreign keys on import.
pub const TABLES: &[&str] =
    &["entities", "entity_aliases", "memories", "memory_events", "relations", "memory_entities"];

/// Each table's key order for a stable export.
fn order_of(table: &str) -> &'static str {
    match table {
        "entity_aliases" => "entity_id, alias",
        "memory_entities" => "memory_id, entity_id",
        _ => "id",
    }
}

fn known(table: &str) -> Result<&'static str, Error> {
    TABLES
        .iter()
        .find(|t| **t == table)
        .copied()
        .ok_or_else(|| Error::internal(format!("not an export table: {table}")))
}

/// Opens a cursor over a table's rows (of the transaction's tenant) as JSON, in key order. `drop` names
/// columns left out (e.g. `embedding`).
pub async fn open(tx: &mut TenantTx, table: &str, drop: &[&str]) -> Result<(), Error> {
    let table = known(table)?;
    let generated = generated_columns(tx, table).await?;
    let mut minus = String::from(" - 'tenant_id'");
    for column in generated.iter().map(String::as_str).chain(drop.iter().copied()) {
        minus.push_str(&format!(" - '{}'", column.replace('\'', "")));
    }
    // Authorship scopes, which a scoped key does not see (migration 0039).
    if tx.is_scoped() {
        minus.push_str(" - 'created_by_scope' - 'actor_scope'");
    }
    // The tenant is named, not left to row-level security alone, so that Citus runs the cursor on the
    // tenant's shard (a cursor takes no bind parameter: the value written is a parsed UUID).
    let sql = format!(
        "DECLARE cairn_export_{table} NO SCROLL CURSOR FOR SELECT to_jsonb(t){minus} FROM {table} t
          WHERE t.tenant_id = '{}' ORDER BY {}",
        tx.tenant_id().hyphenated(),
        order_of(table)
    );
    sqlx::query(&sql).execute(tx.conn()).await?;
    Ok(())
}

/// Ends the export's transaction if its client stalls between fetches (a safety net beside the send timeout).
pub async fn bound_idle(tx: &mut TenantTx) -> Result<(), Error> {
    super::set_local(tx.conn(), &[("idle_in_transaction_session_timeout", Local::Number(120_000))]).await?;
    Ok(())
}

/// The next `n` rows of a table's cursor (none when it is exhausted; it is then closed).
pub async fn fetch(tx: &mut TenantTx, table: &str, n: i64) -> Result<Vec<Value>, Error> {
    let table = known(table)?;
    let rows: Vec<Value> =
        sqlx::query_scalar(&format!("FETCH {n} FROM cairn_export_{table}")).fetch_all(tx.conn()).await?;
    if rows.is_empty() {
        sqlx::query(&format!("CLOSE cairn_export_{table}")).execute(tx.conn()).await?;
    }
    Ok(rows)
}

/// A table's columns: (name, generated).
type Columns = Vec<(String, bool)>;

/// A table's columns, cached per process (the schema only changes by migration).
async fn columns(tx: &mut TenantTx, table: &'static str) -> Result<Columns, Error> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Columns>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(table).cloned()) {
        return Ok(found);
    }
    // Generated: computed columns, and the ids the database draws (an identity, or `memory_events.id` from
    // its sequence since migration 29): an import never writes them, so imported rows cannot collide with the
    // ids the tenant's later writes draw.
    let found: Vec<(String, bool)> = sqlx::query_as(
        "SELECT column_name::text, is_generated = 'ALWAYS' OR coalesce(identity_generation = 'ALWAYS', false)
                OR (table_name = 'memory_events' AND column_name = 'id')
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind(table)
    .fetch_all(tx.conn())
    .await?;
    if let Ok(mut c) = cache.lock() {
        c.insert(table, found.clone());
    }
    Ok(found)
}

async fn generated_columns(tx: &mut TenantTx, table: &'static str) -> Result<Vec<String>, Error> {
    let all = columns(tx, table).await?;
    // `memory_events.id` is exported (it orders the history) though never imported. Only computed columns are
    // dropped.
    Ok(all.into_iter().filter(|(name, generated)| *generated && name != "id").map(|(name, _)| name).collect())
}

/// What an import of one table's rows did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inserted {
    pub inserted: u64,
    pub skipped: u64,
}

/// Inserts `rows` (JSON objects of `table`'s columns) for the transaction's tenant; rows whose key or unique
/// content exists, and rows whose parents are missing, are skipped. Insert triggers keep an exported base of
/// decay (`base_importance`, `base_strength`). Returns the ids of the memories inserted (to embed them when they carry no
/// vector) with the counts.
pub async fn insert(
    tx: &mut TenantTx,
    tenant_id: Uuid,
    table: &str,
    rows: Vec<Value>,
) -> Result<(Inserted, Vec<Uuid>), Error> {
    let table = known(table)?;
    if rows.is_empty() {
        return Ok((Inserted::default(), Vec::new()));
    }
    let total = rows.len() as u64;
    if table == "memories" {
        tx.note_memory_writes();
        // The episodes these memories join, before any row (store::memories::lock_episodes).
        let episodes: Vec<String> =
            rows.iter().filter_map(|r| r.get("episode_id").and_then(Value::as_str).map(str::to_owned)).collect();
        super::memories::lock_episodes_and(tx, &[], &episodes).await?;
    }
    let rows: Vec<Value> = rows
        .into_iter()
        .map(|mut row| {
            if let Some(object) = row.as_object_mut() {
                object.insert("tenant_id".into(), Value::String(tenant_id.to_string()));
            }
            row
        })
        .collect();
    let all = columns(tx, table).await?;
    // History gets new ids (one sequence for every tenant), in file order; an event already present (same memory,
    // type and time) is not repeated.
    // Only the columns the rows carry: the others take their defaults (a hand-written import may leave out
    // `type`, `created_at`...).
    let present: std::collections::HashSet<&str> =
        rows.iter().filter_map(Value::as_object).flat_map(|o| o.keys().map(String::as_str)).collect();
    let insertable: Vec<&str> = all
        .iter()
        .filter(|(name, generated)| !generated && present.contains(name.as_str()))
        .map(|(n, _)| n.as_str())
        .collect();
    let list = insertable.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
    let picked = insertable.iter().map(|c| format!("r.\"{c}\"")).collect::<Vec<_>>().join(", ");
    // Rows in file order (history ids follow it); a row whose parent is missing (skipped as a duplicate
    // under another id, or never exported) is skipped, not an error. Every parent check names the tenant
    // ($2): row-level security would confine it anyway, but a distributed table (Citus) routes a statement to
    // one shard only when its filter names the tenant.
    let source = format!("jsonb_populate_recordset(NULL::{table}, $1) WITH ORDINALITY AS r");
    let parents = match table {
        "memory_events" => {
            "EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.memory_id)
             AND NOT EXISTS (SELECT 1 FROM memory_events e WHERE e.tenant_id = $2 AND e.memory_id = r.memory_id
                             AND e.event_type = r.event_type AND e.created_at = r.created_at)"
        }
        "relations" => {
            "EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.source_id)
             AND EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.target_id)"
        }
        "memory_entities" => {
            "EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.memory_id)
             AND EXISTS (SELECT 1 FROM entities x WHERE x.tenant_id = $2 AND x.id = r.entity_id)"
        }
        "entity_aliases" => "EXISTS (SELECT 1 FROM entities x WHERE x.tenant_id = $2 AND x.id = r.entity_id)",
        _ => "$2::uuid IS NOT NULL",
    };
    let conflict = if table == "memory_events" { "" } else { " ON CONFLICT DO NOTHING" };
    // (RETURNING for Citus too: an INSERT ... SELECT it cannot run on the shard as it is writes by COPY without
    // one, which row-level security refuses.)
    let returning = match table {
        "memories" => " RETURNING id",
        "memory_events" => " RETURNING memory_id",
        _ => "",
    };
    let sql = format!(
        "INSERT INTO {table} ({list}) SELECT {picked} FROM {source} WHERE {parents} ORDER BY r.ordinality{conflict}{returning}"
    );
    let payload = Value::Array(rows);
    let (inserted, ids) = if table == "memories" {
        let ids: Vec<Uuid> = sqlx::query_scalar(&sql).bind(&payload).bind(tenant_id).fetch_all(tx.conn()).await?;
        (ids.len() as u64, ids)
    } else {
        (sqlx::query(&sql).bind(&payload).bind(tenant_id).execute(tx.conn()).await?.rows_affected(), Vec::new())
    };
    Ok((Inserted { inserted, skipped: total - inserted.min(total) }, ids))
}
