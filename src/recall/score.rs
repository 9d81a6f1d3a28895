//! Scoring recall candidates: fusing the vector and keyword signals, then blending in importance,
//! recency, confidence, credibility, tag match and (SHODH's `quality_boost`) quality. Pure functions;
//! every score and component is in [0, 1].

use chrono::{DateTime, Utc};

use crate::config::Fusion;

/// Weight of the semantic signal (the cosine, with the best run of sentences) in weighted fusion; the keyword
/// signal has the rest. 0.7 was chosen before the runs existed; with them, 0.75 is the best of 0.7-0.85 on the
/// tuning halves (conversations 1-3) of the LoCoMo dev file as turns and as messages together, through the
/// service (10 results asked, recall@10 + recall@5: 1.571 → 1.579 and 1.466 → 1.470), and lifts LongMemEval's
/// preference questions on both halves of its development set (the answer session's place, first five 1, 2, 3,
/// 1, 2 → 1, 2, 3, 1, 1; last five 10, 1, 5, 1, 2 → 7, 1, 5, 1, 1). README, "The cosine's weight again".
pub const SEMANTIC_WEIGHT: f64 = 0.75;
/// Share of the semantic signal that is the better of the memory's cosine and its best run of sentences' (where
/// it has runs, `recall::sentences`) by default (`CAIRN_SENTENCE_SHARE`); the rest is its own cosine, so a memory whose every part is about the
/// question still beats one with a single matching sentence. Chosen offline on the tuning half of the LoCoMo
/// dev file (0.5 / 0.6 / 0.75 / 0.9 / 1.0: vectors alone, recall@10 0.603 / 0.611 / 0.633 / 0.613 / 0.610), and
/// the best of them on the held-out half too (README, "A memory's best sentence").
pub const SENTENCE_SHARE: f64 = crate::config::DEFAULT_SENTENCE_SHARE;
/// The RRF constant.
pub const RRF_K: f64 = 60.0;
/// Recency half-life in days.
pub const RECENCY_HALF_LIFE_DAYS: f64 = 30.0;

/// Weights of the final blend; they sum to 1 (a missing signal's weight is shared out among the rest).
const W_RELEVANCE: f64 = 0.70;
const W_IMPORTANCE: f64 = 0.12;
const W_RECENCY: f64 = 0.08;
const W_CONFIDENCE: f64 = 0.03;
const W_CREDIBILITY: f64 = 0.03;
const W_TAGS: f64 = 0.04;
/// Weight of the match with the question's time (`recall::query`), when it names one or asks when. 0.10 was
/// chosen on the tuning half of the LoCoMo dev file before coverage, the neighbour lift, the question demotion
/// and the speaker label; with them, 0.20 is the best of 0.10-0.30 on the tuning halves of the file as turns
/// and as messages together (through the service, 10 results asked, recall@10 0.826 → 0.834 and 0.774 →
/// 0.774), and raises both held-out halves (0.778 / 0.697 → 0.782 / 0.707 and 0.740 / 0.668 → 0.740 / 0.674,
/// recall@10 / recall@5). README, "The time match's weight again".
pub const W_TIME: f64 = 0.20;
/// Weight of coverage, the share of the question's content words a memory holds (`recall::query`), when
/// keywords take part: 0.3 of relevance's weight, chosen on the tuning half of the LoCoMo dev file (flat from
/// 0.2 to 0.4 of it, over each question's top 100 offline): recall@10 0.801 → 0.812 there, 0.747 → 0.763 held
/// out.
pub const W_COVERAGE: f64 = 0.21;

/// One candidate's raw signals.
#[derive(Debug, Clone, Default)]
pub struct Signals {
    /// Cosine similarity to the query (None: no vector yet, or no query vector).
    pub cosine: Option<f64>,
    /// Cosine similarity of the memory's best run of sentences (None: it has fewer than two).
    pub sentence: Option<f64>,
    /// 1-based rank by meaning: in the vector candidate list, or with reciprocal-rank fusion the memory's place
    /// among the candidates ([`PoolRanks`]).
    pub vector_rank: Option<usize>,
    /// Keyword rank value (ts_rank_cd), > 0 when the memory matched the keywords.
    pub keyword: Option<f64>,
    /// 1-based rank by keywords: in the keyword candidate list, or with reciprocal-rank fusion the memory's place
    /// among the candidates ([`PoolRanks`]).
    pub keyword_rank: Option<usize>,
    pub importance: f64,
    pub confidence: f64,
    pub credibility: f64,
    pub quality: Option<f64>,
    pub created_at: Option<DateTime<Utc>>,
    /// Share of the requested tags the memory carries (None: no tags requested).
    pub tag_match: Option<f64>,
    /// Match with the time the question names or asks about (None: it says nothing about time).
    pub time_match: Option<f64>,
    /// Share of the question's content words the memory holds (None: no query words, or keywords are off).
    pub coverage: Option<f64>,
}

