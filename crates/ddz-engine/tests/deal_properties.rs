//! Random rooms of every table type, several deals each through a `Ledger`, driven by random choices from
//! `Deal::choices()` (with the occasional closed room or deal limit). After every action:
//!
//! - cards are conserved: hands + played + the bottom (until the landlord takes it) + the unused cards are
//!   exactly the deck, with no card twice;
//! - no seat's view (nor a spectator's), serialised to JSON, holds the text of a card in another seat's
//!   hand, in the unused cards, or in the bottom before the landlord has it;
//! - sampled plays of random cards from the hand are accepted exactly when `choices()` lists them, and
//!   every listed play passes `check_play`.
//!
//! After every deal: points sum to zero; House money is conserved (balances sum to $100 a player); the
//! deal record replays to the same state hash and result, also through JSON; a record with one action
//! changed or with another hash is refused; a No Shuffle re-deal is a cut of the collected pack. After
//! every room: the settlement zeroes every net.

mod common;

use common::scan_view;

use std::collections::BTreeMap;

use ddz_engine::{
    Action, Card, CardSet, Deal, DealRecord, Ledger, Phase, Rules, ScoreLine, Seat, Seed, TableType, TrickMove,
    readings,
};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Deals per room.
const DEALS: usize = 5;
/// Rooms per table type.
const ROOMS: u32 = 100;

fn check_cards(deal: &Deal) {
    let deck = deal.rules().deck();
    let played = CardSet::from_cards(deal.played().iter().copied()).expect("no card played twice");
    assert_eq!(played.len(), deal.played().len());
    let mut parts: Vec<(CardSet, &str)> = (0..deal.players()).map(|seat| (deal.hand(seat), "a hand")).collect();
    parts.push((played, "the played cards"));
    if deal.landlord().is_none() {
        parts.push((deal.bottom(), "the bottom"));
    }
    parts.push((deal.unused(), "the unused cards"));
    let mut all = CardSet::EMPTY;
    let mut count = 0;
    for (set, what) in parts {
        assert!(set.intersection(all).is_empty(), "{what} repeats {}", set.intersection(all));
        all = all.union(set);
        count += set.len();
    }
    if deal.landlord().is_some() {
        assert!(deal.bottom().is_subset(all), "the bottom went to the landlord");
    }
    assert_eq!(all, deck, "cards lost or added");
    assert_eq!(count, deck.len());
}

fn check_views(deal: &Deal) {
    let revealed = if deal.landlord().is_some() { deal.bottom() } else { CardSet::EMPTY };
    let mut secret = deal.unused();
    if deal.landlord().is_none() {
        secret = secret.union(deal.bottom());
    }
    for viewer in (0..deal.players()).map(Some).chain([None]) {
        let mut hidden = secret;
        // Once the deal is over every hand is shown face up; the unused cards stay hidden.
        let over = deal.result().is_some();
        for seat in (0..deal.players()).filter(|&s| Some(s) != viewer && !over) {
            hidden = hidden.union(deal.hand(seat).minus(revealed));
        }
        let (shown, _) = scan_view(deal, viewer);
        let leaked = shown.intersection(hidden);
        assert!(
            leaked.is_empty(),
            "{}: the view of {viewer:?} shows {leaked} after {:?}",
            deal.rules(),
            deal.actions().last()
        );
    }
    check_trick_moves(deal);
}

/// The trick moves read from the public actions: every play beats the play it answered, nobody answers
/// their own play, and the trick still open is the view's trick.
fn check_trick_moves(deal: &Deal) {
    let view = deal.view(None);
    let moves = view.trick_moves();
    let plays = deal.actions().iter().filter(|a| matches!(a, Action::Play { .. })).count();
    assert_eq!(moves.iter().filter(|m| m.play.is_some()).count(), plays);
    for m in &moves {
        if let Some((seat, facing)) = m.facing {
            assert_ne!(seat, m.seat, "{m:?}");
            if let Some(play) = m.play {
                assert!(play.beats(&facing), "{m:?}");
            }
        }
    }
    if deal.phase() == Phase::Play {
        let trailing_passes = moves.iter().rev().take_while(|m| m.play.is_none()).count();
        let open = match moves.last() {
            Some(&TrickMove { seat, play: Some(play), .. }) => Some((seat, play)),
            Some(last) if trailing_passes + 1 < deal.players() => last.facing,
            _ => None,
        };
        assert_eq!(open, view.trick.map(|t| (t.seat, t.play)), "{moves:?}");
    }
}

