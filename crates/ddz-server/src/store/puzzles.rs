//! Puzzles (migration 0013, docs/puzzles.md): the set and each puzzle's rating, the daily puzzle of each
//! date, a next puzzle near a player's rating, and a rated attempt: the name's one attempt at the puzzle
//! and both ratings moved, in one transaction.

use ddz_bot::puzzles::Puzzle;
use skillratings::glicko2::Glicko2Rating;
use sqlx::FromRow;

use super::{Db, DbResult, StoreError};
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::puzzles::{NEW_PLAYER, puzzle_start};
use crate::wire::http::{PuzzleRecord, PuzzleTry};

/// A stored puzzle with its rating now and how often it was played and solved.
#[derive(Clone, Debug)]
pub struct StoredPuzzle {
    pub puzzle: Puzzle,
    pub rating: Glicko2Rating,
    pub plays: i64,
    pub solved: i64,
}

#[derive(FromRow)]
struct PuzzleRow {
    body: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    plays: i64,
    solved: i64,
}

impl TryFrom<PuzzleRow> for StoredPuzzle {
    type Error = StoreError;

    fn try_from(row: PuzzleRow) -> Result<StoredPuzzle, StoreError> {
        let puzzle =
            serde_json::from_str(&row.body).map_err(|e| StoreError::Corrupt(format!("a stored puzzle: {e}")))?;
        let rating = Glicko2Rating { rating: row.rating, deviation: row.deviation, volatility: row.volatility };
        Ok(StoredPuzzle { puzzle, rating, plays: row.plays, solved: row.solved })
    }
}

/// Attempts a name makes before the puzzle board lists it.
pub const BOARD_ATTEMPTS: i64 = 5;

const COLUMNS: &str = "body, rating, deviation, volatility, plays, solved";

/// A row of the puzzle board.
#[derive(Clone, Debug, FromRow)]
pub struct PuzzlePlayer {
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub attempts: i64,
    pub solved: i64,
}

/// A puzzle not stored yet, at its starting rating.
const ADD_PUZZLE: &str = "INSERT INTO puzzles (id, body, rating, deviation, volatility, added_at) \
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING";
/// The same, and a puzzle stored before takes the new body, keeping its rating and plays.
const REFRESH_PUZZLE: &str = "INSERT INTO puzzles (id, body, rating, deviation, volatility, added_at) \
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO UPDATE SET body = excluded.body";

/// One rated attempt as stored, with the puzzle's rating now.
#[derive(FromRow)]
struct AttemptRow {
    id: String,
    /// 1 when solved (an integer in both databases).
    solved: i64,
    at: i64,
    rating: f64,
    puzzle_rating: f64,
}

/// A rated attempt, as stored: both ratings before and after.
#[derive(Clone, Copy, Debug)]
pub struct Rated {
    pub player_before: Glicko2Rating,
    pub player_after: Glicko2Rating,
    pub puzzle_before: Glicko2Rating,
    pub puzzle_after: Glicko2Rating,
}

impl Db {
    /// Adds the puzzles not stored yet (a position is one puzzle however often it is mined): how many.
    pub async fn add_puzzles(&self, puzzles: Vec<Puzzle>, now: u64) -> DbResult<u64> {
        self.insert_puzzles(puzzles, now, ADD_PUZZLE).await
    }

    /// Stores `puzzles` with `insert` (one of the two statements above): how many rows were written.
    async fn insert_puzzles(&self, puzzles: Vec<Puzzle>, now: u64, insert: &'static str) -> DbResult<u64> {
        self.run(move |s| async move {
            let mut tx = s.pool.begin().await?;
            let mut added = 0;
            for puzzle in &puzzles {
                let start = puzzle_start(puzzle);
                let body = serde_json::to_string(puzzle).expect("puzzles serialise");
                let done = sqlx::query(insert)
                    .bind(&puzzle.id)
                    .bind(body)
                    .bind(start.rating)
                    .bind(start.deviation)
                    .bind(start.volatility)
                    .bind(now as i64)
                    .execute(&mut *tx)
                    .await?;
                added += done.rows_affected();
            }
            tx.commit().await?;
            Ok::<_, StoreError>(added)
        })
        .await
    }

    /// Stores the built-in set (`read`, called only when needed) once for each `digest` of it: how many
    /// puzzles were written. A puzzle stored before keeps its rating and plays and takes the set's body (a set
    /// mined again may say more of where a position came from).
    pub async fn add_built_in_puzzles(&self, digest: String, read: fn() -> Vec<Puzzle>, now: u64) -> DbResult<u64> {
        let stored = digest.clone();
        let known: Option<String> = self
            .run(move |s| async move {
                Ok::<_, StoreError>(
                    sqlx::query_scalar("SELECT value FROM settings WHERE key = 'built_in_puzzles'")
                        .fetch_optional(&s.pool)
                        .await?,
                )
            })
            .await?;
        if known.as_deref() == Some(stored.as_str()) {
            return Ok(0);
        }
        let added = self.insert_puzzles(read(), now, REFRESH_PUZZLE).await?;
        self.run(move |s| async move {
            sqlx::query(
                "INSERT INTO settings (key, value) VALUES ('built_in_puzzles', $1) \
                 ON CONFLICT (key) DO UPDATE SET value = $1",
            )
            .bind(&digest)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(())
        })
        .await?;
        Ok(added)
    }