/// Why a result scored as it did. (Serialised as kept in a quality report's stored results; the API shows
/// it through `api::views::ScoreComponents`.)
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ScoreComponents {
    /// Similarity to the query: the cosine, or where the memory has runs of sentences, [`SENTENCE_SHARE`] of the
    /// better of it and the best run's plus the rest of it; clamped to [0, 1].
    pub semantic: Option<f64>,
    /// The cosine of the memory's best run of sentences, when it has two or more runs.
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
    /// Match with the time the question names ("in May 2023": 1 inside that period, less the further
    /// outside) or asks about ("when…": 1 when the memory states a time).
    pub time_match: Option<f64>,
    /// Share of the question's content words (stop words aside, first five letters) the memory holds.
    pub coverage: Option<f64>,
    /// The quality score used when `quality_boost` is on.
    pub quality: Option<f64>,
    /// The reranker's relevance, when a rerank stage ordered this result (`CAIRN_RERANKER`).
    pub rerank: Option<f64>,
    /// The best score among the other candidates of the memory's episode at most its episode's reach away
    /// ([`episode_reaches`]: from [`NEIGHBOUR_REACH`] to [`NEIGHBOUR_REACH_MAX`] places), before their own lift
    /// and before a question among them lost its share ([`demote_question`]); the memory's score moved
    /// [`W_NEIGHBOUR`] of the way up to it.
    pub neighbour: Option<f64>,
    /// Share of the memory's words in questions ([`question_share`]), when above 0; the score lost that share
    /// times the deployment's question weight ([`W_QUESTION`] by default; 0 keeps the score).
    pub question: Option<f64>,
    /// 1 when the memory is attributed to a person the question names (its text opens with their speaker
    /// label, `recall::query::speaker_label`); the score gained the deployment's speaker weight ([`W_SPEAKER`] by
    /// default; 0 keeps the score).
    pub speaker: Option<f64>,
}

/// Scoring options of one request.
#[derive(Debug, Clone, Copy)]
pub struct ScoreOptions {
    pub fusion: Fusion,
    /// Whether the request had a query (else relevance is absent).
    pub has_query: bool,
    pub use_semantic: bool,
    pub use_keyword: bool,
    /// SHODH's quality_boost, as the weight of quality (0: off).
    pub quality_weight: f64,
    /// Share of the semantic signal a memory's best run of sentences takes ([`SENTENCE_SHARE`] by default).
    pub sentence_share: f64,
    pub now: DateTime<Utc>,
}

