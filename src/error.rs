//! The one error type of the HTTP surface and its envelope `{"status":"error","code":N,"message":"..."}`.
//!
//! Every failure a handler can meet becomes an [`ApiError`]; internal causes are logged with their context
//! and never reach the client, which only ever sees a stable status code and a message naming the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// An error an API call can end with. Each variant maps to exactly one HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is malformed or a field is invalid; the message names the field.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no key, or a wrong, revoked or expired one.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: the key is valid but lacks the scope the route needs.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such route or resource (in this tenant).
    #[error("{0}")]
    NotFound(String),
    /// 405: the route exists, the method does not.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: the write conflicts with existing data, e.g. a duplicate memory.
    #[error("{message}")]
    Conflict { message: String, existing_id: Option<Uuid> },
    /// 413: the body is over the configured limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: the body is not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 503: a dependency (the database) is unreachable; retrying later may succeed.
    #[error("{0}")]
    Unavailable(String),
    /// 500: a bug or an unexpected failure; the cause is logged, never returned.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
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

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }

    /// The same error with the field it names in another surface's words: `names` maps a native field
    /// (`memory1_id`) to the caller's (`source_id`). Only 400 and 404 messages name fields.
    pub fn with_field_names(self, names: &[(&str, &str)]) -> Self {
        let rename = |message: String| {
            names.iter().fold(message, |m, (native, ours)| match m.strip_prefix(&format!("{native}:")) {
                Some(rest) => format!("{ours}:{rest}"),
                None => m,
            })
        };
        match self {
            Self::BadRequest(m) => Self::BadRequest(rename(m)),
            Self::NotFound(m) => Self::NotFound(rename(m)),
            other => other,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict { .. } => StatusCode::CONFLICT,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The envelope for this error.
    pub fn body(&self) -> ErrorBody {
        let existing_id = match self {
            Self::Conflict { existing_id, .. } => *existing_id,
            _ => None,
        };
        ErrorBody { status: "error", code: self.status().as_u16(), message: self.to_string(), existing_id }
    }
}

/// A status and message as one envelope response (also used for errors raised outside handlers).
pub fn envelope(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ErrorBody { status: "error", code: status.as_u16(), message: message.into(), existing_id: None };
    (status, axum::Json(body)).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            Self::Internal(cause) => tracing::error!(error = ?cause, "internal error"),
            Self::Unavailable(message) => tracing::warn!(%message, "dependency unavailable"),
            _ => {}
        }
        (self.status(), axum::Json(self.body())).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        if is_unavailable(&err) {
            return Self::Unavailable("database unavailable, retry later".into());
        }
        if let sqlx::Error::Database(db) = &err {
            if matches!(db.code().as_deref(), Some("40P01" | "40001")) {
                return Self::Unavailable("the write conflicted with a concurrent one; retry".into());
            }
        }
        if let Some(rejected) = rejected_input(&err) {
            return rejected;
        }
        Self::Internal(anyhow::Error::new(err).context("database query failed"))
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> Self {
        match err.downcast::<sqlx::Error>() {
            Ok(db) => db.into(),
            Err(other) => Self::Internal(other),
        }
    }
}

/// Whether a database error means "the database is unreachable" (503) rather than a bug (500).
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) | sqlx::Error::Tls(_))
        || matches!(err, sqlx::Error::Database(db) if db.code().is_some_and(|c| c.starts_with("57P") || c.starts_with("08")))
}

/// Safety net for input that validation should already have caught: Postgres refusing a value is the
/// caller's 4xx, never a 500. Logged, since reaching here means a validation gap.
fn rejected_input(err: &sqlx::Error) -> Option<ApiError> {
    let sqlx::Error::Database(db) = err else { return None };
    let code = db.code()?;
    let rejected = match code.as_ref() {
        "23505" if db.constraint() == Some("memories_tenant_content_hash_key") => ApiError::Conflict {
            message: "content: a memory with the same content already exists".into(),
            existing_id: None,
        },
        // Unique violations elsewhere, checks, NUL or unencodable characters, out-of-range values.
        "23505" | "23514" | "23502" | "22021" | "22P05" | "22003" | "22008" | "22007" | "22P02" | "54000" => {
            let what = db.constraint().map_or_else(|| db.message().to_owned(), |c| format!("violates {c}"));
            ApiError::BadRequest(format!("body: value rejected by the database ({what})"))
        }
        _ => return None,
    };
    tracing::warn!(code = %code, error = %db.message(), "database rejected input that passed validation");
    Some(rejected)
}
