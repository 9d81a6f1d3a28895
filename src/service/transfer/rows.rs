//! An import's rows, parsed into the same domain values a store builds: every line of an export goes through
//! the parsing of the API's writes (`NewMemory::parse` with its content, tag, metadata, embedding and time
//! rules; `NewAssociation`'s relation types and strengths; entity types and names), then back into a row with
//! every column given, so no row relies on a column another row of its batch happened to carry.
//!
//! What a store derives (the content hash, tag prefixes, an entity's normalised name, the episode context)
//! is derived again here, never taken from the file; state only an export carries (ids, access counts,
//! archive and decay times, embedding state) is checked field by field. Unknown fields are refused, naming
//! them: a file from a newer version fails loudly instead of losing data.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::super::{usage, Services};
use crate::auth::Tenant;
use crate::error::{bad, Error, Result};
use crate::memory::{summarize, Lifecycle, MemoryInput, NewMemory, ParseCtx, MAX_CONTENT_CHARS, MAX_ID_CHARS};
use crate::models::embed::SlotState;
use crate::validate;

/// Longest `embedding_error`, `actor` or entity alias kept from a file (characters).
const MAX_NOTE_CHARS: usize = 2000;
/// Event types a memory's history may hold.
const EVENT_TYPES: &[&str] =
    &["created", "updated", "deleted", "archived", "promoted", "superseded", "decayed", "restored", "forgotten"];
/// States of a memory's embedding and enrichment.
const STATES: &[&str] = &["pending", "ready", "failed"];

/// A parsed row: its table's columns, every one given.
pub type Row = Map<String, Value>;

/// What a parsed memory row needs besides its columns: whether its vector came with it (no re-embedding).
pub struct ParsedRow {
    pub row: Row,
    pub keeps_vector: bool,
}

/// Parses `data`, the row of `table` on line `number`.
pub fn parse(svc: &Services, t: &Tenant, number: u64, table: &str, data: Value) -> Result<ParsedRow> {
    let field = format!("line {number}");
    let ctx = ParseCtx { prefix: format!("line {number}: "), ..ParseCtx::new(Utc::now(), svc.config.embedding_dim) };
    if t.scope.is_some() && matches!(table, "entities" | "entity_aliases" | "memory_entities") {
        // Entities are the tenant's, shared by every end user: a scoped key imports its memories, their
        // history and associations, and enrichment finds their entities again.
        return Err(Error::Forbidden(format!(
            "{field}: a key scoped to end users, agents or tags imports memories, memory_events and relations only, not {table}"
        )));
    }
    let parsed = match table {
        "memories" => return memory(svc, t, &ctx, validate::from_json(data, &field)?),
        "memory_events" => event(t, &ctx, validate::from_json(data, &field)?)?,
        "relations" => relation(t, &ctx, validate::from_json(data, &field)?)?,
        "entities" => entity(t, &ctx, validate::from_json(data, &field)?)?,
        "entity_aliases" => alias(&ctx, validate::from_json(data, &field)?)?,
        "memory_entities" => mention(validate::from_json(data, &field)?)?,
        other => return Err(bad(&field, format!("unknown table {other:?}"))),
    };
    Ok(ParsedRow { row: parsed, keeps_vector: false })
}

fn time(t: Option<DateTime<Utc>>) -> Value {
    t.map_or(Value::Null, |t| json!(t))
}

/// An optional timestamp field.
fn when(ctx: &ParseCtx, field: &str, value: Option<String>) -> Result<Option<DateTime<Utc>>> {
    Ok(value.map(|v| ctx.timestamp(field, &v)).transpose()?)
}

/// A required id: absent ids are new ones.
fn id_or_new(id: Option<Uuid>) -> Uuid {
    id.unwrap_or_else(Uuid::new_v4)
}

