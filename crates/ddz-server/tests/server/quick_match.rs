//! Quick match over real HTTP and sockets: the queue seats strangers together, fills with bots after the
//! wait, and leaving, a closed tab, a second tab and a reconnect do what a player expects.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use ddz_server::protocol::RoomView;
use ddz_server::{Mode, Occupant, Timing};
use serde_json::{Value, json};

/// Bots fill after 600 ms, so that a test of the wait stays short.
const QUICK: Timing = Timing { match_fill_ms: 600, ..FAST };

async fn join(addr: SocketAddr, name: &str, table: &str) -> Value {
    post(addr, "/api/quick-match", json!({"name": name, "table": table})).await
}

/// Polls `ticket` (as the page does, a few times a second) until it names a room.
async fn matched(addr: SocketAddr, ticket: &Value) -> Value {
    let path = format!("/api/quick-match/{}", ticket["ticket"].as_str().unwrap());
    poll(&format!("{ticket} matched"), Duration::from_secs(10), Duration::from_millis(100), || async {
        let answer = get(addr, &path).await;
        if answer["room"].is_string() {
            return Some(answer);
        }
        // Waiting, counted (0 for the moment between the matcher's claim of the ticket and the table's set-up).
        assert!(answer["waiting"].is_u64(), "{answer}");
        None
    })
    .await
}

