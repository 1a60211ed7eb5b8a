//! The JSON endpoints: rooms, Play vs 2 Bots, deal records, replays and reviews, stats, boards, ratings,
//! challenges and rallies, hints and readings.

use std::collections::HashSet;

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use ddz_bot::review::{REVIEW_BUDGET, Review};
use ddz_engine::hints::{Position, PositionError, hints_answer, readings_answer};
use ddz_engine::{DealRecord, Fairness, Rules};
use serde::Deserialize;

use super::common::{
    AppError, AppState, Body, ClientAddr, MAX_HAND, Params, Queried, busy, internal, origin_address, path_name,
};
use super::names::proven_name;
use crate::domain::challenge::{BOARD_ROWS, ChallengeKind, is_date, rally_closed, sealed_rally, utc_date};
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::room::{Mode, RoomCode};
use crate::domain::stats::BoardName;
use crate::room::Request;
use crate::store::{Db, DealsCursor, StoreError};
use crate::wire::http::{
    Board, ChallengeStanding, ChallengeStarted, CreateRoom, DealReview, Lobby, PUZZLES_SHOWN, PlayVsBots, PlayedDeals,
    PlayerStats, Rallies, RallyComparison, RallyFairness, RatingBoard, Replay, RoomCreated, RoomDeals, StartChallenge,
};
use crate::wire::protocol::{ErrorCode, Refused};
use ddz_engine::TableType;

pub(super) async fn create_room(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<CreateRoom>,
) -> Result<Json<RoomCreated>, AppError> {
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    // Public lobby tables always play House with the Wild, so that the lobby board compares.
    let (rules, mode) =
        if req.public { (Rules::house(true), Mode::Public) } else { (Rules::of(req.table, req.wild), Mode::Invite) };
    let code = state.rooms.create(rules, mode, &name).await?;
    state.rooms.seat(&code, &name).await?;
    Ok(Json(RoomCreated { code }))
}

/// Play vs 2 Bots: a room with the player seated, bots in the other seats, and the first deal dealt.
pub(super) async fn play_vs_bots(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<PlayVsBots>,
) -> Result<Json<RoomCreated>, AppError> {
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    let rules = Rules::of(req.table, req.wild);
    let code = state.rooms.create(rules, Mode::Bots, &name).await?;
    state.rooms.seat(&code, &name).await?;
    state.rooms.request(&code, Request::AddBots { level: req.level }).await?;
    state.rooms.request(&code, Request::Start).await?;
    Ok(Json(RoomCreated { code }))
}

pub(super) async fn lobby(State(state): State<AppState>) -> Json<Lobby> {
    Json(Lobby { tables: state.rooms.lobby() })
}

/// The hall's live state, as last put together (`crate::hall`): no work per request.
pub(super) async fn hall(State(state): State<AppState>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], state.hall.answer()).into_response()
}

/// A room as a spectator sees it (refused to whoever plays at another table of its tournament, as a watch
/// over the socket is).
pub(super) async fn room_summary(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Params(code): Params<RoomCode>,
) -> Result<Response, AppError> {
    state.desk.may_watch(&code, origin_address(from).as_deref(), None).await.map_err(Refused::from)?;
    let view = state.rooms.view(&code).await?;
    Ok(Json(view).into_response())
}

pub(super) async fn room_deals(
    State(state): State<AppState>,
    Params(code): Params<RoomCode>,
) -> Result<Response, AppError> {
    unsealed_room(&state, &code).await?;
    let deals = state.rooms.db().deal_records(&code).await?;
    Ok(Json(RoomDeals { deals }).into_response())
}

/// A number in a request's path (a deal's, a seat's): a clear JSON 400 for anything else.
fn path_number(text: &str, what: &str) -> Result<u32, AppError> {
    text.parse().map_err(|_| AppError::new(ErrorCode::BadRequest, format!("{what} must be a number, not {text:?}")))
}

