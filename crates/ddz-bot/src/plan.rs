//! Hand planning: how many plays a hand needs to be played out, and how much control it keeps.
//!
//! [`min_plays`] splits a hand into the fewest plays: it tries taking out every straight, pair run and
//! triple run, and counts what is left as bombs, triples (each carrying one single or one pair),
//! pairs and singles. [`Evaluator`] turns that into a value; [`PlanEvaluator`] is the hand-written one,
//! and a learned model can stand behind the same trait later.

use std::collections::HashMap;

use ddz_engine::{Counts, Rules, WILD_SLOT};

/// Fewest plays by hand (its counts packed in a word). Keyed by a few bytes, which SipHash, the standard
/// hasher, spends far longer on than the lookup needs.
pub type Memo = HashMap<u64, u8, foldhash::fast::FixedState>;

/// A hand's value to its holder: higher is better. Used to compare what is left after each candidate.
pub trait Evaluator {
    fn value(&mut self, rules: &Rules, hand: Counts) -> f32;
}

/// The hand-written evaluator: ten points per play the hand still needs, plus its control cards.
#[derive(Default)]
pub struct PlanEvaluator {
    memo: Memo,
}

impl PlanEvaluator {
    pub fn new() -> PlanEvaluator {
        PlanEvaluator::default()
    }

    /// The fewest plays `hand` can be played out in (memoised across calls).
    pub fn min_plays(&mut self, rules: &Rules, hand: Counts) -> u8 {
        min_plays(rules, hand, &mut self.memo)
    }
}

impl Evaluator for PlanEvaluator {
    fn value(&mut self, rules: &Rules, hand: Counts) -> f32 {
        if self.memo.len() > 50_000 {
            self.memo.clear();
        }
        -10.0 * f32::from(self.min_plays(rules, hand)) + control(hand)
    }
}

/// Cards that win tricks late: 2s, jokers, bombs and the rocket.
pub fn control(hand: Counts) -> f32 {
    let twos = f32::from(hand.get(12));
    let black = f32::from(hand.get(13));
    let red = f32::from(hand.get(14));
    let bombs = (0..13).filter(|&s| hand.get(s) == 4).count() as f32;
    let rocket = if black + red == 2.0 { 2.0 } else { 0.0 };
    1.5 * twos + 2.0 * black + 3.0 * red + 4.0 * bombs + rocket + 2.0 * f32::from(hand.get(WILD_SLOT))
}

/// The fewest plays `hand` can be played out in, free leads assumed (wild cards counted as singles that
/// can fill a gap).
pub fn min_plays(rules: &Rules, hand: Counts, memo: &mut Memo) -> u8 {
    if let Some(&known) = memo.get(&hand.0) {
        return known;
    }
    let mut counts = [0u8; 16];
    for (slot, n) in counts.iter_mut().enumerate() {
        *n = hand.get(slot);
    }
    let mut best = loose_plays(&counts, 0);
    let (low, top) = (rules.lowest.index(), rules.run_top.index());
    for (per, min_len) in [(1u8, 5usize), (2, 3), (3, 2)] {
        for start in low..=top {
            let mut end = start;
            while end <= top && counts[end] >= per {
                let len = end + 1 - start;
                if len >= min_len {
                    let mut rest = hand;
                    for s in start..=end {
                        rest = rest.with(s, hand.get(s) - per);
                    }
                    // A triple run carries as many singles or pairs as it has triples.
                    let plays = if per == 3 {
                        1 + carried_plays(rules, rest, len, memo)
                    } else {
                        1 + min_plays(rules, rest, memo)
                    };
                    best = best.min(plays);
                }
                end += 1;
            }
        }
    }
    memo.insert(hand.0, best);
    best
}

/// Plays for `rest` when a triple run just taken out carries `wings` attachments.
fn carried_plays(rules: &Rules, rest: Counts, wings: usize, memo: &mut Memo) -> u8 {
    let mut counts = [0u8; 16];
    for (slot, n) in counts.iter_mut().enumerate() {
        *n = rest.get(slot);
    }
    loose_plays(&counts, wings).min(min_plays(rules, rest, memo))
}

/// Plays for cards taken as bombs, rocket, triples (each carrying a single or a pair), pairs and
/// singles, with `extra` more attachment places from a triple run.
fn loose_plays(counts: &[u8; 16], extra: usize) -> u8 {
    let (mut bombs, mut triples, mut pairs, mut singles) = (0usize, 0usize, 0usize, 0usize);
    for &n in &counts[..13] {
        match n {
            4 => bombs += 1,
            3 => triples += 1,
            2 => pairs += 1,
            1 => singles += 1,
            _ => {}
        }
    }
    let rocket = counts[13] == 1 && counts[14] == 1;
    if rocket {
        bombs += 1;
    } else {
        singles += usize::from(counts[13]) + usize::from(counts[14]);
    }
    // The Wild turns a single into a pair, or is itself a kicker.
    if counts[WILD_SLOT] > 0 {
        if singles > 0 {
            singles -= 1;
            pairs += 1;
        } else {
            singles += 1;
        }
    }
    let places = triples + extra;
    let carried_singles = singles.min(places);
    let carried_pairs = pairs.min(places - carried_singles);
    (bombs + triples + singles - carried_singles + pairs - carried_pairs) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plays(rules: Rules, hand: &str) -> u8 {
        min_plays(&rules, hand.parse().unwrap(), &mut Memo::default())
    }

    #[test]
    fn a_straight_is_one_play() {
        assert_eq!(plays(Rules::no_shuffle(false), "34567"), 1);
        assert_eq!(plays(Rules::no_shuffle(false), "345678K"), 2);
    }

    #[test]
    fn a_triple_carries_the_lowest_junk() {
        assert_eq!(plays(Rules::no_shuffle(false), "3999"), 1);
        assert_eq!(plays(Rules::no_shuffle(false), "33999"), 1);
        assert_eq!(plays(Rules::no_shuffle(false), "34999"), 2);
    }

    #[test]
    fn an_airplane_carries_two_wings() {
        assert_eq!(plays(Rules::no_shuffle(false), "333444KA"), 1);
    }

    #[test]
    fn house_runs_reach_the_two() {
        assert_eq!(plays(Rules::house(false), "TJQKA2"), 1);
        assert_eq!(plays(Rules::no_shuffle(false), "TJQKA2"), 2);
    }

    #[test]
    fn bombs_and_rocket_are_one_play_each() {
        assert_eq!(plays(Rules::no_shuffle(false), "3333BR"), 2);
    }
}