/// One of `allowed`.
fn one_of(ctx: &ParseCtx, field: &str, value: &str, allowed: &[&'static str]) -> Result<&'static str> {
    allowed
        .iter()
        .copied()
        .find(|a| *a == value)
        .ok_or_else(|| ctx.err(field, format!("must be one of {} (got {value:?})", allowed.join(", "))).into())
}

/// A short free text: at most `max` characters, no NUL.
fn note(ctx: &ParseCtx, field: &str, value: Option<String>, max: usize) -> Result<Option<String>> {
    let Some(value) = value else { return Ok(None) };
    ctx.no_nul(field, &value)?;
    if value.len() > max && value.chars().nth(max).is_some() {
        return Err(ctx.err(field, format!("must be at most {max} characters")).into());
    }
    Ok(Some(value))
}

/// How an imported JSON object is checked beyond being an object without NUL.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A client's own object (association properties): the metadata size quota applies, as when stored.
    Client,
    /// Written by the service (an entity's metadata, merges appended): bounded by the line, not the quota.
    Service,
    /// A history snapshot (a whole row, its metadata one level deeper): nullable, bounded by the line.
    Snapshot,
}

/// A JSON object of an imported row (or null for a snapshot), checked as `kind` says, nested at most
/// [`validate::MAX_JSON_DEPTH`] levels (one more for a snapshot).
fn object(ctx: &ParseCtx, t: &Tenant, field: &str, value: Option<Value>, kind: Kind) -> Result<Value> {
    let named = format!("{}{field}", ctx.prefix);
    let value = match value {
        None | Some(Value::Null) if kind == Kind::Snapshot => return Ok(Value::Null),
        None | Some(Value::Null) => return Ok(json!({})),
        Some(v) => v,
    };
    let extra = usize::from(kind == Kind::Snapshot);
    if !value.is_object() {
        return Err(bad(&named, "must be a JSON object"));
    }
    if validate::json_depth(&value, validate::MAX_JSON_DEPTH + extra) > validate::MAX_JSON_DEPTH + extra {
        return Err(bad(&named, format!("must not nest deeper than {} levels", validate::MAX_JSON_DEPTH + extra)));
    }
    if validate::has_nul(&value) {
        return Err(bad(&named, "must not contain NUL (U+0000) characters"));
    }
    if kind == Kind::Client {
        usage::check_metadata(t, &value, &named)?;
    }
    Ok(value)
}

/// Metadata keys the service writes into a memory's metadata (a summary's original, supersede mode's
/// record): theirs, not the client's, so not charged to the client's metadata quota.
const SERVICE_KEYS: &[&str] = &[summarize::ORIGINAL_KEY, "superseded_by", "supersede_relation", "supersede_reason"];

/// A memory as exported: the columns of `memories` (generated and derived ones are accepted and ignored).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemoryRow {
    id: Option<Uuid>,
    content: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    confidence: Option<f64>,
    memory_type: Option<String>,
    ttl_seconds: Option<i64>,
    expires_at: Option<String>,
    tags: Option<Value>,
    importance: Option<f64>,
    metadata: Option<Value>,
    source_type: Option<String>,
    credibility: Option<f64>,
    quality_score: Option<f64>,
    emotion: Option<String>,
    emotional_valence: Option<f64>,
    emotional_arousal: Option<f64>,
    flashbulb_until: Option<String>,
    episode_id: Option<String>,
    sequence_number: Option<i64>,
    user_id: Option<String>,
    agent_id: Option<String>,
    run_id: Option<String>,
    t_valid: Option<String>,
    t_invalid: Option<String>,
    created_at: Option<String>,
    updated_at: Option<String>,
    last_accessed_at: Option<String>,
    access_count: Option<i64>,
    archived_at: Option<String>,
    /// pgvector's text form (`"[0.1,0.2]"`, as exported) or an array.
    embedding: Option<Value>,
    embedding_status: Option<String>,
    embedding_model: Option<String>,
    embedding_error: Option<String>,
    enrichment_status: Option<String>,
    base_importance: Option<f64>,
    decayed_at: Option<String>,
    summary: Option<String>,
    quality_computed: Option<bool>,
    /// A repeat of content stored before it (`on_duplicate: store`).
    repeated: Option<bool>,
    // Derived by the service, never taken from a file.
    #[serde(default, rename = "content_hash")]
    _content_hash: Option<Value>,
    #[serde(default, rename = "tag_prefixes")]
    _tag_prefixes: Option<Value>,
    #[serde(default, rename = "summarized")]
    _summarized: Option<Value>,
    #[serde(default, rename = "original_length")]
    _original_length: Option<Value>,
    #[serde(default, rename = "summarized_length")]
    _summarized_length: Option<Value>,
    #[serde(default, rename = "search_tsv")]
    _search_tsv: Option<Value>,
    #[serde(default, rename = "context")]
    _context: Option<Value>,
    #[serde(default, rename = "context_tsv")]
    _context_tsv: Option<Value>,
    #[serde(default, rename = "search_keys")]
    _search_keys: Option<Value>,
    #[serde(default, rename = "context_keys")]
    _context_keys: Option<Value>,
    #[serde(default, rename = "context_embedding")]
    _context_embedding: Option<Value>,
    #[serde(default, rename = "sentence_embeddings")]
    _sentence_embeddings: Option<Value>,
    // Stamped by the server: whoever imports the file.
    #[serde(default, rename = "created_by")]
    _created_by: Option<Value>,
    #[serde(default, rename = "created_by_scope")]
    _created_by_scope: Option<Value>,
}

