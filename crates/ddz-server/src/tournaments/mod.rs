//! Tournaments at work (docs/tournaments.md): the [`Desk`] that creates them, registers and withdraws
//! players, shows them and announces the recurring events, and the one driver of each open event
//! (`driver.rs`), on the node that drives it.
//!
//! A tournament is its log in the database (`store/tournaments.rs`), folded by
//! [`crate::domain::tournament`]. Every entry is appended under the number its writer expects next, and
//! the database refuses a number taken. On a node, every writer of one tournament (its driver, each
//! registration and withdrawal) takes its turn ([`Desk::turn`]): they are applied in order, a queue, never
//! a race; across nodes, a writer whose number was taken reads the log again and tries once more, with
//! only the registering nodes and the one driver writing at all. A server of its own drives every event;
//! in cluster mode a node takes an event nobody drives (or whose driver's node died) and drives it under
//! a fencing number, as a room's owner runs a room.
//!
//! Each table is an ordinary room of mode [`Mode::Tournament`]: the driver counts its finished deals
//! from their records, and deals its next one after [`crate::room::Timing::between_deals_ms`].

mod driver;
mod follow;
#[cfg(test)]
mod tests;
mod watching;

pub use follow::Followed;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

use self::driver::{Driver, Wake};

use ddz_engine::Seed;

use crate::background::First;
use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode};
use crate::domain::tournament::{
    Announce, DRAW, Entry, EntryError, Format, Phase, Recurring, SettingsDraft, SettingsError, Stamped, Tournament,
    checked_title, seats,
};
use crate::metrics;
use crate::rooms::Rooms;
use crate::store::{Creation, DbResult, Fence, Hosting, Listed, Places, StoreError};
use crate::wire::http::{TournamentRecord, TournamentRound, TournamentView, Tournaments};
use crate::wire::pages::{EntrantView, TournamentSummary, TournamentTable};
use crate::wire::protocol::{ErrorCode, Refused};

/// How often each node looks at the open tournaments: to announce the recurring ones, to start a driver
/// for each event nobody drives, to keep the followers and the hall of events driven elsewhere up to date.
const SCAN: Duration = Duration::from_secs(1);
/// Wakes a driver holds before it reads them (it reads all that wait at once; a full inbox loses none it
/// would see: the driver looks at everything when woken).
const WAKES_WAITING: usize = 256;
/// How long a registration or a withdrawal tries, when other nodes' entries take its number first.
const ENTRY_WITHIN: Duration = Duration::from_secs(10);
/// Tournaments the lists show in each of their three parts, at most.
const LISTED: u32 = 50;
/// Tournaments one name may host while they take registrations.
const HOSTED: u32 = 3;

/// An event's turn on this node, and its fold as this node last read it.
type Turn = tokio::sync::OwnedMutexGuard<Option<Tournament>>;
/// The turns of the events this node has read, by event.
type Turns = HashMap<String, Arc<tokio::sync::Mutex<Option<Tournament>>>>;

/// Tournaments: each event's turn with its fold, the drivers running here, the open events.
#[derive(Clone)]
pub struct Desk {
    rooms: Rooms,
    /// The drivers running on this node, by event, and the event of each of their round's tables.
    drivers: Arc<Mutex<HashMap<String, mpsc::Sender<Wake>>>>,
    tables: Arc<Mutex<HashMap<RoomCode, String>>>,
    /// Each event's turn on this node, holding its fold: its readers and writers one after another.
    turns: Arc<Mutex<Turns>>,
    /// The open events as the last look read them (the hall's): taking registrations, running.
    open: Arc<Mutex<(Vec<TournamentSummary>, Vec<TournamentSummary>)>>,
    /// The operator's recurring events, and the runs this node has seen announced.
    recurring: Arc<[Recurring]>,
    announced: Arc<Mutex<HashSet<String>>>,
    /// The tournaments followed on this node (`follow.rs`): each one's page as its followers last got it.
    followed: Arc<Mutex<HashMap<String, follow::Follow>>>,
}

/// Why a tournament request is refused.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Entry(#[from] EntryError),
    #[error("there is no tournament {0}")]
    NoSuchTournament(String),
    #[error("{0} hosts {HOSTED} tournaments taking registrations already")]
    Hosting(String),
    #[error("another request changed the tournament meanwhile: try again")]
    Contended,
    #[error("tournament {0} is not over: its record is published at its end")]
    NotOver(String),
    /// A table's room refused what the tournament asked of it.
    #[error(transparent)]
    Table(#[from] Refused),
}

