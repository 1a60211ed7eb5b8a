//! HTTP and WebSocket: the JSON endpoints and one WebSocket per client.
//!
//! Guards: frames over [`MAX_FRAME`] bytes are refused, each connection may send [`RATE_PER_SEC`]
//! messages a second (bursts of [`RATE_BURST`]), outgoing queues are bounded, and at most
//! `max_connections` sockets are open at once.
//!
//! Sessions: the server pings every client ([`Heartbeat`]) and drops one it has not heard from for too
//! long (a half-open socket after a phone changed networks), so the seat shows disconnected. A `hello`
//! with the name's resume token replaces the name's old connection at once. When the server stops, every
//! client is told (`restarting`) and its socket closed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ddz_engine::Rules;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::time::{Duration, Instant};
use tokio_util::task::TaskTracker;

use crate::actor::{ConnId, Msg};
use crate::challenge::{ChallengeKind, is_date, utc_date};
use crate::protocol::{Command, Event};
use crate::room::Mode;
use crate::rooms::Rooms;

pub const MAX_FRAME: usize = 16 * 1024;
pub const RATE_PER_SEC: f64 = 10.0;
pub const RATE_BURST: f64 = 20.0;
/// Events queued for one client before it counts as too slow.
pub const OUTBOX: usize = 64;

#[derive(Clone)]
pub struct AppState {
    pub rooms: Rooms,
    pub connections: Arc<Semaphore>,
    pub next_conn: Arc<AtomicU64>,
    /// Every client connection's task, so that a shutdown can wait for them.
    pub clients: TaskTracker,
    pub heartbeat: Heartbeat,
}

/// The WebSocket heartbeat: a ping every `every`; a client silent for `silent_after` is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heartbeat {
    pub every: Duration,
    pub silent_after: Duration,
}

impl Default for Heartbeat {
    fn default() -> Self {
        Heartbeat { every: Duration::from_secs(15), silent_after: Duration::from_secs(45) }
    }
}

/// An error answered as JSON with a status code.
pub struct AppError(StatusCode, String);

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        tracing::error!(error = %e, "database error");
        AppError(StatusCode::INTERNAL_SERVER_ERROR, "the server could not reach its database".into())
    }
}

fn bad(message: impl Into<String>) -> AppError {
    AppError(StatusCode::BAD_REQUEST, message.into())
}

fn not_found(message: impl Into<String>) -> AppError {
    AppError(StatusCode::NOT_FOUND, message.into())
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/ws", get(websocket))
        .route("/api/rooms", post(create_room))
        .route("/api/play-vs-bots", post(play_vs_bots))
        .route("/api/lobby", get(lobby))
        .route("/api/rooms/{code}", get(room_summary))
        .route("/api/rooms/{code}/deals", get(room_deals))
        .route("/api/players/{name}", get(player_stats))
        .route("/api/boards/{board}", get(board))
        .route("/api/challenges", post(start_challenge))
        .route("/api/rallies", get(rallies))
        .route("/api/rallies/{date}/compare/{name}", get(compare_rally))
        .route("/api/readings", post(selection_readings))
        .route("/api/hints", post(hints))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .fallback(web_client)
        .with_state(state)
}

/// Liveness: the process answers.
async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}

/// Readiness: the database answers (within two seconds); 503 otherwise, so a balancer sends players
/// elsewhere.
async fn readyz(State(state): State<AppState>) -> Response {
    match tokio::time::timeout(Duration::from_secs(2), state.rooms.db().ping()).await {
        Ok(Ok(())) => Json(serde_json::json!({ "status": "ready" })).into_response(),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not ready: the database refused a query");
            AppError(StatusCode::SERVICE_UNAVAILABLE, "the database is unreachable".into()).into_response()
        }
        Err(_) => AppError(StatusCode::SERVICE_UNAVAILABLE, "the database did not answer".into()).into_response(),
    }
}

/// The Prometheus metrics (`crate::metrics`).
async fn metrics() -> Response {
    use axum::http::header::CONTENT_TYPE;
    ([(CONTENT_TYPE, "text/plain; version=0.0.4")], crate::metrics::render()).into_response()
}