/// The explanation of a finished deal adds up to its result: House payments to what each seat paid and
/// won, points to the final multiplier and one share per farmer.
fn check_score_lines(deal: &Deal) {
    let result = deal.result().expect("a finished deal");
    let lines = deal.score_lines();
    if result.winner.is_none() {
        assert_eq!(lines.last(), Some(&ScoreLine::NoScore { end: result.end }));
        return;
    }
    let Some(landlord) = deal.landlord() else { unreachable!("a winner implies a landlord") };
    if deal.rules().table == TableType::House {
        let mut paid = vec![0; deal.players()];
        let mut won = None;
        for line in &lines {
            match line {
                ScoreLine::Ante { landlord: l, tenant: t }
                | ScoreLine::BombCollected { landlord: l, tenant: t, .. } => {
                    (0..deal.players()).for_each(|s| paid[s] += if s == landlord { l } else { t });
                }
                ScoreLine::BombFree { .. } => {}
                ScoreLine::PotWon { pot, won: amounts } => {
                    assert_eq!(*pot, deal.pot());
                    won = Some(amounts.clone());
                }
                other => panic!("{other:?} in a House explanation"),
            }
        }
        assert_eq!(paid, deal.paid(), "the ante and the bombs' collections are what each seat paid");
        let won = won.expect("the pot's line");
        let score: Vec<i64> = won.iter().zip(&paid).map(|(w, p)| w - p).collect();
        assert_eq!(score, result.score);
    } else {
        let Some(ScoreLine::AuctionValue { value, .. }) = lines.first() else { panic!("{lines:?} starts elsewhere") };
        assert_eq!(*value, result.auction_value);
        let multiplier = lines.iter().fold(1, |m, line| match line {
            ScoreLine::Multiplied { multiplier, .. } | ScoreLine::Spring { multiplier } => *multiplier,
            _ => m,
        });
        assert_eq!(multiplier, result.multiplier, "the last doubling's line is the final multiplier: {lines:?}");
        assert_eq!(lines.iter().any(|l| matches!(l, ScoreLine::Spring { .. })), result.spring);
        let bombs = lines.iter().filter(|l| matches!(l, ScoreLine::Multiplied { .. })).count();
        assert_eq!(bombs as u32, result.bombs);
        let Some(ScoreLine::Shares { share, farmers }) = lines.last() else { panic!("{lines:?} ends elsewhere") };
        assert_eq!(result.score[landlord].abs(), share * *farmers as i64);
    }
}

/// Random cards from the hand of the seat to play: each of their readings is accepted exactly when
/// `choices()` lists it.
fn probe_plays(deal: &Deal, choices: &[Action], rng: &mut ChaCha8Rng) {
    let seat = deal.turn();
    let mut hand: Vec<Card> = deal.hand(seat).iter().collect();
    hand.shuffle(rng);
    let size = rng.random_range(1..=hand.len().min(7));
    let cards = CardSet::from_cards(hand[..size].iter().copied()).unwrap();
    let Ok(reads) = readings(deal.rules(), cards.counts()) else {
        return;
    };
    for play in reads {
        let accepted = deal.check_play(seat, cards, &play).is_ok();
        let listed =
            choices.iter().any(|a| matches!(a, Action::Play { seat: s, play: p, .. } if *s == seat && *p == play));
        assert_eq!(
            accepted,
            listed,
            "{}: {cards} as {play} by seat {seat}: accepted {accepted}, listed {listed}",
            deal.rules()
        );
        if accepted {
            let mut copy = deal.clone();
            copy.apply(&Action::Play { seat, cards, play }).expect("an accepted play applies");
        }
    }
}

fn check_choices_are_legal(deal: &Deal, choices: &[Action]) {
    for action in choices {
        if let Action::Play { seat, cards, play } = action {
            assert!(deal.check_play(*seat, *cards, play).is_ok(), "{}: listed {play} is refused", deal.rules());
        }
    }
}

