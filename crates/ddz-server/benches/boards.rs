//! The boards at a million players (docs/performance.md, "Boards"): fills a database (SQLite, and
//! PostgreSQL when its server is installed) with `DDZ_BENCH_PLAYERS` players (1,000,000 by default), each
//! with stats, a rating and rows on the money boards, and a tenth as many finished Bot Buster runs and a
//! twentieth as many Bot Bomber runs (100,000 and 50,000), then serves it and times every board (and each
//! with a reader's own row, `?name=`) and a player's page over HTTP: idle, and while deals are stored as
//! fast as the server can play them (rooms of `hard` bots and a player on auto-play, no think time).
//! Prints the medians and 99th percentiles.
//!
//! `cargo bench -p ddz-server --bench boards` (`DDZ_BENCH_PLAYERS=100000` for a quicker run).

#[path = "../tests/server/common/mod.rs"]
mod common;
#[path = "common/names.rs"]
mod names;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::services::Postgres;
use ddz_server::protocol::{Command, Event};
use ddz_server::{Clock, Config, Guards, Listing, Timing};
use sqlx::Executor;

/// Requests timed per endpoint and phase.
const REQUESTS: usize = 400;
/// Rooms playing deals at once while the boards are read under load.
const PLAYING_ROOMS: usize = 24;

fn main() {
    let players: u64 = std::env::var("DDZ_BENCH_PLAYERS").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async move {
        let sqlite = std::env::temp_dir().join(format!("ddz-bench-boards-{}.db", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", sqlite.display()));
        }
        bench("SQLite", &format!("sqlite://{}", sqlite.display()), players).await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", sqlite.display()));
        }
        if std::fs::read_dir("/usr/lib/postgresql").is_ok() {
            let postgres = Postgres::start("bench-boards");
            bench("PostgreSQL", &postgres.url(), players).await;
        } else {
            println!("PostgreSQL is not installed: its half of the benchmark was not run");
        }
    });
}

async fn bench(backend: &str, url: &str, players: u64) {
    let started = Instant::now();
    // The schema first (the server's migrations), then the players, generated inside the database.
    ddz_server::Db::open(url).await.expect("the database opens");
    fill(url, players).await;
    println!("\n{backend}: {players} players filled in {:.1} s", started.elapsed().as_secs_f64());
    let running = ddz_server::start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database: url.to_string(),
        max_connections: 1_000,
        timing: Timing { bot_min_ms: 0, bot_span_ms: 1, nonce_ms: 0, ..Timing::default() },
        heartbeat: Default::default(),
        guards: Guards {
            api: ddz_server::Rate::new(1e6, 1e6),
            websockets: ddz_server::Rate::new(1e6, 1e6),
            ..Guards::default()
        },
        clock: Clock::system(),
        cluster: None,
        trusted_proxies: Vec::new(),
        listing: Listing::DEFAULT,
        tournaments: Vec::new(),
        mine_puzzles: false,
    })
    .await
    .expect("the server starts");
    let addr = running.addr;
    let paths = [
        "/api/boards/overall".to_string(),
        "/api/boards/lobby".to_string(),
        "/api/ratings/house".to_string(),
        "/api/ratings/noshuffle".to_string(),
        "/api/boards/buster".to_string(),
        "/api/boards/bomber".to_string(),
    ];
    // A reader's own row wherever they stand: counted through the board's index, at most 1,000 deep.
    let own_rows = ["overall", "buster", "bomber"];
    println!(
        "| {backend}, {players} players | idle: median | idle: p99 | storing deals: median | storing deals: p99 |"
    );
    println!("|---|---|---|---|---|");
    let mut idle = Vec::new();
    for path in &paths {
        idle.push(time(addr, |_| path.clone()).await);
    }
    for board in own_rows {
        idle.push(time(addr, |i| format!("/api/boards/{board}?name=P{}", (i as u64 * 7919) % players)).await);
    }
    idle.push(time(addr, |i| format!("/api/players/P{}", (i as u64 * 7919) % players)).await);
    let stop = tokio_util::sync::CancellationToken::new();
    let (deals_before, at) = (stored_deals(url).await, Instant::now());
    let load: Vec<_> = (0..PLAYING_ROOMS).map(|i| tokio::spawn(play_deals(addr, i, stop.clone()))).collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut busy = Vec::new();
    for path in &paths {
        busy.push(time(addr, |_| path.clone()).await);
    }
    for board in own_rows {
        busy.push(time(addr, |i| format!("/api/boards/{board}?name=P{}", (i as u64 * 104_729) % players)).await);
    }
    busy.push(time(addr, |i| format!("/api/players/P{}", (i as u64 * 104_729) % players)).await);
    let deals = stored_deals(url).await - deals_before;
    stop.cancel();
    for task in load {
        let _ = task.await;
    }
    let rate = deals as f64 / at.elapsed().as_secs_f64();
    let names = paths
        .iter()
        .cloned()
        .chain(own_rows.iter().map(|board| format!("/api/boards/{board}?name=NAME")))
        .chain(["/api/players/NAME".to_string()]);
    for ((name, idle), busy) in names.zip(idle).zip(busy) {
        println!("| `{name}` | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |", idle.0, idle.1, busy.0, busy.1);
    }
    println!("(while {PLAYING_ROOMS} rooms stored {rate:.0} finished deals a second)");
    running.stop().await;
}

