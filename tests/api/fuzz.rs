//! Hostile input: schemathesis (PyPI) generates requests for every operation of `/openapi.json` (examples,
//! then fuzzed values) against a live server with a tenant key: no response may be a 5xx, carry an
//! undocumented status, or break its documented schema. `scripts/test.sh` installs the pinned version.

use std::process::Command;

use cairn::config::{AppArgs, DbArgs};

use crate::helpers::{new_key, spawn_tuned};

/// The schemathesis executable: `CAIRN_SCHEMATHESIS`, else the one `scripts/test.sh` installs.
fn schemathesis() -> String {
    std::env::var("CAIRN_SCHEMATHESIS").unwrap_or_else(|_| {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        format!("{home}/.cache/cairn/fuzz-venv/bin/schemathesis")
    })
}

/// Runs schemathesis with `key` over the operations `exclude` leaves; returns (cases generated, output), or
/// its report when it found failures.
fn run(url: &str, key: &str, exclude: &str, seed: u32) -> Result<(u64, String), String> {
    let bin = schemathesis();
    let out = Command::new(&bin)
        .args(["run", &format!("{url}/openapi.json"), "-H", &format!("Authorization: Bearer {key}")])
        .args(["--checks", "not_a_server_error,response_schema_conformance,status_code_conformance"])
        .args(["--phases", "examples,fuzzing", "-n", "12", "-w", "2", "--seed", &seed.to_string()])
        // Well past the server's own deadline (below): a request slow on a loaded machine gets the server's
        // documented 503, never a client-side timeout that schemathesis counts as a failure.
        .args(["--exclude-path-regex", exclude, "--request-timeout", "60"])
        .env("NO_COLOR", "1")
        // schemathesis keeps a cache directory where it runs.
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap_or_else(|e| panic!("{bin}: {e} (scripts/test.sh installs schemathesis)"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        // Its failures and summary are at the end; the examples' progress before them is long.
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(120)..].join("\n");
        return Err(format!("schemathesis found failures (seed {seed}, last 120 lines):\n{tail}"));
    }
    let generated = text
        .lines()
        .find_map(|l| l.trim().split_once(" generated").and_then(|(n, _)| n.trim().parse().ok()))
        .unwrap_or(0);
    Ok((generated, text))
}

#[tokio::test]
async fn generated_requests_to_every_operation_get_no_5xx_and_documented_answers() {
    // Two schemathesis workers and the server's own jobs: more connections than the tests' default five.
    let args = AppArgs { request_timeout_secs: 20, ..AppArgs::default() };
    let app = spawn_tuned(args, |args| DbArgs { db_max_connections: 16, ..args }, &[]).await;
    let url = format!("http://{}", app.addr);
    let admin = new_key(&app.db, app.a.id, &["read", "write", "admin"]).await;
    let (key, url2) = (app.a.key.clone(), url.clone());
    // Blocking processes, off the runtime that serves the app. The import streams NDJSON, which schemathesis
    // cannot generate; the admin API needs an operator's token (its own tests cover it).
    let writer = tokio::task::spawn_blocking(move || run(&url2, &key, "^/(admin|api/v1/import)", 11));
    let (generated, _) = writer.await.unwrap().unwrap_or_else(|report| panic!("{report}"));
    // With an admin key, everything but key management (which would rotate or revoke the key under test).
    let admin_run = tokio::task::spawn_blocking(move || run(&url, &admin, "^/(admin|api/v1/import|api/v1/keys)", 12));
    let (admin_generated, _) = admin_run.await.unwrap().unwrap_or_else(|report| panic!("{report}"));
    println!("schemathesis: {generated} + {admin_generated} generated cases, no failures");
    assert!(generated > 300 && admin_generated > 300, "{generated} / {admin_generated} cases");
    // Not vacuous: generated stores were accepted and written (not only refused or 404s); some may have been
    // deleted again by generated deletes.
    let created: i64 =
        sqlx::query_scalar("SELECT count(*) FROM memory_events WHERE tenant_id = $1 AND event_type = 'created'")
            .bind(app.a.id)
            .fetch_one(&mut app.superuser_conn().await)
            .await
            .unwrap();
    println!("memories stored by generated requests: {created}");
    assert!(created > 10, "{created}");
}
