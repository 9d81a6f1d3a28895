//! Export and import of a tenant's data as JSON Lines: every memory (with its history, vectors optional),
//! association, entity, alias and mention — complete enough to restore into another tenant or deployment.
//!
//! The stream starts with a header line `{"type":"cairn_export","version":1,...}`; each further line is
//! `{"type":"<table>","data":{...}}` with `<table>` one of `entities`, `entity_aliases`, `memories`,
//! `memory_events`, `relations`, `memory_entities` (in that order, so an import satisfies every reference as it
//! goes). Export reads one snapshot. Import takes lines in batches, each batch all or nothing, idempotent by
//! id (and by content: a memory whose content the tenant holds is skipped), and reports per batch.

use std::collections::BTreeMap;

use chrono::Utc;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::{usage, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::store::transfer::{self, Inserted, TABLES};

/// The export format's version.
pub const VERSION: u64 = 1;
/// Lines per import batch (and rows per export fetch).
pub const BATCH_LINES: usize = 500;
/// Longest accepted line, in bytes.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// What an export includes besides the rows every restore needs.
#[derive(Debug, Clone, Copy)]
pub struct ExportOptions {
    /// The memories' vectors (large; without them an import re-embeds).
    pub vectors: bool,
    /// The memories' history (`memory_events`).
    pub history: bool,
}

/// Streams the tenant's export into `lines`, one JSON line per item (each ending in `\n`). Stops early when
/// the receiver is gone (the client left). Returns how many memories were exported.
pub async fn export(svc: &Services, t: &Tenant, opts: ExportOptions, lines: mpsc::Sender<String>) -> Result<u64> {
    t.require(Scope::Read)?;
    let mut tx = svc.db.begin_snapshot(t.id).await?;
    let header = json!({"type": "cairn_export", "version": VERSION, "tenant_id": t.id, "exported_at": Utc::now(),
        "vectors": opts.vectors, "history": opts.history, "tables": TABLES});
    if lines.send(format!("{header}\n")).await.is_err() {
        return Ok(0);
    }
    let mut memories = 0;
    for table in TABLES {
        if *table == "memory_events" && !opts.history {
            continue;
        }
        let drop: &[&str] = if *table == "memories" && !opts.vectors { &["embedding"] } else { &[] };
        transfer::open(&mut tx, table, drop).await?;
        loop {
            let rows = transfer::fetch(&mut tx, table, BATCH_LINES as i64).await?;
            if rows.is_empty() {
                break;
            }
            if *table == "memories" {
                memories += rows.len() as u64;
            }
            let mut chunk = String::new();
            for row in rows {
                chunk.push_str(&json!({"type": table, "data": row}).to_string());
                chunk.push('\n');
            }
            if lines.send(chunk).await.is_err() {
                return Ok(memories);
            }
        }
    }
    tx.commit().await?;
    Ok(memories)
}

/// What an import did: rows inserted and skipped (already present) per table, and each failed batch.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportReport {
    pub lines: u64,
    pub batches: u64,
    pub failed_batches: u64,
    pub inserted: BTreeMap<String, u64>,
    pub skipped: BTreeMap<String, u64>,
    /// Each failed batch: its lines (1-based, inclusive) and why nothing of it was written.
    pub errors: Vec<BatchError>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BatchError {
    pub first_line: u64,
    pub last_line: u64,
    pub message: String,
}

impl ImportReport {
    fn add(&mut self, table: &str, done: Inserted) {
        *self.inserted.entry(table.to_owned()).or_default() += done.inserted;
        *self.skipped.entry(table.to_owned()).or_default() += done.skipped;
    }
}

/// One parsed line: its table and row.
fn parse_line(number: u64, line: &str) -> Result<Option<(&'static str, Value)>> {
    let field = format!("line {number}");
    let value: Value = serde_json::from_str(line).map_err(|e| bad(&field, format!("invalid JSON: {e}")))?;
    let kind = value.get("type").and_then(Value::as_str).ok_or_else(|| bad(&field, "has no \"type\""))?;
    if kind == "cairn_export" {
        let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
        if version != VERSION {
            return Err(bad(&field, format!("export version {version} is not supported (expected {VERSION})")));
        }
        return Ok(None);
    }
    let table = TABLES.iter().find(|t| **t == kind).ok_or_else(|| {
        bad(&field, format!("unknown type {kind:?}; expected cairn_export or one of {}", TABLES.join(", ")))
    })?;
    let data = value
        .get("data")
        .filter(|d| d.is_object())
        .cloned()
        .ok_or_else(|| bad(&field, "\"data\" must be an object"))?;
    Ok(Some((table, data)))
}

/// Imports one batch of lines (`first_line` is the 1-based number of the first) in one transaction: all of
/// it or, on an error in the data, none of it (recorded in `report`). Errors of the service itself (the
/// database unreachable) end the import.
pub async fn import_batch(
    svc: &Services,
    t: &Tenant,
    first_line: u64,
    lines: &[String],
    report: &mut ImportReport,
) -> Result<()> {
    t.require(Scope::Write)?;
    if lines.is_empty() {
        return Ok(());
    }
    report.lines += lines.len() as u64;
    report.batches += 1;
    match import_lines(svc, t, first_line, lines).await {
        Ok(done) => {
            for (table, counts) in done {
                report.add(table, counts);
            }
            Ok(())
        }
        Err(err @ (Error::Invalid(_) | Error::Conflict { .. } | Error::NotFound(_) | Error::Forbidden(_))) => {
            report.failed_batches += 1;
            report.errors.push(BatchError {
                first_line,
                last_line: first_line + lines.len() as u64 - 1,
                message: err.to_string(),
            });
            Ok(())
        }
        Err(other) => Err(other),
    }
}

async fn import_lines(
    svc: &Services,
    t: &Tenant,
    first_line: u64,
    lines: &[String],
) -> Result<Vec<(&'static str, Inserted)>> {
    let mut by_table: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let number = first_line + i as u64;
        if line.trim().is_empty() {
            continue;
        }
        let Some((table, mut row)) = parse_line(number, line)? else { continue };
        if table == "memories" {
            if let Some(metadata) = row.get("metadata") {
                usage::check_metadata(t, metadata, &format!("line {number}: metadata"))?;
            }
            // The hash deduplicates by content: it is computed here, never taken on trust.
            let content = row
                .get("content")
                .and_then(Value::as_str)
                .ok_or_else(|| bad(&format!("line {number}"), "a memory needs \"content\""))?;
            let hash = crate::memory::content_hash(content);
            if let Some(object) = row.as_object_mut() {
                object.insert("content_hash".into(), Value::String(hash));
            }
            // Without its vector a memory is embedded again.
            if row.get("embedding").is_none_or(Value::is_null) {
                if let Some(object) = row.as_object_mut() {
                    object.insert("embedding_status".into(), json!("pending"));
                    object.insert("embedding_model".into(), Value::Null);
                    object.insert("embedding_error".into(), Value::Null);
                }
            }
        }
        let order = TABLES.iter().position(|t| *t == table).unwrap_or(0);
        by_table.entry(order).or_default().push(row);
    }
    let mut tx = svc.db.begin_tenant(t.id).await?;
    let mut done = Vec::new();
    let mut to_embed: Vec<Uuid> = Vec::new();
    for (order, rows) in by_table {
        let table = TABLES[order];
        let embed_later: Vec<Uuid> = if table == "memories" {
            rows.iter()
                .filter(|r| r.get("embedding").is_none_or(Value::is_null))
                .filter_map(|r| r.get("id").and_then(Value::as_str).and_then(|s| Uuid::parse_str(s).ok()))
                .collect()
        } else {
            Vec::new()
        };
        let (counts, inserted_ids) = transfer::insert(&mut tx, t.id, table, rows).await?;
        to_embed.extend(inserted_ids.into_iter().filter(|id| embed_later.contains(id)));
        done.push((table, counts));
    }
    for chunk in to_embed.chunks(100) {
        crate::jobs::embed::enqueue(&mut tx, chunk).await?;
    }
    let stored = done.iter().find(|(t, _)| *t == "memories").map_or(0, |(_, c)| c.inserted);
    usage::check_storage(&mut tx, &t.limits, stored > 0).await?;
    tx.commit().await?;
    svc.usage.add(t.id, usage::counter::STORED, stored as i64);
    Ok(done)
}
