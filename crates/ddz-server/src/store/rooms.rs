//! Rooms and what is kept of them (migrations 0001, 0003): creating a room, loading one or every open one
//! with its log, the finished deals' records and the reviews made of them. What is read back is checked as
//! it is loaded: a mode, rules or challenge kind the server does not know is an error, never a default.
//! Entries reach the logs through the group commit (`commit.rs`).

use sqlx::{AnyPool, Executor, FromRow};

use super::{Db, DbResult, StoreError};
use crate::domain::challenge::{Challenge, ChallengeKind};
use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode, Stamped};
use ddz_engine::{DealRecord, Rules};

/// A stored room: how it was created and its log.
pub struct StoredRoom {
    pub code: RoomCode,
    pub rules: ddz_engine::Rules,
    pub mode: Mode,
    pub host: String,
    pub challenge: Option<Challenge>,
    pub entries: Vec<Stamped>,
}

/// A `rooms` row, with its challenge's kind and rally if it is a challenge room.
#[derive(FromRow)]
struct RoomRow {
    code: String,
    rules: String,
    mode: String,
    host: String,
    kind: Option<String>,
    rally: Option<String>,
}

/// A `room_log` row.
#[derive(FromRow)]
struct LogRow {
    n: i64,
    at: i64,
    entry: String,
}

impl Db {
    /// Creates room `code` with `rules`, hosted by `host`.
    pub async fn create_room(
        &self,
        code: &RoomCode,
        rules: Rules,
        mode: Mode,
        host: &PlayerName,
        at: u64,
    ) -> DbResult<()> {
        let (code, host) = (code.clone(), host.clone());
        self.run(move |s| async move { insert_room(&s.pool, &code, rules, mode, host.as_str(), at).await }).await
    }

    /// Every room not closed, with its log.
    pub async fn open_rooms(&self) -> DbResult<Vec<StoredRoom>> {
        self.run(|s| async move {
            let codes: Vec<String> =
                sqlx::query_scalar("SELECT code FROM rooms WHERE closed_at IS NULL ORDER BY created_at")
                    .fetch_all(&s.pool)
                    .await?;
            let mut rooms = Vec::new();
            for code in codes {
                if let Some(room) = load_room(&s.pool, &RoomCode::from(code)).await? {
                    rooms.push(room);
                }
            }
            Ok::<_, StoreError>(rooms)
        })
        .await
    }

    /// Whether room `code` exists (without reading its log).
    pub async fn room_exists(&self, code: &RoomCode) -> DbResult<bool> {
        let code = code.clone();
        self.run(move |s| async move {
            let found: Option<String> = sqlx::query_scalar("SELECT code FROM rooms WHERE code = $1")
                .bind(code.as_str())
                .fetch_optional(&s.pool)
                .await?;
            Ok::<_, StoreError>(found.is_some())
        })
        .await
    }

    /// One room and its log, closed or not.
    pub async fn room(&self, code: &RoomCode) -> DbResult<Option<StoredRoom>> {
        let code = code.clone();
        self.run(move |s| async move { load_room(&s.pool, &code).await }).await
    }

    /// The records of room `code`'s finished deals, in order.
    pub async fn deal_records(&self, code: &RoomCode) -> DbResult<Vec<DealRecord>> {
        let key = code.clone();
        let texts: Vec<String> = self
            .run(move |s| async move {
                sqlx::query_scalar("SELECT record FROM deals WHERE code = $1 ORDER BY number")
                    .bind(key.as_str())
                    .fetch_all(&s.pool)
                    .await
            })
            .await?;
        texts.iter().enumerate().map(|(i, text)| read_record(code, i as u32 + 1, text)).collect()
    }