fn unit(x: f64) -> f64 {
    if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The semantic signal of a memory with cosine `cosine` whose best run of sentences (if any) has `sentence`,
/// which takes `share` of it.
pub fn semantic(cosine: f64, sentence: Option<f64>, share: f64) -> f64 {
    match sentence.filter(|s| s.is_finite()) {
        Some(best) => (1.0 - share) * cosine + share * cosine.max(best),
        None => cosine,
    }
}

/// The fused relevance of one candidate; `best_keyword` is the best keyword value among all candidates.
pub fn relevance(s: &Signals, best_keyword: f64, opts: &ScoreOptions) -> (Option<f64>, Option<f64>, f64) {
    let semantic = s.cosine.filter(|_| opts.use_semantic).map(|c| unit(semantic(c, s.sentence, opts.sentence_share)));
    let keyword =
        s.keyword.filter(|_| opts.use_keyword).map(|k| if best_keyword > 0.0 { unit(k / best_keyword) } else { 0.0 });
    let fused = match (opts.use_semantic, opts.use_keyword) {
        (true, false) => semantic.unwrap_or(0.0),
        (false, true) => keyword.unwrap_or(0.0),
        _ => match opts.fusion {
            Fusion::Weighted => {
                SEMANTIC_WEIGHT * semantic.unwrap_or(0.0) + (1.0 - SEMANTIC_WEIGHT) * keyword.unwrap_or(0.0)
            }
            Fusion::Rrf => {
                let rr = |rank: Option<usize>| rank.map_or(0.0, |r| 1.0 / (RRF_K + r as f64));
                (rr(s.vector_rank.filter(|_| opts.use_semantic)) + rr(s.keyword_rank)) * (RRF_K + 1.0) / 2.0
            }
        },
    };
    (semantic, keyword, unit(fused))
}

/// Each signal's order among a recall's candidates, for reciprocal-rank fusion. A candidate's place in a signal is
/// one more than the number of the pool's candidates with a higher value there (ties share a place). So the
/// semantic order is the one weighted fusion reads (a memory's best run of sentences included, clamped to [0, 1]
/// as [`relevance`] clamps it), not the vector probe's order of memories' own vectors; a candidate the keyword
/// probe found has its place by meaning too; and an episode neighbour that joins the pool later is placed among
/// the pool's values. A keyword value of 0 (no match) has no place.
#[derive(Debug, Default)]
pub struct PoolRanks {
    semantic: Vec<f64>,
    keyword: Vec<f64>,
}

impl PoolRanks {
    /// The pool's (semantic, keyword) values, each as [`relevance`] reads it before normalising.
    pub fn new(values: impl IntoIterator<Item = (Option<f64>, Option<f64>)>) -> Self {
        let (mut semantic, mut keyword): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
        for (s, k) in values {
            semantic.extend(s.filter(|v| v.is_finite()).map(unit));
            keyword.extend(k.filter(|v| v.is_finite() && *v > 0.0));
        }
        semantic.sort_by(|a, b| b.total_cmp(a));
        keyword.sort_by(|a, b| b.total_cmp(a));
        Self { semantic, keyword }
    }

    fn place(descending: &[f64], value: Option<f64>) -> Option<usize> {
        let value = value.filter(|v| v.is_finite())?;
        Some(descending.partition_point(|x| *x > value) + 1)
    }

    /// The 1-based place of a semantic value among the pool's.
    pub fn semantic(&self, value: Option<f64>) -> Option<usize> {
        Self::place(&self.semantic, value.filter(|v| v.is_finite()).map(unit))
    }

    /// The 1-based place of a keyword value among the pool's (None for no match).
    pub fn keyword(&self, value: Option<f64>) -> Option<usize> {
        Self::place(&self.keyword, value.filter(|v| *v > 0.0))
    }
}

/// The final score in [0, 1] and its components.
pub fn score(s: &Signals, best_keyword: f64, opts: &ScoreOptions) -> (f64, ScoreComponents) {
    let recency = s.created_at.map_or(0.5, |t| {
        let days = (opts.now - t).num_seconds().max(0) as f64 / 86_400.0;
        0.5_f64.powf(days / RECENCY_HALF_LIFE_DAYS)
    });
    let mut c = ScoreComponents {
        importance: unit(s.importance),
        recency: unit(recency),
        confidence: unit(s.confidence),
        credibility: unit(s.credibility),
        tag_match: s.tag_match.map(unit),
        time_match: s.time_match.filter(|_| opts.has_query).map(unit),
        coverage: s.coverage.filter(|_| opts.has_query && opts.use_keyword).map(unit),
        ..Default::default()
    };
    let mut parts: Vec<(f64, f64)> = vec![
        (W_IMPORTANCE, c.importance),
        (W_RECENCY, c.recency),
        (W_CONFIDENCE, c.confidence),
        (W_CREDIBILITY, c.credibility),
    ];
    if opts.has_query {
        let (semantic, keyword, fused) = relevance(s, best_keyword, opts);
        (c.semantic, c.keyword, c.relevance) = (semantic, keyword, Some(fused));
        c.sentence = s.sentence.filter(|_| opts.use_semantic && semantic.is_some()).map(unit);
        parts.push((W_RELEVANCE, fused));
    }
    if let Some(t) = c.tag_match {
        parts.push((W_TAGS, t));
    }
    if let Some(t) = c.time_match {
        parts.push((W_TIME, t));
    }
    if let Some(t) = c.coverage {
        parts.push((W_COVERAGE, t));
    }
    let total_weight: f64 = parts.iter().map(|(w, _)| w).sum();
    let mut value = parts.iter().map(|(w, v)| w * v).sum::<f64>() / total_weight;
    if opts.quality_weight > 0.0 {
        let quality = unit(s.quality.unwrap_or(0.5));
        c.quality = Some(quality);
        value = (1.0 - opts.quality_weight) * value + opts.quality_weight * quality;
    }
    (unit(value), c)
}

/// How far a memory's score moves towards a better-scoring neighbour of its episode.
pub const W_NEIGHBOUR: f64 = 0.4;
/// The fewest places either side in its episode a neighbour may sit (and the reach when the deployment's
/// neighbour span is 0, as before the span was measured in words).
pub const NEIGHBOUR_REACH: i32 = 2;
/// The most places either side in its episode a neighbour may sit.
pub const NEIGHBOUR_REACH_MAX: i32 = 8;

/// A candidate as the neighbour lift sees it: its episode and place, its score and its length in words.
pub struct Placed<'a> {
    pub episode: Option<&'a str>,
    pub sequence: Option<i32>,
    pub score: f64,
    pub words: usize,
}

/// How many places either side a memory's neighbours sit in each episode among `candidates`: as many as hold
/// about `span` words of it (the deployment's `CAIRN_NEIGHBOUR_WORDS`), its memories' length taken as the mean
/// among the candidates, rounded, from [`NEIGHBOUR_REACH`] to [`NEIGHBOUR_REACH_MAX`]; a span of 0 keeps every
/// episode at [`NEIGHBOUR_REACH`]. What a message means depends on about as much conversation around it
/// whether that conversation came as a few long turns or as many short messages: 80 words are ~3 turns of the
/// LoCoMo dev file (24 words each with the speaker's name) and 8 messages of the same conversation typed as a
/// messenger's short messages, one sentence each (9 words).
pub fn episode_reaches<'a>(candidates: &[Placed<'a>], span: f64) -> std::collections::HashMap<&'a str, i32> {
    let mut lengths: std::collections::HashMap<&str, (usize, usize)> = std::collections::HashMap::new();
    for c in candidates {
        if let (Some(episode), Some(_)) = (c.episode, c.sequence) {
            let (words, count) = lengths.entry(episode).or_default();
            (*words, *count) = (*words + c.words, *count + 1);
        }
    }
    lengths
        .into_iter()
        .map(|(episode, (words, count))| {
            let mean = words.max(1) as f64 / count as f64;
            let reach = if span.is_finite() && span > 0.0 { (span / mean).round() } else { 0.0 };
            (episode, (reach as i32).clamp(NEIGHBOUR_REACH, NEIGHBOUR_REACH_MAX))
        })
        .collect()
}

