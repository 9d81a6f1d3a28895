//! Normalisation shared by every surface: tags, tag prefixes, the content hash, timestamps.

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use crate::error::{bad, Error};
use crate::validate::{check_chars, MAX_FILTER_VALUE_CHARS, MAX_LIST_ITEMS};

/// sha-256 (hex) of the content with case and whitespace differences removed, so "Use Postgres" and
/// " use   postgres " are the same memory.
pub fn content_hash(content: &str) -> String {
    let normalized = content.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    hex::encode(Sha256::digest(normalized.as_bytes()))
}

/// Every cumulative prefix of every tag, split on `:` and `/`, in order and without repeats:
/// `slack:channel:general` gives `slack`, `slack:channel`, `slack:channel:general`. Linear in the prefixes
/// (tags are parsed first, so at most [`super::MAX_TAGS`] × [`super::MAX_TAG_LEVELS`] of them).
pub fn tag_prefixes(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for tag in tags {
        let cuts = tag.char_indices().filter(|(_, c)| matches!(c, ':' | '/')).map(|(i, _)| i);
        for end in cuts.chain(std::iter::once(tag.len())) {
            let prefix = tag[..end].trim_end_matches([':', '/']);
            if !prefix.is_empty() && seen.insert(prefix) {
                out.push(prefix.to_owned());
            }
        }
    }
    out
}

/// Values given as a filter (tags, types: query parameters or a JSON list): each may itself be
/// comma-separated; trimmed, lowercased, without empties and repeats. At most `max` distinct values (and
/// [`MAX_LIST_ITEMS`] given), each at most [`MAX_FILTER_VALUE_CHARS`] characters: checked while reading, so
/// an overlong list costs no more than its cap. Errors name `field`.
pub fn normalize_tag_filter(raw: &[String], field: &str, max: usize) -> Result<Vec<String>, Error> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut given = 0_usize;
    for tag in raw.iter().flat_map(|t| t.split(',')) {
        let tag = tag.trim();
        if tag.is_empty() {
            continue;
        }
        given += 1;
        if given > MAX_LIST_ITEMS {
            return Err(bad(field, format!("at most {MAX_LIST_ITEMS} items")));
        }
        check_chars(field, tag, MAX_FILTER_VALUE_CHARS)?;
        let tag = tag.to_lowercase();
        if seen.contains(&tag) {
            continue;
        }
        if out.len() == max {
            return Err(bad(field, format!("at most {max} distinct values")));
        }
        seen.insert(tag.clone());
        out.push(tag);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::parse_timestamp;

    #[test]
    fn prefixes_split_on_colon_and_slash() {
        let tags = vec!["slack:channel:general".to_owned(), "a/b".to_owned(), "slack:user".to_owned()];
        assert_eq!(tag_prefixes(&tags), ["slack", "slack:channel", "slack:channel:general", "a", "a/b", "slack:user"]);
    }

    #[test]
    fn hash_ignores_case_and_whitespace() {
        assert_eq!(content_hash("Use  Postgres\n"), content_hash(" use postgres"));
        assert_ne!(content_hash("use postgres"), content_hash("use mysql"));
    }

    #[test]
    fn timestamps_accept_iso_forms() {
        assert!(parse_timestamp("2024-12-05T12:00:00Z").is_some());
        assert!(parse_timestamp("2024-12-05T12:00:00+02:00").is_some());
        assert!(parse_timestamp("2024-12-05T12:00:00").is_some());
        assert!(parse_timestamp("2024-12-05").is_some());
        assert!(parse_timestamp("yesterday").is_none());
        assert!(parse_timestamp("2024-13-05").is_none());
        assert!(parse_timestamp("+12345-01-01T00:00:00Z").is_none());
        assert!(parse_timestamp("-0001-06-01").is_none());
    }

    #[test]
    fn tag_filter_splits_commas() {
        let raw = vec!["A, b".to_owned(), "b".to_owned(), " ".to_owned()];
        assert_eq!(normalize_tag_filter(&raw, "tags", 2).unwrap(), ["a", "b"]);
    }

    #[test]
    fn tag_filters_are_capped_while_read_and_linear() {
        // Distinct values past the cap: refused, naming the field and the cap.
        let many: Vec<String> = (0..101).map(|i| format!("t{i}")).collect();
        let err = normalize_tag_filter(&many, "exclude_tags", 100).unwrap_err().to_string();
        assert!(err.contains("exclude_tags") && err.contains("at most 100"), "{err}");
        // One comma-separated string counts each value; repeats are not distinct values.
        let repeated = vec![vec!["same"; 900].join(",")];
        assert_eq!(normalize_tag_filter(&repeated, "tags", 1).unwrap(), ["same"]);
        // More values than any list may hold, and an overlong value, are refused before anything else.
        let endless = vec![vec!["x"; crate::validate::MAX_LIST_ITEMS + 1].join(",")];
        assert!(normalize_tag_filter(&endless, "tags", 100).is_err());
        let long = vec!["y".repeat(crate::validate::MAX_FILTER_VALUE_CHARS + 1)];
        let err = normalize_tag_filter(&long, "types", 100).unwrap_err().to_string();
        assert!(err.contains("types") && err.contains("at most 256 characters"), "{err}");
        // 100,000 distinct values in one string: refused at the cap (the 101st), not deduplicated first.
        let huge = vec![(0..100_000).map(|i| i.to_string()).collect::<Vec<_>>().join(",")];
        let err = normalize_tag_filter(&huge, "tags", 100).unwrap_err().to_string();
        assert!(err.contains("at most 100 distinct values"), "{err}");
    }
}
