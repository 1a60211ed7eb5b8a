//! Quick match, the pure part: who among the players waiting for a table type sits down together, and
//! when bots fill the seats nobody came for. Pure: the queue and the time come in as values, so the
//! choice is the same on every node and in tests.
//!
//! Players are matched with others of similar rating: the rating gap a table accepts starts at
//! [`GAP_AT_START`] and widens by [`GAP_PER_SECOND`] for each second the longest-waiting of them has
//! waited, so that nobody waits for an exact peer. The oldest ticket is served first. Once it has
//! waited [`MatchRules::fill_after_ms`], it sits down with whoever else fits and bots take the rest.
//! Two tickets from one address never sit at one table (a person's second name would be their partner).

use crate::domain::names::PlayerName;

/// One player in the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub ticket: String,
    pub name: PlayerName,
    /// The player's rating for the table's family (the starting rating for a newcomer).
    pub rating: f64,
    /// When the player joined the queue (ms since the epoch).
    pub since: u64,
    /// The address the ticket was taken from (behind the trusted balancers; IPv6 by its /64).
    pub address: Option<String>,
}

impl Waiting {
    /// Whether the two tickets come from one address.
    fn shares_address(&self, other: &Waiting) -> bool {
        self.address.is_some() && self.address == other.address
    }
}

/// A table to set up: its players in seat order, and how many bots fill the other seats.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub players: Vec<Waiting>,
    pub bots: usize,
}

/// How a queue is matched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchRules {
    /// Seats at the table: 3, or 2 at Two Player.
    pub seats: usize,
    /// How long the oldest player waits for people before bots fill the empty seats.
    pub fill_after_ms: u64,
}

/// The rating gap players a table accepts at first...
pub const GAP_AT_START: f64 = 150.0;
/// ...and how much wider it grows for each second waited.
pub const GAP_PER_SECOND: f64 = 50.0;

/// The widest rating gap acceptable for a table whose longest-waiting player joined at `since`.
pub fn allowed_gap(since: u64, now: u64) -> f64 {
    GAP_AT_START + GAP_PER_SECOND * now.saturating_sub(since) as f64 / 1000.0
}

