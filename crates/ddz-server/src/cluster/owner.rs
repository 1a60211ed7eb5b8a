//! The owner's side: the rooms this node runs, as the other nodes (and this node's own proxies) reach
//! them. A request's [`Mail`] goes into the room task's inbox with channels made here; each relayed
//! connection's events go back to the node that serves its client; and a room whose clients are all on
//! another node is handed to that node.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;

use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::messages::{Answer, Routed, ToOwner};
use super::{Cluster, HAND_OVER_EVERY};
use crate::background::Background;
use crate::domain::room::RoomCode;
use crate::metrics;
use crate::room::{ConnId, FromClient, Hello, Mail, Msg, OUTBOX, Outbound, ask, ask_retrying};
use crate::rooms::{Owned, Rooms};
use crate::wire::protocol::{ErrorCode, Event};

/// A serving node's connection attached to a room here: the room, the number its task knows it by, and
/// that task's inbox. A task of the room started since (the room was let go and taken again) does not know
/// the number: a command for it must not be handed to that task, where it would vanish, but answered
/// [`Answer::Unattached`], so that the serving node attaches the connection again and resends it.
pub(super) struct Guest {
    room: RoomCode,
    conn: ConnId,
    task: mpsc::Sender<Msg>,
}

impl Guest {
    /// Whether the guest is attached to room `room`'s task whose inbox is `inbox`.
    fn of(&self, room: &RoomCode, inbox: &mpsc::Sender<Msg>) -> bool {
        self.room == *room && self.task.same_channel(inbox)
    }

    /// Tells the room's task that the connection left.
    async fn leave(self) {
        let _ = self.task.send(Msg::Client(FromClient::Disconnect { conn: self.conn })).await;
    }
}

/// Where a room is, as an answer to another node: its inbox here, or the answer that says why not.
fn here(owned: Result<Owned, crate::store::StoreError>, room: &RoomCode) -> Result<mpsc::Sender<Msg>, Answer> {
    match owned {
        Ok(Owned::Here(inbox)) => Ok(inbox),
        Ok(Owned::Elsewhere) => Err(Answer::NotOwner),
        Ok(Owned::Missing) => Err(Answer::NoRoom),
        Err(e) => {
            tracing::error!(%room, error = %e, "could not load a room for another node");
            Err(Answer::from(e.refusal()))
        }
    }
}

impl Cluster {
    /// Owner side: one request from another node's proxy.
    pub(super) async fn answer(&self, rooms: &Rooms, payload: &[u8]) -> Answer {
        match serde_json::from_slice::<ToOwner>(payload) {
            Ok(request) => self.answer_request(rooms, request).await,
            Err(e) => Answer::Refused { code: ErrorCode::BadMessage, message: e.to_string() },
        }
    }

    /// Owner side: one request from a proxy, of this node or another.
    pub(super) async fn answer_request(&self, rooms: &Rooms, request: ToOwner) -> Answer {
        let ToOwner { room, node, mail } = request;
        // Attaching a connection checks that a task running here still holds the room (a room handed back
        // to a node that lost it may find that node's stale task still running).
        let connecting = matches!(mail, Mail::Connect(_));
        let find = || async {
            let owned = match connecting {
                true => rooms.owned_inbox_checked(&room).await,
                false => rooms.owned_inbox(&room).await,
            };
            here(owned, &room)
        };
        let deliver = |inbox| self.deliver(inbox, &room, &node, mail.clone(), rooms.background());
        match ask_retrying(find, deliver).await {
            Ok(Some(answer)) | Err(answer) => answer,
            // The room's task kept retiring: the proxy asks again, of whichever node owns it by then.
            Ok(None) => Answer::NotOwner,
        }
    }

    /// Hands node `node`'s mail to the room's task, as the task's own [`Msg`]; `None` when the task
    /// stopped before answering.
    async fn deliver(
        &self,
        inbox: mpsc::Sender<Msg>,
        room: &RoomCode,
        node: &str,
        mail: Mail,
        background: Background,
    ) -> Option<Answer> {
        match mail {
            Mail::Connect(hello) => {
                let key = (node.to_string(), hello.conn);
                // The same connection attached again (its node lost track of this owner: NATS came back,
                // or a request found it unattached): the earlier attachment goes first and quietly, or
                // the room would take it for another tab and tell the player they were replaced.
                let earlier = self.guests().remove(&key);
                if let Some(earlier) = earlier.filter(|earlier| earlier.of(room, &inbox)) {
                    let gone = FromClient::Disconnect { conn: earlier.conn };
                    inbox.send(Msg::Client(gone)).await.ok()?;
                }
                let guest = self.inner.next_guest.fetch_add(1, Ordering::Relaxed);
                let (out, events) = mpsc::channel(OUTBOX);
                let (reply, joined) = oneshot::channel();
                inbox.send(Msg::Connect { hello: Hello { conn: guest, ..hello }, out, reply }).await.ok()?;
                let joined = joined.await.ok()?;
                if joined.is_ok() {
                    let attached = Guest { room: room.clone(), conn: guest, task: inbox.clone() };
                    let earlier = self.guests().insert(key.clone(), attached);
                    if let Some(earlier) = earlier {
                        // Attached twice at once: the later attachment stands.
                        earlier.leave().await;
                    }
                    background.spawn(self.clone().relay(events, key, guest, background.stopping().clone()));
                }
                Some(joined.map_or_else(Answer::from, |token| Answer::Joined { token }))
            }
            Mail::Client(FromClient::Disconnect { conn }) => {
                let guest = self.guests().remove(&(node.to_string(), conn));
                if let Some(guest) = guest {
                    guest.leave().await;
                }
                Some(Answer::Delivered)
            }
            Mail::Client(said) => {
                let guest = {
                    let mut guests = self.guests();
                    let key = (node.to_string(), said.conn());
                    match guests.get(&key) {
                        Some(guest) if guest.of(room, &inbox) => Some(guest.conn),
                        // Attached to a task of the room that has ended since: forgotten, and attached again.
                        Some(guest) if guest.room == *room => {
                            guests.remove(&key);
                            None
                        }
                        _ => None,
                    }
                };
                let Some(guest) = guest else { return Some(Answer::Unattached) };
                inbox.send(Msg::Client(said.from_conn(guest))).await.ok()?;
                Some(Answer::Delivered)
            }
            Mail::Request(request) => ask(&inbox, |reply| Msg::Request { request, reply })
                .await
                .map(|replied| replied.map_or_else(Answer::from, |reply| Answer::Replied { reply })),
        }
    }

