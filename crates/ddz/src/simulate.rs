//! `ddz simulate`: plays deals between random legal players through a room ledger and writes each deal's
//! record; `ddz replay`: re-validates records from scratch and summarises them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ddz_engine::{Action, Deal, DealRecord, Ledger, Rules, Seed, TableType};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The most deals one `ddz simulate` plays (about half a minute at the slowest table).
pub const MAX_DEALS: u32 = 1_000_000;

/// The rules named by `--table` and `--wild-rank`.
pub fn table_rules(table: &str, wild_rank: bool) -> Result<Rules, String> {
    let rules: Rules = table.parse().map_err(|e: ddz_engine::UnknownTable| e.to_string())?;
    if !wild_rank {
        return Ok(rules);
    }
    match rules.table {
        TableType::NoShuffle => Ok(Rules::no_shuffle(true)),
        TableType::TwoPlayer => Ok(Rules::two_player(true)),
        TableType::House => Err(format!(
            "--wild-rank is an option of the noshuffle and twoplayer tables, not of {table} \
             (House has the Wild instead: house or house-nowild)"
        )),
    }
}

/// Plays one deal from `setup`-making `ledger` with uniformly random choices.
pub fn random_deal(ledger: &Ledger, rng: &mut ChaCha8Rng) -> Deal {
    let seed = Seed::random(rng);
    let mut deal = Deal::new(ledger.next_setup(seed).salted(Seed::random(rng)));
    while deal.result().is_none() {
        let choices = deal.choices();
        let action = &choices[rng.random_range(0..choices.len())];
        deal.apply(action).expect("a generated choice is legal");
    }
    deal
}

pub fn simulate(rules: Rules, deals: u32, seed: u64, out: Option<&Path>) -> Result<(), String> {
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ledger = Ledger::new(rules);
    let names: Vec<String> =
        ["North", "East", "West"][..rules.players as usize].iter().map(|s| s.to_string()).collect();
    names.iter().for_each(|n| ledger.join(n));
    let started = Instant::now();
    let (mut landlord_wins, mut bombs) = (0u32, 0u32);
    for i in 0..deals {
        let deal = random_deal(&ledger, &mut rng);
        let result = deal.result().expect("finished");
        landlord_wins += u32::from(result.landlord_won == Some(true));
        bombs += result.bombs;
        ledger.record(&deal, &names);
        if let Some(dir) = out {
            let path: PathBuf = dir.join(format!("deal-{:06}.json", i + 1));
            let json = serde_json::to_string_pretty(&DealRecord::of(&deal, names.clone())).expect("records serialise");
            std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{deals} {rules} deals in {elapsed:.2} s ({:.0} deals/s): landlord won {landlord_wins}, {bombs} bombs",
        f64::from(deals) / elapsed.max(1e-9)
    );
    if rules.table == TableType::House {
        for (name, balance) in &ledger.balances {
            println!("  {name}: ${balance}");
        }
        for payment in ledger.settlement() {
            println!("  {payment}");
        }
    } else {
        for (name, points) in &ledger.balances {
            println!("  {name}: {points:+} points");
        }
    }
    Ok(())
}

/// Checks every file, reporting each (a file that cannot be read too), and fails if any was rejected.
pub fn replay(files: &[PathBuf]) -> Result<(), String> {
    let mut failed = 0;
    for file in files {
        let outcome = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|text| serde_json::from_str::<DealRecord>(&text).map_err(|e| format!("not a deal record: {e}")))
            .and_then(|record| record.replay().map(|deal| (record, deal)).map_err(|e| e.to_string()));
        match outcome {
            Ok((record, deal)) => println!("{}: ok — {}", file.display(), summary(&record, &deal)),
            Err(e) => {
                failed += 1;
                println!("{}: REJECTED — {e}", file.display());
            }
        }
    }
    if failed > 0 { Err(format!("{failed} of {} records rejected", files.len())) } else { Ok(()) }
}

fn read_record(file: &Path) -> Result<DealRecord, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read it: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a deal record: {e}", file.display()))
}

/// `ddz verify`: each deal's fairness, or why it does not hold. A re-deal's pack is checked against the
/// record before it in the list (`previous` for the first); every record is checked, and the command fails
/// if any is not verified.
pub fn verify(files: &[PathBuf], previous: Option<&Path>) -> Result<(), String> {
    let mut before = previous.map(read_record).transpose()?;
    let mut failed = 0;
    for file in files {
        let record = match read_record(file) {
            Ok(record) => record,
            Err(e) => {
                failed += 1;
                println!("{e}");
                before = None;
                continue;
            }
        };
        if let Err(e) = verify_one(file, &record, before.as_ref()) {
            failed += 1;
            println!("{e}");
        }
        before = Some(record);
    }
    if failed > 0 { Err(format!("{failed} of {} records not verified", files.len())) } else { Ok(()) }
}

