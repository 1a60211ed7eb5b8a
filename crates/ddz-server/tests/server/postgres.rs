//! The server on PostgreSQL: rooms and their logs, a restart, deals, replays, reviews, stats, boards and ratings,
//! and the database's own guarantees (one rally attempt, one unfinished run) when starts race on two
//! connection pools. The test starts its own PostgreSQL (initdb in a temporary
//! directory, as the `postgres` user when run as root, which PostgreSQL refuses) on a free port and stops
//! it at the end. `.ci/run` installs the `postgresql` package.

use crate::common;

use common::services::Postgres;
use common::{Client, FAST, get, play_some, play_to_end, post, seat_three, server_on};
use ddz_server::Db;
use ddz_server::protocol::Command as Say;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deals_stats_boards_replays_and_reviews_are_kept_in_postgres_and_a_restart_resumes_the_deal() {
    let postgres = Postgres::start("deals");
    let running = server_on(&postgres.url(), FAST).await;
    let addr = running.addr;
    // A public table: its deals are rated, and so on the money boards.
    let created =
        post(addr, "/api/rooms", serde_json::json!({"name": "Alice", "table": "house", "public": true})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut clients = seat_three(addr, &code).await;
    clients[0].send(&Say::Start).await;
    play_to_end(&mut clients).await;
    let result = clients[0].deal().unwrap().result.clone().unwrap();
    assert_eq!(get(addr, "/api/players/bea").await["stats"][0]["deals"], 1);
    let board = get(addr, "/api/boards/overall").await;
    assert_eq!(board["rows"].as_array().map(Vec::len), Some(3), "{board}");
    let replay = get(addr, &format!("/api/rooms/{code}/deals/1")).await;
    let record: ddz_engine::DealRecord = serde_json::from_value(replay["record"].clone()).unwrap();
    assert_eq!(record.replay().unwrap().result(), Some(&result), "the stored record replays to the result");
    let review = get(addr, &format!("/api/rooms/{code}/deals/1/reviews/2")).await;
    assert_eq!(review["review"]["seat"], 2);
    assert_eq!(get(addr, &format!("/api/rooms/{code}/deals/1/reviews/2")).await, review, "kept");

    // A second deal, stopped midway with the server and resumed by a new server from the stored log.
    clients[0].send(&Say::Start).await;
    play_some(&mut clients, 8).await;
    let before = clients[1].deal().cloned().unwrap();
    drop(clients);
    assert!(running.stop().await, "the server stops in time");
    let running = server_on(&postgres.url(), FAST).await;
    let bea = Client::join(running.addr, &code, "Bea").await;
    let after = bea.deal().cloned().unwrap();
    assert_eq!((after.hand, after.actions), (before.hand, before.actions), "the same deal, action for action");
    assert_eq!(get(running.addr, "/api/players/bea").await["stats"][0]["deals"], 1, "stats survive too");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_and_their_history_are_kept_in_postgres() {
    let postgres = Postgres::start("ratings");
    let running = server_on(&postgres.url(), FAST).await;
    let addr = running.addr;
    let created = post(addr, "/api/play-vs-bots", serde_json::json!({"name": "Pat", "level": "normal"})).await;
    let mut pat = Client::join(addr, created["code"].as_str().unwrap(), "Pat").await;
    play_to_end(std::slice::from_mut(&mut pat)).await;
    pat.send(&Say::Start).await;
    pat.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
    play_to_end(std::slice::from_mut(&mut pat)).await;
    let stats = get(addr, "/api/players/pat").await;
    let house = &stats["ratings"][0];
    assert_eq!(house["deals"], 2, "{stats}");
    assert_eq!(house["history"].as_array().map(Vec::len), Some(2));
    assert_eq!(house["history"][1]["rating"], house["rating"], "the history ends at the rating");
    let board = get(addr, "/api/ratings/house").await;
    assert_eq!(board["rows"][0]["name"], "Pat");
    assert_eq!(board["rows"][0]["rating"], house["rating"]);
    let seat = pat.view.as_ref().unwrap().seats[0].rating;
    assert_eq!(seat.map(i64::from), house["rating"].as_i64(), "the seat shows the stored rating");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_rally_attempt_and_one_unfinished_run_per_name_hold_when_starts_race_on_two_connection_pools() {
    let postgres = Postgres::start("races");
    // Two pools on one database, as two processes would have: the requests race between the check for an
    // earlier run and the insert, and only the database's unique indexes can settle them.
    let pools = [Db::open(&postgres.url()).await.unwrap(), Db::open(&postgres.url()).await.unwrap()];
    common::race_challenge_starts(&pools).await;
}
