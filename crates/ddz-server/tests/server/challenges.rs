//! Challenge modes over real WebSockets (RULES.md section 9): Bot Buster, Bot Bomber and Bang rallies,
//! their lifecycles, resuming and abandoning, one attempt per rally, and their boards.

use crate::common;

use std::net::SocketAddr;

use common::{Client, FAST, get, play_to_end, post, server_at_ms, server_at_noon, temp_db};

/// 2026-12-01 02:00 UTC: the rally of 2026-11-30 (the day of `server_at_noon`) closed an hour before.
const AFTER_THE_RALLY_CLOSED_MS: u64 = 1_796_040_000_000 + 14 * 3_600_000;
use ddz_engine::Action;
use ddz_server::LogLine;
use ddz_server::protocol::{ChallengeView, Command, ErrorCode, Event, RoomView};

async fn start(addr: SocketAddr, name: &str, kind: &str) -> serde_json::Value {
    post(addr, "/api/challenges", serde_json::json!({ "name": name, "kind": kind })).await
}

async fn start_code(addr: SocketAddr, name: &str, kind: &str) -> String {
    let answer = start(addr, name, kind).await;
    answer["code"].as_str().unwrap_or_else(|| panic!("no room: {answer}")).to_string()
}

/// Joins a challenge room as `name`.
async fn join(addr: SocketAddr, code: &str, name: &str) -> Client {
    Client::join(addr, code, name).await
}

fn challenge(view: &RoomView) -> &ChallengeView {
    view.challenge.as_ref().expect("a challenge room")
}

/// Plays deals (the player's simple choices) until the run is over; returns the final view.
async fn play_run(player: &mut Client) -> RoomView {
    loop {
        play_to_end(std::slice::from_mut(player)).await;
        if let Some(view) = next_deal(player).await {
            return view;
        }
    }
}

/// Asks for the next deal: `None` once it is dealt, or the closed room when the run has ended (the room
/// closes a finished run before it reads the request).
async fn next_deal(player: &mut Client) -> Option<RoomView> {
    player.send(&Command::Start).await;
    let view = player.until(|v| v.closed || v.deal_in_progress()).await;
    view.closed.then_some(view)
}

trait InProgress {
    fn deal_in_progress(&self) -> bool;
}

impl InProgress for RoomView {
    fn deal_in_progress(&self) -> bool {
        self.deal.as_ref().is_some_and(|d| d.result.is_none())
    }
}

fn board_row<'a>(board: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not on the board: {board}"))
}

