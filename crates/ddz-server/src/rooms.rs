//! The registry of running rooms: creates rooms, restores them from the database at start, and hands
//! out their inboxes.
//!
//! A room's task runs while it has something to do; an idle or closed room's task ends by itself (see
//! [`Registry::retire`]) and the room is loaded again from its log when it is next asked for. There is
//! never more than one task per room: tasks are started and retired under the registry's lock, and a
//! message that reaches a task as it retires is answered by a fresh one ([`Rooms::ask`] tries again).
//!
//! In cluster mode ([`crate::cluster`]) the registry holds the tasks of the rooms this node owns, taken
//! through the database one at a time; the node's clients and handlers reach every room through a proxy
//! (registered the same way, in a registry of their own), wherever the room runs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ddz_engine::Rules;
use rand::RngExt;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::clock::Clock;
use crate::cluster::{Cluster, ProxyEnv};
use crate::domain::challenge::{Challenge, ChallengeKind, utc_date};
use crate::domain::room::{Mode, Room};
use crate::room::{INBOX, Msg, RoomTask, Summaries, Timing, summary};
use crate::store::{ChallengeStart, Db, DbResult, Fence, StoredRoom};
use crate::wire::protocol::{ErrorCode, Refused, RoomView, Summary};
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
    /// Cluster mode: this node's part, the proxies of the rooms in use here, and one take at a time.
    cluster: Option<Cluster>,
    proxies: Registry,
    taking: Arc<tokio::sync::Mutex<()>>,
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

/// A running room task: its number and its inbox.
type Running = (u64, mpsc::Sender<Msg>);

/// The inboxes of the running room tasks, by code, each with the number of the task that owns it.
#[derive(Clone, Default)]
pub struct Registry {
    inboxes: Arc<Mutex<HashMap<String, Running>>>,
    next_task: Arc<AtomicU64>,
}

impl Registry {
    fn get(&self, code: &str) -> Option<mpsc::Sender<Msg>> {
        self.inboxes.lock().expect("registry lock").get(code).map(|(_, tx)| tx.clone())
    }

    /// Task `task` of room `code` leaves the registry, unless a message is waiting for it: then it has
    /// work to do and stays. Returns whether it left; it must then stop taking messages.
    pub fn retire(&self, code: &str, task: u64, inbox: &mpsc::Receiver<Msg>) -> bool {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if !inbox.is_empty() {
            return false;
        }
        if inboxes.get(code).is_some_and(|(owner, _)| *owner == task) {
            inboxes.remove(code);
        }
        true
    }

    /// Task `task` of room `code` leaves the registry as the server stops.
    pub fn remove(&self, code: &str, task: u64) {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if inboxes.get(code).is_some_and(|(owner, _)| *owner == task) {
            inboxes.remove(code);
        }
    }

    fn running(&self) -> usize {
        self.inboxes.lock().expect("registry lock").len()
    }

    fn codes(&self) -> Vec<String> {
        self.inboxes.lock().expect("registry lock").keys().cloned().collect()
    }

    /// Registers a new task for `code` unless one is there: its number and inbox, or the running one's
    /// inbox.
    fn register(&self, code: &str) -> Result<(u64, mpsc::Sender<Msg>, mpsc::Receiver<Msg>), mpsc::Sender<Msg>> {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if let Some((_, tx)) = inboxes.get(code) {
            return Err(tx.clone());
        }
        let (tx, rx) = mpsc::channel(INBOX);
        let task = self.next_task.fetch_add(1, Ordering::Relaxed);
        inboxes.insert(code.to_string(), (task, tx.clone()));
        Ok((task, tx, rx))
    }
}

/// Room codes: 6 characters without look-alikes (no 0/O, 1/I/L).
const CODE_CHARS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

