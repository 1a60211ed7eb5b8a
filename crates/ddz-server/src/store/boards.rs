//! Stats and the money boards, as players read them: a player's stat lines and standing (rated deals,
//! distinct opponents, and the rank on each board they are on, money and ratings boards alike); the money
//! boards, read through their ranked index (`board_rows_ranked`), so that a view costs the rows it shows,
//! never a scan of every player; and the pairs of players flagged for an operator (`docs/ratings.md`,
//! "What counts"). What a deal writes to them is in `results.rs`; the ratings boards in `ratings.rs`.

use sqlx::FromRow;

use super::{Db, DbResult, StoreError, stored_table};
use crate::domain::challenge::{BoardRow, utc_date};
use crate::domain::fairness::PairFlag;
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::stats::{MoneyBoard, StatLine};
use crate::wire::http::{BoardRank, Placing, RANKED, Standing};

/// A `stats` row (`public` is 0 or 1: integers read the same from every backend).
#[derive(FromRow)]
struct StatRow {
    name: String,
    table_type: String,
    public: i64,
    deals: i64,
    landlord_deals: i64,
    landlord_wins: i64,
    farmer_deals: i64,
    farmer_wins: i64,
    money: i64,
    points: i64,
    bombs: i64,
    springs: i64,
}

impl StatRow {
    fn line(self) -> DbResult<StatLine> {
        Ok(StatLine {
            name: self.name,
            table: stored_table(&self.table_type)?,
            public: self.public != 0,
            deals: self.deals,
            landlord_deals: self.landlord_deals,
            landlord_wins: self.landlord_wins,
            farmer_deals: self.farmer_deals,
            farmer_wins: self.farmer_wins,
            money: self.money,
            points: self.points,
            bombs: self.bombs,
            springs: self.springs,
        })
    }
}

/// A money board's row.
#[derive(FromRow)]
struct MoneyRow {
    name: String,
    score: i64,
    deals: i64,
    last_at: i64,
}

/// A pair of players flagged for an operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlaggedPair {
    pub first: String,
    pub second: String,
    pub deals: i64,
    pub thrown: i64,
    pub flag: PairFlag,
    /// When it was flagged (ms since the epoch).
    pub at: u64,
}

#[derive(FromRow)]
struct PairRow {
    first_name: String,
    second_name: String,
    deals: i64,
    thrown: i64,
    reason: Option<String>,
    flagged_at: Option<i64>,
}

/// The rows above a player's on a money board (most money, then fewest deals, then the name key)...
pub(super) const MONEY_ABOVE: &str = "board_rows WHERE board = $1 AND eligible = 1 AND score >= $2 \
                           AND (score > $2 OR deals < $3 OR (deals = $3 AND name_key < $4))";
/// ...and on a ratings board (the rating less two deviations, then the most deals, then the name key).
pub(super) const RATING_ABOVE: &str = "ratings WHERE family = $1 AND eligible = 1 AND score >= $2 \
                            AND (score > $2 OR deals > $3 OR (deals = $3 AND name_key < $4))";

/// What listing on the boards still takes of the name of key `key`: rated deals, distinct opponents.
pub(super) async fn still_needs(s: &super::Store, key: &NameKey) -> DbResult<(i64, i64)> {
    let player: Option<(i64, i64)> = sqlx::query_as("SELECT rated_deals, opponents FROM players WHERE name_key = $1")
        .bind(key)
        .fetch_optional(&s.pool)
        .await?;
    let (deals, opponents) = player.unwrap_or_default();
    Ok(((s.listing.deals - deals).max(0), (s.listing.opponents - opponents).max(0)))
}

/// Counts the rows above a player's on a board through its index, at most [`RANKED`] of them: the rank,
/// or `None` beyond. `$1` is the board (or family), `$2` the player's score, `$3` deals, `$4` name key;
/// `order` is the board's own order, so that the count walks the ranked index from the top (a plan that
/// scanned the table instead would read every player to count a leader's few).
pub(super) async fn rank(
    s: &super::Store,
    above: &'static str,
    order: &'static str,
    (board, score, deals, key): (&str, i64, i64, &NameKey),
) -> DbResult<Option<i64>> {
    let sql = format!("SELECT COUNT(*) FROM (SELECT 1 FROM {above} ORDER BY {order} LIMIT {RANKED}) AS above");
    let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(board)
        .bind(score)
        .bind(deals)
        .bind(key)
        .fetch_one(&s.pool)
        .await?;
    Ok((count < RANKED).then_some(count + 1))
}

