//! The `cairn` commands. Logs go to stderr, so `--json` output on stdout is exactly one JSON value.
//! `mcp_stdio` is the bridge behind `cairn mcp --stdio`.

pub mod mcp_stdio;

use std::process::ExitCode;

use anyhow::{bail, Context};
use serde_json::json;

use crate::auth::admin::Operator;
use crate::auth::Tenant;
use crate::config::{
    AdminCommand, AppArgs, Cli, Command, DbArgs, EmbedderKind, EvalCommand, EvalRun, KeyCommand, LogFormat,
    TenantCommand,
};
use crate::jobs;
use crate::models::embed::EmbedderSlot;
use crate::queue::Workers;
use crate::server::{shutdown_signal, Application};
use crate::service::keys::KeyRequest;
use crate::service::tenants::TenantChange;
use crate::service::{self, Services};
use crate::store::{tenants, Db};

fn init_tracing(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// Runs a parsed command line; errors are printed to stderr with their causes.
pub async fn run(cli: Cli) -> ExitCode {
    init_tracing(cli.log_format);
    match dispatch(cli.command).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn connect(db: &DbArgs) -> anyhow::Result<Db> {
    let db = Db::connect_lazy(&db.settings())?;
    db.migrate().await?;
    Ok(db)
}

async fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve(args) => {
            let workers = Workers::from_roles(&args.workers).map_err(|e| anyhow::anyhow!("--workers: {e}"))?;
            let app = Application::build(&args.db, args.app, args.listen).await?;
            tracing::info!(addr = %app.local_addr(), version = crate::VERSION, workers = ?workers, "cairn serving");
            app.run_with_workers(workers, shutdown_signal()).await
        }
        Command::Worker(args) => {
            let queues = Workers::from_roles(&args.queues).map_err(|e| anyhow::anyhow!("--queues: {e}"))?;
            let embedder = EmbedderSlot::from_config(&args.app.embedding())?;
            let services = crate::server::services(&args.db, args.app, embedder).await?;
            let extractor = jobs::enrich::Extractor::new(services.config.llm.clone())?;
            tracing::info!(queues = ?queues, "cairn workers running");
            let (stop, mut stopped) = tokio::sync::watch::channel(());
            if let Some(addr) = args.health_listen {
                let listener = tokio::net::TcpListener::bind(addr).await?;
                tracing::info!(addr = %listener.local_addr()?, "liveness probe on GET /livez");
                let mut stopped = stop.subscribe();
                tokio::spawn(crate::api::health::serve_liveness(listener, async move {
                    let _ = stopped.changed().await;
                }));
            }
            let upkeep = services.spawn_upkeep(async move {
                let _ = stopped.changed().await;
            });
            jobs::run_workers(services, extractor, queues, shutdown_signal()).await;
            drop(stop);
            let _ = upkeep.await;
            Ok(())
        }
        Command::Migrate { check_distribution: true, db } => {
            let db = Db::connect_lazy(&db.settings())?;
            if !crate::store::distribute::is_citus(db.owner()).await? {
                bail!("the database has no citus extension: nothing is distributed");
            }
            let problems = crate::store::distribute::check(db.owner()).await?;
            if !problems.is_empty() {
                bail!("not distributed as Cairn needs (run `cairn migrate`):\n  {}", problems.join("\n  "));
            }
            eprintln!("every tenant table is distributed by tenant_id and colocated; reference tables in place");
            Ok(())
        }
        Command::Migrate { check_distribution: false, db } => {
            let db = Db::connect_lazy(&db.settings())?;
            let steps = db.migrate().await?;
            for step in &steps {
                eprintln!("citus: {step}");
            }
            eprintln!("migrations applied");
            Ok(())
        }
        Command::Openapi => {
            println!("{}", crate::api::openapi().to_pretty_json().context("rendering OpenAPI")?);
            Ok(())
        }
        Command::Eval(EvalCommand::Locomo {
            run,
            sweep,
            limit,
            with_captions,
            as_messages,
            reuse_tenants,
            db,
            app,
        }) => {
            let EvalRun { data, url, mode, keep_tenants } = run;
            let opts = crate::eval::locomo::EvalOptions {
                data: &data,
                url: "",
                mode: &mode,
                keep_tenants,
                sweep,
                limit,
                captions: with_captions,
                as_messages,
                reuse_tenants,
            };
            with_eval_server(url, &db, app, eval_workers(reuse_tenants), |db, url| async move {
                crate::eval::locomo::run(&db, crate::eval::locomo::EvalOptions { url: &url, ..opts }).await
            })
            .await
        }
        Command::Eval(EvalCommand::Longmemeval { run: eval_run, limit, questions, reuse_tenants, db, app }) => {
            use crate::eval::longmemeval::{run, EvalOptions};
            let EvalRun { data, url, mode, keep_tenants } = eval_run;
            let questions = questions.map(|n| n as usize);
            let opts = EvalOptions { data: &data, url: "", mode: &mode, keep_tenants, limit, questions, reuse_tenants };
            let workers = eval_workers(reuse_tenants);
            with_eval_server(url, &db, app, workers, |db, url| async move {
                run(&db, EvalOptions { url: &url, ..opts }).await
            })
            .await
        }
        Command::Reembed { tenant, db, app } => reembed(tenant, &db, &app).await,
        Command::Mcp { stdio, url, key } => {
            if !stdio {
                bail!("cairn mcp needs --stdio (the HTTP server already serves MCP at /mcp)");
            }
            tracing::info!(url = %url, "bridging MCP on stdio");
            mcp_stdio::run(mcp_stdio::Bridge::new(&url, key)?).await
        }
        Command::Tenant(command) => tenant(command).await,
        Command::Key(command) => key(command).await,
        Command::Admin(command) => admin(command).await,
        Command::Export { tenant, vectors, no_history, db } => export(tenant, vectors, !no_history, &db).await,
        Command::Import { tenant, file, db } => import(tenant, &file, &db).await,
    }
}