fn verify_one(file: &Path, record: &DealRecord, previous: Option<&DealRecord>) -> Result<(), String> {
    let verified = record.verify(previous).map_err(|e| format!("{}: NOT VERIFIED — {e}", file.display()))?;
    println!("{}: verified", file.display());
    let name = |seat: usize| record.seats.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}"));
    println!("commitment {}", record.commitment.as_deref().unwrap_or_default());
    let salt = record.setup.salt.map(|salt| salt.to_string()).unwrap_or_default();
    println!("  = SHA-256(\"ddz-fair/1:{}:{salt}\")", record.setup.seed);
    if let Some(nonces) = &record.setup.nonces {
        let parts: Vec<String> = nonces.iter().map(|n| n.map_or_else(|| "-".to_string(), |n| n.to_string())).collect();
        println!("dealt from {}", record.setup.dealing_seed());
        println!("  = SHA-256(\"ddz-deal/2:{}:{}\")", record.setup.seed, parts.join(":"));
        let from = |seat: usize, nonce: &Option<ddz_engine::Seed>| match nonce {
            Some(_) => format!("{} added a nonce", name(seat)),
            None => format!("{}'s part is the server's", name(seat)),
        };
        let said: Vec<String> = nonces.iter().enumerate().map(|(seat, n)| from(seat, n)).collect();
        println!("  ({})", said.join("; "));
    }
    for (seat, hand) in verified.dealt.iter().enumerate() {
        println!("dealt to {}: {hand}", name(seat));
    }
    println!("bottom: {}", verified.bottom);
    match (&record.setup.pack, previous) {
        (Some(_), Some(_)) => println!("the pack is the previous deal's collected cards, cut and dealt in packets"),
        (Some(_), None) => {
            println!("a re-deal: give the previous deal's record before it (or --previous) to check its pack too")
        }
        (None, _) => {}
    }
    println!("{}", summary(record, &verified.deal));
    Ok(())
}

/// Prints the `hard` bot's review of `seat`'s play in a record (`ddz_bot::review`), one line a decision.
pub fn review(file: &Path, seat: usize) -> Result<(), String> {
    let record = read_record(file)?;
    if seat >= record.seats.len() {
        return Err(format!("{}: the deal has no seat {seat} (it has {})", file.display(), record.seats.len()));
    }
    let review = ddz_bot::review::review(&record, seat, ddz_bot::review::REVIEW_BUDGET)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let shown = |action: &Action| match action {
        Action::Play { play, .. } => play.to_string(),
        _ => "pass".to_string(),
    };
    let mistakes = review.decisions.iter().filter(|d| d.mistake).count();
    let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
    println!("{}: {}, {}", record.seats[seat], plural(review.decisions.len(), "decision"), plural(mistakes, "mistake"));
    for d in &review.decisions {
        let verdict = if d.mistake { "  MISTAKE" } else { "" };
        println!(
            "action {:>3}: {} {:.0}%, best {} {:.0}%{verdict}",
            d.step,
            shown(&d.played),
            d.played_chance * 100.0,
            shown(&d.best),
            d.best_chance * 100.0
        );
    }
    Ok(())
}

fn summary(record: &DealRecord, deal: &Deal) -> String {
    let name = |seat: usize| record.seats.get(seat).cloned().unwrap_or_else(|| format!("seat {seat}"));
    let mut text = format!("{}, {} actions", deal.rules(), record.actions.len());
    if let Some(rank) = deal.rules().wild_rank() {
        text += &format!(", wild rank {rank}");
    }
    if let Some(landlord) = deal.landlord() {
        text += &format!(", landlord {}", name(landlord));
    }
    match deal.result() {
        None => text += ", unfinished",
        Some(result) => {
            match result.winner {
                Some(w) => text += &format!(", {} went out ({:?})", name(w), result.end),
                None => text += &format!(", no winner ({:?})", result.end),
            }
            let scores: Vec<String> =
                result.score.iter().enumerate().map(|(s, v)| format!("{} {v:+}", name(s))).collect();
            text +=
                &format!(", bombs {}, multiplier {}, score: {}", result.bombs, result.multiplier, scores.join(", "));
            if result.spring {
                text += ", spring";
            }
        }
    }
    text
}
