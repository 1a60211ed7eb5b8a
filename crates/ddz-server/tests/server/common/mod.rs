//! Test helpers: a server on a free port with its own database, a raw HTTP POST, and a WebSocket client
//! that plays legal moves from its own view.

#![allow(dead_code)]

pub mod services;
pub mod tournament;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ddz_engine::{Card, CardSet, DealView, Seat};
use ddz_server::Timing;
use ddz_server::protocol::{Command, ErrorCode, Event, RoomView, simple_action};
use ddz_server::{Clock, Config, Guards, Listing, Running};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Bots that think for a millisecond, so that tests run quickly; turn clocks as in play.
pub const FAST: Timing = Timing {
    turn_ms: 40_000,
    deal_limit_ms: 300_000,
    bot_min_ms: 1,
    bot_span_ms: 5,
    host_away_ms: 120_000,
    idle_ms: 60_000,
    // Deals from the server's seed alone: tests of the players' nonces turn the wait on (tests/nonces.rs).
    nonce_ms: 0,
    match_fill_ms: 10_000,
    away_ms: 15_000,
    between_deals_ms: 50,
};

/// A fresh database file for one test, `ddz-test-{name}-{pid}.db` in the temporary directory. It stays
/// after the test (to look into after a failure) until a later test process starts, which removes those
/// of processes that are gone.
pub fn temp_db(name: &str) -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(remove_databases_of_finished_test_processes);
    let path = std::env::temp_dir().join(format!("ddz-test-{name}-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

fn remove_databases_of_finished_test_processes() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_prefix("ddz-test-")).and_then(|n| n.split(".db").next())
        else {
            continue;
        };
        let Some(pid) = stem.rsplit('-').next().and_then(|pid| pid.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

pub async fn server(db: &Path, timing: Timing) -> Running {
    configured_server(sqlite(db), timing, Default::default(), Guards::default(), Clock::system()).await
}

/// A server whose clock starts the test process at noon UTC on 2026-11-30 and then runs, so that the
/// date cannot change under a test (a rally's day) and restarts within a test never go back in time.
pub async fn server_at_noon(db: &Path, timing: Timing) -> Running {
    static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    const NOON_MS: u64 = 1_796_040_000_000;
    let elapsed = STARTED.get_or_init(std::time::Instant::now).elapsed().as_millis() as u64;
    configured_server(sqlite(db), timing, Default::default(), Guards::default(), Clock::starting_at(NOON_MS + elapsed))
        .await
}

/// A server whose clock reads `ms` (milliseconds since the Unix epoch) as it starts, and then runs.
pub async fn server_at_ms(db: &Path, timing: Timing, ms: u64) -> Running {
    configured_server(sqlite(db), timing, Default::default(), Guards::default(), Clock::starting_at(ms)).await
}

/// A server with its own heartbeat (a quick one, to see it at work).
pub async fn server_with(db: &Path, timing: Timing, heartbeat: ddz_server::Heartbeat) -> Running {
    configured_server(sqlite(db), timing, heartbeat, Guards::default(), Clock::system()).await
}

/// A server with its own limits (small ones, to see them at work).
pub async fn guarded_server(db: &Path, timing: Timing, guards: Guards) -> Running {
    configured_server(sqlite(db), timing, Default::default(), guards, Clock::system()).await
}

/// A server on the database at `url` (`postgres://…`).
pub async fn server_on(url: &str, timing: Timing) -> Running {
    configured_server(url.to_string(), timing, Default::default(), Guards::default(), Clock::system()).await
}

fn sqlite(db: &Path) -> String {
    format!("sqlite://{}", db.display())
}

async fn configured_server(
    database: String,
    timing: Timing,
    heartbeat: ddz_server::Heartbeat,
    guards: Guards,
    clock: Clock,
) -> Running {
    ddz_server::start(test_config(database, timing, heartbeat, guards, clock)).await.expect("the server starts")
}

/// What a name needs to be listed on the boards in these tests: one rated deal against one opponent
/// (tests/fair_play.rs sets the real thresholds).
pub const LISTED_AT_ONCE: Listing = Listing { deals: 1, opponents: 1 };

fn test_config(
    database: String,
    timing: Timing,
    heartbeat: ddz_server::Heartbeat,
    guards: Guards,
    clock: Clock,
) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database,
        max_connections: 100,
        timing,
        heartbeat,
        guards,
        clock,
        cluster: None,
        trusted_proxies: Vec::new(),
        listing: LISTED_AT_ONCE,
        tournaments: Vec::new(),
        // Mining puzzles from every deal a test finishes would take the bots' CPU (tests/server/puzzles.rs
        // mines).
        mine_puzzles: false,
    }
}

