//! What every handler shares: the server's state, the limits on requests, the JSON errors and the
//! extractors that refuse in their shape, and the check of a player's name.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;
use tokio::time::Duration;
use tokio_util::task::TaskTracker;

use super::limit::{Guesses, PerClient, Rate};
use crate::cluster::Cluster;
use crate::domain::names::PlayerName;
use crate::hall::HallState;
use crate::rooms::Rooms;
use crate::store::StoreError;
use crate::tournaments::Desk;
use crate::wire::http::ApiError;
use crate::wire::protocol::{ErrorCode, Refused};
use crate::work::Queue;

pub const MAX_FRAME: usize = 16 * 1024;
pub(super) const READ_BUFFER: usize = 4 * 1024;
/// Commands one connection may send: 10 a second, bursts of 20.
pub const COMMANDS: Rate = Rate::new(10.0, 20.0);
/// The largest hand at any table: the House landlord's 17 + 4 middle cards with the Wild. `/api/hints`
/// and `/api/readings` refuse larger ones.
pub const MAX_HAND: usize = 21;
/// Reviews waiting or running at once; one more is answered `busy`.
pub const REVIEWS_QUEUED: usize = 8;

#[derive(Clone)]
pub struct AppState {
    pub rooms: Rooms,
    pub desk: Desk,
    /// The hall's live state, put together once a second.
    pub hall: HallState,
    /// Cluster mode: this node's part (its NATS connection counts for readiness).
    pub cluster: Option<Cluster>,
    pub connections: Arc<Semaphore>,
    pub next_conn: Arc<AtomicU64>,
    /// Every client connection's task, so that a shutdown can wait for them.
    pub clients: TaskTracker,
    pub heartbeat: Heartbeat,
    /// Per client address: API requests, and new WebSocket connections.
    pub api_limit: Arc<PerClient>,
    pub ws_limit: Arc<PerClient>,
    /// Wrong guesses at protected names' keys and recovery codes.
    pub guesses: Arc<Guesses>,
    /// Names protected, per client address.
    pub protects: Arc<PerClient>,
    /// The bot's reviews of finished deals: one thread, a few waiting, never the tables' pool.
    pub reviews: Queue,
    /// Set once this server has stored the built-in puzzles (at the first request for a puzzle).
    pub built_in_puzzles: Arc<tokio::sync::OnceCell<()>>,
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
    /// A refusal, answered with its code's status ([`status`]).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError::from(Refused::new(code, message))
    }

    /// The same refusal, answered with `Retry-After`.
    pub fn retry_after(self, wait: Duration) -> AppError {
        AppError { retry_after: Some(wait), ..self }
    }

    /// The refusal alone, for a WebSocket's `error` event.
    pub fn refused(self) -> Refused {
        self.refused
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = Json(ApiError { code: self.refused.code, message: self.refused.message });
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
pub(super) struct Body<T>(pub(super) T);

/// A path's parameters, refused as [`Body`] is.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(AppError))]
pub(super) struct Params<T>(pub(super) T);

/// A query string, refused as [`Body`] is.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub(super) struct Queried<T>(pub(super) T);

macro_rules! refused_by_axum {
    ($($rejection:ty),*) => {$(
        impl From<$rejection> for AppError {
            fn from(rejection: $rejection) -> AppError {
                let refused = Refused::new(ErrorCode::BadRequest, rejection.body_text());
                AppError { status: rejection.status(), refused, retry_after: None }
            }
        }
    )*};
}

refused_by_axum!(JsonRejection, PathRejection, QueryRejection, WebSocketUpgradeRejection);

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        AppError::from(e.refusal())
    }
}

impl From<Refused> for AppError {
    fn from(refused: Refused) -> AppError {
        AppError { status: status(refused.code), refused, retry_after: None }
    }
}

