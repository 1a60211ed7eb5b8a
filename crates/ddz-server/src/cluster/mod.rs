//! Cluster mode (`ddz serve --nats …`): several nodes on one PostgreSQL database, with NATS between them.
//!
//! Every room has one owner node, the only one that runs its task, exactly as a single server does.
//! Ownership is a row in `room_owners` naming the node, good while that node's lease (its row in `nodes`,
//! renewed every third of the lease time, one statement for all its rooms) is alive. Taking a room bumps
//! its fencing number, which every append checks in the same transaction: a node that lost a room can
//! never write to it again.
//!
//! Any node accepts any client. On each node a room in use has a *proxy* task where a single server has
//! the room's task: it takes the same messages ([`Msg`]) from the node's client loops and HTTP handlers
//! and forwards them to the owner over NATS request/reply. The owner's gateway hands them to the room task
//! and relays each connection's events back to the node that serves it (without NATS when that is the owner
//! itself: a proxy of an owned room asks the gateway in-process). Views are built only by the owner,
//! per seat, from the engine's view, as always: hidden cards never travel to a node for a client who may
//! not see them.
//!
//! NATS subjects ([`messages`]):
//! - `ddz.node.<node>`: a room's mail for its owner's gateway ([`messages::ToOwner`], answered by a
//!   [`messages::Answer`]);
//! - `ddz.events.<node>`: events for that node's clients ([`messages::Routed`]);
//! - `ddz.moved.<ROOM>`: the room has a new owner (the id, or empty for none): proxies attach their
//!   connections to it;
//! - `ddz.lobby`: room summaries, so that every node's lobby lists every node's rooms.
//! - `ddz.pulse`: each node's open sockets, every second, so that every node's hall counts everyone online.
//!
//! A room's players are brought to one node: the balancer hashes the room code the client puts in its
//! socket's address, and an owner hands each room whose connections are all on one other node to that
//! node (`hand_over_rooms`), so that the room's events stay inside it.
//!
//! A node that dies stops renewing its lease. Within the lease time the others see its rooms orphaned; one
//! takes each (a conditional update decides), loads it from its log as a restart does, and announces the
//! move. Proxies then attach their connections to the new owner, which sends each a fresh state, and
//! clocks go on from the stored times. A node that stops gracefully lets its rooms go at once.
//!
//! The files: [`messages`] (what crosses NATS), [`lease`] (the node's lease and the rooms of dead nodes),
//! [`owner`] (the rooms that run here, as other nodes reach them) and [`proxy`] (this node's clients'
//! rooms, wherever they run).

mod lease;
mod messages;
mod owner;
mod proxy;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;

use self::messages::{Pulse, Routed};
use self::owner::Guest;
use self::proxy::Route;
use crate::background::Background;
use crate::clock::Clock;
use crate::domain::room::RoomCode;
use crate::metrics;
use crate::room::{ConnId, Msg, Registry};
use crate::rooms::{Placement, ProxyEnv, Rooms};
use crate::store::Db;
use crate::wire::pages::Summary;

/// How to join a cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server: `nats://127.0.0.1:4222`.
    pub nats: String,
    /// This node's name, for operators. Its id adds a random suffix: a restarted node is a new node.
    pub name: String,
    /// How long a node's lease lasts unrenewed: the rooms of a node that died move within this.
    pub lease: Duration,
}

/// This node's part in the cluster: its id, its NATS connection, and the routes of its clients' events.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

struct Inner {
    id: String,
    nats: async_nats::Client,
    db: Db,
    clock: Clock,
    lease_ms: u64,
    /// Where the events for this node's clients go, by connection.
    routes: Mutex<HashMap<ConnId, Route>>,
    /// Owner side: the connections of every node (this one's too) to rooms here, by (node, connection).
    guests: Mutex<HashMap<(String, ConnId), Guest>>,
    next_guest: AtomicU64,
    /// When readiness first found NATS down (ms on the room clock), 0 while it is up.
    nats_down_since: AtomicU64,
    /// How many times NATS has connected: proxies resend their clients the whole room after each
    /// reconnection, since events sent while it was away may be lost.
    reconnections: tokio::sync::watch::Receiver<u64>,
    /// Summaries for every node's lobby, published in the order the rooms change.
    summaries: mpsc::UnboundedSender<Summary>,
    /// The other nodes' last pulses: their open sockets, and when this node heard it (room clock, ms).
    pulses: Mutex<HashMap<String, (u32, u64)>>,
}

/// A node whose pulse has not been heard for this long is left out of the hall's count.
const PULSE_FRESH_MS: u64 = 3_000;

/// How long a node stays ready while NATS is down: 10 s.
pub const NATS_GRACE_MS: u64 = 10_000;

