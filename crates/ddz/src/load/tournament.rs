//! `ddz load --tournament N`: one tournament of `N` simulated entrants, spread over the `--server`s (the
//! nodes of a cluster): a sit-and-go when the field is one (9 or 27), else a scheduled event starting once
//! everyone has had time to register, all registering at once. The settings are short: one chip round of
//! one deal down to a ninth of the field (81 at most; 9 for 27, 3 for 9), then fixed rounds of one deal,
//! and a final of one deal. Each entrant follows the event's page over a socket as a browser does (`follow_tournament`),
//! goes to the table the page names for it, plays there over a socket of its own (sending its nonce when a
//! deal asks; the page's socket is closed meanwhile, so an entrant holds one socket at a time), and
//! follows the page again for its next table, until it is out or the event is over. An entrant whose
//! socket fails (its server was killed) goes on at the next server.
//!
//! Reports the entrants and how long they took to register (and any refused), the time from the start
//! to the standings (the server's own stamps), the deals played, the acknowledged actions a second, the
//! latency from an action to its `ack` and to the state it caused at the actor's seat, what the pages cost
//! (events and bytes a follower was sent a second), and each server's peak resident memory and CPU time
//! (from its `/metrics`, sampled every second).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ddz_server::TournamentPhase;
use ddz_server::protocol::{Command, ErrorCode, Event};
use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::{Pace, Player, Samples, gathered, http, percentiles, read_event, sleep_until};

/// Registrations in flight at once.
const REGISTERING_AT_ONCE: usize = 1000;

/// `ddz load --tournament N`: one tournament of `N` simulated entrants over the servers.
pub struct TournamentArgs {
    pub servers: Vec<SocketAddr>,
    pub entrants: usize,
    /// Think time per action, milliseconds: drawn uniformly from this range.
    pub think_ms: (u64, u64),
}

/// What the entrants measured, all together.
#[derive(Default)]
struct Entrants {
    actions: AtomicU64,
    refused: AtomicU64,
    failures: AtomicU64,
    /// Sockets opened, one per table an entrant played at.
    tables: AtomicU64,
    /// Times an entrant went on at another server after its socket failed.
    moves: AtomicU64,
    /// Pages pushed to the entrants following the event, and their bytes.
    pages: AtomicU64,
    page_bytes: AtomicU64,
    /// Seconds spent following (summed over the entrants).
    following_ms: AtomicU64,
}

/// A server's peak resident memory and its CPU time, as its `/metrics` said.
#[derive(Default)]
struct Node {
    peak_bytes: AtomicU64,
    cpu_first_ms: AtomicU64,
    cpu_last_ms: AtomicU64,
}

pub fn tournament(args: TournamentArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(run_tournament(args))
}

async fn get_json(server: SocketAddr, path: &str) -> Result<serde_json::Value, String> {
    let body = http(server, "GET", path, "").await?;
    serde_json::from_str(&body).map_err(|e| format!("GET {path}: {e}: {body:.200}"))
}

fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A metric's value from a `/metrics` text.
fn metric(text: &str, name: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))?;
    line.split_whitespace().last()?.parse().ok()
}

