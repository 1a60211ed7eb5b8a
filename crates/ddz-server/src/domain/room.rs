//! A room's state as a fold over its log (RULES.md section 8): seats, host, the ledger across deals, the
//! current deal, the table log, and closing. Pure: no I/O and no clock; times arrive inside entries.
//!
//! Every change to a room is an [`Entry`]; the room task stores each entry before applying it, so a
//! restarted server rebuilds every room exactly by folding its stored entries again.

use std::collections::{HashMap, VecDeque};

use ddz_engine::fair::Nonce;
use ddz_engine::{Action, Deal, DealSetup, Ledger, Payment, Rules, Seat, TableRules, TableType};
use serde::{Deserialize, Serialize};

use ddz_bot::BotKind;

use crate::domain::challenge::{Challenge, Progress};
use crate::domain::fairness::Conduct;
use crate::domain::names::NameKey;

/// How a room came to be; it decides who may sit and which board its deals count for.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Mode {
    /// An invite room: anyone with the link may sit.
    Invite,
    /// A public lobby table (House with the Wild): listed, anyone may sit.
    Public,
    /// Play vs 2 Bots.
    Bots,
    /// Bot Buster, Bot Bomber or a Bang rally (the room's [`Challenge`] says which).
    Challenge,
    /// Quick match: strangers of similar rating seated together by the queue, bots in the seats nobody
    /// came for (`crate::domain::matching`). Not listed in the lobby: its seats are full from the start.
    Quick,
    /// A table of a tournament (`crate::domain::tournament`): the tournament seats its players, deals its
    /// deals and closes it. Not listed in the lobby.
    Tournament,
}

impl Mode {
    pub const ALL: [Mode; 6] = [Mode::Invite, Mode::Public, Mode::Bots, Mode::Challenge, Mode::Quick, Mode::Tournament];

    /// The mode as serde writes it, stored and sent (`invite`, `public`, `bots`, `challenge`, `quick`,
    /// `tournament`).
    pub fn name(self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }

    /// Whether this mode's finished deals move ratings (docs/ratings.md): public tables, Play vs 2 Bots,
    /// challenges and quick match, where anyone meets whom the server seats; not invite rooms, where
    /// friends pick each other.
    pub fn rated(self) -> bool {
        match self {
            Mode::Public | Mode::Bots | Mode::Challenge | Mode::Quick | Mode::Tournament => true,
            Mode::Invite => false,
        }
    }
}

/// A mode name the server does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown room mode {0:?}")]
pub struct UnknownMode(pub String);

impl std::str::FromStr for Mode {
    type Err = UnknownMode;

    fn from_str(text: &str) -> Result<Mode, UnknownMode> {
        Mode::ALL.into_iter().find(|m| m.name() == text).ok_or_else(|| UnknownMode(text.to_string()))
    }
}

/// Who sits in a seat.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Occupant {
    Human { name: String },
    Bot { name: String, level: BotKind },
}

impl Occupant {
    pub fn name(&self) -> &str {
        match self {
            Occupant::Human { name } | Occupant::Bot { name, .. } => name,
        }
    }

    pub fn is_bot(&self) -> bool {
        matches!(self, Occupant::Bot { .. })
    }

    pub fn bot_kind(&self) -> Option<BotKind> {
        match self {
            Occupant::Bot { level, .. } => Some(*level),
            Occupant::Human { .. } => None,
        }
    }
}

/// One change to a room, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum Entry {
    Sit {
        seat: Seat,
        name: String,
    },
    AddBot {
        seat: Seat,
        level: BotKind,
    },
    /// The next deal's setup is committed to (docs/fair-deals.md) and the room waits for the nonces of
    /// the players in `awaited` (the seated humans who were connected) before it deals.
    Offer {
        setup: DealSetup,
        awaited: Vec<Seat>,
    },
    /// A seated player's random contribution to the offered deal.
    Nonce {
        seat: Seat,
        nonce: Nonce,
    },
    /// A deal starts from `setup`: after an offer, the offer's setup with the nonces that came.
    Start {
        setup: DealSetup,
    },
    /// A deal action; `timed_out` when the clock made the bot play it for a human; `seq`, the player's
    /// number for it (protocol.md), so that a resend is not applied twice even after a restart.
    Act {
        action: Action,
        timed_out: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// The host's role passes to `name`, a seated player, because the host stayed away between deals.
    Host {
        name: String,
    },
    /// The host changes the table's option for the next deal: the Wild at House, Wild Rank elsewhere.
    SetWild {
        on: bool,
    },
    /// The player in `seat` hands their turns to the bot (`on`) or takes them back.
    AutoPlay {
        seat: Seat,
        on: bool,
    },
    Close,
}

/// A line of the table log. Clients show it in their own language; [`Display`](std::fmt::Display) gives the
/// English.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LogLine {
    Sat {
        name: String,
    },
    BotSat {
        name: String,
        level: BotKind,
    },
    DealStarted {
        number: u32,
        rules: TableRules,
    },
    /// The clock ran out on `name`'s turn and the bot played it.
    TimedOut {
        name: String,
    },
    WentOut {
        name: String,
    },
    NoWinner,
    /// The host turned the table's option on or off: the Wild (House) or Wild Rank (`rank`).
    WildSet {
        host: String,
        on: bool,
        #[serde(default)]
        rank: bool,
    },
    /// `name` handed their turns to the bot, or took them back.
    AutoPlay {
        name: String,
        on: bool,
    },
    HostChanged {
        from: String,
        to: String,
    },
    Closed,
    RunOver {
        name: String,
        net: i64,
    },
    RunAbandoned {
        name: String,
        net: i64,
    },
}

impl std::fmt::Display for LogLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogLine::Sat { name } => write!(f, "{name} sat down"),
            LogLine::BotSat { name, level } => write!(f, "{name} ({level} bot) sat down"),
            LogLine::DealStarted { number, rules } => write!(f, "deal {number} started ({rules})"),
            LogLine::TimedOut { name } => write!(f, "{name} ran out of time; the bot played"),
            LogLine::WentOut { name } => write!(f, "{name} went out"),
            LogLine::NoWinner => write!(f, "the deal ended with no winner"),
            LogLine::WildSet { host, on, rank } => {
                let option = if *rank { "Wild Rank" } else { "the Wild" };
                write!(f, "{host} turned {option} {} for the next deal", if *on { "on" } else { "off" })
            }
            LogLine::AutoPlay { name, on: true } => write!(f, "{name} handed their turns to the bot"),
            LogLine::AutoPlay { name, on: false } => write!(f, "{name} took their turns back from the bot"),
            LogLine::HostChanged { from, to } => write!(f, "{from} was away, so {to} is the host now"),
            LogLine::Closed => write!(f, "the host closed the room"),
            LogLine::RunOver { name, net } => write!(f, "the run is over: {name} finished {net:+}"),
            LogLine::RunAbandoned { name, net } => write!(f, "{name} abandoned the run at {net:+}"),
        }
    }
}

