//! The `hard` bot's review of one seat's play in a finished deal.
//!
//! At each of the seat's turns in the trick play where it had a real choice, the review takes the seat's
//! own view of the table then (its hand, the public cards and counts: never the hands the deal later
//! showed), and estimates the side's chance of winning after the play it made and after the bot's best
//! candidates, with the search's rollouts ([`search::win_rates`]) on the same random deals of the unseen
//! cards for every candidate. A decision whose chance falls well below the best one's is a mistake.
//!
//! The auction is not reviewed: the search plays out trick play from a known landlord.

use ddz_engine::{Action, Deal, DealRecord, Phase, RecordError, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::plan::PlanEvaluator;
use crate::policy::score_plays;
use crate::search::{self, Budget};
use crate::table::Table;

/// How far below the best candidate's chance a play must fall to count as a mistake.
pub const MISTAKE: f32 = 0.10;

/// The search budget for reviews: more samples than a move at the table, since a review is read
/// closely and asked for rarely.
pub const REVIEW_BUDGET: Budget =
    Budget { candidates: 8, samples: 160, endgame_cards: 20, endgame_nodes: 6000, decision_nodes: 375_000 };

/// One decision of the reviewed seat.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The index of the decision's action in the deal's actions (the replay's step before it).
    pub step: usize,
    /// The legal choices the seat had.
    pub choices: usize,
    pub played: Action,
    /// The side's estimated chance of winning after `played` (0 to 1).
    pub played_chance: f32,
    /// The bot's choice: the candidate with the best chance (`played` itself when nothing beat it).
    pub best: Action,
    pub best_chance: f32,
    /// The play cost at least [`MISTAKE`] of the side's chance: decided here, once, so that every reader
    /// of the review (the replay viewer, `ddz review`) counts the same mistakes.
    pub mistake: bool,
}

/// Whether a play whose side wins `played` of the time, where the best candidate wins `best`, is a
/// mistake. Chances are whole wins out of the samples: the tolerance keeps a gap of exactly
/// [`MISTAKE`] one.
fn is_mistake(best: f32, played: f32) -> bool {
    best - played >= MISTAKE - 1e-4
}

/// A seat's reviewed decisions, in order.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub seat: Seat,
    pub decisions: Vec<Decision>,
}

/// Reviews `seat`'s trick play in the deal of `record` (checked by replaying it first). The rollouts'
/// dice come from the deal's seed and the seat, so a deal and seat always get the same review.
pub fn review(record: &DealRecord, seat: Seat, budget: Budget) -> Result<Review, RecordError> {
    record.replay()?;
    let mut deal = Deal::new(record.setup.clone());
    let mut eval = PlanEvaluator::new();
    let seed = u64::from_le_bytes(record.setup.seed.0[..8].try_into().expect("a seed has 32 bytes"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ seat as u64);
    let mut decisions = Vec::new();
    for (step, action) in record.actions.iter().enumerate() {
        if deal.phase() == Phase::Play && action.seat() == Some(seat) {
            decisions.extend(decide(&deal, action, step, budget, &mut eval, &mut rng));
        }
        deal.apply(action).expect("a record that replays applies its actions");
    }
    Ok(Review { seat, decisions })
}

/// The review of one decision: `None` when the seat had a single choice.
fn decide(
    deal: &Deal,
    action: &Action,
    step: usize,
    budget: Budget,
    eval: &mut PlanEvaluator,
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let choices = deal.choices();
    if choices.len() < 2 {
        return None;
    }
    // The record's cards may be other suits of the same play: match the reading.
    let played = choices.iter().position(|c| match (c, action) {
        (Action::Play { play: a, .. }, Action::Play { play: b, .. }) => a == b,
        (Action::Pass { .. }, Action::Pass { .. }) => true,
        _ => false,
    })?;
    let view = deal.view(Some(deal.turn()));
    let table = Table::new(&view);
    let mut scored = score_plays(&table, &choices, eval, false);
    scored.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut candidates = vec![played];
    candidates.extend(scored.iter().map(|s| s.index).filter(|&i| i != played).take(budget.candidates));
    let rates = search::win_rates(&table, &choices, &candidates, budget, eval, rng);
    // Ties go to the play made: the review does not fault a play as good as the best.
    let best = (1..candidates.len()).fold(0, |b, i| if rates[i] > rates[b] { i } else { b });
    Some(Decision {
        step,
        choices: choices.len(),
        played: action.clone(),
        played_chance: rates[0],
        best: choices[candidates[best]].clone(),
        best_chance: rates[best],
        mistake: is_mistake(rates[best], rates[0]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, BotKind};
    use ddz_engine::{DealSetup, Rules, Seed, Start};

    /// A whole deal played by bots, as a record.
    fn played(kinds: [BotKind; 3], seed: u64) -> DealRecord {
        let mut deal = Deal::new(DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::Seat(0)));
        let mut bots = kinds.map(|k| Bot::new(k, seed));
        while deal.phase() != Phase::Over {
            let choices = deal.choices();
            let seat = choices[0].seat().expect("seat actions");
            let view = deal.view(Some(seat));
            let pick = bots[seat].decide(&view, &choices);
            deal.apply(&choices[pick]).unwrap();
        }
        DealRecord::of(&deal, vec!["a".into(), "b".into(), "c".into()])
    }

    #[test]
    fn a_review_covers_every_trick_play_decision_with_a_choice_and_only_those() {
        let record = played([BotKind::Random, BotKind::Normal, BotKind::Normal], 7);
        let budget = Budget { samples: 24, ..REVIEW_BUDGET };
        let review = review(&record, 0, budget).unwrap();
        let mut deal = Deal::new(record.setup.clone());
        let mut expected = Vec::new();
        for (step, action) in record.actions.iter().enumerate() {
            if deal.phase() == Phase::Play && action.seat() == Some(0) && deal.choices().len() > 1 {
                expected.push(step);
            }
            deal.apply(action).unwrap();
        }
        assert!(!expected.is_empty());
        assert_eq!(review.decisions.iter().map(|d| d.step).collect::<Vec<_>>(), expected);
        for d in &review.decisions {
            assert_eq!(d.played, record.actions[d.step]);
            assert!((0.0..=1.0).contains(&d.played_chance) && d.best_chance >= d.played_chance);
            assert_eq!(d.mistake, is_mistake(d.best_chance, d.played_chance));
        }
    }

    #[test]
    fn a_random_player_makes_more_mistakes_than_the_hard_bot() {
        let budget = Budget { samples: 48, ..REVIEW_BUDGET };
        let (mut random, mut hard) = (0, 0);
        for seed in 1..=4 {
            let record = played([BotKind::Random, BotKind::Hard, BotKind::Normal], seed);
            random += review(&record, 0, budget).unwrap().decisions.iter().filter(|d| d.mistake).count();
            hard += review(&record, 1, budget).unwrap().decisions.iter().filter(|d| d.mistake).count();
        }
        assert!(random > hard, "random {random} mistakes, hard {hard}");
    }

    #[test]
    fn a_deal_and_seat_always_get_the_same_review() {
        let record = played([BotKind::Normal; 3], 3);
        let budget = Budget { samples: 16, ..REVIEW_BUDGET };
        assert_eq!(review(&record, 2, budget).unwrap(), review(&record, 2, budget).unwrap());
    }
}
