//! The HTTP API's request and response bodies (docs/protocol.md, "HTTP"), written out in TypeScript with
//! the socket's types, so that the web client's calls cannot drift from what the server reads and sends.

use ddz_bot::BotKind;
use ddz_bot::puzzles::{Source, Theme};
use ddz_bot::review::Review;
use ddz_engine::{DealRecord, Endgame, Fairness, Play, ReplayStep, Seed, TableType};
use serde::{Deserialize, Serialize};

use crate::domain::challenge::{BoardRow, ChallengeKind, RallyResult};
use crate::domain::names::NameKey;
use crate::domain::rating::{PlayerRating, RatingRow};
use crate::domain::room::{Mode, RoomCode};
use crate::domain::stats::{BoardName, StatLine};
use crate::domain::tournament::{Format, Settings, SettingsBounds, SettingsDraft, Stage, Stamped};
use crate::wire::pages::{EntrantView, Summary, TournamentSummary, TournamentTable};
use crate::wire::protocol::ErrorCode;

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
    /// Each seat's name key: the page finds its own seat by the server's key, never by comparing names.
    pub keys: Vec<NameKey>,
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

/// `GET /api/players/NAME`: a player's page: totals by table type and board, ratings, standing, challenges
/// and tournaments (the deals they played are paged apart: [`PlayedDeals`]).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PlayerStats {
    pub name: String,
    /// The name's key ([`NameKey`]): the same for every spelling of the name.
    pub key: NameKey,
    /// The name is protected (`docs/names.md`).
    pub protected: bool,
    pub stats: Vec<StatLine>,
    /// The player's rating in each family they have played rated deals in, with its history.
    pub ratings: Vec<PlayerRating>,
    /// Where the player stands on the boards.
    pub standing: Standing,
    /// Bot Buster, Bot Bomber and today's rally, in that order.
    pub challenges: Vec<ChallengeStanding>,
    /// The finished tournaments the name played in, newest first (at most [`TOURNAMENTS_SHOWN`]).
    pub tournaments: Vec<TournamentFinish>,
    pub puzzles: PuzzleRecord,
}

/// A player's puzzles on their page: their puzzle rating (1500 before any attempt), how many they attempted and
/// solved, and their latest rated attempts, newest first (at most [`PUZZLES_SHOWN`]).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct PuzzleRecord {
    pub rating: i32,
    pub attempts: i64,
    pub solved: i64,
    pub recent: Vec<PuzzleTry>,
}

/// How many of a player's latest puzzle attempts their page shows.
pub const PUZZLES_SHOWN: i64 = 10;

/// One rated attempt at a puzzle: solved or not, when (ms since the epoch), the player's puzzle rating after it
/// and the puzzle's rating now.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct PuzzleTry {
    pub id: String,
    pub solved: bool,
    #[ts(type = "number")]
    pub at: u64,
    pub rating: i32,
    pub puzzle_rating: i32,
}

/// How many of a player's finished tournaments their page shows.
pub const TOURNAMENTS_SHOWN: i64 = 20;

/// A player's standing in one challenge.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeStanding {
    pub kind: ChallengeKind,
    /// Bot Buster and Bot Bomber: the name's best finished run; the rally: today's attempt, once finished.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<Placing>,
    /// An unfinished run (today's rally begun) that the name resumes by starting the challenge again.
    pub running: bool,
}

/// A name's own row on a board, wherever it stands: its rank (counted through the board's index, so absent
/// beyond the first [`RANKED`], and while the name is not listed).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<i64>,
    pub score: i64,
    pub deals: i64,
    /// The date of the result (`2026-11-29`, UTC).
    pub date: String,
    /// Listed on the board (docs/ratings.md, "What counts"; challenge boards list every finished run).
    pub listed: bool,
    /// What listing still takes: rated deals, and distinct opponents (0 once listed).
    pub needs_deals: i64,
    pub needs_opponents: i64,
    /// The name is protected (`docs/names.md`).
    pub protected: bool,
}

/// A name's own row on a ratings board, wherever it stands (as [`Placing`]).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPlacing {
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<i64>,
    pub rating: i32,
    pub uncertainty: i32,
    pub deals: i64,
    pub date: String,
    pub listed: bool,
    /// What listing still takes, as [`Placing`]'s.
    pub needs_deals: i64,
    pub needs_opponents: i64,
    pub protected: bool,
}

/// A finished tournament a player played in, and where they finished.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentFinish {
    pub id: String,
    /// The host's title; empty when none was given (the page names it by its table type and format).
    pub title: String,
    pub table: TableType,
    pub format: Format,
    pub place: u32,
    pub entrants: u32,
    pub finished_at: u64,
}

/// `GET /api/players/NAME/deals?before=CURSOR&limit=N`: the deals a name played, newest first.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedDeals {
    pub deals: Vec<PlayedDeal>,
    /// The `before` of the next page; absent on the last.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// A deal a name played: its replay is `/replay/CODE/NUMBER`.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedDeal {
    pub code: RoomCode,
    pub number: u32,
    /// When it finished (ms since the epoch).
    pub at: u64,
    pub table: TableType,
    pub mode: Mode,
    pub seat: u32,
    pub landlord: bool,
    /// Absent when the deal had no winner.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
    /// Dollars at House, points elsewhere.
    pub amount: i64,
    /// The other seats' names, in seat order after this one.
    pub others: Vec<String>,
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

