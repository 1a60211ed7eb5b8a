//! The Dou Dizhu game server: axum + tokio, one task per room, SQLite through sqlx.
//!
//! `docs/protocol.md` documents the client-server protocol; `docs/architecture.md` the design.
//!
//! # Layout
//!
//! In layers from the bottom up; a module imports only from its own layer and those below it
//! (docs/architecture.md, "Layers of the server"; `tests/server/layers.rs` keeps it):
//!
//! - [`crate::background`]: the server's loops and helper tasks on its task tracker, each ending when it stops.
//! - [`crate::clock`]: time as an input, wall-clock milliseconds advanced by tokio's clock (tests pause it).
//! - [`crate::metrics`]: the Prometheus metrics, served at `GET /metrics`.
//! - [`crate::work`]: the bounded pool of blocking threads for bot decisions, hints and readings.
//! - [`crate::domain`]: the game around the engine, pure: the room as a fold, challenges, fair play, ratings, names.
//! - [`crate::wire`]: what crosses the network, and the same types in TypeScript ([`protocol`] is public).
//! - [`crate::store`]: the database (SQLite or PostgreSQL): rooms' logs, results, boards, queues, leases.
//! - [`crate::room`]: the task that owns one room (check, stamp, store, apply, broadcast), its mailbox, its registry.
//! - [`crate::rooms`]: the directory of this node's rooms: create, restore, load on demand, ask.
//! - [`crate::cluster`]: cluster mode: NATS between the nodes, leases, rooms' owners and the proxies that reach them.
//! - [`crate::matching`]: quick match's matcher, which seats the queued players at tables.
//! - [`crate::upkeep`]: what belongs to no room: writing the results of the rallies that have closed.
//! - [`crate::tournaments`]: tournaments: the desk (create, register, withdraw, show) and the driver that moves them on.
//! - [`crate::hall`]: the hall's live state, kept in memory: online, tables in play, queues, open tournaments.
//! - [`crate::http`]: every edge: the JSON endpoints, one WebSocket per client, the embedded client, the limits.
//!
//! Modules are private to the crate; the few types a binary or a test needs are re-exported here.

mod background;
pub(crate) mod clock;
pub(crate) mod cluster;
pub(crate) mod domain;
mod hall;
pub(crate) mod http;
mod matching;
mod metrics;
pub(crate) mod room;
pub(crate) mod rooms;
pub(crate) mod store;
mod tournaments;
mod upkeep;
pub mod wire;
pub(crate) mod work;

pub use clock::Clock;
pub use cluster::ClusterConfig;
pub use domain::challenge::{Challenge, ChallengeKind, utc_date};
pub use domain::fairness::{Listing, Origin};
pub use domain::names::PlayerName;
pub use domain::rating;
pub use domain::room::{LogLine, Mode, Occupant, RoomCode};
pub use domain::tournament::{
    Checked, Format, PathState, Phase as TournamentPhase, RecordError, Recurring, Verified, verify as verify_tournament,
};
pub use http::Heartbeat;
pub use http::limit::Rate;
pub use room::{FromClient, Hello, Msg, Outbound, Reply, Request, Timing};
pub use rooms::Rooms;
pub use store::{ChallengeStart, Db, FlaggedPair};
pub use wire::protocol;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;

use crate::http::AppState;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// The database: `sqlite://ddz.db` (a file, created if missing) or `postgres://user@host/db`.
    pub database: String,
    pub max_connections: usize,
    pub timing: room::Timing,
    pub heartbeat: http::Heartbeat,
    pub guards: Guards,
    /// Where time comes from: [`Clock::system`] in play; tests may fix the date.
    pub clock: Clock,
    /// Cluster mode: NATS, this node's name and the lease time. `None`: a single server.
    pub cluster: Option<ClusterConfig>,
    /// Balancers in front (their `X-Forwarded-For` names the client the per-address limits count, and
    /// whose addresses the rating's fair play compares).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// What a name needs to be listed on the boards (docs/ratings.md, "What counts").
    pub listing: Listing,
    /// The operator's recurring tournaments (`ddz serve --tournaments FILE`).
    pub tournaments: Vec<Recurring>,
    /// Mine puzzles from the deals finished here (docs/puzzles.md; `ddz serve --no-puzzle-mining` turns it off).
    pub mine_puzzles: bool,
}

/// Limits on what one client can make the server do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guards {
    /// HTTP API requests per client address: 20 a second, bursts of 60.
    pub api: http::limit::Rate,
    /// New WebSocket connections per client address: 5 a second, bursts of 20.
    pub websockets: http::limit::Rate,
    /// Bot decisions, hints and readings running at once (0: one per core, at least two).
    pub work_threads: usize,
    /// Spectators (nameless `watch` connections) one room takes: 200. Each is sent every state.
    pub spectators: usize,
}