/// The median and 99th percentile of [`REQUESTS`] GETs, in milliseconds.
async fn time(addr: SocketAddr, path: impl Fn(usize) -> String) -> (f64, f64) {
    let mut took = Vec::with_capacity(REQUESTS);
    for i in 0..REQUESTS {
        let path = path(i);
        let started = Instant::now();
        let (status, body) = common::get_status(addr, &path).await;
        took.push(started.elapsed().as_secs_f64() * 1e3);
        assert_eq!(status, 200, "{path}: {body}");
    }
    took.sort_by(f64::total_cmp);
    (took[REQUESTS / 2], took[REQUESTS * 99 / 100])
}

/// Finished deals stored so far.
async fn stored_deals(url: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.expect("the database");
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM deals").fetch_one(&pool).await.expect("a count");
    pool.close().await;
    n
}

/// A player on auto-play against two `hard` bots, dealing again as each deal ends, until `stop`.
async fn play_deals(addr: SocketAddr, i: usize, stop: tokio_util::sync::CancellationToken) {
    let name = format!("Load{i}");
    let created = common::post(addr, "/api/play-vs-bots", serde_json::json!({"name": name, "level": "hard"})).await;
    let code = created["code"].as_str().expect("a room").to_string();
    let mut client = common::Client::join(addr, &code, &name).await;
    client.send(&Command::AutoPlay { on: true }).await;
    while !stop.is_cancelled() {
        tokio::select! {
            _ = stop.cancelled() => break,
            event = client.recv() => {
                if let Event::State { room, .. } = event
                    && room.deal.as_ref().is_some_and(|d| d.result.is_some())
                {
                    client.send(&Command::Start).await;
                }
            }
        }
    }
}

