//! Keyword relevance as BM25 over Postgres full-text lexemes.
//!
//! Postgres' own ranks (`ts_rank_cd`) weigh every query word alike, so a word found in half of a tenant's
//! memories (a person's name, the project everything is about) counts as much as the one rare word that
//! identifies the answer. BM25 weighs each word by its inverse document frequency within the tenant and
//! normalises by memory length. Document frequencies are counts the writes keep (migration 40), read for the
//! query's own lexemes in the statement that makes them (`store::terms::lexemes`); a lexeme no active memory
//! holds counts as found in one.
//!
//! Term frequency is taken as 1 for every matched lexeme: memories are short (a few sentences), and
//! reading positions out of each tsvector would cost more than it tells.
//!
//! Candidate generation is bounded: only the rarest query lexemes, up to [`CANDIDATE_BUDGET`] expected
//! matching memories, select candidates; every query lexeme still scores them. A memory that matches only
//! very common words scores too low to be missed. A query of only common words selects the memories
//! holding two of its three rarest (the best matches; GIN intersects the posting lists without reading
//! rows), widening to its rarest word when that finds too few. Where a selection could match more than
//! [`MAX_SCORED`], the memories holding all of the query's rarest words are asked for first. And no search
//! scores more than [`MAX_SCORED`] memories. Reading each matching row is the cost (measured: ~1,500 matching rows took
//! 8-10 ms at 10k memories), so this keeps keyword search from ranking thousands of rows in a large tenant.

use std::collections::HashMap;

use crate::recall::query::NAME_BOOST;

/// BM25 term-frequency saturation (irrelevant with tf = 1, kept for the length normalisation).
pub const K1: f64 = 1.2;
/// BM25 length normalisation.
pub const B: f64 = 0.75;
/// Most memories the candidate-selecting lexemes may match, by their document frequencies.
pub const CANDIDATE_BUDGET: u64 = 1000;
/// Most memories a keyword search scores, whatever the statistics say.
pub const MAX_SCORED: i64 = 4000;
/// Most of a query's rarest lexemes the first selection asks memories to hold all of, where a wider one could
/// match more than [`MAX_SCORED`] (a long question's every word is in almost no memory).
const ALL_OF: usize = 4;
/// Most query lexemes used (the rarest ones).
pub const MAX_TERMS: usize = 32;

/// Bytes of the longest lexeme the tenant keys hold (`cairn_search_keys`, migration 41): its key (9 bytes
/// more) stays within tsquery's 2,047 bytes a word.
pub const MAX_KEYED_LEXEME: usize = 2000;
/// Most quoted phrases scored.
const MAX_PHRASES: usize = 4;
/// One tenant's document statistics, for the lexemes of one query.
#[derive(Debug, Default)]
pub struct TermStats {
    /// Active memories in the tenant.
    pub docs: u64,
    /// Average lexemes per memory.
    pub avg_len: f64,
    /// Memories containing each lexeme (of those asked about, the ones found in at least one).
    pub df: HashMap<String, u64>,
}

impl TermStats {
    pub fn new(docs: u64, avg_len: f64, df: HashMap<String, u64>) -> Self {
        Self { docs, avg_len, df }
    }

    /// Document frequency of a lexeme (1 when unknown).
    pub fn df(&self, lexeme: &str) -> u64 {
        self.df.get(lexeme).copied().unwrap_or(1)
    }

    /// Active memories that hold the lexeme (0 when unknown).
    pub fn held(&self, lexeme: &str) -> u64 {
        self.df.get(lexeme).copied().unwrap_or(0)
    }

    /// Robertson–Spärck Jones IDF as in Lucene: `ln(1 + (N - df + 0.5) / (df + 0.5))`, always > 0.
    pub fn idf(&self, lexeme: &str) -> f64 {
        let df = self.df(lexeme);
        let n = self.docs.max(df).max(1) as f64;
        let df = df as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }
}

