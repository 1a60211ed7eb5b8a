//! The server over real WebSockets on a free port.

use crate::common;

use std::time::Duration;

use common::{
    Client, FAST, check_hidden_information, get, invite_room, play_some, play_to_end, post, server, start_deal,
    temp_db, three_players,
};
use ddz_engine::{CardSet, Phase, Rules};

use ddz_server::LogLine;
use ddz_server::protocol::{ClientAction, Command, ErrorCode, Event};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn three_humans_play_a_house_deal_to_the_end() {
    let db = temp_db("three-humans");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    play_to_end(&mut clients).await;
    let results: Vec<_> = clients.iter().map(|c| c.deal().unwrap().result.clone().unwrap()).collect();
    assert!(results.windows(2).all(|w| w[0] == w[1]), "everyone sees the same result");
    assert_eq!(results[0].score.iter().sum::<i64>(), 0);
    let view = clients[0].view.clone().unwrap();
    let balances: i64 = view.seats.iter().map(|s| s.balance.unwrap()).sum();
    assert_eq!(balances, 300, "money is conserved");
    let stats = get(running.addr, "/api/players/alice").await;
    assert_eq!(stats["stats"][0]["deals"], 1);
    let deals = get(running.addr, &format!("/api/rooms/{code}/deals")).await;
    assert_eq!(deals["deals"].as_array().unwrap().len(), 1);
    // The finished deal's replay: as dealt, then after every action, every hand face up.
    let replay = get(running.addr, &format!("/api/rooms/{code}/deals/1")).await;
    let steps: Vec<ddz_engine::ReplayStep> = serde_json::from_value(replay["steps"].clone()).unwrap();
    let actions = replay["record"]["actions"].as_array().unwrap().len();
    assert_eq!(steps.len(), actions + 1);
    assert_eq!(steps[0].hands.iter().map(|h| h.len()).collect::<Vec<_>>(), [17, 17, 17]);
    assert!(steps[0].view.hand.is_none() && steps[0].view.fairness.as_ref().unwrap().seed.is_none());
    let last = steps.last().unwrap();
    assert_eq!(last.view.result.as_ref(), Some(&results[0]), "the replay ends where the deal ended");
    assert!(last.view.fairness.as_ref().unwrap().seed.is_some(), "the seed is revealed at the end");
    for (step, next) in steps.iter().zip(&steps[1..]) {
        let held = |s: &ddz_engine::ReplayStep| s.hands.iter().map(|h| h.len()).sum::<usize>();
        assert!(held(next) <= held(step) + 4, "cards only leave the hands (but for the middle cards)");
    }
    assert_eq!(replay["seats"], serde_json::json!(["Alice", "Bea", "Cy"]));
    let missing = common::http(running.addr, "GET", &format!("/api/rooms/{code}/deals/2"), None).await;
    assert_eq!((missing.status, missing.body["code"].as_str()), (404, Some("no_such_deal")));
    let unknown = common::http(running.addr, "GET", "/api/rooms/NOROOM/deals/1", None).await;
    assert_eq!((unknown.status, unknown.body["code"].as_str()), (404, Some("unknown_room")));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_spectator_watches_a_live_table_with_public_information_only_and_never_takes_a_seat() {
    let db = temp_db("spectator");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    let mut watcher = Client::watch(running.addr, &code).await;
    let view = watcher.view.clone().unwrap();
    assert_eq!(view.you, None);
    assert!(view.deal.as_ref().is_some_and(|d| d.hand.is_none()), "a spectator holds no hand");
    assert!(watcher.token.is_none(), "a spectator has no name to resume");
    let seen = clients[0].until(|v| v.watching == 1).await;
    assert_eq!(seen.watching, 1, "the table shows one watcher");
    // Nothing a spectator sends can seat it or act for anyone.
    watcher.send(&Command::Sit { seat: None }).await;
    let refused = watcher.recv().await;
    assert!(matches!(refused, Event::Error { code: ErrorCode::Spectator, seq: None, .. }), "{refused:?}");
    watcher.send(&Command::Act { seq: 4, action: ClientAction::Pass }).await;
    let refused = watcher.recv().await;
    assert!(matches!(refused, Event::Error { code: ErrorCode::Spectator, seq: Some(4), .. }), "{refused:?}");
    play_to_end(&mut clients).await;
    let end = watcher.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_some())).await;
    assert_eq!(end.deal.unwrap().result, clients[0].deal().unwrap().result, "live to the end");
    assert!(end.seats.iter().all(|s| s.occupant.is_some()) && end.you.is_none(), "still only watching");
    // Until the deal was over, no state the spectator got held a hand or the middle cards unshown.
    for text in &watcher.raw {
        let Ok(Event::State { room, .. }) = serde_json::from_str::<Event>(text) else { continue };
        let Some(deal) = room.deal else { continue };
        assert!(deal.hand.is_none());
        if deal.result.is_none() {
            assert!(deal.hands_at_end.is_none(), "no hands before the end");
            assert!(deal.bottom.is_none() || deal.landlord.is_some(), "the middle cards only once shown");
        }
    }
    drop(watcher);
    let after = clients[0].until(|v| v.watching == 0).await;
    assert_eq!(after.watching, 0, "the count drops when the spectator leaves");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_room_takes_as_many_spectators_as_configured_and_the_next_when_one_leaves() {
    let db = temp_db("spectators");
    let guards = ddz_server::Guards { spectators: 3, ..Default::default() };
    let running = common::guarded_server(&db, FAST, guards).await;
    let code = invite_room(running.addr, "Alice", "house").await;
    let mut watchers = Vec::new();
    for _ in 0..3 {
        watchers.push(Client::watch(running.addr, &code).await);
    }
    let mut one_too_many = Client::start_watching(running.addr, &code).await;
    let refused = one_too_many.recv().await;
    assert!(matches!(refused, Event::Error { code: ErrorCode::TooManyWatching, .. }), "{refused:?}");
    // A named guest still gets in: the limit is on nameless spectators.
    let guest = Client::join(running.addr, &code, "Bea").await;
    assert_eq!(guest.view.as_ref().unwrap().watching, 4);
    drop(watchers.pop());
    let mut last = watchers.pop().unwrap();
    last.until(|v| v.watching == 3).await;
    let again = Client::watch(running.addr, &code).await;
    assert_eq!((again.view.as_ref().unwrap().you, again.view.as_ref().unwrap().watching), (None, 4));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_finished_deal_is_reviewed_by_the_bot_once_and_the_review_is_kept() {
    let db = temp_db("review");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "noshuffle").await;
    clients[0].send(&Command::Start).await;
    play_to_end(&mut clients).await;
    let path = format!("/api/rooms/{code}/deals/1/reviews/1");
    let first = get(running.addr, &path).await;
    let review: ddz_bot::review::Review = serde_json::from_value(first["review"].clone()).unwrap();
    assert_eq!(review.seat, 1);
    let record = get(running.addr, &format!("/api/rooms/{code}/deals/1")).await["record"].clone();
    let record: ddz_engine::DealRecord = serde_json::from_value(record).unwrap();
    let landlord = record.replay().unwrap().landlord();
    if landlord.is_some() {
        assert!(!review.decisions.is_empty(), "a played deal has decisions to review");
    }
    for decision in &review.decisions {
        assert_eq!(decision.played, record.actions[decision.step], "the decision is the seat's own action");
        assert_eq!(decision.played.seat(), Some(1));
        assert!(decision.choices > 1 && decision.best_chance >= decision.played_chance);
    }
    assert_eq!(get(running.addr, &path).await, first, "kept: the same review again");
    let missing = common::http(running.addr, "GET", &format!("/api/rooms/{code}/deals/1/reviews/3"), None).await;
    assert_eq!((missing.status, missing.body["code"].as_str()), (404, Some("no_such_seat")));
    let unfinished = common::http(running.addr, "GET", &format!("/api/rooms/{code}/deals/2/reviews/0"), None).await;
    assert_eq!((unfinished.status, unfinished.body["code"].as_str()), (404, Some("no_such_deal")));
    let bad = common::http(running.addr, "GET", &format!("/api/rooms/{code}/deals/one/reviews/0"), None).await;
    assert_eq!((bad.status, bad.body["code"].as_str()), (400, Some("bad_request")));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_player_against_two_bots_finishes_a_deal() {
    let db = temp_db("vs-bots");
    let running = server(&db, FAST).await;
    let created = post(running.addr, "/api/play-vs-bots", serde_json::json!({"name": "Alice"})).await;
    let code = created["code"].as_str().unwrap();
    let mut alice = Client::join(running.addr, code, "Alice").await;
    let view = alice.view.clone().unwrap();
    assert!(view.seats.iter().filter(|s| s.occupant.as_ref().is_some_and(|o| o.is_bot())).count() == 2);
    assert!(view.deal.is_some(), "the table is already running");
    play_to_end(std::slice::from_mut(&mut alice)).await;
    assert!(alice.deal().unwrap().result.is_some());
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_reconnect_mid_deal_resumes_with_the_same_hand() {
    let db = temp_db("reconnect");
    let running = server(&db, FAST).await;
    let created = post(running.addr, "/api/play-vs-bots", serde_json::json!({"name": "Alice"})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut alice = Client::join(running.addr, &code, "Alice").await;
    let view =
        alice.until(|v| v.deal.as_ref().is_some_and(|d| d.phase != Phase::Auction || d.waiting_for == [0])).await;
    let hand = view.deal.unwrap().hand;
    drop(alice);
    // Once the server has seen the socket go (a watcher sees her seat disconnected), the name is free.
    let mut watcher = Client::watch(running.addr, &code).await;
    watcher.until(|v| !v.seats[0].connected).await;
    let again = Client::join(running.addr, &code, "ALICE").await;
    let view = again.view.clone().unwrap();
    assert_eq!(view.you, Some(0), "the same seat, whatever the case of the name");
    assert_eq!(view.deal.unwrap().hand, hand, "the same hand");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_server_restart_mid_deal_resumes_the_same_room_and_deal() {
    let db = temp_db("restart");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "noshuffle").await;
    clients[0].send(&Command::Start).await;
    // Play a few actions, then stop the server.
    play_some(&mut clients, 6).await;
    let before: Vec<_> = clients.iter().map(|c| c.deal().cloned().unwrap()).collect();
    drop(clients);
    assert!(running.stop().await, "the server stops in time");

    let running = server(&db, FAST).await;
    let mut again = Vec::new();
    for name in ["Alice", "Bea", "Cy"] {
        again.push(Client::join(running.addr, &code, name).await);
    }
    for (client, before) in again.iter().zip(&before) {
        let deal = client.deal().unwrap();
        assert_eq!(deal.hand, before.hand);
        assert_eq!(deal.actions, before.actions);
        assert_eq!(deal.waiting_for, before.waiting_for);
    }
    play_to_end(&mut again).await;
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_second_connection_cannot_take_a_connected_name() {
    let db = temp_db("second-connection");
    let running = server(&db, FAST).await;
    let code = invite_room(running.addr, "Alice", "house").await;
    let _alice = Client::join(running.addr, &code, "Alice").await;
    let mut impostor = Client::connect(running.addr, &code, "alice").await;
    let (code, message) = impostor.next_refusal().await;
    assert_eq!(code, ErrorCode::NameTaken, "{message}");
    let after = impostor.events_until_closed(Duration::from_secs(5)).await;
    assert!(after.is_empty(), "the second connection is closed, and sent nothing more: {after:?}");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn bad_input_gets_an_error_and_loses_nothing() {
    let db = temp_db("bad-input");
    let running = server(&db, FAST).await;
    let (_, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    let view = clients[0].until(|v| v.deal.is_some()).await;
    let n = clients[0].n;
    let turn = view.deal.unwrap().waiting_for[0];
    // A seat that is neither the one to act nor the host (seat 0).
    let other = if turn == 1 { 2 } else { 1 };

    // Malformed JSON and unknown commands.
    clients[other].send_text("{not json").await;
    assert_eq!(clients[other].next_refusal().await.0, ErrorCode::BadMessage);
    clients[other].send_text(r#"{"type":"launch_rockets"}"#).await;
    assert_eq!(clients[other].next_refusal().await.0, ErrorCode::BadMessage);
    // Out of turn.
    clients[other].send(&Command::Act { seq: 1, action: ClientAction::Take }).await;
    assert_eq!(clients[other].next_refusal().await.0, ErrorCode::NotYourTurn);
    // Not the host.
    clients[other].send(&Command::Close).await;
    assert_eq!(clients[other].next_refusal().await.0, ErrorCode::NotHost);
    // An illegal play: cards the player does not hold, in the auction (refused as not possible now;
    // guards.rs refuses cards not held in the play phase).
    clients[turn].until(|v| v.deal.is_some()).await;
    let hand = clients[turn].deal().unwrap().hand.unwrap();
    let stranger = CardSet::STANDARD_DECK.minus(hand).iter().next().unwrap();
    let cards = CardSet::from_cards([stranger]).unwrap();
    let play = ddz_engine::readings(&Rules::house(true), cards.counts()).unwrap()[0];
    clients[turn].send(&Command::Act { seq: 1, action: ClientAction::Play { cards, play } }).await;
    let (code, message) = clients[turn].next_refusal().await;
    assert_eq!(code, ErrorCode::WrongPhase, "{message}");
    // Nothing changed: the room is at the same event, and the deal goes on.
    clients[0].send(&Command::Ping).await;
    while !matches!(clients[0].recv().await, Event::Pong) {}
    assert_eq!(clients[0].n, n);
    play_to_end(&mut clients).await;

    // A flood is cut back, with an error; an oversized frame closes the connection with a reason.
    clients[1].keeps_rate = false;
    for _ in 0..60 {
        clients[1].send(&Command::Ping).await;
    }
    let limited = |e: &Event| matches!(e, Event::Error { code: ErrorCode::RateLimited, .. });
    clients[1].event_within(Duration::from_secs(5), limited).await;
    // Over MAX_FRAME (16 KiB): the server says why, then closes the socket (a silence would not pass).
    let huge = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(40_000));
    clients[2].send_text(&huge).await;
    let events = clients[2].events_until_closed(Duration::from_secs(5)).await;
    let errors: Vec<_> = events.iter().filter(|e| matches!(e, Event::Error { .. })).collect();
    assert!(
        matches!(errors[..], [Event::Error { code: ErrorCode::FrameTooLarge, .. }]),
        "one frame_too_large error before the close: {events:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Pong)), "the oversized ping was not answered");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_repeated_action_is_applied_once() {
    let db = temp_db("idempotent");
    let running = server(&db, FAST).await;
    let (_, mut clients) = three_players(running.addr, "house").await;
    let turn = start_deal(&mut clients).await;
    let action = ClientAction::Pass;
    clients[turn].send(&Command::Act { seq: 7, action: action.clone() }).await;
    clients[turn].send(&Command::Act { seq: 7, action }).await;
    // Both copies are answered as taken (a second pass applied would be refused as out of turn).
    for _ in 0..2 {
        let answer = |e: &Event| matches!(e, Event::Ack { .. } | Event::Error { .. });
        let event = clients[turn].event_within(Duration::from_secs(5), answer).await;
        assert_eq!(event, Event::Ack { seq: 7 }, "both copies are answered");
    }
    // The room answers a ping after everything sent before it: no state of a second pass is on its way.
    clients[turn].sync().await;
    let deal = clients[turn].deal().unwrap();
    assert_eq!(deal.actions.len(), 1, "but the pass is taken once");
    assert!(running.stop().await, "the server stops in time");
}

/// A client that missed a state (its next one continues from actions it never got) asks for the room again
/// with `sync`: the answer is the whole room, every action of the deal from the first, and the states after
/// it continue from there. A spectator may ask too.
#[tokio::test]
async fn sync_sends_the_whole_room_again_and_states_continue_from_it() {
    let db = temp_db("sync");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    start_deal(&mut clients).await;
    play_some(&mut clients, 2).await;
    for client in clients.iter_mut() {
        client.sync().await;
    }
    let turn = (0..3).find(|&seat| clients[seat].my_turn()).expect("someone's turn");
    let known = clients[turn].deal().unwrap().actions.len();
    assert!(known > 0);
    clients[turn].send(&Command::Sync).await;
    let whole = clients[turn].event_within(Duration::from_secs(5), |e| matches!(e, Event::State { .. })).await;
    let Event::State { room, .. } = whole else { unreachable!() };
    assert_eq!(room.actions_from, None, "a snapshot, not a continuation");
    assert_eq!(room.deal.as_ref().unwrap().actions.len(), known, "every action of the deal");
    // The next state continues from the snapshot.
    clients[turn].act().await;
    let next = clients[turn].event_within(Duration::from_secs(5), |e| matches!(e, Event::State { .. })).await;
    let Event::State { room, .. } = next else { unreachable!() };
    assert_eq!(room.actions_from, Some(known));
    let mut watcher = Client::watch(running.addr, &code).await;
    watcher.send(&Command::Sync).await;
    let whole = watcher.event_within(Duration::from_secs(5), |e| matches!(e, Event::State { .. })).await;
    let Event::State { room, .. } = whole else { unreachable!() };
    assert_eq!(room.actions_from, None, "a spectator's snapshot");
    assert!(running.stop().await, "the server stops in time");
}

/// The numbers are stored with the actions: a resend after a restart (the ack lost with the old server)
/// is answered, not applied again, and not refused as out of turn.
#[tokio::test]
async fn a_repeated_action_is_applied_once_across_a_restart() {
    let db = temp_db("idempotent-restart");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    let turn = start_deal(&mut clients).await;
    clients[turn].send(&Command::Act { seq: 7, action: ClientAction::Pass }).await;
    while !matches!(clients[turn].recv().await, Event::Ack { seq: 7 }) {}
    let name = clients[turn].name.clone();
    drop(clients);
    assert!(running.stop().await, "the server stops in time");

    let running = server(&db, FAST).await;
    let mut again = Client::join(running.addr, &code, &name).await;
    let before = again.deal().unwrap().actions.clone();
    assert_eq!(before.len(), 1, "the pass was stored");
    again.send(&Command::Act { seq: 7, action: ClientAction::Pass }).await;
    let answer = again.event_within(Duration::from_secs(5), |e| matches!(e, Event::Ack { .. } | Event::Error { .. }));
    assert_eq!(answer.await, Event::Ack { seq: 7 }, "the resend is answered as taken");
    again.sync().await;
    assert_eq!(again.deal().unwrap().actions, before, "and changes nothing");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn no_message_to_a_seat_contains_a_card_it_may_not_see() {
    let db = temp_db("hidden");
    let running = server(&db, FAST).await;
    for table in ["house", "noshuffle", "twoplayer"] {
        let code = invite_room(running.addr, "Alice", table).await;
        let mut clients = vec![Client::join(running.addr, &code, "Alice").await];
        let players = if table == "twoplayer" { 2 } else { 3 };
        for name in ["Bea", "Cy"].into_iter().take(players - 1) {
            let mut c = Client::join(running.addr, &code, name).await;
            c.send(&Command::Sit { seat: None }).await;
            c.until(|v| v.you.is_some()).await;
            clients.push(c);
        }
        for deal in 0..2 {
            clients[0].until(|v| v.seats.iter().all(|s| s.occupant.is_some())).await;
            clients[0].send(&Command::Start).await;
            clients[0].until(|v| v.deals_played == deal && v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
            play_to_end(&mut clients).await;
        }
        check_hidden_information(&clients);
    }
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn the_host_closes_the_room_everyone_sees_the_settlement_and_it_stays_readable() {
    let db = temp_db("close");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::SetWild { on: false }).await;
    let view = clients[1].until(|v| v.rules.to_string() == "house-nowild").await;
    assert!(
        view.log.iter().any(|l| matches!(l, LogLine::WildSet { on: false, rank: false, .. })),
        "the change is in everyone's log"
    );
    clients[0].send(&Command::Start).await;
    play_to_end(&mut clients).await;
    // Start a second deal and close mid-deal: that deal's pot is refunded.
    clients[0].send(&Command::Start).await;
    clients[0].until(|v| v.deals_played == 1 && v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
    clients[0].send(&Command::Close).await;
    let mut settlements = Vec::new();
    for client in clients.iter_mut() {
        let view = client.until(|v| v.closed).await;
        assert_eq!(view.deal.unwrap().result.unwrap().end, ddz_engine::End::Abandoned);
        settlements.push(view.settlement.clone());
        let balances: i64 = view.seats.iter().map(|s| s.balance.unwrap()).sum();
        assert_eq!(balances, 300);
    }
    assert!(settlements.windows(2).all(|w| w[0] == w[1]), "everyone sees the same settlement");
    assert!(!settlements[0].is_empty(), "someone won the first deal, so someone pays");
    // Closed rooms refuse changes but stay readable, after a restart too.
    clients[0].send(&Command::Start).await;
    assert_eq!(clients[0].next_refusal().await.0, ErrorCode::RoomClosed);
    drop(clients);
    assert!(running.stop().await, "the server stops in time");
    let running = server(&db, FAST).await;
    let summary = get(running.addr, &format!("/api/rooms/{code}")).await;
    assert_eq!(summary["closed"], true);
    assert_eq!(summary["settlement"].as_array().unwrap().len(), settlements[0].len());
    assert!(running.stop().await, "the server stops in time");
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next lobby event a watcher receives.
async fn next_lobby(watcher: &mut Socket) -> Vec<ddz_server::wire::pages::Summary> {
    let frame = tokio::time::timeout(Duration::from_secs(10), watcher.next()).await.expect("a lobby event in time");
    let Some(Ok(Message::Text(text))) = frame else { panic!("a lobby event") };
    match serde_json::from_str::<Event>(&text).unwrap() {
        Event::Lobby { tables } => tables,
        other => panic!("expected a lobby event, got {other:?}"),
    }
}

#[tokio::test]
async fn public_tables_are_listed_in_the_lobby_and_anyone_can_sit() {
    let db = temp_db("lobby");
    let running = server(&db, FAST).await;
    // A lobby watcher hears about tables as they open and fill.
    let (mut watcher, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", running.addr)).await.unwrap();
    watcher.send(Message::Text(r#"{"type":"watch_lobby"}"#.into())).await.unwrap();
    assert!(next_lobby(&mut watcher).await.is_empty());
    let created =
        post(running.addr, "/api/rooms", serde_json::json!({"name": "Alice", "table": "noshuffle", "public": true}))
            .await;
    let code = created["code"].as_str().unwrap().to_string();
    let lobby = get(running.addr, "/api/lobby").await;
    let table = &lobby["tables"][0];
    assert_eq!(table["code"], code.as_str());
    let house = serde_json::json!({"table": "house", "wild": true, "wild_rank": false});
    assert_eq!(table["rules"], house, "public tables always play House with the Wild");
    let tables = next_lobby(&mut watcher).await;
    assert_eq!(tables[0].code.as_str(), code, "the new table is pushed to the watcher");
    let mut stranger = Client::join(running.addr, &code, "Stranger").await;
    stranger.send(&Command::Sit { seat: None }).await;
    stranger.until(|v| v.you == Some(1)).await;
    let lobby = get(running.addr, "/api/lobby").await;
    assert_eq!(lobby["tables"][0]["seats"][1], "Stranger");
    // Later events bring the host's seat, then the stranger's.
    let mut tables = next_lobby(&mut watcher).await;
    while tables[0].seats[1].is_none() {
        tables = next_lobby(&mut watcher).await;
    }
    assert_eq!(tables[0].seats[1].as_deref(), Some("Stranger"), "so is the seat taken");
    // Boards answer, unknown boards are a clear 404.
    let board = get(running.addr, "/api/boards/lobby").await;
    assert!(board["rows"].is_array());
    let missing = common::http(running.addr, "GET", "/api/boards/nonsense", None).await;
    assert_eq!((missing.status, missing.body["code"].as_str()), (404, Some("unknown_board")));
    assert!(running.stop().await, "the server stops in time");
}

/// RULES.md 8: the host changes Wild Rank for the next deal at No Shuffle and Two Player too, and the
/// change is written in everyone's log.
#[tokio::test]
async fn the_host_turns_wild_rank_on_for_the_next_deal() {
    let db = temp_db("wild-rank-chip");
    let running = server(&db, FAST).await;
    for (table, two) in [("noshuffle", false), ("twoplayer", true)] {
        let created =
            post(running.addr, "/api/rooms", serde_json::json!({"name": "Alice", "table": table, "wild": false})).await;
        let code = created["code"].as_str().expect("a room code").to_string();
        let mut clients = vec![Client::join(running.addr, &code, "Alice").await];
        assert_eq!(clients[0].view.as_ref().unwrap().rules.to_string(), table);
        for name in if two { &["Bea"][..] } else { &["Bea", "Cy"][..] } {
            let mut c = Client::join(running.addr, &code, name).await;
            c.send(&Command::Sit { seat: None }).await;
            c.until(|v| v.you.is_some()).await;
            clients.push(c);
        }
        clients[0].send(&Command::SetWild { on: true }).await;
        let wanted = format!("{table}-wildrank");
        let view = clients[1].until(|v| v.rules.to_string() == wanted).await;
        assert!(
            view.log.iter().any(|l| l.to_string() == "Alice turned Wild Rank on for the next deal"),
            "{:?}",
            view.log
        );
        clients[0].send(&Command::Start).await;
        let view = clients[0].until(|v| v.deal.is_some()).await;
        assert!(view.deal.unwrap().wild_rank.is_some(), "the deal after the change draws a wild rank");
        // Turned off during the deal: this deal keeps its rank, the next one has none.
        clients[0].send(&Command::SetWild { on: false }).await;
        let view = clients[0].until(|v| v.rules.to_string() == table).await;
        assert!(view.deal.unwrap().wild_rank.is_some());
        play_to_end(&mut clients).await;
        clients[0].send(&Command::Start).await;
        let view =
            clients[0].until(|v| v.deals_played == 1 && v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
        assert_eq!(view.deal.unwrap().wild_rank, None);
    }
    assert!(running.stop().await, "the server stops in time");
}

/// A player hands their turns to the bot: the bot plays them at its own pace (not as timeouts),
/// everyone sees it on the seat and in the log, and the player takes them back. A watcher cannot.
#[tokio::test]
async fn a_player_hands_their_turns_to_the_bot_and_takes_them_back() {
    let db = temp_db("auto-play");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "noshuffle").await;
    let mut bea = clients.remove(1);
    bea.send(&Command::AutoPlay { on: true }).await;
    let view = clients[0].until(|v| v.seats[1].auto_play).await;
    assert!(view.log.iter().any(|l| l.to_string() == "Bea handed their turns to the bot"), "{:?}", view.log);
    clients[0].send(&Command::Start).await;
    clients[0].until(|v| v.deal.is_some()).await;
    // Only Alice and Cy act; Bea's turns are played for her within milliseconds, far inside 40 s.
    play_to_end(&mut clients).await;
    let view = clients[0].view.clone().unwrap();
    let deal = view.deal.unwrap();
    assert!(deal.actions.iter().any(|a| a.seat() == Some(1)), "the bot acted for Bea");
    assert!(view.timed_out.is_empty(), "handed-over turns are not timeouts: {:?}", view.timed_out);
    bea.send(&Command::AutoPlay { on: false }).await;
    let view = clients[0].until(|v| !v.seats[1].auto_play).await;
    assert!(view.log.iter().any(|l| l.to_string() == "Bea took their turns back from the bot"));
    let mut dan = Client::join(running.addr, &code, "Dan").await;
    dan.send(&Command::AutoPlay { on: true }).await;
    assert_eq!(dan.next_refusal().await.0, ErrorCode::NotSeated);
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_name_a_bot_holds_never_sees_its_hand_nor_moves_for_it() {
    let running = server(&temp_db("bot-name"), FAST).await;
    let created = post(running.addr, "/api/play-vs-bots", serde_json::json!({"name": "Ann", "level": "normal"})).await;
    let code = created["code"].as_str().expect("a room").to_string();
    let ann = Client::join(running.addr, &code, "Ann").await;
    let bots: Vec<String> = ann.view.as_ref().unwrap().seats[1..]
        .iter()
        .map(|s| s.occupant.as_ref().expect("a bot").name().to_string())
        .collect();
    for bot in bots.iter().flat_map(|b| [b.clone(), b.to_uppercase()]) {
        let mut impostor = Client::connect(running.addr, &code, &bot).await;
        match impostor.recv().await {
            Event::Error { code: ErrorCode::NameTaken, .. } => {}
            other => panic!("{bot} was let in as the bot: {other:?}"),
        }
        assert!(impostor.view.is_none(), "no state reached {bot}");
    }
    // Nor does a new room seat its creator in a bot's place.
    let taken = post(running.addr, "/api/play-vs-bots", serde_json::json!({"name": bots[0]})).await;
    assert!(taken["code"].is_string(), "a bot's name is free at another table: {taken}");
    assert!(running.stop().await, "the server stops in time");
}
