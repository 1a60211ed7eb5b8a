//! Tournaments at work (docs/tournaments.md): the [`Desk`] that creates them, registers and withdraws
//! players and shows them, and the driver every node runs, which moves each tournament on.
//!
//! A tournament is its log in the database (`store/tournaments.rs`), folded by
//! [`crate::domain::tournament`]. Nothing is owned: every node's driver reads each open tournament, asks
//! the fold what is due, and appends it under the next number; the database refuses a number taken, so
//! only one node's entry counts and the others read it back. What follows an entry (setting a table up,
//! dealing its next deal, closing it) is asked of the table's room in a form it answers once however
//! often it is asked, so a node that dies between the entry and the act leaves it for the next tick of
//! any node. A tournament therefore survives a restart and a node's death without hand-over.
//!
//! Each table is an ordinary room of mode [`Mode::Tournament`]: the driver counts its finished deals
//! from their records, and deals its next one after [`crate::room::Timing::between_deals_ms`].

mod follow;
mod watching;

pub use follow::Followed;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use ddz_engine::{DealRecord, Seed};

use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode};
use crate::domain::tournament::{
    Announce, DRAW, Due, Entry, EntryError, FILL_LEVEL, Format, Phase, Recurring, Seating, Settings, SettingsError,
    Stamped, Tournament, checked_title, seats,
};
use crate::matching::quick_rules;
use crate::room::{Request, TableSeat, retry_pause_ms};
use crate::rooms::Rooms;
use crate::store::{Creation, DbResult, Hosting, Places, StoreError, TableDeal};
use crate::wire::http::{TournamentRecord, TournamentRound, TournamentView, Tournaments};
use crate::wire::pages::{EntrantView, TournamentSummary, TournamentTable};
use crate::wire::protocol::{ErrorCode, Refused};

/// How often each node's driver looks at the open tournaments.
const TICK: Duration = Duration::from_millis(300);
/// Tournaments the lists show in each of their three parts, at most.
const LISTED: u32 = 50;
/// Tournaments one name may host while they take registrations.
const HOSTED: u32 = 3;
/// How many times an entry is tried when another took its number first.
const TRIES: usize = 5;

/// Tournaments: the fold of each one this node has read, and the driver's notes of what it has asked.
#[derive(Clone)]
pub struct Desk {
    rooms: Rooms,
    known: Arc<Mutex<HashMap<String, Tournament>>>,
    /// Tables this node has set up (or found set up), and the deal it last asked each for.
    set_up: Arc<Mutex<HashSet<RoomCode>>>,
    asked: Arc<Mutex<HashMap<RoomCode, u32>>>,
    /// The operator's recurring events, and the runs this node has seen announced.
    recurring: Arc<[Recurring]>,
    announced: Arc<Mutex<HashSet<String>>>,
    /// The tournaments followed on this node (`follow.rs`): each one's page as its followers last got it.
    followed: Arc<Mutex<HashMap<String, watch::Sender<Arc<Followed>>>>>,
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
    pub settings: Settings,
}