/// The tables to set up now from `queue` (one table type's waiting players), oldest ticket first; every
/// player is in at most one table. Players left out keep waiting.
pub fn match_queue(queue: &[Waiting], rules: MatchRules, now: u64) -> Vec<Table> {
    let mut waiting: Vec<&Waiting> = queue.iter().collect();
    waiting.sort_by(|a, b| a.since.cmp(&b.since).then_with(|| a.ticket.cmp(&b.ticket)));
    let mut tables = Vec::new();
    while let Some(oldest) = waiting.first().copied() {
        let gap = allowed_gap(oldest.since, now);
        // The others who fit with the oldest, the closest ratings first (then the longest waiting).
        let mut fits: Vec<&Waiting> =
            waiting[1..].iter().copied().filter(|w| (w.rating - oldest.rating).abs() <= gap).collect();
        fits.sort_by(|a, b| {
            let (da, db) = ((a.rating - oldest.rating).abs(), (b.rating - oldest.rating).abs());
            da.total_cmp(&db).then_with(|| a.since.cmp(&b.since))
        });
        // Never two tickets of one address at a table.
        let mut chosen: Vec<&Waiting> = vec![oldest];
        for candidate in fits {
            if chosen.len() < rules.seats && !chosen.iter().any(|c| c.shares_address(candidate)) {
                chosen.push(candidate);
            }
        }
        let fits: Vec<&Waiting> = chosen.split_off(1);
        let full = fits.len() == rules.seats - 1;
        let fill = now.saturating_sub(oldest.since) >= rules.fill_after_ms;
        if !full && !fill {
            // The oldest waits on; the others may still make a table among themselves.
            waiting.remove(0);
            continue;
        }
        let mut players = vec![oldest.clone()];
        players.extend(fits.iter().map(|w| (*w).clone()));
        waiting.retain(|w| !players.iter().any(|p| p.ticket == w.ticket));
        tables.push(Table { bots: rules.seats - players.len(), players });
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    const THREE: MatchRules = MatchRules { seats: 3, fill_after_ms: 10_000 };

    fn waiting(name: &str, rating: f64, since: u64) -> Waiting {
        Waiting {
            ticket: format!("t-{name}"),
            name: PlayerName::parse(name).unwrap(),
            rating,
            since,
            address: Some(format!("ip-{name}")),
        }
    }

    fn names(table: &Table) -> Vec<&str> {
        table.players.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn three_players_of_similar_rating_sit_down_at_once() {
        let queue = [waiting("Ann", 1500.0, 0), waiting("Bea", 1520.0, 100), waiting("Cy", 1480.0, 200)];
        let tables = match_queue(&queue, THREE, 300);
        assert_eq!(tables.len(), 1);
        assert_eq!(names(&tables[0]), ["Ann", "Bea", "Cy"]);
        assert_eq!(tables[0].bots, 0);
    }

    #[test]
    fn two_players_wait_for_a_third_until_the_fill_time_then_bots_sit_with_them() {
        let queue = [waiting("Ann", 1500.0, 0), waiting("Bea", 1500.0, 2_000)];
        assert!(match_queue(&queue, THREE, 9_999).is_empty());
        let tables = match_queue(&queue, THREE, 10_000);
        assert_eq!(tables, vec![Table { players: queue.to_vec(), bots: 1 }]);
    }

    #[test]
    fn a_player_alone_gets_two_bots_after_the_wait() {
        let queue = [waiting("Ann", 1500.0, 0)];
        assert!(match_queue(&queue, THREE, 5_000).is_empty());
        assert_eq!(match_queue(&queue, THREE, 10_000)[0].bots, 2);
    }

    #[test]
    fn ratings_far_apart_are_not_matched_until_the_gap_has_widened() {
        // 600 apart: a gap of 150 + 50 a second reaches 600 after 9 s.
        let queue = [waiting("Ann", 1200.0, 0), waiting("Bea", 1800.0, 0), waiting("Cy", 1800.0, 0)];
        let early = match_queue(&queue, THREE, 1_000);
        assert!(early.is_empty(), "Bea and Cy wait for a third near them, Ann for anyone: {early:?}");
        let later = match_queue(&queue, THREE, 9_000);
        assert_eq!(later.len(), 1);
        assert_eq!(names(&later[0]), ["Ann", "Bea", "Cy"]);
    }

    #[test]
    fn the_closest_ratings_are_chosen_and_the_rest_keep_waiting() {
        let queue = [
            waiting("Ann", 1500.0, 0),
            waiting("Far", 1640.0, 10),
            waiting("Bea", 1510.0, 20),
            waiting("Cy", 1490.0, 30),
        ];
        let tables = match_queue(&queue, THREE, 1_000);
        assert_eq!(tables.len(), 1);
        assert_eq!(names(&tables[0]), ["Ann", "Bea", "Cy"]);
    }

    #[test]
    fn two_player_tables_seat_two() {
        let rules = MatchRules { seats: 2, fill_after_ms: 10_000 };
        let queue = [waiting("Ann", 1500.0, 0), waiting("Bea", 1500.0, 0), waiting("Cy", 1500.0, 0)];
        let tables = match_queue(&queue, rules, 100);
        assert_eq!(tables.len(), 1, "Cy waits for a partner");
        assert_eq!(names(&tables[0]), ["Ann", "Bea"]);
        let later = match_queue(&queue[2..], rules, 10_000);
        assert_eq!(later[0].bots, 1);
    }

    #[test]
    fn two_tickets_from_one_address_never_sit_together() {
        let from = |name, address: &str| Waiting { address: Some(address.into()), ..waiting(name, 1500.0, 0) };
        let queue = [from("Ann", "home"), from("Ann2", "home"), from("Bea", "cafe"), from("Cy", "office")];
        let tables = match_queue(&queue, THREE, 1_000);
        assert_eq!(tables.len(), 1);
        assert_eq!(names(&tables[0]), ["Ann", "Bea", "Cy"], "Ann's second name waits for another table");
        let alone = match_queue(&queue[..2], THREE, 10_000);
        assert_eq!(alone.len(), 2, "after the wait each sits with bots, apart: {alone:?}");
        assert!(alone.iter().all(|t| t.players.len() == 1 && t.bots == 2));
        let unknown = [
            Waiting { address: None, ..waiting("Ann", 1500.0, 0) },
            Waiting { address: None, ..waiting("Bea", 1500.0, 0) },
        ];
        assert_eq!(
            match_queue(&unknown, MatchRules { seats: 2, fill_after_ms: 10_000 }, 100).len(),
            1,
            "no address is no shared address"
        );
    }

    #[test]
    fn every_player_is_at_most_at_one_table() {
        let queue: Vec<Waiting> = (0..10).map(|i| waiting(&format!("P{i}"), 1500.0 + i as f64, i * 10)).collect();
        let tables = match_queue(&queue, THREE, 20_000);
        let seated: Vec<&str> = tables.iter().flat_map(names).collect();
        let mut unique = seated.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(seated.len(), unique.len());
        assert_eq!(seated.len(), 10, "after the wait everyone sits, bots filling the last table");
        assert_eq!(tables.iter().map(|t| t.bots).sum::<usize>(), 2);
    }
}
