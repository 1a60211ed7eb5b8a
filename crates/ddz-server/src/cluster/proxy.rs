//! The serving side: on each node, a room in use has a proxy where a single server has the room's task.
//! It takes the same messages ([`Msg`]) from the node's client loops and handlers and sends their
//! [`Mail`] to the room's owner, wherever it is, finding the owner again (and attaching this node's
//! connections to it) when the room moves. The owner's events for this node's clients arrive by their
//! routes ([`Route`]).

use std::collections::HashMap;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::messages::{Answer, Routed, ToOwner};
use super::{Cluster, REATTACH_EVERY};
use crate::domain::room::RoomCode;
use crate::metrics;
use crate::room::{ConnId, FromClient, Hello, Mail, Msg, Outbound, Registry, sleep_until};
use crate::rooms::ProxyEnv;
use crate::wire::protocol::{Command, ErrorCode, Event, Refused};

/// A client's events: from which owner they are taken, and where they go.
pub(super) struct Route {
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

impl Cluster {
    /// Starts this node's proxy of room `code`.
    pub(super) fn start_proxy(
        &self,
        code: &RoomCode,
        inbox: mpsc::Receiver<Msg>,
        registry: Registry,
        task: u64,
        env: ProxyEnv,
    ) {
        let background = env.background.clone();
        let proxy = Proxy {
            code: code.clone(),
            cluster: self.clone(),
            inbox,
            owner: None,
            attached_to: None,
            attached: HashMap::new(),
            registry,
            task,
            env,
        };
        background.spawn(proxy.run());
    }

    /// Serving side: an event from a room's owner to one of this node's clients.
    pub(super) fn route(&self, routed: Routed) {
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

/// Where a room in use on this node sends its messages: to the room's owner.
struct Proxy {
    code: RoomCode,
    cluster: Cluster,
    inbox: mpsc::Receiver<Msg>,
    /// The room's owner, as last found.
    owner: Option<String>,
    /// The owner this node's connections are attached to.
    attached_to: Option<String>,
    /// This node's connections to the room, each as its client said hello (with the latest resume token).
    attached: HashMap<ConnId, Hello>,
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
        let stopping = self.env.background.stopping().clone();
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
        match msg {
            Msg::Connect { hello, out, reply } => {
                // The route first: the owner sends the state at once, maybe before its answer arrives.
                let owner = match self.owner().await {
                    Ok(owner) => owner,
                    Err(refused) => {
                        let _ = reply.send(Err(refused));
                        return;
                    }
                };
                let conn = hello.conn;
                self.cluster.inner.routes.lock().expect("routes lock").insert(conn, Route { owner, out });
                let joined = self.call(Mail::Connect(hello.clone())).await.and_then(|answer| match answer {
                    Answer::Joined { token } => Ok(token),
                    other => Err(Refused::unexpected(&other)),
                });
                match &joined {
                    Ok(token) => {
                        self.attached.insert(conn, Hello { token: token.clone(), ..hello });
                    }
                    Err(_) => {
                        self.cluster.inner.routes.lock().expect("routes lock").remove(&conn);
                    }
                }
                let _ = reply.send(joined);
            }
            Msg::Client(FromClient::Disconnect { conn }) => {
                self.cluster.inner.routes.lock().expect("routes lock").remove(&conn);
                if self.attached.remove(&conn).is_some()
                    && let Some(owner) = self.attached_to.clone()
                {
                    // One try: an owner that is gone has forgotten the connection anyway.
                    let _ = self.ask(&owner, Mail::Client(FromClient::Disconnect { conn })).await;
                }
            }
            Msg::Client(said) => {
                let conn = said.conn();
                if let Err(refused) = self.call(Mail::Client(said)).await {
                    // The owner could not be reached in time: the client reconnects and gets a snapshot.
                    tracing::warn!(room = %self.code, error = %refused, "dropping a client whose room cannot be reached");
                    self.cluster.close_route(conn);
                    self.attached.remove(&conn);
                }
            }
            Msg::Request { request, reply } => {
                let replied = self.call(Mail::Request(request)).await.and_then(|answer| match answer {
                    Answer::Replied { reply } => Ok(reply),
                    other => Err(Refused::unexpected(&other)),
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
    async fn ask(&self, owner: &str, mail: Mail) -> Option<Answer> {
        let request = ToOwner { room: self.code.clone(), node: self.cluster.inner.id.clone(), mail };
        if owner == self.cluster.inner.id {
            return Some(self.cluster.answer_request(&self.env.rooms, request).await);
        }
        self.cluster.request(owner, &request).await
    }

    /// NATS is back: events for this node's clients sent while it was away may be lost (a `state`, the
    /// start of a deal), and so may a move. The owner is found afresh and sends each client the whole room,
    /// as if the client had asked (`sync`), so that nobody waits on an event that never came.
    async fn resync(&mut self) {
        self.owner = None;
        let conns: Vec<ConnId> = self.attached.keys().copied().collect();
        for conn in conns {
            let sync = Mail::Client(FromClient::Command { conn, command: Command::Sync });
            if let Err(refused) = self.call(sync).await {
                tracing::warn!(room = %self.code, error = %refused, "could not resend a client its room after NATS came back");
            }
        }
    }

    /// Asks the room's owner, finding it again (and attaching this node's connections to it) as long as it
    /// takes a room to move from a node that died: twice the lease time and a little more.
    async fn call(&mut self, mail: Mail) -> Result<Answer, Refused> {
        let give_up = Instant::now() + Duration::from_millis(2 * self.cluster.inner.lease_ms + 2_000);
        let mut unreachable = None;
        loop {
            let owner = self.owner().await?;
            if let Mail::Connect(Hello { conn, .. }) = &mail
                && let Some(route) = self.cluster.inner.routes.lock().expect("routes lock").get_mut(conn)
            {
                // The state that answers a connection comes from whichever owner takes it.
                route.owner = owner.clone();
            }
            match self.ask(&owner, mail.clone()).await {
                Some(Answer::Refused { code, message }) => return Err(Refused::new(code, message)),
                Some(Answer::NoRoom) => return Err(Refused::no_room(&self.code)),
                Some(Answer::Unattached) => self.attached_to = None,
                Some(Answer::NotOwner) => self.owner = None,
                None => {
                    self.owner = None;
                    unreachable.get_or_insert_with(Unreachable::start);
                }
                Some(answer) => return Ok(answer),
            }
            if Instant::now() >= give_up {
                let message = format!("room {} is not answering; try again", self.code);
                return Err(Refused::new(ErrorCode::RoomUnreachable, message));
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
                let found = self.cluster.inner.db.room_owner(&self.code, now).await?;
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
        let conns: Vec<ConnId> = self.attached.keys().copied().collect();
        for conn in conns {
            let Some(hello) = self.attached.get(&conn).cloned() else { continue };
            if let Some(route) = self.cluster.inner.routes.lock().expect("routes lock").get_mut(&conn) {
                route.owner = owner.to_string();
            }
            match self.ask(owner, Mail::Connect(hello)).await {
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
                // Not there yet, not answering, unable to load the room (its database is away), or the room
                // moved on as it was asked: found again and attached shortly (`run`), or on the next call or
                // move.
                answer @ (Some(
                    Answer::NotOwner
                    | Answer::Unattached
                    | Answer::Refused { code: ErrorCode::DatabaseUnavailable | ErrorCode::RoomMoved, .. },
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
