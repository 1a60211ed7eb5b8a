//! Challenges (migrations 0002, 0004): starting a run in a room of its own, the challenge boards, and the
//! daily rallies (their dates, a player's result beside the best, and the secret their deals are drawn
//! from). One attempt per name per rally and one unfinished run per name and kind are the database's
//! unique indexes, so they hold however many requests (or nodes) start runs at once; a run's result is
//! written by the room's close (`commit.rs`), which keeps it as its name's best on the board if it is (`challenge_bests`,
//! migration 0012: the boards are read through its ranked index, never from every run).

use sqlx::{AnyConnection, FromRow};

use super::rooms::insert_room;
use super::{Db, DbResult, Store, StoreError};
use crate::domain::challenge::{
    BOARD_ROWS, BoardRow, Challenge, ChallengeKind, FinishedRun, RallyResult, RunRank, ranked_rows, utc_date,
};
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::room::{Mode, RoomCode};
use crate::wire::http::{Placing, RANKED};

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

/// A name's best run as `challenge_bests` keeps it.
#[derive(FromRow)]
struct BestRow {
    name: String,
    played: i64,
    score: i64,
    deals: i64,
    finished_at: i64,
}

impl BestRow {
    fn ranked(self) -> (String, RunRank) {
        let rank =
            RunRank { played: self.played, score: self.score, deals: self.deals, finished_at: self.finished_at as u64 };
        (self.name, rank)
    }
}

/// A run just finished, as `challenges` stores it.
#[derive(FromRow)]
struct FinishedRow {
    kind: String,
    rally: Option<String>,
    name_key: String,
    name: String,
    net: i64,
    deals: i64,
    best_pot: i64,
    finished_at: i64,
}