/// A player name: 1 to 24 characters after trimming, no control characters.
pub fn valid_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 24 || name.chars().any(char::is_control) {
        return Err("a name is 1 to 24 characters".into());
    }
    Ok(name.to_string())
}

#[derive(Deserialize)]
struct CreateRoom {
    name: String,
    /// `house`, `noshuffle` or `twoplayer`.
    table: String,
    /// The House Wild, or the Wild Rank option.
    #[serde(default = "yes")]
    wild: bool,
    #[serde(default)]
    public: bool,
}

fn yes() -> bool {
    true
}

fn table_rules(table: &str, wild: bool) -> Result<Rules, AppError> {
    match table {
        "house" => Ok(Rules::house(wild)),
        "noshuffle" => Ok(Rules::no_shuffle(wild)),
        "twoplayer" => Ok(Rules::two_player(wild)),
        other => Err(bad(format!("unknown table {other:?} (house, noshuffle, twoplayer)"))),
    }
}

async fn create_room(
    State(state): State<AppState>,
    Json(req): Json<CreateRoom>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name).map_err(bad)?;
    // Public lobby tables always play House with the Wild, so that the lobby board compares.
    let (rules, mode) = if req.public {
        (Rules::house(true), Mode::Public)
    } else {
        (table_rules(&req.table, req.wild)?, Mode::Invite)
    };
    let code = state.rooms.create(rules, mode, &name).await?;
    state
        .rooms
        .ask(&code, |reply| Msg::Seat { name: name.clone(), reply })
        .await
        .ok_or_else(|| bad("the room stopped"))?
        .map_err(bad)?;
    Ok(Json(serde_json::json!({ "code": code })))
}

#[derive(Deserialize)]
struct PlayVsBots {
    name: String,
    #[serde(default = "house")]
    table: String,
    #[serde(default = "yes")]
    wild: bool,
    #[serde(default = "hard")]
    level: String,
}

fn house() -> String {
    "house".into()
}

fn hard() -> String {
    "hard".into()
}

/// Play vs 2 Bots: a room with the player seated, bots in the other seats, and the first deal dealt.
async fn play_vs_bots(
    State(state): State<AppState>,
    Json(req): Json<PlayVsBots>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name).map_err(bad)?;
    let rules = table_rules(&req.table, req.wild)?;
    let code = state.rooms.create(rules, Mode::Bots, &name).await?;
    let stopped = || bad("the room stopped");
    state.rooms.ask(&code, |reply| Msg::Seat { name: name.clone(), reply }).await.ok_or_else(stopped)?.map_err(bad)?;
    let level = req.level;
    state
        .rooms
        .ask(&code, |reply| Msg::AddBots { level: level.clone(), reply })
        .await
        .ok_or_else(stopped)?
        .map_err(bad)?;
    state.rooms.ask(&code, |reply| Msg::Start { reply }).await.ok_or_else(stopped)?.map_err(bad)?;
    Ok(Json(serde_json::json!({ "code": code })))
}

async fn lobby(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "tables": state.rooms.lobby() }))
}

async fn room_summary(State(state): State<AppState>, Path(code): Path<String>) -> Result<Response, AppError> {
    let view = state.rooms.view(&code).await.ok_or_else(|| not_found(format!("no room {code}")))?;
    Ok(Json(view).into_response())
}

async fn room_deals(State(state): State<AppState>, Path(code): Path<String>) -> Result<Response, AppError> {
    let records = state.rooms.db().deal_records(&code.to_uppercase()).await?;
    let records: Vec<serde_json::Value> = records.iter().filter_map(|r| serde_json::from_str(r).ok()).collect();
    Ok(Json(serde_json::json!({ "deals": records })).into_response())
}

async fn player_stats(State(state): State<AppState>, Path(name): Path<String>) -> Result<Response, AppError> {
    let lines = state.rooms.db().stats(&name).await?;
    Ok(Json(serde_json::json!({ "name": name, "stats": lines })).into_response())
}

