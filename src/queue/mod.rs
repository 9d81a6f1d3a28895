//! What the services and the store need of the background work: each job's stable queue name, its payload and the
//! `enqueue` that writes it in the caller's tenant transaction, one file per job; the queue lists and the roles a
//! process can take ([`Workers`]). The handlers that run the jobs are `crate::jobs`, above the services; this module
//! sits below them and calls only the store.

pub mod consolidate;
pub mod embed;
pub mod enrich;
pub mod eval;
pub mod expire;
pub mod retention;
pub mod schedule;
pub mod similar;
pub mod summarize;
pub mod tenant_delete;
pub mod webhook;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::config::WorkerRoles;
use crate::error::Error;
use crate::store::TenantTx;

/// The queues whose jobs belong to a tenant (`GET /api/v1/jobs/status` lists them).
pub const TENANT_QUEUES: &[&str] =
    &[embed::QUEUE, enrich::QUEUE, similar::QUEUE, summarize::QUEUE, consolidate::QUEUE, eval::QUEUE, webhook::QUEUE];
/// The periodic queues.
pub const PERIODIC_QUEUES: &[&str] = &[expire::QUEUE, retention::QUEUE, schedule::QUEUE];
/// The control plane's queues (tenant deletion).
pub const CONTROL_QUEUES: &[&str] = &[tenant_delete::QUEUE];

/// Every queue.
pub fn all() -> impl Iterator<Item = &'static str> {
    TENANT_QUEUES.iter().chain(PERIODIC_QUEUES).chain(CONTROL_QUEUES).copied()
}

/// Enqueues `{tenant_id, memory_ids}` on `queue` in the caller's tenant transaction, so the job exists
/// exactly when the rows that caused it do (nothing for no ids).
async fn enqueue_memories(
    tx: &mut TenantTx,
    queue: &str,
    memory_ids: &[Uuid],
    max_attempts: usize,
) -> Result<(), Error> {
    if memory_ids.is_empty() {
        return Ok(());
    }
    crate::store::queue::enqueue(tx, queue, serde_json::json!({ "memory_ids": memory_ids }), max_attempts).await
}

/// A periodic job's payload: the period it runs for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Tick {
    pub period_start: DateTime<Utc>,
}

/// Attempts of a periodic job (the next period runs anyway).
pub const PERIODIC_MAX_ATTEMPTS: usize = 3;

/// Which queues a process serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Workers {
    All,
    None,
    Only(Vec<&'static str>),
}

impl Workers {
    /// Whether this process serves `queue`.
    pub fn runs(&self, queue: &str) -> bool {
        match self {
            Self::All => true,
            Self::None => false,
            Self::Only(queues) => queues.contains(&queue),
        }
    }

    /// The queues named by a process's roles (`--workers` / `--queues`); an unknown name is an error that
    /// lists the known ones.
    pub fn from_roles(roles: &WorkerRoles) -> Result<Self, String> {
        let names = match roles {
            WorkerRoles::All => return Ok(Self::All),
            WorkerRoles::None => return Ok(Self::None),
            WorkerRoles::Only(names) => names,
        };
        let mut queues = Vec::new();
        for name in names {
            let wanted = name.to_ascii_lowercase();
            let queue = all().find(|q| *q == wanted || q.strip_prefix("cairn::") == Some(wanted.as_str())).ok_or_else(
                || {
                    let known: Vec<&str> = all().map(|q| q.trim_start_matches("cairn::")).collect();
                    format!("unknown queue {name:?}; expected all, none or some of {}", known.join(", "))
                },
            )?;
            if !queues.contains(&queue) {
                queues.push(queue);
            }
        }
        Ok(Self::Only(queues))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(roles: &str) -> Result<Workers, String> {
        Workers::from_roles(&roles.parse::<WorkerRoles>().unwrap())
    }

    #[test]
    fn roles_name_queues() {
        assert_eq!(parse("all"), Ok(Workers::All));
        assert_eq!(parse("none"), Ok(Workers::None));
        let some = parse("embed, cairn::enrich,embed").unwrap();
        assert_eq!(some, Workers::Only(vec![embed::QUEUE, enrich::QUEUE]));
        assert!(some.runs(embed::QUEUE) && !some.runs(consolidate::QUEUE));
        assert!(Workers::All.runs(schedule::QUEUE) && !Workers::None.runs(embed::QUEUE));
        let err = parse("embed,Bogus").unwrap_err();
        assert!(err.contains("unknown queue \"Bogus\"") && err.contains("summarize"), "{err}");
        assert!(parse("cairn::cairn::embed").is_err());
    }
}
