//! Protected names (`docs/names.md`) over real sockets: protecting a name, strangers refused on every
//! entry point (HTTP and the WebSocket's `hello`), the owner's key accepted, recovery rotating the key,
//! wrong guesses rate-limited, unprotected names as before, the boards' and stats' marks, and only
//! digests kept in the database; and the same on PostgreSQL, the database a cluster's nodes share.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::services::Postgres;
use common::{Answer, Client, FAST, get, http, post, server, server_on, temp_db};
use ddz_server::protocol::{Command, ErrorCode, Event};
use serde_json::json;

async fn protect(addr: SocketAddr, name: &str) -> (String, String) {
    let answer = http(addr, "POST", "/api/names/protect", Some(json!({ "name": name }))).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let (key, recovery) = (answer.body["key"].as_str().unwrap(), answer.body["recovery"].as_str().unwrap());
    assert_eq!(key.len(), 64, "256 bits in hex: {key}");
    assert_eq!(recovery.len(), 23, "20 digits in four groups: {recovery}");
    (key.to_string(), recovery.to_string())
}

async fn recover(addr: SocketAddr, name: &str, code: &str) -> Answer {
    http(addr, "POST", "/api/names/recover", Some(json!({ "name": name, "code": code }))).await
}

/// `POST /api/play-vs-bots` as `name`, with `key` or none.
async fn play_vs_bots(addr: SocketAddr, name: &str, key: Option<&str>) -> Answer {
    http(addr, "POST", "/api/play-vs-bots", Some(json!({ "name": name, "key": key }))).await
}

fn assert_refused(answer: &Answer, status: u16, code: ErrorCode) {
    assert_eq!(answer.status, status, "{answer:?}");
    assert_eq!(answer.body["code"], code.as_str(), "{answer:?}");
}

/// A `hello` to room `code` as `name` with `key`: the first event the server answers.
async fn hello(addr: SocketAddr, code: &str, name: &str, key: Option<&str>) -> (Client, Event) {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("websocket");
    let mut client = Client::over(ws, name);
    let key = key.map(str::to_string);
    client.send(&Command::Hello { room: code.into(), name: name.into(), token: None, key, browser: None }).await;
    let first = client.recv().await;
    (client, first)
}

fn is_refusal(event: &Event, wanted: ErrorCode) -> bool {
    matches!(event, Event::Error { code, .. } if *code == wanted)
}

#[tokio::test]
async fn strangers_are_refused_a_protected_name_everywhere_and_its_key_proves_it() {
    let db = temp_db("protected-names");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let (key, _) = protect(addr, "Ann").await;
    // Names are case-insensitive: nobody protects "ANN" again, not even with its own secrets.
    let again = http(addr, "POST", "/api/names/protect", Some(json!({"name": " ANN "}))).await;
    assert_refused(&again, 409, ErrorCode::AlreadyProtected);

    // A stranger, on every HTTP entry point that acts as a name: no key, and a wrong one.
    let wrong = "0".repeat(64);
    for key in [None, Some(wrong.as_str())] {
        assert_refused(&play_vs_bots(addr, "ann", key).await, 403, ErrorCode::NameProtected);
        let body = json!({"name": "Ann", "table": "house", "key": key});
        assert_refused(&http(addr, "POST", "/api/rooms", Some(body)).await, 403, ErrorCode::NameProtected);
        let body = json!({"name": "Ann", "kind": "buster", "key": key});
        assert_refused(&http(addr, "POST", "/api/challenges", Some(body)).await, 403, ErrorCode::NameProtected);
    }

    // The owner, with the key: plays vs bots, and enters the room.
    let created = play_vs_bots(addr, "ann", Some(&key)).await;
    assert_eq!(created.status, 200, "{created:?}");
    let code = created.body["code"].as_str().unwrap().to_string();
    let (mut ann, first) = hello(addr, &code, "Ann", Some(&key)).await;
    assert!(matches!(first, Event::Session { .. }), "{first:?}");
    assert_eq!(ann.next_state().await.you, Some(0));

    // A stranger's hello is refused and the socket closed, with or without a wrong key.
    for key in [None, Some(wrong.as_str())] {
        let (mut stranger, first) = hello(addr, &code, "ANN", key).await;
        assert!(is_refusal(&first, ErrorCode::NameProtected), "{first:?}");
        assert!(stranger.events_until_closed(Duration::from_secs(5)).await.is_empty());
    }
    ann.sync().await;
    assert!(!ann.closed, "the owner's connection is untouched");

    // An unprotected name works as it always did, and a key sent with it changes nothing.
    let bob = play_vs_bots(addr, "Bob", None).await;
    assert_eq!(bob.status, 200, "{bob:?}");
    assert_eq!(play_vs_bots(addr, "Bob", Some("anything")).await.status, 200);
    let (_, first) = hello(addr, bob.body["code"].as_str().unwrap(), "Bob", None).await;
    assert!(matches!(first, Event::Session { .. }), "{first:?}");

    assert_marked(addr, [("Ann", Some(key.as_str())), ("Bob", None)]).await;
    assert!(running.stop().await);
}