/// `players` players, generated by the database itself: each with a House stat line, a row on the overall
/// board (and one in three on the lobby board), a House rating (and one in three a No Shuffle one), listed.
async fn fill(url: &str, players: u64) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.expect("the database");
    let postgres = url.starts_with("postgres");
    // The numbers 0..players as `i`, and a pseudo-random number from `i` and a salt, in each dialect.
    let numbers = if postgres {
        format!("SELECT i FROM generate_series(0, {}) AS i", players - 1)
    } else {
        format!(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) SELECT i FROM n",
            players - 1
        )
    };
    names::fill_names(&pool, players).await;
    let spread = |salt: u64, modulo: u64| format!("(((i * 2654435761 + {salt}) % 1000003) % {modulo})");
    let statements = [
        format!(
            "INSERT INTO players (name_key, name, rated_deals, opponents, shared_deals, eligible) \
             SELECT key, name, 20 + {}, 10 + {}, 0, 1 FROM names",
            spread(1, 500),
            spread(2, 40)
        ),
        format!(
            "INSERT INTO stats (name_key, name, table_type, public, deals, landlord_deals, landlord_wins, farmer_deals, \
             farmer_wins, money, points, bombs, springs, last_at) \
             SELECT key, name, 'house', 0, 40, 14, 7, 26, 13, {} - 5000, 0, 3, 1, 1800000000000 FROM names",
            spread(3, 10_000)
        ),
        format!(
            "INSERT INTO board_rows (board, name_key, name, score, deals, last_at, eligible) \
             SELECT 'overall', key, name, {} - 5000, 40, 1800000000000, 1 FROM names",
            spread(3, 10_000)
        ),
        format!(
            "INSERT INTO board_rows (board, name_key, name, score, deals, last_at, eligible) \
             SELECT 'lobby', key, name, {} - 2000, 15, 1800000000000, 1 FROM names WHERE i % 3 = 0",
            spread(4, 4_000)
        ),
        format!(
            "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score, eligible) \
             SELECT key, name, 'house', 15000000 + {m}, 1500000, 40, 1800000000000, \
             15000000 + {m} - 3000000, 1 FROM names",
            m = spread(5, 20_000_000)
        ),
        format!(
            "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score, eligible) \
             SELECT key, name, 'no_shuffle', 15000000 + {m}, 1600000, 25, 1800000000000, \
             15000000 + {m} - 3200000, 1 FROM names WHERE i % 3 = 1",
            m = spread(6, 20_000_000)
        ),
    ];
    // Finished challenge runs: Bot Buster's by a tenth as many players as there are, twice each on
    // average, and Bot Bomber's by a twentieth; each run in a room of its own. Each name's best run is kept
    // as the runs' own transactions keep it (`challenge_bests`, the same order as migration 0012's).
    let runs = [("buster", players / 10, 'B'), ("bomber", players / 20, 'M')];
    let mut challenges = Vec::new();
    for (kind, count, letter) in runs {
        let numbers = numbers.replace(&format!("{}", players - 1), &format!("{}", count - 1));
        challenges.push(format!(
            "INSERT INTO rooms (code, rules, mode, host, created_at, closed_at) \
             SELECT '{letter}' || n.i, 'house', 'challenge', o.name, 1800000000000, 1800000000000 \
             FROM ({numbers}) AS n JOIN names o ON o.i = {owner}",
            owner = spread(7, players / 20).replace('i', "n.i")
        ));
        challenges.push(format!(
            "INSERT INTO challenges (code, kind, rally, name_key, name, started_at, finished_at, net, deals, best_pot, nets) \
             SELECT '{letter}' || n.i, '{kind}', NULL, o.key, o.name, 1800000000000, 1800000000000 + n.i, \
             {net} - 300, 5 + {deals}, 8 * {pot}, '[]' FROM ({numbers}) AS n JOIN names o ON o.i = {owner}",
            owner = spread(7, players / 20).replace('i', "n.i"),
            net = spread(8, 600).replace('i', "n.i"),
            deals = spread(9, 16).replace('i', "n.i"),
            pot = spread(10, 64).replace('i', "n.i"),
        ));
    }
    challenges.push(
        "INSERT INTO challenge_bests (kind, rally, name_key, name, played, score, deals, finished_at) \
         SELECT kind, '', name_key, name, 0, score, deals, finished_at FROM ( \
             SELECT kind, name_key, name, CASE WHEN kind = 'bomber' THEN best_pot ELSE net END AS score, deals, finished_at, \
             ROW_NUMBER() OVER (PARTITION BY kind, name_key \
                 ORDER BY CASE WHEN kind = 'bomber' THEN best_pot ELSE net END DESC, deals, finished_at) AS best \
             FROM challenges WHERE finished_at IS NOT NULL) AS runs WHERE best = 1"
            .to_string(),
    );
    for sql in statements.into_iter().chain(challenges) {
        pool.execute(sqlx::AssertSqlSafe(sql)).await.expect("the fill");
    }
    pool.execute("DROP TABLE names").await.expect("the names' table dropped");
    // As autovacuum leaves a table that has settled: statistics, and (PostgreSQL) the visibility map that
    // lets a count read the index alone.
    pool.execute(if postgres { "VACUUM ANALYZE" } else { "ANALYZE" }).await.expect("statistics");
    pool.close().await;
}
