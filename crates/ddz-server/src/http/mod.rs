//! HTTP and WebSocket: the JSON endpoints and one WebSocket per client.
//!
//! Guards: frames over [`MAX_FRAME`] bytes are refused, each connection may send [`COMMANDS`] (10
//! messages a second, bursts of 20), outgoing queues are bounded, and at most `max_connections` sockets
//! are open at once. Per client address, a token bucket limits API requests and another new WebSockets
//! (`crate::Guards`). Hints and readings run on the bounded [`crate::work::Pool`] and refuse hands larger
//! than [`MAX_HAND`].
//!
//! Sessions: the server pings every client ([`Heartbeat`]) and drops one it has not heard from for too
//! long (a half-open socket after a phone changed networks), so the seat shows disconnected. A `hello`
//! with the name's resume token replaces the name's old connection at once. When the server stops, every
//! client is told (`restarting`) and its socket closed.

pub mod limit;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request, State};
use axum::handler::Handler;
use axum::http::{StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ddz_bot::review::{REVIEW_BUDGET, Review};
use ddz_engine::{DealRecord, Fairness, Rules};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::time::{Duration, Instant};
use tokio_util::task::TaskTracker;
use tower_http::compression::CompressionLayer;

use self::limit::{Bucket, PerClient, Rate};
use crate::domain::challenge::{ChallengeKind, is_date, rally_closed, sealed_rally, utc_date};
use crate::domain::room::Mode;
use crate::room::{ConnId, Msg, Outbound};
use crate::rooms::{Rooms, room_stopped};
use crate::wire::protocol::{Command, ErrorCode, Event, Refused};
use crate::work::Queue;

pub const MAX_FRAME: usize = 16 * 1024;
const READ_BUFFER: usize = 4 * 1024;
/// Commands one connection may send: 10 a second, bursts of 20.
pub const COMMANDS: Rate = Rate::new(10.0, 20.0);
/// Events queued for one client before it counts as too slow.
pub const OUTBOX: usize = 64;
/// The largest hand at any table: the House landlord's 17 + 4 middle cards with the Wild. `/api/hints`
/// and `/api/readings` refuse larger ones.
pub const MAX_HAND: usize = 21;
/// The most plays `/api/hints` and readings `/api/readings` answer with (the engine's order, the rest
/// left off and `truncated` set).
pub const MAX_ANSWERS: usize = 200;
/// Reviews waiting or running at once; one more is answered `busy`.
pub const REVIEWS_QUEUED: usize = 8;
/// The longest player name, in characters.
pub const MAX_NAME: usize = 24;

#[derive(Clone)]
pub struct AppState {
    pub rooms: Rooms,
    pub connections: Arc<Semaphore>,
    pub next_conn: Arc<AtomicU64>,
    /// Every client connection's task, so that a shutdown can wait for them.
    pub clients: TaskTracker,
    pub heartbeat: Heartbeat,
    /// Per client address: API requests, and new WebSocket connections.
    pub api_limit: Arc<PerClient>,
    pub ws_limit: Arc<PerClient>,
    /// The bot's reviews of finished deals: one thread, a few waiting, never the tables' pool.
    pub reviews: Queue,
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

/// An error answered as JSON (`{"code", "message"}`) with a status code.
pub struct AppError {
    status: StatusCode,
    refused: Refused,
    retry_after: Option<Duration>,
}

impl AppError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError { status, refused: Refused::new(code, message), retry_after: None }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = Json(serde_json::json!({ "code": self.refused.code, "message": self.refused.message }));
        let mut response = (self.status, body).into_response();
        if let Some(wait) = self.retry_after {
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A JSON request body as axum reads it, but refused in the API's own shape (`{"code": "bad_request",
/// "message"}`) instead of axum's plain text, keeping axum's status: 400 for a body that is not JSON (or a
/// path that is not UTF-8, a plain request to `/ws`), 415 without a JSON content type, 422 for a body of
/// the wrong shape, 413 for one over the size limit.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
struct Body<T>(T);

/// A path's parameters, refused as [`Body`] is.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(AppError))]
struct Params<T>(T);

/// A query string, refused as [`Body`] is.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
struct Queried<T>(T);

macro_rules! refused_by_axum {
    ($($rejection:ty),*) => {$(
        impl From<$rejection> for AppError {
            fn from(rejection: $rejection) -> AppError {
                AppError::new(rejection.status(), ErrorCode::BadRequest, rejection.body_text())
            }
        }
    )*};
}

refused_by_axum!(JsonRejection, PathRejection, QueryRejection, WebSocketUpgradeRejection);

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        tracing::error!(error = %e, "database error");
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, "the server could not reach its database")
    }
}

