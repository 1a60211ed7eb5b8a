//! Golden legal-play counts ("perft" for Dou Dizhu): for fixed hands of every table type, as a free
//! lead and against fixed plays, the exact number of plays `legal_plays_vec` generates. The positions
//! and counts are in `tests/data/golden_counts.txt` (its header documents the format).
//!
//! The counts were computed once with the engine and cross-checked against a brute-force enumeration
//! (every sub-multiset of the hand through `readings`). These small positions were also counted by
//! hand before the file was written; each is in the data file and asserted again below:
//!
//! - No Shuffle `33345`, free lead = 7: singles 3, 4, 5; pair 33; triple 333; 333+4; 333+5.
//! - No Shuffle `3456`, free lead = 4: the four singles (four in a row is not a straight).
//! - No Shuffle `333444`, free lead = 11: singles 3, 4; pairs 33, 44; triples 333, 444; 333+4, 444+3;
//!   333+44, 444+33; the bare airplane 333444 (no cards left for wings).
//! - No Shuffle `333355`, free lead = 9: singles 3, 5; pairs 33, 55; 333; 333+5; 333+55; bomb 3333;
//!   four + two 3333+55 (two singles that happen to pair).
//! - No Shuffle `3333BR`, free lead = 9: singles 3, B, R; 33; 333; 333+B; 333+R; bomb 3333; rocket.
//!   Not 3333+B+R: both jokers are never attachments together.
//! - No Shuffle `444456` on four + two `3333`+`78` = 2: four 4s + 5 6, and the bomb 4444.
//! - No Shuffle `445566` on pair 55 = 1: pair 66.
//! - House `333W`, free lead = 7: single 3 (the Wild is never a single); pairs 33, 3W; triples 333,
//!   33W; 333 + W (the Wild as itself); bomb 333W. Not 33W + 3 (an attachment of the triple's rank).
//! - House `3334W`, free lead = 12: singles 3, 4; pairs 33, 3W, 4W; triples 333, 33W; 333+4, 333+W,
//!   33W+4; 333 + 4W (W as 4); bomb 333W.
//! - House `BRW`, free lead = 5: singles B, R; rockets BR, BW, RW. BRW itself is no play.
//! - House `W`, free lead = 0: the Wild is never played alone.
//! - House `KKW`, free lead = 4: single K; pairs KK, KW; triple KKW.
//! - House `4567W`, free lead = 10: singles 4, 5, 6, 7; pairs 4W, 5W, 6W, 7W; straights 3-7 and 4-8.
//! - House `3355W`, free lead = 12: singles 3, 5; pairs 33, 55, 3W, 5W; triples 33W, 55W; 33W+5,
//!   55W+3; 33W+55, 55W+33 (no bomb: no three natural cards of a rank).
//! - House `33445W`, free lead = 17: singles 3, 4, 5; pairs 33, 44, 3W, 4W, 5W; triples 33W, 44W;
//!   33W+4, 33W+5, 44W+3, 44W+5; 33W+44, 44W+33; pair run 33 44 5W.
//! - House `3333W` on straight 4-8 = 2: the bombs 3333 and 333W (no five-card bomb).
//! - House without the Wild `TJQKA2`, free lead = 9: six singles; straights T-A, J-2, T-2.
//! - House without the Wild `AA22BR`, free lead = 7: singles A, 2, B, R; pairs AA, 22; the rocket.
//! - No Shuffle, sevens wild, `57`, free lead = 3: singles 5, 7; pair of 5s (7 as 5).
//! - No Shuffle, sevens wild, `7777`, free lead = 4: 7, 77, 777, the pure-wild bomb (wild cards
//!   alone are their own rank).
//! - No Shuffle, sevens wild, `3337`, free lead = 8: singles 3, 7; pairs 33, 37; triples 333, 337;
//!   333+7; the soft bomb 3337. On triple 444 = 1: only the soft bomb.
//! - No Shuffle, sevens wild, `33337`, free lead = 9: singles 3, 7; pairs 33, 37; triples 333, 337;
//!   333+7; bombs 3333 (natural) and 3337 (soft). No five-card bomb.
//! - No Shuffle, sevens wild, `5777`, free lead = 20: singles 5, 7; pairs 57 (as 55), 77; triples
//!   577 (as 555), 777; triple + single: 577+7, 777+5, and 777 standing in as any of the 11 other
//!   ranks 3 4 6 8 9 T J Q K A 2 with the 5 attached; the soft bomb of 5s.
//! - Two Player `56789`, free lead = 6: five singles and the straight. On single 5 = 4.
//! - Two Player `9999BR` on bomb 5555 = 2: bomb 9999 and the rocket.
//! - Two Player, nines wild, `9TTT`, free lead = 8: singles 9, T; pairs TT, 9T; triples TTT, TT9;
//!   TTT+9; soft bomb TTT9. On the soft bomb 5559 = 1 (TTT9); on the natural bomb 5555 = 0.
//! - Two Player, nines wild, `9999` on the natural bomb 5555 = 1: the pure-wild bomb beats it.