    /// Up to `limit` finished deals of every room but a rally's (a rally's deals are the same for everyone that
    /// day), in the order of their room and number, after `after`: for mining puzzles from the store
    /// (`ddz puzzles mine --database`).
    pub async fn deal_records_after(
        &self,
        after: Option<(RoomCode, u32)>,
        limit: i64,
    ) -> DbResult<Vec<(RoomCode, u32, DealRecord)>> {
        let (code, number) = after.map_or((String::new(), 0), |(code, number)| (code.to_string(), number));
        let rows: Vec<(String, i64, String)> = self
            .run(move |s| async move {
                sqlx::query_as(
                    "SELECT code, number, record FROM deals WHERE (code > $1 OR (code = $1 AND number > $2)) \
                     AND code NOT IN (SELECT code FROM challenges WHERE rally IS NOT NULL) \
                     ORDER BY code, number LIMIT $3",
                )
                .bind(&code)
                .bind(i64::from(number))
                .bind(limit)
                .fetch_all(&s.pool)
                .await
            })
            .await?;
        rows.into_iter()
            .map(|(code, number, text)| {
                let code = RoomCode::from(code);
                let number = number as u32;
                read_record(&code, number, &text).map(|record| (code, number, record))
            })
            .collect()
    }

    /// The record of deal `number` (1-based) of room `code`, if it finished.
    pub async fn deal_record(&self, code: &RoomCode, number: u32) -> DbResult<Option<DealRecord>> {
        let key = code.clone();
        let text: Option<String> = self
            .run(move |s| async move {
                sqlx::query_scalar("SELECT record FROM deals WHERE code = $1 AND number = $2")
                    .bind(key.as_str())
                    .bind(i64::from(number))
                    .fetch_optional(&s.pool)
                    .await
            })
            .await?;
        text.map(|text| read_record(code, number, &text)).transpose()
    }

    /// The stored review (JSON) of `seat`'s play in deal `number` of room `code`, if one was made.
    pub async fn review(&self, code: &RoomCode, number: u32, seat: u32) -> DbResult<Option<String>> {
        let code = code.clone();
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT review FROM reviews WHERE code = $1 AND number = $2 AND seat = $3")
                .bind(code.as_str())
                .bind(i64::from(number))
                .bind(i64::from(seat))
                .fetch_optional(&s.pool)
                .await
        })
        .await
    }

    /// Keeps a review (the first one stored stays: reviews of one deal and seat are the same).
    pub async fn store_review(&self, code: &RoomCode, number: u32, seat: u32, review: String) -> DbResult<()> {
        let code = code.clone();
        self.run(move |s| async move {
            sqlx::query(
                "INSERT INTO reviews (code, number, seat, review) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            )
            .bind(code.as_str())
            .bind(i64::from(number))
            .bind(i64::from(seat))
            .bind(review)
            .execute(&s.pool)
            .await
            .map(|_| ())
        })
        .await
    }
}

