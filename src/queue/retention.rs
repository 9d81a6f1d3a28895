//! The periodic queue of retention and erasure past the undo window (handled by `jobs::retention`). Its payload is
//! [`super::Tick`], enqueued by the clock (`jobs::clock`) once per period.

/// The queue's stable name.
pub const QUEUE: &str = "cairn::retention";
