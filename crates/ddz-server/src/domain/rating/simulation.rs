//! The ratings simulation (docs/ratings.md, `ddz ratings simulate`): players of known strength play
//! deals whose outcomes are drawn from a known model, and the ratings [`rate_deal`] gives them are
//! compared with the truth as the deals go by: the order (rank correlation), the spread (the slope of
//! the ratings against the strengths) and the role's estimate against the true landlord advantage.
//!
//! The truth: each player has a strength `s` in rating units; the landlord's side wins with probability
//! `1 / (1 + exp(-(s_landlord + r - sum of s_farmers) / c))`, `c = sqrt(2) β`, where `r` is the true
//! role (the landlord's advantage). Some players are anchors, rated fixed at their true strength as bots
//! are on the server. Seeded: the same setup gives the same figures.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ddz_bot::BotKind;

use super::{
    BETA, NEW_PLAYER, Rated, Skill, TableType, bot_skill, certain_win_margin, even_role, rate_deal, role_start,
};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Setup {
    pub family: TableType,
    /// Players in all, the first `anchors` of them rated fixed at their true strength.
    pub players: usize,
    pub anchors: usize,
    pub deals: u32,
    /// The players' strengths are drawn from a normal distribution around 25 with this deviation.
    pub strength_sd: f64,
    /// How often the landlord wins between equal players: the true role advantage.
    pub landlord_wins: f64,
    pub seed: u64,
    /// After how many deals to measure (the last measurement is after all of them).
    pub checkpoints: Vec<u32>,
}

/// The ratings measured against the truth after some deals.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub deals: u32,
    /// Spearman's rank correlation of the rated players' ratings (`mu`) with their strengths.
    pub rank_correlation: f64,
    /// The least-squares slope of the ratings on the strengths: 1 is the right spread.
    pub spread: f64,
    /// The root mean square of rating minus strength over the rated players.
    pub error: f64,
    /// The role's estimate and the truth.
    pub role: f64,
    pub true_role: f64,
    /// The rated players' mean uncertainty.
    pub mean_sigma: f64,
}

/// A player rated `from` who wins every deal against bots of `bot` (two of them; one at Two Player),
/// landlord at random one deal in as many as there are seats, rated by [`rate_deal`] with the role starting
/// where a new server's does: the player's rating after each deal.
pub fn farm(family: TableType, bot: BotKind, from: Skill, deals: u32, seed: u64) -> Vec<Skill> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bots = Rated { skill: bot_skill(bot, family), fixed: true };
    let (mut player, mut role) = (Rated { skill: from, fixed: false }, role_start(family));
    let seats = family.farmers() + 1;
    let mut trajectory = Vec::with_capacity(deals as usize);
    for _ in 0..deals {
        if rng.random_range(0..seats) == 0 {
            let after = rate_deal(player, role, &vec![bots; family.farmers()], true);
            (player.skill, role) = (after.landlord, after.role);
        } else {
            let mut farmers = vec![bots; family.farmers()];
            farmers[0] = player;
            let after = rate_deal(bots, role, &farmers, false);
            (player.skill, role) = (after.farmers[0], after.role);
        }
        trajectory.push(player.skill);
    }
    trajectory
}

/// Where [`farm`] must settle: the bots' rating plus the certain-win margin.
pub fn farm_ceiling(family: TableType, bot: BotKind) -> f64 {
    bot_skill(bot, family).mu + certain_win_margin()
}

/// Plays the setup's deals and measures at each checkpoint.
pub fn simulate(setup: &Setup) -> Vec<Checkpoint> {
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    let strengths: Vec<f64> = (0..setup.players).map(|_| 25.0 + setup.strength_sd * normal(&mut rng)).collect();
    let mut ratings: Vec<Rated> = strengths
        .iter()
        .enumerate()
        .map(|(i, &s)| match i < setup.anchors {
            true => Rated { skill: Skill { mu: s, sigma: 0.5 }, fixed: true },
            false => Rated { skill: NEW_PLAYER, fixed: false },
        })
        .collect();
    let scale = std::f64::consts::SQRT_2 * BETA;
    let true_role = even_role(setup.family).mu + scale * (setup.landlord_wins / (1.0 - setup.landlord_wins)).ln();
    let mut role = even_role(setup.family);
    let seats = setup.family.farmers() + 1;
    let mut checkpoints = Vec::new();
    for deal in 1..=setup.deals {
        let table = distinct(&mut rng, setup.players, seats);
        let (landlord, farmers) = (table[0], &table[1..]);
        let gap = strengths[landlord] + true_role - farmers.iter().map(|&f| strengths[f]).sum::<f64>();
        let landlord_won = rng.random::<f64>() < 1.0 / (1.0 + (-gap / scale).exp());
        let farmer_ratings: Vec<Rated> = farmers.iter().map(|&f| ratings[f]).collect();
        let after = rate_deal(ratings[landlord], role, &farmer_ratings, landlord_won);
        ratings[landlord].skill = after.landlord;
        role = after.role;
        for (&f, skill) in farmers.iter().zip(after.farmers) {
            ratings[f].skill = skill;
        }
        if setup.checkpoints.contains(&deal) || deal == setup.deals {
            checkpoints.push(measure(deal, &strengths, &ratings, role.mu, true_role));
        }
    }
    checkpoints
}