/// A stored entry with its number and time (milliseconds since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamped {
    pub n: u64,
    pub at: u64,
    pub entry: Entry,
}

/// Why a room refuses a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    #[error("the room is closed")]
    Closed,
    #[error("seat {0} is taken")]
    SeatTaken(Seat),
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    #[error("every seat is taken")]
    Full,
    #[error("{0} is already seated here")]
    AlreadySeated(String),
    #[error("only the host may {0}")]
    NotHost(&'static str),
    #[error("a deal is in progress")]
    DealInProgress,
    #[error("every seat must be filled before a deal starts")]
    SeatsEmpty,
    #[error("there is no deal in progress")]
    NoDeal,
    #[error("you are not seated at this table")]
    NotSeated,
    #[error("the run is over")]
    RunOver,
    #[error("challenges always play House rules with the Wild")]
    ChallengeRules,
    #[error("a challenge is one player against the challenge's own bots")]
    ChallengeSeats,
    #[error("in a challenge you play your own turns, so that the boards compare players")]
    ChallengeAutoPlay,
    #[error("no deal is waiting for your nonce")]
    NoNonceWanted,
    #[error("a deal is being dealt")]
    Dealing,
    #[error("{0}")]
    Deal(#[from] ddz_engine::DealError),
}

/// Table log lines a room keeps in memory and shows.
pub const LOG_KEPT: usize = 50;

/// The room.
#[derive(Clone, Debug)]
pub struct Room {
    pub code: RoomCode,
    pub mode: Mode,
    pub host: String,
    pub seats: Vec<Option<Occupant>>,
    pub ledger: Ledger,
    pub deal: Option<Deal>,
    /// The table log's last [`LOG_KEPT`] lines, for everyone (the whole story is in the stored entries).
    pub log: VecDeque<LogLine>,
    pub closed: bool,
    /// The settlement (House) shown when the room closed.
    pub settlement: Vec<Payment>,
    /// The last entry's number.
    pub last: u64,
    /// When the current deal started and when the current turn started (ms since the epoch).
    pub deal_started_at: u64,
    /// The number of the entry that started the current deal: which deal a client's actions belong to.
    pub deal_entry: u64,
    pub turn_started_at: u64,
    /// The current deal's actions that the clock had the bot play for a human: their indexes.
    pub timed_out: Vec<usize>,
    /// Seats whose player has handed their turns to the bot.
    pub auto_play: Vec<bool>,
    /// Bot Buster, Bot Bomber or a Bang rally, played by the host; and how the run stands.
    pub challenge: Option<Challenge>,
    pub progress: Progress,
    /// The last action number stored from each player (by name key): an `act` numbered no higher is a
    /// resend, answered and not applied again.
    pub last_seq: HashMap<NameKey, u64>,
    /// Each seat's occupant's name key, and the host's: worked out once, as they sit, for every lookup by
    /// name after.
    keys: Vec<Option<NameKey>>,
    host_key: NameKey,
    /// The next deal, committed to and waiting for the players' nonces.
    pub offer: Option<Offer>,
    /// How each seat has played the current deal: its decisions, those the bot made for it, and its
    /// passes when it could beat an opponent (`crate::domain::fairness`).
    pub conduct: Vec<Conduct>,
    /// The seat whose player closed the room during the current deal.
    pub leaver: Option<Seat>,
}

/// A deal the server has committed to, waiting for the players' nonces before it is dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub setup: DealSetup,
    /// The seats whose nonces the deal waits for, and each seat's nonce so far.
    pub awaited: Vec<Seat>,
    pub nonces: Vec<Option<Nonce>>,
    /// When the offer was made (ms since the epoch): the wait for nonces runs from here.
    pub at: u64,
}

impl Offer {
    /// The setup to deal: the committed one with the nonces that came.
    pub fn dealt(&self) -> DealSetup {
        self.setup.clone().with_nonces(self.nonces.clone())
    }
}

/// A room's code as anyone may type it: read once at the edge (a path, a `hello`), trimmed and upper-cased,
/// so that `abc234` and `ABC234` are the same room everywhere after.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
#[ts(type = "string")]
pub struct RoomCode(String);

impl RoomCode {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for RoomCode {
    fn from(typed: String) -> RoomCode {
        RoomCode(typed.trim().to_uppercase())
    }
}

impl From<&str> for RoomCode {
    fn from(typed: &str) -> RoomCode {
        RoomCode(typed.trim().to_uppercase())
    }
}

impl From<RoomCode> for String {
    fn from(code: RoomCode) -> String {
        code.0
    }
}

impl std::fmt::Display for RoomCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Room {
    pub fn new(code: RoomCode, rules: Rules, mode: Mode, host: String) -> Room {
        Room {
            code,
            mode,
            seats: vec![None; rules.players as usize],
            ledger: Ledger::new(rules),
            deal: None,
            log: VecDeque::new(),
            closed: false,
            settlement: Vec::new(),
            last: 0,
            deal_started_at: 0,
            deal_entry: 0,
            turn_started_at: 0,
            timed_out: Vec::new(),
            auto_play: vec![false; rules.players as usize],
            challenge: None,
            progress: Progress::default(),
            last_seq: HashMap::new(),
            keys: vec![None; rules.players as usize],
            host_key: NameKey::of_stored(&host),
            host,
            offer: None,
            conduct: vec![Conduct::default(); rules.players as usize],
            leaver: None,
        }
    }

    /// A challenge room: House with the Wild, played by `player`.
    pub fn challenge(code: RoomCode, challenge: Challenge, player: String) -> Room {
        let mut room = Room::new(code, challenge.kind.rules(), Mode::Challenge, player);
        room.challenge = Some(challenge);
        room
    }

    /// Whether the room's challenge has reached its end: its number of deals, or (Bot Buster, Bot Bomber)
    /// a balance at $0.
    pub fn challenge_over(&self) -> bool {
        self.challenge.as_ref().is_some_and(|c| {
            self.ledger.deals >= c.kind.max_deals()
                || (c.kind.ends_at_zero() && self.ledger.balances.values().any(|&b| b <= 0))
        })
    }

    pub fn rules(&self) -> Rules {
        self.ledger.rules
    }

    /// The seat of the name whose key is `key`.
    pub fn seat_of(&self, key: &NameKey) -> Option<Seat> {
        self.keys.iter().position(|k| k.as_ref() == Some(key))
    }

