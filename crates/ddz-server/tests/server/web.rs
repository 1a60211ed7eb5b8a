//! The browser client's HTTP surface: `/api/readings`, `/api/hints`, and the embedded client's files.

use crate::common;

use std::time::Duration;

use common::{Client, FAST, post, server, temp_db};
use ddz_engine::{Phase, PlayJson};
use ddz_server::protocol::Event;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A raw GET: the status line, the headers (lower-cased) and the body.
async fn get_raw(addr: std::net::SocketAddr, path: &str) -> (String, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_string(), headers.to_lowercase(), body.to_string())
}

#[tokio::test]
async fn readings_list_the_legal_readings_of_a_selection_or_say_why_none() {
    let db = temp_db("web-readings");
    let running = server(&db, FAST).await;
    let addr = running.addr;

    let two_ways = post(
        addr,
        "/api/readings",
        json!({"rules": "house", "hand": ["3S", "3H", "3D", "W", "4C"], "cards": ["3S", "3H", "3D", "W"]}),
    )
    .await;
    let texts: Vec<&str> =
        two_ways["readings"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["triple of 3s + single", "bomb of 3s (W as 3)"]);
    assert!(two_ways.get("error").is_none());

    // Following a triple + single, only the readings that beat it are offered.
    let prior =
        json!({"type": "triples", "main": "5", "length": 1, "attach": "singles", "attach_count": 1, "ranks": "5554"});
    let follow = post(
        addr,
        "/api/readings",
        json!({"rules": "house", "hand": ["3S", "3H", "3D", "W"], "cards": ["3S", "3H", "3D", "W"], "prior": prior}),
    )
    .await;
    let texts: Vec<&str> = follow["readings"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["bomb of 3s (W as 3)"]);

    let low = post(
        addr,
        "/api/readings",
        json!({"rules": "house", "hand": ["3S", "3H", "9C"], "cards": ["3S", "3H"],
               "prior": {"type": "pair", "main": "5", "length": 1, "attach": "none", "ranks": "55"}}),
    )
    .await;
    assert_eq!(low["readings"], json!([]));
    assert_eq!((&low["refusal"]["kind"], &low["refusal"]["prior"]["ranks"]), (&json!("does_not_beat"), &json!("55")));

    let no_play =
        post(addr, "/api/readings", json!({"rules": "house", "hand": ["3S", "5H"], "cards": ["3S", "5H"]})).await;
    assert_eq!(no_play["readings"], json!([]));
    assert_eq!(no_play["refusal"]["kind"], "not_a_play", "{no_play}");

    let not_held = post(addr, "/api/readings", json!({"rules": "house", "hand": ["3S"], "cards": ["4S"]})).await;
    assert_eq!(not_held["refusal"]["kind"], "not_in_hand", "{not_held}");

    let empty = post(addr, "/api/readings", json!({"rules": "house", "hand": ["3S"], "cards": []})).await;
    assert_eq!(empty["refusal"]["kind"], "nothing_selected", "{empty}");

    // Wild Rank tables need the drawn rank; a malformed position is a 400 with an error.
    let missing =
        post(addr, "/api/readings", json!({"rules": "noshuffle-wildrank", "hand": ["3S"], "cards": ["3S"]})).await;
    assert_eq!(missing["code"], "bad_position", "{missing}");
    let wild = post(
        addr,
        "/api/readings",
        json!({"rules": "noshuffle-wildrank", "wild_rank": "7", "hand": ["3S", "7H"], "cards": ["3S", "7H"]}),
    )
    .await;
    assert_eq!(wild["readings"][0]["text"], "pair of 3s (wild as 3)");
    let bad = post(addr, "/api/readings", json!({"rules": "chess", "hand": [], "cards": []})).await;
    assert_eq!(bad["code"], "bad_position", "{bad}");
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn hints_list_every_legal_play_with_cards_from_the_hand() {
    let db = temp_db("web-hints");
    let running = server(&db, FAST).await;
    let answer = post(running.addr, "/api/hints", json!({"rules": "house", "hand": ["3S", "3H", "4C"]})).await;
    let plays = answer["plays"].as_array().unwrap();
    let summary: Vec<(String, Value)> =
        plays.iter().map(|p| (p["text"].as_str().unwrap().to_string(), p["cards"].clone())).collect();
    assert_eq!(
        summary,
        [
            // Hint's order on a lead: the pair whole first, the single that splits nothing, the split last.
            ("pair of 3s".to_string(), json!(["3S", "3H"])),
            ("single 4".to_string(), json!(["4C"])),
            ("single 3".to_string(), json!(["3S"])),
        ]
    );
    let follow = post(
        running.addr,
        "/api/hints",
        json!({"rules": "house", "hand": ["3S", "3H", "4C"],
               "prior": {"type": "single", "main": "3", "length": 1, "attach": "none", "ranks": "3"}}),
    )
    .await;
    assert_eq!(follow["plays"].as_array().unwrap().len(), 1);
    assert_eq!(follow["plays"][0]["cards"], json!(["4C"]));
    assert!(running.stop().await, "the server stops in time");
}

/// A deal against bots played only from the two endpoints' answers: every hint is accepted by the
/// room, and the selection of its cards reads (among others) as the hint's reading.
#[tokio::test]
async fn a_deal_played_from_hints_is_accepted_by_the_room() {
    let db = temp_db("web-deal");
    let running = server(&db, FAST).await;
    let addr = running.addr;
    let created = post(addr, "/api/play-vs-bots", json!({"name": "Hinter", "table": "house", "wild": true})).await;
    let code = created["code"].as_str().unwrap().to_string();
    let mut client = Client::join(addr, &code, "Hinter").await;
    let mut last_play = 0;
    for _ in 0..500 {
        while client.recv_within(Duration::from_millis(5)).await.is_some() {}
        let Some(deal) = client.deal().cloned() else { continue };
        if deal.result.is_some() {
            assert!(running.stop().await, "the server stops in time");
            return;
        }
        if !client.my_turn() {
            client.next_state().await;
            continue;
        }
        let playing = deal.phase == Phase::Play;
        if !playing {
            client.act().await;
        } else {
            let position = json!({
                "rules": deal.rules.to_string(),
                "wild_rank": deal.wild_rank,
                "hand": deal.hand,
                "prior": deal.trick.map(|t| PlayJson::from(t.play)),
            });
            let hints = post(addr, "/api/hints", position.clone()).await;
            assert!(hints["plays"].is_array(), "{position} -> {hints}");
            let seq = client.next_seq();
            last_play = seq;
            let action = match hints["plays"].as_array().unwrap().first() {
                Some(hint) => {
                    let mut selection = position.clone();
                    selection["cards"] = hint["cards"].clone();
                    let readings = post(addr, "/api/readings", selection).await;
                    let texts: Vec<&Value> =
                        readings["readings"].as_array().unwrap().iter().map(|r| &r["text"]).collect();
                    assert!(texts.contains(&&hint["text"]), "{hint} not among {readings}");
                    json!({"action": "play", "cards": hint["cards"], "play": hint})
                }
                None => json!({"action": "pass"}),
            };
            client.send_text(&json!({"type": "act", "seq": seq, "action": action}).to_string()).await;
        }
        loop {
            match client.recv().await {
                Event::State { .. } => break,
                // Only a play is checked: an auction answer or `seen` may race the bots on a stale view.
                Event::Error { message, seq: Some(refused), .. } if playing && refused == last_play => {
                    panic!("refused: {message}")
                }
                Event::Error { .. } if !playing => break,
                _ => {}
            }
        }
    }
    panic!("the deal did not finish");
}

#[tokio::test]
async fn the_client_is_served_with_a_fallback_to_index_html() {
    let db = temp_db("web-static");
    let running = server(&db, FAST).await;
    for path in ["/", "/?room=ABCDEF", "/room/ABCDEF"] {
        let (status, headers, body) = get_raw(running.addr, path).await;
        assert!(status.contains("200"), "{path}: {status}");
        assert!(headers.contains("content-type: text/html; charset=utf-8"), "{path}: {headers}");
        assert!(body.contains("<title>Dou Dizhu</title>"), "{path}: {body}");
    }
    let (status, headers, body) = get_raw(running.addr, "/api/nothing").await;
    assert!(status.contains("404"), "{status}");
    assert!(headers.contains("application/json"), "{headers}");
    let refused: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refused["code"], "not_found", "{body}");
    assert!(running.stop().await, "the server stops in time");
}