/// A vector in pgvector's text form or as an array.
fn vector(ctx: &ParseCtx, value: Value) -> Result<Vec<f32>> {
    let parsed = match value {
        Value::String(text) => serde_json::from_str::<Vec<f32>>(&text).ok(),
        other => serde_json::from_value::<Vec<f32>>(other).ok(),
    };
    let vector = parsed.ok_or_else(|| ctx.err("embedding", "must be a list of numbers"))?;
    Ok(ctx.embedding(vector)?)
}

fn memory(svc: &Services, t: &Tenant, ctx: &ParseCtx, r: MemoryRow) -> Result<ParsedRow> {
    // A summarised memory carries its original beside it: the dedup hash is the original's, and the original
    // obeys the content rules; callers' own metadata never holds the key.
    let mut metadata = r.metadata.unwrap_or(Value::Null);
    let original = match metadata.as_object_mut().and_then(|m| m.remove(summarize::ORIGINAL_KEY)) {
        None => None,
        Some(Value::String(text)) => Some(
            ctx.content(Some(text))
                .map_err(|e| ctx.err(&format!("metadata.{}", summarize::ORIGINAL_KEY), e.message))?,
        ),
        Some(_) => return Err(ctx.err(&format!("metadata.{}", summarize::ORIGINAL_KEY), "must be a string").into()),
    };
    // The vector is kept when this deployment's model made it (where no model runs in this process, the CLI
    // on the database host or a keyword-only deployment, a ready vector of a named model is kept); a memory
    // of an episode is embedded again with its context, unless the client made its vector.
    let model = r.embedding_model.as_deref();
    let made_here = match svc.embedder.state() {
        SlotState::Disabled => model.is_some(),
        _ => svc.embedder.get().is_some_and(|e| Some(e.model()) == model),
    };
    let ready = r.embedding.as_ref().is_some_and(|v| !v.is_null())
        && r.embedding_status.as_deref() == Some("ready")
        && made_here;
    let episodic = r.episode_id.is_some();
    // Nor is it kept where this process's model would embed its runs of sentences (the file does not carry
    // them); where no model runs, the vector is kept all the same.
    let runs = svc.config.sentence_vectors
        && svc.embedder.state() != SlotState::Disabled
        && r.content.as_deref().is_some_and(|c| !crate::recall::sentences::runs(c).is_empty());
    let keeps_vector = ready && (model == Some("client") || (!episodic && !runs));
    let embedding = match (keeps_vector, r.embedding) {
        (true, Some(v)) => Some(vector(ctx, v)?),
        _ => None,
    };
    let input = MemoryInput {
        content: r.content,
        kind: r.kind,
        confidence: r.confidence,
        tags: r.tags,
        importance: r.importance,
        metadata: Some(metadata),
        source_type: r.source_type,
        credibility: r.credibility,
        quality_score: r.quality_score,
        emotion: r.emotion,
        emotional_valence: r.emotional_valence,
        episode_id: r.episode_id,
        sequence_number: r.sequence_number,
        user_id: r.user_id,
        agent_id: r.agent_id,
        run_id: r.run_id,
        t_valid: r.t_valid,
        t_invalid: r.t_invalid,
        created_at: r.created_at,
        embedding,
        // The lifecycle as exported (below), not the creation rules (a flashbulb's importance may have decayed
        // since, a TTL's clock started long ago).
        ..MemoryInput::default()
    };
    let mut m = NewMemory::parse(input, ctx)?;
    crate::service::memories::admit(t, &mut m, &ctx.prefix)?;
    let mut own = m.metadata.clone();
    if let Some(map) = own.as_object_mut() {
        map.retain(|k, _| !SERVICE_KEYS.contains(&k.as_str()));
    }
    usage::check_metadata(t, &own, &format!("{}metadata", ctx.prefix))?;
    match original {
        Some(original) => {
            m.content_hash = crate::memory::content_hash(&original);
            m.metadata[summarize::ORIGINAL_KEY] = Value::String(original);
        }
        None => {
            summarize::govern(&mut m);
        }
    }
    let memory_type = r.memory_type.map(|v| ctx.lifecycle(&v)).transpose()?.unwrap_or(Lifecycle::LongTerm);
    let ttl = r.ttl_seconds.map(|v| ctx.ttl(v)).transpose()?;
    let arousal = r.emotional_arousal.map(|v| ctx.unit("emotional_arousal", v)).transpose()?;
    let access_count = r.access_count.unwrap_or(0);
    if access_count < 0 {
        return Err(ctx.err("access_count", format!("must not be negative (got {access_count})")).into());
    }
    let base_importance = r.base_importance.map(|v| ctx.unit("base_importance", v)).transpose()?;
    let embedding_status = match (&m.embedding, r.embedding_status.as_deref()) {
        (Some(_), _) => "ready",
        (None, Some(s)) => {
            one_of(ctx, "embedding_status", s, STATES)?;
            "pending"
        }
        (None, None) => "pending",
    };
    let enrichment_status =
        r.enrichment_status.as_deref().map(|s| one_of(ctx, "enrichment_status", s, STATES)).transpose()?;
    let embedding_model = note(ctx, "embedding_model", r.embedding_model.clone(), MAX_ID_CHARS)?;
    let row = json!({
        "id": id_or_new(r.id),
        "content": m.content,
        "content_hash": m.content_hash,
        // A scoped key's memories are repeats: the content index spans memories it cannot see, and a row
        // skipped as a duplicate of one would betray it.
        "repeated": r.repeated.unwrap_or(false) || t.scope.is_some(),
        "type": m.kind,
        "confidence": m.confidence,
        "memory_type": memory_type.as_str(),
        "ttl_seconds": ttl,
        "expires_at": time(when(ctx, "expires_at", r.expires_at)?),
        "tag_prefixes": m.tag_prefixes,
        "tags": m.tags,
        "importance": m.importance,
        "metadata": m.metadata,
        "source_type": m.source_type,
        "credibility": m.credibility,
        "quality_score": m.quality_score,
        "emotion": m.emotion,
        "emotional_valence": m.emotional_valence,
        "emotional_arousal": arousal,
        "flashbulb_until": time(when(ctx, "flashbulb_until", r.flashbulb_until)?),
        "episode_id": m.episode_id,
        "sequence_number": m.sequence_number,
        "user_id": m.user_id,
        "agent_id": m.agent_id,
        "run_id": m.run_id,
        "t_valid": time(m.t_valid),
        "t_invalid": time(m.t_invalid),
        "created_at": m.created_at,
        "updated_at": time(when(ctx, "updated_at", r.updated_at)?.or(Some(m.created_at))),
        "last_accessed_at": time(when(ctx, "last_accessed_at", r.last_accessed_at)?),
        "access_count": access_count,
        "archived_at": time(when(ctx, "archived_at", r.archived_at)?),
        // pgvector's text form.
        "embedding": m.embedding.as_ref().map(|v| Value::String(json!(v).to_string())),
        "embedding_status": embedding_status,
        "embedding_model": if m.embedding.is_some() { embedding_model.map_or(Value::Null, Value::String) } else { Value::Null },
        "embedding_error": Value::Null,
        "enrichment_status": enrichment_status.unwrap_or("pending"),
        "base_importance": base_importance,
        "decayed_at": time(when(ctx, "decayed_at", r.decayed_at)?),
        "summary": note(ctx, "summary", r.summary, MAX_CONTENT_CHARS)?,
        "quality_computed": r.quality_computed.unwrap_or(false),
    });
    let _ = note(ctx, "embedding_error", r.embedding_error, MAX_NOTE_CHARS)?;
    let Value::Object(mut row) = row else { unreachable!("a JSON object") };
    // Whoever imports the file stored it here (the file's author is not taken).
    row.insert("created_by".into(), json!(t.actor()));
    Ok(ParsedRow { row, keeps_vector })
}

