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

/// The matcher on paused time: an in-memory database, the matcher looking every [`TICK`], the clock moved
/// only by `tokio::time::advance`, so that each test says exactly when a table is made.
#[cfg(test)]
mod paused_tests {
    use super::*;
    use crate::clock::Clock;
    use crate::clock::paused::{self, settle};
    use crate::domain::names::PlayerName;
    use crate::room::Timing;
    use crate::store::Db;
    use crate::wire::protocol::RoomView;

    const T0: u64 = 1_900_000_000_000;
    /// How far the clock moves between two looks at the tickets.
    const STEP: u64 = 50;

    struct Queue {
        rooms: Rooms,
        waiting: Waiting,
        _held: std::sync::mpsc::Sender<()>,
    }

    impl Queue {
        /// A server's rooms with the matcher running, bots filling after `fill_after_ms`.
        async fn open(fill_after_ms: u64) -> Queue {
            let held = paused::hold();
            let db = Db::open("sqlite::memory:").await.expect("a database");
            let rooms = Rooms::new(db, Clock::starting_at(T0), Timing::default());
            let waiting = Waiting::default();
            spawn(rooms.clone(), fill_after_ms, waiting.clone());
            Queue { rooms, waiting, _held: held }
        }

        /// `name` joins `table`'s queue: the ticket.
        async fn join(&self, name: &str, table: TableType) -> String {
            let name = PlayerName::parse(name).expect("a name");
            let joined = self.rooms.db().join_queue(&name, table, 1500.0, None, self.rooms.now_ms()).await;
            joined.expect("queued").ticket
        }

        /// The ticket's room, once it has one (polled as the page polls it, which keeps it in the queue).
        async fn room(&self, ticket: &str) -> Option<RoomCode> {
            let polled = self.rooms.db().poll_ticket(ticket, self.rooms.now_ms()).await.expect("the ticket reads");
            polled.expect("a known ticket").room
        }

        /// Moves the clock on `ms`, a step at a time, polling `tickets` (as their pages do) at each.
        async fn pass(&self, ms: u64, tickets: &[&str]) {
            for _ in 0..ms / STEP {
                for ticket in tickets {
                    self.room(ticket).await;
                }
                tokio::time::advance(Duration::from_millis(STEP)).await;
                settle().await;
            }
        }

        async fn view(&self, code: &RoomCode) -> RoomView {
            self.rooms.view(code).await.expect("the room is there")
        }
    }

    fn tick_ms() -> u64 {
        TICK.as_millis() as u64
    }

    #[tokio::test(start_paused = true)]
    async fn three_waiting_for_house_sit_down_together_at_the_next_look() {
        let queue = Queue::open(10_000).await;
        let tickets = [queue.join("Ann", TableType::House).await, queue.join("Bea", TableType::House).await];
        queue.pass(2 * tick_ms(), &[&tickets[0], &tickets[1]]).await;
        assert_eq!(queue.room(&tickets[0]).await, None, "two are no table");
        assert_eq!(queue.waiting.get(TableType::House), 2);
        let cy = queue.join("Cy", TableType::House).await;
        queue.pass(2 * tick_ms(), &[]).await;
        let room = queue.room(&cy).await.expect("a table within two looks");
        for ticket in &tickets {
            assert_eq!(queue.room(ticket).await.as_ref(), Some(&room), "one table for the three");
        }
        let view = queue.view(&room).await;
        assert_eq!(view.mode, Mode::Quick);
        assert!(view.seats.iter().all(|s| s.occupant.as_ref().is_some_and(|o| !o.is_bot())), "no bot among three");
        assert_eq!(queue.waiting.get(TableType::House), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_player_alone_waits_out_the_fill_time_then_gets_bots() {
        let fill = 10_000;
        let queue = Queue::open(fill).await;
        let ann = queue.join("Ann", TableType::NoShuffle).await;
        queue.pass(fill - tick_ms(), &[&ann]).await;
        assert_eq!(queue.room(&ann).await, None, "not before the wait is out");
        queue.pass(3 * tick_ms(), &[&ann]).await;
        let room = queue.room(&ann).await.expect("bots once the wait is out");
        let view = queue.view(&room).await;
        let bots = view.seats.iter().filter(|s| s.occupant.as_ref().is_some_and(|o| o.is_bot())).count();
        assert_eq!(bots, 2, "{:?}", view.seats);
        assert!(view.offer.is_some() || view.deal.is_some(), "the first deal is offered at once");
    }

    #[tokio::test(start_paused = true)]
    async fn players_of_different_table_types_are_never_seated_together() {
        let queue = Queue::open(60_000).await;
        let ann = queue.join("Ann", TableType::House).await;
        let bea = queue.join("Bea", TableType::NoShuffle).await;
        let cy = queue.join("Cy", TableType::House).await;
        queue.pass(2 * tick_ms(), &[&ann, &bea, &cy]).await;
        assert_eq!(queue.room(&ann).await, None, "three waiting, but of two table types");
        let dan = queue.join("Dan", TableType::House).await;
        queue.pass(2 * tick_ms(), &[&bea]).await;
        let room = queue.room(&dan).await.expect("the third House player makes a table");
        assert_eq!((queue.room(&ann).await, queue.room(&cy).await), (Some(room.clone()), Some(room)));
        assert_eq!(queue.room(&bea).await, None);
        assert_eq!((queue.waiting.get(TableType::House), queue.waiting.get(TableType::NoShuffle)), (0, 1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_ticket_nobody_polls_leaves_the_queue_after_its_time() {
        let queue = Queue::open(10 * 60_000).await;
        let gone = queue.join("Ann", TableType::TwoPlayer).await;
        let kept = queue.join("Bea", TableType::NoShuffle).await;
        queue.pass(STALE_MS - tick_ms(), &[&kept]).await;
        assert_eq!(queue.waiting.get(TableType::TwoPlayer), 1, "not before its time");
        queue.pass(3 * tick_ms(), &[&kept]).await;
        assert_eq!(queue.waiting.get(TableType::TwoPlayer), 0, "a closed tab's ticket is dropped");
        assert_eq!(queue.waiting.get(TableType::NoShuffle), 1, "a polled ticket stays");
        let polled = queue.rooms.db().poll_ticket(&gone, queue.rooms.now_ms()).await.expect("the queue reads");
        assert_eq!(polled, None, "the ticket is no more");
    }
}
