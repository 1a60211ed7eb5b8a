//! Ratings over real sockets (docs/ratings.md): a finished deal against bots or at a public table moves
//! the players' ratings, on their seats, their stats and the ratings board; an invite room's deals move
//! nothing.

use crate::common;

use common::*;
use ddz_server::protocol::{Command, RoomView};
use serde_json::json;

/// The rating on the seat of `view` held by `name`.
fn seat_rating(view: &RoomView, name: &str) -> Option<i32> {
    view.seats.iter().find(|s| s.occupant.as_ref().is_some_and(|o| o.name() == name)).and_then(|s| s.rating)
}

#[tokio::test]
async fn a_deal_against_bots_moves_the_players_rating_on_the_seat_the_stats_and_the_board() {
    let db = temp_db("ratings-bots");
    let running = server(&db, FAST).await;
    let created = post(running.addr, "/api/play-vs-bots", json!({"name": "Rita", "level": "normal"})).await;
    let code = created["code"].as_str().unwrap();
    let mut rita = Client::join(running.addr, code, "Rita").await;
    let view = rita.view.clone().unwrap();
    assert_eq!(seat_rating(&view, "Rita"), None, "no rating before a first rated deal");
    for seat in view.seats.iter().filter(|s| s.occupant.as_ref().is_some_and(|o| o.is_bot())) {
        assert_eq!(seat.rating, Some(1500), "a normal bot's fixed rating is where players start");
    }
    play_to_end(std::slice::from_mut(&mut rita)).await;
    let view = rita.until(|v| seat_rating(v, "Rita").is_some()).await;
    let rating = seat_rating(&view, "Rita").unwrap();
    assert_ne!(rating, 1500, "the deal moved the rating from where a new player starts");
    let deal = view.deal.as_ref().unwrap();
    let landlord_won = deal.result.as_ref().unwrap().landlord_won.expect("a winner");
    let rita_won = (deal.landlord == view.you) == landlord_won;
    assert_eq!(rating > 1500, rita_won, "a win raises the rating, a loss lowers it");

    let stats = get(running.addr, "/api/players/Rita").await;
    let house = &stats["ratings"][0];
    assert_eq!(house["table"], "house");
    assert_eq!(house["rating"], rating);
    assert_eq!(house["deals"], 1);
    assert_eq!(house["history"].as_array().unwrap().len(), 1);
    assert_eq!(house["history"][0]["rating"], rating);

    let board = get(running.addr, "/api/ratings/house").await;
    assert_eq!(board["rows"][0]["name"], "Rita");
    assert_eq!(board["rows"][0]["rating"], rating);
    assert_eq!(board["rows"].as_array().unwrap().len(), 1, "bots are not on the board");
    assert_eq!(board["rows"][0]["protected"], false);
    // Once Rita protects her name the ratings board marks it, as the other boards do.
    post(running.addr, "/api/names/protect", json!({"name": "Rita"})).await;
    let board = get(running.addr, "/api/ratings/house").await;
    assert_eq!(board["rows"][0]["protected"], true);

    // A second deal moves it again, and the history keeps both.
    rita.send(&Command::Start).await;
    rita.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
    play_to_end(std::slice::from_mut(&mut rita)).await;
    let stats = get(running.addr, "/api/players/Rita").await;
    assert_eq!(stats["ratings"][0]["deals"], 2);
    let history = stats["ratings"][0]["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["rating"], rating);
    let (status, _) = get_status(running.addr, "/api/ratings/poker").await;
    assert_eq!(status, 404);
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_public_deal_moves_the_landlord_against_both_farmers() {
    let db = temp_db("ratings-public");
    let running = server(&db, FAST).await;
    let created = post(running.addr, "/api/rooms", json!({"name": "Alice", "table": "house", "public": true})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let alice = Client::join(running.addr, &code, "Alice").await;
    let mut bea = Client::join(running.addr, &code, "Bea").await;
    bea.send(&Command::Sit { seat: None }).await;
    let mut cy = Client::join(running.addr, &code, "Cy").await;
    cy.send(&Command::Sit { seat: None }).await;
    cy.until(|v| v.seats.iter().all(|s| s.occupant.is_some())).await;
    let mut clients = vec![alice, bea, cy];
    start_deal(&mut clients).await;
    play_to_end(&mut clients).await;
    let deal = clients[0].deal().unwrap().clone();
    let landlord = deal.landlord.expect("a landlord");
    let landlord_won = deal.result.as_ref().unwrap().landlord_won.expect("a winner");
    let view = clients[0].until(|v| v.seats.iter().all(|s| s.rating.is_some())).await;
    for seat in &view.seats {
        let rating = seat.rating.unwrap();
        let name = seat.occupant.as_ref().unwrap().name();
        let went_up = rating > 1500;
        let on_winning_side = (seat.seat == landlord) == landlord_won;
        assert_eq!(went_up, on_winning_side, "{name} at seat {} ({rating})", seat.seat);
        let stats = get(running.addr, &format!("/api/players/{name}")).await;
        assert_eq!(stats["ratings"][0]["rating"], rating, "the seat shows what is stored");
    }
    let board = get(running.addr, "/api/ratings/house").await;
    assert_eq!(board["rows"].as_array().unwrap().len(), 3);
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn an_invite_room_moves_no_rating() {
    let db = temp_db("ratings-invite");
    let running = server(&db, FAST).await;
    let (_, mut clients) = three_players(running.addr, "house").await;
    start_deal(&mut clients).await;
    play_to_end(&mut clients).await;
    let view = clients[0].view.clone().unwrap();
    assert!(view.seats.iter().all(|s| s.rating.is_none()), "nobody at the table has a rating");
    let stats = get(running.addr, "/api/players/Alice").await;
    assert_eq!(stats["stats"][0]["deals"], 1, "the deal counted in the stats");
    assert_eq!(stats["ratings"], json!([]), "and moved no rating");
    let board = get(running.addr, "/api/ratings/house").await;
    assert_eq!(board["rows"], json!([]));
    assert!(running.stop().await, "the server stops in time");
}
