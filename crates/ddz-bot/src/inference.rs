//! What the opponents' plays say about their hands: deals of the unseen cards weighted by how likely
//! each opponent's actual plays were, had it held the cards the deal gives it.
//!
//! An opponent is modelled as one of a small family of rule-based players with different habits
//! ([`Habit`]), each tested cheaply on counts: the simple player ([`crate::rule_agent`]), which leads the
//! part of its hand's plain split that holds its lowest card, follows with the smallest play of the
//! trick's kind and passes an opponent's play only when it has no play of that kind to beat it; and the
//! player who keeps its groups whole, which leads its lowest group whole, follows with the smallest play
//! that breaks no group and passes when no such play beats (it breaks a pair sooner than pass only when
//! nothing whole beats). Each habit is a noisy player: each past decision a sampled hand makes
//! inconsistent with it multiplies its likelihood by [`INCONSISTENT`]. A deal's weight is, for each
//! opponent, the mean of its habits' likelihoods (the habits equally likely beforehand), so whichever
//! habit explains an opponent's plays decides which hands it is thought to hold; against a player who
//! plans, its plays are surprising under most deals alike and the weights change little. Bombs and
//! fours carry no evidence (holding one back, or spending one, says little), nor do passes under a
//! partner.

use ddz_engine::{Attach, Counts, Kind, Play, Rank, Seat, TrickMove};

use crate::rule_agent;
use crate::table::{Outlook, Table};

/// The weight a deal keeps under a habit for each opponent decision it makes inconsistent with the habit.
pub const INCONSISTENT: f64 = 0.02;

/// The habits of the family of players an opponent is modelled as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Habit {
    /// RLCard's simple player ([`crate::rule_agent`]): plain split, smallest play of the kind.
    Simple,
    /// Keeps its groups whole, as most players' guides teach: no single out of a pair, no pair out of a
    /// triple, unless nothing whole beats (the rollouts play it as [`crate::guide`]'s player does).
    WholeGroups,
}

impl Habit {
    pub const ALL: [Habit; 2] = [Habit::Simple, Habit::WholeGroups];
}

/// Whether the opponents play at random: farmers who beat each other's standing plays (seen by the
/// landlord), or an opponent who made a play no player who plans makes ([`senseless`]).
///
/// A player who plays at random beats whatever it can, mostly in the first trick or two, where players
/// who plan leave a partner's winning play alone (over 60 deals `normal` and the `hard` of 2026-11-30
/// never beat one; `hard` had by about one landlord decision in ten: its table sense beats a partner
/// to go out). A random landlord has no partner to beat; its kickers and leads give it away instead.
pub fn plays_at_random(table: &Table) -> bool {
    // Two Player keeps the search it had: one opponent, and nothing measured there.
    let Some(landlord) = table.landlord.filter(|_| table.players() == 3) else {
        return false;
    };
    let moves = table.view.trick_moves();
    let farmers_beat_each_other = table.me == landlord
        && moves.iter().any(|m| {
            m.seat != landlord
                && m.play.is_some()
                && m.facing.is_some_and(|(leader, _)| leader != m.seat && leader != landlord)
        });
    // Each move with the cards its seat held after it: what it holds now plus what it played later.
    let mut left = table.sizes.clone();
    let mut senseless_seen = false;
    for m in moves.iter().rev() {
        senseless_seen |= table.is_opponent(m.seat) && senseless(m, left[m.seat], landlord);
        left[m.seat] += m.play.map_or(0, |p| p.len() as usize);
    }
    farmers_beat_each_other || senseless_seen
}

