//! Export and import of a tenant's data as JSON Lines: every memory (with its history, vectors optional),
//! association, entity, alias and mention — complete enough to restore into another tenant or deployment.
//!
//! The stream starts with a header line `{"type":"cairn_export","version":1,...}`; each further line is
//! `{"type":"<table>","data":{...}}` with `<table>` one of `entities`, `entity_aliases`, `memories`,
//! `memory_events`, `relations`, `memory_entities` (in that order, so an import satisfies every reference as it
//! goes). Export reads one snapshot. Import takes lines in batches, each batch all or nothing, idempotent by
//! id (and by content: a memory whose content the tenant holds is skipped), and reports per batch.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use uuid::Uuid;

mod rows;

use super::{usage, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::store::transfer::{self, Inserted, TABLES};

/// The export format's version.
pub const VERSION: u64 = 1;
/// Lines per import batch (and rows per export fetch).
pub const BATCH_LINES: usize = 500;
/// Longest accepted line, in bytes (a memory with its vector and full metadata is far smaller).
pub const MAX_LINE_BYTES: usize = 2 * 1024 * 1024;
/// Bytes after which a batch is written even before it has [`BATCH_LINES`] lines.
pub const MAX_BATCH_BYTES: usize = 8 * 1024 * 1024;
/// Imports running at once on one instance, and per tenant (each holds a connection while it writes a batch).
pub const MAX_IMPORTS: usize = 4;
pub const MAX_IMPORTS_PER_TENANT: usize = 1;
/// Exports running at once on one instance, and per tenant (each holds a connection and a snapshot throughout).
pub const MAX_EXPORTS: usize = 4;
pub const MAX_EXPORTS_PER_TENANT: usize = 1;

/// Turns to run one kind of transfer: at most `per_tenant` per tenant and `global` on the instance, so one
/// tenant holding its transfers open never keeps another tenant's from starting.
#[derive(Debug)]
pub struct Slots {
    kind: &'static str,
    global: Arc<Semaphore>,
    per_tenant: usize,
    held: Arc<Mutex<HashMap<Uuid, usize>>>,
}

/// A turn taken; given back when dropped (the transfer ended, failed or its client left).
#[derive(Debug)]
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    tenant: Uuid,
    held: Arc<Mutex<HashMap<Uuid, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut held) = self.held.lock() {
            if let Some(n) = held.get_mut(&self.tenant) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    held.remove(&self.tenant);
                }
            }
        }
    }
}

impl Slots {
    pub fn new(kind: &'static str, global: usize, per_tenant: usize) -> Self {
        Self { kind, global: Arc::new(Semaphore::new(global)), per_tenant, held: Arc::default() }
    }

    /// A turn for `tenant`: 429 when the tenant already runs as many as it may, 503 when the instance does.
    pub fn take(&self, tenant: Uuid) -> Result<Slot> {
        let mut held = self.held.lock().map_err(|_| Error::internal("transfer slots poisoned"))?;
        let running = held.get(&tenant).copied().unwrap_or(0);
        if running >= self.per_tenant {
            return Err(Error::RateLimited {
                message: format!(
                    "this tenant already runs {running} {kind}; at most {max} at once: retry when it ends",
                    kind = self.kind,
                    max = self.per_tenant
                ),
                retry_after_secs: 5,
            });
        }
        let permit = self.global.clone().try_acquire_owned().map_err(|_| {
            Error::Unavailable(format!("too many {}s in progress on this instance; retry shortly", self.kind))
        })?;
        *held.entry(tenant).or_default() += 1;
        Ok(Slot { _permit: permit, tenant, held: self.held.clone() })
    }
}

/// The instance's import and export turns, and each tenant's import pace.
pub struct Transfers {
    pub imports: Slots,
    pub exports: Slots,
    /// KiB of import each tenant may have read per second (`CAIRN_IMPORT_KIB_PER_SEC`), a second's worth at once.
    import_kib: governor::DefaultKeyedRateLimiter<Uuid>,
    import_burst: u32,
}

