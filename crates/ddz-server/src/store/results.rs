//! What a finished deal writes beyond its record, in the deal's transaction: every person's stats, and for
//! the people it counts for (`crate::domain::fairness`) their rated deals and distinct opponents (which put
//! a name on the boards), the money boards' rows, and their ratings (`ratings.rs`); who sat with whom,
//! flagging the pairs an operator should see. A rally deal's results wait in `held_results` until the day's
//! rally closes, and then go in all at once ([`Db::release_rallies`]).

use ddz_bot::BotKind;
use sqlx::AnyConnection;

use super::append::{Company, DealResults};
use super::ratings::write_ratings;
use super::{Db, DbResult, StoreError};
use crate::domain::challenge::rally_closed;
use crate::domain::fairness::{Listing, PAIR_THROWN, PAIR_TOGETHER, PairFlag};
use crate::domain::names::NameKey;
use crate::domain::stats::{PlayedLine, StatLine};
use crate::metrics;

/// Writes a finished deal's results: `deal_at` is when the deal finished (the boards' dates), `now` when
/// they count (a held rally deal's at its release: the rating history's time).
pub(super) async fn write_results(
    tx: &mut AnyConnection,
    listing: Listing,
    deal_at: u64,
    now: u64,
    code: &str,
    number: u32,
    results: &DealResults,
) -> DbResult<()> {
    for line in &results.stats {
        write_stat_line(tx, line, deal_at).await?;
    }
    write_company(tx, listing, &results.table, now).await?;
    for line in &results.boards {
        sqlx::query(
            "INSERT INTO board_rows (board, name_key, name, score, deals, last_at, eligible) \
             VALUES ($1, $2, $3, $4, 1, $5, COALESCE((SELECT eligible FROM players WHERE name_key = $2), 0)) \
             ON CONFLICT (board, name_key) DO UPDATE SET name = excluded.name, \
             score = board_rows.score + excluded.score, deals = board_rows.deals + 1, last_at = excluded.last_at, \
             eligible = excluded.eligible",
        )
        .bind(line.board.name())
        .bind(NameKey::of_stored(&line.name))
        .bind(&line.name)
        .bind(line.money)
        .bind(deal_at as i64)
        .execute(&mut *tx)
        .await?;
    }
    if let Some(rated) = &results.rating {
        write_ratings(tx, now, code, number, rated).await?;
    }
    for line in &results.played {
        write_played_line(tx, line, deal_at, code, number).await?;
    }
    Ok(())
}

