//! The room clocks with tokio's paused time, driving a room task over channels (no sockets): a
//! timed-out turn is played by the bot, bots wait a human-feeling moment, and No Shuffle and Two Player
//! deals end with no winner at the deal limit.

use crate::common;

use std::time::Duration;

use common::temp_db;
use ddz_engine::{End, Rules};
use ddz_server::Clock;
use ddz_server::Db;
use ddz_server::PlayerName;
use ddz_server::Rooms;
use ddz_server::protocol::RoomView;
use ddz_server::{FromClient, Hello, Msg, Outbound, Request, RoomCode, Timing};
use ddz_server::{LogLine, Mode};
use tokio::sync::{mpsc, oneshot};

struct Table {
    rooms: Rooms,
    code: RoomCode,
    events: mpsc::Receiver<Outbound>,
}

/// The clocks as in play, except that deals start from the server's seed alone (the wait for the players'
/// nonces has its own tests, in tests/nonces.rs).
const CLOCKS: Timing = Timing { nonce_ms: 0, ..Timing::DEFAULT };

/// A room with Alice (connected over a channel), Bea and Cy seated; the first deal started.
async fn table(name: &str, rules: Rules) -> Table {
    timed_table(name, rules, CLOCKS).await
}

async fn timed_table(name: &str, rules: Rules, timing: Timing) -> Table {
    let (rooms, code) = seated_room(name, rules, timing, 1_000_000).await;
    let events = connect(&rooms, &code, 1, "Alice").await;
    rooms.request(&code, Request::Start).await.unwrap();
    Table { rooms, code, events }
}

/// An invite room hosted by Alice, with Alice, Bea and Cy seated (as many as the table has seats), on a
/// clock that reads `clock_ms` now.
async fn seated_room(name: &str, rules: Rules, timing: Timing, clock_ms: u64) -> (Rooms, RoomCode) {
    let db = Db::open(&format!("sqlite://{}", temp_db(name).display())).await.unwrap();
    let rooms = Rooms::new(db, Clock::starting_at(clock_ms), timing);
    let code = rooms.create(rules, Mode::Invite, &player("Alice")).await.unwrap();
    for who in ["Alice", "Bea", "Cy"].into_iter().take(rules.players as usize) {
        rooms.seat(&code, &player(who)).await.unwrap();
    }
    (rooms, code)
}

fn player(name: &str) -> PlayerName {
    PlayerName::parse(name).unwrap()
}

/// Connection `conn`'s hello as `name`.
fn hello(conn: u64, name: &str) -> Hello {
    let name = Some(player(name));
    Hello { conn, name, token: None, opened_ms: 0, origin: Default::default() }
}

/// Connects `name` to the room over a channel; returns the events it receives.
async fn connect(rooms: &Rooms, code: &RoomCode, conn: u64, name: &str) -> mpsc::Receiver<Outbound> {
    let (out, events) = mpsc::channel(4096);
    let (reply, answer) = oneshot::channel();
    let inbox = rooms.inbox(code).await.unwrap().unwrap();
    inbox.send(Msg::Connect { hello: hello(conn, name), out, reply }).await.unwrap();
    answer.await.unwrap().unwrap();
    events
}

impl Table {
    async fn view(&self) -> RoomView {
        self.rooms.view(&self.code).await.unwrap()
    }

    fn drain(&mut self) -> usize {
        let mut n = 0;
        while self.events.try_recv().is_ok() {
            n += 1;
        }
        n
    }
}