/// A room's or the server's refusal: the server's own trouble is a 500, anything else the client's 400.
impl From<Refused> for AppError {
    fn from(refused: Refused) -> AppError {
        let status = match refused.code {
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::UnknownRoom | ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::RallyOpen => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        };
        AppError { status, refused, retry_after: None }
    }
}

fn bad(message: impl Into<String>) -> AppError {
    AppError::new(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
}

fn not_found(message: impl Into<String>) -> AppError {
    AppError::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
}

/// The server's own trouble (a stored record that does not read back): logged, and a 500.
fn internal(message: String) -> AppError {
    tracing::error!(%message, "internal error");
    AppError::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, message)
}

fn unknown_room(code: &str) -> AppError {
    AppError::new(StatusCode::NOT_FOUND, ErrorCode::UnknownRoom, format!("there is no room {code}"))
}

fn rate_limited(wait: Duration) -> AppError {
    let message = format!("too many requests: try again in {:.1} s", wait.as_secs_f64());
    AppError {
        retry_after: Some(wait),
        ..AppError::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, message)
    }
}

fn busy() -> AppError {
    AppError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Busy, "the server is busy; try again in a moment")
}

/// The per-address token bucket in `limit`, in front of a route: a 429 with `Retry-After` when empty.
/// Behind a trusted balancer the client is the address it forwards. Without a peer address (a router
/// served without connect info) nothing is limited.
async fn per_client(State(limit): State<Arc<PerClient>>, request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    let forwarded_for = request.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
    if let Some(ip) = peer.map(|peer| limit.client(peer, forwarded_for))
        && let Err(wait) = limit.check(ip)
    {
        tracing::debug!(%ip, path = %request.uri().path(), "rate limited");
        return rate_limited(wait).into_response();
    }
    next.run(request).await
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/rooms", post(create_room))
        .route("/api/play-vs-bots", post(play_vs_bots))
        .route("/api/lobby", get(lobby))
        .route("/api/rooms/{code}", get(room_summary))
        .route("/api/rooms/{code}/deals", get(room_deals))
        .route("/api/rooms/{code}/deals/{number}", get(deal_replay))
        .route("/api/rooms/{code}/deals/{number}/reviews/{seat}", get(deal_review))
        .route("/api/players/{name}", get(player_stats))
        .route("/api/boards/{board}", get(board))
        .route("/api/challenges", post(start_challenge))
        .route("/api/rallies", get(rallies))
        .route("/api/rallies/{date}/compare/{name}", get(compare_rally))
        .route("/api/rallies/{date}/fairness", get(rally_fairness))
        .route("/api/readings", post(selection_readings))
        .route("/api/hints", post(hints))
        .route_layer(from_fn_with_state(state.api_limit.clone(), per_client))
        .route("/ws", get(websocket).route_layer(from_fn_with_state(state.ws_limit.clone(), per_client)))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        // The client's files go out compressed (brotli or gzip, as the browser accepts).
        .fallback(web_client.layer(CompressionLayer::new()))
        .method_not_allowed_fallback(wrong_method)
        .with_state(state)
}

/// A 405 in the API's own shape: `GET /api/rooms`, `DELETE /api/lobby` and the like.
async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> AppError {
    let message = format!("{method} is not allowed on {}", uri.path());
    AppError::new(StatusCode::METHOD_NOT_ALLOWED, ErrorCode::BadRequest, message)
}

/// Liveness: the process answers.
async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}

