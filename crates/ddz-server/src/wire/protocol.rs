//! The client-server protocol: JSON messages over one WebSocket per client (`docs/protocol.md`).
//!
//! One enum of client commands, one of server events. Every room state a client receives is a
//! [`RoomView`] built for its own seat from the engine's per-seat [`DealView`].

use ddz_bot::BotKind;
use ddz_engine::fair::Nonce;
use ddz_engine::{
    Action, Auction, CardSet, DealError, DealView, Payment, Phase, Play, PlayError, Seat, TableRules, legal_plays_vec,
};
use serde::{Deserialize, Serialize};

use crate::domain::challenge::ChallengeKind;
use crate::domain::fairness::Verdict;
use crate::domain::names::NameKey;
use crate::domain::room::{LogLine, Mode, Occupant, Room, RoomCode, RoomError};
use crate::wire::pages::{Hall, Summary, TournamentPage, TournamentYou};

/// What a client may send.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// Enter a room as `name` (case-insensitive). `token` is the resume token the server gave this name
    /// in this room (the `session` event): with it, a new connection replaces the name's old one at once.
    /// `key` proves a protected name (`docs/names.md`); without the right one it is refused `name_protected`.
    Hello {
        room: RoomCode,
        name: String,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        key: Option<String>,
        /// The browser's own random id, kept in its storage: two names at one rated table from one
        /// browser do not count together (docs/ratings.md).
        #[serde(default)]
        browser: Option<String>,
    },
    /// Instead of `hello`: watch room `room` as a spectator, without a name. A spectator sees what
    /// everyone sees and can never take a seat (every command but `ping` is refused with `spectator`).
    Watch {
        room: RoomCode,
    },
    /// Instead of `hello`: watch the public lobby (a `lobby` event now and on every change).
    WatchLobby,
    /// Instead of `hello`: watch the hall (a `hall` event now and whenever it changes, about once a second
    /// at most).
    WatchHall,
    /// Instead of `hello`: follow tournament `id` (a `tournament` event now and whenever it changes); with
    /// `name`, each event says where that name stands.
    FollowTournament {
        id: String,
        #[serde(default)]
        name: Option<String>,
    },
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
        level: BotKind,
    },
    /// Host only: start the next deal.
    Start,
    /// Host only: the table's option for the next deal (the Wild at House, Wild Rank elsewhere).
    SetWild {
        on: bool,
    },
    /// A seated player hands their turns to the bot (`on`) or takes them back.
    AutoPlay {
        on: bool,
    },
    /// Host only: close the room (settles House balances; refunds a deal in progress).
    Close,
    /// A seated player's quick-chat phrase or emote, shown by their seat to everyone at the table. Preset
    /// only (no free text, nothing to moderate); one every [`CHAT_EVERY_MS`] per player.
    Chat {
        chat: Chat,
    },
    /// The player's random contribution to the offered deal (`offer` in the room's state): 32 random
    /// bytes as 64 hex digits, sent once per offer (docs/fair-deals.md).
    Nonce {
        nonce: Nonce,
    },
    Ping,
    /// The client's states have a gap (a `state` continued from actions it never received, or from
    /// another deal): the next `state` to this connection carries the whole room again.
    Sync,
}

impl Command {
    /// For a command only the host may send, what it does (for the refusal's message: "only the host
    /// may ..."); `None` for everyone's commands.
    pub fn host_only(&self) -> Option<&'static str> {
        match self {
            Command::AddBot { .. } => Some("seat bots"),
            Command::Start => Some("start a deal"),
            Command::SetWild { .. } => Some("change the rules"),
            Command::Close => Some("close the room"),
            Command::Hello { .. }
            | Command::Watch { .. }
            | Command::WatchLobby
            | Command::WatchHall
            | Command::FollowTournament { .. }
            | Command::Sit { .. }
            | Command::Act { .. }
            | Command::AutoPlay { .. }
            | Command::Nonce { .. }
            | Command::Chat { .. }
            | Command::Ping
            | Command::Sync => None,
        }
    }
}

