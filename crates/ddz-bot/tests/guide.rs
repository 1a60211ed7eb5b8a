//! The guide's rule-based player (`guide-rule`, `ddz_bot::guide`), whose habit `hard` models: every
//! decision of seeded deals at each table is checked against the guide's advice, and the player is a real
//! opponent (it beats the greedy baseline).

mod common;

use ddz_bot::arena::GUIDE_RULE;
use ddz_bot::table::Table;
use ddz_engine::{Action, Counts, Play, Rank};

/// The guide's advice about a trick-play decision that does not go out.
fn check(table: &Table, choices: &[Action], chosen: usize) {
    let play = common::play_of;
    let hand = table.counts();
    match table.prior() {
        Some((seat, _)) if table.landlord.is_some_and(|l| l != seat && l != table.me) => {
            assert!(matches!(choices[chosen], Action::Pass { .. }), "it never beats its partner");
        }
        Some(_) => {}
        None => {
            // A lead keeps the hand's groups whole when some lead can, and is no bomb then, unless an
            // opponent is down to two cards (when shapes matter more).
            let jokers = |cards: Counts| cards.of(Rank::BLACK_JOKER) + cards.of(Rank::RED_JOKER);
            let whole = |p: &Play| {
                !p.shape.is_bomb_or_rocket()
                    && p.cards.wild() == 0
                    && p.cards.slots().all(|(slot, n)| slot >= Rank::BLACK_JOKER.index() || n == hand.get(slot))
                    && (jokers(p.cards) == 0 || jokers(hand) < 2)
            };
            let close = (0..table.players()).any(|s| s != table.me && table.sizes[s] <= 2);
            if !close && choices.iter().any(|a| play(a).is_some_and(|p| whole(&p))) {
                let led = play(&choices[chosen]).expect("a lead is a play");
                assert!(whole(&led), "lead {led:?} breaks a group of {hand} although a whole one could go");
            }
        }
    }
}

#[test]
fn the_guide_player_goes_out_when_it_can_and_never_beats_its_partner() {
    common::play_watched(ddz_bot::guide::choose, check);
}

#[test]
fn the_guide_player_is_a_real_opponent_that_beats_the_greedy_baseline() {
    common::assert_beats_greedy(GUIDE_RULE);
}
