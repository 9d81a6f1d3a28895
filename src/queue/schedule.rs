//! The periodic queue of the consolidation schedule (handled by `jobs::schedule`). Its payload is
//! [`super::Tick`], enqueued by the clock (`jobs::clock`) once per period.

/// The queue's stable name.
pub const QUEUE: &str = "cairn::schedule";
