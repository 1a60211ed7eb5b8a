//! Every reading of a set of cards (RULES.md section 3), written to follow the text of the rules rather
//! than to be fast. It is the reference that the fast generator in [`crate::movegen`] is tested against,
//! and what the server uses to check the one play a player submits.
//!
//! Method: try every way the wild cards could stand in, and read the resulting ranks against each play
//! type's definition. A wild card used as a single attachment is read as its own rank (the House Wild as
//! itself); where its own rank is one of the play's triples, as the lowest rank that is not. An attached
//! pair made of two wild-rank cards is a pair of their own rank (which is then never a core rank: the
//! core would have used three or four of them); when all four wild-rank cards are attached as two pairs
//! (RULES.md 3.3: a wild card counts as the rank it stands for, an attachment included), the second pair
//! stands for the lowest rank that is free (not a core rank, not the wild rank, not another pair's). Both
//! are **\[decision\]**s, so that a set of cards never has two readings that differ only in what a loose
//! attachment stands for.

use crate::card::{Counts, Rank, WILD_SLOT};
use crate::play::{Attach, Kind, Play, Shape, Strength};
use crate::rules::{Rules, Wilds};

/// Why a set of cards is not a play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("no cards were played")]
    Empty,
    #[error("the Wild cannot be played alone")]
    WildAlone,
    #[error("the Wild with both jokers is not a play: a rocket is exactly two cards")]
    WildWithBothJokers,
    #[error("four in a row is not a straight: a straight needs five cards or more")]
    FourInARow,
    #[error("2s and jokers do not form straights or runs at this table")]
    TwoOrJokerInRun,
    #[error("{0}")]
    NotInDeck(String),
    #[error("{0} is not a play")]
    NoReading(String),
}

/// Every reading of `cards` under `rules` (the drawn wild rank, if any, set in `rules`), sorted and
/// distinct; or why there is none.
///
/// ```
/// use ddz_engine::{readings, PlayError, Rules};
/// let house = Rules::house(true);
/// assert_eq!(readings(&house, "4567W".parse().unwrap()).unwrap().len(), 2);
/// assert_eq!(readings(&house, "W".parse().unwrap()), Err(PlayError::WildAlone));
/// assert_eq!(readings(&house, "3456".parse().unwrap()), Err(PlayError::FourInARow));
/// ```
pub fn readings(rules: &Rules, cards: Counts) -> Result<Vec<Play>, PlayError> {
    check_deck(rules, cards)?;
    let mut plays = Vec::new();
    match rules.wilds {
        Wilds::TheWild if cards.wild() == 1 => {
            let natural = cards.with(WILD_SLOT, 0);
            for stand_in in 0..16 {
                read_with(rules, cards, natural, Counts::EMPTY.plus(stand_in, 1), &mut plays);
            }
        }
        Wilds::Rank(wild) if cards.of(wild) > 0 => {
            let natural = cards.with(wild.index(), 0);
            let choices: Vec<usize> = rules.wild_rank_choices().map(Rank::index).collect();
            for_each_multiset(&choices, cards.of(wild), Counts::EMPTY, &mut |stand_ins| {
                read_with(rules, cards, natural, stand_ins, &mut plays);
            });
        }
        _ => read_with(rules, cards, cards, Counts::EMPTY, &mut plays),
    }
    plays.sort();
    plays.dedup();
    if plays.is_empty() {
        return Err(why_not(rules, cards));
    }
    Ok(plays)
}

fn check_deck(rules: &Rules, cards: Counts) -> Result<(), PlayError> {
    if cards.is_empty() {
        return Err(PlayError::Empty);
    }
    if cards.wild() > 0 && rules.wilds != Wilds::TheWild {
        return Err(PlayError::NotInDeck(format!("there is no Wild at a {rules} table")));
    }
    for (slot, n) in cards.slots() {
        let limit = if slot < 13 { 4 } else { 1 };
        if n > limit {
            return Err(PlayError::NotInDeck(format!("a deck has only {limit} of {}", Counts::EMPTY.plus(slot, 1))));
        }
        if slot < 13 && !rules.has_rank(Rank::ALL[slot]) {
            return Err(PlayError::NotInDeck(format!("there are no {}s at a {rules} table", Rank::ALL[slot])));
        }
    }
    Ok(())
}

/// Calls `f` with every multiset of `size` slots drawn from `choices` (with repetition), added to `acc`.
fn for_each_multiset(choices: &[usize], size: u8, acc: Counts, f: &mut impl FnMut(Counts)) {
    match (size, choices.split_first()) {
        (0, _) => f(acc),
        (_, None) => {}
        (_, Some((&first, rest))) => {
            for_each_multiset(choices, size - 1, acc.plus(first, 1), f);
            for_each_multiset(rest, size, acc, f);
        }
    }
}

