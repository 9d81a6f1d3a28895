//! `/api/v1/export` and `/api/v1/import`: the tenant's data as JSON Lines, streamed both ways.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::auth::Writer;
use crate::api::error::{ApiError, ApiResult};
use crate::api::extract::ApiQuery;
use crate::api::AppState;
use crate::auth::Tenant;
use crate::error::Error;
use crate::service::transfer::{self, ExportOptions, ImportReport, MAX_BATCH_BYTES, MAX_LINE_BYTES};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(export)).routes(routes!(import))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Include the memories' vectors (default false: an import then re-embeds).
    pub vectors: Option<bool>,
    /// Include each memory's history (default true).
    pub history: Option<bool>,
}

/// A JSON Lines stream: one JSON object per line (an export's `header`, then `memory`, `relation`...). Documented
/// as binary so SDK generators hand it over as bytes/a file rather than parse it as one JSON value.
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)]
struct JsonLines(String);

/// Export the tenant's memories (with history, vectors optional), associations, entities, aliases and
/// mentions as JSON Lines, from one snapshot. The first line is a header
/// (`{"type":"cairn_export","version":1,...}`); each other line is `{"type":"<table>","data":{...}}`. A line
/// `{"type":"error",...}` at the end means the export broke off (an import refuses it).
#[utoipa::path(get, path = "/api/v1/export", operation_id = "transfer.export", tag = "transfer", params(ExportQuery),
    responses(
        (status = 200, description = "JSON Lines", content_type = "application/x-ndjson", body = JsonLines),
        (status = 429, description = "The tenant already runs an export", body = crate::api::error::ErrorBody),
        (status = 503, description = "Too many exports on this instance", body = crate::api::error::ErrorBody)
    ))]
async fn export(State(services): State<AppState>, tenant: Tenant, ApiQuery(q): ApiQuery<ExportQuery>) -> Response {
    let opts = ExportOptions { vectors: q.vectors.unwrap_or(false), history: q.history.unwrap_or(true) };
    // The turn is taken before the stream starts, so a refusal is a status (429 or 503), not a broken stream.
    let slot = match transfer::export_slot(&services, &tenant, opts).await {
        Ok(slot) => slot,
        Err(err) => return ApiError::from(err).into_response(),
    };
    let (sender, receiver) = tokio::sync::mpsc::channel::<String>(4);
    let failed = sender.clone();
    let tenant_id = tenant.id;
    // Set only when every line was handed over: an export that stopped early (a slow reader, an error) ends the
    // response with an error instead of its last chunk, so no client takes a cut-off file for a whole one.
    let complete = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = complete.clone();
    tokio::spawn(async move {
        match transfer::export(&services, &tenant, opts, sender, slot).await {
            Ok(done) => finished.store(done.complete, std::sync::atomic::Ordering::Release),
            Err(err) => {
                tracing::warn!(%tenant_id, error = ?err, "export broke off");
                let line = serde_json::json!({"type": "error", "message": err.to_string()});
                let _ = failed.send(format!("{line}\n")).await;
            }
        }
    });
    let stream = futures_util::stream::unfold((receiver, complete, false), |(mut rx, complete, ended)| async move {
        if ended {
            return None;
        }
        match rx.recv().await {
            Some(chunk) => Some((Ok(Bytes::from(chunk)), (rx, complete, false))),
            None if complete.load(std::sync::atomic::Ordering::Acquire) => None,
            None => Some((Err(std::io::Error::other("the export ended early")), (rx, complete, true))),
        }
    });
    let filename = format!("attachment; filename=\"cairn-{tenant_id}.jsonl\"");
    (
        [(header::CONTENT_TYPE, "application/x-ndjson".to_owned()), (header::CONTENT_DISPOSITION, filename)],
        Body::from_stream(stream),
    )
        .into_response()
}

/// What an import did.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"lines": 1203, "batches": 3, "failed_batches": 0, "inserted": {"memories": 1000,
    "memory_events": 180, "relations": 22}, "skipped": {"memories": 0}, "errors": []}))]
pub struct ImportResult {
    /// Lines read (the header included).
    pub lines: u64,
    /// Batches of up to 500 lines, each written all or nothing.
    pub batches: u64,
    pub failed_batches: u64,
    /// Rows written per table.
    pub inserted: std::collections::BTreeMap<String, u64>,
    /// Rows already present (same id, or a memory with the same content) per table.
    pub skipped: std::collections::BTreeMap<String, u64>,
    /// Each failed batch: its first and last line and why nothing of it was written.
    #[schema(value_type = Vec<Object>)]
    pub errors: Vec<serde_json::Value>,
}

impl From<ImportReport> for ImportResult {
    fn from(r: ImportReport) -> Self {
        Self {
            lines: r.lines,
            batches: r.batches,
            failed_batches: r.failed_batches,
            inserted: r.inserted,
            skipped: r.skipped,
            errors: r.errors.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect(),
        }
    }
}

