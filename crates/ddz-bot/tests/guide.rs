//! The guide's rule-based player (`guide-rule`, `ddz_bot::guide`), whose habit `hard` models: every
//! decision of seeded deals at each table is checked against the guide's advice, and the player is a real
//! opponent (it beats the greedy baseline).

mod common;

use ddz_bot::arena::GUIDE_RULE;
use ddz_bot::table::Table;
use ddz_bot::{BotError, Player};
use ddz_engine::{Action, DealView, Play};

/// The guide player, each decision checked.
struct Watched;

impl Player for Watched {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        if choices.len() <= 1 {
            return Ok(0);
        }
        let table = Table::new(view);
        let chosen = common::decide_twice(ddz_bot::guide::choose, &table, choices);
        let play = common::play_of;
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
    common::play_watched(|| Box::new(Watched));
}

#[test]
fn the_guide_player_is_a_real_opponent_that_beats_the_greedy_baseline() {
    common::assert_beats_greedy(GUIDE_RULE);
}