/// Refuses room `code` if it is unknown (404) or a rally whose deals are still secret (403
/// `rally_open`, from the one guard in [`sealed_rally`]).
async fn unsealed_room(state: &AppState, code: &RoomCode) -> Result<(), AppError> {
    let room = state.rooms.db().room(code).await?.ok_or_else(|| StoreError::NoRoom(code.clone()))?;
    match sealed_rally(room.challenge.as_ref(), state.rooms.now_ms()) {
        Some(date) => Err(Refused::rally_open(date).into()),
        None => Ok(()),
    }
}

/// The record of finished deal `number` of room `code`: 404s for an unknown room or deal.
async fn finished_deal(state: &AppState, code: &RoomCode, number: &str) -> Result<(u32, DealRecord), AppError> {
    let number = path_number(number, "the deal number")?;
    unsealed_room(state, code).await?;
    let record =
        state.rooms.db().deal_record(code, number).await?.ok_or_else(|| {
            AppError::new(ErrorCode::NoSuchDeal, format!("room {code} has no finished deal {number}"))
        })?;
    Ok((number, record))
}

/// A finished deal to step through (`/replay/CODE/N` in the client): its record and every step of its
/// replay, folded by the engine on the work pool.
pub(super) async fn deal_replay(
    State(state): State<AppState>,
    Params((code, number)): Params<(RoomCode, String)>,
) -> Result<Response, AppError> {
    let (number, record) = finished_deal(&state, &code, &number).await?;
    let steps =
        state.rooms.pool().try_run(move || record.steps().map(|steps| (record, steps))).await.map_err(|_| busy())?;
    let (record, steps) = steps.map_err(|e| internal(format!("deal {number} of {code} does not replay: {e}")))?;
    let keys = record.seats.iter().map(|name| NameKey::of_stored(name)).collect();
    Ok(Json(Replay { code, number, seats: record.seats.clone(), keys, record, steps }).into_response())
}

/// The `hard` bot's review of one seat's trick play in a finished deal (`ddz_bot::review`): worked out
/// once, on the reviews' own queue, and kept in the database.
pub(super) async fn deal_review(
    State(state): State<AppState>,
    Params((code, number, seat)): Params<(RoomCode, String, String)>,
) -> Result<Response, AppError> {
    let (number, record) = finished_deal(&state, &code, &number).await?;
    let seat = path_number(&seat, "the seat")?;
    if seat as usize >= record.seats.len() {
        return Err(AppError::new(ErrorCode::NoSuchSeat, format!("deal {number} of {code} has no seat {seat}")));
    }
    let db = state.rooms.db().clone();
    let text = match db.review(&code, number, seat).await? {
        Some(text) => text,
        None => {
            let (job_code, runtime) = (code.clone(), tokio::runtime::Handle::current());
            // The job looks again (an earlier request for the same review may have stored it while this one
            // waited) and stores what it works out itself, so that a request given up midway wastes nothing.
            state
                .reviews
                .try_run(move || -> Result<String, AppError> {
                    if let Some(text) = runtime.block_on(db.review(&job_code, number, seat))? {
                        return Ok(text);
                    }
                    let review = ddz_bot::review::review(&record, seat as usize, REVIEW_BUDGET)
                        .map_err(|e| internal(format!("deal {number} of {job_code} does not replay: {e}")))?;
                    let text = serde_json::to_string(&review).expect("a review serialises");
                    runtime.block_on(db.store_review(&job_code, number, seat, text.clone()))?;
                    Ok(text)
                })
                .await
                .map_err(|_| busy())??
        }
    };
    let review: Review =
        serde_json::from_str(&text).map_err(|e| internal(format!("a stored review of {code}: {e}")))?;
    Ok(Json(DealReview { code, number, review }).into_response())
}