/// A move that no player who plans makes, and one at random makes often: a 2 or a joker hung as a
/// kicker on a triple or four below the ace (a planner hangs its lowest junk), a lead of a single or
/// pair of 2s or a joker with six cards or more still to play (a planner keeps those for control), a
/// lead of a single queen, king or ace with a dozen cards or more still to play (a planner leads low),
/// or a landlord with a dozen cards or more passing a farmer's single or pair of 8 or lower (it had a
/// play over it). Over 150 research deals, late in a deal, a landlord at random had passed so in 16% of
/// the positions and players who plan in 0 to 2% (`normal`, `hard`, the `hard` of 2026-11-30, the rule
/// agent); the plays were seen in 25 to 39% of positions against random play and 0 to 2% against them.
/// The high lead, over 300 deals: by a random landlord in 8% of deals, by a planning one in none.
fn senseless(step: &TrickMove, left_after: usize, landlord: Seat) -> bool {
    match (step.play, step.facing) {
        (Some(play), facing) => senseless_play(&play, facing.is_none(), left_after),
        (None, Some((leader, target))) => {
            step.seat == landlord
                && leader != landlord
                && matches!(target.shape.kind, Kind::Single | Kind::Pair)
                && target.main <= Rank::EIGHT
                && left_after >= 12
        }
        (None, None) => false,
    }
}

fn senseless_play(play: &Play, lead: bool, left_after: usize) -> bool {
    if !play.wild_as.is_empty() {
        return false;
    }
    let shape = play.shape;
    match shape.kind {
        Kind::Triples | Kind::FourWithTwo if shape.attach != Attach::None && play.main < Rank::ACE => {
            let per_rank = if shape.kind == Kind::Triples { 3 } else { 4 };
            let top = play.main.index();
            let bottom = top + 1 - usize::from(shape.len);
            (Rank::TWO.index()..=Rank::RED_JOKER.index())
                .any(|slot| play.cards.get(slot) > if (bottom..=top).contains(&slot) { per_rank } else { 0 })
        }
        Kind::Single | Kind::Pair if play.main >= Rank::TWO => lead && left_after >= 6,
        Kind::Single => lead && play.main >= Rank::QUEEN && left_after >= 12,
        _ => false,
    }
}

/// One opponent decision, with the cards its seat played from then on (its own play included): its
/// hand then was a sampled hand now plus those.
#[derive(Clone, Copy, Debug)]
struct Decision {
    seat: Seat,
    later: Counts,
    what: What,
}

#[derive(Clone, Copy, Debug)]
enum What {
    Lead(Play),
    /// Beat `target` with `play`.
    Follow {
        target: Play,
        play: Play,
    },
    /// Passed an opponent's `target`.
    Pass {
        target: Play,
    },
}

/// The opponents' past trick-play decisions that carry evidence.
pub struct Evidence {
    decisions: Vec<Decision>,
}

impl Evidence {
    pub fn new(table: &Table) -> Evidence {
        let Some(landlord) = table.landlord else {
            return Evidence { decisions: Vec::new() };
        };
        let players = table.players();
        let same_side = |a: Seat, b: Seat| a == b || (a != landlord && b != landlord);
        let mut decisions = Vec::new();
        for step in table.view.trick_moves().into_iter().filter(|m| table.is_opponent(m.seat)) {
            let what = match (step.play, step.facing) {
                (Some(play), None) => What::Lead(play),
                (Some(play), Some((_, target))) => What::Follow { target, play },
                (None, Some((leader, target))) if !same_side(step.seat, leader) => What::Pass { target },
                _ => continue,
            };
            decisions.push(Decision { seat: step.seat, later: Counts::EMPTY, what });
        }
        let mut later = vec![Counts::EMPTY; players];
        for decision in decisions.iter_mut().rev() {
            if let What::Lead(play) | What::Follow { play, .. } = decision.what {
                later[decision.seat] = add(later[decision.seat], play.cards);
            }
            decision.later = later[decision.seat];
        }
        decisions.retain(|d| carries_evidence(&d.what));
        Evidence { decisions }
    }

    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// How many of the opponents' decisions carry evidence.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    /// How many of the opponents' decisions the deal `hands` (each seat's cards now) makes inconsistent
    /// with `habit`.
    #[cfg(test)]
    fn surprises(&self, hands: &[Counts], habit: Habit) -> i32 {
        self.decisions.iter().filter(|d| !consistent(&d.what, add(hands[d.seat], d.later), habit)).count() as i32
    }

