//! The driver on paused time: a desk, its rooms and an in-memory (or file) database, the clock moved only by
//! `tokio::time::advance`. The players registered never connect, so the bot plays their turns once they are
//! away; each test reads the event's log as the driver left it.

use std::time::Duration;

use ddz_engine::TableType;

use super::{Creating, Desk};
use crate::clock::Clock;
use crate::clock::paused::{self, settle};
use crate::domain::names::PlayerName;
use crate::domain::tournament::{Entry, Format, Phase, SettingsDraft, Stage, Tournament};
use crate::room::Timing;
use crate::rooms::Rooms;
use crate::store::Db;

const T0: u64 = 1_900_000_000_000;
/// When the events start: ten seconds in.
const STARTS_AT: u64 = T0 + 10_000;
/// Bots play at once; an absent player is away after 100 ms; tables deal again half a second after a deal.
const QUICK: Timing = Timing {
    turn_ms: 5_000,
    deal_limit_ms: 300_000,
    bot_min_ms: 5,
    bot_span_ms: 5,
    host_away_ms: 120_000,
    idle_ms: 600_000,
    nonce_ms: 0,
    match_fill_ms: 10_000,
    away_ms: 100,
    between_deals_ms: 500,
};
/// How far the clock moves between two looks at the event.
const STEP: Duration = Duration::from_millis(50);

/// A server's desk on `db`, its looks and drivers running.
struct Site {
    desk: Desk,
    rooms: Rooms,
    _held: std::sync::mpsc::Sender<()>,
}

impl Site {
    async fn open(db: Db, now: u64) -> Site {
        let held = paused::hold();
        let rooms = Rooms::new(db, Clock::starting_at(now), QUICK);
        rooms.restore().await.expect("the rooms are restored");
        let desk = Desk::new(rooms.clone(), Vec::new());
        desk.clone().spawn();
        Site { desk, rooms, _held: held }
    }

    /// A scheduled No Shuffle event: one chip round of one deal down to `until`, rounds of one deal after.
    async fn scheduled(&self, until: usize) -> String {
        let settings = SettingsDraft {
            line_every: 1,
            chip_rounds: 1,
            chip_rounds_until: until,
            deals_per_round: 1,
            final_deals: 1,
            ..SettingsDraft::default_for(TableType::NoShuffle, 9)
        };
        let creating = Creating {
            host: name("Host"),
            title: Some("Driven".into()),
            format: Format::Scheduled { starts_at: STARTS_AT, bots_fill: false },
            settings,
        };
        self.desk.create(creating, None).await.expect("created").expect("a fresh id")
    }

    async fn register(&self, id: &str, players: usize) {
        for i in 0..players {
            self.desk.register(id, &name(&format!("P{i}")), Some(format!("10.0.0.{i}"))).await.expect("registered");
        }
    }

    /// Moves the clock on, a step at a time, until the event is as `until` wants it (five virtual minutes
    /// at most): the event then.
    async fn until(&self, id: &str, what: &str, until: impl Fn(&Tournament) -> bool) -> Tournament {
        for _ in 0..(300_000 / STEP.as_millis()) {
            let now = self.desk.read(id, |t| until(t).then(|| t.clone())).await.expect("the event reads");
            if let Some(tournament) = now {
                return tournament;
            }
            tokio::time::advance(STEP).await;
            settle().await;
        }
        panic!("{what}: not within five minutes");
    }

    /// The event's log, as stored.
    async fn log(&self, id: &str) -> Vec<Entry> {
        let log = self.rooms.db().tournament_log(id, 0).await.expect("the log reads");
        log.into_iter().map(|stamped| stamped.entry).collect()
    }
}

fn name(name: &str) -> PlayerName {
    PlayerName::parse(name).expect("a good name")
}

/// The entries of the log that `keep` picks.
fn entries<T>(log: &[Entry], keep: impl Fn(&Entry) -> Option<T>) -> Vec<T> {
    log.iter().filter_map(keep).collect()
}

