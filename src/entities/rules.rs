//! The local entity extractor: rules, no model. It looks for
//! - code spans (`` `cargo test` ``) and well-known tools in any case (`postgres`, `VS Code`) → tool;
//! - "project called X", "the X project" → project;
//! - "X vs Y", "X versus Y" → both sides (tools when known, else concepts);
//! - people after "met with", "talked to", "spoke with", "call with"..., and a chat speaker (`Ann: ...`)
//!   → person;
//! - "prefers X", "I like X", "my favourite X is Y" → preference;
//! - capitalised spans elsewhere: organisations by suffix or name (`Acme Inc`, `Google`), places after
//!   "in/at/from/to/visited" (`in Berlin`), people before "said/told/thinks..." and two-word names,
//!   anything else a concept. A capitalised word that only starts a sentence is not taken as a name.
//!
//! It is deliberately conservative: a missed entity costs a tag, a wrong one pollutes every listing.

use std::sync::LazyLock;

use regex::Regex;

use super::{dedupe, Found};

/// Well-known tools: (lower-case spellings, canonical name).
const TOOLS: &[(&[&str], &str)] = &[
    (&["postgres", "postgresql", "pgvector"], "PostgreSQL"),
    (&["mysql"], "MySQL"),
    (&["sqlite"], "SQLite"),
    (&["mongodb", "mongo"], "MongoDB"),
    (&["redis"], "Redis"),
    (&["kafka"], "Kafka"),
    (&["rabbitmq"], "RabbitMQ"),
    (&["elasticsearch"], "Elasticsearch"),
    (&["docker"], "Docker"),
    (&["kubernetes", "k8s"], "Kubernetes"),
    (&["terraform"], "Terraform"),
    (&["ansible"], "Ansible"),
    (&["git"], "Git"),
    (&["github"], "GitHub"),
    (&["gitlab"], "GitLab"),
    (&["linux"], "Linux"),
    (&["rust"], "Rust"),
    (&["python"], "Python"),
    (&["typescript"], "TypeScript"),
    (&["javascript"], "JavaScript"),
    (&["java"], "Java"),
    (&["kotlin"], "Kotlin"),
    (&["golang"], "Go"),
    (&["c++"], "C++"),
    (&["c#"], "C#"),
    (&["react"], "React"),
    (&["vue"], "Vue"),
    (&["node.js", "nodejs"], "Node.js"),
    (&["django"], "Django"),
    (&["axum"], "axum"),
    (&["tokio"], "Tokio"),
    (&["vs code", "vscode"], "VS Code"),
    (&["vim", "neovim"], "Vim"),
    (&["emacs"], "Emacs"),
    (&["aws"], "AWS"),
    (&["gcp"], "GCP"),
    (&["azure"], "Azure"),
    (&["slack"], "Slack"),
    (&["jira"], "Jira"),
    (&["figma"], "Figma"),
    (&["excel"], "Excel"),
];

/// Tool names that are also common words: taken only when capitalised ("Rust", not "rust on the bike").
const AMBIGUOUS_TOOLS: &[&str] = &["rust", "react", "vue", "slack", "excel", "java", "azure", "git", "mongo"];

/// Well-known organisations, by exact spelling.
const ORGANIZATIONS: &[&str] = &[
    "Google",
    "Microsoft",
    "Apple",
    "Amazon",
    "Meta",
    "Facebook",
    "OpenAI",
    "Anthropic",
    "Mozilla",
    "IBM",
    "Netflix",
    "Stripe",
    "Shopify",
    "Spotify",
    "Tesla",
    "Nvidia",
    "Intel",
    "Oracle",
    "Salesforce",
    "UNESCO",
    "NASA",
];

/// Words that end an organisation's name.
const ORG_SUFFIXES: &[&str] = &[
    "Inc",
    "Inc.",
    "Corp",
    "Corp.",
    "Corporation",
    "Ltd",
    "Ltd.",
    "LLC",
    "GmbH",
    "AG",
    "SA",
    "University",
    "College",
    "Institute",
    "Labs",
    "Foundation",
    "Company",
    "Bank",
    "Group",
    "Agency",
    "Ministry",
    "Hospital",
    "School",
];

