//! One task per room, the only owner of that room's state, fed through a bounded inbox.
//!
//! Every change goes the same way: checked against the room, stamped with the room clock, stored in the
//! database, applied, and only then broadcast, each connection getting the room as its own seat may see
//! it. Clocks are inputs: the task sleeps until the next deadline (a bot's move, a turn's 40 seconds, the
//! deal limit) and then produces the action itself.
//!
//! A task ends when the server stops (after the message in hand, so a commit in flight completes), and
//! by itself when its room has been idle for a while: nobody connected and no clock running. A store
//! that fails is retried with growing pauses, never in a tight loop.

use std::collections::HashMap;

use ddz_bot::BotKind;
use ddz_engine::{Action, Seat, Seed, TableType};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Duration, Instant};

use super::Summaries;
use super::mailbox::{ConnId, FromClient, Hello, Msg, Outbound, Reply, Request, TableSeat};
use super::registry::Registry;
use crate::background::{Background, back_off_ms};
use crate::clock::Clock;
use crate::domain::challenge::{rally_closed, rally_expiry_ms, rally_setup, sealed_rally};
use crate::domain::fairness::{Integrity, Origin, Unrated, Verdict};
use crate::domain::names::NameKey;
use crate::domain::rating::{NEW_PLAYER, bot_skill};
use crate::domain::room::{Entry, Mode, Occupant, Room, RoomError, Stamped};
use crate::metrics;
use crate::store::{Append, Db, Fence, StoreError};
use crate::wire::pages::Summary;
use crate::wire::protocol::{CHAT_EVERY_MS, Chat, Command, Deadlines, ErrorCode, Event, Refused, RoomView};
use crate::work::Pool;

mod clocks;
mod connections;
pub mod mining;
mod verdicts;

/// The room clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// How long a human has for each turn before the bot plays it: 40 seconds.
    pub turn_ms: u64,
    /// No Shuffle and Two Player deals end with no winner after five minutes.
    pub deal_limit_ms: u64,
    /// Bots think for `bot_min_ms` plus up to `bot_span_ms`: 0.5 to 1.5 seconds.
    pub bot_min_ms: u64,
    pub bot_span_ms: u64,
    /// Between deals, a host away this long hands the host's role to a connected player: two minutes.
    pub host_away_ms: u64,
    /// A room with nobody connected and no clock running ends its task after this long: one minute.
    pub idle_ms: u64,
    /// After committing to a deal, how long the room waits for the connected players' nonces before it
    /// deals without the missing ones: two seconds (a browser answers in one round trip). 0: no wait,
    /// the server's seed alone deals (docs/fair-deals.md).
    pub nonce_ms: u64,
    /// Quick match: how long the longest-waiting player waits for people before bots fill the empty
    /// seats: ten seconds.
    pub match_fill_ms: u64,
    /// A tournament table's player away this long has the bot play their turns until they return: 15 s.
    pub away_ms: u64,
    /// A tournament table's pause between one deal's end and the next deal: five seconds to see the result.
    pub between_deals_ms: u64,
}

impl Timing {
    /// The clocks as players meet them.
    pub const DEFAULT: Timing = Timing {
        turn_ms: 40_000,
        deal_limit_ms: 5 * 60_000,
        bot_min_ms: 500,
        bot_span_ms: 1000,
        host_away_ms: 120_000,
        idle_ms: 60_000,
        nonce_ms: 2_000,
        match_fill_ms: 10_000,
        away_ms: 15_000,
        between_deals_ms: 5_000,
    };
}

impl Default for Timing {
    fn default() -> Self {
        Timing::DEFAULT
    }
}

/// What a room task runs with besides its room. It ends when the server stops, or by retiring from
/// the registry when idle.
pub struct TaskEnv {
    pub registry: Registry,
    /// This task's number in the registry.
    pub task: u64,
    /// The server's tasks: the task ends when it is told to stop; its bots think on helper tasks here.
    pub background: Background,
    pub idle_ms: u64,
    /// Where bots think (never on the async workers).
    pub pool: Pool,
    /// Spectators this room takes ([`crate::Guards::spectators`]).
    pub spectators: usize,
    /// Cluster mode: the room's ownership, checked by every append, and where its summary goes for every
    /// node's lobby.
    pub fence: Option<Fence>,
    pub summaries_out: Option<mpsc::UnboundedSender<Summary>>,
    /// Puzzles are mined from the deals finished here (`mining.rs`); none when the server does not.
    pub mining: Option<mining::Mining>,
}
struct Connection {
    /// `None`: a spectator, who watches without a name and can never take a seat.
    name: Option<String>,
    /// The name's key ([`crate::domain::names::PlayerName::key`]), read once at the edge.
    key: Option<NameKey>,
    out: mpsc::Sender<Outbound>,
    /// When the serving node read the socket's hello ([`Msg::Connect`]).
    opened_ms: u64,
    /// The deal (its starting entry) and how many of its actions this client has been sent: later
    /// states send only the actions after those (the rest of the view is small).
    sent_actions: Option<SentActions>,
}

/// A deal's starting entry and how many of its actions a connection has.
type SentActions = (u64, usize);