/// Stats and boards mark the protected names among `players` (each with its key, if protected): a Bot
/// Buster run each, abandoned at once, puts them on the board.
async fn assert_marked<const N: usize>(addr: SocketAddr, players: [(&str, Option<&str>); N]) {
    for (name, key) in players {
        let stats = get(addr, &format!("/api/players/{}", name.to_uppercase())).await;
        assert_eq!(stats["protected"], key.is_some(), "{name}: {stats}");
        let started = post(addr, "/api/challenges", json!({"name": name, "kind": "buster", "key": key})).await;
        let (mut player, first) = hello(addr, started["code"].as_str().unwrap(), name, key).await;
        // Said when it fails, so that the cause shows (a refusal here closes the socket before any state).
        assert!(matches!(first, Event::Session { .. }), "{name}'s hello: {first:?}");
        player.next_state().await;
        player.send(&Command::Close).await;
        player.until(|v| v.closed).await;
    }
    let board = get(addr, "/api/boards/buster").await;
    for (name, key) in players {
        let rows = board["rows"].as_array().unwrap();
        let row = rows.iter().find(|row| row["name"] == name).unwrap_or_else(|| panic!("{name} on {board}"));
        assert_eq!(row["protected"], key.is_some(), "{name}: {row}");
    }
}

#[tokio::test]
async fn recovery_gives_a_new_key_and_code_and_the_old_ones_stop_working() {
    let db = temp_db("recover-names");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let (old_key, old_code) = protect(addr, "Cleo").await;

    assert_refused(&recover(addr, "Cleo", "00000-00000-00000-00000").await, 403, ErrorCode::WrongRecoveryCode);
    assert_refused(&recover(addr, "Cleo", "not a code").await, 403, ErrorCode::WrongRecoveryCode);
    assert_refused(&recover(addr, "Nobody", &old_code).await, 404, ErrorCode::NameNotProtected);
    // Typed back in lower case without dashes, on another device.
    let typed = old_code.replace('-', "").to_lowercase();
    let recovered = recover(addr, "cleo", &typed).await;
    assert_eq!(recovered.status, 200, "{recovered:?}");
    let new_key = recovered.body["key"].as_str().unwrap();
    let new_code = recovered.body["recovery"].as_str().unwrap();
    assert_ne!((new_key, new_code), (old_key.as_str(), old_code.as_str()));

    assert_refused(&play_vs_bots(addr, "Cleo", Some(&old_key)).await, 403, ErrorCode::NameProtected);
    assert_refused(&recover(addr, "Cleo", &old_code).await, 403, ErrorCode::WrongRecoveryCode);
    let created = play_vs_bots(addr, "Cleo", Some(new_key)).await;
    assert_eq!(created.status, 200, "{created:?}");
    let code = created.body["code"].as_str().unwrap();
    let (_, first) = hello(addr, code, "Cleo", Some(&old_key)).await;
    assert!(is_refusal(&first, ErrorCode::NameProtected), "the old key's hello: {first:?}");
    let (_, first) = hello(addr, code, "Cleo", Some(new_key)).await;
    assert!(matches!(first, Event::Session { .. }), "the new key's hello: {first:?}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn wrong_recovery_codes_are_limited_per_name() {
    let db = temp_db("guess-codes");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let (_, code) = protect(addr, "Dee").await;
    for _ in 0..10 {
        assert_refused(&recover(addr, "Dee", "00000-00000-00000-00000").await, 403, ErrorCode::WrongRecoveryCode);
    }
    // The eleventh guess is not even checked: the right code waits too.
    let limited = recover(addr, "DEE", &code).await;
    assert_refused(&limited, 429, ErrorCode::TooManyGuesses);
    let wait: u64 = header(&limited, "retry-after").parse().unwrap();
    assert!((1..=60).contains(&wait), "a guess comes back within a minute: {wait}");
    // Another name's recovery is its own count (this address has guesses left).
    let (_, other) = protect(addr, "Eli").await;
    assert_eq!(recover(addr, "Eli", &other).await.status, 200);
    assert!(running.stop().await);
}

#[tokio::test]
async fn wrong_keys_are_limited_per_address() {
    let db = temp_db("guess-keys");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let (key, _) = protect(addr, "Fay").await;
    // No key at all is no guess: a stranger typing the name is told, however often.
    for _ in 0..12 {
        assert_refused(&play_vs_bots(addr, "Fay", None).await, 403, ErrorCode::NameProtected);
    }
    // The owner's right key gives its guess back.
    for _ in 0..3 {
        assert_eq!(play_vs_bots(addr, "Fay", Some(&key)).await.status, 200);
    }
    let wrong = "f".repeat(64);
    for _ in 0..30 {
        assert_refused(&play_vs_bots(addr, "Fay", Some(&wrong)).await, 403, ErrorCode::NameProtected);
    }
    assert_refused(&play_vs_bots(addr, "Fay", Some(&wrong)).await, 429, ErrorCode::TooManyGuesses);
    // A hello from the same address waits as well.
    let room = post(addr, "/api/rooms", json!({"name": "Gus", "table": "house"})).await;
    let (_, first) = hello(addr, room["code"].as_str().unwrap(), "Fay", Some(&wrong)).await;
    assert!(is_refusal(&first, ErrorCode::TooManyGuesses), "{first:?}");
    assert!(running.stop().await);
}

#[tokio::test]
async fn an_address_protects_a_few_names_an_hour() {
    let db = temp_db("protects");
    let running = server(&db, FAST).await;
    for n in 1..=5 {
        protect(running.addr, &format!("Squat{n}")).await;
    }
    let sixth = http(running.addr, "POST", "/api/names/protect", Some(json!({"name": "Squat6"}))).await;
    assert_refused(&sixth, 429, ErrorCode::RateLimited);
    assert!(header(&sixth, "retry-after").parse::<u64>().unwrap() > 60, "about 12 minutes: {sixth:?}");
    assert_eq!(get(running.addr, "/api/players/Squat6").await["protected"], false);
    assert!(running.stop().await);
}

#[tokio::test]
async fn the_database_keeps_only_digests_of_the_secrets() {
    let db = temp_db("name-digests");
    let running = server(&db, FAST).await;
    let (key, code) = protect(running.addr, "Hal").await;
    let recovered = recover(running.addr, "Hal", &code).await;
    let (new_key, new_code) = (recovered.body["key"].as_str().unwrap(), recovered.body["recovery"].as_str().unwrap());
    assert!(running.stop().await);
    // Every byte the database wrote (its file and its write-ahead log): the name is there, no secret is, in
    // any form the code may be typed.
    let mut stored = Vec::new();
    for suffix in ["", "-wal"] {
        stored.extend(std::fs::read(format!("{}{suffix}", db.display())).unwrap_or_default());
    }
    let stored = String::from_utf8_lossy(&stored).to_lowercase();
    assert!(stored.contains("hal"), "the name is stored");
    for secret in [key.as_str(), code.as_str(), new_key, new_code] {
        for form in [secret.to_lowercase(), secret.replace('-', "").to_lowercase()] {
            assert!(!stored.contains(&form), "{form} is in the database");
        }
    }
}

fn header<'a>(answer: &'a Answer, name: &str) -> &'a str {
    answer
        .headers
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no {name} in {}", answer.headers))
        .trim()
}

