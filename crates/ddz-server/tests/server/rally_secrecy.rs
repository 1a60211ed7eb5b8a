//! Rally secrecy (RULES.md section 9): everyone meets the same rally deals, so until the day's rally
//! closes no read path, HTTP or socket, shows anything of a rally deal to anyone but the player at the
//! table. The test walks every path at every stage of an attempt, then reopens the server after the close
//! and checks that everything is public and agrees with what was committed to.

use crate::common;

use std::net::SocketAddr;

use common::{Client, FAST, get, http, play_to_end, post, server_at_ms, temp_db};
use ddz_server::protocol::{Command, ErrorCode, Event, RoomView};

/// 2026-11-30 12:00 UTC: the rally of 2026-11-30 is open.
const NOON_MS: u64 = 1_796_040_000_000;
/// 2026-12-01 02:00 UTC: an hour after the rally of 2026-11-30 closed.
const AFTER_CLOSE_MS: u64 = NOON_MS + 14 * 3_600_000;
const DATE: &str = "2026-11-30";

/// Keys whose values are a deal's secrets: hands, the bottom, plays, the seed and salt, the result.
const DEAL_KEYS: [&str; 8] = ["hand", "hands", "hands_at_end", "bottom", "actions", "seed", "salt", "result"];

/// Every path through which `value` names a deal's secret with something in it (not null, not empty).
fn secrets(value: &serde_json::Value, path: &str, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                let here = format!("{path}.{key}");
                let empty = inner.is_null() || inner.as_array().is_some_and(Vec::is_empty);
                if DEAL_KEYS.contains(&key.as_str()) && !empty {
                    found.push(here.clone());
                }
                secrets(inner, &here, found);
            }
        }
        serde_json::Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, item)| secrets(item, &format!("{path}[{i}]"), found));
        }
        _ => {}
    }
}

fn assert_no_deal(what: &str, value: &serde_json::Value) {
    let mut found = Vec::new();
    secrets(value, "", &mut found);
    assert!(found.is_empty(), "{what} shows a rally deal's {found:?}: {value}");
}

/// Says hello (or asks to watch) and returns the first event: the answer to the first frame.
async fn first_answer(addr: SocketAddr, first: &Command) -> (Event, String) {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("websocket");
    let mut client = Client::over(ws, "");
    client.send(first).await;
    let event = client.recv().await;
    (event, client.raw.join("\n"))
}

