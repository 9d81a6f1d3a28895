//! Building and running the HTTP application. Tests use [`Application::build`] with port 0.

use std::net::SocketAddr;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::api::{self, AppState};
use crate::config::{AppArgs, DbArgs};
use crate::embed::EmbedderSlot;
use crate::store::Db;

/// A bound, ready-to-serve application.
pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Migrates, checks that tenant queries are bound by RLS, binds `listen`, and starts loading the
    /// configured embedder in the background.
    pub async fn build(db_args: &DbArgs, app: AppArgs, listen: SocketAddr) -> anyhow::Result<Self> {
        let slot = EmbedderSlot::from_config(&app)?;
        Self::build_with_embedder(db_args, app, listen, slot).await
    }

    /// As [`Application::build`], with an embedder slot supplied by the caller (tests share one model).
    pub async fn build_with_embedder(
        db_args: &DbArgs,
        app: AppArgs,
        listen: SocketAddr,
        embedder: EmbedderSlot,
    ) -> anyhow::Result<Self> {
        let db = Db::connect_lazy(db_args)?;
        db.migrate().await?;
        db.check_app_role().await?;
        db.check_embedding_dimension(app.embedding_dim).await?;
        let listener = TcpListener::bind(listen).await.with_context(|| format!("binding {listen}"))?;
        Ok(Self { listener, state: AppState::new(db, app, embedder) })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let router = api::router(self.state);
        axum::serve(self.listener, router).with_graceful_shutdown(shutdown).await.context("serving HTTP")
    }
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
