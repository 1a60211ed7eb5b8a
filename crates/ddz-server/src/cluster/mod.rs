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
//! NATS subjects:
//! - `ddz.node.<node>`: requests to a node's gateway ([`ToOwner`], answered by an [`Answer`]);
//! - `ddz.events.<node>`: events for that node's clients ([`Routed`]);
//! - `ddz.moved.<ROOM>`: the room has a new owner (the id, or empty for none): proxies attach their
//!   connections to it;
//! - `ddz.lobby`: room summaries, so that every node's lobby lists every node's rooms.
//!
//! A room's players are brought to one node: the balancer hashes the room code the client puts in its
//! socket's address, and an owner hands each room whose connections are all on one other node to that
//! node (`hand_over_rooms`), so that the room's events stay inside it.
//!
//! A node that dies stops renewing its lease. Within the lease time the others see its rooms orphaned; one
//! takes each (a conditional update decides), loads it from its log as a restart does, and announces the
//! move. Proxies then attach their connections to the new owner, which sends each a fresh state, and
//! clocks go on from the stored times. A node that stops gracefully lets its rooms go at once.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::clock::Clock;
use crate::domain::fairness::Origin;
use crate::metrics;
use crate::room::{ConnId, Msg, OUTBOX, Outbound, Registry, Reply, Request, ask, sleep_until};
use crate::rooms::{Owned, Placement, ProxyEnv, Rooms};
use crate::store::Db;
use crate::wire::protocol::{Command, ErrorCode, Event, Refused, Summary};

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
}

/// A serving node's connection attached to a room here: the room, the number its task knows it by, and
/// that task's inbox. A task of the room started since (the room was let go and taken again) does not know
/// the number: a command for it must not be handed to that task, where it would vanish, but answered
/// [`Answer::Unattached`], so that the serving node attaches the connection again and resends it.
struct Guest {
    room: String,
    conn: ConnId,
    task: mpsc::Sender<Msg>,
}

impl Guest {
    /// Whether the guest is attached to room `room`'s task whose inbox is `inbox`.
    fn of(&self, room: &str, inbox: &mpsc::Sender<Msg>) -> bool {
        self.room == room && self.task.same_channel(inbox)
    }
}

/// A client's events: from which owner they are taken, and where they go.
struct Route {
    owner: String,
    out: mpsc::Sender<Outbound>,
}

impl Route {
    /// Closes the client's socket (`restarting`: it reconnects at once), for a route this node drops while
    /// the socket is open: nothing would ever be written to it again.
    fn close(self) {
        let _ = self.out.try_send(Event::Restarting.into());
    }
}

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

/// A message for a room's owner, on `ddz.node.<owner>`: a [`Msg`] with the serving node's connection
/// numbers in place of channels, and a handler's [`Request`] as it is.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ToOwner {
    Connect {
        room: String,
        node: String,
        conn: ConnId,
        name: Option<String>,
        token: Option<String>,
        opened_ms: u64,
        #[serde(default)]
        origin: Origin,
    },
    Disconnect {
        room: String,
        node: String,
        conn: ConnId,
    },
    Command {
        room: String,
        node: String,
        conn: ConnId,
        command: Command,
    },
    Request {
        room: String,
        request: Request,
    },
}

impl ToOwner {
    fn room(&self) -> &str {
        match self {
            ToOwner::Connect { room, .. }
            | ToOwner::Disconnect { room, .. }
            | ToOwner::Command { room, .. }
            | ToOwner::Request { room, .. } => room,
        }
    }
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Answer {
    /// [`ToOwner::Connect`]: the name's resume token (none for a spectator).
    Joined {
        token: Option<String>,
    },
    /// [`ToOwner::Disconnect`] and [`ToOwner::Command`]: handed to the room.
    Delivered,
    /// [`ToOwner::Request`]: the room's reply.
    Replied {
        reply: Reply,
    },
    Refused {
        code: ErrorCode,
        message: String,
    },
    /// This node does not own the room (another live node does, or it is leaving): ask the owner.
    NotOwner,
    /// The connection is not attached here (the room moved): attach it again, then ask again.
    Unattached,
    NoRoom,
}

impl Answer {
    fn refused(Refused { code, message }: Refused) -> Answer {
        Answer::Refused { code, message }
    }
}

/// An event for a client of node `ddz.events.<node>`, from the room's owner: three header lines (the
/// owner, the connection, `1` when it is the connection's last event) and the event as the client reads
/// it, so that the serving node writes it to the socket without reading it. No event: the room let the
/// connection go (too slow, replaced, or the room stopped).
struct Routed {
    owner: String,
    conn: ConnId,
    last: bool,
    /// An `ack` or `error`: the answer to a command, which changes no view. It reaches the client even
    /// from an owner the room has just moved away from (an action refused because the room moved), where
    /// a state from that owner would be older than the new owner's.
    answer: bool,
    json: Option<String>,
}

impl Routed {
    fn encode(&self) -> Vec<u8> {
        let json = self.json.as_deref().unwrap_or_default();
        let flags = u8::from(self.last) | u8::from(self.answer) << 1;
        format!("{}\n{}\n{flags}\n{json}", self.owner, self.conn).into_bytes()
    }

