//! Consolidation's edge decay (periodic, hourly): the strength Hebbian learning added to an association
//! fades while its memories are not recalled together (see [`relations::decay_learned`]). Decay is computed
//! from the time elapsed, so the cadence changes nothing but freshness, and a missed run loses nothing.

use chrono::{DateTime, Utc};

use crate::error::ApiError;
use crate::store::{relations, tenants, Db};

/// One pass over every tenant, as of `now` (injectable so tests need not wait); returns the edges changed.
pub async fn run_once(db: &Db, now: DateTime<Utc>) -> Result<u64, ApiError> {
    let mut changed = 0;
    for tenant_id in tenants::tenant_ids(db.owner()).await? {
        let mut tx = db.begin_tenant(tenant_id).await?;
        changed += relations::decay_learned(&mut tx, now).await?;
        tx.commit().await?;
    }
    Ok(changed)
}