/// PostgreSQL, the database a cluster's nodes share: its migration, the protect's insert, the recovery's
/// conditional update, and the boards' marks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protected_names_hold_on_postgres() {
    let postgres = Postgres::start("names");
    let running = server_on(&postgres.url(), FAST).await;
    let addr = running.addr;
    let (old_key, code) = protect(addr, "Ivy").await;
    let again = http(addr, "POST", "/api/names/protect", Some(json!({"name": "IVY"}))).await;
    assert_refused(&again, 409, ErrorCode::AlreadyProtected);
    assert_refused(&play_vs_bots(addr, "ivy", None).await, 403, ErrorCode::NameProtected);
    let recovered = recover(addr, "Ivy", &code).await;
    assert_eq!(recovered.status, 200, "{recovered:?}");
    let key = recovered.body["key"].as_str().unwrap();
    assert_refused(&play_vs_bots(addr, "Ivy", Some(&old_key)).await, 403, ErrorCode::NameProtected);
    assert_refused(&recover(addr, "Ivy", &code).await, 403, ErrorCode::WrongRecoveryCode);
    assert_marked(addr, [("Ivy", Some(key)), ("Jo", None)]).await;
    assert!(running.stop().await);
}

/// docs/names.md, "One name in every spelling": every look-alike of a protected name is that name (refused
/// without its key) or no name at all (refused with its reason), on every way in; and a look-alike of a
/// name already seated is that player.
#[tokio::test]
async fn every_look_alike_spelling_of_a_protected_name_is_refused() {
    let db = temp_db("protected-spellings");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    protect(addr, "Alice").await;
    protect(addr, "Jos\u{E9}").await;
    let spellings = [
        ("Ali\u{AD}ce", 400, ErrorCode::BadName),   // a soft hyphen: invisible
        ("Ali\u{200D}ce", 400, ErrorCode::BadName), // a zero-width joiner outside an emoji
        ("\u{410}lice", 400, ErrorCode::BadName),   // Cyrillic А among Latin letters
        ("\u{391}lice", 400, ErrorCode::BadName),   // Greek Α among Latin letters
        ("\u{FF21}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}", 403, ErrorCode::NameProtected), // full-width
        ("Alice\u{2800}", 403, ErrorCode::NameProtected), // a Braille blank after it
        ("\u{410}\u{4C0}\u{456}\u{441}\u{435}", 403, ErrorCode::NameProtected), // all Cyrillic look-alikes
        ("ALICE", 403, ErrorCode::NameProtected),
        ("Jose\u{301}", 403, ErrorCode::NameProtected), // José with its accent decomposed
    ];
    let code = play_vs_bots(addr, "Bob", None).await.body["code"].as_str().unwrap().to_string();
    for (spelling, status, refusal) in spellings {
        assert_refused(&play_vs_bots(addr, spelling, None).await, status, refusal);
        let body = json!({"name": spelling, "table": "house", "public": true});
        assert_refused(&http(addr, "POST", "/api/rooms", Some(body)).await, status, refusal);
        let body = json!({"name": spelling, "table": "house"});
        assert_refused(&http(addr, "POST", "/api/quick-match", Some(body)).await, status, refusal);
        let (_, first) = hello(addr, &code, spelling, None).await;
        assert!(is_refusal(&first, refusal), "{spelling:?}: {first:?}");
    }
    // Nobody protects a look-alike of a protected name either.
    let again = http(addr, "POST", "/api/names/protect", Some(json!({"name": "\u{FF21}lice"}))).await;
    assert_refused(&again, 409, ErrorCode::AlreadyProtected);

    // An unprotected name seated and connected: its look-alike is the same player, already there.
    let (_bob, first) = hello(addr, &code, "Bob", None).await;
    assert!(matches!(first, Event::Session { .. }), "{first:?}");
    let (_, first) = hello(addr, &code, "\u{FF22}\u{FF4F}\u{FF42}", None).await;
    assert!(is_refusal(&first, ErrorCode::NameTaken), "full-width Bob is Bob: {first:?}");
    let (_, first) = hello(addr, &code, "B0B", None).await;
    assert!(is_refusal(&first, ErrorCode::NameTaken), "B0B looks like Bob: {first:?}");
    assert!(running.stop().await);
}