use std::collections::BTreeMap;

use ddz_engine::{Attach, Counts, Kind, Play, Rules, legal_plays_vec, readings};

const DATA: &str = include_str!("data/golden_counts.txt");

/// One line of the data file.
struct Position {
    line: usize,
    rules: Rules,
    hand: Counts,
    prior: Option<Play>,
    count: usize,
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Single => "single",
        Kind::Pair => "pair",
        Kind::Triples => "triples",
        Kind::Straight => "straight",
        Kind::PairRun => "pair_run",
        Kind::FourWithTwo => "four_with_two",
        Kind::Bomb => "bomb",
        Kind::Rocket => "rocket",
    }
}

/// `kind/main/len/attach`, as in the data file.
fn describe(play: &Play) -> String {
    let attach = match play.shape.attach {
        Attach::None => "none".to_string(),
        Attach::Singles(n) => format!("s{n}"),
        Attach::Pairs(n) => format!("p{n}"),
    };
    format!("{}/{}/{}/{attach}", kind_name(play.shape.kind), play.main, play.shape.len)
}

fn parse(line: usize, text: &str) -> Position {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [table, wild, hand, prior_cards, reading, count] = fields[..] else {
        panic!("line {line}: expected 6 fields, got {}: {text:?}", fields.len());
    };
    let base: Rules = table.parse().unwrap_or_else(|e| panic!("line {line}: {e}"));
    let rules = match wild {
        "-" => {
            assert!(!base.has_wild_rank_option(), "line {line}: {table} needs a wild rank");
            base
        }
        rank => {
            assert!(base.has_wild_rank_option(), "line {line}: {table} has no wild rank");
            let rank = rank.parse().unwrap_or_else(|e| panic!("line {line}: {e}"));
            assert!(base.wild_rank_choices().any(|r| r == rank), "line {line}: {rank} cannot be drawn at {table}");
            base.with_wild_rank(rank)
        }
    };
    let hand: Counts = hand.parse().unwrap_or_else(|e| panic!("line {line}: hand: {e}"));
    assert!(hand.fits_in(rules.deck().counts()), "line {line}: {hand} is not part of a {table} deck");
    let prior = match (prior_cards, reading) {
        ("-", "-") => None,
        ("-", _) | (_, "-") => panic!("line {line}: prior and reading go together"),
        (cards, reading) => {
            let cards: Counts = cards.parse().unwrap_or_else(|e| panic!("line {line}: prior: {e}"));
            let plays = readings(&rules, cards).unwrap_or_else(|e| panic!("line {line}: prior {cards}: {e}"));
            let play = plays.iter().find(|p| describe(p) == reading).unwrap_or_else(|| {
                let all: Vec<String> = plays.iter().map(describe).collect();
                panic!("line {line}: {cards} has no reading {reading}, only {all:?}")
            });
            Some(*play)
        }
    };
    let count = count.parse().unwrap_or_else(|e| panic!("line {line}: count: {e}"));
    Position { line, rules, hand, prior, count }
}

fn positions() -> Vec<Position> {
    DATA.lines()
        .enumerate()
        .map(|(i, text)| (i + 1, text.trim()))
        .filter(|(_, text)| !text.is_empty() && !text.starts_with('#'))
        .map(|(line, text)| parse(line, text))
        .collect()
}

#[test]
fn golden_legal_play_counts() {
    let mut failures = Vec::new();
    for p in positions() {
        let got = legal_plays_vec(&p.rules, p.hand, p.prior.as_ref()).len();
        if got != p.count {
            let prior = p.prior.map_or("free lead".to_string(), |q| q.to_string());
            failures.push(format!(
                "line {}: {} {:?} hand {} on {prior}: expected {}, generated {got}",
                p.line, p.rules, p.rules.wilds, p.hand, p.count
            ));
        }
    }
    assert!(failures.is_empty(), "{} golden counts differ:\n{}", failures.len(), failures.join("\n"));
}

/// Every reading of every sub-multiset of the hand that beats the prior play: the count the generator
/// must reach, straight from `readings`.
fn brute_force_count(p: &Position) -> usize {
    let mut subs = vec![Counts::EMPTY];
    for (slot, n) in p.hand.slots() {
        subs = subs.iter().flat_map(|base| (0..=n).map(move |k| base.with(slot, k))).collect();
    }
    subs.iter()
        .filter(|sub| !sub.is_empty())
        .flat_map(|&sub| readings(&p.rules, sub).unwrap_or_default())
        .filter(|play| p.prior.is_none_or(|prior| play.beats(&prior)))
        .count()
}

