//! Tournaments over real HTTP and sockets (docs/tournaments.md): players register, find their table on
//! the tournament's page, play their deals at ordinary rooms, drop and come back while the bot plays for
//! them, and the event runs through its rounds to a podium; every deal's record verifies.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::tournament::{self, table_of};
use common::*;
use ddz_engine::DealRecord;
use ddz_server::Timing;
use ddz_server::protocol::{Command, ErrorCode, Event};
use serde_json::{Value, json};

/// A player away half a second has the bot play for them; tables deal again at once.
const TOURNEY: Timing = Timing { away_ms: 500, ..FAST };

/// Settings for a short event: one deal per chip round, one per fixed round, one at the final.
fn quick_settings(table: &str, until: usize, chip_rounds: u32) -> Value {
    json!({
        "table": table, "chips": 10000, "stake": 500, "line_percent": 20, "line_step_percent": 20,
        "line_every": 1, "chip_rounds": chip_rounds, "chip_rounds_until": until, "carry_percent": 10,
        "deals_per_round": 1, "final_deals": 1
    })
}

/// A server whose per-address limits let a whole field play from one test: every simulated player
/// reads the tournament's page and connects from 127.0.0.1.
async fn tournament_server(db: &std::path::Path) -> ddz_server::Running {
    let many = ddz_server::Rate::new(10_000.0, 10_000.0);
    guarded_server(db, TOURNEY, ddz_server::Guards { api: many, websockets: many, ..Default::default() }).await
}

/// One entrant at the one server ([`tournament::play`]): the tables they sat at.
async fn play_at(addr: SocketAddr, id: String, name: String, drops: bool) -> usize {
    tournament::play(|_| addr, &id, &name, drops).await.tables
}

async fn view(addr: SocketAddr, id: &str) -> Value {
    get(addr, &format!("/api/tournaments/{id}")).await
}

/// Every deal of every table: as many as the round asked, each record replaying and verifying.
async fn check_records(addr: SocketAddr, page: &Value) -> usize {
    let mut checked = 0;
    for round in page["rounds"].as_array().unwrap() {
        for table in round["tables"].as_array().unwrap() {
            let code = table["code"].as_str().unwrap();
            let deals = get(addr, &format!("/api/rooms/{code}/deals")).await;
            let records: Vec<DealRecord> = serde_json::from_value(deals["deals"].clone()).expect("deal records");
            assert_eq!(records.len() as u64, round["deals"].as_u64().unwrap(), "table {code}");
            let mut previous = None;
            for record in &records {
                record.verify(previous).unwrap_or_else(|e| panic!("a deal of {code} does not verify: {e}"));
                previous = Some(record);
                checked += 1;
            }
        }
    }
    checked
}

async fn finished(addr: SocketAddr, id: &str) -> Value {
    poll(&format!("tournament {id} finished"), Duration::from_secs(60), Duration::from_millis(100), || async {
        let page = view(addr, id).await;
        (page["summary"]["phase"] == "finished").then_some(page)
    })
    .await
}

