//! Puzzles over HTTP (docs/puzzles.md, docs/protocol.md): the daily puzzle, a next puzzle near the reader's
//! rating, each puzzle at its own address, an attempt checked by the server's solver on the work pool and
//! rated once a name, and the puzzle board.

use axum::Json;
use axum::extract::State;
use ddz_bot::puzzles::{Puzzle, source_game};
use ddz_engine::DealRecord;
use serde::Deserialize;

use super::api::reader;
use super::common::{AppError, AppState, Body, ClientAddr, Params, Queried, busy, internal};
use super::names::proven_name;
use crate::domain::challenge::utc_date;
use crate::domain::names::NameKey;
use crate::domain::puzzles::{AttemptError, built_in, built_in_digest, check, rate, solving_side};
use crate::store::StoredPuzzle;
use crate::wire::http::{
    PuzzleAttempt, PuzzleBoard, PuzzleBoardRow, PuzzleDeal, PuzzleRatingChange, PuzzleResult, PuzzleStanding,
    PuzzleView,
};
use crate::wire::protocol::ErrorCode;

/// Rows the puzzle board shows.
const BOARD_ROWS: i64 = 100;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReaderQuery {
    #[serde(default)]
    name: Option<String>,
}

fn view(stored: StoredPuzzle, date: Option<String>) -> PuzzleView {
    let StoredPuzzle { puzzle, rating, plays, solved } = stored;
    let Puzzle { id, endgame, themes, source, .. } = puzzle;
    PuzzleView {
        id,
        side: solving_side(&endgame).to_string(),
        endgame,
        rating: rating.rating.round() as i32,
        plays,
        solved,
        themes,
        source,
        date,
    }
}

/// Stores the built-in set the first time this server is asked for a puzzle (once for each version of the set: the
/// store keeps its digest), so that a fresh server has puzzles at once and a server nobody asks writes none.
async fn built_in_stored(state: &AppState) -> Result<(), AppError> {
    let db = state.rooms.db();
    let now = state.rooms.now_ms();
    state
        .built_in_puzzles
        .get_or_try_init(|| async move {
            let added = db.add_built_in_puzzles(built_in_digest(), built_in, now).await?;
            if added > 0 {
                tracing::info!(added, "the built-in puzzles are stored");
            }
            Ok::<_, AppError>(())
        })
        .await?;
    Ok(())
}

/// No puzzle `id` (said back up to 20 characters: an id is 10).
fn no_such_puzzle(id: &str) -> AppError {
    let shown: String = id.chars().take(20).collect();
    let more = if shown.len() < id.len() { "…" } else { "" };
    AppError::new(ErrorCode::NoSuchPuzzle, format!("no puzzle {shown:?}{more}"))
}

/// `GET /api/puzzles/daily`: today's puzzle (UTC), the same for everyone.
pub(super) async fn daily(State(state): State<AppState>) -> Result<Json<PuzzleView>, AppError> {
    built_in_stored(&state).await?;
    let now = state.rooms.now_ms();
    let date = utc_date(now);
    let stored = state.rooms.db().daily_puzzle(&date, now / 86_400_000).await?;
    let stored = stored.ok_or_else(|| no_such_puzzle(&date))?;
    Ok(Json(view(stored, Some(date))))
}

/// `GET /api/puzzles/next?name=`: a puzzle the name has not attempted, near their puzzle rating (1500 for a
/// name new to puzzles, or no name).
pub(super) async fn next(
    State(state): State<AppState>,
    Queried(query): Queried<ReaderQuery>,
) -> Result<Json<PuzzleView>, AppError> {
    built_in_stored(&state).await?;
    let name = reader(query.name.as_deref())?;
    let db = state.rooms.db();
    let rating = match &name {
        Some(name) => db.puzzle_rating(name).await?.0.rating,
        None => crate::domain::puzzles::NEW_PLAYER.rating,
    };
    let stored = db.next_puzzle(name.as_ref(), rating, rand::random()).await?;
    let stored = stored.ok_or_else(|| AppError::new(ErrorCode::NoSuchPuzzle, "every puzzle is attempted"))?;
    Ok(Json(view(stored, None)))
}

/// `GET /api/puzzles/{id}`.
pub(super) async fn one(
    State(state): State<AppState>,
    Params(id): Params<String>,
) -> Result<Json<PuzzleView>, AppError> {
    built_in_stored(&state).await?;
    let stored = state.rooms.db().puzzle(&id).await?.ok_or_else(|| no_such_puzzle(&id))?;
    Ok(Json(view(stored, None)))
}