/// Walks every read path as someone other than the player, while the rally is open; returns every
/// answer's text, to look for the deals' seeds in once they are public.
async fn walk_sealed(addr: SocketAddr, code: &str, stage: &str) -> Vec<String> {
    let mut seen = Vec::new();
    let lower = code.to_lowercase();
    // The room's summary: who sits where and how far the run has gone, nothing of a deal.
    for path in [format!("/api/rooms/{code}"), format!("/api/rooms/{lower}")] {
        let answer = http(addr, "GET", &path, None).await;
        assert_eq!(answer.status, 200, "{stage}: {path}: {}", answer.body);
        let view: RoomView = serde_json::from_value(answer.body.clone()).expect("a room view");
        assert!(view.deal.is_none() && view.log.is_empty() && view.settlement.is_empty(), "{stage}: {view:?}");
        assert!(view.seats.iter().all(|s| s.balance.is_none()), "{stage}: balances tell how the deals went");
        assert!(view.challenge.as_ref().is_some_and(|c| c.nets.is_empty() && c.best_pot == 0), "{stage}: {view:?}");
        assert!(view.seats.iter().any(|s| s.occupant.as_ref().is_some_and(|o| o.name() == "Dee")));
        assert_no_deal(&format!("{stage}: {path}"), &answer.body);
        seen.push(answer.body.to_string());
    }
    // Records, replays and reviews: refused as `rally_open`, whether the deal exists or not.
    for path in [
        format!("/api/rooms/{code}/deals"),
        format!("/api/rooms/{lower}/deals"),
        format!("/api/rooms/{code}/deals/1"),
        format!("/api/rooms/{code}/deals/2"),
        format!("/api/rooms/{code}/deals/1/reviews/0"),
        format!("/api/rooms/{code}/deals/1/reviews/1"),
    ] {
        let answer = http(addr, "GET", &path, None).await;
        assert_eq!((answer.status, answer.body["code"].as_str()), (403, Some("rally_open")), "{stage}: {path}");
        seen.push(answer.body.to_string());
    }
    // The day's commitments without a seed or salt; the lobby, stats and boards without a deal.
    let fairness = get(addr, &format!("/api/rallies/{DATE}/fairness")).await;
    assert_eq!(fairness["closed"], false, "{stage}");
    assert_no_deal(&format!("{stage}: fairness"), &fairness);
    seen.push(fairness.to_string());
    for path in ["/api/lobby", "/api/players/Dee", "/api/boards/rally", "/api/boards/overall", "/api/rallies"] {
        let answer = get(addr, path).await;
        assert_no_deal(&format!("{stage}: {path}"), &answer);
        assert!(!answer.to_string().contains(code), "{stage}: {path} names the rally room: {answer}");
        seen.push(answer.to_string());
    }
    // Over the socket: a spectator, any other name (a bot's included) is refused; the lobby omits it.
    for first in [
        Command::Watch { room: code.into() },
        Command::Hello { room: code.into(), name: "Otto".into(), token: None, key: None, browser: None },
        Command::Hello { room: lower.as_str().into(), name: "Otto".into(), token: None, key: None, browser: None },
        Command::Hello { room: code.into(), name: "Bot Hard".into(), token: None, key: None, browser: None },
    ] {
        let (event, raw) = first_answer(addr, &first).await;
        assert!(matches!(&event, Event::Error { code: ErrorCode::RallyOpen, .. }), "{stage}: {first:?}: {event:?}");
        seen.push(raw);
    }
    // Stats, ratings, their history and the boards hold nothing of the rally until it closes.
    let player = get(addr, "/api/players/Dee").await;
    assert_eq!(
        (&player["stats"], &player["ratings"]),
        (&serde_json::json!([]), &serde_json::json!([])),
        "{stage}: {player}"
    );
    assert_eq!(player["standing"]["rated_deals"], 0, "{stage}: {player}");
    for board in ["/api/ratings/house", "/api/boards/overall"] {
        assert_eq!(get(addr, board).await["rows"], serde_json::json!([]), "{stage}: {board}");
    }
    let (event, raw) = first_answer(addr, &Command::WatchLobby).await;
    assert!(
        matches!(&event, Event::Lobby { tables } if tables.iter().all(|t| t.code.as_str() != code)),
        "{stage}: {event:?}"
    );
    seen.push(raw);
    seen
}

/// Plays the player's turns (the bots play theirs) until the deal has `actions` actions.
async fn play_into_the_deal(player: &mut Client, actions: usize) {
    loop {
        let deal = player.deal().expect("a deal");
        if deal.actions.len() >= actions || deal.result.is_some() {
            return;
        }
        if player.my_turn() {
            player.act().await;
        }
        player.next_state().await;
    }
}

