//! `ddz`: the Dou Dizhu binary. Subcommands run the engine's tools; see `ddz --help`.

mod arena;
mod load;
mod moves;
mod puzzles;
mod ratings;
mod simulate;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc instead of the system allocator: the server allocates for every message it reads and writes,
/// and at saturation glibc's malloc and free were a fifth of its time (README, "Server load").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "ddz", version, about = "Dou Dizhu: game server and engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the game (the default): HTTP and WebSocket on --addr, rooms stored in --database.
    Serve(ServeArgs),
    /// Read positions as JSON lines on stdin; write each one's legal plays as a JSON line (docs/moves.md).
    Moves {
        /// Write only the number of legal plays of each position.
        #[arg(long)]
        count: bool,
    },
    /// Play deals between random legal players and write their records.
    Simulate {
        /// house, house-nowild, noshuffle or twoplayer.
        #[arg(long)]
        table: String,
        /// Play the Wild Rank option (No Shuffle and Two Player).
        #[arg(long)]
        wild_rank: bool,
        /// How many deals (1 to 1,000,000).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=simulate::MAX_DEALS as i64))]
        deals: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write each deal's record here as deal-NNNNNN.json.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play seeded deals between two bots (or an external command, `exec:CMD`), sides swapped.
    Arena {
        /// house, house-nowild, noshuffle or twoplayer.
        #[arg(long, default_value = "noshuffle")]
        table: String,
        #[arg(long)]
        wild_rank: bool,
        /// The research protocol: No Shuffle play rules, 20-card landlord, no bidding, ±2 per deal doubled per bomb.
        #[arg(long)]
        research: bool,
        /// Bid for the landlord: every deal played six times, each side alone at each seat.
        #[arg(long)]
        auction: bool,
        /// Side A: random, greedy, beginner, easy, normal, hard, bomber, rlcard-rule (RLCard's rule agent), guide-rule (a players' guide's rules), tempo-rule (a second guide's rules, held out), or exec:COMMAND.
        #[arg(long)]
        a: String,
        /// Side B.
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 1000)]
        deals: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores; one when a side is external).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Our bot over the JSON-lines bot protocol on stdin/stdout (docs/bot-protocol.md).
    Bot {
        #[arg(long, default_value = "hard")]
        level: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Simulated players over real WebSockets against running servers: throughput and latency.
    Load {
        /// The servers' addresses (comma-separated: the nodes of a cluster; each room's players are spread
        /// over them).
        #[arg(long, default_value = "127.0.0.1:8080", value_delimiter = ',')]
        server: Vec<std::net::SocketAddr>,
        /// Players in all.
        #[arg(long, default_value_t = 100)]
        players: usize,
        /// Deals each room plays.
        #[arg(long, default_value_t = 1)]
        deals: u32,
        /// Think time per action in milliseconds, `LOW..HIGH` (a human pace) or `0` (saturation).
        #[arg(long, default_value = "1000..4000", value_parser = load::parse_think)]
        think_ms: (u64, u64),
        /// Spread the rooms' arrival over this many seconds.
        #[arg(long, default_value_t = 10)]
        ramp_s: u64,
        /// Rooms of three players instead of two players and a bot.
        #[arg(long)]
        no_bots: bool,
        /// A cluster's rooms as a balancer routing by room serves them: every player of a room on the node
        /// that made (and so owns) it, instead of spread over the nodes.
        #[arg(long)]
        routed: bool,
        /// Tournament mode: one tournament of N simulated entrants on the first server instead of rooms (a
        /// sit-and-go when N is 9 or 27, else a scheduled event starting once all have registered; at most
        /// 999), with short settings: one chip round of one deal down to 9 (3 for 9 entrants), fixed rounds
        /// of one deal, a final of one deal. Each entrant finds its table on the tournament's page and
        /// plays it over a socket. Reports the time from the start to the standings, the deals, actions a
        /// second, action latency and the server's peak memory. `--players`, `--deals`, `--ramp-s`,
        /// `--no-bots` and `--routed` do not apply. The server's per-address limits must let every entrant
        /// through: `ddz serve --api-rate 100000 --api-burst 100000 --ws-rate 100000 --ws-burst 100000
        /// --max-connections 20000` (and `--tournament-pause-ms`, `--tournament-away-ms` to taste).
        #[arg(long, value_name = "N")]
        tournament: Option<usize>,
    },
    /// The ratings model (docs/ratings.md): `simulate` it against players of known strength, or `anchor`
    /// the bots' fixed ratings in a bot-vs-bot arena.
    #[command(subcommand)]
    Ratings(RatingsCommand),
    /// Fair play for operators (docs/ratings.md, "What counts"): the pairs of players flagged because they
    /// sit together far more often than chance or one of them passes on nearly every turn (their deals
    /// together do not count), and clearing a flag.
    Fairness {
        /// The server's database.
        #[arg(long, env = "DDZ_DATABASE", default_value = "sqlite://ddz.db")]
        database: String,
        #[command(subcommand)]
        command: FairnessCommand,
    },
    /// Puzzles (docs/puzzles.md): `mine` them from bot games or deal records.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// Re-validate deal records from scratch and summarise them.
    Replay {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Check that deals were fair (docs/fair-deals.md): each commitment matches its seed and salt, and the
    /// seed deals exactly the hands that were played; prints them. A No Shuffle re-deal is checked against
    /// the record given just before it (a room's deals in order), or `--previous` for the first.
    Verify {
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// For a No Shuffle re-deal: the previous deal's record, to check that its collected cards are
        /// the pack that was cut and dealt.
        #[arg(long)]
        previous: Option<PathBuf>,
    },
    /// Check a finished tournament's draw (docs/tournaments.md, "Checking the draw"): from its public record
    /// (`GET /api/tournaments/ID/record`, saved to a file), every decision of its driver (the start, each
    /// round's seating, each round's close, the end) is decided again by the rules and compared; prints
    /// each, and where the record differs.
    VerifyTournament {
        record: PathBuf,
        /// The commitment the tournament's page showed before its start: the seed must be the one it hid.
        #[arg(long)]
        commitment: Option<String>,
    },
    /// The `hard` bot's review of one seat's trick play in a finished deal: each decision with a choice,
    /// the side's win chance after the play made and after the bot's best candidate, mistakes marked.
    Review {
        record: PathBuf,
        /// The seat to review (0-based).
        #[arg(long)]
        seat: usize,
    },
}

#[derive(Subcommand)]
enum FairnessCommand {
    /// List the flagged pairs, the latest first.
    Pairs,
    /// Clear a pair's flag: their counts start again, and their deals together count from now on.
    Clear { first: String, second: String },
}

/// `ddz fairness`.
fn fairness(database: &str, command: FairnessCommand) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let db = ddz_server::Db::open(database).await.map_err(|e| format!("cannot open {database}: {e}"))?;
        match command {
            FairnessCommand::Pairs => {
                let pairs = db.flagged_pairs().await.map_err(|e| e.to_string())?;
                if pairs.is_empty() {
                    println!("no flagged pairs");
                }
                for pair in pairs {
                    let date = ddz_server::utc_date(pair.at);
                    println!(
                        "{}\t{}\t{}\t{} deals together, {} thrown\tflagged {date}",
                        pair.first,
                        pair.second,
                        pair.flag.name(),
                        pair.deals,
                        pair.thrown
                    );
                }
                Ok(())
            }
            FairnessCommand::Clear { first, second } => {
                let name = |typed: &str| ddz_server::PlayerName::parse(typed).map_err(|e| format!("{typed:?}: {e}"));
                if db.clear_pair(&name(&first)?, &name(&second)?).await.map_err(|e| e.to_string())? {
                    println!("cleared: {first} and {second}");
                    Ok(())
                } else {
                    Err(format!("{first} and {second} are no flagged pair"))
                }
            }
        }
    })
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Mine puzzles into a JSON-lines file: positions where the side to move wins with best play, exactly one
    /// first move wins and the normal bot would choose another (at most one a deal).
    Mine {
        /// Play this many seeded deals of normal bots (every table type and option in turn) and mine them.
        #[arg(long, conflicts_with = "records")]
        bots: Option<u64>,
        /// The bot games' first seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Mine the deal records (`*.json`) in this folder, as `ddz simulate --out` writes them.
        #[arg(long, conflicts_with = "database")]
        records: Option<PathBuf>,
        /// Mine every finished deal (but a rally's) a server stored: `sqlite://ddz.db` or `postgres://...`.
        #[arg(long, conflicts_with = "bots")]
        database: Option<String>,
        /// Where the puzzles go, one JSON line each.
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Subcommand)]
enum RatingsCommand {
    /// Players of known strength play deals drawn from a known model; prints how close their ratings come
    /// (rank correlation, spread, the role's estimate) as the deals go by.
    Simulate(ratings::SimulateArgs),
    /// A player who wins every deal against weak bots: where their rating settles (docs/ratings.md).
    Farm(ratings::FarmArgs),
    /// Bots of every kind play each other (drawn at random per deal, bidding as at a table) and are rated;
    /// prints the anchored ratings.
    Anchor {
        #[arg(long, default_value = "house", value_parser = parse_family)]
        family: ddz_engine::TableType,
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(1..))]
        deals: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

