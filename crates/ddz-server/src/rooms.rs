//! The registry of running rooms: creates rooms, restores them from the database at start, and hands
//! out their inboxes.
//!
//! A room's task runs while it has something to do; an idle or closed room's task ends by itself (see
//! [`Registry::retire`]) and the room is loaded again from its log when it is next asked for. There is
//! never more than one task per room: tasks are started and retired under the registry's lock, and a
//! message that reaches a task as it retires is answered by a fresh one ([`Rooms::request`] and
//! [`Rooms::connect`] try again).
//!
//! With several nodes the directory holds the tasks of the rooms this node owns, taken through the
//! database one at a time; the node's clients and handlers reach every room through a proxy (registered
//! the same way, in a registry of their own), wherever the room runs. What that needs of the cluster is
//! the [`Placement`] trait, which the cluster layer implements: this module never sees NATS.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::BoxFuture;

use ddz_engine::{Deal, Rules, Seat};
use rand::RngExt;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::background::Background;
use crate::clock::Clock;
use crate::domain::challenge::{Challenge, ChallengeKind, utc_date};
use crate::domain::names::PlayerName;
use crate::domain::room::{Entry, Mode, Room, RoomCode};
use crate::room::{
    Hello, Msg, OUTBOX, Outbound, Registry, Reply, Request, RoomTask, Summaries, Timing, ask, ask_retrying, summary,
};
use crate::store::{ChallengeStart, Db, DbResult, Fence, StoreError, StoredRoom};
use crate::wire::pages::Summary;
use crate::wire::protocol::{Refused, RoomView};
use crate::work::Pool;

#[derive(Clone)]
pub struct Rooms {
    db: Db,
    clock: Clock,
    timing: Timing,
    registry: Registry,
    summaries: Summaries,
    starting: Arc<tokio::sync::Mutex<()>>,
    /// Every room task, so that a shutdown can wait for them.
    tasks: TaskTracker,
    /// Cancelled when the server stops.
    stopping: CancellationToken,
    /// Where bots think; shared with the hints and readings endpoints.
    pool: Pool,
    /// Spectators one room takes.
    spectators: usize,
    /// Puzzles are mined from the deals finished here (none: not).
    mining: Option<crate::room::mining::Mining>,
    /// Cluster mode: this node's part, the proxies of the rooms in use here, and one take at a time.
    placement: Option<Arc<dyn Placement>>,
    proxies: Registry,
    taking: Arc<tokio::sync::Mutex<()>>,
}

/// Where rooms run when this node is one of several: what the directory needs of the cluster layer.
pub trait Placement: Send + Sync + 'static {
    /// This node's id, under which it takes rooms in the database.
    fn node(&self) -> &str;
    /// Where the summaries of the rooms that run here go, for every node's lobby.
    fn summaries_out(&self) -> mpsc::UnboundedSender<Summary>;
    /// Tells every node that this node has just taken room `code`.
    fn announce_taken<'a>(&'a self, code: &'a RoomCode) -> BoxFuture<'a, ()>;
    /// Starts this node's proxy of room `code`, which takes the messages sent to `inbox` and forwards
    /// them to the room's owner, wherever it is; it ends when idle (leaving `registry`) or on a stop.
    fn spawn_proxy(&self, code: &RoomCode, inbox: mpsc::Receiver<Msg>, registry: Registry, task: u64, env: ProxyEnv);
}

/// What a proxy runs with.
pub struct ProxyEnv {
    /// The server's tasks: the proxy runs on them and ends when the server stops.
    pub background: Background,
    pub idle_ms: u64,
    /// This node's rooms: a proxy whose room this node owns hands it messages directly, not over NATS.
    pub rooms: Rooms,
}

/// Where a room runs, as its would-be owner sees it (cluster mode).
pub enum Owned {
    /// Here: the task's inbox.
    Here(mpsc::Sender<Msg>),
    /// On another live node.
    Elsewhere,
    /// There is no such room.
    Missing,
}

