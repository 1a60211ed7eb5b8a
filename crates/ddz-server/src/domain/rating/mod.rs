//! Ratings (docs/ratings.md): a Weng-Lin (OpenSkill) rating per player and table family, updated after
//! every finished deal at a rated table, from the `skillratings` crate.
//!
//! A deal is two teams: the landlord and the *role* (a virtual player standing for the landlord's seat,
//! one per family, rated from every deal like a player) against the farmers. The role's rating is the
//! landlord's advantage (or handicap) as the data shows it, never assumed. Bots keep fixed ratings,
//! measured once in bot-vs-bot arenas ([`bot_skill`]); they take part in every update but never move.
//! Pure: the store reads the skills, calls [`rate_deal`] and writes the changes.

pub mod simulation;

use ddz_bot::BotKind;
use ddz_engine::{Deal, TableType};
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_two_teams};

use crate::domain::fairness::{Unrated, Verdict};
use crate::domain::room::{Occupant, Room};

/// A rating: the skill estimate `mu` and its uncertainty `sigma`, in Weng-Lin's units (a new player
/// is 25 ± 8.33).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

/// How much a deal's outcome owes to the cards rather than the players: Weng-Lin's β, the skill gap that
/// makes the stronger side win about two deals in three. Dou Dizhu is luckier than chess (the crate's
/// default is 25/6); the simulation in docs/ratings.md chose this value.
pub const BETA: f64 = 25.0 / 6.0;

/// Added to every rated side's variance before a deal (OpenSkill's τ, 25/300), so that ratings keep
/// following a player who improves instead of freezing after a few thousand deals.
pub const TAU: f64 = 25.0 / 300.0;

/// A new player's rating.
pub const NEW_PLAYER: Skill = Skill { mu: 25.0, sigma: 25.0 / 3.0 };

/// Ratings are shown as whole points: 60 per unit of `mu`, so a new player shows 1500.
pub fn points(mu: f64) -> i32 {
    (mu * 60.0).round() as i32
}

impl Skill {
    /// The rating shown: [`points`] of `mu`.
    pub fn points(self) -> i32 {
        points(self.mu)
    }

    /// The rating the boards rank by: two standard deviations below the estimate, so that a lucky
    /// newcomer with a few deals does not top a board.
    pub fn conservative(self) -> f64 {
        self.mu - 2.0 * self.sigma
    }

    fn weng_lin(self) -> WengLinRating {
        WengLinRating { rating: self.mu, uncertainty: self.sigma }
    }

    fn of(rating: &WengLinRating) -> Skill {
        Skill { mu: rating.rating, sigma: rating.uncertainty }
    }

    /// This skill before a deal: its uncertainty grown by [`TAU`].
    fn drifted(self) -> Skill {
        Skill { mu: self.mu, sigma: self.sigma.hypot(TAU) }
    }
}

/// The role's rating before any deal of the family was rated: even odds for equal players. Team
/// strength is a sum, so the landlord's side (one player and the role) matches two farmers when the
/// role is worth one player, and one farmer (Two Player) when it is worth nothing. The arena measures
/// more ([`ROLE_ANCHORS`]), which is where a new server starts.
pub fn even_role(family: TableType) -> Skill {
    Skill { mu: NEW_PLAYER.mu * (family.farmers() as f64 - 1.0), sigma: NEW_PLAYER.sigma }
}

/// The role's rating where a new server starts: measured in the anchoring arenas (docs/ratings.md,
/// "Bot anchors"), shifted with the bots. Live deals move it from there.
pub fn role_start(family: TableType) -> Skill {
    let (_, mu, sigma) = ROLE_ANCHORS.iter().copied().find(|(f, _, _)| *f == family).expect("every family");
    Skill { mu, sigma }
}

