//! A process's roles, wired together: the HTTP API (`api`) over the deployment's services, and the
//! background workers (`jobs`) a process serves. Tests use [`Application::build`] with port 0.

use std::net::SocketAddr;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::config::{AppArgs, DbArgs};
use crate::jobs;
use crate::models::embed::EmbedderSlot;
use crate::queue::Workers;
use crate::service::Services;
use crate::store::Db;

/// A bound, ready-to-serve application.
pub struct Application {
    listener: TcpListener,
    services: Services,
}

impl Application {
    /// Migrates, checks that tenant queries are bound by RLS, binds `listen`, and starts loading the
    /// configured embedder in the background.
    pub async fn build(db_args: &DbArgs, app: AppArgs, listen: SocketAddr) -> anyhow::Result<Self> {
        let slot = EmbedderSlot::from_config(&app.embedding())?;
        Self::build_with_embedder(db_args, app, listen, slot).await
    }

    /// As [`Application::build`], with an embedder slot supplied by the caller (tests share one model).
    pub async fn build_with_embedder(
        db_args: &DbArgs,
        app: AppArgs,
        listen: SocketAddr,
        embedder: EmbedderSlot,
    ) -> anyhow::Result<Self> {
        let services = services(db_args, app, embedder).await?;
        let listener = TcpListener::bind(listen).await.with_context(|| format!("binding {listen}"))?;
        Ok(Self { listener, services })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn services(&self) -> &Services {
        &self.services
    }

    /// Serves HTTP until `shutdown` resolves, with the instance's upkeep (key-change announcements, usage
    /// flushes) running until the server has drained.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let (stop, mut stopped) = tokio::sync::watch::channel(());
        let upkeep = self.services.spawn_upkeep(async move {
            let _ = stopped.changed().await;
        });
        let served = crate::api::serve(self.listener, self.services, shutdown).await;
        drop(stop);
        let _ = upkeep.await; // the last usage counts are written before the process ends
        served
    }

    /// Serves HTTP and the queues `workers` selects until `shutdown` resolves; the workers stop after the
    /// server has drained.
    pub async fn run_with_workers(
        self,
        workers: Workers,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let extractor = jobs::enrich::Extractor::new(self.services.config.llm.clone())?;
        let (stop, stopped) = tokio::sync::watch::channel(());
        let mut stopped = stopped;
        let background = tokio::spawn(jobs::run_workers(self.services.clone(), extractor, workers, async move {
            let _ = stopped.changed().await;
        }));
        let served = self.run(shutdown).await;
        drop(stop);
        let _ = background.await;
        served
    }
}

/// The deployment's services on a migrated database whose tenant queries row-level security binds.
pub async fn services(db_args: &DbArgs, app: AppArgs, embedder: EmbedderSlot) -> anyhow::Result<Services> {
    let db = Db::connect_lazy(&db_args.settings())?;
    db.migrate().await?;
    db.check_app_role().await?;
    db.check_embedding_dimension(app.embedding_dim).await?;
    if app.jwt_secret.as_ref().is_none_or(|s| secrecy::ExposeSecret::expose_secret(s).trim().is_empty()) {
        tracing::warn!("CAIRN_JWT_SECRET is not set: admin tokens are signed with a random key of this process");
    }
    Ok(Services::new(db, app.settings()?, embedder)?)
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutting down");
}