/// Spectators one room takes unless told otherwise ([`crate::Guards::spectators`]).
pub const SPECTATORS: usize = 200;

/// Room codes: 6 characters without look-alikes (no 0/O, 1/I/L).
const CODE_CHARS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

impl Rooms {
    pub fn new(db: Db, clock: Clock, timing: Timing) -> Rooms {
        let summaries = Summaries::default();
        Rooms {
            db,
            clock,
            timing,
            registry: Registry::default(),
            summaries,
            starting: Arc::default(),
            tasks: TaskTracker::new(),
            stopping: CancellationToken::new(),
            pool: Pool::per_core(),
            spectators: SPECTATORS,
            mining: None,
            placement: None,
            proxies: Registry::default(),
            taking: Arc::default(),
        }
    }

    /// The same directory as one node of several (before any room starts).
    pub fn with_placement(mut self, placement: Arc<dyn Placement>) -> Rooms {
        self.placement = Some(placement);
        self
    }

    /// The same registry with rooms taking at most `spectators` spectators each (before any room starts).
    pub fn with_spectators(mut self, spectators: usize) -> Rooms {
        self.spectators = spectators;
        self
    }

    /// The same registry mining puzzles from the deals its rooms finish (before any room starts).
    pub fn with_puzzle_mining(mut self) -> Rooms {
        self.mining = Some(crate::room::mining::Mining::default());
        self
    }

    /// The same registry with its bots thinking on `pool` (before any room starts).
    pub fn with_pool(mut self, pool: Pool) -> Rooms {
        self.pool = pool;
        self
    }

    /// The bounded pool of blocking threads for CPU-heavy work.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    pub fn timing(&self) -> Timing {
        self.timing
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The server clock's time, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// Restores every open room from the database. A cluster node only lists them in its lobby: each runs
    /// where it is owned, and the rooms of nodes that died are taken on by the lease's upkeep.
    pub async fn restore(&self) -> DbResult<usize> {
        let stored = self.db.open_rooms().await?;
        let mut count = 0;
        for room in stored {
            let code = room.code.clone();
            // One corrupt room log must not keep the others (or the server) from starting.
            let room = match rebuild(room) {
                Ok(room) => room,
                Err(e) => {
                    tracing::error!(room = %code, error = %e, "a room's log does not read back: it stays closed");
                    continue;
                }
            };
            match self.placement {
                Some(_) => self.note_summary(summary(&room)),
                None => {
                    self.spawn(room, None);
                }
            }
            count += 1;
        }
        Ok(count)
    }

    /// Starts the task of a room just created; a cluster node takes the room first.
    async fn run_new(&self, room: Room) -> DbResult<()> {
        let fence = match &self.placement {
            None => None,
            Some(placement) => {
                let _one_at_a_time = self.taking.lock().await;
                let fence = take(&self.db, placement.node(), &room.code, self.clock.now_ms()).await?;
                Some(fence.ok_or_else(|| StoreError::Fenced(room.code.clone()))?)
            }
        };
        self.spawn(room, fence);
        Ok(())
    }

    /// Cluster mode: the inbox of room `code` if this node owns it, taking it (and loading it from its log)
    /// when no live node does.
    pub async fn owned_inbox(&self, code: &RoomCode) -> DbResult<Owned> {
        let Some(placement) = &self.placement else {
            return Ok(self.inbox(code).await?.map_or(Owned::Missing, Owned::Here));
        };
        if let Some(tx) = self.registry.get(code) {
            return Ok(Owned::Here(tx));
        }
        if self.stopping.is_cancelled() {
            return Ok(Owned::Elsewhere);
        }
        let _one_at_a_time = self.taking.lock().await;
        if let Some(tx) = self.registry.get(code) {
            return Ok(Owned::Here(tx));
        }
        let fence = match take(&self.db, placement.node(), code, self.clock.now_ms()).await {
            Ok(Some(fence)) => fence,
            Ok(None) => return Ok(Owned::Elsewhere),
            Err(StoreError::NoRoom(_)) => return Ok(Owned::Missing),
            Err(e) => return Err(e),
        };
        // Read after taking: an append of the node that had the room either made it into the log before
        // the take, or was refused by the fence.
        let Some(stored) = self.db.room(code).await? else { return Ok(Owned::Missing) };
        let tx = self.spawn(rebuild(stored)?, Some(fence));
        placement.announce_taken(code).await;
        Ok(Owned::Here(tx))
    }

