//! RLCard 1.2.0's rule-based agent (`DouDizhuRuleAgentV1`), re-implemented: the research protocol's
//! classic yardstick, playable in process (`ddz arena --b rlcard-rule`, on every thread, no Python),
//! and the model of a simple player that `hard` assumes of its opponents ([`crate::inference`], the
//! rollouts in [`crate::search`]).
//!
//! It reads ranks only. Leading, it splits its hand as RLCard does (rocket, bombs, triples and triple
//! runs, straights, pairs, singles, in that order) and leads the first part holding its lowest card, a
//! triple bare. Following, it plays the smallest play of the trick's type (length and kickers included),
//! beating a partner too; with none, a farmer after a farmer passes, and otherwise it picks uniformly
//! among the distinct legal actions, passing and bombs included. RLCard's quirk is kept: the seat it
//! follows is the last seat to act, even when that seat passed. `scripts/rlcard_bot.py` runs the
//! original; `tests/rule_agent.rs` checks the two agree on recorded decisions.

use ddz_engine::{Action, Counts, DealView, Kind, Play, Seat};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// RLCard's rank slots: 3 to A are 0-11, the 2 is 12, the jokers 13 and 14.
const SLOTS: usize = 15;

/// Cards by rank slot, as the agent reads a hand or a play.
pub type Ranks = [u8; SLOTS];

/// What the agent does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This choice.
    Choice(usize),
    /// One of these (RLCard's `np.random.choice` over the distinct actions).
    AnyOf(Vec<usize>),
}

/// The agent's decision for this view among `choices`.
pub fn decide(view: &DealView, choices: &[Action]) -> Decision {
    let plays = choices.iter().enumerate().filter_map(|(i, c)| match c {
        Action::Play { play, .. } => Some((i, play)),
        _ => None,
    });
    // RLCard's quirk: it answers the last seat to act, even one that passed.
    let last_to_act = view.actions.iter().rev().find_map(|a| match a {
        Action::Play { seat, .. } | Action::Pass { seat } => Some(*seat),
        _ => None,
    });
    let facing = view.trick.as_ref().zip(last_to_act).map(|(trick, seat)| (seat, &trick.play));
    let hand = view.hand.unwrap_or_default().counts();
    match simple_move(hand, view.seat.unwrap_or(0), view.landlord, facing, plays) {
        SimpleMove::Play(index) => Decision::Choice(index),
        SimpleMove::Pass => {
            Decision::Choice(choices.iter().position(|c| matches!(c, Action::Pass { .. })).unwrap_or(0))
        }
        SimpleMove::Draw => {
            let mut distinct: Vec<usize> = Vec::new();
            for (index, choice) in choices.iter().enumerate() {
                if !distinct.iter().any(|&d| ranks(&choices[d]) == ranks(choice)) {
                    distinct.push(index);
                }
            }
            Decision::AnyOf(distinct)
        }
    }
}

/// The simple player's move at `seat` holding `hand`, among `plays` (its legal plays, by key), answering
/// `facing` (the seat it answers and the play to beat; `None` on a lead).
pub enum SimpleMove<K> {
    Play(K),
    Pass,
    /// Any legal action, passing included, at random.
    Draw,
}

pub fn simple_move<'a, K: Copy>(
    hand: Counts,
    seat: Seat,
    landlord: Option<Seat>,
    facing: Option<(Seat, &Play)>,
    plays: impl Iterator<Item = (K, &'a Play)> + Clone,
) -> SimpleMove<K> {
    let Some((answered, target)) = facing else {
        let part = lead_part(hand);
        let mut first = plays.clone().map(|(key, _)| key);
        let led = part.and_then(|part| plays.into_iter().find(|(_, p)| play_ranks(p) == part).map(|(key, _)| key));
        // Its part is always legal on a lead, save a bare triple where the table forbids one.
        return led.or_else(|| first.next()).map_or(SimpleMove::Pass, SimpleMove::Play);
    };
    if let Some(key) = smallest_of_type(plays, target) {
        SimpleMove::Play(key)
    } else if landlord.is_some_and(|l| answered != l && seat != l) {
        SimpleMove::Pass
    } else {
        SimpleMove::Draw
    }
}