/// The neighbour lift: a memory of an episode (a conversation, a session, a document) means what it means
/// with the memories around it — an answer next to its question, a detail two turns after the name it is
/// about. Each candidate with an episode and a place in it moves [`W_NEIGHBOUR`] of the way up to the best
/// score among the other candidates at most its episode's reach away ([`episode_reaches`] with `span`; scores
/// stay in [0, 1]; a memory is never lowered, and one without an episode is unchanged). Returns, per candidate,
/// the lifted score and that best neighbour score. Chosen on the tuning half of the LoCoMo dev file (`cairn eval
/// locomo --sweep`, weight 0.4 of 0.3-0.8, reach 2 of 1-3, over each question's top 100 offline: 0.770 →
/// 0.795); measured through the service, recall@10 0.770 → 0.801 on the tuning half, 0.715 → 0.747 held out.
/// The reach in words: README, "Neighbours as far as 80 words".
pub fn lift_by_neighbours(candidates: &[Placed<'_>], span: f64) -> Vec<(f64, Option<f64>)> {
    let reaches = episode_reaches(candidates, span);
    // Per place, the two best (score, candidate): at its own place a candidate sees the best other one.
    let mut best_at: std::collections::HashMap<(&str, i32), [(f64, usize); 2]> = std::collections::HashMap::new();
    for (i, c) in candidates.iter().enumerate() {
        if let (Some(episode), Some(seq)) = (c.episode, c.sequence) {
            let slot = best_at.entry((episode, seq)).or_insert([(f64::MIN, usize::MAX); 2]);
            if c.score > slot[0].0 {
                slot[1] = slot[0];
                slot[0] = (c.score, i);
            } else if c.score > slot[1].0 {
                slot[1] = (c.score, i);
            }
        }
    }
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (Some(episode), Some(seq)) = (c.episode, c.sequence) else { return (c.score, None) };
            let reach = reaches.get(episode).copied().unwrap_or(NEIGHBOUR_REACH);
            let neighbour = (-reach..=reach)
                .filter_map(|k| best_at.get(&(episode, seq.checked_add(k)?)))
                .filter_map(|slot| slot.iter().find(|(_, j)| *j != i && *j != usize::MAX).map(|(score, _)| *score))
                .reduce(f64::max);
            match neighbour {
                Some(n) if n > c.score => (c.score + W_NEIGHBOUR * (n - c.score), Some(n)),
                other => (c.score, other),
            }
        })
        .collect()
}

/// What a memory that is all question loses from its score, in proportion to its share of question
/// ([`question_share`]), after the neighbour lift. A question asks for a fact and seldom states it ("You play any
/// instruments?"), yet it shares the words and the meaning of a question asked of the memory, so it outranked
/// the statement that answers (which the lift brings up beside it: the lift is taken from the question's score
/// before this). Chosen on the tuning half of the LoCoMo dev file: over each question's top 100 offline, 0.03-0.2
/// tried, recall@10 there 0.808 → 0.813-0.816 from 0.03 to 0.12 (flat: 0.05, 0.1 and 0.12 within one question),
/// lower above; of that plateau the smallest, 0.05, since 0.1 cost LongMemEval's development set a turn at
/// turn@10 (0.778 → 0.759, 18 questions; session recall unchanged at both) and 0.05 did not. Through the service
/// with 10 results asked, recall@10 / recall@5 0.808 / 0.715 → 0.815 / 0.725 on the tuning half and 0.767 / 0.673
/// → 0.769 / 0.685 held out (README, "Questions give way"). The deployment's `CAIRN_QUESTION_WEIGHT` (default
/// [`crate::config::DEFAULT_QUESTION_WEIGHT`]) sets it.
pub const W_QUESTION: f64 = crate::config::DEFAULT_QUESTION_WEIGHT;

/// Whether `c` ends a sentence.
fn ends_sentence(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '\u{2026}' | '\u{3002}' | '\u{FF01}' | '\u{FF1F}' | '\u{061F}' | '\u{203D}')
}

fn asks(c: char) -> bool {
    matches!(c, '?' | '\u{FF1F}' | '\u{061F}' | '\u{203D}')
}

/// What may close a sentence after its mark: quotes, brackets, emphasis (`"Really?"`, `(why?)`, `**Why?**`).
fn closes(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | ')' | ']' | '}' | '*' | '_' | '\u{201D}' | '\u{2019}' | '\u{00BB}' | '\u{300D}' | '\u{300F}'
    )
}