#[tokio::test]
async fn bot_buster_plays_until_twenty_deals_or_a_balance_at_zero_and_goes_to_the_board() {
    let running = server_at_noon(&temp_db("buster"), FAST).await;
    let addr = running.addr;
    let code = start_code(addr, "Ann", "buster").await;
    let mut ann = join(addr, &code, "Ann").await;
    let view = ann.view.clone().unwrap();
    assert_eq!(view.rules, ddz_engine::Rules::house(true).table_rules(), "challenges play House with the Wild");
    assert_eq!(view.you, Some(0));
    assert!(view.seats[1..].iter().all(|s| s.occupant.as_ref().is_some_and(|o| o.bot_kind().is_some())));
    assert!(view.deal_in_progress(), "the first deal is dealt at once");
    assert_eq!((challenge(&view).max_deals, challenge(&view).ends_at_zero), (20, true));

    let last = play_run(&mut ann).await;
    let run = challenge(&last);
    assert!(run.over);
    let balances: Vec<i64> = last.seats.iter().map(|s| s.balance.unwrap()).collect();
    let deals = run.nets.len();
    assert!(deals == 20 || balances.iter().any(|&b| b <= 0), "the run ended early: {deals} deals, {balances:?}");
    assert!(deals <= 20);
    let net: i64 = run.nets.iter().sum();
    assert_eq!(net, balances[0] - 100, "the run's net is the player's balance change");
    assert!(last.log.iter().any(|l| matches!(l, LogLine::RunOver { .. })), "{:?}", last.log);

    // Over means over: no further deal.
    ann.send(&Command::Start).await;
    assert_eq!(ann.next_refusal().await.0, ErrorCode::RoomClosed);

    let board = get(addr, "/api/boards/buster").await;
    let row = board_row(&board, "Ann");
    assert_eq!(
        (row["rank"].as_i64(), row["score"].as_i64(), row["deals"].as_i64()),
        (Some(1), Some(net), Some(deals as i64))
    );
    assert_eq!(row["date"].as_str().map(str::len), Some(10));
    // Every deal counts toward the player's stats; bots have none and stay off the boards.
    let overall = get(addr, "/api/boards/overall").await;
    let names: Vec<&str> = overall["rows"].as_array().unwrap().iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(names, ["Ann"]);
    assert_eq!(get(addr, "/api/players/ann").await["stats"][0]["deals"].as_i64(), Some(deals as i64));
    assert_eq!(get(addr, "/api/players/Bot%20Hard").await["stats"], serde_json::json!([]));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn an_interrupted_run_resumes_by_name_and_abandoning_counts_with_the_current_net() {
    let db = temp_db("buster-resume");
    let running = server_at_noon(&db, FAST).await;
    let code = start_code(running.addr, "Bo", "buster").await;
    let mut bo = join(running.addr, &code, "Bo").await;
    play_to_end(std::slice::from_mut(&mut bo)).await;
    let after_one = bo.until(|v| !v.deal_in_progress()).await;
    let net_after_one: i64 = challenge(&after_one).nets.iter().sum();
    drop(bo);

    // A restart does not lose the run; the same name gets the same room back.
    assert!(running.stop().await, "the server stops in time");
    let running = server_at_noon(&db, FAST).await;
    let again = start(running.addr, "bo", "buster").await;
    assert_eq!(again["code"].as_str(), Some(code.as_str()));
    assert_eq!(again["resumed"], true);
    let mut bo = join(running.addr, &code, "Bo").await;
    assert_eq!(challenge(bo.view.as_ref().unwrap()).nets.len(), 1);

    // Abandoning mid-deal: the deal's pot is refunded and the run counts with its net so far.
    if next_deal(&mut bo).await.is_some() {
        return; // the first deal took Bo's or a bot's balance to $0: nothing left to abandon
    }
    bo.send(&Command::Close).await;
    let closed = bo.until(|v| v.closed).await;
    assert!(challenge(&closed).over);
    assert!(closed.log.iter().any(|l| matches!(l, LogLine::RunAbandoned { .. })), "{:?}", closed.log);
    let row = board_row(&get(running.addr, "/api/boards/buster").await, "Bo").clone();
    assert_eq!((row["score"].as_i64(), row["deals"].as_i64()), (Some(net_after_one), Some(1)));

    // A finished run is not resumed: the next request starts a new one.
    let next = start(running.addr, "Bo", "buster").await;
    assert_eq!(next["resumed"], false);
    assert_ne!(next["code"].as_str(), Some(code.as_str()));
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn bot_bomber_seats_bomber_bots_and_ranks_the_biggest_pot_won() {
    let running = server_at_noon(&temp_db("bomber"), FAST).await;
    let code = start_code(running.addr, "Cy", "bomber").await;
    let mut cy = join(running.addr, &code, "Cy").await;
    let view = cy.view.clone().unwrap();
    let levels: Vec<_> = view.seats[1..].iter().map(|s| s.occupant.as_ref().and_then(|o| o.bot_kind())).collect();
    assert_eq!(levels, [Some(ddz_bot::BotKind::Bomber); 2]);
    // Deal until Cy has won a pot (or the run ends), then abandon.
    let mut best = 0;
    for _ in 0..20 {
        play_to_end(std::slice::from_mut(&mut cy)).await;
        let view = cy.until(|v| !v.deal_in_progress()).await;
        let deal = view.deal.as_ref().unwrap();
        let result = deal.result.as_ref().unwrap();
        if result.score[0] > 0 {
            best = best.max(result.score[0] + deal.paid[0]);
        }
        assert_eq!(challenge(&view).best_pot, best, "the biggest pot Cy took so far");
        if best > 0 || next_deal(&mut cy).await.is_some() {
            break;
        }
    }
    if !cy.view.as_ref().unwrap().closed {
        cy.send(&Command::Close).await;
        cy.until(|v| v.closed).await;
    }
    let row = board_row(&get(running.addr, "/api/boards/bomber").await, "Cy").clone();
    assert_eq!(row["score"].as_i64(), Some(best));
    assert!(running.stop().await, "the server stops in time");
}

/// The deal records of a room without player names: setups and every action but the House
/// acknowledgments (whose order depends on who clicked first).
async fn rally_deals(addr: SocketAddr, code: &str) -> Vec<(serde_json::Value, serde_json::Value, Vec<Action>)> {
    let deals = get(addr, &format!("/api/rooms/{code}/deals")).await;
    deals["deals"]
        .as_array()
        .expect("deal records")
        .iter()
        .map(|record| {
            let actions: Vec<Action> = serde_json::from_value(record["actions"].clone()).expect("actions");
            let moves = actions.into_iter().filter(|a| !matches!(a, Action::Seen { .. })).collect();
            (record["seed"].clone(), record["start"].clone(), moves)
        })
        .collect()
}

#[tokio::test]
async fn a_rally_gives_every_name_the_same_deals_and_the_same_bot_actions_once() {
    let db = temp_db("rally");
    let running = server_at_noon(&db, FAST).await;
    let addr = running.addr;
    let mut codes = Vec::new();
    let mut finals = Vec::new();
    for name in ["Dee", "Eve"] {
        let code = start_code(addr, name, "rally").await;
        let mut player = join(addr, &code, name).await;
        assert_eq!(player.view.as_ref().unwrap().you, Some(0), "everyone plays the rally from the same seat");
        assert_eq!(challenge(player.view.as_ref().unwrap()).max_deals, 10);
        let last = play_run(&mut player).await;
        assert_eq!(challenge(&last).nets.len(), 10, "a rally always plays its ten deals");
        finals.push(challenge(&last).nets.clone());
        codes.push(code);
    }
    assert_eq!(finals[0], finals[1]);

    // Nobody sees a rally's deals before the day's rally closes (tests/rally_secrecy.rs walks every path).
    for path in [format!("/api/rooms/{}/deals/1", codes[0]), format!("/api/rooms/{}/deals/1/reviews/0", codes[0])] {
        let hidden = common::http(addr, "GET", &path, None).await;
        assert_eq!((hidden.status, hidden.body["code"].as_str()), (403, Some("rally_open")), "{path}");
    }
    let mut watcher = Client::start_watching(addr, &codes[0]).await;
    let refused = watcher.recv().await;
    assert!(matches!(&refused, Event::Error { code: ErrorCode::RallyOpen, .. }), "{refused:?}");

    // One attempt per name per rally.
    let refused = start(addr, "DEE", "rally").await;
    assert_eq!(refused["code"], "rally_played", "{refused}");

    // The rally's board, with equal results sharing a rank; the comparison only after finishing.
    let board = get(addr, "/api/boards/rally").await;
    assert_eq!(board["rows"].as_array().unwrap().len(), 2);
    assert_eq!(board_row(&board, "Dee")["rank"], board_row(&board, "Eve")["rank"]);
    let today = get(addr, "/api/rallies").await;
    assert_eq!(today["dates"][0], today["today"]);
    let date = today["today"].as_str().unwrap();
    let compare = get(addr, &format!("/api/rallies/{date}/compare/Eve")).await;
    assert_eq!(compare["you"]["nets"], serde_json::json!(finals[1]));
    assert_eq!(compare["best"]["nets"].as_array().unwrap().len(), 10);
    let unfinished = get(addr, &format!("/api/rallies/{date}/compare/Fay")).await;
    assert_eq!(unfinished["code"], "rally_not_finished", "{unfinished}");
    // The day's rally was committed to: every deal the players met is one of the published commitments,
    // in order, and their seeds stay hidden until the rally closes.
    let fairness = get(addr, &format!("/api/rallies/{date}/fairness")).await;
    assert_eq!(fairness["closed"], false);
    let published: Vec<String> =
        fairness["deals"].as_array().unwrap().iter().map(|d| d["commitment"].as_str().unwrap().to_string()).collect();
    assert!(fairness["deals"].as_array().unwrap().iter().all(|d| d["seed"].is_null() && d["salt"].is_null()));
    assert_eq!(fairness["commitment"], ddz_engine::fair::day_commitment(date, &published));
    let future = get(addr, "/api/rallies/2999-01-01/fairness").await;
    assert_eq!(future["code"], "rally_not_begun", "{future}");
    let bad = get(addr, "/api/boards/rally?date=yesterday").await;
    assert_eq!(bad["code"], "not_a_date", "{bad}");
    assert!(running.stop().await, "the server stops in time");

    // Once the day's rally has closed (an hour after its day), its deals are open to all.
    let running = server_at_ms(&db, FAST, AFTER_THE_RALLY_CLOSED_MS).await;
    let addr = running.addr;
    let (first, second) = (rally_deals(addr, &codes[0]).await, rally_deals(addr, &codes[1]).await);
    assert_eq!(first.len(), 10);
    assert_eq!(first, second, "the same human moves meet the same deals and the same bot moves");
    for code in &codes {
        let records = get(addr, &format!("/api/rooms/{code}/deals")).await;
        let met: Vec<String> = records["deals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["commitment"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(met, published, "the deals played are the deals committed to");
    }
    // A closed day's rally opens: each commitment is the SHA-256 of its seed and salt.
    let earlier = get(addr, "/api/rallies/2020-01-01/fairness").await;
    assert_eq!(earlier["closed"], true);
    for deal in earlier["deals"].as_array().unwrap() {
        let (seed, salt): (ddz_engine::Seed, ddz_engine::Seed) =
            (deal["seed"].as_str().unwrap().parse().unwrap(), deal["salt"].as_str().unwrap().parse().unwrap());
        assert_eq!(deal["commitment"], ddz_engine::fair::commitment(&seed, &salt));
    }
    assert!(running.stop().await, "the server stops in time");
}

#[tokio::test]
async fn challenge_requests_with_bad_input_get_clear_errors() {
    let running = server_at_noon(&temp_db("challenge-bad"), FAST).await;
    let unknown = start(running.addr, "Gus", "marathon").await;
    assert_eq!(unknown["code"], "bad_request", "{unknown}");
    let nameless = start(running.addr, "  ", "buster").await;
    assert_eq!(nameless["code"], "bad_name", "{nameless}");
    // The Wild cannot be turned off in a challenge.
    let code = start_code(running.addr, "Gus", "buster").await;
    let mut gus = join(running.addr, &code, "Gus").await;
    gus.send(&Command::SetWild { on: false }).await;
    assert_eq!(gus.next_refusal().await.0, ErrorCode::ChallengeRules);
    // Nobody else sits at a challenge.
    let mut hal = Client::join(running.addr, &code, "Hal").await;
    assert_eq!(hal.view.as_ref().unwrap().you, None, "a visitor only watches");
    hal.send(&Command::Sit { seat: None }).await;
    assert_eq!(hal.next_refusal().await.0, ErrorCode::RoomFull);
    // A second start resumes the same run, dealt and seated as it was.
    let again = start(running.addr, "GUS", "buster").await;
    assert_eq!((again["code"].as_str(), again["resumed"].as_bool()), (Some(code.as_str()), Some(true)));
    assert!(running.stop().await, "the server stops in time");
}

/// Run starts racing on SQLite's pool: one run a name, every other start joins it (as on PostgreSQL, `postgres.rs`),
/// none refused for a busy database.
#[tokio::test]
async fn starts_racing_on_sqlite_make_one_run_a_name() {
    let db = ddz_server::Db::open(&format!("sqlite://{}", temp_db("start-races").display())).await.unwrap();
    common::race_challenge_starts(&[db]).await;
}
