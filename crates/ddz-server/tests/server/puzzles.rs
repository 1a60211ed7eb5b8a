//! Puzzles over HTTP (docs/puzzles.md): the built-in set on a fresh server, the daily puzzle, a next puzzle,
//! an attempt checked by the server's solver and rated once, the refusals with their codes (nothing rated),
//! and the board.

use crate::common;

use std::net::SocketAddr;

use common::*;
use ddz_engine::{Endgame, Move, Next, Solver};
use serde_json::{Value, json};

/// The solving side's moves along the solver's line from the puzzle's position, as the attempt sends them.
fn solution_moves(view: &Value) -> Vec<Move> {
    let endgame: Endgame = serde_json::from_value(view["endgame"].clone()).expect("an endgame");
    let solvers = endgame.is_landlord(endgame.turn);
    let mut at = endgame;
    let mut mine = Vec::new();
    for mv in Solver::new().line(&endgame) {
        if at.is_landlord(at.turn) == solvers {
            mine.push(mv);
        }
        match at.after(&mv) {
            Next::Position(next) => at = next,
            Next::Over { .. } => break,
        }
    }
    mine
}

/// A first move that loses the puzzle.
fn wrong_first(view: &Value) -> Move {
    let endgame: Endgame = serde_json::from_value(view["endgame"].clone()).expect("an endgame");
    let mut solver = Solver::new();
    endgame.moves().into_iter().find(|mv| !solver.keeps_the_win(&endgame, mv)).expect("a puzzle has a losing move")
}

async fn attempt(addr: SocketAddr, id: &str, name: &str, moves: &[Move]) -> Answer {
    let body = json!({"name": name, "moves": moves});
    http(addr, "POST", &format!("/api/puzzles/{id}/attempt"), Some(body)).await
}

#[tokio::test]
async fn a_fresh_server_has_puzzles_a_daily_one_and_rates_one_attempt_a_name() {
    let running = server(&temp_db("puzzles"), FAST).await;
    let addr = running.addr;
    let daily = get(addr, "/api/puzzles/daily").await;
    assert_eq!(daily["date"].as_str().map(str::len), Some(10), "{daily}");
    assert_eq!(get(addr, "/api/puzzles/daily").await["id"], daily["id"], "one puzzle a day for everyone");
    let id = daily["id"].as_str().unwrap();
    let one = get(addr, &format!("/api/puzzles/{id}")).await;
    assert_eq!((&one["endgame"], &one["rating"]), (&daily["endgame"], &daily["rating"]));
    assert!(one.get("solution").is_none(), "the page is not sent the solution");
    let unknown = http(addr, "GET", "/api/puzzles/nosuchthing", None).await;
    assert_eq!((unknown.status, unknown.body["code"].as_str()), (404, Some("no_such_puzzle")));

    // Solved: both ratings move, once.
    let solved = attempt(addr, id, "Ann", &solution_moves(&daily)).await;
    assert_eq!(solved.status, 200, "{}", solved.body);
    assert_eq!(solved.body["solved"], true);
    let change = &solved.body["rating"];
    assert!(change["after"].as_i64() > change["before"].as_i64(), "{change}");
    assert!(change["puzzle_after"].as_i64() < change["puzzle_before"].as_i64(), "{change}");
    let again = attempt(addr, id, "ann", &solution_moves(&daily)).await;
    assert_eq!((again.status, again.body["code"].as_str()), (409, Some("puzzle_attempted")), "{}", again.body);
    assert_eq!(get(addr, &format!("/api/puzzles/{id}")).await["plays"], 1, "the second attempt moved nothing");

    // Refused attempts record nothing: a move not legal there, an attempt that stops short, a malformed one.
    let next = get(addr, "/api/puzzles/next?name=Bea").await;
    let next_id = next["id"].as_str().unwrap();
    let stranger = json!({"type": "bomb", "main": "2", "length": 1, "attach": "none", "ranks": "2222"});
    let illegal = http(
        addr,
        "POST",
        &format!("/api/puzzles/{next_id}/attempt"),
        Some(json!({"name": "Bea", "moves": [stranger]})),
    )
    .await;
    assert_eq!((illegal.status, illegal.body["code"].as_str()), (400, Some("not_a_legal_move")), "{}", illegal.body);
    let short = attempt(addr, next_id, "Bea", &[]).await;
    assert_eq!((short.status, short.body["code"].as_str()), (400, Some("attempt_unfinished")));
    let malformed = http(addr, "POST", &format!("/api/puzzles/{next_id}/attempt"), Some(json!({"name": "Bea"}))).await;
    assert_eq!(malformed.status, 422, "{}", malformed.body);

    // Failed: the wrong move, the refutation and the solution are shown; the rating falls.
    let failed = attempt(addr, next_id, "Bea", &[wrong_first(&next)]).await;
    assert_eq!(failed.status, 200, "{}", failed.body);
    assert_eq!((failed.body["solved"].as_bool(), failed.body["wrong"].as_u64()), (Some(false), Some(0)));
    assert!(!failed.body["refutation"].as_array().unwrap().is_empty(), "{}", failed.body);
    assert!(!failed.body["solution"].as_array().unwrap().is_empty());
    assert!(failed.body["rating"]["after"].as_i64() < failed.body["rating"]["before"].as_i64());
    assert!(running.stop().await);
}