    /// Cluster mode: hands room `code`, which runs here, to node `to` (all its clients are there): its task
    /// ends and the database names `to` as the owner, which takes the room when its clients next ask.
    /// Whether it did; a busy room (messages waiting, stores failing) stays here for now. One take or
    /// hand-over at a time, so that a request that reaches this node meanwhile finds the room already
    /// `to`'s instead of taking it back.
    pub async fn hand_over(&self, code: &RoomCode, to: &str) -> DbResult<bool> {
        let _one_at_a_time = self.taking.lock().await;
        let Some(inbox) = self.registry.get(code) else { return Ok(false) };
        let Some(Some(fence)) = ask(&inbox, |reply| Msg::HandOver { reply }).await else { return Ok(false) };
        let handed = self.db.hand_room(code, &fence, to).await?;
        if handed {
            tracing::info!(room = %code, to, "room handed over");
        }
        Ok(handed)
    }

    /// As [`Rooms::owned_inbox`], but a task running here must still hold the room's current fence: a task
    /// of a room taken from this node since (by a node that saw its lease run out, during a database
    /// outage, say) that has not stored anything since would otherwise go on serving its stale room, even
    /// after the room is handed back here. Such a task is told to end and the room is taken afresh. One
    /// database read: for attaching connections and taking orphans, not for every command.
    pub async fn owned_inbox_checked(&self, code: &RoomCode) -> DbResult<Owned> {
        if let Some(placement) = &self.placement
            && let Some((task, inbox, Some(number))) = self.registry.entry(code)
        {
            if self.db.room_fence(code, placement.node()).await? == Some(number) {
                return Ok(Owned::Here(inbox));
            }
            tracing::warn!(room = %code, fence = number, "a task here holds a room taken since: it ends");
            self.registry.remove(code, task);
            let _ = inbox.send(Msg::Fenced).await;
        }
        self.owned_inbox(code).await
    }

    /// The inbox of room `code`'s task on this node, if it runs here.
    pub fn running_inbox(&self, code: &RoomCode) -> Option<mpsc::Sender<Msg>> {
        self.registry.get(code)
    }

    /// A room's summary from another node: the lobby lists it.
    pub fn note_summary(&self, summary: Summary) {
        self.summaries.note(summary);
    }

    /// Creates a room and starts its task.
    pub async fn create(&self, rules: Rules, mode: Mode, host: &PlayerName) -> DbResult<RoomCode> {
        let code = self.unused_code().await?;
        self.create_as(code, rules, mode, host).await
    }

    /// Creates a room under a code from [`Rooms::unused_code`] (quick match claims its players for the
    /// code before the room exists) and starts its task.
    pub async fn create_as(&self, code: RoomCode, rules: Rules, mode: Mode, host: &PlayerName) -> DbResult<RoomCode> {
        self.db.create_room(&code, rules, mode, host, self.clock.now_ms()).await?;
        self.run_new(Room::new(code.clone(), rules, mode, host.to_string())).await?;
        tracing::info!(room = %code, rules = %rules, mode = mode.name(), %host, "room created");
        Ok(code)
    }

    /// A room code no room has.
    pub async fn unused_code(&self) -> DbResult<RoomCode> {
        loop {
            let code = new_code();
            if self.db.room(&code).await?.is_none() {
                return Ok(code);
            }
        }
    }

