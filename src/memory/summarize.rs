//! Content-size governance (AutoMem): content of more than [`SUMMARIZE_OVER`] characters (up to the
//! 2000 limit) is stored as an extractive summary of about [`TARGET`] characters — its most central
//! sentences, in their original order — and the original is kept in `metadata.original_content`.
//!
//! A store answers at once with the sentences most central by word overlap ([`govern`]); the
//! `cairn::summarize` job then replaces them with a better summary ([`refine`]): the chat model's when one
//! is configured, else the sentences most central by meaning (mean cosine similarity under the embedding
//! model).

use std::collections::HashSet;

/// Content longer than this is summarised.
pub const SUMMARIZE_OVER: usize = 500;
/// The summary's target length, in characters.
pub const TARGET: usize = 300;

/// The sentences of `text` (split after `.`, `!`, `?` or a line break), trimmed, without empty ones.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, (i, c)) in chars.iter().enumerate() {
        let next_is_space = chars.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if (matches!(c, '.' | '!' | '?') && next_is_space) || *c == '\n' {
            let end = i + c.len_utf8();
            out.push(text[start..end].trim());
            start = end;
        }
    }
    out.push(text[start..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// Mean pairwise word-overlap (Jaccard) of each sentence with the others.
pub fn lexical_centrality(sentences: &[&str]) -> Vec<f64> {
    let words: Vec<HashSet<String>> = sentences
        .iter()
        .map(|s| {
            s.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 2).map(str::to_lowercase).collect()
        })
        .collect();
    mean_similarity(sentences.len(), |i, j| {
        let inter = words[i].intersection(&words[j]).count() as f64;
        let union = words[i].union(&words[j]).count() as f64;
        if union == 0.0 {
            0.0
        } else {
            inter / union
        }
    })
}

/// Mean cosine similarity of each (unit) vector with the others.
pub fn vector_centrality(vectors: &[Vec<f32>]) -> Vec<f64> {
    mean_similarity(vectors.len(), |i, j| vectors[i].iter().zip(&vectors[j]).map(|(a, b)| f64::from(a * b)).sum())
}

fn mean_similarity(n: usize, sim: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    (0..n)
        .map(|i| match n {
            1 => 1.0,
            _ => (0..n).filter(|j| *j != i).map(|j| sim(i, j)).sum::<f64>() / (n - 1) as f64,
        })
        .collect()
}

/// The most central sentences, in their original order, within about [`TARGET`] characters: sentences at
/// or above the mean centrality are taken by centrality while they fit; the most central one is always taken (cut at a word boundary if it
/// alone is too long).
pub fn select(sentences: &[&str], centrality: &[f64]) -> String {
    let mut order: Vec<usize> = (0..sentences.len()).collect();
    order.sort_by(|a, b| centrality[*b].total_cmp(&centrality[*a]).then(a.cmp(b)));
    let mean = centrality.iter().sum::<f64>() / centrality.len().max(1) as f64;
    let mut chosen: Vec<usize> = Vec::new();
    let mut length = 0;
    for i in order {
        let add = sentences[i].chars().count() + usize::from(!chosen.is_empty());
        // Peripheral sentences (below the mean centrality) never fill the space left over.
        if chosen.is_empty() || (length + add <= TARGET && centrality[i] >= mean) {
            chosen.push(i);
            length += add;
        }
    }
    chosen.sort_unstable();
    let text = chosen.iter().map(|i| sentences[*i]).collect::<Vec<_>>().join(" ");
    if text.chars().count() <= TARGET + 20 {
        return text;
    }
    let cut: String = text.chars().take(TARGET - 1).collect();
    format!("{}…", cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head))
}

const LLM_SYSTEM: &str = "Summarise the memory an AI agent is storing in at most 300 characters. Keep \
names, numbers, decisions and reasons; drop small talk. Answer with the summary only.";

/// The chat model's summary, if it answers one of a usable length.
async fn by_llm(model: &crate::models::chat::ChatModel, text: &str) -> Option<String> {
    match model.complete(LLM_SYSTEM, text).await {
        Ok(answer) => {
            let answer = answer.trim().trim_matches('"').trim().to_owned();
            let n = answer.chars().count();
            (20..=TARGET + 100).contains(&n).then_some(answer)
        }
        Err(err) => {
            tracing::warn!(model = model.model(), error = format!("{err:#}"), "LLM summary failed; extracting instead");
            None
        }
    }
}

/// Applies governance to a memory about to be stored, cheaply: over [`SUMMARIZE_OVER`] characters, its
/// content becomes the sentences most central by word overlap and the original goes to
/// `metadata.original_content` (the dedup hash stays the original's). Returns whether it summarised.
pub fn govern(memory: &mut super::NewMemory) -> bool {
    if memory.content.chars().count() <= SUMMARIZE_OVER {
        return false;
    }
    let original = memory.content.clone();
    let parts = sentences(&original);
    memory.content = select(&parts, &lexical_centrality(&parts));
    keep_original(memory, original);
    true
}

/// How a summary was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryMethod {
    /// By the configured chat model.
    Llm,
    /// The most central sentences by meaning (embedding model).
    Model,
    /// The most central sentences by word overlap.
    Extractive,
}