/// The bots' fixed ratings per family, from `ddz ratings anchor --family F --deals 10000 --seed 1`
/// (docs/ratings.md, 2026-12-04): `mu` after the arena, shifted so that `normal` sits at a new player's
/// 25, and the arena's `sigma`.
const BOT_ANCHORS: &[(TableType, BotKind, f64, f64)] = &[
    (TableType::House, BotKind::Hard, 27.89, 1.57),
    (TableType::House, BotKind::Normal, 25.00, 1.53),
    (TableType::House, BotKind::Bomber, 22.96, 1.51),
    (TableType::House, BotKind::Easy, 20.18, 1.52),
    (TableType::House, BotKind::Beginner, 17.79, 1.52),
    (TableType::House, BotKind::Greedy, 14.92, 1.52),
    (TableType::House, BotKind::Random, 10.51, 1.60),
    (TableType::NoShuffle, BotKind::Hard, 28.70, 1.60),
    (TableType::NoShuffle, BotKind::Normal, 25.00, 1.55),
    (TableType::NoShuffle, BotKind::Bomber, 22.56, 1.55),
    (TableType::NoShuffle, BotKind::Easy, 18.21, 1.54),
    (TableType::NoShuffle, BotKind::Greedy, 16.33, 1.54),
    (TableType::NoShuffle, BotKind::Beginner, 13.74, 1.54),
    (TableType::NoShuffle, BotKind::Random, 8.70, 1.62),
    (TableType::TwoPlayer, BotKind::Hard, 27.13, 1.72),
    (TableType::TwoPlayer, BotKind::Normal, 25.00, 1.60),
    (TableType::TwoPlayer, BotKind::Bomber, 21.00, 1.55),
    (TableType::TwoPlayer, BotKind::Easy, 16.16, 1.58),
    (TableType::TwoPlayer, BotKind::Greedy, 12.34, 1.61),
    (TableType::TwoPlayer, BotKind::Beginner, 9.67, 1.50),
    (TableType::TwoPlayer, BotKind::Random, 0.34, 1.84),
];

/// The role's rating measured with the bots, per family (shifted like them).
const ROLE_ANCHORS: &[(TableType, f64, f64)] =
    &[(TableType::House, 22.63, 1.54), (TableType::NoShuffle, 22.85, 1.56), (TableType::TwoPlayer, 3.06, 1.57)];

/// A bot's fixed rating in `family`.
pub fn bot_skill(kind: BotKind, family: TableType) -> Skill {
    let (_, _, mu, sigma) =
        BOT_ANCHORS.iter().copied().find(|(f, k, _, _)| *f == family && *k == kind).expect("every bot and family");
    Skill { mu, sigma }
}

/// One seat's part in a rated deal: its skill before, and whether it moves (bots never do).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    pub skill: Skill,
    pub fixed: bool,
}

/// What a deal does to its players' and the role's ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct DealRating {
    pub landlord: Skill,
    pub role: Skill,
    /// The farmers in the order given.
    pub farmers: Vec<Skill>,
}

/// How sure a win is allowed to be before it stops telling anything: at this chance of a single player
/// beating another, a win is as good as certain (four deals in five; Dou Dizhu's cards leave little more to
/// be sure of).
pub const CERTAIN_WIN: f64 = 0.8;

/// The rating gap at which the model gives a single player [`CERTAIN_WIN`] against another, in `mu`:
/// `√2·β·ln(p / (1 − p))`, about 8.2 (490 points).
pub fn certain_win_margin() -> f64 {
    std::f64::consts::SQRT_2 * BETA * (CERTAIN_WIN / (1.0 - CERTAIN_WIN)).ln()
}

/// The ratings after one deal: the landlord's side (the landlord and the role) against the farmers,
/// `landlord_won` deciding. A fixed seat comes back as it went in.
///
/// A win over opponents whose ratings are fixed (bots, measured once) shows at most that the winner is
/// [`certain_win_margin`] above the strongest of them: a rating rises no higher than that, and a win
/// against them from there (already a certain one) changes nothing at all, so that winning every deal
/// against weak bots settles just above them, never at the top of a board. Against people, whose ratings
/// are estimates that move, the model alone decides.
pub fn rate_deal(landlord: Rated, role: Skill, farmers: &[Rated], landlord_won: bool) -> DealRating {
    let before = |r: &Rated| if r.fixed { r.skill } else { r.skill.drifted() };
    let side = [before(&landlord).weng_lin(), role.drifted().weng_lin()];
    let others: Vec<WengLinRating> = farmers.iter().map(|f| before(f).weng_lin()).collect();
    let outcome = if landlord_won { Outcomes::WIN } else { Outcomes::LOSS };
    let config = WengLinConfig { beta: BETA, ..WengLinConfig::new() };
    let (side, others) = weng_lin_two_teams(&side, &others, &outcome, &config);
    // The most a win against fixed opponents can show.
    let ceiling = |opponents: &mut dyn Iterator<Item = &Rated>, won: bool| -> Option<f64> {
        let mut strongest = f64::MIN;
        for opponent in opponents {
            if !opponent.fixed {
                return None;
            }
            strongest = strongest.max(opponent.skill.mu);
        }
        won.then_some(strongest + certain_win_margin())
    };
    let landlord_ceiling = ceiling(&mut farmers.iter(), landlord_won);
    let farmer_ceiling = ceiling(&mut std::iter::once(&landlord), !landlord_won);
    let keep = |r: &Rated, new: &WengLinRating, ceiling: Option<f64>| match ceiling {
        _ if r.fixed => r.skill,
        Some(ceiling) if r.skill.mu >= ceiling => r.skill,
        Some(ceiling) => Skill { mu: new.rating.min(ceiling), sigma: new.uncertainty },
        None => Skill::of(new),
    };
    DealRating {
        landlord: keep(&landlord, &side[0], landlord_ceiling),
        role: Skill::of(&side[1]),
        farmers: farmers.iter().zip(&others).map(|(f, new)| keep(f, new, farmer_ceiling)).collect(),
    }
}

