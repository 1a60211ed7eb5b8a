//! Tournaments (docs/tournaments.md) as a pure fold, like the room: a tournament is its [`Entry`] log,
//! and its state ([`Tournament`]) is the fold over it. The rules that decide who sits where and who goes
//! on are pure functions beside it: the settings and their bounds, the rising line of the chip rounds,
//! the chips carried into the fixed-deal rounds, the seat draw from the tournament's seed (never two
//! entrants of one address at a table), Swiss reseating, and the standings.
//!
//! Time is an input: what is due ([`Tournament::due`]) is asked with the time, and the driver
//! (`crate::tournaments`) stores the entry it answers before acting on it.

mod draw;
mod formats;
mod recurring;
mod settings;
mod verify;

pub use draw::{DRAW, advancing, draw_tables, part_addresses, swiss_tables};
pub use formats::*;
pub use recurring::*;
pub use settings::*;
pub use verify::{Checked, RecordError, Verified, verify};

use ddz_bot::BotKind;
use ddz_engine::{Seed, TableType};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::domain::names::{NameKey, PlayerName};
use crate::domain::room::RoomCode;

/// The draw of a `Created` entry stored before draws were numbered: the first.
fn first_draw() -> u32 {
    1
}

/// One change to a tournament, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum Entry {
    /// The tournament is announced; its seed is drawn now and only its commitment is shown until the end.
    Created {
        title: String,
        host: String,
        format: Format,
        settings: Settings,
        seed: Seed,
        /// The version of the seat draw ([`DRAW`]); 1 for a log that names none.
        #[serde(default = "first_draw")]
        draw: u32,
        /// One of the site's own events: a run of a recurring event (`ddz serve --tournaments`).
        #[serde(default)]
        recurring: bool,
    },
    Registered {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        address: Option<String>,
    },
    Withdrew {
        name: String,
    },
    /// Registration closed: `byes` are left out (the latest beyond whole tables), `bots` bots join.
    Started {
        byes: Vec<String>,
        bots: usize,
    },
    /// Not started: too few registered.
    Cancelled,
    /// Round `round`'s tables, each a room with its players in seat order (indexes into the field).
    Seated {
        round: u32,
        stage: Stage,
        deals: u32,
        tables: Vec<(RoomCode, Vec<usize>)>,
    },
    /// A finished deal at one of the round's tables: each seat's score, as the deal settled it.
    DealCounted {
        code: RoomCode,
        number: u32,
        scores: Vec<i64>,
    },
    /// The round is over; `out` leave the tournament.
    RoundClosed {
        round: u32,
        out: Vec<usize>,
    },
    Finished,
}

/// A stored entry with its number and time (ms since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamped {
    pub n: u64,
    pub at: u64,
    pub entry: Entry,
}

/// Where a tournament is.
#[derive(
    ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumIter,
)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "TournamentPhase")]
#[strum(serialize_all = "snake_case")]
pub enum Phase {
    Registering,
    Running,
    Finished,
    Cancelled,
}

impl Phase {
    pub fn name(self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }
}

/// An entrant: a registered player, or a bot that filled a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub key: NameKey,
    /// Where they registered from (the address fair play compares); none for a bot.
    pub address: Option<String>,
    pub bot: Option<BotKind>,
    pub chips: i64,
    /// The round they went out in.
    pub out: Option<u32>,
    /// When they registered (a bot: when it took its place).
    pub since: u64,
}

/// A table of a round: a room, its players by seat, and what it has played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub code: RoomCode,
    pub players: Vec<usize>,
    /// Deals counted so far.
    pub counted: u32,
    /// Chips each seat won or lost at this table.
    pub won: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub stage: Stage,
    /// Deals every table plays.
    pub deals: u32,
    pub tables: Vec<Table>,
    pub closed: bool,
    /// The line this round's end applies (chip rounds).
    pub line: Option<i64>,
}

impl Round {
    /// Whether every table has played its deals.
    pub fn played(&self) -> bool {
        self.tables.iter().all(|t| t.counted >= self.deals)
    }
}

/// A tournament: the fold over its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub title: String,
    pub host: String,
    pub format: Format,
    pub settings: Settings,
    pub seed: Seed,
    /// The version of its seat draw.
    pub draw: u32,
    /// One of the site's own events (a recurring event's run).
    pub recurring: bool,
    pub created_at: u64,
    pub phase: Phase,
    pub started_at: Option<u64>,
    pub finished_at: Option<u64>,
    /// Registered players before the start; the field (with any bots) after it.
    pub entrants: Vec<Entrant>,
    pub byes: Vec<String>,
    pub rounds: Vec<Round>,
    /// The chip rounds' end, for the field that started.
    pub until: usize,
    /// The last entry's number.
    pub last: u64,
}

/// Why a registration or a withdrawal is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error("registration is closed")]
    Closed,
    #[error("{0} is already registered")]
    AlreadyRegistered(String),
    #[error("{0} is not registered")]
    NotRegistered(String),
    #[error("the tournament is full")]
    Full,
}

/// What a tournament needs next ([`Tournament::due`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    Store(Entry),
    Seat(Seating),
}

/// A round's tables as drawn, each a list of players (indexes into the field) by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    pub round: u32,
    pub stage: Stage,
    pub deals: u32,
    pub tables: Vec<Vec<usize>>,
}

impl Seating {
    /// The entry that seats the round, each table in the room of its code.
    pub fn with_codes(self, codes: Vec<RoomCode>) -> Entry {
        let Seating { round, stage, deals, tables } = self;
        Entry::Seated { round, stage, deals, tables: codes.into_iter().zip(tables).collect() }
    }
}

/// A player's place in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub entrant: usize,
    pub place: usize,
}

impl Tournament {
    /// The tournament its first entry announces; `None` when the log does not start with one.
    pub fn from_log(log: &[Stamped]) -> Option<Tournament> {
        let (first, rest) = log.split_first()?;
        let Entry::Created { title, host, format, settings, seed, draw, recurring } = &first.entry else {
            return None;
        };
        let mut tournament = Tournament {
            title: title.clone(),
            host: host.clone(),
            format: format.clone(),
            settings: settings.clone(),
            seed: *seed,
            draw: *draw,
            recurring: *recurring,
            created_at: first.at,
            phase: Phase::Registering,
            started_at: None,
            finished_at: None,
            entrants: Vec::new(),
            byes: Vec::new(),
            rounds: Vec::new(),
            until: settings.chip_rounds_until,
            last: first.n,
        };
        for stamped in rest {
            tournament.apply(stamped);
        }
        Some(tournament)
    }

    pub fn seats(&self) -> usize {
        seats(self.settings.table)
    }