    pub async fn puzzle(&self, id: &str) -> DbResult<Option<StoredPuzzle>> {
        let id = id.to_string();
        self.run(move |s| async move {
            let sql = format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1");
            let row: Option<PuzzleRow> =
                sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(&id).fetch_optional(&s.pool).await?;
            row.map(StoredPuzzle::try_from).transpose()
        })
        .await
    }

    /// The puzzle of `date` (`2026-12-06`): chosen the first time it is asked for (the `day`-th of the set in
    /// the order of its ids, wrapping round), the same for everyone after.
    pub async fn daily_puzzle(&self, date: &str, day: u64) -> DbResult<Option<StoredPuzzle>> {
        let date = date.to_string();
        self.run(move |s| async move {
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles").fetch_one(&s.pool).await?;
            if count == 0 {
                return Ok(None);
            }
            let chosen: String = sqlx::query_scalar("SELECT id FROM puzzles ORDER BY id LIMIT 1 OFFSET $1")
                .bind((day % count as u64) as i64)
                .fetch_one(&s.pool)
                .await?;
            sqlx::query("INSERT INTO daily_puzzles (date, id) VALUES ($1, $2) ON CONFLICT (date) DO NOTHING")
                .bind(&date)
                .bind(&chosen)
                .execute(&s.pool)
                .await?;
            let sql =
                format!("SELECT {COLUMNS} FROM puzzles WHERE id = (SELECT id FROM daily_puzzles WHERE date = $1)");
            let row: Option<PuzzleRow> =
                sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(&date).fetch_optional(&s.pool).await?;
            row.map(StoredPuzzle::try_from).transpose()
        })
        .await
    }

    /// A puzzle `name` has not attempted, rated nearest `rating` (among the 20 nearest above and below,
    /// the `pick`-th, so that two players of one rating do not get the same puzzles in the same order).
    pub async fn next_puzzle(
        &self,
        name: Option<&PlayerName>,
        rating: f64,
        pick: u64,
    ) -> DbResult<Option<StoredPuzzle>> {
        let key = name.map(|n| n.key().clone());
        self.run(move |s| async move {
            let mut near: Vec<(f64, PuzzleRow)> = Vec::new();
            for (op, order) in [(">=", "ASC"), ("<", "DESC")] {
                let sql = format!(
                    "SELECT {COLUMNS} FROM puzzles WHERE rating {op} $1 AND id NOT IN \
                     (SELECT id FROM puzzle_attempts WHERE name_key = $2) ORDER BY rating {order}, id LIMIT 20"
                );
                let rows: Vec<PuzzleRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                    .bind(rating)
                    .bind(key.as_ref().map_or("", NameKey::as_str))
                    .fetch_all(&s.pool)
                    .await?;
                near.extend(rows.into_iter().map(|row| ((row.rating - rating).abs(), row)));
            }
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            near.truncate(20);
            if near.is_empty() {
                return Ok(None);
            }
            let index = (pick % near.len() as u64) as usize;
            StoredPuzzle::try_from(near.swap_remove(index).1).map(Some)
        })
        .await
    }