impl Rooms {
    pub fn new(db: Db, clock: Clock, timing: Timing) -> Rooms {
        let (summaries, _) = tokio::sync::watch::channel(HashMap::new());
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
            spectators: crate::Guards::default().spectators,
            cluster: None,
            proxies: Registry::default(),
            taking: Arc::default(),
        }
    }

    /// The same registry as a node of `cluster` (before any room starts).
    pub fn with_cluster(mut self, cluster: Cluster) -> Rooms {
        self.cluster = Some(cluster);
        self
    }

    /// This node's part in a cluster, if it is in one.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.cluster.as_ref()
    }

    /// The same registry with rooms taking at most `spectators` spectators each (before any room starts).
    pub fn with_spectators(mut self, spectators: usize) -> Rooms {
        self.spectators = spectators;
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
        let count = stored.len();
        for room in stored {
            match self.cluster {
                Some(_) => self.note_summary(summary(&rebuild(room))),
                None => {
                    self.spawn(rebuild(room), None);
                }
            }
        }
        Ok(count)
    }

    /// Starts the task of a room just created; a cluster node takes the room first.
    async fn run_new(&self, room: Room) -> DbResult<()> {
        let fence = match &self.cluster {
            None => None,
            Some(cluster) => {
                let _one_at_a_time = self.taking.lock().await;
                let fence = take(&self.db, cluster, &room.code, self.clock.now_ms()).await?;
                Some(fence.ok_or_else(|| sqlx::Error::Protocol(format!("room {} has an owner", room.code)))?)
            }
        };
        self.spawn(room, fence);
        Ok(())
    }

    /// Cluster mode: the inbox of room `code` if this node owns it, taking it (and loading it from its log)
    /// when no live node does.
    pub async fn owned_inbox(&self, code: &str) -> DbResult<Owned> {
        let Some(cluster) = &self.cluster else {
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
        let fence = match take(&self.db, cluster, code, self.clock.now_ms()).await {
            Ok(Some(fence)) => fence,
            Ok(None) => return Ok(Owned::Elsewhere),
            Err(sqlx::Error::Database(e)) if e.kind() == sqlx::error::ErrorKind::ForeignKeyViolation => {
                return Ok(Owned::Missing);
            }
            Err(e) => return Err(e),
        };
        // Read after taking: an append of the node that had the room either made it into the log before
        // the take, or was refused by the fence.
        let Some(stored) = self.db.room(code).await? else { return Ok(Owned::Missing) };
        let tx = self.spawn(rebuild(stored), Some(fence));
        cluster.announce_move(code, Some(cluster.id())).await;
        Ok(Owned::Here(tx))
    }

    /// The inbox of room `code`'s task on this node, if it runs here.
    pub fn running_inbox(&self, code: &str) -> Option<mpsc::Sender<Msg>> {
        self.registry.get(code)
    }

    /// A room's summary from another node: the lobby lists it.
    pub fn note_summary(&self, summary: Summary) {
        crate::room::note_summary(&self.summaries, summary);
    }

    /// Creates a room and starts its task.
    pub async fn create(&self, rules: Rules, mode: Mode, host: &str) -> DbResult<String> {
        let code = self.unused_code().await?;
        self.db.create_room(&code, rules.name(), mode, host, self.clock.now_ms()).await?;
        self.run_new(Room::new(code.clone(), rules, mode, host.to_string())).await?;
        tracing::info!(room = %code, rules = %rules, mode = mode.name(), host, "room created");
        Ok(code)
    }

    async fn unused_code(&self) -> DbResult<String> {
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
    pub async fn start_challenge(&self, kind: ChallengeKind, name: &str) -> Result<Option<(String, bool)>, Refused> {
        // One start at a time: a double click must not make two runs.
        let _one_at_a_time = self.starting.lock().await;
        let now = self.clock.now_ms();
        let challenge = Challenge { kind, rally: (kind == ChallengeKind::Rally).then(|| utc_date(now)) };
        let fresh = self.unused_code().await.map_err(stored)?;
        let (code, resumed) = match self.db.start_challenge(&fresh, &challenge, name, now).await.map_err(stored)? {
            ChallengeStart::RallyPlayed => return Ok(None),
            ChallengeStart::Unfinished(code) => (code, true),
            ChallengeStart::Created(code) => {
                tracing::info!(room = %code, kind = kind.name(), rally = ?challenge.rally, name, "challenge started");
                self.run_new(Room::challenge(code.clone(), challenge, name.to_string())).await.map_err(stored)?;
                (code, false)
            }
        };
        // A resumed run gets whatever part of its setting up an interruption left undone.
        self.ask(&code, |reply| Msg::SetUpChallenge { reply }).await.ok_or_else(room_stopped)??;
        Ok(Some((code, resumed)))
    }

    /// Starts a task for `room` (owned with `fence` in cluster mode) and returns its inbox; if the room has
    /// a task already (a racing load), that task's inbox, and `room` is dropped.
    fn spawn(&self, room: Room, fence: Option<Fence>) -> mpsc::Sender<Msg> {
        let (task, tx, rx) = match self.registry.register(&room.code) {
            Ok(new) => new,
            Err(running) => return running,
        };
        let env = crate::room::TaskEnv {
            registry: self.registry.clone(),
            task,
            stopping: self.stopping.clone(),
            idle_ms: self.timing.idle_ms,
            pool: self.pool.clone(),
            spectators: self.spectators,
            fence,
            cluster: self.cluster.clone(),
        };
        let task = RoomTask::new(room, self.db.clone(), self.clock, self.timing, rx, self.summaries.clone(), env);
        self.tasks.spawn(task.run());
        tx
    }

    /// The inbox of room `code`, loading the room from its log if its task is not running.
    /// In cluster mode, the inbox of the room's proxy on this node.
    pub async fn inbox(&self, code: &str) -> DbResult<Option<mpsc::Sender<Msg>>> {
        let code = code.to_uppercase();
        if let Some(cluster) = &self.cluster {
            return self.proxy(cluster, &code).await;
        }
        if let Some(tx) = self.registry.get(&code) {
            return Ok(Some(tx));
        }
        if self.stopping.is_cancelled() {
            return Ok(None);
        }
        let Some(stored) = self.db.room(&code).await? else {
            return Ok(None);
        };
        Ok(Some(self.spawn(rebuild(stored), None)))
    }

    async fn proxy(&self, cluster: &Cluster, code: &str) -> DbResult<Option<mpsc::Sender<Msg>>> {
        if let Some(tx) = self.proxies.get(code) {
            return Ok(Some(tx));
        }
        if self.stopping.is_cancelled() || !self.db.room_exists(code).await? {
            return Ok(None);
        }
        let (task, tx, rx) = match self.proxies.register(code) {
            Ok(new) => new,
            Err(running) => return Ok(Some(running)),
        };
        let env = ProxyEnv { stopping: self.stopping.clone(), idle_ms: self.timing.idle_ms, tasks: self.tasks.clone() };
        cluster.spawn_proxy(code, rx, self.proxies.clone(), task, env);
        Ok(Some(tx))
    }

    /// Asks room `code` something and waits for the answer. A task that retired as the message
    /// reached it drops the message; the room is then loaded again and asked again.
    pub async fn ask<T>(&self, code: &str, make: impl Fn(oneshot::Sender<T>) -> Msg) -> Option<T> {
        for _ in 0..3 {
            let inbox = self.inbox(code).await.ok().flatten()?;
            let (reply, answer) = oneshot::channel();
            if inbox.send(make(reply)).await.is_err() {
                continue;
            }
            if let Ok(answer) = answer.await {
                return Some(answer);
            }
        }
        None
    }

    /// How many room tasks are running.
    pub fn running(&self) -> usize {
        self.registry.running()
    }

    /// How many room tasks have been started since the server started.
    pub fn tasks_started(&self) -> u64 {
        self.registry.next_task.load(Ordering::Relaxed)
    }

    pub async fn view(&self, code: &str) -> Option<RoomView> {
        self.ask(code, |reply| Msg::View { reply }).await
    }

    /// The open public tables with their seats, by code.
    pub fn lobby(&self) -> Vec<Summary> {
        public_tables(&self.summaries.borrow())
    }

    /// Wakes on every change to any room's summary (the lobby page watches this).
    pub fn watch_lobby(&self) -> tokio::sync::watch::Receiver<HashMap<String, Summary>> {
        self.summaries.subscribe()
    }

    /// Tells every room task to stop after the message it is handling (a commit in flight finishes),
    /// and waits until they all have.
    pub async fn shutdown(&self) {
        let owned = self.registry.codes();
        self.stopping.cancel();
        self.tasks.close();
        self.tasks.wait().await;
        if let Some(cluster) = &self.cluster {
            cluster.leave(&owned).await;
        }
    }

    /// Cancelled when the server begins to stop.
    pub fn stopping(&self) -> CancellationToken {
        self.stopping.clone()
    }
}

fn stored(e: sqlx::Error) -> Refused {
    tracing::error!(error = %e, "database error");
    Refused::new(ErrorCode::Internal, "the server could not reach its database")
}

/// A room task that stopped before answering (the server is shutting down).
pub fn room_stopped() -> Refused {
    Refused::new(ErrorCode::Internal, "the room stopped")
}

/// The open public tables among `summaries`, by code.
pub fn public_tables(summaries: &HashMap<String, Summary>) -> Vec<Summary> {
    let mut tables: Vec<Summary> =
        summaries.values().filter(|s| s.mode == Mode::Public && !s.closed).cloned().collect();
    tables.sort_by(|a, b| a.code.cmp(&b.code));
    tables
}

/// Takes room `code` for this node (one take at a time: the caller holds `Rooms::taking`): its fence, or
/// `None` when another live node owns it.
async fn take(db: &Db, cluster: &Cluster, code: &str, now: u64) -> DbResult<Option<Fence>> {
    let Some(number) = db.take_room(code, cluster.id(), now).await? else { return Ok(None) };
    tracing::info!(room = code, fence = number, node = cluster.id(), "room taken");
    crate::metrics::counter!(crate::metrics::ROOMS_TAKEN).increment(1);
    Ok(Some(Fence { node: cluster.id().to_string(), number }))
}

fn new_code() -> String {
    let mut rng = rand::rng();
    (0..6).map(|_| CODE_CHARS[rng.random_range(0..CODE_CHARS.len())] as char).collect()
}

/// A room from its stored log (rules or a mode the server does not know were refused as it was loaded).
fn rebuild(stored: StoredRoom) -> Room {
    let mut room = match stored.challenge {
        Some(challenge) => Room::challenge(stored.code, challenge, stored.host),
        None => Room::new(stored.code, stored.rules, stored.mode, stored.host),
    };
    for entry in &stored.entries {
        room.apply(entry);
    }
    room
}
