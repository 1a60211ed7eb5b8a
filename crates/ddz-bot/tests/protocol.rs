//! The bot protocol never crashes: every impossible view named in issue 14 gets an error line with its
//! id, at every level; so does a line that is not UTF-8; blank lines get no answer; and a seeded fuzz
//! run of thousands of mutated real requests gets exactly one well-formed answer per line.

use ddz_bot::protocol::{Request, serve};
use ddz_bot::search::Budget;
use ddz_bot::{Bot, BotKind};
use ddz_engine::consistency::validate;
use ddz_engine::{Action, Deal, DealSetup, Rules, Seed, Start};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

/// Every decision of `deals` random deals per table type, as the requests a bot would get.
fn real_requests(deals: u64, seed: u64) -> Vec<Request> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut requests = Vec::new();
    for rules in Rules::ALL {
        for d in 0..deals {
            let start = Start::Seat(d as usize % usize::from(rules.players));
            let mut deal = Deal::new(DealSetup::shuffled(rules, Seed::from_u64(seed * 1000 + d), start));
            while deal.result().is_none() {
                let seat = deal.waiting_for()[0];
                let choices: Vec<Action> = deal.choices().into_iter().filter(|a| a.seat() == Some(seat)).collect();
                let Some(pick) = choices.choose(&mut rng).cloned() else { break };
                let id = requests.len() as u64;
                requests.push(Request { id, view: deal.view(Some(seat)), choices });
                deal.apply(&pick).expect("a listed choice is legal");
            }
        }
    }
    requests
}

/// The answer lines `serve` writes for `input`.
fn answers(bot: &mut Bot, input: &[u8]) -> Vec<Value> {
    let mut output = Vec::new();
    serve(bot, input, &mut output).expect("in-memory input and output");
    let text = String::from_utf8(output).expect("answers are UTF-8");
    text.lines().map(|l| serde_json::from_str(l).expect("every answer is JSON")).collect()
}

/// A No Shuffle deal with seat 0 the landlord (bid 3): the landlord to lead.
fn lead_deal() -> Deal {
    let mut deal = Deal::new(DealSetup::shuffled(Rules::no_shuffle(false), Seed::from_u64(7), Start::Seat(0)));
    deal.apply(&Action::Bid { seat: 0, bid: 3 }).unwrap();
    deal
}

/// The same deal after the landlord's first play: seat 1 to follow.
fn follow_deal() -> Deal {
    let mut deal = lead_deal();
    let lead = deal.choices().into_iter().find(|a| matches!(a, Action::Play { .. })).unwrap();
    deal.apply(&lead).unwrap();
    deal
}

fn request_json(deal: &Deal, id: u64) -> Value {
    let seat = deal.waiting_for()[0];
    json!({"id": id, "view": deal.view(Some(seat)), "choices": deal.choices()})
}

