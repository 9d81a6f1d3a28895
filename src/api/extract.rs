//! Extractors whose every rejection is an [`Error`] in the envelope, naming the offending field.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;
use uuid::Uuid;

use super::error::ApiError;
use crate::error::Error;

/// A JSON body. Not JSON: 415; over the body limit: 413; malformed or mistyped: 400 naming the path
/// (`memories[2].importance: invalid type: string "high", expected f64`).
pub struct ApiJson<T>(pub T);

fn is_json(content_type: &str) -> bool {
    let mime = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// Deserialises `T` from JSON bytes, naming the failing path.
pub fn from_json_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    // Every body of this API is an object; serde would otherwise read a struct from an array by position.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(Error::invalid("body: must be a JSON object, not a bare array"));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            Error::invalid(format!("body: invalid JSON: {inner}"))
        } else if path == "." {
            Error::invalid(format!("body: {inner}"))
        } else {
            Error::invalid(format!("{path}: {inner}"))
        }
    })?;
    de.end().map_err(|e| Error::invalid(format!("body: invalid JSON: {e}")))?;
    Ok(value)
}

/// The items of `{"<field>": [...]}` (1..=`max`), as given; errors for a missing, empty, overlong or
/// non-array field, or a bare array.
pub fn batch_values(body: serde_json::Value, field: &str, max: usize) -> Result<Vec<serde_json::Value>, Error> {
    use serde_json::Value;
    let items = match body {
        Value::Object(mut object) => match object.remove(field) {
            Some(Value::Array(items)) => items,
            Some(_) => return Err(Error::invalid(format!("{field}: must be an array"))),
            None => return Err(Error::invalid(format!("{field}: is required"))),
        },
        Value::Array(_) => {
            return Err(Error::invalid(format!("body: must be an object {{\"{field}\": [...]}}, not a bare array")))
        }
        _ => return Err(Error::invalid(format!("body: must be an object {{\"{field}\": [...]}}"))),
    };
    if items.is_empty() {
        return Err(Error::invalid(format!("{field}: must not be empty")));
    }
    if items.len() > max {
        return Err(Error::invalid(format!("{field}: at most {max} items (got {})", items.len())));
    }
    Ok(items)
}

/// A batch body's `on_duplicate` (`error`, `existing` or `store`; absent: `default`).
pub fn on_duplicate(
    body: &serde_json::Value,
    default: crate::service::memories::Duplicates,
) -> Result<crate::service::memories::Duplicates, Error> {
    use serde_json::Value;
    let value = match body.get("on_duplicate") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(Error::invalid("on_duplicate: must be error, existing or store")),
    };
    crate::service::memories::Duplicates::parse(value, "on_duplicate", default)
}

/// Bodies larger than this are parsed on the blocking pool (a 4 MiB body takes a core for tens of
/// milliseconds), so the executor threads keep serving other requests meanwhile.
const OFFLOAD_BODY_BYTES: usize = 64 * 1024;

impl<T: DeserializeOwned + Send + 'static, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !is_json(content_type) {
            return Err(ApiError::UnsupportedMediaType("Content-Type: must be application/json".into()));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge("body: request body is over the size limit".into())
            } else {
                Error::invalid(format!("body: {}", rejection.body_text())).into()
            }
        })?;
        if bytes.len() > OFFLOAD_BODY_BYTES {
            let parsed = crate::service::offload(move || from_json_slice(&bytes)).await;
            return Ok(parsed.map(ApiJson)?);
        }
        Ok(from_json_slice(&bytes).map(ApiJson)?)
    }
}

/// A JSON body that may be left out: no body (and no Content-Type) is `T::default()`; otherwise as
/// [`ApiJson`].
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default + Send + 'static, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let no_type = req.headers().get(header::CONTENT_TYPE).is_none();
        let empty = req.headers().get(header::CONTENT_LENGTH).is_some_and(|v| v.as_bytes() == b"0");
        if no_type && (empty || req.headers().get(header::TRANSFER_ENCODING).is_none()) {
            let bytes = Bytes::from_request(req, state)
                .await
                .map_err(|_| ApiError::UnsupportedMediaType("Content-Type: must be application/json".into()))?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(Self(T::default()));
            }
            return Err(ApiError::UnsupportedMediaType("Content-Type: must be application/json".into()));
        }
        ApiJson::<T>::from_request(req, state).await.map(|ApiJson(v)| Self(v))
    }
}

/// Query parameters (repeated keys fill a `Vec`); errors name the parameter.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        // Postgres cannot store or compare U+0000 in text; refuse it before it reaches a query.
        if query.to_ascii_lowercase().contains("%00") {
            return Err(Error::invalid("query: parameters must not contain NUL (%00) characters").into());
        }
        // The key a client may send here is authentication's, not the route's: left out, so no route refuses it
        // as an unknown parameter and no error can echo it.
        let without_key: String =
            query.split('&').filter(|pair| !super::auth::is_key_pair(pair)).collect::<Vec<_>>().join("&");
        let de = serde_html_form::Deserializer::from_bytes(without_key.as_bytes());
        serde_path_to_error::deserialize(de).map(ApiQuery).map_err(|err| {
            let path = err.path().to_string();
            let inner = err.into_inner();
            Error::invalid(if path == "." { format!("query: {inner}") } else { format!("{path}: {inner}") }).into()
        })
    }
}

/// The `{id}` path segment as a UUID; anything else is a 400 naming `id`.
pub struct PathId(pub Uuid);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::from(Error::invalid(format!("id: {}", e.body_text()))))?;
        Ok(parse_uuid("id", &raw).map(PathId)?)
    }
}

/// A UUID named `field` (a path segment, a tool argument); anything else is an error naming it.
pub fn parse_uuid(field: &str, raw: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(raw.trim()).map_err(|_| {
        let shown: String = raw.chars().take(64).collect();
        let more = if raw.chars().count() > 64 { "…" } else { "" };
        Error::invalid(format!("{field}: not a valid UUID: {shown:?}{more}"))
    })
}
