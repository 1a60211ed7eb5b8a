//! A tournament's entrant as a test plays one (the server's tournament tests and the cluster's): reads the
//! event's page as the web client does, goes to their table, plays their turns, drops out of a deal once
//! if asked, and goes through another node when theirs fails them.

use std::net::SocketAddr;
use std::time::Duration;

use ddz_server::protocol::{Command, Event, simple_action};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::{Instant, MissedTickBehavior};

use super::{Client, poll, ws_url};

/// How often an entrant looks at the event when they have no table to play at (between rounds, or after a
/// node failed them), as the page does.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// What one entrant went through.
#[derive(Debug, Default)]
pub struct Played {
    /// Tables sat at.
    pub tables: usize,
    /// Actions the tables acknowledged.
    pub actions: usize,
    /// Sockets opened after the first to the same table (a drop, a dead node, a refused hello).
    pub reconnects: usize,
    /// Requests and sockets a dead node failed.
    pub failures: usize,
}

/// A GET's JSON, or `None` when the node did not answer (it died) or answered with no JSON.
pub async fn try_get(addr: SocketAddr, path: &str) -> Option<Value> {
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
        let head = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        stream.write_all(head.as_bytes()).await.ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).await.ok()?;
        let (head, body) = response.split_once("\r\n\r\n")?;
        head.starts_with("HTTP/1.1 200").then(|| serde_json::from_str(body).ok())?
    };
    tokio::time::timeout(Duration::from_secs(5), exchange).await.ok()?
}

/// Connects to room `code` through `addr` and says hello; `None` when the node does not answer.
pub async fn try_connect(addr: SocketAddr, code: &str, name: &str) -> Option<Client> {
    let connecting = tokio_tungstenite::connect_async(ws_url(addr, code));
    let (ws, _) = tokio::time::timeout(Duration::from_secs(5), connecting).await.ok()?.ok()?;
    let mut client = Client::over(ws, name);
    let hello = Command::Hello { room: code.into(), name: name.into(), token: None, key: None, browser: None };
    client.try_send(&hello).await.then_some(client)
}

/// The table `name` plays at now, if the tournament has seated them in a round still in play.
pub fn table_of(page: &Value, name: &str) -> Option<String> {
    let round = page["rounds"].as_array()?.last().filter(|r| r["closed"] == false)?;
    round["tables"].as_array()?.iter().find_map(|t| {
        let seated = t["players"].as_array()?.iter().any(|p| p == name);
        seated.then(|| t["code"].as_str().unwrap().to_string())
    })
}

pub fn is_out(page: &Value, name: &str) -> bool {
    page["standings"].as_array().is_some_and(|s| s.iter().any(|e| e["name"] == name && e["out"].is_number()))
}

/// Plays `name`'s part of tournament `id` through `node(attempt)` (a cluster's next live node on each
/// failure; one server's address whatever the attempt). If `drops`, they close their tab in the middle of a
/// deal once, and come back when the table shows the bot has played for them. Returns once they are out or
/// the tournament is over (five minutes at most).
pub async fn play(node: impl Fn(usize) -> SocketAddr, id: &str, name: &str, drops: bool) -> Played {
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut look = tokio::time::interval(LOOK_EVERY);
    look.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut at: Option<(String, Client)> = None;
    let mut dropped = false;
    let mut played = Played::default();
    let mut attempt = 0;
    loop {
        assert!(Instant::now() < deadline, "{name}: the tournament did not end within 5 minutes");
        look.tick().await;
        let Some(page) = try_get(node(attempt), &format!("/api/tournaments/{id}")).await else {
            played.failures += 1;
            attempt += 1;
            continue;
        };
        if page["summary"]["phase"] == "finished" || is_out(&page, name) {
            return played;
        }
        let Some(code) = table_of(&page, name) else { continue };
        if at.as_ref().is_none_or(|(here, client)| *here != code || client.closed) {
            match at.as_ref() {
                Some((here, _)) if *here == code => played.reconnects += 1,
                _ => played.tables += 1,
            }
            at = None;
            let Some(client) = try_connect(node(attempt), &code, name).await else {
                played.failures += 1;
                attempt += 1;
                continue;
            };
            at = Some((code.clone(), client));
        }
        let (_, client) = at.as_mut().unwrap();
        play_a_while(client, &mut played).await;
        if client.closed {
            // The node went away (or refused the hello while the old socket still counted): another go,
            // through the next live node.
            played.failures += 1;
            attempt += 1;
            continue;
        }
        if drops && !dropped && client.deal().is_some_and(|d| d.result.is_none()) {
            // The tab closes mid-deal; the bot plays this seat until the player is back.
            at = None;
            dropped = true;
            played_for(&node, attempt, &code).await;
        }
    }
}

/// Plays the client's turns for 400 ms: one action per state, until it is answered (a refusal, from a stale
/// view, is tried again).
async fn play_a_while(client: &mut Client, played: &mut Played) {
    let until = Instant::now() + Duration::from_millis(400);
    let mut sent: Option<(u64, u64)> = None;
    while Instant::now() < until && !client.closed {
        if client.my_turn() && sent.is_none_or(|(n, _)| client.n > n) {
            let seq = client.next_seq();
            let action = simple_action(client.deal().unwrap());
            if client.try_send(&Command::Act { seq, action }).await {
                sent = Some((client.n, seq));
            }
        }
        match client.recv_within(Duration::from_millis(40)).await {
            Some(Event::Ack { seq }) if sent.is_some_and(|(_, s)| s == seq) => played.actions += 1,
            Some(Event::Error { seq: Some(seq), .. }) if sent.is_some_and(|(_, s)| s == seq) => sent = None,
            _ => {}
        }
    }
}

/// Waits until table `code` shows the bot has played for someone away (or its deal, or the table, ended
/// without them).
async fn played_for(node: &impl Fn(usize) -> SocketAddr, attempt: usize, code: &str) {
    poll(&format!("the bot plays at {code} for the player away"), Duration::from_secs(20), LOOK_EVERY, || async {
        let room = try_get(node(attempt), &format!("/api/rooms/{code}")).await?;
        let timed_out = room["timed_out"].as_array().is_some_and(|t| !t.is_empty());
        let over = room["closed"] == true || room["deal"].is_null() || !room["deal"]["result"].is_null();
        (timed_out || over).then_some(())
    })
    .await
}