    fn decode(payload: &[u8]) -> Option<Routed> {
        let text = std::str::from_utf8(payload).ok()?;
        let mut parts = text.splitn(4, '\n');
        let owner = parts.next()?.to_string();
        let conn = parts.next()?.parse().ok()?;
        let flags: u8 = parts.next()?.parse().ok()?;
        let json = parts.next().filter(|j| !j.is_empty()).map(str::to_string);
        Some(Routed { owner, conn, last: flags & 1 != 0, answer: flags & 2 != 0, json })
    }
}

/// The subscriptions a node needs before it serves anyone.
pub struct Subscriptions {
    requests: async_nats::Subscriber,
    events: async_nats::Subscriber,
    lobby: async_nats::Subscriber,
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
        let Subscriptions { mut requests, mut events, mut lobby, summaries: mut changed } = subscriptions;
        let stopping = rooms.stopping();
        let (cluster, owner_rooms) = (self.clone(), rooms.clone());
        tokio::spawn(until(stopping.clone(), async move {
            while let Some(message) = requests.next().await {
                let (cluster, rooms) = (cluster.clone(), owner_rooms.clone());
                tokio::spawn(async move {
                    let answer = cluster.answer(&rooms, &message.payload).await;
                    if let Some(reply) = message.reply {
                        let bytes = serde_json::to_vec(&answer).expect("answers serialise");
                        let _ = cluster.inner.nats.publish(reply, bytes.into()).await;
                    }
                });
            }
        }));
        let cluster = self.clone();
        tokio::spawn(until(stopping.clone(), async move {
            while let Some(message) = events.next().await {
                if let Some(routed) = Routed::decode(&message.payload) {
                    cluster.route(routed);
                }
            }
        }));
        let nats = self.inner.nats.clone();
        tokio::spawn(until(stopping.clone(), async move {
            while let Some(summary) = changed.recv().await {
                let bytes = serde_json::to_vec(&summary).expect("summaries serialise");
                let _ = nats.publish("ddz.lobby", bytes.into()).await;
            }
        }));
        let lobby_rooms = rooms.clone();
        tokio::spawn(until(stopping.clone(), async move {
            while let Some(message) = lobby.next().await {
                if let Ok(summary) = serde_json::from_slice::<Summary>(&message.payload) {
                    lobby_rooms.note_summary(summary);
                }
            }
        }));
        let (cluster, lease_rooms) = (self.clone(), rooms.clone());
        tokio::spawn(until(stopping.clone(), async move { cluster.keep_lease(lease_rooms).await }));
        let (cluster, rooms) = (self.clone(), rooms.clone());
        tokio::spawn(until(stopping, async move { cluster.hand_over_rooms(rooms).await }));
    }

