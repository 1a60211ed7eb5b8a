//! The levels players choose from, weakest first: beginner, easy, normal, hard (docs/bots.md, "The
//! ladder"). Each rung beats the one below it over the same deals, and the beginner plays as a new player
//! does: its lowest card on a lead, and a play whenever one beats, whoever played before.

use ddz_bot::arena::{Contestant, Match, play_auction, run};
use ddz_bot::{Bot, BotError, BotKind, Player};
use ddz_engine::{Action, DealView, Rules};

const TABLES: [Rules; 3] = [Rules::house(true), Rules::no_shuffle(false), Rules::two_player(false)];

/// Side A's mean score per game against side B, over `deals` deals from the auction, six games each.
fn mean_score(rules: Rules, a: BotKind, b: BotKind, deals: u32) -> (f64, f64) {
    let m =
        Match { rules, research: false, deals, seed: 7, a: Contestant::Ours(a), b: Contestant::Ours(b), auction: true };
    run(&m, 2, &|_| {}).expect("the match runs").mean_score()
}

#[test]
fn each_rung_of_the_ladder_beats_the_one_below_it() {
    for rules in TABLES {
        for (stronger, weaker) in [(BotKind::Easy, BotKind::Beginner), (BotKind::Normal, BotKind::Easy)] {
            let (score, interval) = mean_score(rules, stronger, weaker, 300);
            assert!(score - interval > 0.0, "{stronger} against {weaker} at {rules}: {score:.2} ± {interval:.2}");
        }
    }
}

/// A beginner whose every decision is checked against a new player's habits.
struct Watched(Bot);

impl Player for Watched {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        let chosen = self.0.decide(view, choices);
        let play = |a: &Action| match a {
            Action::Play { play, .. } => Some(*play),
            _ => None,
        };
        let following = choices.iter().any(|a| matches!(a, Action::Pass { .. }));
        let is_play = play(&choices[chosen]).is_some();
        if following && choices.iter().filter_map(play).any(|p| !p.shape.is_bomb_or_rocket()) {
            assert!(is_play, "a beginner passed with a play that beats in hand");
        }
        if !following && is_play {
            let lowest = |counts: ddz_engine::Counts| counts.slots().next().map(|(slot, _)| slot);
            let hand = view.hand.expect("a seat's view has its hand").counts();
            let led = play(&choices[chosen]).expect("a play").cards;
            assert_eq!(lowest(led), lowest(hand), "a beginner leads its lowest card");
        }
        Ok(chosen)
    }
}

#[test]
fn a_beginner_leads_its_lowest_card_and_beats_whatever_it_can() {
    for rules in TABLES {
        for seed in 0..40 {
            let mut players: Vec<Box<dyn Player>> = (0..rules.players)
                .map(|seat| {
                    Box::new(Watched(Bot::new(BotKind::Beginner, seed * 3 + u64::from(seat)))) as Box<dyn Player>
                })
                .collect();
            play_auction(rules, seed, &mut players).expect("the deal plays out");
        }
    }
}