pub(crate) fn parse_family(text: &str) -> Result<ddz_engine::TableType, String> {
    ddz_engine::TableType::parse(text).ok_or_else(|| format!("no table family {text:?} (house, noshuffle, twoplayer)"))
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The address to listen on.
    #[arg(long, env = "DDZ_ADDR", default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// The database: `sqlite://FILE` (created if missing) or `postgres://USER@HOST:PORT/DB`.
    #[arg(long, env = "DDZ_DATABASE", default_value = "sqlite://ddz.db")]
    database: String,
    /// The most WebSocket connections open at once.
    #[arg(long, env = "DDZ_MAX_CONNECTIONS", default_value_t = 10_000)]
    max_connections: usize,
    /// Bots think for at least this long (milliseconds)...
    #[arg(long, env = "DDZ_BOT_DELAY_MS", default_value_t = 500)]
    bot_delay_ms: u64,
    /// ...plus up to this long, varied per move.
    #[arg(long, env = "DDZ_BOT_DELAY_SPAN_MS", default_value_t = 1000)]
    bot_delay_span_ms: u64,
    /// How long a deal waits for the connected players' nonces after its commitment (milliseconds;
    /// docs/fair-deals.md); 0 deals from the server's seed alone.
    #[arg(long, env = "DDZ_NONCE_WAIT_MS", default_value_t = 2000)]
    nonce_wait_ms: u64,
    /// The operator's recurring tournaments: a TOML file of `[[event]]` tables (docs/tournaments.md,
    /// `tournaments.example.toml`), in place of the built-in ones (a sit-and-go always open for each
    /// table type, and an hourly House event).
    #[arg(long, env = "DDZ_TOURNAMENTS", conflicts_with = "no_tournaments")]
    tournaments: Option<std::path::PathBuf>,
    /// No recurring tournaments at all, not even the built-in ones.
    #[arg(long, env = "DDZ_NO_TOURNAMENTS")]
    no_tournaments: bool,
    /// Do not mine puzzles from the deals played here (docs/puzzles.md); the built-in set stays.
    #[arg(long, env = "DDZ_NO_PUZZLE_MINING")]
    no_puzzle_mining: bool,
    /// A tournament table's pause between a deal's end and the next deal (milliseconds).
    #[arg(long, env = "DDZ_TOURNAMENT_PAUSE_MS", default_value_t = 5000)]
    tournament_pause_ms: u64,
    /// A tournament player away this long has the bot play their turns until they return (milliseconds).
    #[arg(long, env = "DDZ_TOURNAMENT_AWAY_MS", default_value_t = 15000)]
    tournament_away_ms: u64,
    /// HTTP API requests per client address and second...
    #[arg(long, env = "DDZ_API_RATE", default_value_t = 20.0)]
    api_rate: f64,
    /// ...and at once.
    #[arg(long, env = "DDZ_API_BURST", default_value_t = 60.0)]
    api_burst: f64,
    /// New WebSocket connections per client address and second (raise it for `ddz load`)...
    #[arg(long, env = "DDZ_WS_RATE", default_value_t = 5.0)]
    ws_rate: f64,
    /// ...and at once.
    #[arg(long, env = "DDZ_WS_BURST", default_value_t = 20.0)]
    ws_burst: f64,
    /// Bot decisions, hints and readings computed at once (0: one per core, at least two).
    #[arg(long, env = "DDZ_WORK_THREADS", default_value_t = 0)]
    work_threads: usize,
    /// Spectators (nameless watchers) one room takes.
    #[arg(long, env = "DDZ_SPECTATORS", default_value_t = 200)]
    spectators: usize,
    /// Cluster mode: the NATS server between the nodes (`nats://127.0.0.1:4222`); the database must then be
    /// PostgreSQL, shared by every node. Without it this is a single server.
    #[arg(long, env = "DDZ_NATS")]
    nats: Option<String>,
    /// Cluster mode: this node's name, for operators (the host name by default).
    #[arg(long, env = "DDZ_NODE")]
    node: Option<String>,
    /// Cluster mode: how long a node's lease lasts unrenewed, in milliseconds: the rooms of a node that
    /// died move to another within this.
    #[arg(long, env = "DDZ_LEASE_MS", default_value_t = 3000, value_parser = clap::value_parser!(u64).range(300..=60_000))]
    lease_ms: u64,
    /// Balancers in front of this server (comma-separated addresses): requests through them are counted
    /// against the client address their `X-Forwarded-For` names, not the balancer's (players of one
    /// address never count together in ratings: without this behind a balancer, everyone shares its address).
    #[arg(long, env = "DDZ_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// The boards list a name once it has this many rated deals...
    #[arg(long, env = "DDZ_BOARD_MIN_DEALS", default_value_t = ddz_server::Listing::DEFAULT.deals)]
    board_min_deals: i64,
    /// ...against this many distinct opponents (people by name, each bot level one).
    #[arg(long, env = "DDZ_BOARD_MIN_OPPONENTS", default_value_t = ddz_server::Listing::DEFAULT.opponents)]
    board_min_opponents: i64,
}

