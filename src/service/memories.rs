//! Memories: store (one, a batch, supersede mode), get, list, update, delete, by tag, and the audit trail.
//! The one implementation every surface calls: validation, dedup, classification, summarisation and the
//! jobs a write causes (embedding, enrichment, similarity links, summary refinement) are decided here,
//! each enqueued in the transaction that writes the memory.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::Value;
use uuid::Uuid;

use super::{usage, Page, Services};
use crate::auth::{Scope, Tenant};
use crate::error::{Error, Result};
use crate::memory::filter::required_tags;
use crate::memory::summarize;
use crate::memory::MemoryEvent;
use crate::memory::{
    EmbeddingChange, ListFilter, Memory, MemoryInput, MemoryPatch, NewMemory, ParseCtx, MAX_REASON_CHARS,
};
use crate::models::embed::SlotState;
use crate::queue::{embed, enrich, similar, summarize as refine};
use crate::store::events;
use crate::store::memories::{self, Inserted};
use crate::store::{lifecycle, relations, TenantTx};
use crate::validate;

/// Most memories in one batch (AutoMem's limit).
pub const MAX_BATCH: usize = 500;
/// Largest page of a listing, and its default.
pub const MAX_PAGE: i64 = 200;
pub const DEFAULT_PAGE: i64 = 20;

/// What a store does with content the tenant already holds (or an item repeating an earlier one):
/// `on_duplicate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duplicates {
    /// `error`: a conflict naming the existing memory; nothing is stored (SHODH's store).
    Reject,
    /// `existing`: the existing memory stands in for the new one (the native API's and AutoMem's default).
    Reuse,
    /// `store`: stored again as its own memory, a repeat (a conversation says "ok" twice).
    Store,
}

impl Duplicates {
    /// `on_duplicate` as a request gives it, `default` when absent; a bad value is an error naming `field`.
    pub fn parse(value: Option<&str>, field: &str, default: Self) -> Result<Self> {
        match value {
            None => Ok(default),
            Some("error") => Ok(Self::Reject),
            Some("existing") => Ok(Self::Reuse),
            Some("store") => Ok(Self::Store),
            Some(other) => Err(crate::error::bad(field, format!("must be error, existing or store (got {other:?})"))),
        }
    }
}

/// What a single store did.
pub enum StoreOutcome {
    /// A new memory.
    Stored(Memory),
    /// The tenant already held the content (with [`Duplicates::Reuse`]): that memory, restored if it was
    /// archived, and the replacement of `supersedes_memory_id` if one was named.
    Existing(Memory),
}

impl StoreOutcome {
    pub fn memory(&self) -> &Memory {
        match self {
            Self::Stored(m) | Self::Existing(m) => m,
        }
    }
}

fn not_found(id: Uuid) -> Error {
    Error::not_found(format!("memory {id} not found"))
}

fn parse_ctx(svc: &Services) -> ParseCtx {
    ParseCtx::new(Utc::now(), svc.config.embedding_dim)
}

/// Whether this deployment can write a better summary than word overlap (the `cairn::summarize` job).
fn can_refine(svc: &Services) -> bool {
    svc.chat.is_some() || svc.embedder.state() != SlotState::Disabled
}

/// Enqueues the work a newly written memory needs: its vector (or, if one was supplied, its similarity
/// links), its enrichment, and a better summary when it was summarised.
async fn enqueue_after_insert(svc: &Services, tx: &mut TenantTx, stored: &[Memory]) -> Result<()> {
    let ids = |f: fn(&Memory) -> bool| stored.iter().filter(|m| f(m)).map(|m| m.id).collect::<Vec<_>>();
    embed::enqueue(tx, &ids(|m| m.embedding_status == "pending")).await?;
    similar::enqueue(tx, &ids(|m| m.embedding_status == "ready")).await?;
    enrich::enqueue(tx, &ids(|_| true)).await?;
    if can_refine(svc) {
        refine::enqueue(tx, &ids(|m| m.summarized)).await?;
    }
    Ok(())
}

