//! The hand-planning player (`normal`): every decision scores what each choice leaves behind with an
//! [`Evaluator`], then applies the table sense of the strategy tips (RULES.md seeds, House "Strategy
//! tips"): a tenant does not beat a partner, bombs are saved for an opponent about to go out, a single
//! is not led into an opponent holding one card, and the Wild is never left alone.
//!
//! It scores from a seat's [`Outlook`]: a real table's, or, in the `hard` search's rollouts, an
//! opponent's who is taken to plan.

use ddz_engine::{Action, Kind, Play};

use crate::plan::{Evaluator, PlanEvaluator, control};
use crate::table::{Outlook, Table};

/// How a hand strikes its holder before the landlord is chosen: control cards minus the plays needed.
pub fn strength(table: &Table, eval: &mut PlanEvaluator) -> f32 {
    let counts = table.counts();
    control(counts) - 0.6 * f32::from(eval.min_plays(&table.rules, counts))
}

/// The auction decision: take/pass, bid, call, rob.
pub fn auction(table: &Table, choices: &[Action], eval: &mut PlanEvaluator) -> usize {
    let s = strength(table, eval);
    let wanted = |action: &Action| match *action {
        Action::Take { .. } => s >= 1.5,
        Action::Bid { bid, .. } => match bid {
            0 => true,
            1 => s >= 0.0,
            2 => s >= 2.5,
            _ => s >= 5.0,
        },
        Action::Call { call, .. } => !call || s >= 0.5,
        Action::Rob { rob, .. } => !rob || s >= 4.5,
        _ => true,
    };
    // Choices list the boldest option first for take and call; bids rise: take the boldest wanted.
    match choices.first() {
        Some(Action::Bid { .. }) => (0..choices.len()).rev().find(|&i| wanted(&choices[i])).unwrap_or(0),
        _ => choices.iter().position(wanted).unwrap_or(choices.len() - 1),
    }
}

/// A candidate play and what the hand is worth after it.
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    pub index: usize,
    pub score: f32,
}

/// Scores every choice (pass included, as the hand's value unchanged). Higher is better.
pub fn score_plays(table: &Table, choices: &[Action], eval: &mut PlanEvaluator, bomber: bool) -> Vec<Scored> {
    let moves = choices.iter().map(|action| match action {
        Action::Play { play, .. } => Some(play),
        _ => None,
    });
    score_moves(table, moves, eval, bomber)
        .into_iter()
        .enumerate()
        .map(|(index, score)| Scored { index, score })
        .collect()
}

/// The score of each move (`None` passes) seen from `seat`.
pub fn score_moves<'p>(
    seat: &impl Outlook,
    moves: impl Iterator<Item = Option<&'p Play>>,
    eval: &mut PlanEvaluator,
    bomber: bool,
) -> Vec<f32> {
    let hand = seat.hand();
    let prior = seat.prior();
    let partner_led = prior.is_some_and(|(leader, _)| seat.is_partner(leader));
    let danger = seat.opponent_low();
    let keep = eval.value(seat.rules(), hand);
    moves
        .map(|mv| match mv {
            Some(play) => {
                let rest = play_rest(hand, play);
                if rest.is_empty() {
                    1000.0 // out: nothing is better
                } else {
                    // Lower ranks first; more cards at once (junk hung on a triple, long combos).
                    let mut s =
                        eval.value(seat.rules(), rest) - 0.15 * play.main.index() as f32 + 0.3 * play.len() as f32;
                    s += lead_or_follow_sense(seat, play, rest, danger, partner_led, eval, bomber);
                    if rest.total() == 1 && rest.wild() == 1 {
                        s -= 500.0; // a lone Wild can never be played
                    }
                    s
                }
            }
            None => pass_score(seat, keep, danger, partner_led),
        })
        .collect()
}

fn play_rest(hand: ddz_engine::Counts, play: &Play) -> ddz_engine::Counts {
    hand.checked_sub(play.cards).expect("a choice comes from the hand")
}