/// The share of `content`'s words that are in questions: sentences whose closing marks hold a question mark
/// (`?`, the full-width `？`, Arabic `؟`, `‽`). A run of marks, with any quotes or brackets after it, ends a
/// sentence where whitespace or the end of the text follows (so the `?` of a link's query string, or the `.` of
/// a domain, closes nothing); a line break ends a sentence too, as a statement unless its marks say otherwise.
/// Text after the last mark is a sentence of its own, not a question. Words are runs of non-space characters
/// holding a letter or digit (an emoji is none). 0 for text without words. Scripts written without spaces
/// between sentences (Chinese, Japanese) are read as one sentence per line.
pub fn question_share(content: &str) -> f64 {
    let (mut words, mut asked, mut current) = (0usize, 0usize, 0usize);
    // Whether the word being read holds a letter or digit yet (it counts from the first).
    let mut counted = false;
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if ends_sentence(c) {
            // The whole run of marks ("?!", "...?"), then what closes it, then whether a word goes on.
            let mut question = asks(c);
            while let Some(&next) = chars.peek().filter(|n| ends_sentence(**n) || closes(**n)) {
                question |= asks(next);
                chars.next();
            }
            if chars.peek().is_none_or(|n| n.is_whitespace()) {
                counted = false;
                words += current;
                if question {
                    asked += current;
                }
                current = 0;
            }
            // Else the marks are inside a word ("example.com", "a?b=1"), which goes on.
        } else if c.is_whitespace() {
            counted = false;
            if c == '\n' {
                words += current;
                current = 0;
            }
        } else if !counted && c.is_alphanumeric() {
            counted = true;
            current += 1;
        }
    }
    words += current;
    if words == 0 {
        0.0
    } else {
        asked as f64 / words as f64
    }
}

/// Lowers a result that is (partly) a question by `weight` times its [`question_share`] (clamped at 0), and
/// records the share whatever the weight, so that a sweep can weigh it afresh.
pub fn demote_question(content: &str, score: &mut f64, components: &mut ScoreComponents, weight: f64) {
    let weight = unit(weight);
    let share = question_share(content);
    if share > 0.0 {
        *score = unit(*score - weight * share);
        components.question = Some(share);
    }
}

/// What a memory attributed to a person the question names gains, after the neighbour lift: in a transcript the
/// line that answers "What does Melanie play?" is Melanie's ("Melanie: I play the clarinet"), while the other
/// speaker's lines that name her ("Caroline: Do you still play, Melanie?") share the question's words as much. In
/// the LoCoMo dev file 96% of the evidence of a question naming one of its two speakers is that speaker's, and
/// 71% of what recall ranked in the top 10 for those questions was. Chosen on the tuning half over each
/// question's top 100 offline (0.01-0.1 tried; recall@10 / @5 there 0.815 / 0.725 → 0.830 / 0.746 at 0.05, flat
/// from 0.04 to 0.06; held out 0.769 / 0.685 → 0.774 / 0.701; every category up). README, "The speaker a question
/// names". The deployment's `CAIRN_SPEAKER_WEIGHT` (default [`crate::config::DEFAULT_SPEAKER_WEIGHT`]) sets it.
pub const W_SPEAKER: f64 = crate::config::DEFAULT_SPEAKER_WEIGHT;