impl Default for Guards {
    fn default() -> Self {
        Guards {
            api: http::limit::Rate::new(20.0, 60.0),
            websockets: http::limit::Rate::new(5.0, 20.0),
            work_threads: 0,
            spectators: rooms::SPECTATORS,
        }
    }
}

/// Connections waiting to be accepted (the kernel's `somaxconn` caps it; tokio's own bind asks for 1,024):
/// a scheduled tournament's start sends every entrant to their table at one moment.
const ACCEPT_QUEUE: u32 = 4096;

/// The server's listening socket on `addr`, with room for a rush of connections.
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_QUEUE)
}

/// How long a stop may take before the server exits anyway.
pub const STOP_WITHIN: Duration = Duration::from_secs(10);

/// A running server: its address and a way to stop it.
pub struct Running {
    pub addr: SocketAddr,
    pub rooms: Rooms,
    cluster: Option<cluster::Cluster>,
    clients: TaskTracker,
    handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Stops gracefully: stops accepting, tells every client the server is restarting and closes its
    /// socket, lets each room finish the commit in hand and ends its task, and waits for all of it,
    /// [`STOP_WITHIN`] at most. Returns whether everything ended in time.
    pub async fn stop(self) -> bool {
        let Running { rooms, cluster, clients, handle, .. } = self;
        let everything = async move {
            // Cancelling stops the listener (axum's graceful shutdown), the clients and the rooms.
            let owned = rooms.shutdown().await;
            if let Some(cluster) = cluster {
                cluster.leave(&owned).await;
            }
            clients.close();
            clients.wait().await;
            let _ = handle.await;
        };
        tokio::time::timeout(STOP_WITHIN, everything).await.is_ok()
    }
}

/// Opens the database, restores the open rooms, and starts serving.
pub async fn start(config: Config) -> Result<Running, Box<dyn std::error::Error + Send + Sync>> {
    metrics::handle();
    let db = Db::open_listing(&config.database, config.listing).await?;
    let pool = match config.guards.work_threads {
        0 => work::Pool::per_core(),
        n => work::Pool::new(n),
    };
    let mut rooms =
        Rooms::new(db.clone(), config.clock, config.timing).with_pool(pool).with_spectators(config.guards.spectators);
    if config.mine_puzzles {
        rooms = rooms.with_puzzle_mining();
    }
    let mut cluster = None;
    if let Some(joining) = &config.cluster {
        let (node, subscriptions) = cluster::Cluster::join(joining, db, config.clock).await?;
        rooms = rooms.with_placement(Arc::new(node.clone()));
        cluster = Some((node, subscriptions));
    }
    let restored = rooms.restore().await?;
    let waiting = matching::Waiting::default();
    matching::spawn(rooms.clone(), config.timing.match_fill_ms, waiting.clone());
    upkeep::spawn(rooms.clone());
    let desk = tournaments::Desk::new(rooms.clone(), config.tournaments.clone());
    desk.clone().spawn();
    let cluster = cluster.map(|(node, subscriptions)| {
        node.run(&rooms, subscriptions);
        node
    });
    let hall = hall::spawn(rooms.clone(), waiting, desk.clone(), cluster.clone());
    let clients = TaskTracker::new();
    let state = AppState {
        rooms: rooms.clone(),
        desk,
        hall,
        cluster: cluster.clone(),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        next_conn: Arc::new(AtomicU64::new(1)),
        clients: clients.clone(),
        heartbeat: config.heartbeat,
        api_limit: Arc::new(
            http::limit::PerClient::new(config.guards.api, http::limit::CLIENTS).trusting(&config.trusted_proxies),
        ),
        ws_limit: Arc::new(
            http::limit::PerClient::new(config.guards.websockets, http::limit::CLIENTS)
                .trusting(&config.trusted_proxies),
        ),
        guesses: Arc::new(http::limit::Guesses::new(http::limit::GUESSES_PER_NAME, http::limit::GUESSES_PER_ADDRESS)),
        protects: Arc::new(
            http::limit::PerClient::new(http::limit::PROTECTS, http::limit::CLIENTS).trusting(&config.trusted_proxies),
        ),
        reviews: work::Queue::new(1, http::REVIEWS_QUEUED),
        built_in_puzzles: Arc::default(),
    };
    let listener = listen(config.addr)?;
    let addr = listener.local_addr()?;
    // Without Nagle's algorithm: an action's `ack` and the `state` it caused are two writes, and the
    // second would wait for the client's delayed ACK of the first (40 ms on Linux).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp: &mut tokio::net::TcpStream| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY could not be set");
        }
    });
    tracing::info!(%addr, database = %config.database, restored, "serving");
    let stopping = rooms.stopping();
    let app = http::router(state).layer(tower_http::trace::TraceLayer::new_for_http());
    let handle = tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move { stopping.cancelled().await })
            .await
    });
    Ok(Running { addr, rooms, cluster, clients, handle })
}