/// Readiness: the database answers (within two seconds); 503 otherwise, so a balancer sends players
/// elsewhere.
async fn readyz(State(state): State<AppState>) -> Response {
    let message = match tokio::time::timeout(Duration::from_secs(2), state.rooms.db().ping()).await {
        // A cluster node also needs NATS, to reach the rooms other nodes own.
        Ok(Ok(())) if state.rooms.cluster().is_some_and(|c| !c.connected()) => "NATS is unreachable",
        Ok(Ok(())) => return Json(serde_json::json!({ "status": "ready" })).into_response(),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not ready: the database refused a query");
            "the database is unreachable"
        }
        Err(_) => "the database did not answer",
    };
    AppError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Internal, message).into_response()
}

/// The Prometheus metrics (`crate::metrics`).
async fn metrics() -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], crate::metrics::render()).into_response()
}

/// A player name, wherever one arrives (request bodies, paths, a WebSocket `hello`): 1 to 24 characters
/// after trimming, with no control characters and no invisible formatting characters (bidirectional
/// overrides and isolates, zero-width spaces), which could make one name look like another on a board.
pub fn valid_name(name: &str) -> Result<String, Refused> {
    let name = name.trim();
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME {
        return Err(Refused::new(ErrorCode::BadName, format!("a name is 1 to {MAX_NAME} characters")));
    }
    if let Some(c) = name.chars().find(|&c| c.is_control() || is_invisible_format(c)) {
        let message = format!("a name may not contain the character U+{:04X}", u32::from(c));
        return Err(Refused::new(ErrorCode::BadName, message));
    }
    Ok(name.to_string())
}

/// Formatting characters that change how the text around them is shown without being seen themselves:
/// bidirectional marks, embeddings, overrides and isolates, zero-width spaces and the byte-order mark.
/// (The zero-width joiner and non-joiner stay: emoji and some scripts need them.)
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// A name from a path: a 400 unless it is a valid name.
fn path_name(name: &str) -> Result<String, AppError> {
    Ok(valid_name(name)?)
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
    Body(req): Body<CreateRoom>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name)?;
    // Public lobby tables always play House with the Wild, so that the lobby board compares.
    let (rules, mode) = if req.public {
        (Rules::house(true), Mode::Public)
    } else {
        (table_rules(&req.table, req.wild)?, Mode::Invite)
    };
    let code = state.rooms.create(rules, mode, &name).await?;
    state.rooms.ask(&code, |reply| Msg::Seat { name: name.clone(), reply }).await.ok_or_else(room_stopped)??;
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
    Body(req): Body<PlayVsBots>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name)?;
    let rules = table_rules(&req.table, req.wild)?;
    let code = state.rooms.create(rules, Mode::Bots, &name).await?;
    state.rooms.ask(&code, |reply| Msg::Seat { name: name.clone(), reply }).await.ok_or_else(room_stopped)??;
    let level = req.level;
    state.rooms.ask(&code, |reply| Msg::AddBots { level: level.clone(), reply }).await.ok_or_else(room_stopped)??;
    state.rooms.ask(&code, |reply| Msg::Start { reply }).await.ok_or_else(room_stopped)??;
    Ok(Json(serde_json::json!({ "code": code })))
}

async fn lobby(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "tables": state.rooms.lobby() }))
}

async fn room_summary(State(state): State<AppState>, Params(code): Params<String>) -> Result<Response, AppError> {
    let view = state.rooms.view(&code).await.ok_or_else(|| unknown_room(&code))?;
    Ok(Json(view).into_response())
}

async fn room_deals(State(state): State<AppState>, Params(code): Params<String>) -> Result<Response, AppError> {
    let code = code.to_uppercase();
    unsealed_room(&state, &code).await?;
    let records = state.rooms.db().deal_records(&code).await?;
    let records: Vec<serde_json::Value> = records.iter().filter_map(|r| serde_json::from_str(r).ok()).collect();
    Ok(Json(serde_json::json!({ "deals": records })).into_response())
}

/// A number in a request's path (a deal's, a seat's): a clear JSON 400 for anything else.
fn path_number(text: &str, what: &str) -> Result<u32, AppError> {
    text.parse().map_err(|_| bad(format!("{what} must be a number, not {text:?}")))
}

