//! `ddz load`: simulated players over real WebSockets against a running server. Players come in pairs:
//! one creates an invite room, the other joins, the host seats a bot in the third seat and starts, and
//! both play legal moves as soon as it is their turn, for a number of deals. Reports messages received
//! per second and the latency from sending an action to receiving the broadcast it caused.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ddz_server::protocol::{Command, Event, RoomView, simple_action};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub struct LoadArgs {
    pub server: SocketAddr,
    pub players: usize,
    pub deals: u32,
}

struct Totals {
    messages: AtomicU64,
    actions: AtomicU64,
    failures: AtomicU64,
}

pub fn load(args: LoadArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(run(args))
}

async fn run(args: LoadArgs) -> Result<(), String> {
    let rooms = args.players.div_ceil(2);
    let totals =
        Arc::new(Totals { messages: AtomicU64::new(0), actions: AtomicU64::new(0), failures: AtomicU64::new(0) });
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..rooms {
        let totals = totals.clone();
        let (server, deals) = (args.server, args.deals);
        tasks.spawn(async move {
            // Spread the connections over the first seconds, as real players arrive.
            tokio::time::sleep(Duration::from_millis((i as u64 * 3) % 5000)).await;
            match room(server, i, deals, &totals).await {
                Ok(latencies) => latencies,
                Err(e) => {
                    if totals.failures.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("room {i}: {e}");
                    }
                    Vec::new()
                }
            }
        });
    }
    let mut latencies: Vec<f64> = Vec::new();
    while let Some(done) = tasks.join_next().await {
        latencies.extend(done.map_err(|e| e.to_string())?);
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort_by(f64::total_cmp);
    let at = |q: f64| latencies.get(((latencies.len().max(1) - 1) as f64 * q) as usize).copied().unwrap_or(0.0);
    let messages = totals.messages.load(Ordering::Relaxed);
    println!(
        "{} players in {rooms} rooms, {} deals each: {seconds:.1} s, {} actions, {messages} messages received \
         ({:.0}/s), action-to-broadcast latency p50 {:.1} ms, p99 {:.1} ms, {} rooms failed",
        args.players,
        args.deals,
        totals.actions.load(Ordering::Relaxed),
        messages as f64 / seconds,
        at(0.5),
        at(0.99),
        totals.failures.load(Ordering::Relaxed)
    );
    Ok(())
}

async fn post(server: SocketAddr, path: &str, body: serde_json::Value) -> Result<serde_json::Value, String> {
    let mut stream = TcpStream::connect(server).await.map_err(|e| e.to_string())?;
    let body = body.to_string();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {server}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.map_err(|e| e.to_string())?;
    stream.write_all(body.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await.map_err(|e| e.to_string())?;
    let (_, body) = response.split_once("\r\n\r\n").ok_or("not an HTTP response")?;
    serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))
}

struct Player {
    socket: Socket,
    view: Option<RoomView>,
    n: u64,
    seq: u64,
    /// When the last action was sent, until its broadcast arrives.
    sent: Option<(Instant, u64)>,
}

impl Player {
    async fn connect(server: SocketAddr, room: &str, name: &str) -> Result<Player, String> {
        let (mut socket, _) =
            tokio_tungstenite::connect_async(format!("ws://{server}/ws")).await.map_err(|e| e.to_string())?;
        let hello = Command::Hello { room: room.into(), name: name.into(), token: None };
        socket.send(Message::Text(serde_json::to_string(&hello).unwrap().into())).await.map_err(|e| e.to_string())?;
        Ok(Player { socket, view: None, n: 0, seq: 0, sent: None })
    }

    async fn send(&mut self, command: &Command) -> Result<(), String> {
        let text = serde_json::to_string(command).expect("commands serialise");
        self.socket.send(Message::Text(text.into())).await.map_err(|e| e.to_string())
    }

    /// Handles one incoming message; returns a latency sample when it is the broadcast of our action.
    fn receive(&mut self, text: &str, totals: &Totals) -> Option<f64> {
        totals.messages.fetch_add(1, Ordering::Relaxed);
        let Ok(Event::State { n, room }) = serde_json::from_str::<Event>(text) else { return None };
        self.n = n;
        self.view = Some(*room);
        match self.sent {
            Some((at, before)) if n > before => {
                self.sent = None;
                Some(at.elapsed().as_secs_f64() * 1000.0)
            }
            _ => None,
        }
    }

    fn my_turn(&self) -> bool {
        let Some(view) = &self.view else { return false };
        let (Some(seat), Some(deal)) = (view.you, &view.deal) else { return false };
        deal.result.is_none() && deal.waiting_for.contains(&seat) && self.sent.is_none()
    }

    async fn act(&mut self, totals: &Totals) -> Result<(), String> {
        let deal = self.view.as_ref().and_then(|v| v.deal.as_ref()).ok_or("no deal")?;
        let action = simple_action(deal);
        self.seq += 1;
        self.sent = Some((Instant::now(), self.n));
        totals.actions.fetch_add(1, Ordering::Relaxed);
        self.send(&Command::Act { seq: self.seq, action }).await
    }
}

async fn room(server: SocketAddr, index: usize, deals: u32, totals: &Totals) -> Result<Vec<f64>, String> {
    let host = format!("load-{index}-a");
    let created = post(server, "/api/rooms", serde_json::json!({"name": host, "table": "house"})).await?;
    let code = created["code"].as_str().ok_or_else(|| format!("no room: {created}"))?.to_string();
    let mut players = [
        Player::connect(server, &code, &host).await?,
        Player::connect(server, &code, &format!("load-{index}-b")).await?,
    ];
    players[1].send(&Command::Sit { seat: Some(1) }).await?;
    players[0].send(&Command::AddBot { seat: 2, level: "normal".into() }).await?;
    let mut latencies = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(600);
    let mut started = 0;
    while Instant::now() < deadline {
        let view = players[0].view.clone();
        let full = view.as_ref().is_some_and(|v| v.seats.iter().all(|s| s.occupant.is_some()));
        let idle = view.as_ref().is_some_and(|v| v.deal.as_ref().is_none_or(|d| d.result.is_some()));
        if full && idle && view.as_ref().is_some_and(|v| v.deals_played == started) {
            if started == deals {
                return Ok(latencies);
            }
            players[0].send(&Command::Start).await?;
            started += 1;
        }
        for player in players.iter_mut() {
            if player.my_turn() {
                player.act(totals).await?;
            }
        }
        // Wait for the next message from either player.
        let [a, b] = &mut players;
        let (which, message) = tokio::select! {
            message = a.socket.next() => (0, message),
            message = b.socket.next() => (1, message),
        };
        handle(&mut players[which], message, totals, &mut latencies)?;
    }
    Err("timed out".into())
}

fn handle(
    player: &mut Player,
    message: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
    totals: &Totals,
    latencies: &mut Vec<f64>,
) -> Result<(), String> {
    match message {
        Some(Ok(Message::Text(text))) => {
            if let Some(ms) = player.receive(&text, totals) {
                latencies.push(ms);
            }
            Ok(())
        }
        Some(Ok(_)) => Ok(()),
        Some(Err(e)) => Err(e.to_string()),
        None => Err("the server closed the connection".into()),
    }
}