/// Reads `natural + stand_ins` (what the wild cards in `cards` are taken to be) and keeps the readings in
/// which the wild cards are used as the rules allow.
fn read_with(rules: &Rules, cards: Counts, natural: Counts, stand_ins: Counts, out: &mut Vec<Play>) {
    let Some(effective) = add(natural, stand_ins) else {
        return;
    };
    for (shape, main) in classify(rules, effective) {
        let core = core_slots(shape, main);
        let wild_as = match rules.wilds {
            Wilds::TheWild if stand_ins.is_empty() => Counts::EMPTY,
            Wilds::TheWild => {
                let (slot, _) = stand_ins.slots().next().expect("one stand-in");
                let as_itself = slot == WILD_SLOT;
                let in_core = core & (1 << slot) != 0;
                let in_rocket = shape.kind == Kind::Rocket;
                let as_joker = slot == 13 || slot == 14;
                let in_pair = matches!(shape.attach, Attach::Pairs(_));
                // The Wild stands in inside the core or half an attached pair, for a joker only in a
                // rocket, and as a single attachment it is just itself.
                let allowed = if natural.is_empty() {
                    false // the Wild is never played alone
                } else if as_itself {
                    true
                } else if as_joker {
                    in_rocket
                } else {
                    in_core || in_pair
                };
                if !allowed {
                    continue;
                }
                if as_itself { Counts::EMPTY } else { stand_ins }
            }
            Wilds::Rank(wild) => {
                if natural.is_empty() && stand_ins.slots().any(|(s, _)| s != wild.index()) {
                    continue; // only wild cards: each is its own rank
                }
                if let Attach::Pairs(_) = shape.attach {
                    let mut wild_pairs =
                        stand_ins.slots().filter(|&(s, n)| n == 2 && s != wild.index() && core & (1 << s) == 0);
                    let own_pair = stand_ins.get(wild.index()) == 2 && core & (1 << wild.index()) == 0;
                    match (wild_pairs.next(), wild_pairs.next()) {
                        (None, _) => {}
                        // Four wild cards as two pairs: one is their own rank, the other the lowest free rank.
                        (Some((s, _)), None) if own_pair && s == canonical_pair(rules, wild, core, natural) => {}
                        _ => continue, // a pair of wild cards alone, as an attachment, is a pair of their own rank
                    }
                }
                if let Attach::Singles(_) = shape.attach {
                    let canonical = canonical_single(rules, wild, core);
                    if stand_ins.slots().any(|(s, _)| core & (1 << s) == 0 && s != canonical) {
                        continue;
                    }
                }
                stand_ins.with(wild.index(), 0)
            }
            _ => Counts::EMPTY,
        };
        let strength = match (shape.kind, rules.wilds) {
            (Kind::Bomb, Wilds::Rank(wild)) if main == wild => Strength::PureWild,
            (Kind::Bomb, Wilds::Rank(_)) if !wild_as.is_empty() => Strength::Soft,
            _ => Strength::Natural,
        };
        out.push(Play { shape, main, strength, cards, wild_as });
    }
}

/// The rank a wild-rank card used as a single attachment is read as: its own rank, or the lowest rank
/// that is not one of the play's core ranks.
pub(crate) fn canonical_single(rules: &Rules, wild: Rank, core: u16) -> usize {
    if core & (1 << wild.index()) == 0 {
        return wild.index();
    }
    rules.wild_rank_choices().map(Rank::index).find(|&s| core & (1 << s) == 0).expect("a core never holds every rank")
}

/// The rank a second pair of wild-rank cards stands for when all four are attached as two pairs (the
/// first is a pair of their own rank): the lowest rank that is not a core rank, not the wild rank, and not
/// the rank of another attached pair (`natural` holds the play's natural cards).
pub(crate) fn canonical_pair(rules: &Rules, wild: Rank, core: u16, natural: Counts) -> usize {
    rules
        .wild_rank_choices()
        .map(Rank::index)
        .find(|&s| core & (1 << s) == 0 && s != wild.index() && natural.get(s) == 0)
        .expect("two pairs and a core never hold every rank")
}

/// The slots of the core of a play as a bit mask (for a rocket, both jokers).
pub(crate) fn core_slots(shape: Shape, main: Rank) -> u16 {
    match shape.kind {
        Kind::Rocket => 0b11 << 13,
        _ => run_mask(main.index() + 1 - shape.len as usize, main.index()),
    }
}

/// The slots `low..=high` as a bit mask.
pub(crate) const fn run_mask(low: usize, high: usize) -> u16 {
    ((1u32 << (high + 1)) - (1u32 << low)) as u16
}

fn add(a: Counts, b: Counts) -> Option<Counts> {
    let mut sum = a;
    for (slot, n) in b.slots() {
        let total = sum.get(slot) + n;
        if total > 4 {
            return None;
        }
        sum = sum.with(slot, total);
    }
    Some(sum)
}