pub struct RoomTask {
    room: Room,
    db: Db,
    clock: Clock,
    timing: Timing,
    inbox: mpsc::Receiver<Msg>,
    connections: HashMap<ConnId, Connection>,
    summaries: Summaries,
    /// Since when the host has not been connected (ms since the epoch), if they are away.
    host_away_since: Option<u64>,
    /// Resume tokens by name (lower-cased): whoever holds one may replace that name's connection.
    tokens: HashMap<NameKey, String>,
    /// Stores that failed in a row, and when the last one did (ms since the epoch).
    store_failures: u32,
    failed_at: u64,
    env: TaskEnv,
    /// A bot's decision being worked out on the pool, for the room as it was at entry `at`.
    thinking: Option<Thinking>,
    /// Another node has taken the room: this task can never store again, and ends.
    fenced: bool,
    /// The room is being handed to another node ([`Msg::HandOver`]): the task ends, then answers.
    handing_over: Option<oneshot::Sender<Option<Fence>>>,
    /// When each seat last chatted (ms since the epoch), for the quick-chat pace.
    chatted_at: HashMap<Seat, u64>,
    /// The seated players' ratings in this room's family, in points, by name key: read when the task
    /// starts, when a player sits and after every rated deal, and shown on the seats.
    ratings: HashMap<NameKey, i32>,
    /// Where each name last connected from (by name key): players of one address or browser do not
    /// count together (`crate::domain::fairness`).
    origins: HashMap<NameKey, Origin>,
    /// The flagged pairs among the seated players (name keys), read as each deal is dealt.
    flagged: Vec<(NameKey, NameKey)>,
    /// The seats whose players left after the current offer was made: the offer stops waiting for them.
    departed: Vec<Seat>,
    /// The last finished deal's verdicts, by seat, with the entry that started that deal: the result
    /// panel says what the deal did to each rating.
    verdicts: Option<(u64, Vec<Option<Verdict>>)>,
    /// When this task started, and when each name (by key) last lost its last connection: a tournament
    /// table's player away [`Timing::away_ms`] has the bot play their turns until they return.
    opened_at: u64,
    left_at: HashMap<NameKey, u64>,
}

/// A bot's move in the making: the seat, whether it covers a human who timed out, the entry number it was
/// asked at, and where the answer arrives.
struct Thinking {
    seat: Seat,
    timed_out: bool,
    at: u64,
    answer: oneshot::Receiver<Option<Action>>,
}

/// How a connection sees the room: from its seat (if any), and as its host or not.
type Reader = (Option<Seat>, bool);

impl Connection {
    /// Whether this connection plays as the name whose key is `key`.
    fn is(&self, key: &NameKey) -> bool {
        self.key.as_ref() == Some(key)
    }

    /// The seat this connection's name holds, if any.
    fn seat_in(&self, room: &Room) -> Option<Seat> {
        room.human_seat_of(self.key.as_ref()?)
    }

    /// How this connection sees the room.
    fn reads(&self, room: &Room) -> Reader {
        (self.seat_in(room), self.key.as_ref().is_some_and(|key| room.is_host(key)))
    }
}

impl RoomTask {
    pub fn new(
        room: Room,
        db: Db,
        clock: Clock,
        timing: Timing,
        inbox: mpsc::Receiver<Msg>,
        summaries: Summaries,
        env: TaskEnv,
    ) -> RoomTask {
        let host_away_since = Some(clock.now_ms());
        RoomTask {
            room,
            db,
            clock,
            timing,
            inbox,
            connections: HashMap::new(),
            summaries,
            host_away_since,
            tokens: HashMap::new(),
            store_failures: 0,
            failed_at: 0,
            env,
            thinking: None,
            fenced: false,
            handing_over: None,
            chatted_at: HashMap::new(),
            ratings: HashMap::new(),
            origins: HashMap::new(),
            flagged: Vec::new(),
            departed: Vec::new(),
            verdicts: None,
            opened_at: clock.now_ms(),
            left_at: HashMap::new(),
        }
    }

