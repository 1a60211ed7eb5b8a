//! A room's state as a fold over its log (RULES.md section 8): seats, host, the ledger across deals, the
//! current deal, the table log, and closing. Pure: no I/O and no clock; times arrive inside entries.
//!
//! Every change to a room is an [`Entry`]; the room task stores each entry before applying it, so a
//! restarted server rebuilds every room exactly by folding its stored entries again.

use std::collections::{HashMap, VecDeque};

use ddz_engine::{Action, Deal, DealSetup, Ledger, Payment, Rules, Seat, TableRules, TableType};
use serde::{Deserialize, Serialize};

use ddz_bot::BotKind;

use crate::domain::challenge::{Challenge, Progress};

/// How a room came to be; it decides who may sit and which board its deals count for.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// An invite room: anyone with the link may sit.
    Invite,
    /// A public lobby table (House with the Wild): listed, anyone may sit.
    Public,
    /// Play vs 2 Bots.
    Bots,
    /// Bot Buster, Bot Bomber or a Bang rally (the room's [`Challenge`] says which).
    Challenge,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Invite, Mode::Public, Mode::Bots, Mode::Challenge];

    /// The mode as it is stored and sent (`invite`, `public`, `bots`, `challenge`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Invite => "invite",
            Mode::Public => "public",
            Mode::Bots => "bots",
            Mode::Challenge => "challenge",
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
    #[error("{0}")]
    Deal(#[from] ddz_engine::DealError),
}

/// Table log lines a room keeps in memory and shows.
pub const LOG_KEPT: usize = 50;

/// The room.
#[derive(Clone, Debug)]
pub struct Room {
    pub code: String,
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
    /// The last action number stored from each player (by lower-cased name): an `act` numbered no
    /// higher is a resend, answered and not applied again.
    pub last_seq: HashMap<String, u64>,
}

/// A room's code as anyone may type it: read once at the edge (a path, a `hello`), trimmed and upper-cased,
/// so that `abc234` and `ABC234` are the same room everywhere after.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// Names compare without regard to case. Most names are ASCII, compared without allocating: every
/// command looks its sender's seat up by name.
pub fn same_name(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    a.to_lowercase() == b.to_lowercase()
}

impl Room {
    pub fn new(code: String, rules: Rules, mode: Mode, host: String) -> Room {
        Room {
            code,
            mode,
            host,
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
        }
    }

    /// A challenge room: House with the Wild, played by `player`.
    pub fn challenge(code: String, challenge: Challenge, player: String) -> Room {
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

    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.seats.iter().position(|s| s.as_ref().is_some_and(|o| same_name(o.name(), name)))
    }

    /// The seat a human named `name` holds: never a bot's, so that nobody who types a bot's name sees
    /// its hand or moves for it.
    pub fn human_seat_of(&self, name: &str) -> Option<Seat> {
        self.seat_of(name).filter(|&seat| self.seats[seat].as_ref().is_some_and(|o| !o.is_bot()))
    }

    /// Whether a bot at this table is called `name`.
    pub fn is_bot_name(&self, name: &str) -> bool {
        self.seat_of(name).is_some() && self.human_seat_of(name).is_none()
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.as_ref().map_or(String::new(), |o| o.name().to_string())).collect()
    }

    pub fn deal_in_progress(&self) -> bool {
        self.deal.as_ref().is_some_and(|d| d.result().is_none())
    }

    pub fn is_host(&self, name: &str) -> bool {
        same_name(&self.host, name)
    }

    /// Checks `entry` against the room, without changing it.
    pub fn check(&self, entry: &Entry) -> Result<(), RoomError> {
        if self.closed {
            return Err(RoomError::Closed);
        }
        match entry {
            Entry::Sit { seat, name } => {
                self.free_seat(*seat)?;
                if self.seat_of(name).is_some() {
                    return Err(RoomError::AlreadySeated(name.clone()));
                }
                if self.challenge.is_some() && !self.is_host(name) {
                    return Err(RoomError::ChallengeSeats);
                }
            }
            Entry::AddBot { seat, level } => {
                self.free_seat(*seat)?;
                if self.challenge.as_ref().is_some_and(|c| c.kind.bot_level() != *level) {
                    return Err(RoomError::ChallengeSeats);
                }
            }
            Entry::Start { .. } => {
                if self.challenge_over() {
                    return Err(RoomError::RunOver);
                }
                if self.deal_in_progress() {
                    return Err(RoomError::DealInProgress);
                }
                if self.seats.iter().any(Option::is_none) {
                    return Err(RoomError::SeatsEmpty);
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
                let seated = self.seat_of(name).and_then(|s| self.seats[s].as_ref()).is_some_and(|o| !o.is_bot());
                if !seated {
                    return Err(RoomError::NotSeated);
                }
                if self.deal_in_progress() {
                    return Err(RoomError::DealInProgress);
                }
            }
            Entry::Close => {}
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
                self.ledger.join(name);
                self.note(LogLine::Sat { name: name.clone() });
            }
            Entry::AddBot { seat, level } => {
                let name = self.bot_name(*level);
                self.ledger.join(&name);
                self.note(LogLine::BotSat { name: name.clone(), level: *level });
                self.seats[*seat] = Some(Occupant::Bot { name, level: *level });
            }
            Entry::Start { setup } => {
                self.deal = Some(Deal::new(setup.clone()));
                self.deal_started_at = at;
                self.deal_entry = stamped.n;
                self.turn_started_at = at;
                self.timed_out.clear();
                self.note(LogLine::DealStarted { number: self.ledger.deals + 1, rules: setup.rules.table_rules() });
            }
            Entry::Act { action, timed_out, seq } => {
                let names = self.names();
                let Some(deal) = self.deal.as_mut() else {
                    return;
                };
                if deal.apply(action).is_err() {
                    return; // stored entries were checked; a refused one changes nothing
                }
                if let (Some(seq), Some(seat)) = (seq, action.seat()) {
                    self.last_seq.insert(names[seat].to_lowercase(), *seq);
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
                if self.deal_in_progress() {
                    let names = self.names();
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
                && let Some(seat) = self.seat_of(&self.host)
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
        let base = format!("Bot {}", capitalise(level.name()));
        (1..)
            .map(|i| if i == 1 { base.clone() } else { format!("{base} {i}") })
            .find(|n| self.seat_of(n).is_none() && !self.ledger.balances.contains_key(n))
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

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_same_whatever_their_case_in_any_script() {
        assert!(same_name("Ann", "aNN"));
        assert!(!same_name("Ann", "Anne"));
        assert!(same_name("Zoë", "ZOË"));
        assert!(same_name("小明", "小明"));
        assert!(!same_name("Zoe", "Zoë"));
    }

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
}