    /// Every third of the lease time: renews this node's lease, takes on the rooms of nodes that died,
    /// and lets go of the connections of clients whose node died.
    async fn keep_lease(&self, rooms: Rooms) {
        let mut ticks = tokio::time::interval(Duration::from_millis(self.inner.lease_ms / 3));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let (db, now) = (&self.inner.db, self.inner.clock.now_ms());
            match db.renew_lease(&self.inner.id, now + self.inner.lease_ms).await {
                Ok(true) => {}
                Ok(false) => tracing::error!(node = %self.inner.id, "this node's lease is gone from the database"),
                Err(e) => {
                    tracing::error!(node = %self.inner.id, error = %e, "could not renew this node's lease");
                    continue;
                }
            }
            match db.orphaned_rooms(now).await {
                Ok(orphans) => {
                    for code in orphans {
                        // Every node tries; the database gives each room to one.
                        if let Err(e) = rooms.owned_inbox_checked(&code).await {
                            tracing::warn!(room = %code, error = %e, "could not take an orphaned room");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "could not look for orphaned rooms"),
            }
            if let Ok(live) = db.live_nodes(now).await {
                let live = live.into_iter().collect();
                self.forget_guests_of_dead_nodes(&live).await;
            }
            // Every node that ever ran leaves a row; those dead for an hour with no room go.
            if let Err(e) = db.forget_nodes(now.saturating_sub(3_600_000)).await {
                tracing::warn!(error = %e, "could not forget old nodes");
            }
        }
    }

    async fn forget_guests_of_dead_nodes(&self, live: &HashSet<String>) {
        let gone: Vec<((String, ConnId), Guest)> = {
            let mut guests = self.inner.guests.lock().expect("guests lock");
            let dead: Vec<(String, ConnId)> = guests.keys().filter(|(node, _)| !live.contains(node)).cloned().collect();
            dead.into_iter().filter_map(|key| guests.remove(&key).map(|guest| (key, guest))).collect()
        };
        for ((node, conn), guest) in gone {
            let _ = guest.task.send(Msg::Disconnect { conn: guest.conn }).await;
            // A node whose lease only looked run out (the database was away a while) is still serving the
            // client: told the room let it go, it closes the socket, and the client reconnects.
            let routed = Routed { owner: self.inner.id.clone(), conn, last: false, answer: false, json: None };
            self.send_event(&node, routed).await;
        }
    }

    /// Every [`HAND_OVER_EVERY`]: hands each room that runs here to the node all its clients are on, when
    /// they were there at the previous look too, so that a room whose players are reconnecting is not moved
    /// back and forth. A balancer routing by room (`/ws?room=CODE`) sends a room's players to one node; once
    /// that node owns the room, the room's events stay inside it and NATS carries none of them.
    async fn hand_over_rooms(&self, rooms: Rooms) {
        let mut ticks = tokio::time::interval(HAND_OVER_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut before = HashMap::new();
        loop {
            ticks.tick().await;
            // A move is announced over NATS: while it is away the room stays where its task runs.
            if !self.connected() {
                continue;
            }
            let now = clients_elsewhere(&self.guests(), &self.inner.id);
            let steady: Vec<(String, String)> = now
                .iter()
                .filter(|&(room, node)| before.get(room) == Some(node))
                .map(|(r, n)| (r.clone(), n.clone()))
                .collect();
            if !steady.is_empty() {
                // Only to a node that is alive: a dead node's clients are being forgotten.
                let live: HashSet<String> = match self.inner.db.live_nodes(self.inner.clock.now_ms()).await {
                    Ok(live) => live.into_iter().collect(),
                    Err(_) => HashSet::new(),
                };
                for (room, node) in steady {
                    if !live.contains(&node) {
                        continue;
                    }
                    match rooms.hand_over(&room, &node).await {
                        Ok(true) => {
                            metrics::counter!(metrics::ROOMS_HANDED_OVER).increment(1);
                            self.announce_move(&room, Some(&node)).await;
                        }
                        Ok(false) => {}
                        Err(e) => tracing::warn!(room, to = node, error = %e, "could not hand a room over"),
                    }
                }
            }
            before = now;
        }
    }

    /// Tells every node that `room` has a new owner (this node), or none (`None`).
    pub async fn announce_move(&self, room: &str, owner: Option<&str>) {
        let payload = owner.unwrap_or_default().to_string();
        let _ = self.inner.nats.publish(format!("ddz.moved.{room}"), payload.into()).await;
    }

    /// Leaves the cluster as the server stops, once this node's room tasks have ended: its lease ends, so
    /// the other nodes take its rooms on their next tick, and the nodes that serve their clients are told
    /// at once.
    pub async fn leave(&self, owned: &[String]) {
        if let Err(e) = self.inner.db.leave_cluster(&self.inner.id).await {
            tracing::error!(error = %e, "could not leave the cluster: its rooms move when the lease runs out");
        }
        // NATS may be gone too: the moves are announced if it can be reached soon, else the other nodes
        // find the rooms free when their clients next ask.
        let announce = async {
            for room in owned {
                self.announce_move(room, None).await;
            }
            let _ = self.inner.nats.flush().await;
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), announce).await;
    }

    /// Owner side: one request from another node's proxy.
    async fn answer(&self, rooms: &Rooms, payload: &[u8]) -> Answer {
        match serde_json::from_slice::<ToOwner>(payload) {
            Ok(request) => self.answer_request(rooms, request).await,
            Err(e) => Answer::Refused { code: ErrorCode::BadMessage, message: e.to_string() },
        }
    }

    /// Owner side: one request from a proxy, of this node or another.
    async fn answer_request(&self, rooms: &Rooms, request: ToOwner) -> Answer {
        let room = request.room().to_string();
        // A task that retires as a message reaches it drops the message: the room is loaded again.
        for _ in 0..3 {
            // Attaching a connection checks that a task running here still holds the room (a room handed
            // back to a node that lost it may find that node's stale task still running).
            let owned = match request {
                ToOwner::Connect { .. } => rooms.owned_inbox_checked(&room).await,
                _ => rooms.owned_inbox(&room).await,
            };
            let inbox = match owned {
                Ok(Owned::Here(inbox)) => inbox,
                Ok(Owned::Elsewhere) => return Answer::NotOwner,
                Ok(Owned::Missing) => return Answer::NoRoom,
                Err(e) => {
                    tracing::error!(room, error = %e, "could not load a room for another node");
                    let message = "the server could not load the room".to_string();
                    return Answer::Refused { code: ErrorCode::Internal, message };
                }
            };
            if let Some(answer) = self.deliver(&inbox, &room, request.clone(), rooms.stopping()).await {
                return answer;
            }
        }
        Answer::NotOwner
    }

    /// Hands one request to the room's task; `None` when the task stopped before answering.
    async fn deliver(
        &self,
        inbox: &mpsc::Sender<Msg>,
        room: &str,
        request: ToOwner,
        stopping: CancellationToken,
    ) -> Option<Answer> {
        match request {
            ToOwner::Connect { node, conn, name, token, opened_ms, origin, .. } => {
                // The same connection attached again (its node lost track of this owner: NATS came back,
                // or a request found it unattached): the earlier attachment goes first and quietly, or
                // the room would take it for another tab and tell the player they were replaced.
                let earlier = self.guests().remove(&(node.clone(), conn));
                if let Some(earlier) = earlier.filter(|earlier| earlier.of(room, inbox)) {
                    inbox.send(Msg::Disconnect { conn: earlier.conn }).await.ok()?;
                }
                let guest = self.inner.next_guest.fetch_add(1, Ordering::Relaxed);
                let (out, events) = mpsc::channel(OUTBOX);
                let (reply, joined) = oneshot::channel();
                inbox.send(Msg::Connect { conn: guest, name, token, opened_ms, origin, out, reply }).await.ok()?;
                let joined = joined.await.ok()?;
                if joined.is_ok() {
                    let attached = Guest { room: room.to_string(), conn: guest, task: inbox.clone() };
                    let earlier = self.guests().insert((node.clone(), conn), attached);
                    if let Some(earlier) = earlier {
                        // Attached twice at once: the later attachment stands.
                        let _ = earlier.task.send(Msg::Disconnect { conn: earlier.conn }).await;
                    }
                    tokio::spawn(self.clone().relay(events, node, conn, guest, stopping));
                }
                Some(joined.map_or_else(Answer::refused, |token| Answer::Joined { token }))
            }
            ToOwner::Disconnect { node, conn, .. } => {
                let guest = self.guests().remove(&(node, conn));
                if let Some(guest) = guest {
                    let _ = guest.task.send(Msg::Disconnect { conn: guest.conn }).await;
                }
                Some(Answer::Delivered)
            }
            ToOwner::Command { node, conn, command, .. } => {
                let guest = {
                    let mut guests = self.guests();
                    let key = (node, conn);
                    match guests.get(&key) {
                        Some(guest) if guest.of(room, inbox) => Some(guest.conn),
                        // Attached to a task of the room that has ended since: forgotten, and attached again.
                        Some(guest) if guest.room == room => {
                            guests.remove(&key);
                            None
                        }
                        _ => None,
                    }
                };
                let Some(guest) = guest else { return Some(Answer::Unattached) };
                inbox.send(Msg::Command { conn: guest, command }).await.ok()?;
                Some(Answer::Delivered)
            }
            ToOwner::Request { request, .. } => ask(inbox, |reply| Msg::Request { request, reply })
                .await
                .map(|replied| replied.map_or_else(Answer::refused, |reply| Answer::Replied { reply })),
        }
    }

    fn guests(&self) -> std::sync::MutexGuard<'_, HashMap<(String, ConnId), Guest>> {
        self.inner.guests.lock().expect("guests lock")
    }