/// Refuses room `code` if it is unknown (404) or a rally whose deals are still secret (403
/// `rally_open`, from the one guard in [`sealed_rally`]).
async fn unsealed_room(state: &AppState, code: &str) -> Result<(), AppError> {
    let room = state.rooms.db().room(code).await?.ok_or_else(|| unknown_room(code))?;
    match sealed_rally(room.challenge.as_ref(), state.rooms.now_ms()) {
        Some(date) => Err(Refused::rally_open(date).into()),
        None => Ok(()),
    }
}

/// The record of finished deal `number` of room `code`: 404s for an unknown room or deal.
async fn finished_deal(state: &AppState, code: &str, number: &str) -> Result<(u32, DealRecord), AppError> {
    let number = path_number(number, "the deal number")?;
    unsealed_room(state, code).await?;
    let text = state
        .rooms
        .db()
        .deal_record(code, number)
        .await?
        .ok_or_else(|| not_found(format!("room {code} has no finished deal {number}")))?;
    let record = serde_json::from_str(&text).map_err(|e| internal(format!("deal {number} of {code}: {e}")))?;
    Ok((number, record))
}

/// A finished deal to step through (`/replay/CODE/N` in the client): its record and every step of its
/// replay, folded by the engine on the work pool.
async fn deal_replay(
    State(state): State<AppState>,
    Params((code, number)): Params<(String, String)>,
) -> Result<Response, AppError> {
    let code = code.to_uppercase();
    let (number, record) = finished_deal(&state, &code, &number).await?;
    let steps =
        state.rooms.pool().try_run(move || record.steps().map(|steps| (record, steps))).await.map_err(|_| busy())?;
    let (record, steps) = steps.map_err(|e| internal(format!("deal {number} of {code} does not replay: {e}")))?;
    Ok(Json(
        serde_json::json!({ "code": code, "number": number, "seats": record.seats, "record": record, "steps": steps }),
    )
    .into_response())
}

/// The `hard` bot's review of one seat's trick play in a finished deal (`ddz_bot::review`): worked out
/// once, on the reviews' own queue, and kept in the database.
async fn deal_review(
    State(state): State<AppState>,
    Params((code, number, seat)): Params<(String, String, String)>,
) -> Result<Response, AppError> {
    let code = code.to_uppercase();
    let (number, record) = finished_deal(&state, &code, &number).await?;
    let seat = path_number(&seat, "the seat")?;
    if seat as usize >= record.seats.len() {
        return Err(not_found(format!("deal {number} of {code} has no seat {seat}")));
    }
    let db = state.rooms.db().clone();
    let text = match db.review(&code, number, seat).await? {
        Some(text) => text,
        None => {
            let (job_code, runtime) = (code.clone(), tokio::runtime::Handle::current());
            // The job looks again (an earlier request for the same review may have stored it while this one
            // waited) and stores what it works out itself, so that a request given up midway wastes nothing.
            state
                .reviews
                .try_run(move || -> Result<String, AppError> {
                    if let Some(text) = runtime.block_on(db.review(&job_code, number, seat))? {
                        return Ok(text);
                    }
                    let review = ddz_bot::review::review(&record, seat as usize, REVIEW_BUDGET)
                        .map_err(|e| internal(format!("deal {number} of {job_code} does not replay: {e}")))?;
                    let text = serde_json::to_string(&review).expect("a review serialises");
                    runtime.block_on(db.store_review(&job_code, number, seat, text.clone()))?;
                    Ok(text)
                })
                .await
                .map_err(|_| busy())??
        }
    };
    let review: Review =
        serde_json::from_str(&text).map_err(|e| internal(format!("a stored review of {code}: {e}")))?;
    Ok(Json(serde_json::json!({ "code": code, "number": number, "review": review })).into_response())
}