/// A deal action, from the acting seat (the server fills the seat in).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The room as this client may see it, after event number `n`.
    State {
        n: u64,
        room: Box<RoomView>,
    },
    /// The public tables, for a client watching the lobby.
    Lobby {
        tables: Vec<Summary>,
    },
    /// The hall, for a client watching it.
    Hall {
        hall: Box<Hall>,
    },
    /// A tournament's page, for a client following it, and where the name it follows for stands; `now` is
    /// the server's time, for the countdown.
    Tournament {
        now: u64,
        page: Box<TournamentPage>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        you: Option<TournamentYou>,
    },
    /// The action numbered `seq` was accepted.
    Ack {
        seq: u64,
    },
    /// A request was refused; nothing changed. `code` is for clients to word, `message` (English) for
    /// logs; `seq` is the refused `act`'s number.
    Error {
        code: ErrorCode,
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
    /// The player in `seat` said `chat` (quick chat): everyone at the table and watching gets it; it is not
    /// stored, so a reconnect does not repeat it.
    Chat {
        seat: Seat,
        chat: Chat,
    },
    /// The server is stopping or restarting: reconnect (with back-off) to the same address.
    Restarting,
}

/// Quick chat's preset phrases and emotes, worded by each client in its language.
#[derive(ts_rs::TS, strum::EnumIter, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chat {
    Hello,
    GoodLuck,
    WellPlayed,
    NiceBomb,
    Thanks,
    Sorry,
    HurryUp,
    Oops,
    Laugh,
    Cry,
    Angry,
    ThumbsUp,
}

/// The least time between two quick-chat messages of one player: three seconds.
pub const CHAT_EVERY_MS: u64 = 3_000;