    pub(super) fn guests(&self) -> std::sync::MutexGuard<'_, HashMap<(String, ConnId), Guest>> {
        self.inner.guests.lock().expect("guests lock")
    }

    /// Lets go of the connections of clients whose node died.
    pub(super) async fn forget_guests_of_dead_nodes(&self, live: &HashSet<String>) {
        let gone: Vec<((String, ConnId), Guest)> = {
            let mut guests = self.guests();
            let dead: Vec<(String, ConnId)> = guests.keys().filter(|(node, _)| !live.contains(node)).cloned().collect();
            dead.into_iter().filter_map(|key| guests.remove(&key).map(|guest| (key, guest))).collect()
        };
        for ((node, conn), guest) in gone {
            guest.leave().await;
            // A node whose lease only looked run out (the database was away a while) is still serving the
            // client: told the room let it go, it closes the socket, and the client reconnects.
            let routed = Routed { owner: self.inner.id.clone(), conn, last: false, answer: false, json: None };
            self.send_event(&node, routed).await;
        }
    }

    /// Owner side: sends one connection's events to the node that serves its client, until the room lets
    /// the connection go; then says so (unless this node is stopping: its rooms move instead).
    async fn relay(
        self,
        mut events: mpsc::Receiver<Outbound>,
        key: (String, ConnId),
        guest: ConnId,
        stopping: CancellationToken,
    ) {
        let owner = self.inner.id.clone();
        let (node, conn) = (key.0.as_str(), key.1);
        let mut moved = false;
        while let Some(outbound) = events.recv().await {
            if let Outbound::Moved = outbound {
                moved = true;
                break;
            }
            let answer = matches!(outbound, Outbound::Event(Event::Ack { .. } | Event::Error { .. }));
            let (json, last) = outbound.into_json();
            let routed = Routed { owner: owner.clone(), conn, last, answer, json: Some(json) };
            if !self.send_event(node, routed).await {
                break;
            }
        }
        let ours = self.guests().get(&key).is_some_and(|g| g.conn == guest);
        if ours && !stopping.is_cancelled() {
            self.guests().remove(&key);
            // A room handed over goes on at its new owner, where the client's node attaches the connection
            // as the move is announced: the socket stays open.
            if !moved {
                self.send_event(node, Routed { owner, conn, last: false, answer: false, json: None }).await;
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

    /// Every [`HAND_OVER_EVERY`]: hands each room that runs here to the node all its clients are on, when
    /// they were there at the previous look too, so that a room whose players are reconnecting is not moved
    /// back and forth. A balancer routing by room (`/ws?room=CODE`) sends a room's players to one node; once
    /// that node owns the room, the room's events stay inside it and NATS carries none of them.
    pub(super) async fn hand_over_rooms(&self, rooms: Rooms) {
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
            let steady: Vec<(RoomCode, String)> = now
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
                        Err(e) => tracing::warn!(%room, to = node, error = %e, "could not hand a room over"),
                    }
                }
            }
            before = now;
        }
    }
}

/// The rooms whose every connection (`guests`, by node) is on one node other than `here`, with that node.
fn clients_elsewhere(guests: &HashMap<(String, ConnId), Guest>, here: &str) -> HashMap<RoomCode, String> {
    let mut nodes: HashMap<&RoomCode, Option<&str>> = HashMap::new();
    for ((node, _), Guest { room, .. }) in guests {
        let one = nodes.entry(room).or_insert(Some(node.as_str()));
        if *one != Some(node.as_str()) {
            *one = None;
        }
    }
    nodes
        .into_iter()
        .filter_map(|(room, node)| Some((room.clone(), node.filter(|node| *node != here)?.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_is_handed_over_only_when_every_one_of_its_clients_is_on_the_same_other_node() {
        let (task, _) = mpsc::channel(1);
        let guest = |node: &str, conn: ConnId, room: &str| {
            ((node.to_string(), conn), Guest { room: RoomCode::from(room), conn, task: task.clone() })
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
        assert_eq!(clients_elsewhere(&guests, "a"), HashMap::from([(RoomCode::from("ALLONB"), "b".to_string())]));
    }
}