/// A player's page: totals, ratings, standing, challenges and tournaments (the deals they played are
/// [`player_deals`]).
pub(super) async fn player_stats(
    State(state): State<AppState>,
    Params(name): Params<String>,
) -> Result<Response, AppError> {
    let name = path_name(&name)?;
    let db = state.rooms.db();
    let today = utc_date(state.rooms.now_ms());
    // Every read at once, each on its own connection: the page waits for the slowest, not the sum.
    let (lines, ratings, protection, standing, tournaments, challenges, puzzles) = tokio::join!(
        db.stats(&name),
        db.player_ratings(&name),
        db.name_protection(&name),
        db.standing(&name),
        db.tournament_finishes(&name),
        challenge_standings(&state, &name, &today),
        db.puzzle_record(&name, PUZZLES_SHOWN),
    );
    Ok(Json(PlayerStats {
        key: name.key().clone(),
        name: name.into(),
        protected: protection?.is_some(),
        stats: lines?,
        ratings: ratings?,
        standing: standing?,
        challenges: challenges?,
        tournaments: tournaments?,
        puzzles: puzzles?,
    })
    .into_response())
}

/// `name`'s standing in each challenge: Bot Buster's and Bot Bomber's best runs, and today's rally.
async fn challenge_standings(
    state: &AppState,
    name: &PlayerName,
    today: &str,
) -> Result<Vec<ChallengeStanding>, AppError> {
    let db = state.rooms.db();
    let standings = ChallengeKind::ALL.map(|kind| async move {
        let rally = (kind == ChallengeKind::Rally).then(|| today.to_string());
        let (best, running) =
            tokio::join!(db.challenge_placing(kind, rally.clone(), name), db.running_challenge(kind, rally, name));
        Ok::<_, AppError>(ChallengeStanding { kind, best: best?, running: running? })
    });
    futures_util::future::join_all(standings).await.into_iter().collect()
}

#[derive(Deserialize)]
pub(super) struct DealsQuery {
    /// The `next` of the page before.
    before: Option<String>,
    limit: Option<u32>,
}

/// How many deals a page of a player's history holds, unless asked for fewer (at most [`MAX_DEALS_PAGE`]).
const DEALS_PAGE: u32 = 20;
const MAX_DEALS_PAGE: u32 = 100;

/// The deals a name played, newest first, a page at a time.
pub(super) async fn player_deals(
    State(state): State<AppState>,
    Params(name): Params<String>,
    Queried(query): Queried<DealsQuery>,
) -> Result<Response, AppError> {
    let name = path_name(&name)?;
    let before = match query.before.as_deref() {
        None | Some("") => None,
        Some(text) => Some(DealsCursor::parse(text).ok_or_else(|| {
            AppError::new(
                ErrorCode::BadRequest,
                format!("{text:?} is no page of deals: send the `next` of the last page"),
            )
        })?),
    };
    let limit = query.limit.unwrap_or(DEALS_PAGE);
    if !(1..=MAX_DEALS_PAGE).contains(&limit) {
        let message = format!("a page holds 1 to {MAX_DEALS_PAGE} deals, not {limit}");
        return Err(AppError::new(ErrorCode::BadRequest, message));
    }
    let (deals, next) = state.rooms.db().played_deals(&name, before, limit).await?;
    Ok(Json(PlayedDeals { deals, next: next.map(|cursor| cursor.to_string()) }).into_response())
}

#[derive(Deserialize)]
pub(super) struct BoardQuery {
    /// The rally's date for the `rally` board (today's by default).
    date: Option<String>,
    /// A name whose own row the answer adds, wherever it stands.
    name: Option<String>,
}

/// Marks a board's rows (each its name, its protected mark and its reader's mark): the protected names, and
/// the reader's own row, by key. The protected names' keys among the rows and the reader.
async fn mark_rows<'a>(
    db: &Db,
    rows: impl Iterator<Item = (&'a String, &'a mut bool, &'a mut bool)>,
    reader: &Option<PlayerName>,
) -> Result<HashSet<NameKey>, AppError> {
    let rows: Vec<_> =
        rows.map(|(name, protected, yours)| (NameKey::of_stored(name), name, protected, yours)).collect();
    let names: Vec<String> = rows.iter().map(|row| row.1.clone()).chain(reader.iter().map(|r| r.to_string())).collect();
    let protected = db.protected_among(&names).await?;
    for (key, _, is_protected, yours) in rows {
        *is_protected = protected.contains(&key);
        *yours = reader.as_ref().is_some_and(|reader| *reader.key() == key);
    }
    Ok(protected)
}