/// Why a request was refused, as a stable code (`docs/protocol.md` lists them). Built from the engine's
/// and the room's typed errors; clients word each code in their own language.
#[derive(ts_rs::TS, strum::EnumIter, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // The deal (`ddz_engine::DealError`).
    DealOver,
    NotYourTurn,
    WrongPhase,
    MustTake,
    BadBid,
    BidTooLow,
    DeclinedCannotRob,
    AlreadySeen,
    NotInHand,
    CardsDoNotMatch,
    NotThatReading,
    DoesNotBeat,
    CannotPassOnLead,
    // Why cards are not a play (`ddz_engine::PlayError`).
    NoCards,
    WildAlone,
    WildWithBothJokers,
    FourInARow,
    TwoOrJokerInRun,
    NotInDeck,
    NotAPlay,
    // The room (`crate::domain::room::RoomError`).
    RoomClosed,
    SeatTaken,
    NoSuchSeat,
    RoomFull,
    AlreadySeated,
    NotHost,
    DealInProgress,
    SeatsEmpty,
    NoDeal,
    NotSeated,
    RunOver,
    ChallengeRules,
    ChallengeSeats,
    ChallengeAutoPlay,
    /// A `nonce` when no deal waits for this player's (none offered, or theirs already came).
    NoNonceWanted,
    /// A deal is being dealt (the room waits for the players' nonces).
    Dealing,
    /// A challenge's setting up asked of a room that is no challenge.
    NotAChallenge,
    // Connections and requests.
    UnknownRoom,
    NameTaken,
    /// The name connected to the room again from a newer socket: this, the older one, is not let in.
    Superseded,
    BadName,
    BadMessage,
    AlreadyInRoom,
    FrameTooLarge,
    RateLimited,
    Busy,
    ServerFull,
    BadRequest,
    HandTooLarge,
    NotFound,
    RallyPlayed,
    /// A spectator's command other than `ping`.
    Spectator,
    /// A rally still open to players: its deals are not watched, replayed or reviewed until it closes.
    RallyOpen,
    /// The room has as many spectators as it takes ([`crate::Guards::spectators`]).
    TooManyWatching,
    /// The name is protected and the request did not prove its key.
    NameProtected,
    /// Protecting a name that is protected already.
    AlreadyProtected,
    /// A recovery code that is not the name's.
    WrongRecoveryCode,
    /// Too many wrong keys or recovery codes lately, for this name or from this address: wait
    /// (`Retry-After`).
    TooManyGuesses,
    /// `DELETE /api/lobby` and the like: the path exists, the method does not.
    MethodNotAllowed,
    /// `/api/hints` and `/api/readings`: a position no table can have (`ddz_engine::hints::PositionError`).
    BadPosition,
    /// A finished deal's number (or a seat of it) that the room does not have.
    NoSuchDeal,
    /// A table type that is none of `house`, `noshuffle`, `twoplayer`.
    UnknownTableType,
    /// A board that is none of `overall`, `lobby`, `buster`, `bomber`, `rally`.
    UnknownBoard,
    /// A rally's date that is no date like `2026-11-29`.
    NotADate,
    /// A rally whose day has not come.
    RallyNotBegun,
    /// A rally's comparison asked for by a name that has not finished that rally.
    RallyNotFinished,
    /// A quick-match ticket the queue does not hold (left, or not polled for a while).
    NoSuchTicket,
    /// Recovering a name that is not protected.
    NameNotProtected,
    /// A tournament id no tournament has.
    NoSuchTournament,
    /// A tournament's settings or format outside their bounds (docs/tournaments.md).
    BadSettings,
    /// Registering for, or withdrawing from, a tournament that has started.
    RegistrationClosed,
    /// Registering a name that is registered already.
    AlreadyRegistered,
    /// Withdrawing a name that is not registered.
    NotRegistered,
    /// A sit-and-go with every place taken.
    TournamentFull,
    /// A name that hosts as many tournaments taking registrations as one may.
    HostingLimit,
    /// A tournament's record asked for before its end (its seed is revealed only then).
    TournamentNotOver,
    /// A command a tournament's table does not take from a player (the tournament seats, deals and closes).
    TournamentTable,
    /// Watching a tournament's table from the address of an entrant who plays at another table of it.
    EntrantWatching,
    /// A puzzle id no puzzle has.
    NoSuchPuzzle,
    /// A second rated attempt at a puzzle by one name.
    PuzzleAttempted,
    /// A puzzle attempt's move that is not legal in its position.
    NotALegalMove,
    /// A puzzle attempt that stops before the deal is won or lost.
    AttemptUnfinished,
    /// The socket broke (not a frame too large): the connection closed.
    ConnectionBroken,
    // The server's own situations: each says what the player can do.
    /// The room now runs on another server of the cluster: reconnect.
    RoomMoved,
    /// The action could not be stored, so it did not happen: try again.
    SaveFailed,
    /// The server could not reach its database.
    DatabaseUnavailable,
    /// The server that runs the room does not answer: try again.
    RoomUnreachable,
    /// The server is restarting: reconnect in a moment.
    Restarting,
    /// Readiness: the database or NATS is not there.
    NotReady,
    /// A fault of the server itself (a stored record that does not read back, a wrong reply); the
    /// message says what.
    Internal,
}

impl ErrorCode {
    /// Every code, in the order they are declared (and `docs/protocol.md` lists them).
    pub fn all() -> impl Iterator<Item = ErrorCode> {
        <ErrorCode as strum::IntoEnumIterator>::iter()
    }

    /// The code as it is written on the wire (`not_your_turn`).
    pub fn as_str(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }
}

impl From<&PlayError> for ErrorCode {
    fn from(error: &PlayError) -> ErrorCode {
        match error {
            PlayError::Empty => ErrorCode::NoCards,
            PlayError::WildAlone => ErrorCode::WildAlone,
            PlayError::WildWithBothJokers => ErrorCode::WildWithBothJokers,
            PlayError::FourInARow => ErrorCode::FourInARow,
            PlayError::TwoOrJokerInRun => ErrorCode::TwoOrJokerInRun,
            PlayError::NotInDeck(_) => ErrorCode::NotInDeck,
            PlayError::NoReading(_) => ErrorCode::NotAPlay,
        }
    }
}