/// A memory a scoped key writes, admitted ([`crate::tenancy::KeyScope::admit`]): the end user, agent or tag
/// it leaves out filled in from the scope where the scope names one, anything outside the scope refused (403
/// naming `{at}user_id`, `{at}agent_id` or `{at}tags`). Unscoped keys write anything.
pub(crate) fn admit(t: &Tenant, new: &mut NewMemory, at: &str) -> Result<()> {
    if let Some(scope) = &t.scope {
        if scope.admit(&mut new.user_id, &mut new.agent_id, &mut new.tags, &new.tag_prefixes, at)? {
            new.tag_prefixes = crate::memory::tag_prefixes(&new.tags);
        }
    }
    Ok(())
}

/// Stores one memory (with supersede mode). With [`Duplicates::Reject`] content the tenant already holds
/// is a conflict carrying `existing_id` and nothing is written; with [`Duplicates::Reuse`] the existing
/// memory stands in for the new one, in the same transaction: brought back if it was archived, and made
/// the replacement when the store supersedes.
pub async fn store(svc: &Services, t: &Tenant, mut input: MemoryInput, duplicates: Duplicates) -> Result<StoreOutcome> {
    t.require(Scope::Write)?;
    let duplicates = Duplicates::parse(input.on_duplicate.take().as_deref(), "on_duplicate", duplicates)?;
    let supersede = Supersede::take(&mut input)?;
    let mut new = NewMemory::parse(input, &parse_ctx(svc))?;
    admit(t, &mut new, "")?;
    summarize::check_reserved(&new.metadata, "metadata")?;
    usage::check_metadata(t, &new.metadata, "metadata")?;
    usage::end_user_call(svc, t, &usage::acting_for(new.user_id.as_deref(), new.agent_id.as_deref(), None), None)?;
    summarize::govern(&mut new);
    let mut tx = svc.db.begin_tenant(t).await?;
    let actor = t.actor();
    // A memory that held the content may be deleted between the insert that met it and its reuse: then the
    // content is free again and the insert is tried once more.
    let mut attempts = 0;
    let outcome = loop {
        attempts += 1;
        match memories::insert(&mut tx, &new, &actor).await? {
            Inserted::Stored(memory) => {
                enqueue_after_insert(svc, &mut tx, std::slice::from_ref(&memory)).await?;
                break StoreOutcome::Stored(*memory);
            }
            Inserted::Duplicate { existing_id }
                if duplicates != Duplicates::Reject && supersede.as_ref().is_some_and(|s| s.old == existing_id) =>
            {
                return Err(Error::invalid(
                    "content: the replacement has the same content as the memory it supersedes",
                ));
            }
            Inserted::Duplicate { .. } if duplicates == Duplicates::Store => new.repeated = true,
            Inserted::Duplicate { existing_id } if duplicates == Duplicates::Reject => {
                let archived =
                    memories::get(&mut tx, existing_id, false).await?.is_some_and(|m| m.archived_at.is_some());
                let hint =
                    if archived { "; it is archived: POST /api/v1/memories/{id}/restore brings it back" } else { "" };
                return Err(Error::Conflict {
                    message: format!("content: a memory with the same content already exists ({existing_id}){hint}"),
                    existing_id: Some(existing_id),
                });
            }
            Inserted::Duplicate { existing_id } => match lifecycle::restore(&mut tx, existing_id, &actor).await? {
                Some(restored) => break StoreOutcome::Existing(restored),
                None if attempts < 5 => {}
                None => return Err(Error::Unavailable("content changed concurrently; retry".into())),
            },
        }
    };
    if let Some(s) = supersede {
        if !relations::supersede(&mut tx, s.old, outcome.memory().id, s.relation, s.reason.as_deref(), &actor).await? {
            return Err(Error::not_found(format!("supersedes_memory_id: memory {} not found", s.old)));
        }
    }
    usage::check_storage(&mut tx, &t.limits, matches!(outcome, StoreOutcome::Stored(_))).await?;
    if let StoreOutcome::Stored(m) = &outcome {
        usage::check_end_users(&mut tx, &t.limits, &[m.id]).await?;
    }
    tx.commit().await?;
    if matches!(outcome, StoreOutcome::Stored(_)) {
        svc.usage.add(t.id, usage::counter::STORED, 1);
    }
    Ok(outcome)
}

/// Supersede mode of a single store.
struct Supersede {
    old: Uuid,
    relation: &'static str,
    reason: Option<String>,
}