/// A deal in a person's history. Written once: a deal's results are written in the transaction that stores
/// its record (or releases it, for a rally), which happens once.
async fn write_played_line(
    tx: &mut AnyConnection,
    line: &PlayedLine,
    at: u64,
    code: &str,
    number: u32,
) -> DbResult<()> {
    sqlx::query(
        "INSERT INTO played_deals (name_key, at, code, number, table_type, mode, seat, landlord, won, amount, others) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(NameKey::of_stored(&line.name))
    .bind(at as i64)
    .bind(code)
    .bind(i64::from(number))
    .bind(line.table.name())
    .bind(line.mode.name())
    .bind(line.seat as i64)
    .bind(i64::from(line.landlord))
    .bind(line.won.map(i64::from))
    .bind(line.amount)
    .bind(serde_json::to_string(&line.others).expect("names serialise"))
    .execute(&mut *tx)
    .await?;
    Ok(())
}

async fn write_stat_line(tx: &mut AnyConnection, line: &StatLine, at: u64) -> DbResult<()> {
    sqlx::query(
        "INSERT INTO stats (name_key, name, table_type, public, deals, landlord_deals, landlord_wins, \
         farmer_deals, farmer_wins, money, points, bombs, springs, last_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (name_key, table_type, public) DO UPDATE SET name = excluded.name, \
         deals = stats.deals + excluded.deals, \
         landlord_deals = stats.landlord_deals + excluded.landlord_deals, \
         landlord_wins = stats.landlord_wins + excluded.landlord_wins, \
         farmer_deals = stats.farmer_deals + excluded.farmer_deals, \
         farmer_wins = stats.farmer_wins + excluded.farmer_wins, \
         money = stats.money + excluded.money, points = stats.points + excluded.points, \
         bombs = stats.bombs + excluded.bombs, springs = stats.springs + excluded.springs, \
         last_at = excluded.last_at",
    )
    .bind(NameKey::of_stored(&line.name))
    .bind(&line.name)
    .bind(line.table.name())
    .bind(i64::from(line.public))
    .bind(line.deals)
    .bind(line.landlord_deals)
    .bind(line.landlord_wins)
    .bind(line.farmer_deals)
    .bind(line.farmer_wins)
    .bind(line.money)
    .bind(line.points)
    .bind(line.bombs)
    .bind(line.springs)
    .bind(at as i64)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The opponent a bot kind counts as: one, however many tables its bots sit at.
fn bot_opponent(kind: BotKind) -> String {
    format!("bot:{}", kind.name())
}

/// Who sat with whom: each person's rated deals and distinct opponents (and, once they reach `listing`,
/// their rows on every board become listed), and each pair of people's deals together.
async fn write_company(tx: &mut AnyConnection, listing: Listing, table: &Company, now: u64) -> DbResult<()> {
    let shared = table.played && table.people.len() >= 2;
    let keys: Vec<NameKey> = table.people.iter().map(|p| NameKey::of_stored(&p.name)).collect();
    for (person, key) in table.people.iter().zip(&keys) {
        sqlx::query(
            "INSERT INTO players (name_key, name, rated_deals, shared_deals) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, \
             rated_deals = players.rated_deals + excluded.rated_deals, \
             shared_deals = players.shared_deals + excluded.shared_deals",
        )
        .bind(key)
        .bind(&person.name)
        .bind(i64::from(person.counted))
        .bind(i64::from(shared))
        .execute(&mut *tx)
        .await?;
        if !person.counted {
            continue;
        }
        // An opponent is a person's key or a bot kind's name (the `opponent` column holds either).
        let people = keys.iter().filter(|k| *k != key).map(|k| k.as_str().to_string());
        let others = people.chain(table.bots.iter().map(|&b| bot_opponent(b)));
        let mut new = 0;
        for opponent in others {
            let met = sqlx::query("INSERT INTO opponents (name_key, opponent) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                .bind(key)
                .bind(&opponent)
                .execute(&mut *tx)
                .await?;
            new += met.rows_affected() as i64;
        }
        if new > 0 {
            sqlx::query("UPDATE players SET opponents = opponents + $1 WHERE name_key = $2")
                .bind(new)
                .bind(key)
                .execute(&mut *tx)
                .await?;
        }
        let listed = sqlx::query(
            "UPDATE players SET eligible = 1 WHERE name_key = $1 AND eligible = 0 \
             AND rated_deals >= $2 AND opponents >= $3",
        )
        .bind(key)
        .bind(listing.deals)
        .bind(listing.opponents)
        .execute(&mut *tx)
        .await?;
        if listed.rows_affected() == 1 {
            for table in ["board_rows", "ratings"] {
                let sql = format!("UPDATE {table} SET eligible = 1 WHERE name_key = $1");
                sqlx::query(sqlx::AssertSqlSafe(sql)).bind(key).execute(&mut *tx).await?;
            }
        }
    }
    if !shared {
        return Ok(());
    }
    for a in 0..keys.len() {
        for b in a + 1..keys.len() {
            let (first, second) = if keys[a] < keys[b] { (a, b) } else { (b, a) };
            let thrown = table.people[a].threw || table.people[b].threw;
            sqlx::query(
                "INSERT INTO pairs (first_key, second_key, first_name, second_name, deals, thrown) \
                 VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (first_key, second_key) DO UPDATE SET \
                 first_name = excluded.first_name, second_name = excluded.second_name, \
                 deals = pairs.deals + 1, thrown = pairs.thrown + excluded.thrown",
            )
            .bind(&keys[first])
            .bind(&keys[second])
            .bind(&table.people[first].name)
            .bind(&table.people[second].name)
            .bind(i64::from(thrown))
            .execute(&mut *tx)
            .await?;
            flag_pair(tx, &keys[first], &keys[second], now).await?;
        }
    }
    Ok(())
}

/// Flags the pair if it has just crossed a line ([`PAIR_THROWN`], [`PAIR_TOGETHER`]): counted in the
/// metrics and logged for the operator.
async fn flag_pair(tx: &mut AnyConnection, first: &NameKey, second: &NameKey, now: u64) -> DbResult<()> {
    const UNFLAGGED: &str = "UPDATE pairs SET flagged_at = $1, reason = $2 WHERE first_key = $3 AND second_key = $4 \
                             AND flagged_at IS NULL";
    let passing = sqlx::query(sqlx::AssertSqlSafe(format!("{UNFLAGGED} AND thrown >= $5")))
        .bind(now as i64)
        .bind(PairFlag::Passing.name())
        .bind(first)
        .bind(second)
        .bind(PAIR_THROWN);
    let together = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{UNFLAGGED} AND deals >= $5 AND deals * 2 > (SELECT MIN(shared_deals) FROM players WHERE name_key IN ($3, $4))"
    )))
    .bind(now as i64)
    .bind(PairFlag::Together.name())
    .bind(first)
    .bind(second)
    .bind(PAIR_TOGETHER);
    for (flag, query) in [(PairFlag::Passing, passing), (PairFlag::Together, together)] {
        if query.execute(&mut *tx).await?.rows_affected() == 1 {
            metrics::counter!(metrics::FLAGGED_PAIRS).increment(1);
            tracing::warn!(
                %first,
                %second,
                reason = flag.name(),
                "a pair of players is flagged: their deals together no longer count"
            );
            return Ok(());
        }
    }
    Ok(())
}