/// A name is one name in every spelling (docs/names.md), and the page is told by key, never left to compare
/// names: `GET /api/names/NAME` gives the key, a seat carries its occupant's, the host's own view says
/// `hosting`, and a board marks the reader's row whichever spelling asked.
#[tokio::test]
async fn the_page_is_told_by_key_which_name_is_whose() {
    let running = server(&temp_db("name-keys"), FAST).await;
    let addr = running.addr;
    let alice = get(addr, "/api/names/Alice").await;
    let wide = get(addr, &format!("/api/names/{}", urlencoding("ＡＬＩＣＥ"))).await;
    assert_eq!(alice["key"], wide["key"], "{alice} {wide}");
    assert_eq!(wide["name"], "ALICE", "the display form is the typed one, read once");
    assert_ne!(alice["key"], get(addr, "/api/names/Alicia").await["key"]);
    assert_eq!(http(addr, "GET", "/api/names/%20", None).await.status, 400, "no name, no key");

    let code = common::invite_room(addr, "Alice", "house").await;
    let mut host = Client::join(addr, &code, "ＡＬＩＣＥ").await;
    let mut bea = Client::join(addr, &code, "Bea").await;
    bea.send(&Command::Sit { seat: None }).await;
    let seen = bea.until(|v| v.seats.iter().filter(|s| s.occupant.is_some()).count() == 2).await;
    assert!(!seen.hosting, "Bea is no host");
    let bea_key = get(addr, "/api/names/bea").await["key"].clone();
    assert_eq!(serde_json::to_value(&seen.seats[seen.you.unwrap()].key).unwrap(), bea_key);
    assert_eq!(serde_json::to_value(&seen.seats[0].key).unwrap(), alice["key"], "the host's seat, by key");
    let hosts = host.until(|v| v.seats.iter().filter(|s| s.occupant.is_some()).count() == 2).await;
    assert!(hosts.hosting && hosts.you == Some(0), "the host, come back under another spelling: {hosts:?}");

    let started = post(addr, "/api/challenges", json!({"name": "Dana", "kind": "buster"})).await;
    let mut dana = Client::join(addr, started["code"].as_str().unwrap(), "Dana").await;
    dana.send(&Command::Close).await;
    dana.until(|v| v.closed).await;
    let board = get(addr, &format!("/api/boards/buster?name={}", urlencoding("ＤＡＮＡ"))).await;
    let rows = board["rows"].as_array().unwrap();
    let marked: Vec<&serde_json::Value> = rows.iter().filter(|row| row["yours"] == true).collect();
    assert_eq!(marked.len(), 1, "{board}");
    assert_eq!(marked[0]["name"], "Dana");
    assert!(get(addr, "/api/boards/buster").await["rows"][0].get("yours").is_none(), "no reader, no mark");
}

/// A name as a URL's path or query writes it.
fn urlencoding(name: &str) -> String {
    name.bytes().map(|b| format!("%{b:02X}")).collect()
}
