//! The quick-match queue in the database (migration 0008): one row per waiting name, shared by every node
//! of a cluster. Joining, polling and leaving are single statements; a table's players are claimed in
//! one transaction that sets their `room` only where it is still unset, so two nodes matching the same
//! queue never seat a player twice.

use ddz_engine::TableType;
use sqlx::FromRow;

use super::{Db, DbResult, StoreError, stored_table};
use crate::domain::matching::Waiting;
use crate::domain::names::PlayerName;
use crate::domain::room::RoomCode;

/// A ticket in the queue, as its player polls it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub ticket: String,
    pub name: PlayerName,
    pub table: TableType,
    /// When the player joined (ms since the epoch).
    pub joined_at: u64,
    /// The room the player was matched into, and how many bots sit with them there.
    pub room: Option<RoomCode>,
    pub bots: u32,
}

#[derive(FromRow)]
struct TicketRow {
    ticket: String,
    name: String,
    table_type: String,
    joined_at: i64,
    room: Option<String>,
    bots: i64,
}

/// A queued name, read again as it was when it joined (it was read at the edge then).
fn queued_name(name: &str) -> DbResult<PlayerName> {
    PlayerName::parse(name).map_err(|e| StoreError::Corrupt(format!("a queued name {name:?}: {e}")))
}

impl TryFrom<TicketRow> for Ticket {
    type Error = StoreError;

    fn try_from(row: TicketRow) -> Result<Ticket, StoreError> {
        Ok(Ticket {
            table: stored_table(&row.table_type)?,
            ticket: row.ticket,
            name: queued_name(&row.name)?,
            joined_at: row.joined_at as u64,
            room: row.room.map(RoomCode::from),
            bots: row.bots as u32,
        })
    }
}

/// The columns a [`TicketRow`] reads (a macro, so that the queries stay static strings).
macro_rules! ticket_columns {
    () => {
        "ticket, name, table_type, joined_at, room, bots"
    };
}

impl Db {
    /// Puts `name` in the queue for `table`, or finds the name's place there already (another tab of
    /// the same player): the ticket. A name waiting for another table type moves to this one and waits
    /// from now; one matched before starts afresh.
    pub async fn join_queue(
        &self,
        name: &PlayerName,
        table: TableType,
        rating: f64,
        address: Option<String>,
        now: u64,
    ) -> DbResult<Ticket> {
        let (name, key) = (name.as_str().to_string(), name.key().clone());
        self.run(move |s| async move {
            let word = table.name();
            // The matched ticket of an earlier quick match is done with.
            sqlx::query("DELETE FROM match_queue WHERE name_key = $1 AND (room IS NOT NULL OR table_type <> $2)")
                .bind(&key)
                .bind(word)
                .execute(&s.pool)
                .await?;
            let ticket = new_ticket();
            sqlx::query(
                "INSERT INTO match_queue (ticket, name, name_key, table_type, rating, joined_at, seen_at, address) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6, $7) ON CONFLICT (name_key) DO UPDATE SET seen_at = excluded.seen_at, \
                 address = excluded.address",
            )
            .bind(&ticket)
            .bind(&name)
            .bind(&key)
            .bind(word)
            .bind(rating.round() as i64)
            .bind(now as i64)
            .bind(&address)
            .execute(&s.pool)
            .await?;
            let row: TicketRow =
                sqlx::query_as(concat!("SELECT ", ticket_columns!(), " FROM match_queue WHERE name_key = $1"))
                    .bind(&key)
                    .fetch_one(&s.pool)
                    .await?;
            Ticket::try_from(row)
        })
        .await
    }

    /// The ticket, noting that its player is still there (a ticket nobody polls leaves the queue).
    pub async fn poll_ticket(&self, ticket: &str, now: u64) -> DbResult<Option<Ticket>> {
        let ticket = ticket.to_string();
        self.run(move |s| async move {
            sqlx::query("UPDATE match_queue SET seen_at = $1 WHERE ticket = $2")
                .bind(now as i64)
                .bind(&ticket)
                .execute(&s.pool)
                .await?;
            let row: Option<TicketRow> =
                sqlx::query_as(concat!("SELECT ", ticket_columns!(), " FROM match_queue WHERE ticket = $1"))
                    .bind(&ticket)
                    .fetch_optional(&s.pool)
                    .await?;
            row.map(Ticket::try_from).transpose()
        })
        .await
    }

    /// Takes a waiting ticket out of the queue; whether it was waiting (a matched one stays matched).
    pub async fn leave_queue(&self, ticket: &str) -> DbResult<bool> {
        let ticket = ticket.to_string();
        self.run(move |s| async move {
            let done = sqlx::query("DELETE FROM match_queue WHERE ticket = $1 AND room IS NULL")
                .bind(&ticket)
                .execute(&s.pool)
                .await?;
            Ok::<_, sqlx::Error>(done.rows_affected() == 1)
        })
        .await
    }

    /// The players waiting for `table`, after removing tickets not polled since `stale_before` and
    /// matched tickets older than `done_before`.
    pub async fn queue(&self, table: TableType, stale_before: u64, done_before: u64) -> DbResult<Vec<Waiting>> {
        self.run(move |s| async move {
            sqlx::query(
                "DELETE FROM match_queue WHERE (room IS NULL AND seen_at < $1) OR (room IS NOT NULL AND seen_at < $2)",
            )
            .bind(stale_before as i64)
            .bind(done_before as i64)
            .execute(&s.pool)
            .await?;
            let rows: Vec<(String, String, i64, i64, Option<String>)> = sqlx::query_as(
                "SELECT ticket, name, rating, joined_at, address FROM match_queue WHERE table_type = $1 AND room IS NULL",
            )
            .bind(table.name())
            .fetch_all(&s.pool)
            .await?;
            rows.into_iter()
                .map(|(ticket, name, rating, since, address)| {
                    Ok(Waiting { ticket, name: queued_name(&name)?, rating: rating as f64, since: since as u64, address })
                })
                .collect::<DbResult<Vec<_>>>()
        })
        .await
    }

    /// How many wait for `table` now.
    pub async fn waiting_count(&self, table: TableType) -> DbResult<u32> {
        self.run(move |s| async move {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM match_queue WHERE table_type = $1 AND room IS NULL")
                .bind(table.name())
                .fetch_one(&s.pool)
                .await?;
            Ok::<_, sqlx::Error>(n as u32)
        })
        .await
    }

    /// Claims `tickets` for room `room` with `bots` bots, all or none: `false` when any of them was
    /// matched (by another node) or left meanwhile.
    pub async fn claim_tickets(&self, tickets: Vec<String>, room: &RoomCode, bots: usize) -> DbResult<bool> {
        let room = room.clone();
        self.run(move |s| async move {
            let mut tx = s.pool.begin().await?;
            for ticket in &tickets {
                let claimed =
                    sqlx::query("UPDATE match_queue SET room = $1, bots = $2 WHERE ticket = $3 AND room IS NULL")
                        .bind(room.as_str())
                        .bind(bots as i64)
                        .bind(ticket)
                        .execute(&mut *tx)
                        .await?;
                if claimed.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok::<_, sqlx::Error>(false);
                }
            }
            tx.commit().await?;
            Ok(true)
        })
        .await
    }
}

/// A ticket: 128 random bits as hex.
fn new_ticket() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}