/// Every (shape, main rank) that the plain ranks `e` form under `rules`. Slot 15 (the Wild as itself)
/// may only be a single attachment.
fn classify(rules: &Rules, e: Counts) -> Vec<(Shape, Rank)> {
    let n = e.total() as u8;
    let mut found = Vec::new();
    let ranks: Vec<(usize, u8)> = e.slots().collect();
    let only = |count: u8| ranks.len() == 1 && ranks[0].1 == count && ranks[0].0 < 13;
    let rank = |slot: usize| Rank::ALL[slot];
    match n {
        1 if ranks[0].0 < 15 => found.push((Shape::new(Kind::Single, 1, Attach::None), rank(ranks[0].0))),
        2 if only(2) => found.push((Shape::new(Kind::Pair, 1, Attach::None), rank(ranks[0].0))),
        2 if e.get(13) == 1 && e.get(14) == 1 => {
            found.push((Shape::new(Kind::Rocket, 1, Attach::None), Rank::RED_JOKER))
        }
        4 if only(4) => found.push((Shape::new(Kind::Bomb, 1, Attach::None), rank(ranks[0].0))),
        _ => {}
    }
    let consecutive = |per: u8| -> Option<(usize, usize)> {
        let (low, high) = (ranks.first()?.0, ranks.last()?.0);
        let ok = ranks.iter().all(|&(s, c)| c == per && s <= rules.run_top.index())
            && high - low + 1 == ranks.len()
            && low >= rules.lowest.index();
        ok.then_some((low, high))
    };
    if n >= 5
        && let Some((low, high)) = consecutive(1)
    {
        found.push((Shape::new(Kind::Straight, (high - low + 1) as u8, Attach::None), rank(high)));
    }
    if n >= 6
        && let Some((low, high)) = consecutive(2)
    {
        found.push((Shape::new(Kind::PairRun, (high - low + 1) as u8, Attach::None), rank(high)));
    }
    for len in 1..=n / 3 {
        let top_limit = if len == 1 { Rank::TWO } else { rules.run_top };
        for high in (rules.lowest.index() + len as usize - 1)..=top_limit.index() {
            let low = high + 1 - len as usize;
            if (low..=high).any(|s| e.get(s) < 3) {
                continue;
            }
            let mut rest = e;
            for s in low..=high {
                rest = rest.with(s, e.get(s) - 3);
            }
            let core = run_mask(low, high);
            if let Some(attach) = triple_attachments(rules, len, rest, core) {
                found.push((Shape::new(Kind::Triples, len, attach), rank(high)));
            }
        }
    }
    if rules.four_with_two && (n == 6 || n == 8) {
        for (slot, _) in ranks.iter().filter(|&&(s, c)| c == 4 && s < 13) {
            let rest = e.with(*slot, 0);
            let attach = if n == 6 { Attach::Singles(2) } else { Attach::Pairs(2) };
            if attachments_ok(rules, attach, rest, 1 << slot) {
                found.push((Shape::new(Kind::FourWithTwo, 1, attach), rank(*slot)));
            }
        }
    }
    found
}

fn triple_attachments(rules: &Rules, len: u8, rest: Counts, core: u16) -> Option<Attach> {
    let n = rest.total() as u8;
    let attach = if n == 0 {
        Attach::None
    } else if n == 2 * len {
        Attach::Pairs(len)
    } else if n == len || (rules.any_number_of_singles && n < len) {
        Attach::Singles(n)
    } else {
        return None;
    };
    attachments_ok(rules, attach, rest, core).then_some(attach)
}

/// Whether `rest` is a legal attachment of kind `attach` to a core over the slots in `core`.
fn attachments_ok(rules: &Rules, attach: Attach, rest: Counts, core: u16) -> bool {
    if rest.slots().any(|(s, _)| core & (1 << s) != 0) {
        return false; // never the rank of one of the play's own triples or four
    }
    match attach {
        Attach::None => rest.is_empty(),
        Attach::Singles(_) => rules.jokers_attach_together || rest.get(13) == 0 || rest.get(14) == 0,
        Attach::Pairs(pairs) => rest.slots().all(|(s, c)| s < 13 && c == 2) && rest.slots().count() == pairs as usize,
    }
}

fn why_not(rules: &Rules, cards: Counts) -> PlayError {
    let slots: Vec<(usize, u8)> = cards.slots().collect();
    let wild = cards.wild();
    if wild == 1 && slots.len() == 1 {
        return PlayError::WildAlone;
    }
    if wild == 1 && cards.get(13) == 1 && cards.get(14) == 1 && cards.total() == 3 {
        return PlayError::WildWithBothJokers;
    }
    let distinct_consecutive = slots.iter().all(|&(s, c)| c == 1 && s < 13)
        && slots.last().map(|l| l.0) == slots.first().map(|f| f.0 + slots.len() - 1);
    if cards.total() == 4 && distinct_consecutive {
        return PlayError::FourInARow;
    }
    let reaches_past_run_top = slots.iter().any(|&(s, _)| s > rules.run_top.index());
    let uniform = slots.windows(2).all(|w| w[0].1 == w[1].1 && w[1].0 == w[0].0 + 1);
    if cards.total() >= 5 && uniform && reaches_past_run_top {
        return PlayError::TwoOrJokerInRun;
    }
    PlayError::NoReading(cards.to_string())
}