/// The status line, the headers (lower-cased) and the body's bytes of a GET with `Accept-Encoding`.
async fn get_encoded(addr: std::net::SocketAddr, path: &str, accept: &str) -> (String, String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // HTTP/1.0, so that the body comes whole (no chunked framing) and ends with the connection.
    let head = format!("GET {path} HTTP/1.0\r\nHost: test\r\nAccept-Encoding: {accept}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP response");
    let head = String::from_utf8_lossy(&response[..split]).to_lowercase();
    let (status, headers) = head.split_once("\r\n").unwrap_or((&head, ""));
    (status.to_string(), headers.to_string(), response[split + 4..].to_vec())
}

/// The client's files go out compressed with brotli or gzip, whichever the browser accepts; the API's
/// answers and the plain request are untouched.
#[tokio::test]
async fn the_client_files_go_out_compressed() {
    use std::io::Read;
    let db = temp_db("web-compressed");
    let running = server(&db, FAST).await;
    let (_, plain_headers, plain) = get_encoded(running.addr, "/", "identity").await;
    assert!(!plain_headers.contains("content-encoding"), "{plain_headers}");
    let (status, headers, body) = get_encoded(running.addr, "/", "gzip").await;
    assert!(status.contains("200"), "{status}");
    assert!(headers.contains("content-encoding: gzip"), "{headers}");
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut unzipped).unwrap();
    // Chunked transfer frames the body: compare the page's text inside it.
    let page = String::from_utf8_lossy(&plain);
    assert!(
        String::from_utf8_lossy(&unzipped).contains("<title>Dou Dizhu</title>")
            && page.contains("<title>Dou Dizhu</title>")
    );
    let (_, headers, _) = get_encoded(running.addr, "/", "br, gzip").await;
    assert!(headers.contains("content-encoding: br"), "brotli first when the browser takes it: {headers}");
    let (_, headers, _) = get_encoded(running.addr, "/api/lobby", "br, gzip").await;
    assert!(!headers.contains("content-encoding"), "API answers stay plain: {headers}");
    assert!(running.stop().await, "the server stops in time");
}
