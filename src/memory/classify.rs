//! Classification of a memory without an explicit type (AutoMem's MemoryClassifier): regular expressions
//! per type, the type with the most matching patterns winning at confidence 0.6 + 0.1 per match beyond the
//! first (at most 0.95); without a match, `Context` at 0.3 — which the enrichment job may refine with the
//! configured chat model. An explicit type is taken at 0.9 (see `input`).

use std::sync::LazyLock;

use regex::RegexSet;

/// Confidence of an explicit type.
pub const EXPLICIT_CONFIDENCE: f32 = 0.9;
/// The type and confidence when nothing matches.
pub const FALLBACK: (&str, f32) = ("Context", 0.3);
/// Confidence of a single pattern match, the step per further match, and the cap.
const BASE: f64 = 0.6;
const STEP: f64 = 0.1;
const MAX: f64 = 0.95;

/// AutoMem's types in its order (earlier wins a tie), each with its patterns (case-insensitive).
const PATTERNS: &[(&str, &[&str])] = &[
    (
        "Decision",
        &[
            r"\bdecided\b",
            r"\bchose\b",
            r"\bgoing with\b",
            r"\bpicked\b",
            r"\bselected\b",
            r"\bwill use\b",
            r"\bopted (for|to)\b",
            r"\bdecision\b",
            r"\bwe('ll| will) go with\b",
        ],
    ),
    (
        "Pattern",
        &[
            r"\busually\b",
            r"\btypically\b",
            r"\btend(s)? to\b",
            r"\bpattern\b",
            r"\boften\b",
            r"\bfrequently\b",
            r"\brecurring\b",
            r"\bevery time .* (fails|breaks|happens)\b",
        ],
    ),
    (
        "Preference",
        &[
            r"\bprefers?\b",
            r"\bpreferred\b",
            r"\blikes? .* better\b",
            r"\bfavou?rite\b",
            r"\brather than\b",
            r"\binstead of\b",
            r"\bwould rather\b",
        ],
    ),
    (
        "Style",
        &[
            r"\bstyle\b",
            r"\bformatted\b",
            r"\bformat(ting)?\b",
            r"\btone\b",
            r"\bnaming convention\b",
            r"\bindent(ation)?\b",
            r"\bwrites? in\b",
        ],
    ),
    (
        "Habit",
        &[
            r"\balways\b",
            r"\bevery (day|morning|evening|week|time)\b",
            r"\bhabit(ually)?\b",
            r"\broutine\b",
            r"\bdaily\b",
            r"\bweekly\b",
            r"\bnever\b",
        ],
    ),
    (
        "Insight",
        &[
            r"\brealized\b",
            r"\brealised\b",
            r"\bdiscovered\b",
            r"\blearned that\b",
            r"\bturns out\b",
            r"\bfigured out\b",
            r"\binsight\b",
            r"\bthe (root )?cause (was|is)\b",
        ],
    ),
    (
        "Context",
        &[
            r"\bduring\b",
            r"\bwhile working on\b",
            r"\bin the context of\b",
            r"\bcurrently\b",
            r"\bat the time\b",
            r"\bbackground\b",
        ],
    ),
];

static SETS: LazyLock<Vec<(&'static str, RegexSet)>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|(kind, patterns)| {
            let set = RegexSet::new(patterns.iter().map(|p| format!("(?i){p}"))).expect("classification patterns");
            (*kind, set)
        })
        .collect()
});

/// The type and confidence of `content` by the patterns; None when nothing matches.
pub fn by_patterns(content: &str) -> Option<(&'static str, f32)> {
    let mut best: Option<(&'static str, usize)> = None;
    for (kind, set) in SETS.iter() {
        let n = set.matches(content).into_iter().count();
        if n > 0 && best.is_none_or(|(_, m)| n > m) {
            best = Some((kind, n));
        }
    }
    // In f64, rounded to the step, then stored as f32: 0.7 reads back as 0.7, not 0.70000005.
    best.map(|(kind, n)| (kind, ((BASE + STEP * (n - 1) as f64).min(MAX) * 100.0).round() as f32 / 100.0))
}

/// The type and confidence of a memory stored without a type.
pub fn classify(content: &str) -> (&'static str, f32) {
    by_patterns(content).unwrap_or(FALLBACK)
}

const LLM_SYSTEM: &str = "Classify a short memory an AI agent stored. Answer with JSON only: \
{\"type\": one of Decision, Pattern, Preference, Style, Habit, Insight, Context, \"confidence\": 0..1}. \
Decision: a choice made. Pattern: a recurring regularity. Preference: what someone likes. Style: how \
something is written or formatted. Habit: something done routinely. Insight: something learned or \
realised. Context: background facts.";

/// The chat model's classification; None when it fails or answers something unusable.
pub async fn by_llm(model: &crate::models::chat::ChatModel, content: &str) -> Option<(&'static str, f32)> {
    let answer = match model.complete_json(LLM_SYSTEM, content).await {
        Ok(answer) => answer,
        Err(err) => {
            tracing::warn!(model = model.model(), error = format!("{err:#}"), "LLM classification failed");
            return None;
        }
    };
    let kind = PATTERNS
        .iter()
        .map(|(k, _)| *k)
        .find(|k| answer["type"].as_str().is_some_and(|t| t.eq_ignore_ascii_case(k)))?;
    let confidence = answer["confidence"].as_f64().filter(|c| (0.0..=1.0).contains(c)).unwrap_or(0.7) as f32;
    Some((kind, confidence))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_pick_the_type_with_most_matches() {
        assert_eq!(classify("We decided to use PostgreSQL"), ("Decision", 0.6));
        let (kind, conf) = classify("We decided and chose Postgres; going with it, picked over MySQL");
        assert_eq!(kind, "Decision");
        assert!((conf - 0.9).abs() < 1e-6, "{conf}");
        let (_, capped) = classify("decided chose going with picked selected will use opted for decision");
        assert!((capped - 0.95).abs() < 1e-6, "{capped}");
        assert_eq!(classify("I prefer tabs to spaces").0, "Preference");
        assert_eq!(classify("Turns out the cache was stale").0, "Insight");
        assert_eq!(classify("I always run the linter before pushing").0, "Habit");
        assert_eq!(classify("The sky is blue"), FALLBACK);
    }
}
