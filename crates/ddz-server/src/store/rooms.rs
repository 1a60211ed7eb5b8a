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