/// A server running the operator's recurring tournaments `events`.
pub async fn server_with_tournaments(db: &Path, timing: Timing, events: Vec<ddz_server::Recurring>) -> Running {
    let mut config = test_config(sqlite(db), timing, Default::default(), Guards::default(), Clock::system());
    config.tournaments = events;
    ddz_server::start(config).await.expect("the server starts")
}

/// A server behind a balancer on this machine (its `X-Forwarded-For` is trusted), so that each client
/// can come from an address of its own ([`Client::join_from`]), with `listing` for the boards.
pub async fn server_behind_balancer(db: &Path, timing: Timing, clock: Clock, listing: Listing) -> Running {
    let mut config = test_config(sqlite(db), timing, Default::default(), Guards::default(), clock);
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    config.listing = listing;
    ddz_server::start(config).await.expect("the server starts")
}

/// POSTs JSON and returns the JSON answer.
pub async fn post(addr: SocketAddr, path: &str, body: serde_json::Value) -> serde_json::Value {
    request(addr, "POST", path, Some(body)).await
}

/// Asks `probe` every `every` until it answers `Some`, for `wait` at most; panics naming `what` if it
/// never does. For what a server (or another process) does on its own time and tells nobody over the
/// socket a test holds: a tournament's driver seating a round, the matcher's next round, a node's start.
pub async fn poll<T, F, Fut>(what: &str, wait: Duration, every: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what}: not within {wait:?}");
        tokio::time::sleep(every).await;
    }
}

/// [`poll`] for a test outside tokio (a thread waiting for a process it started: PostgreSQL, NATS, nginx).
pub fn poll_blocking<T>(what: &str, wait: Duration, every: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + wait;
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "{what}: not within {wait:?}");
        std::thread::sleep(every);
    }
}

pub async fn get(addr: SocketAddr, path: &str) -> serde_json::Value {
    request(addr, "GET", path, None).await
}

async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<serde_json::Value>) -> serde_json::Value {
    http(addr, method, path, body).await.body
}

/// A GET's status code and body text (which need not be JSON).
pub async fn get_status(addr: SocketAddr, path: &str) -> (u16, String) {
    let (status, _, body) = raw_request(addr, "GET", path, Some("application/json"), "").await;
    (status, body)
}

/// An HTTP answer: the status code, the headers (lower-cased) and the JSON body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: serde_json::Value,
}

/// A POST with a JSON body from client `address`, as a balancer forwards it ([`server_behind_balancer`]).
pub async fn post_from(addr: SocketAddr, path: &str, body: serde_json::Value, address: &str) -> Answer {
    let content_type = format!("application/json\r\nX-Forwarded-For: {address}");
    http_text(addr, "POST", path, Some(&content_type), &body.to_string()).await
}

/// A raw HTTP request with a JSON body (or none).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<serde_json::Value>) -> Answer {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    http_text(addr, method, path, Some("application/json"), &body).await
}

/// A raw HTTP request with any body text, and a content type or none; the answer must still be JSON, or
/// empty (`null`: a 204).
pub async fn http_text(addr: SocketAddr, method: &str, path: &str, content_type: Option<&str>, body: &str) -> Answer {
    let (status, headers, text) = raw_request(addr, method, path, content_type, body).await;
    let body = match text.as_str() {
        "" => serde_json::Value::Null,
        text => serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")),
    };
    Answer { status, headers, body }
}

/// The status code, the headers (lower-cased) and the body text.
async fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let content_type = content_type.map(|t| format!("Content-Type: {t}\r\n")).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\n{content_type}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    let status = status.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status code");
    (status, headers.to_lowercase(), body.to_string())
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What a wait on the socket came to: an event, the socket's end, or nothing in time. A closed socket and
/// a silent one are different answers: a test that expects the server to close must not pass on silence.
#[derive(Debug)]
pub enum Received {
    Event(Event),
    /// The server closed the socket (a close frame, the stream's end, or a reset).
    Closed,
    /// Nothing arrived within the wait; the socket is still open.
    TimedOut,
}

