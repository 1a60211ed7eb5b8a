//! The exact solver's time as the cards left grow: positions of No Shuffle and of House with the Wild, each
//! hand of 4, 6, 8 or 10 cards from a shuffled deck, the landlord to lead, each solved by a fresh solver
//! (its table empty). docs/performance.md has the figures; the target is every puzzle position with up to
//! 10 cards a hand in under a second on one core.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ddz_engine::{CardSet, Counts, Endgame, Rules, Solver};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// Positions per size: the median of a few hides the odd hard one, so each sample solves them all.
const POSITIONS: usize = 8;

fn positions(rules: Rules, cards: usize) -> Vec<Endgame> {
    let mut rng = ChaCha8Rng::seed_from_u64(2026 + cards as u64);
    (0..POSITIONS)
        .map(|_| {
            let mut deck: Vec<_> = rules.deck().iter().collect();
            deck.shuffle(&mut rng);
            let mut hands = [Counts::EMPTY; 3];
            for (seat, hand) in hands.iter_mut().enumerate() {
                let dealt = deck[seat * cards..(seat + 1) * cards].iter().copied();
                *hand = CardSet::from_cards(dealt).unwrap().counts();
            }
            Endgame { rules, hands, landlord: 0, turn: 0, trick: None, allowance: None }
        })
        .collect()
}

fn solve(c: &mut Criterion) {
    for (name, rules) in [("noshuffle", Rules::no_shuffle(false)), ("house-wild", Rules::house(true))] {
        let mut group = c.benchmark_group(format!("solve {name}, {POSITIONS} positions"));
        group.sample_size(10);
        for cards in [4, 6, 8, 10] {
            let all = positions(rules, cards);
            group.bench_with_input(BenchmarkId::new("cards a hand", cards), &all, |b, all| {
                b.iter(|| {
                    for position in all {
                        black_box(Solver::new().side_to_move_wins(position));
                    }
                })
            });
        }
        group.finish();
    }
}

/// Every position of the built-in puzzle set (`crates/ddz-server/data/puzzles.jsonl`), each solved by a fresh
/// solver: the slowest is printed once, before the timing.
fn built_in_puzzles(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ddz-server/data/puzzles.jsonl");
    let text = std::fs::read_to_string(path).expect("the built-in puzzles");
    let positions: Vec<Endgame> = text
        .lines()
        .map(|line| {
            let puzzle: serde_json::Value = serde_json::from_str(line).expect("a puzzle");
            serde_json::from_value(puzzle["endgame"].clone()).expect("its position")
        })
        .collect();
    let slowest = positions
        .iter()
        .map(|position| {
            let started = std::time::Instant::now();
            Solver::new().side_to_move_wins(position);
            started.elapsed()
        })
        .max()
        .unwrap_or_default();
    println!("built-in puzzles: {} positions, the slowest solved in {slowest:?}", positions.len());
    let mut group = c.benchmark_group("solve the built-in puzzles");
    group.sample_size(10);
    group.bench_function("every position", |b| {
        b.iter(|| {
            for position in &positions {
                black_box(Solver::new().side_to_move_wins(position));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, solve, built_in_puzzles);
criterion_main!(benches);
