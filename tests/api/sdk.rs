//! The generated SDKs (`sdk/`) and the dashboard (`dashboard/`): the committed clients and bundle match what
//! their pinned generators make from the current sources, and scripts that use only the generated clients (and
//! a headless Chromium driving the dashboard) work against a live server. `scripts/test.sh` installs the tools
//! (`sdk/generate.sh --install`, `dashboard/build.sh --install`, Debian's chromium) before `cargo test`.

use std::path::{Path, PathBuf};
use std::process::Command;

use cairn::auth::admin::Operator;
use cairn::config::AppArgs;
use reqwest::Method;
use secrecy::SecretString;

use crate::helpers::{spawn_with_queues, TestApp};

const EMAIL: &str = "sdk@example.com";
const PASSWORD: &str = "a long enough password";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's Python that `sdk/generate.sh --install` fills (`CAIRN_SDK_PYTHON` overrides).
fn python() -> String {
    std::env::var("CAIRN_SDK_PYTHON").unwrap_or_else(|_| {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        format!("{home}/.cache/cairn/sdk-venv/bin/python")
    })
}

/// Runs `program args` in the repository with `envs`; panics with its output unless it exits 0.
fn run(program: &str, args: &[&str], envs: &[(&str, String)]) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(repo())
        .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap_or_else(|e| panic!("{program} {args:?} did not start ({e}); run scripts/test.sh, which installs it"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{program} {args:?} failed ({}):\n{text}", out.status);
    text
}

/// A server with an operator who can log in to the admin API, delivering webhooks to receivers the scripts
/// start on loopback (allowed here as an operator allows an internal network).
async fn app_with_operator() -> TestApp {
    let config = AppArgs {
        jwt_secret: Some(SecretString::from("sdk-test-signing-secret-of-32-bytes!")),
        webhook_allow_networks: vec!["127.0.0.1/32".parse().unwrap()],
        ..AppArgs::default()
    };
    let queues = vec![cairn::queue::webhook::QUEUE, cairn::queue::consolidate::QUEUE];
    let app = spawn_with_queues(config, cairn::queue::Workers::Only(queues)).await;
    cairn::service::admins::create(&app.services, &Operator::Cli, EMAIL, PASSWORD).await.unwrap();
    app
}

fn live_env(app: &TestApp) -> Vec<(&'static str, String)> {
    vec![
        ("CAIRN_URL", app.url("")),
        ("CAIRN_ADMIN_EMAIL", EMAIL.to_owned()),
        ("CAIRN_ADMIN_PASSWORD", PASSWORD.to_owned()),
    ]
}

#[test]
fn the_committed_sdks_match_the_openapi_document() {
    run("bash", &["sdk/generate.sh", "--check"], &[]);
}

#[test]
fn the_committed_dashboard_bundle_matches_its_sources() {
    run("bash", &["dashboard/build.sh", "--check"], &[]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_python_sdk_does_a_tenants_round_trip_against_a_live_server() {
    let app = app_with_operator().await;
    let env = live_env(&app);
    let out = tokio::task::spawn_blocking(move || run(&python(), &["sdk/tests/live.py"], &env)).await.unwrap();
    println!("{out}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_typescript_sdk_does_a_tenants_round_trip_against_a_live_server() {
    let app = app_with_operator().await;
    let env = live_env(&app);
    let out = tokio::task::spawn_blocking(move || run("node", &["sdk/tests/live.mjs"], &env)).await.unwrap();
    println!("{out}");
}

#[tokio::test]
async fn the_dashboard_is_served_offline_with_a_strict_policy() {
    let app = app_with_operator().await;
    let res = app.client.get(app.url("/dashboard/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("default-src 'self'") && csp.contains("script-src 'self'"), "{csp}");
    let html = res.text().await.unwrap();
    assert!(html.contains("/dashboard/app.js") && html.contains("/dashboard/app.css"), "{html}");
    assert!(!html.contains("http://") && !html.contains("https://"), "the page must not load from elsewhere");
    for (path, kind) in [("/dashboard/app.js", "javascript"), ("/dashboard/app.css", "css")] {
        let res = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(res.headers()["content-type"].to_str().unwrap().contains(kind), "{path}");
        assert!(res.text().await.unwrap().len() > 1000, "{path} is empty");
    }
    let redirect = app.send(Method::GET, "/dashboard", None, None).await;
    assert_eq!(redirect.status, 200, "/dashboard leads to the page");
}

/// The whole operator story in headless Chromium (`dashboard/e2e/run.mjs`), a screenshot per step in
/// `$CARGO_TARGET_DIR/tmp/dashboard-e2e/<run>/` (or under `CAIRN_ARTIFACTS`).
#[tokio::test(flavor = "multi_thread")]
async fn the_dashboard_works_end_to_end_in_a_browser() {
    let app = app_with_operator().await;
    let mut env = live_env(&app);
    // A directory of this run's own: the target directory is shared by every clone on the machine.
    let run_dir = format!("{}-{}", app.db_name, std::process::id());
    let artifacts = std::env::var("CAIRN_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_TARGET_TMPDIR")).join("dashboard-e2e"))
        .join(run_dir);
    env.push(("CAIRN_ARTIFACTS", artifacts.display().to_string()));
    let out = tokio::task::spawn_blocking(move || run("node", &["dashboard/e2e/run.mjs"], &env)).await.unwrap();
    println!("{out}");
    assert!(artifacts.read_dir().unwrap().count() >= 5, "screenshots in {}", artifacts.display());
}

/// The TypeScript sources type-check: the SDK's hand-written entry point against the generated types, and the
/// dashboard (which calls the API only through that client).
#[test]
fn the_typescript_sdk_and_the_dashboard_type_check() {
    run("npm", &["--prefix", "sdk/typescript", "run", "--silent", "check"], &[]);
    run("npm", &["--prefix", "dashboard", "run", "--silent", "check"], &[]);
}
