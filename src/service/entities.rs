//! Entities: the tenant's entities with their mention counts, one entity with the memories that mention
//! it, and merging entities into one.

use uuid::Uuid;

use super::{Page, Services};
use crate::auth::{Scope, Tenant};
use crate::entities::Entity;
use crate::entities::{self, MAX_NAME_CHARS};
use crate::error::{bad, Error, Result};
use crate::memory::Memory;
use crate::store::entities as store;
use crate::validate;

/// Most entities on one page.
pub const MAX_PAGE: i64 = 200;
/// Most memories of one entity on one page.
pub const MAX_MEMORIES: i64 = 100;
/// Most entities merged in one request.
pub const MAX_MERGE: usize = 100;

fn not_found(id: Uuid) -> Error {
    Error::not_found(format!("entity {id} not found"))
}

/// Entities, most mentioned first: of one type, whose normalised name starts with `q`.
pub async fn list(
    svc: &Services,
    t: &Tenant,
    kind: Option<&str>,
    q: Option<&str>,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<Page<Entity>> {
    t.require(Scope::Read)?;
    let kind = kind.map(|k| entities::entity_type("type", k)).transpose()?;
    let (limit, offset) = validate::page(limit, offset, MAX_PAGE, 50)?;
    let q = q.map(str::trim).filter(|q| !q.is_empty());
    if q.is_some_and(|q| q.chars().count() > MAX_NAME_CHARS) {
        return Err(bad("q", format!("at most {MAX_NAME_CHARS} characters")));
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let (items, total) = store::list(&mut tx, kind, q, limit, offset).await?;
    tx.commit().await?;
    Ok(Page { items, total, limit, offset })
}

/// One entity and a page of the memories that mention it.
pub struct EntityDetail {
    pub entity: Entity,
    /// Newest first.
    pub memories: Vec<Memory>,
    pub limit: i64,
    pub offset: i64,
    /// Whether more memories follow.
    pub has_more: bool,
}

/// One entity and a page of the memories that mention it, newest first.
pub async fn get(
    svc: &Services,
    t: &Tenant,
    id: Uuid,
    include_archived: bool,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<EntityDetail> {
    t.require(Scope::Read)?;
    let (limit, offset) = validate::page(limit, offset, MAX_MEMORIES, 20)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    let entity = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    let mut memories = store::memories_of(&mut tx, id, include_archived, limit + 1, offset).await?;
    tx.commit().await?;
    let has_more = memories.len() as i64 > limit;
    memories.truncate(limit as usize);
    Ok(EntityDetail { entity, memories, limit, offset, has_more })
}

/// Merges `sources` into the entity `id`: their memories link to it and carry its tag instead, their names
/// become its aliases, and they are deleted. Returns the merged entity.
pub async fn merge(svc: &Services, t: &Tenant, id: Uuid, sources: Vec<Uuid>) -> Result<Entity> {
    t.require(Scope::Write)?;
    t.require_unscoped("merging entities")?;
    crate::validate::check_len("entity_ids", sources.len(), MAX_MERGE)?;
    let mut ids = sources;
    ids.sort();
    ids.dedup();
    if ids.is_empty() || ids.len() > MAX_MERGE {
        return Err(bad("entity_ids", format!("must list 1..={MAX_MERGE} entities (got {})", ids.len())));
    }
    if ids.contains(&id) {
        return Err(bad("entity_ids", format!("cannot merge entity {id} into itself")));
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let all: Vec<Uuid> = ids.iter().copied().chain([id]).collect();
    let locked = store::lock(&mut tx, &all).await?;
    if !locked.contains(&id) {
        return Err(not_found(id));
    }
    if let Some(missing) = ids.iter().find(|i| !locked.contains(i)) {
        return Err(Error::not_found(format!("entity_ids: entity {missing} not found")));
    }
    let target = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    let mut sources = Vec::with_capacity(ids.len());
    for source in &ids {
        sources.push(store::get(&mut tx, *source).await?.ok_or_else(|| not_found(*source))?);
    }
    store::merge(&mut tx, &target, &sources).await?;
    let merged = store::get(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    Ok(merged)
}