/// The HTTP status of each refusal (every code named, no catch-all): the server's own trouble a 5xx,
/// anything else a 4xx.
fn status(code: ErrorCode) -> StatusCode {
    use ErrorCode::*;
    match code {
        Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Busy | ServerFull | DatabaseUnavailable | SaveFailed | RoomUnreachable | RoomMoved | Restarting | NotReady => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        UnknownRoom | NotFound | NoSuchDeal | NoSuchSeat | UnknownTableType | UnknownBoard | RallyNotBegun
        | RallyNotFinished | NoSuchTicket | NameNotProtected | NoSuchTournament | NotRegistered | NoSuchPuzzle => {
            StatusCode::NOT_FOUND
        }
        RallyOpen | NameProtected | WrongRecoveryCode | EntrantWatching => StatusCode::FORBIDDEN,
        RallyPlayed | AlreadyProtected | AlreadyRegistered | TournamentFull | RegistrationClosed | HostingLimit
        | TournamentNotOver | PuzzleAttempted => StatusCode::CONFLICT,
        TooManyGuesses | RateLimited => StatusCode::TOO_MANY_REQUESTS,
        MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        // Every other refusal names what was wrong with the request: each listed, so that a new code
        // must be given its status here.
        DealOver | NotYourTurn | WrongPhase | MustTake | BadBid | BidTooLow | DeclinedCannotRob | AlreadySeen
        | NotInHand | CardsDoNotMatch | NotThatReading | DoesNotBeat | CannotPassOnLead | NoCards | WildAlone
        | WildWithBothJokers | FourInARow | TwoOrJokerInRun | NotInDeck | NotAPlay | RoomClosed | SeatTaken
        | RoomFull | AlreadySeated | NotHost | DealInProgress | SeatsEmpty | NoDeal | NotSeated | RunOver
        | ChallengeRules | ChallengeSeats | ChallengeAutoPlay | NoNonceWanted | Dealing | NotAChallenge | NameTaken
        | Superseded | BadName | BadMessage | AlreadyInRoom | FrameTooLarge | BadRequest | HandTooLarge | Spectator
        | TooManyWatching | BadPosition | NotADate | BadSettings | TournamentTable | ConnectionBroken
        | NotALegalMove | AttemptUnfinished => StatusCode::BAD_REQUEST,
    }
}

/// The server's own trouble (a stored record that does not read back): logged, and a 500.
pub(super) fn internal(message: String) -> AppError {
    tracing::error!(%message, "internal error");
    AppError::new(ErrorCode::Internal, message)
}

pub(super) fn rate_limited(wait: Duration) -> AppError {
    let message = format!("too many requests: try again in {:.1} s", wait.as_secs_f64());
    AppError::new(ErrorCode::RateLimited, message).retry_after(wait)
}

/// The address a request comes from, as the per-address limits count it (behind a trusted balancer, the
/// address it forwards); `None` for a router served without connect info.
pub(super) struct ClientAddr(pub(super) Option<IpAddr>);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<ClientAddr, Infallible> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
        let forwarded_for = parts.headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
        Ok(ClientAddr(peer.map(|peer| state.api_limit.client(peer, forwarded_for))))
    }
}

/// The address fair play compares (docs/ratings.md, "What counts"): the client's (behind the trusted
/// balancers), IPv6 by its /64; none for this machine's own, which is a player on the server's host or a
/// balancer on it that is not declared trusted (everyone would share its address).
pub(super) fn origin_address(from: Option<IpAddr>) -> Option<String> {
    from.filter(|ip| !ip.is_loopback()).map(|ip| super::limit::client_key(ip).to_string())
}

pub(super) fn busy() -> AppError {
    AppError::new(ErrorCode::Busy, "the server is busy; try again in a moment")
}

/// A player name, wherever one arrives (request bodies, paths, a WebSocket `hello`), read once
/// ([`PlayerName::parse`]): normalised, refused with its reason if it is no name (empty or too long, a
/// control or invisible character, scripts mixed in a confusing way).
pub fn valid_name(name: &str) -> Result<PlayerName, Refused> {
    PlayerName::parse(name).map_err(|e| Refused::new(ErrorCode::BadName, e.to_string()))
}

/// A name from a path: a 400 unless it is a valid name.
pub(super) fn path_name(name: &str) -> Result<PlayerName, AppError> {
    Ok(valid_name(name)?)
}
