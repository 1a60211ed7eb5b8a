//! The second guide's rule-based player (`tempo-rule`, `ddz_bot::tempo`), the opponent held out from
//! `hard`'s tuning: every decision of seeded deals at each table is checked against its advice, and the
//! player is a real opponent (it beats the greedy baseline).

mod common;

use ddz_bot::arena::TEMPO_RULE;
use ddz_bot::table::Table;
use ddz_engine::{Action, Play, Rank};

/// The tempo player's advice about a trick-play decision that does not go out.
fn check(table: &Table, choices: &[Action], chosen: usize) {
    let play = common::play_of;
    let plays: Vec<Play> = choices.iter().filter_map(play).collect();
    let opponent_low = (0..table.players())
        .filter(|&s| s != table.me && (table.landlord == Some(s) || table.landlord == Some(table.me)))
        .map(|s| table.sizes[s])
        .min()
        .expect("an opponent");
    match table.prior() {
        Some((seat, _)) if table.landlord.is_some_and(|l| l != seat && l != table.me) => {
            assert!(matches!(choices[chosen], Action::Pass { .. }), "it never beats its partner");
        }
        Some((_, prior)) => {
            if let Some(p) = play(&choices[chosen]) {
                let bomb = p.shape.is_bomb_or_rocket();
                assert!(!bomb || opponent_low <= 4, "a bomb {p:?} against an opponent with {opponent_low} cards");
                let control = p.cards.slots().any(|(slot, _)| slot >= Rank::TWO.index());
                assert!(
                    bomb || !control || opponent_low <= 4 || prior.main.index() >= 9,
                    "a 2 or a joker ({p:?}) spent on {prior:?} with no opponent close"
                );
            }
        }
        None => {
            // The strongest lead: nothing else sheds more cards, and no bomb while something else can go.
            let led = play(&choices[chosen]).expect("a lead is a play");
            let others: Vec<&Play> = plays.iter().filter(|p| !p.shape.is_bomb_or_rocket()).collect();
            if !others.is_empty() {
                assert!(!led.shape.is_bomb_or_rocket(), "it leads a bomb while {others:?} could go");
            }
            let partner_close = (0..table.players()).any(|s| {
                s != table.me && table.landlord.is_some_and(|l| l != s && l != table.me) && table.sizes[s] <= 2
            });
            if opponent_low > 2 && !partner_close && !led.shape.is_bomb_or_rocket() {
                let most = others.iter().map(|p| p.len()).max().expect("a lead");
                assert_eq!(led.len(), most, "lead {led:?} sheds fewer cards than another could");
            }
        }
    }
}

#[test]
fn the_tempo_player_leads_its_longest_play_saves_its_bombs_and_never_beats_its_partner() {
    common::play_watched(ddz_bot::tempo::choose, check);
}

#[test]
fn the_tempo_player_is_a_real_opponent_that_beats_the_greedy_baseline() {
    common::assert_beats_greedy(TEMPO_RULE);
}
