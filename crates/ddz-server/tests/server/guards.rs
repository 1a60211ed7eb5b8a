//! The server's guards over real sockets: bounded work for hints and readings, per-address rate limits,
//! names, unknown rooms, and the protocol's error codes, `seq` on every refused `act`, `ack` before `state`.

use crate::common;

use std::time::Duration;

use common::{
    Client, FAST, catch_up, guarded_server, http, http_text, play_some, post, server, temp_db, three_players,
};
use ddz_engine::{Card, CardSet, Phase, Rules};
use ddz_server::Guards;
use ddz_server::Rate;
use ddz_server::protocol::{ClientAction, Command, ErrorCode, Event};
use serde_json::{Value, json};

/// Every card of the largest deck: 55 cards, no real hand.
fn every_card() -> Vec<String> {
    let mut deck = CardSet::STANDARD_DECK;
    deck.insert(Card::WILD);
    deck.iter().map(|c| c.to_string()).collect()
}

/// The first `n` cards of the House deck with the Wild (4 of each rank from 3 up, the jokers, the Wild).
fn first_cards(n: usize) -> Vec<String> {
    let mut cards = every_card();
    cards.sort_by_key(|c| if c == "W" { 0 } else { 1 });
    cards.truncate(n);
    cards
}

#[tokio::test]
async fn hints_and_readings_refuse_hands_larger_than_any_real_one_and_cap_their_answers() {
    let db = temp_db("guard-hand");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let all = every_card();
    assert_eq!(all.len(), 55);
    for path in ["/api/hints", "/api/readings"] {
        let answer = http(addr, "POST", path, Some(json!({"rules": "house", "hand": all, "cards": all}))).await;
        assert_eq!(answer.status, 400, "{answer:?}");
        assert_eq!(answer.body["code"], "hand_too_large");
        assert!(answer.body["message"].as_str().unwrap().contains("21"), "{answer:?}");
    }
    // 22 cards is one too many; 21 (the House landlord's with the Wild) is answered, at most 200 plays.
    let answer = http(addr, "POST", "/api/hints", Some(json!({"rules": "house", "hand": first_cards(22)}))).await;
    assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("hand_too_large")));
    let hand = first_cards(21);
    let answer = http(addr, "POST", "/api/hints", Some(json!({"rules": "house", "hand": hand}))).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let plays = answer.body["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 200, "capped");
    assert_eq!(answer.body["truncated"], true);
    let few = post(addr, "/api/hints", json!({"rules": "house", "hand": ["3S", "4S"]})).await;
    assert_eq!(few["truncated"], false);
    let readings =
        http(addr, "POST", "/api/readings", Some(json!({"rules": "house", "hand": hand, "cards": hand[..5]}))).await;
    assert_eq!(readings.status, 200, "{readings:?}");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_full_work_pool_answers_busy_at_once() {
    let db = temp_db("guard-busy");
    let guards = Guards { work_threads: 1, ..Guards::default() };
    let running = guarded_server(&db, FAST, guards).await;
    let pool = running.rooms.pool().clone();
    assert_eq!(pool.size(), 1);
    // Hold the only thread.
    let (started_tx, started) = std::sync::mpsc::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = tokio::spawn(async move {
        pool.try_run(move || {
            started_tx.send(()).unwrap();
            released.recv().unwrap();
        })
        .await
    });
    tokio::task::spawn_blocking(move || started.recv().unwrap()).await.unwrap();
    let position = json!({"rules": "house", "hand": ["3S", "3H", "4C"], "cards": ["3S"]});
    for path in ["/api/hints", "/api/readings"] {
        let answer = http(running.addr, "POST", path, Some(position.clone())).await;
        assert_eq!(answer.status, 503, "{answer:?}");
        assert_eq!(answer.body["code"], "busy");
    }
    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let answer = http(running.addr, "POST", "/api/hints", Some(position)).await;
    assert_eq!(answer.status, 200, "free again: {answer:?}");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn api_requests_and_new_websockets_are_limited_per_address() {
    let db = temp_db("guard-rate");
    let guards = Guards { api: Rate::new(0.5, 3.0), websockets: Rate::new(0.5, 2.0), ..Guards::default() };
    let running = guarded_server(&db, FAST, guards).await;
    let addr = running.addr;
    for _ in 0..3 {
        assert_eq!(http(addr, "GET", "/api/lobby", None).await.status, 200);
    }
    let limited = http(addr, "GET", "/api/lobby", None).await;
    assert_eq!(limited.status, 429, "{limited:?}");
    assert_eq!(limited.body["code"], "rate_limited");
    assert!(limited.headers.contains("retry-after: 2"), "{}", limited.headers);
    // Every API path counts.
    assert_eq!(http(addr, "POST", "/api/hints", Some(json!({}))).await.status, 429);

    // WebSockets have their own bucket: two new ones, then a 429 before the upgrade.
    let url = format!("ws://{addr}/ws");
    let _first = tokio_tungstenite::connect_async(&url).await.expect("the first websocket");
    let _second = tokio_tungstenite::connect_async(&url).await.expect("the second websocket");
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
            assert!(response.headers().contains_key("retry-after"));
        }
        Err(other) => panic!("expected a 429, got {other}"),
        Ok(_) => panic!("the third websocket within the second was accepted"),
    }
    assert!(running.stop().await, "the server stops in time");
}