/// The data file's counts for hands with few distinct sub-hands (those with many repeated ranks, such
/// as the four wild cards of a Wild Rank table) are checked again by brute force.
#[test]
fn golden_counts_of_small_sub_hand_spaces_equal_brute_force() {
    let mut checked = 0;
    for p in positions() {
        let sub_hands: usize = p.hand.slots().map(|(_, n)| n as usize + 1).product();
        if sub_hands <= 4000 {
            let brute = brute_force_count(&p);
            let generated = legal_plays_vec(&p.rules, p.hand, p.prior.as_ref()).len();
            assert_eq!((brute, generated), (p.count, p.count), "line {}: {} (brute force, generated)", p.line, p.hand);
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} positions checked");
}

#[test]
fn golden_data_covers_every_table_with_leads_and_follows() {
    let mut per_table: BTreeMap<&str, (usize, usize, Vec<Counts>)> = BTreeMap::new();
    for p in positions() {
        let entry = per_table.entry(p.rules.name()).or_default();
        match p.prior {
            None => entry.0 += 1,
            Some(_) => entry.1 += 1,
        }
        if !entry.2.contains(&p.hand) {
            entry.2.push(p.hand);
        }
    }
    for rules in Rules::ALL {
        let (leads, follows, hands) = per_table.get(rules.name()).unwrap_or_else(|| panic!("no positions for {rules}"));
        assert!(hands.len() >= 20, "{rules}: only {} distinct hands", hands.len());
        assert!(*leads >= 20, "{rules}: only {leads} free leads");
        assert!(*follows >= 60, "{rules}: only {follows} follows");
        // Typical dealt hands (17 cards, 20 for a landlord, 21 with the House middle of 4) and small ones.
        assert!(hands.iter().any(|h| h.total() >= 17), "{rules}");
        assert!(hands.iter().any(|h| h.total() <= 6), "{rules}");
    }
}

/// The hand-counted positions of this file's header, straight from the engine (so that a wrong data
/// file cannot hide a wrong hand count).
#[test]
fn hand_counted_positions() {
    let ns = Rules::no_shuffle(false);
    let house = Rules::house(true);
    let house_nowild = Rules::house(false);
    let sevens = Rules::no_shuffle(true).with_wild_rank("7".parse().unwrap());
    let tp = Rules::two_player(false);
    let nines = Rules::two_player(true).with_wild_rank("9".parse().unwrap());
    let c = |s: &str| s.parse::<Counts>().unwrap();
    let play = |rules: &Rules, cards: &str, reading: &str| {
        *readings(rules, c(cards)).unwrap().iter().find(|p| describe(p) == reading).unwrap()
    };
    let count = |rules: &Rules, hand: &str, prior: Option<Play>| legal_plays_vec(rules, c(hand), prior.as_ref()).len();
    assert_eq!(count(&ns, "33345", None), 7);
    assert_eq!(count(&ns, "3456", None), 4);
    assert_eq!(count(&ns, "333444", None), 11);
    assert_eq!(count(&ns, "333355", None), 9);
    assert_eq!(count(&ns, "3333BR", None), 9);
    let four_two = play(&ns, "333378", "four_with_two/3/1/s2");
    assert_eq!(count(&ns, "444456", Some(four_two)), 2);
    assert_eq!(count(&ns, "445566", Some(play(&ns, "55", "pair/5/1/none"))), 1);
    assert_eq!(count(&house, "333W", None), 7);
    assert_eq!(count(&house, "3334W", None), 12);
    assert_eq!(count(&house, "BRW", None), 5);
    assert_eq!(count(&house, "W", None), 0);
    assert_eq!(count(&house, "KKW", None), 4);
    assert_eq!(count(&house, "4567W", None), 10);
    assert_eq!(count(&house, "3355W", None), 12);
    assert_eq!(count(&house, "33445W", None), 17);
    let four_eight = play(&house, "4567W", "straight/8/5/none");
    assert_eq!(count(&house, "3333W", Some(four_eight)), 2);
    assert_eq!(count(&house_nowild, "TJQKA2", None), 9);
    assert_eq!(count(&house_nowild, "AA22BR", None), 7);
    assert_eq!(count(&sevens, "57", None), 3);
    assert_eq!(count(&sevens, "7777", None), 4);
    assert_eq!(count(&sevens, "3337", None), 8);
    let triple_fours = play(&sevens, "444", "triples/4/1/none");
    assert_eq!(count(&sevens, "3337", Some(triple_fours)), 1);
    assert_eq!(count(&sevens, "33337", None), 9);
    assert_eq!(count(&sevens, "5777", None), 20);
    assert_eq!(count(&tp, "56789", None), 6);
    assert_eq!(count(&tp, "56789", Some(play(&tp, "5", "single/5/1/none"))), 4);
    assert_eq!(count(&tp, "9999BR", Some(play(&tp, "5555", "bomb/5/1/none"))), 2);
    assert_eq!(count(&nines, "9TTT", None), 8);
    let soft_fives = play(&nines, "5559", "bomb/5/1/none");
    let natural_fives = play(&nines, "5555", "bomb/5/1/none");
    assert_eq!(count(&nines, "9TTT", Some(soft_fives)), 1);
    assert_eq!(count(&nines, "9TTT", Some(natural_fives)), 0);
    assert_eq!(count(&nines, "9999", Some(natural_fives)), 1);
}