    /// Starts `name`'s run of `kind` (today's rally for Bang rallies) with two bots and its first deal dealt,
    /// or finds the name's unfinished run to resume. Returns the room's code and whether it was resumed;
    /// `None` when the name has already played today's rally.
    pub async fn start_challenge(
        &self,
        kind: ChallengeKind,
        name: &PlayerName,
    ) -> Result<Option<(RoomCode, bool)>, Refused> {
        // One start at a time: a double click must not make two runs.
        let _one_at_a_time = self.starting.lock().await;
        let now = self.clock.now_ms();
        let challenge = Challenge { kind, rally: (kind == ChallengeKind::Rally).then(|| utc_date(now)) };
        let fresh = self.unused_code().await.map_err(Refused::from)?;
        let (code, resumed) = match self
            .db
            .start_challenge(&fresh, &challenge, name, now)
            .await
            .map_err(Refused::from)?
        {
            ChallengeStart::RallyPlayed => return Ok(None),
            ChallengeStart::Unfinished(code) => (code, true),
            ChallengeStart::Created(code) => {
                tracing::info!(room = %code, kind = kind.name(), rally = ?challenge.rally, %name, "challenge started");
                self.run_new(Room::challenge(code.clone(), challenge, name.as_str().to_string()))
                    .await
                    .map_err(Refused::from)?;
                (code, false)
            }
        };
        // A resumed run gets whatever part of its setting up an interruption left undone.
        self.request(&code, Request::SetUpChallenge).await?;
        Ok(Some((code, resumed)))
    }

    /// Starts a task for `room` (owned with `fence` in cluster mode) and returns its inbox; if the room has
    /// a task already (a racing load), that task's inbox, and `room` is dropped.
    fn spawn(&self, room: Room, fence: Option<Fence>) -> mpsc::Sender<Msg> {
        let (task, tx, rx) = match self.registry.register(&room.code, fence.as_ref().map(|f| f.number)) {
            Ok(new) => new,
            Err(running) => return running,
        };
        let env = crate::room::TaskEnv {
            registry: self.registry.clone(),
            task,
            background: self.background(),
            idle_ms: self.timing.idle_ms,
            pool: self.pool.clone(),
            spectators: self.spectators,
            fence,
            summaries_out: self.placement.as_ref().map(|p| p.summaries_out()),
            mining: self.mining.clone(),
        };
        let task = RoomTask::new(room, self.db.clone(), self.clock, self.timing, rx, self.summaries.clone(), env);
        self.tasks.spawn(task.run());
        tx
    }

    /// The inbox of room `code`, loading the room from its log if its task is not running.
    /// In cluster mode, the inbox of the room's proxy on this node.
    pub async fn inbox(&self, code: &RoomCode) -> DbResult<Option<mpsc::Sender<Msg>>> {
        if let Some(placement) = &self.placement {
            return self.proxy(placement.as_ref(), code).await;
        }
        if let Some(tx) = self.registry.get(code) {
            return Ok(Some(tx));
        }
        if self.stopping.is_cancelled() {
            return Ok(None);
        }
        let Some(stored) = self.db.room(code).await? else {
            return Ok(None);
        };
        Ok(Some(self.spawn(rebuild(stored)?, None)))
    }

    async fn proxy(&self, placement: &dyn Placement, code: &RoomCode) -> DbResult<Option<mpsc::Sender<Msg>>> {
        if let Some(tx) = self.proxies.get(code) {
            return Ok(Some(tx));
        }
        if self.stopping.is_cancelled() || !self.db.room_exists(code).await? {
            return Ok(None);
        }
        let (task, tx, rx) = match self.proxies.register(code, None) {
            Ok(new) => new,
            Err(running) => return Ok(Some(running)),
        };
        let env = ProxyEnv { background: self.background(), idle_ms: self.timing.idle_ms, rooms: self.clone() };
        placement.spawn_proxy(code, rx, self.proxies.clone(), task, env);
        Ok(Some(tx))
    }