async fn run_tournament(args: TournamentArgs) -> Result<(), String> {
    let servers = args.servers.clone();
    let first = *servers.first().ok_or("no server")?;
    let n = args.entrants;
    let sit_and_go = matches!(n, 9 | 27);
    // A scheduled event starts once every entrant has had time to register (a hundred a second, on a
    // cluster whose nodes race for each entry's number).
    let starts_at = now_ms() + 10_000 + 10 * n as u64;
    let format = if sit_and_go {
        serde_json::json!({"kind": "sit_and_go", "size": n})
    } else {
        serde_json::json!({"kind": "scheduled", "starts_at": starts_at, "bots_fill": false})
    };
    // The chip round leaves a ninth of the field, 81 at most: a large field's fixed rounds are few.
    let until = if n < 18 { 3 } else { (n / 9).clamp(1, 27) * 3 };
    let settings = serde_json::json!({
        "table": "house", "chips": 10000, "stake": 500, "line_percent": 20, "line_step_percent": 20,
        "line_every": 1, "chip_rounds": 1, "chip_rounds_until": until, "carry_percent": 10,
        "deals_per_round": 1, "final_deals": 1
    });
    let body = serde_json::json!({"name": "Load Host", "table": "house", "title": format!("Load test of {n}"),
        "format": format, "settings": settings});
    let created: serde_json::Value =
        serde_json::from_str(&http(first, "POST", "/api/tournaments", &body.to_string()).await?)
            .map_err(|e| e.to_string())?;
    let id = created["id"].as_str().ok_or_else(|| format!("no tournament: {created}"))?.to_string();
    let names: Vec<String> = (0..n).map(|i| format!("lt-{i}")).collect();

    let totals = Arc::new(Entrants::default());
    let nodes: Arc<Vec<Node>> = Arc::new(servers.iter().map(|_| Node::default()).collect());
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let (nodes, done, servers) = (nodes.clone(), done.clone(), servers.clone());
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                for (node, &server) in nodes.iter().zip(&servers) {
                    let Ok(text) = http(server, "GET", "/metrics", "").await else { continue };
                    if let Some(bytes) = metric(&text, "ddz_process_resident_bytes") {
                        node.peak_bytes.fetch_max(bytes as u64, Ordering::Relaxed);
                    }
                    if let Some(seconds) = metric(&text, "ddz_process_cpu_seconds") {
                        let ms = (seconds * 1000.0) as u64;
                        let _ = node.cpu_first_ms.compare_exchange(0, ms, Ordering::Relaxed, Ordering::Relaxed);
                        node.cpu_last_ms.store(ms, Ordering::Relaxed);
                    }
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    };
    // Everyone registers at once, each through a server in turn, a thousand requests in flight (ten
    // thousand connections at once overflow the servers' listen queues): none is refused for the rush.
    let registering = Instant::now();
    let in_flight = Arc::new(tokio::sync::Semaphore::new(REGISTERING_AT_ONCE));
    let mut registrations = tokio::task::JoinSet::new();
    for (i, name) in names.iter().enumerate() {
        let (server, path) = (servers[i % servers.len()], format!("/api/tournaments/{id}/register"));
        let body = serde_json::json!({"name": name}).to_string();
        let in_flight = in_flight.clone();
        registrations.spawn(async move {
            let _slot = in_flight.acquire().await.map_err(|e| e.to_string())?;
            http(server, "POST", &path, &body).await
        });
    }
    let mut refused = 0;
    while let Some(answer) = registrations.join_next().await {
        let answer = answer.map_err(|e| e.to_string())??;
        if !answer.is_empty() {
            refused += 1;
            if refused <= 3 {
                eprintln!("a registration was refused: {answer:.200}");
            }
        }
    }
    let registered_in = registering.elapsed().as_secs_f64();
    if !sit_and_go && now_ms() > starts_at {
        eprintln!("registration ran past the start: {registered_in:.1} s");
    }
    let mut tasks = tokio::task::JoinSet::new();
    for (i, name) in names.iter().enumerate() {
        let (totals, id, name, think) = (totals.clone(), id.clone(), name.clone(), args.think_ms);
        // Each entrant starts at a server in turn and moves to the next when its server goes away.
        let mut servers = servers.clone();
        let first = i % servers.len();
        servers.rotate_left(first);
        tasks.spawn(async move {
            // The pages' sockets open over a moment (five thousand a second), as a field's browsers would.
            tokio::time::sleep(Duration::from_micros(200 * i as u64)).await;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(i as u64);
            match entrant(&servers, &id, &name, think, &mut rng, &totals).await {
                Ok(samples) => samples,
                Err(e) => {
                    if totals.failures.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("{name}: {e}");
                    }
                    Samples::default()
                }
            }
        });
    }
    let mut all = gathered(tasks).await?;
    // The standings, from whichever server still answers.
    let mut asked = 0;
    let summary = loop {
        let server = servers[asked % servers.len()];
        asked += 1;
        match get_json(server, &format!("/api/tournaments/{id}/page")).await {
            Ok(page) if page["page"]["summary"]["phase"] == "finished" => break page,
            Ok(_) => {}
            Err(e) if asked > 100 * servers.len() => return Err(e),
            Err(_) => continue,
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    done.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    let page = &summary["page"];
    let (started, finished) =
        (page["summary"]["started_at"].as_u64().unwrap_or(0), page["summary"]["finished_at"].as_u64().unwrap_or(0));
    let seconds = finished.saturating_sub(started) as f64 / 1000.0;
    let rounds = page["rounds"].as_array().cloned().unwrap_or_default();
    let deals: u64 = rounds.iter().map(|r| r["deals"].as_u64().unwrap_or(0) * r["tables"].as_u64().unwrap_or(0)).sum();
    let shape: Vec<String> = rounds
        .iter()
        .map(|r| format!("{} {}", r["stage"].as_str().unwrap_or("?"), r["tables"].as_u64().unwrap_or(0)))
        .collect();
    let actions = totals.actions.load(Ordering::Relaxed);
    println!(
        "tournament {id} ({}), {} entrants ({refused} refused, registered in {registered_in:.1} s), think {}..{} ms: \
         start to standings {seconds:.1} s, {} rounds ({}), {deals} deals, {actions} actions acknowledged \
         ({:.0}/s), {} refused, {} entrants failed, {} table sockets, {} moves to another server",
        if sit_and_go { "sit-and-go" } else { "scheduled" },
        page["summary"]["entrants"],
        args.think_ms.0,
        args.think_ms.1,
        rounds.len(),
        shape.join(", "),
        actions as f64 / seconds.max(0.001),
        totals.refused.load(Ordering::Relaxed),
        totals.failures.load(Ordering::Relaxed),
        totals.tables.load(Ordering::Relaxed),
        totals.moves.load(Ordering::Relaxed),
    );
    println!("  action -> ack:   {}", percentiles(&mut all.ack));
    println!("  action -> state: {} (at the actor's seat)", percentiles(&mut all.state));
    let following_s = totals.following_ms.load(Ordering::Relaxed) as f64 / 1000.0;
    let (pages, bytes) = (totals.pages.load(Ordering::Relaxed), totals.page_bytes.load(Ordering::Relaxed));
    println!(
        "  the page: {pages} pushed ({:.1} KB each), {:.2} a follower a second, {:.0} bytes a follower a second",
        bytes as f64 / pages.max(1) as f64 / 1024.0,
        pages as f64 / following_s.max(0.001),
        bytes as f64 / following_s.max(0.001),
    );
    for (node, server) in nodes.iter().zip(&servers) {
        let cpu = node.cpu_last_ms.load(Ordering::Relaxed).saturating_sub(node.cpu_first_ms.load(Ordering::Relaxed));
        match node.peak_bytes.load(Ordering::Relaxed) {
            0 => println!("  server {server}: memory unknown (no ddz_process_resident_bytes in /metrics)"),
            bytes => println!(
                "  server {server}: {:.0} MiB resident at the peak, {:.1} s of CPU",
                bytes as f64 / 1024.0 / 1024.0,
                cpu as f64 / 1000.0
            ),
        }
    }
    Ok(())
}

/// What the page says of an entrant: out (or the event over), seated at a table of the round in play, or
/// neither yet.
enum Said {
    Done,
    Seated { code: String, deals: u32 },
    Waiting,
}

fn said(event: &Event) -> Said {
    let Event::Tournament { page, you, .. } = event else { return Said::Waiting };
    let over = matches!(page.summary.phase, TournamentPhase::Finished | TournamentPhase::Cancelled);
    match you {
        _ if over => Said::Done,
        Some(you) if you.entrant.out.is_some() => Said::Done,
        Some(you) => match (&you.table, page.rounds.last()) {
            (Some(table), Some(round)) if !round.closed => {
                Said::Seated { code: table.code.to_string(), deals: round.deals }
            }
            _ => Said::Waiting,
        },
        None => Said::Waiting,
    }
}

/// Times an entrant goes on at another server after its socket failed, before it counts as failed.
const MOVES: u32 = 20;

/// One entrant, from its first look at the page to its last: at `servers[0]`, and at the next one
/// whenever a socket fails (its node was killed: a table of that node's is taken on by another within the
/// lease, and the entrant takes its seat back there).
async fn entrant(
    servers: &[SocketAddr],
    id: &str,
    name: &str,
    think: (u64, u64),
    rng: &mut rand_chacha::ChaCha8Rng,
    totals: &Entrants,
) -> Result<Samples, String> {
    let mut samples = Samples::default();
    let mut played: Vec<String> = Vec::new();
    let (mut at, mut moves) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(3600);
    while Instant::now() < deadline {
        let server = servers[at % servers.len()];
        let went = match follow(server, id, name, &played, totals).await {
            Ok(None) => return Ok(samples),
            Ok(Some((code, deals))) => {
                totals.tables.fetch_add(1, Ordering::Relaxed);
                play_table(server, &code, name, deals, think, rng, totals, &mut samples).await.inspect(|&played_it| {
                    if played_it {
                        played.push(code);
                    }
                })
            }
            Err(e) => Err(e),
        };
        match went {
            Ok(true) => {}
            // The page names a table a moment before its room is set up: again shortly.
            Ok(false) => tokio::time::sleep(Duration::from_millis(rng.random_range(100..300))).await,
            Err(e) if moves < MOVES => {
                moves += 1;
                at += 1;
                totals.moves.fetch_add(1, Ordering::Relaxed);
                if totals.moves.load(Ordering::Relaxed) <= 3 {
                    eprintln!("{name}: {e}; on at {}", servers[at % servers.len()]);
                }
                tokio::time::sleep(Duration::from_millis(rng.random_range(200..600))).await;
            }
            Err(e) => return Err(e),
        }
    }
    Err("the tournament did not end within an hour".into())
}

/// Follows the event's page until it names a table not played yet (`None`: the entrant is out or the
/// event is over).
async fn follow(
    server: SocketAddr,
    id: &str,
    name: &str,
    played: &[String],
    totals: &Entrants,
) -> Result<Option<(String, u32)>, String> {
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let url = format!("ws://{server}/ws");
    let (mut socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.map_err(|e| e.to_string())?;
    let first = Command::FollowTournament { id: id.to_string(), name: Some(name.to_string()) };
    socket
        .send(Message::Text(serde_json::to_string(&first).expect("commands serialise").into()))
        .await
        .map_err(|e| e.to_string())?;
    let since = Instant::now();
    let found = loop {
        let text = match socket.next().await {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => continue,
            Some(Err(e)) => break Err(e.to_string()),
            None => break Err("the page's socket closed".into()),
        };
        totals.pages.fetch_add(1, Ordering::Relaxed);
        totals.page_bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
        let event = read_event(&text).map_err(|e| e.to_string())?;
        if let Event::Error { code, message, .. } = &event {
            break Err(format!("the page was refused ({code:?}): {message}"));
        }
        match said(&event) {
            Said::Done => break Ok(None),
            Said::Seated { code, deals } if !played.contains(&code) => break Ok(Some((code, deals))),
            _ => {}
        }
    };
    totals.following_ms.fetch_add(since.elapsed().as_millis() as u64, Ordering::Relaxed);
    let _ = socket.close(None).await;
    found
}

/// Plays `name`'s turns at table `code` until its `deals` deals are over; `false` when the room is not
/// there yet.
#[allow(clippy::too_many_arguments)]
async fn play_table(
    server: SocketAddr,
    code: &str,
    name: &str,
    deals: u32,
    think: (u64, u64),
    rng: &mut rand_chacha::ChaCha8Rng,
    totals: &Entrants,
    samples: &mut Samples,
) -> Result<bool, String> {
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let url = format!("ws://{server}/ws?room={code}");
    // Without Nagle's algorithm, as a browser's socket: a nonce and the action right after it would wait
    // for the server's delayed ACK of the nonce (40 ms).
    let (socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.map_err(|e| e.to_string())?;
    let (sink, mut stream) = socket.split();
    let mut player = Player {
        sink,
        view: None,
        n: 0,
        seq: now_ms(),
        due: None,
        sent: None,
        acted_at: None,
        pace: Pace::new(),
        nonce_for: None,
    };
    let hello = Command::Hello { room: code.into(), name: name.to_string(), token: None, key: None, browser: None };
    player.send(&hello).await?;
    // The action on its way: the event number it was sent from and when.
    let mut in_flight: Option<(u64, Instant)> = None;
    let deadline = Instant::now() + Duration::from_secs(1800);
    while Instant::now() < deadline {
        if player
            .view
            .as_ref()
            .is_some_and(|v| v.deals_played >= deals && v.deal.as_ref().is_none_or(|d| d.result.is_some()))
        {
            return Ok(true);
        }
        let before = player.n;
        if player.act_when_due(Instant::now(), think, rng).await? {
            in_flight = Some((before, Instant::now()));
        }
        let message = tokio::select! {
            message = stream.next() => message,
            _ = sleep_until(player.wakes_at()) => continue,
        };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            // The table closed (the tournament closes it once the round is over).
            Some(Ok(Message::Close(_))) | None => return Ok(player.view.is_some()),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
        };
        match read_event(&text) {
            Ok(Event::State { n, room }) => {
                player.n = n;
                let Some(view) = room.continuing(player.view.as_ref()) else {
                    player.send(&Command::Sync).await?;
                    continue;
                };
                player.view = Some(view);
                if player.acted_at.is_some_and(|at| n > at) {
                    player.acted_at = None;
                }
                if let Some((before, at)) = in_flight
                    && n > before
                {
                    samples.state.push(at.elapsed().as_secs_f64() * 1000.0);
                    in_flight = None;
                }
                let offer = player.view.as_ref().and_then(|v| v.offer.as_ref().zip(v.you));
                if let Some((offer, seat)) = offer
                    && offer.awaited.contains(&seat)
                    && !offer.received[seat]
                    && player.nonce_for.as_ref() != Some(&offer.commitment)
                {
                    player.nonce_for = Some(offer.commitment.clone());
                    let nonce = ddz_engine::Seed::random(rng);
                    player.send(&Command::Nonce { nonce }).await?;
                }
            }
            Ok(Event::Ack { seq }) => {
                if let Some(ms) = player.acknowledged(seq) {
                    samples.ack.push(ms);
                    totals.actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(Event::Error { code, message, seq }) => {
                if player.refused(seq, code) {
                    totals.refused.fetch_add(1, Ordering::Relaxed);
                    in_flight = None;
                } else if code == ErrorCode::UnknownRoom && player.view.is_none() {
                    return Ok(false);
                } else {
                    return Err(format!("refused ({code:?}): {message}"));
                }
            }
            _ => {}
        }
    }
    Err(format!("table {code} did not finish within 30 minutes"))
}
