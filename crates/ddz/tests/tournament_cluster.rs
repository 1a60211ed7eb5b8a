//! A tournament in cluster mode (docs/tournaments.md, "Tests"): three `ddz serve` nodes on one PostgreSQL
//! and one NATS run a scheduled event of 27. Nothing owns the tournament: every node's driver moves it on,
//! and the log's numbers let one entry count. The simulated players read the tournament's page and play
//! their tables through the nodes, spread over all three; some drop mid-deal and come back. One node is
//! killed with SIGKILL while a round is in play, owning some of its tables: its players reconnect through
//! another node, its tables move, and the event still reaches its final standings with every deal's
//! record verifying.

#[path = "../../ddz-server/tests/server/common/mod.rs"]
mod common;
mod nodes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::poll;
use common::tournament::{self, try_get};
use ddz_engine::DealRecord;
use nodes::{LEASE_MS, cluster_with, owner_of};
use serde_json::{Value, json};
use tokio::time::Instant;

/// No node is dead yet.
const ALL_ALIVE: usize = usize::MAX;

/// Settings for a short event: one deal per chip round, one per fixed round, one at the final.
fn quick_settings(until: usize) -> Value {
    json!({
        "table": "house", "chips": 10000, "stake": 500, "line_percent": 20, "line_step_percent": 20,
        "line_every": 1, "chip_rounds": 1, "chip_rounds_until": until, "carry_percent": 10,
        "deals_per_round": 1, "final_deals": 1
    })
}

/// The nodes as the players see them: their addresses, and which one has died (known to the players
/// just before it dies, as a balancer's health check would soon know; a request already on its way to
/// it fails all the same).
#[derive(Clone)]
struct Nodes {
    addrs: Vec<SocketAddr>,
    dead: Arc<AtomicUsize>,
}

impl Nodes {
    /// The live node for a player whose home is node `home`, on their `attempt`th try.
    fn pick(&self, home: usize, attempt: usize) -> SocketAddr {
        let dead = self.dead.load(Ordering::SeqCst);
        let live: Vec<SocketAddr> =
            self.addrs.iter().enumerate().filter(|(i, _)| *i != dead).map(|(_, a)| *a).collect();
        live[(home + attempt) % live.len()]
    }
}

/// A GET through any live node.
async fn get_any(nodes: &Nodes, path: &str) -> Value {
    let attempt = AtomicUsize::new(0);
    poll(&format!("a node answering GET {path}"), Duration::from_secs(5), Duration::from_millis(100), || async {
        try_get(nodes.pick(0, attempt.fetch_add(1, Ordering::Relaxed)), path).await
    })
    .await
}