/// The name a board is asked about (`?name=`), if any: a 400 unless it is a valid name.
pub(super) fn reader(name: Option<&str>) -> Result<Option<PlayerName>, AppError> {
    name.filter(|name| !name.trim().is_empty()).map(path_name).transpose()
}

/// A table type's ratings board: `house`, `no_shuffle` or `two_player` (with `?name=`, that name's own row).
pub(super) async fn rating_board(
    State(state): State<AppState>,
    Params(table): Params<String>,
    Queried(query): Queried<BoardQuery>,
) -> Result<Response, AppError> {
    let table = TableType::parse(&table).ok_or_else(|| {
        AppError::new(ErrorCode::UnknownTableType, format!("no ratings for {table:?} (house, no_shuffle, two_player)"))
    })?;
    let reader = reader(query.name.as_deref())?;
    let db = state.rooms.db();
    let mut rows = db.rating_board(table, BOARD_ROWS as i64).await?;
    let mut you = match &reader {
        Some(name) => db.rating_placing(table, name).await?,
        None => None,
    };
    let protected = mark_rows(db, rows.iter_mut().map(|r| (&r.name, &mut r.protected, &mut r.yours)), &reader).await?;
    if let (Some(you), Some(name)) = (&mut you, &reader) {
        you.protected = protected.contains(name.key());
    }
    Ok(Json(RatingBoard { table, rows, you }).into_response())
}

/// A board: `overall`, `lobby`, `buster`, `bomber`, or `rally` (today's, or `?date=2026-11-29`); with
/// `?name=`, that name's own row.
pub(super) async fn board(
    State(state): State<AppState>,
    Params(board): Params<String>,
    Queried(query): Queried<BoardQuery>,
) -> Result<Response, AppError> {
    let db = state.rooms.db();
    let board = BoardName::parse(&board).ok_or_else(|| {
        AppError::new(ErrorCode::UnknownBoard, format!("no board {board:?} (overall, lobby, buster, bomber, rally)"))
    })?;
    let reader = reader(query.name.as_deref())?;
    let (mut rows, date, you) = match board.rows() {
        Ok(money) => {
            let you = match &reader {
                Some(name) => db.money_placing(money, name).await?,
                None => None,
            };
            (db.board(money, BOARD_ROWS as i64).await?, None, you)
        }
        Err(kind) => {
            let date = match kind {
                ChallengeKind::Rally => Some(rally_date(&state, query.date)?),
                _ => None,
            };
            let you = match &reader {
                Some(name) => db.challenge_placing(kind, date.clone(), name).await?,
                None => None,
            };
            (db.challenge_board(kind, date.clone()).await?, date, you)
        }
    };
    let protected = mark_rows(db, rows.iter_mut().map(|r| (&r.name, &mut r.protected, &mut r.yours)), &reader).await?;
    let mut you = you;
    if let (Some(you), Some(name)) = (&mut you, &reader) {
        you.protected = protected.contains(name.key());
    }
    Ok(Json(Board { board, date, rows, you }).into_response())
}

/// `date` if it is a date, else today's (UTC).
fn rally_date(state: &AppState, date: Option<String>) -> Result<String, AppError> {
    match date {
        Some(date) if is_date(&date) => Ok(date),
        Some(date) => Err(AppError::new(ErrorCode::NotADate, format!("{date:?} is not a date like 2026-11-29"))),
        None => Ok(utc_date(state.rooms.now_ms())),
    }
}

/// Starts a Bot Buster or Bot Bomber run or today's Bang rally, or resumes the name's unfinished one.
pub(super) async fn start_challenge(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<StartChallenge>,
) -> Result<Json<ChallengeStarted>, AppError> {
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    match state.rooms.start_challenge(req.kind, &name).await {
        Ok(Some((code, resumed))) => Ok(Json(ChallengeStarted { code, resumed })),
        Ok(None) => Err(AppError::new(ErrorCode::RallyPlayed, format!("{name} has already played today's rally"))),
        Err(refused) => Err(refused.into()),
    }
}