    /// Owner side: sends one connection's events to the node that serves its client, until the room lets
    /// the connection go; then says so (unless this node is stopping: its rooms move instead).
    async fn relay(
        self,
        mut events: mpsc::Receiver<Outbound>,
        node: String,
        conn: ConnId,
        guest: ConnId,
        stopping: CancellationToken,
    ) {
        let owner = self.inner.id.clone();
        let mut moved = false;
        while let Some(outbound) = events.recv().await {
            if let Outbound::Moved = outbound {
                moved = true;
                break;
            }
            let answer = matches!(outbound, Outbound::Event(Event::Ack { .. } | Event::Error { .. }));
            let (json, last) = outbound.into_json();
            let routed = Routed { owner: owner.clone(), conn, last, answer, json: Some(json) };
            if !self.send_event(&node, routed).await {
                break;
            }
        }
        let key = (node, conn);
        let ours = self.guests().get(&key).is_some_and(|g| g.conn == guest);
        if ours && !stopping.is_cancelled() {
            self.guests().remove(&key);
            // A room handed over goes on at its new owner, where the client's node attaches the connection
            // as the move is announced: the socket stays open.
            if !moved {
                let (node, conn) = key;
                self.send_event(&node, Routed { owner, conn, last: false, answer: false, json: None }).await;
            }
        }
    }