    /// The seat a human of this name holds: never a bot's, so that nobody who types a bot's name sees
    /// its hand or moves for it.
    pub fn human_seat_of(&self, key: &NameKey) -> Option<Seat> {
        self.seat_of(key).filter(|&seat| self.seats[seat].as_ref().is_some_and(|o| !o.is_bot()))
    }

    /// Whether a bot at this table has this name.
    pub fn is_bot_name(&self, key: &NameKey) -> bool {
        self.seat_of(key).is_some() && self.human_seat_of(key).is_none()
    }

    /// The name key of the occupant of `seat`.
    pub fn key_of(&self, seat: Seat) -> Option<&NameKey> {
        self.keys.get(seat)?.as_ref()
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.as_ref().map_or(String::new(), |o| o.name().to_string())).collect()
    }

    pub fn deal_in_progress(&self) -> bool {
        self.deal.as_ref().is_some_and(|d| d.result().is_none())
    }

    pub fn is_host(&self, key: &NameKey) -> bool {
        self.host_key == *key
    }

    /// Checks `entry` against the room, without changing it.
    pub fn check(&self, entry: &Entry) -> Result<(), RoomError> {
        if self.closed {
            return Err(RoomError::Closed);
        }
        match entry {
            Entry::Sit { seat, name } => {
                self.free_seat(*seat)?;
                let key = NameKey::of_stored(name);
                if self.seat_of(&key).is_some() {
                    return Err(RoomError::AlreadySeated(name.clone()));
                }
                if self.challenge.is_some() && !self.is_host(&key) {
                    return Err(RoomError::ChallengeSeats);
                }
            }
            Entry::AddBot { seat, level } => {
                self.free_seat(*seat)?;
                if self.challenge.as_ref().is_some_and(|c| c.kind.bot_level() != *level) {
                    return Err(RoomError::ChallengeSeats);
                }
            }
            Entry::Offer { .. } => self.check_start()?,
            Entry::Start { setup } => match &self.offer {
                // The offered deal starts with the nonces that came, and nothing else.
                Some(offer) if *setup != offer.dealt() => return Err(RoomError::Dealing),
                Some(_) => {}
                None => self.check_start()?,
            },
            Entry::Nonce { seat, .. } => {
                let wanted = self
                    .offer
                    .as_ref()
                    .is_some_and(|o| o.awaited.contains(seat) && o.nonces.get(*seat).is_some_and(Option::is_none));
                if !wanted {
                    return Err(RoomError::NoNonceWanted);
                }
            }
            Entry::Act { action, .. } => {
                let deal = self.deal.as_ref().filter(|d| d.result().is_none()).ok_or(RoomError::NoDeal)?;
                let mut trial = deal.clone();
                trial.apply(action)?;
            }
            Entry::AutoPlay { seat, .. } => {
                let human = self.seats.get(*seat).and_then(Option::as_ref).is_some_and(|o| !o.is_bot());
                if !human {
                    return Err(RoomError::NotSeated);
                }
                if self.challenge.is_some() {
                    return Err(RoomError::ChallengeAutoPlay);
                }
            }
            Entry::SetWild { .. } => {
                if self.challenge.is_some() {
                    return Err(RoomError::ChallengeRules);
                }
            }
            Entry::Host { name } => {
                let seated = self
                    .seat_of(&NameKey::of_stored(name))
                    .and_then(|s| self.seats[s].as_ref())
                    .is_some_and(|o| !o.is_bot());
                if !seated {
                    return Err(RoomError::NotSeated);
                }
                if self.deal_in_progress() {
                    return Err(RoomError::DealInProgress);
                }
                if self.offer.is_some() {
                    return Err(RoomError::Dealing);
                }
            }
            Entry::Close => {}
        }
        Ok(())
    }

    /// Whether a deal may start (or be offered) now.
    fn check_start(&self) -> Result<(), RoomError> {
        if self.challenge_over() {
            return Err(RoomError::RunOver);
        }
        if self.deal_in_progress() {
            return Err(RoomError::DealInProgress);
        }
        if self.offer.is_some() {
            return Err(RoomError::Dealing);
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(RoomError::SeatsEmpty);
        }
        Ok(())
    }

    fn free_seat(&self, seat: Seat) -> Result<(), RoomError> {
        match self.seats.get(seat) {
            None => Err(RoomError::NoSuchSeat(seat)),
            Some(Some(_)) => Err(RoomError::SeatTaken(seat)),
            Some(None) => Ok(()),
        }
    }

