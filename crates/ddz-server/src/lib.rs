//! The Dou Dizhu game server: axum + tokio, one task per room, SQLite through sqlx.
//!
//! `docs/protocol.md` documents the client-server protocol; `docs/architecture.md` the design.

pub mod actor;
pub mod challenge;
pub mod clock;
pub mod db;
pub mod hints;
pub mod limit;
pub mod protocol;
pub mod room;
pub mod rooms;
pub mod server;
pub mod work;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::clock::Clock;
use crate::db::Db;
use crate::rooms::Rooms;
use crate::server::AppState;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// A SQLite URL: `sqlite://ddz.db`.
    pub database: String,
    pub max_connections: usize,
    pub timing: actor::Timing,
    pub guards: Guards,
}

/// Limits on what one client can make the server do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guards {
    /// HTTP API requests per client address: 20 a second, bursts of 60.
    pub api: limit::Rate,
    /// New WebSocket connections per client address: 5 a second, bursts of 20.
    pub websockets: limit::Rate,
    /// Bot decisions, hints and readings running at once (0: one per core, at least two).
    pub work_threads: usize,
}

impl Default for Guards {
    fn default() -> Self {
        Guards { api: limit::Rate::new(20.0, 60.0), websockets: limit::Rate::new(5.0, 20.0), work_threads: 0 }
    }
}

/// A running server: its address and a way to stop it.
pub struct Running {
    pub addr: SocketAddr,
    pub rooms: Rooms,
    shutdown: tokio::sync::oneshot::Sender<()>,
    handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Stops accepting, closes connections and room tasks, and waits for the server to finish.
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.shutdown.send(());
        self.rooms.shutdown();
        self.handle.await.unwrap_or(Ok(()))
    }
}

/// Opens the database, restores the open rooms, and starts serving.
pub async fn start(config: Config) -> Result<Running, Box<dyn std::error::Error + Send + Sync>> {
    let db = Db::open(&config.database).await?;
    let pool = match config.guards.work_threads {
        0 => work::Pool::per_core(),
        n => work::Pool::new(n),
    };
    let rooms = Rooms::new(db, Clock::system(), config.timing).with_pool(pool);
    let restored = rooms.restore().await?;
    let state = AppState {
        rooms: rooms.clone(),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        next_conn: Arc::new(AtomicU64::new(1)),
        api_limit: Arc::new(limit::PerClient::new(config.guards.api, limit::CLIENTS)),
        ws_limit: Arc::new(limit::PerClient::new(config.guards.websockets, limit::CLIENTS)),
    };
    let listener = TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, database = %config.database, restored, "serving");
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = server::router(state).layer(tower_http::trace::TraceLayer::new_for_http());
    let handle = tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running { addr, rooms, shutdown, handle })
}