    /// SHA-256 of the seed, shown from the start; the seed itself once the tournament is over.
    pub fn commitment(&self) -> String {
        hex(&Sha256::digest(self.seed.0))
    }

    pub fn entrant_of(&self, key: &NameKey) -> Option<usize> {
        self.entrants.iter().position(|e| e.key == *key)
    }

    /// Whether `name` may register now.
    pub fn check_register(&self, name: &PlayerName) -> Result<(), EntryError> {
        if self.phase != Phase::Registering {
            return Err(EntryError::Closed);
        }
        if self.entrant_of(name.key()).is_some() {
            return Err(EntryError::AlreadyRegistered(name.to_string()));
        }
        let cap = self.format.size().unwrap_or(MAX_ENTRANTS);
        if self.entrants.len() >= cap {
            return Err(EntryError::Full);
        }
        Ok(())
    }

    /// Whether `name` may withdraw now.
    pub fn check_withdraw(&self, name: &PlayerName) -> Result<(), EntryError> {
        if self.phase != Phase::Registering {
            return Err(EntryError::Closed);
        }
        self.entrant_of(name.key()).map(|_| ()).ok_or_else(|| EntryError::NotRegistered(name.to_string()))
    }

    /// Folds one stored entry in (entries were checked before they were stored).
    pub fn apply(&mut self, stamped: &Stamped) {
        self.last = stamped.n;
        match &stamped.entry {
            Entry::Created { .. } => {}
            Entry::Registered { name, address } => self.entrants.push(Entrant {
                name: name.clone(),
                key: NameKey::of_stored(name),
                address: address.clone(),
                bot: None,
                chips: self.settings.chips,
                out: None,
                since: stamped.at,
            }),
            Entry::Withdrew { name } => {
                let key = NameKey::of_stored(name);
                self.entrants.retain(|e| e.key != key);
            }
            Entry::Started { byes, bots } => {
                let keys: Vec<NameKey> = byes.iter().map(|b| NameKey::of_stored(b)).collect();
                self.entrants.retain(|e| !keys.contains(&e.key));
                self.byes = byes.clone();
                // Bots are Bot 1, Bot 2, ...: a number a registered player's name took is skipped, so
                // that every entrant has a name of their own.
                let mut numbers = 1..;
                for _ in 0..*bots {
                    let name = numbers
                        .by_ref()
                        .map(|i| format!("Bot {i}"))
                        .find(|name| self.entrant_of(&NameKey::of_stored(name)).is_none())
                        .expect("an unbounded range has a free number");
                    self.entrants.push(Entrant {
                        key: NameKey::of_stored(&name),
                        name,
                        address: None,
                        bot: Some(FILL_LEVEL),
                        since: stamped.at,
                        chips: self.settings.chips,
                        out: None,
                    });
                }
                let field = self.entrants.len();
                let seats = self.seats();
                self.until = self.settings.chip_rounds_until.min(field / 2 / seats * seats).max(seats);
                self.phase = Phase::Running;
                self.started_at = Some(stamped.at);
            }
            Entry::Cancelled => {
                self.phase = Phase::Cancelled;
                self.finished_at = Some(stamped.at);
            }
            Entry::Seated { round, stage, deals, tables } => {
                if *stage != Stage::Chips && self.rounds.last().is_some_and(|r| r.stage == Stage::Chips) {
                    for entrant in self.entrants.iter_mut().filter(|e| e.out.is_none()) {
                        entrant.chips = self.settings.carried(entrant.chips);
                    }
                }
                let line = (*stage == Stage::Chips).then(|| self.settings.line(*round));
                self.rounds.push(Round {
                    number: *round,
                    stage: *stage,
                    deals: *deals,
                    tables: tables
                        .iter()
                        .map(|(code, players)| Table {
                            code: code.clone(),
                            players: players.clone(),
                            counted: 0,
                            won: vec![0; players.len()],
                        })
                        .collect(),
                    closed: false,
                    line,
                });
            }
            Entry::DealCounted { code, scores, .. } => {
                let stake = self.settings.stake;
                let Some(table) = self.rounds.last_mut().and_then(|r| r.tables.iter_mut().find(|t| &t.code == code))
                else {
                    return;
                };
                table.counted += 1;
                for (seat, score) in scores.iter().enumerate().take(table.players.len()) {
                    table.won[seat] += score * stake;
                    self.entrants[table.players[seat]].chips += score * stake;
                }
            }
            Entry::RoundClosed { round, out } => {
                for &i in out {
                    self.entrants[i].out = Some(*round);
                }
                if let Some(r) = self.rounds.last_mut() {
                    r.closed = true;
                }
            }
            Entry::Finished => {
                self.phase = Phase::Finished;
                self.finished_at = Some(stamped.at);
            }
        }
    }

    /// The players still in, best first (chips, then the seat draw's order).
    pub fn ranked_in(&self) -> Vec<usize> {
        let mut alive: Vec<usize> = (0..self.entrants.len()).filter(|&i| self.entrants[i].out.is_none()).collect();
        alive.sort_by_key(|&i| (std::cmp::Reverse(self.entrants[i].chips), i));
        alive
    }

    /// Everyone's place: the players still in by chips, then those out, the later out first (by the chips
    /// they went out with).
    pub fn standings(&self) -> Vec<Standing> {
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by_key(|&i| {
            let e = &self.entrants[i];
            (e.out.map_or(0, |round| u32::MAX - round), std::cmp::Reverse(e.chips), i)
        });
        order.into_iter().enumerate().map(|(place, entrant)| Standing { entrant, place: place + 1 }).collect()
    }

    /// The round in play, if one is.
    pub fn current(&self) -> Option<&Round> {
        self.rounds.last().filter(|r| !r.closed)
    }

    /// What is due at `now`, if anything: an entry to store, or a round's tables to seat (which need
    /// room codes before they are stored, [`Seating::with_codes`]).
    pub fn due(&self, now: u64) -> Option<Due> {
        match self.phase {
            Phase::Registering => self.start_due(now).map(Due::Store),
            Phase::Running => match self.rounds.last() {
                Some(round) if !round.closed => round.played().then(|| Due::Store(self.close_round(round))),
                Some(round) if round.stage == Stage::Final => Some(Due::Store(Entry::Finished)),
                _ => Some(Due::Seat(self.seating())),
            },
            Phase::Finished | Phase::Cancelled => None,
        }
    }

