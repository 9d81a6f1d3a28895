//! The tenant's memories in numbers, and its tags.

use super::Services;
use crate::auth::{Scope, Tenant};
use crate::error::Result;
use crate::memory::TenantStats;
use crate::store::stats;

/// Most tags one listing returns.
pub const MAX_TAGS_LISTED: i64 = 10_000;

/// Counts of the tenant's memories: active, recent, archived, by lifecycle, embedding state and type;
/// associations, entities and distinct tags.
pub async fn stats(svc: &Services, t: &Tenant) -> Result<TenantStats> {
    t.require(Scope::Read)?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    // A scoped key's figures are of what it sees; the maintained counts are the whole tenant's.
    let stats = match t.scope {
        Some(_) => stats::scoped_stats(&mut tx).await?,
        None => stats::tenant_stats(&mut tx).await?,
    };
    tx.commit().await?;
    Ok(stats)
}

/// Every distinct tag on the tenant's active memories, alphabetically (at most 10,000), and how many there
/// are in all.
pub async fn tags(svc: &Services, t: &Tenant) -> Result<(Vec<String>, i64)> {
    t.require(Scope::Read)?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    // A scoped key's tags are those of what it sees; the maintained counts are the whole tenant's.
    let tags = stats::tags(&mut tx, MAX_TAGS_LISTED, t.scope.is_some()).await?;
    tx.commit().await?;
    Ok(tags)
}
