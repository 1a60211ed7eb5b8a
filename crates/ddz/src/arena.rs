//! `ddz arena` (two contestants over seeded deals, sides swapped) and `ddz bot` (our bot over the
//! JSON-lines bot protocol on stdin/stdout).

use std::io::{self, Write};

use ddz_bot::arena::{self, Contestant, Match, Tally};
use ddz_bot::{Bot, BotKind};
use ddz_engine::Rules;

pub struct ArenaArgs {
    pub table: String,
    pub wild_rank: bool,
    pub research: bool,
    pub auction: bool,
    pub a: String,
    pub b: String,
    pub deals: u32,
    pub seed: u64,
    pub threads: Option<usize>,
}

pub fn arena(args: ArenaArgs) -> Result<(), String> {
    let rules: Rules = if args.research {
        Rules::no_shuffle(false)
    } else {
        crate::simulate::table_rules(&args.table, args.wild_rank)?
    };
    let a = Contestant::parse(&args.a).map_err(|e| e.to_string())?;
    let b = Contestant::parse(&args.b).map_err(|e| e.to_string())?;
    if args.auction && args.research {
        return Err("the research protocol fixes the landlord: --auction goes with a table".into());
    }
    let m = Match { rules, research: args.research, deals: args.deals, seed: args.seed, a, b, auction: args.auction };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = std::time::Instant::now();
    let total = m.deals;
    let progress = move |done: u32| {
        if done.is_multiple_of(10) || done == total {
            let width = 30;
            let filled = (done as usize * width) / total.max(1) as usize;
            eprint!("\r[{}{}] {done}/{total} deals", "#".repeat(filled), " ".repeat(width - filled));
            let _ = io::stderr().flush();
        }
    };
    let tally = arena::run(&m, threads, &progress).map_err(|e| format!("arena stopped: {e}"))?;
    eprintln!();
    print_table(&m, &tally, started.elapsed().as_secs_f64());
    Ok(())
}

fn print_table(m: &Match, t: &Tally, seconds: f64) {
    let protocol = if m.research { " (research protocol: landlord fixed, ±2 doubled per bomb)" } else { "" };
    let games = match m.auction {
        true => {
            "from the auction, six times: each side alone at each seat (win: its seats' net gain; as landlord: holding the landlord's seat)"
        }
        false => "each played twice with sides swapped",
    };
    println!(
        "{} vs {} on {}{protocol}: {} deals, {games} ({:.1} s)",
        m.a.name(),
        m.b.name(),
        m.rules,
        m.deals,
        seconds
    );
    let (p, p_ci) = t.win_rate();
    let (s, s_ci) = t.mean_score();
    let rate = |wins: u32, games: u32| f64::from(wins) / f64::from(games.max(1));
    let farmer_games = t.games - t.landlord_games;
    let farmer_wins = t.wins - t.landlord_wins;
    println!(
        "{:<10} {:>16} {:>12} {:>12} {:>18}",
        "side", "win rate (95%)", "as landlord", "as farmers", "score/game (95%)"
    );
    println!(
        "{:<10} {:>9.3} ± {:.3} {:>12.3} {:>12.3} {:>11.2} ± {:.2}",
        m.a.name(),
        p,
        p_ci,
        rate(t.landlord_wins, t.landlord_games),
        rate(farmer_wins, farmer_games),
        s,
        s_ci
    );
    println!(
        "{:<10} {:>9.3} ± {:.3} {:>12.3} {:>12.3} {:>11.2} ± {:.2}",
        m.b.name(),
        1.0 - p,
        p_ci,
        1.0 - rate(farmer_wins, farmer_games),
        1.0 - rate(t.landlord_wins, t.landlord_games),
        -s,
        s_ci
    );
    for (role, landlord) in [("as landlord", true), ("as farmers", false)] {
        let (p, p_ci) = t.role_win_rate(landlord);
        let (s, s_ci) = t.role_mean_score(landlord);
        println!("{} {role}: win rate {p:.3} ± {p_ci:.3}, score/game {s:.2} ± {s_ci:.2}", m.a.name());
    }
}

pub fn bot(level: &str, seed: u64) -> Result<(), String> {
    let kind: BotKind = level.parse().map_err(|e: ddz_bot::BotError| e.to_string())?;
    let mut bot = Bot::new(kind, seed);
    ddz_bot::protocol::serve(&mut bot, io::stdin().lock(), io::stdout().lock()).map_err(|e| e.to_string())
}
