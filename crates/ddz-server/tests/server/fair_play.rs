//! Fair play over real sockets (docs/ratings.md, "What counts"): a rating measures the person, so the
//! server's bot playing a seat's turns, passing on every chance, closing a deal half-way, one person's
//! names at one table and pairs flagged for an operator never lift a rating; winning against weak bots
//! settles just above them; and a name is listed on the boards only after enough rated deals against
//! enough opponents.

use crate::common;

use std::net::SocketAddr;

use common::*;
use ddz_bot::BotKind;
use ddz_engine::TableType;
use ddz_engine::{Auction, DealView, Kind, Phase, legal_plays_vec};
use ddz_server::protocol::{ClientAction, Command, Event, RoomView, simple_action};
use ddz_server::rating::{bot_skill, certain_win_margin, points};
use ddz_server::{Clock, Listing};
use serde_json::{Value, json};

/// The verdict on seat `seat` of a finished deal's view.
fn verdict(view: &RoomView, seat: usize) -> Value {
    serde_json::to_value(view.verdicts.get(seat).cloned().flatten()).unwrap()
}

/// The player's stored House rating, if they have one.
async fn house_rating(addr: SocketAddr, name: &str) -> Option<i64> {
    let stats = get(addr, &format!("/api/players/{name}")).await;
    stats["ratings"].as_array().unwrap().iter().find(|r| r["table"] == "house").and_then(|r| r["rating"].as_i64())
}

/// Waits for the current deal's end with its verdicts.
async fn deal_over(client: &mut Client) -> RoomView {
    client.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_some()) && !v.verdicts.is_empty()).await
}

/// Whether the seat `me` lost the finished deal of `view`.
fn lost(view: &RoomView, me: usize) -> bool {
    let deal = view.deal.as_ref().unwrap();
    let landlord_won = deal.result.as_ref().unwrap().landlord_won.expect("a winner");
    (deal.landlord == Some(me)) != landlord_won
}

/// Deals the next deal and waits until it is under way.
async fn next_deal(client: &mut Client) {
    client.send(&Command::Start).await;
    loop {
        match client.receive(std::time::Duration::from_secs(20)).await {
            Received::Event(_) if client.deal().is_some_and(|d| d.result.is_none()) => return,
            Received::Event(_) => {}
            other => panic!("no next deal ({other:?}): errors {:?}, last {:?}", client.errors, client.raw.last()),
        }
    }
}

