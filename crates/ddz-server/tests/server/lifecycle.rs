//! The server's lifecycle over real sockets: heartbeats drop silent clients, resume tokens replace a
//! connection, a graceful stop tells every client and ends every room task, idle rooms retire and come
//! back with exactly one task, a failing database backs off and shows on `/readyz`, and `/metrics`.

use crate::common;

use std::time::Duration;

use common::*;
use ddz_server::Heartbeat;
use ddz_server::Timing;
use ddz_server::protocol::{ErrorCode, Event};
use ddz_server::{Hello, Msg, Outbound, PlayerName, RoomCode};
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

const QUICK_HEARTBEAT: Heartbeat =
    Heartbeat { every: Duration::from_millis(100), silent_after: Duration::from_millis(400) };

fn connected(view: &ddz_server::protocol::RoomView, seat: usize) -> bool {
    view.seats[seat].connected
}

#[tokio::test]
async fn a_client_that_stops_answering_pings_is_dropped_and_shows_disconnected() {
    let db = temp_db("heartbeat-silent");
    let running = server_with(&db, FAST, QUICK_HEARTBEAT).await;
    let code = invite_room(running.addr, "Ann", "house").await;
    // Ann's socket stays open but she never reads again: no pongs (a half-open socket).
    let _ann = Client::join(running.addr, &code, "Ann").await;
    let mut bob = Client::join(running.addr, &code, "Bob").await;
    bob.send(&ddz_server::protocol::Command::Sit { seat: None }).await;
    let view = bob.until(|v| v.you.is_some()).await;
    assert!(connected(&view, 0), "Ann is connected at first");
    let view = tokio::time::timeout(Duration::from_secs(5), bob.until(|v| !connected(v, 0)))
        .await
        .expect("Ann's seat shows disconnected once she stops answering pings");
    assert!(connected(&view, 1), "Bob, who answers pings, stays connected");
    // Ann comes back on a new connection: no token needed, her old one is gone.
    let ann = Client::join(running.addr, &code, "Ann").await;
    assert!(ann.errors.is_empty(), "{:?}", ann.errors);
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_client_that_answers_pings_stays_connected() {
    let db = temp_db("heartbeat-alive");
    let running = server_with(&db, FAST, QUICK_HEARTBEAT).await;
    let code = invite_room(running.addr, "Ann", "house").await;
    let mut ann = Client::join(running.addr, &code, "Ann").await;
    // A second and a half of the heartbeat on the paused clock, which moves to each ping as soon as the
    // last one is answered: reading answers the server's pings (tungstenite replies to each one).
    tokio::time::pause();
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    while tokio::time::Instant::now() < until {
        ann.recv_within(Duration::from_millis(50)).await;
    }
    // Real time again: while the test waits on the view, Ann does not read.
    tokio::time::resume();
    let view: serde_json::Value = get(running.addr, &format!("/api/rooms/{code}")).await;
    assert_eq!(view["seats"][0]["connected"], true, "{view}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_resume_token_replaces_the_names_old_connection_at_once() {
    let db = temp_db("resume-token");
    let running = server(&db, FAST).await;
    let code = invite_room(running.addr, "Ann", "house").await;
    let mut first = Client::join(running.addr, &code, "Ann").await;
    let token = first.token.clone().expect("a session event with a token before the first state");
    assert_eq!(token.len(), 32);

    // Without the token, a connected name is still refused (RULES.md 8).
    let mut stranger = Client::connect(running.addr, &code, "ann").await;
    let (refused, message) = stranger.next_refusal().await;
    assert_eq!(refused, ErrorCode::NameTaken, "{message}");
    let mut wrong = Client::connect_with_token(running.addr, &code, "Ann", Some("0".repeat(32))).await;
    assert_eq!(wrong.next_refusal().await.0, ErrorCode::NameTaken);

    // With it, the new connection takes over and the old one is told and closed.
    let mut second = Client::connect_with_token(running.addr, &code, "Ann", Some(token.clone())).await;
    let view = second.next_state().await;
    assert_eq!(view.you, Some(0));
    assert_eq!(second.token.as_deref(), Some(token.as_str()), "the token stays the same");
    let events = first.events_until_closed(Duration::from_secs(5)).await;
    assert_eq!(events.last(), Some(&Event::Replaced), "the old connection hears it was replaced, then closes");
    assert!(running.stop().await);
}

/// A name's connections are ordered by when their hello was read, not by when their connect reaches the
/// room: a resume that arrives late (an abandoned socket's, retried by a proxy through a failover) is
/// refused as `superseded` and the newer connection stays; a newer one still replaces the older at once.
#[tokio::test]
async fn a_late_connect_of_an_older_socket_never_displaces_a_newer_one() {
    let db = temp_db("superseded");
    let running = server(&db, FAST).await;
    let code = RoomCode::from(invite_room(running.addr, "Ann", "house").await);
    let connect = |conn: u64, token: Option<String>, opened_ms: u64| {
        let rooms = running.rooms.clone();
        let code = code.clone();
        async move {
            let inbox = rooms.inbox(&code).await.unwrap().unwrap();
            let (out, events) = mpsc::channel(64);
            let (reply, answer) = oneshot::channel();
            let name = Some(PlayerName::parse("Ann").unwrap());
            let hello = Hello { conn, name, token, opened_ms, origin: Default::default() };
            inbox.send(Msg::Connect { hello, out, reply }).await.unwrap();
            (answer.await.unwrap(), events)
        }
    };
    let (first, _first_events) = connect(1_000_001, None, 5_000).await;
    let token = first.unwrap();
    let (newer, mut newer_events) = connect(1_000_002, token.clone(), 9_000).await;
    assert!(newer.is_ok(), "a newer socket with the token takes over");
    let (late, _) = connect(1_000_003, token.clone(), 7_000).await;
    assert_eq!(late.unwrap_err().code, ErrorCode::Superseded, "the late connect of an older socket");
    // The newer connection is still the name's: it hears the room, and was never told it was replaced.
    while let Ok(event) = newer_events.try_recv() {
        assert!(!matches!(event, Outbound::Event(Event::Replaced)), "the newer connection is not replaced");
    }
    let (newest, _) = connect(1_000_004, token, 12_000).await;
    assert!(newest.is_ok());
    let replaced = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(event) = newer_events.recv().await {
            if matches!(event, Outbound::Event(Event::Replaced)) {
                return true;
            }
        }
        false
    });
    assert!(replaced.await.unwrap(), "a newer socket still replaces the older at once");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_graceful_stop_tells_every_client_and_ends_every_room_task() {
    let db = temp_db("graceful-stop");
    let running = server(&db, FAST).await;
    let rooms = running.rooms.clone();
    let code = invite_room(running.addr, "Ann", "house").await;
    let bots = post(running.addr, "/api/play-vs-bots", json!({"name": "Cy"})).await;
    let bot_code = bots["code"].as_str().unwrap().to_string();
    let mut ann = Client::join(running.addr, &code, "Ann").await;
    let mut cy = Client::join(running.addr, &bot_code, "Cy").await;
    assert!(rooms.running() >= 2);
    let started = std::time::Instant::now();
    assert!(running.stop().await, "everything ended within the limit");
    assert!(started.elapsed() < ddz_server::STOP_WITHIN);
    for client in [&mut ann, &mut cy] {
        let events = client.events_until_closed(Duration::from_secs(5)).await;
        assert_eq!(events.last(), Some(&Event::Restarting), "{}: {events:?}", client.name);
    }
    assert_eq!(rooms.running(), 0, "no room task is left");
}

#[tokio::test]
async fn idle_rooms_end_their_tasks_and_racing_requests_load_exactly_one() {
    let db = temp_db("idle-rooms");
    let running = server(&db, Timing { idle_ms: 200, ..FAST }).await;
    let rooms = running.rooms.clone();
    let creating = std::time::Instant::now();
    let code = invite_room(running.addr, "Ann", "house").await;
    // Nobody there and no clock: the task ends once idle for 200 ms (looked at every 10 ms, 5 s at most).
    poll("the idle room's task ended", Duration::from_secs(5), Duration::from_millis(10), || async {
        (rooms.running() == 0).then_some(())
    })
    .await;
    // (Which also shows the task was there to end.)
    assert!(creating.elapsed() >= Duration::from_millis(200), "not before the room was idle for 200 ms");

    let before = rooms.tasks_started();
    let loads: Vec<_> = (0..20)
        .map(|_| {
            let addr = running.addr;
            let path = format!("/api/rooms/{code}");
            tokio::spawn(async move { get(addr, &path).await })
        })
        .collect();
    for load in loads {
        let view = load.await.unwrap();
        assert_eq!(view["code"], code.as_str());
        assert_eq!(view["seats"][0]["occupant"]["name"], "Ann", "the room comes back from its log");
    }
    assert_eq!(rooms.tasks_started() - before, 1, "twenty racing requests started one task");
    // A player joining an idle room finds it as it was.
    let ann = Client::join(running.addr, &code, "Ann").await;
    assert_eq!(ann.view.as_ref().unwrap().you, Some(0));
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_failing_database_backs_off_shows_on_readyz_and_the_deal_goes_on_after() {
    let db = temp_db("failing-db");
    let running = server(&db, FAST).await;
    assert_eq!(get_status(running.addr, "/readyz").await.0, 200);
    // A bots-only table keeps its clock running: every bot move needs a store.
    let created = post(running.addr, "/api/play-vs-bots", json!({"name": "Dee", "level": "normal"})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut dee = Client::join(running.addr, &code, "Dee").await;
    let database = running.rooms.db().clone();

    database.simulate_outage(true);
    assert_eq!(get_status(running.addr, "/readyz").await.0, 503, "not ready while the database is down");
    assert_eq!(get_status(running.addr, "/healthz").await.0, 200, "but alive");
    // Two seconds of the outage on the paused clock: every try fails at once, without the database's
    // thread, so nothing the server does waits on real time.
    tokio::time::pause();
    let refused_before = database.refused();
    // Let the bots try, and Dee act whenever it is her turn: each try fails.
    for _ in 0..20 {
        if dee.my_turn() {
            dee.act().await;
        }
        while dee.recv_within(Duration::from_millis(100)).await.is_some() {}
    }
    let tries = database.refused() - refused_before;
    assert!(tries >= 2, "the room tried to store ({tries})");
    assert!(tries <= 40, "{tries} tries in about two seconds: the clock spins instead of backing off");

    tokio::time::resume();
    database.simulate_outage(false);
    assert_eq!(get_status(running.addr, "/readyz").await.0, 200);
    let before = dee.deal().map_or(0, |d| d.actions.len());
    let moved = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if dee.my_turn() {
                dee.act().await;
            }
            dee.recv_within(Duration::from_millis(100)).await;
            if dee.deal().is_some_and(|d| d.actions.len() > before + 2) {
                return;
            }
        }
    })
    .await;
    assert!(moved.is_ok(), "the deal goes on once the database is back");
    assert!(running.stop().await);
}