/// A history event as exported (its id is not: ids are the deployment's own, in file order).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventRow {
    memory_id: Uuid,
    event_type: String,
    actor: Option<String>,
    /// The scope of the key that made the change where the file came from: kept with its imported actor.
    #[serde(default)]
    actor_scope: Option<Value>,
    before: Option<Value>,
    after: Option<Value>,
    created_at: Option<String>,
    #[serde(default, rename = "id")]
    _id: Option<Value>,
}

fn event(t: &Tenant, ctx: &ParseCtx, r: EventRow) -> Result<Row> {
    let event_type = one_of(ctx, "event_type", &r.event_type, EVENT_TYPES)?;
    let actor = note(ctx, "actor", r.actor, MAX_NOTE_CHARS)?.unwrap_or_else(|| "unknown".into());
    // Marked as imported: the history says who changed the memory where it came from.
    let actor = if actor.starts_with("import:") { actor } else { format!("import:{actor}") };
    Ok(Map::from_iter([
        ("memory_id".into(), json!(r.memory_id)),
        ("event_type".into(), json!(event_type)),
        ("actor".into(), json!(actor)),
        ("actor_scope".into(), actor_scope(ctx, r.actor_scope)?),
        ("before".into(), object(ctx, t, "before", r.before, Kind::Snapshot)?),
        ("after".into(), object(ctx, t, "after", r.after, Kind::Snapshot)?),
        ("created_at".into(), json!(when(ctx, "created_at", r.created_at)?.unwrap_or(ctx.now))),
    ]))
}