#[tokio::test]
async fn the_board_and_the_players_page_show_their_puzzle_rating() {
    let running = server(&temp_db("puzzle-board"), FAST).await;
    let addr = running.addr;
    let mut tried = Vec::new();
    for _ in 0..5 {
        let next = get(addr, "/api/puzzles/next?name=Cy").await;
        let id = next["id"].as_str().unwrap();
        let done = attempt(addr, id, "Cy", &solution_moves(&next)).await;
        assert_eq!(done.body["solved"], true, "{}", done.body);
        tried.push((id.to_string(), done.body["rating"]["after"].clone()));
    }
    let board = get(addr, "/api/puzzles/board?name=%EF%BC%A3%EF%BD%99").await;
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{board}");
    assert_eq!((&rows[0]["name"], &rows[0]["yours"], &rows[0]["attempts"]), (&json!("Cy"), &json!(true), &json!(5)));
    assert_eq!(board["you"]["attempts"], 5, "the reader's own, whatever the spelling");
    assert!(board["you"]["rating"].as_i64().unwrap() > 1500);

    // Their page: the same rating, and their attempts newest first, each with their rating after it.
    let page = get(addr, "/api/players/cy").await["puzzles"].clone();
    assert_eq!((&page["rating"], &page["attempts"], &page["solved"]), (&board["you"]["rating"], &json!(5), &json!(5)));
    let recent: Vec<(String, Value)> = page["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["id"].as_str().unwrap().to_string(), a["rating"].clone()))
        .collect();
    tried.reverse();
    assert_eq!(recent, tried, "{page}");
    let fresh = get(addr, "/api/players/Dee").await["puzzles"].clone();
    assert_eq!(fresh, json!({"rating": 1500, "attempts": 0, "solved": 0, "recent": []}));
    assert!(running.stop().await);
}

/// A built-in puzzle's deal is its bot game played again, opening at the puzzle's position; a puzzle stored
/// before its set said which bots played takes the set's body; a puzzle from a room's deal is sent to that
/// deal's replay.
#[tokio::test]
async fn a_puzzle_links_to_the_deal_it_came_from() {
    let path = temp_db("puzzle-deal");
    let builtin: ddz_bot::puzzles::Puzzle =
        serde_json::from_str(include_str!("../../data/puzzles.jsonl").lines().next().unwrap()).unwrap();
    let older = ddz_bot::puzzles::Puzzle {
        source: ddz_bot::puzzles::Source { bots: None, ..builtin.source.clone() },
        ..builtin.clone()
    };
    let from_a_room = ddz_bot::puzzles::Puzzle {
        id: "0123456789".into(),
        source: ddz_bot::puzzles::Source {
            room: Some("ABC234".into()),
            number: Some(3),
            ..ddz_bot::puzzles::Source::default()
        },
        ..builtin.clone()
    };
    let db = ddz_server::Db::open(&format!("sqlite://{}", path.display())).await.unwrap();
    assert_eq!(db.add_puzzles(vec![older, from_a_room], 0).await.unwrap(), 2);
    drop(db);

    let running = server(&path, FAST).await;
    let addr = running.addr;
    let id = &builtin.id;
    let shown = get(addr, &format!("/api/puzzles/{id}")).await;
    assert_eq!(shown["source"]["bots"], "normal", "the set's body replaced the older one: {shown}");
    let deal = get(addr, &format!("/api/puzzles/{id}/deal")).await;
    let step = deal["step"].as_u64().unwrap() as usize;
    assert_eq!(step, builtin.source.step);
    let steps = deal["steps"].as_array().unwrap();
    assert_eq!(
        steps.len(),
        deal["record"]["actions"].as_array().unwrap().len() + 1,
        "a step before each action and one at the end"
    );
    assert_eq!(deal["seats"][0], "Bot Normal");
    assert!(steps.last().unwrap()["view"]["result"].is_object(), "played to its end");
    let position: Vec<String> = steps[step]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hand| serde_json::from_value::<ddz_engine::CardSet>(hand.clone()).unwrap().counts().to_string())
        .collect();
    let puzzle_hands: Vec<String> = builtin.endgame.hands[..position.len()].iter().map(ToString::to_string).collect();
    assert_eq!(position, puzzle_hands, "the step opened is the puzzle's position");

    let elsewhere = http(addr, "GET", "/api/puzzles/0123456789/deal", None).await;
    assert_eq!((elsewhere.status, elsewhere.body["code"].as_str()), (404, Some("no_such_deal")), "{}", elsewhere.body);
    assert!(elsewhere.body["message"].as_str().unwrap().contains("/replay/ABC234/3"), "{}", elsewhere.body);
    let unknown = http(addr, "GET", "/api/puzzles/fedcba9876/deal", None).await;
    assert_eq!((unknown.status, unknown.body["code"].as_str()), (404, Some("no_such_puzzle")));
    let long = http(addr, "GET", &format!("/api/puzzles/{}/deal", "a".repeat(5000)), None).await;
    assert_eq!((long.status, long.body["code"].as_str()), (404, Some("no_such_puzzle")));
    assert!(long.body["message"].as_str().unwrap().len() < 60, "an id is not said back whole: {}", long.body);
    assert!(running.stop().await);
}

