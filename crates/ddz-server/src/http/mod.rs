//! HTTP and WebSocket: the JSON endpoints and one WebSocket per client.
//!
//! Guards: frames over [`common::MAX_FRAME`] bytes are refused, each connection may send
//! [`common::COMMANDS`] (10 messages a second, bursts of 20), outgoing queues are bounded, and at most
//! `max_connections` sockets are open at once. Per client address, a token bucket limits API requests
//! and another new WebSockets (`crate::Guards`). Hints and readings run on the bounded [`crate::work::Pool`] and refuse hands larger
//! than [`common::MAX_HAND`].
//!
//! Protected names (`names`, `docs/names.md`): every request that acts as a name proves its key if the
//! name is protected.
//!
//! Sessions: the server pings every client ([`Heartbeat`]) and drops one it has not heard from for too
//! long (a half-open socket after a phone changed networks), so the seat shows disconnected. A `hello`
//! with the name's resume token replaces the name's old connection at once. When the server stops, every
//! client is told (`restarting`) and its socket closed.

mod api;
mod assets;
mod common;
pub mod limit;
mod names;
mod puzzles;
mod quick;
mod tournaments;
mod ws;

use common::{AppError, rate_limited};
pub use common::{AppState, Heartbeat, REVIEWS_QUEUED};

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::handler::Handler;
use axum::http::header;
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use tokio::time::Duration;
use tower_http::compression::CompressionLayer;

use self::limit::PerClient;
use crate::cluster::NatsHealth;
use crate::wire::http::Health;
use crate::wire::protocol::ErrorCode;

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
        .route("/api/rooms", post(api::create_room))
        .route("/api/play-vs-bots", post(api::play_vs_bots))
        .route("/api/quick-match", post(quick::join))
        .route("/api/quick-match/{ticket}", get(quick::poll).delete(quick::leave))
        .route("/api/tournaments", get(tournaments::list).post(tournaments::create))
        .route("/api/puzzles/daily", get(puzzles::daily))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/board", get(puzzles::board))
        .route("/api/puzzles/{id}", get(puzzles::one))
        .route("/api/puzzles/{id}/attempt", post(puzzles::attempt))
        .route("/api/puzzles/{id}/deal", get(puzzles::deal))
        .route("/api/tournaments/rules", get(tournaments::rules))
        .route("/api/tournaments/{id}", get(tournaments::view))
        .route("/api/tournaments/{id}/page", get(tournaments::page))
        .route("/api/tournaments/{id}/record", get(tournaments::record))
        .route("/api/tournaments/{id}/register", post(tournaments::register))
        .route("/api/tournaments/{id}/withdraw", post(tournaments::withdraw))
        .route("/api/lobby", get(api::lobby))
        .route("/api/hall", get(api::hall))
        .route("/api/rooms/{code}", get(api::room_summary))
        .route("/api/rooms/{code}/deals", get(api::room_deals))
        .route("/api/rooms/{code}/deals/{number}", get(api::deal_replay))
        .route("/api/rooms/{code}/deals/{number}/reviews/{seat}", get(api::deal_review))
        .route("/api/players/{name}", get(api::player_stats))
        .route("/api/players/{name}/deals", get(api::player_deals))
        .route("/api/boards/{board}", get(api::board))
        .route("/api/ratings/{table}", get(api::rating_board))
        .route("/api/challenges", post(api::start_challenge))
        .route("/api/rallies", get(api::rallies))
        .route("/api/rallies/{date}/compare/{name}", get(api::compare_rally))
        .route("/api/rallies/{date}/fairness", get(api::rally_fairness))
        .route("/api/readings", post(api::selection_readings))
        .route("/api/hints", post(api::hints))
        .route("/api/names/protect", post(names::protect))
        .route("/api/names/{name}", get(names::card))
        .route("/api/names/recover", post(names::recover))
        .route_layer(from_fn_with_state(state.api_limit.clone(), per_client))
        .route("/ws", get(ws::websocket).route_layer(from_fn_with_state(state.ws_limit.clone(), per_client)))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        // The client's files go out compressed (brotli or gzip, as the browser accepts).
        .fallback(assets::web_client.layer(CompressionLayer::new()))
        .method_not_allowed_fallback(wrong_method)
        .with_state(state)
}

/// A 405 in the API's own shape: `GET /api/rooms`, `DELETE /api/lobby` and the like.
async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> AppError {
    let message = format!("{method} is not allowed on {}", uri.path());
    AppError::new(ErrorCode::MethodNotAllowed, message)
}

/// Liveness: the process answers.
async fn healthz() -> Json<Health> {
    Json(Health { status: "ok".into() })
}

/// Readiness: the database answers (within two seconds); 503 otherwise, so a balancer sends players
/// elsewhere. A cluster node also needs NATS, to reach the rooms other nodes own, but rides out a blip
/// (`Cluster::nats`): "ready (NATS reconnecting)" for its first 10 s.
async fn readyz(State(state): State<AppState>) -> Response {
    let message = match tokio::time::timeout(Duration::from_secs(2), state.rooms.db().ping()).await {
        Ok(Ok(())) => match state.cluster.as_ref().map(|c| c.nats()) {
            None | Some(NatsHealth::Up) => return Json(Health { status: "ready".into() }).into_response(),
            Some(NatsHealth::Blip) => {
                return Json(Health { status: "ready (NATS reconnecting)".into() }).into_response();
            }
            Some(NatsHealth::Down) => "NATS is unreachable",
        },
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not ready: the database refused a query");
            "the database is unreachable"
        }
        Err(_) => "the database did not answer",
    };
    AppError::new(ErrorCode::NotReady, message).into_response()
}

/// The Prometheus metrics (`crate::metrics`).
async fn metrics() -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], crate::metrics::render()).into_response()
}
