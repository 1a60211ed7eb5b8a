//! RULES.md 6.1: when the host closes a House room, the balances are reconciled into the shortest list of
//! whole-dollar payments. Random nets (summing to zero, up to 8 names) settle every net to zero with
//! exactly the minimum number of payments, checked against an independent brute-force search; larger
//! rooms (12 names, and more than the exact limit) settle too.

use std::collections::BTreeMap;

use ddz_engine::{Payment, settle};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn named(values: &[i64]) -> Vec<(String, i64)> {
    values.iter().enumerate().map(|(i, &v)| (format!("P{i}"), v)).collect()
}

/// Applies the payments and checks that every net ends at zero, that only debtors pay and only creditors
/// are paid, and that every payment is a positive whole amount between two different names.
fn check_settles(nets: &[(String, i64)], payments: &[Payment]) {
    let start: BTreeMap<&str, i64> = nets.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut left = start.clone();
    for p in payments {
        assert!(p.amount > 0, "{p}");
        assert_ne!(p.from, p.to, "{p}");
        assert!(start[p.from.as_str()] < 0, "{p}: the payer is not in debt");
        assert!(start[p.to.as_str()] > 0, "{p}: the payee is not owed");
        *left.get_mut(p.from.as_str()).expect("a known payer") += p.amount;
        *left.get_mut(p.to.as_str()).expect("a known payee") -= p.amount;
    }
    assert!(left.values().all(|&v| v == 0), "{nets:?} left {left:?} after {payments:?}");
}

/// The fewest payments that settle `debts`, by exhaustive search: the first unsettled person settles in
/// full with each person of the opposite sign in turn.
fn brute_force_minimum(debts: &mut [i64], from: usize) -> usize {
    let Some(start) = (from..debts.len()).find(|&i| debts[i] != 0) else {
        return 0;
    };
    let mut best = usize::MAX;
    for i in start + 1..debts.len() {
        if debts[i].signum() == -debts[start].signum() {
            debts[i] += debts[start];
            let amount = debts[start];
            debts[start] = 0;
            best = best.min(1 + brute_force_minimum(debts, start + 1));
            debts[start] = amount;
            debts[i] -= debts[start];
        }
    }
    best
}

/// Nets of `n` names that sum to zero: random values in `-spread..=spread`, the last making up the sum.
fn random_nets(n: usize, spread: i64, rng: &mut ChaCha8Rng) -> Vec<i64> {
    let mut values: Vec<i64> =
        (1..n).map(|_| if rng.random_ratio(1, 6) { 0 } else { rng.random_range(-spread..=spread) }).collect();
    values.push(-values.iter().sum::<i64>());
    values.shuffle(rng);
    values
}

#[test]
fn the_brute_force_agrees_with_known_minimums() {
    assert_eq!(brute_force_minimum(&mut [], 0), 0);
    assert_eq!(brute_force_minimum(&mut [0, 0], 0), 0);
    assert_eq!(brute_force_minimum(&mut [15, -15, 0], 0), 1);
    assert_eq!(brute_force_minimum(&mut [10, 20, -30], 0), 2);
    // Two separate pairs settle in two payments, not three.
    assert_eq!(brute_force_minimum(&mut [5, -3, 3, -5], 0), 2);
    assert_eq!(brute_force_minimum(&mut [1, 2, 3, -6], 0), 3);
}

#[test]
fn the_rules_example_is_one_payment() {
    let nets = vec![("Alice".to_string(), 15), ("Bea".to_string(), -15), ("Cy".to_string(), 0)];
    let payments = settle(&nets);
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0].to_string(), "Bea pays Alice $15");
}

#[test]
fn nothing_to_settle_needs_no_payments() {
    assert!(settle(&[]).is_empty());
    assert!(settle(&named(&[0, 0, 0])).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Up to 8 names: every net is settled with exactly the minimum number of payments.
    #[test]
    fn random_nets_settle_with_the_fewest_payments(
        seed in any::<u64>(), n in 1usize..=8, small in any::<bool>()
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Small spreads make zero-sum subgroups (and so shorter settlements) likely.
        let spread = if small { 4 } else { 60 };
        let values = random_nets(n, spread, &mut rng);
        let nets = named(&values);
        let payments = settle(&nets);
        check_settles(&nets, &payments);
        let minimum = brute_force_minimum(&mut values.clone(), 0);
        prop_assert_eq!(payments.len(), minimum, "nets {:?}: {:?}", values, payments);
    }
}

/// Separate pairs that owe each other: the minimum is one payment per pair.
#[test]
fn pairs_settle_pairwise() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..50 {
        let mut values: Vec<i64> = (1..=4).flat_map(|k| [k * 7, -k * 7]).collect();
        values.shuffle(&mut rng);
        let nets = named(&values);
        let payments = settle(&nets);
        check_settles(&nets, &payments);
        assert_eq!(payments.len(), 4, "{values:?}");
    }
}

/// A room of 12 names settles, with the minimum where it is known.
#[test]
fn twelve_names_settle() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    // Six pairs of distinct amounts: six payments.
    for _ in 0..20 {
        let mut values: Vec<i64> = (1..=6).flat_map(|k| [k * 11, -k * 11]).collect();
        values.shuffle(&mut rng);
        let nets = named(&values);
        let payments = settle(&nets);
        check_settles(&nets, &payments);
        assert_eq!(payments.len(), 6, "{values:?}");
    }
    // Random nets: settled, within the bounds, and the minimum for a few checked by brute force.
    for round in 0..40 {
        let values = random_nets(12, if round % 2 == 0 { 5 } else { 80 }, &mut rng);
        let nets = named(&values);
        let payments = settle(&nets);
        check_settles(&nets, &payments);
        let nonzero = values.iter().filter(|&&v| v != 0).count();
        assert!(payments.len() < nonzero.max(1), "{values:?}: {payments:?}");
        assert!(2 * payments.len() >= nonzero, "{values:?}: {payments:?}");
        if round < 4 {
            let minimum = brute_force_minimum(&mut values.clone(), 0);
            assert_eq!(payments.len(), minimum, "{values:?}");
        }
    }
}

/// More names than the exact method covers still settle every net.
#[test]
fn many_names_settle() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for _ in 0..20 {
        let values = random_nets(24, 100, &mut rng);
        let nets = named(&values);
        let payments = settle(&nets);
        check_settles(&nets, &payments);
        let nonzero = values.iter().filter(|&&v| v != 0).count();
        assert!(payments.len() < nonzero.max(1));
    }
}