impl From<&DealError> for ErrorCode {
    fn from(error: &DealError) -> ErrorCode {
        match error {
            DealError::DealOver => ErrorCode::DealOver,
            DealError::NoSuchSeat(_) => ErrorCode::NoSuchSeat,
            DealError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            DealError::WrongPhase { .. } => ErrorCode::WrongPhase,
            DealError::MustTake => ErrorCode::MustTake,
            DealError::BadBid => ErrorCode::BadBid,
            DealError::BidTooLow { .. } => ErrorCode::BidTooLow,
            DealError::DeclinedCannotRob => ErrorCode::DeclinedCannotRob,
            DealError::AlreadySeen(_) => ErrorCode::AlreadySeen,
            DealError::NotInHand(_) => ErrorCode::NotInHand,
            DealError::CardsDoNotMatch { .. } => ErrorCode::CardsDoNotMatch,
            DealError::NotAPlay(e) => ErrorCode::from(e),
            DealError::NotThatReading { .. } => ErrorCode::NotThatReading,
            DealError::DoesNotBeat { .. } => ErrorCode::DoesNotBeat,
            DealError::CannotPassOnLead => ErrorCode::CannotPassOnLead,
            // The server makes packs and deal limits itself: a client never causes these.
            DealError::BadPack(_) | DealError::NoDealLimit | DealError::BadNonces { .. } => ErrorCode::Internal,
        }
    }
}

impl From<&RoomError> for ErrorCode {
    fn from(error: &RoomError) -> ErrorCode {
        match error {
            RoomError::Closed => ErrorCode::RoomClosed,
            RoomError::SeatTaken(_) => ErrorCode::SeatTaken,
            RoomError::NoSuchSeat(_) => ErrorCode::NoSuchSeat,
            RoomError::Full => ErrorCode::RoomFull,
            RoomError::AlreadySeated(_) => ErrorCode::AlreadySeated,
            RoomError::NotHost(_) => ErrorCode::NotHost,
            RoomError::DealInProgress => ErrorCode::DealInProgress,
            RoomError::SeatsEmpty => ErrorCode::SeatsEmpty,
            RoomError::NoDeal => ErrorCode::NoDeal,
            RoomError::NotSeated => ErrorCode::NotSeated,
            RoomError::RunOver => ErrorCode::RunOver,
            RoomError::ChallengeRules => ErrorCode::ChallengeRules,
            RoomError::ChallengeSeats => ErrorCode::ChallengeSeats,
            RoomError::ChallengeAutoPlay => ErrorCode::ChallengeAutoPlay,
            RoomError::NoNonceWanted => ErrorCode::NoNonceWanted,
            RoomError::Dealing => ErrorCode::Dealing,
            RoomError::Deal(e) => ErrorCode::from(e),
        }
    }
}

/// A refused request: its code and an English message for logs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refused {
    pub code: ErrorCode,
    pub message: String,
}

impl Refused {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refused {
        Refused { code, message: message.into() }
    }

    /// The error event for this refusal (`seq`: the refused `act`'s number).
    pub fn event(self, seq: Option<u64>) -> Event {
        Event::Error { code: self.code, message: self.message, seq }
    }
}

impl Refused {
    /// A reply that does not answer what was asked (a room's, or another node's): a bug, logged, and
    /// reported as the server's own fault.
    pub fn unexpected(reply: &impl std::fmt::Debug) -> Refused {
        tracing::error!(?reply, "a room answered with the wrong kind of reply");
        Refused::new(ErrorCode::Internal, "the room gave an unexpected answer")
    }