/// The code of the table `name` sits at, once the driver seated them.
async fn seated(addr: SocketAddr, id: &str, name: &str) -> (Value, String) {
    poll(&format!("{name} seated"), Duration::from_secs(5), Duration::from_millis(50), || async {
        let page = view(addr, id).await;
        table_of(&page, name).map(|code| (page, code))
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_nine_player_sit_and_go_plays_over_sockets_to_its_podium() {
    let db = temp_db("sit-and-go");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let created = post(
        addr,
        "/api/tournaments",
        json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 9},
               "settings": quick_settings("house", 3, 1)}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let names: Vec<String> = (1..=9).map(|i| format!("Player{i}")).collect();
    for name in &names[..8] {
        post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": name})).await;
    }
    let page = view(addr, &id).await;
    assert_eq!(
        (page["summary"]["phase"].as_str(), page["summary"]["entrants"].as_u64()),
        (Some("registering"), Some(8))
    );
    assert_eq!(page["seed"], Value::Null, "the seed stays secret until the end");
    let commitment = page["commitment"].as_str().unwrap().to_string();
    // Player1 follows the event's page: it is pushed as it changes.
    let follow = Command::FollowTournament { id: id.clone(), name: Some("player1".into()) };
    let mut follower = Watcher::open(addr, &follow).await;
    // The ninth fills it: it starts at once.
    let players: Vec<_> =
        names.iter().map(|name| tokio::spawn(play_at(addr, id.clone(), name.clone(), name == "Player3"))).collect();
    post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": names[8]})).await;
    for player in players {
        player.await.expect("a player");
    }
    let page = finished(addr, &id).await;
    let stages: Vec<&str> = page["rounds"].as_array().unwrap().iter().map(|r| r["stage"].as_str().unwrap()).collect();
    assert_eq!(stages, ["chips", "final"]);
    assert_eq!(page["summary"]["podium"].as_array().unwrap().len(), 3);
    let standings = page["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    let places: Vec<u64> = standings.iter().map(|e| e["place"].as_u64().unwrap()).collect();
    assert_eq!(places, (1..=9).collect::<Vec<_>>());
    assert_eq!(check_records(addr, &page).await, 3 + 1);
    // The seed is shown once it is over, and it is the one committed to.
    let seed: ddz_engine::Seed = serde_json::from_value(page["seed"].clone()).expect("the seed");
    let digest: String = <sha2::Sha256 as sha2::Digest>::digest(seed.0).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(digest, commitment);
    // Its public record draws again, decision by decision, from the seed; the addresses are groups.
    let record: ddz_server::wire::http::TournamentRecord =
        serde_json::from_value(get(addr, &format!("/api/tournaments/{id}/record")).await).expect("a record");
    assert_eq!(record.commitment, commitment);
    let verified = ddz_server::verify_tournament(&record.log).expect("the record checks");
    assert_eq!(verified.checks.len(), 6, "the start, two seatings, two closes, the end: {:?}", verified.checks);
    assert!(verified.checks.iter().all(|c| c.differs.is_none()), "{:?}", verified.checks);
    let text = serde_json::to_string(&record.log).unwrap();
    assert!(!text.contains("127.0.0.1") && !text.contains("\"address\":\"1"), "no address is published: {text}");
    if std::env::var_os("DDZ_BLESS").is_some() {
        // The CLI's test checks this record with `ddz verify-tournament` (crates/ddz/tests/cli.rs).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ddz/tests/data/tournament-record.json");
        std::fs::write(path, serde_json::to_string_pretty(&record).unwrap()).expect("the fixture is written");
    }
    // The deals are rated and in the players' stats, as quick match's.
    let stats = get(addr, "/api/players/Player1").await;
    assert!(stats["stats"][0]["deals"].as_u64().is_some_and(|deals| deals >= 1), "{stats}");
    assert!(stats["ratings"][0]["deals"].as_u64().is_some_and(|deals| deals >= 1), "{stats}");
    // The podium is kept: the finished list shows it.
    let lists = get(addr, "/api/tournaments").await;
    assert_eq!(lists["finished"][0]["id"], id.as_str());
    // The follower was pushed the event as it went: registering, running with Player1 at a table, finished
    // with every stage of the path done and Player1's place as the standings have it.
    let mut phases = Vec::new();
    let mut seated = false;
    let last = loop {
        let Some(Event::Tournament { page: pushed, you, .. }) = follower.next_within(Duration::from_secs(10)).await
        else {
            panic!("the follower was not pushed the end");
        };
        let phase = serde_json::to_value(pushed.summary.phase).unwrap();
        if phases.last() != Some(&phase) {
            phases.push(phase.clone());
        }
        seated |= you.as_ref().is_some_and(|you| you.table.is_some());
        if phase == "finished" {
            break (pushed, you.expect("Player1 is registered"));
        }
    };
    assert_eq!(phases, ["registering", "running", "finished"]);
    assert!(seated, "Player1's table was on the page while they played");
    let (pushed, you) = last;
    assert!(pushed.path.iter().all(|stage| stage.state == ddz_server::PathState::Done), "{:?}", pushed.path);
    let place = standings.iter().find(|e| e["name"] == "Player1").unwrap()["place"].as_u64().unwrap();
    assert_eq!(you.entrant.place as u64, place);
    let path: Vec<u32> = you.rounds.iter().map(|r| r.round).collect();
    // Player1's table in each round they played: from the first, until they went out or the final.
    assert!(path.first() == Some(&1) && path.windows(2).all(|w| w[1] == w[0] + 1), "{:?}", you.rounds);
    assert_eq!(path.len(), if you.entrant.out.is_some() { 1 } else { 2 }, "{:?}", you.rounds);
    assert!(you.rounds.iter().all(|r| r.counted == 1), "one deal a round at each table");
    assert_eq!(pushed.leaders.len(), 9);
    // The same page over HTTP, and Player1's page lists the finish.
    let answer = get(addr, &format!("/api/tournaments/{id}/page?name=Player1")).await;
    assert_eq!(answer["you"]["entrant"]["place"].as_u64(), Some(place));
    assert_eq!(answer["page"]["summary"]["phase"], "finished");
    let player = get(addr, "/api/players/Player1").await;
    let finish = &player["tournaments"][0];
    assert_eq!(
        (finish["id"].as_str(), finish["place"].as_u64(), finish["entrants"].as_u64()),
        (Some(id.as_str()), Some(place), Some(9))
    );
    assert!(running.stop().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_scheduled_event_of_27_gives_the_28th_a_bye_and_plays_chip_and_swiss_rounds_to_a_final() {
    let db = temp_db("scheduled-27");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let created = post(
        addr,
        "/api/tournaments",
        json!({"name": "Organiser", "table": "house", "title": "Club championship",
               "format": {"kind": "scheduled", "starts_at": now + 4_000, "bots_fill": false},
               "settings": quick_settings("house", 9, 1)}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let names: Vec<String> = (1..=28).map(|i| format!("Entrant{i}")).collect();
    for name in &names {
        post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": name})).await;
    }
    // One withdraws and registers again: the latest registration now.
    let path = format!("/api/tournaments/{id}/withdraw");
    post(addr, &path, json!({"name": "Entrant2"})).await;
    let again = http(addr, "POST", &path, Some(json!({"name": "Entrant2"}))).await;
    assert_eq!(again.body["code"], "not_registered");
    post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": "Entrant2"})).await;
    let twice = http(addr, "POST", &format!("/api/tournaments/{id}/register"), Some(json!({"name": "entrant2"}))).await;
    assert_eq!((twice.status, twice.body["code"].as_str()), (409, Some("already_registered")));
    let upcoming = get(addr, "/api/tournaments").await;
    assert_eq!(upcoming["upcoming"][0]["entrants"], 28);
    let players: Vec<_> = names
        .iter()
        .map(|name| {
            let drops = ["Entrant5", "Entrant11", "Entrant20"].contains(&name.as_str());
            tokio::spawn(play_at(addr, id.clone(), name.clone(), drops))
        })
        .collect();
    for player in players {
        player.await.expect("a player");
    }
    let page = finished(addr, &id).await;
    assert_eq!(page["byes"], json!(["Entrant2"]), "the latest registration beyond whole tables");
    let late = http(addr, "POST", &format!("/api/tournaments/{id}/register"), Some(json!({"name": "Late"}))).await;
    assert_eq!(late.body["code"], "registration_closed");
    let rounds: Vec<(String, usize)> = page["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["stage"].as_str().unwrap().to_string(), r["tables"].as_array().unwrap().len()))
        .collect();
    let expected = [("chips", 9), ("fixed", 3), ("fixed", 2), ("final", 1)].map(|(s, n)| (s.to_string(), n));
    assert_eq!(rounds, expected);
    assert_eq!(check_records(addr, &page).await, 9 + 3 + 2 + 1);
    assert_eq!(page["standings"].as_array().unwrap().len(), 27);
    assert!(running.stop().await);
}

#[tokio::test]
async fn tournament_requests_out_of_bounds_are_refused_with_their_codes() {
    let db = temp_db("tournament-refusals");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let create = |body: Value| http(addr, "POST", "/api/tournaments", Some(body));
    let wrong_size =
        create(json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 10}})).await;
    assert_eq!((wrong_size.status, wrong_size.body["code"].as_str()), (400, Some("bad_settings")));
    let past = create(
        json!({"name": "Host", "table": "house", "format": {"kind": "scheduled", "starts_at": 1, "bots_fill": false}}),
    )
    .await;
    assert_eq!(past.body["code"], "bad_settings");
    let mut settings = quick_settings("house", 3, 1);
    settings["chips"] = json!(5);
    let chips = create(
        json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 9}, "settings": settings}),
    )
    .await;
    assert_eq!(chips.body["code"], "bad_settings");
    let malformed = http_text(addr, "POST", "/api/tournaments", Some("application/json"), "{\"name\": 5}").await;
    assert_eq!(malformed.body["code"], "bad_request");
    // A body is read strictly: what the server does not know, what contradicts the table and a title too
    // long are refused, each naming the field.
    let sit_and_go = json!({"kind": "sit_and_go", "size": 9});
    let mut typo = quick_settings("house", 3, 1);
    typo["chipz"] = json!(10_000);
    let refused = [
        (json!({"name": "Host", "table": "house", "format": sit_and_go, "settings": typo}), "chipz"),
        (json!({"name": "Host", "table": "house", "format": sit_and_go, "colour": "red"}), "colour"),
        (json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 9, "bots": 1}}), "bots"),
        (json!({"name": "Host", "table": "house", "format": {"kind": "knockout"}}), "knockout"),
        (
            json!({"name": "Host", "table": "house", "format": sit_and_go, "settings": quick_settings("no_shuffle", 3, 1)}),
            "settings.table",
        ),
        (json!({"name": "Host", "table": "house", "format": sit_and_go, "title": "x".repeat(100_000)}), "title"),
    ];
    for (body, field) in refused {
        let answer = create(body).await;
        assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("bad_settings")), "{field}");
        assert!(answer.body["message"].as_str().unwrap().contains(field), "{field}: {}", answer.body["message"]);
    }
    let entry =
        http(addr, "POST", "/api/tournaments/nosuchthing/register", Some(json!({"name": "A", "nick": "B"}))).await;
    assert_eq!(entry.status, 422, "a registration's unknown field: {}", entry.body);
    let unknown = http(addr, "GET", "/api/tournaments/nosuchthing", None).await;
    assert_eq!((unknown.status, unknown.body["code"].as_str()), (404, Some("no_such_tournament")));
    let ok = create(json!({"name": "Early", "table": "house", "format": {"kind": "sit_and_go", "size": 9}})).await;
    let early = http(addr, "GET", &format!("/api/tournaments/{}/record", ok.body["id"].as_str().unwrap()), None).await;
    assert_eq!((early.status, early.body["code"].as_str()), (409, Some("tournament_not_over")));
    // One host, three tournaments taking registrations at most.
    for _ in 0..3 {
        let ok = create(json!({"name": "Busy", "table": "house", "format": {"kind": "sit_and_go", "size": 9}})).await;
        assert_eq!(ok.status, 201);
    }
    let fourth = create(json!({"name": "Busy", "table": "house", "format": {"kind": "sit_and_go", "size": 9}})).await;
    assert_eq!((fourth.status, fourth.body["code"].as_str()), (409, Some("hosting_limit")));
    // However many at once: ten creations by one name at the same moment make three.
    let racing = (0..10)
        .map(|_| create(json!({"name": "Racer", "table": "house", "format": {"kind": "sit_and_go", "size": 9}})));
    let answers = futures_util::future::join_all(racing).await;
    let codes: Vec<Option<&str>> = answers.iter().map(|a| a.body["code"].as_str()).collect();
    assert_eq!(answers.iter().filter(|a| a.status == 201).count(), 3, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| **c == Some("hosting_limit")).count(), 7, "{codes:?}");
    assert!(running.stop().await);
}