    /// How well the deal `hands` explains the opponents' decisions: for each opponent, the mean over the
    /// habits of [`INCONSISTENT`] to the power of its surprises under that habit; and, for each seat and
    /// habit, whether the deal explains every decision of that seat under it (indexed by seat, then as
    /// [`Habit::ALL`]; a seat with no decisions is explained by every habit).
    pub fn weigh(&self, hands: &[Counts]) -> (f64, [[bool; Habit::ALL.len()]; 3]) {
        let mut surprises = [[0i32; Habit::ALL.len()]; 3];
        for d in &self.decisions {
            let hand = add(hands[d.seat], d.later);
            for (h, &habit) in Habit::ALL.iter().enumerate() {
                surprises[d.seat][h] += i32::from(!consistent(&d.what, hand, habit));
            }
        }
        let seats = self.decisions.iter().fold(0u8, |seen, d| seen | 1 << d.seat);
        let weight = (0..3)
            .filter(|&seat| seats & 1 << seat != 0)
            .map(|seat| surprises[seat].iter().map(|&n| INCONSISTENT.powi(n)).sum::<f64>() / Habit::ALL.len() as f64)
            .product();
        let explains = surprises.map(|per_habit| per_habit.map(|n| n == 0));
        (weight, explains)
    }
}

fn add(a: Counts, b: Counts) -> Counts {
    // No slot holds more than 8 cards, so no nibble carries.
    Counts(a.0 + b.0)
}

fn plain(play: &Play) -> bool {
    matches!(play.shape.kind, Kind::Single | Kind::Pair | Kind::Triples | Kind::Straight | Kind::PairRun)
}

fn carries_evidence(what: &What) -> bool {
    match what {
        What::Lead(play) => !play.shape.is_bomb_or_rocket(),
        What::Follow { target, play } => plain(target) && plain(play),
        What::Pass { target } => plain(target),
    }
}

/// Whether a player of `habit` holding `hand` would have made this decision.
fn consistent(what: &What, hand: Counts, habit: Habit) -> bool {
    let whole = habit == Habit::WholeGroups;
    match *what {
        What::Lead(play) if whole => {
            breaks_nothing(&play, hand) && lowest_group(hand) == play.cards.slots().next().map(|(s, _)| s)
        }
        What::Lead(play) => rule_agent::lead_part(hand).is_none_or(|part| rule_agent::play_ranks(&play) == part),
        What::Follow { target, play } if whole && !breaks_nothing(&play, hand) => {
            !holds_between(hand, &target, target.main.index(), 15, true)
        }
        What::Follow { target, play } => !holds_between(hand, &target, target.main.index(), play.main.index(), whole),
        What::Pass { target } => !holds_between(hand, &target, target.main.index(), 15, whole),
    }
}

/// Whether `play` takes every card of each rank it touches in `hand` (a single that is no part of a
/// pair, a whole pair, a straight of lone cards), and does not split the rocket.
fn breaks_nothing(play: &Play, hand: Counts) -> bool {
    const JOKERS: [usize; 2] = [Rank::BLACK_JOKER.index(), Rank::RED_JOKER.index()];
    let rocket_split =
        JOKERS.iter().all(|&j| hand.get(j) == 1) && JOKERS.iter().filter(|&&j| play.cards.get(j) == 1).count() == 1;
    !rocket_split && play.cards.slots().all(|(slot, n)| JOKERS.contains(&slot) || n == hand.get(slot))
}

/// The lowest rank of `hand` that is not a bomb: where a player who leads its weakest group starts.
fn lowest_group(hand: Counts) -> Option<usize> {
    hand.slots().find(|&(_, n)| n < 4).map(|(slot, _)| slot)
}