/// NATS as readiness sees it ([`Cluster::nats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NatsHealth {
    Up,
    /// Down for less than [`NATS_GRACE_MS`]: still ready, and says so.
    Blip,
    Down,
}

/// The subscriptions a node needs before it serves anyone.
pub struct Subscriptions {
    requests: async_nats::Subscriber,
    events: async_nats::Subscriber,
    lobby: async_nats::Subscriber,
    pulse: async_nats::Subscriber,
    summaries: mpsc::UnboundedReceiver<Summary>,
}

/// How soon a proxy tries again to attach its connections to a room's new owner that did not answer.
const REATTACH_EVERY: Duration = Duration::from_millis(250);

/// How often an owner looks for rooms whose clients are all on another node: such a room moves there
/// after two looks in a row, within a second.
const HAND_OVER_EVERY: Duration = Duration::from_millis(500);

/// Other nodes' connection numbers at an owner start here, apart from its own clients' numbers.
const FIRST_GUEST: ConnId = 1 << 48;

impl Cluster {
    /// Connects to NATS, takes this node's lease and subscribes to its subjects.
    pub async fn join(
        config: &ClusterConfig,
        db: Db,
        clock: Clock,
    ) -> Result<(Cluster, Subscriptions), Box<dyn std::error::Error + Send + Sync>> {
        let suffix: u32 = rand::random();
        let id = format!("{}-{suffix:08x}", subject_token(&config.name));
        let (reconnected, reconnections) = tokio::sync::watch::channel(0u64);
        let nats = async_nats::ConnectOptions::new()
            .name(format!("ddz {id}"))
            .event_callback(move |event| {
                if let async_nats::Event::Connected = event {
                    // The first is the connection itself; each later one is NATS coming back.
                    reconnected.send_modify(|connections| *connections += 1);
                    if *reconnected.borrow() > 1 {
                        metrics::counter!(metrics::NATS_RECONNECTS).increment(1);
                    }
                }
                std::future::ready(())
            })
            .request_timeout(Some(request_timeout(config.lease)))
            .connect(&config.nats)
            .await?;
        let lease_ms = config.lease.as_millis() as u64;
        let now = clock.now_ms();
        db.join_cluster(&id, &config.name, now, now + lease_ms).await?;
        let (summaries, summaries_rx) = mpsc::unbounded_channel();
        let subscriptions = Subscriptions {
            requests: nats.subscribe(format!("ddz.node.{id}")).await?,
            events: nats.subscribe(format!("ddz.events.{id}")).await?,
            lobby: nats.subscribe("ddz.lobby").await?,
            pulse: nats.subscribe("ddz.pulse").await?,
            summaries: summaries_rx,
        };
        tracing::info!(node = %id, nats = %config.nats, lease_ms, "joined the cluster");
        let inner = Inner {
            id,
            nats,
            db,
            clock,
            lease_ms,
            routes: Mutex::default(),
            guests: Mutex::default(),
            next_guest: AtomicU64::new(FIRST_GUEST),
            nats_down_since: AtomicU64::new(0),
            reconnections,
            summaries,
            pulses: Mutex::default(),
        };
        Ok((Cluster { inner: Arc::new(inner) }, subscriptions))
    }

    /// This node's id (its name and a random suffix).
    pub fn id(&self) -> &str {
        &self.inner.id
    }

