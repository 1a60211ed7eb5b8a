//! A room's mailbox: the messages its task takes ([`Msg`]), what goes back to each connection
//! ([`Outbound`]), and [`ask`], the one way to put a question to a room and wait for its answer.

use ddz_bot::BotKind;
use ddz_engine::Seat;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::domain::fairness::Origin;
use crate::store::Fence;
use crate::wire::protocol::{Command, Event, Refused, RoomView};

/// Room inbox capacity.
pub const INBOX: usize = 256;

pub type ConnId = u64;

/// What a connection's client loop writes to its socket: an event, or (in cluster mode, relayed from the
/// room's owner) an event already written as JSON, with whether it is the connection's last.
#[derive(Debug)]
pub enum Outbound {
    Event(Event),
    Json {
        text: String,
        last: bool,
    },
    /// Cluster mode: the room was handed to another node ([`Msg::HandOver`]), and this connection's
    /// events end here; the node that serves it attaches it to the new owner without the client noticing.
    /// A socket that reads it directly is told to reconnect (`restarting`).
    Moved,
}

impl Outbound {
    /// The event as the client reads it, and whether the connection ends after it (`replaced`,
    /// `restarting`).
    pub fn into_json(self) -> (String, bool) {
        match self {
            Outbound::Event(event) => {
                let last = matches!(event, Event::Replaced | Event::Restarting);
                (serde_json::to_string(&event).expect("events serialise"), last)
            }
            Outbound::Json { text, last } => (text, last),
            Outbound::Moved => Outbound::Event(Event::Restarting).into_json(),
        }
    }
}

impl From<Event> for Outbound {
    fn from(event: Event) -> Outbound {
        Outbound::Event(event)
    }
}

/// What a room's task takes: a client's connection, commands and departure, and the requests of handlers
/// and other nodes. The cluster forwards the same [`Request`]s and [`Reply`]s between nodes.
pub enum Msg {
    /// A client enters: as `name`, or with `None` as a spectator. A name already connected is refused,
    /// unless `token` is the name's resume token: then the new connection replaces the old one at once,
    /// if it is the newer one. Connections of a name are ordered by `opened_ms`, when the serving node
    /// read the socket's hello, not by arrival: a connect retried late (an abandoned socket's, relayed
    /// after a failover) never displaces a newer live connection.
    Connect {
        conn: ConnId,
        name: Option<String>,
        token: Option<String>,
        opened_ms: u64,
        /// Where the client connects from (its address and browser), for the rating's fair play.
        origin: Origin,
        out: mpsc::Sender<Outbound>,
        /// The name's resume token (none for a spectator).
        reply: oneshot::Sender<Result<Option<String>, Refused>>,
    },
    Disconnect {
        conn: ConnId,
    },
    Command {
        conn: ConnId,
        command: Command,
    },
    Request {
        request: Request,
        reply: oneshot::Sender<Result<Reply, Refused>>,
    },
    /// Cluster mode: the room's clients are all on another node, so the task ends to let that node own the
    /// room. It ends only with nothing else waiting in its inbox, sends each connection [`Outbound::Moved`]
    /// and answers with its fence, for the directory to hand the room on in the database; `None`: it
    /// carries on here.
    HandOver {
        reply: oneshot::Sender<Option<Fence>>,
    },
    /// Cluster mode: another node took the room since this task started (its node found out before the
    /// task did): the task ends at once, as when a store of its is refused by the fence.
    Fenced,
}

/// A question a handler puts to a room, the same on every node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Seat `name` in the first free seat (Play vs 2 Bots, public tables from the lobby page).
    Seat { name: String },
    /// Fill every empty seat with a bot of `level`.
    AddBots { level: BotKind },
    /// Deal the next deal.
    Start,
    /// The room as a spectator sees it (a sealed rally's without its deals).
    View,
    /// A challenge room: seat its player, fill the other seats with its bots, and deal the first deal, as
    /// far as not done yet (a new run, or one resumed after a restart interrupted its setting up).
    SetUpChallenge,
}

/// A room's answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// [`Request::Seat`]: the seat taken (or already held).
    Seated { seat: Seat },
    /// [`Request::View`].
    View { view: Box<RoomView> },
    /// Anything else, done.
    Done,
}

/// Events queued for one client before it counts as too slow.
pub const OUTBOX: usize = 64;

/// Sends `make`'s message to a room's inbox and waits for the answer; `None` when the task stopped
/// before answering (it retired, or the server is stopping): the caller may load the room and ask again.
pub async fn ask<T>(inbox: &mpsc::Sender<Msg>, make: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    inbox.send(make(reply)).await.ok()?;
    answer.await.ok()
}