/// Every deal of every table: as many as the round asked, each record replaying and verifying.
async fn check_records(nodes: &Nodes, page: &Value) -> usize {
    let mut checked = 0;
    for round in page["rounds"].as_array().unwrap() {
        for table in round["tables"].as_array().unwrap() {
            let code = table["code"].as_str().unwrap();
            let deals = get_any(nodes, &format!("/api/rooms/{code}/deals")).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_scheduled_event_of_27_on_three_nodes_reaches_its_standings_when_a_node_is_killed_mid_round() {
    // Tables deal again at once; a player away half a second has the bot play for them; each deal waits
    // half a second for nonces the simulated players never send (so that a table dies with its offer
    // pending too, and is restored with it).
    let extra = ["--tournament-pause-ms", "50", "--tournament-away-ms", "500", "--nonce-wait-ms", "500"];
    let (postgres, _nats, mut cluster) = cluster_with("tournament", &extra).await;
    let nodes = Nodes { addrs: cluster.iter().map(|n| n.addr).collect(), dead: Arc::new(AtomicUsize::new(ALL_ALIVE)) };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let created = common::post(
        nodes.addrs[0],
        "/api/tournaments",
        json!({"name": "Organiser", "table": "house", "title": "Cluster cup",
               "format": {"kind": "scheduled", "starts_at": now + 5_000, "bots_fill": false},
               "settings": quick_settings(9)}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let names: Vec<String> = (1..=27).map(|i| format!("Entrant{i}")).collect();
    // Registered through every node.
    for (i, name) in names.iter().enumerate() {
        let path = format!("/api/tournaments/{id}/register");
        let answer = common::http(nodes.addrs[i % 3], "POST", &path, Some(json!({"name": name}))).await;
        assert!(answer.status < 300, "{name} registers: {answer:?}");
    }
    let page = common::get(nodes.addrs[2], &format!("/api/tournaments/{id}")).await;
    assert_eq!(page["summary"]["entrants"], 27, "every node reads the same log");
    let started = Instant::now();
    let players: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let drops = ["Entrant5", "Entrant11", "Entrant20"].contains(&name.as_str());
            {
                let (nodes, id, name) = (nodes.clone(), id.clone(), name.clone());
                tokio::spawn(
                    async move { tournament::play(|attempt| nodes.pick(i % 3, attempt), &id, &name, drops).await },
                )
            }
        })
        .collect();

    // Once a round after the first is seated, the node that owns most of its unplayed tables dies.
    let seated = "a round after the first seated in play, with unplayed tables";
    let (killed, round_killed, tables_owned) =
        poll(seated, Duration::from_secs(120), Duration::from_millis(50), || async {
            let page = get_any(&nodes, &format!("/api/tournaments/{id}")).await;
            let round = page["rounds"].as_array().and_then(|r| r.last().cloned()).unwrap_or_default();
            if round["number"].as_u64().is_none_or(|n| n < 2) || round["closed"] != false {
                return None;
            }
            let unplayed: Vec<String> = round["tables"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["counted"].as_u64() < round["deals"].as_u64())
                .map(|t| t["code"].as_str().unwrap().to_string())
                .collect();
            let mut owned: [Vec<String>; 3] = Default::default();
            for code in &unplayed {
                if let Some(owner) = owner_of(&postgres, &cluster, code) {
                    owned[owner].push(code.clone());
                }
            }
            let most = (0..3).max_by_key(|&i| owned[i].len()).unwrap();
            (!owned[most].is_empty())
                .then(|| (most, round["number"].as_u64().unwrap(), std::mem::take(&mut owned[most])))
        })
        .await;
    nodes.dead.store(killed, Ordering::SeqCst);
    cluster[killed].kill();
    let killed_at = started.elapsed();
    // Its tables move to live nodes (unless the round is over first: a closed table need not move).
    let moving = format!("the dead node's tables {tables_owned:?} moving");
    let moved_after = poll(&moving, Duration::from_secs(15), Duration::from_millis(50), || async {
        let moved = tables_owned.iter().all(|code| owner_of(&postgres, &cluster, code).is_some_and(|o| o != killed));
        if moved {
            return Some(Some(started.elapsed() - killed_at));
        }
        let page = get_any(&nodes, &format!("/api/tournaments/{id}")).await;
        (page["rounds"][round_killed as usize - 1]["closed"] == true).then_some(None)
    })
    .await;

    let mut played = Vec::new();
    for player in players {
        played.push(player.await.expect("a player"));
    }
    let left = Duration::from_secs(300).saturating_sub(started.elapsed());
    let page = poll("the tournament finished", left, Duration::from_millis(100), || async {
        let page = get_any(&nodes, &format!("/api/tournaments/{id}")).await;
        (page["summary"]["phase"] == "finished").then_some(page)
    })
    .await;
    let finished_after = started.elapsed();
    let rounds: Vec<(String, usize)> = page["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["stage"].as_str().unwrap().to_string(), r["tables"].as_array().unwrap().len()))
        .collect();
    let expected = [("chips", 9), ("fixed", 3), ("fixed", 2), ("final", 1)].map(|(s, n)| (s.to_string(), n));
    assert_eq!(rounds, expected);
    assert_eq!(check_records(&nodes, &page).await, 9 + 3 + 2 + 1);
    let standings = page["standings"].as_array().unwrap();
    let places: Vec<u64> = standings.iter().map(|e| e["place"].as_u64().unwrap()).collect();
    assert_eq!(places, (1..=27).collect::<Vec<_>>());
    assert_eq!(page["summary"]["podium"].as_array().map(Vec::len), Some(3));

    // The log holds each step once, whichever node stored it: one seating and one close per round, one
    // count per deal.
    let count = |kind: &str| {
        postgres.query(&format!(
            "SELECT count(*) FROM tournament_log WHERE id = '{id}' AND entry::jsonb->>'entry' = '{kind}'"
        ))
    };
    let logged = postgres.query(&format!("SELECT entry FROM tournament_log WHERE id = '{id}' ORDER BY n"));
    assert_eq!(count("seated"), "4", "{logged}");
    assert_eq!(count("deal_counted"), "15", "{logged}");
    assert_eq!(count("round_closed"), "4", "{logged}");

    // Every live node reads the same finished event.
    let live: Vec<SocketAddr> = nodes.addrs.iter().enumerate().filter(|(i, _)| *i != killed).map(|(_, a)| *a).collect();
    let path = format!("/api/tournaments/{id}");
    let views: Vec<Value> = futures_util::future::join_all(live.iter().map(|a| common::get(*a, &path))).await;
    assert_eq!(views[0]["standings"], views[1]["standings"], "the standings read the same on every live node");

    let reconnects: usize = played.iter().map(|p| p.reconnects).sum();
    let failures: usize = played.iter().map(|p| p.failures).sum();
    let actions: usize = played.iter().map(|p| p.actions).sum();
    println!(
        "n{} (owner of {} unplayed tables of round {round_killed}) killed {killed_at:?} in (lease {LEASE_MS} ms); \
         its tables moved after {moved_after:?}; finished after {finished_after:?}; {actions} actions \
         acknowledged, {reconnects} reconnects, {failures} failed requests or sockets",
        killed + 1,
        tables_owned.len()
    );
    assert!(failures > 0 || reconnects > 0, "some players were on the node that died");
}