#[tokio::test]
async fn no_path_shows_an_open_rally_deal_and_everything_opens_consistently_once_it_closes() {
    let db = temp_db("rally-secrecy");
    let running = server_at_ms(&db, FAST, NOON_MS).await;
    let addr = running.addr;
    let started = post(addr, "/api/challenges", serde_json::json!({ "name": "Dee", "kind": "rally" })).await;
    let code = started["code"].as_str().expect("a rally room").to_string();
    let mut dee = Client::join(addr, &code, "Dee").await;
    let mut seen = Vec::new();

    // The auction of deal 1: the player sees their own hand, nobody else anything.
    let view = dee.until(|v| v.deal.is_some()).await;
    assert!(view.deal.as_ref().and_then(|d| d.hand).is_some(), "the player sees their own hand");
    seen.extend(walk_sealed(addr, &code, "auction").await);
    // Mid-deal.
    play_into_the_deal(&mut dee, 6).await;
    assert!(dee.deal().is_some_and(|d| d.result.is_none() && !d.actions.is_empty()), "mid-deal");
    seen.extend(walk_sealed(addr, &code, "mid-deal").await);
    // After deal 1, before deal 2.
    play_to_end(std::slice::from_mut(&mut dee)).await;
    seen.extend(walk_sealed(addr, &code, "after a deal").await);
    // After the attempt: ten deals played, the run over, the rally still open.
    loop {
        dee.send(&Command::Start).await;
        let view = dee.until(|v| v.closed || v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
        if view.closed {
            break;
        }
        play_to_end(std::slice::from_mut(&mut dee)).await;
    }
    assert_eq!(dee.view.as_ref().and_then(|v| v.challenge.as_ref()).map(|c| c.nets.len()), Some(10));
    seen.extend(walk_sealed(addr, &code, "after the attempt").await);
    assert!(running.stop().await, "the server stops in time");

    // The day's rally closes: the same database, an hour after the end of its day.
    let running = server_at_ms(&db, FAST, AFTER_CLOSE_MS).await;
    let addr = running.addr;
    let records = get(addr, &format!("/api/rooms/{code}/deals")).await;
    let records = records["deals"].as_array().expect("the deal records").clone();
    assert_eq!(records.len(), 10);
    let fairness = get(addr, &format!("/api/rallies/{DATE}/fairness")).await;
    assert_eq!(fairness["closed"], true);
    for (number, record) in records.iter().enumerate() {
        let published = &fairness["deals"][number];
        assert_eq!(record["commitment"], published["commitment"], "deal {}", number + 1);
        assert_eq!((&record["seed"], &record["salt"]), (&published["seed"], &published["salt"]), "deal {}", number + 1);
        // Nothing said while the rally was open named a seed or salt it was dealt from.
        for secret in [record["seed"].as_str().unwrap(), record["salt"].as_str().unwrap()] {
            assert!(!seen.iter().any(|text| text.contains(secret)), "deal {}'s {secret} was shown early", number + 1);
        }
    }
    let summary: RoomView = serde_json::from_value(get(addr, &format!("/api/rooms/{code}")).await).unwrap();
    assert!(summary.closed && summary.challenge.as_ref().is_some_and(|c| c.nets.len() == 10), "{summary:?}");
    // And the ten deals reach the stats, the rating with its history and the boards, all of them at once.
    let (wait, every) = (std::time::Duration::from_secs(10), std::time::Duration::from_millis(100));
    let player = common::poll("Dee's released stats", wait, every, || async {
        let player = get(addr, "/api/players/Dee").await;
        (player["stats"] != serde_json::json!([])).then_some(player)
    })
    .await;
    let net: i64 = summary.challenge.as_ref().unwrap().nets.iter().sum();
    assert_eq!(player["stats"][0]["deals"], 10, "{player}");
    assert_eq!(player["stats"][0]["money"], net, "{player}");
    assert_eq!(player["ratings"][0]["deals"], 10, "{player}");
    assert_eq!(player["ratings"][0]["history"].as_array().unwrap().len(), 10, "{player}");
    assert_eq!(player["standing"]["rated_deals"], 10, "{player}");
    let overall = get(addr, "/api/boards/overall").await;
    assert_eq!(
        (&overall["rows"][0]["name"], &overall["rows"][0]["score"]),
        (&serde_json::json!("Dee"), &serde_json::json!(net))
    );
    let ratings = get(addr, "/api/ratings/house").await;
    assert_eq!(ratings["rows"][0]["rating"], player["ratings"][0]["rating"], "{ratings}");
    let last = summary.deal.expect("the last deal, open to all");
    assert!(last.hands_at_end.is_some(), "every hand is shown at the end of a deal");
    let replay = http(addr, "GET", &format!("/api/rooms/{code}/deals/1"), None).await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body["record"]["seed"], records[0]["seed"]);
    let mut watcher = Client::watch(addr, &code).await;
    assert!(watcher.view.as_ref().is_some_and(|v| v.deal.is_some()), "a closed rally is watched like any room");
    let guest = Client::join(addr, &code, "Otto").await;
    assert_eq!(guest.view.as_ref().unwrap().you, None, "another name only watches");
    watcher.send(&Command::Ping).await;
    assert!(running.stop().await, "the server stops in time");
}