/// A room's socket address, naming the room as the web client does (`/ws?room=CODE`, for a balancer that
/// routes by room).
pub fn ws_url(addr: impl std::fmt::Display, room: &str) -> String {
    format!("ws://{addr}/ws?room={}", room.to_uppercase())
}

pub struct Client {
    pub name: String,
    ws: Socket,
    pub view: Option<RoomView>,
    pub n: u64,
    /// Every raw message received, for hidden-information checks.
    pub raw: Vec<String>,
    pub errors: Vec<String>,
    /// The resume token from the `session` event.
    pub token: Option<String>,
    /// The server closed the socket (or it broke).
    pub closed: bool,
    /// States that continued from further on than this client's view reached (one was lost on the way):
    /// not applied; the client should `sync`.
    pub gaps: usize,
    seq: u64,
    /// Whether sends keep under the server's rate (10 commands a second, bursts of 20), waiting as a
    /// person would, so that no command of a test is refused for its pace; the flood tests turn it off.
    pub keeps_rate: bool,
    allowance: Allowance,
}

/// The client's own count of what the server's rate limit still allows, a little under it (a command
/// that waited in the network arrives closer to the next one than it was sent).
struct Allowance {
    commands: f64,
    at: tokio::time::Instant,
}

impl Allowance {
    const PER_SECOND: f64 = 9.0;
    const BURST: f64 = 18.0;

    fn full() -> Allowance {
        Allowance { commands: Allowance::BURST, at: tokio::time::Instant::now() }
    }

    /// Waits until one more command is allowed, and counts it.
    async fn take(&mut self) {
        let now = tokio::time::Instant::now();
        let earned = now.duration_since(self.at).as_secs_f64() * Allowance::PER_SECOND;
        self.commands = (self.commands + earned).min(Allowance::BURST);
        self.at = now;
        if self.commands < 1.0 {
            let wait = Duration::from_secs_f64((1.0 - self.commands) / Allowance::PER_SECOND);
            tokio::time::sleep(wait).await;
            self.commands = 1.0;
            self.at = tokio::time::Instant::now();
        }
        self.commands -= 1.0;
    }
}

impl Client {
    /// Connects and says hello; returns once the first room state arrived.
    pub async fn join(addr: SocketAddr, room: &str, name: &str) -> Client {
        let mut client = Client::connect(addr, room, name).await;
        client.next_state().await;
        client
    }

    /// Connects as a spectator (no name); returns once the first room state arrived.
    pub async fn watch(addr: SocketAddr, room: &str) -> Client {
        let mut client = Client::start_watching(addr, room).await;
        client.next_state().await;
        client
    }

    /// Connects through a balancer ([`server_behind_balancer`]) as a client at `address` and asks to watch,
    /// without waiting for an answer.
    pub async fn watch_from(addr: SocketAddr, room: &str, address: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = ws_url(addr, room).into_client_request().expect("a request");
        request.headers_mut().insert("x-forwarded-for", address.parse().expect("a header value"));
        let (ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
        let mut client = Client::over(ws, "");
        client.send(&Command::Watch { room: room.into() }).await;
        client
    }

    /// Connects and asks to watch as a spectator, without waiting for an answer.
    pub async fn start_watching(addr: SocketAddr, room: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(ws_url(addr, room)).await.expect("websocket");
        let mut client = Client::over(ws, "");
        client.send(&Command::Watch { room: room.into() }).await;
        client
    }

    /// Connects and says hello without waiting for an answer.
    pub async fn connect(addr: SocketAddr, room: &str, name: &str) -> Client {
        Client::connect_with_token(addr, room, name, None).await
    }

    /// Connects and says hello with a resume token.
    pub async fn connect_with_token(addr: SocketAddr, room: &str, name: &str, token: Option<String>) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(ws_url(addr, room)).await.expect("websocket");
        let mut client = Client::over(ws, name);
        client.send(&Command::Hello { room: room.into(), name: name.into(), token, key: None, browser: None }).await;
        client
    }

    /// Joins through a balancer ([`server_behind_balancer`]) as a client at `address`, from the browser
    /// `browser`; returns once the first room state arrived.
    pub async fn join_from(addr: SocketAddr, room: &str, name: &str, address: &str, browser: &str) -> Client {
        let mut client = Client::hello_from(addr, room, name, address, browser).await;
        client.next_state().await;
        client
    }