/// Finds the cut of `pack` that, dealt one card at a time from the first seat, gives this deal.
/// Whether the deal is `pack` cut (1 or more cards moved) and dealt: the bottom is the cards that
/// follow the hands, and the hands hold exactly the cards before them.
fn is_cut_of(deal: &Deal, pack: &[Card]) -> bool {
    let hand_cards = deal.players() * deal.rules().hand_size as usize;
    let hands = (0..deal.players()).fold(CardSet::EMPTY, |all, s| all.union(deal.hand(s)));
    (1..pack.len()).any(|cut| {
        let rotated: Vec<Card> = pack[cut..].iter().chain(&pack[..cut]).copied().collect();
        let dealt = CardSet::from_cards(rotated[..hand_cards].iter().copied()).unwrap();
        let bottom = CardSet::from_cards(rotated[hand_cards..].iter().copied()).unwrap();
        dealt == hands && bottom == deal.bottom()
    })
}

fn check_record(deal: &Deal, names: &[String], history: &[Vec<Action>], rng: &mut ChaCha8Rng) {
    let record = DealRecord::of(deal, names.to_vec());
    let replayed = record.replay().expect("the record replays");
    assert_eq!(replayed.state_hash(), deal.state_hash());
    assert_eq!(replayed.result(), deal.result());
    assert_eq!(&replayed, deal);
    let json = serde_json::to_string(&record).expect("a record serialises");
    let parsed: DealRecord = serde_json::from_str(&json).expect("a record parses");
    assert_eq!(parsed, record);
    assert_eq!(parsed.replay().expect("replays from JSON").state_hash(), deal.state_hash());

    let mut wrong_hash = record.clone();
    wrong_hash.state_hash =
        if record.state_hash == "0000000000000000" { "0000000000000001".into() } else { "0000000000000000".into() };
    assert!(wrong_hash.replay().is_err(), "a wrong hash is accepted");

    // Change one action to another that was possible at that point.
    let changeable: Vec<usize> =
        (0..history.len()).filter(|&i| history[i].iter().any(|a| *a != record.actions[i])).collect();
    if let Some(&i) = changeable.get(rng.random_range(0..changeable.len().max(1))) {
        let others: Vec<&Action> = history[i].iter().filter(|a| **a != record.actions[i]).collect();
        let mut tampered = record.clone();
        tampered.actions[i] = others[rng.random_range(0..others.len())].clone();
        assert!(tampered.replay().is_err(), "action {i} changed to {:?} is accepted", tampered.actions[i]);
    }
    // Or to an action of the wrong seat.
    if let Some(i) = (0..record.actions.len()).find(|&i| record.actions[i].seat().is_some()) {
        let mut tampered = record.clone();
        if let Action::Pass { seat } | Action::Seen { seat } | Action::Take { seat } = &mut tampered.actions[i] {
            *seat = (*seat + 1) % deal.players();
            assert!(tampered.replay().is_err());
        }
    }
}