    /// Whether registration closes at `now`, and how.
    fn start_due(&self, now: u64) -> Option<Entry> {
        let seats = self.seats();
        let registered = self.entrants.len();
        match self.format {
            Format::SitAndGo { size, .. } => {
                if registered >= size {
                    return Some(Entry::Started { byes: Vec::new(), bots: 0 });
                }
                let waited = self.bots_fill_at().is_some_and(|at| now >= at);
                waited.then(|| Entry::Started { byes: Vec::new(), bots: size - registered })
            }
            Format::Scheduled { starts_at, bots_fill } => {
                if now < starts_at {
                    return None;
                }
                if bots_fill && registered > 0 {
                    let field = registered.div_ceil(seats).max(2) * seats;
                    return Some(Entry::Started { byes: Vec::new(), bots: field - registered });
                }
                let field = registered / seats * seats;
                if field < 2 * seats {
                    return Some(Entry::Cancelled);
                }
                let byes = self.entrants[field..].iter().map(|e| e.name.clone()).collect();
                Some(Entry::Started { byes, bots: 0 })
            }
        }
    }

    /// The tournament's path: each stage with the rounds played and, for the stages ahead, the rounds and
    /// the field expected (the chip rounds run until the field is down to [`Tournament::until`] or their
    /// number is played; two thirds advance from each fixed round, down to one table; one final).
    pub fn path(&self) -> Vec<PathStage> {
        let seats = self.seats();
        let field = match (self.phase, &self.format) {
            (Phase::Registering, Format::SitAndGo { size, .. }) => *size,
            (Phase::Registering, Format::Scheduled { .. }) => (self.entrants.len() / seats).max(2) * seats,
            _ => self.entrants.len(),
        };
        let until = match self.phase {
            Phase::Registering => self.settings.chip_rounds_until.min(field / 2 / seats * seats).max(seats),
            _ => self.until,
        };
        let played = |stage: Stage| self.rounds.iter().filter(|r| r.stage == stage).count() as u32;
        let started_with = |stage: Stage| {
            self.rounds.iter().find(|r| r.stage == stage).map(|r| r.tables.iter().map(|t| t.players.len()).sum())
        };
        let current = self.rounds.last().map(|r| r.stage);
        let over = matches!(self.phase, Phase::Finished | Phase::Cancelled);
        let state = |stage: Stage| match current {
            Some(now) if now == stage && !over => PathState::Now,
            Some(now) if now >= stage => PathState::Done,
            _ => PathState::Ahead,
        };
        let chips_from = started_with(Stage::Chips).unwrap_or(field);
        let chips_planned = if chips_from > until { self.settings.chip_rounds } else { 0 };
        let fixed_from = started_with(Stage::Fixed).unwrap_or(until.min(chips_from));
        let mut fixed_planned = 0;
        let mut left = fixed_from;
        while left > seats {
            left = advancing(left, seats);
            fixed_planned += 1;
        }
        let final_from = started_with(Stage::Final).unwrap_or(seats.min(field));
        [
            (Stage::Chips, chips_from, chips_planned),
            (Stage::Fixed, fixed_from, fixed_planned),
            (Stage::Final, final_from, 1),
        ]
        .into_iter()
        .map(|(stage, players, planned)| PathStage {
            stage,
            rounds: played(stage),
            planned: planned.max(played(stage)),
            players,
            state: state(stage),
        })
        .collect()
    }

    /// When registration closes by itself: a scheduled event's start, a sit-and-go's bots filling it.
    pub fn starts_at(&self) -> Option<u64> {
        match self.format {
            Format::Scheduled { starts_at, .. } => Some(starts_at),
            Format::SitAndGo { .. } => self.bots_fill_at(),
        }
    }

    /// When bots fill a sit-and-go that allows them: its wait after the first registration still standing
    /// (none while nobody is registered, so an event nobody entered is never played by bots alone).
    pub fn bots_fill_at(&self) -> Option<u64> {
        match self.format {
            Format::SitAndGo { bots_after_ms: Some(wait), .. } => self.entrants.first().map(|e| e.since + wait),
            _ => None,
        }
    }

    /// Who goes out at the end of `round`.
    fn close_round(&self, round: &Round) -> Entry {
        let ranked = self.ranked_in();
        let seats = self.seats();
        let keep = match round.stage {
            Stage::Chips => {
                let line = round.line.unwrap_or(0);
                let above = ranked.iter().filter(|&&i| self.entrants[i].chips >= line).count();
                let last_chip_round =
                    self.rounds.iter().filter(|r| r.stage == Stage::Chips).count() as u32 >= self.settings.chip_rounds;
                if last_chip_round || above <= self.until { self.until } else { above / seats * seats }
            }
            Stage::Fixed => advancing(ranked.len(), seats),
            Stage::Final => ranked.len(),
        };
        Entry::RoundClosed { round: round.number, out: ranked[keep.min(ranked.len())..].to_vec() }
    }

    /// The next round's tables: drawn from the seed in the chip rounds, Swiss-style after them, and the
    /// final table once one table's worth is left.
    fn seating(&self) -> Seating {
        let seats = self.seats();
        let ranked = self.ranked_in();
        let round = self.rounds.len() as u32 + 1;
        let chip_rounds = self.rounds.iter().filter(|r| r.stage == Stage::Chips).count() as u32;
        let (stage, deals) = if ranked.len() <= seats {
            (Stage::Final, self.settings.final_deals)
        } else if ranked.len() > self.until && chip_rounds < self.settings.chip_rounds {
            (Stage::Chips, self.settings.line_every)
        } else {
            (Stage::Fixed, self.settings.deals_per_round)
        };
        let field: Vec<Option<&str>> = self.entrants.iter().map(|e| e.address.as_deref()).collect();
        let tables = match stage {
            Stage::Chips => {
                // The draw is the seed's, over the players still in, in the field's order.
                let mut alive = ranked.clone();
                alive.sort_unstable();
                draw_tables(&alive, &field, seats, &self.seed, round, self.draw)
            }
            Stage::Fixed | Stage::Final => {
                let before: Vec<Vec<usize>> = self
                    .rounds
                    .last()
                    .map(|r| r.tables.iter().map(|t| t.players.clone()).collect())
                    .unwrap_or_default();
                let mut tables = swiss_tables(&ranked, seats, &before);
                part_addresses(&mut tables, &field);
                tables
            }
        };
        Seating { round, stage, deals, tables }
    }
}

