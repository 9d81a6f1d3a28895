//! Recall's answer: each hit with its score components, and the expansions.

use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::Memory;

use crate::recall::score::ScoreComponents as Components;

/// Why a recall result scored as it did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScoreComponents {
    /// Similarity to the query: the cosine, or, where the memory has two or more runs of sentences (`sentence`),
    /// `CAIRN_SENTENCE_SHARE` (0.75 by default) of the better of the cosine and the best run's plus the rest of the
    /// cosine; clamped to [0, 1].
    pub semantic: Option<f64>,
    /// The cosine of the memory's best run of sentences, where it has two or more (each run is one or more of
    /// its sentences, at least eight words, embedded by itself with the memory's speaker label, if any);
    /// absent otherwise, and in keyword mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence: Option<f64>,
    /// Keyword rank relative to the best keyword match, [0, 1].
    pub keyword: Option<f64>,
    /// The fused query relevance.
    pub relevance: Option<f64>,
    pub importance: f64,
    /// `0.5^(age / 30 days)`.
    pub recency: f64,
    pub confidence: f64,
    pub credibility: f64,
    /// Share of the requested tags present.
    pub tag_match: Option<f64>,
    /// Match with the time the query names ("in May 2023": 1 inside that period, less the further outside)
    /// or asks about ("when…": 1 when the memory states a time); absent when the query says nothing of time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_match: Option<f64>,
    /// Share of the query's content words (stop words aside, compared by their first five letters) the memory
    /// holds; absent in semantic and associative mode and when the query has only stop words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
    /// The quality score used when `quality_boost` is on.
    pub quality: Option<f64>,
    /// The reranker's relevance, when a rerank stage ordered this result; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerank: Option<f64>,
    /// For a memory of an episode: the best score among the other candidates of its episode at most its reach
    /// away — as many places as hold about 80 words of that episode's memories (`CAIRN_NEIGHBOUR_WORDS`), from 2
    /// for long turns to 8 for short messages — before their own lift, and before a question among them gave
    /// way (`question`); the memory's score moved 0.4 of the way up to it when it was higher. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neighbour: Option<f64>,
    /// Share of the memory's words in questions (sentences whose closing marks hold a question mark followed by
    /// whitespace or the end of the text), when above 0: a question seldom states what it asks about, so the
    /// score lost that share times `CAIRN_QUESTION_WEIGHT` (0.05 by default; 0 keeps the score), after the
    /// neighbour lift. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<f64>,
    /// 1 when the memory is attributed to a person the query names: its text opens with their speaker label, as
    /// a transcript's line does ("Melanie: I play the clarinet" for "What does Melanie play?"; the label is the
    /// words before a colon followed by whitespace: at most three, each capitalised when more than one, and 40
    /// characters, on the first line). The score gained `CAIRN_SPEAKER_WEIGHT` (0.05 by default; 0 keeps the
    /// score; at most 1), after the neighbour lift. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speaker: Option<f64>,
}

impl From<Components> for ScoreComponents {
    fn from(c: Components) -> Self {
        let Components {
            semantic,
            sentence,
            keyword,
            relevance,
            importance,
            recency,
            confidence,
            credibility,
            tag_match,
            time_match,
            coverage,
            quality,
            rerank,
            neighbour,
            question,
            speaker,
        } = c;
        Self {
            semantic,
            sentence,
            keyword,
            relevance,
            importance,
            recency,
            confidence,
            credibility,
            tag_match,
            time_match,
            coverage,
            quality,
            rerank,
            neighbour,
            question,
            speaker,
        }
    }
}

/// One recalled memory.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallHit {
    pub memory: Memory,
    /// Overall score in [0, 1].
    pub score: f64,
    /// `hybrid` (found by meaning and keywords), `semantic`, `keyword`, `associative`, or `filter` (no query).
    pub match_type: &'static str,
    pub score_components: ScoreComponents,
    /// Set when this memory stands in for a superseded one that matched (`state_mode=current`): its id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaces: Option<Uuid>,
}

impl From<crate::recall::RecallHit> for RecallHit {
    fn from(h: crate::recall::RecallHit) -> Self {
        let crate::recall::RecallHit { memory, score, match_type, score_components, replaces } = h;
        Self { memory: memory.into(), score, match_type, score_components: score_components.into(), replaces }
    }
}

/// A memory added by `expand_relations` or `expand_entities`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Expansion {
    pub memory: Memory,
    /// The result it is associated with.
    pub expanded_from: Uuid,
    /// The association's type (`SHARES_ENTITY` for an entity expansion) and strength.
    pub relation: String,
    pub strength: f32,
    /// For an entity expansion: the shared entity, as `type:name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// The result's score times the strength.
    pub score: f64,
    /// Always `expansion`.
    pub match_type: &'static str,
}

impl From<crate::recall::Expansion> for Expansion {
    fn from(e: crate::recall::Expansion) -> Self {
        let crate::recall::Expansion { memory, expanded_from, relation, strength, entity, score } = e;
        Self { memory: memory.into(), expanded_from, relation, strength, entity, score, match_type: "expansion" }
    }
}

/// Expansions shown.
pub fn expansions(list: Option<Vec<crate::recall::Expansion>>) -> Option<Vec<Expansion>> {
    list.map(|l| l.into_iter().map(Expansion::from).collect())
}

/// A recall's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecallResponse {
    pub results: Vec<RecallHit>,
    /// Results on this page.
    pub count: usize,
    /// Whether more results follow (`offset + limit`).
    pub has_more: bool,
    /// The mode actually used (`keyword` when the model is not ready for a hybrid request).
    pub mode: &'static str,
    /// Set when the answer is degraded, saying why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// With `expand_relations` / `expand_entities`: memories one association away from the results, or
    /// sharing an entity with them (not among them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansions: Option<Vec<Expansion>>,
}

impl From<crate::recall::RecallResponse> for RecallResponse {
    fn from(r: crate::recall::RecallResponse) -> Self {
        let crate::recall::RecallResponse { results, has_more, mode, notice, expansions: more } = r;
        Self {
            count: results.len(),
            results: results.into_iter().map(RecallHit::from).collect(),
            has_more,
            mode,
            notice,
            expansions: expansions(more),
        }
    }
}
