//! The HTTP API's request and response bodies (docs/protocol.md, "HTTP"), written out in TypeScript with
//! the socket's types, so that the web client's calls cannot drift from what the server reads and sends.

use ddz_bot::BotKind;
use ddz_bot::review::Review;
use ddz_engine::{DealRecord, Fairness, ReplayStep, Seed, TableType};
use serde::{Deserialize, Serialize};

use crate::domain::challenge::{BoardRow, ChallengeKind, RallyResult};
use crate::domain::rating::{PlayerRating, RatingRow};
use crate::domain::room::RoomCode;
use crate::domain::stats::{BoardName, StatLine};
use crate::domain::tournament::{Format, Phase, Settings, Stage};
use crate::wire::protocol::{ErrorCode, Summary};

/// `POST /api/rooms`: an invite room of `table` (the Wild at House, Wild Rank elsewhere, per `wild`), or
/// with `public` a lobby table (always House with the Wild).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct CreateRoom {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    pub table: TableType,
    #[serde(default = "yes")]
    pub wild: bool,
    #[serde(default)]
    pub public: bool,
}

/// `POST /api/play-vs-bots`: a room with the player and two bots of `level`, its first deal dealt.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct PlayVsBots {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    #[serde(default = "house")]
    pub table: TableType,
    #[serde(default = "yes")]
    pub wild: bool,
    #[serde(default = "hard")]
    pub level: BotKind,
}

/// `POST /api/challenges`: a Bot Buster or Bot Bomber run, or today's rally.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct StartChallenge {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    pub kind: ChallengeKind,
}

/// `POST /api/quick-match`: join the quick-match queue for `table` (House plays with the Wild, the
/// others without Wild Rank). A name already waiting gets its own ticket back (another tab).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct JoinQuickMatch {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    #[serde(default = "house")]
    pub table: TableType,
}

/// A quick-match ticket as its player polls it (`POST /api/quick-match`, `GET /api/quick-match/TICKET`).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickMatch {
    pub ticket: String,
    pub name: String,
    pub table: TableType,
    /// How long the player has waited (ms).
    pub waited_ms: u64,
    /// While waiting: in how long bots fill the seats nobody came for (ms), and how many wait for this
    /// table type (the player included).
    pub fill_in_ms: u64,
    pub waiting: u32,
    /// Once matched: the room to enter, and how many bots sit there with the players.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomCode>,
    pub bots: u32,
}

/// The room made for `POST /api/rooms` and `POST /api/play-vs-bots`.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct RoomCreated {
    pub code: RoomCode,
}

/// The room of a challenge started (or the unfinished run resumed).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct ChallengeStarted {
    pub code: RoomCode,
    pub resumed: bool,
}

/// `GET /api/lobby`: the open public tables.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Lobby {
    pub tables: Vec<Summary>,
}

/// `GET /api/rooms/CODE/deals`: a room's finished deals' records, deal 1 first.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct RoomDeals {
    pub deals: Vec<DealRecord>,
}

/// `GET /api/rooms/CODE/deals/N`: deal N of a room, step by step (`steps[0]` as dealt, the last one
/// finished).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Replay {
    pub code: RoomCode,
    pub number: u32,
    pub seats: Vec<String>,
    pub record: DealRecord,
    pub steps: Vec<ReplayStep>,
}

/// `GET /api/rooms/CODE/deals/N/reviews/SEAT`: the `hard` bot's review of one seat's trick play.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct DealReview {
    pub code: RoomCode,
    pub number: u32,
    pub review: Review,
}

/// `GET /api/players/NAME`: a player's totals by table type and board.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PlayerStats {
    pub name: String,
    /// The name is protected (`docs/names.md`).
    pub protected: bool,
    pub stats: Vec<StatLine>,
    /// The player's rating in each family they have played rated deals in, with its history.
    pub ratings: Vec<PlayerRating>,
    /// Where the player stands on the boards.
    pub standing: Standing,
}

/// Where a player stands on the boards (docs/ratings.md, "What counts"): a name is listed once it has
/// enough rated deals against enough distinct opponents, and then has a rank on each board it is on.
#[derive(ts_rs::TS, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub rated_deals: i64,
    pub opponents: i64,
    pub listed: bool,
    /// What listing takes: rated deals, and distinct opponents (people by name, each bot level one).
    pub needs_deals: i64,
    pub needs_opponents: i64,
    /// The player's rank on each board they have a row on, once listed.
    pub ranks: Vec<BoardRank>,
}

