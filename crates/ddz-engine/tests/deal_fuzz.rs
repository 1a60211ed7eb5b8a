//! Arbitrary actions against random deals: the deal never panics, a refused action changes nothing, and
//! an accepted seat action is one of the deal's own legal choices.

use ddz_engine::{Action, CardSet, Deal, DealSetup, Rules, Seed, Start, readings};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arbitrary_action(deal: &Deal, rng: &mut ChaCha8Rng) -> Action {
    let seat = rng.random_range(0..4);
    match rng.random_range(0..12) {
        0 => Action::Take { seat },
        1 => Action::Pass { seat },
        2 => Action::Bid { seat, bid: rng.random_range(0..6) },
        3 => Action::Call { seat, call: rng.random() },
        4 => Action::Rob { seat, rob: rng.random() },
        5 => Action::Seen { seat },
        6 if rng.random_range(0..20) == 0 => Action::DealLimit,
        7 | 8 => {
            // Often a legal choice, so that deals make progress.
            let choices = deal.choices();
            choices.choose(rng).cloned().unwrap_or(Action::Pass { seat })
        }
        _ => {
            // Cards from anywhere in the deck (often not the seat's), with any of their readings.
            let deck: Vec<_> = deal.rules().deck().iter().collect();
            let n = rng.random_range(1..6);
            let cards = CardSet::from_cards(deck.sample(rng, n).copied()).unwrap();
            let hand_cards = if rng.random() {
                let hand: Vec<_> = deal.hand(seat % deal.players()).iter().collect();
                CardSet::from_cards(hand.sample(rng, n.min(hand.len())).copied()).unwrap()
            } else {
                cards
            };
            match readings(deal.rules(), hand_cards.counts()) {
                Ok(plays) => Action::Play { seat, cards: hand_cards, play: *plays.choose(rng).unwrap() },
                Err(_) => Action::Pass { seat },
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_actions_never_panic_and_refusals_change_nothing(seed in any::<u64>(), table in 0usize..6) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rules = Rules::ALL[table];
        let start = if rng.random() { Start::Random } else { Start::Seat(rng.random_range(0..rules.players as usize)) };
        let mut deal = Deal::new(DealSetup::shuffled(rules, Seed::from_u64(seed), start));
        for _ in 0..600 {
            if deal.result().is_some() {
                break;
            }
            let action = arbitrary_action(&deal, &mut rng);
            let before = deal.state_hash();
            let choices = deal.choices();
            match deal.apply(&action) {
                Ok(()) => {
                    // Choices name one set of concrete cards per reading; any cards of the same ranks do.
                    let same = |choice: &Action| match (choice, &action) {
                        (Action::Play { seat: a, play: p, .. }, Action::Play { seat: b, play: q, .. }) => a == b && p == q,
                        (choice, action) => choice == action,
                    };
                    let chosen = choices.iter().any(same) || action == Action::DealLimit;
                    prop_assert!(chosen, "accepted {action:?} which is not a legal choice");
                }
                Err(_) => prop_assert_eq!(deal.state_hash(), before),
            }
        }
    }
}
