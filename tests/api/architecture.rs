//! The layering (README, "Layout"), checked on the source text: surfaces translate and call the services,
//! never the store or another surface; all SQL is under `src/store/`; HTTP and the OpenAPI schemas exist
//! only under `src/api/`, and nothing below the surfaces names them.

use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// The surfaces under `src/api/`: a file of one may not name another.
const SURFACES: &[&str] = &["native", "automem", "shodh", "remem", "mcp", "health", "admin", "metrics"];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Rust source without its comments (line, doc and nested block comments), string literals kept: a
/// commented-out line is no dependency, and a `//` inside a string ("http://") starts no comment.
fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut depth) = (0, 0usize);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if depth > 0 {
            match (c, next) {
                ('*', Some('/')) => (depth, i) = (depth - 1, i + 2),
                ('/', Some('*')) => (depth, i) = (depth + 1, i + 2),
                _ => {
                    if c == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            continue;
        }
        match (c, next) {
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => (depth, i) = (1, i + 2),
            ('r', Some('#' | '"')) if i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_' => {
                // A raw string: r"..." or r#"..."#, copied whole.
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                if chars.get(i + 1 + hashes) != Some(&'"') {
                    out.push(c);
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let start = i;
                i += 2 + hashes;
                while i < chars.len() && !chars[i..].iter().collect::<String>().starts_with(&close) {
                    i += 1;
                }
                i = (i + close.len()).min(chars.len());
                out.extend(&chars[start..i]);
            }
            ('"', _) => {
                out.push('"');
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        out.push(chars[i]);
                        i += 1;
                    }
                    if i < chars.len() {
                        out.push(chars[i]);
                        i += 1;
                    }
                }
                out.push('"');
                i += 1;
            }
            ('\'', _) if chars.get(i + 2) == Some(&'\'') || (next == Some('\\') && chars.get(i + 3) == Some(&'\'')) => {
                // A char literal ('"', '\''), copied so that its quote starts no string.
                let len = if next == Some('\\') { 4 } else { 3 };
                out.extend(&chars[i..(i + len).min(chars.len())]);
                i += len;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// A file's code (no comments), with every `use` tree flattened to one line per path, so that grouped
/// imports (`use crate::{store, api::automem}`) read like the paths they name.
fn code(path: &Path) -> String {
    let text = strip_comments(&fs::read_to_string(path).unwrap());
    let group = Regex::new(r"(?s)\buse\s+([A-Za-z_:]*)::\{(.*?)\};").unwrap();
    let mut flat = text.clone();
    // Expand nested groups from the inside out, a few levels deep.
    for _ in 0..4 {
        flat = group
            .replace_all(&flat, |c: &regex::Captures| {
                let prefix = &c[1];
                let mut depth = 0;
                let mut items = Vec::new();
                let mut current = String::new();
                for ch in c[2].chars() {
                    match ch {
                        ',' if depth == 0 => items.push(std::mem::take(&mut current)),
                        _ => {
                            depth += i32::from(ch == '{') - i32::from(ch == '}');
                            current.push(ch);
                        }
                    }
                }
                items.push(current);
                items
                    .iter()
                    .map(|item| item.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|item| !item.is_empty())
                    .map(|item| format!("use {prefix}::{item};"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .into_owned();
    }
    flat
}

fn relative(path: &Path) -> String {
    path.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap().display().to_string()
}

/// The surface a file under `src/api/` belongs to, if any (`api/native/memories.rs` → `native`).
fn surface_of(path: &Path) -> Option<&'static str> {
    let rel = path.strip_prefix(src().join("api")).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    SURFACES.iter().copied().find(|s| *s == first.trim_end_matches(".rs"))
}

/// The lines of `code` matching `pattern`, as `file:line: text`.
fn breaches(path: &Path, code: &str, pattern: &Regex, what: &str) -> Vec<String> {
    code.lines()
        .enumerate()
        .filter(|(_, line)| pattern.is_match(line))
        .map(|(n, line)| format!("{}:{}: {what}: {}", relative(path), n + 1, line.trim()))
        .collect()
}

/// Every path through which a file under `src/api/` could name `module` of the crate root.
fn crate_module(module: &str) -> Regex {
    Regex::new(&format!(r"\b(crate|super)(::super)*::{module}\b|\bcairn::{module}\b")).unwrap()
}

/// Every path through which a file could name the surface `surface` (a sibling under `src/api/`).
fn surface_module(surface: &str) -> Regex {
    Regex::new(&format!(r"\bapi::{surface}\b|\bsuper(::super)*::{surface}\b")).unwrap()
}

fn check(rule: &str, broken: Vec<String>) {
    assert!(broken.is_empty(), "{rule}:\n{}", broken.join("\n"));
}

#[test]
fn surfaces_call_services_never_the_store_nor_another_surface() {
    let store = crate_module("store");
    let mut broken = Vec::new();
    for path in rust_files(&src().join("api")) {
        let code = code(&path);
        broken.extend(breaches(&path, &code, &store, "reaches the store"));
        let Some(mine) = surface_of(&path) else { continue };
        for other in SURFACES.iter().filter(|s| **s != mine) {
            // In `api/x.rs` and `api/native/mod.rs`, `super::` is the api root; deeper, `super::` is the
            // surface's own folder and `super::super::` the api root.
            let at_root = path.parent() == Some(src().join("api").as_path()) || path.ends_with("mod.rs");
            let pattern = match at_root {
                true => surface_module(other),
                false => Regex::new(&format!(r"\bapi::{other}\b|\bsuper::super(::super)*::{other}\b")).unwrap(),
            };
            broken.extend(breaches(&path, &code, &pattern, &format!("surface {mine} names surface {other}")));
        }
    }
    check("surfaces may call services, not the store or another surface", broken);
}

#[test]
fn sql_lives_only_under_src_store() {
    // sqlx is the store's: elsewhere only its row and type derives (`sqlx::FromRow`, `#[sqlx(...)]`,
    // `sqlx::types`) and the pool type the wiring passes around.
    let sqlx = Regex::new(r"\bsqlx::(?:[^FtP]|F[^r]|t[^y]|P[^g])").unwrap();
    let sql = Regex::new(
        r#"(?i)"\s*(select\s|insert\s+into|delete\s+from|with\s+(recursive\s|\w+\s+as\s)|update\s+[\w.]+(\s+\w+)?\s+set\s|set\s+(local|transaction|role)\s|truncate\s|lock\s+table\s)|\b(query_as|query_scalar|raw_sql)!?\(|QueryBuilder"#,
    )
    .unwrap();
    let mut broken = Vec::new();
    for path in rust_files(&src()).into_iter().filter(|p| !p.starts_with(src().join("store"))) {
        let code = code(&path);
        broken.extend(breaches(&path, &code, &sqlx, "uses sqlx outside src/store/"));
        broken.extend(breaches(&path, &code, &sql, "SQL outside src/store/"));
    }
    check("all SQL is under src/store/", broken);
}

#[test]
fn http_and_openapi_stay_in_the_surfaces() {
    let http = Regex::new(r"\b(axum|axum_extra|utoipa|utoipa_axum|utoipa_swagger_ui|tower_http|http)::").unwrap();
    let api = crate_module("api");
    let mut broken = Vec::new();
    for path in rust_files(&src()).into_iter().filter(|p| !p.starts_with(src().join("api"))) {
        let code = code(&path);
        broken.extend(breaches(&path, &code, &http, "names HTTP or OpenAPI outside src/api/"));
        // Only the wiring of a process (server.rs) and the command line (which prints the OpenAPI
        // document) may name the surfaces.
        let wiring = path == src().join("server.rs") || path.starts_with(src().join("cli"));
        if !wiring {
            broken.extend(breaches(&path, &code, &api, "names the surfaces from below them"));
        }
    }
    check("HTTP and the surfaces stay above the services", broken);
}

/// The checks themselves catch what they are for (a check that cannot fail guards nothing).
#[test]
fn the_checks_notice_a_breach() {
    let dir = std::env::temp_dir().join(format!("cairn-architecture-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("breach.rs");
    fs::write(
        &file,
        "// use crate::store::memories; (commented out)\n\
         use crate::{\n    error::Error,\n    store::{memories, relations},\n};\n\
         use super::super::automem;\n\
         let url = \"http://example.com\"; let q = sqlx::query(\"SELECT 1\");\n\
         let raw = r#\"update apalis.jobs j set x = 1\"#;\n/* use crate::store; */\n\
         use crate::{store as db};\n",
    )
    .unwrap();
    let text = code(&file);
    fs::remove_dir_all(&dir).unwrap();
    assert!(!text.contains("commented out") && !text.contains("/*"), "{text}");
    assert!(text.contains("use crate::store::memories;"), "grouped imports flattened: {text}");
    assert!(crate_module("store").is_match(&text));
    assert!(Regex::new(r"\bsuper::super(::super)*::automem\b").unwrap().is_match(&text));
    assert!(text.contains("http://example.com"), "a string keeps its //: {text}");
    assert!(Regex::new(r"\bsqlx::(?:[^FtP]|F[^r]|t[^y]|P[^g])").unwrap().is_match("sqlx::query(x)"));
    assert!(!Regex::new(r"\bsqlx::(?:[^FtP]|F[^r]|t[^y]|P[^g])").unwrap().is_match("#[derive(sqlx::FromRow)]"));
    assert!(Regex::new(r#"(?i)"\s*(update\s+[\w.]+(\s+\w+)?\s+set\s)"#).unwrap().is_match(&text));
    assert!(text.contains("use crate::store as db;"), "an alias keeps its path: {text}");
    assert_eq!(surface_of(&src().join("api/native/memories.rs")), Some("native"));
    assert_eq!(surface_of(&src().join("api/automem.rs")), Some("automem"));
    assert_eq!(surface_of(&src().join("api/views/automem.rs")), None, "shared shapes are no surface");
}