    /// A room task that stopped before answering, again and again: the server is stopping.
    pub fn room_stopped() -> Refused {
        Refused::new(ErrorCode::Restarting, "the room stopped: the server is restarting")
    }

    /// There is no room `code`.
    pub fn no_room(code: &RoomCode) -> Refused {
        Refused::new(ErrorCode::UnknownRoom, format!("there is no room {code}"))
    }

    /// What every read path answers for a rally whose day has not closed
    /// ([`crate::domain::challenge::sealed_rally`]).
    pub fn rally_open(date: &str) -> Refused {
        let message =
            format!("the rally of {date} is still open: its deals are shown to its player only until it closes");
        Refused::new(ErrorCode::RallyOpen, message)
    }
}

impl From<RoomError> for Refused {
    fn from(error: RoomError) -> Refused {
        Refused { code: ErrorCode::from(&error), message: error.to_string() }
    }
}

/// A seat as everyone sees it.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: Seat,
    pub occupant: Option<Occupant>,
    /// The occupant's name key (a person's): the page knows its player's seat and mutes a name by it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<NameKey>,
    pub connected: bool,
    pub balance: Option<i64>,
    /// The player has handed their turns to the bot.
    #[serde(default)]
    pub auto_play: bool,
    /// The occupant's rating in this table's family, in points (docs/ratings.md): a bot's fixed one, a
    /// player's as stored (none before their first rated deal, and none while a rally is sealed).
    #[serde(default)]
    pub rating: Option<i32>,
}

/// The room for one client.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomView {
    pub code: RoomCode,
    pub mode: Mode,
    /// The next deal's table and option.
    pub rules: TableRules,
    pub host: String,
    pub you: Option<Seat>,
    /// The reader is the host (by name key: the page compares no names).
    #[serde(default)]
    pub hosting: bool,
    pub seats: Vec<SeatView>,
    pub deals_played: u32,
    pub deal: Option<DealView>,
    /// The current turn's deadline and the deal limit, in milliseconds since the Unix epoch.
    pub turn_deadline: Option<u64>,
    pub deal_deadline: Option<u64>,
    /// The next deal, committed to and waiting for the players' nonces (docs/fair-deals.md): a client
    /// whose seat is awaited sends `nonce` at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub offer: Option<OfferView>,
    /// The last 50 lines of the table log ([`crate::domain::room::LOG_KEPT`]).
    pub log: Vec<LogLine>,
    /// The current deal's actions that the clock had the bot play for a human: indexes into its actions.
    #[serde(default)]
    pub timed_out: Vec<usize>,
    pub closed: bool,
    pub settlement: Vec<Payment>,
    /// Connections without a seat: spectators, and named guests who have not sat.
    #[serde(default)]
    pub watching: u32,
    /// Bot Buster, Bot Bomber or a Bang rally: how the run stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeView>,
    /// Set on a `state` that continues the connection's previous one in the same deal: `deal.actions`
    /// then holds only the actions after the first `actions_from`, which the client already has (see
    /// [`RoomView::continuing`]). Absent on snapshots, which carry every action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions_from: Option<usize>,
    /// Once a deal at a rated table is over: what it did for each seated person (by seat; `null` for a
    /// bot), counted or not and why, with the rating's change (docs/ratings.md, "What counts").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<Option<Verdict>>,
}

/// A deal the room has committed to and not yet dealt.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferView {
    /// SHA-256 of the server's seed and salt, published before any nonce (`ddz-fair/1`).
    pub commitment: String,
    /// The seats whose nonces the deal waits for, and whether each seat's came (by seat).
    pub awaited: Vec<Seat>,
    pub received: Vec<bool>,
    /// When the deal is dealt without the nonces still missing (ms since the Unix epoch).
    pub deadline: u64,
}

