//! Tournaments (docs/tournaments.md): the rules that decide who sits where and who goes on. They are the
//! settings and their bounds, the rising line of the chip rounds, the chips carried into the fixed-deal
//! rounds, the seat draw from the tournament's committed seed (never two entrants of one address at a
//! table), and Swiss reseating between rounds.
//!
//! Pure: seeds, entrants and scores come in as values. The fold that runs a tournament on these rules is
//! the next part of issue 52.

use ddz_engine::{Seed, TableType};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

/// A tournament's settings, chosen at creation within [`Settings::check`]'s bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub table: TableType,
    /// Everyone's chips at the start.
    pub chips: i64,
    /// The line at the start, in percent of the starting chips: below it after a deal, a player is out.
    pub line_percent: i64,
    /// How much the line rises, in percent of the starting chips, every [`Settings::line_every`] deals.
    pub line_step_percent: i64,
    pub line_every: u32,
    /// The chip rounds end when no more players than this remain.
    pub chip_rounds_until: usize,
    /// The share of a player's chips carried into the fixed-deal rounds, in percent.
    pub carry_percent: i64,
    /// Deals each table plays in a fixed-deal round.
    pub deals_per_round: u32,
    /// Deals at the final table.
    pub final_deals: u32,
}

/// Why settings are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("starting chips are 1,000 to 1,000,000")]
    Chips,
    #[error("the line starts at 0 to 50% of the starting chips")]
    Line,
    #[error("the line rises by 0 to 50% of the starting chips, every 1 to 12 deals")]
    LineStep,
    #[error("the chip rounds end at a multiple of {seats} players, from {seats} to half the entrants")]
    ChipRoundsUntil { seats: usize },
    #[error("0 to 100% of the chips are carried")]
    Carry,
    #[error("a round is 1 to 12 deals, the final 1 to 24")]
    Deals,
    #[error("{entrants} entrants do not fill tables of {seats}")]
    Entrants { entrants: usize, seats: usize },
}

impl Settings {
    /// The defaults of docs/tournaments.md, for 27 players at House (scaled to `entrants` and `table`).
    pub fn default_for(table: TableType, entrants: usize) -> Settings {
        let seats = seats(table);
        Settings {
            table,
            chips: 10_000,
            line_percent: 10,
            line_step_percent: 10,
            line_every: 3,
            chip_rounds_until: (entrants / 3 / seats).max(1) * seats,
            carry_percent: 10,
            deals_per_round: 3,
            final_deals: 6,
        }
    }

    /// Whether the settings are within their bounds for `entrants` players.
    pub fn check(&self, entrants: usize) -> Result<(), SettingsError> {
        let seats = seats(self.table);
        if entrants < 2 * seats || !entrants.is_multiple_of(seats) {
            return Err(SettingsError::Entrants { entrants, seats });
        }
        if !(1_000..=1_000_000).contains(&self.chips) {
            return Err(SettingsError::Chips);
        }
        if !(0..=50).contains(&self.line_percent) {
            return Err(SettingsError::Line);
        }
        if !(0..=50).contains(&self.line_step_percent) || !(1..=12).contains(&self.line_every) {
            return Err(SettingsError::LineStep);
        }
        let until = self.chip_rounds_until;
        if until < seats || !until.is_multiple_of(seats) || until > entrants / 2 {
            return Err(SettingsError::ChipRoundsUntil { seats });
        }
        if !(0..=100).contains(&self.carry_percent) {
            return Err(SettingsError::Carry);
        }
        if !(1..=12).contains(&self.deals_per_round) || !(1..=24).contains(&self.final_deals) {
            return Err(SettingsError::Deals);
        }
        Ok(())
    }

    /// The line after `deals` deals of the chip rounds: a player with fewer chips is out.
    pub fn line(&self, deals: u32) -> i64 {
        let percent = self.line_percent + self.line_step_percent * i64::from(deals / self.line_every);
        self.chips * percent / 100
    }

    /// The chips a player with `chips` carries into the fixed-deal rounds (rounded down, never below 0).
    pub fn carried(&self, chips: i64) -> i64 {
        chips.max(0) * self.carry_percent / 100
    }
}

/// Seats at a table of `table`.
pub fn seats(table: TableType) -> usize {
    table.farmers() + 1
}

/// An entrant as the seat draw knows them: where they play from (the address fair play compares).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub address: Option<String>,
}

