//! `ddz ratings simulate` (the ratings model against players of known strength) and `ddz ratings anchor`
//! (the bots' fixed ratings, measured in a bot-vs-bot arena): docs/ratings.md.

use ddz_engine::TableType;
use std::collections::HashMap;

use ddz_bot::arena::play_auction;
use ddz_bot::{Bot, BotKind, Player};
use ddz_server::rating::simulation::{Setup, simulate};
use ddz_server::rating::{NEW_PLAYER, Rated, Skill, even_role, points, rate_deal};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `ddz ratings simulate`'s arguments.
#[derive(clap::Args)]
pub struct SimulateArgs {
    /// house, noshuffle or twoplayer.
    #[arg(long, default_value = "house", value_parser = crate::parse_family)]
    pub family: TableType,
    #[arg(long, default_value_t = 200)]
    pub players: usize,
    /// Players rated fixed at their true strength, as bots are.
    #[arg(long, default_value_t = 5)]
    pub anchors: usize,
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub deals: u32,
    /// The deviation of the players' strengths around 25.
    #[arg(long, default_value_t = 3.0)]
    pub strength_sd: f64,
    /// How often the landlord wins between equal players.
    #[arg(long, default_value_t = 0.42)]
    pub landlord_wins: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn simulate_ratings(args: SimulateArgs) -> Result<(), String> {
    if args.players < args.family.farmers() + 1 + args.anchors {
        return Err("too few players for a table beside the anchors".into());
    }
    if !(args.landlord_wins > 0.0 && args.landlord_wins < 1.0) {
        return Err("--landlord-wins is a chance between 0 and 1 (0.5: no advantage)".into());
    }
    let checkpoints: Vec<u32> =
        [100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000].into_iter().filter(|&c| c < args.deals).collect();
    let setup = Setup {
        family: args.family,
        players: args.players,
        anchors: args.anchors,
        deals: args.deals,
        strength_sd: args.strength_sd,
        landlord_wins: args.landlord_wins,
        seed: args.seed,
        checkpoints,
    };
    let started = std::time::Instant::now();
    let measured = simulate(&setup);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} players ({} anchors) of strength 25 ± {} on {}, the landlord winning {:.0}% between equals, seed {}: \
         {} deals in {seconds:.2} s",
        args.players,
        args.anchors,
        args.strength_sd,
        args.family.name(),
        args.landlord_wins * 100.0,
        args.seed,
        args.deals,
    );
    println!("| deals | deals per player | rank correlation | spread (slope) | RMS error | mean σ | role (truth) |");
    println!("|---|---|---|---|---|---|---|");
    let seats = (args.family.farmers() + 1) as f64;
    for c in measured {
        println!(
            "| {} | {:.0} | {:.3} | {:.3} | {:.2} | {:.2} | {:.2} ({:.2}) |",
            c.deals,
            f64::from(c.deals) * seats / args.players as f64,
            c.rank_correlation,
            c.spread,
            c.error,
            c.mean_sigma,
            c.role,
            c.true_role
        );
    }
    Ok(())
}