/// The services of a one-off command on the database host (no embedder, no chat model); it acts as the CLI.
async fn cli_services(db: &DbArgs) -> anyhow::Result<(Services, Operator)> {
    let db = connect(db).await?;
    Ok((Services::new(db, crate::config::Settings::default(), EmbedderSlot::disabled())?, Operator::Cli))
}

async fn admin(command: AdminCommand) -> anyhow::Result<()> {
    match command {
        AdminCommand::Create { email, db } => {
            let mut password = String::new();
            std::io::stdin().read_line(&mut password).context("reading the password from stdin")?;
            let password = password.trim_end_matches(['\r', '\n']);
            let (svc, op) = cli_services(&db).await?;
            let admin = service::admins::create(&svc, &op, &email, password).await?;
            println!("admin {}  {}", admin.id, admin.email);
            Ok(())
        }
    }
}

/// The tenant context the CLI acts in: the tenant's own limits, acting as the CLI.
async fn cli_tenant(svc: &Services, tenant: uuid::Uuid) -> anyhow::Result<Tenant> {
    let access = svc.keys.access(tenant).await.map_err(|_| anyhow::anyhow!("no tenant with id {tenant}"))?;
    access.require_active()?;
    let mut t = Tenant::system(tenant, "cli");
    t.limits = std::sync::Arc::new(access.limits.clone());
    Ok(t)
}

