//! The domain error: how a use case can fail, in words every surface can present. Nothing here knows
//! HTTP: `api::error` maps each kind to a status and the envelope (and SHODH's shape) in one place; the
//! MCP tools present the same envelope as a tool error; the CLI prints the message.
//!
//! Internal causes are kept for the logs and never shown to a client.

use uuid::Uuid;

/// What went wrong. Each kind has one meaning for every surface.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed or a field is invalid; the message names the field (`importance: ...`).
    #[error("{0}")]
    Invalid(String),
    /// No credentials, or wrong, revoked or expired ones.
    #[error("{0}")]
    Unauthenticated(String),
    /// The credentials are valid but lack the scope the call needs.
    #[error("{0}")]
    Forbidden(String),
    /// No such resource in this tenant.
    #[error("{0}")]
    NotFound(String),
    /// The write conflicts with existing data, e.g. a duplicate memory (`existing_id` names it).
    #[error("{message}")]
    Conflict { message: String, existing_id: Option<Uuid> },
    /// Too many requests, or a daily budget spent: retry after `retry_after_secs`. The message names the limit.
    #[error("{message}")]
    RateLimited { message: String, retry_after_secs: u64 },
    /// A dependency (the database, the model) cannot serve now; retrying later may succeed.
    #[error("{0}")]
    Unavailable(String),
    /// A bug or an unexpected failure; the cause is logged, never returned.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

/// The result of a use case.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }

    pub fn internal(message: impl std::fmt::Display) -> Self {
        Self::Internal(anyhow::anyhow!("{message}"))
    }

    /// The same error with the field it names in another surface's words: `names` maps a native field
    /// (`memory1_id`) to the caller's (`source_id`). Only invalid-input and not-found messages name fields.
    pub fn renamed(self, names: &[(&str, &str)]) -> Self {
        let rename = |message: String| {
            names.iter().fold(message, |m, (native, ours)| match m.strip_prefix(&format!("{native}:")) {
                Some(rest) => format!("{ours}:{rest}"),
                None => m,
            })
        };
        match self {
            Self::Invalid(m) => Self::Invalid(rename(m)),
            Self::NotFound(m) => Self::NotFound(rename(m)),
            other => other,
        }
    }
}

/// An invalid-input error naming `field`.
pub fn bad(field: &str, message: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("{field}: {message}"))
}