    /// Sends a `hello` as `name` from client `address` (behind the trusted balancer), waiting for nothing.
    pub async fn hello_from(addr: SocketAddr, room: &str, name: &str, address: &str, browser: &str) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = ws_url(addr, room).into_client_request().expect("a request");
        request.headers_mut().insert("x-forwarded-for", address.parse().expect("a header value"));
        let (ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
        let mut client = Client::over(ws, name);
        let hello = Command::Hello {
            room: room.into(),
            name: name.into(),
            token: None,
            key: None,
            browser: Some(browser.into()),
        };
        client.send(&hello).await;
        client
    }

    /// A client over an open socket that has sent nothing yet.
    pub fn over(ws: Socket, name: &str) -> Client {
        Client {
            name: name.into(),
            ws,
            view: None,
            n: 0,
            raw: Vec::new(),
            errors: Vec::new(),
            token: None,
            closed: false,
            gaps: 0,
            // Action numbers rise across reconnects and restarts, as the protocol asks (the server keeps the
            // last one it stored): the clock's milliseconds, as the web client's.
            seq: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64,
            keeps_rate: true,
            allowance: Allowance::full(),
        }
    }

    pub async fn send(&mut self, command: &Command) {
        self.send_text(&serde_json::to_string(command).unwrap()).await;
    }

    /// Sends a command; `false` (and `closed` set) if the socket is gone.
    pub async fn try_send(&mut self, command: &Command) -> bool {
        let text = serde_json::to_string(command).unwrap();
        if self.keeps_rate {
            self.allowance.take().await;
        }
        let sent = self.ws.send(Message::Text(text.into())).await.is_ok();
        self.closed |= !sent;
        sent
    }

    pub async fn send_text(&mut self, text: &str) {
        if self.keeps_rate {
            self.allowance.take().await;
        }
        self.ws.send(Message::Text(text.to_string().into())).await.expect("send");
    }

    /// The next event, or `None` if the socket closed or nothing came within `wait` (for reading whatever
    /// has arrived; [`Client::receive`] tells the two apart).
    pub async fn recv_within(&mut self, wait: Duration) -> Option<Event> {
        match self.receive(wait).await {
            Received::Event(event) => Some(event),
            Received::Closed | Received::TimedOut => None,
        }
    }