/// Keeps the run that room `code` just finished as its name's best on its board, if it is better than the
/// one kept (by [`RunRank`]'s order), in the transaction that stores the run's result.
pub(super) async fn keep_best(tx: &mut AnyConnection, code: &str) -> DbResult<()> {
    let run: Option<FinishedRow> = sqlx::query_as(
        "SELECT kind, rally, name_key, name, net, deals, best_pot, finished_at FROM challenges \
         WHERE code = $1 AND finished_at IS NOT NULL",
    )
    .bind(code)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(FinishedRow { kind, rally, name_key: key, name, net, deals, best_pot, finished_at }) = run else {
        return Ok(());
    };
    let kind =
        ChallengeKind::parse(&kind).ok_or_else(|| StoreError::Corrupt(format!("run {code} is of kind {kind:?}")))?;
    let finished = FinishedRun { name: name.clone(), net, deals, best_pot, finished_at: finished_at as u64 };
    let rank = RunRank::of(kind, &finished);
    sqlx::query(
        "INSERT INTO challenge_bests (kind, rally, name_key, name, played, score, deals, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (kind, rally, name_key) DO UPDATE SET \
         name = excluded.name, played = excluded.played, score = excluded.score, deals = excluded.deals, \
         finished_at = excluded.finished_at \
         WHERE (excluded.played, -excluded.score, excluded.deals, excluded.finished_at) \
         < (challenge_bests.played, -challenge_bests.score, challenge_bests.deals, challenge_bests.finished_at)",
    )
    .bind(kind.name())
    .bind(rally.unwrap_or_default())
    .bind(key)
    .bind(name)
    .bind(rank.played)
    .bind(rank.score)
    .bind(rank.deals)
    .bind(finished_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
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
            match try_start(&s, &code, &challenge, &name, at).await {
                // Another request (on this node or another) started the same name's run first: the
                // database's unique index refused this one, and the run it started is the one to join.
                Err(StoreError::Unavailable(e)) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => {
                    try_start(&s, &code, &challenge, &name, at).await
                }
                result => result,
            }
        })
        .await
    }

    /// A challenge board (`rally` names the rally's date for Bang rallies): each name's best run as it is
    /// kept (`challenge_bests`), read in the board's order through its index.
    pub async fn challenge_board(&self, kind: ChallengeKind, rally: Option<String>) -> DbResult<Vec<BoardRow>> {
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, BestRow>(
                "SELECT name, played, score, deals, finished_at FROM challenge_bests WHERE kind = $1 AND rally = $2 \
                 ORDER BY played, score DESC, deals, finished_at, name_key LIMIT $3",
            )
            .bind(kind.name())
            .bind(rally.unwrap_or_default())
            .bind(BOARD_ROWS as i64)
            .fetch_all(&s.pool)
            .await?;
            Ok::<_, StoreError>(ranked_rows(rows.into_iter().map(BestRow::ranked)))
        })
        .await
    }

    /// `name`'s best run on a challenge board (`rally`: the rally's date), with its rank (counted through the
    /// board's index: absent beyond the first [`RANKED`]); `None` when the name has no finished run there.
    pub async fn challenge_placing(
        &self,
        kind: ChallengeKind,
        rally: Option<String>,
        name: &PlayerName,
    ) -> DbResult<Option<Placing>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let rally = rally.unwrap_or_default();
            let best = sqlx::query_as::<_, BestRow>(
                "SELECT name, played, score, deals, finished_at FROM challenge_bests \
                 WHERE kind = $1 AND rally = $2 AND name_key = $3",
            )
            .bind(kind.name())
            .bind(&rally)
            .bind(&key)
            .fetch_optional(&s.pool)
            .await?;
            let Some(best) = best else { return Ok(None) };
            // Ranks are shared by equal results: the rank is one more than the runs strictly ahead, counted
            // in two walks of the index that each stop where the board passes this run's place: the runs of a
            // rally with more deals played, then those as long with a better score or as good in fewer deals.
            let walk = |ahead: &str| {
                format!(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM challenge_bests WHERE kind = $1 AND rally = $2 AND {ahead} \
                     ORDER BY played, score DESC, deals LIMIT {RANKED}) AS ahead"
                )
            };
            let longer: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(walk("played < $3")))
                .bind(kind.name())
                .bind(&rally)
                .bind(best.played)
                .fetch_one(&s.pool)
                .await?;
            let better: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(walk(
                "played = $3 AND score >= $4 AND (score > $4 OR deals < $5)",
            )))
            .bind(kind.name())
            .bind(&rally)
            .bind(best.played)
            .bind(best.score)
            .bind(best.deals)
            .fetch_one(&s.pool)
            .await?;
            let ahead = longer + better;
            let run = best.ranked().1;
            Ok::<_, StoreError>(Some(Placing {
                rank: (ahead < RANKED).then_some(ahead + 1),
                score: run.score,
                deals: run.deals,
                date: utc_date(run.finished_at),
                listed: true,
                needs_deals: 0,
                needs_opponents: 0,
                protected: false,
            }))
        })
        .await
    }

    /// Whether `name` has an unfinished run of `kind` (for a rally, of `rally`'s), to resume.
    pub async fn running_challenge(
        &self,
        kind: ChallengeKind,
        rally: Option<String>,
        name: &PlayerName,
    ) -> DbResult<bool> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let running: Option<i64> = sqlx::query_scalar(
                "SELECT 1 FROM challenges WHERE name_key = $1 AND kind = $2 AND rally IS NOT DISTINCT FROM $3 \
                 AND finished_at IS NULL LIMIT 1",
            )
            .bind(&key)
            .bind(kind.name())
            .bind(rally)
            .fetch_optional(&s.pool)
            .await?;
            Ok::<_, StoreError>(running.is_some())
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
        let (date, key) = (date.to_string(), name.key().clone());
        self.run(move |s| async move {
            let attempt = |key: Option<NameKey>| {
                sqlx::query_as::<_, (String, i64, Option<String>)>(
                    "SELECT name, net, nets FROM challenges WHERE kind = 'rally' AND rally = $1 \
                     AND name_key = COALESCE($2, (SELECT name_key FROM challenge_bests WHERE kind = 'rally' \
                     AND rally = $1 ORDER BY played, score DESC, deals, finished_at, name_key LIMIT 1)) \
                     AND finished_at IS NOT NULL",
                )
                .bind(date.clone())
                .bind(key)
                .fetch_optional(&s.pool)
            };
            let result = |(name, net, nets): (String, i64, Option<String>)| -> DbResult<RallyResult> {
                let nets = serde_json::from_str(nets.as_deref().unwrap_or("[]"))
                    .map_err(|e| StoreError::Corrupt(format!("{name}'s rally of {date}: {e}")))?;
                Ok(RallyResult { name, net, nets })
            };
            let Some(mine) = attempt(Some(key)).await? else { return Ok::<_, StoreError>(None) };
            let mine = result(mine)?;
            let best = match attempt(None).await? {
                Some(row) => result(row)?,
                None => mine.clone(),
            };
            Ok(Some((mine, best)))
        })
        .await
    }
}

