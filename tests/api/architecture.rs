//! The layering (README, "Layout"), checked on the source text: the top-level modules import one way only
//! (no cycle, and only what README's table of imports allows); surfaces translate and call the services,
//! never the store or another surface; all SQL is under `src/store/`; HTTP and the OpenAPI schemas exist
//! only under `src/api/`, and nothing below the surfaces names them.

use std::collections::{BTreeMap, BTreeSet};
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

/// sqlx's `begin` is not safe to cancel on Postgres (transact-rs/sqlx#4393): every transaction opens through
/// `store::begin`/`begin_on`, which are (a tool with a detached connection of its own, `distribute`, excepted).
fn unguarded_begin() -> Regex {
    Regex::new(r"\.begin\(\)|\.begin_with\(|\b(Transaction|Connection|Acquire)::begin\(").unwrap()
}

#[test]
fn transactions_open_only_through_the_cancel_safe_begin() {
    let pattern = unguarded_begin();
    let allowed = [src().join("store/mod.rs"), src().join("store/distribute.rs")];
    let mut broken = Vec::new();
    for path in rust_files(&src()).into_iter().filter(|p| !allowed.contains(p)) {
        broken.extend(breaches(&path, &code(&path), &pattern, "opens a transaction with sqlx's begin"));
    }
    let helper = code(&src().join("store/mod.rs"));
    let uses: Vec<&str> = helper.lines().filter(|l| pattern.is_match(l)).map(str::trim).collect();
    if uses.len() != 1 || !uses[0].contains("Transaction::begin(sqlx::pool::MaybePoolConnection") {
        broken.push(format!("src/store/mod.rs: sqlx's begin only inside begin_on: {uses:?}"));
    }
    check("transactions open through store::begin", broken);
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
    assert!(unguarded_begin().is_match("let mut tx = pool.begin().await?;"));
    assert!(unguarded_begin().is_match("self.app.begin_with(statement)"));
    assert!(!unguarded_begin().is_match("let mut tx = super::begin(pool, None).await?;"));
    assert!(!unguarded_begin().is_match("replicas.begin(needed, &settings)"), "a method of our own");
    assert_eq!(surface_of(&src().join("api/native/memories.rs")), Some("native"));
    assert_eq!(surface_of(&src().join("api/automem.rs")), Some("automem"));
    assert_eq!(surface_of(&src().join("api/views/automem.rs")), None, "shared shapes are no surface");
}

/// The imports between top-level modules of the crate under `root` (a `src/`): importer → imported → where
/// (`file:line`, the first few). Read from `crate::x` paths (grouped `use` trees flattened) and from `super::`
/// chains that climb to the crate root; `lib.rs` and `main.rs` only declare and run the modules.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn module_graph(root: &Path) -> Graph {
    let by_crate = Regex::new(r"\bcrate::([a-z_][a-z0-9_]*)").unwrap();
    let by_super = Regex::new(r"\b((?:super::)+)([a-z_][a-z0-9_]*)").unwrap();
    let mut graph = Graph::new();
    for path in rust_files(root) {
        let rel = path.strip_prefix(root).unwrap();
        // The file's module path: src/service/recall/mod.rs → [service, recall].
        let mut segments: Vec<String> =
            rel.with_extension("").components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if segments.last().is_some_and(|s| s == "mod") {
            segments.pop();
        }
        if matches!(segments.as_slice(), [one] if one == "lib" || one == "main") {
            continue;
        }
        let mine = segments[0].clone();
        graph.entry(mine.clone()).or_default();
        for (n, line) in code(&path).lines().enumerate() {
            let mut named: Vec<String> = by_crate.captures_iter(line).map(|c| c[1].to_owned()).collect();
            for c in by_super.captures_iter(line) {
                // `super` from a file is its module's parent; from a `mod.rs` too, its folder being the module.
                let climbs = c[1].matches("super::").count();
                if climbs >= segments.len() {
                    named.push(c[2].to_owned());
                }
            }
            for other in named.into_iter().filter(|m| *m != mine) {
                let seen = graph.entry(mine.clone()).or_default().entry(other).or_default();
                if seen.len() < 3 {
                    seen.push(format!("{}:{}", rel.display(), n + 1));
                }
            }
        }
    }
    graph
}

/// The module graph's cycles: each strongly connected component of more than one module (Tarjan's).
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, node: &'g str) {
        let i = w.index.len();
        w.index.insert(node, i);
        w.low.insert(node, i);
        w.stack.push(node);
        w.on_stack.insert(node);
        for next in w.graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            let next = next.as_str();
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[node].min(w.low[next]);
                w.low.insert(node, low);
            } else if w.on_stack.contains(next) {
                let low = w.low[node].min(w.index[next]);
                w.low.insert(node, low);
            }
        }
        if w.low[node] == w.index[node] {
            let mut component = Vec::new();
            while let Some(top) = w.stack.pop() {
                w.on_stack.remove(top);
                component.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut w = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !w.index.contains_key(node.as_str()) {
            visit(&mut w, node);
        }
    }
    w.found
}

