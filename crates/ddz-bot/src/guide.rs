//! `guide-rule`: a rule-based player written from the advice of a common players' guide, independently of
//! RLCard's agent and of our own players (`ddz arena --b guide-rule`; not a table bot). It was held out
//! from `hard`'s tuning until its habit, keeping groups whole, joined the family of players `hard` models
//! its opponents as ([`crate::inference::Habit::WholeGroups`]): `hard`'s rollouts play that habit with
//! this player's [`trick_move`]. The held-out opponent is now [`crate::tempo`]'s.
//!
//! The guide's advice, as this player follows it:
//! - **Keep your groups whole.** A play that takes part of a rank the hand holds more of (a single out of a
//!   pair, a pair out of a triple) breaks a group; breaking a bomb, or splitting the rocket, costs most;
//!   the Wild is kept for the end.
//! - **Lead your weakest group**: the play that breaks nothing and starts lowest, the longest first (a
//!   straight or a plane before the pair or single at its bottom), a triple with the smallest free kicker;
//!   bombs and the rocket last. When an opponent holds one card, do not lead a single (two: a pair) while
//!   anything else can go; if nothing else can, lead the highest.
//! - **Follow with the smallest play of the trick's shape that keeps the hand whole.** Break a group only
//!   to stop an opponent close to going out (six cards or fewer) or to take a trick led with an ace or
//!   higher. Bomb only when an opponent is down to five cards or fewer, or when the bomb leaves the hand
//!   one play from the end.
//! - **Never beat your partner**, unless that goes out.
//! - **Go out** whenever one play empties the hand.
//! - **The auction**: count the hand's power (rocket 8, a bomb 6, big joker 4, small joker 3, the Wild 3,
//!   each 2 counts 2, each ace 1) and ask for as much as it is worth.
//!
//! It is deterministic: the same view and choices give the same decision.

use ddz_engine::{Action, Counts, Kind, Play, Rank, WILD_SLOT};

use crate::table::{Choice, Table, ask_for, fours, kickers, plays};

/// The index of the guide player's choice among `choices` (two or more).
pub fn choose(table: &Table, choices: &[Action]) -> usize {
    let plays = plays(choices);
    if plays.is_empty() {
        return auction(table, choices);
    }
    let opponent_low = (0..table.players())
        .filter(|&s| s != table.me && !partners(table, s))
        .map(|s| table.sizes[s])
        .min()
        .unwrap_or(usize::MAX);
    let facing = table.prior().map(|(seat, prior)| (partners(table, seat), prior));
    let pass = || choices.iter().position(|a| matches!(a, Action::Pass { .. })).unwrap_or(0);
    trick_move(table.counts(), &plays, facing, opponent_low).unwrap_or_else(pass)
}

/// The guide player's move in the play: the index (as `plays` gives it) of the play it makes, or `None`
/// to pass. `plays` are its legal plays; `facing` is the trick's play to beat, if any, and whether its
/// partner made it; `opponent_low` is the fewest cards an opponent holds. The search's rollouts play
/// opponents of this habit with it ([`crate::inference::Habit::WholeGroups`]).
pub fn trick_move(hand: Counts, plays: &[Choice], facing: Option<(bool, Play)>, opponent_low: usize) -> Option<usize> {
    if let Some(&(i, _)) = plays.iter().find(|(_, p)| p.len() == hand.total()) {
        return Some(i);
    }
    match facing {
        None => lead(plays, hand, opponent_low),
        Some((true, _)) => None,
        Some((false, prior)) => follow(plays, hand, prior, opponent_low),
    }
}

fn partners(table: &Table, seat: usize) -> bool {
    table.landlord.is_some_and(|l| l != seat && l != table.me)
}

fn is_bomb(play: &Play) -> bool {
    matches!(play.shape.kind, Kind::Bomb | Kind::Rocket)
}