/// The landlord side's chance of winning, as the ratings see it.
pub fn landlord_chance(landlord: Skill, role: Skill, farmers: &[Skill]) -> f64 {
    let side = [landlord.weng_lin(), role.weng_lin()];
    let others: Vec<WengLinRating> = farmers.iter().map(|f| f.weng_lin()).collect();
    let config = WengLinConfig { beta: BETA, ..WengLinConfig::new() };
    skillratings::weng_lin::expected_score_two_teams(&side, &others, &config).0
}

/// Who sat in a seat of a rated deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Seated {
    /// A person; `moves`: the deal counts for their rating ([`crate::domain::fairness`]).
    Player {
        name: String,
        moves: bool,
    },
    Bot {
        kind: BotKind,
    },
}

/// A finished deal to rate: who was landlord, who were the farmers, who won, and whether it is a fair
/// measure of the landlord's seat (the role moves only with deals that count for every person at them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatedDeal {
    pub family: TableType,
    pub landlord: Seated,
    pub farmers: Vec<Seated>,
    pub landlord_won: bool,
    pub role_moves: bool,
}

impl RatedDeal {
    /// Every seat, the landlord first.
    pub fn seats(&self) -> impl Iterator<Item = &Seated> {
        std::iter::once(&self.landlord).chain(&self.farmers)
    }
}

/// The deal to rate, if `deal` (just finished in `room`) moves anyone's rating: a rated room's deal at
/// which some person's verdict counts ([`crate::domain::fairness::verdicts`], by seat). A deal a player
/// closed half-way is rated as that player's loss: against the landlord, or as the landlord when the
/// auction had not chosen one.
pub fn rated_deal(deal: &Deal, room: &Room, verdicts: &[Option<Verdict>]) -> Option<RatedDeal> {
    if !room.mode.rated() || !verdicts.iter().flatten().any(|v| v.counted) {
        return None;
    }
    let forfeit = verdicts.iter().position(|v| v.as_ref().is_some_and(|v| v.reason == Some(Unrated::Abandoned)));
    let (landlord, landlord_won) = match (deal.result().and_then(|r| r.landlord_won), forfeit) {
        (Some(won), _) => (deal.landlord()?, won),
        (None, Some(leaver)) => {
            let landlord = deal.landlord().unwrap_or(leaver);
            (landlord, leaver != landlord)
        }
        (None, None) => return None,
    };
    let seated = |seat: usize| -> Option<Seated> {
        Some(match room.seats[seat].as_ref()? {
            Occupant::Human { name } => {
                Seated::Player { name: name.clone(), moves: verdicts[seat].as_ref().is_some_and(|v| v.counted) }
            }
            Occupant::Bot { level, .. } => Seated::Bot { kind: *level },
        })
    };
    let seats: Vec<Seated> = (0..room.seats.len()).map(seated).collect::<Option<_>>()?;
    let farmers = seats.iter().enumerate().filter(|(s, _)| *s != landlord).map(|(_, o)| o.clone()).collect();
    let role_moves = forfeit.is_none() && verdicts.iter().flatten().all(|v| v.counted && v.reason.is_none());
    Some(RatedDeal { family: deal.rules().table, landlord: seats[landlord].clone(), farmers, landlord_won, role_moves })
}

/// A line of a ratings board.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingRow {
    pub rank: usize,
    pub name: String,
    /// The rating in points ([`points`]) and two standard deviations of it.
    pub rating: i32,
    pub uncertainty: i32,
    pub deals: i64,
    /// The date of the player's latest rated deal.
    pub date: String,
    /// The name is protected (`docs/names.md`): the board marks it.
    pub protected: bool,
    /// The row of the name the board was asked about (`?name=`), by its key: the page marks it without
    /// comparing names itself.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub yours: bool,
}

/// A player's rating at one table type, with its history (oldest first).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRating {
    pub table: TableType,
    pub rating: i32,
    pub uncertainty: i32,
    pub deals: i64,
    pub history: Vec<RatingPoint>,
}

