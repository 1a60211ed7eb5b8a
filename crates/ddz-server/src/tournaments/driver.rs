//! One tournament's driver (docs/tournaments.md, "The driver"): a task on the one node that drives the
//! event (a server of its own drives every event; in cluster mode a node takes an event nobody drives and
//! drives it under a fencing number, as a room's owner runs a room), woken by what moves the event on:
//! a deal finished at one of its tables (seen in the tables' summaries, which every node has), a
//! registration on this node, or its next time (its start, the bots' wait, the pause before a table's
//! next deal). A slow look besides catches what no wake said: a registration on another node, a summary
//! lost with NATS.
//!
//! Each step counts the tables' finished deals, stores what the fold says is due (seating a round makes
//! and seats its rooms first, so a player never reads a table that is not there), and asks each table for
//! its next deal, in forms a room answers once however often it is asked (`SetUpTable` fills only empty
//! seats, `StartDeal` deals only the next deal, `CloseTable` closes once): a driver that dies between an
//! entry and an act leaves nothing undone for the next.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::{Desk, DeskError, Turn, operator};
use crate::background::back_off_ms;
use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode};
use crate::domain::tournament::{Due, Entry, FILL_LEVEL, Phase, Seating, Tournament};
use crate::matching::quick_rules;
use crate::room::{Request, TableSeat};
use crate::store::{Fence, StoreError};

/// What wakes a driver.
#[derive(Clone, Debug)]
pub(super) enum Wake {
    /// A table of the event has played `deals` deals.
    Table { code: RoomCode, deals: u32 },
    /// Something else may have changed (a registration): look at everything.
    Look,
}

/// How long a driver sleeps at most while the event takes registrations: a registration on another
/// node wakes nobody here.
const LOOK_REGISTERING: Duration = Duration::from_secs(1);
/// ...and while it runs: a deal's end wakes it as its table's summary changes; this look only catches what
/// a wake missed.
const LOOK_RUNNING: Duration = Duration::from_secs(5);
/// Tables a seating makes at once: a field of 10,000 is 3,333 rooms to make and seat before the round is
/// stored (one after another, 20 s on a 2-core cluster); a few at once leave the database's connections
/// to the tables already playing.
const TABLES_AT_ONCE: usize = 8;
/// The entries one step stores at most (a round closes, the next is seated, ...): bounded all the same.
const STEP_ENTRIES: usize = 16;

/// One event's driver.
pub(super) struct Driver {
    pub(super) id: String,
    pub(super) desk: Desk,
    /// Cluster mode: the ownership this node drives the event under.
    pub(super) fence: Option<Fence>,
    pub(super) inbox: mpsc::Receiver<Wake>,
    /// Tables this driver has set up (or found set up), and the deal it last asked each for.
    set_up: HashSet<RoomCode>,
    asked: HashMap<RoomCode, u32>,
    /// When each table may deal its next deal: its last deal's end and the pause.
    pause_until: HashMap<RoomCode, u64>,
}

/// What a step is to count: the deals of the tables that woke the driver, or every table's (a look).
enum Counting {
    Tables(HashMap<RoomCode, u32>),
    All,
}

impl Driver {
    pub(super) fn new(id: String, desk: Desk, fence: Option<Fence>, inbox: mpsc::Receiver<Wake>) -> Driver {
        Driver { id, desk, fence, inbox, set_up: HashSet::new(), asked: HashMap::new(), pause_until: HashMap::new() }
    }

    /// Drives the event until it is over, another node takes it, or the server stops.
    pub(super) async fn run(mut self) {
        let stopping = self.desk.rooms.stopping();
        let mut counting = Counting::All;
        let mut failures = 0;
        loop {
            let wait = match self.step(counting).await {
                Ok(None) => break,
                Ok(Some(wait)) => {
                    failures = 0;
                    wait
                }
                Err(DeskError::Store(StoreError::TournamentFenced(_))) => {
                    tracing::info!(tournament = %self.id, "another node drives the tournament now");
                    break;
                }
                Err(e) => {
                    failures += 1;
                    tracing::warn!(tournament = %self.id, error = %e, "the tournament could not move on");
                    Duration::from_millis(back_off_ms(failures))
                }
            };
            counting = tokio::select! {
                _ = stopping.cancelled() => break,
                wake = self.inbox.recv() => match wake {
                    None => break,
                    Some(wake) => self.gather(wake),
                },
                _ = tokio::time::sleep(wait) => Counting::All,
            };
            if failures > 0 {
                counting = Counting::All;
            }
        }
        self.desk.forget_driver(&self.id, self.fence.as_ref()).await;
    }

