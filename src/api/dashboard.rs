//! The admin dashboard at `/dashboard`: three files built from `dashboard/` (TypeScript, bundled by esbuild)
//! and committed under `dashboard/dist/`, embedded here so the binary serves them offline and the Rust build
//! needs no Node. The page talks only to the public admin and tenant APIs, same origin.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("../../dashboard/dist/index.html");
const SCRIPT: &str = include_str!("../../dashboard/dist/app.js");
const STYLE: &str = include_str!("../../dashboard/dist/app.css");

/// Only the page's own files and same-origin API calls; no inline script or style, no framing.
const CSP: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; \
                   script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut res = body.into_response();
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    // The files change with the binary; revalidation is cheap on loopback and never serves a stale bundle.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/dashboard", get(|| async { Redirect::permanent("/dashboard/") }))
        .route("/dashboard/", get(|| async { asset(INDEX, "text/html; charset=utf-8") }))
        .route("/dashboard/app.js", get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }))
        .route("/dashboard/app.css", get(|| async { asset(STYLE, "text/css; charset=utf-8") }))
}