    /// Applies a checked entry (entries from the store are applied as they are: they were checked
    /// before they were stored).
    pub fn apply(&mut self, stamped: &Stamped) {
        self.last = stamped.n;
        let at = stamped.at;
        match &stamped.entry {
            Entry::Sit { seat, name } => {
                self.seats[*seat] = Some(Occupant::Human { name: name.clone() });
                self.keys[*seat] = Some(NameKey::of_stored(name));
                self.ledger.join(name);
                self.note(LogLine::Sat { name: name.clone() });
            }
            Entry::AddBot { seat, level } => {
                let name = self.bot_name(*level);
                self.ledger.join(&name);
                self.note(LogLine::BotSat { name: name.clone(), level: *level });
                self.keys[*seat] = Some(NameKey::of_stored(&name));
                self.seats[*seat] = Some(Occupant::Bot { name, level: *level });
            }
            Entry::Offer { setup, awaited } => {
                let nonces = vec![None; self.seats.len()];
                self.offer = Some(Offer { setup: setup.clone(), awaited: awaited.clone(), nonces, at });
            }
            Entry::Nonce { seat, nonce } => {
                if let Some(slot) = self.offer.as_mut().and_then(|o| o.nonces.get_mut(*seat)) {
                    *slot = Some(*nonce);
                }
            }
            Entry::Start { setup } => {
                self.offer = None;
                self.deal = Some(Deal::new(setup.clone()));
                self.deal_started_at = at;
                self.deal_entry = stamped.n;
                self.turn_started_at = at;
                self.timed_out.clear();
                self.conduct = vec![Conduct::default(); self.seats.len()];
                self.leaver = None;
                self.note(LogLine::DealStarted { number: self.ledger.deals + 1, rules: setup.rules.table_rules() });
            }
            Entry::Act { action, timed_out, seq } => {
                let names = self.names();
                let Some(deal) = self.deal.as_mut() else {
                    return;
                };
                // How the seat plays, noted from the deal as the action met it.
                let seat = action.seat().filter(|&s| self.seats[s].as_ref().is_some_and(|o| !o.is_bot()));
                let conduct = seat.map(|s| {
                    let mut conduct = self.conduct[s];
                    conduct.note(deal, action, *timed_out || self.auto_play[s]);
                    conduct
                });
                if deal.apply(action).is_err() {
                    return; // stored entries were checked; a refused one changes nothing
                }
                if let (Some(seat), Some(conduct)) = (seat, conduct) {
                    self.conduct[seat] = conduct;
                }
                if let (Some(seq), Some(seat)) = (seq, action.seat())
                    && let Some(key) = self.keys[seat].clone()
                {
                    self.last_seq.insert(key, *seq);
                }
                // The reveal runs on one clock for everyone; every other action starts a new turn.
                if !matches!(action, Action::Seen { .. }) {
                    self.turn_started_at = at;
                }
                let finished = deal.result().is_some().then(|| deal.clone());
                if *timed_out && let Some(seat) = action.seat() {
                    self.timed_out.push(deal.actions().len() - 1);
                    self.note(LogLine::TimedOut { name: names[seat].clone() });
                }
                if let Some(deal) = finished {
                    self.finish_deal(&deal, &names);
                }
            }
            Entry::Host { name } => {
                self.note(LogLine::HostChanged { from: self.host.clone(), to: name.clone() });
                self.host = name.clone();
                self.host_key = NameKey::of_stored(name);
            }
            Entry::SetWild { on } => {
                self.ledger.rules = self.rules().with_option(*on);
                let rank = self.rules().table != TableType::House;
                self.note(LogLine::WildSet { host: self.host.clone(), on: *on, rank });
            }
            Entry::AutoPlay { seat, on } => {
                self.auto_play[*seat] = *on;
                let name = self.names()[*seat].clone();
                self.note(LogLine::AutoPlay { name, on: *on });
            }
            Entry::Close => {
                // Over before the close: abandoning the last deal of a run is still abandoning.
                let over = self.challenge_over();
                self.offer = None;
                if self.deal_in_progress() {
                    let names = self.names();
                    self.leaver = self.human_seat_of(&self.host_key);
                    if let Some(deal) = self.deal.as_mut() {
                        deal.apply(&Action::Abandon).expect("an unfinished deal can be abandoned");
                        let deal = deal.clone();
                        self.finish_deal(&deal, &names);
                    }
                }
                let (name, net) = (self.host.clone(), self.progress.net());
                let line = match &self.challenge {
                    None => LogLine::Closed,
                    Some(_) if over => LogLine::RunOver { name, net },
                    Some(_) => LogLine::RunAbandoned { name, net },
                };
                self.closed = true;
                self.settlement =
                    if self.rules().table == TableType::House { self.ledger.settlement() } else { Vec::new() };
                self.note(line);
            }
        }
    }