/// Holds a rally deal's results until its rally closes.
pub(super) async fn hold_results(
    tx: &mut AnyConnection,
    code: &str,
    number: u32,
    rally: &str,
    at: u64,
    results: &DealResults,
) -> DbResult<()> {
    sqlx::query("INSERT INTO held_results (code, number, rally, at, results) VALUES ($1, $2, $3, $4, $5)")
        .bind(code)
        .bind(i64::from(number))
        .bind(rally)
        .bind(at as i64)
        .bind(serde_json::to_string(results).expect("results serialise"))
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// A held rally deal.
#[derive(sqlx::FromRow)]
struct HeldRow {
    code: String,
    number: i64,
    at: i64,
    results: String,
}

impl Db {
    /// Writes the held results of every rally that has closed by `now`, all of a rally's in one
    /// transaction, in the order its deals finished; the number written. Every node runs this; a row is
    /// written by whichever deletes it (so once), and a deal stored late is written by the next run.
    pub async fn release_rallies(&self, now: u64) -> DbResult<usize> {
        self.run(move |s| async move {
            let listing = s.listing;
            let rallies: Vec<String> =
                sqlx::query_scalar("SELECT DISTINCT rally FROM held_results").fetch_all(&s.pool).await?;
            let mut released = 0;
            for rally in rallies.into_iter().filter(|date| rally_closed(date, now)) {
                let mut tx = s.begin_write().await?;
                let rows: Vec<HeldRow> = sqlx::query_as(
                    "SELECT code, number, at, results FROM held_results WHERE rally = $1 ORDER BY at, code, number",
                )
                .bind(&rally)
                .fetch_all(&mut *tx)
                .await?;
                for row in rows {
                    let taken = sqlx::query("DELETE FROM held_results WHERE code = $1 AND number = $2")
                        .bind(&row.code)
                        .bind(row.number)
                        .execute(&mut *tx)
                        .await?;
                    if taken.rows_affected() != 1 {
                        continue;
                    }
                    let results: DealResults = serde_json::from_str(&row.results).map_err(|e| {
                        StoreError::Corrupt(format!("held results of {} {}: {e}", row.code, row.number))
                    })?;
                    write_results(&mut tx, listing, row.at as u64, now, &row.code, row.number as u32, &results).await?;
                    released += 1;
                }
                tx.commit().await?;
                tracing::info!(%rally, "the rally closed: its deals count now");
            }
            Ok::<_, StoreError>(released)
        })
        .await
    }
}