/// What the create form offers comes from the server's rules (`GET /api/tournaments/rules`): every size and its
/// default settings are taken, and a setting one past its served bound is refused.
#[tokio::test]
async fn the_served_rules_are_the_ones_creation_holds_to() {
    let running = tournament_server(&temp_db("tournament-rules")).await;
    let addr = running.addr;
    let rules = get(addr, "/api/tournaments/rules").await;
    let tables = rules["tables"].as_array().unwrap();
    let sizes: Vec<(&str, Vec<u64>)> = tables
        .iter()
        .map(|t| {
            (
                t["table"].as_str().unwrap(),
                t["sit_and_go"].as_array().unwrap().iter().map(|s| s["size"].as_u64().unwrap()).collect(),
            )
        })
        .collect();
    assert_eq!(sizes, [("house", vec![9, 27]), ("no_shuffle", vec![9, 27]), ("two_player", vec![8, 16])]);
    let mut hosts = 0;
    for of in tables {
        let table = &of["table"];
        for offered in of["sit_and_go"].as_array().unwrap() {
            hosts += 1;
            let format = json!({"kind": "sit_and_go", "size": offered["size"]});
            let body = json!({"name": format!("Host {hosts}"), "table": table, "format": format, "settings": offered["settings"]});
            let created = http(addr, "POST", "/api/tournaments", Some(body)).await;
            assert_eq!(created.status, 201, "{table} {}: {}", offered["size"], created.body);
        }
    }
    let house = &tables[0]["sit_and_go"][0];
    let mut beyond = house["settings"].clone();
    beyond["final_deals"] = json!(rules["bounds"]["final_deals"][1].as_u64().unwrap() + 1);
    let body = json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": house["size"]}, "settings": beyond});
    let refused = http(addr, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (400, Some("bad_settings")));
    let wait = rules["bots_after_ms"][0].as_u64().unwrap() - 1;
    let body =
        json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 9, "bots_after_ms": wait}});
    assert_eq!(http(addr, "POST", "/api/tournaments", Some(body)).await.body["code"], "bad_settings");
    assert!(running.stop().await);
}