/// Names that could not be told apart from others, or that are no names at all.
fn bad_names() -> Vec<String> {
    vec![
        String::new(),
        "   ".into(),
        "x".repeat(25),
        "x".repeat(300),
        "Alice\u{202E}".into(),
        "\u{202E}ecilA".into(),
        "Al\u{2066}ice".into(),
        "Al\u{200B}ice".into(),
        "Bell\u{7}".into(),
        "new\nline".into(),
    ]
}

/// A name as a URL path segment.
fn escaped(name: &str) -> String {
    name.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

#[tokio::test]
async fn bad_names_get_a_400_everywhere_and_a_bad_name_error_in_a_hello() {
    let db = temp_db("guard-names");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    for name in bad_names() {
        for (path, body) in [
            ("/api/rooms", json!({"name": name, "table": "house"})),
            ("/api/play-vs-bots", json!({"name": name})),
            ("/api/challenges", json!({"name": name, "kind": "buster"})),
        ] {
            let answer = http(addr, "POST", path, Some(body)).await;
            assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("bad_name")), "{name:?} {path}");
        }
        if !name.trim().is_empty() {
            for path in [
                format!("/api/players/{}", escaped(&name)),
                format!("/api/rallies/2026-11-29/compare/{}", escaped(&name)),
            ] {
                let answer = http(addr, "GET", &path, None).await;
                assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("bad_name")), "{path}");
            }
        }
    }
    // Good names of every kind pass: 24 characters, Chinese, an emoji with a joiner.
    for name in ["x".repeat(24), "小明".into(), "Ann 👩\u{200D}💻".into()] {
        let answer = http(addr, "POST", "/api/rooms", Some(json!({"name": name, "table": "house"}))).await;
        assert_eq!(answer.status, 200, "{name:?}: {answer:?}");
        assert_eq!(http(addr, "GET", &format!("/api/players/{}", escaped(&name)), None).await.status, 200);
    }
    let code = post(addr, "/api/rooms", json!({"name": "Alice", "table": "house"})).await["code"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["x".repeat(25), "Mallory\u{202E}".into(), String::new()] {
        let mut client = Client::connect(addr, &code, &name).await;
        match client.recv().await {
            Event::Error { code, .. } => assert_eq!(code, ErrorCode::BadName, "{name:?}"),
            other => panic!("{name:?} was let in: {other:?}"),
        }
        let after = client.events_until_closed(Duration::from_secs(5)).await;
        assert!(after.is_empty(), "{name:?}: the socket closes, nothing more sent: {after:?}");
    }
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn unknown_rooms_are_404_on_every_room_path_and_refused_in_a_hello() {
    let db = temp_db("guard-unknown");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    for path in ["/api/rooms/NOPE99", "/api/rooms/NOPE99/deals", "/api/rooms/nope99/deals"] {
        let answer = http(addr, "GET", path, None).await;
        assert_eq!((answer.status, answer.body["code"].as_str()), (404, Some("unknown_room")), "{path}");
    }
    let mut client = Client::connect(addr, "NOPE99", "Alice").await;
    match client.recv().await {
        Event::Error { code, .. } => assert_eq!(code, ErrorCode::UnknownRoom),
        other => panic!("{other:?}"),
    }
    // A real room's deals answer, empty.
    let code = post(addr, "/api/rooms", json!({"name": "Alice", "table": "house"})).await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let deals = http(addr, "GET", &format!("/api/rooms/{code}/deals"), None).await;
    assert_eq!((deals.status, deals.body["deals"].clone()), (200, json!([])));
    // Unknown boards and endpoints are 404s with codes too.
    let board = http(addr, "GET", "/api/boards/nonsense", None).await;
    assert_eq!((board.status, board.body["code"].as_str()), (404, Some("unknown_board")));
    let endpoint = http(addr, "GET", "/api/nonsense", None).await;
    assert_eq!((endpoint.status, endpoint.body["code"].as_str()), (404, Some("not_found")));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn a_body_or_path_the_server_cannot_read_is_refused_as_json_with_a_code() {
    let db = temp_db("guard-unreadable");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let json = Some("application/json");
    for (method, path, content_type, body, status) in [
        ("POST", "/api/rooms", json, r#"{"name": "Alice", "table""#, 400),
        ("POST", "/api/rooms", json, "not json at all", 400),
        ("POST", "/api/rooms", None, r#"{"name": "Alice", "table": "house"}"#, 415),
        ("POST", "/api/rooms", Some("text/plain"), r#"{"name": "Alice", "table": "house"}"#, 415),
        ("POST", "/api/rooms", json, r#"{"table": "house"}"#, 422),
        ("POST", "/api/play-vs-bots", json, r#"{"name": 7}"#, 422),
        ("POST", "/api/play-vs-bots", json, r#"{"name": "Ann", "level": "kobold"}"#, 422),
        ("POST", "/api/rooms", json, r#"{"name": "Ann", "table": "poker"}"#, 422),
        ("POST", "/api/challenges", json, r#"{"name": "Ann", "kind": "marathon"}"#, 422),
        ("POST", "/api/challenges", json, "[]", 422),
        ("POST", "/api/hints", json, "{", 400),
        ("POST", "/api/readings", json, "", 400),
        ("GET", "/api/rooms/%FF%FE", None, "", 400),
        ("GET", "/api/players/%C3", None, "", 400),
        ("GET", "/api/boards/rally?date=2026-11-29&date=2026-11-30", None, "", 400),
        ("GET", "/api/rooms", None, "", 405),
        ("DELETE", "/api/lobby", None, "", 405),
        ("POST", "/healthz", json, "{}", 405),
        ("GET", "/ws", None, "", 400),
    ] {
        let answer = http_text(addr, method, path, content_type, body).await;
        let code = if status == 405 { "method_not_allowed" } else { "bad_request" };
        assert_eq!((answer.status, answer.body["code"].as_str()), (status, Some(code)), "{path} {body:?}");
        assert!(answer.body["message"].as_str().is_some_and(|m| !m.is_empty()), "{path}: {answer:?}");
        assert!(answer.headers.contains("content-type: application/json"), "{path}: {answer:?}");
    }
    // Nothing was lost: the server still answers a good request.
    let room = http(addr, "POST", "/api/rooms", Some(json!({"name": "Alice", "table": "house"}))).await;
    assert_eq!(room.status, 200, "{room:?}");
    assert!(running.stop().await, "the server stops in time");
}

/// Waits until the deal the host started has reached every client, and every client has the latest state.
async fn dealt(clients: &mut [Client]) {
    for client in clients.iter_mut() {
        client.until(|v| v.deal.is_some()).await;
    }
    catch_up(clients).await;
}

/// The next error event: its code and seq.
async fn next_refusal(client: &mut Client) -> (ErrorCode, Option<u64>) {
    loop {
        if let Event::Error { code, seq, .. } = client.recv().await {
            return (code, seq);
        }
    }
}

#[tokio::test]
async fn the_ack_arrives_before_the_state_the_action_caused() {
    let db = temp_db("guard-ack");
    let running = server(&db, FAST).await;
    let mut clients = three_players(running.addr, "house").await.1;
    clients[0].send(&Command::Start).await;
    dealt(&mut clients).await;
    // Every action of the auction and the first plays: the acting client hears its ack first.
    for _ in 0..12 {
        let Some(turn) = clients.iter().position(|c| c.my_turn()) else { break };
        let before = clients[turn].n;
        clients[turn].act().await;
        let seq = clients[turn].last_seq();
        match clients[turn].recv().await {
            Event::Ack { seq: acked } => assert_eq!(acked, seq),
            other => panic!("expected the ack first, got {other:?}"),
        }
        match clients[turn].recv().await {
            Event::State { n, .. } => assert_eq!(n, before + 1, "then the state it caused"),
            other => panic!("expected the state, got {other:?}"),
        }
        catch_up(&mut clients).await;
    }
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn every_refused_act_carries_its_seq_and_every_error_a_code() {
    let db = temp_db("guard-codes");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let mut clients = three_players(addr, "house").await.1;
    clients[0].send(&Command::Start).await;
    let view = clients[0].until(|v| v.deal.is_some()).await;
    let turn = view.deal.unwrap().waiting_for[0];
    let other = if turn == 1 { 2 } else { 1 };
    dealt(&mut clients).await;

    // An act whose action does not parse, and one that is not even JSON past its envelope.
    clients[other].send_text(r#"{"type":"act","seq":41,"action":{"action":"fly"}}"#).await;
    assert_eq!(next_refusal(&mut clients[other]).await, (ErrorCode::BadMessage, Some(41)));
    clients[other].send_text(r#"{"type":"act","seq":42}"#).await;
    assert_eq!(next_refusal(&mut clients[other]).await, (ErrorCode::BadMessage, Some(42)));
    clients[other].send_text("{not json").await;
    assert_eq!(next_refusal(&mut clients[other]).await, (ErrorCode::BadMessage, None));
    // Out of turn, not the host, a name already connected.
    clients[other].send(&Command::Act { seq: 43, action: ClientAction::Take }).await;
    assert_eq!(next_refusal(&mut clients[other]).await, (ErrorCode::NotYourTurn, Some(43)));
    clients[other].send(&Command::Close).await;
    assert_eq!(next_refusal(&mut clients[other]).await, (ErrorCode::NotHost, None));
    let code = clients[0].view.as_ref().unwrap().code.to_string();
    let mut impostor = Client::connect(addr, &code, "BEA").await;
    assert_eq!(next_refusal(&mut impostor).await, (ErrorCode::NameTaken, None));

    // Play the auction out; then an illegal play: a card the player does not hold.
    for _ in 0..10 {
        if clients[0].deal().is_some_and(|d| d.phase == Phase::Play) {
            break;
        }
        play_some(&mut clients, 1).await;
    }
    let turn = clients.iter().position(|c| c.my_turn()).expect("someone leads");
    assert_eq!(clients[turn].deal().unwrap().phase, Phase::Play);
    let hand = clients[turn].deal().unwrap().hand.unwrap();
    let stranger = CardSet::STANDARD_DECK.minus(hand).iter().next().unwrap();
    let cards = CardSet::from_cards([stranger]).unwrap();
    let play = ddz_engine::readings(&Rules::house(true), cards.counts()).unwrap()[0];
    // (Numbers above the player's last: one not above is taken for a resend and answered with an ack.)
    let seq = clients[turn].next_seq();
    clients[turn].send(&Command::Act { seq, action: ClientAction::Play { cards, play } }).await;
    assert_eq!(next_refusal(&mut clients[turn]).await, (ErrorCode::NotInHand, Some(seq)));

    // A flood of acts: those dropped by the rate limit carry their seq as well.
    let flooder = (turn + 1) % 3;
    let first = clients[flooder].next_seq();
    let flood = first..first + 40;
    clients[flooder].keeps_rate = false;
    for seq in flood.clone() {
        clients[flooder].send(&Command::Act { seq, action: ClientAction::Pass }).await;
    }
    // Every error until the first that the rate limit caused carries its act's seq.
    let limited = clients[flooder]
        .event_within(Duration::from_secs(5), |event| {
            let Event::Error { code, seq, .. } = event else { return false };
            let seq = seq.expect("a refused act carries its seq");
            assert!(flood.contains(&seq), "{seq}");
            *code == ErrorCode::RateLimited
        })
        .await;
    assert!(matches!(limited, Event::Error { seq: Some(_), .. }), "the flood was limited with seqs: {limited:?}");
    // Every error event on the wire has a code.
    for client in &clients {
        for raw in &client.raw {
            let value: Value = serde_json::from_str(raw).unwrap();
            if value["type"] == "error" {
                assert!(value["code"].is_string(), "{raw}");
            }
        }
    }
    assert!(running.stop().await, "the server stops in time");
}

#[test]
fn every_error_code_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/protocol.md")).unwrap();
    for code in ErrorCode::all() {
        let name = code.as_str();
        assert!(doc.contains(&format!("| `{name}` |")), "docs/protocol.md does not list {name}");
    }
}
