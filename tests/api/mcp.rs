//! The MCP server at `/mcp` with a real MCP client (rmcp's): initialize, tools/list, every tool, errors as
//! tool errors, cross-tenant attempts; and `cairn mcp --stdio` with its retry policy.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use secrecy::SecretString;
use serde_json::{json, Value};

use crate::helpers::{new_key, spawn, TestApp};

pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

pub(crate) async fn connect(app: &TestApp, key: &str) -> Result<Client, String> {
    let config = StreamableHttpClientTransportConfig::with_uri(app.url("/mcp")).auth_header(key.to_owned());
    ClientConfig::default().serve(StreamableHttpClientTransport::from_config(config)).await.map_err(|e| e.to_string())
}

pub(crate) async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tool call answered")
}

/// The tool's JSON answer, asserting it succeeded.
#[track_caller]
fn ok(result: &CallToolResult) -> Value {
    let text = &result.content[0].as_text().expect("text content").text;
    assert_ne!(result.is_error, Some(true), "tool failed: {text}");
    serde_json::from_str(text).unwrap()
}

/// The tool's error envelope, asserting it failed with `code` and a message containing `needle`.
#[track_caller]
fn failed(result: &CallToolResult, code: u16, needle: &str) {
    assert_eq!(result.is_error, Some(true), "expected a tool error: {:?}", result.content);
    let body: Value = serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap();
    assert_eq!(body["code"], code, "{body}");
    assert!(body["message"].as_str().unwrap().contains(needle), "{body}");
}

const TOOLS: [&str; 10] = [
    "associate_memories",
    "check_database_health",
    "delete_memory",
    "memory_stats",
    "proactive_context",
    "promote_to_longterm",
    "recall_memories",
    "recall_memory",
    "store_memory",
    "update_memory",
];