#[derive(Deserialize)]
struct BoardQuery {
    /// The rally's date for the `rally` board (today's by default).
    date: Option<String>,
}

/// A board: `overall`, `lobby`, `buster`, `bomber`, or `rally` (today's, or `?date=2026-11-29`).
async fn board(
    State(state): State<AppState>,
    Path(board): Path<String>,
    Query(query): Query<BoardQuery>,
) -> Result<Response, AppError> {
    let db = state.rooms.db();
    let (rows, date) = match ChallengeKind::parse(&board) {
        Some(ChallengeKind::Rally) => {
            let date = rally_date(&state, query.date)?;
            (db.challenge_board(ChallengeKind::Rally, Some(date.clone())).await?, Some(date))
        }
        Some(kind) => (db.challenge_board(kind, None).await?, None),
        None => (
            db.board(&board, 100)
                .await?
                .ok_or_else(|| not_found(format!("no board {board:?} (overall, lobby, buster, bomber, rally)")))?,
            None,
        ),
    };
    Ok(Json(serde_json::json!({ "board": board, "date": date, "rows": rows })).into_response())
}

/// `date` if it is a date, else today's (UTC).
fn rally_date(state: &AppState, date: Option<String>) -> Result<String, AppError> {
    match date {
        Some(date) if is_date(&date) => Ok(date),
        Some(date) => Err(bad(format!("{date:?} is not a date like 2026-11-29"))),
        None => Ok(utc_date(state.rooms.now_ms())),
    }
}

#[derive(Deserialize)]
struct StartChallenge {
    name: String,
    /// `buster`, `bomber` or `rally`.
    kind: String,
}

/// Starts a Bot Buster or Bot Bomber run or today's Bang rally, or resumes the name's unfinished one.
async fn start_challenge(
    State(state): State<AppState>,
    Json(req): Json<StartChallenge>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name).map_err(bad)?;
    let kind = ChallengeKind::parse(&req.kind)
        .ok_or_else(|| bad(format!("unknown challenge {:?} (buster, bomber, rally)", req.kind)))?;
    match state.rooms.start_challenge(kind, &name).await {
        Ok(Some((code, resumed))) => Ok(Json(serde_json::json!({ "code": code, "resumed": resumed }))),
        Ok(None) => Err(AppError(StatusCode::CONFLICT, format!("{name} has already played today's rally"))),
        Err(message) => Err(AppError(StatusCode::INTERNAL_SERVER_ERROR, message)),
    }
}

/// Today's date and the dates of earlier rallies with results.
async fn rallies(State(state): State<AppState>) -> Result<Response, AppError> {
    let today = utc_date(state.rooms.now_ms());
    let dates = state.rooms.db().rallies().await?;
    Ok(Json(serde_json::json!({ "today": today, "dates": dates })).into_response())
}

/// A finished attempt at a rally beside the best one on its board, deal by deal (only once the name has
/// finished that rally, so that nobody learns the deals before playing them).
async fn compare_rally(
    State(state): State<AppState>,
    Path((date, name)): Path<(String, String)>,
) -> Result<Response, AppError> {
    let date = rally_date(&state, Some(date))?;
    let (you, best) = state
        .rooms
        .db()
        .rally_results(&date, &name)
        .await?
        .ok_or_else(|| not_found(format!("{name} has not finished the rally of {date}")))?;
    Ok(Json(serde_json::json!({ "date": date, "you": you, "best": best })).into_response())
}

/// The readings a selection of cards may be played as now (`crate::hints`).
async fn selection_readings(Json(position): Json<serde_json::Value>) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let answer = crate::hints::selection_readings(&position).map_err(bad)?;
    Ok(Json(answer).into_response())
}

/// Every legal play from a hand now (`crate::hints`), for the client's Hint button.
async fn hints(Json(position): Json<serde_json::Value>) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let plays = crate::hints::hints(&position).map_err(bad)?;
    Ok(Json(serde_json::json!({ "plays": plays })).into_response())
}