/// A challenge room's run, for everyone at the table.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// This room as anyone but its player sees a rally that has not closed: who sits where, how many
    /// deals are done and whether the run is over, and nothing of any deal (no cards, no plays, no log,
    /// no balances or nets, which would tell how the deals went).
    pub fn sealed(self) -> RoomView {
        RoomView {
            seats: self.seats.into_iter().map(|seat| SeatView { balance: None, rating: None, ..seat }).collect(),
            deal: None,
            turn_deadline: None,
            deal_deadline: None,
            offer: None,
            log: Vec::new(),
            timed_out: Vec::new(),
            settlement: Vec::new(),
            challenge: self.challenge.map(|c| ChallengeView { nets: Vec::new(), best_pot: 0, ..c }),
            actions_from: None,
            verdicts: Vec::new(),
            ..self
        }
    }

    /// This state with its deal's actions made whole again from `previous`, the last state the same
    /// connection got (what a client does with a continuing `state`); `None` when `previous` does not
    /// reach where this one continues from (a state was lost on the way, or it was of another deal): the
    /// client then asks for the whole room with `sync` rather than show a deal with actions missing.
    pub fn continuing(mut self, previous: Option<&RoomView>) -> Option<RoomView> {
        let (Some(from), Some(deal)) = (self.actions_from.take(), self.deal.as_mut()) else { return Some(self) };
        let known = previous.and_then(|p| p.deal.as_ref())?;
        if known.actions.len() < from
            || known.fairness.as_ref().map(|f| &f.commitment) != deal.fairness.as_ref().map(|f| &f.commitment)
        {
            return None;
        }
        deal.actions.splice(0..0, known.actions[..from].iter().cloned());
        Some(self)
    }

    /// The room as `seat` sees it (`None`: a spectator). The deal goes through the engine's view.
    pub fn of(room: &Room, seat: Option<Seat>, connected: &[bool], watching: u32, deadlines: Deadlines) -> RoomView {
        RoomView {
            code: room.code.clone(),
            mode: room.mode,
            rules: room.rules().table_rules(),
            host: room.host.clone(),
            you: seat,
            hosting: false,
            seats: room
                .seats
                .iter()
                .enumerate()
                .map(|(s, occupant)| SeatView {
                    seat: s,
                    occupant: occupant.clone(),
                    key: occupant.as_ref().filter(|o| !o.is_bot()).and_then(|_| room.key_of(s).cloned()),
                    connected: occupant.as_ref().is_some_and(Occupant::is_bot)
                        || connected.get(s).copied().unwrap_or(false),
                    balance: occupant.as_ref().and_then(|o| room.ledger.balances.get(o.name()).copied()),
                    auto_play: room.auto_play[s],
                    rating: None,
                })
                .collect(),
            deals_played: room.ledger.deals,
            deal: room.deal.as_ref().map(|d| d.view(seat)),
            turn_deadline: deadlines.turn,
            deal_deadline: deadlines.deal,
            offer: room.offer.as_ref().zip(deadlines.nonces).and_then(|(offer, deadline)| {
                Some(OfferView {
                    commitment: offer.setup.commitment()?,
                    awaited: offer.awaited.clone(),
                    received: offer.nonces.iter().map(Option::is_some).collect(),
                    deadline,
                })
            }),
            log: room.log.iter().cloned().collect(),
            timed_out: room.timed_out.clone(),
            closed: room.closed,
            settlement: room.settlement.clone(),
            watching,
            challenge: room.challenge.as_ref().map(|c| ChallengeView {
                kind: c.kind,
                rally: c.rally.clone(),
                max_deals: c.kind.max_deals(),
                ends_at_zero: c.kind.ends_at_zero(),
                nets: room.progress.nets.clone(),
                best_pot: room.progress.best_pot,
                over: room.closed,
            }),
            actions_from: None,
            verdicts: Vec::new(),
        }
    }
}

/// A room's running clocks, in milliseconds since the Unix epoch: the current turn's, the deal limit, and
/// the wait for the players' nonces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadlines {
    pub turn: Option<u64>,
    pub deal: Option<u64>,
    pub nonces: Option<u64>,
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