/// A scheduled event's registrations come in its last minute, all at once: every one is answered, none
/// with "try again", and the withdrawals racing them too.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_registrations_at_once_are_all_taken_and_withdrawals_racing_them_too() {
    let db = temp_db("registration-rush");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let created = post(
        addr,
        "/api/tournaments",
        json!({"name": "Organiser", "table": "house", "title": "Sunday rush",
               "format": {"kind": "scheduled", "starts_at": now + 3_600_000, "bots_fill": false}}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let register = format!("/api/tournaments/{id}/register");
    let withdraw = format!("/api/tournaments/{id}/withdraw");

    let rush = (0..1000).map(|i| http(addr, "POST", &register, Some(json!({"name": format!("Rush{i}")}))));
    let answers = futures_util::future::join_all(rush).await;
    let refused: Vec<&Value> = answers.iter().filter(|a| a.status != 204).map(|a| &a.body).collect();
    assert!(refused.is_empty(), "{} of 1000 refused: {:?}", refused.len(), &refused[..refused.len().min(5)]);
    assert_eq!(view(addr, &id).await["summary"]["entrants"], 1000);

    // A hundred withdraw while a hundred others register: each is applied in its turn.
    let leaving = (0..100).map(|i| http(addr, "POST", &withdraw, Some(json!({"name": format!("Rush{i}")}))));
    let joining = (0..100).map(|i| http(addr, "POST", &register, Some(json!({"name": format!("Late{i}")}))));
    let (left, joined) = tokio::join!(futures_util::future::join_all(leaving), futures_util::future::join_all(joining));
    let statuses: Vec<u16> = left.iter().chain(&joined).map(|a| a.status).collect();
    assert!(statuses.iter().all(|&s| s == 204), "{statuses:?}");
    let page = view(addr, &id).await;
    assert_eq!(page["summary"]["entrants"], 1000);
    let names: Vec<&str> = page["standings"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert!(!names.contains(&"Rush0") && names.contains(&"Late0") && names.contains(&"Rush100"));
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_tournament_table_takes_no_seat_deal_or_close_from_a_player() {
    let db = temp_db("tournament-table");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let created = post(
        addr,
        "/api/tournaments",
        json!({"name": "Host", "table": "no_shuffle", "format": {"kind": "sit_and_go", "size": 9},
               "settings": quick_settings("no_shuffle", 3, 1)}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    for i in 1..=9 {
        post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": format!("P{i}")})).await;
    }
    let (_, code) = seated(addr, &id, "P1").await;
    let mut p1 = Client::join(addr, &code, "P1").await;
    for command in [
        ddz_server::protocol::Command::Close,
        ddz_server::protocol::Command::Start,
        ddz_server::protocol::Command::Sit { seat: None },
    ] {
        p1.send(&command).await;
        let (refused, _) = p1.next_refusal().await;
        assert_eq!(refused, ErrorCode::TournamentTable, "{command:?}");
    }
    let mut stranger = Client::join(addr, &code, "Stranger").await;
    stranger.send(&ddz_server::protocol::Command::Sit { seat: None }).await;
    assert_eq!(stranger.next_refusal().await.0, ErrorCode::TournamentTable);
    assert!(running.stop().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_tournament_survives_a_restart_mid_round_and_counts_every_deal_once() {
    let db = temp_db("tournament-restart");
    let running = tournament_server(&db).await;
    let addr = running.addr;
    let settings = json!({
        "table": "no_shuffle", "chips": 10000, "stake": 500, "line_percent": 20, "line_step_percent": 20,
        "line_every": 3, "chip_rounds": 1, "chip_rounds_until": 3, "carry_percent": 10,
        "deals_per_round": 1, "final_deals": 2
    });
    let created = post(
        addr,
        "/api/tournaments",
        json!({"name": "Host", "table": "no_shuffle", "format": {"kind": "sit_and_go", "size": 9}, "settings": settings}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    // Nobody connects: the bot plays every seat of players who are away.
    for i in 1..=9 {
        post(addr, &format!("/api/tournaments/{id}/register"), json!({"name": format!("Away{i}")})).await;
    }
    let counted = |page: &Value| -> u64 {
        page["rounds"][0]["tables"].as_array().map_or(0, |t| t.iter().map(|t| t["counted"].as_u64().unwrap()).sum())
    };
    let first_two = "two deals of the first round counted before the restart";
    poll(first_two, Duration::from_secs(20), Duration::from_millis(50), || async {
        (counted(&view(addr, &id).await) >= 2).then_some(())
    })
    .await;
    assert!(running.stop().await);
    let again = tournament_server(&db).await;
    let page = finished(again.addr, &id).await;
    let stages: Vec<&str> = page["rounds"].as_array().unwrap().iter().map(|r| r["stage"].as_str().unwrap()).collect();
    assert_eq!(stages, ["chips", "final"]);
    // Every table played exactly its deals: none dealt twice or lost across the restart.
    assert_eq!(check_records(again.addr, &page).await, 3 * 3 + 2);
    assert!(again.stop().await);
}

#[tokio::test]
async fn an_operators_recurring_event_is_announced_once_however_often_servers_start() {
    let db = temp_db("recurring");
    let event: ddz_server::Recurring = serde_json::from_value(json!({
        "slug": "every-ten", "title": "Every ten minutes", "table": "two_player", "every_minutes": 10, "bots_fill": true
    }))
    .expect("an event");
    let upcoming = |lists: &Value| -> Vec<Value> { lists["upcoming"].as_array().unwrap().clone() };
    let mut announced = Vec::new();
    for _ in 0..2 {
        let running = server_with_tournaments(&db, TOURNEY, vec![event.clone()]).await;
        let announced_run = "the next run announced";
        let lists = poll(announced_run, Duration::from_secs(3), Duration::from_millis(50), || async {
            let lists = get(running.addr, "/api/tournaments").await;
            (!upcoming(&lists).is_empty()).then_some(lists)
        })
        .await;
        let runs = upcoming(&lists);
        assert_eq!(runs.len(), 1, "one run announced: {lists}");
        assert_eq!(
            (runs[0]["title"].as_str(), runs[0]["host"].as_str()),
            (Some("Every ten minutes"), Some("Organiser"))
        );
        assert_eq!(runs[0]["format"]["kind"], "scheduled");
        let starts_at = runs[0]["starts_at"].as_u64().unwrap();
        assert_eq!(starts_at % 600_000, 0, "runs start on the tenth minute");
        assert!(runs[0]["id"].as_str().unwrap().starts_with("every-ten-"));
        announced.push(runs[0]["id"].clone());
        assert!(running.stop().await);
    }
    assert_eq!(announced[0], announced[1], "a second start (or node) finds the run announced");
}

#[tokio::test]
async fn an_entrant_still_playing_is_refused_a_watch_of_another_table_and_strangers_are_not() {
    let db = temp_db("tournament-watch");
    // Nobody's turn is played for them while the test looks: the round stays in play until it is done.
    let still = Timing { away_ms: 600_000, ..FAST };
    let running = server_behind_balancer(&db, still, ddz_server::Clock::system(), LISTED_AT_ONCE).await;
    let addr = running.addr;
    let created = post_from(
        addr,
        "/api/tournaments",
        json!({"name": "Host", "table": "house", "format": {"kind": "sit_and_go", "size": 9},
               "settings": quick_settings("house", 3, 1)}),
        "198.51.100.1",
    )
    .await;
    let id = created.body["id"].as_str().unwrap().to_string();
    for i in 1..=9 {
        let path = format!("/api/tournaments/{id}/register");
        post_from(addr, &path, json!({"name": format!("W{i}")}), &format!("203.0.113.{i}")).await;
    }
    let (page, mine) = seated(addr, &id, "W1").await;
    let tables = page["rounds"][0]["tables"].as_array().unwrap();
    let other = tables.iter().map(|t| t["code"].as_str().unwrap()).find(|code| *code != mine).unwrap();
    let mut entrant = Client::watch_from(addr, other, "203.0.113.1").await;
    assert_eq!(entrant.next_refusal().await.0, ErrorCode::EntrantWatching);
    let mut own = Client::watch_from(addr, &mine, "203.0.113.1").await;
    // Their own table may be watched (a second tab, say): a state comes, not a refusal.
    own.next_state().await;
    let mut stranger = Client::watch_from(addr, other, "192.0.2.50").await;
    stranger.next_state().await;
    // The same decision on every path: a `hello` as a named watcher from the entrant's address (any name,
    // or their own), their own name from anywhere else, and the room's view over HTTP.
    for (name, address) in [("Anybody", "203.0.113.1"), ("W1", "203.0.113.1"), ("w1", "192.0.2.77")] {
        let mut named = Client::hello_from(addr, other, name, address, "a-browser").await;
        assert_eq!(named.next_refusal().await.0, ErrorCode::EntrantWatching, "{name} from {address}");
    }
    let view = |address: &'static str| {
        let path = format!("/api/rooms/{other}");
        async move {
            let header = format!("application/json\r\nX-Forwarded-For: {address}");
            http_text(addr, "GET", &path, Some(&header), "").await
        }
    };
    let refused = view("203.0.113.1").await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (403, Some("entrant_watching")));
    assert_eq!(view("192.0.2.50").await.status, 200, "a stranger reads the table");
    // A player's own table, under their own name, from their own address: theirs.
    let back = Client::join_from(addr, &mine, "W1", "203.0.113.1", "a-browser").await;
    let seat = back.view.as_ref().and_then(|view| view.you).expect("W1 takes their seat");
    assert_eq!(back.view.as_ref().unwrap().seats[seat].occupant.as_ref().map(|o| o.name()), Some("W1"));
    assert!(running.stop().await);
}
