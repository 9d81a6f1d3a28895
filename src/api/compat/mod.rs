//! Compatibility surfaces: AutoMem's API at the root and the SHODH unified API under `/api`. Each is a thin
//! translation of names, defaults and shapes onto the native calls of `api::native`; none stores, recalls
//! or validates on its own.

pub mod automem;
pub mod shodh;
