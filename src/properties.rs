//! Property tests of the parsers hostile input reaches first: time phrases, query hints, tags, timestamps and
//! content normalisation. Each holds for any input proptest finds, not only the examples the unit tests name.

use chrono::{DateTime, Duration, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::json;

use crate::memory::{content_hash, normalize_tag_filter, parse_timestamp, tag_prefixes, NewMemory, ParseCtx};
use crate::recall::{query, time};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

/// Words the time parser and the query reader act on, with numbers and noise between them.
fn time_words() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("in"),
        Just("on"),
        Just("last"),
        Just("next"),
        Just("ago"),
        Just("since"),
        Just("until"),
        Just("before"),
        Just("after"),
        Just("yesterday"),
        Just("today"),
        Just("week"),
        Just("weeks"),
        Just("month"),
        Just("year"),
        Just("years"),
        Just("May"),
        Just("june"),
        Just("October"),
        Just("Monday"),
        Just("sun"),
        Just("the"),
        Just("when"),
        Just("did"),
        Just("vor"),
        Just("zwei"),
        Just("Wochen"),
        Just("letzte"),
        Just("Woche"),
        Just("2023"),
        Just("13,"),
        Just("1999"),
        Just("0"),
        Just("-5"),
        Just("99999999999"),
        Just("\"quoted"),
        Just("phrase\""),
        Just("Alice"),
        Just("?"),
        Just("."),
        Just("days"),
        Just("hours"),
        Just("3"),
        Just("a"),
    ];
    proptest::collection::vec(word, 0..12).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn time_phrases_never_panic_and_give_ordered_spans(text in prop_oneof![time_words(), any::<String>()]) {
        if let Some(span) = time::parse_time(&text, now()) {
            prop_assert!(span.start <= span.end, "{text:?}: {span:?}");
        }
    }

    #[test]
    fn query_hints_never_panic_and_score_within_unit_range(
        text in prop_oneof![time_words(), any::<String>()],
        days_ago in -4000_i64..4000,
        content in prop_oneof![time_words(), ".{0,40}"],
    ) {
        let hints = query::analyze(&text, now());
        let created = now() - Duration::days(days_ago);
        if let Some(score) = hints.time_match(created, &content) {
            prop_assert!((0.0..=1.0).contains(&score), "{text:?}: {score}");
        }
        for name in &hints.names {
            prop_assert!(text.contains(name.as_str()), "{text:?} names {name:?}");
        }
    }

    #[test]
    fn coverage_is_a_share_and_a_text_covers_itself_in_either_unicode_form(
        text in prop_oneof![time_words(), any::<String>(), "[a-zäöüß' ’]{0,60}"],
        content in prop_oneof![time_words(), any::<String>()],
    ) {
        use unicode_normalization::UnicodeNormalization;
        let hints = query::analyze(&text, now());
        if let Some(share) = hints.coverage(&content) {
            prop_assert!((0.0..=1.0).contains(&share), "{text:?} in {content:?}: {share}");
        }
        if hints.terms.len() < 32 {
            if let Some(own) = hints.coverage(&text) {
                prop_assert_eq!(own, 1.0, "{:?} covers itself", text);
            }
        }
        let decomposed: String = text.nfd().collect();
        prop_assert_eq!(hints.coverage(&decomposed), hints.coverage(&text), "{:?}", text);
    }

    #[test]
    fn the_content_hash_ignores_whitespace_and_case(
        words in proptest::collection::vec("[A-Za-z0-9äöüÉ,.!?-]{1,8}", 1..8),
        gaps in proptest::collection::vec("[ \t\n]{1,3}", 8),
        pad in "[ \t\n]{0,3}",
    ) {
        let plain = words.join(" ");
        let spaced: String = words.iter().zip(&gaps).map(|(w, g)| format!("{w}{g}")).collect();
        let variant = format!("{pad}{}", spaced.to_uppercase());
        prop_assert_eq!(content_hash(&plain), content_hash(&variant));
        prop_assert_eq!(content_hash(&plain).len(), 64);
    }

    #[test]
    fn tag_prefixes_are_prefixes_without_repeats(tags in proptest::collection::vec(".{0,12}", 0..6)) {
        let prefixes = tag_prefixes(&tags);
        for (i, p) in prefixes.iter().enumerate() {
            prop_assert!(!p.is_empty());
            prop_assert!(tags.iter().any(|t| t.starts_with(p.as_str())), "{p:?} of {tags:?}");
            prop_assert!(!prefixes[..i].contains(p), "repeated {p:?}");
        }
        for tag in &tags {
            let whole = tag.trim_end_matches([':', '/']);
            prop_assert!(whole.is_empty() || prefixes.iter().any(|p| p == whole), "{whole:?} missing");
        }
    }

    #[test]
    fn tag_filters_are_normalised_once_and_for_all(raw in proptest::collection::vec(".{0,16}", 0..6)) {
        let tags = normalize_tag_filter(&raw, "tags", 100).unwrap();
        prop_assert_eq!(normalize_tag_filter(&tags, "tags", 100).unwrap(), tags.clone(), "idempotent");
        for (i, tag) in tags.iter().enumerate() {
            prop_assert!(!tag.is_empty() && !tag.contains(','));
            prop_assert_eq!(tag.trim(), tag.as_str());
            prop_assert!(!tags[..i].contains(tag));
        }
    }

    #[test]
    fn stored_tags_are_trimmed_lowercase_unique_or_refused_naming_tags(
        tags in prop_oneof![
            proptest::collection::vec(".{0,20}", 0..8).prop_map(|t| json!(t)),
            ".{0,60}".prop_map(|t| json!(t)),
            Just(json!([1, "a"])),
            Just(json!({"a": 1})),
        ],
    ) {
        let input = serde_json::from_value(json!({"content": "a memory", "tags": tags})).unwrap();
        match NewMemory::parse(input, &ParseCtx::new(now(), 384)) {
            Ok(memory) => {
                for (i, tag) in memory.tags.iter().enumerate() {
                    prop_assert!(!tag.is_empty());
                    prop_assert_eq!(tag.trim(), tag.as_str());
                    prop_assert_eq!(&tag.to_lowercase(), tag);
                    prop_assert!(!memory.tags[..i].contains(tag));
                }
                prop_assert_eq!(&memory.tag_prefixes, &tag_prefixes(&memory.tags));
            }
            Err(err) => prop_assert!(err.field.starts_with("tags"), "{err:?}"),
        }
    }

    #[test]
    fn timestamps_round_trip_and_stay_in_four_digit_years(
        secs in -62_135_596_800_i64..253_402_300_799,
        nanos in 0_u32..1_000_000_000,
        noise in ".{0,30}",
    ) {
        let t = Utc.timestamp_opt(secs, nanos).unwrap();
        prop_assert_eq!(parse_timestamp(&t.to_rfc3339()), Some(t));
        if let Some(parsed) = parse_timestamp(&noise) {
            prop_assert!((1..=9999).contains(&chrono::Datelike::year(&parsed)));
        }
    }
}