fn card_list(value: &Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

/// Every level answers `request` with an error of `code`, carrying the request's id.
fn assert_rejected(request: &Value, code: &str) {
    for kind in BotKind::ALL {
        let line = format!("{request}\n");
        let got = answers(&mut Bot::new(kind, 1), line.as_bytes());
        assert_eq!(got.len(), 1, "{kind}: {got:?}");
        assert_eq!(got[0]["id"], request["id"], "{kind}: {}", got[0]);
        assert_eq!(got[0]["code"], code, "{kind}: {}", got[0]);
        assert!(got[0]["error"].is_string(), "{kind}: {}", got[0]);
        assert!(got[0].get("choice").is_none(), "{kind}: {}", got[0]);
    }
}

#[test]
fn every_real_request_is_consistent() {
    for request in real_requests(6, 1) {
        let text = serde_json::to_string(&request).unwrap();
        let read: Request = serde_json::from_str(&text).unwrap();
        if let Err(e) = validate(&read.view, &read.choices) {
            panic!("request {} ({} phase, {}) rejected: {e}\n{text}", request.id, e.code(), request.view.rules);
        }
    }
}

#[test]
fn a_real_request_is_answered_with_a_choice_at_every_level() {
    let deal = follow_deal();
    let request = request_json(&deal, 9);
    for kind in BotKind::ALL {
        let got = answers(&mut Bot::new(kind, 1), format!("{request}\n").as_bytes());
        assert_eq!(got[0]["id"], 9);
        assert!(got[0]["choice"].as_u64().unwrap() < deal.choices().len() as u64, "{kind}: {}", got[0]);
    }
}

#[test]
fn seat_null() {
    let mut request = request_json(&follow_deal(), 1);
    request["view"]["seat"] = Value::Null;
    assert_rejected(&request, "no_seat");
}

#[test]
fn seat_out_of_range() {
    let mut request = request_json(&follow_deal(), 2);
    request["view"]["seat"] = json!(3);
    assert_rejected(&request, "no_such_seat");
}

#[test]
fn a_choice_whose_cards_are_not_in_the_hand() {
    let deal = follow_deal();
    let mut request = request_json(&deal, 3);
    // A single of a card in another hand, read correctly.
    let other = deal.hand(2).iter().next().unwrap();
    let single = deal.choices().into_iter().find(|a| match a {
        Action::Play { play, .. } => play.shape.kind == ddz_engine::Kind::Single,
        _ => false,
    });
    let mut choice = serde_json::to_value(single.unwrap()).unwrap();
    choice["cards"] = json!([other.to_string()]);
    choice["play"]["ranks"] = json!(other.to_string()[..1].to_string());
    choice["play"]["main"] = json!(other.to_string()[..1].to_string());
    request["choices"][0] = choice;
    assert_rejected(&request, "choice_not_in_hand");
}

#[test]
fn hand_sizes_with_the_wrong_number_of_entries() {
    for sizes in [json!([17]), json!([20, 17]), json!([20, 16, 17, 17]), json!([])] {
        let mut request = request_json(&follow_deal(), 4);
        request["view"]["hand_sizes"] = sizes;
        assert_rejected(&request, "hand_sizes_length");
    }
}

#[test]
fn hand_sizes_that_do_not_match_the_hand() {
    let mut request = request_json(&follow_deal(), 5);
    request["view"]["hand_sizes"][1] = json!(16);
    assert_rejected(&request, "hand_size_mismatch");
}

#[test]
fn bottom_cards_in_a_farmers_hand() {
    let deal = follow_deal();
    let mut request = request_json(&deal, 6);
    let bottom = card_list(&request["view"]["bottom"]);
    let played = card_list(&request["view"]["trick"]["cards"]);
    let unplayed = bottom.iter().find(|c| !played.contains(c)).unwrap().clone();
    // Swap one of seat 1's cards for a bottom card: the sizes still add up.
    request["view"]["hand"][0] = json!(unplayed);
    assert_rejected(&request, "bottom_in_farmers_hand");
}

#[test]
fn a_card_both_played_and_held() {
    let mut request = request_json(&follow_deal(), 7);
    let played = card_list(&request["view"]["trick"]["cards"]);
    request["view"]["hand"][0] = json!(played[0]);
    assert_rejected(&request, "played_and_held");
}

#[test]
fn a_trick_led_by_the_deciding_seat() {
    let mut request = request_json(&follow_deal(), 8);
    request["view"]["trick"]["seat"] = json!(1);
    assert_rejected(&request, "own_trick");
}

#[test]
fn pass_offered_on_a_lead() {
    let mut request = request_json(&lead_deal(), 9);
    request["choices"].as_array_mut().unwrap().push(json!({"action": "pass", "seat": 0}));
    assert_rejected(&request, "pass_on_lead");
}

#[test]
fn choices_for_another_seat() {
    let mut request = request_json(&follow_deal(), 10);
    let last = request["choices"].as_array().unwrap().len() - 1;
    request["choices"][last]["seat"] = json!(2);
    assert_rejected(&request, "choice_for_another_seat");
}

#[test]
fn no_choices() {
    let mut request = request_json(&follow_deal(), 11);
    request["choices"] = json!([]);
    assert_rejected(&request, "no_choices");
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_next_line_is_answered() {
    let request = request_json(&follow_deal(), 12);
    let mut input = b"{\"id\": 1, \"view\": \xff\xfe}\n".to_vec();
    input.extend_from_slice(format!("{request}\n").as_bytes());
    let got = answers(&mut Bot::new(BotKind::Normal, 1), &input);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0]["code"], "not_utf8");
    assert_eq!(got[1]["id"], 12);
    assert!(got[1]["choice"].is_u64(), "{}", got[1]);
}