    /// The next event, the socket's end, or [`Received::TimedOut`] when nothing came within `wait`.
    pub async fn receive(&mut self, wait: Duration) -> Received {
        if self.closed {
            return Received::Closed;
        }
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let Ok(frame) = tokio::time::timeout_at(deadline, self.ws.next()).await else { return Received::TimedOut };
            let Some(frame) = frame else {
                self.closed = true;
                return Received::Closed;
            };
            match frame {
                Ok(Message::Text(text)) => {
                    let event: Event = serde_json::from_str(&text).expect("events parse");
                    self.raw.push(text.to_string());
                    match &event {
                        Event::State { n, room } => {
                            self.n = *n;
                            match (**room).clone().continuing(self.view.as_ref()) {
                                Some(view) => self.view = Some(view),
                                // A state lost on the way: the view stays as it was until a `sync`.
                                None => self.gaps += 1,
                            }
                        }
                        Event::Error { message, .. } => self.errors.push(message.clone()),
                        Event::Session { token } => self.token = Some(token.clone()),
                        _ => {}
                    }
                    return Received::Event(event);
                }
                Ok(Message::Close(_)) | Err(_) => {
                    self.closed = true;
                    return Received::Closed;
                }
                Ok(_) => continue,
            }
        }
    }

    /// Every event until the server closes the socket; panics if it is still open after `wait`.
    pub async fn events_until_closed(&mut self, wait: Duration) -> Vec<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut events = Vec::new();
        loop {
            match self.receive(deadline.saturating_duration_since(tokio::time::Instant::now())).await {
                Received::Event(event) => events.push(event),
                Received::Closed => return events,
                Received::TimedOut => panic!("{}: the socket is still open after {wait:?}: {events:?}", self.name),
            }
        }
    }

    /// Reads events until one satisfies `wanted` (returned); panics if the socket closes first or nothing
    /// does within `wait`.
    pub async fn event_within(&mut self, wait: Duration, wanted: impl Fn(&Event) -> bool) -> Event {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match self.receive(deadline.saturating_duration_since(tokio::time::Instant::now())).await {
                Received::Event(event) if wanted(&event) => return event,
                Received::Event(_) => {}
                other => panic!("{}: no such event within {wait:?}: {other:?}", self.name),
            }
        }
    }

    /// Sends a `ping` and reads until its `pong`: the room answers commands in order, so everything it
    /// sent this client before has then been read (a barrier, instead of waiting for a quiet moment).
    pub async fn sync(&mut self) {
        self.send(&Command::Ping).await;
        self.event_within(Duration::from_secs(20), |e| matches!(e, Event::Pong)).await;
    }

    /// The next error event: its code and message.
    pub async fn next_refusal(&mut self) -> (ErrorCode, String) {
        loop {
            if let Event::Error { code, message, .. } = self.recv().await {
                return (code, message);
            }
        }
    }

    pub async fn recv(&mut self) -> Event {
        self.recv_within(Duration::from_secs(20)).await.expect("an event within 20 s")
    }

    pub async fn next_state(&mut self) -> RoomView {
        loop {
            if let Event::State { .. } = self.recv().await {
                return self.view.clone().expect("the state just read");
            }
        }
    }

    /// Reads events until `done` holds for the room.
    pub async fn until(&mut self, done: impl Fn(&RoomView) -> bool) -> RoomView {
        loop {
            if let Some(view) = &self.view
                && done(view)
            {
                return view.clone();
            }
            self.next_state().await;
        }
    }

    pub fn deal(&self) -> Option<&DealView> {
        self.view.as_ref().and_then(|v| v.deal.as_ref())
    }

    /// Whether the deal waits for this client.
    pub fn my_turn(&self) -> bool {
        let Some(view) = &self.view else { return false };
        let (Some(seat), Some(deal)) = (view.you, &view.deal) else {
            return false;
        };
        deal.result.is_none() && deal.waiting_for.contains(&seat)
    }

    /// Sends a legal action for this client's seat (the first play, or a simple auction choice).
    pub async fn act(&mut self) {
        let action = simple_action(self.deal().expect("a deal"));
        self.seq += 1;
        let seq = self.seq;
        self.send(&Command::Act { seq, action }).await;
    }

    /// The `seq` of the last action sent with [`Client::act`].
    pub fn last_seq(&self) -> u64 {
        self.seq
    }

    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }
}

/// Creates an invite room of `table` hosted by `host`; its code.
pub async fn invite_room(addr: SocketAddr, host: &str, table: &str) -> String {
    let created = post(addr, "/api/rooms", serde_json::json!({"name": host, "table": table})).await;
    created["code"].as_str().expect("a room code").to_string()
}

/// The host (seat 0) starts a deal: the seat to act first, once its own client has the deal.
pub async fn start_deal(clients: &mut [Client]) -> Seat {
    clients[0].send(&Command::Start).await;
    let view = clients[0].until(|v| v.deal.is_some()).await;
    let turn = view.deal.unwrap().waiting_for[0];
    clients[turn].until(|v| v.deal.is_some()).await;
    turn
}

/// Alice's room of `table` with Bea and Cy seated beside her: the code, and the three clients.
pub async fn three_players(addr: SocketAddr, table: &str) -> (String, Vec<Client>) {
    let code = invite_room(addr, "Alice", table).await;
    (code.clone(), seat_three(addr, &code).await)
}

/// Alice (the host, seated already), Bea and Cy at the table `code`.
pub async fn seat_three(addr: SocketAddr, code: &str) -> Vec<Client> {
    let code = code.to_string();
    let alice = Client::join(addr, &code, "Alice").await;
    let mut bea = Client::join(addr, &code, "Bea").await;
    bea.send(&Command::Sit { seat: None }).await;
    let mut cy = Client::join(addr, &code, "Cy").await;
    cy.send(&Command::Sit { seat: None }).await;
    cy.until(|v| v.seats.iter().all(|s| s.occupant.is_some())).await;
    vec![alice, bea, cy]
}