    /// Puts `request` to room `code` and waits for the reply ([`ask_retrying`]: a task that retired as the
    /// request reached it is started again).
    pub async fn request(&self, code: &RoomCode, request: Request) -> Result<Reply, Refused> {
        let ask_room = |inbox: mpsc::Sender<Msg>| {
            let request = request.clone();
            async move { ask(&inbox, |reply| Msg::Request { request, reply }).await }
        };
        ask_retrying(|| self.found_inbox(code), ask_room).await?.unwrap_or_else(|| Err(Refused::room_stopped()))
    }

    /// Connects a client to room `code` ([`Hello`]): the room's inbox, the connection's events, and the
    /// name's resume token.
    pub async fn connect(
        &self,
        code: &RoomCode,
        hello: Hello,
    ) -> Result<(mpsc::Sender<Msg>, mpsc::Receiver<Outbound>, Option<String>), Refused> {
        let enter = |inbox: mpsc::Sender<Msg>| {
            let hello = hello.clone();
            async move {
                let (out, events) = mpsc::channel(OUTBOX);
                let joined = ask(&inbox, |reply| Msg::Connect { hello, out, reply }).await?;
                Some(joined.map(|token| (inbox, events, token)))
            }
        };
        ask_retrying(|| self.found_inbox(code), enter).await?.unwrap_or_else(|| Err(Refused::room_stopped()))
    }

    /// [`Rooms::inbox`], refused when there is no such room.
    async fn found_inbox(&self, code: &RoomCode) -> Result<mpsc::Sender<Msg>, Refused> {
        self.inbox(code).await?.ok_or_else(|| Refused::no_room(code))
    }

    /// How many room tasks are running.
    pub fn running(&self) -> usize {
        self.registry.running()
    }

    /// How many room tasks have been started since the server started.
    pub fn tasks_started(&self) -> u64 {
        self.registry.tasks_started()
    }

    /// Room `code` as a spectator sees it.
    pub async fn view(&self, code: &RoomCode) -> Result<RoomView, Refused> {
        match self.request(code, Request::View).await? {
            Reply::View { view } => Ok(*view),
            other => Err(Refused::unexpected(&other)),
        }
    }

    /// Seats `name` in room `code`'s first free seat (or finds the seat the name holds).
    pub async fn seat(&self, code: &RoomCode, name: &PlayerName) -> Result<Seat, Refused> {
        match self.request(code, Request::Seat { name: name.clone() }).await? {
            Reply::Seated { seat } => Ok(seat),
            other => Err(Refused::unexpected(&other)),
        }
    }

    /// The open public tables with their seats, by code.
    pub fn lobby(&self) -> Vec<Summary> {
        public_tables(&self.summaries.borrow())
    }

    /// Wakes on every change to any room's summary (the lobby page watches this).
    pub fn watch_lobby(&self) -> tokio::sync::watch::Receiver<HashMap<RoomCode, Summary>> {
        self.summaries.watch()
    }

    /// Each room's summary as it changes, from now on (a tournament's driver follows its tables' deals).
    pub fn summary_changes(&self) -> tokio::sync::broadcast::Receiver<Summary> {
        self.summaries.changes()
    }

    /// This node's id in cluster mode; `None` on a server of its own.
    pub fn node(&self) -> Option<&str> {
        self.placement.as_ref().map(|p| p.node())
    }

    /// Tells every room task to stop after the message it is handling (a commit in flight finishes),
    /// and waits until they all have. Returns the codes of the rooms that ran here, for the cluster to
    /// let go of.
    pub async fn shutdown(&self) -> Vec<RoomCode> {
        let owned = self.registry.codes();
        self.stopping.cancel();
        self.tasks.close();
        self.tasks.wait().await;
        owned
    }

    /// Cancelled when the server begins to stop.
    pub fn stopping(&self) -> CancellationToken {
        self.stopping.clone()
    }