    pub async fn run(mut self) {
        metrics::gauge!(metrics::ROOMS).increment(1);
        self.publish_summary();
        self.refresh_ratings().await;
        let stopping = self.env.background.stopping().clone();
        loop {
            if self.fenced {
                tracing::warn!(room = %self.room.code, "another node took this room: its task here ends");
                metrics::counter!(metrics::ROOMS_FENCED).increment(1);
                self.env.registry.remove(&self.room.code, self.env.task);
                break;
            }
            if self.handing_over.is_some() {
                break;
            }
            // A challenge ends by itself at its limit, and an unfinished rally when it expires (also when a
            // restart finds them there).
            let expired = self.rally_closed();
            if (self.room.challenge_over() || expired) && !self.room.closed && self.store_failures == 0 {
                let _ = self.commit(Entry::Close).await;
            }
            let deadline = self.next_deadline();
            let idle = (deadline.is_none() && self.connections.is_empty() && self.thinking.is_none())
                .then(|| Instant::now() + Duration::from_millis(self.env.idle_ms));
            tokio::select! {
                biased;
                _ = stopping.cancelled() => {
                    self.env.registry.remove(&self.room.code, self.env.task);
                    break;
                }
                msg = self.inbox.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => break,
                },
                _ = sleep_until(deadline), if deadline.is_some() => self.on_clock().await,
                _ = sleep_until(idle), if idle.is_some() => {
                    if self.env.registry.retire(&self.room.code, self.env.task, &self.inbox) {
                        break;
                    }
                }
                answer = thought(&mut self.thinking), if self.thinking.is_some() => self.on_thought(answer).await,
            }
        }
        // Whatever reached the inbox as the task retired is dropped: its senders see the room stop and ask
        // again, which loads the room afresh.
        // Each client loop tells its own client the server is restarting.
        self.inbox.close();
        if let Some(handed) = self.handing_over.take() {
            for (_, connection) in self.connections.drain() {
                let _ = connection.out.try_send(Outbound::Moved);
            }
            let _ = handed.send(self.env.fence.clone());
        } else if let Some(fence) = &self.env.fence
            // A cluster node lets an idle room go, so that a node that dies later leaves it nothing to take on.
            && !self.fenced
            && !stopping.is_cancelled()
            && let Err(e) = self.db.release_room(&self.room.code, fence).await
        {
            tracing::warn!(room = %self.room.code, error = %e, "could not let the room go");
        }
        metrics::gauge!(metrics::ROOMS).decrement(1);
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Connect { hello: Hello { conn, name: None, opened_ms, .. }, out, reply } => {
                if let Some(date) = self.sealed_rally() {
                    let _ = reply.send(Err(Refused::rally_open(date)));
                    return;
                }
                let most = self.env.spectators;
                if self.connections.values().filter(|c| c.name.is_none()).count() >= most {
                    let refused = Refused::new(
                        ErrorCode::TooManyWatching,
                        format!("{most} spectators are watching this table already"),
                    );
                    let _ = reply.send(Err(refused));
                    return;
                }
                let watcher = Connection { name: None, key: None, out, opened_ms, sent_actions: None };
                self.connections.insert(conn, watcher);
                let _ = reply.send(Ok(None));
                self.broadcast();
            }
            Msg::Connect { hello: Hello { conn, name: Some(name), token, opened_ms, origin }, out, reply } => {
                // A sealed rally seats only its player: any other name would watch its deals.
                if let Some(date) = self.sealed_rally()
                    && !self.room.is_host(name.key())
                {
                    let _ = reply.send(Err(Refused::rally_open(date)));
                    return;
                }
                if self.room.is_bot_name(name.key()) {
                    let refused = Refused::new(ErrorCode::NameTaken, format!("{name} is a bot at this table"));
                    let _ = reply.send(Err(refused));
                    return;
                }
                let key = name.key().clone();
                let holder = token.is_some() && token.as_ref() == self.tokens.get(&key);
                let others: Vec<ConnId> =
                    self.connections.iter().filter(|(_, c)| c.is(&key)).map(|(id, _)| *id).collect();
                if !others.is_empty() && !holder {
                    let refused =
                        Refused::new(ErrorCode::NameTaken, format!("{name} is already connected to this room"));
                    let _ = reply.send(Err(refused));
                    return;
                }
                if others.iter().any(|id| self.connections.get(id).is_some_and(|c| c.opened_ms > opened_ms)) {
                    let refused = Refused::new(
                        ErrorCode::Superseded,
                        format!("{name} connected to this room again since; this connection is the older one"),
                    );
                    let _ = reply.send(Err(refused));
                    return;
                }
                // The same player again (a new network, a reloaded page): the old connection goes at once.
                for old in others {
                    if let Some(old) = self.connections.remove(&old) {
                        let _ = old.out.try_send(Event::Replaced.into());
                    }
                }
                let token = self.tokens.entry(key.clone()).or_insert_with(new_token).clone();
                self.origins.insert(key.clone(), origin);
                let player = Connection { name: Some(name.into()), key: Some(key), out, opened_ms, sent_actions: None };
                self.connections.insert(conn, player);
                let _ = reply.send(Ok(Some(token)));
                self.note_host_presence();
                self.broadcast();
            }
            Msg::Client(FromClient::Disconnect { conn }) => {
                if let Some(gone) = self.connections.remove(&conn) {
                    if let Some(key) = gone.key.as_ref()
                        && !self.connections.values().any(|c| c.is(key))
                    {
                        self.left_at.insert(key.clone(), self.clock.now_ms());
                    }
                    let seat = gone.seat_in(&self.room);
                    if let Some(seat) =
                        seat.filter(|&s| !self.connections.values().any(|c| c.seat_in(&self.room) == Some(s)))
                    {
                        self.departed.push(seat);
                    }
                    self.note_host_presence();
                    self.broadcast();
                    let _ = self.deal_offer_if_ready().await;
                }
            }
            Msg::Client(FromClient::Command { conn, command }) => self.command(conn, command).await,
            Msg::Request { request, reply } => {
                let _ = reply.send(self.request(request).await);
            }
            Msg::Fenced => self.fenced = true,
            Msg::HandOver { reply } => {
                // Only a room whose stores go through, with nothing else waiting: what waits would be dropped.
                let free = self.env.fence.is_some()
                    && self.store_failures == 0
                    && self.env.registry.retire(&self.room.code, self.env.task, &self.inbox);
                if free {
                    self.handing_over = Some(reply);
                } else {
                    let _ = reply.send(None);
                }
            }
        }
    }

    /// Answers a handler's (or another node's) request.
    async fn request(&mut self, request: Request) -> Result<Reply, Refused> {
        match request {
            Request::Seat { name } => {
                let seat = match self.room.human_seat_of(name.key()) {
                    Some(seat) => seat,
                    None => {
                        let seat = self.room.seats.iter().position(Option::is_none).ok_or(RoomError::Full)?;
                        self.commit(Entry::Sit { seat, name: name.into() }).await?;
                        seat
                    }
                };
                Ok(Reply::Seated { seat })
            }
            Request::AddBots { level } => {
                while let Some(seat) = self.room.seats.iter().position(Option::is_none) {
                    self.add_bot(seat, level).await?;
                }
                Ok(Reply::Done)
            }
            Request::Start => self.start().await.map(|()| Reply::Done),
            Request::View => {
                let view = self.view_for(None, false);
                let view = if self.sealed_rally().is_some() { view.sealed() } else { view };
                Ok(Reply::View { view: Box::new(view) })
            }
            Request::SetUpChallenge => self.set_up_challenge().await.map(|()| Reply::Done),
            Request::SetUpTable { seats } => self.set_up_table(seats).await.map(|()| Reply::Done),
            Request::StartDeal { number } => {
                let next = self.room.ledger.deals + 1 == number;
                if next && !self.room.closed && !self.room.deal_in_progress() && self.room.offer.is_none() {
                    self.start().await?;
                }
                Ok(Reply::Done)
            }
            Request::CloseTable => {
                if !self.room.closed {
                    self.commit(Entry::Close).await?;
                }
                Ok(Reply::Done)
            }
        }
    }

    /// A tournament's table: each empty seat gets the player or bot the tournament drew for it (again
    /// after a restart interrupted the setting up: seats already taken stay as they are).
    async fn set_up_table(&mut self, seats: Vec<TableSeat>) -> Result<(), Refused> {
        for (seat, wanted) in seats.into_iter().enumerate() {
            if self.room.seats.get(seat).is_none_or(Option::is_some) {
                continue;
            }
            let entry = match wanted {
                TableSeat::Player { name } => Entry::Sit { seat, name: name.into() },
                TableSeat::Bot { level } => Entry::AddBot { seat, level },
            };
            self.commit(entry).await?;
        }
        Ok(())
    }

    async fn command(&mut self, conn: ConnId, command: Command) {
        let Some(connection) = self.connections.get(&conn) else {
            return;
        };
        let (Some(name), Some(key)) = (connection.name.clone(), connection.key.clone()) else {
            // A spectator only watches (and measures its round trip).
            match command {
                Command::Ping => self.send(conn, Event::Pong),
                Command::Sync => self.resync(conn),
                command => {
                    let seq = match command {
                        Command::Act { seq, .. } => Some(seq),
                        _ => None,
                    };
                    let refused =
                        Refused::new(ErrorCode::Spectator, "a spectator only watches: join with a name to play");
                    self.send(conn, refused.event(seq));
                }
            }
            return;
        };
        if self.room.mode == Mode::Tournament
            && (command.host_only().is_some() || matches!(command, Command::Sit { .. }))
        {
            let refused = Refused::new(
                ErrorCode::TournamentTable,
                "the tournament runs this table: it seats, deals and closes by itself",
            );
            self.send(conn, refused.event(None));
            return;
        }
        if let Some(what) = command.host_only()
            && !self.room.is_host(&key)
        {
            self.send(conn, Refused::from(RoomError::NotHost(what)).event(None));
            return;
        }
        let seat = self.room.human_seat_of(&key);
        let (result, seq) = match command {
            Command::Hello { .. }
            | Command::Watch { .. }
            | Command::WatchLobby
            | Command::WatchHall
            | Command::FollowTournament { .. } => {
                (Err(Refused::new(ErrorCode::AlreadyInRoom, "already in the room")), None)
            }
            Command::Ping => {
                self.send(conn, Event::Pong);
                return;
            }
            Command::Sync => {
                self.resync(conn);
                return;
            }
            Command::Sit { seat: wanted } => {
                let result = match (seat, wanted.or_else(|| self.room.seats.iter().position(Option::is_none))) {
                    (Some(_), _) => Err(RoomError::AlreadySeated(name.clone()).into()),
                    (None, None) => Err(RoomError::Full.into()),
                    (None, Some(s)) => self.commit(Entry::Sit { seat: s, name: name.clone() }).await,
                };
                (result, None)
            }
            Command::Act { seq, action } => {
                if self.room.last_seq.get(&key).is_some_and(|&last| seq <= last) {
                    // A retry of an action already taken (before a restart too): answer again, change nothing.
                    self.send(conn, Event::Ack { seq });
                    return;
                }
                let result = match seat {
                    None => Err(RoomError::NotSeated.into()),
                    Some(s) => {
                        self.store(Entry::Act { action: action.for_seat(s), timed_out: false, seq: Some(seq) }).await
                    }
                };
                if result.is_ok() {
                    // The ack first, then the state it caused (to everyone, the actor included).
                    self.send(conn, Event::Ack { seq });
                    self.announce();
                }
                (result, Some(seq))
            }
            Command::AddBot { seat, level } => (self.add_bot(seat, level).await, None),
            Command::Start => (self.start().await, None),
            Command::SetWild { on } => (self.commit(Entry::SetWild { on }).await, None),
            Command::AutoPlay { on } => match seat {
                None => (Err(RoomError::NotSeated.into()), None),
                Some(seat) => (self.commit(Entry::AutoPlay { seat, on }).await, None),
            },
            Command::Close => (self.commit(Entry::Close).await, None),
            Command::Chat { chat } => (self.chat(seat, chat), None),
            Command::Nonce { nonce } => match seat {
                None => (Err(RoomError::NotSeated.into()), None),
                Some(seat) => (self.take_nonce(seat, nonce).await, None),
            },
        };
        if let Err(refused) = result {
            self.send(conn, refused.event(seq));
        }
    }

    async fn set_up_challenge(&mut self) -> Result<(), Refused> {
        let Some(challenge) = self.room.challenge.clone() else {
            return Err(Refused::new(ErrorCode::NotAChallenge, "this room is not a challenge"));
        };
        if self.room.closed {
            return Ok(());
        }
        let player = self.room.host.clone();
        if self.room.seat_of(&NameKey::of_stored(&player)).is_none() {
            let seat = self.room.seats.iter().position(Option::is_none).ok_or(RoomError::Full)?;
            self.commit(Entry::Sit { seat, name: player }).await?;
        }
        while let Some(seat) = self.room.seats.iter().position(Option::is_none) {
            self.commit(Entry::AddBot { seat, level: challenge.kind.bot_level() }).await?;
        }
        if self.room.deal.is_none() {
            self.start().await?;
        }
        Ok(())
    }

    /// Seats a bot of `level`, a name from a client: a level the server does not know is refused here,
    /// where the text becomes a [`BotKind`].
    async fn add_bot(&mut self, seat: Seat, level: BotKind) -> Result<(), Refused> {
        self.commit(Entry::AddBot { seat, level }).await
    }

    async fn start(&mut self) -> Result<(), Refused> {
        self.refresh_flags().await;
        let rally = self.room.challenge.as_ref().and_then(|c| c.rally.clone());
        let setup = match rally {
            // Everyone's rally meets the same deals: from the day and the server's secret, not at random.
            Some(date) => {
                let secret = self.db.rally_secret().await?;
                rally_setup(&secret, &date, self.room.ledger.deals)
            }
            None => {
                let setup = {
                    let mut rng = rand::rng();
                    self.room.next_setup(Seed::random(&mut rng)).salted(Seed::random(&mut rng))
                };
                let awaited = self.nonce_seats();
                if !awaited.is_empty() {
                    // The players add their own randomness after the commitment (docs/fair-deals.md).
                    return self.commit(Entry::Offer { setup, awaited }).await;
                }
                setup
            }
        };
        self.commit(Entry::Start { setup }).await
    }

    /// The seats whose nonces a new deal waits for: the humans playing their own turns (a bot's, and
    /// the turns handed to the bot, are the server's). A player who just created the room may not be
    /// connected yet, so the offer waits for them too, at most [`Timing::nonce_ms`].
    fn nonce_seats(&self) -> Vec<Seat> {
        if self.timing.nonce_ms == 0 {
            return Vec::new();
        }
        (0..self.room.seats.len())
            .filter(|&seat| self.room.seats[seat].as_ref().is_some_and(|o| !o.is_bot()) && !self.room.auto_play[seat])
            .collect()
    }

    /// A seated player's quick chat, to everyone in the room, at most one every [`CHAT_EVERY_MS`].
    fn chat(&mut self, seat: Option<Seat>, chat: Chat) -> Result<(), Refused> {
        let seat = seat.ok_or(RoomError::NotSeated)?;
        let now = self.clock.now_ms();
        if self.chatted_at.get(&seat).is_some_and(|&at| now < at + CHAT_EVERY_MS) {
            return Err(Refused::new(ErrorCode::RateLimited, "one quick-chat message every 3 seconds"));
        }
        self.chatted_at.insert(seat, now);
        let conns: Vec<ConnId> = self.connections.keys().copied().collect();
        for conn in conns {
            self.send(conn, Event::Chat { seat, chat });
        }
        Ok(())
    }

    /// A player's nonce for the offered deal.
    async fn take_nonce(&mut self, seat: Seat, nonce: ddz_engine::fair::Nonce) -> Result<(), Refused> {
        self.commit(Entry::Nonce { seat, nonce }).await?;
        self.deal_offer_if_ready().await
    }

    /// Deals the offered deal once no awaited nonce can still come: every awaited player has sent theirs or
    /// has left since the offer (asked after a nonce or a departure). A player not connected yet is waited
    /// for, whenever they connect, until the offer's deadline ([`RoomTask::nonce_deadline`]).
    async fn deal_offer_if_ready(&mut self) -> Result<(), Refused> {
        let Some(offer) = &self.room.offer else { return Ok(()) };
        let ready = offer.awaited.iter().all(|&seat| offer.nonces[seat].is_some() || self.departed.contains(&seat));
        if ready { self.deal_offer().await } else { Ok(()) }
    }

    /// Deals the offered deal with the nonces that came.
    async fn deal_offer(&mut self) -> Result<(), Refused> {
        let Some(offer) = &self.room.offer else { return Ok(()) };
        let setup = offer.dealt();
        self.commit(Entry::Start { setup }).await
    }

    /// Checks, stamps, stores, applies and broadcasts one entry.
    async fn commit(&mut self, entry: Entry) -> Result<(), Refused> {
        self.store(entry).await?;
        self.announce();
        Ok(())
    }

    /// Checks, stamps, stores and applies one entry; [`RoomTask::announce`] then tells everyone.
    async fn store(&mut self, entry: Entry) -> Result<(), Refused> {
        self.room.check(&entry)?;
        let is_action = matches!(entry, Entry::Act { .. });
        let stamped = Stamped { n: self.room.last + 1, at: self.clock.now_ms(), entry };
        let mut after = self.room.clone();
        after.apply(&stamped);
        let started = std::time::Instant::now();
        let mut append = Append::of(&stamped, &after, || self.integrity());
        append.fence = self.env.fence.clone();
        let ratings_moved = matches!(stamped.entry, Entry::Sit { .. })
            || append.finished_deal.as_ref().is_some_and(|d| d.results.rating.is_some() && d.held_for.is_none());
        let verdicts = append.finished_deal.as_ref().map(|d| d.verdicts.clone());
        let to_mine = append.finished_deal.as_ref().filter(|d| d.held_for.is_none()).map(|d| d.number);
        if let Err(e) = self.db.append(append).await {
            if matches!(e, StoreError::Fenced(_)) {
                self.fenced = true;
            } else {
                metrics::counter!(metrics::STORE_FAILURES).increment(1);
                self.store_failures += 1;
                self.failed_at = self.clock.now_ms();
                tracing::warn!(room = %self.room.code, failures = self.store_failures, "an entry was not stored");
            }
            return Err(e.write_refusal());
        }
        metrics::histogram!(metrics::COMMIT_SECONDS).record(started.elapsed().as_secs_f64());
        metrics::counter!(metrics::ENTRIES).increment(1);
        if is_action {
            metrics::counter!(metrics::ACTIONS).increment(1);
        }
        self.store_failures = 0;
        if matches!(stamped.entry, Entry::Offer { .. }) {
            self.departed.clear();
        }
        self.room = after;
        let before = self.ratings.clone();
        if ratings_moved {
            self.refresh_ratings().await;
        }
        if let Some(verdicts) = verdicts {
            self.note_verdicts(verdicts, &before);
        }
        if let Some(number) = to_mine {
            self.mine(number);
        }
        Ok(())
    }
}