/// A player's rating after one rated deal.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// When the deal finished (ms since the Unix epoch).
    #[ts(type = "number")]
    pub at: u64,
    pub rating: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(mu: f64) -> Rated {
        Rated { skill: Skill { mu, sigma: NEW_PLAYER.sigma }, fixed: false }
    }

    #[test]
    fn a_win_raises_the_landlord_and_the_role_and_lowers_the_farmers() {
        let after = rate_deal(player(25.0), even_role(TableType::House), &[player(25.0), player(25.0)], true);
        assert!(after.landlord.mu > 25.0 && after.role.mu > 25.0);
        assert!(after.farmers.iter().all(|f| f.mu < 25.0 && f.sigma < NEW_PLAYER.sigma));
        let lost = rate_deal(player(25.0), even_role(TableType::House), &[player(25.0), player(25.0)], false);
        assert!(lost.landlord.mu < 25.0 && lost.role.mu < 25.0 && lost.farmers[0].mu > 25.0);
    }

    #[test]
    fn a_bot_never_moves_and_still_weighs_in() {
        let bot = Rated { skill: Skill { mu: 35.0, sigma: 1.0 }, fixed: true };
        let after = rate_deal(player(25.0), even_role(TableType::House), &[bot, player(25.0)], true);
        assert_eq!(after.farmers[0], bot.skill);
        // Beating a strong bot is worth more than beating an average player.
        let even = rate_deal(player(25.0), even_role(TableType::House), &[player(25.0), player(25.0)], true);
        assert!(after.landlord.mu > even.landlord.mu);
    }

    #[test]
    fn a_win_over_bots_lifts_a_rating_no_higher_than_the_strongest_bot_plus_the_certain_margin() {
        let weak = Rated { skill: Skill { mu: 10.0, sigma: 1.5 }, fixed: true };
        let ceiling = 10.0 + certain_win_margin();
        let close = Rated { skill: Skill { mu: ceiling - 0.01, sigma: 3.0 }, fixed: false };
        let after = rate_deal(close, role_start(TableType::House), &[weak, weak], true);
        assert_eq!(after.landlord.mu, ceiling, "the win lifts it to the ceiling and no higher");
        assert!(after.landlord.sigma < close.skill.sigma);
        let above = Rated { skill: Skill { mu: 25.0, sigma: 8.0 }, fixed: false };
        let as_farmer = rate_deal(weak, role_start(TableType::House), &[above, weak], false);
        assert_eq!(as_farmer.farmers[0], above.skill, "a certain win changes nothing at all");
        let lost = rate_deal(above, role_start(TableType::House), &[weak, weak], false);
        assert!(lost.landlord.mu < 25.0, "a loss always counts");
        let person = Rated { skill: Skill { mu: 10.0, sigma: 1.5 }, fixed: false };
        let over_a_person = rate_deal(above, role_start(TableType::House), &[weak, person], true);
        assert!(over_a_person.landlord.mu > 25.0, "against a person the model alone decides");
    }

    #[test]
    fn the_even_role_gives_equal_players_even_odds_in_every_family() {
        for family in TableType::ALL {
            let farmers = vec![NEW_PLAYER; family.farmers()];
            let chance = landlord_chance(NEW_PLAYER, even_role(family), &farmers);
            assert!((chance - 0.5).abs() < 1e-9, "{family:?}: {chance}");
        }
    }

    #[test]
    fn two_player_is_one_against_one() {
        let after = rate_deal(player(25.0), even_role(TableType::TwoPlayer), &[player(25.0)], false);
        assert_eq!(after.farmers.len(), 1);
        assert!(after.farmers[0].mu > 25.0 && after.role.mu < 0.0);
    }

    #[test]
    fn every_bot_has_an_anchor_in_every_family_in_the_order_of_their_strength() {
        for family in TableType::ALL {
            // The ladder players choose from, and the baselines below `easy`.
            let ladder = [BotKind::Hard, BotKind::Normal, BotKind::Easy, BotKind::Beginner, BotKind::Random];
            let baselines = [BotKind::Easy, BotKind::Greedy, BotKind::Random];
            for order in [&ladder[..], &baselines[..]] {
                let ratings: Vec<f64> = order.iter().map(|&k| bot_skill(k, family).mu).collect();
                assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{family:?}: {order:?} {ratings:?}");
            }
            assert_eq!(bot_skill(BotKind::Normal, family).points(), 1500);
            assert!(bot_skill(BotKind::Bomber, family).mu > 0.0);
            assert!(role_start(family).sigma > 0.0);
        }
    }

    #[test]
    fn families_read_back_from_their_names() {
        for family in TableType::ALL {
            assert_eq!(TableType::parse(family.name()), Some(family));
        }
        assert_eq!(TableType::parse("poker"), None);
        assert_eq!(points(25.0), 1500);
    }
}
