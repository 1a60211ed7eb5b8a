//! The Dou Dizhu rules engine: cards, rules as data, plays and their readings, legal-play generation.
//!
//! Pure and deterministic: no I/O, no clock, no global random number generator. `../shared/RULES.md`
//! (in the project's shared folder) is the specification; each module says which sections it implements.

pub mod card;
pub mod consistency;
pub mod deal;
pub mod fair;
pub mod hints;
pub mod ledger;
pub mod movegen;
pub mod play;
pub mod readings;
pub mod record;
pub mod rng;
pub mod rules;
pub mod solve;
pub mod story;
pub mod view;

pub use card::{Card, CardError, CardSet, Counts, Rank, WILD_SLOT};
pub use deal::{
    Action, Auction, Deal, DealError, DealResult, DealSetup, Dealing, End, MULTIPLIER_CAP, Phase, Seat, Start, Trick,
};
pub use fair::{Fairness, Salt};
pub use ledger::{Ledger, Payment, settle};
pub use movegen::{legal_plays, legal_plays_vec};
pub use play::{Attach, Kind, Play, PlayJson, ResolveError, Shape, Strength};
pub use readings::{PlayError, readings};
pub use record::{DealRecord, RecordError, ReplayStep, Verified};
pub use rng::Seed;
pub use rules::{Rules, TableRules, TableType, UnknownTable, WildRankError, Wilds};
pub use solve::{Endgame, Move, Next, Solver};
pub use story::{LastMove, ScoreLine};
pub use view::{DealView, TrickMove};
