//! The engine in the page answers as the server does: thousands of positions at every table type (House
//! with and without the Wild, No Shuffle and Two Player with and without the Wild Rank), random hands,
//! plays to beat and selections, each answered here by the server's functions (`ddz_engine::hints`, what
//! `POST /api/readings` and `POST /api/hints` answer with) and in Chromium by the WebAssembly module the
//! page bundles (`web/src/lib/engine/ddz.wasm`, built by the server's build.rs), byte for byte
//! (`web/e2e/wasm-equal.mjs`).
//!
//! Needs Node.js, `npm ci` in `web/`, and Chromium, as the browser tests do.

use std::path::PathBuf;
use std::process::Command;

use ddz_engine::hints::{Position, hints_answer, readings_answer};
use ddz_engine::{Card, Rules};
use serde_json::{Value, json};

const TABLES: [&str; 6] =
    ["house", "house-nowild", "noshuffle", "noshuffle-wildrank", "twoplayer", "twoplayer-wildrank"];
const POSITIONS_PER_TABLE: usize = 400;

/// SplitMix64: a few lines of deterministic randomness, so that a failure can be rerun.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// What the server answers: the endpoint's body, or its reason for a malformed position.
fn server_answer(kind: &str, position: &Value) -> String {
    let position: Position = serde_json::from_value(position.clone()).expect("the test writes positions");
    let answer = match kind {
        "readings" => readings_answer(&position).map(|a| serde_json::to_string(&a)),
        _ => hints_answer(&position).map(|a| serde_json::to_string(&a)),
    };
    match answer {
        Ok(json) => json.expect("answers serialise"),
        Err(malformed) => json!({ "message": malformed.to_string() }).to_string(),
    }
}

/// A position at `table`: a hand of 1 to 20 cards, a play to beat from another hand half the time, and a
/// selection that is a legal play of the hand, a random handful of it, or not all in it.
fn position(table: &str, random: &mut Random) -> Value {
    let rules: Rules = table.parse().expect("a table's rules");
    let mut deck: Vec<Card> = rules.deck().iter().collect();
    random.shuffle(&mut deck);
    let choices: Vec<_> = rules.wild_rank_choices().collect();
    let wild_rank = rules.has_wild_rank_option().then(|| choices[random.below(choices.len())]);
    let hand = deck[..1 + random.below(20)].to_vec();
    let other = deck[hand.len()..(hand.len() + 1 + random.below(12)).min(deck.len())].to_vec();
    let mut position = json!({ "rules": table, "wild_rank": wild_rank, "hand": hand, "prior": null });
    if random.below(2) == 0 {
        let lead = json!({ "rules": table, "wild_rank": wild_rank, "hand": other });
        let hints: Value = serde_json::from_str(&server_answer("hints", &lead)).unwrap();
        let plays = hints["plays"].as_array().expect("every hand has plays to lead");
        let mut play = plays[random.below(plays.len())].clone();
        play.as_object_mut().expect("a play").remove("cards");
        position["prior"] = play;
    }
    let cards: Vec<Card> = match random.below(3) {
        0 => {
            let hints: Value = serde_json::from_str(&server_answer("hints", &position)).unwrap();
            let plays = hints["plays"].as_array().cloned().unwrap_or_default();
            if plays.is_empty() {
                hand[..1].to_vec()
            } else {
                serde_json::from_value(plays[random.below(plays.len())]["cards"].clone()).unwrap()
            }
        }
        1 => {
            let mut cards = hand.clone();
            random.shuffle(&mut cards);
            cards.truncate(1 + random.below(hand.len().min(8)));
            cards
        }
        _ => vec![hand[0], deck[deck.len() - 1]],
    };
    position["cards"] = json!(cards);
    position
}

#[test]
fn the_pages_engine_answers_as_the_server_does_in_chromium() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let wasm = root.join("web/src/lib/engine/ddz.wasm");
    assert!(wasm.exists(), "{} is missing: cargo build builds it (crates/ddz-server/build.rs)", wasm.display());
    let mut random = Random(39);
    let mut cases = String::new();
    let mut count = 0;
    let mut playable = 0;
    for table in TABLES {
        for _ in 0..POSITIONS_PER_TABLE {
            let position = position(table, &mut random);
            for kind in ["readings", "hints"] {
                let expected = server_answer(kind, &position);
                playable += usize::from(kind == "readings" && !expected.starts_with(r#"{"readings":[]"#));
                cases.push_str(&json!({ "kind": kind, "position": position, "expected": expected }).to_string());
                cases.push('\n');
                count += 1;
            }
        }
    }
    // Both sides of the rules are tried: selections that play and selections refused.
    let readings = count / 2;
    assert!((readings / 4..readings * 3 / 4).contains(&playable), "{playable} of {readings} selections play");
    let file = std::env::temp_dir().join(format!("ddz-wasm-cases-{}.jsonl", std::process::id()));
    std::fs::write(&file, cases).expect("write the cases");
    let out = Command::new("node")
        .arg("web/e2e/wasm-equal.mjs")
        .arg(&wasm)
        .arg(&file)
        .current_dir(&root)
        .output()
        .expect("node runs (install Node.js 20+ and run npm ci in web/)");
    let _ = std::fs::remove_file(&file);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the page's engine differs from the server ({}):\n{text}", out.status);
    assert!(text.contains(&format!("{count} answers equal")), "not every case was compared:\n{text}");
    println!("{} ({playable} of {readings} selections play)", text.trim());
}
