//! Recall's other forms over the same pipeline: grouped by entity (textrawl's `recall_memories`), proactive
//! context (SHODH's `/api/context`), and a summary of what was recalled.

use chrono::Utc;
use uuid::Uuid;

use super::super::memories::{self, Duplicates, StoreOutcome};
use super::super::Services;
use super::*;
use crate::auth::{Scope, Tenant};
use crate::error::{bad, Error, Result};
use crate::memory::summarize::{self, SummaryMethod};
use crate::memory::{MemoryInput, MAX_CONTENT_CHARS};
use crate::models::embed::SlotState;
use crate::recall::results::{self, Group};
use crate::recall::{
    ContextParams, GroupedRequest, Mode, RecallHit, RecallRequest, DEFAULT_SURFACED, MAX_QUERY_CHARS, MAX_SURFACED,
};
use crate::store::entities;
use crate::validate;

/// An entity-grouped recall's answer.
pub struct Grouped {
    pub groups: Vec<Group>,
    /// Distinct memories returned.
    pub total: usize,
    pub mode: &'static str,
    pub notice: Option<String>,
    /// Whether the caller asked for the compact shape (None: the deployment's default).
    pub compact: bool,
}

/// Entity-grouped recall (textrawl's `recall_memories`): a wide recall, then the best `limit` memories
/// that mention an entity (of the wanted types), grouped by entity. Only those memories count an access.
pub async fn recall_grouped(svc: &Services, t: &Tenant, req: GroupedRequest) -> Result<Grouped> {
    t.require(Scope::Read)?;
    if req.mode == Mode::Semantic && svc.embedder.state() == SlotState::Disabled {
        return Err(bad(
            "searchMode",
            "Embedding service not configured (CAIRN_EMBEDDER=none): semantic search is unavailable; use searchMode hybrid for keyword results",
        ));
    }
    let wide = req.recall(Utc::now())?;
    let (mut tx, mut answers) = in_snapshot(svc, t, std::slice::from_ref(&wide)).await?;
    let recalled = answers.pop().ok_or_else(|| Error::internal("a recall without an answer"))?;
    let mentions = entities::mentions(&mut tx, &ids(&recalled.results), &req.kinds).await?;
    tx.commit().await?;
    let (groups, kept) = results::group(&recalled.results, &mentions, req.limit as usize);
    count_access(svc, t.id, kept.clone(), false);
    Ok(Grouped {
        groups,
        total: kept.len(),
        mode: recalled.mode,
        notice: recalled.notice,
        compact: req.compact.unwrap_or(svc.config.compact_responses),
    })
}

/// What proactive context surfaced, and whether it stored the context.
pub struct Surfaced {
    pub hits: Vec<RecallHit>,
    /// Whether the context was stored (false when it was already stored or `auto_ingest` is off).
    pub ingested: bool,
    /// The Conversation memory holding the context (the existing one when it was already stored).
    pub ingested_id: Option<Uuid>,
}

/// Proactive context (SHODH): recalls the memories most relevant to the conversation (hybrid), then, with
/// `auto_ingest` (default), stores it as a Conversation memory. The recall runs before the store, so a new
/// context does not surface itself.
pub async fn context(svc: &Services, t: &Tenant, params: ContextParams) -> Result<Surfaced> {
    let context = params
        .context
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .ok_or_else(|| bad("context", "is required"))?;
    let limit = validate::bounded("max_results", params.max_results, 1, MAX_SURFACED, DEFAULT_SURFACED)?;
    let auto_ingest = params.auto_ingest.unwrap_or(true);
    if auto_ingest {
        t.require(Scope::Write)?;
        // Checked before anything runs: a context too long to store must not count accesses first.
        let chars = context.chars().count();
        if chars > MAX_CONTENT_CHARS {
            return Err(bad(
                "context",
                format!("must be at most {MAX_CONTENT_CHARS} characters to be ingested (got {chars})"),
            ));
        }
    }
    let query: String = context.chars().take(MAX_QUERY_CHARS).collect();
    let params = crate::recall::RecallParams { query: Some(query), limit: Some(limit), ..Default::default() };
    let answer = recall(svc, t, RecallRequest::parse(params, Utc::now())?).await?;
    let (ingested, ingested_id) = match auto_ingest {
        false => (false, None),
        true => {
            let input = MemoryInput {
                content: Some(context),
                kind: Some("Conversation".into()),
                source_type: Some("user".into()),
                ..MemoryInput::default()
            };
            match memories::store(svc, t, input, Duplicates::Reuse).await {
                Ok(StoreOutcome::Stored(m)) => (true, Some(m.id)),
                Ok(StoreOutcome::Existing(m)) => (false, Some(m.id)),
                Err(err) => return Err(err.renamed(&[("content", "context")])),
            }
        }
    };
    Ok(Surfaced { hits: answer.results, ingested, ingested_id })
}

/// A short summary of recalled memories (SHODH's `summarize`): the chat model's in `language` (`en` or
/// `de`) when one is configured and answers, else the most central sentences of the memories themselves.
/// A chat-model summary spends one of the tenant's daily `summaries_per_day` (429 once spent).
pub async fn summarize_hits(
    svc: &Services,
    t: &Tenant,
    hits: &[RecallHit],
    language: &str,
) -> Result<Option<(String, SummaryMethod)>> {
    let contents: Vec<&str> = hits.iter().map(|h| h.memory.content.as_str()).collect();
    let mut chat = svc.chat.as_deref().filter(|_| !contents.is_empty());
    if chat.is_some() {
        // A spent budget falls back to the extractive summary rather than failing the recall.
        match super::super::usage::spend(svc, t, crate::tenancy::Budget::Summaries, 1).await {
            Ok(()) => svc.usage.add(t.id, super::super::usage::counter::CHAT_CALLS, 1),
            Err(Error::RateLimited { .. } | Error::Forbidden(_)) => chat = None,
            Err(other) => return Err(other),
        }
    }
    Ok(summarize::of_results(&contents, language, chat).await)
}
