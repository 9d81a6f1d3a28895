//! Retrieval-quality evaluations run against a live server through the HTTP API.

pub mod locomo;