    /// Adds a line to the table log, keeping the last [`LOG_KEPT`]: every action clones the room, so its
    /// size must not grow with the room's age.
    fn note(&mut self, line: LogLine) {
        if self.log.len() == LOG_KEPT {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    fn finish_deal(&mut self, deal: &Deal, names: &[String]) {
        self.ledger.record(deal, names);
        if let Some(result) = deal.result() {
            let line = match result.winner {
                Some(w) => LogLine::WentOut { name: names[w].clone() },
                None => LogLine::NoWinner,
            };
            self.note(line);
            if self.challenge.is_some()
                && result.winner.is_some()
                && let Some(seat) = self.seat_of(&self.host_key)
            {
                let net = result.score[seat];
                self.progress.nets.push(net);
                // What the player took out of the pot: their gain plus what they had paid in.
                let taken = if net > 0 { net + deal.paid()[seat] } else { 0 };
                self.progress.best_pot = self.progress.best_pot.max(taken);
            }
        }
    }

    fn bot_name(&self, level: BotKind) -> String {
        (1..)
            .map(|nth| level.seat_name(nth))
            .find(|n| self.seat_of(&NameKey::of_stored(n)).is_none() && !self.ledger.balances.contains_key(n))
            .expect("some name is free")
    }

    /// The seat whose move the deal waits for, when one seat is awaited; for House reveals, every
    /// seat that has not yet acknowledged.
    pub fn waiting(&self) -> Vec<Seat> {
        self.deal.as_ref().map_or(Vec::new(), |d| d.waiting_for())
    }

    /// The next setup from `seed`.
    pub fn next_setup(&self, seed: ddz_engine::Seed) -> DealSetup {
        self.ledger.next_setup(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_levels_are_written_as_their_names() {
        for kind in BotKind::ALL {
            let entry = Entry::AddBot { seat: 1, level: kind };
            let stored = format!(r#"{{"entry":"add_bot","seat":1,"level":"{}"}}"#, kind.name());
            assert_eq!(serde_json::to_string(&entry).unwrap(), stored);
            assert_eq!(serde_json::from_str::<Entry>(&stored).unwrap(), entry);
            let occupant = Occupant::Bot { name: "Bot Hard".into(), level: kind };
            let wire = format!(r#"{{"type":"bot","name":"Bot Hard","level":"{}"}}"#, kind.name());
            assert_eq!(serde_json::to_string(&occupant).unwrap(), wire);
        }
        assert!(serde_json::from_str::<Entry>(r#"{"entry":"add_bot","seat":1,"level":"genius"}"#).is_err());
    }

    #[test]
    fn modes_are_read_back_or_refused() {
        for mode in Mode::ALL {
            assert_eq!(mode.name().parse(), Ok(mode));
            assert_eq!(serde_json::to_string(&mode).unwrap(), format!("\"{}\"", mode.name()));
        }
        assert_eq!("lobby".parse::<Mode>(), Err(UnknownMode("lobby".into())));
    }

    // The room fold, entry by entry: what `check` refuses and why, and what `apply` changes. Rooms are
    // built with `Room::new` / `Room::challenge` and changed only through stamped entries, as the room task
    // does; deals come from `ddz_engine` setups and take the deal's own legal choices.

    use std::collections::BTreeMap;

    use crate::domain::challenge::{ChallengeKind, RALLY_DEALS};
    use ddz_engine::{DealError, End, Phase, Seed, settle};

    /// The time of entry `n` in these tests: a second apart, from an arbitrary start.
    fn at(n: u64) -> u64 {
        1_800_000_000_000 + n * 1_000
    }

    /// Checks `entry` and applies it numbered after the room's last entry, as the room task does.
    fn commit(room: &mut Room, entry: Entry) -> Stamped {
        if let Err(e) = room.check(&entry) {
            panic!("{entry:?} was refused: {e}");
        }
        let stamped = Stamped { n: room.last + 1, at: at(room.last + 1), entry };
        room.apply(&stamped);
        stamped
    }

    fn sit(room: &mut Room, seat: Seat, name: &str) {
        commit(room, Entry::Sit { seat, name: name.into() });
    }

    /// An invite room of `rules` hosted by Alice, with Alice, Bea and Cy seated (as many as it has seats).
    fn table(rules: Rules) -> Room {
        let mut room = Room::new("ABCDEF".into(), rules, Mode::Invite, "Alice".into());
        for (seat, name) in ["Alice", "Bea", "Cy"].into_iter().take(rules.players as usize).enumerate() {
            sit(&mut room, seat, name);
        }
        room
    }

    fn house() -> Room {
        table(Rules::house(true))
    }

    /// A challenge run of `kind` for Ann: Ann in seat 0 and the challenge's two bots.
    fn run(kind: ChallengeKind) -> Room {
        let rally = (kind == ChallengeKind::Rally).then(|| "2026-11-29".to_string());
        let mut room = Room::challenge("RUN123".into(), Challenge { kind, rally }, "Ann".into());
        sit(&mut room, 0, "Ann");
        for seat in 1..3 {
            commit(&mut room, Entry::AddBot { seat, level: kind.bot_level() });
        }
        room
    }

    /// Starts the room's next deal (a fixed seed per deal number).
    fn start(room: &mut Room) -> Stamped {
        let setup = room.next_setup(Seed::from_u64(u64::from(room.ledger.deals) + 11));
        commit(room, Entry::Start { setup })
    }

    fn act(action: Action) -> Entry {
        Entry::Act { action, timed_out: false, seq: None }
    }

    /// The deal's first legal choice now (taking the middle cards, the lowest bid, the first play...).
    fn first_choice(room: &Room) -> Action {
        room.deal.as_ref().expect("a deal").choices().into_iter().next().expect("a choice")
    }

    /// Plays the current deal's first legal choices until `done` holds for it.
    fn play_until(room: &mut Room, done: impl Fn(&Deal) -> bool) {
        for _ in 0..500 {
            if done(room.deal.as_ref().expect("a deal")) {
                return;
            }
            let action = first_choice(room);
            commit(room, act(action));
        }
        panic!("the deal never got there");
    }

    fn play_out(room: &mut Room) {
        play_until(room, |d| d.result().is_some());
    }

    /// One entry of each kind, for the refusals every kind shares.
    fn every_kind_of_entry(room: &Room) -> Vec<Entry> {
        vec![
            Entry::Sit { seat: 1, name: "Dan".into() },
            Entry::AddBot { seat: 2, level: BotKind::Normal },
            Entry::Start { setup: room.next_setup(Seed::from_u64(1)) },
            act(Action::Take { seat: 0 }),
            Entry::Host { name: "Bea".into() },
            Entry::SetWild { on: false },
            Entry::AutoPlay { seat: 0, on: true },
            Entry::Close,
        ]
    }

    #[test]
    fn a_closed_room_refuses_every_entry() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        commit(&mut room, Entry::Close);
        for entry in every_kind_of_entry(&room) {
            assert_eq!(room.check(&entry), Err(RoomError::Closed), "{entry:?}");
        }
    }

    #[test]
    fn apply_numbers_the_room_with_the_entrys_number() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        room.apply(&Stamped { n: 7, at: at(7), entry: Entry::Sit { seat: 0, name: "Alice".into() } });
        assert_eq!(room.last, 7);
    }

    #[test]
    fn sit_refuses_a_seat_the_table_does_not_have() {
        let room = Room::new("ABCDEF".into(), Rules::two_player(false), Mode::Invite, "Alice".into());
        let entry = Entry::Sit { seat: 2, name: "Bea".into() };
        assert_eq!(room.check(&entry), Err(RoomError::NoSuchSeat(2)), "a Two Player table has seats 0 and 1");
    }

    #[test]
    fn sit_refuses_a_taken_seat() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        assert_eq!(room.check(&Entry::Sit { seat: 0, name: "Bea".into() }), Err(RoomError::SeatTaken(0)));
    }

    #[test]
    fn sit_refuses_a_name_already_seated_whatever_its_case() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        let entry = Entry::Sit { seat: 1, name: "ALICE".into() };
        assert_eq!(room.check(&entry), Err(RoomError::AlreadySeated("ALICE".into())));
    }

    #[test]
    fn sit_refuses_anyone_but_the_player_at_a_challenge() {
        let room =
            Room::challenge("RUN123".into(), Challenge { kind: ChallengeKind::Buster, rally: None }, "Ann".into());
        assert_eq!(room.check(&Entry::Sit { seat: 0, name: "Bea".into() }), Err(RoomError::ChallengeSeats));
        assert_eq!(room.check(&Entry::Sit { seat: 0, name: "ann".into() }), Ok(()), "the player sits");
    }

    #[test]
    fn sit_seats_the_name_with_the_tables_starting_balance_and_logs_it() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        let entry = Entry::Sit { seat: 1, name: "Bea".into() };
        assert_eq!(room.check(&entry), Ok(()));
        commit(&mut room, entry);
        assert_eq!(room.seats, [None, Some(Occupant::Human { name: "Bea".into() }), None]);
        assert_eq!(room.ledger.balances.get("Bea"), Some(&100), "House players start with $100");
        assert_eq!(room.log.back(), Some(&LogLine::Sat { name: "Bea".into() }));
        assert_eq!(room.human_seat_of(&NameKey::of_stored("bea")), Some(1));
        let mut points = Room::new("ABCDEF".into(), Rules::no_shuffle(false), Mode::Invite, "Alice".into());
        sit(&mut points, 2, "Bea");
        assert_eq!(points.ledger.balances.get("Bea"), Some(&0), "points tables start from 0");
    }

    #[test]
    fn add_bot_refuses_a_taken_or_missing_seat() {
        let room = house();
        assert_eq!(room.check(&Entry::AddBot { seat: 1, level: BotKind::Normal }), Err(RoomError::SeatTaken(1)));
        assert_eq!(room.check(&Entry::AddBot { seat: 3, level: BotKind::Normal }), Err(RoomError::NoSuchSeat(3)));
    }

    #[test]
    fn add_bot_refuses_a_level_other_than_the_challenges() {
        let mut room =
            Room::challenge("RUN123".into(), Challenge { kind: ChallengeKind::Bomber, rally: None }, "Ann".into());
        sit(&mut room, 0, "Ann");
        let normal = Entry::AddBot { seat: 1, level: BotKind::Normal };
        assert_eq!(room.check(&normal), Err(RoomError::ChallengeSeats));
        assert_eq!(room.check(&Entry::AddBot { seat: 1, level: BotKind::Bomber }), Ok(()));
    }

    #[test]
    fn add_bot_seats_a_bot_named_after_its_level_and_numbers_the_next_of_the_same_level() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Bots, "Alice".into());
        sit(&mut room, 0, "Alice");
        let entry = Entry::AddBot { seat: 1, level: BotKind::Normal };
        assert_eq!(room.check(&entry), Ok(()));
        commit(&mut room, entry);
        commit(&mut room, Entry::AddBot { seat: 2, level: BotKind::Normal });
        let bot = |name: &str| Some(Occupant::Bot { name: name.into(), level: BotKind::Normal });
        assert_eq!(room.seats[1], bot("Bot Normal"));
        assert_eq!(room.seats[2], bot("Bot Normal 2"));
        assert_eq!(room.ledger.balances.get("Bot Normal 2"), Some(&100), "bots keep a balance like anyone");
        assert_eq!(room.log.back(), Some(&LogLine::BotSat { name: "Bot Normal 2".into(), level: BotKind::Normal }));
        assert!(
            room.is_bot_name(&NameKey::of_stored("bot normal"))
                && room.human_seat_of(&NameKey::of_stored("Bot Normal")).is_none()
        );
    }

    #[test]
    fn add_bot_never_takes_a_name_a_human_holds() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Bot Hard".into());
        sit(&mut room, 0, "Bot Hard");
        commit(&mut room, Entry::AddBot { seat: 1, level: BotKind::Hard });
        assert_eq!(room.seats[1].as_ref().map(Occupant::name), Some("Bot Hard 2"));
    }