/// A query's lexemes, weighed for one tenant.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordQuery {
    /// Each lexeme as a tsquery literal (quoted).
    pub terms: Vec<String>,
    pub idfs: Vec<f64>,
    /// The tsquery selecting candidates: the rarest lexemes, joined with `|`; or, when even the rarest is too
    /// common, memories holding two of the three rarest (first all of its [`ALL_OF`] rarest, in a tenant where
    /// that could match more than [`MAX_SCORED`]).
    pub select: String,
    /// Wider selections, each tried in turn while fewer memories than wanted are found: for common words,
    /// two of the three rarest, then the rarest or the other two together; for the rarest few, they or the
    /// next two rarest together (first they or all the words left out, where those are common). Each holds
    /// the ones before it.
    pub widen: Vec<String>,
    /// No active memory holds any of the selecting lexemes, by the counts the writes keep (exact, and read in
    /// the same snapshot): `select` would find nothing among them, so only the wider ones are worth running.
    pub select_holds_nothing: bool,
    pub avg_len: f64,
    /// Weight of a match in a memory's episode context (the memory before it) beside its own (0: ignored).
    pub context_weight: f64,
}

/// The candidate-selecting tsquery of lexemes sorted rarest first, and the wider ones tried in turn while too
/// few memories are found: the rarest lexemes whose document frequencies sum to at most
/// [`CANDIDATE_BUDGET`]; when the rarest alone exceeds it (a query of common words only), the memories
/// holding two of the three rarest, then the rarest alone (or the other two together).
/// Also returns how many of the rarest lexemes `select` is made of, one by one (0 for common words).
///
/// Where a selection could match more memories than [`MAX_SCORED`] (by its words' document frequencies),
/// the search would read and score that many, and which of them would be arbitrary (the table's order). The
/// memories holding all of the query's [`ALL_OF`] rarest words are then asked for first: they hold the
/// weightiest words together, the best BM25 matches but for length normalisation (a much shorter memory
/// holding fewer can score higher, and is found by the wider selections only when these are too few). In a
/// tenant too small for any selection to pass the bound, the selections are as they were.
fn select(weighed: &[(&String, u64)]) -> (String, Vec<String>, usize) {
    let q: Vec<String> = weighed.iter().take(3).map(|(l, _)| quote(l)).collect();
    if weighed[0].1 > CANDIDATE_BUDGET && q.len() >= 2 {
        return match &q[..] {
            [a, b] => (format!("{a} & {b}"), vec![a.clone()], 0),
            [a, b, c, ..] => {
                let two_of_three = format!("({a} & {b}) | ({a} & {c}) | ({b} & {c})");
                let rarest_or_two = format!("{a} | ({b} & {c})");
                // Two of three hold one of the two rarest.
                match weighed[0].1 + weighed[1].1 > MAX_SCORED as u64 {
                    true => (all_of(weighed), vec![two_of_three, rarest_or_two], 0),
                    false => (two_of_three, vec![rarest_or_two], 0),
                }
            }
            _ => unreachable!("two or three lexemes"),
        };
    }
    let mut budget = 0_u64;
    let mut select = Vec::new();
    for (lexeme, df) in weighed {
        if !select.is_empty() && budget + df > CANDIDATE_BUDGET {
            break;
        }
        budget += df;
        select.push(quote(lexeme));
    }
    // The words left out may be what the memories hold (a rare word of the query may be in none of them):
    // the widening adds the memories holding the next two rarest together, or the next one; first those
    // holding all the words left out, when the next two could be in more memories than MAX_SCORED.
    let rest = &weighed[select.len()..];
    let next: Vec<String> = rest.iter().take(2).map(|(l, _)| quote(l)).collect();
    let selected = select.join(" | ");
    let mut widen = Vec::new();
    if rest.len() >= 3 && budget + rest[0].1 > MAX_SCORED as u64 {
        widen.push(format!("{selected} | ({})", all_of(rest)));
    }
    match &next[..] {
        [] => {}
        [next] => widen.push(format!("{selected} | {next}")),
        [a, b, ..] => widen.push(format!("{selected} | ({a} & {b})")),
    }
    (selected, widen, select.len())
}