/// Capitalised words that are not names: pronouns, sentence openers, days, months, greetings.
const NOT_NAMES: &[&str] = &[
    "I",
    "I'm",
    "I've",
    "I'll",
    "I'd",
    "A",
    "An",
    "The",
    "This",
    "That",
    "These",
    "Those",
    "We",
    "You",
    "He",
    "She",
    "It",
    "They",
    "My",
    "Our",
    "Your",
    "His",
    "Her",
    "Their",
    "Its",
    "Me",
    "Us",
    "Them",
    "There",
    "Here",
    "What",
    "Which",
    "Who",
    "Why",
    "How",
    "When",
    "Where",
    "If",
    "Then",
    "And",
    "But",
    "Or",
    "So",
    "Also",
    "Yes",
    "No",
    "Not",
    "Ok",
    "Okay",
    "Oh",
    "Hi",
    "Hey",
    "Hello",
    "Thanks",
    "Thank",
    "Wow",
    "Great",
    "Sure",
    "Well",
    "Just",
    "Maybe",
    "Today",
    "Tomorrow",
    "Yesterday",
    "Tonight",
    "Now",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "After",
    "Before",
    "During",
    "Since",
    "Because",
    "For",
    "With",
    "Without",
    "In",
    "On",
    "At",
    "To",
    "From",
    "By",
    "Of",
    "As",
    "Is",
    "Are",
    "Was",
    "Were",
    "Do",
    "Did",
    "Does",
    "Let",
    "Let's",
    "Please",
    "Always",
    "Never",
    "Every",
    "Each",
    "All",
    "Some",
    "Any",
    "One",
    "Two",
    "First",
    "Last",
    "Next",
    "New",
    "Good",
    "Nice",
    "Decided",
    "Use",
    "Using",
    "Note",
    "Remember",
    "Don't",
    "Can",
    "Could",
    "Would",
    "Should",
    "Will",
];

/// Words before a capitalised span that make it a place.
const PLACE_CUES: &[&str] = &["in", "at", "from", "to", "near", "visited", "visiting", "moved", "live", "lives"];

/// Words after a capitalised span that make it a person, even at a sentence's start.
const PERSON_CUES: &[&str] = &[
    "said",
    "says",
    "told",
    "thinks",
    "thought",
    "wants",
    "wanted",
    "prefers",
    "likes",
    "loves",
    "uses",
    "asked",
    "mentioned",
    "suggested",
    "agreed",
    "decided",
    "joined",
    "wrote",
];

/// Whether a capitalised word is a common word rather than a name (plurals included: "Thursdays").
fn not_a_name(word: &str) -> bool {
    let w = word.trim_end_matches(['.', '\'', ',']);
    NOT_NAMES.contains(&w) || NOT_NAMES.contains(&w.trim_end_matches('s'))
}