impl Transfers {
    pub fn new(import_kib_per_sec: u32) -> Self {
        let rate = std::num::NonZeroU32::new(import_kib_per_sec.max(1)).unwrap_or(std::num::NonZeroU32::MIN);
        Self {
            imports: Slots::new("import", MAX_IMPORTS, MAX_IMPORTS_PER_TENANT),
            exports: Slots::new("export", MAX_EXPORTS, MAX_EXPORTS_PER_TENANT),
            import_kib: governor::RateLimiter::keyed(governor::Quota::per_second(rate)),
            import_burst: rate.get(),
        }
    }

    /// Waits until the tenant may have `bytes` more of an import read: its imports go no faster than the pace.
    pub async fn pace_import(&self, tenant: Uuid, bytes: usize) {
        let mut kib = u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        while kib > 0 {
            let n = kib.min(self.import_burst);
            if let Some(n) = std::num::NonZeroU32::new(n) {
                let _ = self.import_kib.until_key_n_ready(&tenant, n).await;
            }
            kib -= n;
        }
    }

    /// Drops the pace of tenants not importing for a while.
    pub fn prune(&self) {
        self.import_kib.retain_recent();
        self.import_kib.shrink_to_fit();
    }
}

/// A turn to import for the tenant, or why not (see [`Slots::take`]).
pub fn import_slot(svc: &Services, t: &Tenant) -> Result<Slot> {
    t.require(Scope::Write)?;
    svc.transfers.imports.take(t.id)
}

/// A turn to export for the tenant, or why not (see [`Slots::take`]); the export is audited as it starts.
pub async fn export_slot(svc: &Services, t: &Tenant, opts: ExportOptions) -> Result<Slot> {
    t.require(Scope::Read)?;
    let slot = svc.transfers.exports.take(t.id)?;
    let details = json!({"vectors": opts.vectors, "history": opts.history});
    super::audit::record(svc, &t.actor(), Some(t.id), "data.export", None, details).await;
    Ok(slot)
}

/// Audits a finished (or broken-off) import: what it wrote, and why it stopped when it did.
pub async fn imported(svc: &Services, t: &Tenant, report: &ImportReport, stopped: Option<&str>) {
    let details = json!({"lines": report.lines, "batches": report.batches, "failed_batches": report.failed_batches,
        "inserted": report.inserted, "stopped": stopped});
    super::audit::record(svc, &t.actor(), Some(t.id), "data.import", None, details.clone()).await;
    // And an `import.finished` event for the webhooks that want one (a failure to record it is logged: the
    // import itself is done).
    let event = async {
        let mut tx = svc.db.begin_tenant(t).await?;
        let mut data = details;
        data["actor"] = json!(t.actor());
        data["status"] = json!(if stopped.is_some() { "stopped" } else { "finished" });
        crate::store::webhooks::emit(&mut tx, "import.finished", None, &data).await?;
        tx.commit().await
    };
    if let Err(err) = event.await {
        tracing::warn!(tenant_id = %t.id, error = %err, "could not record the import.finished webhook event");
    }
}

/// How slow and how long a transfer may be: `min_bytes_per_sec` over every `window` spent waiting on the
/// client, and `deadline` in all.
#[derive(Debug, Clone, Copy)]
pub struct PaceLimits {
    pub min_bytes_per_sec: u64,
    pub window: Duration,
    pub deadline: Duration,
}

impl PaceLimits {
    pub fn of(svc: &Services) -> Self {
        Self {
            min_bytes_per_sec: svc.config.transfer_min_bytes_per_sec,
            window: Duration::from_secs(svc.config.transfer_window_secs.max(1)),
            deadline: Duration::from_secs(svc.config.transfer_deadline_secs.max(1)),
        }
    }
}

/// A transfer's pace so far: ends a stalled stream (a client trickling bytes to hold its turn) and one that
/// runs past its deadline. Only time spent waiting on the client counts, never the service's own writes.
#[derive(Debug)]
pub struct Pace {
    limits: PaceLimits,
    started: Instant,
    waited: Duration,
    bytes: u64,
}

