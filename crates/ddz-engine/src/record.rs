//! Deal records: a deal as JSON (rules, seats, seed, actions, result, state hash) that replays from
//! scratch. The format is documented in `docs/deal-record.md`.

use serde::{Deserialize, Serialize};

use crate::card::{CardSet, Rank};
use crate::deal::{Action, Deal, DealError, DealResult, DealSetup, Phase, Seat, Trick};
use crate::view::DealView;

/// The format tag of records written now: the state hash covers the setup (seed, start, pack, dealing).
pub const FORMAT: &str = "ddz-deal/2";

/// The first format, still read: its state hash leaves out the setup, so it cannot tell a reordered
/// pack whose changes stay in the bottom.
pub const FORMAT_V1: &str = "ddz-deal/1";

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// The commitment published before the deal (`crate::fair`): SHA-256 of the seed and the salt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub commitment: Option<String>,
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
    #[error("the record has no commitment and salt: nobody committed to this deal")]
    NoCommitment,
    #[error("the commitment {recorded} is not the SHA-256 of the seed and salt ({computed})")]
    Commitment { recorded: String, computed: String },
    #[error("the re-dealt pack is not the previous deal's collected pack")]
    Pack,
    #[error("the previous deal is not finished, so its cards were not collected")]
    PreviousUnfinished,
}

/// One step of a finished deal's replay: the table as a spectator saw it after the first few actions,
/// with every hand face up (the deal is over, so nothing is hidden any more) and the bottom cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplayStep {
    pub view: DealView,
    pub hands: Vec<CardSet>,
    pub bottom: CardSet,
}

/// A verified deal: the hands its seed dealt, by seat, and the bottom (the middle cards at House).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub deal: Deal,
    pub dealt: Vec<CardSet>,
    pub bottom: CardSet,
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
            commitment: deal.setup().commitment(),
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

    /// The replay of a finished deal, step by step: the deal as dealt, then after each action, each
    /// step folded by the engine from the record (which is checked first).
    pub fn steps(&self) -> Result<Vec<ReplayStep>, RecordError> {
        self.replay()?;
        let mut deal = Deal::new(self.setup.clone());
        let step = |deal: &Deal| ReplayStep {
            view: deal.view(None),
            hands: (0..deal.players()).map(|s| deal.hand(s)).collect(),
            bottom: deal.bottom(),
        };
        let mut steps = vec![step(&deal)];
        for action in &self.actions {
            deal.apply(action).expect("a record that replays applies its actions");
            steps.push(step(&deal));
        }
        Ok(steps)
    }

    /// Checks a deal's fairness (docs/fair-deals.md): the record replays, its commitment is the SHA-256
    /// of its seed and salt, and, for a No Shuffle re-deal with the `previous` deal's record, the pack
    /// it cut and dealt is exactly the cards that deal collected. Returns the hands the seed dealt.
    pub fn verify(&self, previous: Option<&DealRecord>) -> Result<Verified, RecordError> {
        let deal = self.replay()?;
        let (Some(recorded), Some(computed)) = (&self.commitment, self.setup.commitment()) else {
            return Err(RecordError::NoCommitment);
        };
        if *recorded != computed {
            return Err(RecordError::Commitment { recorded: recorded.clone(), computed });
        }
        if let (Some(pack), Some(previous)) = (&self.setup.pack, previous) {
            let before = previous.replay()?;
            if before.result().is_none() {
                return Err(RecordError::PreviousUnfinished);
            }
            if before.collected_pack() != *pack {
                return Err(RecordError::Pack);
            }
        }
        let start = Deal::new(self.setup.clone());
        let dealt = (0..start.players()).map(|s| start.hand(s)).collect();
        Ok(Verified { bottom: start.bottom(), dealt, deal })
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
