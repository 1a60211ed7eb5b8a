//! A room's mailbox: the messages its task takes ([`Msg`]), what goes back to each connection
//! ([`Outbound`]), and [`ask`], the one way to put a question to a room and wait for its answer.

use ddz_bot::BotKind;
use ddz_engine::Seat;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::domain::fairness::Origin;
use crate::domain::names::PlayerName;
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

/// What a room's task takes: a client's connection, what its clients do, and the requests of handlers.
/// The serialisable part of each ([`Hello`], [`FromClient`], [`Request`]) is the same on every node: the
/// cluster carries it to the room's owner as it is ([`Mail`]), and only the channels an answer goes back
/// by are made afresh there.
pub enum Msg {
    /// A client enters ([`Hello`]). Its events go to `out`; the answer is the name's resume token (none
    /// for a spectator).
    Connect {
        hello: Hello,
        out: mpsc::Sender<Outbound>,
        reply: oneshot::Sender<Result<Option<String>, Refused>>,
    },
    /// What a connected client did: nothing is answered (its events say what came of it).
    Client(FromClient),
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

/// A client entering a room: as `name`, or with `None` as a spectator. A name already connected is
/// refused, unless `token` is the name's resume token: then the new connection replaces the old one at
/// once, if it is the newer one. Connections of a name are ordered by `opened_ms`, when the serving node
/// read the socket's hello, not by arrival: a connect retried late (an abandoned socket's, relayed after a
/// failover) never displaces a newer live connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub conn: ConnId,
    pub name: Option<PlayerName>,
    pub token: Option<String>,
    pub opened_ms: u64,
    /// Where the client connects from (its address and browser), for the rating's fair play.
    #[serde(default)]
    pub origin: Origin,
}

/// What a connected client does, unanswered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromClient {
    Command {
        conn: ConnId,
        command: Command,
    },
    /// The client's socket closed.
    Disconnect {
        conn: ConnId,
    },
}

impl FromClient {
    pub fn conn(&self) -> ConnId {
        match self {
            FromClient::Command { conn, .. } | FromClient::Disconnect { conn } => *conn,
        }
    }

    /// The same, from connection `conn` (the number the room's owner knows a relayed connection by).
    pub fn from_conn(self, conn: ConnId) -> FromClient {
        match self {
            FromClient::Command { command, .. } => FromClient::Command { conn, command },
            FromClient::Disconnect { .. } => FromClient::Disconnect { conn },
        }
    }
}

/// The serialisable part of a [`Msg`]: what a serving node sends a room's owner. The owner puts it in the
/// room's inbox as a [`Msg`] with channels of its own (the owner's gateway is the only translation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mail", content = "body", rename_all = "snake_case")]
pub enum Mail {
    Connect(Hello),
    Client(FromClient),
    Request(Request),
}

/// A question a handler puts to a room, the same on every node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Seat `name` in the first free seat (Play vs 2 Bots, public tables from the lobby page).
    Seat { name: PlayerName },
    /// Fill every empty seat with a bot of `level`.
    AddBots { level: BotKind },
    /// Deal the next deal.
    Start,
    /// The room as a spectator sees it (a sealed rally's without its deals).
    View,
    /// A challenge room: seat its player, fill the other seats with its bots, and deal the first deal, as
    /// far as not done yet (a new run, or one resumed after a restart interrupted its setting up).
    SetUpChallenge,
    /// A tournament's table: seat the drawn players and bots, by seat, where a seat is still empty.
    SetUpTable { seats: Vec<TableSeat> },
    /// A tournament's table: deal deal `number` if it is the next and none is being dealt or played
    /// (so that a request repeated, by this node or another, never deals one too many).
    StartDeal { number: u32 },
    /// A tournament's table whose round is over: close it.
    CloseTable,
}

/// Who a tournament draws into a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableSeat {
    Player { name: PlayerName },
    Bot { level: BotKind },
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

/// How many times a message is put to a room whose task keeps retiring as the message reaches it.
const TRIES: usize = 3;

/// Puts a message to a room's task with `attempt`, which answers `None` when the task stopped before
/// answering (it retired as the message reached it, or the server is stopping): the room's inbox is then
/// found again with `find` (which loads the room afresh) and the message put again, up to three times.
/// The one way every path asks a room: handlers and clients here, and an owner for another node.
pub async fn ask_retrying<T, E, Found, Answered>(
    mut find: impl FnMut() -> Found,
    mut attempt: impl FnMut(mpsc::Sender<Msg>) -> Answered,
) -> Result<Option<T>, E>
where
    Found: Future<Output = Result<mpsc::Sender<Msg>, E>>,
    Answered: Future<Output = Option<T>>,
{
    for _ in 0..TRIES {
        let inbox = find().await?;
        if let Some(answer) = attempt(inbox).await {
            return Ok(Some(answer));
        }
    }
    Ok(None)
}
