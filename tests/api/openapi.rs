//! The OpenAPI document: checked in, served, complete.

use reqwest::Method;

use crate::helpers::spawn;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");

/// Fails when `openapi/openapi.json` drifts from the code. Regenerate with
/// `cargo run -- openapi > openapi/openapi.json` (or run this test with UPDATE_OPENAPI=1).
#[test]
fn the_checked_in_openapi_document_is_current() {
    let current = cairn::api::openapi().to_pretty_json().unwrap() + "\n";
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(SNAPSHOT, &current).unwrap();
    }
    let checked_in = std::fs::read_to_string(SNAPSHOT).expect("openapi/openapi.json exists");
    assert!(checked_in == current, "openapi/openapi.json is stale: run `cargo run -- openapi > openapi/openapi.json`");
}

#[test]
fn every_operation_is_documented_with_responses_and_errors() {
    let doc = serde_json::to_value(cairn::api::openapi()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    for expected in [
        "/health",
        "/api/v1/memories",
        "/api/v1/memories/batch",
        "/api/v1/memories/by-tag",
        "/api/v1/memories/{id}",
        "/api/v1/memories/{id}/history",
        "/api/v1/keys",
        "/api/v1/keys/{id}",
        "/api/v1/memories/search",
        "/api/v1/connections",
        "/api/v1/connections/{src}/{dst}",
        "/api/v1/stats",
        "/api/v1/ready",
        "/memory",
        "/memory/batch",
        "/memory/{id}",
        "/memory/by-tag",
        "/recall",
        "/associate",
        "/memories/{id}/related",
        "/consolidate",
        "/api/remember",
        "/api/recall",
        "/api/recall/by-tags",
        "/api/context",
        "/api/forget/{id}",
        "/api/forget/by-tags",
        "/api/memories",
        "/api/memories/{id}",
        "/api/consolidate",
        "/api/stats",
        "/api/health",
        "/api/tags",
        "/mcp",
    ] {
        assert!(paths.contains_key(expected), "{expected} is not documented");
    }
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or_default();
            assert!(!summary.is_empty(), "{method} {path} has no summary");
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.keys().any(|s| s.starts_with('2')), "{method} {path} has no success response");
            assert!(
                responses.contains_key("400") && responses.contains_key("503"),
                "{method} {path} lacks error responses"
            );
            let public = op["security"] == serde_json::json!([{}]);
            if !public {
                assert!(responses.contains_key("401"), "{method} {path} lacks 401");
            }
            // Each surface documents its own error shape.
            let shodh = op["tags"].as_array().is_some_and(|t| t.contains(&serde_json::json!("shodh")));
            let error_schema = if shodh { "ShodhError" } else { "ErrorBody" };
            if let Some(schema) = responses["400"]["content"]["application/json"]["schema"]["$ref"].as_str() {
                assert!(schema.ends_with(error_schema), "{method} {path}: 400 is {schema}, not {error_schema}");
            }
        }
    }
    for schema in ["Memory", "MemoryInput", "MemoryPatch", "ErrorBody", "BatchInput", "Health"] {
        assert!(doc["components"]["schemas"][schema]["example"].is_object(), "schema {schema} has no example");
    }
}

/// SDK generators name methods after `operationId` and types after schema names: every operation has a
/// unique `group.verb` id (`memories.store`), and every schema a name of letters only (`MemoryPage`).
#[test]
fn operations_and_schemas_have_names_sdks_can_use() {
    let doc = serde_json::to_value(cairn::api::openapi()).unwrap();
    let mut ids = std::collections::HashSet::new();
    let word = |w: &str| {
        w.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && w.chars().all(|c| c.is_ascii_alphanumeric())
    };
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has no operationId"));
            let parts: Vec<&str> = id.split('.').collect();
            assert!(parts.len() == 2 && parts.iter().all(|p| word(p)), "{method} {path}: operationId {id:?}");
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
        }
    }
    for name in doc["components"]["schemas"].as_object().unwrap().keys() {
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric()), "schema name {name:?}");
    }
}

#[tokio::test]
async fn the_server_serves_the_document_and_offline_docs() {
    let app = spawn().await;
    let served = app.send(Method::GET, "/openapi.json", None, None).await;
    assert_eq!(served.ok(200)["info"]["title"], "Cairn");
    assert_eq!(served.body, serde_json::to_value(cairn::api::openapi()).unwrap());
    let page = app.client.get(app.url("/docs/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("swagger-ui"), "docs page: {html}");
    assert!(!html.contains("cdn."), "the docs page must not need the internet");
    let script = app.client.get(app.url("/docs/swagger-ui-bundle.js")).send().await.unwrap();
    assert_eq!(script.status(), 200, "the UI's JavaScript is served locally");
}

/// Each compatibility surface is tagged as such and carries its seed's request examples.
#[test]
fn surfaces_are_tagged_and_carry_the_seeds_examples() {
    let doc = serde_json::to_value(cairn::api::openapi()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    for (path, item) in paths {
        let expected = match path.as_str() {
            "/health" | "/livez" | "/metrics" => continue,
            "/mcp" => "mcp",
            p if p.starts_with("/admin/v1/") => "admin",
            p if p.starts_with("/api/v1/") => continue,
            p if p.starts_with("/api/") => "shodh",
            _ => "automem",
        };
        for (method, op) in item.as_object().unwrap() {
            let tags = op["tags"].as_array().unwrap();
            assert!(tags.contains(&serde_json::json!(expected)), "{method} {path} is not tagged {expected}: {tags:?}");
        }
    }
    let body =
        |path: &str, method: &str| doc["paths"][path][method]["requestBody"]["content"]["application/json"].clone();
    let remember = body("/api/remember", "post");
    let names: Vec<&String> = remember["examples"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["backdated", "basic", "emotional", "episodic"]);
    assert_eq!(remember["examples"]["backdated"]["value"]["created_at"], "2024-12-05T12:00:00Z");
    let recall = body("/api/recall", "post");
    let names: Vec<&String> = recall["examples"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["basic", "before_filter", "filtered", "quality_boosted", "time_range"]);
    let store = body("/memory", "post");
    assert!(store["example"]["content"].as_str().unwrap().starts_with("Chose PostgreSQL over MongoDB."));
    assert_eq!(body("/memory/batch", "post")["example"]["memories"].as_array().unwrap().len(), 2);
    assert_eq!(body("/memory/{id}", "patch")["example"]["importance"], 0.95);
    let stored = &doc["components"]["schemas"]["Stored"]["example"];
    assert_eq!(stored["qdrant"], "queued");
}