/// One try at starting a run, in one transaction: the name's earlier run if it has one that bars a new
/// one, or the new room and run.
async fn try_start(
    store: &Store,
    code: &RoomCode,
    challenge: &Challenge,
    name: &PlayerName,
    at: u64,
) -> DbResult<ChallengeStart> {
    let mut tx = store.begin_write().await?;
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

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::domain::challenge::rank_runs;
    use crate::store::test_room;

    /// Stores a finished run of room `code` as the room's close does: its result, then its name's best.
    async fn finish(db: &Db, code: &str, kind: ChallengeKind, rally: Option<&str>, run: &FinishedRun) {
        let room = test_room(db, code).await;
        let (kind, rally, run) = (kind.name(), rally.map(str::to_string), run.clone());
        db.run(move |s| async move {
            let mut tx = s.pool.begin().await?;
            sqlx::query(
                "INSERT INTO challenges (code, kind, rally, name_key, name, started_at, finished_at, net, deals, \
                 best_pot, nets) VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $9, '[]')",
            )
            .bind(room.as_str())
            .bind(kind)
            .bind(rally)
            .bind(NameKey::of_stored(&run.name))
            .bind(&run.name)
            .bind(run.finished_at as i64)
            .bind(run.net)
            .bind(run.deals)
            .bind(run.best_pot)
            .execute(&mut *tx)
            .await?;
            keep_best(&mut tx, room.as_str()).await?;
            tx.commit().await?;
            Ok::<_, StoreError>(())
        })
        .await
        .expect("the run is stored");
    }

    /// The boards kept as runs finish are the boards ranked from every run (`rank_runs`, the domain's
    /// reference), and each name's placing is its row's rank there, for random runs of every kind.
    #[tokio::test]
    async fn a_kept_challenge_board_ranks_as_every_run_would() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(58);
        let mut code = 0;
        for kind in ChallengeKind::ALL {
            let rally = (kind == ChallengeKind::Rally).then_some("2026-12-06");
            let mut runs = Vec::new();
            for i in 0..150 {
                // A name may try Bot Buster and Bot Bomber again and again; a rally once.
                let name = match kind {
                    ChallengeKind::Rally => format!("Rally{i}"),
                    _ => format!("{}{}", ["Ann", "ann", "Bo", "Cy"][rng.random_range(0..4)], rng.random_range(0..20)),
                };
                let deals =
                    if kind == ChallengeKind::Rally { rng.random_range(8..=10) } else { rng.random_range(5..=8) };
                let run = FinishedRun {
                    name,
                    net: rng.random_range(-3..=3) * 10,
                    deals,
                    best_pot: rng.random_range(0..=4) * 16,
                    finished_at: rng.random_range(1..50),
                };
                code += 1;
                finish(&db, &format!("R{code}"), kind, rally, &run).await;
                runs.push(run);
            }
            let expected = rank_runs(kind, &runs);
            let kept = db.challenge_board(kind, rally.map(str::to_string)).await.unwrap();
            let shown = |rows: &[BoardRow]| rows.iter().map(|r| (r.rank, r.score, r.deals)).collect::<Vec<_>>();
            assert_eq!(shown(&kept), shown(&expected), "{kind:?}");
            for row in &expected {
                let name = PlayerName::parse(&row.name).unwrap();
                let placing = db.challenge_placing(kind, rally.map(str::to_string), &name).await.unwrap().unwrap();
                assert_eq!(placing.rank, Some(row.rank as i64), "{kind:?}: {}", row.name);
                assert_eq!((placing.score, placing.deals), (row.score, row.deals));
            }
        }
        let nobody = PlayerName::parse("Nobody").unwrap();
        assert_eq!(db.challenge_placing(ChallengeKind::Buster, None, &nobody).await.unwrap(), None);
    }
}