    /// An event for a client of node `node`: straight to its socket when that is this node, else over NATS.
    /// `false` when NATS would not take it.
    async fn send_event(&self, node: &str, routed: Routed) -> bool {
        if node == self.inner.id {
            self.route(routed);
            return true;
        }
        metrics::counter!(metrics::EVENTS_RELAYED).increment(1);
        self.inner.nats.publish(format!("ddz.events.{node}"), routed.encode().into()).await.is_ok()
    }

    /// Serving side: an event from a room's owner to one of this node's clients.
    fn route(&self, routed: Routed) {
        let mut routes = self.inner.routes.lock().expect("routes lock");
        let Some(route) = routes.get(&routed.conn).filter(|r| r.owner == routed.owner || routed.answer) else {
            return;
        };
        match routed.json {
            Some(text) => {
                if route.out.try_send(Outbound::Json { text, last: routed.last }).is_err() {
                    // Too slow (or gone): dropped, as a single server drops it; the client reconnects.
                    routes.remove(&routed.conn);
                }
            }
            None => {
                // The room let the connection go (its task ended: the room moved on, or it stopped): the
                // socket is closed, so that the client reconnects rather than listen to nothing.
                if let Some(route) = routes.remove(&routed.conn) {
                    route.close();
                }
            }
        }
    }

    /// Drops the route of connection `conn` and closes its socket (the client reconnects).
    fn close_route(&self, conn: ConnId) {
        if let Some(route) = self.inner.routes.lock().expect("routes lock").remove(&conn) {
            route.close();
        }
    }

    /// Asks node `owner`; `None` when no answer came (the node is gone or did not answer in time).
    async fn request(&self, owner: &str, request: &ToOwner) -> Option<Answer> {
        let bytes = serde_json::to_vec(request).expect("requests serialise");
        let started = std::time::Instant::now();
        let Ok(reply) = self.inner.nats.request(format!("ddz.node.{owner}"), bytes.into()).await else {
            metrics::counter!(metrics::REQUEST_FAILURES).increment(1);
            return None;
        };
        metrics::histogram!(metrics::REQUEST_SECONDS).record(started.elapsed().as_secs_f64());
        serde_json::from_slice(&reply.payload).ok()
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

    fn announce_taken<'a>(&'a self, code: &'a str) -> futures_util::future::BoxFuture<'a, ()> {
        Box::pin(self.announce_move(code, Some(self.id())))
    }

    fn spawn_proxy(&self, code: &str, inbox: mpsc::Receiver<Msg>, registry: Registry, task: u64, env: ProxyEnv) {
        let tasks = env.tasks.clone();
        let proxy = Proxy {
            code: code.to_string(),
            cluster: self.clone(),
            inbox,
            owner: None,
            attached_to: None,
            attached: HashMap::new(),
            registry,
            task,
            env,
        };
        tasks.spawn(proxy.run());
    }
}

/// How long a request to a room's owner waits for its answer: well under the lease, since an owner that
/// does not answer (hung, or killed before anyone noticed) holds up every client of its rooms on other
/// nodes. The proxy then asks again, of whichever node the database names, and takes the room itself once
/// the silent owner's lease has run out. A live owner answers in milliseconds, even at saturation.
fn request_timeout(lease: Duration) -> Duration {
    (lease / 4).clamp(Duration::from_millis(250), Duration::from_secs(2))
}

/// The rooms whose every connection (`guests`, by node) is on one node other than `here`, with that node.
fn clients_elsewhere(guests: &HashMap<(String, ConnId), Guest>, here: &str) -> HashMap<String, String> {
    let mut nodes: HashMap<&str, Option<&str>> = HashMap::new();
    for ((node, _), Guest { room, .. }) in guests {
        let one = nodes.entry(room.as_str()).or_insert(Some(node.as_str()));
        if *one != Some(node.as_str()) {
            *one = None;
        }
    }
    nodes
        .into_iter()
        .filter_map(|(room, node)| Some((room.to_string(), node.filter(|node| *node != here)?.to_string())))
        .collect()
}

/// Runs `work` until the server stops.
async fn until(stopping: CancellationToken, work: impl Future<Output = ()>) {
    tokio::select! {
        _ = stopping.cancelled() => {}
        _ = work => {}
    }
}

/// A name as one NATS subject token: letters, digits, `-` and `_` only.
fn subject_token(name: &str) -> String {
    let token: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if token.is_empty() { "node".into() } else { token }
}

/// A connection this node serves, attached to the room's owner.
struct Attached {
    name: Option<String>,
    token: Option<String>,
    origin: Origin,
    /// When this node read the socket's hello: the owner orders a name's connections by it.
    opened_ms: u64,
}

/// Where a room in use on this node sends its messages: to the room's owner.
struct Proxy {
    code: String,
    cluster: Cluster,
    inbox: mpsc::Receiver<Msg>,
    /// The room's owner, as last found.
    owner: Option<String>,
    /// The owner this node's connections are attached to.
    attached_to: Option<String>,
    attached: HashMap<ConnId, Attached>,
    registry: Registry,
    task: u64,
    env: ProxyEnv,
}

impl Proxy {
    async fn run(mut self) {
        let moves = self.cluster.inner.nats.subscribe(format!("ddz.moved.{}", self.code)).await;
        let Ok(mut moves) = moves else {
            self.registry.remove(&self.code, self.task);
            return;
        };
        let stopping = self.env.stopping.clone();
        let mut reconnections = self.cluster.inner.reconnections.clone();
        reconnections.mark_unchanged();
        loop {
            let idle = self.attached.is_empty().then(|| Instant::now() + Duration::from_millis(self.env.idle_ms));
            tokio::select! {
                biased;
                _ = stopping.cancelled() => {
                    self.registry.remove(&self.code, self.task);
                    break;
                }
                Ok(()) = reconnections.changed() => {
                    if !self.attached.is_empty() {
                        self.resync().await;
                    }
                }
                moved = moves.next() => {
                    let Some(moved) = moved else { break };
                    let owner = String::from_utf8_lossy(&moved.payload).into_owned();
                    self.owner = (!owner.is_empty()).then_some(owner);
                    if !self.attached.is_empty() {
                        // The clients see the deal go on without asking anything.
                        let _ = self.owner().await;
                    }
                }
                msg = self.inbox.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                // Connections left unattached by a move whose new owner did not answer yet: without
                // this they would hear nothing until their client next sent something.
                _ = tokio::time::sleep(REATTACH_EVERY), if !self.attached.is_empty() && self.attached_to.is_none() => {
                    let _ = self.owner().await;
                }
                _ = sleep_until(idle), if idle.is_some() => {
                    if self.registry.retire(&self.code, self.task, &self.inbox) {
                        break;
                    }
                }
            }
        }
        self.inbox.close();
        let mut routes = self.cluster.inner.routes.lock().expect("routes lock");
        for conn in self.attached.keys() {
            routes.remove(conn);
        }
    }

