//! Deal records: a deal as JSON (rules, seats, seed, actions, result, state hash) that replays from
//! scratch. The format is documented in `docs/deal-record.md`.

use serde::{Deserialize, Serialize};

use crate::card::{CardSet, Rank};
use crate::deal::{Action, Deal, DealError, DealResult, DealSetup, Phase, Seat, Trick};

/// The format tag of records written now: the state hash covers the setup (seed, start, pack, dealing).
pub const FORMAT: &str = "ddz-deal/2";

/// The first format, still read: its state hash leaves out the setup, so it cannot tell a reordered
/// pack whose changes stay in the bottom.
pub const FORMAT_V1: &str = "ddz-deal/1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealRecord {
    pub format: String,
    /// Player names by seat.
    pub seats: Vec<String>,
    #[serde(flatten)]
    pub setup: DealSetup,
    pub actions: Vec<Action>,
    /// `None` for an unfinished deal.
    pub result: Option<DealResult>,
    /// The state hash after the last action (16 hex digits).
    pub state_hash: String,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("unknown record format {0:?} (expected {FORMAT} or {FORMAT_V1})")]
    Format(String),
    #[error("action {index} ({action}) is refused: {error}")]
    Refused { index: usize, action: String, error: DealError },
    #[error("the record says the result is {recorded}, but the deal replays to {replayed}")]
    Result { recorded: String, replayed: String },
    #[error("the record's state hash is {recorded}, but the deal replays to {replayed}")]
    Hash { recorded: String, replayed: String },
    #[error("the record names {names} seats for a {players}-player table")]
    Seats { names: usize, players: usize },
}

impl DealRecord {
    pub fn of(deal: &Deal, seats: Vec<String>) -> DealRecord {
        DealRecord {
            format: FORMAT.to_string(),
            seats,
            setup: deal.setup().clone(),
            actions: deal.actions().to_vec(),
            result: deal.result().cloned(),
            state_hash: deal.state_hash(),
        }
    }

    /// Replays the record from scratch and checks that it reaches the recorded result and state hash.
    pub fn replay(&self) -> Result<Deal, RecordError> {
        let with_setup = match self.format.as_str() {
            FORMAT => true,
            FORMAT_V1 => false,
            other => return Err(RecordError::Format(other.to_string())),
        };
        let players = self.setup.rules.players as usize;
        if self.seats.len() != players {
            return Err(RecordError::Seats { names: self.seats.len(), players });
        }
        let deal = Deal::replay(self.setup.clone(), &self.actions).map_err(|(index, error)| RecordError::Refused {
            index,
            action: self
                .actions
                .get(index)
                .map(|a| serde_json::to_string(a).unwrap_or_default())
                .unwrap_or_else(|| "the setup".into()),
            error,
        })?;
        if deal.result() != self.result.as_ref() {
            let show = |r: Option<&DealResult>| serde_json::to_string(&r).unwrap_or_default();
            return Err(RecordError::Result { recorded: show(self.result.as_ref()), replayed: show(deal.result()) });
        }
        let replayed = if with_setup { deal.state_hash() } else { deal.hash_of(None) };
        if replayed != self.state_hash {
            return Err(RecordError::Hash { recorded: self.state_hash.clone(), replayed });
        }
        Ok(deal)
    }
}

/// Everything that makes up a deal's state, for hashing.
#[derive(Serialize)]
struct HashedState<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<&'a DealSetup>,
    rules: &'a str,
    wild_rank: Option<Rank>,
    hands: Vec<CardSet>,
    bottom: CardSet,
    unused: CardSet,
    phase: Phase,
    landlord: Option<Seat>,
    waiting_for: Vec<Seat>,
    trick: Option<&'a Trick>,
    paid: &'a [i64],
    multiplier: u32,
    actions: &'a [Action],
    result: Option<&'a DealResult>,
}

impl Deal {
    /// A stable hash of the whole state, the setup it was dealt from included (FNV-1a over a canonical
    /// JSON form), as 16 hex digits.
    pub fn state_hash(&self) -> String {
        self.hash_of(Some(self.setup()))
    }

    /// The state hash with or without the setup (records of the first format hash without it).
    fn hash_of(&self, setup: Option<&DealSetup>) -> String {
        let state = HashedState {
            setup,
            rules: self.rules().name(),
            wild_rank: self.rules().wild_rank(),
            hands: (0..self.players()).map(|s| self.hand(s)).collect(),
            bottom: self.bottom(),
            unused: self.unused(),
            phase: self.phase(),
            landlord: self.landlord(),
            waiting_for: self.waiting_for(),
            trick: self.trick(),
            paid: self.paid(),
            multiplier: self.multiplier(),
            actions: self.actions(),
            result: self.result(),
        };
        let bytes = serde_json::to_vec(&state).expect("state serialises");
        let hash =
            bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3));
        format!("{hash:016x}")
    }
}