    /// `name`'s puzzle rating (a new player's if they have none).
    pub async fn puzzle_rating(&self, name: &PlayerName) -> DbResult<(Glicko2Rating, i64)> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let row: Option<(f64, f64, f64, i64)> = sqlx::query_as(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_players WHERE name_key = $1",
            )
            .bind(&key)
            .fetch_optional(&s.pool)
            .await?;
            Ok::<_, StoreError>(row.map_or((NEW_PLAYER, 0), |(rating, deviation, volatility, attempts)| {
                (Glicko2Rating { rating, deviation, volatility }, attempts)
            }))
        })
        .await
    }

    /// `name`'s puzzles as their page shows them: their puzzle rating, attempts and puzzles solved, and their
    /// latest `latest` rated attempts, newest first.
    pub async fn puzzle_record(&self, name: &PlayerName, latest: i64) -> DbResult<PuzzleRecord> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let player: Option<(f64, i64, i64)> =
                sqlx::query_as("SELECT rating, attempts, solved FROM puzzle_players WHERE name_key = $1")
                    .bind(&key)
                    .fetch_optional(&s.pool)
                    .await?;
            let (rating, attempts, solved) = player.unwrap_or((NEW_PLAYER.rating, 0, 0));
            let rows: Vec<AttemptRow> = sqlx::query_as(
                "SELECT a.id, a.solved, a.at, a.rating, p.rating AS puzzle_rating FROM puzzle_attempts a \
                 JOIN puzzles p ON p.id = a.id WHERE a.name_key = $1 ORDER BY a.nth DESC LIMIT $2",
            )
            .bind(&key)
            .bind(latest)
            .fetch_all(&s.pool)
            .await?;
            let recent = rows
                .into_iter()
                .map(|row| PuzzleTry {
                    id: row.id,
                    solved: row.solved != 0,
                    at: row.at as u64,
                    rating: row.rating.round() as i32,
                    puzzle_rating: row.puzzle_rating.round() as i32,
                })
                .collect();
            Ok::<_, StoreError>(PuzzleRecord { rating: rating.round() as i32, attempts, solved, recent })
        })
        .await
    }

    /// Whether `name` has made their rated attempt at puzzle `id`.
    pub async fn attempted(&self, name: &PlayerName, id: &str) -> DbResult<bool> {
        let (key, id) = (name.key().clone(), id.to_string());
        self.run(move |s| async move {
            let row: Option<i64> = sqlx::query_scalar("SELECT 1 FROM puzzle_attempts WHERE name_key = $1 AND id = $2")
                .bind(&key)
                .bind(&id)
                .fetch_optional(&s.pool)
                .await?;
            Ok::<_, StoreError>(row.is_some())
        })
        .await
    }

    /// Stores `name`'s rated attempt at puzzle `id` and moves both ratings by `rate` (given both ratings
    /// before): `None` if the name had attempted it already (nothing moves).
    pub async fn rate_attempt(
        &self,
        name: &PlayerName,
        id: &str,
        solved: bool,
        now: u64,
        rate: impl FnOnce(Glicko2Rating, Glicko2Rating) -> (Glicko2Rating, Glicko2Rating) + Send + 'static,
    ) -> DbResult<Option<Rated>> {
        let (key, display, id) = (name.key().clone(), name.to_string(), id.to_string());
        self.run(move |s| async move {
            let mut tx = s.begin_write().await?;
            // The attempt is written first: it decides a race between two of the name's (the second writes
            // nothing).
            let first = sqlx::query(
                "INSERT INTO puzzle_attempts (name_key, id, solved, at, nth, rating) VALUES ($1, $2, $3, $4, 0, 0) \
                 ON CONFLICT (name_key, id) DO NOTHING",
            )
            .bind(&key)
            .bind(&id)
            .bind(i64::from(solved))
            .bind(now as i64)
            .execute(&mut *tx)
            .await?;
            if first.rows_affected() == 0 {
                return Ok(None);
            }
            let player: Option<(f64, f64, f64, i64)> = sqlx::query_as(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_players WHERE name_key = $1",
            )
            .bind(&key)
            .fetch_optional(&mut *tx)
            .await?;
            let (player_before, attempts_before) = player
                .map_or((NEW_PLAYER, 0), |(rating, deviation, volatility, n)| {
                    (Glicko2Rating { rating, deviation, volatility }, n)
                });
            let (rating, deviation, volatility): (f64, f64, f64) =
                sqlx::query_as("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
                    .bind(&id)
                    .fetch_one(&mut *tx)
                    .await?;
            let puzzle_before = Glicko2Rating { rating, deviation, volatility };
            let (player_after, puzzle_after) = rate(player_before, puzzle_before);
            sqlx::query("UPDATE puzzle_attempts SET nth = $1, rating = $2 WHERE name_key = $3 AND id = $4")
                .bind(attempts_before + 1)
                .bind(player_after.rating)
                .bind(&key)
                .bind(&id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO puzzle_players (name_key, name, rating, deviation, volatility, attempts, solved, last_at) \
                 VALUES ($1, $2, $3, $4, $5, 1, $6, $7) ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, \
                 rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
                 attempts = puzzle_players.attempts + 1, solved = puzzle_players.solved + excluded.solved, \
                 last_at = excluded.last_at",
            )
            .bind(&key)
            .bind(&display)
            .bind(player_after.rating)
            .bind(player_after.deviation)
            .bind(player_after.volatility)
            .bind(i64::from(solved))
            .bind(now as i64)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, plays = plays + 1, \
                 solved = solved + $4 WHERE id = $5",
            )
            .bind(puzzle_after.rating)
            .bind(puzzle_after.deviation)
            .bind(puzzle_after.volatility)
            .bind(i64::from(solved))
            .bind(&id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<_, StoreError>(Some(Rated { player_before, player_after, puzzle_before, puzzle_after }))
        })
        .await
    }

    /// The puzzle board: the highest rated names among those with [`BOARD_ATTEMPTS`] attempts or more.
    pub async fn puzzle_board(&self, limit: i64) -> DbResult<Vec<PuzzlePlayer>> {
        self.run(move |s| async move {
            Ok::<_, StoreError>(
                sqlx::query_as(
                    "SELECT name, rating, deviation, attempts, solved FROM puzzle_players WHERE attempts >= $2 \
                     ORDER BY rating DESC, name_key LIMIT $1",
                )
                .bind(limit)
                .bind(BOARD_ATTEMPTS)
                .fetch_all(&s.pool)
                .await?,
            )
        })
        .await
    }
}
