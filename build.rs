// sqlx::migrate! embeds migrations/ at compile time but cannot tell cargo to watch the folder: without
// this, adding a migration leaves a stale binary that silently lacks it.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
