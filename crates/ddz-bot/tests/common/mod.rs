//! What the tests of our rule players (`guide-rule`, `tempo-rule`) share: every decision of seeded deals
//! at each table watched, and a match against the greedy baseline.

use ddz_bot::arena::{Contestant, Match, play_auction, run};
use ddz_bot::table::Table;
use ddz_bot::{BotError, BotKind, Player};
use ddz_engine::{Action, DealView, Play, Rules};

/// A rule player's choice.
pub type Choose = fn(&Table, &[Action]) -> usize;
/// Asserts a player's advice about the trick-play decision `chosen` (the index in `choices`).
pub type Check = fn(&Table, &[Action], usize);

/// Plays 40 seeded deals, from the auction, at each table type, every seat played by `choose`, watched:
/// each decision is asked twice, a play that goes out is taken whenever there is one, and every other
/// trick-play decision is `check`ed.
pub fn play_watched(choose: Choose, check: Check) {
    let tables = [Rules::house(true), Rules::no_shuffle(false), Rules::no_shuffle(true), Rules::two_player(false)];
    for rules in tables {
        for seed in 0..40 {
            let mut players: Vec<Box<dyn Player>> =
                (0..rules.players).map(|_| Box::new(Watched { choose, check }) as Box<dyn Player>).collect();
            play_auction(rules, seed, &mut players).expect("the deal plays out");
        }
    }
}

struct Watched {
    choose: Choose,
    check: Check,
}

impl Player for Watched {
    fn choose(&mut self, view: &DealView, choices: &[Action]) -> Result<usize, BotError> {
        if choices.len() <= 1 {
            return Ok(0);
        }
        let table = Table::new(view);
        let chosen = decide_twice(self.choose, &table, choices);
        let plays: Vec<Play> = choices.iter().filter_map(play_of).collect();
        if plays.is_empty() {
            return Ok(chosen);
        }
        let cards = table.counts().total();
        if plays.iter().any(|p| p.len() == cards) {
            assert!(play_of(&choices[chosen]).is_some_and(|p| p.len() == cards), "it goes out when one play can");
            return Ok(chosen);
        }
        (self.check)(&table, choices, chosen);
        Ok(chosen)
    }
}

/// Asserts that the contestant named `name` beats `greedy` over 300 deals from the auction, at House and
/// No Shuffle.
pub fn assert_beats_greedy(name: &str) {
    for rules in [Rules::house(true), Rules::no_shuffle(false)] {
        let m = Match {
            rules,
            research: false,
            deals: 300,
            seed: 7,
            a: Contestant::parse(name).expect("a contestant"),
            b: Contestant::Ours(BotKind::Greedy),
            auction: true,
        };
        let (score, interval) = run(&m, 2, &|_| {}).expect("the match runs").mean_score();
        assert!(score - interval > 0.0, "{name} against greedy at {rules}: {score:.2} ± {interval:.2}");
    }
}

/// `choose`'s decision, asked twice: the same view and choices must give the same decision.
fn decide_twice(choose: Choose, table: &Table, choices: &[Action]) -> usize {
    let chosen = choose(table, choices);
    assert_eq!(chosen, choose(table, choices), "the same view, the same decision");
    chosen
}

/// The play an action makes, if it is one.
pub fn play_of(action: &Action) -> Option<Play> {
    match action {
        Action::Play { play, .. } => Some(*play),
        _ => None,
    }
}
