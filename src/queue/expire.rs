//! The periodic queue of expiry of short-term memories (handled by `jobs::expire`). Its payload is
//! [`super::Tick`], enqueued by the clock (`jobs::clock`) once per period.

/// The queue's stable name.
pub const QUEUE: &str = "cairn::expire";
