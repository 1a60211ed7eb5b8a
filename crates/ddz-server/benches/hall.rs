//! What the hall and a player's page cost at scale (docs/performance.md, "The hall and a player's page"):
//! fills a SQLite database with `DDZ_BENCH_DEALS` finished deals in the players' histories (1,000,000 by
//! default, over 100,000 names, 10,000 of them one name's), those players' stats, ratings and board rows,
//! then serves it with `DDZ_BENCH_ONLINE` sockets watching the hall (10,000 by default, opened by this
//! benchmark run again as a second process: one process may open 20,000 files here) and measures:
//!
//! - `GET /api/hall`, a player's page (`GET /api/players/NAME`), the first page of a name's deals and a page
//!   deep in the longest history: median and 99th percentile of 400 requests each;
//! - pushed updates: 20 changes to the hall (a quick-match ticket joins, then leaves), each sent to every
//!   watcher: how many got it, the time from the first watcher's copy to the last's, and the server's CPU
//!   time per change (the process's, less the same time idle, which the hall's once-a-second look costs).
//!
//! `cargo bench -p ddz-server --bench hall` (`DDZ_BENCH_DEALS=100000 DDZ_BENCH_ONLINE=1000` for a quick run).

#[path = "../tests/server/common/mod.rs"]
mod common;
#[path = "common/names.rs"]
mod names;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ddz_server::{Clock, Config, Guards, Listing, Timing};
use futures_util::{SinkExt, StreamExt};
use sqlx::Executor;
use tokio_tungstenite::tungstenite::Message;

/// Requests timed per endpoint.
const REQUESTS: usize = 400;
/// Changes to the hall whose pushes are timed.
const CHANGES: usize = 20;
/// Players with a history.
const NAMES: u64 = 100_000;
/// The deals of the name with the longest history.
const LONGEST: u64 = 10_000;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    if let Ok(addr) = std::env::var("DDZ_BENCH_WATCH") {
        return runtime.block_on(watchers(addr, setting("DDZ_BENCH_ONLINE", 10_000) as usize));
    }
    runtime.block_on(bench(setting("DDZ_BENCH_DEALS", 1_000_000), setting("DDZ_BENCH_ONLINE", 10_000)));
}