/// Eight attempts at one puzzle on one name at once (two tabs, a double tap): one is rated, the others are
/// refused as second attempts, and the puzzle and the name each moved once.
#[tokio::test]
async fn a_rush_of_attempts_on_one_name_rates_one() {
    let running = server(&temp_db("puzzle-rush"), FAST).await;
    let addr = running.addr;
    let daily = get(addr, "/api/puzzles/daily").await;
    let id = daily["id"].as_str().unwrap().to_string();
    let moves = solution_moves(&daily);
    let rush = (0..8).map(|_| {
        let (id, moves) = (id.clone(), moves.clone());
        tokio::spawn(async move { attempt(addr, &id, "Rush", &moves).await })
    });
    let answers: Vec<Answer> = futures_util::future::join_all(rush).await.into_iter().map(Result::unwrap).collect();
    let mut codes: Vec<(u16, Option<String>)> =
        answers.iter().map(|a| (a.status, a.body["code"].as_str().map(str::to_string))).collect();
    codes.sort();
    let refused = (409, Some("puzzle_attempted".to_string()));
    assert_eq!(codes, [vec![(200, None)], vec![refused; 7]].concat(), "{codes:?}");
    assert_eq!(get(addr, &format!("/api/puzzles/{id}")).await["plays"], 1);
    assert_eq!(get(addr, "/api/players/Rush").await["puzzles"]["attempts"], 1);
    assert!(running.stop().await);
}
