//! Legal-play generation speed: positions per second on random hands.
//!
//! - No Shuffle, 20-card hands (a landlord's hand): free lead, and following a random play (a random
//!   lead from another random hand).
//! - House with the Wild, 21-card hands: the same two.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_engine::{CardSet, Counts, Play, Rules, legal_plays, legal_plays_vec};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const POSITIONS: usize = 1000;

fn hand(rules: &Rules, size: usize, rng: &mut ChaCha8Rng) -> Counts {
    let mut deck: Vec<_> = rules.deck().iter().collect();
    deck.shuffle(rng);
    CardSet::from_cards(deck.into_iter().take(size)).unwrap().counts()
}

fn positions(rules: &Rules, size: usize, follow: bool) -> Vec<(Counts, Option<Play>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    (0..POSITIONS)
        .map(|_| {
            let prior = follow.then(|| {
                let leads = legal_plays_vec(rules, hand(rules, 17, &mut rng), None);
                leads[rng.random_range(0..leads.len())]
            });
            (hand(rules, size, &mut rng), prior)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_plays");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    for (name, rules, size) in
        [("noshuffle_20", Rules::no_shuffle(false), 20), ("house_wild_21", Rules::house(true), 21)]
    {
        for follow in [false, true] {
            let positions = positions(&rules, size, follow);
            let label = format!("{name}/{}", if follow { "follow" } else { "free_lead" });
            let mut out = Vec::with_capacity(4096);
            group.bench_function(label, |b| {
                b.iter(|| {
                    let mut total = 0;
                    for (hand, prior) in &positions {
                        out.clear();
                        legal_plays(&rules, *hand, prior.as_ref(), &mut out);
                        total += out.len();
                    }
                    black_box(total)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