async fn bench(deals: u64, online: u64) {
    let db = std::env::temp_dir().join(format!("ddz-bench-hall-{}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    let started = Instant::now();
    ddz_server::Db::open(&url).await.expect("the database opens");
    fill(&url, deals).await;
    println!("{deals} deals in {NAMES} histories filled in {:.1} s", started.elapsed().as_secs_f64());
    let running = ddz_server::start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database: url.clone(),
        max_connections: 20_000,
        timing: Timing::default(),
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

    // The watchers, in a process of their own; it says when every socket has its first hall.
    let mut child = Command::new(std::env::current_exe().expect("this benchmark's path"))
        .env("DDZ_BENCH_WATCH", addr.to_string())
        .env("DDZ_BENCH_ONLINE", online.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the watchers start");
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let ready = tokio::task::spawn_blocking(move || {
        let first = lines.next();
        (first, lines)
    });
    let (first, lines) = ready.await.expect("the watchers report");
    assert_eq!(first.map(|l| l.expect("a line")).as_deref(), Some("ready"), "the watchers connect");
    let hall = common::get(addr, "/api/hall").await;
    println!("{} sockets open (the hall says {} online)", online, hall["online"]);

    println!("| with {online} watching the hall, {deals} deals stored | median | p99 |");
    println!("|---|---|---|");
    let row = |name: &str, (median, p99): (f64, f64)| println!("| `{name}` | {median:.2} ms | {p99:.2} ms |");
    row("/api/hall", time(addr, |_| "/api/hall".to_string()).await);
    row("/api/players/NAME", time(addr, |i| format!("/api/players/P{}", (i as u64 * 7919) % NAMES)).await);
    let first_page = |i: usize| format!("/api/players/P{}/deals", (i as u64 * 104_729) % NAMES);
    row("/api/players/NAME/deals", time(addr, first_page).await);
    // A page far down the longest history: the cursor of a deal 9,000 deals back.
    let deep = (i64::try_from(LONGEST).unwrap() - 9_000).max(0);
    let cursor = format!("{}-H{deep}-1", 1_800_000_000_000 + deep * 1000);
    row(
        "/api/players/Longest/deals?before=… (9,000 back)",
        time(addr, |_| format!("/api/players/Longest/deals?before={cursor}")).await,
    );

    // Pushed updates: the process's CPU over the changes, less the same time idle.
    let idle_from = cpu_seconds();
    let idle_time = Duration::from_millis(1_500 * CHANGES as u64);
    tokio::time::sleep(idle_time).await;
    let idle_cpu = cpu_seconds() - idle_from;
    let busy_from = cpu_seconds();
    for _ in 0..CHANGES / 2 {
        let ticket = common::post(addr, "/api/quick-match", serde_json::json!({"name": "Toggle"})).await;
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let ticket = ticket["ticket"].as_str().expect("a ticket").to_string();
        common::http(addr, "DELETE", &format!("/api/quick-match/{ticket}"), None).await;
        tokio::time::sleep(Duration::from_millis(1_500)).await;
    }
    let busy_cpu = cpu_seconds() - busy_from;
    drop(child.stdin.take());
    let report = tokio::task::spawn_blocking(move || lines.map(|l| l.expect("a line")).collect::<Vec<_>>())
        .await
        .expect("the watchers' report");
    let _ = child.wait();
    let spreads: Vec<f64> = report.iter().filter_map(|l| l.strip_prefix("spread ")?.parse().ok()).collect();
    let reached: Vec<u64> = report.iter().filter_map(|l| l.strip_prefix("reached ")?.parse().ok()).collect();
    let mut sorted = spreads.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{} changes pushed, each to at least {} of {online} watchers; first to last watcher: median {:.1} ms, max {:.1} ms; server CPU \
         per change {:.1} ms ({:.2} s over {:.0} s, {:.2} s idle)",
        spreads.len(),
        reached.iter().min().copied().unwrap_or(0),
        sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN),
        sorted.last().copied().unwrap_or(f64::NAN),
        (busy_cpu - idle_cpu).max(0.0) * 1e3 / CHANGES as f64,
        busy_cpu,
        idle_time.as_secs_f64(),
        idle_cpu,
    );
    running.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// The second process: `online` sockets watching the hall at `addr`. Prints `ready` once each has its
/// first hall; when its input closes, for each later change how many watchers got it and the time from the
/// first copy to the last.
async fn watchers(addr: String, online: usize) {
    // Per change once the record began: (copies, first, last).
    let seen: Arc<Mutex<Vec<(usize, Instant, Instant)>>> = Arc::default();
    let (connected_tx, mut connected) = tokio::sync::mpsc::channel::<()>(online);
    let gate = Arc::new(tokio::sync::Semaphore::new(200));
    let recording = Arc::new(AtomicBool::new(false));
    for _ in 0..online {
        let (addr, seen, connected_tx, gate) = (addr.clone(), seen.clone(), connected_tx.clone(), gate.clone());
        let recording = recording.clone();
        tokio::spawn(async move {
            // A few hundred handshakes at a time; each lets the next in once its first hall arrives.
            let mut permit = Some(gate.acquire_owned().await.expect("the gate"));
            let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.expect("a socket");
            ws.send(Message::Text(r#"{"type":"watch_hall"}"#.into())).await.expect("watch_hall");
            // The changes this socket was sent since the record began.
            let mut counted = 0;
            while let Some(Ok(frame)) = ws.next().await {
                if !matches!(frame, Message::Text(_)) {
                    continue;
                }
                let at = Instant::now();
                if permit.take().is_some() {
                    let _ = connected_tx.send(()).await;
                }
                if !recording.load(Ordering::Relaxed) {
                    continue;
                }
                let mut seen = seen.lock().expect("the record");
                if seen.len() <= counted {
                    seen.resize(counted + 1, (0, at, at));
                }
                let entry = &mut seen[counted];
                entry.0 += 1;
                entry.1 = entry.1.min(at);
                entry.2 = entry.2.max(at);
                counted += 1;
            }
        });
    }
    for _ in 0..online {
        connected.recv().await.expect("a watcher connects");
    }
    // The hall also changes as the sockets open (the online count): only what follows counts.
    tokio::time::sleep(Duration::from_secs(2)).await;
    recording.store(true, Ordering::Relaxed);
    let mut out = std::io::stdout();
    writeln!(out, "ready").and_then(|()| out.flush()).expect("stdout");
    tokio::task::spawn_blocking(|| std::io::stdin().lines().count()).await.expect("stdin");
    for (copies, first, last) in seen.lock().expect("the record").iter() {
        writeln!(out, "reached {copies}").expect("stdout");
        writeln!(out, "spread {:.2}", (*last - *first).as_secs_f64() * 1e3).expect("stdout");
    }
}

/// The median and 99th percentile of [`REQUESTS`] GETs, in milliseconds.
async fn time(addr: std::net::SocketAddr, path: impl Fn(usize) -> String) -> (f64, f64) {
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

/// This process's CPU time so far (user and system, from /proc: in clock ticks of 10 ms).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let fields: Vec<&str> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// `deals` history lines generated inside the database: the name `Longest` has [`LONGEST`] of them, the
/// rest are spread over [`NAMES`] names `P0`…, each of whom also has stats, a House rating and a row on the
/// overall board.
async fn fill(url: &str, deals: u64) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.expect("the database");
    let upto = |n: u64| {
        format!("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) SELECT i FROM n", n - 1)
    };
    let longest = LONGEST.min(deals);
    names::fill_names(&pool, NAMES).await;
    let statements = [
        format!(
            "INSERT INTO played_deals (name_key, at, code, number, table_type, mode, seat, landlord, won, amount, others) \
             SELECT '{longest_key}', 1800000000000 + i * 1000, 'H' || i, 1, 'house', 'quick', 0, i % 3 = 0, i % 2, \
             (i % 7) * 2 - 6, '[\"Bot Hard 2\",\"P1\"]' FROM ({}) AS n",
            upto(longest),
            longest_key = ddz_server::PlayerName::parse("Longest").expect("a name").key(),
        ),
        format!(
            "INSERT INTO played_deals (name_key, at, code, number, table_type, mode, seat, landlord, won, amount, others) \
             SELECT o.key, 1800000000000 + n.i * 1000, 'R' || (n.i / 3), n.i % 3 + 1, 'house', 'bots', \
             n.i % 3, n.i % 3 = 0, n.i % 2, (n.i % 7) * 2 - 6, '[\"Bot Hard 2\",\"Bot Hard 3\"]' \
             FROM ({}) AS n JOIN names o ON o.i = n.i % {NAMES}",
            upto(deals - longest)
        ),
        "INSERT INTO players (name_key, name, rated_deals, opponents, shared_deals, eligible) \
             SELECT key, name, 30, 12, 0, 1 FROM names"
            .to_string(),
        "INSERT INTO stats (name_key, name, table_type, public, deals, landlord_deals, landlord_wins, farmer_deals, \
             farmer_wins, money, points, bombs, springs, last_at) \
             SELECT key, name, 'house', 0, 10, 4, 2, 6, 3, (i % 200) - 100, 0, 1, 0, 1800000000000 FROM names"
            .to_string(),
        "INSERT INTO board_rows (board, name_key, name, score, deals, last_at, eligible) \
             SELECT 'overall', key, name, (i * 7919) % 10000 - 5000, 10, 1800000000000, 1 FROM names"
            .to_string(),
        "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score, eligible) \
             SELECT key, name, 'house', 25000000 + (i * 104729) % 5000000, 2000000, 10, 1800000000000, \
             21000000 + (i * 104729) % 5000000, 1 FROM names"
            .to_string(),
    ];
    for sql in statements {
        pool.execute(sqlx::AssertSqlSafe(sql)).await.expect("the fill");
    }
    pool.execute("DROP TABLE names").await.expect("the names' table dropped");
    pool.execute("ANALYZE").await.expect("statistics");
    pool.close().await;
}