/// What the lobby shows of `room`.
pub fn summary(room: &Room) -> Summary {
    Summary {
        code: room.code.clone(),
        mode: room.mode,
        rules: room.rules().table_rules(),
        seats: room.seats.iter().map(|s| s.as_ref().map(|o| o.name().to_string())).collect(),
        people: room.seats.iter().flatten().filter(|o| !o.is_bot()).count() as u32,
        deals_played: room.ledger.deals,
        in_deal: room.deal_in_progress(),
        closed: room.closed,
    }
}

/// The answer of the bot that is thinking (pending while none is).
async fn thought(thinking: &mut Option<Thinking>) -> Option<Action> {
    match thinking {
        Some(t) => (&mut t.answer).await.ok().flatten(),
        None => std::future::pending().await,
    }
}

/// A resume token: 128 random bits as hex.
fn new_token() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}

/// Sleeps until `deadline`; forever without one (a `select!` branch that never fires).
pub(crate) async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    //! What the task itself does around the room's fold (`domain::room` has the fold's own tests): the
    //! order of store and broadcast, slow connections, retiring, the clock, store failures, stopping. One
    //! task over an in-memory database, on a paused clock held still: time moves only as a test moves it.

    use ddz_engine::Rules;
    use tokio_util::sync::CancellationToken;
    use tokio_util::task::TaskTracker;

    use super::*;
    use crate::domain::names::PlayerName;
    use crate::domain::room::{Mode, RoomCode};
    use crate::room::ask;
    use crate::wire::protocol::simple_action;

    const CODE: &str = "TASKS";

    fn code() -> RoomCode {
        RoomCode::from(CODE)
    }

    fn player(name: &str) -> PlayerName {
        PlayerName::parse(name).expect("a name")
    }
    const OPENED_MS: u64 = 1_800_000_000_000;
    /// The clocks as in play, but a deal is dealt from the server's seed at once (no wait for nonces).
    const TIMING: Timing = Timing { nonce_ms: 0, ..Timing::DEFAULT };
    /// Long enough for anything the task does in real time (the database, a bot's thought).
    const PATIENCE: Duration = Duration::from_secs(20);

    /// A room's task, started as the directory starts one, and what a test reaches it by.
    struct Started {
        db: Db,
        registry: Registry,
        inbox: mpsc::Sender<Msg>,
        stopping: CancellationToken,
        /// Where the task's bots think.
        pool: Pool,
        task: tokio::task::JoinHandle<()>,
        _held: std::sync::mpsc::Sender<()>,
    }

    /// An empty No Shuffle room hosted by Ann, its task running.
    async fn start() -> Started {
        let held = crate::clock::paused::hold();
        let db = Db::open("sqlite::memory:").await.expect("an in-memory database");
        let rules = Rules::no_shuffle(false);
        db.create_room(&code(), rules, Mode::Invite, &player("Ann"), OPENED_MS).await.expect("the room is stored");
        let registry = Registry::default();
        let (task, inbox, taken) = registry.register(&code(), None).expect("no task yet");
        let stopping = CancellationToken::new();
        let pool = Pool::new(1);
        let env = TaskEnv {
            registry: registry.clone(),
            task,
            background: Background::new(TaskTracker::new(), stopping.clone()),
            idle_ms: TIMING.idle_ms,
            pool: pool.clone(),
            spectators: 10,
            fence: None,
            summaries_out: None,
            mining: None,
        };
        let summaries = Summaries::default();
        let room = Room::new(code(), rules, Mode::Invite, "Ann".into());
        let clock = Clock::starting_at(OPENED_MS);
        let task = tokio::spawn(RoomTask::new(room, db.clone(), clock, TIMING, taken, summaries, env).run());
        Started { db, registry, inbox, stopping, pool, task, _held: held }
    }

    /// The one place a `Msg::Connect` is built, beside the other `Msg`s.
    fn connect_msg(
        conn: ConnId,
        name: Option<&str>,
        out: mpsc::Sender<Outbound>,
        reply: oneshot::Sender<Result<Option<String>, Refused>>,
    ) -> Msg {
        let hello =
            Hello { conn, name: name.map(player), token: None, opened_ms: OPENED_MS, origin: Origin::default() };
        Msg::Connect { hello, out, reply }
    }

    fn request_msg(request: Request, reply: oneshot::Sender<Result<Reply, Refused>>) -> Msg {
        Msg::Request { request, reply }
    }

    fn command_msg(conn: ConnId, command: Command) -> Msg {
        Msg::Client(FromClient::Command { conn, command })
    }

    impl Started {
        /// Connects `conn` as `name` (`None`: a spectator) with an outbox of `room` events; its events.
        async fn connect(&self, conn: ConnId, name: Option<&str>, room: usize) -> mpsc::Receiver<Outbound> {
            let (out, events) = mpsc::channel(room);
            let joined = ask(&self.inbox, |reply| connect_msg(conn, name, out, reply)).await;
            joined.expect("the task answers").expect("the connection is taken");
            events
        }

        async fn request(&self, request: Request) -> Option<Result<Reply, Refused>> {
            ask(&self.inbox, |reply| request_msg(request, reply)).await
        }

        async fn view(&self) -> RoomView {
            match self.request(Request::View).await {
                Some(Ok(Reply::View { view })) => *view,
                other => panic!("no view: {other:?}"),
            }
        }

        async fn command(&self, conn: ConnId, command: Command) {
            self.inbox.send(command_msg(conn, command)).await.expect("the task takes commands");
        }

        /// Ann, Bea and Cy seated (none of them connected) and the first deal dealt.
        async fn three_seated_and_dealt(&self) {
            for name in ["Ann", "Bea", "Cy"] {
                let seated = self.request(Request::Seat { name: player(name) }).await;
                assert!(matches!(seated, Some(Ok(Reply::Seated { .. }))), "{name}: {seated:?}");
            }
            assert_eq!(self.request(Request::Start).await, Some(Ok(Reply::Done)));
        }

        /// The entries stored for the room.
        async fn stored(&self) -> Vec<Entry> {
            self.stamped().await.into_iter().map(|stamped| stamped.entry).collect()
        }

        /// The entries stored for the room, with their numbers and times.
        async fn stamped(&self) -> Vec<Stamped> {
            self.db.room(&code()).await.expect("the database answers").expect("the room").entries
        }
    }

    /// The next event a connection is sent.
    async fn next(events: &mut mpsc::Receiver<Outbound>) -> Event {
        match tokio::time::timeout(PATIENCE, events.recv()).await {
            Ok(Some(Outbound::Event(event))) => event,
            other => panic!("no event: {other:?}"),
        }
    }

    /// The events a connection was sent before the answer to its `ping`: everything the task had sent it.
    async fn sent_before_pong(started: &Started, conn: ConnId, events: &mut mpsc::Receiver<Outbound>) -> Vec<Event> {
        started.command(conn, Command::Ping).await;
        let mut sent = Vec::new();
        loop {
            match next(events).await {
                Event::Pong => return sent,
                event => sent.push(event),
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn an_entry_the_database_refuses_is_never_broadcast() {
        let room = start().await;
        let mut watcher = room.connect(1, None, 64).await;
        let mut ann = room.connect(2, Some("Ann"), 64).await;
        sent_before_pong(&room, 1, &mut watcher).await;
        sent_before_pong(&room, 2, &mut ann).await;

        room.db.simulate_outage(true);
        room.command(2, Command::Sit { seat: None }).await;
        assert!(matches!(next(&mut ann).await, Event::Error { code: ErrorCode::SaveFailed, .. }));
        assert_eq!(sent_before_pong(&room, 1, &mut watcher).await, [], "nobody hears of what was not stored");
        assert!(room.view().await.seats[0].occupant.is_none());

        room.db.simulate_outage(false);
        room.command(2, Command::Sit { seat: None }).await;
        let Event::State { n, room: view } = next(&mut watcher).await else { panic!("a state") };
        assert!(view.seats[0].occupant.is_some(), "Ann sat");
        // What a connection hears of is in the log already: the entry numbered as the state is.
        assert_eq!(room.stored().await.len() as u64, n, "the state's entry is stored");
        assert_eq!(room.stored().await, [Entry::Sit { seat: 0, name: "Ann".into() }]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_store_that_fails_refuses_the_action_and_the_same_action_goes_through_after() {
        let room = start().await;
        room.three_seated_and_dealt().await;
        let first = room.view().await.deal.expect("dealt").waiting_for[0];
        let name = ["Ann", "Bea", "Cy"][first];
        let mut player = room.connect(1, Some(name), 64).await;
        let Event::State { room: view, .. } = next(&mut player).await else { panic!("a state") };
        let action = simple_action(view.deal.as_ref().expect("the deal"));

        room.db.simulate_outage(true);
        room.command(1, Command::Act { seq: 41, action: action.clone() }).await;
        assert!(matches!(next(&mut player).await, Event::Error { seq: Some(41), .. }), "refused, with its number");
        assert!(room.view().await.deal.expect("the deal").actions.is_empty(), "the room did not move");

        // The same action again (the client retries its number): taken, not answered as a repeat.
        room.db.simulate_outage(false);
        room.command(1, Command::Act { seq: 41, action }).await;
        assert_eq!(next(&mut player).await, Event::Ack { seq: 41 }, "the ack first...");
        let Event::State { room: view, .. } = next(&mut player).await else { panic!("...then the state") };
        assert_eq!(view.deal.expect("the deal").actions.len(), 1);
        let acts: Vec<Entry> = room.stored().await.into_iter().filter(|e| matches!(e, Entry::Act { .. })).collect();
        assert!(matches!(acts[..], [Entry::Act { seq: Some(41), timed_out: false, .. }]), "stored once: {acts:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_whose_outbox_is_full_is_dropped_and_the_others_are_not() {
        let room = start().await;
        room.request(Request::Seat { name: player("Ann") }).await;
        // Ann's client reads nothing: her outbox holds one event, the state she connected to.
        let mut ann = room.connect(1, Some("Ann"), 1).await;
        let mut bea = room.connect(2, Some("Bea"), 64).await;
        room.request(Request::Seat { name: player("Bea") }).await;
        let view = room.view().await;
        assert!(!view.seats[0].connected, "Ann, who could not keep up, is dropped");
        assert!(view.seats[1].connected, "Bea, who reads, stays");
        assert!(matches!(ann.recv().await, Some(Outbound::Event(Event::State { .. }))));
        assert!(ann.recv().await.is_none(), "Ann's events end: her client reconnects for a snapshot");
        let seen = sent_before_pong(&room, 2, &mut bea).await;
        assert!(seen.iter().any(|e| matches!(e, Event::State { room, .. } if room.you == Some(1))), "{seen:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_task_retires_a_minute_after_its_last_message_and_a_late_sender_is_told() {
        let mut room = start().await;
        let minute = Duration::from_millis(TIMING.idle_ms);
        tokio::time::advance(minute - Duration::from_millis(1)).await;
        assert!(room.request(Request::View).await.is_some(), "answered a moment before the idle minute ends");
        // The minute counts from that request: not a moment before it is up...
        tokio::time::advance(minute - Duration::from_millis(1)).await;
        tokio::task::yield_now().await;
        assert!(!room.task.is_finished() && room.registry.get(&code()).is_some(), "still the room's task");
        // ...and then the task leaves the registry and ends.
        tokio::time::advance(Duration::from_millis(1)).await;
        tokio::time::timeout(PATIENCE, &mut room.task).await.expect("the idle task ends").unwrap();
        assert!(room.registry.get(&code()).is_none(), "nobody is handed the inbox of a task that ended");
        // A sender that still holds its inbox hears the room stopped at once (and loads it again).
        assert!(room.request(Request::View).await.is_none());
        assert!(room.registry.register(&code(), None).is_ok(), "the room can be loaded again");
    }

    #[tokio::test(start_paused = true)]
    async fn a_turn_not_taken_in_40_seconds_is_played_by_the_clock() {
        let room = start().await;
        room.three_seated_and_dealt().await;
        let mut watcher = room.connect(1, None, 64).await;
        let first = room.view().await.deal.expect("dealt").waiting_for[0];

        tokio::time::advance(Duration::from_millis(TIMING.turn_ms - 1)).await;
        assert!(room.view().await.deal.expect("the deal").actions.is_empty(), "nothing before the 40 seconds");
        assert_eq!(room.pool.in_flight(), 0, "and no bot thinking of the turn yet");
        tokio::time::advance(Duration::from_millis(1)).await;
        let played = loop {
            if let Event::State { room: view, .. } = next(&mut watcher).await
                && view.deal.as_ref().is_some_and(|d| !d.actions.is_empty())
            {
                break *view;
            }
        };
        assert_eq!(played.timed_out, [0], "the deal's first action was the clock's");
        let stamped = room.stamped().await;
        let dealt_at = stamped.iter().find(|s| matches!(s.entry, Entry::Start { .. })).expect("the deal's start").at;
        let acts: Vec<&Stamped> = stamped.iter().filter(|s| matches!(s.entry, Entry::Act { .. })).collect();
        assert!(
            matches!(&acts[..], [Stamped { entry: Entry::Act { action, timed_out: true, seq: None }, .. }]
                if action.seat() == Some(first)),
            "stored as the clock's, for the seat whose turn it was: {acts:?}"
        );
        assert_eq!(acts[0].at, dealt_at + TIMING.turn_ms, "played when the 40 seconds were up, by the room's clock");
    }

    #[tokio::test(start_paused = true)]
    async fn a_stopping_server_ends_the_task_after_the_message_in_hand() {
        // The task is caught with a request in hand: taken, and not answered yet. On a busy machine the
        // database may answer within the task's turn: then a fresh room is tried.
        let mut tries = 0;
        let (mut room, seated) = loop {
            let room = start().await;
            tokio::task::yield_now().await;
            let (seat_reply, mut seated) = oneshot::channel();
            room.inbox.try_send(request_msg(Request::Seat { name: player("Bea") }, seat_reply)).unwrap();
            // One turn of the task: it takes the request and waits on the database (a store, then the ratings).
            tokio::task::yield_now().await;
            assert_eq!(room.inbox.capacity(), room.inbox.max_capacity(), "the task has taken the request");
            if seated.try_recv().is_err_and(|e| e == oneshot::error::TryRecvError::Empty) {
                break (room, seated);
            }
            tries += 1;
            assert!(tries < 20, "the task answered within its turn every time");
        };

        room.stopping.cancel();
        let (late_reply, late) = oneshot::channel();
        room.inbox.try_send(request_msg(Request::Seat { name: player("Cy") }, late_reply)).unwrap();
        let seated = tokio::time::timeout(PATIENCE, seated).await.expect("an answer");
        assert_eq!(seated.unwrap(), Ok(Reply::Seated { seat: 0 }), "the request in hand is finished");
        assert!(late.await.is_err(), "one not taken yet is dropped: its sender hears the room stopped");
        tokio::time::timeout(PATIENCE, &mut room.task).await.expect("the task ends").unwrap();
        assert!(room.registry.get(&code()).is_none());
        assert_eq!(room.stored().await, [Entry::Sit { seat: 0, name: "Bea".into() }]);
    }
}