impl Tournament {
    /// Whether someone may watch table `code` of the round in play (docs/tournaments.md, "Other tables"):
    /// not an entrant still in who plays at another of its tables, known by the name they come as (`key`,
    /// none for a spectator) or the address they registered from. A player seated at `code` watches their
    /// own table whatever their address (two entrants of one address never share a table).
    pub fn may_watch(&self, code: &RoomCode, address: Option<&str>, key: Option<&NameKey>) -> bool {
        let Some(round) = self.current() else { return true };
        let here = |t: &&Table| &t.code == code;
        if let Some(key) = key
            && round.tables.iter().filter(here).any(|t| t.players.iter().any(|&i| &self.entrants[i].key == key))
        {
            return true;
        }
        !round.tables.iter().filter(|t| !here(t)).any(|t| {
            t.players.iter().any(|&i| {
                let entrant = &self.entrants[i];
                let same_address = address.is_some() && entrant.address.as_deref() == address;
                entrant.out.is_none() && (same_address || key == Some(&entrant.key))
            })
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/tournaments.md's defaults for a field of `entrants`, checked.
    fn defaults(table: TableType, entrants: usize) -> Settings {
        SettingsDraft::default_for(table, entrants).check(Some(entrants)).unwrap()
    }

    fn named(name: &str) -> PlayerName {
        PlayerName::parse(name).unwrap()
    }

    const HOUR: u64 = 3_600_000;
    /// The wait before bots fill a sit-and-go, as the page offers it: two minutes.
    const BOTS_AFTER_MS: u64 = 120_000;

    fn codes(n: usize) -> Vec<RoomCode> {
        (0..n).map(|i| RoomCode::from(format!("T{i:05}").as_str())).collect()
    }

    impl Tournament {
        /// What is due, as the entry the driver would store (tables get codes `T00000`, ...).
        fn due_entry(&self, now: u64) -> Option<Entry> {
            self.due(now).map(|due| match due {
                Due::Store(entry) => entry,
                Due::Seat(seating) => {
                    let count = seating.tables.len();
                    seating.with_codes(codes(count))
                }
            })
        }
    }

    /// A log-backed tournament: entries are stamped and folded as the store would.
    struct Log {
        entries: Vec<Stamped>,
        now: u64,
    }

    impl Log {
        fn new(format: Format, settings: Settings) -> Log {
            let created = Entry::Created {
                title: "Test".into(),
                host: "Host".into(),
                format,
                settings,
                seed: Seed::from_u64(42),
                draw: DRAW,
                recurring: false,
            };
            Log { entries: vec![Stamped { n: 1, at: 0, entry: created }], now: 0 }
        }

        fn push(&mut self, entry: Entry) {
            self.entries.push(Stamped { n: self.entries.len() as u64 + 1, at: self.now, entry });
        }

        fn state(&self) -> Tournament {
            Tournament::from_log(&self.entries).unwrap()
        }

        fn register(&mut self, names: &[&str]) {
            for name in names {
                self.state().check_register(&named(name)).unwrap();
                self.push(Entry::Registered { name: name.to_string(), address: Some(format!("10.0.0.{name}")) });
            }
        }

        /// Stores what is due until nothing is, counting every deal with `score` (by seat).
        fn play(&mut self, score: impl Fn(&Tournament, &Table, u32) -> Vec<i64>) {
            for _ in 0..10_000 {
                let state = self.state();
                if let Some(round) = state.current()
                    && !round.played()
                {
                    let table = round.tables.iter().find(|t| t.counted < round.deals).unwrap();
                    let scores = score(&state, table, table.counted + 1);
                    self.push(Entry::DealCounted { code: table.code.clone(), number: table.counted + 1, scores });
                    continue;
                }
                match state.due_entry(self.now) {
                    Some(entry) => self.push(entry),
                    None => return,
                }
            }
            panic!("the tournament never ended");
        }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("P{i}")).collect()
    }

    fn sit_and_go(size: usize, bots: bool) -> Log {
        let format = Format::SitAndGo { size, bots_after_ms: bots.then_some(BOTS_AFTER_MS) };
        Log::new(format, defaults(TableType::House, size))
    }

    /// The landlord (seat 0 here) wins two points from each farmer at every table.
    fn seat_zero_wins(_: &Tournament, table: &Table, _: u32) -> Vec<i64> {
        let farmers = table.players.len() as i64 - 1;
        (0..table.players.len()).map(|s| if s == 0 { 2 * farmers } else { -2 }).collect()
    }

    #[test]
    fn the_defaults_are_within_their_bounds_for_every_table_type() {
        for (table, entrants) in [(TableType::House, 27), (TableType::NoShuffle, 9), (TableType::TwoPlayer, 16)] {
            let settings = SettingsDraft::default_for(table, entrants);
            assert!(settings.check(Some(entrants)).is_ok(), "{table:?}");
        }
        assert_eq!(defaults(TableType::House, 27).chip_rounds_until, 9);
        assert_eq!(defaults(TableType::House, 9).chip_rounds_until, 3);
    }

    #[test]
    fn settings_out_of_their_bounds_are_refused_with_the_reason() {
        let good = SettingsDraft::default_for(TableType::House, 27);
        let seats = 3;
        let refused = |s: SettingsDraft| s.check(Some(27)).unwrap_err();
        assert_eq!(refused(SettingsDraft { chips: 10, ..good.clone() }), SettingsError::Chips);
        assert_eq!(refused(SettingsDraft { stake: 0, ..good.clone() }), SettingsError::Chips);
        assert_eq!(refused(SettingsDraft { line_percent: 95, ..good.clone() }), SettingsError::Line);
        assert_eq!(refused(SettingsDraft { line_every: 0, ..good.clone() }), SettingsError::ChipRounds);
        assert_eq!(refused(SettingsDraft { chip_rounds: 7, ..good.clone() }), SettingsError::ChipRounds);
        assert_eq!(
            refused(SettingsDraft { chip_rounds_until: 10, ..good.clone() }),
            SettingsError::ChipRoundsUntil { seats }
        );
        assert_eq!(
            refused(SettingsDraft { chip_rounds_until: 15, ..good.clone() }),
            SettingsError::ChipRoundsUntil { seats }
        );
        assert_eq!(refused(SettingsDraft { carry_percent: 101, ..good.clone() }), SettingsError::Carry);
        assert_eq!(refused(SettingsDraft { final_deals: 0, ..good.clone() }), SettingsError::Deals);
        // A scheduled event's field is not known yet: only the table's seats bound the chip rounds' end.
        assert!(SettingsDraft { chip_rounds_until: 300, ..good.clone() }.check(None).is_ok());
        // Settings are made only by checking: read back from JSON too.
        let checked = good.clone().check(Some(27)).unwrap();
        assert_eq!(serde_json::from_value::<Settings>(serde_json::to_value(&checked).unwrap()).unwrap(), checked);
        let out_of_bounds = serde_json::to_value(SettingsDraft { chips: 10, ..good }).unwrap();
        assert!(serde_json::from_value::<Settings>(out_of_bounds).is_err());
    }

    #[test]
    fn a_sit_and_go_seats_three_or_nine_tables_and_bots_wait_ten_seconds_to_thirty_minutes() {
        let sit = |size, bots_after_ms| Format::SitAndGo { size, bots_after_ms };
        assert_eq!(sit(9, None).check(TableType::House, 0), Ok(()));
        assert_eq!(sit(27, Some(10_000)).check(TableType::NoShuffle, 0), Ok(()));
        assert_eq!(sit(16, None).check(TableType::TwoPlayer, 0), Ok(()));
        assert!(matches!(sit(12, None).check(TableType::House, 0), Err(SettingsError::Size { .. })));
        assert!(matches!(sit(9, None).check(TableType::TwoPlayer, 0), Err(SettingsError::Size { .. })));
        assert_eq!(sit(9, Some(5_000)).check(TableType::House, 0), Err(SettingsError::Wait));
        let at = |starts_at| Format::Scheduled { starts_at, bots_fill: false };
        assert_eq!(at(HOUR).check(TableType::House, 0), Ok(()));
        assert_eq!(at(HOUR).check(TableType::House, 2 * HOUR), Err(SettingsError::StartsAt));
        assert_eq!(at(31 * 24 * HOUR).check(TableType::House, 0), Err(SettingsError::StartsAt));
    }

    #[test]
    fn the_line_starts_at_its_share_of_the_chips_and_rises_every_chip_round() {
        let settings = defaults(TableType::House, 27);
        assert_eq!([1, 2, 3].map(|round| settings.line(round)), [2_000, 4_000, 6_000]);
    }

    #[test]
    fn a_share_of_the_chips_is_carried_into_the_fixed_deal_rounds() {
        let settings = defaults(TableType::House, 27);
        assert_eq!((settings.carried(25_000), settings.carried(1_009), settings.carried(-300)), (2_500, 100, 0));
    }

    #[test]
    fn a_sit_and_go_starts_when_full() {
        let mut log = sit_and_go(9, false);
        log.register(&["A", "B", "C", "D", "E", "F", "G", "H"]);
        log.now = 10 * HOUR;
        assert_eq!(log.state().due_entry(log.now), None, "eight of nine, no bots: it waits");
        log.register(&["I"]);
        assert_eq!(log.state().due_entry(log.now), Some(Entry::Started { byes: vec![], bots: 0 }));
        assert_eq!(log.state().check_register(&named("J")), Err(EntryError::Full));
    }

    #[test]
    fn bots_fill_a_sit_and_go_after_the_wait_only_where_the_host_allowed_them() {
        let mut log = sit_and_go(9, true);
        log.register(&["A", "B"]);
        log.now = BOTS_AFTER_MS - 1;
        assert_eq!(log.state().due_entry(log.now), None);
        log.now = BOTS_AFTER_MS;
        let started = log.state().due_entry(log.now).unwrap();
        assert_eq!(started, Entry::Started { byes: vec![], bots: 7 });
        log.push(started);
        let state = log.state();
        assert_eq!(state.entrants.iter().filter(|e| e.bot.is_some()).count(), 7);
        assert_eq!(state.phase, Phase::Running);
    }

    #[test]
    fn a_bot_that_fills_a_place_never_takes_a_registered_players_name() {
        let mut log = sit_and_go(9, true);
        log.register(&["Bot 1", "bot 3"]);
        log.now = BOTS_AFTER_MS;
        log.push(log.state().due_entry(log.now).unwrap());
        let names: Vec<String> = log.state().entrants.iter().map(|e| e.name.clone()).collect();
        assert_eq!(names, ["Bot 1", "bot 3", "Bot 2", "Bot 4", "Bot 5", "Bot 6", "Bot 7", "Bot 8", "Bot 9"]);
    }

    #[test]
    fn registration_and_withdrawal_are_open_until_the_start_and_one_name_registers_once() {
        let mut log = sit_and_go(9, false);
        log.register(&["Ann"]);
        assert_eq!(log.state().check_register(&named("ANN")), Err(EntryError::AlreadyRegistered("ANN".into())));
        assert_eq!(log.state().check_withdraw(&named("Bob")), Err(EntryError::NotRegistered("Bob".into())));
        log.push(Entry::Withdrew { name: "ann".into() });
        assert!(log.state().entrants.is_empty());
        log.register(&names(9).iter().map(String::as_str).collect::<Vec<_>>());
        let started = log.state().due_entry(0).unwrap();
        log.push(started);
        assert_eq!(log.state().check_register(&named("Late")), Err(EntryError::Closed));
        assert_eq!(log.state().check_withdraw(&named("P1")), Err(EntryError::Closed));
    }

    #[test]
    fn a_scheduled_event_gives_the_latest_registrations_byes_beyond_whole_tables() {
        let mut log = Log::new(Format::Scheduled { starts_at: HOUR, bots_fill: false }, defaults(TableType::House, 27));
        log.register(&names(11).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(log.state().due_entry(HOUR - 1), None);
        let started = log.state().due_entry(HOUR).unwrap();
        assert_eq!(started, Entry::Started { byes: vec!["P9".into(), "P10".into()], bots: 0 });
        log.push(started);
        let state = log.state();
        assert_eq!(state.entrants.len(), 9);
        assert_eq!(state.until, 3, "nine players: the chip rounds end at one table");
    }

    #[test]
    fn a_scheduled_event_with_bots_allowed_fills_its_last_table_and_one_too_small_is_cancelled() {
        let settings = defaults(TableType::House, 27);
        let mut filled = Log::new(Format::Scheduled { starts_at: HOUR, bots_fill: true }, settings.clone());
        filled.register(&names(7).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(filled.state().due_entry(HOUR), Some(Entry::Started { byes: vec![], bots: 2 }));
        let mut small = Log::new(Format::Scheduled { starts_at: HOUR, bots_fill: false }, settings);
        small.register(&names(5).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(small.state().due_entry(HOUR), Some(Entry::Cancelled));
    }

    #[test]
    fn the_seat_draw_is_the_seeds_and_the_rounds_and_seats_everyone_once() {
        let field = vec![None; 9];
        let alive: Vec<usize> = (0..9).collect();
        let seed = Seed::from_u64(7);
        let first = draw_tables(&alive, &field, 3, &seed, 1, DRAW);
        assert_eq!(first, draw_tables(&alive, &field, 3, &seed, 1, DRAW), "anyone with the seed draws the same tables");
        assert_ne!(first, draw_tables(&alive, &field, 3, &seed, 2, DRAW), "each round its own draw");
        assert_ne!(first, draw_tables(&alive, &field, 3, &Seed::from_u64(8), 1, DRAW), "each seed its own draw");
        let mut seated: Vec<usize> = first.concat();
        seated.sort_unstable();
        assert_eq!(seated, alive);
        assert!(first.iter().all(|table| table.len() == 3));
    }

    #[test]
    fn two_entrants_of_one_address_never_share_a_table() {
        // Three pairs from one address each, among nine: every draw parts every pair.
        let field: Vec<Option<&str>> =
            ["home", "home", "office", "office", "cafe", "cafe", "g", "h", "i"].into_iter().map(Some).collect();
        let alive: Vec<usize> = (0..9).collect();
        for round in 0..200 {
            for table in draw_tables(&alive, &field, 3, &Seed::from_u64(3), round, DRAW) {
                let mut addresses: Vec<_> = table.iter().map(|&i| field[i]).collect();
                addresses.sort();
                addresses.dedup();
                assert_eq!(addresses.len(), 3, "round {round}: {table:?}");
            }
        }
    }

    #[test]
    fn swiss_reseating_mixes_the_ranking_across_tables() {
        let ranked: Vec<usize> = (0..9).collect();
        assert_eq!(swiss_tables(&ranked, 3, &[]), [vec![0, 3, 6], vec![1, 4, 7], vec![2, 5, 8]]);
        assert_eq!(swiss_tables(&[0, 1, 2, 3], 2, &[]), [vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn swiss_reseating_parts_players_who_just_shared_a_table_where_it_can() {
        let ranked: Vec<usize> = (0..9).collect();
        // 0 and 6 sat together last round: the first table's last seat trades with the second's.
        let before = [vec![0, 6, 2], vec![1, 3, 4], vec![5, 7, 8]];
        let tables = swiss_tables(&ranked, 3, &before);
        assert_eq!(tables[0], [0, 3, 7]);
        let met = |a: usize, b: usize| before.iter().any(|t| t.contains(&a) && t.contains(&b));
        assert!(!met(tables[0][0], tables[0][2]), "{tables:?}");
        let mut seated = tables.concat();
        seated.sort_unstable();
        assert_eq!(seated, ranked);
    }

    #[test]
    fn players_below_the_line_after_a_chip_round_are_out_and_the_tables_stay_full() {
        let mut log = sit_and_go(27, false);
        log.register(&names(27).iter().map(String::as_str).collect::<Vec<_>>());
        // Chip rounds of one deal; a farmer loses 10 points (5,000 chips): 5,000 left, below no line of 20%.
        let settings = SettingsDraft { line_every: 1, line_percent: 60, stake: 500, ..log.state().settings.draft() }
            .check(Some(27))
            .unwrap();
        log.entries[0].entry = Entry::Created {
            title: "Test".into(),
            host: "Host".into(),
            format: log.state().format,
            settings,
            seed: Seed::from_u64(42),
            draw: DRAW,
            recurring: false,
        };
        log.push(log.state().due_entry(0).unwrap());
        log.push(log.state().due_entry(0).unwrap());
        let round = log.state().current().unwrap().clone();
        assert_eq!((round.stage, round.line, round.tables.len()), (Stage::Chips, Some(6_000), 9));
        for table in &round.tables {
            log.push(Entry::DealCounted { code: table.code.clone(), number: 1, scores: vec![20, -10, -10] });
        }
        let Some(Entry::RoundClosed { out, .. }) = log.state().due_entry(0) else { panic!() };
        assert_eq!(out.len(), 18, "every farmer fell to 5,000, below the line of 6,000");
        log.push(Entry::RoundClosed { round: 1, out });
        let Some(Entry::Seated { stage, tables, .. }) = log.state().due_entry(0) else { panic!() };
        assert_eq!((stage, tables.len()), (Stage::Fixed, 3), "nine left: the chip rounds are over");
    }

    #[test]
    fn a_chip_round_keeps_whole_tables_cutting_the_lowest_above_the_line() {
        let mut log = sit_and_go(27, false);
        log.register(&names(27).iter().map(String::as_str).collect::<Vec<_>>());
        log.push(log.state().due_entry(0).unwrap());
        log.push(log.state().due_entry(0).unwrap());
        let round = log.state().current().unwrap().clone();
        // Two tables' farmers each lose 8 points (4,000 chips): below nobody's line, but ...
        for (t, table) in round.tables.iter().enumerate() {
            for number in 1..=3 {
                let scores = if t < 2 && number == 1 { vec![16, -8, -8] } else { vec![0, 0, 0] };
                log.push(Entry::DealCounted { code: table.code.clone(), number, scores });
            }
        }
        // ... the line after the first chip round is 2,000: everyone is above it, nobody goes out.
        let Some(Entry::RoundClosed { out, .. }) = log.state().due_entry(0) else { panic!() };
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn the_fixed_deal_rounds_carry_a_share_of_the_chips_and_two_thirds_advance() {
        assert_eq!([9, 6, 27, 18, 12, 4].map(|n| advancing(n, 3)), [6, 3, 18, 12, 6, 3]);
        assert_eq!([16, 8, 4].map(|n| advancing(n, 2)), [10, 4, 2]);
        let mut log = sit_and_go(9, false);
        log.register(&names(9).iter().map(String::as_str).collect::<Vec<_>>());
        log.play(seat_zero_wins);
        let state = log.state();
        let stages: Vec<Stage> = state.rounds.iter().map(|r| r.stage).collect();
        assert_eq!(stages, [Stage::Chips, Stage::Chips, Stage::Chips, Stage::Final]);
        let winner = state.standings()[0].entrant;
        let final_table = &state.rounds.last().unwrap().tables[0];
        assert!(final_table.players.contains(&winner));
        // Each finalist's chips started from the carried share of their chip rounds'.
        for (seat, &player) in final_table.players.iter().enumerate() {
            let won_in_chip_rounds: i64 = state.rounds[..3]
                .iter()
                .flat_map(|r| r.tables.iter())
                .filter_map(|t| t.players.iter().position(|&p| p == player).map(|s| t.won[s]))
                .sum();
            let carried = state.settings.carried(state.settings.chips + won_in_chip_rounds);
            assert_eq!(state.entrants[player].chips, carried + final_table.won[seat]);
        }
    }

    #[test]
    fn a_27_player_event_plays_chip_rounds_then_swiss_rounds_to_a_final_table_and_a_podium() {
        let mut log = sit_and_go(27, false);
        log.register(&names(27).iter().map(String::as_str).collect::<Vec<_>>());
        // Scores that differ by table and deal, so that rankings move.
        log.play(|_, table, number| {
            let lucky = (table.code.as_str().len() + number as usize + table.players[0]) % 3;
            (0..3).map(|s| if s == lucky { 4 } else { -2 }).collect()
        });
        let state = log.state();
        assert_eq!(state.phase, Phase::Finished);
        let sizes: Vec<(Stage, usize)> = state.rounds.iter().map(|r| (r.stage, r.tables.len())).collect();
        assert_eq!(sizes.first(), Some(&(Stage::Chips, 9)));
        assert_eq!(sizes.last(), Some(&(Stage::Final, 1)));
        assert!(sizes.contains(&(Stage::Fixed, 3)) && sizes.contains(&(Stage::Fixed, 2)), "{sizes:?}");
        for round in &state.rounds {
            let mut seated: Vec<usize> = round.tables.iter().flat_map(|t| t.players.clone()).collect();
            assert!(round.tables.iter().all(|t| t.players.len() == 3 && t.counted == round.deals));
            seated.sort_unstable();
            seated.dedup();
            assert_eq!(seated.len(), round.tables.len() * 3, "nobody sits twice in round {}", round.number);
        }
        let standings = state.standings();
        let mut places: Vec<usize> = standings.iter().map(|s| s.entrant).collect();
        places.sort_unstable();
        assert_eq!(places, (0..27).collect::<Vec<_>>());
        let podium: Vec<usize> = standings[..3].iter().map(|s| s.entrant).collect();
        let final_players = &state.rounds.last().unwrap().tables[0].players;
        assert!(podium.iter().all(|p| final_players.contains(p)), "the podium is the final table");
        assert_eq!(state.due_entry(u64::MAX), None);
    }

    /// The path of a stage: (rounds played, planned, players at its start, state).
    fn path_of(t: &Tournament) -> Vec<(Stage, u32, u32, usize, PathState)> {
        t.path().into_iter().map(|p| (p.stage, p.rounds, p.planned, p.players, p.state)).collect()
    }

    #[test]
    fn a_tournaments_path_shows_the_stages_ahead_and_where_the_field_is() {
        use PathState::{Ahead, Done, Now};
        let mut log = sit_and_go(27, false);
        // Ahead of the start: three chip rounds down to 9, two Swiss rounds (9 to 6 to 3), the final.
        assert_eq!(
            path_of(&log.state()),
            [(Stage::Chips, 0, 3, 27, Ahead), (Stage::Fixed, 0, 2, 9, Ahead), (Stage::Final, 0, 1, 3, Ahead)]
        );
        log.register(&names(27).iter().map(String::as_str).collect::<Vec<_>>());
        log.push(log.state().due_entry(0).unwrap());
        log.push(log.state().due_entry(0).unwrap());
        assert_eq!(log.state().rounds.len(), 1);
        assert_eq!(path_of(&log.state())[0], (Stage::Chips, 1, 3, 27, Now));
        log.play(|_, table, number| {
            let lucky = (table.code.as_str().len() + number as usize + table.players[0]) % 3;
            (0..3).map(|s| if s == lucky { 4 } else { -2 }).collect()
        });
        let state = log.state();
        let played = |stage| state.rounds.iter().filter(|r| r.stage == stage).count() as u32;
        let path = path_of(&state);
        assert!(path.iter().all(|p| p.4 == Done), "{path:?}");
        assert_eq!(path.iter().map(|p| p.1).collect::<Vec<_>>(), [played(Stage::Chips), played(Stage::Fixed), 1]);
        assert_eq!(path[2].3, 3, "the final seats one table");
    }

    #[test]
    fn two_player_events_seat_pairs() {
        let mut log = Log::new(Format::SitAndGo { size: 8, bots_after_ms: None }, defaults(TableType::TwoPlayer, 8));
        log.register(&names(8).iter().map(String::as_str).collect::<Vec<_>>());
        log.play(|_, _, number| if number % 2 == 0 { vec![3, -3] } else { vec![-1, 1] });
        let state = log.state();
        assert_eq!(state.phase, Phase::Finished);
        assert!(state.rounds.iter().all(|r| r.tables.iter().all(|t| t.players.len() == 2)));
        assert_eq!(state.rounds.last().map(|r| (r.stage, r.tables.len())), Some((Stage::Final, 1)));
    }

    fn hourly() -> Recurring {
        Recurring {
            slug: "hourly-house".into(),
            title: "Hourly House".into(),
            table: TableType::House,
            every_minutes: Some(60),
            offset_minutes: 0,
            open_minutes: None,
            bots_fill: true,
            sit_and_go: None,
            bots_after_seconds: None,
            settings: None,
        }
    }

    fn always_open() -> Recurring {
        Recurring {
            slug: "house-sit-and-go".into(),
            title: String::new(),
            every_minutes: None,
            bots_fill: false,
            sit_and_go: Some(9),
            bots_after_seconds: Some(60),
            ..hourly()
        }
    }

    fn scheduled(due: Option<Announce>) -> Option<(String, u64)> {
        due.map(|due| match due {
            Announce::Scheduled { id, starts_at } => (id, starts_at),
            Announce::SitAndGo => panic!("a scheduled event announced a sit-and-go"),
        })
    }

    #[test]
    fn a_recurring_event_announces_its_next_run_one_period_ahead() {
        let event = hourly();
        assert_eq!(event.check(), Ok(()));
        // 10:20 UTC: the 11:00 run is open; its id names its start.
        let at_10_20 = 10 * HOUR + 20 * 60_000;
        assert_eq!(event.next_start(60, at_10_20), 11 * HOUR);
        assert_eq!(scheduled(event.due(at_10_20)), Some((format!("hourly-house-{}", 11 * 60), 11 * HOUR)));
        // On the hour the next run is the following one.
        assert_eq!(event.next_start(60, 11 * HOUR), 12 * HOUR);
        // A daily event at 20:00 UTC, announced two hours ahead.
        let daily = Recurring { every_minutes: Some(1440), offset_minutes: 1200, open_minutes: Some(120), ..hourly() };
        assert_eq!(daily.next_start(1440, 10 * HOUR), 20 * HOUR);
        assert_eq!(scheduled(daily.due(10 * HOUR)), None);
        assert_eq!(scheduled(daily.due(18 * HOUR)).map(|(_, start)| start), Some(20 * HOUR));
        assert_eq!(daily.next_start(1440, 21 * HOUR), 44 * HOUR);
    }

    #[test]
    fn a_sit_and_go_always_open_names_its_runs_by_number() {
        let event = always_open();
        assert_eq!(event.check(), Ok(()));
        assert_eq!(event.due(0), Some(Announce::SitAndGo));
        assert_eq!(event.format(0), Format::SitAndGo { size: 9, bots_after_ms: Some(60_000) });
        assert_eq!(event.run_id(12), "house-sit-and-go-12");
        assert_eq!(event.run_of("house-sit-and-go-12"), Some(12));
        // Another event's runs, or another kind of id, are not its own.
        for other in
            ["house-sit-and-go", "house-sit-and-go-", "house-sit-and-go-x1", "house-sit-and-go-big-1", "house-1"]
        {
            assert_eq!(event.run_of(other), None, "{other}");
        }
        let two_player = Recurring { table: TableType::TwoPlayer, sit_and_go: Some(8), ..always_open() };
        assert_eq!(two_player.check(), Ok(()));
        assert_eq!(two_player.settings().table, TableType::TwoPlayer);
    }

    #[test]
    fn a_recurring_event_out_of_bounds_is_refused() {
        assert!(matches!(Recurring { slug: "Hourly!".into(), ..hourly() }.check(), Err(RecurringError::Slug(_))));
        assert!(matches!(Recurring { every_minutes: Some(5), ..hourly() }.check(), Err(RecurringError::Every(_))));
        let bad = SettingsDraft { chips: 1, ..SettingsDraft::default_for(TableType::House, 27) };
        assert!(matches!(Recurring { settings: Some(bad), ..hourly() }.check(), Err(RecurringError::Settings(..))));
        // Exactly one kind.
        assert!(matches!(Recurring { sit_and_go: Some(9), ..hourly() }.check(), Err(RecurringError::Kind(_))));
        assert!(matches!(Recurring { every_minutes: None, ..hourly() }.check(), Err(RecurringError::Kind(_))));
        // Each kind's own fields.
        let waits = Recurring { bots_after_seconds: Some(60), ..hourly() };
        assert!(matches!(waits.check(), Err(RecurringError::SitAndGoOnly(_))));
        let fills = Recurring { bots_fill: true, ..always_open() };
        assert_eq!(fills.check(), Err(RecurringError::ScheduledOnly("house-sit-and-go".into(), "bots_fill")));
        // A sit-and-go's size and wait as a host's are bounded.
        assert!(matches!(
            Recurring { sit_and_go: Some(10), ..always_open() }.check(),
            Err(RecurringError::Settings(..))
        ));
        let quick = Recurring { bots_after_seconds: Some(1), ..always_open() };
        assert!(matches!(quick.check(), Err(RecurringError::Settings(..))));
    }

    #[test]
    fn a_sit_and_go_s_bots_wait_from_its_first_registration_and_never_fill_an_empty_event() {
        let mut log = sit_and_go(9, true);
        // Nobody registered: no start however long it waits.
        assert_eq!(log.state().bots_fill_at(), None);
        assert_eq!(log.state().due(10 * HOUR), None);
        log.register(&["1"]);
        let first = log.state().entrants[0].since;
        assert_eq!(log.state().bots_fill_at(), Some(first + BOTS_AFTER_MS));
        assert_eq!(log.state().due(first + BOTS_AFTER_MS - 1), None);
        assert_eq!(
            log.state().due(first + BOTS_AFTER_MS),
            Some(Due::Store(Entry::Started { byes: Vec::new(), bots: 8 }))
        );
    }

    #[test]
    fn an_entrant_still_playing_may_not_watch_another_table_of_the_event() {
        let mut log = sit_and_go(9, false);
        log.register(&names(9).iter().map(String::as_str).collect::<Vec<_>>());
        log.push(log.state().due_entry(0).unwrap());
        log.push(log.state().due_entry(0).unwrap());
        let state = log.state();
        let round = state.current().unwrap();
        let mine = round.tables.iter().find(|t| t.players.contains(&0)).unwrap().code.clone();
        let other = round.tables.iter().find(|t| !t.players.contains(&0)).unwrap().code.clone();
        let p0 = NameKey::of_stored("P0");
        // By address (a spectator has no name) or by name (from anywhere): not another table.
        assert!(!state.may_watch(&other, Some("10.0.0.P0"), None), "P0's address plays elsewhere");
        assert!(
            !state.may_watch(&other, Some("10.0.0.P0"), Some(&NameKey::of_stored("someone"))),
            "whatever name it comes as"
        );
        assert!(!state.may_watch(&other, Some("192.0.2.1"), Some(&p0)), "P0's own name from another address");
        assert!(!state.may_watch(&other, None, Some(&p0)), "P0's own name from nowhere known");
        // Their own table is theirs to watch; a stranger watches any table.
        assert!(state.may_watch(&mine, Some("10.0.0.P0"), None));
        assert!(state.may_watch(&mine, Some("192.0.2.1"), Some(&p0)));
        assert!(
            state.may_watch(&other, Some("192.0.2.1"), None)
                && state.may_watch(&other, None, Some(&NameKey::of_stored("stranger")))
        );
        log.push(Entry::RoundClosed { round: 1, out: vec![0] });
        assert!(log.state().may_watch(&other, Some("10.0.0.P0"), Some(&p0)), "once out, every table opens");
    }

    #[test]
    fn a_finished_events_record_checks_out_and_a_seat_or_a_cut_changed_is_found() {
        let mut log = sit_and_go(27, false);
        log.register(&names(27).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(verify(&log.entries), Err(RecordError::NotOver));
        log.play(|_, table, number| {
            let lucky = (table.code.as_str().len() + number as usize + table.players[0]) % 3;
            (0..3).map(|s| if s == lucky { 4 } else { -2 }).collect()
        });
        let checks = verify(&log.entries).expect("a finished event checks").checks;
        let seatings = log.entries.iter().filter(|s| matches!(s.entry, Entry::Seated { .. })).count();
        assert!(
            checks.iter().filter(|c| c.what.starts_with("round ") && c.what.contains("tables")).count() == seatings
        );
        assert!(checks.iter().all(|c| c.differs.is_none()), "{checks:?}");
        // Two players of the first round traded seats: found at that entry, and nowhere before it.
        let mut changed = log.entries.clone();
        let at = changed.iter().position(|s| matches!(s.entry, Entry::Seated { .. })).unwrap();
        if let Entry::Seated { tables, .. } = &mut changed[at].entry {
            let (a, b) = (tables[0].1[0], tables[1].1[0]);
            tables[0].1[0] = b;
            tables[1].1[0] = a;
        }
        let found: Vec<u64> =
            verify(&changed).unwrap().checks.iter().filter(|c| c.differs.is_some()).map(|c| c.n).collect();
        assert_eq!(found.first(), Some(&changed[at].n));
        // A round's cut that kept someone the line put out.
        let mut changed = log.entries.clone();
        let at =
            changed.iter().position(|s| matches!(&s.entry, Entry::RoundClosed { out, .. } if !out.is_empty())).unwrap();
        if let Entry::RoundClosed { out, .. } = &mut changed[at].entry {
            out.pop();
        }
        let first = verify(&changed).unwrap().checks.into_iter().find(|c| c.differs.is_some()).map(|c| c.n);
        assert_eq!(first, Some(changed[at].n));
    }

    #[test]
    fn the_commitment_is_the_seeds_hash() {
        let log = sit_and_go(9, false);
        let state = log.state();
        assert_eq!(state.commitment(), hex(&Sha256::digest(Seed::from_u64(42).0)));
        assert_eq!(state.commitment().len(), 64);
    }
}