#[test]
fn blank_lines_get_no_answer() {
    let request = request_json(&follow_deal(), 13);
    let input = format!("\n   \n\t\r\n{request}\n\n");
    let got = answers(&mut Bot::new(BotKind::Normal, 1), input.as_bytes());
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["id"], 13);
}

#[test]
fn a_malformed_request_keeps_its_id_where_it_has_one() {
    let got = answers(&mut Bot::new(BotKind::Normal, 1), b"{\"id\": 14}\nnot json\n");
    assert_eq!(got[0]["id"], 14);
    assert_eq!(got[0]["code"], "bad_request");
    assert_eq!(got[1]["code"], "bad_request");
    assert!(got[1].get("id").is_none());
}

#[test]
fn an_attachment_count_out_of_range_is_a_bad_request() {
    let deal = follow_deal();
    let mut request = request_json(&deal, 15);
    request["choices"][0]["play"]["attach"] = json!("pairs");
    request["choices"][0]["play"]["attach_count"] = json!(200);
    assert_rejected(&request, "bad_request");
}

#[test]
fn a_wild_standing_in_for_the_wild_is_a_bad_request() {
    let deal = follow_deal();
    let mut request = request_json(&deal, 16);
    request["choices"][0]["play"]["wild_as"] = json!("W");
    assert_rejected(&request, "bad_request");
}

// The fuzz run.

const CARDS: [&str; 16] =
    ["3S", "4H", "5D", "7C", "9S", "TH", "JD", "QC", "KS", "AH", "2D", "2C", "BJ", "RJ", "W", "ZZ"];