    async fn handle(&mut self, msg: Msg) {
        let room = self.code.clone();
        let node = self.cluster.inner.id.clone();
        match msg {
            Msg::Connect { conn, name, token, opened_ms, origin, out, reply } => {
                // The route first: the owner sends the state at once, maybe before its answer arrives.
                let owner = match self.owner().await {
                    Ok(owner) => owner,
                    Err(refused) => {
                        let _ = reply.send(Err(refused));
                        return;
                    }
                };
                self.cluster.inner.routes.lock().expect("routes lock").insert(conn, Route { owner, out });
                let request = ToOwner::Connect {
                    room,
                    node,
                    conn,
                    name: name.clone(),
                    token: token.clone(),
                    opened_ms,
                    origin: origin.clone(),
                };
                let joined = self.call(request).await.and_then(|answer| match answer {
                    Answer::Joined { token } => Ok(token),
                    other => Err(unexpected(other)),
                });
                match &joined {
                    Ok(token) => {
                        self.attached.insert(conn, Attached { name, token: token.clone(), origin, opened_ms });
                    }
                    Err(_) => {
                        self.cluster.inner.routes.lock().expect("routes lock").remove(&conn);
                    }
                }
                let _ = reply.send(joined);
            }
            Msg::Disconnect { conn } => {
                self.cluster.inner.routes.lock().expect("routes lock").remove(&conn);
                if self.attached.remove(&conn).is_some()
                    && let Some(owner) = self.attached_to.clone()
                {
                    // One try: an owner that is gone has forgotten the connection anyway.
                    let _ = self.ask(&owner, &ToOwner::Disconnect { room, node, conn }).await;
                }
            }
            Msg::Command { conn, command } => {
                if let Err(refused) = self.call(ToOwner::Command { room, node, conn, command }).await {
                    // The owner could not be reached in time: the client reconnects and gets a snapshot.
                    tracing::warn!(room = %self.code, error = %refused, "dropping a client whose room cannot be reached");
                    self.cluster.close_route(conn);
                    self.attached.remove(&conn);
                }
            }
            Msg::Request { request, reply } => {
                let replied = self.call(ToOwner::Request { room, request }).await.and_then(|answer| match answer {
                    Answer::Replied { reply } => Ok(reply),
                    other => Err(unexpected(other)),
                });
                let _ = reply.send(replied);
            }
            // Only an owner's room task is handed over or fenced.
            Msg::HandOver { reply } => {
                let _ = reply.send(None);
            }
            Msg::Fenced => {}
        }
    }