/// Today's date and the dates of earlier rallies with results.
pub(super) async fn rallies(State(state): State<AppState>) -> Result<Response, AppError> {
    let today = utc_date(state.rooms.now_ms());
    let dates = state.rooms.db().rallies().await?;
    Ok(Json(Rallies { today, dates }).into_response())
}

/// A day's rally committed to (`docs/fair-deals.md`): from the day's start, the commitment to its deals
/// and each deal's; once the rally has closed (an hour after its UTC day), each deal's seed and salt.
pub(super) async fn rally_fairness(
    State(state): State<AppState>,
    Params(date): Params<String>,
) -> Result<Response, AppError> {
    let date = rally_date(&state, Some(date))?;
    let now = state.rooms.now_ms();
    if date > utc_date(now) {
        return Err(AppError::new(ErrorCode::RallyNotBegun, format!("the rally of {date} has not begun")));
    }
    let secret = state.rooms.db().rally_secret().await?;
    let closed = rally_closed(&date, now);
    let setups: Vec<_> = (0..crate::domain::challenge::RALLY_DEALS)
        .map(|n| crate::domain::challenge::rally_setup(&secret, &date, n))
        .collect();
    let commitments: Vec<String> = setups.iter().filter_map(|setup| setup.commitment()).collect();
    let deals: Vec<Fairness> = setups
        .iter()
        .zip(&commitments)
        .map(|(setup, commitment)| Fairness {
            commitment: commitment.clone(),
            seed: closed.then_some(setup.seed),
            salt: setup.salt.filter(|_| closed),
            nonces: None,
        })
        .collect();
    let commitment = ddz_engine::fair::day_commitment(&date, &commitments);
    Ok(Json(RallyFairness { date, commitment, closed, deals }).into_response())
}

/// A finished attempt at a rally beside the best one on its board, deal by deal (only once the name has
/// finished that rally, so that nobody learns the deals before playing them).
pub(super) async fn compare_rally(
    State(state): State<AppState>,
    Params((date, name)): Params<(String, String)>,
) -> Result<Response, AppError> {
    let date = rally_date(&state, Some(date))?;
    let name = path_name(&name)?;
    let (you, best) = state.rooms.db().rally_results(&date, &name).await?.ok_or_else(|| {
        AppError::new(ErrorCode::RallyNotFinished, format!("{name} has not finished the rally of {date}"))
    })?;
    Ok(Json(RallyComparison { date, you, best }).into_response())
}

/// The readings a selection of cards may be played as now (`ddz_engine::hints`), on the work pool.
pub(super) async fn selection_readings(
    State(state): State<AppState>,
    Body(position): Body<serde_json::Value>,
) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let answer =
        state.rooms.pool().try_run(move || readings_answer(&position)).await.map_err(|_| busy())?.map_err(malformed)?;
    Ok(Json(answer).into_response())
}

/// Every legal play from a hand now (`ddz_engine::hints`), for the client's Hint button, on the work pool.
pub(super) async fn hints(
    State(state): State<AppState>,
    Body(position): Body<serde_json::Value>,
) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let answer =
        state.rooms.pool().try_run(move || hints_answer(&position)).await.map_err(|_| busy())?.map_err(malformed)?;
    Ok(Json(answer).into_response())
}

/// A position no table can have, refused with the engine's reason.
fn malformed(error: PositionError) -> AppError {
    AppError::new(ErrorCode::BadPosition, error.to_string())
}

/// A position with a hand no larger than a real one, or a 400 with the reason as JSON.
fn parse_position(json: serde_json::Value) -> Result<Position, AppError> {
    let position: Position = serde_json::from_value(json)
        .map_err(|e| AppError::new(ErrorCode::BadPosition, format!("bad position: {e}")))?;
    let largest = position.hand.len().max(position.cards.len());
    if largest > MAX_HAND {
        let message = format!("{largest} cards: no hand at any table holds more than {MAX_HAND}");
        return Err(AppError::new(ErrorCode::HandTooLarge, message));
    }
    Ok(position)
}