impl Db {
    /// A player's stat lines, every table type and board.
    pub async fn stats(&self, name: &PlayerName) -> DbResult<Vec<StatLine>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, StatRow>(
                "SELECT name, table_type, public, deals, landlord_deals, landlord_wins, farmer_deals, farmer_wins, \
                 money, points, bombs, springs FROM stats WHERE name_key = $1 ORDER BY table_type, public",
            )
            .bind(&key)
            .fetch_all(&s.pool)
            .await?;
            rows.into_iter().map(StatRow::line).collect::<DbResult<Vec<_>>>()
        })
        .await
    }

    /// A money board's first `limit` listed rows: the most money won in counted deals, then the fewest
    /// deals; the date is the player's latest counted deal.
    pub async fn board(&self, board: MoneyBoard, limit: i64) -> DbResult<Vec<BoardRow>> {
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, MoneyRow>(
                "SELECT name, score, deals, last_at FROM board_rows WHERE board = $1 AND eligible = 1 \
                 ORDER BY score DESC, deals, name_key LIMIT $2",
            )
            .bind(board.name())
            .bind(limit)
            .fetch_all(&s.pool)
            .await?;
            Ok::<_, StoreError>(
                rows.into_iter()
                    .enumerate()
                    .map(|(i, r)| BoardRow {
                        rank: i + 1,
                        name: r.name,
                        score: r.score,
                        deals: r.deals,
                        // Rows from before dates were kept have none.
                        date: match r.last_at {
                            0 => String::new(),
                            at => utc_date(at as u64),
                        },
                        protected: false,
                        yours: false,
                    })
                    .collect(),
            )
        })
        .await
    }

    /// `name`'s row on a money board, wherever it stands (its rank once listed, within the first [`RANKED`]);
    /// `None` when the name has no row there.
    pub async fn money_placing(&self, board: MoneyBoard, name: &PlayerName) -> DbResult<Option<Placing>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let row: Option<(i64, i64, i64, i64)> = sqlx::query_as(
                "SELECT score, deals, last_at, eligible FROM board_rows WHERE board = $1 AND name_key = $2",
            )
            .bind(board.name())
            .bind(&key)
            .fetch_optional(&s.pool)
            .await?;
            let Some((score, deals, last_at, eligible)) = row else { return Ok(None) };
            let listed = eligible == 1;
            let rank = match listed {
                true => {
                    rank(&s, MONEY_ABOVE, "score DESC, deals, name_key", (board.name(), score, deals, &key)).await?
                }
                false => None,
            };
            let date = if last_at == 0 { String::new() } else { utc_date(last_at as u64) };
            let (needs_deals, needs_opponents) = still_needs(&s, &key).await?;
            Ok::<_, StoreError>(Some(Placing {
                rank,
                score,
                deals,
                date,
                listed,
                needs_deals,
                needs_opponents,
                protected: false,
            }))
        })
        .await
    }

    /// Where a player stands: rated deals, distinct opponents, whether listed, and (listed) their rank on
    /// each board they have a row on.
    pub async fn standing(&self, name: &PlayerName) -> DbResult<Standing> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let listing = s.listing;
            let mut standing =
                Standing { needs_deals: listing.deals, needs_opponents: listing.opponents, ..Standing::default() };
            let player: Option<(i64, i64, i64)> =
                sqlx::query_as("SELECT rated_deals, opponents, eligible FROM players WHERE name_key = $1")
                    .bind(&key)
                    .fetch_optional(&s.pool)
                    .await?;
            let Some((rated_deals, opponents, eligible)) = player else { return Ok(standing) };
            standing.rated_deals = rated_deals;
            standing.opponents = opponents;
            standing.listed = eligible == 1;
            if !standing.listed {
                return Ok::<_, StoreError>(standing);
            }
            // Every row of the player's on a board, money boards first, in one round trip; then each rank,
            // counted at once on connections of their own.
            let rows: Vec<(i64, String, i64, i64)> = sqlx::query_as(
                "SELECT 0 AS kind, board, score, deals FROM board_rows WHERE name_key = $1 \
                 UNION ALL SELECT 1 AS kind, family, score, deals FROM ratings WHERE name_key = $1 \
                 ORDER BY kind, board DESC",
            )
            .bind(&key)
            .fetch_all(&s.pool)
            .await?;
            let ranks = rows.iter().map(|(kind, board, score, deals)| {
                let (above, order) = if *kind == 0 {
                    (MONEY_ABOVE, "score DESC, deals, name_key")
                } else {
                    (RATING_ABOVE, "score DESC, deals DESC, name_key")
                };
                rank(&s, above, order, (board, *score, *deals, &key))
            });
            for ((_, board, _, _), rank) in rows.iter().zip(futures_util::future::join_all(ranks).await) {
                standing.ranks.push(BoardRank { board: board.clone(), rank: rank? });
            }
            Ok(standing)
        })
        .await
    }

    /// The flagged pairs among `keys` (name keys), as pairs of keys.
    pub async fn flagged_among(&self, keys: Vec<NameKey>) -> DbResult<Vec<(NameKey, NameKey)>> {
        if keys.len() < 2 {
            return Ok(Vec::new());
        }
        self.run(move |s| async move {
            let places: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
            let places = places.join(", ");
            let sql = format!(
                "SELECT first_key, second_key FROM pairs WHERE flagged_at IS NOT NULL \
                 AND first_key IN ({places}) AND second_key IN ({places})"
            );
            let mut query = sqlx::query_as::<_, (NameKey, NameKey)>(sqlx::AssertSqlSafe(sql));
            for key in &keys {
                query = query.bind(key);
            }
            Ok::<_, StoreError>(query.fetch_all(&s.pool).await?)
        })
        .await
    }

    /// Every flagged pair, the latest first (`ddz fairness pairs`).
    pub async fn flagged_pairs(&self) -> DbResult<Vec<FlaggedPair>> {
        self.run(move |s| async move {
            let rows: Vec<PairRow> = sqlx::query_as(
                "SELECT first_name, second_name, deals, thrown, reason, flagged_at FROM pairs \
                 WHERE flagged_at IS NOT NULL ORDER BY flagged_at DESC",
            )
            .fetch_all(&s.pool)
            .await?;
            rows.into_iter()
                .map(|row| -> DbResult<FlaggedPair> {
                    let reason = row.reason.unwrap_or_default();
                    let flag = PairFlag::parse(&reason)
                        .ok_or_else(|| StoreError::Corrupt(format!("a pair flagged for {reason:?}")))?;
                    Ok(FlaggedPair {
                        first: row.first_name,
                        second: row.second_name,
                        deals: row.deals,
                        thrown: row.thrown,
                        flag,
                        at: row.flagged_at.unwrap_or_default() as u64,
                    })
                })
                .collect()
        })
        .await
    }

    /// An operator clears a pair's flag (`ddz fairness clear A B`): its counts start again from nothing,
    /// so that it is flagged again only by new deals. Whether the pair was flagged.
    pub async fn clear_pair(&self, a: &PlayerName, b: &PlayerName) -> DbResult<bool> {
        let (mut first, mut second) = (a.key().clone(), b.key().clone());
        if second < first {
            std::mem::swap(&mut first, &mut second);
        }
        self.run(move |s| async move {
            let cleared = sqlx::query(
                "UPDATE pairs SET flagged_at = NULL, reason = NULL, deals = 0, thrown = 0 \
                 WHERE first_key = $1 AND second_key = $2 AND flagged_at IS NOT NULL",
            )
            .bind(&first)
            .bind(&second)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(cleared.rows_affected() == 1)
        })
        .await
    }
}