async fn player_stats(State(state): State<AppState>, Params(name): Params<String>) -> Result<Response, AppError> {
    let name = path_name(&name)?;
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
    Params(board): Params<String>,
    Queried(query): Queried<BoardQuery>,
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
    Body(req): Body<StartChallenge>,
) -> Result<Json<serde_json::Value>, AppError> {
    let name = valid_name(&req.name)?;
    let kind = ChallengeKind::parse(&req.kind)
        .ok_or_else(|| bad(format!("unknown challenge {:?} (buster, bomber, rally)", req.kind)))?;
    match state.rooms.start_challenge(kind, &name).await {
        Ok(Some((code, resumed))) => Ok(Json(serde_json::json!({ "code": code, "resumed": resumed }))),
        Ok(None) => Err(AppError::new(
            StatusCode::CONFLICT,
            ErrorCode::RallyPlayed,
            format!("{name} has already played today's rally"),
        )),
        Err(refused) => Err(refused.into()),
    }
}

/// Today's date and the dates of earlier rallies with results.
async fn rallies(State(state): State<AppState>) -> Result<Response, AppError> {
    let today = utc_date(state.rooms.now_ms());
    let dates = state.rooms.db().rallies().await?;
    Ok(Json(serde_json::json!({ "today": today, "dates": dates })).into_response())
}

/// A day's rally committed to (`docs/fair-deals.md`): from the day's start, the commitment to its deals
/// and each deal's; once the rally has closed (an hour after its UTC day), each deal's seed and salt.
async fn rally_fairness(State(state): State<AppState>, Params(date): Params<String>) -> Result<Response, AppError> {
    let date = rally_date(&state, Some(date))?;
    let now = state.rooms.now_ms();
    if date > utc_date(now) {
        return Err(not_found(format!("the rally of {date} has not begun")));
    }
    let secret = state.rooms.db().rally_secret().await.map_err(|e| internal(format!("the rally secret: {e}")))?;
    let closed = rally_closed(&date, now);
    let setups: Vec<_> = (0..crate::domain::challenge::RALLY_DEALS)
        .map(|n| crate::domain::challenge::rally_setup(&secret, &date, n))
        .collect();
    let commitments: Vec<String> = setups.iter().filter_map(|setup| setup.commitment()).collect();
    let deals: Vec<Fairness> = setups
        .iter()
        .zip(&commitments)
        .map(|(setup, commitment)| Fairness {
            commitment: commitment.clone(),
            seed: closed.then_some(setup.seed),
            salt: setup.salt.filter(|_| closed),
        })
        .collect();
    let commitment = ddz_engine::fair::day_commitment(&date, &commitments);
    Ok(Json(serde_json::json!({ "date": date, "commitment": commitment, "closed": closed, "deals": deals }))
        .into_response())
}

/// A finished attempt at a rally beside the best one on its board, deal by deal (only once the name has
/// finished that rally, so that nobody learns the deals before playing them).
async fn compare_rally(
    State(state): State<AppState>,
    Params((date, name)): Params<(String, String)>,
) -> Result<Response, AppError> {
    let date = rally_date(&state, Some(date))?;
    let name = path_name(&name)?;
    let (you, best) = state
        .rooms
        .db()
        .rally_results(&date, &name)
        .await?
        .ok_or_else(|| not_found(format!("{name} has not finished the rally of {date}")))?;
    Ok(Json(serde_json::json!({ "date": date, "you": you, "best": best })).into_response())
}

/// The readings a selection of cards may be played as now (`crate::domain::hints`), on the work pool.
async fn selection_readings(
    State(state): State<AppState>,
    Body(position): Body<serde_json::Value>,
) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let mut answer = state
        .rooms
        .pool()
        .try_run(move || crate::domain::hints::selection_readings(&position))
        .await
        .map_err(|_| busy())?
        .map_err(bad)?;
    answer.truncated = answer.readings.len() > MAX_ANSWERS;
    answer.readings.truncate(MAX_ANSWERS);
    Ok(Json(answer).into_response())
}

/// Every legal play from a hand now (`crate::domain::hints`), for the client's Hint button, on the work pool.
async fn hints(State(state): State<AppState>, Body(position): Body<serde_json::Value>) -> Result<Response, AppError> {
    let position = parse_position(position)?;
    let mut plays = state
        .rooms
        .pool()
        .try_run(move || crate::domain::hints::hints(&position))
        .await
        .map_err(|_| busy())?
        .map_err(bad)?;
    let truncated = plays.len() > MAX_ANSWERS;
    plays.truncate(MAX_ANSWERS);
    Ok(Json(serde_json::json!({ "plays": plays, "truncated": truncated })).into_response())
}

