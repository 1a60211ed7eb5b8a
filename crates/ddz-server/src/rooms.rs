//! The registry of running rooms: creates rooms, restores them from the database at start, and hands
//! out their inboxes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ddz_engine::Rules;
use rand::RngExt;
use tokio::sync::{mpsc, oneshot};

use crate::actor::{INBOX, Msg, RoomTask, Summaries, Summary, Timing};
use crate::challenge::{Challenge, ChallengeKind, utc_date};
use crate::clock::Clock;
use crate::db::{ChallengeStart, Db, DbResult, StoredRoom, mode_name};
use crate::protocol::{ErrorCode, Refused, RoomView};
use crate::room::{Mode, Room};
use crate::work::Pool;

#[derive(Clone)]
pub struct Rooms {
    db: Db,
    clock: Clock,
    timing: Timing,
    inboxes: Arc<Mutex<HashMap<String, mpsc::Sender<Msg>>>>,
    summaries: Summaries,
    starting: Arc<tokio::sync::Mutex<()>>,
    /// Where bots think; shared with the hints and readings endpoints.
    pool: Pool,
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
            inboxes: Arc::default(),
            summaries,
            starting: Arc::default(),
            pool: Pool::per_core(),
        }
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

    /// Restores every open room from the database.
    pub async fn restore(&self) -> DbResult<usize> {
        let stored = self.db.open_rooms().await?;
        let count = stored.len();
        for room in stored {
            self.spawn(rebuild(room));
        }
        Ok(count)
    }

    /// Creates a room and starts its task.
    pub async fn create(&self, rules: Rules, mode: Mode, host: &str) -> DbResult<String> {
        let code = self.unused_code().await?;
        self.db.create_room(&code, rules.name(), mode, host, self.clock.now_ms()).await?;
        self.spawn(Room::new(code.clone(), rules, mode, host.to_string()));
        tracing::info!(room = %code, rules = %rules, mode = mode_name(mode), host, "room created");
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
                self.spawn(Room::challenge(code.clone(), challenge, name.to_string()));
                (code, false)
            }
        };
        // A resumed run gets whatever part of its setting up an interruption left undone.
        self.ask(&code, |reply| Msg::SetUpChallenge { reply }).await.ok_or_else(room_stopped)??;
        Ok(Some((code, resumed)))
    }

    fn spawn(&self, room: Room) {
        let (tx, rx) = mpsc::channel(INBOX);
        self.inboxes.lock().expect("rooms lock").insert(room.code.clone(), tx);
        let task = RoomTask::new(
            room,
            self.db.clone(),
            self.clock,
            self.timing,
            rx,
            self.summaries.clone(),
            self.pool.clone(),
        );
        tokio::spawn(task.run());
    }

    /// The inbox of room `code`, loading a closed room (read-only) from the database if needed.
    pub async fn inbox(&self, code: &str) -> DbResult<Option<mpsc::Sender<Msg>>> {
        let code = code.to_uppercase();
        if let Some(tx) = self.inboxes.lock().expect("rooms lock").get(&code) {
            return Ok(Some(tx.clone()));
        }
        let Some(stored) = self.db.room(&code).await? else {
            return Ok(None);
        };
        self.spawn(rebuild(stored));
        Ok(self.inboxes.lock().expect("rooms lock").get(&code).cloned())
    }

    /// Asks room `code` something and waits for the answer.
    pub async fn ask<T>(&self, code: &str, make: impl FnOnce(oneshot::Sender<T>) -> Msg) -> Option<T> {
        let inbox = self.inbox(code).await.ok().flatten()?;
        let (reply, answer) = oneshot::channel();
        inbox.send(make(reply)).await.ok()?;
        answer.await.ok()
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

    /// Stops every room task (their inboxes close).
    pub fn shutdown(&self) {
        self.inboxes.lock().expect("rooms lock").clear();
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

fn new_code() -> String {
    let mut rng = rand::rng();
    (0..6).map(|_| CODE_CHARS[rng.random_range(0..CODE_CHARS.len())] as char).collect()
}

/// A room from its stored log.
fn rebuild(stored: StoredRoom) -> Room {
    let rules: Rules = stored.rules.parse().unwrap_or(Rules::house(true));
    let mut room = match stored.challenge {
        Some(challenge) => Room::challenge(stored.code, challenge, stored.host),
        None => Room::new(stored.code, rules, stored.mode, stored.host),
    };
    for entry in &stored.entries {
        room.apply(entry);
    }
    room
}