/// The agent as a player: its decision, drawing where it draws.
pub fn choose(view: &DealView, choices: &[Action], rng: &mut ChaCha8Rng) -> usize {
    match decide(view, choices) {
        Decision::Choice(index) => index,
        Decision::AnyOf(indexes) => indexes[rng.random_range(0..indexes.len())],
    }
}

/// What it leads from `hand`: the first part of its split holding its lowest card, found without
/// building the split (the search asks this of every drawn deal; the tests check it against a literal
/// port of RLCard's `combine_cards`).
pub fn lead_part(hand: Counts) -> Option<Ranks> {
    let lowest = (0..SLOTS).find(|&s| hand.get(s) > 0)?;
    let count = |s: usize| hand.get(s);
    let mut part = [0u8; SLOTS];
    if lowest == 13 && count(14) == 1 {
        part[13] = 1;
        part[14] = 1;
    } else if count(lowest) == 4 {
        part[lowest] = 4;
    } else if count(lowest) == 3 {
        // A triple run from the lowest rank up, never through the 2.
        part[lowest] = 3;
        let mut slot = lowest + 1;
        while lowest < 12 && slot < 12 && count(slot) == 3 {
            part[slot] = 3;
            slot += 1;
        }
    } else {
        // With bombs and triples set aside, a stretch of five or more ranks from the lowest is a straight.
        let end = (lowest..12).find(|&s| matches!(count(s), 0 | 3 | 4)).unwrap_or(12.max(lowest));
        if end >= lowest + 5 {
            part[lowest..end].fill(1);
        } else {
            part[lowest] = count(lowest);
        }
    }
    Some(part)
}

/// Of `plays` (with their keys), the first of the smallest that has `target`'s type.
fn smallest_of_type<'a, K>(plays: impl Iterator<Item = (K, &'a Play)>, target: &Play) -> Option<K> {
    let mut chosen: Option<(K, usize)> = None;
    for (key, play) in plays {
        if same_type(play, target) && chosen.as_ref().is_none_or(|(_, rank)| play.main.index() < *rank) {
            chosen = Some((key, play.main.index()));
        }
    }
    chosen.map(|(key, _)| key)
}

/// RLCard's card type: the shape (length and kickers); every bomb is one type, the rocket another.
fn same_type(a: &Play, b: &Play) -> bool {
    match (a.shape.kind, b.shape.kind) {
        (Kind::Bomb, Kind::Bomb) | (Kind::Rocket, Kind::Rocket) => true,
        _ => a.shape == b.shape,
    }
}

/// A play's cards by rank slot.
pub fn play_ranks(play: &Play) -> Ranks {
    std::array::from_fn(|s| play.cards.get(s))
}