    #[test]
    fn start_refuses_while_a_seat_is_empty() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        sit(&mut room, 1, "Bea");
        let setup = room.next_setup(Seed::from_u64(1));
        assert_eq!(room.check(&Entry::Start { setup }), Err(RoomError::SeatsEmpty));
    }

    #[test]
    fn start_refuses_while_a_deal_is_in_progress_and_accepts_once_it_is_over() {
        let mut room = house();
        start(&mut room);
        let setup = room.next_setup(Seed::from_u64(2));
        assert_eq!(room.check(&Entry::Start { setup: setup.clone() }), Err(RoomError::DealInProgress));
        play_out(&mut room);
        assert_eq!(room.check(&Entry::Start { setup }), Ok(()));
    }

    #[test]
    fn start_refuses_once_a_challenge_run_is_over() {
        let mut room = run(ChallengeKind::Rally);
        for _ in 0..RALLY_DEALS {
            start(&mut room);
            play_out(&mut room);
        }
        assert!(room.challenge_over());
        let setup = room.next_setup(Seed::from_u64(1));
        assert_eq!(room.check(&Entry::Start { setup }), Err(RoomError::RunOver), "a rally is ten deals");
    }

    #[test]
    fn start_deals_the_setup_at_its_time_and_logs_the_deals_number() {
        let mut room = house();
        let setup = room.next_setup(Seed::from_u64(5));
        let stamped = commit(&mut room, Entry::Start { setup: setup.clone() });
        let deal = room.deal.as_ref().expect("a deal");
        assert_eq!(deal.setup(), &setup);
        assert_eq!(deal.phase(), Phase::Auction);
        assert!(room.deal_in_progress());
        assert_eq!((room.deal_entry, room.deal_started_at, room.turn_started_at), (stamped.n, stamped.at, stamped.at));
        let rules = Rules::house(true).table_rules();
        assert_eq!(room.log.back(), Some(&LogLine::DealStarted { number: 1, rules }));
        play_out(&mut room);
        start(&mut room);
        assert!(matches!(room.log.back(), Some(LogLine::DealStarted { number: 2, .. })), "{:?}", room.log.back());
    }

    #[test]
    fn start_clears_the_last_deals_timed_out_turns() {
        let mut room = house();
        start(&mut room);
        let action = first_choice(&room);
        commit(&mut room, Entry::Act { action, timed_out: true, seq: None });
        play_out(&mut room);
        assert_eq!(room.timed_out, [0]);
        start(&mut room);
        assert!(room.timed_out.is_empty(), "{:?}", room.timed_out);
    }

    /// The next deal offered to seats 0 and 1 of Alice's House table (seat 2 as if a bot).
    fn offered() -> (Room, DealSetup) {
        let mut room = house();
        let setup = room.next_setup(Seed::from_u64(5)).salted(Seed::from_u64(6));
        commit(&mut room, Entry::Offer { setup: setup.clone(), awaited: vec![0, 1] });
        (room, setup)
    }

    #[test]
    fn offer_holds_the_committed_setup_and_deals_nothing_until_the_start() {
        let (room, setup) = offered();
        let offer = room.offer.as_ref().expect("an offer");
        assert_eq!((offer.setup.clone(), offer.nonces.clone(), offer.at), (setup, vec![None; 3], at(room.last)));
        assert!(room.deal.is_none() && !room.deal_in_progress());
        assert_eq!(
            room.check(&Entry::Offer { setup: room.next_setup(Seed::from_u64(7)), awaited: vec![0] }),
            Err(RoomError::Dealing)
        );
        assert_eq!(room.check(&Entry::Host { name: "Bea".into() }), Err(RoomError::Dealing));
    }

    #[test]
    fn nonce_is_taken_once_from_an_awaited_seat_only() {
        let (mut room, _) = offered();
        assert_eq!(room.check(&Entry::Nonce { seat: 2, nonce: Seed::from_u64(1) }), Err(RoomError::NoNonceWanted));
        commit(&mut room, Entry::Nonce { seat: 1, nonce: Seed::from_u64(1) });
        assert_eq!(room.offer.as_ref().unwrap().nonces, vec![None, Some(Seed::from_u64(1)), None]);
        assert_eq!(room.check(&Entry::Nonce { seat: 1, nonce: Seed::from_u64(2) }), Err(RoomError::NoNonceWanted));
        assert_eq!(house().check(&Entry::Nonce { seat: 0, nonce: Seed::from_u64(1) }), Err(RoomError::NoNonceWanted));
    }

    #[test]
    fn start_after_an_offer_deals_exactly_the_offer_with_its_nonces() {
        let (mut room, setup) = offered();
        commit(&mut room, Entry::Nonce { seat: 0, nonce: Seed::from_u64(1) });
        let other = room.next_setup(Seed::from_u64(8)).salted(Seed::from_u64(6));
        assert_eq!(room.check(&Entry::Start { setup: other }), Err(RoomError::Dealing));
        assert_eq!(room.check(&Entry::Start { setup: setup.clone() }), Err(RoomError::Dealing), "nonces left out");
        let dealt = setup.with_nonces(vec![Some(Seed::from_u64(1)), None, None]);
        commit(&mut room, Entry::Start { setup: dealt.clone() });
        assert!(room.offer.is_none());
        assert_eq!(room.deal.as_ref().map(|d| d.setup().clone()), Some(dealt));
    }

    #[test]
    fn close_withdraws_an_offer() {
        let (mut room, _) = offered();
        commit(&mut room, Entry::Close);
        assert!(room.offer.is_none() && room.deal.is_none() && room.closed);
    }

    #[test]
    fn act_refuses_without_a_deal_in_progress() {
        let mut room = house();
        let take = act(Action::Take { seat: 0 });
        assert_eq!(room.check(&take), Err(RoomError::NoDeal), "before the first deal");
        start(&mut room);
        play_out(&mut room);
        assert_eq!(room.check(&take), Err(RoomError::NoDeal), "once the deal is over");
    }

    #[test]
    fn act_refuses_what_the_deal_refuses_with_the_deals_reason() {
        let mut room = house();
        start(&mut room);
        let turn = room.deal.as_ref().unwrap().turn();
        let other = (turn + 1) % 3;
        let out_of_turn = act(Action::Take { seat: other });
        assert_eq!(room.check(&out_of_turn), Err(RoomError::Deal(DealError::NotYourTurn { seat: other, turn })));
        let bid = act(Action::Bid { seat: turn, bid: 1 });
        assert!(matches!(room.check(&bid), Err(RoomError::Deal(DealError::WrongPhase { .. }))), "House does not bid");
        assert!(room.deal.as_ref().unwrap().actions().is_empty(), "checking changes nothing");
        assert_eq!(room.check(&act(Action::Take { seat: turn })), Ok(()));
    }

    #[test]
    fn act_applies_the_action_starts_the_next_turn_and_keeps_the_players_number() {
        let mut room = house();
        start(&mut room);
        let action = first_choice(&room);
        let seat = action.seat().expect("a seat's action");
        let name = NameKey::of_stored(&room.names()[seat]);
        let stamped = commit(&mut room, Entry::Act { action: action.clone(), timed_out: false, seq: Some(41) });
        assert_eq!(room.deal.as_ref().unwrap().actions(), [action]);
        assert_eq!(room.turn_started_at, stamped.at, "a new turn starts with the entry");
        assert_eq!(room.last_seq.get(&name), Some(&41), "the number is kept by name key");
        assert!(room.timed_out.is_empty());
    }

    #[test]
    fn act_acknowledging_the_middle_cards_does_not_restart_the_turn_clock() {
        let mut room = house();
        start(&mut room);
        play_until(&mut room, |d| d.phase() == Phase::Reveal);
        let revealed_at = room.turn_started_at;
        let seen = first_choice(&room);
        assert!(matches!(seen, Action::Seen { .. }), "{seen:?}");
        commit(&mut room, act(seen));
        assert_eq!(room.turn_started_at, revealed_at, "the reveal runs on one clock for everyone");
    }

    #[test]
    fn act_played_by_the_clock_is_marked_and_logged() {
        let mut room = house();
        start(&mut room);
        let take = first_choice(&room);
        commit(&mut room, act(take));
        let action = first_choice(&room);
        let name = room.names()[action.seat().unwrap()].clone();
        commit(&mut room, Entry::Act { action, timed_out: true, seq: None });
        assert_eq!(room.timed_out, [1], "the index of the deal's action the clock played");
        assert_eq!(room.log.back(), Some(&LogLine::TimedOut { name }));
    }

    #[test]
    fn act_that_ends_the_deal_books_it_in_the_ledger_and_logs_who_went_out() {
        let mut room = house();
        start(&mut room);
        play_out(&mut room);
        let deal = room.deal.clone().unwrap();
        let result = deal.result().unwrap();
        let winner = result.winner.expect("someone went out");
        assert_eq!(result.end, End::Out);
        assert_eq!(room.ledger.deals, 1);
        assert_eq!(room.ledger.last_first, Some(deal.first()));
        assert!(result.score.iter().any(|&s| s != 0), "money changed hands: {:?}", result.score);
        for (seat, name) in room.names().iter().enumerate() {
            assert_eq!(room.ledger.balances[name], 100 + result.score[seat], "{name}");
        }
        assert_eq!(room.log.back(), Some(&LogLine::WentOut { name: room.names()[winner].clone() }));
        assert!(!room.deal_in_progress());
        assert_eq!(room.progress, Progress::default(), "no challenge, no run to count");
    }

    #[test]
    fn act_that_the_deal_refuses_changes_nothing_when_applied_from_the_store() {
        let mut room = house();
        start(&mut room);
        let before = room.deal.clone();
        let turn = room.deal.as_ref().unwrap().turn();
        let refused = Entry::Act { action: Action::Take { seat: (turn + 1) % 3 }, timed_out: true, seq: Some(9) };
        room.apply(&Stamped { n: room.last + 1, at: at(room.last + 1), entry: refused });
        assert_eq!(room.deal, before);
        assert!(room.timed_out.is_empty() && room.last_seq.is_empty());
    }

    #[test]
    fn act_that_ends_a_challenge_deal_counts_the_players_net_and_best_pot() {
        let mut room = run(ChallengeKind::Buster);
        start(&mut room);
        play_out(&mut room);
        let deal = room.deal.clone().unwrap();
        let net = deal.result().unwrap().score[0];
        assert_eq!(room.progress.nets, [net]);
        let taken = if net > 0 { net + deal.paid()[0] } else { 0 };
        assert_eq!(room.progress.best_pot, taken, "what Ann took out of the pot");
    }

    #[test]
    fn host_refuses_a_name_not_seated_or_a_bots() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        commit(&mut room, Entry::AddBot { seat: 1, level: BotKind::Easy });
        assert_eq!(room.check(&Entry::Host { name: "Dan".into() }), Err(RoomError::NotSeated));
        assert_eq!(room.check(&Entry::Host { name: "Bot Easy".into() }), Err(RoomError::NotSeated));
    }

    #[test]
    fn host_refuses_to_change_during_a_deal() {
        let mut room = house();
        start(&mut room);
        assert_eq!(room.check(&Entry::Host { name: "Bea".into() }), Err(RoomError::DealInProgress));
    }

    #[test]
    fn host_passes_the_role_to_a_seated_player_and_logs_it() {
        let mut room = house();
        let entry = Entry::Host { name: "Bea".into() };
        assert_eq!(room.check(&entry), Ok(()));
        commit(&mut room, entry);
        assert!(room.is_host(&NameKey::of_stored("bea")) && !room.is_host(&NameKey::of_stored("Alice")));
        assert_eq!(room.log.back(), Some(&LogLine::HostChanged { from: "Alice".into(), to: "Bea".into() }));
    }

    #[test]
    fn set_wild_refuses_at_a_challenge() {
        let room = run(ChallengeKind::Buster);
        assert_eq!(room.check(&Entry::SetWild { on: false }), Err(RoomError::ChallengeRules));
    }

    #[test]
    fn set_wild_changes_the_next_deals_option_and_logs_it() {
        let mut room = house();
        start(&mut room);
        assert_eq!(room.check(&Entry::SetWild { on: false }), Ok(()), "allowed during a deal");
        commit(&mut room, Entry::SetWild { on: false });
        assert_eq!(room.rules(), Rules::house(false), "the next deal's rules");
        assert_eq!(*room.deal.as_ref().unwrap().rules(), Rules::house(true), "the deal in progress keeps its own");
        assert_eq!(room.log.back(), Some(&LogLine::WildSet { host: "Alice".into(), on: false, rank: false }));
        let mut points = table(Rules::no_shuffle(false));
        commit(&mut points, Entry::SetWild { on: true });
        assert_eq!(points.rules(), Rules::no_shuffle(true));
        assert_eq!(points.log.back(), Some(&LogLine::WildSet { host: "Alice".into(), on: true, rank: true }));
    }

    #[test]
    fn auto_play_refuses_a_seat_without_a_human() {
        let mut room = Room::new("ABCDEF".into(), Rules::house(true), Mode::Invite, "Alice".into());
        sit(&mut room, 0, "Alice");
        commit(&mut room, Entry::AddBot { seat: 1, level: BotKind::Normal });
        for seat in [1, 2, 3] {
            assert_eq!(room.check(&Entry::AutoPlay { seat, on: true }), Err(RoomError::NotSeated), "seat {seat}");
        }
    }

    #[test]
    fn auto_play_refuses_at_a_challenge() {
        let room = run(ChallengeKind::Rally);
        assert_eq!(room.check(&Entry::AutoPlay { seat: 0, on: true }), Err(RoomError::ChallengeAutoPlay));
    }

    #[test]
    fn auto_play_hands_the_turns_to_the_bot_and_back_and_logs_both() {
        let mut room = house();
        let entry = Entry::AutoPlay { seat: 1, on: true };
        assert_eq!(room.check(&entry), Ok(()));
        commit(&mut room, entry);
        assert_eq!(room.auto_play, [false, true, false]);
        assert_eq!(room.log.back(), Some(&LogLine::AutoPlay { name: "Bea".into(), on: true }));
        commit(&mut room, Entry::AutoPlay { seat: 1, on: false });
        assert_eq!(room.auto_play, [false, false, false]);
        assert_eq!(room.log.back(), Some(&LogLine::AutoPlay { name: "Bea".into(), on: false }));
    }

    #[test]
    fn close_is_accepted_at_any_time_while_open() {
        let mut room = house();
        assert_eq!(room.check(&Entry::Close), Ok(()), "between deals");
        start(&mut room);
        assert_eq!(room.check(&Entry::Close), Ok(()), "during a deal");
    }

    #[test]
    fn close_settles_house_balances_and_refunds_a_deal_in_progress() {
        let mut room = house();
        start(&mut room);
        play_out(&mut room);
        let after_first = room.ledger.balances.clone();
        assert!(after_first.values().any(|&b| b != 100));
        // The second deal is closed once its pot holds the ante.
        start(&mut room);
        play_until(&mut room, |d| d.phase() == Phase::Play);
        assert!(room.deal.as_ref().unwrap().pot() > 0, "the ante is in the pot");
        commit(&mut room, Entry::Close);
        assert!(room.closed);
        let result = room.deal.as_ref().unwrap().result().expect("the deal ended").clone();
        assert_eq!((result.end, result.winner), (End::Abandoned, None));
        assert_eq!(room.ledger.balances, after_first, "each player got back what they paid in");
        assert_eq!(room.ledger.deals, 2);
        assert_eq!(room.settlement, settle(&room.ledger.nets()));
        assert!(!room.settlement.is_empty(), "someone won the first deal, so someone pays");
        let mut nets: BTreeMap<String, i64> = room.ledger.nets().into_iter().collect();
        for payment in &room.settlement {
            *nets.get_mut(&payment.from).unwrap() += payment.amount;
            *nets.get_mut(&payment.to).unwrap() -= payment.amount;
        }
        assert!(nets.values().all(|&n| n == 0), "the payments settle every net: {nets:?}");
        let last: Vec<_> = room.log.iter().rev().take(2).cloned().collect();
        assert_eq!(last, [LogLine::Closed, LogLine::NoWinner]);
    }

    #[test]
    fn close_of_a_points_table_settles_nothing() {
        let mut room = table(Rules::no_shuffle(false));
        start(&mut room);
        play_out(&mut room);
        assert!(room.ledger.balances.values().any(|&b| b != 0));
        commit(&mut room, Entry::Close);
        assert!(room.closed && room.settlement.is_empty(), "{:?}", room.settlement);
        assert_eq!(room.log.back(), Some(&LogLine::Closed));
    }

    #[test]
    fn close_before_a_runs_end_logs_it_abandoned_with_the_players_net() {
        let mut room = run(ChallengeKind::Buster);
        start(&mut room);
        play_out(&mut room);
        start(&mut room);
        commit(&mut room, Entry::Close);
        assert_eq!(room.progress.nets.len(), 1, "the abandoned deal has no winner and is not a run's deal");
        let net = room.progress.net();
        assert_eq!(room.log.back(), Some(&LogLine::RunAbandoned { name: "Ann".into(), net }));
    }

    #[test]
    fn close_after_a_runs_last_deal_logs_it_over() {
        let mut room = run(ChallengeKind::Rally);
        for _ in 0..RALLY_DEALS {
            start(&mut room);
            play_out(&mut room);
        }
        commit(&mut room, Entry::Close);
        let net = room.progress.net();
        assert_eq!(room.progress.nets.len(), RALLY_DEALS as usize);
        assert_eq!(room.log.back(), Some(&LogLine::RunOver { name: "Ann".into(), net }));
    }

    #[test]
    fn the_log_keeps_only_its_last_lines() {
        let mut room = house();
        for i in 0..LOG_KEPT + 10 {
            commit(&mut room, Entry::SetWild { on: i % 2 == 0 });
        }
        assert_eq!(room.log.len(), LOG_KEPT);
        // The three lines of sitting and the first ten toggles are gone: the oldest kept is toggle 10 (on).
        assert_eq!(room.log.front(), Some(&LogLine::WildSet { host: "Alice".into(), on: true, rank: false }));
        assert_eq!(room.log.back(), Some(&LogLine::WildSet { host: "Alice".into(), on: false, rank: false }));
    }
}
