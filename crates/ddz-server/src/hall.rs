//! The hall's live state (`GET /api/hall` and the `watch_hall` socket, docs/protocol.md): who is online,
//! the tables in play, quick match's queues and tables, the tournaments open and running, the public tables.
//! Kept in memory and put together once a second from what this node already holds, never read from the
//! database per view: the rooms' summaries (every node's, in cluster mode), the matcher's last look at the
//! queues, the tournament driver's folds, and the sockets open here and (cluster mode) on the other nodes,
//! which each node announces on `ddz.pulse`.
//!
//! A view costs a copy of the last answer (`GET`), and a watcher is sent the hall only when something in
//! it changed: its JSON is written once per change, whoever watches.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use ddz_engine::TableType;
use tokio::sync::watch;

use crate::background::First;
use crate::cluster::Cluster;
use crate::domain::challenge::utc_date;
use crate::domain::room::{Mode, RoomCode};
use crate::matching::Waiting;
use crate::rooms::{Rooms, public_tables};
use crate::tournaments::Desk;
use crate::wire::pages::{HALL_RUNNING, Hall, QuickLine, Summary, TournamentSummary};
use crate::wire::protocol::Event;

/// How often the hall is put together.
const EVERY: Duration = Duration::from_secs(1);
/// The tournaments taking registrations the hall lists, at most.
const HALL_OPEN: usize = 24;

/// The hall as it was last put together: the answer to `GET /api/hall`, and the `hall` event watchers
/// were last sent (which changes only when the hall does).
#[derive(Clone)]
pub struct HallState {
    sockets: Arc<AtomicU32>,
    answer: watch::Receiver<Bytes>,
    pushed: watch::Receiver<Arc<str>>,
}

impl HallState {
    /// Counts a socket open on this node until the guard is dropped.
    pub fn socket(&self) -> SocketGuard {
        self.sockets.fetch_add(1, Ordering::Relaxed);
        SocketGuard(self.sockets.clone())
    }

    /// The last answer to `GET /api/hall` (at most a second old).
    pub fn answer(&self) -> Bytes {
        self.answer.borrow().clone()
    }

    /// The `hall` event, now and whenever the hall changes.
    pub fn watch(&self) -> watch::Receiver<Arc<str>> {
        self.pushed.clone()
    }
}

/// One open socket, counted while it lives.
pub struct SocketGuard(Arc<AtomicU32>);

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Where the hall's parts come from.
struct Sources {
    rooms: Rooms,
    waiting: Waiting,
    desk: Desk,
    cluster: Option<Cluster>,
    sockets: Arc<AtomicU32>,
}

impl Sources {
    /// The hall now.
    fn hall(&self) -> Hall {
        let now = self.rooms.now_ms();
        let here = self.sockets.load(Ordering::Relaxed);
        let online = match &self.cluster {
            Some(cluster) => {
                cluster.announce_sockets(here, &self.rooms.background());
                here + cluster.others_sockets()
            }
            None => here,
        };
        let (open, running) = self.desk.open_summaries();
        let summaries = self.rooms.watch_lobby();
        let summaries = summaries.borrow();
        hall_of(now, online, &summaries, &self.waiting, open, running)
    }
}

/// The hall from its parts: the rooms' summaries, quick match's queues, the open tournaments' summaries.
fn hall_of(
    now: u64,
    online: u32,
    summaries: &HashMap<RoomCode, Summary>,
    waiting: &Waiting,
    mut open: Vec<TournamentSummary>,
    mut running: Vec<TournamentSummary>,
) -> Hall {
    let in_play = summaries.values().filter(|s| s.in_deal && !s.closed);
    let quick = TableType::ALL
        .into_iter()
        .map(|table| QuickLine {
            table,
            waiting: waiting.get(table),
            playing: in_play
                .clone()
                .filter(|s| s.mode == Mode::Quick && s.rules.table == table)
                .map(|s| s.people)
                .sum(),
        })
        .collect();
    open.sort_by_key(|t| (t.starts_at.unwrap_or(u64::MAX), t.created_at, t.id.clone()));
    open.truncate(HALL_OPEN);
    running.sort_by_key(|t| (std::cmp::Reverse(t.started_at), t.id.clone()));
    running.truncate(HALL_RUNNING);
    Hall {
        now,
        online,
        playing: in_play.count() as u32,
        quick,
        tournaments: open,
        running,
        tables: public_tables(summaries),
        today: utc_date(now),
    }
}