impl From<DeskError> for Refused {
    fn from(e: DeskError) -> Refused {
        let code = match e {
            DeskError::Store(e) => return e.refusal(),
            DeskError::Table(refused) => return refused,
            DeskError::Settings(_) => ErrorCode::BadSettings,
            DeskError::Hosting(_) => ErrorCode::HostingLimit,
            DeskError::Entry(EntryError::Closed) => ErrorCode::RegistrationClosed,
            DeskError::Entry(EntryError::AlreadyRegistered(_)) => ErrorCode::AlreadyRegistered,
            DeskError::Entry(EntryError::NotRegistered(_)) => ErrorCode::NotRegistered,
            DeskError::Entry(EntryError::Full) => ErrorCode::TournamentFull,
            DeskError::NoSuchTournament(_) => ErrorCode::NoSuchTournament,
            DeskError::Contended => ErrorCode::Busy,
            DeskError::NotOver(_) => ErrorCode::TournamentNotOver,
        };
        Refused::new(code, e.to_string())
    }
}

/// What creating a tournament takes.
pub struct Creating {
    pub host: PlayerName,
    pub title: Option<String>,
    pub format: Format,
    /// Checked here, against the format's field.
    pub settings: SettingsDraft,
}

impl Desk {
    pub fn new(rooms: Rooms, recurring: Vec<Recurring>) -> Desk {
        Desk {
            rooms,
            drivers: Arc::default(),
            tables: Arc::default(),
            turns: Arc::default(),
            open: Arc::default(),
            recurring: recurring.into(),
            announced: Arc::default(),
            followed: Arc::default(),
        }
    }

    /// Creates a tournament under a fresh id (`id` for an operator's recurring run, which another node may
    /// have created first: then `None`).
    pub async fn create(&self, creating: Creating, id: Option<String>) -> Result<Option<String>, DeskError> {
        let now = self.rooms.now_ms();
        let Creating { host, title, format, settings } = creating;
        format.check(settings.table, now)?;
        let settings = settings.check(format.size())?;
        // No title: the page names it by its table type and format, in the reader's language.
        let title = checked_title(title.as_deref())?;
        // A player's tournament holds one of its host's slots (an operator's recurring run holds none).
        let hosting = id.is_none().then(|| Hosting { key: host.key().clone(), slots: HOSTED });
        let seed = Seed::random(&mut rand::rng());
        let recurring = id.is_some();
        let entry = Entry::Created { title, host: host.to_string(), format, settings, seed, draw: DRAW, recurring };
        let first = Stamped { n: 1, at: now, entry };
        let id = id.unwrap_or_else(new_id);
        let tournament = Tournament::from_log(std::slice::from_ref(&first)).expect("a created entry starts a log");
        let summary = summary_json(&id, &tournament);
        match self.rooms.db().create_tournament(&id, &first, summary, hosting).await? {
            Creation::Made => {}
            Creation::Taken => return Ok(None),
            Creation::Hosting => return Err(DeskError::Hosting(host.to_string())),
        }
        tracing::info!(tournament = %id, title = %tournament.title, "tournament created");
        *self.turn(&id).await = Some(tournament);
        Ok(Some(id))
    }

    /// Tournament `id`'s turn on this node, with its fold as this node last read it (none yet): held by
    /// whoever reads or writes the tournament here, so that its writers (its driver, registrations,
    /// withdrawals) apply in the order they came, one after another, and nobody copies the fold to read it.
    async fn turn(&self, id: &str) -> Turn {
        let turn = self.turns.lock().expect("the turns").entry(id.to_string()).or_default().clone();
        turn.lock_owned().await
    }