/// A position with a hand no larger than a real one, or a 400 with the reason as JSON.
fn parse_position(json: serde_json::Value) -> Result<crate::domain::hints::Position, AppError> {
    let position: crate::domain::hints::Position =
        serde_json::from_value(json).map_err(|e| bad(format!("bad position: {e}")))?;
    let largest = position.hand.len().max(position.cards.len());
    if largest > MAX_HAND {
        let message = format!("{largest} cards: no hand at any table holds more than {MAX_HAND}");
        return Err(AppError::new(StatusCode::BAD_REQUEST, ErrorCode::HandTooLarge, message));
    }
    Ok(position)
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

async fn websocket(
    State(state): State<AppState>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return AppError::from(rejection).into_response(),
    };
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        let full = "the server is full; try again soon";
        return AppError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::ServerFull, full).into_response();
    };
    let clients = state.clients.clone();
    // Commands are small: a read buffer of the default 128 KiB would be zeroed on every read.
    upgrade.max_message_size(MAX_FRAME).max_frame_size(MAX_FRAME).read_buffer_size(READ_BUFFER).on_upgrade(
        move |socket| {
            clients.track_future(async move {
                let conn = state.next_conn.fetch_add(1, Ordering::Relaxed);
                crate::metrics::gauge!(crate::metrics::CONNECTIONS).increment(1);
                client(socket, state, conn).await;
                crate::metrics::gauge!(crate::metrics::CONNECTIONS).decrement(1);
                drop(permit);
            })
        },
    )
}

async fn send(socket: &mut WebSocket, event: &Event) -> bool {
    let text = serde_json::to_string(event).expect("events serialise");
    socket.send(Message::Text(text.into())).await.is_ok()
}

fn error(code: ErrorCode, message: impl Into<String>) -> Event {
    Refused::new(code, message).event(None)
}

/// What a first frame asks for.
enum Hello {
    /// A room's events, through this inbox.
    Room(mpsc::Sender<Msg>, mpsc::Receiver<Outbound>),
    /// The lobby's.
    Lobby,
}

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
            _ = stopping.cancelled() => return say_restarting(&mut socket).await,
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
        Ok(Hello::Room(inbox, out_rx)) => (inbox, out_rx),
        Ok(Hello::Lobby) => return watch_lobby(socket, &state).await,
        Err(refused) => {
            send(&mut socket, &refused.event(None)).await;
            let _ = socket.close().await;
            return;
        }
    };
    serve_client(socket, inbox.clone(), out_rx, conn, &state).await;
    let _ = inbox.send(Msg::Disconnect { conn }).await;
}

async fn hello(socket: &mut WebSocket, state: &AppState, conn: ConnId) -> Result<Hello, Refused> {
    let refuse = |message: &str| Refused::new(ErrorCode::BadMessage, message);
    let stopping = state.rooms.stopping();
    let first = tokio::select! {
        first = tokio::time::timeout(Duration::from_secs(10), socket.recv()) => first,
        _ = stopping.cancelled() => return Err(Refused::new(ErrorCode::Internal, "the server is restarting")),
    };
    let text = match first {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) => return Err(refuse("send a hello message first")),
        Ok(_) | Err(_) => return Err(refuse("no hello")),
    };
    let (room, name, token) = match serde_json::from_str::<Command>(&text) {
        Ok(Command::Hello { room, name, token }) => (room, Some(valid_name(&name)?), token),
        Ok(Command::Watch { room }) => (room, None, None),
        Ok(Command::WatchLobby) => return Ok(Hello::Lobby),
        _ => return Err(refuse("the first message must be a hello with a room and a name, watch, or watch_lobby")),
    };
    // A room task that retires as the hello reaches it drops the hello: load the room again and retry.
    for _ in 0..3 {
        let inbox = state
            .rooms
            .inbox(&room)
            .await
            .map_err(|_| Refused::new(ErrorCode::Internal, "the server could not load the room"))?;
        let inbox = inbox.ok_or_else(|| Refused::new(ErrorCode::UnknownRoom, format!("there is no room {room}")))?;
        let (out, out_rx) = mpsc::channel(OUTBOX);
        let (reply, answer) = oneshot::channel();
        let connect = Msg::Connect { conn, name: name.clone(), token: token.clone(), out, reply };
        if inbox.send(connect).await.is_err() {
            continue;
        }
        let Ok(joined) = answer.await else { continue };
        if let Some(token) = joined? {
            send(socket, &Event::Session { token }).await;
        }
        return Ok(Hello::Room(inbox, out_rx));
    }
    Err(room_stopped())
}