/// Plays `rounds` rounds of whoever's turn it is acting, once the deal the host started reached everyone:
/// a client's action is answered and its state at every client before the next; a seat no client holds
/// (a bot) is waited for. Stops early when the deal ends. The clients' views are then the room's (as long
/// as no bot is about to move).
pub async fn play_some(clients: &mut [Client], rounds: usize) {
    for client in clients.iter_mut() {
        client.until(|v| v.deal.as_ref().is_some_and(|d| d.result.is_none())).await;
    }
    catch_up(clients).await;
    for _ in 0..rounds {
        if clients.iter().any(|c| c.deal().is_some_and(|d| d.result.is_some())) {
            break;
        }
        let Some(client) = clients.iter_mut().find(|c| c.my_turn()) else {
            // Nobody here is to act: a bot is, and its move is the round.
            clients[0].next_state().await;
            catch_up(clients).await;
            continue;
        };
        client.act().await;
        let answer = |e: &Event| matches!(e, Event::Ack { .. } | Event::Error { .. });
        if let event @ Event::Error { .. } = client.event_within(Duration::from_secs(20), answer).await {
            panic!("{}'s action was refused: {event:?}", client.name);
        }
        // The ack comes just before the state the action caused: states read while waiting for the ack
        // (a bot's moves) came before it, so only the next state has this client's action in it.
        client.next_state().await;
        catch_up(clients).await;
    }
}

/// Reads states until every client has the latest state any of them has (by its number `n`).
pub async fn catch_up(clients: &mut [Client]) {
    let latest = clients.iter().map(|c| c.n).max().unwrap_or(0);
    for client in clients.iter_mut() {
        while client.n < latest {
            client.next_state().await;
        }
    }
}

/// Plays until the deal is over: whoever's turn it is acts; everyone keeps reading.
pub async fn play_to_end(clients: &mut [Client]) {
    for _ in 0..2000 {
        for client in clients.iter_mut() {
            while client.recv_within(Duration::from_millis(5)).await.is_some() {}
        }
        if clients.iter().all(|c| c.deal().is_some_and(|d| d.result.is_some())) {
            return;
        }
        for client in clients.iter_mut() {
            if client.my_turn() {
                client.act().await;
                // Wait for the room to move on (or to refuse a move made on a stale view).
                loop {
                    match client.recv().await {
                        Event::State { .. } | Event::Error { .. } => break,
                        _ => {}
                    }
                }
            }
        }
    }
    panic!("the deal did not finish");
}

/// Checks every message each client received: only its seat's own hand, the shown bottom and played cards
/// (every hand once the deal is over); the hands sent to different seats at the same event are each seat's
/// own (disjoint, of the right size); the seed and salt only at the end, matching the commitment.
pub fn check_hidden_information(clients: &[Client]) {
    let mut hands_at: std::collections::HashMap<u64, Vec<(usize, CardSet)>> = Default::default();
    for client in clients {
        // Continuing states carry only new actions: rebuild each view as the client does.
        let mut previous: Option<RoomView> = None;
        for message in &client.raw {
            let Ok(Event::State { n, room }) = serde_json::from_str::<Event>(message) else {
                continue;
            };
            // A continuation after a lost state was not applied by the client either: skip it.
            let Some(room) = room.continuing(previous.as_ref()) else { continue };
            previous = Some(room.clone());
            let Some(deal) = room.deal else { continue };
            let hand = deal.hand.unwrap_or_default();
            let played = deal.actions.iter().fold(CardSet::EMPTY, |acc, a| match a {
                ddz_engine::Action::Play { cards, .. } => acc.union(*cards),
                _ => acc,
            });
            // Once the deal is over, every hand is shown face up (and nothing else).
            let at_end = deal.hands_at_end.iter().flatten().fold(CardSet::EMPTY, |acc, h| acc.union(*h));
            assert!(deal.result.is_some() || deal.hands_at_end.is_none(), "hands are shown only at the end");
            let allowed = hand.union(deal.bottom.unwrap_or_default()).union(played).union(at_end);
            for card in cards_in(message) {
                let card: Card = card.parse().unwrap();
                assert!(allowed.contains(card), "{} was sent {card}, which it may not see", client.name);
            }
            if let Some(seat) = room.you {
                assert_eq!(hand.len(), deal.hand_sizes[seat]);
                hands_at.entry(n).or_default().push((seat, hand));
            }
            if deal.landlord.is_none() {
                assert!(deal.bottom.is_none(), "the bottom is hidden until the landlord takes it");
            }
            // The commitment from the start; the seed (which deals every hand) and salt only at the end.
            let fairness = deal.fairness.as_ref().expect("every deal is committed to");
            match (&deal.result, fairness.seed, fairness.salt) {
                (None, None, None) => {}
                (Some(_), Some(seed), Some(salt)) => {
                    assert_eq!(ddz_engine::fair::commitment(&seed, &salt), fairness.commitment);
                }
                _ => panic!("{} was sent the seed or salt of an unfinished deal", client.name),
            }
        }
    }
    for hands in hands_at.values() {
        for (i, (a, x)) in hands.iter().enumerate() {
            for (b, y) in &hands[i + 1..] {
                assert!(a == b || x.intersection(*y).is_empty(), "two seats were sent the same card");
            }
        }
    }
}

