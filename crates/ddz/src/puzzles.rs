//! `ddz puzzles mine`: puzzles from deals (docs/puzzles.md), as JSON lines: from bot games (`--bots N`: N
//! seeded deals of `normal` bots at each table type and option in turn), from deal records on disk
//! (`--records DIR`, as `ddz simulate --out` writes them) or from a server's store (`--database URL`). Each deal gives at most one puzzle; a position
//! already mined is not written twice. The games are played and mined on every core.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use ddz_bot::BotKind;
use ddz_bot::puzzles::{Puzzle, Source, bot_game, bot_game_setup, mine};
use ddz_engine::{DealRecord, Rules, Seed};

/// The tables bot games cycle through: every table type, with and without its option.
const TABLES: [&str; 6] =
    ["house", "house-nowild", "noshuffle", "noshuffle-wildrank", "twoplayer", "twoplayer-wildrank"];

/// Mines `deals` bot games from `seed` into `out`: the puzzles found.
pub fn mine_bots(deals: u64, seed: u64, out: &Path) -> Result<usize, String> {
    let next = AtomicU64::new(0);
    let found = Mutex::new(Found::open(out)?);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(1, |n| n.get()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= deals {
                        return;
                    }
                    let rules: Rules = TABLES[(i % TABLES.len() as u64) as usize].parse().expect("a table");
                    let setup = bot_game_setup(rules, Seed::from_u64(seed.wrapping_add(i)));
                    let deal = bot_game(setup.clone(), BotKind::Normal);
                    let source =
                        Source { seed: Some(setup.seed.to_string()), bots: Some(BotKind::Normal), ..Source::default() };
                    if let Some(puzzle) = mine(&setup, deal.actions(), source) {
                        found.lock().expect("the found puzzles").keep(puzzle);
                    }
                }
            });
        }
    });
    let found = found.into_inner().expect("the found puzzles");
    eprintln!("{} puzzles from {deals} bot games in {:.1} s", found.kept, started.elapsed().as_secs_f64());
    Ok(found.kept)
}

/// Mines every finished deal stored in `database` (but a rally's) into `out`, each puzzle with its room and
/// deal: the puzzles found.
pub fn mine_database(database: &str, out: &Path) -> Result<usize, String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let mut found = Found::open(out)?;
    let deals = runtime.block_on(async {
        let db = ddz_server::Db::open(database).await.map_err(|e| format!("cannot open {database}: {e}"))?;
        let (mut after, mut deals) = (None, 0);
        loop {
            let page = db.deal_records_after(after.clone(), 500).await.map_err(|e| e.to_string())?;
            let Some((code, number, _)) = page.last() else { return Ok::<_, String>(deals) };
            after = Some((code.clone(), *number));
            deals += page.len();
            for (code, number, record) in page {
                let source = Source { room: Some(code.to_string()), number: Some(number), ..Source::default() };
                if let Some(puzzle) = mine(&record.setup, &record.actions, source) {
                    found.keep(puzzle);
                }
            }
        }
    })?;
    eprintln!("{} puzzles from {deals} stored deals", found.kept);
    Ok(found.kept)
}

/// Mines every deal record (`*.json`) in `dir` into `out`: the puzzles found.
pub fn mine_records(dir: &Path, out: &Path) -> Result<usize, String> {
    let mut found = Found::open(out)?;
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for path in &paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let record: DealRecord = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let source = Source { seed: Some(record.setup.seed.to_string()), ..Source::default() };
        if let Some(puzzle) = mine(&record.setup, &record.actions, source) {
            found.keep(puzzle);
        }
    }
    eprintln!("{} puzzles from {} records", found.kept, paths.len());
    Ok(found.kept)
}

/// The puzzles written so far, one line each, and the positions they are (a position is mined once).
struct Found {
    out: std::io::BufWriter<std::fs::File>,
    seen: HashSet<String>,
    kept: usize,
}

impl Found {
    fn open(out: &Path) -> Result<Found, String> {
        let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(Found { out: std::io::BufWriter::new(file), seen: HashSet::new(), kept: 0 })
    }

    fn keep(&mut self, puzzle: Puzzle) {
        if self.seen.insert(puzzle.id.clone()) {
            let line = serde_json::to_string(&puzzle).expect("puzzles serialise");
            writeln!(self.out, "{line}").expect("the puzzles file is written");
            self.out.flush().expect("the puzzles file is written");
            self.kept += 1;
        }
    }
}
