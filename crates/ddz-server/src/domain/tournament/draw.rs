//! Who sits where (docs/tournaments.md, "The draw"): the seat draw of the chip rounds from the tournament's
//! seed, the parting of entrants of one address, Swiss reseating between fixed-deal rounds, and how many
//! advance. Pure and written out exactly, so that anyone with the revealed seed and the event's public
//! record draws every round again (`ddz verify-tournament`).

use ddz_engine::Seed;
use ddz_engine::rng::Stream;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

/// The draw new tournaments use: 2, the stream written out in docs/tournaments.md. Version 1 (tournaments
/// created before it, whose `Created` entry names none) shuffled with the `rand` crate's own algorithm.
pub const DRAW: u32 = 2;

/// The tables of round `round` for the players `alive` (indexes into the field, whose addresses are
/// `addresses`): a draw from the tournament's seed, so that anyone who learns the seed afterwards can
/// check it, and nobody chooses a table or a partner. Two entrants of one address never share a table
/// while a swap with another table can part them.
///
/// The order: the players (in `alive`'s order, the field's) shuffled by [`Stream::shuffle`] of the round's
/// key ([`round_key`]), then cut into tables of `seats` in that order, then [`part_addresses`].
pub fn draw_tables(
    alive: &[usize],
    addresses: &[Option<&str>],
    seats: usize,
    seed: &Seed,
    round: u32,
    draw: u32,
) -> Vec<Vec<usize>> {
    let mut order = alive.to_vec();
    let key = round_key(seed, round);
    match draw {
        1 => order.shuffle(&mut ChaCha20Rng::from_seed(key.0)),
        _ => Stream::new(&key).shuffle(&mut order),
    }
    let mut tables: Vec<Vec<usize>> = order.chunks(seats).map(<[usize]>::to_vec).collect();
    part_addresses(&mut tables, addresses);
    tables
}

/// The key of round `round`'s draw: SHA-256 of the ASCII bytes `ddz-tournament/1:`, the seed's 32 bytes
/// and the round's number as 4 bytes big-endian, so that rounds never share a draw.
fn round_key(seed: &Seed, round: u32) -> Seed {
    let key: [u8; 32] = Sha256::new()
        .chain_update(b"ddz-tournament/1:")
        .chain_update(seed.0)
        .chain_update(round.to_be_bytes())
        .finalize()
        .into();
    Seed(key)
}

/// Moves the later of two entrants of one address at a table to another table, in exchange for a seat
/// whose entrant clashes with nobody there. Exactly: for each table `t` in order and each seat `s` in
/// order, if the entrant there shares an address with an entrant at an earlier seat of `t`, the first
/// table `u ≠ t` (in order) with a seat `v` (in order) whose entrant could take `s` and at which the
/// first could sit (neither then shares an address with anyone at their new table, the one they leave
/// aside) swaps seats with it; with no such seat, nothing moves. An entrant without an address (a bot)
/// clashes with nobody.
pub fn part_addresses(tables: &mut [Vec<usize>], addresses: &[Option<&str>]) {
    let address = |i: usize| addresses[i];
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

/// Players advancing from a fixed-deal round of `field`: two thirds, in whole tables, at least one table
/// fewer, never fewer than the final table.
pub fn advancing(field: usize, seats: usize) -> usize {
    (field * 2 / 3 / seats * seats).min(field.saturating_sub(seats)).max(seats)
}