/// `ddz ratings farm`'s arguments.
#[derive(clap::Args)]
pub struct FarmArgs {
    /// house, noshuffle or twoplayer.
    #[arg(long, default_value = "house", value_parser = crate::parse_family)]
    pub family: TableType,
    /// The bots beaten every deal: random, greedy, beginner, easy, normal, bomber or hard.
    #[arg(long, default_value = "random", value_parser = parse_bot)]
    pub bot: BotKind,
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub deals: u32,
    /// The player's rating before, in points (a new player's 1500 ± 500 by default; given, ± 120).
    #[arg(long)]
    pub from: Option<i32>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn parse_bot(text: &str) -> Result<BotKind, String> {
    BotKind::ALL.into_iter().find(|k| k.name() == text).ok_or_else(|| format!("no bot {text:?}"))
}

/// A player who wins every deal against two bots of one kind: the rating after each checkpoint, against
/// where the ratings model must let it settle (the bots' rating plus the certain-win margin).
pub fn farm(args: FarmArgs) -> Result<(), String> {
    let from = args.from.map_or(NEW_PLAYER, |points| Skill { mu: f64::from(points) / 60.0, sigma: 2.0 });
    let trajectory = ddz_server::rating::simulation::farm(args.family, args.bot, from, args.deals, args.seed);
    let ceiling = ddz_server::rating::simulation::farm_ceiling(args.family, args.bot);
    let hard = ddz_server::rating::bot_skill(BotKind::Hard, args.family);
    println!(
        "winning every deal against {} at {} (the bots {}, hard {}), seed {}: the ceiling is {} (mu {ceiling:.2})",
        args.bot.name(),
        args.family.name(),
        ddz_server::rating::bot_skill(args.bot, args.family).points(),
        hard.points(),
        args.seed,
        points(ceiling),
    );
    println!("| deals | rating | ± 2σ | as the board ranks it (rating − 2σ) |");
    println!("|---|---|---|---|");
    for (i, skill) in trajectory.iter().enumerate() {
        let deals = i as u32 + 1;
        if [1, 10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000].contains(&deals) || deals == args.deals {
            let (rating, spread) = (skill.points(), points(2.0 * skill.sigma));
            println!("| {deals} | {rating} | {spread} | {} |", rating - spread);
        }
    }
    Ok(())
}

pub struct AnchorArgs {
    pub family: TableType,
    pub deals: u32,
    pub seed: u64,
    pub threads: usize,
}

/// The bots a table can seat (`random` and `greedy` are arena baselines; every kind is rated).
const KINDS: [BotKind; 7] = BotKind::ALL;

/// Plays `deals` deals of the family's table between bots of different kinds, drawn at random per deal,
/// bidding for the landlord as they do at a table, and rates them all (none fixed) deal by deal.
pub fn anchor(args: AnchorArgs) -> Result<(), String> {
    let rules = match args.family {
        TableType::House => ddz_engine::Rules::house(true),
        TableType::NoShuffle => ddz_engine::Rules::no_shuffle(false),
        TableType::TwoPlayer => ddz_engine::Rules::two_player(false),
    };
    let seats = args.family.farmers() + 1;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let tables: Vec<(u64, Vec<BotKind>)> = (0..args.deals)
        .map(|_| {
            let mut kinds = Vec::with_capacity(seats);
            while kinds.len() < seats {
                let kind = KINDS[rng.random_range(0..KINDS.len())];
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
            (rng.random::<u64>(), kinds)
        })
        .collect();
    let started = std::time::Instant::now();
    // Deals are played in parallel, then rated in order: the same seed gives the same figures.
    let chunk = tables.len().div_ceil(args.threads.max(1));
    let results: Vec<Result<(usize, bool), String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = tables
            .chunks(chunk.max(1))
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|(seed, kinds)| {
                            let mut players: Vec<Box<dyn Player>> =
                                kinds.iter().map(|&k| Box::new(Bot::new(k, *seed)) as Box<dyn Player>).collect();
                            let (landlord, result) = play_auction(rules, *seed, &mut players).map_err(|e| e.0)?;
                            Ok((landlord, result.landlord_won == Some(true)))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker finishes")).collect()
    });
    let played = started.elapsed().as_secs_f64();
    let mut skills: HashMap<BotKind, Skill> = KINDS.iter().map(|&k| (k, NEW_PLAYER)).collect();
    let mut role = even_role(args.family);
    let (mut landlord_wins, mut landlord_seats) = (0u32, HashMap::<BotKind, (u32, u32)>::new());
    for ((_, kinds), result) in tables.iter().zip(results) {
        let (landlord, won) = result?;
        let farmers: Vec<BotKind> = (0..seats).filter(|&s| s != landlord).map(|s| kinds[s]).collect();
        let rated = |k: &BotKind| Rated { skill: skills[k], fixed: false };
        let farmer_ratings: Vec<Rated> = farmers.iter().map(rated).collect();
        let after = rate_deal(rated(&kinds[landlord]), role, &farmer_ratings, won);
        skills.insert(kinds[landlord], after.landlord);
        for (k, skill) in farmers.iter().zip(after.farmers) {
            skills.insert(*k, skill);
        }
        role = after.role;
        landlord_wins += u32::from(won);
        let tally = landlord_seats.entry(kinds[landlord]).or_default();
        tally.0 += 1;
        tally.1 += u32::from(won);
    }
    // Anchored so that `normal` sits where a new player starts; the role moves with the farmers' side.
    let shift = NEW_PLAYER.mu - skills[&BotKind::Normal].mu;
    let role_shifted = role.mu + shift * (args.family.farmers() as f64 - 1.0);
    println!(
        "{} deals of {} between bots ({played:.1} s on {} threads, seed {}): the landlord won {:.1}%",
        args.deals,
        args.family.name(),
        args.threads,
        args.seed,
        100.0 * f64::from(landlord_wins) / f64::from(args.deals)
    );
    println!("| bot | mu (anchored) | sigma | points | landlord deals | landlord wins |");
    println!("|---|---|---|---|---|---|");
    let mut order = KINDS.to_vec();
    order.sort_by(|a, b| skills[b].mu.total_cmp(&skills[a].mu));
    for kind in &order {
        let s = skills[kind];
        let (deals, wins) = landlord_seats.get(kind).copied().unwrap_or_default();
        println!("| {kind} | {:.2} | {:.2} | {} | {deals} | {wins} |", s.mu + shift, s.sigma, points(s.mu + shift));
    }
    println!("| role | {role_shifted:.2} | {:.2} | | | |", role.sigma);
    println!();
    println!("Rust, for BOT_ANCHORS and ROLE_ANCHORS:");
    for kind in &order {
        let s = skills[kind];
        let name = format!("{kind:?}");
        println!("    (Family::{:?}, BotKind::{name}, {:.2}, {:.2}),", args.family, s.mu + shift, s.sigma);
    }
    println!("    (Family::{:?}, {role_shifted:.2}, {:.2}),", args.family, role.sigma);
    Ok(())
}