/// Where a value sits in a JSON tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn paths(value: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                here.push(Step::Key(key.clone()));
                paths(child, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                here.push(Step::Index(i));
                paths(child, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

fn random_value(rng: &mut ChaCha8Rng) -> Value {
    let choices = [
        Value::Null,
        json!("x"),
        json!(true),
        json!([]),
        json!({}),
        json!(1.5),
        json!(-1),
        json!(0),
        json!(3),
        json!(7),
        json!(255),
        json!(65536),
        json!(u64::MAX),
        json!(1e30),
        json!(*CARDS.choose(rng).unwrap()),
        json!([*CARDS.choose(rng).unwrap()]),
    ];
    choices.choose(rng).unwrap().clone()
}

/// One to three mutations of a request's JSON.
fn mutate(request: &Value, rng: &mut ChaCha8Rng) -> Value {
    let mut value = request.clone();
    for _ in 0..rng.random_range(1..=3) {
        let mut all = Vec::new();
        paths(&value, &mut Vec::new(), &mut all);
        // Half the time a field of the view or the request itself, where most checks are.
        let shallow: Vec<_> = all.iter().filter(|p| (1..=3).contains(&p.len())).cloned().collect();
        let path =
            if rng.random_bool(0.5) && !shallow.is_empty() { &shallow } else { &all }.choose(rng).unwrap().clone();
        let Some((last, parent)) = path.split_last() else { continue };
        match rng.random_range(0..8) {
            0 => match (at(&mut value, parent), last) {
                (Value::Object(map), Step::Key(k)) => {
                    map.remove(k);
                }
                (Value::Array(items), Step::Index(i)) => {
                    items.remove(*i);
                }
                _ => {}
            },
            1 => *at(&mut value, &path) = Value::Null,
            2 | 3 => *at(&mut value, &path) = random_value(rng),
            4 => match at(&mut value, parent) {
                Value::Array(items) => {
                    let extra =
                        if rng.random_bool(0.5) { items.choose(rng).unwrap().clone() } else { random_value(rng) };
                    items.push(extra);
                }
                Value::Object(map) => {
                    map.insert("extra".into(), random_value(rng));
                }
                _ => {}
            },
            5 => {
                // Any number to a small one: types stay right, meanings go wrong.
                let numbers: Vec<_> = all.iter().filter(|p| at(&mut value, p).is_u64()).collect();
                if let Some(p) = numbers.choose(rng) {
                    *at(&mut value, p) = json!(rng.random_range(0..=20));
                }
            }
            _ => {
                // Swap two cards anywhere in the request (hand, bottom, trick, history, choices).
                let is_card = |v: &Value| v.as_str().is_some_and(|s| s.parse::<ddz_engine::Card>().is_ok());
                let strings: Vec<_> = all.iter().filter(|p| is_card(at(&mut value, p))).collect();
                if let (Some(a), Some(b)) = (strings.choose(rng), strings.choose(rng)) {
                    let va = at(&mut value, a).clone();
                    let vb = std::mem::replace(at(&mut value, b), va);
                    *at(&mut value, a) = vb;
                }
            }
        }
    }
    value
}

/// A mutated request line (no newline inside), sometimes cut short or with bytes that are not UTF-8.
fn mutated_line(request: &Value, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut line = if rng.random_bool(0.9) { mutate(request, rng) } else { request.clone() }.to_string().into_bytes();
    match rng.random_range(0..10) {
        0 => line.truncate(rng.random_range(0..line.len())),
        1 => {
            let bad: &[&[u8]] = &[b"\xff", b"\xfe\xfe", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\x80"];
            let at = rng.random_range(0..=line.len());
            line.splice(at..at, bad.choose(rng).unwrap().iter().copied());
        }
        2 => {
            let at = rng.random_range(0..line.len());
            line[at] = loop {
                let b: u8 = rng.random();
                if b != b'\n' {
                    break b;
                }
            };
        }
        3 => line.push(b'\r'),
        _ => {}
    }
    line
}

#[test]
fn fuzzed_requests_get_one_answer_per_line_and_never_a_crash() {
    let seed: u64 = match std::env::var("DDZ_FUZZ_SEED") {
        Ok(text) => text.parse().expect("DDZ_FUZZ_SEED is a number"),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64,
    };
    eprintln!("fuzz seed {seed} (DDZ_FUZZ_SEED={seed} replays it)");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let requests: Vec<Value> = real_requests(2, seed % 1000).iter().map(|r| serde_json::to_value(r).unwrap()).collect();
    let light = Budget { candidates: 3, samples: 4, endgame_cards: 10, endgame_nodes: 300, decision_nodes: 3000 };
    let mut total = 0;
    let mut codes = std::collections::BTreeMap::<String, usize>::new();
    for (round, kind) in BotKind::ALL.into_iter().cycle().take(12).enumerate() {
        let mut input = Vec::new();
        let mut lines = Vec::new();
        for _ in 0..300 {
            let line = mutated_line(requests.choose(&mut rng).unwrap(), &mut rng);
            input.extend_from_slice(&line);
            input.push(b'\n');
            if rng.random_bool(0.02) {
                input.extend_from_slice(b"  \n"); // blank: no answer
            }
            if !line.trim_ascii().is_empty() {
                lines.push(line);
            }
        }
        let mut bot = Bot::new(kind, seed.wrapping_add(round as u64)).with_budget(light);
        let got = answers(&mut bot, &input);
        assert_eq!(got.len(), lines.len(), "seed {seed}, {kind}: one answer per line");
        for (line, answer) in lines.iter().zip(&got) {
            let request = std::str::from_utf8(line).ok().and_then(|t| serde_json::from_str::<Request>(t).ok());
            let shown = String::from_utf8_lossy(line);
            match (answer.get("choice"), answer.get("error")) {
                (Some(choice), None) => {
                    *codes.entry("(choice)".into()).or_default() += 1;
                    let request = request.unwrap_or_else(|| panic!("seed {seed}: a choice for {shown}"));
                    assert_eq!(answer["id"], request.id, "seed {seed}");
                    assert!((choice.as_u64().unwrap() as usize) < request.choices.len(), "seed {seed}: {answer}");
                }
                (None, Some(error)) => {
                    *codes.entry(answer["code"].as_str().unwrap_or("?").into()).or_default() += 1;
                    assert!(error.is_string(), "seed {seed}: {answer}");
                    for code in ["bot_failed", "internal_error"] {
                        assert_ne!(answer["code"], code, "seed {seed}: failed on {shown}\n{answer}");
                    }
                    if let Some(request) = request {
                        assert_eq!(answer["id"], request.id, "seed {seed}");
                    }
                }
                _ => panic!("seed {seed}: neither a choice nor an error: {answer}"),
            }
        }
        total += lines.len();
    }
    eprintln!("{total} mutated requests answered: {codes:?}");
    // The mutations leave some requests whole enough to reach the bots.
    assert!(codes.get("(choice)").copied().unwrap_or(0) * 20 > total, "{codes:?}");
}
