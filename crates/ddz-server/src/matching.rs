//! Quick match's clockwork: every node runs a matcher that, a few times a second, reads each table type's
//! queue from the database, chooses tables with [`crate::domain::matching::match_queue`], claims their
//! players (all or none; another node may have claimed them first) and sets each table up: a room of
//! mode [`Mode::Quick`] with the players seated in queue order, bots in the empty seats, and the first
//! deal offered. The players learn their room by polling their ticket (`GET /api/quick-match/TICKET`).
//! The bots that fill a table are the level whose measured rating is closest to the players' own.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use ddz_bot::BotKind;
use ddz_engine::{Rules, TableType};

use crate::background::First;
use crate::domain::matching::{MatchRules, Table, match_queue};
use crate::domain::rating::bot_skill;
use crate::domain::room::{Mode, RoomCode};
use crate::room::Request;
use crate::rooms::Rooms;
use crate::store::StoreError;
use crate::wire::protocol::Refused;

/// Why a round of matching stopped: the queue could not be read or claimed, or a room refused a step
/// of its setting up (its players then find an unknown or unstarted room and can queue again).
#[derive(Debug, thiserror::Error)]
enum MatchError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Room(#[from] Refused),
}

/// How often each node looks at the queues.
const TICK: Duration = Duration::from_millis(250);
/// A waiting ticket nobody polled for this long (a closed tab) leaves the queue.
pub const STALE_MS: u64 = 15_000;
/// A matched ticket is kept this long, for a second tab or a reconnect to find its room.
const DONE_MS: u64 = 10 * 60_000;
/// The levels that may fill a quick-match table (those offered to players).
const FILL_LEVELS: [BotKind; 4] = [BotKind::Beginner, BotKind::Easy, BotKind::Normal, BotKind::Hard];

/// The bot level whose rating in `table`'s family is closest to the players' average.
pub fn fill_level(table: TableType, players: &Table) -> BotKind {
    let family = table;
    let average = players.players.iter().map(|p| p.rating).sum::<f64>() / players.players.len().max(1) as f64;
    let distance = |kind: &BotKind| (f64::from(bot_skill(*kind, family).points()) - average).abs();
    FILL_LEVELS.into_iter().min_by(|a, b| distance(a).total_cmp(&distance(b))).unwrap_or(BotKind::Normal)
}

/// The table types quick match offers, each with its standard rules: House with the Wild (as the lobby's
/// tables), No Shuffle and Two Player without Wild Rank.
pub fn quick_rules(table: TableType) -> Rules {
    Rules::of(table, table == TableType::House)
}

/// How many wait for each table type, as the matcher last read its queue (for the hall: every node reads
/// the same queue, so every node's count is the cluster's).
#[derive(Clone, Default)]
pub struct Waiting(Arc<[AtomicU32; 3]>);

impl Waiting {
    fn slot(table: TableType) -> usize {
        match table {
            TableType::House => 0,
            TableType::NoShuffle => 1,
            TableType::TwoPlayer => 2,
        }
    }

    pub fn get(&self, table: TableType) -> u32 {
        self.0[Self::slot(table)].load(Ordering::Relaxed)
    }

    pub fn set(&self, table: TableType, waiting: u32) {
        self.0[Self::slot(table)].store(waiting, Ordering::Relaxed);
    }
}

/// Runs the matcher until the server stops. While the database fails it backs off as the rooms' clocks do
/// (250 ms doubling to 10 s), so that an outage is not met with a dozen queries a second.
pub fn spawn(rooms: Rooms, fill_after_ms: u64, waiting: Waiting) {
    let background = rooms.background();
    background.every(TICK, First::AfterOnePeriod, move || {
        let (rooms, waiting) = (rooms.clone(), waiting.clone());
        async move {
            for table in [TableType::House, TableType::NoShuffle, TableType::TwoPlayer] {
                match match_table(&rooms, table, fill_after_ms).await {
                    Ok(left) => waiting.set(table, left),
                    Err(MatchError::Store(e)) => {
                        tracing::warn!(?table, error = %e, "quick match could not read or claim the queue");
                        return false;
                    }
                    Err(e) => tracing::warn!(?table, error = %e, "quick match could not set a table up"),
                }
            }
            true
        }
    });
}

/// Matches one table type's queue once; how many are left waiting.
async fn match_table(rooms: &Rooms, table: TableType, fill_after_ms: u64) -> Result<u32, MatchError> {
    let now = rooms.now_ms();
    let queue = rooms.db().queue(table, now.saturating_sub(STALE_MS), now.saturating_sub(DONE_MS)).await?;
    let mut left = queue.len() as u32;
    if queue.is_empty() {
        return Ok(left);
    }
    let rules = MatchRules { seats: quick_rules(table).players as usize, fill_after_ms };
    for found in match_queue(&queue, rules, now) {
        let code = rooms.unused_code().await?;
        let tickets = found.players.iter().map(|p| p.ticket.clone()).collect();
        // Claimed first, so that a player another node seated meanwhile is never seated twice.
        if rooms.db().claim_tickets(tickets, &code, found.bots).await? {
            left -= found.players.len() as u32;
            set_up(rooms, code, table, &found).await?;
        }
    }
    Ok(left)
}

/// Creates the matched table's room: the players in queue order, bots in the other seats, the first
/// deal offered (it waits for the players' nonces as they arrive).
async fn set_up(rooms: &Rooms, code: RoomCode, table: TableType, found: &Table) -> Result<(), MatchError> {
    let host = &found.players[0].name;
    let code = rooms.create_as(code, quick_rules(table), Mode::Quick, host).await?;
    for player in &found.players {
        rooms.seat(&code, &player.name).await?;
    }
    if found.bots > 0 {
        rooms.request(&code, Request::AddBots { level: fill_level(table, found) }).await?;
    }
    rooms.request(&code, Request::Start).await?;
    tracing::info!(room = %code, ?table, players = found.players.len(), bots = found.bots, "quick match seated");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::matching::Waiting;

    fn table_of(ratings: &[f64]) -> Table {
        let players = ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| Waiting {
                ticket: i.to_string(),
                name: crate::domain::names::PlayerName::parse(&format!("P{i}")).unwrap(),
                rating,
                since: 0,
                address: None,
            })
            .collect();
        Table { players, bots: 3 - ratings.len() }
    }

    #[test]
    fn bots_that_fill_a_table_match_the_players_rating() {
        let family = TableType::House;
        let points = |kind| f64::from(bot_skill(kind, family).points());
        assert_eq!(fill_level(TableType::House, &table_of(&[points(BotKind::Normal)])), BotKind::Normal);
        assert_eq!(fill_level(TableType::House, &table_of(&[points(BotKind::Hard) + 200.0])), BotKind::Hard);
        assert_eq!(fill_level(TableType::House, &table_of(&[points(BotKind::Easy)])), BotKind::Easy);
        assert_eq!(fill_level(TableType::House, &table_of(&[points(BotKind::Beginner) - 300.0])), BotKind::Beginner);
        let between = (points(BotKind::Easy) + points(BotKind::Hard)) / 2.0;
        assert_eq!(fill_level(TableType::House, &table_of(&[between - 50.0, between + 50.0])), BotKind::Normal);
    }
}