fn humans(view: &RoomView) -> Vec<String> {
    view.seats
        .iter()
        .filter_map(|s| match &s.occupant {
            Some(Occupant::Human { name }) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn three_players_waiting_for_house_sit_down_together_at_once() {
    let db = temp_db("quick-three");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let mut tickets = Vec::new();
    for name in ["Ann", "Bea", "Cy"] {
        let ticket = join(addr, name, "house").await;
        assert_eq!(ticket["name"], name);
        assert!(ticket["room"].is_null(), "{ticket}");
        tickets.push(ticket);
    }
    let mut rooms = Vec::new();
    for ticket in &tickets {
        let answer = matched(addr, ticket).await;
        assert_eq!(answer["bots"], 0, "three people need no bot");
        rooms.push(answer["room"].as_str().unwrap().to_string());
    }
    assert!(rooms.iter().all(|r| *r == rooms[0]), "one table: {rooms:?}");
    let mut clients = Vec::new();
    for name in ["Ann", "Bea", "Cy"] {
        clients.push(Client::join(addr, &rooms[0], name).await);
    }
    let view = clients[0].until(|v| v.deal.is_some()).await;
    assert_eq!(view.mode, Mode::Quick);
    let mut seated = humans(&view);
    seated.sort();
    assert_eq!(seated, ["Ann", "Bea", "Cy"]);
    assert!(view.rules.wild, "House quick matches play with the Wild");
    // A quick-match table is full: it is not offered in the lobby.
    let lobby = get(addr, "/api/lobby").await;
    assert!(!lobby.to_string().contains(&rooms[0]), "{lobby}");
    play_to_end(&mut clients).await;
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_player_alone_gets_bots_after_the_wait_and_is_told() {
    let db = temp_db("quick-alone");
    let running = server(&db, QUICK).await;
    let ticket = join(running.addr, "Ann", "noshuffle").await;
    assert_eq!(ticket["table"], "no_shuffle");
    assert!(ticket["fill_in_ms"].as_u64().unwrap() <= 600);
    let answer = matched(running.addr, &ticket).await;
    assert_eq!(answer["bots"], 2, "{answer}");
    let room = answer["room"].as_str().unwrap();
    let mut ann = Client::join(running.addr, room, "Ann").await;
    let view = ann.until(|v| v.deal.is_some()).await;
    assert_eq!(view.mode, Mode::Quick);
    assert_eq!(humans(&view), ["Ann"]);
    assert_eq!(view.seats.iter().filter(|s| matches!(s.occupant, Some(Occupant::Bot { .. }))).count(), 2);
    assert!(!view.rules.wild_rank);
    assert!(running.stop().await);
}

#[tokio::test]
async fn two_player_quick_match_seats_two() {
    let db = temp_db("quick-two");
    let running = server(&db, FAST).await;
    let (ann, bea) = (join(running.addr, "Ann", "two_player").await, join(running.addr, "Bea", "twoplayer").await);
    let (a, b) = (matched(running.addr, &ann).await, matched(running.addr, &bea).await);
    assert_eq!(a["room"], b["room"]);
    let view = Client::join(running.addr, a["room"].as_str().unwrap(), "Ann").await.until(|v| v.deal.is_some()).await;
    let mut seated = humans(&view);
    seated.sort();
    assert_eq!(seated, ["Ann", "Bea"]);
    assert_eq!(view.seats.len(), 2);
    assert!(running.stop().await);
}

#[tokio::test]
async fn players_of_different_table_types_are_not_matched() {
    let db = temp_db("quick-tables");
    let running = server(&db, FAST).await;
    let (ann, cy) = (join(running.addr, "Ann", "house").await, join(running.addr, "Cy", "house").await);
    let bea = join(running.addr, "Bea", "noshuffle").await;
    // Two more for No Shuffle make Bea's table: once it is set up, the matcher has looked at every queue
    // with all five in it (a round reads each table type's).
    join(running.addr, "Dee", "noshuffle").await;
    join(running.addr, "Eve", "noshuffle").await;
    let answer = matched(running.addr, &bea).await;
    assert_eq!(answer["bots"], 0, "Bea sits with Dee and Eve: {answer}");
    for ticket in [&ann, &cy] {
        let answer = get(running.addr, &format!("/api/quick-match/{}", ticket["ticket"].as_str().unwrap())).await;
        assert!(answer["room"].is_null(), "two for House are no table, nor are they Bea's: {answer}");
        assert_eq!(answer["waiting"], 2, "Ann and Cy wait for House");
    }
    assert!(running.stop().await);
}

#[tokio::test]
async fn leaving_the_queue_takes_the_ticket_out() {
    let db = temp_db("quick-leave");
    let running = server(&db, FAST).await;
    let ticket = join(running.addr, "Ann", "house").await;
    let path = format!("/api/quick-match/{}", ticket["ticket"].as_str().unwrap());
    assert_eq!(http(running.addr, "DELETE", &path, None).await.status, 204);
    let again = http(running.addr, "GET", &path, None).await;
    assert_eq!(again.status, 404);
    assert_eq!(again.body["code"], "no_such_ticket", "{}", again.body);
    assert_eq!(http(running.addr, "DELETE", &path, None).await.status, 404, "left once");
    let unknown = http(running.addr, "GET", "/api/quick-match/nothing-like-a-ticket", None).await;
    assert_eq!(unknown.status, 404);
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_second_tab_of_the_same_name_gets_the_same_ticket_and_the_same_room() {
    let db = temp_db("quick-tabs");
    let running = server(&db, QUICK).await;
    let first = join(running.addr, "Ann", "house").await;
    let second = join(running.addr, "ann", "house").await;
    assert_eq!(first["ticket"], second["ticket"], "one place in the queue per name");
    let (a, b) = (matched(running.addr, &first).await, matched(running.addr, &second).await);
    assert_eq!(a["room"], b["room"]);
    // Joining again after the match starts a new wait (the last table is over for this player).
    let third = join(running.addr, "Ann", "house").await;
    assert_ne!(third["ticket"], first["ticket"]);
    assert!(third["room"].is_null());
    assert!(running.stop().await);
}

#[tokio::test]
async fn bad_requests_are_refused_clearly() {
    let db = temp_db("quick-bad");
    let running = server(&db, FAST).await;
    let no_name = http(running.addr, "POST", "/api/quick-match", Some(json!({"name": "  ", "table": "house"}))).await;
    assert_eq!(no_name.status, 400);
    assert_eq!(no_name.body["code"], "bad_name", "{}", no_name.body);
    let no_table = http(running.addr, "POST", "/api/quick-match", Some(json!({"name": "Ann", "table": "poker"}))).await;
    assert_eq!((no_table.status, &no_table.body["code"]), (422, &json!("bad_request")), "{}", no_table.body);
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_ticket_nobody_polls_leaves_the_queue_and_a_restart_keeps_the_others() {
    let db = temp_db("quick-stale");
    let start = 1_800_000_000_000;
    let running = server_at_ms(&db, FAST, start).await;
    let ann = join(running.addr, "Ann", "house").await;
    assert!(running.stop().await);
    // The server comes back 20 s later: Ann's tab was closed all along, so the matcher's next look at the
    // queue takes her ticket out (polling it would keep it: Bea's poll shows the queue instead)...
    let running = server_at_ms(&db, FAST, start + 20_000).await;
    let bea = join(running.addr, "Bea", "house").await;
    let bea_path = format!("/api/quick-match/{}", bea["ticket"].as_str().unwrap());
    poll("Ann's stale ticket out of the queue", Duration::from_secs(10), Duration::from_millis(20), || async {
        (get(running.addr, &bea_path).await["waiting"] == 1).then_some(())
    })
    .await;
    let path = format!("/api/quick-match/{}", ann["ticket"].as_str().unwrap());
    assert_eq!(http(running.addr, "GET", &path, None).await.status, 404);
    // ...while a ticket polled across the restart keeps its place.
    assert!(running.stop().await);
    let running = server_at_ms(&db, FAST, start + 21_000).await;
    let answer = get(running.addr, &format!("/api/quick-match/{}", bea["ticket"].as_str().unwrap())).await;
    assert_eq!(answer["ticket"], bea["ticket"]);
    assert!(answer["room"].is_null(), "still waiting: {answer}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_protected_name_queues_only_with_its_key() {
    let db = temp_db("quick-protected");
    let running = server(&db, FAST).await;
    let secrets = post(running.addr, "/api/names/protect", json!({"name": "Ann"})).await;
    let key = secrets["key"].as_str().expect("a key").to_string();
    let stranger = http(running.addr, "POST", "/api/quick-match", Some(json!({"name": "ann", "table": "house"}))).await;
    assert_eq!((stranger.status, &stranger.body["code"]), (403, &json!("name_protected")), "{}", stranger.body);
    let owner = join_with_key(running.addr, "Ann", &key).await;
    assert_eq!(owner["name"], "Ann");
    assert!(running.stop().await);
}

async fn join_with_key(addr: SocketAddr, name: &str, key: &str) -> Value {
    post(addr, "/api/quick-match", json!({"name": name, "key": key, "table": "house"})).await
}

/// Three players matched together open their table at different times, as they learn of the match: the
/// first deal waits (a bounded while) for each one's nonce, whenever they connect, and is dealt from all
/// three (docs/fair-deals.md).
#[tokio::test]
async fn a_matched_tables_first_deal_waits_for_every_players_nonce_however_late_they_connect() {
    let db = temp_db("quick-nonces");
    // The usual two seconds a deal waits for nonces: a room's first deal waits four times that.
    let running = server(&db, Timing { nonce_ms: 2_000, ..FAST }).await;
    let addr = running.addr;
    let mut tickets = Vec::new();
    for name in ["Ann", "Bea", "Cy"] {
        tickets.push(join(addr, name, "house").await);
    }
    let room = matched(addr, &tickets[0]).await["room"].as_str().unwrap().to_string();
    // From the match on, the game clock moves only as the test moves it.
    tokio::time::pause();
    let _held = hold_the_clock();
    let mut clients = Vec::new();
    for (i, name) in ["Ann", "Bea", "Cy"].into_iter().enumerate() {
        // Each one opens the table later than the last: 0.8 s, then 2.4 s after the match (past the usual
        // two seconds).
        tokio::time::advance(Duration::from_millis(800 * i as u64)).await;
        let mut client = Client::join(addr, &room, name).await;
        let view = client.until(|v| v.offer.is_some() || v.deal.is_some()).await;
        let offer = view.offer.as_ref().unwrap_or_else(|| panic!("{name} found the deal dealt without them: {view:?}"));
        assert!(offer.awaited.contains(&view.you.unwrap()), "{name}'s nonce is awaited");
        let nonce = ddz_engine::Seed::from_u64(700 + i as u64);
        client.send(&ddz_server::protocol::Command::Nonce { nonce }).await;
        clients.push(client);
    }
    let view = clients[2].until(|v| v.offer.is_none() && v.deal.is_some()).await;
    let nonces = view.deal.unwrap().fairness.unwrap().nonces.unwrap();
    assert!(nonces.iter().all(Option::is_some), "every player's nonce went in: {nonces:?}");
    assert!(running.stop().await);
}

/// Holds tokio's paused clock still until dropped: time then moves only by `tokio::time::advance`, never
/// by itself while the runtime waits, as it would while the database's thread works (and jump to the next
/// timer: a room's deadline). Tokio does not auto-advance while a blocking task runs; this one waits for
/// the drop, or 30 s at most, after which a test still waiting fails by its own timeouts instead of hanging.
fn hold_the_clock() -> std::sync::mpsc::Sender<()> {
    let (release, released) = std::sync::mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || released.recv_timeout(Duration::from_secs(30)));
    release
}
