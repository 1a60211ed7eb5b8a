//! The Dou Dizhu game server: axum + tokio, one task per room, SQLite through sqlx.
//!
//! `docs/protocol.md` documents the client-server protocol; `docs/architecture.md` the design.

pub mod actor;
pub mod challenge;
pub mod clock;
pub mod db;
pub mod hints;
pub mod protocol;
pub mod room;
pub mod rooms;
pub mod server;

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
    let rooms = Rooms::new(db, Clock::system(), config.timing);
    let restored = rooms.restore().await?;
    let state = AppState {
        rooms: rooms.clone(),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        next_conn: Arc::new(AtomicU64::new(1)),
    };
    let listener = TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, database = %config.database, restored, "serving");
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = server::router(state).layer(tower_http::trace::TraceLayer::new_for_http());
    let handle = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running { addr, rooms, shutdown, handle })
}
