//! Undo, then real erasure: every delete leaves the memory restorable for the tenant's undo window
//! (`undo_days`, default 7); after it, or at once on an explicit purge, the memory is erased for good.
//!
//! Deletes fill the trash in the database itself (see `store::trash`); this module decides who may restore or
//! purge what, and when.

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::{usage, Page, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::memory::filter::required_tags;
use crate::memory::Memory;
use crate::queue::{embed, enrich};
use crate::store::trash::{self, Erase, Trashed};
use crate::store::{memories, tenants, TenantTx};
use crate::validate;

/// Most memories one by-tag delete touches without `confirm=true`, and most one by-tag restore brings back
/// (a larger restore takes several calls; each answers how many remain).
pub const BY_TAG_CAP: i64 = 1000;

/// The tenant's undo window, as the earliest deletion time still restorable.
async fn window_start(svc: &Services, t: &Tenant, now: DateTime<Utc>) -> Result<DateTime<Utc>> {
    let settings =
        tenants::settings(svc.db.owner(), t.id).await?.ok_or_else(|| Error::not_found("tenant not found"))?;
    Ok(now - Duration::days(i64::from(settings.undo_days)))
}

/// What restoring some deleted memories did.
#[derive(Debug, Default)]
struct Outcome {
    restored: Vec<Memory>,
    /// With the live memory holding the same content, where one is known.
    conflicts: Vec<(Uuid, Option<Uuid>)>,
    /// Deleted before the undo window, with the time.
    expired: Vec<(Uuid, DateTime<Utc>)>,
}

/// Restores in `tx` those of `ids` the trash holds while the undo window lasts (with the jobs they still
/// waited for). A memory whose content (or id) is live again is a conflict, which leaves the transaction usable.
async fn restore_in(t: &Tenant, tx: &mut TenantTx, ids: &[Uuid], since: DateTime<Utc>) -> Result<Outcome> {
    let mut outcome = Outcome::default();
    let mut candidates = Vec::new();
    for entry in trash::entries(tx, ids).await? {
        if entry.deleted_at <= since {
            outcome.expired.push((entry.memory_id, entry.deleted_at));
        } else if let Some(existing) = entry.duplicate_of {
            outcome.conflicts.push((entry.memory_id, Some(existing)));
        } else {
            candidates.push(entry);
        }
    }
    // Of two with the same content (deleted, stored again, deleted again), the first asked comes back (entries
    // come in the order asked) and the other is a conflict, as one after the other would.
    let mut hashes = std::collections::HashSet::new();
    let candidates: Vec<Uuid> = candidates
        .into_iter()
        .filter_map(|e| {
            if e.repeated || hashes.insert(e.content_hash.clone()) {
                Some(e.memory_id)
            } else {
                outcome.conflicts.push((e.memory_id, None));
                None
            }
        })
        .collect();
    let restored = trash::restore(tx, &candidates, &t.actor()).await?;
    outcome.conflicts.extend(restored.conflicts.into_iter().map(|id| (id, None)));
    let pending = |f: fn(&Memory) -> bool| restored.memories.iter().filter(|m| f(m)).map(|m| m.id).collect::<Vec<_>>();
    embed::enqueue(tx, &pending(|m| m.embedding_status == "pending")).await?;
    enrich::enqueue(tx, &pending(|m| m.enrichment_status == "pending")).await?;
    outcome.restored = restored.memories;
    Ok(outcome)
}

/// Restores one deleted memory (write scope): its content, vector, relations whose other end exists, and
/// entity links. Not found when the trash does not hold it or its undo window has passed.
pub async fn restore(svc: &Services, t: &Tenant, id: Uuid) -> Result<Memory> {
    t.require(Scope::Write)?;
    let since = window_start(svc, t, Utc::now()).await?;
    let mut tx = svc.db.begin_tenant(t).await?;
    trash::lock_episodes(&mut tx, &[id]).await?;
    let mut outcome = restore_in(t, &mut tx, &[id], since).await?;
    if let Some((_, deleted_at)) = outcome.expired.first() {
        return Err(Error::not_found(format!(
            "memory {id} not found: it was deleted at {} and its undo window has passed",
            deleted_at.to_rfc3339()
        )));
    }
    if let Some((_, existing)) = outcome.conflicts.first() {
        return Err(Error::Conflict {
            message: match existing {
                Some(existing) => {
                    format!("content: memory {existing} holds the same content now; delete it to restore {id}")
                }
                None => format!("content: a live memory has the id or the content of {id}"),
            },
            existing_id: *existing,
        });
    }
    let memory = outcome
        .restored
        .pop()
        .ok_or_else(|| Error::not_found(format!("memory {id} not found (neither archived nor deleted)")))?;
    usage::check_storage(&mut tx, &t.limits, true).await?;
    usage::check_end_users(&mut tx, &t.limits, &[memory.id]).await?;
    tx.commit().await?;
    Ok(memory)
}

/// What a by-tag restore did.
#[derive(Debug, Clone, Default)]
pub struct RestoredByTag {
    pub tags: Vec<String>,
    pub restored: Vec<Uuid>,
    /// Deleted memories whose content is live again (stored since), left in the trash.
    pub conflicts: Vec<Uuid>,
    /// Deleted memories with these tags still in the trash after this call (call again for more).
    pub remaining: i64,
}

/// Restores up to [`BY_TAG_CAP`] deleted memories with any of the tags still in the undo window (write scope),
/// the earliest deleted first, and says how many remain.
pub async fn restore_by_tag(svc: &Services, t: &Tenant, tags: &[String]) -> Result<RestoredByTag> {
    t.require(Scope::Write)?;
    let tags = required_tags(tags)?;
    let since = window_start(svc, t, Utc::now()).await?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let (ids, total) = trash::ids_by_tags(&mut tx, &tags, since, BY_TAG_CAP).await?;
    trash::lock_episodes(&mut tx, &ids).await?;
    let outcome = restore_in(t, &mut tx, &ids, since).await?;
    let mut conflicts: Vec<Uuid> = outcome.conflicts.into_iter().map(|(id, _)| id).collect();
    conflicts.sort_by_key(|id| ids.iter().position(|x| x == id));
    let done =
        RestoredByTag { tags, restored: outcome.restored.iter().map(|m| m.id).collect(), conflicts, remaining: 0 };
    usage::check_storage(&mut tx, &t.limits, !done.restored.is_empty()).await?;
    usage::check_end_users(&mut tx, &t.limits, &done.restored).await?;
    tx.commit().await?;
    Ok(RestoredByTag { remaining: total - done.restored.len() as i64, ..done })
}

/// Refuses to touch more than [`BY_TAG_CAP`] memories by tag without `confirm`.
pub fn check_cap(count: i64, confirm: bool, verb: &str) -> Result<()> {
    if count > BY_TAG_CAP && !confirm {
        return Err(bad(
            "confirm",
            format!("these tags would {verb} {count} memories, more than {BY_TAG_CAP}; repeat with confirm=true"),
        ));
    }
    Ok(())
}

/// A page of the tenant's deleted memories still in the undo window, latest deletion first (read scope),
/// with the time each will be erased.
pub async fn list(
    svc: &Services,
    t: &Tenant,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<(Page<Trashed>, Duration)> {
    t.require(Scope::Read)?;
    let (limit, offset) = validate::page(limit, offset, super::memories::MAX_PAGE, super::memories::DEFAULT_PAGE)?;
    let now = Utc::now();
    let since = window_start(svc, t, now).await?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let (items, total) = trash::list(&mut tx, since, limit, offset).await?;
    tx.commit().await?;
    Ok((Page { items, total, limit, offset }, now - since))
}

/// Deletes a memory and erases it at once (admin scope: a write key's deletes stay undoable): nothing of it stays but ids, hashes and event types
/// in its history. A memory already deleted (in the trash) is erased too; not found when neither.
pub async fn purge(svc: &Services, t: &Tenant, id: Uuid) -> Result<()> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let live = memories::delete(&mut tx, id, &t.actor()).await?;
    let erased = trash::erase(&mut tx, Erase::Ids(&[id])).await?;
    if !live && erased == 0 {
        return Err(Error::not_found(format!("memory {id} not found")));
    }
    tx.commit().await?;
    let details = serde_json::json!({"was_live": live});
    super::audit::record(svc, &t.actor(), Some(t.id), "memory.purge", Some(id.to_string()), details).await;
    Ok(())
}

/// Erases everything in the tenant's trash now (admin scope); returns how many memories.
pub async fn purge_all(svc: &Services, t: &Tenant) -> Result<u64> {
    t.require(Scope::Admin)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let erased = trash::erase(&mut tx, Erase::All).await?;
    tx.commit().await?;
    let details = serde_json::json!({"erased_count": erased});
    super::audit::record(svc, &t.actor(), Some(t.id), "trash.empty", None, details).await;
    Ok(erased)
}

/// Erases a tenant's deleted memories whose undo window has passed (`undo_days` before `now`).
pub async fn erase_expired(tx: &mut TenantTx, now: DateTime<Utc>, undo_days: i32) -> Result<u64> {
    trash::erase(tx, Erase::DeletedBefore(now - Duration::days(i64::from(undo_days)))).await
}
