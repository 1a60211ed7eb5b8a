//! Quick match over HTTP: join the queue, poll the ticket until it names a room, leave. Every node
//! answers from the database's queue, so a player may poll any node of a cluster (`crate::matching`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use super::common::{AppError, AppState, Body, ClientAddr, Params, origin_address};
use super::names::proven_name;
use crate::domain::rating::NEW_PLAYER;
use crate::store::Ticket;
use crate::wire::http::{JoinQuickMatch, QuickMatch};
use crate::wire::protocol::ErrorCode;

/// `POST /api/quick-match`: the name joins the queue for the table type (or finds its ticket there).
pub(super) async fn join(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    Body(req): Body<JoinQuickMatch>,
) -> Result<Json<QuickMatch>, AppError> {
    // A protected name queues only from its owner's browser, as it sits anywhere else.
    let name = proven_name(&state, &req.name, req.key.as_deref(), from).await?;
    let now = state.rooms.now_ms();
    // Matched by the rating shown on the seat: a newcomer's is the starting one.
    let rated = state.rooms.db().ratings_of(vec![name.key().clone()], req.table).await?;
    let rating = rated.first().map_or(NEW_PLAYER, |(_, skill)| *skill).points();
    let address = origin_address(from);
    let ticket = state.rooms.db().join_queue(&name, req.table, f64::from(rating), address, now).await?;
    Ok(Json(answer(&state, ticket, now).await?))
}

/// `GET /api/quick-match/TICKET`: how the ticket stands (polling it keeps it in the queue).
pub(super) async fn poll(
    State(state): State<AppState>,
    Params(ticket): Params<String>,
) -> Result<Json<QuickMatch>, AppError> {
    let now = state.rooms.now_ms();
    let ticket = state.rooms.db().poll_ticket(&ticket, now).await?.ok_or_else(gone)?;
    Ok(Json(answer(&state, ticket, now).await?))
}

/// `DELETE /api/quick-match/TICKET`: leave the queue (a ticket already matched keeps its room).
pub(super) async fn leave(
    State(state): State<AppState>,
    Params(ticket): Params<String>,
) -> Result<StatusCode, AppError> {
    if state.rooms.db().leave_queue(&ticket).await? { Ok(StatusCode::NO_CONTENT) } else { Err(gone()) }
}

fn gone() -> AppError {
    let message = "no such ticket in the queue: it was left, or not polled for a while; join again";
    AppError::new(ErrorCode::NoSuchTicket, message)
}

async fn answer(state: &AppState, ticket: Ticket, now: u64) -> Result<QuickMatch, AppError> {
    let waited_ms = now.saturating_sub(ticket.joined_at);
    let waiting = match ticket.room {
        Some(_) => 0,
        None => state.rooms.db().waiting_count(ticket.table).await?,
    };
    Ok(QuickMatch {
        waited_ms,
        fill_in_ms: state.rooms.timing().match_fill_ms.saturating_sub(waited_ms),
        waiting,
        room: ticket.room,
        bots: ticket.bots,
        ticket: ticket.ticket,
        name: ticket.name.into(),
        table: ticket.table,
    })
}
