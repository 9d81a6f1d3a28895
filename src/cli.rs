//! The `cairn` commands. Logs go to stderr, so `--json` output on stdout is exactly one JSON value.

use std::process::ExitCode;

use anyhow::{bail, Context};
use chrono::Utc;
use serde_json::json;

use crate::config::{Cli, Command, DbArgs, EmbedderKind, KeyCommand, LogFormat, TenantCommand};
use crate::embed::EmbedderSlot;
use crate::server::{shutdown_signal, Application};
use crate::store::{tenants, Db};
use crate::{auth, jobs};

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
    let db = Db::connect_lazy(db)?;
    db.migrate().await?;
    Ok(db)
}

async fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve(args) => {
            let app = Application::build(&args.db, args.app, args.listen).await?;
            tracing::info!(addr = %app.local_addr(), version = crate::VERSION, "cairn serving");
            let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
            let (db, embedder) = (app.state().db.clone(), app.state().embedder.clone());
            let mut stop_workers = stop_rx.clone();
            let workers = tokio::spawn(async move {
                jobs::run_workers(db, embedder, async move {
                    let _ = stop_workers.changed().await;
                })
                .await
            });
            let served = app.run(shutdown_signal()).await;
            drop(stop_tx);
            let _ = workers.await;
            served
        }
        Command::Worker(args) => {
            let db = connect(&args.db).await?;
            db.check_app_role().await?;
            let embedder = EmbedderSlot::disabled();
            if args.app.embedder == EmbedderKind::Local {
                embedder.load_local_in_background(args.app.model_dir(), args.app.embedding_dim);
            }
            tracing::info!("cairn workers running");
            jobs::run_workers(db, embedder, shutdown_signal()).await;
            Ok(())
        }
        Command::Migrate(db) => {
            connect(&db).await?;
            eprintln!("migrations applied");
            Ok(())
        }
        Command::Openapi => {
            println!("{}", crate::api::openapi().to_pretty_json().context("rendering OpenAPI")?);
            Ok(())
        }
        Command::Tenant(command) => tenant(command).await,
        Command::Key(command) => key(command).await,
    }
}

async fn tenant(command: TenantCommand) -> anyhow::Result<()> {
    match command {
        TenantCommand::Create { name, json, db } => {
            let name = name.trim();
            if name.is_empty() || name.chars().count() > 200 {
                bail!("tenant name must be 1..=200 characters");
            }
            let db = connect(&db).await?;
            let tenant = match tenants::create_tenant(db.owner(), name).await {
                Err(sqlx::Error::Database(e)) if e.constraint() == Some("tenants_name_key") => {
                    bail!("a tenant named {name:?} already exists")
                }
                other => other?,
            };
            let scopes = vec!["read".to_owned(), "write".to_owned()];
            let (key, secret) = auth::create_key(db.owner(), tenant.id, &scopes, Some("initial"), None).await?;
            if json {
                println!("{}", json!({"tenant_id": tenant.id, "name": tenant.name, "api_key": secret}));
            } else {
                println!("tenant  {}  {}", tenant.id, tenant.name);
                println!("key     {}  scopes {}", key.id, key.scopes.join(","));
                println!("api key {secret}");
                println!("(the API key is shown only now; store it safely)");
            }
            Ok(())
        }
        TenantCommand::List { json, db } => {
            let db = connect(&db).await?;
            let all = tenants::list_tenants(db.owner()).await?;
            if json {
                println!("{}", serde_json::to_string(&all)?);
            } else {
                for t in all {
                    println!("{}  {}  {}", t.id, t.created_at.to_rfc3339(), t.name);
                }
            }
            Ok(())
        }
    }
}

async fn key(command: KeyCommand) -> anyhow::Result<()> {
    match command {
        KeyCommand::Create { tenant, scopes, name, expires_in_days, json, db } => {
            let scopes = auth::parse_scopes(&scopes).map_err(|e| anyhow::anyhow!("--scopes: {e}"))?;
            let db = connect(&db).await?;
            if !tenants::tenant_exists(db.owner(), tenant).await? {
                bail!("no tenant with id {tenant}");
            }
            let expires_at = expires_in_days.map(|d| Utc::now() + chrono::Duration::days(i64::from(d)));
            let (key, secret) = auth::create_key(db.owner(), tenant, &scopes, name.as_deref(), expires_at).await?;
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
            let db = connect(&db).await?;
            match tenants::revoke_key(db.owner(), key_id, None).await? {
                Some(key) => {
                    println!(
                        "revoked {} (tenant {}); cached verifications on running servers end within 30 s",
                        key.id, key.tenant_id
                    );
                    Ok(())
                }
                None => bail!("no API key with id {key_id}"),
            }
        }
        KeyCommand::List { tenant, json, db } => {
            let db = connect(&db).await?;
            let keys = tenants::list_keys(db.owner(), tenant).await?;
            if json {
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
