//! A player's page (migration 0012): the deals a name played, newest first, paged through the primary key
//! of `played_deals` (a page costs the rows it shows, however many deals are stored: keyset paging, never
//! an offset), and the tournaments they finished (their places are written with the tournament's last
//! entry: `tournaments.rs`).

use sqlx::FromRow;

use super::{Db, DbResult, StoreError, stored_table};
use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode};
use crate::wire::http::{PlayedDeal, TOURNAMENTS_SHOWN, TournamentFinish};
use crate::wire::pages::TournamentSummary;

/// Where a page of a name's deals starts: just after the deal `at`, `code`, `number` (the last one of the
/// page before), written `AT-CODE-NUMBER` in the `before` of a request and the `next` of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealsCursor {
    pub at: u64,
    pub code: RoomCode,
    pub number: u32,
}

impl DealsCursor {
    /// The cursor `text` writes, if it is one.
    pub fn parse(text: &str) -> Option<DealsCursor> {
        let mut parts = text.split('-');
        let (at, code, number) = (parts.next()?, parts.next()?, parts.next()?);
        let code_chars = !code.is_empty() && code.len() <= 16 && code.chars().all(|c| c.is_ascii_alphanumeric());
        if parts.next().is_some() || !code_chars {
            return None;
        }
        Some(DealsCursor { at: at.parse().ok()?, code: RoomCode::from(code), number: number.parse().ok()? })
    }
}

impl std::fmt::Display for DealsCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.at, self.code, self.number)
    }
}

#[derive(FromRow)]
struct PlayedRow {
    at: i64,
    code: String,
    number: i64,
    table_type: String,
    mode: String,
    seat: i64,
    landlord: i64,
    won: Option<i64>,
    amount: i64,
    others: String,
}

impl PlayedRow {
    fn deal(self) -> DbResult<PlayedDeal> {
        let mode = Mode::ALL
            .into_iter()
            .find(|m| m.name() == self.mode)
            .ok_or_else(|| StoreError::Corrupt(format!("a played deal of mode {:?}", self.mode)))?;
        let others = serde_json::from_str(&self.others)
            .map_err(|e| StoreError::Corrupt(format!("the names of deal {} of {}: {e}", self.number, self.code)))?;
        Ok(PlayedDeal {
            code: RoomCode::from(self.code),
            number: self.number as u32,
            at: self.at as u64,
            table: stored_table(&self.table_type)?,
            mode,
            seat: self.seat as u32,
            landlord: self.landlord == 1,
            won: self.won.map(|won| won == 1),
            amount: self.amount,
            others,
        })
    }
}

impl Db {
    /// Up to `limit` of the deals `name` played, newest first, from just after `before` (the first page
    /// without); and the cursor of the next page, if there may be one.
    pub async fn played_deals(
        &self,
        name: &PlayerName,
        before: Option<DealsCursor>,
        limit: u32,
    ) -> DbResult<(Vec<PlayedDeal>, Option<DealsCursor>)> {
        let key = name.key().clone();
        self.run(move |s| async move {
            const COLUMNS: &str = "at, code, number, table_type, mode, seat, landlord, won, amount, others";
            let rows: Vec<PlayedRow> = match &before {
                None => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM played_deals WHERE name_key = $1 \
                         ORDER BY at DESC, code DESC, number DESC LIMIT $2"
                    );
                    sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(&key)
                        .bind(i64::from(limit))
                        .fetch_all(&s.pool)
                        .await?
                }
                Some(cursor) => {
                    // The rows after the cursor in the key's order, written so that the primary key's range
                    // serves it on both backends.
                    let sql = format!(
                        "SELECT {COLUMNS} FROM played_deals WHERE name_key = $1 AND at <= $2 \
                         AND (at < $2 OR code < $3 OR (code = $3 AND number < $4)) \
                         ORDER BY at DESC, code DESC, number DESC LIMIT $5"
                    );
                    sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(&key)
                        .bind(cursor.at as i64)
                        .bind(cursor.code.as_str())
                        .bind(i64::from(cursor.number))
                        .bind(i64::from(limit))
                        .fetch_all(&s.pool)
                        .await?
                }
            };
            let deals = rows.into_iter().map(PlayedRow::deal).collect::<DbResult<Vec<_>>>()?;
            let next = match deals.last() {
                Some(last) if deals.len() == limit as usize => {
                    Some(DealsCursor { at: last.at, code: last.code.clone(), number: last.number })
                }
                _ => None,
            };
            Ok::<_, StoreError>((deals, next))
        })
        .await
    }

    /// The finished tournaments `name` played in, newest first, with their places.
    pub async fn tournament_finishes(&self, name: &PlayerName) -> DbResult<Vec<TournamentFinish>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let rows: Vec<(i64, i64, String)> = sqlx::query_as(
                "SELECT p.place, p.entrants, t.summary FROM tournament_places p JOIN tournaments t ON t.id = p.id \
                 WHERE p.name_key = $1 ORDER BY p.finished_at DESC, p.id DESC LIMIT $2",
            )
            .bind(&key)
            .bind(TOURNAMENTS_SHOWN)
            .fetch_all(&s.pool)
            .await?;
            rows.into_iter()
                .map(|(place, entrants, summary)| {
                    let summary: TournamentSummary = serde_json::from_str(&summary)
                        .map_err(|e| StoreError::Corrupt(format!("a tournament's summary: {e}")))?;
                    Ok(TournamentFinish {
                        id: summary.id,
                        title: summary.title,
                        table: summary.table,
                        format: summary.format,
                        place: place as u32,
                        entrants: entrants as u32,
                        finished_at: summary.finished_at.unwrap_or_default(),
                    })
                })
                .collect::<DbResult<Vec<_>>>()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_what_it_writes_and_nothing_else() {
        let cursor = DealsCursor { at: 1_796_000_000_000, code: RoomCode::from("ABC234"), number: 12 };
        assert_eq!(DealsCursor::parse(&cursor.to_string()), Some(cursor));
        for bad in ["", "1-ABC-", "x-ABC-1", "1-AB C-1", "1-ABC-1-2", "1--1", "-ABC-1"] {
            assert_eq!(DealsCursor::parse(bad), None, "{bad:?}");
        }
    }
}