/// Lets the room task run everything that is due without moving the game clock. The database answers
/// from its own thread in real time, and bots think on blocking threads in real time, so this also gives
/// them real milliseconds (blocking the runtime, so that paused time cannot auto-advance meanwhile): until
/// none of this server's bots was thinking before or after a round. (Its own pool's count: the tests of
/// this file run side by side, and another test's bots must not hold this one up.)
async fn settle(rooms: &Rooms) {
    let pool = rooms.pool();
    for _ in 0..100 {
        let thinking = pool.in_flight() > 0;
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(2));
            tokio::task::yield_now().await;
        }
        if !thinking && pool.in_flight() == 0 {
            return;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_turn_is_played_by_the_bot_after_40_seconds() {
    let mut t = table("turn-clock", Rules::no_shuffle(false)).await;
    let before = t.view().await;
    let deal = before.deal.clone().unwrap();
    assert_eq!(before.turn_deadline, Some(1_000_000 + 40_000), "the deadline is visible to clients");
    assert_eq!(deal.actions.len(), 0);
    tokio::time::advance(Duration::from_secs(39)).await;
    settle(&t.rooms).await;
    assert_eq!(t.view().await.deal.unwrap().actions.len(), 0, "nothing happens before the 40 seconds are up");
    t.drain();
    tokio::time::advance(Duration::from_secs(2)).await;
    settle(&t.rooms).await;
    let after = t.view().await;
    assert_eq!(after.deal.unwrap().actions.len(), 1, "the bot played the timed-out turn");
    assert_eq!(after.timed_out, [0], "the deal's log can mark the action the clock played");
    assert!(after.log.iter().any(|l| matches!(l, LogLine::TimedOut { .. })), "{:?}", after.log);
    assert!(t.drain() > 0, "the change was broadcast");
}

#[tokio::test(start_paused = true)]
async fn bots_act_after_half_a_second_to_a_second_and_a_half() {
    let db = Db::open(&format!("sqlite://{}", temp_db("bot-delay").display())).await.unwrap();
    let rooms = Rooms::new(db, Clock::starting_at(5_000_000), CLOCKS);
    let code = rooms.create(Rules::house(true), Mode::Bots, &player("Alice")).await.unwrap();
    rooms.request(&code, Request::AddBots { level: ddz_bot::BotKind::Normal }).await.unwrap();
    rooms.request(&code, Request::Start).await.unwrap();
    let actions = |v: &RoomView| v.deal.as_ref().unwrap().actions.len();
    assert_eq!(actions(&rooms.view(&code).await.unwrap()), 0);
    tokio::time::advance(Duration::from_millis(499)).await;
    settle(&rooms).await;
    assert_eq!(actions(&rooms.view(&code).await.unwrap()), 0, "no bot acts within half a second");
    tokio::time::advance(Duration::from_millis(1001)).await;
    settle(&rooms).await;
    assert!(actions(&rooms.view(&code).await.unwrap()) >= 1, "a bot acted within a second and a half");
}

#[tokio::test(start_paused = true)]
async fn no_shuffle_and_two_player_deals_end_with_no_winner_at_five_minutes() {
    for (name, rules) in [("limit-ns", Rules::no_shuffle(false)), ("limit-tp", Rules::two_player(true))] {
        // Slow players (a ten-minute turn clock here, so no bot plays for them): at five minutes the deal
        // ends with no winner.
        let timing = Timing { turn_ms: 600_000, ..CLOCKS };
        let t = timed_table(name, rules, timing).await;
        let view = t.view().await;
        assert_eq!(view.deal_deadline, Some(1_000_000 + 300_000));
        tokio::time::advance(Duration::from_secs(299)).await;
        settle(&t.rooms).await;
        assert!(t.view().await.deal.unwrap().result.is_none(), "not before five minutes");
        tokio::time::advance(Duration::from_secs(2)).await;
        settle(&t.rooms).await;
        let result = t.view().await.deal.unwrap().result.expect("the deal ended");
        assert_eq!(result.end, End::DealLimit, "{result:?}");
        assert_eq!(result.winner, None);
        assert!(result.score.iter().all(|&s| s == 0), "no score");
    }
}

#[tokio::test(start_paused = true)]
async fn house_deals_have_no_deal_limit() {
    let t = table("no-limit", Rules::house(true)).await;
    assert_eq!(t.view().await.deal_deadline, None);
    for _ in 0..12 {
        tokio::time::advance(Duration::from_secs(40)).await;
        settle(&t.rooms).await;
    }
    let deal = t.view().await.deal.unwrap();
    assert!(deal.result.is_none_or(|r| r.end != End::DealLimit), "House deals never hit a deal limit");
    assert!(deal.actions.len() >= 8, "the bot kept covering turns");
}

#[tokio::test(start_paused = true)]
async fn a_host_away_for_two_minutes_between_deals_hands_the_role_to_a_connected_player() {
    let (rooms, code) = seated_room("host-away", Rules::house(true), CLOCKS, 9_000_000).await;
    // Alice (the host) leaves; Bea is connected.
    let _bea_events = connect(&rooms, &code, 1, "Bea").await;
    let _alice_events = connect(&rooms, &code, 2, "Alice").await;
    tokio::time::advance(Duration::from_secs(300)).await;
    settle(&rooms).await;
    assert_eq!(rooms.view(&code).await.unwrap().host, "Alice", "a connected host stays host");
    let inbox = rooms.inbox(&code).await.unwrap().unwrap();
    inbox.send(Msg::Client(FromClient::Disconnect { conn: 2 })).await.unwrap();
    settle(&rooms).await;
    tokio::time::advance(Duration::from_secs(119)).await;
    settle(&rooms).await;
    assert_eq!(rooms.view(&code).await.unwrap().host, "Alice", "not before two minutes");
    tokio::time::advance(Duration::from_secs(2)).await;
    settle(&rooms).await;
    let view = rooms.view(&code).await.unwrap();
    assert_eq!(view.host, "Bea", "the connected player took over");
    assert!(view.log.iter().any(|l| l.to_string() == "Alice was away, so Bea is the host now"), "{:?}", view.log);
    // The new host can deal.
    rooms.request(&code, Request::Start).await.unwrap();
    assert!(rooms.view(&code).await.unwrap().deal.is_some());
}

#[tokio::test(start_paused = true)]
async fn a_connected_host_keeps_the_role_between_deals() {
    let mut t = table("host-here", Rules::house(true)).await;
    let _bea_events = connect(&t.rooms, &t.code, 2, "Bea").await;
    // Nobody acts: the bot covers every turn until the deal ends; then five minutes pass between deals.
    for _ in 0..80 {
        tokio::time::advance(Duration::from_secs(41)).await;
        settle(&t.rooms).await;
        t.drain();
    }
    let view = t.view().await;
    assert!(view.deal.unwrap().result.is_some(), "the deal ended");
    assert_eq!(view.host, "Alice", "a connected host stays host");
    assert!(!view.log.iter().any(|l| matches!(l, LogLine::HostChanged { .. })), "{:?}", view.log);
}

#[tokio::test(start_paused = true)]
async fn an_unfinished_rally_expires_an_hour_after_its_day_and_counts_as_abandoned() {
    use ddz_server::ChallengeKind;
    let db = Db::open(&format!("sqlite://{}", temp_db("rally-expiry").display())).await.unwrap();
    // 2026-11-29 23:30 UTC.
    let rooms = Rooms::new(db.clone(), Clock::starting_at(1_795_995_000_000), CLOCKS);
    let (code, resumed) =
        rooms.start_challenge(ChallengeKind::Rally, &PlayerName::parse("Ann").unwrap()).await.unwrap().unwrap();
    assert!(!resumed);
    let view = rooms.view(&code).await.unwrap();
    assert_eq!(view.challenge.unwrap().rally.as_deref(), Some("2026-11-29"));
    // Ann never plays: the bots cover her turns, the deal ends, and nobody deals the next one. At 01:00 on
    // the next day the rally expires.
    tokio::time::advance(Duration::from_secs(89 * 60)).await;
    for _ in 0..200 {
        settle(&rooms).await;
    }
    assert!(!rooms.view(&code).await.unwrap().closed, "still playable in the hour of grace");
    tokio::time::advance(Duration::from_secs(2 * 60)).await;
    for _ in 0..20 {
        settle(&rooms).await;
    }
    let view = rooms.view(&code).await.unwrap();
    assert!(view.closed, "the rally expired");
    assert!(view.log.iter().any(|l| l.to_string().starts_with("Ann abandoned the run")), "{:?}", view.log);
    let board = db.challenge_board(ChallengeKind::Rally, Some("2026-11-29".into())).await.unwrap();
    assert_eq!(board.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["Ann"]);
}

#[tokio::test(start_paused = true)]
async fn the_host_role_never_changes_hands_during_a_deal() {
    let (rooms, code) = seated_room("host-in-deal", Rules::house(true), CLOCKS, 7_000_000).await;
    let _bea_events = connect(&rooms, &code, 1, "Bea").await;
    rooms.request(&code, Request::Start).await.unwrap();
    // Alice is away for five minutes, but the deal is still being played (the bot covers 40-second turns).
    for _ in 0..10 {
        tokio::time::advance(Duration::from_secs(30)).await;
        settle(&rooms).await;
    }
    let view = rooms.view(&code).await.unwrap();
    assert!(view.deal.unwrap().result.is_none(), "the deal is still on");
    assert_eq!(view.host, "Alice");
}