/// `GET /api/puzzles/{id}/deal`: the bot game a puzzle came from, played again by today's bots on the work pool
/// and replayed step by step. A puzzle mined from a room's deal is refused with that deal's address (its replay
/// is the room's, with the room's own checks).
pub(super) async fn deal(
    State(state): State<AppState>,
    Params(id): Params<String>,
) -> Result<Json<PuzzleDeal>, AppError> {
    built_in_stored(&state).await?;
    let puzzle = state.rooms.db().puzzle(&id).await?.ok_or_else(|| no_such_puzzle(&id))?.puzzle;
    let source = &puzzle.source;
    if let (Some(room), Some(number)) = (&source.room, source.number) {
        let message = format!("puzzle {id} comes from deal {number} of room {room}: /replay/{room}/{number}");
        return Err(AppError::new(ErrorCode::NoSuchDeal, message));
    }
    let Some(level) = source.bots else {
        return Err(AppError::new(ErrorCode::NoSuchDeal, format!("puzzle {id} names no deal to replay")));
    };
    let step = source.step;
    let replayed = state
        .rooms
        .pool()
        .try_run(move || {
            let deal = source_game(&puzzle)?;
            let seats = (1..=deal.players()).map(|nth| level.seat_name(nth)).collect();
            let record = DealRecord::of(&deal, seats);
            let steps = record.steps().ok()?;
            Some((record, steps))
        })
        .await
        .map_err(|_| busy())?;
    let Some((record, steps)) = replayed else {
        tracing::error!(%id, "a puzzle's bot game no longer reaches its position: mine the set again");
        return Err(internal(format!("puzzle {id}'s bot game no longer reaches its position")));
    };
    Ok(Json(PuzzleDeal { id, seats: record.seats.clone(), record, steps, step }))
}

/// `POST /api/puzzles/{id}/attempt`: the attempt checked move by move by the solver (never trusted from the
/// page); the name's first attempt at the puzzle moves both ratings, a second is refused.
pub(super) async fn attempt(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Params(id): Params<String>,
    Body(req): Body<PuzzleAttempt>,
) -> Result<Json<PuzzleResult>, AppError> {
    built_in_stored(&state).await?;
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    let db = state.rooms.db();
    let stored = db.puzzle(&id).await?.ok_or_else(|| no_such_puzzle(&id))?;
    let attempted = || {
        let message = format!("{name} has made their rated attempt at puzzle {id}");
        AppError::new(ErrorCode::PuzzleAttempted, message)
    };
    // Asked first, so that a second attempt costs no solving; the rating's own transaction decides a race.
    if db.attempted(&name, &id).await? {
        return Err(attempted());
    }
    let puzzle = stored.puzzle.clone();
    let moves = req.moves;
    let checked = state.rooms.pool().try_run(move || check(&puzzle, &moves)).await.map_err(|_| busy())?;
    let checked = checked.map_err(|e| match e {
        AttemptError::NotLegal(_) => AppError::new(ErrorCode::NotALegalMove, e.to_string()),
        AttemptError::Unfinished(_) => AppError::new(ErrorCode::AttemptUnfinished, e.to_string()),
    })?;
    let solved = checked.solved;
    let rated = db.rate_attempt(&name, &id, solved, state.rooms.now_ms(), move |p, q| rate(p, q, solved)).await?;
    let rated = rated.ok_or_else(attempted)?;
    let points = |r: skillratings::glicko2::Glicko2Rating| r.rating.round() as i32;
    Ok(Json(PuzzleResult {
        solved,
        line: checked.line,
        wrong: checked.wrong,
        refutation: checked.refutation,
        solution: stored.puzzle.solution,
        rating: Some(PuzzleRatingChange {
            before: points(rated.player_before),
            after: points(rated.player_after),
            puzzle_before: points(rated.puzzle_before),
            puzzle_after: points(rated.puzzle_after),
        }),
    }))
}

/// `GET /api/puzzles/board?name=`: the best puzzle ratings, the reader's row marked, and the reader's own.
pub(super) async fn board(
    State(state): State<AppState>,
    Queried(query): Queried<ReaderQuery>,
) -> Result<Json<PuzzleBoard>, AppError> {
    let reader = reader(query.name.as_deref())?;
    let db = state.rooms.db();
    let rows = db.puzzle_board(BOARD_ROWS).await?;
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| PuzzleBoardRow {
            rank: i + 1,
            yours: reader.as_ref().is_some_and(|r| *r.key() == NameKey::of_stored(&row.name)),
            name: row.name,
            rating: row.rating.round() as i32,
            attempts: row.attempts,
            solved: row.solved,
        })
        .collect();
    let you = match &reader {
        Some(name) => {
            let (rating, attempts) = db.puzzle_rating(name).await?;
            (attempts > 0).then(|| PuzzleStanding { rating: rating.rating.round() as i32, attempts })
        }
        None => None,
    };
    Ok(Json(PuzzleBoard { rows, you }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::puzzles::{built_in, puzzle_start};

    /// The puzzles the page keeps for playing offline (`web/src/lib/puzzles-offline.json`): every 40th of the
    /// built-in set, as `GET /api/puzzles/{id}` shows it fresh. `DDZ_BLESS=1` writes the file.
    #[test]
    fn the_pages_offline_puzzles_are_the_built_in_sets() {
        let views: Vec<PuzzleView> = built_in()
            .into_iter()
            .step_by(40)
            .map(|puzzle| {
                let rating = puzzle_start(&puzzle);
                view(StoredPuzzle { puzzle, rating, plays: 0, solved: 0 }, None)
            })
            .collect();
        let json = serde_json::to_string(&views).expect("views serialise") + "\n";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/lib/puzzles-offline.json");
        if std::env::var_os("DDZ_BLESS").is_some() {
            std::fs::write(&path, &json).expect("the offline set is written");
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == json,
            "{} is out of date: run DDZ_BLESS=1 cargo test -p ddz-server --lib offline_puzzles",
            path.display()
        );
    }
}