    /// Where the server's loops and helper tasks run: the rooms' tracker, which a shutdown waits for.
    pub fn background(&self) -> Background {
        Background::new(self.tasks.clone(), self.stopping.clone())
    }
}

/// The open public tables among `summaries`, by code.
pub fn public_tables(summaries: &HashMap<RoomCode, Summary>) -> Vec<Summary> {
    let mut tables: Vec<Summary> =
        summaries.values().filter(|s| s.mode == Mode::Public && !s.closed).cloned().collect();
    tables.sort_by(|a, b| a.code.cmp(&b.code));
    tables
}

/// Takes room `code` for this node (one take at a time: the caller holds `Rooms::taking`): its fence, or
/// `None` when another live node owns it.
async fn take(db: &Db, node: &str, code: &RoomCode, now: u64) -> DbResult<Option<Fence>> {
    let Some(number) = db.take_room(code, node, now).await? else { return Ok(None) };
    tracing::info!(room = %code, fence = number, node, "room taken");
    crate::metrics::counter!(crate::metrics::ROOMS_TAKEN).increment(1);
    Ok(Some(Fence { node: node.to_string(), number }))
}

fn new_code() -> RoomCode {
    let mut rng = rand::rng();
    let code: String = (0..6).map(|_| CODE_CHARS[rng.random_range(0..CODE_CHARS.len())] as char).collect();
    RoomCode::from(code)
}

/// A room from its stored log (rules or a mode the server does not know were refused as it was loaded).
fn rebuild(stored: StoredRoom) -> DbResult<Room> {
    let mut room = match stored.challenge {
        Some(challenge) => Room::challenge(stored.code, challenge, stored.host),
        None => Room::new(stored.code, stored.rules, stored.mode, stored.host),
    };
    for stamped in &stored.entries {
        // A deal's setup is checked as it is read back: a broken pack is a corrupt log, not a panic.
        if let Entry::Start { setup } = &stamped.entry
            && let Err(e) = Deal::try_new(setup.clone())
        {
            return Err(StoreError::Corrupt(format!("room {} entry {}: {e}", room.code, stamped.n)));
        }
        room.apply(stamped);
    }
    Ok(room)
}

#[cfg(test)]
mod tests {
    use ddz_engine::{DealSetup, Seed, Start};

    use super::*;
    use crate::domain::room::Stamped;

    fn stored(entries: Vec<Entry>) -> StoredRoom {
        let entries = entries.into_iter().enumerate().map(|(n, entry)| Stamped { n: n as u64 + 1, at: 0, entry });
        StoredRoom {
            code: "ABCDEF".into(),
            rules: Rules::no_shuffle(false),
            mode: Mode::Invite,
            host: "Ann".into(),
            challenge: None,
            entries: entries.collect(),
        }
    }

    #[test]
    fn a_stored_deal_with_a_broken_pack_is_a_corrupt_log_not_a_panic() {
        let rules = Rules::no_shuffle(false);
        let sit = |seat, name: &str| Entry::Sit { seat, name: name.into() };
        let seated = vec![sit(0, "Ann"), sit(1, "Bea"), sit(2, "Cy")];
        let good = DealSetup::shuffled(rules, Seed::from_u64(1), Start::Seat(0));
        let mut entries = seated.clone();
        entries.push(Entry::Start { setup: good });
        assert!(rebuild(stored(entries)).unwrap().deal.is_some(), "a sound log rebuilds");

        // A re-deal whose pack lost a card.
        let mut pack = rules.deck().iter().collect::<Vec<_>>();
        pack.pop();
        let broken = DealSetup::redeal(rules, Seed::from_u64(2), Start::Seat(0), pack);
        let mut entries = seated;
        entries.push(Entry::Start { setup: broken });
        match rebuild(stored(entries)) {
            Err(StoreError::Corrupt(why)) => assert!(why.contains("room ABCDEF entry 4"), "{why}"),
            other => panic!("a broken pack rebuilt as {:?}", other.map(|room| room.deal.is_some())),
        }
    }
}