impl Pace {
    pub fn new(limits: PaceLimits) -> Self {
        Self { limits, started: Instant::now(), waited: Duration::ZERO, bytes: 0 }
    }

    /// How long the next wait on the client may last: the rest of the window, never past the deadline.
    pub fn next_wait(&self) -> Duration {
        let window_left = self.limits.window.saturating_sub(self.waited);
        let deadline_left = self.limits.deadline.saturating_sub(self.started.elapsed());
        window_left.min(deadline_left).max(Duration::from_millis(1))
    }

    /// Records `bytes` moved after waiting `waited` on the client; the reason when the transfer is too slow
    /// (below the minimum over a full window) or past its deadline.
    pub fn record(&mut self, bytes: u64, waited: Duration) -> std::result::Result<(), String> {
        if self.started.elapsed() >= self.limits.deadline {
            return Err(format!("the transfer ran past its deadline of {} s", self.limits.deadline.as_secs()));
        }
        self.waited += waited;
        self.bytes += bytes;
        if self.waited >= self.limits.window {
            let needed = self.limits.min_bytes_per_sec.saturating_mul(self.limits.window.as_secs().max(1));
            if self.bytes < needed {
                return Err(format!(
                    "the client moved {} bytes in {} s of waiting, below the minimum of {} bytes/s",
                    self.bytes,
                    self.waited.as_secs(),
                    self.limits.min_bytes_per_sec
                ));
            }
            self.waited = Duration::ZERO;
            self.bytes = 0;
        }
        Ok(())
    }
}

/// Lines per import batch for a tenant: 500, or its plan's `max_batch` when smaller.
pub fn batch_lines(t: &Tenant) -> usize {
    t.limits.max_batch.map_or(BATCH_LINES, |m| (m as usize).clamp(1, BATCH_LINES))
}

/// What an export includes besides the rows every restore needs.
#[derive(Debug, Clone, Copy)]
pub struct ExportOptions {
    /// The memories' vectors (large; without them an import re-embeds).
    pub vectors: bool,
    /// The memories' history (`memory_events`).
    pub history: bool,
}

/// Streams the tenant's export into `lines`, one JSON line per item (each ending in `\n`). Stops early when
/// the receiver is gone (the client left) or reads too slowly. Returns whether the export is complete and how
/// many memories it holds: an export that stopped early must not look finished to its client.
pub async fn export(
    svc: &Services,
    t: &Tenant,
    opts: ExportOptions,
    lines: mpsc::Sender<String>,
    _slot: Slot,
) -> Result<Exported> {
    t.require(Scope::Read)?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    transfer::bound_idle(&mut tx).await?;
    let header = json!({"type": "cairn_export", "version": VERSION, "tenant_id": t.id, "exported_at": Utc::now(),
        "vectors": opts.vectors, "history": opts.history, "tables": TABLES});
    // A client that stops reading, or reads too slowly, ends the export (and frees its connection and turn).
    let mut pace = Pace::new(PaceLimits::of(svc));
    if !send(&lines, &mut pace, format!("{header}\n"), t).await {
        return Ok(Exported { complete: false, memories: 0 });
    }
    let mut memories = 0;
    for table in TABLES {
        if *table == "memory_events" && !opts.history {
            continue;
        }
        let drop: &[&str] = match (*table, opts.vectors) {
            // A memory's runs of sentences are embedded again where it is imported, as its context vector is.
            ("memories", false) => &["embedding", "context_embedding", "sentence_embeddings", "context", "context_tsv"],
            ("memories", true) => &["sentence_embeddings", "context", "context_tsv"],
            _ => &[],
        };
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
            if !send(&lines, &mut pace, chunk, t).await {
                return Ok(Exported { complete: false, memories });
            }
        }
    }
    tx.commit().await?;
    Ok(Exported { complete: true, memories })
}

