//! "Legal ⇔ generated": the fast generator and the reference reader agree.
//!
//! For random hands of every table type (with a random play to beat, or a free lead):
//! every generated play is a reading of its own cards, taken from the hand, that beats the prior play,
//! and listed once; and every reading of every sub-multiset of the hand that beats the prior play is
//! generated (exhaustive over sub-multisets, hands up to 12 cards).

use std::collections::HashSet;

use ddz_engine::{Counts, Play, Rules, legal_plays_vec, readings};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rules_for(index: usize, rng: &mut ChaCha8Rng) -> Rules {
    let rules = Rules::ALL[index % Rules::ALL.len()];
    let choices: Vec<_> = rules.wild_rank_choices().collect();
    rules.with_wild_rank(choices[rng.random_range(0..choices.len())])
}

fn random_hand(rules: &Rules, size: usize, rng: &mut ChaCha8Rng) -> Counts {
    let mut deck: Vec<_> = rules.deck().iter().collect();
    deck.shuffle(rng);
    let mut hand = ddz_engine::CardSet::EMPTY;
    for card in deck.into_iter().take(size) {
        hand.insert(card);
    }
    hand.counts()
}

fn sub_multisets(hand: Counts) -> Vec<Counts> {
    let mut all = vec![Counts::EMPTY];
    for (slot, n) in hand.slots() {
        let mut next = Vec::with_capacity(all.len() * (n as usize + 1));
        for base in &all {
            for k in 0..=n {
                next.push(base.with(slot, k));
            }
        }
        all = next;
    }
    all.retain(|c| !c.is_empty());
    all
}

fn check(rules: &Rules, hand: Counts, prior: Option<&Play>) {
    let generated = legal_plays_vec(rules, hand, prior);
    let set: HashSet<Play> = generated.iter().copied().collect();
    assert_eq!(set.len(), generated.len(), "duplicate plays for {hand} under {rules}");
    for play in &generated {
        assert!(play.cards.fits_in(hand), "{play} uses cards not in {hand}");
        let reads = readings(rules, play.cards).unwrap_or_else(|e| panic!("generated {play:?} has no reading: {e}"));
        assert!(
            reads.contains(play),
            "generated {play:?} is not a reading of its cards under {rules} {:?}",
            rules.wilds
        );
        if let Some(prior) = prior {
            assert!(play.beats(prior), "generated {play} does not beat {prior}");
        }
    }
    for sub in sub_multisets(hand) {
        for reading in readings(rules, sub).unwrap_or_default() {
            if prior.is_none_or(|p| reading.beats(p)) {
                assert!(
                    set.contains(&reading),
                    "missing {reading:?} ({reading}) from {hand} under {rules} {:?}, prior {prior:?}",
                    rules.wilds
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn every_generated_play_is_legal_and_every_legal_play_is_generated(
        seed in any::<u64>(), table in 0usize..6, size in 1usize..=12, follow in any::<bool>()
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rules = rules_for(table, &mut rng);
        let hand = random_hand(&rules, size, &mut rng);
        let prior = follow.then(|| {
            let other = random_hand(&rules, 17, &mut rng);
            let leads = legal_plays_vec(&rules, other, None);
            leads[rng.random_range(0..leads.len())]
        });
        check(&rules, hand, prior.as_ref());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Hands holding all four wild-rank cards (two pairs of them, a bomb, wings), which random hands
    /// rarely do.
    #[test]
    fn hands_with_all_four_wild_cards_agree(
        seed in any::<u64>(), two_player in any::<bool>(), others in 2usize..=8, follow in any::<bool>()
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rules = rules_for(if two_player { 5 } else { 3 }, &mut rng);
        let wild = rules.wild_rank().expect("a Wild Rank table");
        let mut deck: Vec<_> = rules.deck().iter().filter(|c| c.rank() != Some(wild)).collect();
        deck.shuffle(&mut rng);
        let mut hand = rules.deck().of_rank(wild);
        for card in deck.into_iter().take(others) {
            hand.insert(card);
        }
        let hand = hand.counts();
        let prior = follow.then(|| {
            let other = random_hand(&rules, 17, &mut rng);
            let leads = legal_plays_vec(&rules, other, None);
            leads[rng.random_range(0..leads.len())]
        });
        check(&rules, hand, prior.as_ref());
    }
}