#[tokio::test]
async fn turns_the_bot_plays_on_auto_play_never_lift_a_rating() {
    let db = temp_db("fair-auto-play");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let created = post(addr, "/api/play-vs-bots", json!({"name": "Farmer", "level": "random"})).await;
    let mut farmer = Client::join(addr, created["code"].as_str().unwrap(), "Farmer").await;
    let me = farmer.view.as_ref().unwrap().you.unwrap();
    farmer.send(&Command::AutoPlay { on: true }).await;
    let (mut lowest, mut losses) = (1500, 0);
    for deal in 0..12 {
        let view = deal_over(&mut farmer).await;
        let verdict = verdict(&view, me);
        assert_eq!(verdict["reason"]["reason"], "bot_played", "deal {deal}: {verdict}");
        assert_eq!(verdict["counted"], lost(&view, me), "a loss counts, a win the bot made never: {verdict}");
        if lost(&view, me) {
            losses += 1;
            let rating = house_rating(addr, "Farmer").await.expect("a loss is rated");
            assert!(rating < lowest, "a loss lowers the rating: {rating} after {lowest}");
            lowest = rating;
        }
        next_deal(&mut farmer).await;
    }
    let rating = house_rating(addr, "Farmer").await;
    assert_eq!(rating.is_some(), losses > 0, "only the {losses} losses moved it: {rating:?}");
    assert!(rating.unwrap_or(1500) <= 1500);
    let board = get(addr, "/api/ratings/house").await;
    let listed = board["rows"].as_array().unwrap().iter().find(|r| r["name"] == "Farmer").map(|r| r["rating"].clone());
    assert!(listed.is_none_or(|r| r.as_i64().unwrap() < 1500), "the board shows only the losses: {board}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn winning_against_weak_bots_settles_just_above_them() {
    let db = temp_db("fair-weak-bots");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let ceiling = points(bot_skill(BotKind::Beginner, TableType::House).mu + certain_win_margin()).max(1500);
    let created = post(addr, "/api/play-vs-bots", json!({"name": "Winner", "level": "beginner"})).await;
    let mut player = Client::join(addr, created["code"].as_str().unwrap(), "Winner").await;
    let me = player.view.as_ref().unwrap().you.unwrap();
    for _ in 0..8 {
        play_to_end(std::slice::from_mut(&mut player)).await;
        let view = deal_over(&mut player).await;
        assert_eq!(verdict(&view, me)["counted"], true, "the player's own deal counts");
        let rating = house_rating(addr, "Winner").await.expect("rated");
        assert!(rating <= i64::from(ceiling), "{rating} above beginner's level plus a certain win ({ceiling})");
        next_deal(&mut player).await;
    }
    assert!(running.stop().await);
}

#[tokio::test]
async fn closing_a_rated_deal_half_way_is_the_closers_loss_and_refunds_the_money() {
    let db = temp_db("fair-close");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let created = post(addr, "/api/play-vs-bots", json!({"name": "Quitter", "level": "hard"})).await;
    let mut quitter = Client::join(addr, created["code"].as_str().unwrap(), "Quitter").await;
    let me = quitter.view.as_ref().unwrap().you.unwrap();
    quitter.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
    quitter.send(&Command::Close).await;
    let view = quitter.until(|v| v.closed).await;
    let verdict = verdict(&view, me);
    assert_eq!(
        (verdict["counted"].clone(), verdict["reason"]["reason"].clone()),
        (json!(true), json!("abandoned")),
        "{verdict}"
    );
    let rating = house_rating(addr, "Quitter").await.expect("the closed deal is rated");
    assert!(rating < 1500, "a loss: {rating}");
    let stats = get(addr, "/api/players/Quitter").await;
    assert_eq!(stats["stats"][0]["money"], 0, "the money is refunded as RULES.md says: {stats}");
    assert!(running.stop().await);
}

/// Three clients at a new public table, each from its own `(address, browser)`; the deal is dealt.
async fn public_table(addr: SocketAddr, people: [(&str, &str, &str); 3]) -> Vec<Client> {
    let created = post(addr, "/api/rooms", json!({"name": people[0].0, "table": "house", "public": true})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut clients = Vec::new();
    for (name, address, browser) in people {
        let mut client = Client::join_from(addr, &code, name, address, browser).await;
        if client.view.as_ref().is_some_and(|v| v.you.is_none()) {
            client.send(&Command::Sit { seat: None }).await;
            client.until(|v| v.you.is_some()).await;
        }
        clients.push(client);
    }
    start_deal(&mut clients).await;
    clients
}

async fn behind_a_balancer(test: &str, listing: Listing) -> ddz_server::Running {
    server_behind_balancer(&temp_db(test), FAST, Clock::system(), listing).await
}

#[tokio::test]
async fn one_persons_names_at_one_address_or_browser_never_count_together() {
    let running = behind_a_balancer("fair-one-address", LISTED_AT_ONCE).await;
    let addr = running.addr;
    // A ring: three names from one address.
    let mut ring = public_table(
        addr,
        [("Boss", "203.0.113.7", "b1"), ("Ring1", "203.0.113.7", "b2"), ("Ring2", "203.0.113.7", "b3")],
    )
    .await;
    play_to_end(&mut ring).await;
    let view = deal_over(&mut ring[0]).await;
    for seat in 0..3 {
        assert_eq!(verdict(&view, seat)["reason"]["reason"], "same_address");
        assert_eq!(verdict(&view, seat)["counted"], false);
    }
    for name in ["Boss", "Ring1", "Ring2"] {
        assert_eq!(house_rating(addr, name).await, None, "{name}'s deal with their own names is unrated");
        assert_eq!(
            get(addr, &format!("/api/players/{name}")).await["stats"][0]["deals"],
            1,
            "it is still in their stats"
        );
    }
    for board in ["/api/ratings/house", "/api/boards/overall", "/api/boards/lobby"] {
        assert_eq!(get(addr, board).await["rows"], json!([]), "{board}");
    }
    // One browser under three addresses is one person too.
    let mut browser = public_table(
        addr,
        [("Tab1", "198.51.100.1", "same"), ("Tab2", "198.51.100.2", "same"), ("Tab3", "198.51.100.3", "other")],
    )
    .await;
    play_to_end(&mut browser).await;
    let view = deal_over(&mut browser[0]).await;
    let seat_of =
        |name: &str| view.seats.iter().position(|s| s.occupant.as_ref().is_some_and(|o| o.name() == name)).unwrap();
    assert_eq!(verdict(&view, seat_of("Tab1"))["reason"]["reason"], "same_browser");
    assert_eq!(verdict(&view, seat_of("Tab2"))["reason"]["reason"], "same_browser");
    assert_eq!(verdict(&view, seat_of("Tab3"))["counted"], true, "the stranger's deal counts");
    // Strangers, each from their own address and browser: the deal counts for all of them.
    let mut strangers =
        public_table(addr, [("Ann", "192.0.2.1", "x1"), ("Bea", "192.0.2.2", "x2"), ("Cy", "192.0.2.3", "x3")]).await;
    play_to_end(&mut strangers).await;
    let view = deal_over(&mut strangers[0]).await;
    for seat in 0..3 {
        let verdict = verdict(&view, seat);
        assert_eq!((verdict["counted"].clone(), verdict["reason"].clone()), (json!(true), Value::Null), "{verdict}");
        assert!(verdict["change"].as_i64().is_some_and(|c| c != 0), "the panel shows the change: {verdict}");
    }
    assert_eq!(get(addr, "/api/ratings/house").await["rows"].as_array().unwrap().len(), 4, "Tab3, Ann, Bea and Cy");
    assert!(running.stop().await);
}

/// A ring member's move: pass whenever the rules allow (taking nothing in the auction), play only when it
/// must lead.
fn always_pass(deal: &DealView) -> ClientAction {
    match (deal.phase, &deal.auction) {
        (Phase::Auction, Auction::TakeOrPass { .. }) => ClientAction::Pass,
        (Phase::Play, _) if deal.trick.is_some() => ClientAction::Pass,
        _ => simple_action(deal),
    }
}

/// The boss's move: lead the lowest single, so that the ring has a chance to beat it every time.
fn lead_singles(deal: &DealView) -> ClientAction {
    if deal.phase == Phase::Play && deal.trick.is_none() {
        let hand = deal.hand.unwrap_or_default();
        let plays = legal_plays_vec(&deal.play_rules(), hand.counts(), None);
        if let Some(single) = plays.iter().find(|p| p.shape.kind == Kind::Single) {
            return ClientAction::Play { cards: hand.pick(single.cards).expect("from the hand"), play: *single };
        }
    }
    simple_action(deal)
}

/// Plays the current deal to its end, each client with its own way of playing.
async fn play_with(clients: &mut [Client], ways: &[fn(&DealView) -> ClientAction]) {
    for _ in 0..3000 {
        for client in clients.iter_mut() {
            while client.recv_within(std::time::Duration::from_millis(2)).await.is_some() {}
        }
        if clients.iter().all(|c| c.deal().is_some_and(|d| d.result.is_some())) {
            return;
        }
        for (client, way) in clients.iter_mut().zip(ways) {
            if client.my_turn() {
                let action = way(client.deal().unwrap());
                let seq = client.next_seq();
                client.send(&Command::Act { seq, action }).await;
                // Wait for the room to move on (or to refuse a move made on a stale view).
                while !matches!(client.recv().await, Event::State { .. } | Event::Error { .. }) {}
            }
        }
    }
    panic!("the deal did not finish");
}

#[tokio::test]
async fn names_that_pass_on_every_chance_lift_nobody_and_the_pair_is_flagged_for_an_operator() {
    let running = behind_a_balancer("fair-passing", LISTED_AT_ONCE).await;
    let addr = running.addr;
    let mut table = public_table(
        addr,
        [("Boss", "203.0.113.1", "a"), ("Ring1", "203.0.113.2", "b"), ("Ring2", "203.0.113.3", "c")],
    )
    .await;
    let ways: [fn(&DealView) -> ClientAction; 3] = [lead_singles, always_pass, always_pass];
    for deal in 1..=2 {
        play_with(&mut table, &ways).await;
        let view = deal_over(&mut table[0]).await;
        let boss = verdict(&view, 0);
        assert_eq!(
            (boss["counted"].clone(), boss["reason"]["reason"].clone()),
            (json!(false), json!("player_passed")),
            "deal {deal}: {boss}"
        );
        for seat in 1..3 {
            let ring = verdict(&view, seat);
            assert_eq!(ring["reason"]["reason"], "passed", "deal {deal}: {ring}");
            assert_eq!(ring["counted"], lost(&view, seat), "their own losses count: {ring}");
        }
        next_deal(&mut table[0]).await;
        for client in &mut table[1..] {
            client.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
        }
    }
    assert_eq!(house_rating(addr, "Boss").await, None, "the boss was lifted by nobody");
    let mut flagged: Vec<(String, String, &str)> = running
        .rooms
        .db()
        .flagged_pairs()
        .await
        .unwrap()
        .into_iter()
        .map(|p| {
            let (first, second) = if p.first < p.second { (p.first, p.second) } else { (p.second, p.first) };
            (first, second, p.flag.name())
        })
        .collect();
    flagged.sort();
    assert_eq!(
        flagged,
        [
            ("Boss".into(), "Ring1".into(), "passing"),
            ("Boss".into(), "Ring2".into(), "passing"),
            ("Ring1".into(), "Ring2".into(), "passing")
        ]
    );
    // From now on their deals together count for none of them, however they play.
    play_to_end(&mut table).await;
    let view = deal_over(&mut table[0]).await;
    for seat in 0..3 {
        assert_eq!(verdict(&view, seat)["reason"]["reason"], "flagged_pair", "{}", verdict(&view, seat));
    }
    assert_eq!(house_rating(addr, "Boss").await, None);
    let (_, metrics) = get_status(addr, "/metrics").await;
    assert!(metrics.lines().any(|l| l.starts_with("ddz_flagged_pairs_total ") && !l.ends_with(" 0")), "{metrics}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_name_is_listed_on_the_boards_after_enough_rated_deals_against_enough_opponents() {
    let running = behind_a_balancer("fair-listing", Listing { deals: 3, opponents: 2 }).await;
    let addr = running.addr;
    let mut deals = 0;
    for level in ["random", "random", "beginner"] {
        let created = post(addr, "/api/play-vs-bots", json!({"name": "Climber", "level": level})).await;
        let code = created["code"].as_str().unwrap().to_string();
        let mut climber = Client::join_from(addr, &code, "Climber", "198.51.100.9", "c").await;
        play_to_end(std::slice::from_mut(&mut climber)).await;
        deal_over(&mut climber).await;
        deals += 1;
        let standing = &get(addr, "/api/players/Climber").await["standing"];
        assert_eq!(standing["rated_deals"], deals, "{standing}");
        let listed = deals == 3;
        assert_eq!(standing["listed"], listed, "after {deals} deals against {}: {standing}", standing["opponents"]);
        for board in ["/api/ratings/house", "/api/boards/overall"] {
            let rows = get(addr, board).await["rows"].as_array().unwrap().len();
            assert_eq!(rows, usize::from(listed), "{board} after {deals} deals");
        }
        if listed {
            assert_eq!(standing["opponents"], 2, "random and beginner bots: two opponents");
            let ranks: Vec<(String, i64)> = standing["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["board"].as_str().unwrap().to_string(), r["rank"].as_i64().unwrap()))
                .collect();
            assert_eq!(ranks, [("overall".to_string(), 1), ("house".to_string(), 1)], "{standing}");
        }
    }
    assert!(running.stop().await);
}