/// `GET /api/ratings/TABLE`: the ratings board of a table type, ranked by the rating less two standard
/// deviations (docs/ratings.md).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct RatingBoard {
    pub table: TableType,
    pub rows: Vec<RatingRow>,
    /// The row of the name asked about (`?name=`), wherever it stands; absent when it has none.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<RatingPlacing>,
}

/// `GET /api/boards/BOARD`: a board's rows (a rally board's for `date`).
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct Board {
    pub board: BoardName,
    pub date: Option<String>,
    pub rows: Vec<BoardRow>,
    /// The row of the name asked about (`?name=`), wherever it stands; absent when it has none.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Placing>,
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

/// `GET /api/names/NAME`: a name as the server reads it: its display form, its key (the same for every
/// spelling of the name: the page compares keys the server gave, never names), and whether it is protected.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct NameCard {
    pub name: String,
    pub key: NameKey,
    pub protected: bool,
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

/// `GET /api/tournaments/rules`: what a host may choose, from the server's own rules (docs/tournaments.md),
/// so that the create form copies none of them.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct TournamentRules {
    /// Each table type's seats, sit-and-go sizes and default settings.
    pub tables: Vec<TableTournaments>,
    /// Each setting's bounds, inclusive.
    pub bounds: SettingsBounds,
    /// How long a sit-and-go's bots may wait before they fill it, in ms, inclusive.
    pub bots_after_ms: [u64; 2],
    /// The longest title, in characters.
    pub title_chars: usize,
}

/// One table type's tournaments.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct TableTournaments {
    pub table: TableType,
    /// Seats at one of its tables.
    pub seats: usize,
    /// The sit-and-go sizes it takes, each with its default settings.
    pub sit_and_go: Vec<SitAndGoDefaults>,
    /// A scheduled event's default settings (for a field of 27).
    pub scheduled: SettingsDraft,
}

#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct SitAndGoDefaults {
    pub size: usize,
    pub settings: SettingsDraft,
}

/// `POST /api/tournaments`: a sit-and-go or a scheduled event of `table`, hosted by `name`. Settings left
/// out take docs/tournaments.md's defaults for the format's field.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    pub settings: Option<SettingsDraft>,
}

/// `POST /api/tournaments/{id}/register` and `/withdraw`.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentEntry {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
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

/// `GET /api/tournaments/{id}/record`: a finished tournament's public record, to check its draw
/// (`ddz verify-tournament`, docs/tournaments.md "Checking the draw"): its whole log, with each entrant's
/// address replaced by a group (`a1`, `a2`, …: entrants who registered from one address share one), and
/// the commitment the page showed from the start.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentRecord {
    pub id: String,
    pub commitment: String,
    pub log: Vec<Stamped>,
}

/// A puzzle as the page shows it (`GET /api/puzzles/daily`, `/next`, `/{id}`): every hand face up, the side
/// that solves it (the one to move), its rating now, its themes and where it came from.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PuzzleView {
    pub id: String,
    pub endgame: Endgame,
    /// `landlord` or `farmers`.
    pub side: String,
    pub rating: i32,
    pub plays: i64,
    pub solved: i64,
    pub themes: Vec<Theme>,
    pub source: Source,
    /// The daily puzzle's date (UTC).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// `GET /api/puzzles/{id}/deal`: the bot game a built-in puzzle came from, played again, to step through from
/// the puzzle's position (`step`) as a room's finished deal is ([`Replay`]).
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
pub struct PuzzleDeal {
    pub id: String,
    pub seats: Vec<String>,
    pub record: DealRecord,
    pub steps: Vec<ReplayStep>,
    /// The puzzle is the position after this many of the deal's actions: `steps[step]`.
    pub step: usize,
}

/// `POST /api/puzzles/{id}/attempt`: the solving side's moves in order (both farmers' when the farmers
/// solve), each a reading or `null` for a pass. Checked by the server's solver; rated once a name.
#[derive(ts_rs::TS, Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleAttempt {
    pub name: String,
    /// The name's key, if it is protected (`docs/names.md`).
    #[serde(default)]
    pub key: Option<String>,
    pub moves: Vec<Option<Play>>,
}

/// How an attempt went.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PuzzleResult {
    pub solved: bool,
    /// Every move as it was played: the player's and the solver's answers.
    pub line: Vec<Option<Play>>,
    /// The player's move (by its place among theirs) that gave the win away.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrong: Option<usize>,
    /// After the wrong move: how the other side wins (the solver's refutation).
    pub refutation: Vec<Option<Play>>,
    /// The puzzle's solution line.
    pub solution: Vec<Option<Play>>,
    /// The ratings the attempt moved (the name's first attempt at the puzzle).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<PuzzleRatingChange>,
}

#[derive(ts_rs::TS, Clone, Copy, Debug, Serialize)]
pub struct PuzzleRatingChange {
    pub before: i32,
    pub after: i32,
    pub puzzle_before: i32,
    pub puzzle_after: i32,
}

/// `GET /api/puzzles/board?name=`: the best puzzle ratings (names with 5 attempts or more), and the
/// reader's own.
#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PuzzleBoard {
    pub rows: Vec<PuzzleBoardRow>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<PuzzleStanding>,
}

#[derive(ts_rs::TS, Clone, Debug, Serialize)]
pub struct PuzzleBoardRow {
    pub rank: usize,
    pub name: String,
    pub rating: i32,
    pub attempts: i64,
    pub solved: i64,
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub yours: bool,
}

/// A name's puzzle rating and attempts.
#[derive(ts_rs::TS, Clone, Copy, Debug, Serialize)]
pub struct PuzzleStanding {
    pub rating: i32,
    pub attempts: i64,
}