/// Starts putting the hall together every [`EVERY`], until the server stops.
pub fn spawn(rooms: Rooms, waiting: Waiting, desk: Desk, cluster: Option<Cluster>) -> HallState {
    let sources = Sources { rooms, waiting, desk, cluster, sockets: Arc::default() };
    let first = sources.hall();
    let (answer_tx, answer) = watch::channel(answer_of(&first));
    let (pushed_tx, pushed) = watch::channel(event_of(&first));
    let state = HallState { sockets: sources.sockets.clone(), answer, pushed };
    let mut last = first;
    sources.rooms.background().every(EVERY, First::AfterOnePeriod, move || {
        let hall = sources.hall();
        answer_tx.send_replace(answer_of(&hall));
        if (Hall { now: last.now, ..hall.clone() }) != last {
            pushed_tx.send_replace(event_of(&hall));
            last = hall;
        }
        async { true }
    });
    state
}

fn answer_of(hall: &Hall) -> Bytes {
    Bytes::from(serde_json::to_vec(hall).expect("the hall serialises"))
}

fn event_of(hall: &Hall) -> Arc<str> {
    serde_json::to_string(&Event::Hall { hall: Box::new(hall.clone()) }).expect("events serialise").into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tournament::{Format, Phase};

    fn table(code: &str, mode: Mode, table: TableType, in_deal: bool, people: u32) -> Summary {
        Summary {
            code: RoomCode::from(code),
            mode,
            rules: crate::matching::quick_rules(table).table_rules(),
            seats: vec![Some("A".into()), Some("B".into()), None],
            people,
            deals_played: 0,
            in_deal,
            closed: false,
        }
    }

    fn event(id: &str, phase: Phase, starts_at: Option<u64>, started_at: Option<u64>) -> TournamentSummary {
        TournamentSummary {
            id: id.into(),
            title: String::new(),
            host: "Organiser".into(),
            recurring: true,
            table: TableType::House,
            format: Format::SitAndGo { size: 9, bots_after_ms: Some(60_000) },
            phase,
            created_at: 1,
            starts_at,
            started_at,
            finished_at: None,
            entrants: 1,
            left: 1,
            round: None,
            stage: None,
            podium: Vec::new(),
        }
    }

    #[test]
    fn the_hall_counts_tables_in_play_and_people_at_quick_tables_by_table_type() {
        let summaries = [
            table("Q1", Mode::Quick, TableType::House, true, 2),
            table("Q2", Mode::Quick, TableType::House, true, 3),
            table("Q3", Mode::Quick, TableType::House, false, 3),
            table("Q4", Mode::Quick, TableType::TwoPlayer, true, 1),
            table("P1", Mode::Public, TableType::House, false, 2),
            table("B1", Mode::Bots, TableType::House, true, 1),
        ];
        let waiting = Waiting::default();
        waiting.set(TableType::NoShuffle, 4);
        let summaries = summaries.into_iter().map(|s| (s.code.clone(), s)).collect();
        let hall = hall_of(1_796_000_000_000, 7, &summaries, &waiting, Vec::new(), Vec::new());
        assert_eq!(hall.playing, 4, "every table with a deal in play, of any mode");
        let quick: Vec<(TableType, u32, u32)> = hall.quick.iter().map(|q| (q.table, q.waiting, q.playing)).collect();
        assert_eq!(quick, [(TableType::House, 0, 5), (TableType::NoShuffle, 4, 0), (TableType::TwoPlayer, 0, 1)]);
        assert_eq!(hall.tables.iter().map(|t| t.code.as_str()).collect::<Vec<_>>(), ["P1"], "the lobby's tables");
        assert_eq!((hall.online, hall.today.as_str()), (7, "2026-11-30"));
    }

    #[test]
    fn the_hall_lists_the_soonest_tournaments_first_and_the_latest_started() {
        let open = vec![
            event("later", Phase::Registering, Some(300), None),
            event("nobody-yet", Phase::Registering, None, None),
            event("soon", Phase::Registering, Some(100), None),
        ];
        let running = vec![event("old", Phase::Running, None, Some(5)), event("new", Phase::Running, None, Some(9))];
        let hall = hall_of(0, 0, &HashMap::new(), &Waiting::default(), open, running);
        let ids = |list: &[TournamentSummary]| list.iter().map(|t| t.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&hall.tournaments), ["soon", "later", "nobody-yet"]);
        assert_eq!(ids(&hall.running), ["new", "old"]);
    }
}