fn pass_score(seat: &impl Outlook, keep: f32, danger: usize, partner_led: bool) -> f32 {
    if partner_led {
        return keep + 20.0; // let the partner keep the lead
    }
    // Passing lets an opponent near the end keep control.
    let threat = match danger {
        0..=2 => 30.0,
        3..=4 => 12.0,
        5..=6 => 4.0,
        _ => 0.0,
    };
    let prior_is_landlord_solo = seat.prior().is_some_and(|(s, _)| Some(s) == seat.landlord());
    keep - 10.0 - threat - if prior_is_landlord_solo { 1.0 } else { 0.0 }
}

#[allow(clippy::too_many_arguments)]
fn lead_or_follow_sense(
    seat: &impl Outlook,
    play: &Play,
    rest: ddz_engine::Counts,
    danger: usize,
    partner_led: bool,
    eval: &mut PlanEvaluator,
    bomber: bool,
) -> f32 {
    let is_bomb = play.shape.is_bomb_or_rocket();
    let mut s = 0.0;
    if is_bomb {
        if bomber {
            return 2000.0;
        }
        let finishing = eval.min_plays(seat.rules(), rest) <= 1;
        if !finishing && danger > 2 {
            // Save bombs for pressure: an opponent one or two cards from out, or a lead lost otherwise.
            // A big combination shedding many cards at once is a lead lost otherwise: the search decides.
            let big_trick = seat.prior().is_some_and(|(_, prior)| prior.len() >= 4);
            s -= if danger > 8 && !big_trick {
                60.0
            } else if danger > 4 {
                15.0
            } else {
                0.0
            };
        }
    }
    if partner_led {
        s -= 40.0; // a tenant passes under the partner
    }
    match seat.prior() {
        None => {
            // Leading: do not hand an opponent with n cards a play of n cards they might beat.
            let cards = play.len() as usize;
            let singles_like = matches!(play.shape.kind, Kind::Single | Kind::Pair);
            if singles_like && cards == danger && !(cards == 1 && seat.top_single(play.main.index())) {
                s -= 30.0;
            }
            // Feed a partner who is one card from out with the lowest single.
            let next = seat.next(seat.me());
            if seat.is_partner(next) && seat.size(next) == 1 && play.shape.kind == Kind::Single {
                s += 25.0;
            }
        }
        Some(_) => {
            // Following an opponent: worth it unless it wrecks the hand; urgent near their end.
            if danger <= 2 {
                s += 25.0;
            }
        }
    }
    s
}

/// The `normal` choice.
pub fn choose(table: &Table, choices: &[Action], eval: &mut PlanEvaluator, bomber: bool) -> usize {
    match choices.first() {
        None => 0,
        Some(Action::Play { .. } | Action::Pass { .. }) if table.landlord.is_some() => {
            best(&score_plays(table, choices, eval, bomber))
        }
        Some(Action::Seen { .. }) => choices.iter().position(|a| a.seat() == Some(table.me)).unwrap_or(0),
        _ => auction(table, choices, eval),
    }
}

/// The index (into `choices`) of the best-scored choice; ties go to the first.
pub fn best(scored: &[Scored]) -> usize {
    scored.get(first_best(scored.iter().map(|s| s.score))).map_or(0, |s| s.index)
}

/// The position of the highest score; ties go to the first.
pub fn first_best(scores: impl Iterator<Item = f32>) -> usize {
    let mut top: Option<(usize, f32)> = None;
    for (i, score) in scores.enumerate() {
        if top.is_none_or(|(_, t)| score > t) {
            top = Some((i, score));
        }
    }
    top.map_or(0, |(i, _)| i)
}

/// `greedy`: the smallest legal play (lowest main rank, then fewest cards; bombs last), passing only
/// when nothing beats the play to beat.
pub fn greedy(choices: &[Action]) -> usize {
    let key = |a: &Action| match a {
        Action::Play { play, .. } => Some((play.shape.is_bomb_or_rocket(), play.main, play.len())),
        _ => None,
    };
    let smallest = choices.iter().enumerate().filter_map(|(i, a)| key(a).map(|k| (k, i))).min();
    match (smallest, choices.first()) {
        (Some((_, i)), _) => i,
        // Auction: greedy bids nothing and takes only when it must.
        (None, _) => choices
            .iter()
            .position(|a| {
                matches!(
                    a,
                    Action::Pass { .. }
                        | Action::Bid { bid: 0, .. }
                        | Action::Call { call: false, .. }
                        | Action::Rob { rob: false, .. }
                )
            })
            .unwrap_or(0),
    }
}
