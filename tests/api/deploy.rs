//! deploy/ validated without Docker (the build machine has none): `deploy/check.py` parses the compose file
//! and the Kubernetes manifests and checks images, probes, ports, environment variables and which login
//! each role gets against the source; `--self-test` breaks copies of deploy/ and fails unless every break
//! is caught. Needs `python3` with PyYAML.

use std::path::Path;
use std::process::Command;

/// Runs `python3 deploy/check.py ARGS` from the crate root and fails with its output unless it succeeds.
fn check(args: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("deploy/check.py"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("python3 runs deploy/check.py");
    assert!(
        out.status.success(),
        "deploy/check.py {} failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn compose_file_manifests_and_dockerfile_pass_the_deploy_checks() {
    check(&[]);
}

#[test]
fn deploy_checks_catch_every_deliberately_broken_copy() {
    check(&["--self-test"]);
}