/// Every card string a seat's message carries, leaving out the public priority draws.
fn cards_in(message: &str) -> HashSet<String> {
    let mut value: serde_json::Value = serde_json::from_str(message).unwrap();
    if let Some(deal) = value.pointer_mut("/room/deal").and_then(|d| d.as_object_mut()) {
        deal.remove("priority_draws");
    }
    let mut found = HashSet::new();
    collect_strings(&value, &mut found);
    found.into_iter().filter(|s| s.parse::<Card>().is_ok() && s.len() == 2 || s == "W").collect()
}

fn collect_strings(value: &serde_json::Value, out: &mut HashSet<String>) {
    match value {
        serde_json::Value::String(s) => {
            out.insert(s.clone());
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// A socket that watches rather than plays (the hall, the lobby, a tournament's page): its first frame,
/// then the events it is sent.
pub struct Watcher {
    ws: Socket,
}

impl Watcher {
    pub async fn open(addr: SocketAddr, first: &Command) -> Watcher {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("the socket opens");
        ws.send(Message::Text(serde_json::to_string(first).unwrap().into())).await.expect("the first frame goes");
        Watcher { ws }
    }

    /// The next event within `wait`, or `None` when none came (a closed socket fails the test).
    pub async fn next_within(&mut self, wait: Duration) -> Option<Event> {
        loop {
            let frame = match tokio::time::timeout(wait, self.ws.next()).await {
                Err(_) => return None,
                Ok(frame) => frame,
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    return Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("the watcher's socket ended: {other:?}"),
            }
        }
    }

    /// The first event within `wait` that `wanted` accepts (the others are dropped).
    pub async fn event_within(&mut self, wait: Duration, wanted: impl Fn(&Event) -> bool) -> Event {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next_within(left).await {
                Some(event) if wanted(&event) => return event,
                Some(_) => {}
                None => panic!("no such event within {wait:?}"),
            }
        }
    }
}

/// Forty starts of a rally attempt, then of a Bot Buster run, at once across `pools` (one database), five names:
/// each name gets one run and every other start of theirs joins it, none refused.
pub async fn race_challenge_starts(pools: &[ddz_server::Db]) {
    use ddz_server::{Challenge, ChallengeKind, ChallengeStart, PlayerName, RoomCode};
    let kinds = [(ChallengeKind::Rally, Some("2026-12-01".to_string())), (ChallengeKind::Buster, None)];
    for (round, (kind, rally)) in kinds.into_iter().enumerate() {
        let starts: Vec<_> = (0..40)
            .map(|i| {
                let (db, challenge) = (pools[i % pools.len()].clone(), Challenge { kind, rally: rally.clone() });
                let (code, name) = (RoomCode::from(format!("R{round}X{i:02}")), format!("Zed{}", i % 5));
                let player = PlayerName::parse(&name).unwrap();
                tokio::spawn(async move { (name.clone(), db.start_challenge(&code, &challenge, &player, 1).await) })
            })
            .collect();
        let mut runs = std::collections::BTreeMap::<String, Vec<ChallengeStart>>::new();
        for start in starts {
            let (name, started) = start.await.unwrap();
            runs.entry(name).or_default().push(started.unwrap_or_else(|e| panic!("{kind:?}: {e}")));
        }
        for (name, starts) in &runs {
            let created: Vec<&RoomCode> =
                starts.iter().filter_map(|s| if let ChallengeStart::Created(c) = s { Some(c) } else { None }).collect();
            assert_eq!(created.len(), 1, "{kind:?}, {name}: one run created: {starts:?}");
            let joined = starts
                .iter()
                .all(|s| matches!(s, ChallengeStart::Created(c) | ChallengeStart::Unfinished(c) if c == created[0]));
            assert!(joined, "{kind:?}, {name}: every other start joins it: {starts:?}");
        }
    }
}
