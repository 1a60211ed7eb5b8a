//! What the hall and a tournament's page show, over HTTP and pushed over the socket alike (`GET /api/hall`
//! and the `hall` event; `GET /api/tournaments/{id}/page` and the `tournament` event), with the lobby's room
//! summaries and the tournaments' lists they are made of.

use ddz_engine::{Seed, TableRules, TableType};
use serde::{Deserialize, Serialize};

use crate::domain::room::{Mode, RoomCode};
use crate::domain::tournament::{Format, PathStage, Phase, Settings, Stage};

/// What the lobby and the room list know of a room without asking it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub code: RoomCode,
    pub mode: Mode,
    pub rules: TableRules,
    pub seats: Vec<Option<String>>,
    /// How many of the seated are people, not bots (the hall counts who plays).
    #[serde(default)]
    pub people: u32,
    pub deals_played: u32,
    pub in_deal: bool,
    pub closed: bool,
}

/// A tournament as the lists show it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: String,
    /// The host's title; empty when none was given.
    pub title: String,
    pub host: String,
    /// One of the site's own events, always there (a recurring event's run), not a player's.
    #[serde(default)]
    pub recurring: bool,
    pub table: TableType,
    pub format: Format,
    pub phase: Phase,
    pub created_at: u64,
    /// When registration closes by itself: a scheduled event's start, a sit-and-go's bots filling it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub starts_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub started_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub finished_at: Option<u64>,
    /// Registered (before the start) or playing (after it), bots included.
    pub entrants: usize,
    /// Players still in.
    pub left: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage: Option<Stage>,
    /// The first three (two at Two Player) once it is over.
    pub podium: Vec<String>,
}

/// One line of the standings.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntrantView {
    pub place: usize,
    pub name: String,
    pub bot: bool,
    pub chips: i64,
    /// The round they went out in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub out: Option<u32>,
}

/// A round's table: its room, players by seat, deals counted, and the chips each seat won there.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentTable {
    pub code: RoomCode,
    pub players: Vec<String>,
    pub counted: u32,
    pub won: Vec<i64>,
}

/// `GET /api/tournaments/{id}/page?name=NAME`, and the `tournament` event of a socket following the
/// tournament: what its page shows, small whatever the field (the leaders, the round in play's tables), and
/// the reader's own place.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentFollow {
    /// The server's time as this was sent, for the countdown.
    pub now: u64,
    pub page: TournamentPage,
    /// The reader (the name asked about), once registered.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<TournamentYou>,
}

/// A tournament's page: the same for every reader.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentPage {
    pub summary: TournamentSummary,
    pub settings: Settings,
    /// The chip rounds end at this many players (for the field that started).
    pub until: usize,
    /// SHA-256 of the seed the seats are drawn from.
    pub commitment: String,
    /// The seed, once the tournament is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed: Option<Seed>,
    /// The event's path: chip rounds under the rising line, fixed-deal rounds, the final table.
    pub path: Vec<PathStage>,
    /// Every round so far, counted.
    pub rounds: Vec<RoundLine>,
    /// The first [`LEADERS`] of the standings (before the start: the first registered).
    pub leaders: Vec<EntrantView>,
    /// The round in play's tables, the first [`TABLES_SHOWN`].
    pub tables: Vec<TournamentTable>,
    pub byes: Vec<String>,
}

/// How many of the standings a tournament's page carries.
pub const LEADERS: usize = 50;
/// How many of the round in play's tables a tournament's page carries.
pub const TABLES_SHOWN: usize = 60;

/// A round as the path shows it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundLine {
    pub number: u32,
    pub stage: Stage,
    pub deals: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub line: Option<i64>,
    pub closed: bool,
    pub tables: usize,
    pub players: usize,
    /// Deals counted over its tables.
    pub counted: u32,
}

/// The reader's own place in a tournament, their table in the round in play, and their path: where they
/// sat in each round and what they won there.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentYou {
    pub entrant: EntrantView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table: Option<TournamentTable>,
    pub rounds: Vec<YourRound>,
}

/// One round of the reader's path.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YourRound {
    pub round: u32,
    pub stage: Stage,
    pub code: RoomCode,
    /// Deals counted at their table, and the chips they won there.
    pub counted: u32,
    pub won: i64,
}

/// `GET /api/hall`, and the `hall` event of a socket watching it: what is alive on the site now, kept in
/// memory as it changes (`crate::hall`), never read from the database per view.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hall {
    /// The server's time, for countdowns.
    pub now: u64,
    /// Sockets open on the site, every node's (tables, watchers and the hall itself).
    pub online: u32,
    /// Tables with a deal in play.
    pub playing: u32,
    /// Quick match per table type: House, No Shuffle, Two Player.
    pub quick: Vec<QuickLine>,
    /// Tournaments taking registrations, the soonest start first.
    pub tournaments: Vec<TournamentSummary>,
    /// Tournaments running now (the first [`HALL_RUNNING`]).
    pub running: Vec<TournamentSummary>,
    /// The open public tables.
    pub tables: Vec<Summary>,
    /// Today's rally (its UTC date).
    pub today: String,
}

/// How many running tournaments the hall lists.
pub const HALL_RUNNING: usize = 12;

/// Quick match for one table type: tickets waiting, and players at its tables with a deal in play.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickLine {
    pub table: TableType,
    pub waiting: u32,
    pub playing: u32,
}