/// The tsquery of memories holding every one of the (at most [`ALL_OF`] rarest) lexemes.
fn all_of(weighed: &[(&String, u64)]) -> String {
    weighed.iter().take(ALL_OF).map(|(l, _)| quote(l)).collect::<Vec<_>>().join(" & ")
}

/// A lexeme as a tsquery operand: quoted, with quotes doubled and backslashes escaped.
fn quote(lexeme: &str) -> String {
    format!("'{}'", lexeme.replace('\\', "\\\\").replace('\'', "''"))
}

impl KeywordQuery {
    /// Weighs the query's lexemes; None when it has none (only stop words or punctuation). Lexemes of
    /// names and quoted phrases (`emphasised`) weigh [`NAME_BOOST`] times more; each phrase tsquery
    /// (`phrases`) matched word for word adds the weight of the query's rarest lexeme.
    pub fn plan(lexemes: &[String], emphasised: &[String], phrases: &[String], stats: &TermStats) -> Option<Self> {
        let mut weighed: Vec<(&String, u64)> = lexemes.iter().map(|l| (l, stats.df(l))).collect();
        weighed.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(b.0)));
        weighed.dedup_by(|a, b| a.0 == b.0);
        weighed.truncate(MAX_TERMS);
        if weighed.is_empty() {
            return None;
        }
        // A lexeme longer than the tenant keys hold (migration 41) selects nothing, and keyed it would pass
        // tsquery's limit on a word and fail the search: it only scores.
        let selectable: Vec<(&String, u64)> =
            weighed.iter().filter(|(l, _)| l.len() <= MAX_KEYED_LEXEME).copied().collect();
        if selectable.is_empty() {
            return None;
        }
        let (select, widen, single) = select(&selectable);
        // Words of the question that no memory holds (its "think", "happen") are the rarest, so they select
        // first; in a large tenant where every other word is common they are the whole selection.
        let select_holds_nothing = single > 0 && selectable[..single].iter().all(|(l, _)| stats.held(l) == 0);
        let mut terms: Vec<String> = weighed.iter().map(|(l, _)| quote(l)).collect();
        let mut idfs: Vec<f64> =
            weighed.iter().map(|(l, _)| stats.idf(l) * if emphasised.contains(l) { NAME_BOOST } else { 1.0 }).collect();
        // The rarest word's own weight, without a name's boost.
        let rarest = weighed.iter().map(|(l, _)| stats.idf(l)).fold(0.0, f64::max);
        for phrase in phrases.iter().take(MAX_PHRASES) {
            terms.push(phrase.clone());
            idfs.push(rarest);
        }
        Some(Self {
            terms,
            idfs,
            select,
            widen,
            select_holds_nothing,
            avg_len: if stats.avg_len > 0.0 { stats.avg_len } else { 1.0 },
            context_weight: 0.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(docs: u64, df: &[(&str, u64)]) -> TermStats {
        TermStats::new(docs, 8.0, df.iter().map(|(w, n)| ((*w).to_owned(), *n)).collect())
    }

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn rare_lexemes_weigh_more_and_every_weight_is_positive() {
        let s = stats(10_000, &[("caroline", 5_000), ("adopt", 40)]);
        assert!(s.idf("puppi") > s.idf("adopt"));
        assert!(s.idf("adopt") > s.idf("caroline"));
        assert!(s.idf("caroline") > 0.0);
        // Stale statistics (more matches than documents) and an empty tenant stay positive too.
        assert!(stats(3, &[("x", 7)]).idf("x") > 0.0);
        assert!(stats(0, &[]).idf("x") > 0.0);
    }

    #[test]
    fn candidates_come_from_the_rarest_lexemes_within_budget_but_all_lexemes_score() {
        let s = stats(100_000, &[("caroline", 50_000), ("go", 20_000), ("research", 600), ("adopt", 300)]);
        let q = KeywordQuery::plan(&words(&["caroline", "research", "adopt", "go", "adopt"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'adopt' | 'research'");
        assert_eq!(q.widen, ["'adopt' | 'research' | ('go' & 'caroline')"]);
        // A word no memory holds selects nothing by itself: the selection widens to the others.
        let absent = KeywordQuery::plan(&words(&["zzyzx", "caroline", "go"]), &[], &[], &s).unwrap();
        assert_eq!(absent.select, "'zzyzx'");
        assert_eq!(absent.widen, ["'zzyzx' | ('go' & 'caroline')"]);
        assert!(absent.select_holds_nothing, "no memory holds the only selecting word: straight to the wider ones");
        assert!(!q.select_holds_nothing);
        let one_held = KeywordQuery::plan(&words(&["zzyzx", "adopt", "caroline"]), &[], &[], &s).unwrap();
        assert_eq!(one_held.select, "'zzyzx' | 'adopt'");
        assert!(!one_held.select_holds_nothing, "'adopt' is held: the selection can find something");
        let all = KeywordQuery::plan(&words(&["adopt", "research"]), &[], &[], &s).unwrap();
        assert!(all.widen.is_empty(), "nothing left out, nothing to widen to");
        assert_eq!(q.terms, ["'adopt'", "'research'", "'go'", "'caroline'"]);
        assert!(q.idfs.windows(2).all(|w| w[0] > w[1]));
    }

    #[test]
    fn a_query_of_only_common_lexemes_selects_memories_holding_its_rarest_together() {
        let s = stats(100_000, &[("caroline", 50_000), ("go", 20_000), ("said", 9_000), ("x", 1_200)]);
        let q = KeywordQuery::plan(&words(&["caroline", "go"]), &[], &[], &s).unwrap();
        assert_eq!((q.select.as_str(), &q.widen[..]), ("'go' & 'caroline'", &["'go'".to_owned()][..]));
        assert!(!q.select_holds_nothing, "two of three: the counts cannot tell");
        let q = KeywordQuery::plan(&words(&["caroline", "go", "said", "x"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'x' & 'said' & 'go' & 'caroline'", "the memories holding every word first");
        assert_eq!(q.widen, ["('x' & 'said') | ('x' & 'go') | ('said' & 'go')", "'x' | ('said' & 'go')"]);
        // A mid-size tenant: two of three cannot pass MAX_SCORED, so it is asked for at once (exact BM25).
        let mid = stats(5_000, &[("caroline", 2_500), ("go", 1_500), ("said", 1_200)]);
        let q = KeywordQuery::plan(&words(&["caroline", "go", "said"]), &[], &[], &mid).unwrap();
        assert_eq!(q.select, "('said' & 'go') | ('said' & 'caroline') | ('go' & 'caroline')");
        assert_eq!(q.widen, ["'said' | ('go' & 'caroline')"]);
        // A long question: all of its four rarest, not every word.
        let long = words(&["caroline", "go", "said", "x", "y", "z"]);
        let s6 = stats(
            100_000,
            &[("caroline", 50_000), ("go", 20_000), ("said", 9_000), ("x", 3_000), ("y", 3_100), ("z", 3_200)],
        );
        assert_eq!(KeywordQuery::plan(&long, &[], &[], &s6).unwrap().select, "'x' & 'y' & 'z' & 'said'");
        let q = KeywordQuery::plan(&words(&["caroline"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'caroline'", "one word selects by itself");
        assert!(q.widen.is_empty());
        assert!(KeywordQuery::plan(&[], &[], &[], &s).is_none());
    }

    #[test]
    fn common_words_left_out_of_a_rare_selection_widen_to_all_of_them_first() {
        // A large tenant: the two rarest words left out could be together in more memories than MAX_SCORED;
        // the memories holding all of them come first.
        let s = stats(100_000, &[("alic", 10_000), ("bill", 5_000), ("servic", 5_200)]);
        let q = KeywordQuery::plan(&words(&["think", "alic", "bill", "servic"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'think'");
        assert!(q.select_holds_nothing);
        assert_eq!(q.widen, ["'think' | ('bill' & 'servic' & 'alic')", "'think' | ('bill' & 'servic')"]);
        // A mid-size tenant: common words, but the next two cannot pass MAX_SCORED: as before.
        let s = stats(10_000, &[("alic", 2_000), ("bill", 1_500), ("servic", 1_600)]);
        let q = KeywordQuery::plan(&words(&["think", "alic", "bill", "servic"]), &[], &[], &s).unwrap();
        assert_eq!(q.widen, ["'think' | ('bill' & 'servic')"]);
        // A small tenant (every word within the budget): the widest at once, as before.
        let s = stats(600, &[("alic", 200), ("bill", 90), ("servic", 95), ("adopt", 3)]);
        let q = KeywordQuery::plan(&words(&["adopt", "alic", "bill", "servic"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'adopt' | 'bill' | 'servic' | 'alic'");
        assert!(q.widen.is_empty());
        let s = stats(5_000, &[("alic", 900), ("bill", 400), ("servic", 700), ("adopt", 3)]);
        let q = KeywordQuery::plan(&words(&["adopt", "alic", "bill", "servic"]), &[], &[], &s).unwrap();
        assert_eq!(q.select, "'adopt' | 'bill'");
        assert_eq!(q.widen, ["'adopt' | 'bill' | ('servic' & 'alic')"], "two words left out: no tier before");
    }

    #[test]
    fn names_weigh_more_and_a_phrase_counts_as_the_rarest_word() {
        let s = stats(100_000, &[("alic", 400), ("lean", 300), ("startup", 200), ("book", 50)]);
        let plain = KeywordQuery::plan(&words(&["alic", "book"]), &[], &[], &s).unwrap();
        let named = KeywordQuery::plan(&words(&["alic", "book"]), &words(&["alic"]), &[], &s).unwrap();
        assert_eq!(named.terms, plain.terms);
        assert!((named.idfs[1] - NAME_BOOST * plain.idfs[1]).abs() < 1e-9, "alic is boosted");
        assert_eq!(named.idfs[0], plain.idfs[0], "book is not");
        let phrase = "'lean' <-> 'startup'".to_owned();
        let q = KeywordQuery::plan(&words(&["lean", "startup"]), &[], std::slice::from_ref(&phrase), &s).unwrap();
        assert_eq!(q.terms.last(), Some(&phrase));
        assert_eq!(q.idfs.last(), Some(&s.idf("startup")), "as much as the rarest word");
        assert!(!q.select.contains("<->"), "a phrase scores; it never selects");
    }

    #[test]
    fn a_lexeme_longer_than_the_keys_hold_scores_but_never_selects() {
        // 680 CJK characters without a space: one lexeme of 2,040 bytes, which keyed would pass 2,047.
        let long = "中".repeat(680);
        let q = KeywordQuery::plan(&words(&[&long, "deploy"]), &[], &[], &stats(100, &[("deploy", 3)])).unwrap();
        assert!(!q.select.contains(&long) && q.widen.iter().all(|w| !w.contains(&long)), "{}", q.select);
        assert!(q.select.contains("deploy"));
        assert!(q.terms.iter().any(|t| t.contains(&long)), "it still scores");
        assert!(KeywordQuery::plan(&words(&[&long]), &[], &[], &stats(100, &[])).is_none());
    }

    #[test]
    fn lexemes_are_quoted_as_tsquery_literals() {
        assert_eq!(quote("o'neil"), "'o''neil'");
        assert_eq!(quote(r"c:\path"), r"'c:\\path'");
        assert_eq!(quote("a|b&!c"), "'a|b&!c'");
    }
}