#[tokio::test]
async fn a_real_client_lists_and_calls_every_tool() {
    let app = spawn().await;
    let client = connect(&app, &app.a.key).await.expect("initialize");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "cairn");

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, TOOLS);
    // Input schemas carry the seeds' constraints.
    let store = tools.iter().find(|t| t.name == "store_memory").unwrap();
    let schema = serde_json::to_value(&*store.input_schema).unwrap();
    assert_eq!(schema["properties"]["content"]["maxLength"], 2000, "{schema}");
    assert_eq!(schema["properties"]["importance"]["maximum"], 1.0, "{schema}");
    let grouped = tools.iter().find(|t| t.name == "recall_memories").unwrap();
    let schema = serde_json::to_value(&*grouped.input_schema).unwrap().to_string();
    assert!(schema.contains("organization") && schema.contains("\"maximum\":50"), "{schema}");
    let delete = tools.iter().find(|t| t.name == "delete_memory").unwrap();
    assert_eq!(delete.annotations.as_ref().and_then(|a| a.destructive_hint), Some(true));

    // store_memory: single, duplicate, batch, supersede.
    let decision = json!({"content": "Chose PostgreSQL over MongoDB. Need ACID guarantees for transactions.",
        "type": "Decision", "tags": ["project-alpha", "database"], "importance": 0.9});
    let stored = ok(&call(&client, "store_memory", decision.clone()).await);
    assert_eq!(stored["status"], "success");
    let id = stored["memory_id"].as_str().unwrap().to_owned();
    let again = ok(&call(&client, "store_memory", decision).await);
    assert_eq!(again["memory_id"], id.as_str());
    assert_eq!(again["deduplicated"], true);
    let batch = ok(&call(
        &client,
        "store_memory",
        json!({"memories": [
        {"content": "Redis is the session cache", "tags": ["cache"]},
        {"content": "Deploys go out on Tuesdays", "tags": ["scratch"]}]}),
    )
    .await);
    assert_eq!(batch["stored"], 2);
    let redis = batch["memory_ids"][0].as_str().unwrap().to_owned();
    let replacement = ok(&call(
        &client,
        "store_memory",
        json!({"content": "Chose PostgreSQL 16 over MongoDB for ACID transactions.",
        "supersedes_memory_id": id, "supersede_relation": "EVOLVED_INTO", "supersede_reason": "version pinned"}),
    )
    .await);
    let new_id = replacement["memory_id"].as_str().unwrap().to_owned();
    let old = app.get(&app.a.key, &format!("/api/v1/memories/{id}")).await.ok(200).clone();
    assert!(old["t_invalid"].is_string());
    assert_eq!(old["metadata"]["superseded_by"], new_id.as_str());

    // Errors are tool errors with the envelope, not dropped connections.
    failed(&call(&client, "store_memory", json!({"content": "x".repeat(2001)})).await, 400, "content");
    failed(
        &call(&client, "store_memory", json!({"content": "a", "memories": [{"content": "b"}]})).await,
        400,
        "batch mode",
    );
    failed(
        &call(&client, "store_memory", json!({"memories": [{"content": "b", "importance": 3}]})).await,
        400,
        "memories[0].importance",
    );
    // Arguments of the wrong shape and unknown tools are errors too; the session carries on.
    let wrong =
        CallToolRequestParams::new("store_memory").with_arguments(json!({"content": 5}).as_object().unwrap().clone());
    match client.call_tool(wrong).await {
        Err(err) => panic!("a tool error, not a protocol error: {err}"),
        Ok(result) => {
            assert_eq!(result.is_error, Some(true));
            let text = &result.content[0].as_text().unwrap().text;
            assert!(text.contains("content: invalid type"), "the field is named: {text}");
        }
    }
    assert!(client.call_tool(CallToolRequestParams::new("no_such_tool")).await.is_err());

    // recall_memory (AutoMem's parameters) follows the supersede chain to the replacement.
    let recalled =
        ok(&call(&client, "recall_memory", json!({"query": "PostgreSQL", "limit": 5, "tag_mode": "any"})).await);
    assert_eq!(recalled["results"][0]["id"], new_id.as_str());
    let filtered = ok(&call(&client, "recall_memory", json!({"tags": ["cache"], "sort": "time_desc"})).await);
    assert_eq!(filtered["count"], 1);
    failed(&call(&client, "recall_memory", json!({"query": "x", "time_query": "blorp"})).await, 400, "blorp");

    // update_memory, associate_memories, promote_to_longterm.
    let updated = ok(&call(
        &client,
        "update_memory",
        json!({"memory_id": redis, "importance": 0.3, "tags": ["cache", "infra"],
        "updated_at": "2020-01-01T00:00:00Z"}),
    )
    .await);
    assert_eq!(updated["memory"]["importance"], 0.3);
    failed(&call(&client, "update_memory", json!({"memory_id": "nope"})).await, 400, "memory_id");
    let linked = ok(&call(
        &client,
        "associate_memories",
        json!({"memory1_id": new_id, "memory2_id": redis, "type": "RELATES_TO", "strength": 0.6}),
    )
    .await);
    assert_eq!(linked["association"]["type"], "RELATES_TO");
    failed(
        &call(&client, "associate_memories", json!({"memory1_id": redis, "memory2_id": redis})).await,
        400,
        "itself",
    );
    let short = app
        .store(&app.a.key, json!({"content": "Working on the Q3 report", "memory_type": "short_term", "ttl": 3600}))
        .await;
    let promoted = ok(&call(&client, "promote_to_longterm", json!({"memory_id": short["id"]})).await);
    assert_eq!(promoted["memory_type"], "long_term");

    // recall_memories (entity-grouped; compact and verbose), proactive_context, memory_stats, health.
    let compact = ok(&call(&client, "recall_memories", json!({"query": "PostgreSQL", "compact": true})).await);
    assert!(compact["n"].is_u64() && compact["e"].is_array(), "{compact}");
    let verbose =
        ok(&call(&client, "recall_memories", json!({"query": "PostgreSQL", "compact": false, "searchMode": "hybrid"}))
            .await);
    assert_eq!(verbose["query"], "PostgreSQL");
    assert!(verbose["entities"].is_array());
    failed(&call(&client, "recall_memories", json!({"query": "x", "searchMode": "semantic"})).await, 400, "searchMode");
    let context = ok(&call(
        &client,
        "proactive_context",
        json!({"context": "Which cache do we use for sessions?", "max_results": 3}),
    )
    .await);
    assert_eq!(context["surfaced_memories"][0]["id"], redis.as_str());
    assert_eq!(context["ingested"], true);
    let stats = ok(&call(&client, "memory_stats", json!({})).await);
    assert_eq!(stats["total_memories"], 6);
    let health = ok(&call(&client, "check_database_health", json!({})).await);
    assert_eq!(health["status"], "healthy");

    // delete_memory: memory_id xor tags.
    failed(&call(&client, "delete_memory", json!({})).await, 400, "exactly one");
    failed(&call(&client, "delete_memory", json!({"memory_id": redis, "tags": ["cache"]})).await, 400, "exactly one");
    let by_tag = ok(&call(&client, "delete_memory", json!({"tags": ["scratch"]})).await);
    assert_eq!(by_tag["deleted_count"], 1);
    let one = ok(&call(&client, "delete_memory", json!({"memory_id": redis})).await);
    assert_eq!(one["memory_id"], redis.as_str());
    failed(&call(&client, "delete_memory", json!({"memory_id": redis})).await, 404, "not found");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn keys_bound_every_tool_to_their_tenant() {
    let app = spawn().await;
    assert!(connect(&app, "cairn_nope_nope").await.is_err(), "a wrong key must not initialize");
    let a = connect(&app, &app.a.key).await.unwrap();
    let one = ok(&call(
        &a,
        "store_memory",
        json!({"content": "Tenant A's secret plan", "tags": ["plan"],
        "memory_type": "short_term"}),
    )
    .await)["memory_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let two = ok(&call(&a, "store_memory", json!({"content": "Tenant A's other note"})).await)["memory_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let b = connect(&app, &app.b.key).await.unwrap();
    assert_eq!(ok(&call(&b, "recall_memory", json!({"query": "secret plan"})).await)["count"], 0);
    assert_eq!(ok(&call(&b, "recall_memory", json!({"tags": ["plan"]})).await)["count"], 0);
    failed(&call(&b, "update_memory", json!({"memory_id": one, "content": "hijacked"})).await, 404, "not found");
    failed(&call(&b, "delete_memory", json!({"memory_id": one})).await, 404, "not found");
    assert_eq!(ok(&call(&b, "delete_memory", json!({"tags": ["plan"]})).await)["deleted_count"], 0);
    failed(&call(&b, "associate_memories", json!({"memory1_id": one, "memory2_id": two})).await, 404, "not found");
    failed(&call(&b, "promote_to_longterm", json!({"memory_id": one})).await, 404, "not found");
    failed(
        &call(&b, "store_memory", json!({"content": "b's replacement", "supersedes_memory_id": one})).await,
        404,
        "supersedes_memory_id",
    );
    let context = ok(&call(&b, "proactive_context", json!({"context": "secret plan", "auto_ingest": false})).await);
    assert_eq!(context["count"], 0);
    // The refused supersede stored nothing either.
    assert_eq!(ok(&call(&b, "memory_stats", json!({})).await)["total_memories"], 0);
    let grouped = ok(&call(&b, "recall_memories", json!({"query": "secret plan", "compact": true})).await);
    assert_eq!(grouped["n"], 0);

    // A read-only key reads but cannot write.
    let reader = new_key(&app.db, app.a.id, &["read"]).await;
    let r = connect(&app, &reader).await.unwrap();
    assert_eq!(ok(&call(&r, "recall_memory", json!({"query": "secret plan"})).await)["count"], 1);
    failed(&call(&r, "store_memory", json!({"content": "reader write"})).await, 403, "write");
    failed(&call(&r, "proactive_context", json!({"context": "anything"})).await, 403, "write");
    // a's memories are untouched.
    let memory = app.get(&app.a.key, &format!("/api/v1/memories/{one}")).await.ok(200).clone();
    assert_eq!(memory["content"], "Tenant A's secret plan");
    assert_eq!(memory["memory_type"], "short_term");
}

#[tokio::test]
async fn raw_http_without_a_key_is_a_401_envelope() {
    let app = spawn().await;
    let res = app
        .client
        .post(app.url("/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .unwrap();
    let res = TestApp::read(res).await;
    res.assert_error(401, "missing API key");
}

/// Reads one JSON line from the bridge's stdout.
fn next_line(out: &mut impl BufRead) -> Value {
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

#[tokio::test]
async fn stdio_mode_bridges_a_desktop_client_to_a_remote_cairn() {
    let app = spawn().await;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["mcp", "--stdio", "--url", &app.url(""), "--key", &app.a.key])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "desktop", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "store_memory",
            "arguments": {"content": "Stored through the stdio bridge", "tags": ["stdio"]}}}),
    ];
    let answers = tokio::task::spawn_blocking(move || {
        let mut answers = Vec::new();
        for line in &lines {
            writeln!(stdin, "{line}").unwrap();
            stdin.flush().unwrap();
            if line.get("id").is_some() {
                answers.push(next_line(&mut stdout));
            }
        }
        writeln!(stdin, "not json").unwrap();
        answers.push(next_line(&mut stdout));
        drop(stdin);
        answers
    })
    .await
    .unwrap();
    assert_eq!(answers[0]["result"]["serverInfo"]["name"], "cairn");
    assert_eq!(answers[1]["result"]["tools"].as_array().unwrap().len(), TOOLS.len());
    let text = answers[2]["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap()["status"], "success");
    assert_eq!(answers[3]["error"]["code"], -32700);
    assert!(child.wait().unwrap().success());
    let stored = app.get(&app.a.key, "/api/v1/memories?tags=stdio").await.ok(200).clone();
    assert_eq!(stored["total"], 1);
}