/// A position, or a 400 with the reason as JSON.
fn parse_position(json: serde_json::Value) -> Result<crate::hints::Position, AppError> {
    serde_json::from_value(json).map_err(|e| bad(format!("bad position: {e}")))
}

/// The browser client, built from `web/` into `web/dist` and embedded in the binary.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/dist"]
struct WebClient;

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("webp") => "image/webp",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Serves the client's files; any other path that is not an API path gets `index.html` (the client
/// routes by itself).
async fn web_client(uri: axum::http::Uri) -> Response {
    use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || ["api", "ws", "healthz", "readyz", "metrics"].contains(&path) {
        return not_found(format!("no endpoint /{path}")).into_response();
    }
    let (name, file) = match WebClient::get(path).filter(|_| !path.is_empty()) {
        Some(file) => (path, file),
        None => match WebClient::get("index.html") {
            Some(file) => ("index.html", file),
            None => return not_found("the web client was not built").into_response(),
        },
    };
    // Vite names the files under assets/ by their content hash.
    let cache = if name.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
    ([(CONTENT_TYPE, content_type(name)), (CACHE_CONTROL, cache)], file.data).into_response()
}

async fn websocket(State(state): State<AppState>, upgrade: WebSocketUpgrade) -> Response {
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return AppError(StatusCode::SERVICE_UNAVAILABLE, "the server is full; try again soon".into()).into_response();
    };
    let clients = state.clients.clone();
    upgrade.max_message_size(MAX_FRAME).max_frame_size(MAX_FRAME).on_upgrade(move |socket| {
        clients.track_future(async move {
            let conn = state.next_conn.fetch_add(1, Ordering::Relaxed);
            crate::metrics::gauge!(crate::metrics::CONNECTIONS).increment(1);
            client(socket, state, conn).await;
            crate::metrics::gauge!(crate::metrics::CONNECTIONS).decrement(1);
            drop(permit);
        })
    })
}