/// Import JSON Lines as `GET /api/v1/export` writes them (write scope), read as a stream in batches of 500
/// lines (or the plan's `max_batch`, or 8 MiB). Each batch is written all or nothing; rows already present (by id, or a memory by content) are
/// skipped, so an import can be repeated. Memories without vectors are embedded again.
#[utoipa::path(post, path = "/api/v1/import", operation_id = "transfer.import", tag = "transfer",
    request_body(content = JsonLines, content_type = "application/x-ndjson", description = "An export"),
    responses(
        (status = 200, description = "The report (check `failed_batches`)", body = ImportResult),
        (status = 408, description = "The body arrived too slowly (below CAIRN_TRANSFER_MIN_BYTES_PER_SEC) or past CAIRN_TRANSFER_DEADLINE_SECS", body = crate::api::error::ErrorBody),
        (status = 413, description = "Over CAIRN_MAX_IMPORT_BYTES, or a line over 2 MiB", body = crate::api::error::ErrorBody),
        (status = 415, description = "Not JSON Lines", body = crate::api::error::ErrorBody),
        (status = 429, description = "The tenant already runs an import", body = crate::api::error::ErrorBody),
        (status = 503, description = "Too many imports on this instance", body = crate::api::error::ErrorBody)
    ))]
async fn import(
    State(services): State<AppState>,
    Writer(tenant): Writer,
    request: Request,
) -> ApiResult<Json<ImportResult>> {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let mime = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if !matches!(
        mime.as_str(),
        "application/x-ndjson" | "application/jsonl" | "application/json-lines" | "application/json"
    ) {
        return Err(ApiError::UnsupportedMediaType("Content-Type: must be application/x-ndjson".into()));
    }
    let _slot = transfer::import_slot(&services, &tenant)?;
    let mut report = ImportReport::default();
    let outcome = read_batches(&services, &tenant, request, &mut report).await;
    let stopped = outcome.as_ref().err().map(|e| e.body().message);
    transfer::imported(&services, &tenant, &report, stopped.as_deref()).await;
    match outcome {
        Ok(()) if report.lines == 0 => Err(Error::invalid("body: no lines to import").into()),
        Ok(()) => Ok(Json(report.into())),
        // Batches before the failure are written: the error says how far the import got.
        Err(err) if report.batches > report.failed_batches => Err(err.after(&report)),
        Err(err) => Err(err),
    }
}

/// Reads the body line by line into batches (of the tenant's batch size, or fewer lines past
/// [`MAX_BATCH_BYTES`]) and imports each.
async fn read_batches(
    services: &AppState,
    tenant: &Tenant,
    request: Request,
    report: &mut ImportReport,
) -> Result<(), ApiError> {
    let max = services.config.max_import_bytes;
    let per_batch = transfer::batch_lines(tenant);
    let mut body = request.into_body().into_data_stream();
    // A client trickling its body to hold the tenant's turn, or past the deadline, is ended (408).
    let mut pace = transfer::Pace::new(transfer::PaceLimits::of(services));
    let (mut pending, mut batch, mut batch_bytes): (Vec<u8>, Vec<String>, usize) = Default::default();
    let (mut read, mut first_line, mut line_no, mut scanned) = (0_u64, 1_u64, 0_u64, 0_usize);
    loop {
        let started = std::time::Instant::now();
        let chunk =
            tokio::time::timeout(pace.next_wait(), body.next()).await.unwrap_or_else(|_| Some(Ok(Bytes::new())));
        let size = chunk.as_ref().and_then(|c| c.as_ref().ok()).map_or(0, |b| b.len() as u64);
        pace.record(size, started.elapsed()).map_err(|reason| ApiError::RequestTimeout(format!("body: {reason}")))?;
        let ended = chunk.is_none();
        if let Some(chunk) = chunk {
            let bytes = chunk.map_err(|e| Error::invalid(format!("body: could not be read: {e}")))?;
            // The tenant's import pace: a faster client waits (its bytes stay in the socket meanwhile).
            services.transfers.pace_import(tenant.id, bytes.len()).await;
            read += bytes.len() as u64;
            if read > max {
                return Err(ApiError::PayloadTooLarge(format!("body: an import is at most {max} bytes")));
            }
            pending.extend_from_slice(&bytes);
        }
        loop {
            let end = match pending[scanned..].iter().position(|b| *b == b'\n') {
                Some(i) => scanned + i + 1,
                None if ended && !pending.is_empty() => pending.len(),
                None => break,
            };
            let line: Vec<u8> = pending.drain(..end).collect();
            scanned = 0;
            line_no += 1;
            let text = String::from_utf8(line).map_err(|_| Error::invalid(format!("line {line_no}: not UTF-8")))?;
            batch_bytes += text.len();
            batch.push(text.trim_end_matches(['\n', '\r']).to_owned());
            if batch.len() >= per_batch || batch_bytes >= MAX_BATCH_BYTES {
                transfer::import_batch(services, tenant, first_line, &batch, report).await?;
                first_line = line_no + 1;
                batch.clear();
                batch_bytes = 0;
            }
        }
        // What is left holds no newline: the next chunk's scan starts after it.
        scanned = pending.len();
        if pending.len() > MAX_LINE_BYTES {
            return Err(ApiError::PayloadTooLarge(format!("line {}: longer than {MAX_LINE_BYTES} bytes", line_no + 1)));
        }
        if ended {
            break;
        }
    }
    transfer::import_batch(services, tenant, first_line, &batch, report).await?;
    Ok(())
}
