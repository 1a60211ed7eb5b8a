//! `beginner`: a player who knows the rules and little else, for the first rung of the ladder.
//!
//! It plays plausibly (every play is one a new player makes) with the mistakes new players make: it leads
//! its lowest card, often alone, breaking a pair or a triple; it follows with the smallest play that beats,
//! even over its partner and even with a 2; it throws a bomb or the rocket at the first chance about half the
//! time; it never counts cards or plans its hand. In the auction it wants the landlord whenever it holds a
//! few high cards. Its choices are drawn from its own seeded generator, so a seed replays them.

use ddz_engine::{Action, Rank};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::table::{Table, plays};

/// How often a beginner leads its lowest card alone rather than the longest play that starts with it.
const LEADS_A_SINGLE: f64 = 0.7;
/// How often a beginner throws a bomb or the rocket as soon as one beats the play on the table.
const BOMBS_AT_ONCE: f64 = 0.5;
/// Card slots: the ranks 3 to 2, the jokers, the Wild (`ddz_engine::Counts`).
const SLOTS: usize = 16;

/// The index of the beginner's choice among `choices` (two or more).
pub fn choose(table: &Table, choices: &[Action], rng: &mut ChaCha8Rng) -> usize {
    let plays = plays(choices);
    if plays.is_empty() {
        return auction(table, choices);
    }
    let following = choices.iter().any(|a| matches!(a, Action::Pass { .. }));
    let (bombs, others): (Vec<(usize, &ddz_engine::Play)>, Vec<_>) =
        plays.into_iter().partition(|(_, p)| p.shape.is_bomb_or_rocket());
    if following {
        if !bombs.is_empty() && (others.is_empty() || rng.random_bool(BOMBS_AT_ONCE)) {
            // The first bomb that comes to hand, not the smallest.
            return bombs[rng.random_range(0..bombs.len())].0;
        }
        // The smallest play that beats, whatever it costs; a pass only when nothing but a bomb would do.
        return others.iter().min_by_key(|(_, p)| (p.main, p.len())).map_or_else(|| pass(choices), |(i, _)| *i);
    }
    let leads = if others.is_empty() { &bombs } else { &others };
    let lowest = leads.iter().map(|(_, p)| lowest_slot(p)).min().unwrap_or(0);
    let from_lowest = leads.iter().filter(|(_, p)| lowest_slot(p) == lowest);
    let chosen = if rng.random_bool(LEADS_A_SINGLE) {
        from_lowest.min_by_key(|(_, p)| (p.len(), p.main))
    } else {
        from_lowest.max_by_key(|(_, p)| (p.len(), std::cmp::Reverse(p.main)))
    };
    chosen.map_or(0, |(i, _)| *i)
}

/// The lowest card slot a play uses (a straight's bottom card, a pair's rank).
fn lowest_slot(play: &ddz_engine::Play) -> usize {
    play.cards.slots().next().map_or(0, |(slot, _)| slot)
}

fn pass(choices: &[Action]) -> usize {
    choices.iter().position(|a| matches!(a, Action::Pass { .. })).unwrap_or(0)
}

/// The auction: a beginner wants to be the landlord with three or more of the jokers, the Wild, 2s and aces,
/// and bids as high as the table lets it; with fewer it declines.
fn auction(table: &Table, choices: &[Action]) -> usize {
    let counts = table.hand.counts();
    let high = (Rank::ACE.index()..SLOTS).map(|slot| u32::from(counts.get(slot))).sum::<u32>();
    let wants = high >= 2;
    let keen = |a: &Action| match *a {
        Action::Take { .. } => Some(1),
        Action::Bid { bid, .. } => Some(i32::from(bid)),
        Action::Call { call, .. } => Some(i32::from(call)),
        Action::Rob { rob, .. } => Some(i32::from(rob)),
        Action::Pass { .. } => Some(0),
        _ => None,
    };
    let ranked = choices.iter().enumerate().filter_map(|(i, a)| keen(a).map(|k| (k, i)));
    let chosen = if wants { ranked.max() } else { ranked.min() };
    chosen.map_or(0, |(_, i)| i)
}