    /// The wake, and every other one waiting: what to count.
    fn gather(&mut self, first: Wake) -> Counting {
        let mut tables = HashMap::new();
        let mut wake = Some(first);
        while let Some(next) = wake {
            match next {
                Wake::Look => return Counting::All,
                Wake::Table { code, deals } => {
                    let seen = tables.entry(code).or_insert(0);
                    *seen = deals.max(*seen);
                }
            }
            wake = self.inbox.try_recv().ok();
        }
        Counting::Tables(tables)
    }

    /// Moves the event on as far as it can go now: how long to sleep until its next time, or `None` once
    /// it is over. The whole step is taken in the event's turn, on its fold.
    async fn step(&mut self, counting: Counting) -> Result<Option<Duration>, DeskError> {
        let desk = self.desk.clone();
        let mut turn = desk.turn(&self.id).await;
        desk.current(&self.id, &mut turn).await?;
        self.count_deals(&mut turn, &counting).await?;
        for _ in 0..STEP_ENTRIES {
            let tournament = desk.current(&self.id, &mut turn).await?;
            let Some(due) = tournament.due(desk.rooms.now_ms()) else { break };
            let entry = match due {
                Due::Store(entry) => entry,
                Due::Seat(seating) => {
                    let tournament = tournament.clone();
                    self.seat_round(&tournament, seating).await?
                }
            };
            let tournament = turn.as_ref().expect("read just now");
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
            if !desk.append(&self.id, &mut turn, entry, self.fence.clone()).await? {
                // Another writer took the number first (a registration on another node): the rooms made for
                // this seating are nobody's, and what is due is asked again.
                self.close_tables(&seated).await;
                continue;
            }
            desk.note_tables(&self.id, &seated, &closing);
            for code in &closing {
                self.asked.remove(code);
                self.pause_until.remove(code);
            }
            self.close_tables(&closing).await;
        }
        let tournament = desk.current(&self.id, &mut turn).await?;
        if matches!(tournament.phase, Phase::Finished | Phase::Cancelled) {
            return Ok(None);
        }
        let tournament = tournament.clone();
        drop(turn);
        self.deal_on(&tournament).await?;
        Ok(Some(self.next_time(&tournament)))
    }

    /// How long until the event's next time: its start or the bots' wait, a table's pause ending; a look
    /// after a while in any case.
    fn next_time(&self, tournament: &Tournament) -> Duration {
        let now = self.desk.rooms.now_ms();
        let (look, at) = match tournament.phase {
            Phase::Registering => (LOOK_REGISTERING, tournament.starts_at()),
            _ => (LOOK_RUNNING, self.pause_until.values().copied().filter(|&until| until > now).min()),
        };
        at.map_or(look, |at| Duration::from_millis(at.saturating_sub(now)).min(look))
    }

    /// Stores a count for each deal the tables have finished since the last count: those that woke the
    /// driver, or (a look) every table of the round.
    async fn count_deals(&mut self, turn: &mut Turn, counting: &Counting) -> Result<(), DeskError> {
        let desk = self.desk.clone();
        let Some(round) = desk.current(&self.id, turn).await?.current().cloned() else { return Ok(()) };
        if round.played() {
            return Ok(());
        }
        let db = desk.rooms.db().clone();
        let played: HashMap<RoomCode, (u32, u64)> = match counting {
            Counting::Tables(tables) => {
                let now = desk.rooms.now_ms();
                tables.iter().map(|(code, &deals)| (code.clone(), (deals, now))).collect()
            }
            Counting::All => {
                let mut played: HashMap<RoomCode, (u32, u64)> = HashMap::new();
                for deal in db.tournament_deals(&self.id, round.number).await? {
                    let seen = played.entry(deal.code).or_insert((0, 0));
                    if deal.number > seen.0 {
                        *seen = (deal.number, deal.finished_at);
                    }
                }
                played
            }
        };
        for table in &round.tables {
            let Some(&(deals, finished_at)) = played.get(&table.code) else { continue };
            let mut number = table.counted + 1;
            while number <= deals.min(round.deals) {
                let record = db
                    .deal_record(&table.code, number)
                    .await?
                    .ok_or_else(|| StoreError::Corrupt(format!("deal {number} of {} is gone", table.code)))?;
                let scores = record.result.map(|r| r.score).unwrap_or_default();
                let entry = Entry::DealCounted { code: table.code.clone(), number, scores };
                // A number taken by another writer: the fold is read again, and the count with it.
                let counted = desk.append(&self.id, turn, entry, self.fence.clone()).await?;
                let tournament = desk.current(&self.id, turn).await?;
                if !counted && tournament.current().is_none_or(|r| r.number != round.number) {
                    return Ok(());
                }
                number = tournament
                    .current()
                    .and_then(|r| r.tables.iter().find(|t| t.code == table.code))
                    .map_or(number + 1, |t| t.counted + 1);
            }
            let pause = desk.rooms.timing().between_deals_ms;
            self.pause_until.insert(table.code.clone(), finished_at + pause);
        }
        Ok(())
    }