#[tokio::test(start_paused = true)]
async fn a_round_closes_once_its_tables_have_played_and_the_next_round_seats_the_players_who_go_on() {
    let site = Site::open(Db::open("sqlite::memory:").await.expect("a database"), T0).await;
    let id = site.scheduled(3).await;
    site.register(&id, 9).await;

    let started = site.until(&id, "the start", |t| t.phase == Phase::Running && !t.rounds.is_empty()).await;
    assert_eq!(started.rounds[0].tables.len(), 3, "nine players: three tables");
    assert!(started.started_at.is_some_and(|at| at >= STARTS_AT), "not before its time");

    let over = site.until(&id, "the podium", |t| t.phase == Phase::Finished).await;
    let log = site.log(&id).await;
    let closed = entries(&log, |e| matches!(e, Entry::RoundClosed { .. }).then_some(()));
    assert_eq!(closed.len(), 2, "the chip round and the final closed: {log:?}");
    // Each table's one deal counted once, and only after it was played.
    let counted = entries(&log, |e| match e {
        Entry::DealCounted { code, number, .. } => Some((code.clone(), *number)),
        _ => None,
    });
    assert_eq!(counted.len(), 4, "three tables' deal and the final's: {counted:?}");
    let final_round = over.rounds.last().expect("the final");
    assert_eq!(final_round.stage, Stage::Final);
    assert_eq!(final_round.tables.len(), 1);
    // The final seats exactly the three who were not out after the chip round.
    let mut finalists: Vec<usize> = final_round.tables[0].players.clone();
    finalists.sort_unstable();
    let went_on: Vec<usize> = (0..9).filter(|&i| over.entrants[i].out != Some(1)).collect();
    assert_eq!(finalists, went_on, "{:?}", over.entrants);
    assert!(over.rounds.iter().all(|r| r.closed && r.tables.iter().all(|t| t.counted == r.deals)));
}

#[tokio::test(start_paused = true)]
async fn a_start_gives_the_latest_registrations_byes_and_seats_the_rest_at_whole_tables() {
    let site = Site::open(Db::open("sqlite::memory:").await.expect("a database"), T0).await;
    let id = site.scheduled(3).await;
    site.register(&id, 11).await;

    let started = site.until(&id, "the start", |t| !t.rounds.is_empty()).await;
    assert_eq!(started.byes, ["P9", "P10"], "the two registered last sit out");
    let round = &started.rounds[0];
    assert_eq!(round.tables.len(), 3);
    let mut seated: Vec<&str> =
        round.tables.iter().flat_map(|t| t.players.iter().map(|&i| started.entrants[i].name.as_str())).collect();
    seated.sort_unstable();
    assert_eq!(seated, ["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]);
    // Their tables are rooms already, with the drawn players in their seats.
    for table in &round.tables {
        let view = site.rooms.view(&table.code).await.expect("the table's room");
        let names: Vec<String> =
            view.seats.iter().filter_map(|s| s.occupant.as_ref().map(|o| o.name().to_string())).collect();
        let drawn: Vec<String> = table.players.iter().map(|&i| started.entrants[i].name.clone()).collect();
        assert_eq!(names, drawn, "{}", table.code);
    }
}

#[tokio::test(start_paused = true)]
async fn a_driver_that_stops_mid_round_hands_the_event_to_the_next_and_every_table_plays_its_deals_once() {
    let file = std::env::temp_dir().join(format!("ddz-driver-hand-over-{}.db", std::process::id()));
    let url = format!("sqlite://{}?mode=rwc", file.display());
    let first = Site::open(Db::open(&url).await.expect("a database"), T0).await;
    let id = first.scheduled(3).await;
    first.register(&id, 9).await;
    first.until(&id, "the start", |t| !t.rounds.is_empty()).await;
    let stopped_at = first.rooms.now_ms();
    first.rooms.shutdown().await;
    drop(first);

    // The next server on the same database takes the event on where the log left it.
    let next = Site::open(Db::open(&url).await.expect("the database again"), stopped_at).await;
    let over = next.until(&id, "the podium", |t| t.phase == Phase::Finished).await;
    let log = next.log(&id).await;
    let mut counted = entries(&log, |e| match e {
        Entry::DealCounted { code, number, .. } => Some((code.clone(), *number)),
        _ => None,
    });
    let all = counted.len();
    counted.sort();
    counted.dedup();
    assert_eq!(all, counted.len(), "no deal counted twice: {log:?}");
    let seatings = entries(&log, |e| matches!(e, Entry::Seated { .. }).then_some(()));
    assert_eq!(seatings.len(), 2, "the first round was not seated again: {log:?}");
    for round in &over.rounds {
        for table in &round.tables {
            assert_eq!(table.counted, round.deals, "{}", table.code);
            let stored = next.rooms.db().deal_record(&table.code, round.deals + 1).await.expect("the store reads");
            assert!(stored.is_none(), "{} played no deal beyond its round's", table.code);
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
}