/// A player's place on one board: `overall` or `lobby` (money), or a ratings family.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRank {
    pub board: String,
    /// 1 for the top; `None` beyond the first [`RANKED`] (counted through the board's index, never
    /// every player).
    pub rank: Option<i64>,
}

/// How deep a player's rank is counted.
pub const RANKED: i64 = 1_000;

/// `GET /api/ratings/FAMILY`: the ratings board of a table family, ranked by the rating less two
/// standard deviations (docs/ratings.md).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct RatingBoard {
    pub family: TableType,
    pub rows: Vec<RatingRow>,
}

/// `GET /api/boards/BOARD`: a board's rows (a rally board's for `date`).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct Board {
    pub board: BoardName,
    pub date: Option<String>,
    pub rows: Vec<BoardRow>,
}

/// `GET /api/rallies`: today's date and the dates of earlier rallies with results.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Rallies {
    pub today: String,
    pub dates: Vec<String>,
}

/// `GET /api/rallies/DATE/compare/NAME`: a finished attempt beside the best one on its board.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct RallyComparison {
    pub date: String,
    pub you: RallyResult,
    pub best: RallyResult,
}

/// `GET /api/rallies/DATE/fairness`: the day's commitment and each deal's (seeds once it has closed).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct RallyFairness {
    pub date: String,
    pub commitment: String,
    pub closed: bool,
    pub deals: Vec<Fairness>,
}

/// `POST /api/names/protect`: protect a name that nobody has protected yet.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct ProtectName {
    pub name: String,
}

/// `POST /api/names/recover`: a protected name's recovery code, for a new key (and a new code).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct RecoverName {
    pub name: String,
    pub code: String,
}

/// A protected name's secrets, answered once by `POST /api/names/protect` and `POST /api/names/recover`:
/// the browser keeps `key` and sends it with every request that acts as the name; the player writes
/// `recovery` down. The server keeps neither, only their digests.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct NameSecrets {
    pub name: String,
    pub key: String,
    pub recovery: String,
}

/// Every refusal: a stable code and a message in English.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

/// `GET /healthz` and `GET /readyz` when the answer is yes.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Health {
    pub status: String,
}

fn yes() -> bool {
    true
}

fn house() -> TableType {
    TableType::House
}

fn hard() -> BotKind {
    BotKind::Hard
}

/// `POST /api/tournaments`: a sit-and-go or a scheduled event of `table`, hosted by `name`. Settings left
/// out take docs/tournaments.md's defaults for the format's field.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct CreateTournament {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    /// What the lists call it: at most 40 characters (left out, the page names it by its table type and
    /// format, in the reader's language).
    #[serde(default)]
    pub title: Option<String>,
    pub table: TableType,
    pub format: Format,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub settings: Option<Settings>,
}

/// `POST /api/tournaments/{id}/register` and `/withdraw`.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct TournamentEntry {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
}

/// A tournament as the lists show it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: String,
    /// The host's title; empty when none was given.
    pub title: String,
    pub host: String,
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

/// `GET /api/tournaments`: upcoming (registering), running and finished (the latest 50) tournaments.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct Tournaments {
    pub upcoming: Vec<TournamentSummary>,
    pub running: Vec<TournamentSummary>,
    pub finished: Vec<TournamentSummary>,
}

/// `POST /api/tournaments`'s answer.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct TournamentCreated {
    pub id: String,
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

#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentRound {
    pub number: u32,
    pub stage: Stage,
    pub deals: u32,
    /// The line this chip round's end applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub line: Option<i64>,
    pub closed: bool,
    pub tables: Vec<TournamentTable>,
}

/// `GET /api/tournaments/{id}`: everything about one tournament. Each table shows its standing only
/// (deals counted, chips won); its cards are its room's.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentView {
    pub summary: TournamentSummary,
    pub settings: Settings,
    /// The chip rounds end at this many players (for the field that started).
    pub until: usize,
    /// SHA-256 of the seed the seats are drawn from, shown from the start.
    pub commitment: String,
    /// The seed, once the tournament is over: anyone can draw the seats again (docs/tournaments.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed: Option<Seed>,
    /// The standings, best first (before the start: the registered, in order).
    pub standings: Vec<EntrantView>,
    /// Registrations left out at the start (beyond whole tables).
    pub byes: Vec<String>,
    pub rounds: Vec<TournamentRound>,
    /// The server's time, for the countdown.
    pub now: u64,
}