/// This machine's name, for a cluster node not given one.
fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|n| n.trim().to_string())
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "node".into())
}

/// `ddz verify-tournament`: a finished tournament's record checked, decision by decision.
fn verify_tournament(path: &std::path::Path, shown_before: Option<&str>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let record: ddz_server::wire::http::TournamentRecord =
        serde_json::from_str(&text).map_err(|e| format!("{}: not a tournament's record: {e}", path.display()))?;
    let verified = ddz_server::verify_tournament(&record.log).map_err(|e| format!("{}: {e}", record.id))?;
    println!("seed {}\n  SHA-256 {}", verified.seed, verified.commitment);
    let shown = shown_before.unwrap_or(&record.commitment);
    if !verified.commitment.eq_ignore_ascii_case(shown.trim()) {
        return Err(format!("{}: the seed is not the one committed to ({shown})", record.id));
    }
    let checks = verified.checks;
    let mut differ = 0;
    for check in &checks {
        match &check.differs {
            None => println!("entry {}: {}: as drawn", check.n, check.what),
            Some(why) => {
                differ += 1;
                println!("entry {}: {}: DIFFERS: {why}", check.n, check.what);
            }
        }
    }
    match differ {
        0 => Ok(()),
        n => Err(format!("{}: {n} of {} decisions differ from the rules", record.id, checks.len())),
    }
}