/// README's table of imports (section "Layout"), top to bottom: each module and what it may import.
fn layout(readme: &str) -> Vec<(String, BTreeSet<String>)> {
    let readme = format!("\n{readme}");
    let section = readme.split("\n## Layout").nth(1).expect("README has a Layout section");
    let section = section.split("\n## ").next().unwrap();
    let row = Regex::new(r"^\|\s*`([a-z_]+)`\s*\|([^|]*)\|").unwrap();
    section
        .lines()
        .filter_map(|line| row.captures(line.trim()))
        .map(|c| {
            let allowed = c[2]
                .split(',')
                .map(|m| m.trim().trim_matches('`').to_owned())
                .filter(|m| !m.is_empty() && m != "—")
                .collect();
            (c[1].to_owned(), allowed)
        })
        .collect()
}

/// What is wrong with `graph` against the table `rules`: a module the table misses, a row that lists a
/// module above it (the table must point one way, down), an import the table does not allow.
fn layout_breaches(graph: &Graph, rules: &[(String, BTreeSet<String>)]) -> Vec<String> {
    let mut broken = Vec::new();
    let position: BTreeMap<&str, usize> = rules.iter().enumerate().map(|(i, (m, _))| (m.as_str(), i)).collect();
    for (i, (module, allowed)) in rules.iter().enumerate() {
        for other in allowed {
            match position.get(other.as_str()) {
                None => broken.push(format!("Layout: `{module}` may import `{other}`, which has no row")),
                Some(&j) if j <= i => {
                    broken.push(format!("Layout: `{module}` may import `{other}`, which is not below it"))
                }
                Some(_) => {}
            }
        }
    }
    for (module, edges) in graph {
        let Some(&i) = position.get(module.as_str()) else {
            broken.push(format!("src/{module}: a top-level module that README's Layout table does not list"));
            continue;
        };
        for (other, places) in edges {
            if !rules[i].1.contains(other) {
                broken.push(format!("{module} imports {other}, which Layout does not allow ({})", places.join(", ")));
            }
        }
    }
    broken
}

#[test]
fn the_top_level_modules_import_one_way_only() {
    let graph = module_graph(&src());
    let found: Vec<String> = cycles(&graph)
        .iter()
        .map(|cycle| {
            let edges: Vec<String> = cycle
                .iter()
                .flat_map(|a| cycle.iter().map(move |b| (a, b)))
                .filter_map(|(a, b)| graph[a].get(b).map(|at| format!("  {a} -> {b} ({})", at.join(", "))))
                .collect();
            format!("{}:\n{}", cycle.join(", "), edges.join("\n"))
        })
        .collect();
    check("the top-level modules form no import cycle", found);
}

#[test]
fn every_import_is_one_the_layout_allows() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let rules = layout(&readme);
    assert!(rules.len() >= 10, "README's Layout table has {} rows", rules.len());
    check("README's Layout allows every import", layout_breaches(&module_graph(&src()), &rules));
}

/// The graph checks notice a planted cycle, an import the table does not allow, and a table that points up.
#[test]
fn the_graph_checks_notice_a_breach() {
    let dir = std::env::temp_dir().join(format!("cairn-modules-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("high/deep")).unwrap();
    fs::write(dir.join("lib.rs"), "pub mod high; pub mod low; pub mod base;\n").unwrap();
    fs::write(
        dir.join("high/mod.rs"),
        "use crate::{low::Thing};\n// use crate::nowhere;\nfn k() { super::base::g(); }\n",
    )
    .unwrap();
    // From a folder's mod.rs one level down, `super::` is the top-level module itself, not the crate root.
    fs::write(dir.join("high/deep/mod.rs"), "use super::nowhere_either;\n").unwrap();
    fs::write(dir.join("high/deep/leaf.rs"), "fn f() { super::super::super::base::g(); super::sibling(); }\n").unwrap();
    fs::write(dir.join("low.rs"), "pub struct Thing;\nfn back() { crate::high::h(); }\n").unwrap();
    fs::write(dir.join("base.rs"), "pub fn g() {}\n").unwrap();
    let graph = module_graph(&dir);
    fs::remove_dir_all(&dir).unwrap();
    let edges = |m: &str| graph[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(edges("high"), ["base", "low"], "{graph:?}");
    assert!(graph["high"]["base"].iter().any(|at| at.starts_with("high/deep/leaf.rs")), "{graph:?}");
    assert!(graph["high"]["base"].iter().any(|at| at.starts_with("high/mod.rs:3")), "super:: from a mod.rs: {graph:?}");
    assert_eq!(edges("low"), ["high"]);
    assert!(edges("base").is_empty() && !graph.contains_key("lib") && !graph.contains_key("nowhere"));
    assert!(!graph["high"].contains_key("nowhere_either"), "{graph:?}");
    assert_eq!(cycles(&graph), [vec!["high".to_owned(), "low".to_owned()]]);

    let table = "## Layout\n\n| module | may import |\n|---|---|\n| `high` | low, base |\n| `low` | base |\n\
                 | `base` | — |\n\n## Next\n| `other` | x |\n";
    let rules = layout(table);
    assert_eq!(rules.len(), 3, "only the Layout section's rows: {rules:?}");
    let broken = layout_breaches(&graph, &rules);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].starts_with("low imports high") && broken[0].contains("low.rs:2"), "{broken:?}");
    let upward = layout("## Layout\n| `a` | b |\n| `b` | a |\n");
    let broken = layout_breaches(&Graph::new(), &upward);
    assert_eq!(broken, ["Layout: `b` may import `a`, which is not below it"]);
    let mut unlisted = Graph::new();
    unlisted.entry("stray".to_owned()).or_default();
    assert!(layout_breaches(&unlisted, &rules)[0].contains("src/stray"));
}
