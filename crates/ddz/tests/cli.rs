//! The `ddz` subcommands end to end, as a user runs them.

#[path = "../../ddz-server/tests/server/common/mod.rs"]
mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

const DDZ: &str = env!("CARGO_BIN_EXE_ddz");

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(DDZ)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz starts");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn moves_answers_each_line_and_reports_bad_lines() {
    let out = run(
        &["moves", "--count"],
        "{\"rules\":\"noshuffle\",\"hand_ranks\":\"33345\"}\n\nnot json\n{\"rules\":\"house\",\"hand_ranks\":\"W\"}\n",
    );
    assert!(out.status.success());
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines[0], r#"{"count":7}"#);
    assert!(lines[1].starts_with(r#"{"error":"bad position"#), "{}", lines[1]);
    assert_eq!(lines[2], r#"{"count":0}"#);
}

#[test]
fn simulated_records_replay_and_tampered_ones_are_rejected() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        &[
            "simulate",
            "--table",
            "twoplayer",
            "--wild-rank",
            "--deals",
            "3",
            "--seed",
            "5",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = dir.join("deal-000001.json");
    let out = run(&["replay", first.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(": ok"));

    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&first).unwrap()).unwrap();
    record["result"]["score"][0] = serde_json::json!(999);
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, record.to_string()).unwrap();
    let out = run(&["replay", tampered.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(text(&out.stdout).contains("REJECTED"), "{}", text(&out.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ddz puzzles mine` from bot games, from record files and from a server's store: every line a puzzle that
/// names where it came from; one source at a time.
#[test]
fn puzzles_are_mined_from_bot_games_records_and_a_store() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-puzzles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let out = run(&["puzzles", "mine", "--bots", "60", "--seed", "1", "--out", &path("bots.jsonl")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mined = std::fs::read_to_string(path("bots.jsonl")).unwrap();
    assert!(text(&out.stderr).contains(&format!("{} puzzles from 60 bot games", mined.lines().count())));
    assert!(mined.lines().count() > 0, "60 bot games make a puzzle or more");
    // The built-in set is `--bots 30000 --seed 1`: its first games' puzzles are these, to the byte.
    let built_in: std::collections::HashSet<&str> =
        include_str!("../../ddz-server/data/puzzles.jsonl").lines().collect();
    for line in mined.lines() {
        let puzzle: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(puzzle["id"].as_str().map(str::len), Some(10), "{line}");
        assert!(puzzle["source"]["seed"].is_string() && puzzle["solution"].as_array().is_some_and(|s| s.len() >= 3));
        assert_eq!(puzzle["source"]["bots"], "normal", "{line}");
        assert!(built_in.contains(line), "the built-in set holds {line}");
    }
    let records = path("records");
    assert!(run(&["simulate", "--table", "noshuffle", "--deals", "20", "--out", &records], "").status.success());
    let out = run(&["puzzles", "mine", "--records", &records, "--out", &path("records.jsonl")], "");
    assert!(out.status.success() && text(&out.stderr).contains("from 20 records"), "{}", text(&out.stderr));
    let empty = format!("sqlite://{}", path("empty.db"));
    let out = run(&["puzzles", "mine", "--database", &empty, "--out", &path("store.jsonl")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("0 puzzles from 0 stored deals"), "{}", text(&out.stderr));
    let both = run(&["puzzles", "mine", "--bots", "1", "--records", &records, "--out", &path("x.jsonl")], "");
    assert!(!both.status.success(), "one source at a time");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_reports_a_missing_file_and_checks_the_rest() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-missing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--table", "noshuffle", "--deals", "2", "--out", dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (good, missing, also_good) =
        (dir.join("deal-000001.json"), dir.join("nope.json"), dir.join("deal-000002.json"));
    let out = run(&["replay", good.to_str().unwrap(), missing.to_str().unwrap(), also_good.to_str().unwrap()], "");
    assert!(!out.status.success(), "a missing file fails the run");
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].contains("deal-000001.json: ok"), "{stdout}");
    assert!(lines[1].contains("nope.json: REJECTED") && lines[1].contains("cannot read it"), "{stdout}");
    assert!(lines[2].contains("deal-000002.json: ok"), "the file after the missing one is checked: {stdout}");
    assert!(text(&out.stderr).contains("1 of 3 records rejected"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ddz verify`: simulated deals carry their commitment, salt and seed; the re-deal's pack is checked
/// against the previous record; a changed commitment is reported and fails the run.
#[test]
fn verify_checks_the_commitment_and_the_redealt_pack() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-verify-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--table", "noshuffle", "--deals", "2", "--out", dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (first, second) = (dir.join("deal-000001.json"), dir.join("deal-000002.json"));
    let out = run(&["verify", first.to_str().unwrap()], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success() && stdout.contains("deal-000001.json: verified"), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.lines().filter(|l| l.starts_with("dealt to ")).count(), 3, "{stdout}");
    let out = run(&["verify", second.to_str().unwrap(), "--previous", first.to_str().unwrap()], "");
    assert!(text(&out.stdout).contains("the pack is the previous deal's collected cards"), "{}", text(&out.stdout));
    // A room's deals in order, as `ddz replay` takes them: each re-deal is checked against the one before.
    let out = run(&["verify", first.to_str().unwrap(), second.to_str().unwrap()], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.lines().filter(|l| l.ends_with(": verified")).count(), 2, "{stdout}");
    assert!(stdout.contains("the pack is the previous deal's collected cards"), "{stdout}");
    let record = std::fs::read_to_string(&first).unwrap();
    let commitment =
        serde_json::from_str::<serde_json::Value>(&record).unwrap()["commitment"].as_str().unwrap().to_string();
    std::fs::write(&first, record.replace(&commitment, &"0".repeat(64))).unwrap();
    let out = run(&["verify", first.to_str().unwrap(), second.to_str().unwrap()], "");
    assert!(!out.status.success(), "a wrong commitment fails");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("deal-000001.json: NOT VERIFIED") && stdout.contains("is not the SHA-256"), "{stdout}");
    assert!(stdout.contains("deal-000002.json: verified"), "the others are still checked: {stdout}");
    assert!(text(&out.stderr).contains("1 of 2 records not verified"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ddz verify` of a deal with the players' nonces: the dealing seed's derivation and who added a nonce
/// are printed, and a changed nonce does not verify.
#[test]
fn verify_shows_the_dealing_seed_from_the_players_nonces() {
    use ddz_engine::{Deal, DealRecord, DealSetup, Rules, Seed, Start};
    let nonce = Seed::from_u64(77);
    let setup = DealSetup::shuffled(Rules::house(true), Seed::from_u64(1), Start::Seat(0))
        .salted(Seed::from_u64(2))
        .with_nonces(vec![Some(nonce), None, Some(nonce)]);
    let mut deal = Deal::new(setup);
    while deal.result().is_none() {
        let first = deal.choices().remove(0);
        deal.apply(&first).unwrap();
    }
    let record = DealRecord::of(&deal, ["Ann", "Bea", "Cy"].map(String::from).to_vec());
    let file = std::env::temp_dir().join(format!("ddz-cli-nonces-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_string(&record).unwrap()).unwrap();
    let out = run(&["verify", file.to_str().unwrap()], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains(&format!("dealt from {}", record.setup.dealing_seed())), "{stdout}");
    assert!(stdout.contains(&format!("= SHA-256(\"ddz-deal/2:{}:{nonce}:-:{nonce}\")", Seed::from_u64(1))), "{stdout}");
    assert!(stdout.contains("Ann added a nonce; Bea's part is the server's; Cy added a nonce"), "{stdout}");
    let json = serde_json::to_string(&record).unwrap();
    std::fs::write(&file, json.replacen(&nonce.to_string(), &Seed::from_u64(78).to_string(), 1)).unwrap();
    let out = run(&["verify", file.to_str().unwrap()], "");
    assert!(!out.status.success() && text(&out.stdout).contains("NOT VERIFIED"), "{}", text(&out.stdout));
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn review_reports_every_decision_of_the_seat_and_refuses_a_seat_the_deal_lacks() {
    let dir = std::env::temp_dir().join(format!("ddz-cli-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--table", "house", "--deals", "1", "--out", dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = dir.join("deal-000001.json");
    let out = run(&["review", file.to_str().unwrap(), "--seat", "1"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let first = stdout.lines().next().unwrap();
    let decisions: usize = first.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert_eq!(stdout.lines().filter(|l| l.starts_with("action ")).count(), decisions, "{stdout}");
    assert!(stdout.lines().skip(1).all(|l| l.contains("%, best ")), "{stdout}");
    let out = run(&["review", file.to_str().unwrap(), "--seat", "3"], "");
    assert!(!out.status.success() && text(&out.stderr).contains("no seat 3 (it has 3)"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn simulate_reports_points_tables_in_points_and_house_in_dollars() {
    for (table, points) in [("noshuffle", true), ("twoplayer", true), ("house", false)] {
        let out = run(&["simulate", "--table", table, "--deals", "20", "--seed", "3"], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let balances: Vec<&str> = stdout.lines().skip(1).collect();
        assert!(!balances.is_empty(), "{stdout}");
        if points {
            assert!(!stdout.contains('$'), "{table} scores points: {stdout}");
            assert!(balances.iter().all(|l| l.ends_with(" points")), "{stdout}");
        } else {
            assert!(balances.iter().any(|l| l.contains(": $")), "{stdout}");
        }
    }
}

#[test]
fn ratings_simulate_reports_the_order_recovered_and_refuses_what_it_cannot_simulate() {
    let out = run(&["ratings", "simulate", "--players", "40", "--deals", "4000", "--seed", "3"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("a line per checkpoint");
    let columns: Vec<&str> = last.split('|').map(str::trim).collect();
    assert_eq!(columns[1], "4000", "{stdout}");
    let rank_correlation: f64 = columns[3].parse().expect("a correlation");
    assert!(rank_correlation > 0.8, "{stdout}");
    for bad in [&["--family", "poker"][..], &["--landlord-wins", "1.5"], &["--players", "3"], &["--deals", "0"]] {
        let out = run(&[&["ratings", "simulate"][..], bad].concat(), "");
        assert!(!out.status.success(), "{bad:?} is refused");
        assert!(!text(&out.stderr).is_empty());
    }
}

#[test]
fn ratings_anchor_rates_every_bot_kind() {
    let out = run(&["ratings", "anchor", "--family", "twoplayer", "--deals", "30", "--threads", "1"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for kind in ["hard", "normal", "easy", "greedy", "random", "bomber", "role"] {
        assert!(stdout.contains(&format!("| {kind} |")), "{kind} in {stdout}");
    }
    assert!(stdout.contains("| normal | 25.00 |"), "normal is the anchor: {stdout}");
}

#[test]
fn ratings_farm_settles_a_player_who_always_wins_just_above_the_bots() {
    let out = run(&["ratings", "farm", "--family", "house", "--bot", "random", "--deals", "100", "--from", "900"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("the ceiling is 1121"), "{stdout}");
    assert!(stdout.contains("| 100 | 1121 |"), "settled at the ceiling after 100 deals: {stdout}");
    let unknown = run(&["ratings", "farm", "--bot", "genius"], "");
    assert!(!unknown.status.success() && text(&unknown.stderr).contains("genius"));
}

#[test]
fn fairness_lists_flagged_pairs_and_refuses_to_clear_a_pair_that_is_not() {
    let db = std::env::temp_dir().join(format!("ddz-cli-fairness-{}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    let out = run(&["fairness", "--database", &url, "pairs"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "no flagged pairs");
    let out = run(&["fairness", "--database", &url, "clear", "Ann", "Bea"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("Ann and Bea are no flagged pair"), "{}", text(&out.stderr));
    let out = run(&["fairness", "--database", &url, "clear", "Ann", "Al\u{200B}"], "");
    assert!(!out.status.success() && text(&out.stderr).contains("invisible"), "{}", text(&out.stderr));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

#[test]
fn simulate_names_the_wild_rank_option_and_bounds_the_deals() {
    let out = run(&["simulate", "--table", "house", "--wild-rank", "--deals", "1"], "");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("--wild-rank is an option of the noshuffle and twoplayer tables"), "{stderr}");
    assert!(!stderr.contains("house-wildrank"), "{stderr}");
    for deals in ["4294967295", "1000001", "0"] {
        let out = run(&["simulate", "--table", "noshuffle", "--deals", deals], "");
        assert!(!out.status.success(), "--deals {deals} is refused");
        assert!(text(&out.stderr).contains("--deals"), "{}", text(&out.stderr));
    }
    let out = run(&["simulate", "--table", "noshuffle-wildrank", "--wild-rank", "--deals", "1"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn arena_pits_an_external_bot_over_the_protocol() {
    let external = format!("exec:{DDZ} bot --level normal --seed 3");
    let out = run(&["arena", "--research", "--a", &external, "--b", "greedy", "--deals", "3"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("3 deals, each played twice"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("greedy")), "{stdout}");
}

#[test]
fn arena_stops_with_a_clear_error_on_a_malformed_response() {
    let out =
        run(&["arena", "--a", "exec:while read line; do echo nonsense; done", "--b", "random", "--deals", "2"], "");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("malformed response \"nonsense\""), "{stderr}");
}

#[test]
fn arena_stops_with_a_clear_error_on_an_illegal_choice() {
    let bot = r#"exec:i=0; while read line; do i=$((i+1)); echo "{\"id\":$i,\"choice\":999}"; done"#;
    let out = run(&["arena", "--a", bot, "--b", "random", "--deals", "2"], "");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("chose 999 of"), "{stderr}");
}

#[test]
fn bot_answers_requests_and_reports_bad_ones() {
    use ddz_engine::{Deal, DealSetup, Rules, Seed, Start};
    let deal = Deal::new(DealSetup::shuffled(Rules::no_shuffle(false), Seed::from_u64(1), Start::Seat(0)));
    let request = serde_json::json!({"id": 41, "view": deal.view(Some(0)), "choices": deal.choices()});
    let out = run(&["bot", "--level", "hard"], &format!("{request}\n{{\"id\":1}}\n"));
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["id"], 41);
    assert!(lines[0]["choice"].as_u64().unwrap() < deal.choices().len() as u64);
    assert!(lines[1]["error"].as_str().unwrap().starts_with("bad request"));
}

/// `ddz bot` as a process: a seeded batch of mutated real requests, lines cut short, bytes that are not
/// UTF-8 and blank lines gets exactly one JSON answer (a choice in range or an error) per non-blank
/// line, and the process ends cleanly. `crates/ddz-bot/tests/protocol.rs` runs thousands in-process.
#[test]
fn bot_answers_every_mutated_line_and_never_crashes() {
    use ddz_engine::{Action, Deal, DealSetup, Rules, Seed, Start};
    use rand::seq::IndexedRandom;
    use rand::{RngExt, SeedableRng};

    let seed: u64 = std::env::var("DDZ_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    eprintln!("fuzz seed {seed} (DDZ_FUZZ_SEED={seed} replays it)");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut requests = Vec::new();
    for rules in [Rules::house(true), Rules::no_shuffle(false), Rules::two_player(true)] {
        let mut deal = Deal::new(DealSetup::shuffled(rules, Seed::from_u64(seed), Start::Seat(0)));
        while deal.result().is_none() {
            let seat = deal.waiting_for()[0];
            let choices: Vec<Action> = deal.choices().into_iter().filter(|a| a.seat() == Some(seat)).collect();
            let pick = choices.choose(&mut rng).unwrap().clone();
            let id = requests.len();
            requests.push(serde_json::json!({"id": id, "view": deal.view(Some(seat)), "choices": choices}));
            deal.apply(&pick).unwrap();
        }
    }
    let junk = [serde_json::Value::Null, serde_json::json!(-1), serde_json::json!(99), serde_json::json!("ZZ")];
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for _ in 0..400 {
        let mut request = requests.choose(&mut rng).unwrap().clone();
        let field =
            ["seat", "hand", "hand_sizes", "bottom", "trick", "landlord", "actions", "phase"].choose(&mut rng).unwrap();
        match rng.random_range(0..4) {
            0 => request["view"][field] = junk.choose(&mut rng).unwrap().clone(),
            1 => request["choices"][0]["seat"] = serde_json::json!(rng.random_range(0..4)),
            2 => request["view"]["hand_sizes"][0] = serde_json::json!(rng.random_range(0..25)),
            _ => {}
        }
        let mut line = request.to_string().into_bytes();
        match rng.random_range(0..8) {
            0 => line.truncate(rng.random_range(0..line.len())),
            1 => line.insert(rng.random_range(0..line.len()), 0xff),
            2 => input.extend_from_slice(b" \n"),
            _ => {}
        }
        let choices = request["choices"].as_array().map_or(0, Vec::len);
        if !line.trim_ascii().is_empty() {
            expected.push(choices);
        }
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    let mut child = Command::new(DDZ)
        .args(["bot", "--level", "hard", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ddz starts");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "seed {seed}: {}", text(&out.stderr));
    let answers: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON answer")).collect();
    assert_eq!(answers.len(), expected.len(), "seed {seed}: one answer per line");
    for (answer, choices) in answers.iter().zip(expected) {
        match (answer["choice"].as_u64(), answer["error"].as_str()) {
            (Some(choice), None) => assert!((choice as usize) < choices, "seed {seed}: {answer}"),
            (None, Some(_)) => {
                assert!(answer["code"] != "bot_failed" && answer["code"] != "internal_error", "seed {seed}: {answer}")
            }
            _ => panic!("seed {seed}: {answer}"),
        }
    }
}

/// `ddz serve` on `url` with `args` on a free port: the process and its address.
fn serve(url: &str, args: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(DDZ)
        .args(["serve", "--addr", "127.0.0.1:0", "--database", url])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ddz serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("Dou Dizhu on http://").expect("the address line").to_string();
    (child, addr)
}

/// One request to `addr`: the answer's status and JSON body, or none when the server is gone mid-way.
fn request(addr: &str, method: &str, path: &str, body: &str) -> Option<(u16, serde_json::Value)> {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).unwrap_or(serde_json::Value::Null)))
}

/// One request to a server that is up: the answer's status and JSON body.
fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    request(addr, method, path, body).unwrap_or_else(|| panic!("{method} {path}: no answer"))
}

/// The JSON of a `GET`.
fn get(addr: &str, path: &str) -> serde_json::Value {
    http(addr, "GET", path, "").1
}

/// A server process killed with SIGKILL mid-deal comes back with the same room, deal and hands.
#[test]
fn serve_survives_kill_minus_nine_mid_deal() {
    let db = std::env::temp_dir().join(format!("ddz-kill9-{}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    // Dealt at once: the wait for a nonce Alice never sends is another test's (tests/nonces.rs).
    let start = || serve(&url, &["--nonce-wait-ms", "0"]);

    // The room as `GET /api/rooms/CODE` shows it, polled until it is as `wanted` says (20 s at most).
    let room_when = |addr: &str, code: &str, what: &str, wanted: &dyn Fn(&serde_json::Value) -> bool| {
        let (wait, every) = (std::time::Duration::from_secs(20), std::time::Duration::from_millis(50));
        common::poll_blocking(what, wait, every, || {
            let room = get(addr, &format!("/api/rooms/{code}"));
            wanted(&room).then_some(room)
        })
    };
    let moved = |room: &serde_json::Value| room["deal"]["actions"].as_array().is_some_and(|a| !a.is_empty());

    let (mut server, addr) = start();
    // Once the bots have made their first move, kill the server without warning. Alice never moves, so the
    // bots move first only where the priority draw gave one of them the first option: a new room until
    // it does.
    let (code, before) = (0..12)
        .find_map(|_| {
            let created = http(&addr, "POST", "/api/play-vs-bots", r#"{"name":"Alice","level":"normal"}"#).1;
            let code = created["code"].as_str().unwrap().to_string();
            let room = room_when(&addr, &code, "the first deal", &|room| !room["deal"].is_null());
            if room["deal"]["first"] == 0 {
                return None;
            }
            Some((code.clone(), room_when(&addr, &code, "a bot's first move", &moved)))
        })
        .expect("a room whose first option fell to a bot");
    assert!(!before["deal"]["actions"].as_array().unwrap().is_empty(), "the bots moved: {before}");
    server.kill().unwrap();
    server.wait().unwrap();

    let (mut server, addr) = start();
    let after = get(&addr, &format!("/api/rooms/{code}"));
    let actions = |v: &serde_json::Value| v["deal"]["actions"].as_array().unwrap().len();
    assert!(actions(&after) >= actions(&before), "no stored action was lost");
    let stored = &after["deal"]["actions"].as_array().unwrap()[..actions(&before)];
    assert_eq!(stored, before["deal"]["actions"].as_array().unwrap().as_slice(), "the same deal goes on");
    assert_eq!(after["deal"]["hand_sizes"].as_array().unwrap().len(), 3);
    assert_eq!(after["seats"], before["seats"]);
    server.kill().unwrap();
    server.wait().unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// A server killed with SIGKILL while six names' puzzle attempts pour in comes back with each attempt whole or
/// absent: every attempt it answered is there, and each name's count, their list and each puzzle's plays agree.
#[test]
fn serve_keeps_each_puzzle_attempt_whole_through_kill_minus_nine() {
    use ddz_engine::{Endgame, Solver};
    use std::collections::{BTreeSet, HashMap};
    use std::sync::atomic::{AtomicUsize, Ordering};

    let db = std::env::temp_dir().join(format!("ddz-kill9-puzzles-{}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    let unlimited = ["--api-rate", "100000", "--api-burst", "100000"];
    let (mut server, addr) = serve(&url, &unlimited);
    // Ten puzzles, each with a first move that gives the win away (a rated attempt, worked out before the rush).
    let mut pool: HashMap<String, serde_json::Value> = HashMap::new();
    for _ in 0..200 {
        let next = get(&addr, "/api/puzzles/next");
        let endgame: Endgame = serde_json::from_value(next["endgame"].clone()).unwrap();
        let mut solver = Solver::new();
        let wrong = endgame.moves().into_iter().find(|mv| !solver.keeps_the_win(&endgame, mv)).unwrap();
        pool.insert(next["id"].as_str().unwrap().to_string(), serde_json::to_value(wrong).unwrap());
        if pool.len() == 10 {
            break;
        }
    }
    assert_eq!(pool.len(), 10, "ten puzzles near 1500");

    let answered = AtomicUsize::new(0);
    let names: Vec<String> = (0..6).map(|i| format!("Rush{i}")).collect();
    let rated: Vec<BTreeSet<String>> = std::thread::scope(|scope| {
        let rushes: Vec<_> = names
            .iter()
            .map(|name| {
                let (pool, answered, addr) = (&pool, &answered, &addr);
                scope.spawn(move || {
                    let mut rated = BTreeSet::new();
                    for (id, wrong) in pool {
                        let body = serde_json::json!({"name": name, "moves": [wrong]}).to_string();
                        match request(addr, "POST", &format!("/api/puzzles/{id}/attempt"), &body) {
                            Some((200, _)) => {
                                rated.insert(id.clone());
                                answered.fetch_add(1, Ordering::SeqCst);
                            }
                            Some((status, answer)) => panic!("{status}: {answer}"),
                            None => break,
                        }
                    }
                    rated
                })
            })
            .collect();
        // Mid-rush: a few attempts answered, most still to come.
        while answered.load(Ordering::SeqCst) < 5 {
            std::thread::yield_now();
        }
        server.kill().unwrap();
        rushes.into_iter().map(|rush| rush.join().unwrap()).collect()
    });
    server.wait().unwrap();
    let answered = answered.into_inner();
    assert!(answered < names.len() * pool.len(), "killed mid-rush ({answered} answered)");

    let (mut server, addr) = serve(&url, &unlimited);
    let mut plays: HashMap<&str, i64> = HashMap::new();
    for (name, rated) in names.iter().zip(&rated) {
        let puzzles = &get(&addr, &format!("/api/players/{name}"))["puzzles"];
        let kept: BTreeSet<String> =
            puzzles["recent"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_string()).collect();
        assert!(rated.is_subset(&kept), "{name}: every answered attempt is kept ({rated:?} of {kept:?})");
        assert_eq!(puzzles["attempts"].as_u64(), Some(kept.len() as u64), "{name}: the count is the list: {puzzles}");
        for id in &kept {
            *plays.entry(pool.get_key_value(id).expect("a puzzle of the rush").0).or_default() += 1;
        }
    }
    for id in pool.keys() {
        let shown = get(&addr, &format!("/api/puzzles/{id}"));
        assert_eq!(shown["plays"].as_i64(), Some(plays.get(id.as_str()).copied().unwrap_or(0)), "puzzle {id}'s plays");
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// `ddz verify-tournament`: a finished sit-and-go's public record (saved from a real server's
/// `GET /api/tournaments/ID/record` by `DDZ_BLESS=1` in crates/ddz-server/tests/server/tournaments.rs) draws again
/// decision by decision; a seat changed or a wrong commitment is found and said.
#[test]
fn verify_tournament_draws_every_round_again_and_finds_a_changed_seat() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tournament-record.json");
    let out = run(&["verify-tournament", fixture], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.lines().filter(|l| l.ends_with(": as drawn")).count() >= 6, "{stdout}");
    assert!(stdout.contains("round 1 (Chips") && !stdout.contains("DIFFERS"), "{stdout}");

    let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!("ddz-cli-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong-commitment.json");
    let shown = record["commitment"].as_str().unwrap().to_string();
    let out = run(&["verify-tournament", fixture, "--commitment", &"0".repeat(64)], "");
    assert!(!out.status.success() && text(&out.stderr).contains("not the one committed to"), "{}", text(&out.stderr));
    let out = run(&["verify-tournament", fixture, "--commitment", &shown.to_uppercase()], "");
    assert!(out.status.success(), "the commitment the page showed, in any case");
    // Two players of the first round trade seats.
    let seated = record["log"].as_array_mut().unwrap().iter_mut().find(|e| e["entry"]["entry"] == "seated").unwrap();
    let tables = seated["entry"]["tables"].as_array_mut().unwrap();
    let (a, b) = (tables[0][1][0].clone(), tables[1][1][0].clone());
    tables[0][1][0] = b;
    tables[1][1][0] = a;
    std::fs::write(&wrong, record.to_string()).unwrap();
    let out = run(&["verify-tournament", wrong.to_str().unwrap()], "");
    let stdout = text(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("DIFFERS: table 1 is drawn"), "{stdout}");
    assert!(text(&out.stderr).contains("decisions differ from the rules"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
