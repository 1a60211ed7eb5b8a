//! Decision time per bot level (the ladder: beginner, easy, normal, hard) over thousands of real
//! positions: every decision of seeded games (normal bots playing all seats) is replayed to each level,
//! and its time measured one by one, at No
//! Shuffle with and without Wild Rank, House with the Wild and Two Player with Wild Rank; and, under the
//! research protocol, `normal`'s decisions in games against RLCard's rule agent (where `hard` finds
//! the opponents fit its model and searches further), against the guide's rule player (who keeps its
//! groups whole: `hard`'s rollouts play it so) and against random play (where `hard`, as the landlord,
//! plays its rollouts' farmers at random). Prints median, 90th and 99th percentile and
//! maximum; run it on one core (`taskset -c 1 cargo bench -p ddz-bot --bench decisions [-- TABLE...]`).

use std::hint::black_box;
use std::time::Instant;

use ddz_bot::table::Table;
use ddz_bot::{Bot, BotKind, guide, rule_agent};
use ddz_engine::{Action, Deal, DealSetup, DealView, Rules, Seed, Start, TableType};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Who plays the seats `positions` records: `normal` everywhere, or `normal` against the rule agent,
/// the guide's player or a random player (as landlord in even games, as the farmers in odd ones).
#[derive(Clone, Copy, PartialEq)]
enum Opponents {
    Normal,
    RuleAgent,
    Guide,
    Random,
}

fn positions(rules: Rules, games: u64, opponents: Opponents) -> Vec<(DealView, Vec<Action>)> {
    let mut out = Vec::new();
    let mut dice = ChaCha8Rng::seed_from_u64(0);
    for game in 0..games {
        let setup = DealSetup::shuffled(rules, Seed::from_u64(game), Start::Seat(0));
        let mut deal = Deal::new(setup);
        let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Normal, game * 3 + s)).collect();
        let forced = match rules.table {
            TableType::House => Action::Take { seat: 0 },
            TableType::NoShuffle => Action::Bid { seat: 0, bid: 3 },
            TableType::TwoPlayer => Action::Call { seat: 0, call: true },
        };
        deal.apply(&forced).expect("forced auction");
        while deal.result().is_none() {
            let seat = deal.waiting_for()[0];
            let choices: Vec<Action> = deal.choices().into_iter().filter(|a| a.seat() == Some(seat)).collect();
            let view = deal.view(Some(seat));
            let opponent_plays = (seat == 0) == (game % 2 == 1);
            let choice = if opponent_plays && opponents == Opponents::RuleAgent {
                rule_agent::choose(&view, &choices, &mut dice)
            } else if opponent_plays && opponents == Opponents::Guide && choices.len() > 1 {
                guide::choose(&Table::new(&view), &choices)
            } else if opponent_plays && opponents == Opponents::Random {
                dice.random_range(0..choices.len())
            } else {
                if choices.len() > 1 {
                    out.push((view.clone(), choices.clone()));
                }
                bots[seat].decide(&view, &choices)
            };
            deal.apply(&choices[choice]).expect("bots choose legal actions");
        }
    }
    out
}

fn main() {
    // `cargo bench` passes --bench; other arguments name the tables to time (all when none).
    let wanted: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let tables = [
        ("noshuffle", Rules::no_shuffle(false), Opponents::Normal),
        ("noshuffle_wildrank", Rules::no_shuffle(true), Opponents::Normal),
        ("house_wild", Rules::house(true), Opponents::Normal),
        ("twoplayer_wildrank", Rules::two_player(true), Opponents::Normal),
        ("research_vs_rule_agent", Rules::no_shuffle(false), Opponents::RuleAgent),
        ("research_vs_guide", Rules::no_shuffle(false), Opponents::Guide),
        ("research_vs_random", Rules::no_shuffle(false), Opponents::Random),
    ];
    for (name, rules, opponents) in tables {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        let positions = positions(rules, 150, opponents);
        for kind in [BotKind::Beginner, BotKind::Easy, BotKind::Normal, BotKind::Hard] {
            let mut times: Vec<f64> = positions
                .iter()
                .enumerate()
                .map(|(i, (view, choices))| {
                    let mut bot = Bot::new(kind, i as u64);
                    let start = Instant::now();
                    black_box(bot.decide(black_box(view), choices));
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
            println!(
                "decisions/{name}/{kind}: {} positions, median {:.0} µs, p90 {:.0} µs, p99 {:.0} µs, max {:.0} µs",
                times.len(),
                at(0.5),
                at(0.9),
                at(0.99),
                times[times.len() - 1]
            );
        }
    }
}