#[tokio::test]
async fn metrics_are_served_in_the_prometheus_text_format() {
    let db = temp_db("metrics");
    let running = server(&db, FAST).await;
    let created = post(running.addr, "/api/play-vs-bots", json!({"name": "Eve"})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut eve = Client::join(running.addr, &code, "Eve").await;
    // Eve acts when the deal waits for her (else the bots act): either way an action is counted.
    eve.until(|v| v.deal.is_some()).await;
    if eve.my_turn() {
        eve.act().await;
    }
    eve.until(|v| v.deal.as_ref().is_some_and(|d| !d.actions.is_empty())).await;
    let (status, text) = get_status(running.addr, "/metrics").await;
    assert_eq!(status, 200);
    for metric in [
        "ddz_rooms",
        "ddz_connections",
        "ddz_entries_total",
        "ddz_actions_total",
        "ddz_commit_seconds_bucket",
        "ddz_broadcast_seconds_bucket",
        "ddz_process_resident_bytes",
    ] {
        assert!(text.lines().any(|l| l.starts_with(metric)), "{metric} missing from:\n{text}");
    }
    assert!(running.stop().await);
}

/// A stopped server leaves no task of its own running in the runtime it ran on: rooms, their bots'
/// thinking, quick match, the upkeep, the tournaments' look, the hall, every socket's task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_leaves_no_task_running() {
    let running = server(&temp_db("no-task-left"), FAST).await;
    let addr = running.addr;
    // Something of everything: a deal against bots under way, a player in quick match's queue, the hall
    // watched.
    let created = post(addr, "/api/play-vs-bots", json!({"name": "Tia"})).await;
    let mut tia = Client::join(addr, created["code"].as_str().unwrap(), "Tia").await;
    tia.until(|v| v.deal.is_some()).await;
    let queued = post(addr, "/api/quick-match", json!({"name": "Quin", "table": "house"})).await;
    assert!(queued["ticket"].is_string(), "{queued}");
    let mut hall = Watcher::open(addr, &ddz_server::protocol::Command::WatchHall).await;
    hall.event_within(Duration::from_secs(5), |e| matches!(e, Event::Hall { .. })).await;
    let metrics = tokio::runtime::Handle::current().metrics();
    assert!(metrics.num_alive_tasks() > 0, "the server runs its tasks here");

    assert!(running.stop().await, "the server stops in time");
    // A task's last step (dropping its future, which the tracker waits for) ends it a moment later.
    let none_left = async {
        while metrics.num_alive_tasks() > 0 {
            tokio::task::yield_now().await;
        }
    };
    let left = tokio::time::timeout(Duration::from_secs(2), none_left).await;
    assert!(left.is_ok(), "{} tasks still run after the stop", metrics.num_alive_tasks());
}