async fn export(tenant: uuid::Uuid, vectors: bool, history: bool, db: &DbArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let (svc, _) = cli_services(db).await?;
    let t = cli_tenant(&svc, tenant).await?;
    let usage = service::usage::read(&svc, tenant, None, None).await?;
    let bar = indicatif::ProgressBar::new(usage.memories.max(0) as u64).with_style(
        indicatif::ProgressStyle::with_template("{spinner} exporting {pos}/{len} memories {wide_bar} {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let (sender, mut receiver) = tokio::sync::mpsc::channel::<String>(4);
    let opts = service::transfer::ExportOptions { vectors, history };
    let slot = service::transfer::export_slot(&svc, &t, opts).await?;
    let producer = {
        let svc = svc.clone();
        tokio::spawn(async move { service::transfer::export(&svc, &t, opts, sender, slot).await })
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    while let Some(chunk) = receiver.recv().await {
        bar.inc(chunk.lines().filter(|l| l.contains("\"type\":\"memories\"")).count() as u64);
        out.write_all(chunk.as_bytes())?;
    }
    out.flush()?;
    let exported = producer.await??;
    bar.finish_and_clear();
    if !exported.complete {
        bail!("the export ended early (output too slow); the file is incomplete");
    }
    eprintln!("exported {} memories of tenant {tenant}", exported.memories);
    Ok(())
}

async fn import(tenant: uuid::Uuid, file: &std::path::Path, db: &DbArgs) -> anyhow::Result<()> {
    use tokio::io::AsyncBufReadExt;
    let (svc, _) = cli_services(db).await?;
    let t = cli_tenant(&svc, tenant).await?;
    let size = tokio::fs::metadata(file).await.with_context(|| format!("reading {}", file.display()))?.len();
    let bar = indicatif::ProgressBar::new(size).with_style(
        indicatif::ProgressStyle::with_template("{spinner} importing {bytes}/{total_bytes} {wide_bar} {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut lines = tokio::io::BufReader::new(tokio::fs::File::open(file).await?).lines();
    let mut report = service::transfer::ImportReport::default();
    let (mut batch, mut first, mut number) = (Vec::new(), 1_u64, 0_u64);
    while let Some(line) = lines.next_line().await? {
        number += 1;
        bar.inc(line.len() as u64 + 1);
        batch.push(line);
        if batch.len() == service::transfer::batch_lines(&t) {
            service::transfer::import_batch(&svc, &t, first, &batch, &mut report).await?;
            batch.clear();
            first = number + 1;
        }
    }
    service::transfer::import_batch(&svc, &t, first, &batch, &mut report).await?;
    service::transfer::imported(&svc, &t, &report, None).await;
    bar.finish_and_clear();
    svc.usage.flush(&svc.db).await?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    if report.failed_batches > 0 {
        bail!("{} of {} batches failed; nothing of them was written", report.failed_batches, report.batches);
    }
    Ok(())
}

async fn tenant(command: TenantCommand) -> anyhow::Result<()> {
    match command {
        TenantCommand::Create { name, scopes, plan, json, db } => {
            let (svc, op) = cli_services(&db).await?;
            let change = TenantChange { name: Some(name), plan, ..TenantChange::default() };
            let tenant = service::tenants::create(&svc, &op, &change).await?.row.tenant;
            let request = KeyRequest { scopes: Some(scopes), name: Some("initial".into()), ..KeyRequest::default() };
            let (key, secret) = service::keys::create_for(&svc, &op, tenant.id, &request).await?;
            if json {
                println!("{}", json!({"tenant_id": tenant.id, "name": tenant.name, "api_key": secret}));
            } else {
                println!("tenant  {}  {}  plan {}", tenant.id, tenant.name, tenant.plan);
                println!("key     {}  scopes {}", key.id, key.scopes.join(","));
                println!("api key {secret}");
                println!("(the API key is shown only now; store it safely)");
            }
            Ok(())
        }
        TenantCommand::Move { tenant, to, db } => {
            let db = Db::connect_lazy(&db.settings())?;
            if !crate::store::distribute::is_citus(db.owner()).await? {
                bail!("the database has no citus extension: a tenant has no shard to move");
            }
            for step in crate::store::distribute::move_tenant(db.owner(), tenant, to.as_deref()).await? {
                eprintln!("citus: {step}");
            }
            let (node, shard) = crate::store::distribute::tenant_placement(db.owner(), tenant).await?;
            eprintln!("tenant {tenant} is in shard {shard} on {node}");
            Ok(())
        }
        TenantCommand::List { json, db } => {
            let (svc, op) = cli_services(&db).await?;
            let mut all = Vec::new();
            loop {
                let page =
                    service::tenants::list(&svc, &op, None, Some(service::tenants::MAX_PAGE), Some(all.len() as i64))
                        .await?;
                let more = page.has_more();
                all.extend(page.items);
                if !more {
                    break;
                }
            }
            if json {
                let all: Vec<_> = all
                    .iter()
                    .map(|r| {
                        let t = &r.tenant;
                        json!({"id": t.id, "name": t.name, "plan": t.plan, "status": t.status, "created_at": t.created_at,
                            "memories": r.memories, "storage_bytes": r.storage_bytes})
                    })
                    .collect();
                println!("{}", serde_json::to_string(&all)?);
            } else {
                for r in all {
                    let t = r.tenant;
                    println!(
                        "{}  {}  {:<9}  {:<10}  {:>8} memories  {}",
                        t.id,
                        t.created_at.to_rfc3339(),
                        t.status,
                        t.plan,
                        r.memories,
                        t.name
                    );
                }
            }
            Ok(())
        }
    }
}

async fn key(command: KeyCommand) -> anyhow::Result<()> {
    match command {
        KeyCommand::Create { tenant, scopes, name, expires_in_days, json, db } => {
            let (svc, op) = cli_services(&db).await?;
            let request = KeyRequest {
                scopes: Some(scopes),
                name,
                expires_in_days: expires_in_days.map(i64::from),
                rate_limit_per_second: None,
                ..KeyRequest::default()
            };
            let (key, secret) = service::keys::create_for(&svc, &op, tenant, &request).await?;
            if json {
                println!(
                    "{}",
                    json!({"key_id": key.id, "tenant_id": tenant, "scopes": key.scopes, "expires_at": key.expires_at, "api_key": secret})
                );
            } else {
                println!("key     {}  scopes {}", key.id, key.scopes.join(","));
                println!("api key {secret}");
            }
            Ok(())
        }
        KeyCommand::Revoke { key_id, db } => {
            let (svc, op) = cli_services(&db).await?;
            let key = service::keys::revoke_for(&svc, &op, None, key_id).await?;
            println!("revoked {} (tenant {}); every running server refuses it from now on", key.id, key.tenant_id);
            Ok(())
        }
        KeyCommand::List { tenant, json, db } => {
            let (svc, op) = cli_services(&db).await?;
            let keys = service::keys::list_for(&svc, &op, tenant).await?;
            if json {
                let keys: Vec<_> = keys
                    .iter()
                    .map(|k| {
                        json!({"id": k.id, "tenant_id": k.tenant_id, "prefix": k.prefix, "name": k.name,
                            "scopes": k.scopes, "created_at": k.created_at, "expires_at": k.expires_at,
                            "revoked_at": k.revoked_at, "last_used_at": k.last_used_at})
                    })
                    .collect();
                println!("{}", serde_json::to_string(&keys)?);
            } else {
                for k in keys {
                    let state = if k.revoked_at.is_some() { "revoked" } else { "active" };
                    println!(
                        "{}  cairn_{}_…  {}  {}  {}",
                        k.id,
                        k.prefix,
                        k.scopes.join(","),
                        state,
                        k.name.unwrap_or_default()
                    );
                }
            }
            Ok(())
        }
    }
}

/// The workers an evaluation's own server runs: all of them when it stores the data (its memories must be
/// embedded before the questions are asked), none when it asks the questions of tenants a `--keep-tenants` run
/// left (`--reuse-tenants`: nothing to embed). A reuse run's server with workers would take the jobs of any other
/// run embedding on the same database and, at the end, wait for the ones it had begun, so it did not exit when
/// its figures were printed (once for 15 minutes).
fn eval_workers(reuse_tenants: bool) -> Workers {
    if reuse_tenants {
        Workers::None
    } else {
        Workers::All
    }
}

/// Runs an evaluation (`eval`, given the database and the server's URL) against `url`, or against a server of
/// its own on the database, with `workers`, when there is none.
async fn with_eval_server<F, Fut>(
    url: Option<String>,
    db_args: &DbArgs,
    app: AppArgs,
    workers: Workers,
    eval: F,
) -> anyhow::Result<()>
where
    F: FnOnce(crate::store::Db, String) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    if let Some(url) = url {
        let db = connect(db_args).await?;
        return eval(db, url.trim_end_matches('/').to_owned()).await;
    }
    let application = Application::build(db_args, app, "127.0.0.1:0".parse()?).await?;
    let url = format!("http://{}", application.local_addr());
    let db = application.services().db.clone();
    let (stop, mut stopped) = tokio::sync::watch::channel(());
    let server = tokio::spawn(application.run_with_workers(workers, async move {
        let _ = stopped.changed().await;
    }));
    let outcome = eval(db, url).await;
    drop(stop);
    let _ = server.await;
    outcome
}

/// Re-embeds one tenant's or every tenant's memories with the local model.
async fn reembed(tenant: Option<uuid::Uuid>, db_args: &DbArgs, app: &AppArgs) -> anyhow::Result<()> {
    if app.embedder != EmbedderKind::Local {
        bail!("reembed needs an embedder: set CAIRN_EMBEDDER=local");
    }
    let db = connect(db_args).await?;
    let dir = app.model_dir();
    let model = tokio::task::spawn_blocking(move || crate::models::embed::local::LocalEmbedder::load(&dir)).await??;
    if model.dimension() != app.embedding_dim {
        bail!(
            "the model produces {}-dimensional vectors; the deployment is configured for {}",
            model.dimension(),
            app.embedding_dim
        );
    }
    let model = crate::models::embed::LocalModel::new(model);
    let tenant_ids = match tenant {
        Some(id) if tenants::tenant_exists(db.owner(), id).await? => vec![id],
        Some(id) => bail!("no tenant with id {id}"),
        None => tenants::tenant_ids(db.owner()).await?,
    };
    let mut total = 0;
    for id in &tenant_ids {
        total += jobs::embed::count_memories(&db, *id).await?;
    }
    let bar = indicatif::ProgressBar::new(total.max(0) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} memories ({per_sec}, eta {eta})",
        )?
        .progress_chars("=> "),
    );
    let mut written = 0;
    for id in tenant_ids {
        written += jobs::embed::reembed_tenant(&db, &model, id, app.vector_kinds(), |n| bar.inc(n as u64)).await?;
    }
    bar.finish();
    eprintln!("re-embedded {written} of {total} memories with {}", crate::models::embed::Embedder::model(&model));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eval_that_reuses_kept_tenants_runs_no_workers() {
        // Storing needs the embedding (and every other) worker; asking kept tenants again needs none, and with
        // them its server would take another run's jobs and wait for them before exiting.
        assert_eq!(eval_workers(false), Workers::All);
        assert_eq!(eval_workers(true), Workers::None);
        assert!(!eval_workers(true).runs(crate::queue::embed::QUEUE));
    }
}
