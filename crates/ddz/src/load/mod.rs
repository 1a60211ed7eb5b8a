//! `ddz load`: simulated players over real WebSockets against running servers. Each room is created by
//! its first player, the others join and sit (with a bot in the third seat when `--bots`), the host
//! starts, and everyone plays legal moves after a think time drawn from `--think-ms` (0 for saturation),
//! for a number of deals. Rooms arrive spread over `--ramp-s`; with several `--server` addresses (the
//! nodes of a cluster), rooms are created round them and each room's players connect to different ones,
//! so that most of a room's traffic crosses between nodes.
//!
//! Reports actions per second, the latency from sending an action to its `ack` and to the `state` it
//! caused at every seat of the room (p50, p95, p99, max), failures, and each server's resident memory
//! (from its `/metrics`). `ddz load --tournament N` is the other generator: one tournament of N entrants
//! (`tournament.rs`), sharing this file's player.

mod tournament;

pub use tournament::{TournamentArgs, tournament};

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ddz_server::protocol::{Command, ErrorCode, Event, RoomView, simple_action};
use futures_util::stream::{SplitSink, select_all};
use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub struct LoadArgs {
    pub servers: Vec<SocketAddr>,
    pub players: usize,
    pub deals: u32,
    /// Think time per action, milliseconds: drawn uniformly from this range.
    pub think_ms: (u64, u64),
    /// New rooms are spread evenly over this many seconds.
    pub ramp_s: u64,
    /// Rooms of two players and a bot (else three players).
    pub bots: bool,
    /// Every player of a room connects to the node that made it (its owner), as a balancer that routes
    /// by room would send them; else a room's players are spread over the nodes.
    pub routed: bool,
}

/// Parses `1000..4000` or `0` (saturation).
pub fn parse_think(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("{text:?} is not a think time like 1000..4000 or 0");
    let (low, high) = match text.split_once("..") {
        Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if low > high { Err(bad()) } else { Ok((low, high)) }
}

#[derive(Default)]
struct Totals {
    /// Actions the rooms accepted (acknowledged), and actions refused (a stale view, or too fast).
    actions: AtomicU64,
    refused: AtomicU64,
    failures: AtomicU64,
    /// `state` events received, and their bytes.
    states: AtomicU64,
    state_bytes: AtomicU64,
}

/// One room's latency samples, in milliseconds.
#[derive(Default)]
struct Samples {
    ack: Vec<f64>,
    state: Vec<f64>,
}

pub fn load(args: LoadArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(run(args))
}

async fn run(args: LoadArgs) -> Result<(), String> {
    let per_room = if args.bots { 2 } else { 3 };
    let rooms = args.players.div_ceil(per_room);
    let totals = Arc::new(Totals::default());
    let args = Arc::new(args);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..rooms {
        let (totals, args) = (totals.clone(), args.clone());
        tasks.spawn(async move {
            let delay = args.ramp_s * 1000 * i as u64 / rooms.max(1) as u64;
            tokio::time::sleep(Duration::from_millis(delay)).await;
            match room(i, &args, &totals).await {
                Ok(samples) => samples,
                Err(e) => {
                    if totals.failures.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("room {i}: {e}");
                    }
                    Samples::default()
                }
            }
        });
    }
    let mut all = gathered(tasks).await?;
    let seconds = started.elapsed().as_secs_f64();
    let actions = totals.actions.load(Ordering::Relaxed);
    println!(
        "{} players in {rooms} rooms ({}), {} deals each, think {}..{} ms, ramp {} s: {seconds:.1} s, {actions} \
         actions acknowledged ({:.0}/s), {} refused, {} rooms failed",
        args.players,
        if args.bots { "two players and a bot" } else { "three players" },
        args.deals,
        args.think_ms.0,
        args.think_ms.1,
        args.ramp_s,
        actions as f64 / seconds,
        totals.refused.load(Ordering::Relaxed),
        totals.failures.load(Ordering::Relaxed)
    );
    let (states, bytes) = (totals.states.load(Ordering::Relaxed), totals.state_bytes.load(Ordering::Relaxed));
    println!(
        "  {states} states received, {:.1} MiB, {:.0} bytes each on average",
        bytes as f64 / 1024.0 / 1024.0,
        bytes as f64 / states.max(1) as f64
    );
    println!("  action -> ack:   {}", percentiles(&mut all.ack));
    println!("  action -> state: {} (at every seat)", percentiles(&mut all.state));
    for server in &args.servers {
        match resident_memory(*server).await {
            Some(bytes) => println!("  server {server}: {:.0} MiB resident", bytes / 1024.0 / 1024.0),
            None => println!("  server {server}: memory unknown (no ddz_process_resident_bytes in /metrics)"),
        }
    }
    Ok(())
}