/// Whether `hand` holds a play shaped like `like` whose main rank lies strictly between `low` and
/// `high` (kickers not checked: they rarely decide); with `whole`, only one that takes every card of the
/// ranks it uses.
fn holds_between(hand: Counts, like: &Play, low: usize, high: usize, whole: bool) -> bool {
    let shape = like.shape;
    let (need, len, top_max) = match shape.kind {
        Kind::Single => (1, 1, 14),
        Kind::Pair => (2, 1, 12),
        Kind::Triples if shape.len == 1 => (3, 1, 12),
        Kind::Triples => (3, shape.len as usize, 11),
        Kind::Straight => (1, shape.len as usize, 11),
        Kind::PairRun => (2, shape.len as usize, 11),
        _ => return false,
    };
    let holds = |slot: usize| if whole { hand.get(slot) == need } else { hand.get(slot) >= need };
    (low + 1..high.min(top_max + 1)).any(|top| top + 1 >= len && (top + 1 - len..=top).all(holds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_engine::{Attach, Rank, Shape, Strength};

    fn play(kind: Kind, len: u8, main: usize, cards: &str) -> Play {
        Play {
            shape: Shape::new(kind, len, Attach::None),
            main: Rank::from_index(main as u8).expect("rank"),
            strength: Strength::Natural,
            cards: cards.parse().expect("cards"),
            wild_as: Counts::EMPTY,
        }
    }

    fn hand(text: &str) -> Counts {
        text.parse().expect("hand")
    }

    #[test]
    fn a_lead_is_consistent_only_with_hands_whose_lowest_part_it_is() {
        let pair_of_fives = What::Lead(play(Kind::Pair, 1, 2, "55"));
        assert!(consistent(&pair_of_fives, hand("5589JQ"), Habit::Simple));
        assert!(!consistent(&pair_of_fives, hand("3558JQ"), Habit::Simple), "a lower single would have been led");
        assert!(!consistent(&pair_of_fives, hand("555JQ"), Habit::Simple), "the fives are a triple");
    }

    #[test]
    fn a_follow_is_consistent_only_with_hands_lacking_a_smaller_beating_play_of_its_kind() {
        let ten_over_six = What::Follow { target: play(Kind::Single, 1, 3, "6"), play: play(Kind::Single, 1, 7, "T") };
        assert!(consistent(&ten_over_six, hand("34TK"), Habit::Simple));
        assert!(!consistent(&ten_over_six, hand("38TK"), Habit::Simple), "the eight beats the six and is smaller");
        let straight = |top: usize, cards: &str| play(Kind::Straight, 5, top, cards);
        let over = What::Follow { target: straight(4, "34567"), play: straight(9, "89TJQ") };
        assert!(!consistent(&over, hand("456789TJQ"), Habit::Simple), "4-8 beats 3-7 and is smaller");
        assert!(consistent(&over, hand("3489TJQ"), Habit::Simple));
    }

    #[test]
    fn a_pass_is_consistent_only_with_hands_that_cannot_beat_by_kind() {
        let pass_over_kings = What::Pass { target: play(Kind::Pair, 1, 10, "KK") };
        assert!(consistent(&pass_over_kings, hand("3AR2"), Habit::Simple), "no pair above the kings");
        assert!(!consistent(&pass_over_kings, hand("3AA"), Habit::Simple));
        assert!(consistent(&pass_over_kings, hand("3333"), Habit::Simple), "a bomb held back says nothing");
    }

    #[test]
    fn a_player_who_keeps_groups_whole_leads_its_lowest_group_whole() {
        let pair_of_fives = What::Lead(play(Kind::Pair, 1, 2, "55"));
        assert!(consistent(&pair_of_fives, hand("5589JQ"), Habit::WholeGroups));
        assert!(!consistent(&pair_of_fives, hand("3558JQ"), Habit::WholeGroups), "the lone three is lower");
        assert!(!consistent(&pair_of_fives, hand("555JQ"), Habit::WholeGroups), "the fives are a triple");
        assert!(consistent(&pair_of_fives, hand("33335589"), Habit::WholeGroups), "a bomb is no group to lead");
    }

    #[test]
    fn a_player_who_keeps_groups_whole_follows_with_its_smallest_whole_play_and_breaks_one_only_when_none_beats() {
        let six = play(Kind::Single, 1, 3, "6");
        let ten_over_six = What::Follow { target: six, play: play(Kind::Single, 1, 7, "T") };
        assert!(consistent(&ten_over_six, hand("388TK"), Habit::WholeGroups), "the eights are a pair");
        assert!(!consistent(&ten_over_six, hand("388TK"), Habit::Simple), "the simple player breaks the pair");
        assert!(!consistent(&ten_over_six, hand("389TK"), Habit::WholeGroups), "the lone nine is smaller");
        let ten_out_of_a_pair = What::Follow { target: six, play: play(Kind::Single, 1, 7, "T") };
        assert!(consistent(&ten_out_of_a_pair, hand("3TT"), Habit::WholeGroups), "nothing whole beats the six");
        assert!(!consistent(&ten_out_of_a_pair, hand("3TTK"), Habit::WholeGroups), "the lone king beats it whole");
    }

    #[test]
    fn a_player_who_keeps_groups_whole_passes_when_nothing_whole_beats() {
        let pass_over_six = What::Pass { target: play(Kind::Single, 1, 3, "6") };
        assert!(consistent(&pass_over_six, hand("3TTKK"), Habit::WholeGroups));
        assert!(!consistent(&pass_over_six, hand("3TTKK"), Habit::Simple));
        assert!(!consistent(&pass_over_six, hand("3TTA"), Habit::WholeGroups), "the lone ace beats it");
    }

    #[test]
    fn a_deal_weighs_each_opponent_by_the_habit_that_explains_it_best() {
        let deal = first_trick(false);
        let view = deal.view(Some(0));
        let evidence = Evidence::new(&Table::new(&view));
        let hands: Vec<Counts> = (0..3).map(|seat| deal.hand(seat).counts()).collect();
        let (weight, explains) = evidence.weigh(&hands);
        let expected: f64 = [1, 2]
            .iter()
            .map(|&seat| {
                let mine =
                    Evidence { decisions: evidence.decisions.iter().filter(|d| d.seat == seat).copied().collect() };
                Habit::ALL.iter().map(|&h| INCONSISTENT.powi(mine.surprises(&hands, h))).sum::<f64>() / 2.0
            })
            .product();
        assert!((weight - expected).abs() < 1e-12, "{weight} against {expected}");
        for (seat, explains) in explains.iter().enumerate() {
            let mine = Evidence { decisions: evidence.decisions.iter().filter(|d| d.seat == seat).copied().collect() };
            for (h, &habit) in Habit::ALL.iter().enumerate() {
                assert_eq!(explains[h], mine.surprises(&hands, habit) == 0, "seat {seat}, {habit:?}");
            }
        }
    }

    /// A House deal where seat 0 took the landlord and led its lowest single, seat 1 beat it with its
    /// lowest single, and seat 2 either passed or beat seat 1 with its highest single.
    fn first_trick(seat_2_beats_partner: bool) -> ddz_engine::Deal {
        use ddz_engine::{Action, Deal, DealSetup, Rules, Seed, Start};
        let single = |a: &Action| matches!(a, Action::Play { play, .. } if play.shape.kind == Kind::Single);
        for seed in 0.. {
            let setup = DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::Seat(0));
            let mut deal = Deal::new(setup);
            deal.apply(&Action::Take { seat: 0 }).expect("seat 0 takes");
            for seat in 0..3 {
                deal.apply(&Action::Seen { seat }).expect("the middle cards seen");
            }
            let lowest = deal.choices().into_iter().find(single).expect("a single to lead");
            deal.apply(&lowest).expect("lead");
            let Some(over) = deal.choices().into_iter().find(single) else { continue };
            deal.apply(&over).expect("seat 1 beats the landlord");
            let third = match seat_2_beats_partner {
                true => deal.choices().into_iter().rfind(single),
                false => Some(Action::Pass { seat: 2 }),
            };
            if let Some(third) = third {
                deal.apply(&third).expect("seat 2 answers");
                return deal;
            }
        }
        unreachable!("some deal has the singles")
    }

    #[test]
    fn farmers_who_beat_each_other_play_at_random_to_the_landlord() {
        let deal = first_trick(true);
        assert!(plays_at_random(&Table::new(&deal.view(Some(0)))));
        assert!(!plays_at_random(&Table::new(&deal.view(Some(1)))), "a farmer reads only the landlord");
    }

    #[test]
    fn farmers_who_beat_the_landlord_and_pass_each_other_do_not_play_at_random() {
        let deal = first_trick(false);
        assert!(!plays_at_random(&Table::new(&deal.view(Some(0)))));
    }

    #[test]
    fn a_two_or_a_joker_hung_on_a_triple_below_the_ace_is_senseless() {
        let triple = |main: usize, cards: &str| Play {
            shape: Shape::new(Kind::Triples, 1, Attach::Singles(1)),
            ..play(Kind::Triples, 1, main, cards)
        };
        assert!(senseless_play(&triple(2, "5552"), true, 10));
        assert!(senseless_play(&triple(2, "555R"), false, 10));
        assert!(!senseless_play(&triple(2, "5553"), true, 10), "the lowest junk hung on it");
        assert!(!senseless_play(&triple(11, "AAA2"), true, 10), "a triple of aces may carry a 2");
    }

    #[test]
    fn a_landlord_with_a_dozen_cards_passing_a_farmers_low_single_is_senseless() {
        let pass = |seat, target| TrickMove { seat, play: None, facing: Some((1, target)) };
        let six = play(Kind::Single, 1, 3, "6");
        assert!(senseless(&pass(0, six), 12, 0));
        assert!(!senseless(&pass(0, six), 11, 0), "with fewer cards it may have none above");
        assert!(!senseless(&pass(0, play(Kind::Single, 1, 6, "9")), 15, 0), "over an 8 only");
        assert!(!senseless(&pass(2, six), 15, 0), "a farmer passes its partner");
    }

    #[test]
    fn a_lead_of_2s_or_a_joker_with_six_cards_left_is_senseless() {
        assert!(senseless_play(&play(Kind::Single, 1, 12, "2"), true, 6));
        assert!(senseless_play(&play(Kind::Pair, 1, 12, "22"), true, 12));
        assert!(!senseless_play(&play(Kind::Single, 1, 14, "R"), true, 5), "near the end a joker may lead");
        assert!(!senseless_play(&play(Kind::Single, 1, 12, "2"), false, 12), "following with a 2 takes control");
        assert!(!senseless_play(&play(Kind::Pair, 1, 11, "AA"), true, 12), "a pair of aces is no 2s");
    }

    #[test]
    fn a_lead_of_a_single_queen_king_or_ace_with_a_dozen_cards_left_is_senseless() {
        assert!(senseless_play(&play(Kind::Single, 1, 9, "Q"), true, 12));
        assert!(senseless_play(&play(Kind::Single, 1, 11, "A"), true, 15));
        assert!(!senseless_play(&play(Kind::Single, 1, 11, "A"), true, 11), "with fewer cards it may lead high");
        assert!(!senseless_play(&play(Kind::Single, 1, 8, "J"), true, 15), "a jack is low enough");
        assert!(!senseless_play(&play(Kind::Single, 1, 10, "K"), false, 15), "following high takes control");
        assert!(!senseless_play(&play(Kind::Pair, 1, 10, "KK"), true, 15), "a pair is no single");
    }
}
