//! One WebSocket per client: a `hello` (or `watch`, `watch_lobby`) first, then commands to its room and
//! events back, with the heartbeat, the per-connection rate limit and the restart notice.

use std::net::IpAddr;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;

use tokio::sync::{mpsc, watch};
use tokio::time::{Duration, Instant};

use super::common::{AppError, AppState, COMMANDS, ClientAddr, MAX_FRAME, READ_BUFFER, origin_address, valid_name};
use super::limit::Bucket;
use super::names::proven_name;
use crate::domain::fairness::Origin;
use crate::domain::names::PlayerName;
use crate::room::{ConnId, FromClient, Hello, Msg, Outbound};
use crate::tournaments::Followed;
use crate::wire::protocol::{Command, ErrorCode, Event, Refused};

pub(super) async fn websocket(
    State(state): State<AppState>,
    ClientAddr(from): ClientAddr,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return AppError::from(rejection).into_response(),
    };
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        let full = "the server is full; try again soon";
        return AppError::new(ErrorCode::ServerFull, full).into_response();
    };
    let clients = state.clients.clone();
    // Commands are small: a read buffer of the default 128 KiB would be zeroed on every read.
    upgrade.max_message_size(MAX_FRAME).max_frame_size(MAX_FRAME).read_buffer_size(READ_BUFFER).on_upgrade(
        move |socket| {
            clients.track_future(async move {
                let conn = state.next_conn.fetch_add(1, Ordering::Relaxed);
                crate::metrics::gauge!(crate::metrics::CONNECTIONS).increment(1);
                let counted = state.hall.socket();
                client(socket, state, conn, from).await;
                drop(counted);
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

/// Whether a socket's error is a frame over [`MAX_FRAME`] (or a message over its limit), as opposed to a
/// broken connection.
fn too_large(error: &axum::Error) -> bool {
    let inner = std::error::Error::source(error).and_then(|e| e.downcast_ref::<tungstenite::Error>());
    matches!(inner, Some(tungstenite::Error::Capacity(_)))
}

fn error(code: ErrorCode, message: impl Into<String>) -> Event {
    Refused::new(code, message).event(None)
}

/// What a first frame asks for.
enum Greeted {
    /// A room's events, through this inbox.
    Room(mpsc::Sender<Msg>, mpsc::Receiver<Outbound>),
    /// The lobby's.
    Lobby,
    /// The hall's.
    Hall,
    /// A tournament's page, and the place of the name it is followed for.
    Tournament(watch::Receiver<Arc<Followed>>, Option<PlayerName>),
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

/// A hall watcher: the hall now and whenever it changes, until the socket closes. Each change's event is
/// written once for every watcher (`crate::hall`).
async fn watch_hall(mut socket: WebSocket, state: &AppState) {
    let mut changes = state.hall.watch();
    let stopping = state.rooms.stopping();
    let mut changed = true;
    loop {
        if changed {
            let event = changes.borrow_and_update().clone();
            if socket.send(Message::Text(event.as_ref().into())).await.is_err() {
                return;
            }
        }
        changed = tokio::select! {
            _ = stopping.cancelled() => return say_restarting(&mut socket).await,
            changed = changes.changed() => if changed.is_err() { return } else { true },
            frame = socket.recv() => match frame {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                // A watcher has nothing to say; what it sends is read and dropped.
                Some(Ok(_)) => false,
            },
        };
    }
}

/// A tournament's follower: its page now and whenever it changes, with the follower's own place, until
/// the socket closes. The page's JSON is written once per change for every follower (`tournaments::follow`).
async fn follow_tournament(
    mut socket: WebSocket,
    state: &AppState,
    mut changes: watch::Receiver<Arc<Followed>>,
    name: Option<PlayerName>,
) {
    let stopping = state.rooms.stopping();
    let mut changed = true;
    loop {
        if changed {
            let event = changes.borrow_and_update().event(name.as_ref(), state.rooms.now_ms());
            if socket.send(Message::Text(event.into())).await.is_err() {
                return;
            }
        }
        changed = tokio::select! {
            _ = stopping.cancelled() => return say_restarting(&mut socket).await,
            changed = changes.changed() => if changed.is_err() { return } else { true },
            frame = socket.recv() => match frame {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => false,
            },
        };
    }
}

/// One client: a `hello` first, then commands to its room and events back.
async fn client(mut socket: WebSocket, state: AppState, conn: ConnId, from: Option<IpAddr>) {
    let (inbox, out_rx) = match hello(&mut socket, &state, conn, from).await {
        Ok(Greeted::Room(inbox, out_rx)) => (inbox, out_rx),
        Ok(Greeted::Lobby) => return watch_lobby(socket, &state).await,
        Ok(Greeted::Hall) => return watch_hall(socket, &state).await,
        Ok(Greeted::Tournament(changes, name)) => return follow_tournament(socket, &state, changes, name).await,
        Err(refused) => {
            send(&mut socket, &refused.event(None)).await;
            let _ = socket.close().await;
            return;
        }
    };
    serve_client(socket, inbox.clone(), out_rx, conn, &state).await;
    let _ = inbox.send(Msg::Client(FromClient::Disconnect { conn })).await;
}

async fn hello(
    socket: &mut WebSocket,
    state: &AppState,
    conn: ConnId,
    from: Option<IpAddr>,
) -> Result<Greeted, Refused> {
    let refuse = |message: &str| Refused::new(ErrorCode::BadMessage, message);
    let stopping = state.rooms.stopping();
    let first = tokio::select! {
        first = tokio::time::timeout(Duration::from_secs(10), socket.recv()) => first,
        _ = stopping.cancelled() => return Err(Refused::new(ErrorCode::Restarting, "the server is restarting")),
    };
    let text = match first {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) => return Err(refuse("send a hello message first")),
        Ok(_) | Err(_) => return Err(refuse("no hello")),
    };
    let origin_ip = origin_address(from);
    let (room, name, token, browser) = match serde_json::from_str::<Command>(&text) {
        Ok(Command::Hello { room, name, token, key, browser }) => {
            let name = proven_name(state, &name, key.as_deref(), from).await.map_err(AppError::refused)?;
            (room, Some(name), token, browser)
        }
        Ok(Command::Watch { room }) => (room, None, None, None),
        Ok(Command::WatchLobby) => return Ok(Greeted::Lobby),
        Ok(Command::WatchHall) => return Ok(Greeted::Hall),
        Ok(Command::FollowTournament { id, name }) => {
            let name = name.as_deref().filter(|name| !name.is_empty()).map(valid_name).transpose()?;
            let changes = state.desk.follow(&id).await.map_err(Refused::from)?;
            return Ok(Greeted::Tournament(changes, name));
        }
        _ => {
            let first = "the first message must be a hello with a room and a name, watch, watch_lobby, watch_hall or \
                         follow_tournament";
            return Err(refuse(first));
        }
    };
    // A tournament's table is seen by nobody who plays at another of its tables, however they come.
    state.desk.may_watch(&room, origin_ip.as_deref(), name.as_ref()).await.map_err(Refused::from)?;
    let origin = Origin {
        address: origin_ip,
        // An id is the browser's own random string: anything longer is no id of ours.
        browser: browser.filter(|id| !id.is_empty() && id.len() <= 64),
    };
    let hello = Hello { conn, name, token, opened_ms: state.rooms.now_ms(), origin };
    let (inbox, events, token) = state.rooms.connect(&room, hello).await?;
    if let Some(token) = token {
        send(socket, &Event::Session { token }).await;
    }
    Ok(Greeted::Room(inbox, events))
}

/// The `seq` of an `act` frame, read from its envelope alone, so that a refusal can carry it even when
/// the body does not parse or the command is dropped unread.
fn act_seq(frame: &str) -> Option<u64> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        #[serde(rename = "type")]
        kind: Option<String>,
        seq: Option<u64>,
    }
    let envelope: Envelope = serde_json::from_str(frame).ok()?;
    envelope.kind.filter(|kind| kind == "act").and(envelope.seq)
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
                        let code = if too_large(&e) { ErrorCode::FrameTooLarge } else { ErrorCode::ConnectionBroken };
                        let closed = error(code, format!("the connection closed: {e}"));
                        let text = serde_json::to_string(&closed).expect("events serialise");
                        let _ = sink.send(Message::Text(text.into())).await;
                        break;
                    }
                };
                // A refused `act` always carries its `seq`: read from the frame's envelope only when refusing.
                let refuse = |code, message: String| Refused::new(code, message).event(act_seq(&text));
                if limit.take(COMMANDS).is_err() {
                    let _ = to_client.try_send(refuse(ErrorCode::RateLimited, "too many messages: slow down".into()));
                    continue;
                }
                // The frame is read once, straight into a command.
                let command = match serde_json::from_str::<Command>(&text) {
                    Ok(command) => command,
                    Err(e) => {
                        let _ = to_client.try_send(refuse(ErrorCode::BadMessage, format!("not a command: {e}")));
                        continue;
                    }
                };
                let seq = match &command {
                    Command::Act { seq, .. } => Some(*seq),
                    _ => None,
                };
                if inbox.try_send(Msg::Client(FromClient::Command { conn, command })).is_err() {
                    let busy = Refused::new(ErrorCode::Busy, "the room is busy; try again").event(seq);
                    let _ = to_client.try_send(busy);
                }
            }
        }
    }
}