/// How an export went: whether every line was handed over, and how many memories it held.
#[derive(Debug, Clone, Copy)]
pub struct Exported {
    pub complete: bool,
    pub memories: u64,
}

/// Largest piece of an export handed to the client's stream at once: the pace is measured piece by piece, so
/// a client reading at the minimum rate always takes a piece within one window.
const EXPORT_PIECE_BYTES: usize = 16 * 1024;

/// Hands `text` to the client's stream in pieces, within its pace; false when the client left or is too slow
/// (the export then ends without its last line: see [`export`]).
async fn send(lines: &mpsc::Sender<String>, pace: &mut Pace, text: String, t: &Tenant) -> bool {
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let mut cut = rest.len().min(EXPORT_PIECE_BYTES);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, after) = rest.split_at(cut);
        rest = after;
        let started = Instant::now();
        if !matches!(tokio::time::timeout(pace.next_wait(), lines.send(piece.to_owned())).await, Ok(Ok(()))) {
            tracing::info!(tenant_id = %t.id, "export abandoned: the client stopped reading");
            return false;
        }
        if let Err(reason) = pace.record(piece.len() as u64, started.elapsed()) {
            tracing::info!(tenant_id = %t.id, reason, "export ended: the client reads too slowly");
            return false;
        }
    }
    true
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
    // A tenant suspended or deleted meanwhile stops receiving rows (its standing is cached and announced).
    svc.keys.access(t.id).await?.require_active()?;
    report.lines += lines.len() as u64;
    if lines.iter().all(|l| l.trim().is_empty()) {
        return Ok(());
    }
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
    // Parsing and checking up to 8 MiB of lines is CPU work: off the request's executor thread.
    let (svc2, t2, lines) = (svc.clone(), t.clone(), lines.to_vec());
    let by_table = super::offload(move || {
        let mut by_table: BTreeMap<usize, Vec<rows::ParsedRow>> = BTreeMap::new();
        for (i, line) in lines.iter().enumerate() {
            let number = first_line + i as u64;
            if line.trim().is_empty() {
                continue;
            }
            let Some((table, data)) = parse_line(number, line)? else { continue };
            let row = rows::parse(&svc2, &t2, number, table, data)?;
            let order = TABLES.iter().position(|t| *t == table).unwrap_or(0);
            by_table.entry(order).or_default().push(row);
        }
        Ok(by_table)
    })
    .await?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let mut done = Vec::new();
    let mut to_embed: Vec<Uuid> = Vec::new();
    let mut new_memories: Vec<Uuid> = Vec::new();
    for (order, parsed) in by_table {
        let table = TABLES[order];
        let keep_vector: std::collections::HashSet<Uuid> = parsed
            .iter()
            .filter(|r| r.keeps_vector)
            .filter_map(|r| r.row.get("id").and_then(Value::as_str).and_then(|s| Uuid::parse_str(s).ok()))
            .collect();
        let rows: Vec<Value> = parsed.into_iter().map(|r| Value::Object(r.row)).collect();
        let (counts, inserted_ids) = transfer::insert(&mut tx, t.id, table, rows).await?;
        if table == "memories" {
            new_memories.extend(inserted_ids.iter().copied());
        }
        to_embed.extend(inserted_ids.into_iter().filter(|id| !keep_vector.contains(id)));
        done.push((table, counts));
    }
    for chunk in to_embed.chunks(100) {
        crate::queue::embed::enqueue(&mut tx, chunk).await?;
    }
    // Every batch is checked against the storage quota: history, trash, associations and entities count too.
    let stored = done.iter().find(|(t, _)| *t == "memories").map_or(0, |(_, c)| c.inserted);
    let grew = done.iter().any(|(_, c)| c.inserted > 0);
    usage::check_storage(&mut tx, &t.limits, grew).await?;
    usage::check_end_users(&mut tx, &t.limits, &new_memories).await?;
    tx.commit().await?;
    svc.usage.add(t.id, usage::counter::STORED, stored as i64);
    Ok(done)
}
