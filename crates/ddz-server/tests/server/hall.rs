//! The hall and a player's page over real HTTP and sockets (docs/protocol.md, "The hall"): the live state
//! kept in memory and pushed as it changes, a sit-and-go always open, the deals a name played paged newest
//! first, the boards with the reader's own row, and a player's challenges.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use ddz_engine::{DealRecord, TableType};
use ddz_server::protocol::{Command, ErrorCode, Event};
use ddz_server::wire::pages::Hall;
use serde_json::{Value, json};

/// The built-in sit-and-go of `table` and `size` (as `ddz serve` keeps one open), bots after a minute.
fn always_open(table: &str, size: usize) -> ddz_server::Recurring {
    let event = json!({"slug": format!("{}-sng", table.replace('_', "-")), "table": table, "sit_and_go": size,
                       "bots_after_seconds": 60});
    serde_json::from_value(event).expect("a recurring event")
}

/// The next hall pushed to `watcher` that `wanted` accepts (the hall is put together once a second).
async fn hall_where(watcher: &mut Watcher, wanted: impl Fn(&Hall) -> bool) -> Hall {
    let event =
        watcher.event_within(Duration::from_secs(10), |e| matches!(e, Event::Hall { hall } if wanted(hall))).await;
    let Event::Hall { hall } = event else { unreachable!("the watcher accepted only halls") };
    *hall
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hall_counts_who_is_online_what_is_in_play_who_waits_and_what_is_open() {
    let db = temp_db("hall");
    let running = server_with_tournaments(&db, FAST, vec![always_open("house", 9)]).await;
    let addr = running.addr;
    let mut watcher = Watcher::open(addr, &Command::WatchHall).await;
    // The watcher itself is online; the driver opens the sit-and-go at once.
    let hall = hall_where(&mut watcher, |h| !h.tournaments.is_empty()).await;
    assert!(hall.online >= 1, "{hall:?}");
    assert_eq!(hall.tournaments[0].id, "house-sng-1");
    assert!(hall.tournaments[0].recurring, "one of the site's own events");
    assert_eq!((hall.tournaments[0].entrants, hall.tournaments[0].starts_at), (0, None), "nobody yet: no bots due");
    let quick: Vec<(TableType, u32)> = hall.quick.iter().map(|q| (q.table, q.waiting)).collect();
    assert_eq!(quick, [(TableType::House, 0), (TableType::NoShuffle, 0), (TableType::TwoPlayer, 0)]);

    // A ticket waits for No Shuffle; a player registers for the sit-and-go: both are pushed.
    post(addr, "/api/quick-match", json!({"name": "Waiter", "table": "no_shuffle"})).await;
    post(addr, "/api/tournaments/house-sng-1/register", json!({"name": "Early"})).await;
    let hall = hall_where(&mut watcher, |h| h.quick[1].waiting == 1 && h.tournaments[0].entrants == 1).await;
    assert!(hall.tournaments[0].starts_at.is_some(), "the bots' wait runs from the first registration");

    // A public table opens and a table against bots deals: the lobby's tables and the tables in play.
    let public = post(addr, "/api/rooms", json!({"name": "Host", "table": "house", "public": true})).await;
    post(addr, "/api/play-vs-bots", json!({"name": "Solo"})).await;
    let hall = hall_where(&mut watcher, |h| !h.tables.is_empty() && h.playing >= 1).await;
    assert_eq!(hall.tables[0].code.as_str(), public["code"]);

    // A second watcher is one more online.
    let online = hall.online;
    let _second = Watcher::open(addr, &Command::WatchHall).await;
    hall_where(&mut watcher, |h| h.online == online + 1).await;

    // `GET /api/hall` answers the same state from memory.
    let answer = get(addr, "/api/hall").await;
    assert_eq!(answer["quick"][1], json!({"table": "no_shuffle", "waiting": 1, "playing": 0}));
    assert_eq!(answer["tournaments"][0]["id"], "house-sng-1");
    assert_eq!(answer["tables"][0]["code"], public["code"]);
    assert!(answer["online"].as_u64().is_some_and(|n| n >= 2), "{answer}");
    assert!(running.stop().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sit_and_go_always_open_opens_its_next_run_as_one_fills() {
    let db = temp_db("always-open");
    let running = server_with_tournaments(&db, FAST, vec![always_open("two_player", 8)]).await;
    let addr = running.addr;
    let mut watcher = Watcher::open(addr, &Command::WatchHall).await;
    hall_where(&mut watcher, |h| h.tournaments.iter().any(|t| t.id == "two-player-sng-1")).await;
    for i in 1..=8 {
        post(addr, "/api/tournaments/two-player-sng-1/register", json!({"name": format!("Pair{i}")})).await;
    }
    // The eighth filled it: it runs, and the next run takes registrations.
    let hall = hall_where(&mut watcher, |h| h.tournaments.iter().any(|t| t.id == "two-player-sng-2")).await;
    assert_eq!(hall.running.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["two-player-sng-1"]);
    let lists = get(addr, "/api/tournaments").await;
    let upcoming: Vec<&str> = lists["upcoming"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(upcoming, ["two-player-sng-2"], "one run open at a time");
    assert!(running.stop().await);
}

/// Plays `deals` deals against two bots as `name`; the room's code.
async fn play_against_bots(addr: SocketAddr, name: &str, deals: u32) -> String {
    let created = post(addr, "/api/play-vs-bots", json!({"name": name, "level": "beginner"})).await;
    let code = created["code"].as_str().expect("a room").to_string();
    let mut player = Client::join(addr, &code, name).await;
    for deal in 1..=deals {
        if deal > 1 {
            player.send(&Command::Start).await;
        }
        player.until(|v| v.deals_played == deal - 1 && v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
        play_to_end(std::slice::from_mut(&mut player)).await;
    }
    code
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_deals_are_paged_newest_first_each_with_its_replay() {
    let db = temp_db("history");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let code = play_against_bots(addr, "Pager", 3).await;
    let first = get(addr, "/api/players/pager/deals?limit=2").await;
    let deals = first["deals"].as_array().unwrap();
    assert_eq!(deals.iter().map(|d| d["number"].as_u64().unwrap()).collect::<Vec<_>>(), [3, 2], "newest first");
    for deal in deals {
        assert_eq!(
            (deal["code"].as_str(), deal["table"].as_str(), deal["mode"].as_str()),
            (Some(code.as_str()), Some("house"), Some("bots"))
        );
        assert_eq!(deal["others"].as_array().unwrap().len(), 2);
        // The line says what the deal's record says of the player's seat.
        let replay = get(addr, &format!("/api/rooms/{code}/deals/{}", deal["number"])).await;
        let record: DealRecord = serde_json::from_value(replay["record"].clone()).unwrap();
        let seat = deal["seat"].as_u64().unwrap() as usize;
        assert_eq!(record.seats[seat], "Pager");
        let result = record.result.as_ref().expect("a finished deal");
        assert_eq!(deal["amount"].as_i64(), result.score.get(seat).copied());
    }
    let next = first["next"].as_str().expect("a next page");
    let second = get(addr, &format!("/api/players/Pager/deals?limit=2&before={next}")).await;
    let numbers: Vec<u64> = second["deals"].as_array().unwrap().iter().map(|d| d["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1]);
    assert_eq!(second["next"], Value::Null, "the last page");
    // Bad pages are refused with the reason; a name that played nothing has nothing.
    for bad in ["?before=yesterday", "?limit=0", "?limit=101"] {
        let answer = http(addr, "GET", &format!("/api/players/Pager/deals{bad}"), None).await;
        assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("bad_request")), "{bad}");
    }
    assert_eq!(get(addr, "/api/players/Nobody/deals").await["deals"], json!([]));
    assert!(running.stop().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_adds_the_readers_own_row_wherever_it_stands() {
    let db = temp_db("own-row");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    play_against_bots(addr, "Ranked", 1).await;
    let overall = get(addr, "/api/boards/overall?name=ranked").await;
    let you = &overall["you"];
    assert_eq!((you["rank"].as_u64(), you["listed"].as_bool(), you["deals"].as_u64()), (Some(1), Some(true), Some(1)));
    assert_eq!(you["score"], overall["rows"][0]["score"]);
    assert_eq!((you["needs_deals"].as_i64(), you["protected"].as_bool()), (Some(0), Some(false)), "listed: {you}");
    let ratings = get(addr, "/api/ratings/house?name=Ranked").await;
    assert_eq!((ratings["you"]["rank"].as_u64(), ratings["you"]["deals"].as_u64()), (Some(1), Some(1)));
    assert_eq!(ratings["you"]["rating"], ratings["rows"][0]["rating"]);
    // No row, no `you`; a name that is no name is refused.
    assert_eq!(get(addr, "/api/boards/overall?name=Stranger").await.get("you"), None);
    assert_eq!(get(addr, "/api/ratings/two_player?name=Ranked").await.get("you"), None);
    assert_eq!(get(addr, "/api/boards/buster?name=Ranked").await.get("you"), None);
    let bad = http(addr, "GET", "/api/boards/overall?name=%20", None).await;
    assert_eq!(bad.status, 200, "an empty name asks about nobody");
    let bad = http(addr, "GET", &format!("/api/boards/overall?name={}", "x".repeat(40)), None).await;
    assert_eq!((bad.status, bad.body["code"].as_str()), (400, Some("bad_name")));
    // The old word for a ratings board's table type still answers.
    assert_eq!(get(addr, "/api/ratings/noshuffle").await["table"], "no_shuffle");
    assert!(running.stop().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_says_where_they_stand_in_each_challenge() {
    let db = temp_db("standings");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let page = get(addr, "/api/players/Challenger").await;
    let kinds: Vec<&str> = page["challenges"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["buster", "bomber", "rally"]);
    assert!(page["challenges"].as_array().unwrap().iter().all(|c| c["running"] == false && c.get("best").is_none()));
    assert_eq!(page["tournaments"], json!([]));
    // A Bot Buster run begun: it is running, to resume.
    post(addr, "/api/challenges", json!({"name": "Challenger", "kind": "buster"})).await;
    let page = get(addr, "/api/players/Challenger").await;
    assert_eq!(page["challenges"][0]["running"], true);
    assert_eq!(page["challenges"][1]["running"], false);
    let refused = http(addr, "GET", "/api/players/Challenger/deals?before=1-AB-x", None).await;
    assert_eq!(refused.body["code"], serde_json::to_value(ErrorCode::BadRequest).unwrap());
    assert!(running.stop().await);
}