impl SummaryMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Llm => "llm",
            Self::Model => "model",
            Self::Extractive => "extractive",
        }
    }
}

/// A better summary of `original` than word overlap gives: the chat model's when one is configured and
/// answers, else the sentences most central by meaning when an embedder is ready. None when neither can
/// do better.
pub async fn refine(
    original: &str,
    embedder: Option<&dyn crate::models::embed::Embedder>,
    llm: Option<&crate::models::chat::ChatModel>,
) -> Option<(String, SummaryMethod)> {
    if let Some(model) = llm {
        if let Some(summary) = by_llm(model, original).await {
            return Some((summary, SummaryMethod::Llm));
        }
    }
    let parts = sentences(original);
    let model = embedder?;
    if parts.len() < 2 {
        return None;
    }
    let texts: Vec<String> = parts.iter().map(|s| s.to_string()).collect();
    match model.embed(&texts).await {
        Ok(vectors) if vectors.len() == parts.len() => {
            Some((select(&parts, &vector_centrality(&vectors)), SummaryMethod::Model))
        }
        Ok(_) => None,
        Err(err) => {
            tracing::warn!(error = format!("{err:#}"), "embedding sentences for a summary failed");
            None
        }
    }
}

fn keep_original(memory: &mut super::NewMemory, original: String) {
    if !memory.metadata.is_object() {
        memory.metadata = serde_json::json!({});
    }
    memory.metadata[ORIGINAL_KEY] = serde_json::Value::String(original);
}

/// The metadata key holding a summarised memory's original.
pub const ORIGINAL_KEY: &str = "original_content";

/// Callers may not set [`ORIGINAL_KEY`] themselves: it would mark a memory summarised and index words it
/// does not show. `field` names the metadata in the error.
pub fn check_reserved(metadata: &serde_json::Value, field: &str) -> Result<(), crate::error::Error> {
    match metadata.get(ORIGINAL_KEY) {
        Some(_) => Err(crate::error::Error::invalid(format!(
            "{field}.{ORIGINAL_KEY}: is set by the service when it summarises long content; send the full text as content"
        ))),
        None => Ok(()),
    }
}

/// After an update: new content drops the old original (and is governed afresh by the caller); otherwise
/// the original survives a replaced metadata object, so it is never lost.
pub fn carry_original(current: &super::Memory, updated: &mut super::NewMemory, content_changed: bool) {
    if let Some(obj) = updated.metadata.as_object_mut() {
        obj.remove(ORIGINAL_KEY);
    }
    if content_changed {
        return;
    }
    if let Some(original) = current.metadata.get(ORIGINAL_KEY).cloned() {
        keep_original(updated, original.as_str().unwrap_or_default().to_owned());
    }
}

/// A short summary of recalled memories (SHODH's `summarize`): the chat model's in `language` (`en` or `de`)
/// when one is configured and answers, otherwise the most central sentences of the memories themselves
/// (extractive summaries stay in the memories' own language). None when there is nothing to summarise.
pub async fn of_results(
    contents: &[&str],
    language: &str,
    llm: Option<&crate::models::chat::ChatModel>,
) -> Option<(String, SummaryMethod)> {
    if contents.is_empty() {
        return None;
    }
    if let Some(model) = llm {
        let language = if language == "de" { "German" } else { "English" };
        let system = format!(
            "Summarise what these memories of an AI agent say, in {language}, in at most 400 characters. \
             Keep names, numbers, decisions and reasons. Answer with the summary only."
        );
        let listing: String = contents.iter().map(|c| format!("- {c}\n")).collect();
        match model.complete(&system, &listing).await {
            Ok(answer) if !answer.trim().is_empty() => return Some((answer.trim().to_owned(), SummaryMethod::Llm)),
            Ok(_) => {}
            Err(err) => tracing::warn!(model = model.model(), error = format!("{err:#}"), "LLM recall summary failed"),
        }
    }
    let all: Vec<&str> = contents.iter().flat_map(|c| sentences(c)).collect();
    let centrality = lexical_centrality(&all);
    Some((select(&all, &centrality), SummaryMethod::Extractive))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_central_sentences_are_kept_in_order_within_the_target() {
        let text = "The ledger moved to PostgreSQL in March. Lunch was pizza. PostgreSQL gives the ledger \
                    serializable transactions. The ledger team reviewed PostgreSQL failover. Someone's cat \
                    walked across a keyboard during the demo, which everyone enjoyed a great deal, and then \
                    the meeting went on for another hour about unrelated matters of scheduling and rooms.";
        let s = sentences(text);
        assert_eq!(s.len(), 5);
        let summary = select(&s, &lexical_centrality(&s));
        assert!(summary.chars().count() <= TARGET + 20, "{summary}");
        assert!(summary.starts_with("The ledger moved to PostgreSQL in March."), "{summary}");
        assert!(!summary.contains("pizza") && !summary.contains("cat"), "{summary}");
        let long_one = "word ".repeat(200);
        let cut = select(&[long_one.trim()], &[1.0]);
        assert!(cut.chars().count() <= TARGET && cut.ends_with('…'));
    }
}
