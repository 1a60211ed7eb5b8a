//! `tempo-rule`: a second rule-based player, written from a different strategy guide than
//! [`crate::guide`]'s (one that preaches momentum and card counting), independently of RLCard's agent and
//! of our own players. It is the opponent held out from everything `hard` is tuned on, its habits
//! included: `hard`'s family of modelled players ([`crate::inference::Habit`]) has no member like it.
//! (`ddz arena --b tempo-rule`; not a table bot.)
//!
//! The advice, as this player follows it:
//! - **Keep the momentum**: lead your strongest combination, the one that sheds the most cards (a plane
//!   or a long straight before a pair), the lowest among equals, with the smallest kickers. Bombs and the
//!   rocket are no leads while anything else can go.
//! - **Watch the opponent about to go out**: when one holds one or two cards, lead nothing they can
//!   answer by count (no single to one card, no pair to two) while anything else can go.
//! - **Keep control with mid cards**: beat an opponent with the smallest play that beats, whatever it
//!   splits, but spend a 2 or a joker only on an ace or higher, or against an opponent down to four
//!   cards; and a card you know is the highest left (every higher card has been played) takes a trick led
//!   with a queen or higher.
//! - **Save bombs for the critical moment**: bomb only an opponent down to four cards or fewer.
//! - **Help your partner finish**: never beat your partner's play; lead a single when your partner holds
//!   one card, a pair when it holds two, if you can.
//! - **Bid on control**: count the 2s, jokers and bombs (a 2 counts 1, the small joker 1, the big joker 2,
//!   a bomb or the Wild 2) and ask for 1 at 3, 2 at 4, 3 at 6 or more.
//!
//! It is deterministic: the same view and choices give the same decision.

use ddz_engine::{Action, Kind, Play, Rank};

use crate::table::{Choice, Table, ask_for, fours, kickers, plays};

/// The index of the tempo player's choice among `choices` (two or more).
pub fn choose(table: &Table, choices: &[Action]) -> usize {
    let plays = plays(choices);
    if plays.is_empty() {
        return auction(table, choices);
    }
    let hand = table.counts();
    if let Some(&(i, _)) = plays.iter().find(|(_, p)| p.len() == hand.total()) {
        return i;
    }
    let pass = choices.iter().position(|a| matches!(a, Action::Pass { .. }));
    let partner = |seat: usize| table.landlord.is_some_and(|l| seat != l && seat != table.me && table.me != l);
    let opponent_low = (0..table.players())
        .filter(|&s| s != table.me && !partner(s))
        .map(|s| table.sizes[s])
        .min()
        .unwrap_or(usize::MAX);
    let partner_size = (0..table.players()).find(|&s| partner(s)).map(|s| table.sizes[s]);
    match table.prior() {
        None => lead(&plays, opponent_low, partner_size),
        Some((seat, _)) if partner(seat) => pass.unwrap_or(0),
        Some((_, prior)) => follow(table, &plays, &prior, opponent_low).or(pass).unwrap_or(0),
    }
}

fn lead(plays: &[Choice], opponent_low: usize, partner_size: Option<usize>) -> usize {
    let (bombs, others): (Vec<Choice>, Vec<Choice>) = plays.iter().partition(|(_, p)| p.shape.is_bomb_or_rocket());
    let pool = if others.is_empty() { &bombs } else { &others };
    // Feed a partner about to go out the shape it can finish with.
    let feeds = |p: &Play| match partner_size {
        Some(1) => p.shape.kind == Kind::Single,
        Some(2) => p.shape.kind == Kind::Pair,
        _ => false,
    };
    if let Some((i, _)) = pool.iter().filter(|(_, p)| feeds(p)).min_by_key(|(_, p)| p.main) {
        return *i;
    }
    let answerable = |p: &Play| opponent_low <= 2 && p.len() as usize == opponent_low;
    let safe: Vec<Choice> = pool.iter().copied().filter(|(_, p)| !answerable(p)).collect();
    let pool = if safe.is_empty() { pool } else { &safe };
    let strongest = pool.iter().min_by_key(|(_, p)| (std::cmp::Reverse(p.len()), p.main, kickers(p)));
    strongest.map_or(0, |(i, _)| *i)
}

fn follow(table: &Table, plays: &[Choice], prior: &Play, opponent_low: usize) -> Option<usize> {
    let (bombs, others): (Vec<Choice>, Vec<Choice>) = plays.iter().partition(|(_, p)| p.shape.is_bomb_or_rocket());
    let urgent = opponent_low <= 4;
    // The highest single left: no unseen card above it.
    let boss = |p: &Play| {
        p.shape.kind == Kind::Single && table.unseen.iter().all(|card| card.rank().is_none_or(|rank| rank <= p.main))
    };
    let spends_control = |p: &Play| p.cards.slots().any(|(slot, _)| slot >= Rank::TWO.index());
    let allowed =
        |p: &Play| !spends_control(p) || urgent || prior.main >= Rank::ACE || (boss(p) && prior.main >= Rank::QUEEN);
    let smallest = others.iter().filter(|(_, p)| allowed(p)).min_by_key(|(_, p)| (p.main, kickers(p)));
    if let Some((i, _)) = smallest {
        return Some(*i);
    }
    let bomb = bombs.iter().filter(|_| urgent).min_by_key(|(_, p)| (p.shape.kind == Kind::Rocket, p.strength, p.main));
    bomb.map(|(i, _)| *i)
}

/// The auction: the hand's control cards decide how much it asks for.
fn auction(table: &Table, choices: &[Action]) -> usize {
    let hand = table.counts();
    let control = u32::from(hand.of(Rank::TWO))
        + u32::from(hand.of(Rank::BLACK_JOKER))
        + 2 * u32::from(hand.of(Rank::RED_JOKER))
        + 2 * u32::from(hand.wild())
        + 2 * fours(hand);
    let wanted = match control {
        0..=2 => 0,
        3 => 1,
        4..=5 => 2,
        _ => 3,
    };
    ask_for(choices, wanted)
}