/// An imported event's `actor_scope`: null, or a scope as the export wrote it (`users`, `agents`, `tags`, each
/// a list checked as a key's scope is), written back in the same form. The field is named in errors.
fn actor_scope(ctx: &ParseCtx, value: Option<Value>) -> Result<Value> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Stamp {
        users: Option<Vec<String>>,
        agents: Option<Vec<String>>,
        tags: Option<Vec<String>>,
    }
    let field = format!("{}actor_scope", ctx.prefix);
    let Some(v) = value.filter(|v| !v.is_null()) else { return Ok(Value::Null) };
    let stamp: Stamp = serde_json::from_value(v)
        .map_err(|e| bad(&field, format!("must be {{\"users\"?, \"agents\"?, \"tags\"?}} lists: {e}")))?;
    let scope = crate::tenancy::KeyScope::parse(stamp.users, stamp.agents, stamp.tags)
        .map_err(|e| bad(&field, e.to_string()))?;
    Ok(scope.map_or(Value::Null, |s| json!(s)))
}

/// An association as exported: any relation type (the system's too: the export holds them).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RelationRow {
    id: Option<Uuid>,
    source_id: Uuid,
    target_id: Uuid,
    rel_type: String,
    strength: Option<f64>,
    base_strength: Option<f64>,
    properties: Option<Value>,
    created_at: Option<String>,
    updated_at: Option<String>,
    learned_at: Option<String>,
}