fn play_room(rules: Rules, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = rules.players as usize;
    let names: Vec<String> = ["Ann", "Bob", "Cy"][..players].iter().map(|s| s.to_string()).collect();
    let mut ledger = Ledger::new(rules);
    for name in &names {
        ledger.join(name);
    }
    let start = ledger.starting_balance();
    let mut totals: BTreeMap<String, i64> = names.iter().map(|n| (n.clone(), start)).collect();
    for _ in 0..DEALS {
        // The host may switch the Wild on or off between House deals.
        if rules.table == TableType::House && rng.random_bool(0.25) {
            let wild = ledger.rules.wilds != ddz_engine::Wilds::TheWild;
            ledger.rules = Rules::house(wild);
        }
        let setup = ledger.next_setup(Seed::random(&mut rng));
        let pack = setup.pack.clone();
        let mut deal = Deal::new(setup);
        if let Some(pack) = &pack {
            assert!(is_cut_of(&deal, pack), "a re-deal is a cut of the pack");
        }
        let mut history: Vec<Vec<Action>> = Vec::new();
        check_cards(&deal);
        check_views(&deal);
        while deal.phase() != Phase::Over {
            let choices = deal.choices();
            assert!(!choices.is_empty(), "a live deal offers a choice");
            let action = if rng.random_ratio(1, 300) {
                Action::Abandon
            } else if rules.table != TableType::House && rng.random_ratio(1, 300) {
                Action::DealLimit
            } else {
                if deal.phase() == Phase::Play {
                    if rng.random_ratio(1, 3) {
                        probe_plays(&deal, &choices, &mut rng);
                    }
                    if rng.random_ratio(1, 10) {
                        check_choices_are_legal(&deal, &choices);
                    }
                }
                choices[rng.random_range(0..choices.len())].clone()
            };
            if let Err(e) = deal.apply(&action) {
                panic!("{}: {action:?} from choices() refused: {e}", deal.rules());
            }
            history.push(choices);
            check_cards(&deal);
            check_views(&deal);
        }
        let result = deal.result().expect("an ended deal has a result");
        assert_eq!(result.score.len(), players);
        assert_eq!(result.score.iter().sum::<i64>(), 0, "points sum to zero");
        if let Some(winner) = result.winner {
            let allowance = deal.allowance().unwrap_or(0);
            assert!(deal.hand(winner).len() <= allowance);
            assert_eq!(result.landlord_won, Some(Some(winner) == deal.landlord()));
        } else {
            assert!(result.score.iter().all(|&s| s == 0));
        }
        if deal.rules().table == TableType::House && result.winner.is_some() {
            assert_eq!(deal.pot() % 4, 0);
            let won: i64 = (0..players).map(|s| result.score[s] + deal.paid()[s]).sum();
            assert_eq!(won, deal.pot(), "the whole pot is paid out");
        }
        assert!(result.multiplier <= 1024);
        check_score_lines(&deal);
        check_record(&deal, &names, &history, &mut rng);
        ledger.record(&deal, &names);
        for (name, delta) in names.iter().zip(&result.score) {
            *totals.get_mut(name).unwrap() += delta;
        }
        assert_eq!(ledger.balances, totals);
        assert_eq!(ledger.balances.values().sum::<i64>(), start * players as i64, "money is conserved");
    }
    let mut nets: BTreeMap<String, i64> = ledger.nets().into_iter().collect();
    for payment in ledger.settlement() {
        assert!(payment.amount > 0);
        *nets.get_mut(&payment.from).unwrap() += payment.amount;
        *nets.get_mut(&payment.to).unwrap() -= payment.amount;
    }
    assert!(nets.values().all(|&n| n == 0), "settled: {nets:?}");
}

macro_rules! rooms {
    ($($name:ident: $rules:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig {
                cases: ROOMS,
                failure_persistence: None,
                ..ProptestConfig::default()
            })]
            $(
                #[test]
                fn $name(seed in any::<u64>()) {
                    play_room($rules, seed);
                }
            )*
        }
    };
}

rooms! {
    house_rooms_keep_every_invariant: Rules::house(true);
    house_without_the_wild_rooms_keep_every_invariant: Rules::house(false);
    no_shuffle_rooms_keep_every_invariant: Rules::no_shuffle(false);
    no_shuffle_wild_rank_rooms_keep_every_invariant: Rules::no_shuffle(true);
    two_player_rooms_keep_every_invariant: Rules::two_player(false);
    two_player_wild_rank_rooms_keep_every_invariant: Rules::two_player(true);
}

/// Actions that `choices()` does not offer are refused and change nothing.
#[test]
fn actions_not_offered_are_refused_and_change_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for rules in Rules::ALL {
        for n in 0..20 {
            let mut deal = Deal::new(Ledger::new(rules).next_setup(Seed::from_u64(n)));
            while deal.phase() != Phase::Over {
                let choices = deal.choices();
                let players = deal.players();
                let candidates: Vec<Action> = (0..=players)
                    .flat_map(|seat: Seat| {
                        [
                            Action::Take { seat },
                            Action::Pass { seat },
                            Action::Seen { seat },
                            Action::Bid { seat, bid: 0 },
                            Action::Bid { seat, bid: 2 },
                            Action::Bid { seat, bid: 3 },
                            Action::Call { seat, call: true },
                            Action::Call { seat, call: false },
                            Action::Rob { seat, rob: true },
                            Action::Rob { seat, rob: false },
                        ]
                    })
                    .collect();
                let before = deal.state_hash();
                for action in candidates {
                    let mut copy = deal.clone();
                    let accepted = copy.apply(&action).is_ok();
                    assert_eq!(accepted, choices.contains(&action), "{rules}: {action:?} in {:?}", deal.phase());
                    if !accepted {
                        assert_eq!(copy, deal, "refusing {action:?} changed the deal");
                    }
                }
                assert_eq!(deal.state_hash(), before);
                let choice = choices[rng.random_range(0..choices.len())].clone();
                deal.apply(&choice).unwrap();
            }
        }
    }
}