/// The tournaments a server keeps open unless told otherwise: a sit-and-go always open for each table type
/// and an hourly House event (`--tournaments FILE` replaces them, `--no-tournaments` turns them off).
const BUILT_IN_TOURNAMENTS: &str = include_str!("built_in_tournaments.toml");

/// The file of `ddz serve --tournaments`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RecurringFile {
    #[serde(default)]
    event: Vec<ddz_server::Recurring>,
}

/// Reads and checks the operator's recurring tournaments.
fn read_tournaments(text: &str) -> Result<Vec<ddz_server::Recurring>, String> {
    let file: RecurringFile = toml::from_str(text).map_err(|e| e.to_string())?;
    for event in &file.event {
        event.check().map_err(|e| e.to_string())?;
    }
    let mut slugs: Vec<&str> = file.event.iter().map(|e| e.slug.as_str()).collect();
    slugs.sort_unstable();
    if let Some(twice) = slugs.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("two events are called {:?}", twice[0]));
    }
    Ok(file.event)
}

fn serve(args: ServeArgs) -> Result<(), String> {
    let tournaments = match &args.tournaments {
        _ if args.no_tournaments => Vec::new(),
        None => read_tournaments(BUILT_IN_TOURNAMENTS).expect("the built-in tournaments read"),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            read_tournaments(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=warn")),
        )
        .init();
    let config = ddz_server::Config {
        addr: args.addr,
        database: args.database,
        max_connections: if args.max_connections == 0 { 10_000 } else { args.max_connections },
        timing: ddz_server::Timing {
            bot_min_ms: args.bot_delay_ms,
            bot_span_ms: args.bot_delay_span_ms,
            nonce_ms: args.nonce_wait_ms,
            between_deals_ms: args.tournament_pause_ms,
            away_ms: args.tournament_away_ms,
            ..ddz_server::Timing::default()
        },
        heartbeat: ddz_server::Heartbeat::default(),
        clock: ddz_server::Clock::system(),
        cluster: args.nats.map(|nats| ddz_server::ClusterConfig {
            nats,
            name: args.node.unwrap_or_else(host_name),
            lease: std::time::Duration::from_millis(args.lease_ms),
        }),
        trusted_proxies: args.trusted_proxies,
        listing: ddz_server::Listing { deals: args.board_min_deals, opponents: args.board_min_opponents },
        tournaments,
        mine_puzzles: !args.no_puzzle_mining,
        guards: ddz_server::Guards {
            api: ddz_server::Rate::new(args.api_rate, args.api_burst),
            websockets: ddz_server::Rate::new(args.ws_rate, args.ws_burst),
            work_threads: args.work_threads,
            spectators: args.spectators,
        },
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let running = ddz_server::start(config).await.map_err(|e| format!("cannot start: {e}"))?;
        println!("Dou Dizhu on http://{}", running.addr);
        shutdown_signal().await;
        eprintln!("shutting down: closing connections and rooms");
        if running.stop().await {
            eprintln!("stopped");
        } else {
            eprintln!("stopped after {} s with work still running", ddz_server::STOP_WITHIN.as_secs());
        }
        Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("a signal handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

fn main() -> ExitCode {
    // `ddz` alone is `ddz serve` with its defaults (and environment variables).
    let command = Cli::parse().command.or_else(|| Cli::parse_from(["ddz", "serve"]).command);
    let Some(command) = command else { unreachable!("`ddz serve` parses") };
    let result = match command {
        Command::Serve(args) => serve(args),
        Command::Moves { count } => {
            moves::run(io::stdin().lock(), io::stdout().lock(), count).map_err(|e| e.to_string())
        }
        Command::Simulate { table, wild_rank, deals, seed, out } => simulate::table_rules(&table, wild_rank)
            .and_then(|rules| simulate::simulate(rules, deals, seed, out.as_deref())),
        Command::Puzzles(PuzzlesCommand::Mine { bots, seed, records, database, out }) => {
            match (bots, records, database) {
                (Some(deals), None, None) => puzzles::mine_bots(deals, seed, &out).map(|_| ()),
                (None, Some(dir), None) => puzzles::mine_records(&dir, &out).map(|_| ()),
                (None, None, Some(database)) => puzzles::mine_database(&database, &out).map(|_| ()),
                _ => Err("mine one of --bots N, --records DIR or --database URL".to_string()),
            }
        }
        Command::Replay { files } => simulate::replay(&files),
        Command::Verify { records, previous } => simulate::verify(&records, previous.as_deref()),
        Command::VerifyTournament { record, commitment } => verify_tournament(&record, commitment.as_deref()),
        Command::Review { record, seat } => simulate::review(&record, seat),
        Command::Arena { table, wild_rank, research, auction, a, b, deals, seed, threads } => {
            arena::arena(arena::ArenaArgs { table, wild_rank, research, auction, a, b, deals, seed, threads })
        }
        Command::Bot { level, seed } => arena::bot(&level, seed),
        Command::Ratings(RatingsCommand::Simulate(args)) => ratings::simulate_ratings(args),
        Command::Ratings(RatingsCommand::Farm(args)) => ratings::farm(args),
        Command::Fairness { database, command } => fairness(&database, command),
        Command::Ratings(RatingsCommand::Anchor { family, deals, seed, threads }) => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            ratings::anchor(ratings::AnchorArgs { family, deals, seed, threads })
        }
        Command::Load { server, tournament: Some(entrants), think_ms, .. } => {
            load::tournament(load::TournamentArgs { servers: server, entrants, think_ms })
        }
        Command::Load { server, players, deals, think_ms, ramp_s, no_bots, routed, tournament: None } => {
            load::load(load::LoadArgs { servers: server, players, deals, think_ms, ramp_s, bots: !no_bots, routed })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ddz: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BUILT_IN_TOURNAMENTS, read_tournaments};
    use ddz_engine::TableType;
    use ddz_server::{Format, Recurring};

    /// A server keeps a sit-and-go open for each table type and an hourly House event, unless told otherwise.
    #[test]
    fn the_built_in_tournaments_are_a_sit_and_go_per_table_type_and_an_hourly_house_event() {
        let events = read_tournaments(BUILT_IN_TOURNAMENTS).expect("the built-in tournaments read");
        let sit_and_go = |e: &Recurring| match e.format(0) {
            Format::SitAndGo { size, bots_after_ms } => Some((e.table, size, bots_after_ms)),
            Format::Scheduled { .. } => None,
        };
        let always_open: Vec<_> = events.iter().filter_map(sit_and_go).collect();
        assert_eq!(
            always_open,
            [
                (TableType::House, 9, Some(60_000)),
                (TableType::NoShuffle, 9, Some(60_000)),
                (TableType::TwoPlayer, 8, Some(60_000))
            ]
        );
        let scheduled: Vec<_> = events.iter().filter(|e| sit_and_go(e).is_none()).collect();
        assert_eq!(scheduled.len(), 1);
        assert_eq!(
            (scheduled[0].table, scheduled[0].every_minutes, scheduled[0].bots_fill),
            (TableType::House, Some(60), true)
        );
        assert!(events.iter().all(|e| e.title.is_empty()), "the page names them in the reader's language");
    }

    #[test]
    fn the_example_recurring_tournaments_read_back() {
        let events = read_tournaments(include_str!("../../../tournaments.example.toml")).expect("the example reads");
        let slugs: Vec<&str> = events.iter().map(|e| e.slug.as_str()).collect();
        assert_eq!(slugs, ["hourly-house", "daily-no-shuffle", "two-player-sit-and-go"]);
        assert_eq!(events[1].settings().chips, 20_000);
    }

    #[test]
    fn a_recurring_tournaments_file_with_a_mistake_is_refused_with_the_reason() {
        let event = "[[event]]\nslug = \"a\"\ntitle = \"A\"\ntable = \"house\"\nevery_minutes = 60\n";
        assert!(read_tournaments(&format!("{event}{event}")).unwrap_err().contains("two events are called \"a\""));
        assert!(read_tournaments(&format!("{event}colour = \"red\"\n")).unwrap_err().contains("colour"));
        let often = event.replace("every_minutes = 60", "every_minutes = 1");
        assert!(read_tournaments(&often).unwrap_err().contains("10 minutes to a week"));
        let both = event.replace("every_minutes = 60", "every_minutes = 60\nsit_and_go = 9");
        assert!(read_tournaments(&both).unwrap_err().contains("either scheduled"));
    }
}
