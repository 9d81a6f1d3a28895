//! The knowledge graph's use cases: associations (one, a batch, delete, between two memories), traversal
//! from a memory, episodes, and the listing remem calls connections.

use serde_json::Value;
use uuid::Uuid;

use super::{Page, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{Error, Result};
use crate::graph::{Association, Reached};
use crate::graph::{NewAssociation, RelatedParams, DEFAULT_RELATED, MAX_BATCH, MAX_RELATED};
use crate::memory::{Memory, MAX_ID_CHARS};
use crate::store::relations;
use crate::validate;

fn missing(prefix: &str, a: &NewAssociation, found: &std::collections::HashSet<Uuid>) -> Option<Error> {
    [("memory1_id", a.source), ("memory2_id", a.target)]
        .into_iter()
        .find(|(_, id)| !found.contains(id))
        .map(|(name, id)| Error::not_found(format!("{prefix}{name}: memory {id} not found")))
}

/// Stores one association (`{memory1_id, memory2_id, type?, strength?, properties?}`), updating the edge
/// when the pair already has one of that type. Both memories must be the tenant's (not found otherwise).
pub async fn associate(svc: &Services, t: &Tenant, body: &Value) -> Result<Association> {
    t.require(Scope::Write)?;
    let new = NewAssociation::parse(body, "")?;
    super::usage::check_metadata(t, &new.properties, "properties")?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let found = relations::existing(&mut tx, &[new.source, new.target]).await?;
    if let Some(err) = missing("", &new, &found) {
        return Err(err);
    }
    let association = relations::upsert(&mut tx, &new).await?;
    // Associations count towards what the tenant stores.
    super::usage::check_storage(&mut tx, &t.limits, true).await?;
    tx.commit().await?;
    Ok(association)
}

/// Stores up to 500 associations in one transaction: each item's outcome, in order (invalid items and
/// unknown memories fail alone; the rest are stored). When no item can be stored, the first item's error.
pub async fn associate_batch(svc: &Services, t: &Tenant, items: &[Value]) -> Result<Vec<Result<Association>>> {
    t.require(Scope::Write)?;
    if items.is_empty() {
        return Err(Error::invalid("associations: must not be empty"));
    }
    if items.len() > MAX_BATCH {
        return Err(Error::invalid(format!("associations: at most {MAX_BATCH} items (got {})", items.len())));
    }
    super::usage::check_batch(t, "associations", items.len())?;
    let parsed: Vec<Result<NewAssociation>> = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let a = NewAssociation::parse(v, &format!("associations[{i}]."))?;
            super::usage::check_metadata(t, &a.properties, &format!("associations[{i}].properties"))?;
            Ok(a)
        })
        .collect();
    let mut tx = svc.db.begin_tenant(t).await?;
    let ids: Vec<Uuid> = parsed.iter().flatten().flat_map(|a| [a.source, a.target]).collect();
    let found = relations::existing(&mut tx, &ids).await?;
    let mut outcomes = Vec::with_capacity(items.len());
    for (index, item) in parsed.into_iter().enumerate() {
        outcomes.push(match item {
            Ok(a) => match missing(&format!("associations[{index}]."), &a, &found) {
                Some(err) => Err(err),
                None => Ok(relations::upsert(&mut tx, &a).await?),
            },
            Err(err) => Err(err),
        });
    }
    if outcomes.iter().all(Result::is_err) {
        // Nothing to write: the first item's error, as a plain error.
        let first = outcomes.into_iter().next().and_then(Result::err).map(|e| e.to_string()).unwrap_or_default();
        return Err(Error::invalid(format!("associations: no item could be stored; {first}")));
    }
    super::usage::check_storage(&mut tx, &t.limits, true).await?;
    tx.commit().await?;
    Ok(outcomes)
}

/// Deletes one association.
pub async fn delete(svc: &Services, t: &Tenant, id: Uuid) -> Result<()> {
    t.require(Scope::Write)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    if !relations::delete(&mut tx, id).await? {
        return Err(Error::not_found(format!("association {id} not found")));
    }
    tx.commit().await?;
    Ok(())
}

/// Deletes every association from `source` to `target`; returns how many (not found when none).
pub async fn delete_between(svc: &Services, t: &Tenant, source: Uuid, target: Uuid) -> Result<u64> {
    t.require(Scope::Write)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let deleted = relations::delete_between(&mut tx, source, target).await?;
    if deleted == 0 {
        return Err(Error::not_found(format!("no connection from {source} to {target}")));
    }
    tx.commit().await?;
    Ok(deleted)
}

/// Associations, newest first, optionally only those touching one memory.
pub async fn list(
    svc: &Services,
    t: &Tenant,
    memory_id: Option<Uuid>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<Page<Association>> {
    t.require(Scope::Read)?;
    let (limit, offset) = validate::page(limit, offset, MAX_RELATED, DEFAULT_RELATED)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let (items, total) = relations::list(&mut tx, memory_id, limit, offset).await?;
    tx.commit().await?;
    Ok(Page { items, total, limit, offset })
}

/// The memories reachable from `id` (not found when the tenant has no such memory), each once with its
/// strongest path, strongest first.
pub async fn related(svc: &Services, t: &Tenant, id: Uuid, params: RelatedParams) -> Result<Vec<Reached>> {
    t.require(Scope::Read)?;
    let walk = params.parse()?;
    let mut tx = svc.db.begin_tenant(t).await?;
    if relations::existing(&mut tx, &[id]).await?.is_empty() {
        return Err(Error::not_found(format!("memory {id} not found")));
    }
    let reached = relations::related(&mut tx, id, &walk).await?;
    tx.commit().await?;
    Ok(reached)
}

/// An episode's memories in `sequence_number` order (then time).
pub async fn episode(
    svc: &Services,
    t: &Tenant,
    episode_id: &str,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<(String, Page<Memory>)> {
    t.require(Scope::Read)?;
    let episode_id = episode_id.trim().to_owned();
    if episode_id.is_empty() || episode_id.chars().count() > MAX_ID_CHARS {
        return Err(Error::invalid(format!("episode_id: must be 1..={MAX_ID_CHARS} characters")));
    }
    let (limit, offset) = validate::page(limit, offset, MAX_RELATED, DEFAULT_RELATED)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let (items, total) = relations::episode(&mut tx, &episode_id, limit, offset).await?;
    tx.commit().await?;
    Ok((episode_id, Page { items, total, limit, offset }))
}