    /// The fold held in `turn`, brought up to the log's last entry (read from the start the first time).
    async fn current<'a>(&self, id: &str, turn: &'a mut Turn) -> Result<&'a mut Tournament, DeskError> {
        let after = turn.as_ref().map_or(0, |t| t.last);
        let entries = self.rooms.db().tournament_log(id, after).await?;
        match turn.as_mut() {
            Some(tournament) => {
                for stamped in &entries {
                    tournament.apply(stamped);
                }
            }
            None => {
                let tournament =
                    Tournament::from_log(&entries).ok_or_else(|| DeskError::NoSuchTournament(id.to_string()))?;
                **turn = Some(tournament);
            }
        }
        let tournament = turn.as_mut().expect("read just now");
        if !entries.is_empty() {
            self.publish(id, tournament);
        }
        Ok(tournament)
    }

    /// What `read` makes of tournament `id` as the log now has it, in its turn.
    pub async fn read<R>(&self, id: &str, read: impl FnOnce(&Tournament) -> R) -> Result<R, DeskError> {
        let mut turn = self.turn(id).await;
        Ok(read(self.current(id, &mut turn).await?))
    }

    /// Appends `entry` to `tournament` (read in its turn) under the next number, under `fence` if the
    /// event's driver writes it, and applies it: `false` when another node's writer took that number first
    /// (the fold is then no longer the log's: the turn forgets it, to read it again).
    async fn append(&self, id: &str, turn: &mut Turn, entry: Entry, fence: Option<Fence>) -> Result<bool, DeskError> {
        let tournament = turn.as_mut().expect("appended to a fold read in its turn");
        let stamped = Stamped { n: tournament.last + 1, at: self.rooms.now_ms(), entry };
        tournament.apply(&stamped);
        let summary = summary_json(id, tournament);
        let places = (tournament.phase == Phase::Finished).then(|| places(tournament));
        let phase = tournament.phase;
        let appended = self.rooms.db().append_tournament(id, &stamped, phase, summary, places, fence).await;
        match appended {
            Ok(true) => {
                self.publish(id, tournament);
                Ok(true)
            }
            Ok(false) => {
                **turn = None;
                Ok(false)
            }
            Err(e) => {
                **turn = None;
                Err(e.into())
            }
        }
    }

    /// Appends what `entry` makes of the tournament as it now is, in its turn: read again and tried once
    /// more whenever another node's writer took the number first, for [`ENTRY_WITHIN`]. The driver here
    /// is woken: a registration that fills a sit-and-go starts it at once.
    async fn enter(&self, id: &str, entry: impl Fn(&Tournament) -> Result<Entry, EntryError>) -> Result<(), DeskError> {
        let mut turn = self.turn(id).await;
        let deadline = tokio::time::Instant::now() + ENTRY_WITHIN;
        while tokio::time::Instant::now() < deadline {
            let entry = entry(self.current(id, &mut turn).await?)?;
            if self.append(id, &mut turn, entry, None).await? {
                self.wake(id, Wake::Look);
                return Ok(());
            }
        }
        Err(DeskError::Contended)
    }

    /// Registers `name` (from `address`) for tournament `id`.
    pub async fn register(&self, id: &str, name: &PlayerName, address: Option<String>) -> Result<(), DeskError> {
        self.enter(id, |tournament| {
            tournament.check_register(name)?;
            Ok(Entry::Registered { name: name.to_string(), address: address.clone() })
        })
        .await
    }

    /// Withdraws `name` from tournament `id` before it starts.
    pub async fn withdraw(&self, id: &str, name: &PlayerName) -> Result<(), DeskError> {
        self.enter(id, |tournament| {
            tournament.check_withdraw(name)?;
            Ok(Entry::Withdrew { name: name.to_string() })
        })
        .await
    }

    /// Wakes tournament `id`'s driver, if it runs here.
    fn wake(&self, id: &str, wake: Wake) {
        if let Some(driver) = self.drivers.lock().expect("the drivers").get(id) {
            // A driver with wakes waiting reads them all at once: a full inbox loses nothing it would see.
            let _ = driver.try_send(wake);
        }
    }

    /// A driver's round: its tables just seated (woken by their deals from now on) and just closed.
    fn note_tables(&self, id: &str, seated: &[RoomCode], closed: &[RoomCode]) {
        let mut tables = self.tables.lock().expect("the tables");
        for code in closed {
            tables.remove(code);
        }
        for code in seated {
            tables.insert(code.clone(), id.to_string());
        }
    }

    /// Starts tournament `id`'s driver here (`fence`: the ownership it drives under in cluster mode), unless
    /// one runs already.
    fn start_driver(&self, id: &str, fence: Option<Fence>) {
        let mut drivers = self.drivers.lock().expect("the drivers");
        if drivers.contains_key(id) {
            return;
        }
        let (wakes, inbox) = mpsc::channel(WAKES_WAITING);
        drivers.insert(id.to_string(), wakes);
        metrics::gauge!(metrics::TOURNAMENTS_DRIVEN).increment(1);
        tracing::info!(tournament = %id, "driving the tournament");
        self.rooms.background().spawn(Driver::new(id.to_string(), self.clone(), fence, inbox).run());
    }

    /// A driver that ended: its event, its tables and (cluster mode) its ownership let go.
    async fn forget_driver(&self, id: &str, fence: Option<&Fence>) {
        self.drivers.lock().expect("the drivers").remove(id);
        metrics::gauge!(metrics::TOURNAMENTS_DRIVEN).decrement(1);
        self.tables.lock().expect("the tables").retain(|_, event| event != id);
        if let Some(fence) = fence
            && let Err(e) = self.rooms.db().release_tournament(id, fence).await
        {
            tracing::warn!(tournament = %id, error = %e, "could not let the tournament go");
        }
    }

    /// The lists: upcoming, running, finished.
    pub async fn list(&self) -> Result<Tournaments, DeskError> {
        let read = |phases: &'static [Phase]| async move {
            let listed = self.rooms.db().tournaments_in(phases, LISTED).await?;
            Ok::<_, DeskError>(readable(&listed))
        };
        let mut upcoming: Vec<TournamentSummary> = read(&[Phase::Registering]).await?;
        upcoming.sort_by_key(|s| s.starts_at.unwrap_or(u64::MAX));
        Ok(Tournaments {
            upcoming,
            running: read(&[Phase::Running]).await?,
            finished: read(&[Phase::Finished, Phase::Cancelled]).await?,
        })
    }

    /// A finished tournament's public record: its log, each address replaced by its group.
    pub async fn record(&self, id: &str) -> Result<TournamentRecord, DeskError> {
        let mut log = self.rooms.db().tournament_log(id, 0).await?;
        let tournament = Tournament::from_log(&log).ok_or_else(|| DeskError::NoSuchTournament(id.to_string()))?;
        if !matches!(tournament.phase, Phase::Finished | Phase::Cancelled) {
            return Err(DeskError::NotOver(id.to_string()));
        }
        let mut groups: Vec<String> = Vec::new();
        for stamped in &mut log {
            if let Entry::Registered { address: Some(address), .. } = &mut stamped.entry {
                let group = match groups.iter().position(|known| known == address) {
                    Some(i) => i + 1,
                    None => {
                        groups.push(address.clone());
                        groups.len()
                    }
                };
                *address = format!("a{group}");
            }
        }
        Ok(TournamentRecord { id: id.to_string(), commitment: tournament.commitment(), log })
    }

    /// Everything about tournament `id`.
    pub async fn view(&self, id: &str) -> Result<TournamentView, DeskError> {
        let now = self.rooms.now_ms();
        self.read(id, |tournament| view(id, tournament, now)).await
    }

    /// The open tournaments as the last look read them: those taking registrations, and those running (for
    /// the hall, without a read of the database).
    pub fn open_summaries(&self) -> (Vec<TournamentSummary>, Vec<TournamentSummary>) {
        self.open.lock().expect("the open events").clone()
    }

    /// Looks at the open tournaments every [`SCAN`] and wakes each driver here as its tables finish deals,
    /// until the server stops. While the database fails the look backs off as quick match does.
    pub fn spawn(self) {
        let background = self.rooms.background();
        let desk = self.clone();
        let mut changes = self.rooms.summary_changes();
        background.until_stopped(async move {
            loop {
                match changes.recv().await {
                    Ok(summary) if summary.mode == Mode::Tournament => {
                        let event = desk.tables.lock().expect("the tables").get(&summary.code).cloned();
                        if let Some(id) = event {
                            desk.wake(&id, Wake::Table { code: summary.code, deals: summary.deals_played });
                        }
                    }
                    Ok(_) => {}
                    // Changes went by unread: every driver looks at everything.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        let ids: Vec<String> = desk.drivers.lock().expect("the drivers").keys().cloned().collect();
                        for id in ids {
                            desk.wake(&id, Wake::Look);
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        background.every(SCAN, First::Now, move || {
            let desk = self.clone();
            async move {
                let scanned = desk.scan().await;
                if let Err(e) = &scanned {
                    tracing::warn!(error = %e, "the tournaments could not be read");
                }
                scanned.is_ok()
            }
        });
    }

    /// One look at the open tournaments: the recurring events' next runs announced, a driver started for
    /// each event nobody drives, the events driven elsewhere read again for their followers here, the
    /// hall's list.
    async fn scan(&self) -> DbResult<()> {
        let listed = self.rooms.db().tournaments_in(&[Phase::Registering], u32::MAX).await?;
        let registering: Vec<String> = listed.into_iter().map(|l| l.id).collect();
        self.announce(&registering).await?;
        let open = self.rooms.db().tournaments_in(&[Phase::Registering, Phase::Running], u32::MAX).await?;
        let summaries = readable(&open);
        *self.open.lock().expect("the open events") =
            summaries.into_iter().partition(|s| s.phase == Phase::Registering);
        // The folds of tournaments no longer open are forgotten here, but those in someone's turn now.
        let open_ids: HashSet<&str> = open.iter().map(|listed| listed.id.as_str()).collect();
        self.turns
            .lock()
            .expect("the turns")
            .retain(|id, turn| open_ids.contains(id.as_str()) || turn.try_lock().is_err());
        // The followers here of events driven elsewhere: the log read again (a change is published).
        let driven: HashSet<String> = self.drivers.lock().expect("the drivers").keys().cloned().collect();
        for id in self.followed_open().into_iter().filter(|id| !driven.contains(id)) {
            if let Err(e) = self.read(&id, |_| ()).await {
                tracing::warn!(tournament = %id, error = %e, "a followed tournament could not be read");
            }
        }
        match self.rooms.node().map(str::to_string) {
            None => {
                for listed in &open {
                    self.start_driver(&listed.id, None);
                }
            }
            Some(node) => {
                let now = self.rooms.now_ms();
                for id in self.rooms.db().undriven_tournaments(now).await? {
                    if driven.contains(&id) {
                        continue;
                    }
                    if let Some(number) = self.rooms.db().take_tournament(&id, &node, now).await? {
                        self.start_driver(&id, Some(Fence { node: node.clone(), number }));
                    }
                }
            }
        }
        Ok(())
    }

    /// Creates each recurring event's next run once it is due: a scheduled run once its registration opens,
    /// a sit-and-go's next run once none of its runs takes registrations (`registering`: the ids of those
    /// that do). Every node does; a run's id is the event's slug and its start (or run number), so the first
    /// node's creation stands and the others find it there.
    async fn announce(&self, registering: &[String]) -> DbResult<()> {
        let now = self.rooms.now_ms();
        for event in self.recurring.iter() {
            let (id, starts_at) = match event.due(now) {
                None => continue,
                Some(Announce::Scheduled { id, starts_at }) => (id, starts_at),
                Some(Announce::SitAndGo) => {
                    if registering.iter().any(|id| event.run_of(id).is_some()) {
                        continue;
                    }
                    let runs = self.rooms.db().tournament_ids(&format!("{}-", event.slug)).await?;
                    // Read again after the runs: a run another node opened since `registering` was read is
                    // registering here (opened before the runs were read, it is among them, and no second
                    // run is made after it; opened after, the two nodes open the same id, stored once).
                    let registering_now = self.rooms.db().tournaments_in(&[Phase::Registering], u32::MAX).await?;
                    if registering_now.iter().any(|listed| event.run_of(&listed.id).is_some()) {
                        continue;
                    }
                    let last = runs.iter().filter_map(|id| event.run_of(id)).max().unwrap_or(0);
                    (event.run_id(last + 1), now)
                }
            };
            if self.announced.lock().expect("the notes").contains(&id) {
                continue;
            }
            let creating = Creating {
                host: operator(),
                title: Some(event.title.clone()).filter(|title| !title.is_empty()),
                format: event.format(starts_at),
                settings: event.settings(),
            };
            match self.create(creating, Some(id.clone())).await {
                Ok(_) => {}
                Err(DeskError::Store(e)) => return Err(e),
                Err(e) => tracing::error!(event = %event.slug, error = %e, "a recurring event could not be announced"),
            }
            let mut announced = self.announced.lock().expect("the notes");
            // One run per event is remembered: the ids before it are past.
            announced.retain(|known| event.run_of(known).is_none());
            announced.insert(id);
        }
        Ok(())
    }
}

/// The host of an operator's recurring events.
pub fn operator() -> PlayerName {
    PlayerName::parse("Organiser").expect("a valid name")
}

/// A fresh tournament id: 10 characters without look-alikes.
fn new_id() -> String {
    use rand::RngExt;
    const CHARS: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..10).map(|_| CHARS[rng.random_range(0..CHARS.len())] as char).collect()
}

fn summary_json(id: &str, tournament: &Tournament) -> String {
    serde_json::to_string(&summary(id, tournament)).expect("a summary serialises")
}

/// A tournament as the lists show it.
pub fn summary(id: &str, t: &Tournament) -> TournamentSummary {
    let starts_at = t.starts_at();
    let finished = t.phase == Phase::Finished;
    let podium = if finished {
        t.standings().iter().take(seats(t.settings.table)).map(|s| t.entrants[s.entrant].name.clone()).collect()
    } else {
        Vec::new()
    };
    TournamentSummary {
        id: id.to_string(),
        title: t.title.clone(),
        host: t.host.clone(),
        recurring: t.recurring,
        table: t.settings.table,
        format: t.format.clone(),
        phase: t.phase,
        created_at: t.created_at,
        starts_at: starts_at.filter(|_| t.phase == Phase::Registering),
        started_at: t.started_at,
        finished_at: t.finished_at,
        entrants: t.entrants.len(),
        left: t.entrants.iter().filter(|e| e.out.is_none()).count(),
        round: t.rounds.last().map(|r| r.number),
        stage: t.rounds.last().map(|r| r.stage),
        podium,
    }
}

/// Where the people of a finished tournament placed.
fn places(t: &Tournament) -> Places {
    let people = t
        .standings()
        .into_iter()
        .filter(|s| t.entrants[s.entrant].bot.is_none())
        .map(|s| (t.entrants[s.entrant].name.clone(), s.place))
        .collect();
    Places { entrants: t.entrants.len(), people }
}

/// Everything about a tournament; the seed only once it is over.
pub fn view(id: &str, t: &Tournament, now: u64) -> TournamentView {
    let over = matches!(t.phase, Phase::Finished | Phase::Cancelled);
    let standings = match t.phase {
        Phase::Registering | Phase::Cancelled => (0..t.entrants.len()).map(|i| (i, i + 1)).collect::<Vec<_>>(),
        Phase::Running | Phase::Finished => t.standings().into_iter().map(|s| (s.entrant, s.place)).collect(),
    };
    let name = |i: usize| t.entrants[i].name.clone();
    TournamentView {
        summary: summary(id, t),
        settings: t.settings.clone(),
        until: t.until,
        commitment: t.commitment(),
        seed: over.then_some(t.seed),
        standings: standings
            .into_iter()
            .map(|(i, place)| {
                let e = &t.entrants[i];
                EntrantView { place, name: e.name.clone(), bot: e.bot.is_some(), chips: e.chips, out: e.out }
            })
            .collect(),
        byes: t.byes.clone(),
        rounds: t
            .rounds
            .iter()
            .map(|r| TournamentRound {
                number: r.number,
                stage: r.stage,
                deals: r.deals,
                line: r.line,
                closed: r.closed,
                tables: r
                    .tables
                    .iter()
                    .map(|table| TournamentTable {
                        code: table.code.clone(),
                        players: table.players.iter().map(|&i| name(i)).collect(),
                        counted: table.counted,
                        won: table.won.clone(),
                    })
                    .collect(),
            })
            .collect(),
        now,
    }
}

/// The stored summaries that read back, for a list: one that does not is corrupt data, counted
/// (`ddz_unreadable_stored_total`) and logged with its event, and left out of the list (the event itself
/// still reads from its log).
fn readable(listed: &[Listed]) -> Vec<TournamentSummary> {
    listed
        .iter()
        .filter_map(|listed| match serde_json::from_str::<TournamentSummary>(&listed.summary) {
            Ok(summary) => Some(summary),
            Err(e) => {
                metrics::counter!(metrics::UNREADABLE_STORED).increment(1);
                tracing::error!(tournament = %listed.id, error = %e, "a stored summary does not read back");
                None
            }
        })
        .collect()
}
