//! A room's ledger across deals (RULES.md 5.1, 5.2, 5.3, 6.1 and 7): balances by player name, whose turn
//! it is to go first, the No Shuffle collected pack, and the settlement when the room closes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::deal::{Deal, DealSetup, Seat, Start};
use crate::rng::Seed;
use crate::rules::{Rules, TableType};

/// Every House player starts with this many dollars.
pub const STARTING_BALANCE: i64 = 100;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// The rules of the next deal (the host may change the House Wild between deals).
    pub rules: Rules,
    pub deals: u32,
    /// The seat that went first in the last deal.
    pub last_first: Option<Seat>,
    /// No Shuffle: the pack collected from the last deal.
    pub pack: Option<Vec<Card>>,
    /// Balances by player name: dollars (House, from $100) or points (from 0).
    pub balances: BTreeMap<String, i64>,
}

/// One payment of the settlement: `Bea pays Alice $15`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    pub from: String,
    pub to: String,
    pub amount: i64,
}

impl std::fmt::Display for Payment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} pays {} ${}", self.from, self.to, self.amount)
    }
}

impl Ledger {
    pub fn new(rules: Rules) -> Ledger {
        Ledger { rules, deals: 0, last_first: None, pack: None, balances: BTreeMap::new() }
    }

    /// A name's starting balance.
    pub fn starting_balance(&self) -> i64 {
        if self.rules.table == TableType::House { STARTING_BALANCE } else { 0 }
    }

    /// Adds a player to the ledger (a no-op for a name already there).
    pub fn join(&mut self, name: &str) {
        let start = self.starting_balance();
        self.balances.entry(name.to_string()).or_insert(start);
    }

    /// The setup of the next deal from `seed`: the first seat moves one to the left each deal (House:
    /// the priority draw on the first deal; elsewhere random); No Shuffle re-deals the collected pack.
    pub fn next_setup(&self, seed: Seed) -> DealSetup {
        let players = self.rules.players as usize;
        let start = match (self.last_first, self.rules.table) {
            (Some(last), _) => Start::Seat((last + 1) % players),
            (None, TableType::House) => Start::PriorityDraw,
            (None, _) => Start::Random,
        };
        match (&self.pack, self.rules.table) {
            (Some(pack), TableType::NoShuffle) => DealSetup::redeal(self.rules, seed, start, pack.clone()),
            _ => DealSetup::shuffled(self.rules, seed, start),
        }
    }

    /// Books a finished deal played by `names` (by seat).
    pub fn record(&mut self, deal: &Deal, names: &[String]) {
        self.deals += 1;
        self.last_first = Some(deal.first());
        if self.rules.table == TableType::NoShuffle {
            self.pack = Some(deal.collected_pack());
        }
        if let Some(result) = deal.result() {
            for (name, delta) in names.iter().zip(&result.score) {
                self.join(name);
                *self.balances.get_mut(name).expect("joined") += delta;
            }
        }
    }

    /// Each name's net: balance minus the starting balance.
    pub fn nets(&self) -> Vec<(String, i64)> {
        let start = self.starting_balance();
        self.balances.iter().map(|(name, b)| (name.clone(), b - start)).collect()
    }

    /// The shortest list of payments that zeroes every net.
    pub fn settlement(&self) -> Vec<Payment> {
        settle(&self.nets())
    }
}

/// The shortest list of whole-dollar payments that zeroes every net (nets must sum to zero).
///
/// Exact for up to 16 names with a non-zero net: the fewest payments is the number of such names minus
/// the most groups they can be split into that each sum to zero. Beyond that it settles greedily.
///
/// ```
/// use ddz_engine::ledger::settle;
/// let nets = [("Alice".to_string(), 15), ("Bea".to_string(), -15), ("Cy".to_string(), 0)];
/// let payments = settle(&nets);
/// assert_eq!(payments.len(), 1);
/// assert_eq!(payments[0].to_string(), "Bea pays Alice $15");
/// ```
pub fn settle(nets: &[(String, i64)]) -> Vec<Payment> {
    assert_eq!(nets.iter().map(|(_, n)| n).sum::<i64>(), 0, "nets must sum to zero");
    let people: Vec<&(String, i64)> = nets.iter().filter(|(_, n)| *n != 0).collect();
    let groups = if people.len() <= 16 { zero_sum_groups(&people) } else { vec![people] };
    groups.iter().flat_map(|group| settle_group(group)).collect()
}

/// Splits `people` into the most groups that each sum to zero.
fn zero_sum_groups<'a>(people: &[&'a (String, i64)]) -> Vec<Vec<&'a (String, i64)>> {
    let n = people.len();
    let full = (1usize << n) - 1;
    let mut sum = vec![0i64; full + 1];
    let mut best = vec![0u32; full + 1];
    for mask in 1..=full {
        let low = mask.trailing_zeros() as usize;
        sum[mask] = sum[mask & (mask - 1)] + people[low].1;
        let most = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| best[mask ^ (1 << i)]).max().unwrap_or(0);
        best[mask] = most + u32::from(sum[mask] == 0);
    }
    // Walk back: an order of people whose prefix sums return to zero once per group.
    let mut order = Vec::with_capacity(n);
    let mut mask = full;
    while mask != 0 {
        let here = best[mask] - u32::from(sum[mask] == 0);
        let i = (0..n).find(|i| mask & (1 << i) != 0 && best[mask ^ (1 << i)] == here).expect("a best step");
        order.push(i);
        mask ^= 1 << i;
    }
    order.reverse();
    let mut groups = Vec::new();
    let mut current = Vec::new();
    let mut running = 0;
    for i in order {
        current.push(people[i]);
        running += people[i].1;
        if running == 0 {
            groups.push(std::mem::take(&mut current));
        }
    }
    groups
}

/// Settles a zero-sum group: each payment clears at least one person, the last clears two.
fn settle_group(group: &[&(String, i64)]) -> Vec<Payment> {
    let mut debtors: Vec<(String, i64)> = group.iter().filter(|(_, n)| *n < 0).map(|(s, n)| (s.clone(), -n)).collect();
    let mut creditors: Vec<(String, i64)> =
        group.iter().filter(|(_, n)| *n > 0).map(|(s, n)| (s.clone(), *n)).collect();
    let mut payments = Vec::new();
    while let (Some(debtor), Some(creditor)) = (debtors.last_mut(), creditors.last_mut()) {
        let amount = debtor.1.min(creditor.1);
        payments.push(Payment { from: debtor.0.clone(), to: creditor.0.clone(), amount });
        debtor.1 -= amount;
        creditor.1 -= amount;
        if debtor.1 == 0 {
            debtors.pop();
        }
        if creditors.last().is_some_and(|c| c.1 == 0) {
            creditors.pop();
        }
    }
    payments
}
