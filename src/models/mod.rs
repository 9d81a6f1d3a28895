//! The models Cairn calls: embedders (`embed`: the local sentence-transformers model, or an
//! OpenAI-compatible server), the optional chat model (`chat`), and what every OpenAI-compatible HTTP
//! endpoint shares (`endpoint`: base URL, key, timeouts, retries).

pub mod chat;
pub mod embed;
pub mod endpoint;
pub mod rerank;