impl Supersede {
    /// Takes the supersede fields out of a store request, validated.
    fn take(input: &mut MemoryInput) -> Result<Option<Self>> {
        let (old, relation, reason) =
            (input.supersedes_memory_id.take(), input.supersede_relation.take(), input.supersede_reason.take());
        let Some(old) = old else {
            if relation.is_some() || reason.is_some() {
                return Err(Error::invalid(
                    "supersedes_memory_id: is required with supersede_relation or supersede_reason",
                ));
            }
            return Ok(None);
        };
        let old = Uuid::parse_str(old.trim())
            .map_err(|_| Error::invalid(format!("supersedes_memory_id: not a valid UUID: {old:?}")))?;
        let relation = match relation.as_deref().map(|r| crate::graph::canonical(r).map(|(t, _)| t)) {
            None => "INVALIDATED_BY",
            Some(Some(t)) if crate::graph::SUPERSEDING.contains(&t) => t,
            Some(_) => {
                return Err(Error::invalid(format!(
                    "supersede_relation: must be INVALIDATED_BY or EVOLVED_INTO (got {:?})",
                    relation.unwrap_or_default()
                )))
            }
        };
        if reason.as_ref().is_some_and(|r| r.chars().count() > MAX_REASON_CHARS) {
            return Err(Error::invalid(format!("supersede_reason: at most {MAX_REASON_CHARS} characters")));
        }
        Ok(Some(Self { old, relation, reason }))
    }
}

/// A stored batch.
pub struct BatchOutcome {
    /// The memories written, in request order.
    pub stored: Vec<Memory>,
    /// Each item's memory id, in request order (an existing id for a reused duplicate).
    pub ids: Vec<Uuid>,
    /// Indexes of the items that resolved to an existing memory.
    pub deduplicated: Vec<usize>,
    /// Per item, in request order: whether it is a new memory (false: an existing one answers for it).
    pub created: Vec<bool>,
}

/// The items of a batch: 1..=500, or an error naming `memories`.
fn check_batch_size(len: usize) -> Result<()> {
    if len == 0 {
        return Err(Error::invalid("memories: must not be empty"));
    }
    if len > MAX_BATCH {
        return Err(Error::invalid(format!("memories: at most {MAX_BATCH} items (got {len})")));
    }
    Ok(())
}

/// How a batch treats its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchRules {
    pub duplicates: Duplicates,
    /// Items take no vector and no validity bounds (AutoMem's batch).
    pub plain: bool,
}

impl BatchRules {
    /// These rules with the batch's own `on_duplicate`.
    pub fn with(self, duplicates: Duplicates) -> Self {
        Self { duplicates, ..self }
    }

    /// The native batch: every field; a duplicate resolves to the memory that holds the content (by default).
    pub const NATIVE: Self = Self { duplicates: Duplicates::Reuse, plain: false };
    /// AutoMem's batch (and MCP's `store_memory`, AutoMem's tool): no `embedding`, `t_valid` or `t_invalid`;
    /// a duplicate resolves to the memory that holds the content.
    pub const AUTOMEM: Self = Self { duplicates: Duplicates::Reuse, plain: true };
}

