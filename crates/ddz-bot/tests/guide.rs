//! The guide's rule-based player (`guide-rule`, `ddz_bot::guide`), whose habit `hard` models: every
//! decision of seeded deals at each table is checked against the guide's advice, and the player is a real
//! opponent (it beats the greedy baseline).

use ddz_bot::arena::{Contestant, GUIDE_RULE, Match, play_auction, run};
use ddz_bot::table::Table;
use ddz_bot::{BotError, BotKind, Player};
use ddz_engine::{Action, DealView, Play, Rules};

const TABLES: [Rules; 4] =
    [Rules::house(true), Rules::no_shuffle(false), Rules::no_shuffle(true), Rules::two_player(false)];

/// The guide player, each decision checked.
struct Watched;

impl Player for Watched {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        if choices.len() <= 1 {
            return Ok(0);
        }
        let table = Table::new(view);
        let chosen = ddz_bot::guide::choose(&table, choices);
        assert_eq!(chosen, ddz_bot::guide::choose(&table, choices), "the same view, the same decision");
        let play = |a: &Action| match a {
            Action::Play { play, .. } => Some(*play),
            _ => None,
        };
        if !choices.iter().any(|a| play(a).is_some()) {
            return Ok(chosen);
        }
        let hand = view.hand.expect("a seat's view has its hand").counts();
        let goes_out = |p: &Play| p.len() == hand.total();
        if choices.iter().any(|a| play(a).is_some_and(|p| goes_out(&p))) {
            assert!(play(&choices[chosen]).is_some_and(|p| goes_out(&p)), "it goes out when one play can");
            return Ok(chosen);
        }
        match table.prior() {
            Some((seat, _)) if table.landlord.is_some_and(|l| l != seat && l != table.me) => {
                assert!(matches!(choices[chosen], Action::Pass { .. }), "it never beats its partner");
            }
            Some(_) => {}
            None => {
                // A lead keeps the hand's groups whole when some lead can, and is no bomb then, unless an
                // opponent is down to two cards (when shapes matter more).
                let whole = |p: &Play| {
                    !p.shape.is_bomb_or_rocket()
                        && p.cards.wild() == 0
                        && p.cards.slots().all(|(slot, n)| slot >= 13 || n == hand.get(slot))
                        && (p.cards.get(13) + p.cards.get(14) == 0 || hand.get(13) + hand.get(14) < 2)
                };
                let close = (0..table.players()).any(|s| s != table.me && table.sizes[s] <= 2);
                if !close && choices.iter().any(|a| play(a).is_some_and(|p| whole(&p))) {
                    let led = play(&choices[chosen]).expect("a lead is a play");
                    assert!(whole(&led), "lead {led:?} breaks a group of {hand} although a whole one could go");
                }
            }
        }
        Ok(chosen)
    }
}

#[test]
fn the_guide_player_goes_out_when_it_can_and_never_beats_its_partner() {
    for rules in TABLES {
        for seed in 0..40 {
            let mut players: Vec<Box<dyn Player>> =
                (0..rules.players).map(|_| Box::new(Watched) as Box<dyn Player>).collect();
            play_auction(rules, seed, &mut players).expect("the deal plays out");
        }
    }
}

#[test]
fn the_guide_player_is_a_real_opponent_that_beats_the_greedy_baseline() {
    for rules in [Rules::house(true), Rules::no_shuffle(false)] {
        let guide = Contestant::parse(GUIDE_RULE).expect("a contestant");
        let m = Match {
            rules,
            research: false,
            deals: 300,
            seed: 7,
            a: guide,
            b: Contestant::Ours(BotKind::Greedy),
            auction: true,
        };
        let (score, interval) = run(&m, 2, &|_| {}).expect("the match runs").mean_score();
        assert!(score - interval > 0.0, "guide-rule against greedy at {rules}: {score:.2} ± {interval:.2}");
    }
}