    /// Asks the room's owner: this node's own room task directly (no NATS, no JSON), or another node over
    /// NATS. `None` when no answer came.
    async fn ask(&self, owner: &str, request: &ToOwner) -> Option<Answer> {
        if owner == self.cluster.inner.id {
            return Some(self.cluster.answer_request(&self.env.rooms, request.clone()).await);
        }
        self.cluster.request(owner, request).await
    }

    /// NATS is back: events for this node's clients sent while it was away may be lost (a `state`, the
    /// start of a deal), and so may a move. The owner is found afresh and sends each client the whole room,
    /// as if the client had asked (`sync`), so that nobody waits on an event that never came.
    async fn resync(&mut self) {
        self.owner = None;
        let (room, node) = (self.code.clone(), self.cluster.inner.id.clone());
        let conns: Vec<ConnId> = self.attached.keys().copied().collect();
        for conn in conns {
            let sync = ToOwner::Command { room: room.clone(), node: node.clone(), conn, command: Command::Sync };
            if let Err(refused) = self.call(sync).await {
                tracing::warn!(room = %self.code, error = %refused, "could not resend a client its room after NATS came back");
            }
        }
    }

    /// Asks the room's owner, finding it again (and attaching this node's connections to it) as long as it
    /// takes a room to move from a node that died: twice the lease time and a little more.
    async fn call(&mut self, request: ToOwner) -> Result<Answer, Refused> {
        let give_up = Instant::now() + Duration::from_millis(2 * self.cluster.inner.lease_ms + 2_000);
        let mut unreachable = None;
        loop {
            let owner = self.owner().await?;
            if let ToOwner::Connect { conn, .. } = &request
                && let Some(route) = self.cluster.inner.routes.lock().expect("routes lock").get_mut(conn)
            {
                // The state that answers a connection comes from whichever owner takes it.
                route.owner = owner.clone();
            }
            match self.ask(&owner, &request).await {
                Some(Answer::Refused { code, message }) => return Err(Refused::new(code, message)),
                Some(Answer::NoRoom) => {
                    return Err(Refused::new(ErrorCode::UnknownRoom, format!("there is no room {}", self.code)));
                }
                Some(Answer::Unattached) => self.attached_to = None,
                Some(Answer::NotOwner) => self.owner = None,
                None => {
                    self.owner = None;
                    unreachable.get_or_insert_with(Unreachable::start);
                }
                Some(answer) => return Ok(answer),
            }
            if Instant::now() >= give_up {
                return Err(internal(format!("room {} is not answering; try again", self.code)));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The room's owner: as last found, or from the database (this node, which then takes the room, when
    /// nobody alive holds it). This node's connections are attached to it first.
    async fn owner(&mut self) -> Result<String, Refused> {
        let owner = match self.owner.clone() {
            Some(owner) => owner,
            None => {
                let now = self.cluster.inner.clock.now_ms();
                let found = self.cluster.inner.db.room_owner(&self.code, now).await.map_err(|e| {
                    tracing::error!(room = %self.code, error = %e, "could not find a room's owner");
                    internal("the server could not reach its database".into())
                })?;
                let owner = found.unwrap_or_else(|| self.cluster.inner.id.clone());
                self.owner = Some(owner.clone());
                owner
            }
        };
        if self.attached_to.as_ref() != Some(&owner) {
            self.attach_all(&owner).await;
        }
        Ok(owner)
    }

    /// Attaches every connection of this node to `owner` (the room moved), each with its resume token;
    /// the owner sends each a fresh state. A connection the owner refuses is closed (its client
    /// reconnects).
    async fn attach_all(&mut self, owner: &str) {
        let (room, node) = (self.code.clone(), self.cluster.inner.id.clone());
        let conns: Vec<ConnId> = self.attached.keys().copied().collect();
        for conn in conns {
            let Some(attached) = self.attached.get(&conn) else { continue };
            let request = ToOwner::Connect {
                room: room.clone(),
                node: node.clone(),
                conn,
                name: attached.name.clone(),
                token: attached.token.clone(),
                opened_ms: attached.opened_ms,
                origin: attached.origin.clone(),
            };
            if let Some(route) = self.cluster.inner.routes.lock().expect("routes lock").get_mut(&conn) {
                route.owner = owner.to_string();
            }
            match self.ask(owner, &request).await {
                Some(Answer::Joined { token }) => {
                    if let Some(token) = token.clone()
                        && let Some(route) = self.cluster.inner.routes.lock().expect("routes lock").get(&conn)
                    {
                        // The new owner's token, for the client's next reconnection.
                        let _ = route.out.try_send(Event::Session { token }.into());
                    }
                    if let Some(attached) = self.attached.get_mut(&conn) {
                        attached.token = token;
                    }
                }
                // Not there yet, not answering, or unable to load the room (its database is away): found
                // again and attached shortly (`run`), or on the next call or move.
                answer @ (Some(
                    Answer::NotOwner | Answer::Unattached | Answer::Refused { code: ErrorCode::Internal, .. },
                )
                | None) => {
                    tracing::debug!(room = %self.code, owner, ?answer, "could not attach connections to the room's owner");
                    self.owner = None;
                    self.attached_to = None;
                    return;
                }
                Some(Answer::Refused { .. } | Answer::NoRoom | Answer::Delivered | Answer::Replied { .. }) => {
                    // Refused for good (another connection of the name is newer, say): the socket is closed,
                    // and the client reconnects or is told why.
                    self.attached.remove(&conn);
                    self.cluster.close_route(conn);
                }
            }
        }
        tracing::debug!(room = %self.code, owner, connections = self.attached.len(), "attached to the room's owner");
        self.attached_to = Some(owner.to_string());
    }
}

/// A room whose owner does not answer, counted in `ddz_cluster_rooms_unreachable` for as long as a proxy
/// waits for it (or for the room to move).
struct Unreachable;

impl Unreachable {
    fn start() -> Unreachable {
        metrics::gauge!(metrics::ROOMS_UNREACHABLE).increment(1.0);
        Unreachable
    }
}

impl Drop for Unreachable {
    fn drop(&mut self) {
        metrics::gauge!(metrics::ROOMS_UNREACHABLE).decrement(1.0);
    }
}

fn internal(message: String) -> Refused {
    Refused::new(ErrorCode::Internal, message)
}

/// An owner's answer that does not answer what was asked: a bug, reported as the server's own trouble.
fn unexpected(answer: Answer) -> Refused {
    tracing::error!(?answer, "a room's owner answered with the wrong kind of answer");
    internal("the room's server gave an unexpected answer".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_routed_event_reaches_the_serving_node_as_the_json_its_client_reads() {
        let json = serde_json::to_string(&Event::Ack { seq: 7 }).unwrap();
        let owner = "n1-0000abcd".to_string();
        let routed = Routed { owner, conn: FIRST_GUEST + 3, last: false, answer: true, json: Some(json.clone()) };
        let read = Routed::decode(&routed.encode()).unwrap();
        assert_eq!(
            (read.owner.as_str(), read.conn, read.last, read.answer),
            ("n1-0000abcd", FIRST_GUEST + 3, false, true)
        );
        assert_eq!(read.json.as_deref(), Some(json.as_str()));
        // An event may hold new lines of its own: only the first three split.
        let text = Some("{\n\"type\":\"replaced\"\n}".to_string());
        let multiline = Routed { owner: "n2".into(), conn: 1, last: true, answer: false, json: text };
        let read = Routed::decode(&multiline.encode()).unwrap();
        assert_eq!((read.json, read.last, read.answer), (multiline.json, true, false));
        let closed = Routed { owner: "n2".into(), conn: 1, last: false, answer: false, json: None };
        assert_eq!(Routed::decode(&closed.encode()).unwrap().json, None, "the room let the connection go");
        assert!(Routed::decode(b"n2\nnot a number\n0\n{}").is_none());
        assert!(Routed::decode(b"n2\n1\nyes\n{}").is_none(), "flags are a number");
    }

    #[test]
    fn a_room_is_handed_over_only_when_every_one_of_its_clients_is_on_the_same_other_node() {
        let (task, _) = mpsc::channel(1);
        let guest = |node: &str, conn: ConnId, room: &str| {
            ((node.to_string(), conn), Guest { room: room.to_string(), conn, task: task.clone() })
        };
        let guests = HashMap::from([
            guest("b", 1, "ALLONB"),
            guest("b", 2, "ALLONB"),
            guest("b", 3, "SPLIT"),
            guest("c", 4, "SPLIT"),
            guest("a", 5, "HERE"),
            guest("a", 6, "MIXED"),
            guest("c", 7, "MIXED"),
        ]);
        assert_eq!(clients_elsewhere(&guests, "a"), HashMap::from([("ALLONB".to_string(), "b".to_string())]));
    }

    #[test]
    fn a_node_name_becomes_one_subject_token() {
        assert_eq!(subject_token("eu-west.1 a*"), "eu-west_1_a_");
        assert_eq!(subject_token(""), "node");
    }
}