/// The tables of round `round`, as indices into `entrants`: a draw from the tournament's seed, so that
/// anyone who learns the seed afterwards can check it, and nobody chooses a table or a partner. Two
/// entrants of one address never share a table while a swap with another table can part them.
pub fn draw_tables(entrants: &[Entrant], seats: usize, seed: &Seed, round: u32) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.shuffle(&mut round_rng(seed, round));
    let mut tables: Vec<Vec<usize>> = order.chunks(seats).map(<[usize]>::to_vec).collect();
    part_addresses(&mut tables, entrants);
    tables
}

/// The random numbers of round `round`: SHA-256 of the seed and the round, so that rounds never share a
/// draw.
fn round_rng(seed: &Seed, round: u32) -> ChaCha20Rng {
    let key: [u8; 32] = Sha256::new()
        .chain_update(b"ddz-tournament/1:")
        .chain_update(seed.0)
        .chain_update(round.to_be_bytes())
        .finalize()
        .into();
    ChaCha20Rng::from_seed(key)
}

/// Moves the later of two entrants of one address at a table to another table, in exchange for a seat
/// whose entrant clashes with nobody there.
fn part_addresses(tables: &mut [Vec<usize>], entrants: &[Entrant]) {
    let address = |i: usize| entrants[i].address.as_deref();
    let clashes = |table: &[usize], who: usize, skip: usize| {
        address(who).is_some() && table.iter().any(|&other| other != skip && address(other) == address(who))
    };
    for t in 0..tables.len() {
        for s in 0..tables[t].len() {
            let who = tables[t][s];
            if !clashes(&tables[t][..s], who, who) {
                continue;
            }
            // Another table where `who` clashes with nobody, and one of whose entrants clashes with nobody here.
            let swap = (0..tables.len()).filter(|&u| u != t).find_map(|u| {
                let (here, there) = (&tables[t], &tables[u]);
                (0..there.len()).find_map(|v| {
                    let other = there[v];
                    let fits_there = !clashes(there, who, other);
                    let fits_here = !clashes(here, other, who);
                    (fits_there && fits_here).then_some((u, v))
                })
            });
            if let Some((u, v)) = swap {
                let other = tables[u][v];
                tables[u][v] = who;
                tables[t][s] = other;
            }
        }
    }
}