/// How much of the hand's grouping a play undoes: 1 for each rank it takes part of, 4 for a bomb it takes
/// part of, 4 for a split rocket, 1 for using the Wild.
fn breaks(play: &Play, hand: Counts) -> u32 {
    let mut cost = 0;
    for (slot, n) in play.cards.slots() {
        let held = hand.get(slot);
        if slot < Rank::BLACK_JOKER.index() && n < held {
            cost += if held == 4 { 4 } else { 1 };
        }
        if slot == WILD_SLOT {
            cost += 1;
        }
    }
    let jokers = |cards: Counts| cards.of(Rank::BLACK_JOKER) + cards.of(Rank::RED_JOKER);
    let rocket = hand.of(Rank::BLACK_JOKER) > 0 && hand.of(Rank::RED_JOKER) > 0;
    if rocket && play.shape.kind != Kind::Rocket && jokers(play.cards) > 0 {
        cost += 4;
    }
    // A bomb played whole is no break: whether to bomb at all is decided apart.
    if is_bomb(play) { 0 } else { cost }
}

/// The lowest card slot a play uses.
fn bottom(play: &Play) -> usize {
    play.cards.slots().next().map_or(0, |(slot, _)| slot)
}

/// The bombs and rockets among `plays`, and the rest.
fn split_bombs<'a>(plays: &[Choice<'a>]) -> (Vec<Choice<'a>>, Vec<Choice<'a>>) {
    plays.iter().copied().partition(|(_, p)| is_bomb(p))
}

fn lead(plays: &[Choice], hand: Counts, opponent_low: usize) -> Option<usize> {
    let (bombs, others) = split_bombs(plays);
    let pool = if others.is_empty() { &bombs } else { &others };
    // Shapes an opponent about to go out can answer with their last cards.
    let dangerous = |p: &Play| match opponent_low {
        1 => p.shape.kind == Kind::Single,
        2 => matches!(p.shape.kind, Kind::Single | Kind::Pair),
        _ => false,
    };
    let safe: Vec<Choice> = pool.iter().copied().filter(|(_, p)| !dangerous(p)).collect();
    if safe.is_empty() {
        // Only shapes the opponent can answer: the highest of them.
        return pool.iter().max_by_key(|(_, p)| (p.main, p.len())).map(|(i, _)| *i);
    }
    let least = safe.iter().map(|(_, p)| breaks(p, hand)).min().unwrap_or(0);
    let whole = safe.iter().filter(|(_, p)| breaks(p, hand) == least);
    whole.min_by_key(|(_, p)| (bottom(p), std::cmp::Reverse(p.len()), kickers(p), p.main)).map(|(i, _)| *i)
}

fn follow(plays: &[Choice], hand: Counts, prior: Play, opponent_low: usize) -> Option<usize> {
    let (bombs, others) = split_bombs(plays);
    // The smallest play that beats, breaking at most `most`.
    let smallest = |most: u32| {
        let fitting = others.iter().filter(|(_, p)| breaks(p, hand) <= most);
        fitting.min_by_key(|(_, p)| (breaks(p, hand), p.main, kickers(p))).map(|(i, _)| *i)
    };
    if let Some(i) = smallest(0) {
        return Some(i);
    }
    let worth_breaking = opponent_low <= 6 || prior.main >= Rank::ACE;
    if worth_breaking && let Some(i) = smallest(3) {
        return Some(i);
    }
    // What a bomb leaves is one play: cards of a single rank at most.
    let near_the_end = |p: &Play| hand.checked_sub(p.cards).unwrap_or_default().slots().count() <= 1;
    let bomb = bombs
        .iter()
        .filter(|(_, p)| opponent_low <= 5 || near_the_end(p))
        .min_by_key(|(_, p)| (p.shape.kind == Kind::Rocket, p.strength, p.main));
    bomb.map(|(i, _)| *i)
}

/// The auction: the hand's power decides how much it asks for.
fn auction(table: &Table, choices: &[Action]) -> usize {
    let hand = table.counts();
    let (black, red) = (hand.of(Rank::BLACK_JOKER), hand.of(Rank::RED_JOKER));
    let rocket = black > 0 && red > 0;
    let power = if rocket { 8 } else { 4 * u32::from(red) + 3 * u32::from(black) }
        + 6 * fours(hand)
        + 3 * u32::from(hand.wild())
        + 2 * u32::from(hand.of(Rank::TWO))
        + u32::from(hand.of(Rank::ACE));
    let wanted = match power {
        0..=4 => 0,
        5..=6 => 1,
        7..=9 => 2,
        _ => 3,
    };
    // The highest ask up to what the hand is worth (a take, call or rob when it is worth any); else decline.
    ask_for(choices, wanted)
}
