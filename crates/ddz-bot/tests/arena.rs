//! The arena's auction mode: every deal played six times, each contestant alone at each seat.

use ddz_bot::BotKind;
use ddz_bot::arena::{Contestant, Match, Tally, run};
use ddz_engine::Rules;

fn auction_match(rules: Rules, a: BotKind, b: BotKind, deals: u32) -> Tally {
    let m =
        Match { rules, research: false, deals, seed: 3, a: Contestant::Ours(a), b: Contestant::Ours(b), auction: true };
    run(&m, 2, &|_| {}).expect("the match runs")
}

#[test]
fn an_auction_match_plays_each_deal_six_times() {
    let tally = auction_match(Rules::no_shuffle(false), BotKind::Normal, BotKind::Easy, 5);
    assert_eq!(tally.games, 30);
}

#[test]
fn an_auction_match_between_equals_nets_exactly_nothing() {
    // Each side sits at every seat of every deal, alone and in pairs, with the same bot seeds: the
    // same player on both sides wins back exactly what it loses.
    for rules in [Rules::house(true), Rules::no_shuffle(false)] {
        let tally = auction_match(rules, BotKind::Normal, BotKind::Normal, 12);
        assert_eq!(tally.score_sum, 0.0, "{rules}");
    }
}

#[test]
fn an_auction_match_finds_the_stronger_side() {
    let tally = auction_match(Rules::house(true), BotKind::Normal, BotKind::Random, 20);
    assert!(tally.mean_score().0 > 0.0, "normal against random: {:?}", tally.mean_score());
}