    /// Whether the NATS connection is up.
    pub fn connected(&self) -> bool {
        self.inner.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// The node's part of readiness: NATS up; or down for less than [`NATS_GRACE_MS`], a blip that
    /// NATS's own reconnection rides out (the rooms' requests retry meanwhile). Every node sees the same
    /// blip at once, so failing readiness at the first sign of it would take every node out of the
    /// balancer and close every player's socket for nothing.
    pub fn nats(&self) -> NatsHealth {
        if self.connected() {
            self.inner.nats_down_since.store(0, Ordering::Relaxed);
            return NatsHealth::Up;
        }
        let now = self.inner.clock.now_ms().max(1);
        let since = match self.inner.nats_down_since.compare_exchange(0, now, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => now,
            Err(since) => since,
        };
        if now - since < NATS_GRACE_MS { NatsHealth::Blip } else { NatsHealth::Down }
    }

    /// Starts serving: the gateway for the rooms this node owns, the routes of its clients' events, the
    /// lobby, and the lease's upkeep, until the server stops.
    pub fn run(&self, rooms: &Rooms, subscriptions: Subscriptions) {
        let Subscriptions { mut requests, mut events, mut lobby, mut pulse, summaries: mut changed } = subscriptions;
        let background = rooms.background();
        let (cluster, owner_rooms, answering) = (self.clone(), rooms.clone(), background.clone());
        background.until_stopped(async move {
            while let Some(message) = requests.next().await {
                let (cluster, rooms) = (cluster.clone(), owner_rooms.clone());
                answering.spawn(async move {
                    let answer = cluster.answer(&rooms, &message.payload).await;
                    if let Some(reply) = message.reply {
                        let bytes = serde_json::to_vec(&answer).expect("answers serialise");
                        let _ = cluster.inner.nats.publish(reply, bytes.into()).await;
                    }
                });
            }
        });
        let cluster = self.clone();
        background.until_stopped(async move {
            while let Some(message) = events.next().await {
                if let Some(routed) = Routed::decode(&message.payload) {
                    cluster.route(routed);
                }
            }
        });
        let nats = self.inner.nats.clone();
        background.until_stopped(async move {
            while let Some(summary) = changed.recv().await {
                let bytes = serde_json::to_vec(&summary).expect("summaries serialise");
                let _ = nats.publish("ddz.lobby", bytes.into()).await;
            }
        });
        let lobby_rooms = rooms.clone();
        background.until_stopped(async move {
            while let Some(message) = lobby.next().await {
                if let Ok(summary) = serde_json::from_slice::<Summary>(&message.payload) {
                    lobby_rooms.note_summary(summary);
                }
            }
        });
        let cluster = self.clone();
        background.until_stopped(async move {
            while let Some(message) = pulse.next().await {
                if let Ok(Pulse { node, sockets }) = serde_json::from_slice(&message.payload)
                    && node != cluster.inner.id
                {
                    let heard = cluster.inner.clock.now_ms();
                    cluster.inner.pulses.lock().expect("the pulses").insert(node, (sockets, heard));
                }
            }
        });
        let cluster = self.clone();
        background.until_stopped(async move { cluster.keep_lease().await });
        let (cluster, orphan_rooms) = (self.clone(), rooms.clone());
        background.until_stopped(async move { cluster.take_over(orphan_rooms).await });
        let (cluster, rooms) = (self.clone(), rooms.clone());
        background.until_stopped(async move { cluster.hand_over_rooms(rooms).await });
    }

    /// Tells every node how many sockets are open here (the hall's pulse, once a second), sent on
    /// `background` so that the hall's round does not wait for NATS.
    pub fn announce_sockets(&self, sockets: u32, background: &Background) {
        let pulse = Pulse { node: self.inner.id.clone(), sockets };
        let bytes = serde_json::to_vec(&pulse).expect("a pulse serialises");
        let nats = self.inner.nats.clone();
        background.spawn(async move {
            let _ = nats.publish("ddz.pulse", bytes.into()).await;
        });
    }

    /// The sockets open on the other nodes, as their last pulses said (a node silent for
    /// [`PULSE_FRESH_MS`] is left out: it died or left).
    pub fn others_sockets(&self) -> u32 {
        let now = self.inner.clock.now_ms();
        let mut pulses = self.inner.pulses.lock().expect("the pulses");
        pulses.retain(|_, (_, heard)| now.saturating_sub(*heard) < PULSE_FRESH_MS);
        pulses.values().map(|(sockets, _)| sockets).sum()
    }

    /// Tells every node that `room` has a new owner (this node), or none (`None`).
    pub async fn announce_move(&self, room: &RoomCode, owner: Option<&str>) {
        let payload = owner.unwrap_or_default().to_string();
        let _ = self.inner.nats.publish(format!("ddz.moved.{room}"), payload.into()).await;
    }
}

/// The cluster's side of the room directory.
impl Placement for Cluster {
    fn node(&self) -> &str {
        self.id()
    }

    fn summaries_out(&self) -> mpsc::UnboundedSender<Summary> {
        self.inner.summaries.clone()
    }

    fn announce_taken<'a>(&'a self, code: &'a RoomCode) -> futures_util::future::BoxFuture<'a, ()> {
        Box::pin(self.announce_move(code, Some(self.id())))
    }

    fn spawn_proxy(&self, code: &RoomCode, inbox: mpsc::Receiver<Msg>, registry: Registry, task: u64, env: ProxyEnv) {
        self.start_proxy(code, inbox, registry, task, env);
    }
}

/// How long a request to a room's owner waits for its answer: well under the lease, since an owner that
/// does not answer (hung, or killed before anyone noticed) holds up every client of its rooms on other
/// nodes. The proxy then asks again, of whichever node the database names, and takes the room itself once
/// the silent owner's lease has run out. A live owner answers in milliseconds, even at saturation.
fn request_timeout(lease: Duration) -> Duration {
    (lease / 4).clamp(Duration::from_millis(250), Duration::from_secs(2))
}

/// A name as one NATS subject token: letters, digits, `-` and `_` only.
fn subject_token(name: &str) -> String {
    let token: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if token.is_empty() { "node".into() } else { token }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_name_becomes_one_subject_token() {
        assert_eq!(subject_token("eu-west.1 a*"), "eu-west_1_a_");
        assert_eq!(subject_token(""), "node");
    }
}
