//! The client-server protocol: JSON messages over one WebSocket per client (`docs/protocol.md`).
//!
//! One enum of client commands, one of server events. Every room state a client receives is a
//! [`RoomView`] built for its own seat from the engine's per-seat [`DealView`].

use ddz_engine::{Action, Auction, CardSet, DealView, Payment, Phase, Play, Seat, legal_plays_vec};
use serde::{Deserialize, Serialize};

use crate::challenge::ChallengeKind;
use crate::room::{LogLine, Mode, Occupant, Room};

/// What a client may send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Enter a room as `name` (case-insensitive). `token` is the resume token the server gave this name
    /// in this room (the `session` event): with it, a new connection replaces the name's old one at once.
    Hello {
        room: String,
        name: String,
        #[serde(default)]
        token: Option<String>,
    },
    /// Instead of `hello`: watch the public lobby (a `lobby` event now and on every change).
    WatchLobby,
    /// Take a free seat (the first free one if `seat` is absent).
    Sit {
        seat: Option<Seat>,
    },
    /// A deal action for the client's own seat. `seq` numbers the client's actions: a repeated `seq`
    /// is answered again and never applied twice.
    Act {
        seq: u64,
        action: ClientAction,
    },
    /// Host only: seat a bot.
    AddBot {
        seat: Seat,
        level: String,
    },
    /// Host only: start the next deal.
    Start,
    /// Host only: the House Wild for the next deal.
    SetWild {
        on: bool,
    },
    /// Host only: close the room (settles House balances; refunds a deal in progress).
    Close,
    Ping,
}

/// A deal action, from the acting seat (the server fills the seat in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ClientAction {
    Take,
    Pass,
    Bid { bid: u8 },
    Call { call: bool },
    Rob { rob: bool },
    Seen,
    Play { cards: CardSet, play: Play },
}

impl ClientAction {
    pub fn for_seat(self, seat: Seat) -> Action {
        match self {
            ClientAction::Take => Action::Take { seat },
            ClientAction::Pass => Action::Pass { seat },
            ClientAction::Bid { bid } => Action::Bid { seat, bid },
            ClientAction::Call { call } => Action::Call { seat, call },
            ClientAction::Rob { rob } => Action::Rob { seat, rob },
            ClientAction::Seen => Action::Seen { seat },
            ClientAction::Play { cards, play } => Action::Play { seat, cards, play },
        }
    }
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The room as this client may see it, after event number `n`.
    State {
        n: u64,
        room: Box<RoomView>,
    },
    /// The public tables, for a client watching the lobby.
    Lobby {
        tables: Vec<crate::actor::Summary>,
    },
    /// The action numbered `seq` was accepted.
    Ack {
        seq: u64,
    },
    /// A request was refused; nothing changed.
    Error {
        message: String,
        seq: Option<u64>,
    },
    Pong,
    /// Sent first after a `hello` is accepted: the resume token for this name in this room. Keep it and
    /// send it in the next `hello` to replace a connection the server still thinks is open.
    Session {
        token: String,
    },
    /// The same name connected again with its token: this connection is closed (do not reconnect).
    Replaced,
    /// The server is stopping or restarting: reconnect (with back-off) to the same address.
    Restarting,
}

/// A seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: Seat,
    pub occupant: Option<Occupant>,
    pub connected: bool,
    pub balance: Option<i64>,
}

/// The room for one client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomView {
    pub code: String,
    pub mode: Mode,
    /// The next deal's table and option (`house`, `house-nowild`, `noshuffle-wildrank`, ...).
    pub rules: String,
    pub host: String,
    pub you: Option<Seat>,
    pub seats: Vec<SeatView>,
    pub deals_played: u32,
    pub deal: Option<DealView>,
    /// The current turn's deadline and the deal limit, in milliseconds since the Unix epoch.
    pub turn_deadline: Option<u64>,
    pub deal_deadline: Option<u64>,
    /// The last 50 lines of the table log.
    pub log: Vec<LogLine>,
    pub closed: bool,
    pub settlement: Vec<Payment>,
    /// Bot Buster, Bot Bomber or a Bang rally: how the run stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeView>,
}

/// A challenge room's run, for everyone at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeView {
    pub kind: ChallengeKind,
    /// A rally's date (`2026-11-29`).
    pub rally: Option<String>,
    /// The run's length at most (20 deals; a rally's 10).
    pub max_deals: u32,
    /// Whether a balance at $0 ends the run (Bot Buster, Bot Bomber).
    pub ends_at_zero: bool,
    /// The player's money in each finished deal, and the biggest pot they took.
    pub nets: Vec<i64>,
    pub best_pot: i64,
    /// The run has ended (or was abandoned) and its result is on the board.
    pub over: bool,
}

impl RoomView {
    /// The room as `seat` sees it (`None`: a spectator). The deal goes through the engine's view.
    pub fn of(room: &Room, seat: Option<Seat>, connected: &[bool], deadlines: (Option<u64>, Option<u64>)) -> RoomView {
        RoomView {
            code: room.code.clone(),
            mode: room.mode,
            rules: room.rules().to_string(),
            host: room.host.clone(),
            you: seat,
            seats: room
                .seats
                .iter()
                .enumerate()
                .map(|(s, occupant)| SeatView {
                    seat: s,
                    occupant: occupant.clone(),
                    connected: occupant.as_ref().is_some_and(Occupant::is_bot)
                        || connected.get(s).copied().unwrap_or(false),
                    balance: occupant.as_ref().and_then(|o| room.ledger.balances.get(o.name()).copied()),
                })
                .collect(),
            deals_played: room.ledger.deals,
            deal: room.deal.as_ref().map(|d| d.view(seat)),
            turn_deadline: deadlines.0,
            deal_deadline: deadlines.1,
            log: room.log.iter().rev().take(50).rev().cloned().collect(),
            closed: room.closed,
            settlement: room.settlement.clone(),
            challenge: room.challenge.as_ref().map(|c| ChallengeView {
                kind: c.kind,
                rally: c.rally.clone(),
                max_deals: c.kind.max_deals(),
                ends_at_zero: c.kind.ends_at_zero(),
                nets: room.progress.nets.clone(),
                best_pot: room.progress.best_pot,
                over: room.closed,
            }),
        }
    }
}

/// A simple legal action from a seat's own view: take, bid 3 or pass, call and never rob, acknowledge,
/// and the first legal play (passing only when nothing beats). Used by simulated clients.
pub fn simple_action(deal: &DealView) -> ClientAction {
    match (deal.phase, &deal.auction) {
        (Phase::Reveal, _) => ClientAction::Seen,
        (Phase::Auction, Auction::TakeOrPass { .. }) => ClientAction::Take,
        (Phase::Auction, Auction::Bidding { bids }) => ClientAction::Bid { bid: if bids.contains(&3) { 0 } else { 3 } },
        (Phase::Auction, Auction::CallAndRob { holder: None, .. }) => ClientAction::Call { call: true },
        (Phase::Auction, Auction::CallAndRob { .. }) => ClientAction::Rob { rob: false },
        _ => {
            let hand = deal.hand.unwrap_or_default();
            let prior = deal.trick.map(|t| t.play);
            match legal_plays_vec(&deal.play_rules(), hand.counts(), prior.as_ref()).first() {
                Some(play) => {
                    ClientAction::Play { cards: hand.pick(play.cards).expect("plays come from the hand"), play: *play }
                }
                None => ClientAction::Pass,
            }
        }
    }
}