/// The items of a batch as given, checked for their number and, with plain rules, for the fields such a
/// batch refuses.
fn check_items(values: &[Value], rules: BatchRules) -> Result<()> {
    check_batch_size(values.len())?;
    if rules.plain {
        for (index, item) in values.iter().enumerate() {
            for field in ["embedding", "t_valid", "t_invalid"] {
                if item.get(field).is_some_and(|v| !v.is_null()) {
                    return Err(crate::error::bad(
                        &format!("memories[{index}].{field}"),
                        "is not accepted in a batch; store the memory alone",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// A batch's items parsed, and which items repeat an earlier one (item index -> the earlier item's).
type ParsedBatch = (Vec<NewMemory>, HashMap<usize, usize>);

/// Parses a batch item by item, so the first error in the batch is the one reported, naming its item.
fn parse_batch(t: &Tenant, ctx: &ParseCtx, values: Vec<Value>, duplicates: Duplicates) -> Result<ParsedBatch> {
    let mut parsed = Vec::with_capacity(values.len());
    let mut repeats: HashMap<usize, usize> = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (index, value) in values.into_iter().enumerate() {
        let input: MemoryInput = validate::from_json(value, &format!("memories[{index}]"))?;
        if input.on_duplicate.is_some() {
            return Err(Error::invalid(format!(
                "memories[{index}].on_duplicate: set on_duplicate on the batch, not on an item"
            )));
        }
        if input.supersedes_memory_id.is_some() || input.supersede_relation.is_some() {
            return Err(Error::invalid(format!(
                "memories[{index}].supersedes_memory_id: a batch does not accept supersede fields; store the replacement alone"
            )));
        }
        let mut new = NewMemory::parse(input, &ctx.item("memories", index))?;
        admit(t, &mut new, &format!("memories[{index}]."))?;
        summarize::check_reserved(&new.metadata, &format!("memories[{index}].metadata"))?;
        usage::check_metadata(t, &new.metadata, &format!("memories[{index}].metadata"))?;
        summarize::govern(&mut new);
        if let Some(first) = seen.get(&new.content_hash) {
            match duplicates {
                Duplicates::Reject => {
                    return Err(Error::Conflict {
                        message: format!("memories[{index}].content: duplicates memories[{first}].content"),
                        existing_id: None,
                    })
                }
                Duplicates::Store => new.repeated = true,
                Duplicates::Reuse => {
                    repeats.insert(index, *first);
                }
            }
        } else {
            seen.insert(new.content_hash.clone(), index);
        }
        parsed.push(new);
    }
    Ok((parsed, repeats))
}

/// Stores a batch of up to 500 memories (given as JSON) in one transaction, all or nothing. Errors name the
/// item (`memories[2].content: ...`). Long items are summarised by word overlap (refined later by the job).
pub async fn store_batch(svc: &Services, t: &Tenant, values: Vec<Value>, rules: BatchRules) -> Result<BatchOutcome> {
    t.require(Scope::Write)?;
    check_items(&values, rules)?;
    usage::check_batch(t, "memories", values.len())?;
    let duplicates = rules.duplicates;
    let ctx = parse_ctx(svc);
    // Parsing 500 items (classification, summaries, hashes) is CPU work: off the request's executor thread.
    let tenant = t.clone();
    let (mut parsed, repeats) = super::offload(move || parse_batch(&tenant, &ctx, values, duplicates)).await?;
    let acting: usage::Acting = parsed
        .iter()
        .enumerate()
        .flat_map(|(i, new)| usage::acting_for(new.user_id.as_deref(), new.agent_id.as_deref(), Some(i)))
        .collect();
    usage::end_user_call(svc, t, &acting, None)?;
    // Insert in content-hash order: two batches holding the same items in different orders then take
    // their unique-index locks in the same order and cannot deadlock.
    let mut order: Vec<usize> = (0..parsed.len()).filter(|i| !repeats.contains_key(i)).collect();
    order.sort_by(|a, b| parsed[*a].content_hash.cmp(&parsed[*b].content_hash));
    let mut tx = svc.db.begin_tenant(t).await?;
    let actor = t.actor();
    let mut stored: Vec<Option<Memory>> = vec![None; parsed.len()];
    let mut ids: Vec<Option<Uuid>> = vec![None; parsed.len()];
    let mut deduplicated: Vec<usize> = repeats.keys().copied().collect();
    let batch: Vec<&NewMemory> = order.iter().map(|i| &parsed[*i]).collect();
    let outcomes = memories::insert_many(&mut tx, &batch, &actor).await?;
    // Items whose content the tenant holds, to store again as repeats (`on_duplicate: store`), and items whose
    // holder was deleted meanwhile, to store as they are.
    let mut again = Vec::new();
    let mut anew = Vec::new();
    for (index, outcome) in order.into_iter().zip(outcomes) {
        match outcome {
            Inserted::Stored(memory) => {
                ids[index] = Some(memory.id);
                stored[index] = Some(*memory);
            }
            Inserted::Duplicate { .. } if duplicates == Duplicates::Store => again.push(index),
            Inserted::Duplicate { existing_id } if duplicates == Duplicates::Reuse => {
                // Brought back if archived; deleted since the insert met it: the content is free, stored anew.
                match lifecycle::restore(&mut tx, existing_id, &actor).await? {
                    Some(_) => {
                        ids[index] = Some(existing_id);
                        deduplicated.push(index);
                    }
                    None => anew.push(index),
                }
            }
            Inserted::Duplicate { existing_id } => {
                return Err(Error::Conflict {
                    message: format!(
                        "memories[{index}].content: a memory with the same content already exists ({existing_id})"
                    ),
                    existing_id: Some(existing_id),
                });
            }
        }
    }
    for index in &again {
        parsed[*index].repeated = true;
    }
    again.extend(anew);
    if !again.is_empty() {
        let batch: Vec<&NewMemory> = again.iter().map(|i| &parsed[*i]).collect();
        for (index, outcome) in again.iter().zip(memories::insert_many(&mut tx, &batch, &actor).await?) {
            let Inserted::Stored(memory) = outcome else {
                return Err(Error::Unavailable("content changed concurrently; retry".into()));
            };
            ids[*index] = Some(memory.id);
            stored[*index] = Some(*memory);
        }
    }
    for (index, first) in &repeats {
        ids[*index] = ids[*first];
    }
    deduplicated.sort_unstable();
    let created: Vec<bool> = stored.iter().map(Option::is_some).collect();
    let stored: Vec<Memory> = stored.into_iter().flatten().collect();
    enqueue_after_insert(svc, &mut tx, &stored).await?;
    usage::check_storage(&mut tx, &t.limits, !stored.is_empty()).await?;
    let stored_ids: Vec<Uuid> = stored.iter().map(|m| m.id).collect();
    usage::check_end_users(&mut tx, &t.limits, &stored_ids).await?;
    tx.commit().await?;
    svc.usage.add(t.id, usage::counter::STORED, stored.len() as i64);
    Ok(BatchOutcome { stored, ids: ids.into_iter().flatten().collect(), deduplicated, created })
}

/// A page of memories matching `filter`, newest first, with the total.
pub async fn list(svc: &Services, t: &Tenant, filter: &ListFilter, limit: i64, offset: i64) -> Result<Page<Memory>> {
    t.require(Scope::Read)?;
    let mut filter = filter.clone();
    if let Some(scope) = &t.scope {
        scope.narrow(&mut filter.user_id, &mut filter.agent_id);
    }
    usage::end_user_call(
        svc,
        t,
        &usage::acting_for(filter.user_id.as_deref(), filter.agent_id.as_deref(), None),
        None,
    )?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let (items, total) = memories::list(&mut tx, &filter, limit, offset).await?;
    tx.commit().await?;
    Ok(Page { items, total, limit, offset })
}

/// An operator's look at a page of a tenant's memories (audited as `tenant.memories.read`); counts no access.
pub async fn list_of(
    svc: &Services,
    op: &crate::auth::admin::Operator,
    tenant_id: Uuid,
    filter: &ListFilter,
    limit: i64,
    offset: i64,
) -> Result<Page<Memory>> {
    let t = super::tenants::look(svc, op, tenant_id, "tenant.memories.read").await?;
    list(svc, &t, filter, limit, offset).await
}

/// One memory; with `touch`, the read counts as an access (its access count and recency, which the
/// forgetting clock reads). Without, nothing changes: a look from the dashboard or an operator.
pub async fn get(svc: &Services, t: &Tenant, id: Uuid, touch: bool) -> Result<Memory> {
    t.require(Scope::Read)?;
    if !touch {
        let mut tx = svc.db.begin_read(t, t.read_after).await?;
        let memory = memories::get(&mut tx, id, false).await?.ok_or_else(|| not_found(id))?;
        tx.commit().await?;
        return Ok(memory);
    }
    let mut tx = svc.db.begin_tenant(t).await?;
    let memory = memories::get_and_touch(&mut tx, id).await?.ok_or_else(|| not_found(id))?;
    tx.commit().await?;
    Ok(memory)
}

/// Applies a partial update. New content rehashes (conflict if another memory holds it), resets the
/// embedding, is summarised when long, and re-enriches; new tags re-enrich.
pub async fn update(svc: &Services, t: &Tenant, id: Uuid, patch: MemoryPatch) -> Result<Memory> {
    t.require(Scope::Write)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    // The episode it is in and the one it moves to, before its row (store::memories::lock_episodes).
    let target: Vec<String> = patch.episode_id.clone().flatten().into_iter().collect();
    memories::lock_episodes_and(&mut tx, &[id], &target).await?;
    let current = memories::get(&mut tx, id, true).await?.ok_or_else(|| not_found(id))?;
    if let Some(metadata) = &patch.metadata {
        summarize::check_reserved(metadata, "metadata")?;
        usage::check_metadata(t, metadata, "metadata")?;
    }
    let (mut updated, embedding) = patch.apply(&current, &parse_ctx(svc))?;
    admit(t, &mut updated, "")?;
    let content_changed = updated.content != current.content;
    summarize::carry_original(&current, &mut updated, content_changed);
    let summarized = content_changed && summarize::govern(&mut updated);
    if updated.content_hash != current.content_hash {
        if let Some(existing_id) = memories::find_by_hash(&mut tx, &updated.content_hash, Some(id)).await? {
            return Err(Error::Conflict {
                message: format!("content: a memory with the same content already exists ({existing_id})"),
                existing_id: Some(existing_id),
            });
        }
        // A memory outside a scoped key's scope may hold the content unseen: the edited one becomes a repeat,
        // which no other memory's content conflicts with (nor betrays).
        if tx.is_scoped() {
            updated.repeated = true;
        }
    }
    let reembed = embedding == EmbeddingChange::Reset;
    if updated.content_hash != current.content_hash || updated.tags != current.tags {
        enrich::requeue(&mut tx, &[id]).await?; // entities follow the content; entity tags are kept
    }
    let memory = memories::update(&mut tx, id, &updated, embedding, &t.actor()).await?;
    if reembed {
        embed::enqueue(&mut tx, &[id]).await?;
    }
    if summarized && can_refine(svc) {
        refine::enqueue(&mut tx, &[id]).await?;
    }
    // Every edit writes history (the row before and after), which counts towards what the tenant stores.
    usage::check_storage(&mut tx, &t.limits, true).await?;
    // It may have moved to another end user or agent, or grown under a byte cap.
    let moved = updated.user_id != current.user_id || updated.agent_id != current.agent_id;
    let grew = content_changed || updated.metadata != current.metadata;
    let byte_caps = t.limits.max_storage_bytes_per_user.is_some() || t.limits.max_storage_bytes_per_agent.is_some();
    if moved || (grew && byte_caps) {
        usage::check_end_users(&mut tx, &t.limits, &[id]).await?;
    }
    tx.commit().await?;
    Ok(memory)
}

/// Deletes a memory with its relations and entity links: gone from every read, restorable for the tenant's
/// undo window (`service::trash`), then erased.
pub async fn delete(svc: &Services, t: &Tenant, id: Uuid) -> Result<()> {
    t.require(Scope::Write)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    if !memories::delete(&mut tx, id, &t.actor()).await? {
        return Err(not_found(id));
    }
    tx.commit().await?;
    Ok(())
}

/// Active memories with any of the tags (exact, case-insensitive), importance then time descending
/// (AutoMem's by-tag). Returns the normalised tags and the page.
pub async fn by_tag(
    svc: &Services,
    t: &Tenant,
    tags: &[String],
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<(Vec<String>, Page<Memory>)> {
    t.require(Scope::Read)?;
    let tags = required_tags(tags)?;
    let (limit, offset) = validate::page(limit, offset, MAX_PAGE, DEFAULT_PAGE)?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let (items, total) = memories::list_by_tags(&mut tx, &tags, limit, offset).await?;
    tx.commit().await?;
    Ok((tags, Page { items, total, limit, offset }))
}

/// Deletes every memory with any of the tags (archived ones too); returns the normalised tags and how
/// many were deleted. More than [`super::trash::BY_TAG_CAP`] needs `confirm` (a misled agent cannot wipe a
/// tenant with one call); each stays restorable for the undo window.
pub async fn remove_by_tag(svc: &Services, t: &Tenant, tags: &[String], confirm: bool) -> Result<(Vec<String>, i64)> {
    t.require(Scope::Write)?;
    let tags = required_tags(tags)?;
    let mut tx = svc.db.begin_tenant(t).await?;
    super::trash::check_cap(memories::count_with_tags(&mut tx, &tags).await?, confirm, "delete")?;
    let deleted = memories::delete_by_tags(&mut tx, &tags, &t.actor()).await?;
    tx.commit().await?;
    Ok((tags, deleted))
}

/// The audit trail of a memory, oldest first (kept after the memory is deleted); not found when there is
/// none.
pub async fn history(svc: &Services, t: &Tenant, id: Uuid) -> Result<Vec<MemoryEvent>> {
    t.require(Scope::Read)?;
    let mut tx = svc.db.begin_read(t, t.read_after).await?;
    let events = events::history(&mut tx, id).await?;
    tx.commit().await?;
    if events.is_empty() {
        return Err(not_found(id));
    }
    Ok(events)
}