fn percentiles(samples: &mut [f64]) -> String {
    if samples.is_empty() {
        return "no samples".into();
    }
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} samples)",
        at(0.5),
        at(0.95),
        at(0.99),
        at(1.0),
        samples.len()
    )
}

async fn http(server: SocketAddr, method: &str, path: &str, body: &str) -> Result<String, String> {
    let mut stream = TcpStream::connect(server).await.map_err(|e| e.to_string())?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.map_err(|e| e.to_string())?;
    stream.write_all(body.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await.map_err(|e| e.to_string())?;
    let (_, body) = response.split_once("\r\n\r\n").ok_or("not an HTTP response")?;
    Ok(body.to_string())
}

async fn resident_memory(server: SocketAddr) -> Option<f64> {
    let text = http(server, "GET", "/metrics", "").await.ok()?;
    let line = text.lines().find(|l| l.starts_with("ddz_process_resident_bytes"))?;
    line.split_whitespace().last()?.parse().ok()
}

struct Player {
    sink: SplitSink<Socket, Message>,
    view: Option<RoomView>,
    n: u64,
    seq: u64,
    /// When to act, once it is this player's turn (the think time).
    due: Option<Instant>,
    /// The action sent and not yet acknowledged: its `seq` and when it was sent.
    sent: Option<(u64, Instant)>,
    /// The last event number seen when the last action was sent, and again when it was acknowledged,
    /// until a later state arrives: the view is stale until then (an action's `ack` comes before the
    /// `state` it caused, and other seats' states may arrive in between).
    acted_at: Option<u64>,
    pace: Pace,
    /// The commitment of the last deal this player sent a nonce for (docs/fair-deals.md).
    nonce_for: Option<String>,
}

/// An action neither acknowledged nor refused this long is taken as lost (its room moved to another node
/// as it was sent, the node that had it killed): the player plays the turn again, as a person who sees it
/// is still their turn does.
const LOST_AFTER: Duration = Duration::from_secs(3);

/// A server takes 10 commands a second from one connection, in bursts of 20: a well-behaved client keeps
/// a little under that, so that a saturation run measures the server and not its refusals.
struct Pace {
    tokens: f64,
    at: Instant,
}

impl Pace {
    const PER_SECOND: f64 = 9.5;
    const BURST: f64 = 19.0;

    fn new() -> Pace {
        Pace { tokens: Pace::BURST, at: Instant::now() }
    }

    /// How long until the next command may go: `None` when it may go now.
    fn wait(&mut self) -> Option<Duration> {
        let now = Instant::now();
        self.tokens = (self.tokens + (now - self.at).as_secs_f64() * Pace::PER_SECOND).min(Pace::BURST);
        self.at = now;
        (self.tokens < 1.0).then(|| Duration::from_secs_f64((1.0 - self.tokens) / Pace::PER_SECOND))
    }
}

impl Player {
    /// The `ack` of action `seq`: its latency in ms if it is this player's action in flight. States
    /// caused by other seats' actions, stored before this one, may still have arrived after it was sent:
    /// the view is current only from the next state on.
    fn acknowledged(&mut self, seq: u64) -> Option<f64> {
        let (_, at) = self.sent.filter(|(sent, _)| *sent == seq)?;
        self.sent = None;
        self.acted_at = Some(self.n);
        Some(at.elapsed().as_secs_f64() * 1000.0)
    }

    /// A refusal of action `seq`: whether it was this player's action in flight. A refused action (a
    /// stale view) is tried again on the next state; one refused for going faster than a connection may
    /// (10 a second), a little later.
    fn refused(&mut self, seq: Option<u64>, code: ErrorCode) -> bool {
        if seq.is_none() || self.sent.is_none_or(|(sent, _)| Some(sent) != seq) {
            return false;
        }
        self.sent = None;
        self.acted_at = None;
        if code == ErrorCode::RateLimited {
            self.due = Some(Instant::now() + Duration::from_millis(100));
        }
        true
    }

    /// On this player's turn, acts once its think time (drawn from `think`, in ms) is up, under the
    /// server's 10 commands a second per connection (the latency counts from the send). Whether it sent
    /// an action.
    async fn act_when_due(&mut self, now: Instant, think: (u64, u64), rng: &mut impl RngExt) -> Result<bool, String> {
        if self.sent.is_some_and(|(_, at)| now >= at + LOST_AFTER) {
            self.sent = None;
            self.acted_at = None;
        }
        match (self.my_turn(), self.due) {
            (true, None) => self.due = Some(now + Duration::from_millis(rng.random_range(think.0..=think.1))),
            (false, _) => self.due = None,
            _ => {}
        }
        if self.due.is_none_or(|due| due > now) {
            return Ok(false);
        }
        if let Some(wait) = self.pace.wait() {
            self.due = Some(now + wait);
            return Ok(false);
        }
        self.due = None;
        let deal = self.view.as_ref().and_then(|v| v.deal.as_ref()).ok_or("no deal")?;
        let action = simple_action(deal);
        self.seq += 1;
        self.sent = Some((self.seq, Instant::now()));
        self.acted_at = Some(self.n);
        self.send(&Command::Act { seq: self.seq, action }).await?;
        Ok(true)
    }

    async fn send(&mut self, command: &Command) -> Result<(), String> {
        if let Some(wait) = self.pace.wait() {
            tokio::time::sleep(wait).await;
            self.pace.wait();
        }
        self.pace.tokens -= 1.0;
        let text = serde_json::to_string(command).expect("commands serialise");
        self.sink.send(Message::Text(text.into())).await.map_err(|e| e.to_string())
    }

    /// When this player next has something to do: act, or give up waiting for an action's answer.
    fn wakes_at(&self) -> Option<Instant> {
        self.due.or(self.sent.map(|(_, at)| at + LOST_AFTER))
    }

    fn my_turn(&self) -> bool {
        let Some(view) = &self.view else { return false };
        let (Some(seat), Some(deal)) = (view.you, &view.deal) else { return false };
        deal.result.is_none() && deal.waiting_for.contains(&seat) && self.sent.is_none() && self.acted_at.is_none()
    }
}

/// An action on its way: when it was sent, the room's event number before it, and which seats have
/// received the state it caused.
struct InFlight {
    at: Instant,
    before: u64,
    seen: Vec<bool>,
}

async fn room(index: usize, args: &LoadArgs, totals: &Totals) -> Result<Samples, String> {
    let server = args.servers[index % args.servers.len()];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(index as u64);
    let humans = if args.bots { 2 } else { 3 };
    let names: Vec<String> = (0..humans).map(|p| format!("load-{index}-{p}")).collect();
    let body = serde_json::json!({"name": names[0], "table": "house"}).to_string();
    let created: serde_json::Value =
        serde_json::from_str(&http(server, "POST", "/api/rooms", &body).await?).map_err(|e| e.to_string())?;
    let code = created["code"].as_str().ok_or_else(|| format!("no room: {created}"))?.to_string();
    let mut players = Vec::new();
    let mut streams = Vec::new();
    for (p, name) in names.iter().enumerate() {
        let server = if args.routed { server } else { args.servers[(index + p) % args.servers.len()] };
        let (socket, _) = {
            // Room states are about 2 KiB: tungstenite zeroes its read buffer (128 KiB by default) before
            // every read, and a buffer of two states' size was the cheapest in a saturation run.
            let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
            // The room in the address, as the web client names it: a balancer routing by room sends
            // all three players to one node.
            let url = format!("ws://{server}/ws?room={code}");
            tokio_tungstenite::connect_async_with_config(url, Some(config), false).await.map_err(|e| e.to_string())?
        };
        let (sink, stream) = socket.split();
        streams.push(stream.map(move |message| (p, message)));
        let mut player = Player {
            sink,
            view: None,
            n: 0,
            seq: 0,
            due: None,
            sent: None,
            acted_at: None,
            pace: Pace::new(),
            nonce_for: None,
        };
        player
            .send(&Command::Hello {
                room: code.as_str().into(),
                name: name.clone(),
                token: None,
                key: None,
                browser: None,
            })
            .await?;
        if p > 0 {
            player.send(&Command::Sit { seat: Some(p) }).await?;
        }
        players.push(player);
    }
    if args.bots {
        players[0].send(&Command::AddBot { seat: 2, level: ddz_bot::BotKind::Normal }).await?;
    }
    let mut messages = select_all(streams);
    let mut samples = Samples::default();
    let mut in_flight: VecDeque<InFlight> = VecDeque::new();
    let deadline = Instant::now() + Duration::from_secs(1800);
    let mut started = 0;
    while Instant::now() < deadline {
        let view = players[0].view.clone();
        let full = view.as_ref().is_some_and(|v| v.seats.iter().all(|s| s.occupant.is_some()));
        let idle = view.as_ref().is_some_and(|v| v.deal.as_ref().is_none_or(|d| d.result.is_some()));
        if full && idle && view.as_ref().is_some_and(|v| v.deals_played == started) {
            if started == args.deals {
                return Ok(samples);
            }
            players[0].send(&Command::Start).await?;
            started += 1;
        }
        let now = Instant::now();
        for player in players.iter_mut() {
            let before = player.n;
            if player.act_when_due(now, args.think_ms, &mut rng).await? {
                in_flight.push_back(InFlight { at: Instant::now(), before, seen: vec![false; humans] });
            }
        }
        let next_due = players.iter().filter_map(Player::wakes_at).min();
        let message = tokio::select! {
            message = messages.next() => message,
            _ = sleep_until(next_due) => continue,
        };
        let Some((p, message)) = message else { return Err("the server closed the connections".into()) };
        let text = match message {
            Ok(Message::Text(text)) => text,
            Ok(Message::Close(_)) => return Err("the server closed a connection".into()),
            Ok(_) => continue,
            Err(e) => return Err(e.to_string()),
        };
        match read_event(&text) {
            Ok(Event::State { n, room }) => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                totals.state_bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
                let player = &mut players[p];
                player.n = n;
                let Some(view) = room.continuing(player.view.as_ref()) else {
                    // A state was lost on the way (a cluster's NATS restarting): ask for the whole room.
                    player.send(&Command::Sync).await?;
                    continue;
                };
                player.view = Some(view);
                if player.acted_at.is_some_and(|at| n > at) {
                    player.acted_at = None;
                }
                // A deal waiting for this player's randomness gets it at once, as a browser's does.
                let offer = player.view.as_ref().and_then(|v| v.offer.as_ref().zip(v.you));
                if let Some((offer, seat)) = offer
                    && offer.awaited.contains(&seat)
                    && !offer.received[seat]
                    && player.nonce_for.as_ref() != Some(&offer.commitment)
                {
                    player.nonce_for = Some(offer.commitment.clone());
                    let nonce = ddz_engine::Seed::random(&mut rng);
                    player.send(&Command::Nonce { nonce }).await?;
                }
                for action in in_flight.iter_mut().filter(|a| n > a.before && !a.seen[p]) {
                    action.seen[p] = true;
                    samples.state.push(action.at.elapsed().as_secs_f64() * 1000.0);
                }
                while in_flight.front().is_some_and(|a| a.seen.iter().all(|s| *s)) {
                    in_flight.pop_front();
                }
            }
            Ok(Event::Ack { seq }) => {
                if let Some(ms) = players[p].acknowledged(seq) {
                    samples.ack.push(ms);
                    totals.actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(Event::Error { code, message, seq }) => {
                if players[p].refused(seq, code) {
                    totals.refused.fetch_add(1, Ordering::Relaxed);
                    in_flight.pop_back();
                } else {
                    return Err(format!("refused ({code:?}): {message}"));
                }
            }
            _ => {}
        }
    }
    Err("timed out".into())
}

/// Reads an event. A `state` (the server writes its `type` first) is read straight into its fields:
/// reading the tagged [`Event`] buffers the whole frame first, which cost a fifth of the load
/// generator's time at saturation.
fn read_event(text: &str) -> serde_json::Result<Event> {
    #[derive(serde::Deserialize)]
    struct State {
        n: u64,
        room: Box<RoomView>,
    }
    if text.starts_with(r#"{"type":"state","#) {
        let State { n, room } = serde_json::from_str(text)?;
        return Ok(Event::State { n, room });
    }
    serde_json::from_str(text)
}

/// Every task's samples, together, once they have all ended.
async fn gathered(mut tasks: tokio::task::JoinSet<Samples>) -> Result<Samples, String> {
    let mut all = Samples::default();
    while let Some(done) = tasks.join_next().await {
        let samples = done.map_err(|e| e.to_string())?;
        all.ack.extend(samples.ack);
        all.state.extend(samples.state);
    }
    Ok(all)
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