/// A token bucket: `RATE_PER_SEC` a second, up to `RATE_BURST` at once.
struct RateLimit {
    tokens: f64,
    at: Instant,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit { tokens: RATE_BURST, at: Instant::now() }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE_PER_SEC).min(RATE_BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn send(socket: &mut WebSocket, event: &Event) -> bool {
    let text = serde_json::to_string(event).expect("events serialise");
    socket.send(Message::Text(text.into())).await.is_ok()
}

fn error(message: impl Into<String>) -> Event {
    Event::Error { message: message.into(), seq: None }
}

/// Marks a `watch_lobby` hello.
const LOBBY: &str = "watch_lobby";

/// A lobby watcher: the public tables now and after every change, until the socket closes.
async fn watch_lobby(mut socket: WebSocket, state: &AppState) {
    let mut changes = state.rooms.watch_lobby();
    let stopping = state.rooms.stopping();
    let mut last = None;
    loop {
        let tables = crate::rooms::public_tables(&changes.borrow_and_update());
        if last.as_ref() != Some(&tables) {
            if !send(&mut socket, &Event::Lobby { tables: tables.clone() }).await {
                return;
            }
            last = Some(tables);
        }
        tokio::select! {
            _ = stopping.cancelled() => {
                send(&mut socket, &Event::Restarting).await;
                let _ = socket.close().await;
                return;
            }
            changed = changes.changed() => if changed.is_err() { return },
            frame = socket.recv() => match frame {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// One client: a `hello` first, then commands to its room and events back.
async fn client(mut socket: WebSocket, state: AppState, conn: ConnId) {
    let (inbox, out_rx) = match hello(&mut socket, &state, conn).await {
        Ok(joined) => joined,
        Err(message) if message == LOBBY => return watch_lobby(socket, &state).await,
        Err(message) => {
            send(&mut socket, &error(message)).await;
            let _ = socket.close().await;
            return;
        }
    };
    serve_client(socket, inbox.clone(), out_rx, conn, &state).await;
    let _ = inbox.send(Msg::Disconnect { conn }).await;
}

async fn hello(
    socket: &mut WebSocket,
    state: &AppState,
    conn: ConnId,
) -> Result<(mpsc::Sender<Msg>, mpsc::Receiver<Event>), String> {
    let first = tokio::time::timeout(Duration::from_secs(10), socket.recv()).await;
    let text = match first {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) => return Err("send a hello message first".into()),
        Ok(_) | Err(_) => return Err("no hello".into()),
    };
    let (room, name, token) = match serde_json::from_str::<Command>(&text) {
        Ok(Command::Hello { room, name, token }) => (room, name, token),
        Ok(Command::WatchLobby) => return Err(LOBBY.into()),
        _ => return Err("the first message must be a hello with a room and a name, or watch_lobby".into()),
    };
    let name = valid_name(&name)?;
    // A room task that retires as the hello reaches it drops the hello: load the room again and retry.
    for _ in 0..3 {
        let inbox = state.rooms.inbox(&room).await.map_err(|_| "the server could not load the room".to_string())?;
        let inbox = inbox.ok_or_else(|| format!("there is no room {room}"))?;
        let (out, out_rx) = mpsc::channel(OUTBOX);
        let (reply, answer) = oneshot::channel();
        let connect = Msg::Connect { conn, name: name.clone(), token: token.clone(), out, reply };
        if inbox.send(connect).await.is_err() {
            continue;
        }
        let Ok(joined) = answer.await else { continue };
        let token = joined?;
        send(socket, &Event::Session { token }).await;
        return Ok((inbox, out_rx));
    }
    Err("the room stopped".to_string())
}

async fn serve_client(
    socket: WebSocket,
    inbox: mpsc::Sender<Msg>,
    mut events: mpsc::Receiver<Event>,
    conn: ConnId,
    state: &AppState,
) {
    let (mut sink, mut stream) = socket.split();
    let mut limit = RateLimit::new();
    let (to_client, mut replies) = mpsc::channel::<Event>(8);
    let stopping = state.rooms.stopping();
    let heartbeat = state.heartbeat;
    let mut pings = tokio::time::interval_at(Instant::now() + heartbeat.every, heartbeat.every);
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            _ = stopping.cancelled() => {
                let text = serde_json::to_string(&Event::Restarting).expect("events serialise");
                let _ = sink.send(Message::Text(text.into())).await;
                let _ = sink.close().await;
                break;
            }
            _ = pings.tick() => {
                if heard.elapsed() >= heartbeat.silent_after {
                    tracing::debug!(conn, "dropping a client that stopped answering pings");
                    break;
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            event = events.recv() => {
                // None: dropped by the room as too slow, or the room stopped.
                let Some(event) = event else { break };
                let last = matches!(event, Event::Replaced | Event::Restarting);
                let text = serde_json::to_string(&event).expect("events serialise");
                if sink.send(Message::Text(text.into())).await.is_err() || last {
                    let _ = sink.close().await;
                    break;
                }
            }
            reply = replies.recv() => {
                let Some(reply) = reply else { break };
                let text = serde_json::to_string(&reply).expect("events serialise");
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            frame = stream.next() => {
                heard = Instant::now();
                let text = match frame {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = to_client.try_send(error("send commands as JSON text"));
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        // An oversized frame or a broken socket: say why if we can, then close.
                        tracing::debug!(conn, error = %e, "websocket error");
                        let text = serde_json::to_string(&error(format!("connection closed: {e}"))).expect("events serialise");
                        let _ = sink.send(Message::Text(text.into())).await;
                        break;
                    }
                };
                if !limit.allow() {
                    let _ = to_client.try_send(error("too many messages: slow down"));
                    continue;
                }
                let command = match serde_json::from_str::<Command>(&text) {
                    Ok(command) => command,
                    Err(e) => {
                        let _ = to_client.try_send(error(format!("not a command: {e}")));
                        continue;
                    }
                };
                if inbox.try_send(Msg::Command { conn, command }).is_err() {
                    let _ = to_client.try_send(error("the room is busy; try again"));
                }
            }
        }
    }
}