static CODE_SPAN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`([^`\n]{1,60})`").expect("regex"));
static PROJECT_CALLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i:\b(?:project|repo|repository|codebase|service|app|product)\s+(?:called|named)\s+)["'“]?([A-Za-z0-9][\w.+-]*(?:\s+[A-Z][\w.+-]*)*)"#)
        .expect("regex")
});
static THE_X_PROJECT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\p{Lu}[\w+-]*(?:[ \t]+\p{Lu}[\w+-]*)*)\s+(?i:project)\b").expect("regex"));
static VERSUS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(\p{L}[\w+#-]*(?:\.\w+)*)\s+(?i:vs\.?|versus)\s+(\p{L}[\w+#-]*(?:\.\w+)*)").expect("regex")
});
static MET_WITH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:\b(?:met|meeting|met up|talked|talking|spoke|speaking|chatted|call|called|lunch|dinner|coffee)\s+(?:with|to)\s+)(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)\b")
        .expect("regex")
});
static SPEAKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?):\s").expect("regex"));
static PREFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:\b(?:prefers?|preferred|likes?|loves?|enjoys?|favou?rite\s+\w+\s+is|always uses?|would rather use)\s+)([^.,;:!?\n]{2,60})")
        .expect("regex")
});
// A word may hold inner dots (Node.js), but a span never runs past a sentence's full stop or a line.
static CAPITALISED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b\p{Lu}[\w'+#-]*(?:\.\w+)*(?:[ \t]+(?:of[ \t]+|de[ \t]+|the[ \t]+)?\p{Lu}[\w'+#-]*(?:\.\w+)*)*")
        .expect("regex")
});
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z][\w+#.]*(?i:\s+code)?").expect("regex"));

fn known_tool(word: &str) -> Option<&'static str> {
    let w = word.trim_end_matches('.').to_lowercase();
    TOOLS.iter().find(|(names, _)| names.contains(&w.as_str())).map(|(_, canonical)| *canonical)
}

/// The words of a preference phrase worth naming: up to a clause break, at most five words.
fn preference_name(phrase: &str) -> Option<String> {
    const STOP: &[&str] = &["because", "since", "when", "as", "but", "and", "so", "for", "if", "which", "that"];
    let mut words = Vec::new();
    for w in phrase.split_whitespace() {
        if STOP.contains(&w.to_lowercase().as_str()) || words.len() == 5 {
            break;
        }
        words.push(w);
    }
    let name = words.join(" ");
    let lowered = name.to_lowercase();
    let trivial = ["it", "that", "this", "them", "to", "the", "a"].contains(&lowered.as_str());
    (!name.is_empty() && !trivial).then_some(name)
}

/// The word before byte offset `at`, lower-cased.
fn word_before(text: &str, at: usize) -> String {
    text[..at].split_whitespace().last().unwrap_or("").trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()
}

fn word_after(text: &str, at: usize) -> String {
    text[at..].split_whitespace().next().unwrap_or("").trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()
}

/// Whether byte offset `at` starts a sentence (text start, or after `.`, `!`, `?`, `:` or a newline).
fn sentence_start(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    before.is_empty() || before.ends_with(['.', '!', '?', ':', '\n', '"', '“'])
}

/// The entity type of a capitalised span, or None when it is not a name.
fn classify_span(text: &str, start: usize, span: &str) -> Option<(String, &'static str)> {
    let words: Vec<&str> = span.split_whitespace().collect();
    // Leading words that are not names ("The Acme Corp" → "Acme Corp", "Yesterday Ann" → "Ann").
    let skip = words.iter().take_while(|w| not_a_name(w)).count();
    let words = &words[skip..];
    let last = words.last()?;
    let name = words.join(" ").trim_end_matches(['.', '\'', '-']).to_owned();
    if name.chars().count() < 2 || known_tool(&name).is_some() {
        return None; // tools are found by the word scan
    }
    if words.len() == 1 && name.len() <= 3 && name.chars().all(|c| c.is_ascii_uppercase()) {
        return None; // CI, API, SQL, UI: too ambiguous to name anything
    }
    let at_start = skip == 0 && sentence_start(text, start);
    let before = if skip == 0 { word_before(text, start) } else { words_before_skip(span, skip) };
    let after = word_after(text, start + span.len());
    if ORG_SUFFIXES.contains(last) || ORGANIZATIONS.contains(&name.as_str()) {
        return Some((name, "organization"));
    }
    if words.len() == 1 && at_start {
        // A sentence's first word is capitalised anyway: only a following cue makes it a name.
        return PERSON_CUES.contains(&after.as_str()).then_some((name, "person"));
    }
    if PLACE_CUES.contains(&before.as_str()) {
        return Some((name, "location"));
    }
    let person_shaped = words.len() == 2 && words.iter().all(|w| w.chars().skip(1).all(char::is_lowercase));
    if PERSON_CUES.contains(&after.as_str()) && words.len() <= 2 || person_shaped {
        return Some((name, "person"));
    }
    Some((name, "concept"))
}

fn words_before_skip(span: &str, skip: usize) -> String {
    span.split_whitespace().nth(skip - 1).unwrap_or("").to_lowercase()
}

/// Finds the entities in `text` by the rules above, deduplicated (see [`dedupe`]).
pub fn extract(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut push = |name: &str, kind: &'static str| found.push(Found { name: name.trim().to_owned(), kind });
    if let Some(c) = SPEAKER.captures(text) {
        push(&c[1], "person");
    }
    for c in MET_WITH.captures_iter(text) {
        push(&c[1], "person");
    }
    for c in PROJECT_CALLED.captures_iter(text) {
        push(c[1].trim_end_matches('.'), "project");
    }
    for c in THE_X_PROJECT.captures_iter(text) {
        let name = c[1].split_whitespace().skip_while(|w| not_a_name(w)).collect::<Vec<_>>().join(" ");
        if !name.is_empty() {
            push(&name, "project");
        }
    }
    for c in CODE_SPAN.captures_iter(text) {
        push(&c[1], "tool");
    }
    for c in VERSUS.captures_iter(text) {
        for side in [&c[1], &c[2]] {
            match known_tool(side) {
                Some(tool) => push(tool, "tool"),
                None => push(side, "concept"),
            }
        }
    }
    for m in WORD.find_iter(text) {
        let word = m.as_str().trim_end_matches('.');
        if AMBIGUOUS_TOOLS.contains(&word.to_lowercase().as_str()) && word.starts_with(char::is_lowercase) {
            continue;
        }
        if let Some(tool) = known_tool(word).or_else(|| known_tool(word.split_whitespace().next().unwrap_or(""))) {
            push(tool, "tool");
        }
    }
    for c in PREFERENCE.captures_iter(text) {
        if let Some(name) = preference_name(&c[1]) {
            push(&name, "preference");
        }
    }
    for m in CAPITALISED.find_iter(text) {
        if let Some((name, kind)) = classify_span(text, m.start(), m.as_str()) {
            push(&name, kind);
        }
    }
    dedupe(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, &'static str)> {
        extract(text).into_iter().map(|f| (f.name, f.kind)).collect()
    }

    fn has(text: &str, name: &str, kind: &str) -> bool {
        let all = names(text);
        let ok = all.iter().any(|(n, k)| n == name && *k == kind);
        assert!(ok, "{name} ({kind}) not in {all:?} for {text:?}");
        ok
    }

    #[test]
    fn tools_in_any_case_and_code_spans() {
        assert!(has("We chose postgres over MongoDB for the ledger.", "PostgreSQL", "tool"));
        assert!(has("We chose postgres over MongoDB for the ledger.", "MongoDB", "tool"));
        assert!(has("Run `cargo nextest` before pushing.", "cargo nextest", "tool"));
        assert!(has("Jeff uses VS Code as primary editor", "VS Code", "tool"));
    }

    #[test]
    fn projects_versus_people_and_preferences() {
        assert!(has("Started a new project called Falcon today.", "Falcon", "project"));
        assert!(has("The Apollo project slipped a week.", "Apollo", "project"));
        assert!(has("Benchmarks: gRPC vs REST for the internal API.", "gRPC", "concept"));
        assert!(has("Benchmarks: gRPC vs REST for the internal API.", "REST", "concept"));
        assert!(has("Met with Sarah Chen about the roadmap.", "Sarah Chen", "person"));
        assert!(has("Talked to Bob before the release.", "Bob", "person"));
        assert!(has("Caroline: I went to a support group yesterday.", "Caroline", "person"));
        assert!(has("Jeff prefers TypeScript over JavaScript", "Jeff", "person"));
        assert!(has("The user prefers dark mode because of eye strain.", "dark mode", "preference"));
    }

    #[test]
    fn unicode_names_and_sentence_boundaries() {
        assert!(has("Had coffee with Zoë Müller today", "Zoë Müller", "person"));
        assert!(has("We met at Google. Microsoft said no.", "Google", "organization"));
        assert!(has("We met at Google. Microsoft said no.", "Microsoft", "organization"));
        assert!(has("éclair vs croissant", "éclair", "concept"));
        assert!(has("Upgrade Node.js before Friday", "Node.js", "tool"));
        let long = "Alpha Beta ".repeat(200);
        assert!(extract(&long).len() <= crate::entities::MAX_PER_MEMORY);
        assert!(extract("🎉🎉 — ¿Qué? ÉÉÉ «Zoë»").len() <= crate::entities::MAX_PER_MEMORY);
    }

    #[test]
    fn organisations_and_places() {
        assert!(has("She joined Acme Corp last spring.", "Acme Corp", "organization"));
        assert!(has("Our vendor is Google for mail.", "Google", "organization"));
        assert!(has("The offsite will be in Berlin this year.", "Berlin", "location"));
    }

    #[test]
    fn sentence_openers_days_and_months_are_not_names() {
        let all = names("Yesterday we shipped it. Then on Monday in March nothing happened. This is fine.");
        assert!(all.is_empty(), "{all:?}");
        assert!(names("Deploy went fine.").is_empty());
        assert!(names("they react to rust on the bike").is_empty());
        assert!(names("The weekly sync moved to Thursdays, run in CI").is_empty());
        assert!(has("Jeff uses VS Code as primary editor", "Jeff", "person"));
        assert!(names("My bike has rust.").is_empty());
    }
}