fn measure(deals: u32, strengths: &[f64], ratings: &[Rated], role: f64, true_role: f64) -> Checkpoint {
    let rated: Vec<(f64, f64, f64)> =
        strengths.iter().zip(ratings).filter(|(_, r)| !r.fixed).map(|(&s, r)| (s, r.skill.mu, r.skill.sigma)).collect();
    let truth: Vec<f64> = rated.iter().map(|r| r.0).collect();
    let estimate: Vec<f64> = rated.iter().map(|r| r.1).collect();
    let n = rated.len() as f64;
    Checkpoint {
        deals,
        rank_correlation: pearson(&ranks(&truth), &ranks(&estimate)),
        spread: slope(&truth, &estimate),
        error: (rated.iter().map(|r| (r.1 - r.0).powi(2)).sum::<f64>() / n).sqrt(),
        role,
        true_role,
        mean_sigma: rated.iter().map(|r| r.2).sum::<f64>() / n,
    }
}

/// `count` distinct players of `players`, in random order.
fn distinct(rng: &mut ChaCha8Rng, players: usize, count: usize) -> Vec<usize> {
    let mut chosen = Vec::with_capacity(count);
    while chosen.len() < count {
        let p = rng.random_range(0..players);
        if !chosen.contains(&p) {
            chosen.push(p);
        }
    }
    chosen
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Each value's rank (0 for the smallest); values are continuous, so ties do not occur.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    for (rank, &i) in order.iter().enumerate() {
        ranks[i] = rank as f64;
    }
    ranks
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

fn covariance(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum::<f64>() / x.len() as f64
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    covariance(x, y) / (covariance(x, x) * covariance(y, y)).sqrt()
}

/// The least-squares slope of `y` on `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    covariance(x, y) / covariance(x, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(family: TableType, deals: u32) -> Setup {
        Setup {
            family,
            players: 60,
            anchors: 3,
            deals,
            strength_sd: 3.0,
            landlord_wins: 0.42,
            seed: 7,
            checkpoints: vec![],
        }
    }

    #[test]
    fn ratings_recover_the_order_and_spread_of_known_strengths() {
        for family in [TableType::House, TableType::TwoPlayer] {
            let last = simulate(&setup(family, 8_000)).pop().expect("a measurement");
            assert!(last.rank_correlation > 0.9, "{family:?}: {last:?}");
            assert!((0.75..1.25).contains(&last.spread), "{family:?}: {last:?}");
            assert!((last.role - last.true_role).abs() < 1.5, "{family:?}: {last:?}");
        }
    }

    #[test]
    fn winning_every_deal_against_weak_bots_settles_just_above_them_never_at_the_top() {
        for family in TableType::ALL {
            for bot in [BotKind::Random, BotKind::Beginner] {
                let hard = bot_skill(BotKind::Hard, family).mu;
                let ceiling = farm_ceiling(family, bot);
                // A newcomer's starting rating is no evidence either way: above the ceiling it stays put.
                for from in [NEW_PLAYER, Skill { mu: 5.0, sigma: 2.0 }] {
                    let trajectory = farm(family, bot, from, 3_000, 7);
                    let last = trajectory.last().unwrap().mu;
                    let settles = ceiling.max(from.mu);
                    assert!(trajectory.iter().all(|s| s.mu <= settles + 1e-9), "{family:?} {bot:?} above {settles}");
                    assert!(last > settles - 0.5, "{family:?} {bot:?} from {from:?}: {last} settles near {settles}");
                    assert!(last < hard, "{family:?} {bot:?}: {last} is not below hard's {hard}");
                }
            }
        }
    }

    #[test]
    fn more_deals_order_the_players_better() {
        let mut with_checkpoints = setup(TableType::House, 8_000);
        with_checkpoints.checkpoints = vec![300];
        let measured = simulate(&with_checkpoints);
        assert!(measured[0].rank_correlation < measured[1].rank_correlation, "{measured:?}");
        assert!(measured[0].mean_sigma > measured[1].mean_sigma);
    }

    #[test]
    fn ranks_and_correlations_are_right_on_small_cases() {
        assert_eq!(ranks(&[3.0, 1.0, 2.0]), vec![2.0, 0.0, 1.0]);
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 1.0).abs() < 1e-12);
        assert!((slope(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 2.0).abs() < 1e-12);
    }
}