/// Creates room `code` (on its own, or in a challenge's transaction).
pub(super) async fn insert_room<'c>(
    executor: impl Executor<'c, Database = sqlx::Any>,
    code: &RoomCode,
    rules: Rules,
    mode: Mode,
    host: &str,
    at: u64,
) -> DbResult<()> {
    sqlx::query("INSERT INTO rooms (code, rules, mode, host, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(code.as_str())
        .bind(rules.name())
        .bind(mode.name())
        .bind(host)
        .bind(at as i64)
        .execute(executor)
        .await?;
    Ok(())
}

/// One room and its log, closed or not.
async fn load_room(pool: &AnyPool, code: &RoomCode) -> DbResult<Option<StoredRoom>> {
    let Some(row) = sqlx::query_as::<_, RoomRow>(
        "SELECT rooms.code AS code, rules, mode, host, kind, rally FROM rooms \
         LEFT JOIN challenges ON challenges.code = rooms.code WHERE rooms.code = $1",
    )
    .bind(code.as_str())
    .fetch_optional(pool)
    .await?
    else {
        return Ok(None);
    };
    let log = sqlx::query_as::<_, LogRow>("SELECT n, at, entry FROM room_log WHERE code = $1 ORDER BY n")
        .bind(code.as_str())
        .fetch_all(pool)
        .await?;
    let entries = log
        .into_iter()
        .map(|r| {
            let entry = serde_json::from_str(&r.entry).map_err(decode)?;
            Ok(Stamped { n: r.n as u64, at: r.at as u64, entry })
        })
        .collect::<DbResult<Vec<_>>>()?;
    let challenge = match row.kind {
        None => None,
        Some(kind) => {
            let kind = ChallengeKind::parse(&kind).ok_or_else(|| unknown("challenge kind", &kind))?;
            Some(Challenge { kind, rally: row.rally })
        }
    };
    Ok(Some(StoredRoom {
        code: RoomCode::from(row.code),
        rules: row.rules.parse().map_err(decode)?,
        mode: row.mode.parse().map_err(decode)?,
        host: row.host,
        challenge,
        entries,
    }))
}

fn decode(error: impl std::error::Error) -> StoreError {
    StoreError::Corrupt(error.to_string())
}

/// A stored value the server does not know.
fn unknown(what: &str, value: &str) -> StoreError {
    StoreError::Corrupt(format!("unknown {what} {value:?}"))
}

/// A stored deal record, read back: one that does not is corrupt data (`StoreError::Corrupt`: logged,
/// counted and refused as `internal`), never skipped.
fn read_record(code: &RoomCode, number: u32, text: &str) -> DbResult<DealRecord> {
    serde_json::from_str(text).map_err(|e| {
        crate::metrics::counter!(crate::metrics::UNREADABLE_STORED).increment(1);
        StoreError::Corrupt(format!("deal {number} of {code}: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::test_room;
    use ddz_engine::{Deal, DealSetup, Rules, Seed, Start};

    /// Stores deal `number` of room `code` (dealt, unplayed: a record all the same).
    async fn store_deal(db: &Db, code: &RoomCode, number: u32) {
        let setup = DealSetup::shuffled(Rules::no_shuffle(false), Seed::from_u64(u64::from(number)), Start::Seat(0));
        let seats = vec!["Ann".to_string(), "Bea".to_string(), "Cy".to_string()];
        let record = serde_json::to_string(&DealRecord::of(&Deal::new(setup), seats)).expect("records serialise");
        let code = code.clone();
        db.run(move |s| async move {
            sqlx::query("INSERT INTO deals (code, number, finished_at, record) VALUES ($1, $2, 0, $3)")
                .bind(code.as_str())
                .bind(i64::from(number))
                .bind(record)
                .execute(&s.pool)
                .await
        })
        .await
        .expect("the deal is stored");
    }

    #[tokio::test]
    async fn stored_deals_are_read_in_pages_and_a_rallys_are_left_out() {
        let db = Db::open("sqlite::memory:").await.expect("a database");
        let (abc, xyz, rally) =
            (test_room(&db, "ABCABC").await, test_room(&db, "XYZXYZ").await, test_room(&db, "RALRAL").await);
        for code in [&abc, &xyz, &rally] {
            store_deal(&db, code, 1).await;
            store_deal(&db, code, 2).await;
        }
        let code = rally.clone();
        db.run(move |s| async move {
            sqlx::query(
                "INSERT INTO challenges (code, kind, rally, name_key, name, started_at) \
                 VALUES ($1, 'rally', '2026-12-06', 'ann', 'Ann', 0)",
            )
            .bind(code.as_str())
            .execute(&s.pool)
            .await
        })
        .await
        .expect("a rally run");
        let read = |page: Vec<(RoomCode, u32, DealRecord)>| -> Vec<(String, u32)> {
            page.into_iter().map(|(code, number, _)| (code.to_string(), number)).collect()
        };
        let first = db.deal_records_after(None, 3).await.unwrap();
        assert_eq!(read(first), [("ABCABC".into(), 1), ("ABCABC".into(), 2), ("XYZXYZ".into(), 1)]);
        let second = db.deal_records_after(Some((xyz.clone(), 1)), 3).await.unwrap();
        assert_eq!(read(second), [("XYZXYZ".into(), 2)], "the rally's deals are left out");
        assert!(db.deal_records_after(Some((xyz, 2)), 3).await.unwrap().is_empty());
    }
}