/// The `seq` of an `act`, read from the frame before its body, so that a refusal can carry it even when
/// the body does not parse or the command is dropped unread.
fn act_seq(frame: &serde_json::Value) -> Option<u64> {
    (frame.get("type")?.as_str()? == "act").then(|| frame.get("seq")?.as_u64()).flatten()
}

/// Tells a client the server is going down, then closes its socket.
async fn say_restarting<S: futures_util::Sink<Message> + Unpin>(sink: &mut S) {
    let text = serde_json::to_string(&Event::Restarting).expect("events serialise");
    let _ = sink.send(Message::Text(text.into())).await;
    let _ = sink.close().await;
}

async fn serve_client(
    socket: WebSocket,
    inbox: mpsc::Sender<Msg>,
    mut events: mpsc::Receiver<Outbound>,
    conn: ConnId,
    state: &AppState,
) {
    let (mut sink, mut stream) = socket.split();
    let mut limit = Bucket::full(COMMANDS);
    let (to_client, mut replies) = mpsc::channel::<Event>(8);
    let stopping = state.rooms.stopping();
    let heartbeat = state.heartbeat;
    let mut pings = tokio::time::interval_at(Instant::now() + heartbeat.every, heartbeat.every);
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            // Biased: a stopping room also closes `events`, and the client must hear why first.
            biased;
            _ = stopping.cancelled() => {
                say_restarting(&mut sink).await;
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
                // None: dropped by the room as too slow, or the room stopped (told why on a shutdown).
                let Some(event) = event else {
                    if stopping.is_cancelled() {
                        say_restarting(&mut sink).await;
                    }
                    break;
                };
                // Every event already waiting goes out in the same write (an ack and its state, say).
                let mut last = false;
                let mut sent = true;
                let mut next = Some(event);
                while let Some(event) = next.take() {
                    let text;
                    (text, last) = event.into_json();
                    sent = sink.feed(Message::Text(text.into())).await.is_ok();
                    if sent && !last {
                        next = events.try_recv().ok();
                    }
                }
                if !sent || sink.flush().await.is_err() || last {
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
                        let _ = to_client.try_send(error(ErrorCode::BadMessage, "send commands as JSON text"));
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        // An oversized frame or a broken socket: say why if we can, then close.
                        tracing::debug!(conn, error = %e, "websocket error");
                        let closed = error(ErrorCode::FrameTooLarge, format!("connection closed: {e}"));
                        let text = serde_json::to_string(&closed).expect("events serialise");
                        let _ = sink.send(Message::Text(text.into())).await;
                        break;
                    }
                };
                // The envelope first: a refused `act` always carries its `seq`.
                let frame = serde_json::from_str::<serde_json::Value>(&text);
                let seq = frame.as_ref().ok().and_then(act_seq);
                let refuse = |code, message: String| Refused::new(code, message).event(seq);
                if limit.take(COMMANDS).is_err() {
                    let _ = to_client.try_send(refuse(ErrorCode::RateLimited, "too many messages: slow down".into()));
                    continue;
                }
                let command = match frame.and_then(serde_json::from_value::<Command>) {
                    Ok(command) => command,
                    Err(e) => {
                        let _ = to_client.try_send(refuse(ErrorCode::BadMessage, format!("not a command: {e}")));
                        continue;
                    }
                };
                if inbox.try_send(Msg::Command { conn, command }).is_err() {
                    let _ = to_client.try_send(refuse(ErrorCode::Busy, "the room is busy; try again".into()));
                }
            }
        }
    }
}
