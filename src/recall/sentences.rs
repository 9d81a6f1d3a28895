//! A memory's sentences as the embedding job embeds them beside the memory itself, so that recall can match a
//! question with the one part of a memory that is about it.
//!
//! A memory's vector is the mean of its tokens: a turn that opens with a greeting or touches several things
//! matches a question about one of them less well than that part alone does. The job embeds each *run* of a
//! memory's sentences (consecutive sentences joined until the run holds [`MIN_RUN_WORDS`] words, so "Hey Mel!"
//! joins the sentence after it), and recall reads a memory's best run beside its own vector
//! (`recall::score::semantic`). A memory of one run gets none: its own vector is that run's. A memory that opens
//! with a speaker label (`Caroline: ...`, [`super::query::speaker_label`]) has it before each run, as the model
//! saw it before the whole.
//!
//! Measured offline on the LoCoMo dev file (README, "A memory's best sentence"): 1.15 runs a turn, 71% more
//! of the model's work on ingest than the memories alone.

use super::query::speaker_label;

/// Fewest words of a run: shorter sentences join the next (or, at the end, the run before).
pub const MIN_RUN_WORDS: usize = 8;
/// Most runs of one memory: a longer memory's runs are made longer (at least its words over this many), so the
/// whole of it is still covered while what is stored per memory stays bounded (384 floats a run).
pub const MAX_RUNS: usize = 16;

/// The texts to embed for a memory's runs of sentences (empty when it has fewer than two).
pub fn runs(content: &str) -> Vec<String> {
    let (prefix, body) = match speaker_label(content) {
        Some(label) => {
            // The label ends at the first colon (`speaker_label` found no line break before it).
            let colon = content.char_indices().find(|(_, c)| matches!(c, ':' | '\u{FF1A}'));
            // Emphasis closing after the colon (`**Caroline:** ...`) stays with the label.
            let body = colon.map_or(content, |(at, c)| &content[at + c.len_utf8()..]).trim_start_matches(['*', '_']);
            (format!("{label}: "), body)
        }
        None => (String::new(), content),
    };
    let sentences = sentences(body);
    let words: usize = sentences.iter().map(|s| s.split_whitespace().count()).sum();
    let mut min_words = MIN_RUN_WORDS;
    let mut grouped = group(&sentences, min_words);
    while grouped.len() > MAX_RUNS {
        min_words = min_words.max(words.div_ceil(MAX_RUNS)) + 1;
        grouped = group(&sentences, min_words);
    }
    if grouped.len() < 2 {
        return Vec::new();
    }
    grouped.into_iter().map(|run| format!("{prefix}{run}")).collect()
}

/// Consecutive sentences joined until each run holds `min_words` words; a short remainder joins the last run.
fn group(sentences: &[&str], min_words: usize) -> Vec<String> {
    let mut runs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut words = 0;
    for sentence in sentences {
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(sentence);
        words += sentence.split_whitespace().count();
        if words >= min_words {
            runs.push(std::mem::take(&mut current));
            words = 0;
        }
    }
    if !current.is_empty() {
        match runs.last_mut() {
            Some(last) => {
                last.push(' ');
                last.push_str(&current);
            }
            None => runs.push(current),
        }
    }
    runs
}

/// The text's sentences: cut after `.`, `!`, `?` or `…` (with any closing quotes or brackets) followed by
/// whitespace, and at line breaks; trimmed, empty ones left out.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut ended = false;
    for (at, c) in text.char_indices() {
        if c == '\n' || (ended && c.is_whitespace()) {
            out.push(&text[start..at]);
            start = at;
            ended = false;
            continue;
        }
        ended = match c {
            '.' | '!' | '?' | '…' | '。' | '！' | '？' => true,
            '"' | '\'' | ')' | ']' | '”' | '’' => ended,
            _ => false,
        };
    }
    out.push(&text[start..]);
    out.into_iter().map(str::trim).filter(|s| !s.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_greeting_joins_the_sentence_after_it_and_each_run_keeps_the_speaker() {
        let turn = "Caroline: Hey Mel! I went to a LGBTQ support group yesterday and it was so powerful. \
                    The stories people shared about their journeys really moved me and I felt accepted.";
        assert_eq!(
            runs(turn),
            vec![
                "Caroline: Hey Mel! I went to a LGBTQ support group yesterday and it was so powerful.",
                "Caroline: The stories people shared about their journeys really moved me and I felt accepted.",
            ]
        );
    }

    #[test]
    fn a_memory_of_one_run_gets_none() {
        assert!(runs("Melanie: Thanks! I will.").is_empty());
        assert!(runs("The deploy uses blue-green switching behind the load balancer.").is_empty());
        assert!(runs("").is_empty());
        // A short last sentence joins the run before it rather than standing alone.
        assert!(runs("We moved the database to the new cluster last night without downtime. Great.").is_empty());
    }

    #[test]
    fn sentences_end_at_marks_followed_by_space_and_at_line_breaks() {
        assert_eq!(
            sentences("It costs $3.50 today. \"Really?\" she asked.\nNew line here…  done"),
            vec!["It costs $3.50 today.", "\"Really?\"", "she asked.", "New line here…", "done"]
        );
        assert_eq!(sentences("  "), Vec::<&str>::new());
    }

    #[test]
    fn a_long_memory_is_covered_whole_in_at_most_the_cap() {
        let sentence = "This sentence has exactly eight words in it.";
        let long = vec![sentence; 100].join(" ");
        let got = runs(&long);
        assert!(got.len() <= MAX_RUNS && got.len() >= 2, "{} runs", got.len());
        let words: usize = got.iter().map(|r| r.split_whitespace().count()).sum();
        assert_eq!(words, 800, "every word is in a run");
        // Without a label nothing is prefixed; a multibyte label is cut at its colon.
        assert!(!got[0].starts_with(':'));
        let labelled = runs("Zoë： Hallo zusammen, ich bin heute aus Berlin angekommen. Morgen fahre ich weiter nach München mit dem Zug.");
        assert_eq!(labelled.len(), 2);
        assert!(labelled.iter().all(|r| r.starts_with("Zoë: ")), "{labelled:?}");
    }
}
