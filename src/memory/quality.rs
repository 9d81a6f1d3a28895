//! Enrichment's heuristics on a memory's text: a one-line summary, and a `quality_score` in [0, 1] that
//! SHODH's `quality_boost` blends into recall. Quality rewards what makes a memory useful later: a length
//! near the 150–300 character target, a stated rationale, specifics (numbers, names, code), and entities.

/// Longest summary, in characters.
pub const SUMMARY_CHARS: usize = 120;

/// The first sentence, cut at a word boundary to [`SUMMARY_CHARS`] with an ellipsis.
pub fn summary(content: &str) -> String {
    let text = content.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = text
        .char_indices()
        .find(|(i, c)| matches!(c, '.' | '!' | '?') && text[i + c.len_utf8()..].starts_with(' '))
        .map_or(text.len(), |(i, c)| i + c.len_utf8());
    let sentence = &text[..end];
    if sentence.chars().count() <= SUMMARY_CHARS {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(SUMMARY_CHARS - 1).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head).trim_end_matches([',', ';', ':']);
    format!("{cut}…")
}

/// Words that introduce a reason.
const RATIONALE: &[&str] = &["because", "since", "so that", "due to", "in order to", "therefore", "as a result", "why"];

/// The quality heuristic: four equal parts — length (1 within 150–300 characters, falling off linearly
/// to 0 at 0 and at 1000), rationale (a reason word), specificity (numbers, code or names), and entities
/// (1 at three or more).
pub fn quality(content: &str, entities: usize) -> f32 {
    let len = content.chars().count() as f64;
    let length = if len < 150.0 {
        len / 150.0
    } else if len <= 300.0 {
        1.0
    } else {
        (1.0 - (len - 300.0) / 700.0).max(0.0)
    };
    let lower = content.to_lowercase();
    let rationale = if RATIONALE.iter().any(|r| lower.contains(r)) { 1.0 } else { 0.0 };
    let digits = content.chars().any(|c| c.is_ascii_digit());
    let code = content.contains('`') || content.contains("::") || content.contains("()");
    let names = content.split_whitespace().skip(1).any(|w| w.starts_with(char::is_uppercase));
    let specificity = [digits, code, names].iter().filter(|b| **b).count() as f64 / 3.0;
    let entities = (entities as f64 / 3.0).min(1.0);
    let q = 0.25 * (length + rationale + specificity + entities);
    ((q * 100.0).round() / 100.0) as f32
}

const LLM_SYSTEM: &str = "Rate how useful this memory an AI agent stored will be later, from 0 (vague, \
trivial) to 1 (specific, explains why, names what it is about). Answer with JSON only: {\"quality\": 0..1}.";

/// The chat model's judgement of quality, if it gives a usable one.
pub async fn by_llm(model: &crate::models::chat::ChatModel, content: &str) -> Option<f32> {
    match model.complete_json(LLM_SYSTEM, content).await {
        Ok(answer) => answer["quality"].as_f64().filter(|q| (0.0..=1.0).contains(q)).map(|q| q as f32),
        Err(err) => {
            tracing::warn!(model = model.model(), error = format!("{err:#}"), "LLM quality judgement failed");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_take_the_first_sentence_within_bounds() {
        assert_eq!(summary("We chose Postgres. It has pgvector."), "We chose Postgres.");
        assert_eq!(summary("Version 1.2 ships today"), "Version 1.2 ships today");
        let long = "word ".repeat(60);
        let s = summary(&long);
        assert!(s.chars().count() <= SUMMARY_CHARS && s.ends_with('…'), "{s}");
    }

    #[test]
    fn quality_rewards_length_rationale_specifics_and_entities() {
        let thin = quality("ok", 0);
        let rich = quality(
            "We moved the ledger to PostgreSQL 15 because MongoDB's transactions could not give us serializable \
             isolation across accounts; migration took 3 days with `pg_dump`.",
            3,
        );
        assert!(thin < 0.1, "{thin}");
        assert!(rich > 0.9, "{rich}");
        assert!((0.0..=1.0).contains(&quality(&"x".repeat(2000), 30)));
    }
}
