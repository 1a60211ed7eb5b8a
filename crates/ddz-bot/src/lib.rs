//! Dou Dizhu bots for every decision of every table type.
//!
//! Every bot decides from its seat's [`DealView`] (never another hand) and the list of legal choices,
//! and returns the index of its choice. Kinds:
//!
//! - `random`: uniform over the legal choices (a baseline);
//! - `greedy`: always the smallest legal play, passing only when nothing beats (a baseline);
//! - `beginner`: the rules and a new player's habits, nothing more ([`beginner`]): the ladder's first rung;
//! - `easy`: the hand-planning player, half the time; greedy the other half;
//! - `normal`: the hand-planning player ([`policy`]): fewest plays left, control kept, table sense;
//! - `hard`: `normal`'s best candidates, chosen between by determinized rollouts ([`search`]);
//! - `bomber`: plays every bomb and rocket at its first legal chance, otherwise `normal`.
//!
//! Decisions are deterministic given the bot's seed (which the server derives from the deal's seed).

pub mod arena;
pub mod beginner;
pub mod guide;
pub mod inference;
pub mod plan;
pub mod policy;
pub mod protocol;
pub mod puzzles;
pub mod review;
pub mod rule_agent;
pub mod search;
pub mod table;
pub mod tempo;

use std::fmt;
use std::str::FromStr;

use ddz_engine::{Action, Deal, DealView, Phase, Seat};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::plan::PlanEvaluator;
use crate::table::Table;

/// A player that chooses among legal actions.
pub trait Player {
    /// The index in `choices` of the chosen action. `choices` is never empty.
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError>;
}

/// A player that failed to choose (an external bot that broke the protocol).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BotError(pub String);

/// A bot's kind, written as its [`name`](BotKind::name) (`hard`) in text and with serde.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotKind {
    Random,
    Greedy,
    Beginner,
    Easy,
    Normal,
    Hard,
    Bomber,
}

impl BotKind {
    pub const ALL: [BotKind; 7] = [
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Beginner,
        BotKind::Easy,
        BotKind::Normal,
        BotKind::Hard,
        BotKind::Bomber,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Beginner => "beginner",
            BotKind::Easy => "easy",
            BotKind::Normal => "normal",
            BotKind::Hard => "hard",
            BotKind::Bomber => "bomber",
        }
    }

    /// The name the `nth` bot of this kind at a table sits under (from 1): `Bot Normal`, `Bot Normal 2`. The
    /// server's rooms and the page's offline table both name their bots here.
    pub fn seat_name(self, nth: usize) -> String {
        let name = self.name();
        let base = format!("Bot {}{}", name[..1].to_uppercase(), &name[1..]);
        if nth <= 1 { base } else { format!("{base} {nth}") }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BotKind {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BotKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            BotError(format!("unknown bot {s:?} (random, greedy, beginner, easy, normal, hard, bomber)"))
        })
    }
}

/// One of our bots.
pub struct Bot {
    kind: BotKind,
    rng: ChaCha8Rng,
    eval: PlanEvaluator,
    budget: search::Budget,
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64) -> Bot {
        Bot {
            kind,
            rng: ChaCha8Rng::seed_from_u64(seed),
            eval: PlanEvaluator::new(),
            budget: search::Budget::default(),
        }
    }

    /// The `hard` bot's search budget.
    pub fn with_budget(mut self, budget: search::Budget) -> Bot {
        self.budget = budget;
        self
    }

    /// The index in `choices` this bot picks (infallible: our bots always choose).
    pub fn decide(&mut self, view: &DealView, choices: &[Action]) -> usize {
        if choices.len() <= 1 {
            return 0;
        }
        let table = Table::new(view);
        match self.kind {
            BotKind::Random => self.rng.random_range(0..choices.len()),
            BotKind::Greedy => policy::greedy(choices),
            BotKind::Beginner => beginner::choose(&table, choices, &mut self.rng),
            BotKind::Easy if self.rng.random_bool(0.5) => policy::greedy(choices),
            BotKind::Easy | BotKind::Normal => policy::choose(&table, choices, &mut self.eval, false),
            BotKind::Bomber => policy::choose(&table, choices, &mut self.eval, true),
            BotKind::Hard => {
                let playing =
                    matches!(choices[0], Action::Play { .. } | Action::Pass { .. }) && table.landlord.is_some();
                if !playing {
                    return policy::choose(&table, choices, &mut self.eval, false);
                }
                let scored = policy::score_plays(&table, choices, &mut self.eval, false);
                search::choose(&table, choices, &scored, self.budget, &mut self.eval, &mut self.rng)
            }
        }
    }
}

/// The move a bot of `kind` makes for `seat` in `deal`, if the seat has one to make: the server's room
/// task and the page's offline table (`ddz-wasm`) both ask here, so that a deal's bots answer alike
/// wherever it is played. Seeded from the deal and how far it has gone only, so that a rally's bots answer
/// the same moves alike. A House reveal's acknowledgment needs no thought.
pub fn bot_action(deal: &Deal, seat: Seat, kind: BotKind) -> Option<Action> {
    let choices: Vec<Action> = deal.choices().into_iter().filter(|a| a.seat() == Some(seat)).collect();
    if choices.is_empty() {
        return None;
    }
    if deal.phase() == Phase::Reveal {
        return choices.into_iter().next();
    }
    let moves = deal.actions().len() as u64;
    let seed = deal.setup().seed.0.iter().fold(moves, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(*b)));
    let mut bot = Bot::new(kind, seed ^ seat as u64);
    let index = bot.decide(&deal.view(Some(seat)), &choices);
    choices.into_iter().nth(index)
}

impl Player for Bot {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        Ok(self.decide(view, choices))
    }
}