/// A scripted `/mcp` that answers `fail` with `status` first, then a JSON-RPC result; counts attempts.
async fn scripted(status: u16, fail: usize) -> (String, Arc<AtomicUsize>) {
    let attempts = Arc::new(AtomicUsize::new(0));
    let counter = attempts.clone();
    let handler = move |axum::Json(message): axum::Json<Value>| {
        let counter = counter.clone();
        async move {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            if n < fail {
                let code = axum::http::StatusCode::from_u16(status).unwrap();
                return (code, axum::Json(json!({"status": "error", "code": status, "message": "scripted failure"})));
            }
            (
                axum::http::StatusCode::OK,
                axum::Json(json!({"jsonrpc": "2.0", "id": message["id"], "result": {"ok": true}})),
            )
        }
    };
    let router = axum::Router::new().route("/mcp", axum::routing::post(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{addr}"), attempts)
}

#[tokio::test]
async fn the_bridge_retries_5xx_and_network_errors_three_times_and_never_4xx() {
    let message = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"});
    let key = || SecretString::from("cairn_x_y".to_owned());
    let bridge = |url: &str| {
        cairn::cli::mcp_stdio::Bridge::with_policy(url, key(), Duration::from_secs(5), Duration::from_millis(20), 3)
            .unwrap()
    };

    // Two 503s, then success: answered, after three attempts and two backoffs (20 + 40 ms).
    let (url, attempts) = scripted(503, 2).await;
    let started = Instant::now();
    let replies = bridge(&url).forward(&message).await;
    assert_eq!(replies, vec![json!({"jsonrpc": "2.0", "id": 7, "result": {"ok": true}})]);
    assert_eq!(attempts.load(Ordering::SeqCst), 3);
    assert!(started.elapsed() >= Duration::from_millis(60));

    // Always 500: one attempt and three retries, then a JSON-RPC error naming the status.
    let (url, attempts) = scripted(500, usize::MAX).await;
    let replies = bridge(&url).forward(&message).await;
    assert_eq!(attempts.load(Ordering::SeqCst), 4);
    assert_eq!(replies[0]["id"], 7);
    assert!(replies[0]["error"]["message"].as_str().unwrap().contains("500: scripted failure"), "{replies:?}");

    // A 4xx is final.
    let (url, attempts) = scripted(401, usize::MAX).await;
    let replies = bridge(&url).forward(&message).await;
    assert_eq!(attempts.load(Ordering::SeqCst), 1);
    assert!(replies[0]["error"]["message"].as_str().unwrap().contains("401"));

    // Nothing listening: network errors are retried, then reported.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let started = Instant::now();
    let replies = bridge(&url).forward(&message).await;
    assert!(started.elapsed() >= Duration::from_millis(20 + 40 + 80));
    assert!(replies[0]["error"]["message"].as_str().unwrap().contains("cannot reach"), "{replies:?}");

    // The time budget covers retries too: a server that never answers is given up on within it.
    let router = axum::Router::new().route(
        "/mcp",
        axum::routing::post(|| async {
            tokio::time::sleep(Duration::from_secs(10)).await;
            "late"
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let started = Instant::now();
    let quick = cairn::cli::mcp_stdio::Bridge::with_policy(
        &slow,
        key(),
        Duration::from_millis(300),
        Duration::from_millis(20),
        3,
    )
    .unwrap();
    let replies = quick.forward(&message).await;
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert!(replies[0]["error"]["message"].as_str().unwrap().contains("within"), "{replies:?}");

    // A notification that fails gets no answer (nobody waits for one).
    assert!(bridge(&url).forward(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await.is_empty());
    // The production policy is the seed's.
    assert_eq!(cairn::cli::mcp_stdio::FIRST_RETRY, Duration::from_millis(500));
    assert_eq!(cairn::cli::mcp_stdio::RETRIES, 3);
    assert_eq!(cairn::cli::mcp_stdio::TIMEOUT, Duration::from_secs(25));
}

/// The tools read the same input types as the HTTP surfaces: their schemas have every field (a field added
/// to a memory reaches MCP, or this fails), and the OpenAPI document's schemas are the same ones.
#[tokio::test]
async fn tool_schemas_are_the_shared_input_definitions_and_every_memory_field_reaches_mcp() {
    use cairn::api::schema::json_schema;
    let app = spawn().await;
    let client = connect(&app, &app.a.key).await.expect("initialize");
    let tools = client.list_all_tools().await.unwrap();
    let properties = |value: &Value| -> Vec<String> {
        let mut keys: Vec<String> = value["properties"].as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    let tool = |name: &str| {
        let schema = serde_json::to_value(&*tools.iter().find(|t| t.name == name).unwrap().input_schema).unwrap();
        properties(&schema)
    };
    let memory = properties(&json_schema::<cairn::memory::MemoryInput>());
    assert!(memory.len() >= 26, "every field of a memory: {memory:?}");
    for field in [
        "emotional_arousal",
        "emotional_valence",
        "emotion",
        "episode_id",
        "sequence_number",
        "source_type",
        "credibility",
    ] {
        assert!(memory.contains(&field.to_owned()), "{field}");
    }
    let mut with_batch = memory.clone();
    with_batch.push("memories".into());
    with_batch.sort();
    assert_eq!(tool("store_memory"), with_batch);
    let mut update = properties(&json_schema::<cairn::memory::MemoryPatch>());
    update.extend(["memory_id".into(), "updated_at".into(), "last_accessed".into()]);
    update.sort();
    assert_eq!(tool("update_memory"), update);
    assert_eq!(tool("recall_memory"), properties(&json_schema::<cairn::recall::MultiParams>()));
    assert_eq!(tool("recall_memories"), properties(&json_schema::<cairn::recall::GroupedParams>()));
    assert_eq!(tool("proactive_context"), properties(&json_schema::<cairn::recall::ContextParams>()));
    assert_eq!(tool("associate_memories"), properties(&json_schema::<cairn::graph::AssociationInput>()));
    let doc = serde_json::to_value(cairn::api::openapi()).unwrap();
    assert_eq!(properties(&doc["components"]["schemas"]["MemoryInput"]), memory);

    // remem's flashbulb rule, reached over MCP: arousal 0.9 makes a protected long-term memory.
    let stored = ok(&call(
        &client,
        "store_memory",
        json!({"content": "The outage that took the payments database down", "memory_type": "short_term", "ttl": 60,
            "arousal": 0.9, "valence": -0.8, "emotion": "fear", "episode_id": "incident-42", "sequence_number": 3,
            "source_type": "system", "credibility": 0.8}),
    )
    .await);
    let m = app.get(&app.a.key, &format!("/api/v1/memories/{}", stored["memory_id"].as_str().unwrap())).await;
    let m = m.ok(200);
    assert_eq!((m["memory_type"].as_str(), m["ttl"].is_null()), (Some("long_term"), true));
    assert!(m["importance"].as_f64().unwrap() >= 0.9 && !m["flashbulb_until"].is_null(), "{m}");
    assert_eq!(
        (m["emotion"].as_str(), m["episode_id"].as_str(), m["sequence_number"].as_i64()),
        (Some("fear"), Some("incident-42"), Some(3))
    );
    assert_eq!((m["source_type"].as_str(), m["credibility"].as_f64()), (Some("system"), Some(0.8)));
}

#[tokio::test]
async fn delete_by_tags_past_the_cap_needs_confirm_and_can_be_restored() {
    let app = spawn().await;
    for batch in 0..3 {
        let items: Vec<Value> = (0..(if batch == 2 { 1 } else { 500 }))
            .map(|i| json!({"content": format!("bulk note {batch}-{i}"), "tags": ["bulk"]}))
            .collect();
        app.post(&app.a.key, "/api/v1/memories/batch", &json!({"memories": items})).await.ok(201);
    }
    let client = connect(&app, &app.a.key).await.unwrap();
    failed(&call(&client, "delete_memory", json!({"tags": ["bulk"]})).await, 400, "confirm=true");
    assert_eq!(app.count(&app.a.key).await, 1001);
    let done = ok(&call(&client, "delete_memory", json!({"tags": ["bulk"], "confirm": true})).await);
    assert_eq!(done["deleted_count"], 1001);
    let path = "/api/v1/memories/by-tag/restore?tags=bulk";
    assert_eq!(app.post(&app.a.key, path, &json!({})).await.ok(200)["restored_count"], 1000);
    assert_eq!(app.post(&app.a.key, path, &json!({})).await.ok(200)["restored_count"], 1);
}