    /// Sets up the round's tables this driver has not seen set up, and deals each table's next deal once
    /// the last one's result has been shown for a moment.
    async fn deal_on(&mut self, tournament: &Tournament) -> Result<(), DeskError> {
        let Some(round) = tournament.current() else { return Ok(()) };
        let now = self.desk.rooms.now_ms();
        for table in &round.tables {
            if !self.set_up.contains(&table.code) {
                self.set_up_table(tournament, &table.code, &table.players).await?;
                self.set_up.insert(table.code.clone());
            }
            if table.counted >= round.deals {
                continue;
            }
            let next = table.counted + 1;
            if self.asked.get(&table.code) == Some(&next) {
                continue;
            }
            if self.pause_until.get(&table.code).is_some_and(|&until| now < until) {
                continue;
            }
            self.desk.rooms.request(&table.code, Request::StartDeal { number: next }).await?;
            self.asked.insert(table.code.clone(), next);
        }
        Ok(())
    }

    /// Makes and seats a round's rooms, before the round is stored: a player who reads their table on the
    /// page finds it there. If one cannot be made, those made are closed and the round is drawn afresh.
    async fn seat_round(&mut self, tournament: &Tournament, seating: Seating) -> Result<Entry, DeskError> {
        let making: Vec<_> = seating.tables.iter().map(|players| self.make_table(tournament, players)).collect();
        let made: Vec<Result<RoomCode, DeskError>> =
            futures_util::stream::iter(making).buffered(TABLES_AT_ONCE).collect().await;
        let (codes, failed): (Vec<_>, Vec<_>) = made.into_iter().partition(Result::is_ok);
        let codes: Vec<RoomCode> = codes.into_iter().flatten().collect();
        if let Some(Err(e)) = failed.into_iter().next() {
            self.close_tables(&codes).await;
            return Err(e);
        }
        self.set_up.extend(codes.iter().cloned());
        Ok(seating.with_codes(codes))
    }

    /// A new room for a table of `players`, set up.
    async fn make_table(&self, tournament: &Tournament, players: &[usize]) -> Result<RoomCode, DeskError> {
        let code = self.desk.rooms.unused_code().await?;
        self.set_up_table(tournament, &code, players).await.map(|()| code)
    }

    /// Closes tables nobody will play at (best effort: one left open only idles, and its task retires).
    async fn close_tables(&mut self, codes: &[RoomCode]) {
        for code in codes {
            self.set_up.remove(code);
            let _ = self.desk.rooms.request(code, Request::CloseTable).await;
        }
    }

    /// Creates a table's room if it is not there yet, and seats the drawn players and bots where the
    /// seats are still empty.
    async fn set_up_table(&self, tournament: &Tournament, code: &RoomCode, players: &[usize]) -> Result<(), DeskError> {
        let rooms = &self.desk.rooms;
        if !rooms.db().room_exists(code).await? {
            let host = PlayerName::parse(&tournament.host).unwrap_or_else(|_| operator());
            rooms.create_as(code.clone(), quick_rules(tournament.settings.table), Mode::Tournament, &host).await?;
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
        rooms.request(code, Request::SetUpTable { seats }).await?;
        Ok(())
    }
}