/// Swiss reseating between fixed-deal rounds (瑞士移位): with the players ranked best first, table *i* of
/// *T* gets ranks *i*, *i + T*, *i + 2T*, …, so each table mixes leaders and chasers and players meet new
/// opponents. A table that would seat two players who shared a table in `before` swaps its lowest-ranked
/// player with the next table's, where that leaves fewer such pairs at the two tables.
pub fn swiss_tables(ranked: &[usize], seats: usize, before: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let count = ranked.len() / seats;
    let mut tables: Vec<Vec<usize>> = (0..count).map(|i| (0..seats).map(|s| ranked[i + s * count]).collect()).collect();
    let met = |a: usize, b: usize| before.iter().any(|table| table.contains(&a) && table.contains(&b));
    // How many pairs at a table shared one in `before`.
    let repeats = |table: &[usize]| {
        table.iter().enumerate().map(|(i, &a)| table[i + 1..].iter().filter(|&&b| met(a, b)).count()).sum::<usize>()
    };
    for t in 0..count {
        let next = (t + 1) % count;
        if next == t || repeats(&tables[t]) == 0 {
            continue;
        }
        let last = seats - 1;
        let was = repeats(&tables[t]) + repeats(&tables[next]);
        let (mine, theirs) = (tables[t][last], tables[next][last]);
        tables[t][last] = theirs;
        tables[next][last] = mine;
        if repeats(&tables[t]) + repeats(&tables[next]) >= was {
            // No fewer repeated pairs: the swap is undone.
            tables[t][last] = mine;
            tables[next][last] = theirs;
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(addresses: &[&str]) -> Vec<Entrant> {
        addresses.iter().map(|a| Entrant { address: Some(a.to_string()) }).collect()
    }

    #[test]
    fn the_defaults_are_within_their_bounds_for_every_table_type() {
        for (table, entrants) in [(TableType::House, 27), (TableType::NoShuffle, 9), (TableType::TwoPlayer, 16)] {
            let settings = Settings::default_for(table, entrants);
            assert_eq!(settings.check(entrants), Ok(()), "{table:?}");
        }
        assert_eq!(Settings::default_for(TableType::House, 27).chip_rounds_until, 9);
    }

    #[test]
    fn settings_out_of_their_bounds_are_refused_with_the_reason() {
        let good = Settings::default_for(TableType::House, 27);
        assert_eq!(Settings { chips: 10, ..good.clone() }.check(27), Err(SettingsError::Chips));
        assert_eq!(Settings { line_percent: 60, ..good.clone() }.check(27), Err(SettingsError::Line));
        assert_eq!(Settings { line_every: 0, ..good.clone() }.check(27), Err(SettingsError::LineStep));
        let seats = 3;
        assert_eq!(
            Settings { chip_rounds_until: 10, ..good.clone() }.check(27),
            Err(SettingsError::ChipRoundsUntil { seats })
        );
        assert_eq!(
            Settings { chip_rounds_until: 15, ..good.clone() }.check(27),
            Err(SettingsError::ChipRoundsUntil { seats })
        );
        assert_eq!(Settings { carry_percent: 101, ..good.clone() }.check(27), Err(SettingsError::Carry));
        assert_eq!(Settings { final_deals: 0, ..good.clone() }.check(27), Err(SettingsError::Deals));
        assert_eq!(good.check(26), Err(SettingsError::Entrants { entrants: 26, seats }));
        assert_eq!(good.check(3), Err(SettingsError::Entrants { entrants: 3, seats }));
    }

    #[test]
    fn the_line_starts_at_its_share_of_the_chips_and_rises_every_few_deals() {
        let settings = Settings::default_for(TableType::House, 27);
        assert_eq!([0, 2, 3, 5, 6, 9].map(|deals| settings.line(deals)), [1_000, 1_000, 2_000, 2_000, 3_000, 4_000]);
    }

    #[test]
    fn a_share_of_the_chips_is_carried_into_the_fixed_deal_rounds() {
        let settings = Settings::default_for(TableType::House, 27);
        assert_eq!((settings.carried(25_000), settings.carried(1_009), settings.carried(-300)), (2_500, 100, 0));
    }

    #[test]
    fn the_seat_draw_is_the_seeds_and_the_rounds_and_seats_everyone_once() {
        let field = entrants(&["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
        let seed = Seed::from_u64(7);
        let first = draw_tables(&field, 3, &seed, 1);
        assert_eq!(first, draw_tables(&field, 3, &seed, 1), "anyone with the seed draws the same tables");
        assert_ne!(first, draw_tables(&field, 3, &seed, 2), "each round its own draw");
        assert_ne!(first, draw_tables(&field, 3, &Seed::from_u64(8), 1), "each seed its own draw");
        let mut seated: Vec<usize> = first.concat();
        seated.sort_unstable();
        assert_eq!(seated, (0..9).collect::<Vec<_>>());
        assert!(first.iter().all(|table| table.len() == 3));
    }

    #[test]
    fn two_entrants_of_one_address_never_share_a_table() {
        // Three pairs from one address each, among nine: every draw parts every pair.
        let field = entrants(&["home", "home", "office", "office", "cafe", "cafe", "g", "h", "i"]);
        for round in 0..200 {
            for table in draw_tables(&field, 3, &Seed::from_u64(3), round) {
                let mut addresses: Vec<_> = table.iter().map(|&i| field[i].address.clone()).collect();
                addresses.sort();
                addresses.dedup();
                assert_eq!(addresses.len(), 3, "round {round}: {table:?}");
            }
        }
        // Without an address there is nothing to compare.
        let unknown = vec![Entrant { address: None }; 6];
        assert_eq!(draw_tables(&unknown, 3, &Seed::from_u64(3), 0).concat().len(), 6);
    }

    #[test]
    fn swiss_reseating_mixes_the_ranking_across_tables() {
        let ranked: Vec<usize> = (0..9).collect();
        assert_eq!(swiss_tables(&ranked, 3, &[]), [vec![0, 3, 6], vec![1, 4, 7], vec![2, 5, 8]]);
        assert_eq!(swiss_tables(&[0, 1, 2, 3], 2, &[]), [vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn swiss_reseating_parts_players_who_just_shared_a_table_where_it_can() {
        let ranked: Vec<usize> = (0..9).collect();
        // 0 and 6 sat together last round: the first table's last seat trades with the second's.
        let before = [vec![0, 6, 2], vec![1, 3, 4], vec![5, 7, 8]];
        let tables = swiss_tables(&ranked, 3, &before);
        assert_eq!(tables[0], [0, 3, 7]);
        let met = |a: usize, b: usize| before.iter().any(|t| t.contains(&a) && t.contains(&b));
        assert!(!met(tables[0][0], tables[0][2]), "{tables:?}");
        let mut seated = tables.concat();
        seated.sort_unstable();
        assert_eq!(seated, ranked);
    }
}
