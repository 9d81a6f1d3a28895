//! The layering (README, "Layout"), checked on the source text: surfaces translate and call the services,
//! never the store or another surface; all SQL is under `src/store/`; HTTP (axum) and the OpenAPI schemas
//! (utoipa) exist only under `src/api/`.

use std::fs;
use std::path::{Path, PathBuf};

/// The surfaces under `src/api/`: a file of one may not name another.
const SURFACES: &[&str] = &["native", "automem", "shodh", "remem", "mcp", "health"];

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

/// The file's code lines, without comments (line comments and doc comments), with their numbers.
fn code(path: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or("").to_owned()))
        .filter(|(_, line)| !line.trim().is_empty())
        .collect()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap().display().to_string()
}

/// The surface a file under `src/api/` belongs to, if any (`api/native/memories.rs` → `native`).
fn surface_of(path: &Path) -> Option<&'static str> {
    let rel = path.strip_prefix(src().join("api")).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    SURFACES.iter().copied().find(|s| *s == name)
}

#[test]
fn surfaces_call_services_never_the_store_nor_another_surface() {
    let store = regex::Regex::new(r"(^|[^A-Za-z_:])store::|crate::store").unwrap();
    let mut broken = Vec::new();
    for path in rust_files(&src().join("api")) {
        let mine = surface_of(&path);
        let in_api_root = path.parent() == Some(src().join("api").as_path());
        for (n, line) in code(&path) {
            if store.is_match(&line) {
                broken.push(format!("{}:{n}: reaches the store: {}", relative(&path), line.trim()));
            }
            let Some(mine) = mine else { continue };
            for other in SURFACES.iter().filter(|s| **s != mine) {
                let named = line.contains(&format!("api::{other}"))
                    || (in_api_root && line.contains(&format!("super::{other}")))
                    || line.contains(&format!("super::super::{other}"));
                if named {
                    broken.push(format!(
                        "{}:{n}: surface {mine} names surface {other}: {}",
                        relative(&path),
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "layering broken:\n{}", broken.join("\n"));
}

#[test]
fn sql_lives_only_under_src_store() {
    let sql = regex::Regex::new(
        r#"sqlx::query|QueryBuilder|query_as\(|query_scalar\(|"\s*(SELECT|INSERT INTO|DELETE FROM|WITH RECURSIVE)\s|UPDATE \w+ SET "#,
    )
    .unwrap();
    let mut broken = Vec::new();
    for path in rust_files(&src()) {
        if path.starts_with(src().join("store")) {
            continue;
        }
        for (n, line) in code(&path) {
            if sql.is_match(&line) {
                broken.push(format!("{}:{n}: SQL outside src/store/: {}", relative(&path), line.trim()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn http_and_openapi_schemas_stay_under_src_api() {
    let named = regex::Regex::new(r"\b(axum|utoipa)::").unwrap();
    let mut broken = Vec::new();
    for path in rust_files(&src()) {
        if path.starts_with(src().join("api")) {
            continue;
        }
        for (n, line) in code(&path) {
            if let Some(name) = named.captures(&line) {
                broken.push(format!("{}:{n}: names {} outside src/api/: {}", relative(&path), &name[1], line.trim()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The checks themselves catch what they are for (a check that cannot fail guards nothing).
#[test]
fn the_checks_notice_a_breach() {
    let dir = std::env::temp_dir().join(format!("cairn-architecture-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("breach.rs");
    fs::write(
        &file,
        "use crate::store::memories; // a surface reaching the store\nlet q = sqlx::query(\"SELECT 1\");\n",
    )
    .unwrap();
    let lines = code(&file);
    assert!(lines.iter().any(|(_, l)| l.contains("crate::store")));
    assert!(!lines.iter().any(|(_, l)| l.contains("a surface reaching")), "comments are not code");
    let sql = regex::Regex::new(r#"sqlx::query|"\s*(SELECT|INSERT INTO)\s"#).unwrap();
    assert!(lines.iter().any(|(_, l)| sql.is_match(l)));
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(surface_of(&src().join("api/native/memories.rs")), Some("native"));
    assert_eq!(surface_of(&src().join("api/automem.rs")), Some("automem"));
    assert_eq!(surface_of(&src().join("api/views/automem.rs")), None, "shared shapes are no surface");
}