/// Raises a result attributed to a person the question names (`named`) by `weight` (clamped at 1), and records
/// that whatever the weight, so that a sweep can weigh it afresh.
pub fn favour_speaker(named: bool, score: &mut f64, components: &mut ScoreComponents, weight: f64) {
    if named {
        let weight = unit(weight);
        *score = unit(*score + weight);
        components.speaker = Some(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_speakers_line_gains_the_weight_and_says_so() {
        let (mut score, mut c) = (0.5, ScoreComponents::default());
        favour_speaker(true, &mut score, &mut c, W_SPEAKER);
        assert!((score - (0.5 + W_SPEAKER)).abs() < 1e-12);
        assert_eq!(c.speaker, Some(1.0));
        let (mut score, mut c) = (0.5, ScoreComponents::default());
        favour_speaker(false, &mut score, &mut c, W_SPEAKER);
        assert_eq!((score, c.speaker), (0.5, None), "another's line is unchanged and says nothing");
        let (mut score, mut c) = (0.99, ScoreComponents::default());
        favour_speaker(true, &mut score, &mut c, W_SPEAKER);
        assert_eq!(score, 1.0, "clamped at 1");
        // Weight 0 (or none that makes sense): nothing moves, and the attribution is still shown.
        for weight in [0.0, f64::NAN, -1.0] {
            let (mut score, mut c) = (0.5, ScoreComponents::default());
            favour_speaker(true, &mut score, &mut c, weight);
            assert_eq!((score, c.speaker), (0.5, Some(1.0)));
        }
    }

    #[test]
    fn a_memory_moves_towards_its_best_neighbour_in_its_episode() {
        let placed = |episode: Option<&'static str>, sequence: Option<i32>, score: f64| Placed {
            episode,
            sequence,
            score,
            words: 30,
        };
        let lifted = lift_by_neighbours(
            &[
                placed(Some("s1"), Some(4), 0.9), // the question's best match
                placed(Some("s1"), Some(5), 0.3), // its answer, next turn: lifted
                placed(Some("s1"), Some(7), 0.2), // three places away: not a neighbour of 4, of 5 it is
                placed(Some("s2"), Some(5), 0.2), // another episode
                placed(None, None, 0.5),          // no episode
            ],
            60.0,
        );
        // Two memories at one place see each other; a place at the end of the range does not wrap around.
        let same = lift_by_neighbours(&[placed(Some("s"), Some(3), 0.8), placed(Some("s"), Some(3), 0.2)], 60.0);
        assert_eq!(same[0].1, Some(0.2));
        assert!((same[1].0 - (0.2 + W_NEIGHBOUR * 0.6)).abs() < 1e-9);
        let edge = lift_by_neighbours(&[placed(Some("s"), Some(i32::MAX), 0.1)], 60.0);
        assert_eq!(edge, vec![(0.1, None)]);
        assert!((lifted[0].0 - 0.9).abs() < 1e-9 && lifted[0].1 == Some(0.3), "never lowered");
        assert!((lifted[1].0 - (0.3 + W_NEIGHBOUR * 0.6)).abs() < 1e-9);
        assert!((lifted[2].0 - (0.2 + W_NEIGHBOUR * 0.1)).abs() < 1e-9 && lifted[2].1 == Some(0.3));
        assert_eq!(lifted[3], (0.2, None));
        assert_eq!(lifted[4], (0.5, None));
    }

    #[test]
    fn a_neighbour_is_as_far_as_the_span_of_words_its_episode_holds() {
        let at = |episode: &'static str, sequence: i32, score: f64, words: usize| Placed {
            episode: Some(episode),
            sequence: Some(sequence),
            score,
            words,
        };
        // Short messages (10 words): 80 words are 8 places; long turns (40 words): the fewest, 2.
        let short = [at("chat", 10, 0.9, 10), at("chat", 17, 0.2, 10), at("chat", 19, 0.2, 10)];
        let long = [at("talk", 10, 0.9, 40), at("talk", 13, 0.2, 40)];
        let both = [at("chat", 1, 0.5, 10), at("chat", 2, 0.5, 10), at("talk", 1, 0.5, 40), at("talk", 2, 0.5, 40)];
        let reaches = episode_reaches(&both, 80.0);
        assert_eq!((reaches["chat"], reaches["talk"]), (8, 2));
        let lifted = lift_by_neighbours(&short, 80.0);
        assert_eq!(lifted[1].1, Some(0.9), "seven places away, within 80 words");
        assert!((lifted[1].0 - (0.2 + W_NEIGHBOUR * 0.7)).abs() < 1e-9);
        assert_eq!(lifted[2].1, Some(0.2), "nine places away: only the message two places off is near");
        assert_eq!(lift_by_neighbours(&long, 80.0)[1], (0.2, None), "three turns of 40 words are too far");
        // Reaches are bounded: 10,000 words of span is still 8 places, a span of 0 (or nonsense) the fewest.
        assert_eq!(episode_reaches(&short, 10_000.0)["chat"], NEIGHBOUR_REACH_MAX);
        for span in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            assert_eq!(episode_reaches(&short, span)["chat"], NEIGHBOUR_REACH, "span {span}");
            assert_eq!(lift_by_neighbours(&short, span)[1], (0.2, Some(0.2)));
        }
        // Empty memories do not divide by zero.
        assert_eq!(episode_reaches(&[at("e", 1, 0.5, 0)], 80.0)["e"], NEIGHBOUR_REACH_MAX);
    }

    fn opts(fusion: Fusion) -> ScoreOptions {
        ScoreOptions {
            fusion,
            has_query: true,
            use_semantic: true,
            use_keyword: true,
            quality_weight: 0.0,
            sentence_share: SENTENCE_SHARE,
            now: Utc::now(),
        }
    }

    fn signals(cosine: f64, keyword: f64) -> Signals {
        Signals {
            cosine: Some(cosine),
            vector_rank: Some(1),
            keyword: Some(keyword),
            keyword_rank: Some(1),
            importance: 0.5,
            confidence: 0.9,
            credibility: 1.0,
            created_at: Some(Utc::now()),
            ..Default::default()
        }
    }

    #[test]
    fn weighted_fusion_blends_cosine_and_relative_keyword_rank() {
        let (semantic, keyword, fused) = relevance(&signals(0.8, 0.05), 0.1, &opts(Fusion::Weighted));
        assert_eq!((semantic, keyword), (Some(0.8), Some(0.5)));
        assert!((fused - (SEMANTIC_WEIGHT * 0.8 + (1.0 - SEMANTIC_WEIGHT) * 0.5)).abs() < 1e-9);
    }

    #[test]
    fn a_memory_s_best_run_of_sentences_lifts_its_semantic_signal_but_never_lowers_it() {
        let o = opts(Fusion::Weighted);
        let with = |sentence: Option<f64>| Signals { sentence, ..signals(0.4, 0.0) };
        let (lifted, _, _) = relevance(&with(Some(0.8)), 0.1, &o);
        assert!((lifted.unwrap() - (0.25 * 0.4 + 0.75 * 0.8)).abs() < 1e-9);
        // A run less similar than the whole counts as the whole; none leaves the cosine as it is.
        assert_eq!(relevance(&with(Some(0.1)), 0.1, &o).0, Some(0.4));
        assert_eq!(relevance(&with(None), 0.1, &o).0, Some(0.4));
        // One matching sentence does not tie a memory that is about the question throughout.
        assert!(semantic(0.4, Some(0.8), SENTENCE_SHARE) < semantic(0.8, None, SENTENCE_SHARE));
        // A deployment's share of 0 reads the cosine alone.
        let alone = ScoreOptions { sentence_share: 0.0, ..o };
        assert_eq!(relevance(&with(Some(0.8)), 0.1, &alone).0, Some(0.4));
        let (_, c) = score(&with(Some(0.8)), 0.1, &o);
        assert_eq!(c.sentence, Some(0.8));
        // Keyword recall reads no vectors, and shows none.
        let keyword_only = ScoreOptions { use_semantic: false, ..o };
        assert_eq!(score(&with(Some(0.8)), 0.1, &keyword_only).1.sentence, None);
    }

    #[test]
    fn rrf_places_are_each_signal_s_order_among_the_pool_ties_shared() {
        let pool = PoolRanks::new([
            (Some(0.5), Some(2.0)),
            (Some(0.9), None),
            (Some(0.5), Some(0.0)),
            (None, Some(3.0)),
            (Some(f64::NAN), Some(f64::NAN)),
        ]);
        assert_eq!([0.9, 0.5, 0.7, 0.1].map(|v| pool.semantic(Some(v))), [Some(1), Some(2), Some(2), Some(4)]);
        assert_eq!(pool.semantic(None), None);
        // Clamped as relevance clamps it: below 0 (or above 1) ties with 0 (or 1).
        let clamped = PoolRanks::new([(Some(-0.2), None), (Some(0.0), None), (Some(1.3), None)]);
        assert_eq!([-0.5, 0.0, 1.0, 2.0].map(|v| clamped.semantic(Some(v))), [Some(2), Some(2), Some(1), Some(1)]);
        // A keyword value of 0 is no match, and has no place; NaN is none.
        assert_eq!([3.0, 2.0, 2.5, 1.0].map(|v| pool.keyword(Some(v))), [Some(1), Some(2), Some(2), Some(3)]);
        assert_eq!((pool.keyword(Some(0.0)), pool.keyword(None), pool.keyword(Some(f64::NAN))), (None, None, None));
        let empty = PoolRanks::default();
        assert_eq!((empty.semantic(Some(0.2)), empty.keyword(Some(0.2))), (Some(1), Some(1)));
    }

    #[test]
    fn rrf_scores_first_in_both_lists_as_one() {
        let (_, _, fused) = relevance(&signals(0.8, 0.05), 0.1, &opts(Fusion::Rrf));
        assert!((fused - 1.0).abs() < 1e-9);
    }

    #[test]
    fn scores_and_components_stay_in_unit_range() {
        let mut s = signals(1.5, 9.0);
        s.importance = 3.0;
        s.created_at = Some(Utc::now() + chrono::Duration::days(5));
        let (value, c) = score(&s, 0.1, &ScoreOptions { quality_weight: 0.3, ..opts(Fusion::Weighted) });
        assert!((0.0..=1.0).contains(&value));
        assert!(c.semantic.unwrap() <= 1.0 && c.keyword.unwrap() <= 1.0 && c.importance <= 1.0 && c.recency <= 1.0);
        assert_eq!(c.quality, Some(0.5));
    }

    #[test]
    fn more_relevant_and_more_important_memories_score_higher() {
        let o = opts(Fusion::Weighted);
        let (near, _) = score(&signals(0.9, 0.1), 0.1, &o);
        let (far, _) = score(&signals(0.2, 0.0), 0.1, &o);
        assert!(near > far);
        let mut important = signals(0.5, 0.05);
        important.importance = 1.0;
        assert!(score(&important, 0.1, &o).0 > score(&signals(0.5, 0.05), 0.1, &o).0);
    }

    #[test]
    fn a_time_match_lifts_a_memory_without_outweighing_relevance() {
        let o = opts(Fusion::Weighted);
        let mut timed = signals(0.6, 0.05);
        timed.time_match = Some(1.0);
        let mut untimed = signals(0.6, 0.05);
        untimed.time_match = Some(0.0);
        let (lifted, c) = score(&timed, 0.1, &o);
        assert_eq!(c.time_match, Some(1.0));
        assert!(lifted > score(&untimed, 0.1, &o).0);
        let mut far_more_relevant = signals(0.95, 0.1);
        far_more_relevant.time_match = Some(0.0);
        assert!(score(&far_more_relevant, 0.1, &o).0 > lifted);
        // Without a time in the question the component is absent and changes nothing.
        assert_eq!(score(&signals(0.6, 0.05), 0.1, &o).1.time_match, None);
    }

    #[test]
    fn a_time_match_is_worth_a_quarter_of_the_cosine_scale() {
        // The weight chosen on the LoCoMo dev file's tuning halves (W_TIME): a memory that states the time a
        // "when"-question asks for outranks one that does not and is 0.25 closer in cosine (0.75 · 0.25 of
        // relevance), not one that is 0.45 closer. At the earlier 0.10 the first would not hold.
        let o = opts(Fusion::Weighted);
        let with_time = |cosine: f64, t: f64| Signals { time_match: Some(t), ..signals(cosine, 0.05) };
        let timed = score(&with_time(0.5, 1.0), 0.1, &o).0;
        assert!(timed > score(&with_time(0.75, 0.0), 0.1, &o).0);
        assert!(timed < score(&with_time(0.95, 0.0), 0.1, &o).0);
    }

    #[test]
    fn coverage_lifts_a_memory_holding_more_of_the_question_when_keywords_take_part() {
        let o = opts(Fusion::Weighted);
        let mut whole = signals(0.6, 0.05);
        whole.coverage = Some(1.0);
        let mut rarest_word_only = signals(0.6, 0.1);
        rarest_word_only.coverage = Some(0.25);
        let (value, c) = score(&whole, 0.1, &o);
        assert_eq!(c.coverage, Some(1.0));
        assert!(value > score(&rarest_word_only, 0.1, &o).0, "all the question's words beat its rarest once");
        let mut far_more_similar = signals(0.95, 0.1);
        far_more_similar.coverage = Some(0.25);
        assert!(score(&far_more_similar, 0.1, &o).0 > value, "meaning still leads");
        // Semantic mode: a lexical signal takes no part.
        let semantic = ScoreOptions { use_keyword: false, ..o };
        assert_eq!(score(&whole, 0.1, &semantic).1.coverage, None);
    }

    #[test]
    fn a_question_is_the_share_of_words_in_sentences_that_ask() {
        assert_eq!(question_share("You play any instruments?"), 1.0);
        assert_eq!(question_share("Thanks, Mel! You play?"), 0.5);
        assert_eq!(question_share("I play clarinet. Started young!"), 0.0);
        assert_eq!(question_share("What's up?! Not much..."), 0.5);
        assert_eq!(question_share("Wer bist du？ Ich bin Anna。"), 0.5);
        // A question mark inside a word closes nothing; text after the last mark is a statement.
        assert_eq!(question_share("see https://example.com/a?b=1 for it"), 0.0);
        assert_eq!(question_share("Is it example.com/a?b=1? Yes it is."), 0.5);
        assert_eq!(question_share("Really? yes"), 0.5);
        assert_eq!(question_share(""), 0.0);
        assert_eq!(question_share("?? !!"), 0.0);
        // Quotes, brackets and emphasis after the mark still close a question; an emoji is no word.
        assert_eq!(question_share("\"Really?\" Yes."), 0.5);
        assert_eq!(question_share("(why?) Because."), 0.5);
        assert_eq!(question_share("**Why?**"), 1.0);
        assert_eq!(question_share("How are you? \u{1F60A}"), 1.0);
        // A line break ends a sentence: a transcript's unpunctuated line is not part of the next line's question.
        assert_eq!(question_share("We went there\nHow was it?"), 0.5);
        assert_eq!(question_share("Kommst du؟ Ja, gern."), 0.5);
    }

    #[test]
    fn a_question_loses_its_share_of_the_weight_and_says_so() {
        let mut scores = [0.8, 0.8, 0.02];
        let mut components = [ScoreComponents::default(), ScoreComponents::default(), ScoreComponents::default()];
        let contents = ["Do you play any instruments?", "I play the clarinet.", "Why? Because."];
        for ((content, score), c) in contents.iter().zip(&mut scores).zip(&mut components) {
            demote_question(content, score, c, W_QUESTION);
        }
        assert!((scores[0] - (0.8 - W_QUESTION)).abs() < 1e-9);
        assert_eq!((scores[1], components[1].question), (0.8, None), "a statement is unchanged");
        assert_eq!(components[0].question, Some(1.0));
        assert_eq!((scores[2], components[2].question), (0.0, Some(0.5)), "clamped at 0");
        // Weight 0 (or none that makes sense): nothing moves, and the share is still shown.
        for weight in [0.0, f64::NAN, -1.0] {
            let mut score = 0.8;
            let mut c = ScoreComponents::default();
            demote_question("Why?", &mut score, &mut c, weight);
            assert_eq!((score, c.question), (0.8, Some(1.0)));
        }
    }

    #[test]
    fn recency_halves_every_thirty_days() {
        let mut s = signals(0.5, 0.0);
        s.created_at = Some(Utc::now() - chrono::Duration::days(30));
        let (_, c) = score(&s, 0.1, &opts(Fusion::Weighted));
        assert!((c.recency - 0.5).abs() < 1e-3);
    }

    #[test]
    fn without_a_query_relevance_is_absent_and_weights_renormalise() {
        let s = signals(0.0, 0.0);
        let (value, c) = score(&s, 0.0, &ScoreOptions { has_query: false, ..opts(Fusion::Weighted) });
        assert_eq!(c.relevance, None);
        let expected = (0.12 * 0.5 + 0.08 * c.recency + 0.03 * 0.9 + 0.03 * 1.0) / 0.26;
        assert!((value - expected).abs() < 1e-9);
    }
}
