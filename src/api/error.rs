//! Errors over HTTP, in one place: every domain [`Error`] and every HTTP-only failure (a body that is not
//! JSON, too large, a wrong method) becomes a status and the envelope
//! `{"status":"error","code":N,"message":"..."}`. Internal causes are logged with their context and never
//! reach the client. (SHODH's routes rewrite the envelope into their own shape: `shodh::errors`.)

use axum::http::response::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::Error;

/// An error an HTTP call can end with.
#[derive(Debug)]
pub enum ApiError {
    /// A use case's error.
    Domain(Error),
    /// 413: the body is over the configured limit.
    PayloadTooLarge(String),
    /// 415: the body is not JSON.
    UnsupportedMediaType(String),
    /// 405: the route exists, the method does not.
    MethodNotAllowed(String),
    /// 408: the client sent its body too slowly (a stalled stream), or past the transfer's deadline.
    RequestTimeout(String),
}

impl From<Error> for ApiError {
    fn from(err: Error) -> Self {
        Self::Domain(err)
    }
}

/// The error envelope returned by every route for every 4xx and 5xx.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "error", "code": 400, "message": "importance: must be between 0 and 1"}))]
pub struct ErrorBody {
    /// Always `"error"`.
    pub status: &'static str,
    /// The HTTP status code, repeated for clients that only see the body.
    pub code: u16,
    /// What went wrong, naming the offending field where there is one.
    pub message: String,
    /// On a 409 for duplicate content: the id of the memory that already holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub existing_id: Option<Uuid>,
}

/// The status of a domain error.
pub fn status_of(err: &Error) -> StatusCode {
    match err {
        Error::Invalid(_) => StatusCode::BAD_REQUEST,
        Error::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
        Error::Forbidden(_) => StatusCode::FORBIDDEN,
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Conflict { .. } => StatusCode::CONFLICT,
        Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The envelope of a domain error (the MCP tools answer it as their error text). Logs what is the
/// operator's business: internal causes and unavailable dependencies.
pub fn body_of(err: &Error) -> ErrorBody {
    match err {
        Error::Internal(cause) => tracing::error!(error = ?cause, "internal error"),
        Error::Unavailable(message) => tracing::warn!(%message, "dependency unavailable"),
        _ => {}
    }
    let existing_id = match err {
        Error::Conflict { existing_id, .. } => *existing_id,
        _ => None,
    };
    ErrorBody { status: "error", code: status_of(err).as_u16(), message: err.to_string(), existing_id }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Domain(err) => status_of(err),
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
        }
    }

    /// The envelope for this error.
    pub fn body(&self) -> ErrorBody {
        match self {
            Self::Domain(err) => body_of(err),
            Self::PayloadTooLarge(m)
            | Self::UnsupportedMediaType(m)
            | Self::MethodNotAllowed(m)
            | Self::RequestTimeout(m) => {
                ErrorBody { status: "error", code: self.status().as_u16(), message: m.clone(), existing_id: None }
            }
        }
    }

    /// The same error, saying how far an import got before it (its earlier batches are written).
    pub fn after(self, report: &crate::service::transfer::ImportReport) -> Self {
        let done = format!(
            " (the import stopped after {} lines in {} batches; {} of them were written: inserted {:?})",
            report.lines,
            report.batches,
            report.batches - report.failed_batches,
            report.inserted
        );
        match self {
            Self::Domain(Error::Invalid(m)) => Self::Domain(Error::Invalid(m + &done)),
            Self::Domain(Error::Unavailable(m)) => Self::Domain(Error::Unavailable(m + &done)),
            Self::PayloadTooLarge(m) => Self::PayloadTooLarge(m + &done),
            Self::RequestTimeout(m) => Self::RequestTimeout(m + &done),
            other => other,
        }
    }

    /// The same error with the fields it names in a surface's words (see [`Error::renamed`]).
    pub fn renamed(self, names: &[(&str, &str)]) -> Self {
        match self {
            Self::Domain(err) => Self::Domain(err.renamed(names)),
            other => other,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), axum::Json(self.body())).into_response();
        if let Self::Domain(Error::RateLimited { retry_after_secs, .. }) = self {
            response.headers_mut().insert(header::RETRY_AFTER, retry_after_secs.into());
        }
        response
    }
}

/// A status and message as one envelope response (also used for errors raised outside handlers).
pub fn envelope(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ErrorBody { status: "error", code: status.as_u16(), message: message.into(), existing_id: None };
    (status, axum::Json(body)).into_response()
}

/// Rewrites any error response that is not already JSON (axum's own rejections, timeouts) into the
/// envelope, keeping its status and, where there is one, its text.
pub async fn envelope_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let message = if text.is_empty() { status.canonical_reason().unwrap_or("error").to_lowercase() } else { text };
    keep_headers(&parts, envelope(status, message))
}

/// `rewritten` with the headers of the response it replaces (request id and the like), but its own
/// content type and length.
pub fn keep_headers(original: &Parts, mut rewritten: Response) -> Response {
    for (name, value) in original.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rewritten.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rewritten
}

/// The result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
