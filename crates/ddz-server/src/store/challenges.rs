//! Challenges (migrations 0002, 0004): starting a run in a room of its own, the challenge boards, and the
//! daily rallies (their dates, a player's result beside the best, and the secret their deals are drawn
//! from). One attempt per name per rally and one unfinished run per name and kind are the database's
//! unique indexes, so they hold however many requests (or nodes) start runs at once; a run's result is
//! written by the room's close (`commit.rs`).

use sqlx::{AnyPool, FromRow};

use super::rooms::insert_room;
use super::{Db, DbResult, StoreError};
use crate::domain::challenge::{BoardRow, Challenge, ChallengeKind, FinishedRun, RallyResult, rank_runs};
use crate::domain::names::{PlayerName, name_key};
use crate::domain::room::{Mode, RoomCode};

/// What asking to start a challenge found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeStart {
    /// A new run in a new room.
    Created(RoomCode),
    /// The name's unfinished run of that kind (and rally): resume it.
    Unfinished(RoomCode),
    /// The name has already played this rally (one attempt per name per rally).
    RallyPlayed,
}

/// A name's earlier run of a challenge.
#[derive(FromRow)]
struct EarlierRun {
    code: String,
    /// 1 if finished (integers read the same from every backend).
    finished: i64,
}

/// A finished challenge run (`nets` only where the query asks for it).
#[derive(FromRow)]
struct RunRow {
    name: String,
    net: i64,
    deals: i64,
    best_pot: i64,
    finished_at: i64,
    #[sqlx(default)]
    nets: Option<String>,
}

impl RunRow {
    fn finished_run(&self) -> FinishedRun {
        FinishedRun {
            name: self.name.clone(),
            net: self.net,
            deals: self.deals,
            best_pot: self.best_pot,
            finished_at: self.finished_at as u64,
        }
    }
}

impl Db {
    /// The server's secret for the rallies' deals: drawn once, on first use, and kept.
    pub async fn rally_secret(&self) -> DbResult<ddz_engine::Seed> {
        self.run(|s| async move {
            let fresh = ddz_engine::Seed::random(&mut rand::rng()).to_string();
            sqlx::query("INSERT INTO settings (key, value) VALUES ('rally_secret', $1) ON CONFLICT DO NOTHING")
                .bind(fresh)
                .execute(&s.pool)
                .await?;
            let stored: String =
                sqlx::query_scalar("SELECT value FROM settings WHERE key = 'rally_secret'").fetch_one(&s.pool).await?;
            stored.parse().map_err(|_| StoreError::Corrupt("the stored rally secret is not a seed".into()))
        })
        .await
    }

    /// Starts `name`'s run of `challenge` in a new room `code`, unless the name has an unfinished run of
    /// that kind (and rally) or has already played the rally.
    pub async fn start_challenge(
        &self,
        code: &RoomCode,
        challenge: &Challenge,
        name: &PlayerName,
        at: u64,
    ) -> DbResult<ChallengeStart> {
        let (code, challenge, name) = (code.clone(), challenge.clone(), name.clone());
        self.run(move |s| async move {
            match try_start(&s.pool, &code, &challenge, &name, at).await {
                // Another request (on this node or another) started the same name's run first: the
                // database's unique index refused this one, and the run it started is the one to join.
                Err(StoreError::Unavailable(e)) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => {
                    try_start(&s.pool, &code, &challenge, &name, at).await
                }
                result => result,
            }
        })
        .await
    }

    /// A challenge board: `rally` names the rally's date for Bang rallies.
    pub async fn challenge_board(&self, kind: ChallengeKind, rally: Option<String>) -> DbResult<Vec<BoardRow>> {
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, RunRow>(
                "SELECT name, net, deals, best_pot, finished_at FROM challenges \
                 WHERE kind = $1 AND rally IS NOT DISTINCT FROM $2 AND finished_at IS NOT NULL",
            )
            .bind(kind.name())
            .bind(rally)
            .fetch_all(&s.pool)
            .await?;
            let runs: Vec<FinishedRun> = rows.iter().map(RunRow::finished_run).collect();
            Ok::<_, StoreError>(rank_runs(kind, &runs))
        })
        .await
    }

    /// The dates of rallies with finished attempts, newest first.
    pub async fn rallies(&self) -> DbResult<Vec<String>> {
        self.run(|s| async move {
            sqlx::query_scalar(
                "SELECT DISTINCT rally FROM challenges WHERE kind = 'rally' AND finished_at IS NOT NULL \
                 ORDER BY rally DESC LIMIT 366",
            )
            .fetch_all(&s.pool)
            .await
        })
        .await
    }

    /// `name`'s finished attempt at the rally of `date`, and the best one on its board.
    pub async fn rally_results(&self, date: &str, name: &PlayerName) -> DbResult<Option<(RallyResult, RallyResult)>> {
        let (date, key) = (date.to_string(), name.key().to_string());
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, RunRow>(
                "SELECT name, net, deals, best_pot, finished_at, nets FROM challenges \
                 WHERE kind = 'rally' AND rally = $1 AND finished_at IS NOT NULL",
            )
            .bind(&date)
            .fetch_all(&s.pool)
            .await?;
            let result = |r: &RunRow| RallyResult {
                name: r.name.clone(),
                net: r.net,
                nets: serde_json::from_str(r.nets.as_deref().unwrap_or_default()).unwrap_or_default(),
            };
            let Some(mine) = rows.iter().find(|r| name_key(&r.name) == key) else {
                return Ok::<_, StoreError>(None);
            };
            let runs: Vec<FinishedRun> = rows.iter().map(RunRow::finished_run).collect();
            let leader = &rank_runs(ChallengeKind::Rally, &runs)[0].name;
            let best = rows.iter().find(|r| r.name == *leader).unwrap_or(mine);
            Ok(Some((result(mine), result(best))))
        })
        .await
    }
}

/// One try at starting a run, in one transaction: the name's earlier run if it has one that bars a new
/// one, or the new room and run.
async fn try_start(
    pool: &AnyPool,
    code: &RoomCode,
    challenge: &Challenge,
    name: &PlayerName,
    at: u64,
) -> DbResult<ChallengeStart> {
    let mut tx = pool.begin().await?;
    let earlier = sqlx::query_as::<_, EarlierRun>(
        "SELECT code, CASE WHEN finished_at IS NULL THEN 0 ELSE 1 END AS finished FROM challenges \
         WHERE name_key = $1 AND kind = $2 AND rally IS NOT DISTINCT FROM $3 \
         AND (finished_at IS NULL OR rally IS NOT NULL)",
    )
    .bind(name.key())
    .bind(challenge.kind.name())
    .bind(&challenge.rally)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(run) = earlier {
        return Ok(if run.finished != 0 {
            ChallengeStart::RallyPlayed
        } else {
            ChallengeStart::Unfinished(RoomCode::from(run.code))
        });
    }
    insert_room(&mut *tx, code, challenge.kind.rules(), Mode::Challenge, name.as_str(), at).await?;
    sqlx::query(
        "INSERT INTO challenges (code, kind, rally, name_key, name, started_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(code.as_str())
    .bind(challenge.kind.name())
    .bind(&challenge.rally)
    .bind(name.key())
    .bind(name.as_str())
    .bind(at as i64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(ChallengeStart::Created(code.clone()))
}