/// An action's ranks, as RLCard names an action (`None` for a pass).
fn ranks(action: &Action) -> Option<Ranks> {
    match action {
        Action::Play { play, .. } => Some(play_ranks(play)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RLCard's `combine_cards`: the hand's parts in the order it searches them for its lowest card.
    pub(super) fn split(hand: Counts) -> Vec<Ranks> {
        let mut left: Ranks = std::array::from_fn(|s| hand.get(s));
        let mut parts = Vec::new();
        let of = |slot: usize, n: u8| {
            let mut part = [0u8; SLOTS];
            part[slot] = n;
            part
        };
        if left[13] == 1 && left[14] == 1 {
            let mut rocket = of(13, 1);
            rocket[14] = 1;
            parts.push(rocket);
            left[13] = 0;
            left[14] = 0;
        }
        for (slot, count) in left.iter_mut().enumerate() {
            if *count == 4 {
                parts.push(of(slot, 4));
                *count = 0;
            }
        }
        // Triples, each joined to the one just below it into a run (never with the 2).
        let mut triples: Vec<Ranks> = Vec::new();
        let mut last: Option<usize> = None;
        for (slot, count) in left.iter_mut().enumerate() {
            if *count == 3 {
                match triples.last_mut() {
                    Some(run) if slot < 12 && last.is_some_and(|l| l + 1 == slot) => run[slot] = 3,
                    _ => triples.push(of(slot, 3)),
                }
                last = Some(slot);
                *count = 0;
            }
        }
        let ranks_in = |part: &Ranks| part.iter().filter(|&&n| n > 0).count();
        parts.extend(triples.iter().filter(|t| ranks_in(t) == 1));
        parts.extend(triples.iter().filter(|t| ranks_in(t) > 1));
        // Straights: each stretch of five or more ranks among 3-A, as many times as its thinnest rank
        // allows. (RLCard then looks for pair runs in what is left, where none can remain.)
        let mut start = 0;
        while start < 12 {
            if left[start] == 0 {
                start += 1;
                continue;
            }
            let end = (start..12).find(|&s| left[s] == 0).unwrap_or(12);
            if end - start >= 5 {
                let thinnest = left[start..end].iter().copied().min().unwrap_or(0);
                let mut straight = [0u8; SLOTS];
                for slot in start..end {
                    straight[slot] = 1;
                    left[slot] -= thinnest;
                }
                parts.extend(std::iter::repeat_n(straight, thinnest as usize));
            }
            start = end;
        }
        parts.extend((0..SLOTS).filter(|&s| left[s] == 2).map(|s| of(s, 2)));
        parts.extend((0..SLOTS).filter(|&s| left[s] == 1).map(|s| of(s, 1)));
        parts
    }

    fn ranks_of(text: &str) -> Ranks {
        let counts: Counts = text.parse().expect("ranks");
        std::array::from_fn(|s| counts.get(s))
    }

    fn parts(hand: &str) -> Vec<Ranks> {
        split(hand.parse().expect("hand"))
    }

    #[test]
    fn the_split_takes_the_rocket_then_bombs_triple_runs_straights_pairs_and_singles() {
        let expected: Vec<Ranks> =
            ["BR", "9999", "333444", "TJQKA", "5", "6", "7", "8", "J", "2"].into_iter().map(ranks_of).collect();
        assert_eq!(parts("33344456789999TJJQKA2BR"), expected);
    }

    #[test]
    fn a_lone_triple_comes_before_a_triple_run_and_the_2_joins_no_run() {
        let expected: Vec<Ranks> = ["666", "AAA", "222", "333444"].into_iter().map(ranks_of).collect();
        assert_eq!(parts("333444666AAA222"), expected);
    }

    #[test]
    fn a_straight_is_taken_as_often_as_its_thinnest_rank_allows() {
        assert_eq!(parts("3344556677"), vec![ranks_of("34567"), ranks_of("34567")]);
        assert_eq!(parts("34567789"), vec![ranks_of("3456789"), ranks_of("7")]);
    }

    #[test]
    fn the_lead_part_is_the_splits_first_part_holding_the_lowest_card_for_any_hand() {
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
        for _ in 0..20_000 {
            let mut hand = Counts::EMPTY;
            for slot in 0..13 {
                hand = hand.plus(slot, rng.random_range(0..=4));
            }
            for slot in 13..15 {
                hand = hand.plus(slot, rng.random_range(0..=1));
            }
            let lowest = (0..SLOTS).find(|&s| hand.get(s) > 0);
            let expected = lowest.and_then(|low| split(hand).into_iter().find(|part| part[low] > 0));
            assert_eq!(lead_part(hand), expected, "{hand}");
        }
    }

    #[test]
    fn the_lead_is_the_first_part_holding_the_lowest_card() {
        assert_eq!(lead_part("33JJQQKKA".parse().expect("hand")), Some(ranks_of("33")));
        assert_eq!(lead_part("33344456789999TJJQKA2BR".parse().expect("hand")), Some(ranks_of("333444")));
        assert_eq!(lead_part("5666789".parse().expect("hand")), Some(ranks_of("5")));
        assert_eq!(lead_part(Counts::EMPTY), None);
    }
}