impl Desk {
    pub fn new(rooms: Rooms, recurring: Vec<Recurring>) -> Desk {
        Desk {
            rooms,
            known: Arc::default(),
            set_up: Arc::default(),
            asked: Arc::default(),
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
        settings.check(format.size())?;
        // No title: the page names it by its table type and format, in the reader's language.
        let title = checked_title(title.as_deref())?;
        // A player's tournament holds one of its host's slots (an operator's recurring run holds none).
        let hosting = id.is_none().then(|| Hosting { key: host.key().to_string(), slots: HOSTED });
        let seed = Seed::random(&mut rand::rng());
        let entry = Entry::Created { title, host: host.to_string(), format, settings, seed, draw: DRAW };
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
        self.known.lock().expect("the cache").insert(id.clone(), tournament);
        Ok(Some(id))
    }

    /// Tournament `id` as the log now has it.
    pub async fn load(&self, id: &str) -> Result<Tournament, DeskError> {
        let cached = self.known.lock().expect("the cache").get(id).cloned();
        let after = cached.as_ref().map_or(0, |t| t.last);
        let entries = self.rooms.db().tournament_log(id, after).await?;
        let tournament = match cached {
            Some(mut tournament) => {
                for stamped in &entries {
                    tournament.apply(stamped);
                }
                tournament
            }
            None => Tournament::from_log(&entries).ok_or_else(|| DeskError::NoSuchTournament(id.to_string()))?,
        };
        // A tournament that is over is read from its log when asked for: nothing moves it any more, and a
        // node may be asked for many.
        let mut known = self.known.lock().expect("the cache");
        match tournament.phase {
            Phase::Finished | Phase::Cancelled => known.remove(id),
            Phase::Registering | Phase::Running => known.insert(id.to_string(), tournament.clone()),
        };
        drop(known);
        self.publish(id, &tournament);
        Ok(tournament)
    }

    /// Appends `entry` to `tournament` (as loaded) under the next number: `false` when another node or
    /// request took that number first (then load again).
    async fn append(&self, id: &str, tournament: &Tournament, entry: Entry) -> Result<Option<Tournament>, DeskError> {
        let stamped = Stamped { n: tournament.last + 1, at: self.rooms.now_ms(), entry };
        let mut after = tournament.clone();
        after.apply(&stamped);
        let summary = summary_json(id, &after);
        let places = (after.phase == Phase::Finished).then(|| places(&after));
        if !self.rooms.db().append_tournament(id, &stamped, after.phase, summary, places).await? {
            self.known.lock().expect("the cache").remove(id);
            return Ok(None);
        }
        self.known.lock().expect("the cache").insert(id.to_string(), after.clone());
        self.publish(id, &after);
        Ok(Some(after))
    }

    /// Registers `name` (from `address`) for tournament `id`.
    pub async fn register(&self, id: &str, name: &PlayerName, address: Option<String>) -> Result<(), DeskError> {
        for _ in 0..TRIES {
            let tournament = self.load(id).await?;
            tournament.check_register(name.as_str())?;
            let entry = Entry::Registered { name: name.to_string(), address: address.clone() };
            if let Some(after) = self.append(id, &tournament, entry).await? {
                // A sit-and-go that this registration filled starts at once; if that fails, the
                // registration stands and the driver's next look starts it.
                if let Err(e) = self.step(id, after).await {
                    tracing::warn!(tournament = %id, error = %e, "a tournament could not move on");
                }
                return Ok(());
            }
        }
        Err(DeskError::Contended)
    }

    /// Withdraws `name` from tournament `id` before it starts.
    pub async fn withdraw(&self, id: &str, name: &PlayerName) -> Result<(), DeskError> {
        for _ in 0..TRIES {
            let tournament = self.load(id).await?;
            tournament.check_withdraw(name.as_str())?;
            if self.append(id, &tournament, Entry::Withdrew { name: name.to_string() }).await?.is_some() {
                return Ok(());
            }
        }
        Err(DeskError::Contended)
    }

    /// The lists: upcoming, running, finished.
    pub async fn list(&self) -> Result<Tournaments, DeskError> {
        let read = |phases: &'static [Phase]| async move {
            let listed = self.rooms.db().tournaments_in(phases, LISTED).await?;
            Ok::<_, DeskError>(
                listed.into_iter().filter_map(|l| serde_json::from_str::<TournamentSummary>(&l.summary).ok()).collect(),
            )
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
        let tournament = self.load(id).await?;
        Ok(view(id, &tournament, self.rooms.now_ms()))
    }

    /// The summaries of the open tournaments as the driver last read them: those taking registrations, and
    /// those running (for the hall, without a read of the database).
    pub fn open_summaries(&self) -> (Vec<TournamentSummary>, Vec<TournamentSummary>) {
        let known = self.known.lock().expect("the cache");
        known.iter().map(|(id, t)| summary(id, t)).partition(|s| s.phase == Phase::Registering)
    }

    /// Moves every open tournament on, until the server stops. While the database fails it backs off as
    /// quick match does.
    pub fn spawn(self) {
        let stopping = self.rooms.stopping();
        tokio::spawn(async move {
            let mut failures = 0;
            loop {
                let pause = if failures == 0 { TICK } else { Duration::from_millis(retry_pause_ms(failures)) };
                tokio::select! {
                    _ = stopping.cancelled() => return,
                    _ = tokio::time::sleep(pause) => {}
                }
                failures = match self.tick().await {
                    Ok(()) => 0,
                    Err(e) => {
                        tracing::warn!(error = %e, "the tournaments could not be read");
                        failures + 1
                    }
                };
            }
        });
    }

    /// One look at every open tournament, after announcing the recurring events' next runs.
    async fn tick(&self) -> DbResult<()> {
        let registering: Vec<String> =
            self.rooms.db().tournaments_in(&[Phase::Registering], u32::MAX).await?.into_iter().map(|l| l.id).collect();
        self.announce(&registering).await?;
        let open = self.rooms.db().tournaments_in(&[Phase::Registering, Phase::Running], u32::MAX).await?;
        // Those another node finished since are no longer open: forgotten here.
        let open_ids: HashSet<&str> = open.iter().map(|listed| listed.id.as_str()).collect();
        self.known.lock().expect("the cache").retain(|id, _| open_ids.contains(id.as_str()));
        for id in self.followed_open().into_iter().filter(|id| !open_ids.contains(id.as_str())) {
            if let Err(e) = self.load(&id).await {
                tracing::warn!(tournament = %id, error = %e, "a followed tournament could not be read");
            }
        }
        for listed in open {
            let moved = match self.load(&listed.id).await {
                Ok(tournament) => self.step(&listed.id, tournament).await,
                Err(e) => Err(e),
            };
            match moved {
                Ok(()) => {}
                Err(DeskError::Store(e @ StoreError::Unavailable(_))) => return Err(e),
                Err(e) => tracing::warn!(tournament = %listed.id, error = %e, "a tournament could not move on"),
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

    /// Moves one tournament on as far as it can go now: counts its tables' finished deals, stores what is
    /// due, and asks its tables for their next deals.
    async fn step(&self, id: &str, mut tournament: Tournament) -> Result<(), DeskError> {
        let mut finished = Vec::new();
        // A round closes, the next is seated, and so on: a few entries at most, bounded all the same.
        for _ in 0..16 {
            (tournament, finished) = self.count_deals(id, tournament).await?;
            let Some(due) = tournament.due(self.rooms.now_ms()) else { break };
            let entry = match due {
                Due::Store(entry) => entry,
                Due::Seat(seating) => self.seat_round(&tournament, seating).await?,
            };
            let closing: Vec<RoomCode> = match &entry {
                Entry::RoundClosed { .. } => {
                    tournament.current().map(|r| r.tables.iter().map(|t| t.code.clone()).collect()).unwrap_or_default()
                }
                _ => Vec::new(),
            };
            let seated: Vec<RoomCode> = match &entry {
                Entry::Seated { tables, .. } => tables.iter().map(|(code, _)| code.clone()).collect(),
                _ => Vec::new(),
            };
            tournament = match self.append(id, &tournament, entry).await? {
                Some(after) => after,
                None => {
                    // Another node seated the round first: the rooms made here are nobody's.
                    self.close_tables(&seated).await;
                    self.load(id).await?
                }
            };
            for code in &closing {
                self.asked.lock().expect("the notes").remove(code);
            }
            self.close_tables(&closing).await;
        }
        if matches!(tournament.phase, Phase::Finished | Phase::Cancelled) {
            self.known.lock().expect("the cache").remove(id);
        }
        self.deal_on(&tournament, &finished).await
    }

    /// Stores a count for each deal the round's tables have finished since the last count; with the
    /// round's finished deals as they were read.
    async fn count_deals(
        &self,
        id: &str,
        mut tournament: Tournament,
    ) -> Result<(Tournament, Vec<TableDeal>), DeskError> {
        let Some(round) = tournament.current().cloned() else { return Ok((tournament, Vec::new())) };
        if round.played() {
            return Ok((tournament, Vec::new()));
        }
        let deals = self.rooms.db().tournament_deals(id, round.number).await?;
        for table in &round.tables {
            let mut number = table.counted + 1;
            while number <= round.deals && deals.iter().any(|d| d.code == table.code && d.number == number) {
                let stored = self.rooms.db().deal_record(&table.code, number).await?;
                let record: DealRecord = stored
                    .as_deref()
                    .map(serde_json::from_str)
                    .transpose()
                    .map_err(|e| StoreError::Corrupt(format!("deal {number} of {}: {e}", table.code)))?
                    .ok_or_else(|| StoreError::Corrupt(format!("deal {number} of {} is gone", table.code)))?;
                let scores = record.result.map(|r| r.score).unwrap_or_default();
                let entry = Entry::DealCounted { code: table.code.clone(), number, scores };
                match self.append(id, &tournament, entry).await? {
                    Some(after) => tournament = after,
                    // Another node counted meanwhile: its count stands.
                    None => return Ok((self.load(id).await?, deals)),
                }
                number += 1;
            }
        }
        Ok((tournament, deals))
    }

    /// Sets up the round's tables this node has not seen set up, and deals each table's next deal once
    /// the last one's result has been shown for a moment.
    async fn deal_on(&self, tournament: &Tournament, finished: &[TableDeal]) -> Result<(), DeskError> {
        let Some(round) = tournament.current() else { return Ok(()) };
        let now = self.rooms.now_ms();
        for table in &round.tables {
            let known = self.set_up.lock().expect("the notes").contains(&table.code);
            if !known {
                self.set_up_table(tournament, &table.code, &table.players).await?;
                self.set_up.lock().expect("the notes").insert(table.code.clone());
            }
            if table.counted >= round.deals {
                continue;
            }
            let next = table.counted + 1;
            if self.asked.lock().expect("the notes").get(&table.code) == Some(&next) {
                continue;
            }
            let last = finished.iter().find(|d| d.code == table.code && d.number == table.counted);
            if last.is_some_and(|d| now < d.finished_at + self.rooms.timing().between_deals_ms) {
                continue;
            }
            self.rooms.request(&table.code, Request::StartDeal { number: next }).await?;
            self.asked.lock().expect("the notes").insert(table.code.clone(), next);
        }
        Ok(())
    }

    /// Makes and seats a round's rooms, before the round is stored: a player who reads their table on the
    /// page finds it there. If one cannot be made, those made are closed and the round is drawn afresh.
    async fn seat_round(&self, tournament: &Tournament, seating: Seating) -> Result<Entry, DeskError> {
        let mut codes = Vec::with_capacity(seating.tables.len());
        for players in &seating.tables {
            let made = match self.rooms.unused_code().await {
                Ok(code) => self.set_up_table(tournament, &code, players).await.map(|()| code),
                Err(e) => Err(e.into()),
            };
            match made {
                Ok(code) => {
                    self.set_up.lock().expect("the notes").insert(code.clone());
                    codes.push(code);
                }
                Err(e) => {
                    self.close_tables(&codes).await;
                    return Err(e);
                }
            }
        }
        Ok(seating.with_codes(codes))
    }

    /// Closes tables nobody will play at (best effort: one left open only idles, and its task retires).
    async fn close_tables(&self, codes: &[RoomCode]) {
        for code in codes {
            self.set_up.lock().expect("the notes").remove(code);
            let _ = self.rooms.request(code, Request::CloseTable).await;
        }
    }

    /// Creates a table's room if it is not there yet, and seats the drawn players and bots where the
    /// seats are still empty.
    async fn set_up_table(&self, tournament: &Tournament, code: &RoomCode, players: &[usize]) -> Result<(), DeskError> {
        if !self.rooms.db().room_exists(code).await? {
            let host = PlayerName::parse(&tournament.host).unwrap_or_else(|_| operator());
            self.rooms.create_as(code.clone(), quick_rules(tournament.settings.table), Mode::Tournament, &host).await?;
        }
        let seats = players
            .iter()
            .map(|&i| {
                let entrant = &tournament.entrants[i];
                match (entrant.bot, PlayerName::parse(&entrant.name)) {
                    (None, Ok(name)) => TableSeat::Player { name },
                    // A registered name always reads back; were one not to, a bot plays its place.
                    (level, _) => TableSeat::Bot { level: level.unwrap_or(FILL_LEVEL) },
                }
            })
            .collect();
        self.rooms.request(code, Request::SetUpTable { seats }).await?;
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
    let starts_at = match t.format {
        Format::Scheduled { starts_at, .. } => Some(starts_at),
        Format::SitAndGo { .. } => t.bots_fill_at(),
    };
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