fn relation(t: &Tenant, ctx: &ParseCtx, r: RelationRow) -> Result<Row> {
    if r.source_id == r.target_id {
        return Err(ctx.err("target_id", "must differ from source_id").into());
    }
    let rel_type = crate::graph::any_type(&format!("{}rel_type", ctx.prefix), &r.rel_type).map_err(Error::Invalid)?;
    let strength = ctx.unit("strength", r.strength.unwrap_or(0.5))?;
    let base_strength = r.base_strength.map(|v| ctx.unit("base_strength", v)).transpose()?;
    let created_at = when(ctx, "created_at", r.created_at)?.unwrap_or(ctx.now);
    Ok(Map::from_iter([
        ("id".into(), json!(id_or_new(r.id))),
        ("source_id".into(), json!(r.source_id)),
        ("target_id".into(), json!(r.target_id)),
        ("rel_type".into(), json!(rel_type)),
        ("strength".into(), json!(strength)),
        ("base_strength".into(), json!(base_strength)),
        ("properties".into(), object(ctx, t, "properties", r.properties, Kind::Client)?),
        ("created_at".into(), json!(created_at)),
        ("updated_at".into(), json!(when(ctx, "updated_at", r.updated_at)?.unwrap_or(created_at))),
        ("learned_at".into(), time(when(ctx, "learned_at", r.learned_at)?)),
    ]))
}

/// An entity as exported; its normalised name is derived from its name, as enrichment derives it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntityRow {
    id: Option<Uuid>,
    entity_type: String,
    name: String,
    metadata: Option<Value>,
    created_at: Option<String>,
    #[serde(default, rename = "normalized_name")]
    _normalized_name: Option<Value>,
}

fn entity(t: &Tenant, ctx: &ParseCtx, r: EntityRow) -> Result<Row> {
    let kind = crate::entities::entity_type(&format!("{}entity_type", ctx.prefix), &r.entity_type)?;
    let name = note(ctx, "name", Some(r.name), crate::entities::MAX_NAME_CHARS)?.unwrap_or_default();
    let normalized = crate::entities::normalize_name(&name);
    if normalized.is_empty() {
        return Err(ctx.err("name", "must hold a letter or digit").into());
    }
    Ok(Map::from_iter([
        ("id".into(), json!(id_or_new(r.id))),
        ("entity_type".into(), json!(kind)),
        ("name".into(), json!(name.trim())),
        ("normalized_name".into(), json!(normalized)),
        ("metadata".into(), object(ctx, t, "metadata", r.metadata, Kind::Service)?),
        ("created_at".into(), json!(when(ctx, "created_at", r.created_at)?.unwrap_or(ctx.now))),
    ]))
}

/// A merged entity's former name (`type:normalized_name`), pointing at the entity it was merged into.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AliasRow {
    entity_id: Uuid,
    alias: String,
}

fn alias(ctx: &ParseCtx, r: AliasRow) -> Result<Row> {
    let alias = note(ctx, "alias", Some(r.alias), MAX_NOTE_CHARS)?.unwrap_or_default();
    let valid = alias
        .split_once(':')
        .is_some_and(|(kind, name)| crate::entities::parse_type(kind).is_some() && !name.trim().is_empty());
    if !valid {
        return Err(ctx.err("alias", "must be <entity type>:<normalised name>").into());
    }
    Ok(Map::from_iter([("entity_id".into(), json!(r.entity_id)), ("alias".into(), json!(alias))]))
}

/// A memory's mention of an entity.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MentionRow {
    memory_id: Uuid,
    entity_id: Uuid,
}

fn mention(r: MentionRow) -> Result<Row> {
    Ok(Map::from_iter([("memory_id".into(), json!(r.memory_id)), ("entity_id".into(), json!(r.entity_id))]))
}
