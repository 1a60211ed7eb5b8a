//! Cluster mode end to end: three `ddz serve` processes on one PostgreSQL and one NATS, all started by the
//! test on free ports (`.ci/run` installs `postgresql` and `nats-server`) and stopped at the end. Clients
//! are spread over the nodes; the owner of a room is killed with SIGKILL mid-deal and another node finishes
//! the deal; lobbies, records, stats and the one-rally-attempt rule agree on every node.

#[path = "../../ddz-server/tests/server/common/mod.rs"]
mod common;
mod nodes;

use std::process::Command;
use std::time::{Duration, Instant};

use common::services::{Nats, Postgres};
use common::{
    Client, catch_up, check_hidden_information, get, get_status, invite_room, play_some, play_to_end, poll, post,
};
use ddz_server::protocol::{Command as Say, Event};
use nodes::{LEASE_MS, Node, cluster, counter, owner_of};

/// Alice (the host), Bea and Cy join room `code` through the nodes at `through`, sit, and Alice deals.
async fn seat_and_deal(code: &str, through: [std::net::SocketAddr; 3]) -> Vec<Client> {
    let mut clients = Vec::new();
    for (addr, name) in through.into_iter().zip(["Alice", "Bea", "Cy"]) {
        let mut client = Client::join(addr, code, name).await;
        if name != "Alice" {
            client.send(&Say::Sit { seat: None }).await;
            client.until(|v| v.you.is_some()).await;
        }
        clients.push(client);
    }
    clients[0].until(|v| v.seats.iter().all(|s| s.occupant.is_some() && s.connected)).await;
    clients[0].send(&Say::Start).await;
    clients[0].until(|v| v.deal.is_some()).await;
    clients
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deal_played_from_three_nodes_goes_on_when_its_owner_is_killed_and_keeps_every_acknowledged_action() {
    let (postgres, _nats, mut nodes) = cluster("failover").await;
    let code = invite_room(nodes[1].addr, "Alice", "noshuffle").await;
    // Alice plays through n1, Bea through n2, Cy through n3.
    let mut clients = seat_and_deal(&code, [nodes[0].addr, nodes[1].addr, nodes[2].addr]).await;
    play_some(&mut clients, 10).await;

    let before = clients.iter().map(|c| c.deal().unwrap().actions.clone()).max_by_key(Vec::len).unwrap();
    assert!(before.len() >= 5, "the deal is under way: {} actions", before.len());
    let owner = owner_of(&postgres, &nodes, &code).expect("the room has a live owner");
    let turn_deadline = clients[(owner + 1) % 3].view.as_ref().unwrap().turn_deadline;
    let killed_at = Instant::now();
    nodes[owner].kill();

    // Another node takes the room within the lease, and the clients of the other nodes are sent the deal
    // as the new owner restored it: every action they had is there, and the turn's clock is the stored one.
    let new_owner = poll("another node took the room", Duration::from_secs(5), Duration::from_millis(50), || async {
        owner_of(&postgres, &nodes, &code).filter(|o| *o != owner)
    })
    .await;
    let moved_after = killed_at.elapsed();
    let metrics = get_status(nodes[new_owner].addr, "/metrics").await.1;
    assert!(metrics.contains("ddz_cluster_rooms_taken_total"), "the new owner counts the rooms it took");
    let mut earlier_sockets = Vec::new();
    for (i, client) in clients.iter_mut().enumerate().filter(|(i, _)| *i != owner) {
        let view = loop {
            match client.recv_within(Duration::from_secs(5)).await {
                Some(Event::State { .. }) => break client.view.clone().unwrap(),
                Some(_) => {}
                None => panic!("client {i} was not sent the restored room"),
            }
        };
        let deal = view.deal.unwrap();
        assert_eq!(deal.actions[..before.len()], before[..], "client {i} sees every acknowledged action");
        assert_eq!(view.turn_deadline, turn_deadline, "the turn's clock goes on from the stored time");
    }
    // The killed node's client reconnects through a live node with its resume token, and resumes.
    let stranded = &clients[owner];
    let (name, token) = (stranded.name.clone(), stranded.token.clone());
    let mut back = Client::connect_with_token(nodes[new_owner].addr, &code, &name, token).await;
    back.until(|v| v.you.is_some() && v.deal.is_some()).await;
    earlier_sockets.push(std::mem::replace(&mut clients[owner], back));

    play_to_end(&mut clients).await;
    let result = clients[0].deal().unwrap().result.clone().expect("the deal finished");
    for client in &clients {
        assert_eq!(client.deal().unwrap().result.as_ref(), Some(&result), "{} sees the same result", client.name);
    }
    earlier_sockets.extend(clients);
    check_hidden_information(&earlier_sockets);

    // The deal's record, the players' stats and the boards read the same through every live node.
    let live: Vec<&Node> = nodes.iter().enumerate().filter(|(i, _)| *i != owner).map(|(_, n)| n).collect();
    let record = get(live[0].addr, &format!("/api/rooms/{code}/deals/1")).await;
    let actions: Vec<ddz_engine::Action> = serde_json::from_value(record["record"]["actions"].clone()).unwrap();
    assert_eq!(actions[..before.len()], before[..], "the stored record has every acknowledged action");
    for path in [format!("/api/rooms/{code}/deals/1"), "/api/players/Alice".into(), "/api/boards/noshuffle".into()] {
        let answers: Vec<serde_json::Value> =
            futures_util::future::join_all(live.iter().map(|n| get(n.addr, &path))).await;
        assert_eq!(answers[0], answers[1], "{path} reads the same on every node");
    }
    println!("the room moved {moved_after:?} after its owner was killed (lease {LEASE_MS} ms)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_every_public_table_and_one_rally_attempt_per_name_holds_across_nodes() {
    let (postgres, _nats, nodes) = cluster("lobby").await;
    let mut codes = Vec::new();
    for (node, host) in nodes.iter().zip(["Dee", "Eli", "Fay"]) {
        let created =
            post(node.addr, "/api/rooms", serde_json::json!({"name": host, "table": "house", "public": true})).await;
        codes.push(created["code"].as_str().expect("a code").to_string());
    }
    codes.sort();
    let lobby_codes = |lobby: serde_json::Value| -> Vec<String> {
        let tables = lobby["tables"].as_array().cloned().unwrap_or_default();
        tables.iter().filter_map(|t| t["code"].as_str().map(str::to_string)).collect()
    };
    poll("every lobby lists the three tables", Duration::from_secs(5), Duration::from_millis(50), || async {
        let lobbies = futures_util::future::join_all(nodes.iter().map(|n| get(n.addr, "/api/lobby"))).await;
        lobbies.into_iter().all(|lobby| lobby_codes(lobby) == codes).then_some(())
    })
    .await;

    // Every node's hall counts the sockets open on every node (each node's pulse on NATS) and lists the same
    // tables and the same built-in events, created once across the nodes.
    let _watchers =
        futures_util::future::join_all(nodes.iter().map(|n| common::Watcher::open(n.addr, &Say::WatchHall))).await;
    poll("every hall counting every node", Duration::from_secs(10), Duration::from_millis(100), || async {
        let halls = futures_util::future::join_all(nodes.iter().map(|n| get(n.addr, "/api/hall"))).await;
        let counted = halls.iter().all(|hall| hall["online"].as_u64().is_some_and(|n| n >= 3));
        let open = |hall: &serde_json::Value| -> Vec<String> {
            let events = hall["tournaments"].as_array().cloned().unwrap_or_default();
            let mut ids: Vec<String> = events.iter().filter_map(|t| t["id"].as_str().map(str::to_string)).collect();
            ids.sort();
            ids
        };
        let same_events = halls.iter().all(|hall| open(hall) == open(&halls[0]) && open(hall).len() == 4);
        (counted && same_events && halls.iter().all(|hall| lobby_codes(hall.clone()) == codes)).then_some(())
    })
    .await;
    let sit_and_gos = postgres.query("SELECT count(*) FROM tournaments WHERE id LIKE '%sit-and-go-%'");
    assert_eq!(sit_and_gos, "3", "one sit-and-go per table type, across three nodes");

    // Four names each try today's rally three times through every node at once.
    let names = ["Gil", "Hal", "Ivy", "Jo"];
    let attempts = names.iter().flat_map(|name| {
        nodes.iter().flat_map(move |node| {
            (0..3).map(move |_| {
                let body = serde_json::json!({"kind": "rally", "name": name});
                async move { (name.to_string(), common::http(node.addr, "POST", "/api/challenges", Some(body)).await) }
            })
        })
    });
    let answers = futures_util::future::join_all(attempts).await;
    for name in names {
        let rooms: std::collections::BTreeSet<String> = answers
            .iter()
            .filter(|(n, answer)| n == name && answer.status == 200)
            .map(|(_, answer)| answer.body["code"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(rooms.len(), 1, "{name}'s starts all lead to one rally room: {rooms:?}");
        let stored =
            postgres.query(&format!("SELECT count(*) FROM challenges WHERE name_key = '{}'", name.to_lowercase()));
        assert_eq!(stored, "1", "one rally attempt is stored for {name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_stops_hands_its_rooms_over_at_once_and_their_bots_play_on() {
    let (postgres, _nats, mut nodes) = cluster("handover").await;
    // Kim's game against two bots is created (and so owned) by n1; Kim plays through n2, watched through n3
    // (clients on two nodes: the room stays where it is until n1 stops).
    let created = post(nodes[0].addr, "/api/play-vs-bots", serde_json::json!({"name": "Kim"})).await;
    let code = created["code"].as_str().expect("a room code").to_string();
    assert_eq!(owner_of(&postgres, &nodes, &code), Some(0));
    let _watcher = Client::watch(nodes[2].addr, &code).await;
    let mut kim = vec![Client::join(nodes[1].addr, &code, "Kim").await];
    kim[0].until(|v| v.deal.is_some()).await;
    play_some(&mut kim, 4).await;
    let before = kim[0].deal().unwrap().actions.clone();

    // SIGTERM: n1 ends its room tasks and ends its lease; another node takes Kim's room without waiting for
    // the lease to run out.
    let stopped = Command::new("kill").args(["-TERM", &nodes[0].child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    let status = nodes[0].child.wait().unwrap();
    assert!(status.success(), "n1 stopped cleanly: {status}");
    // (Its row may already be gone: a node with an ended lease that no room names is forgotten.)
    let n1_alive = postgres.query(
        "SELECT count(*) FROM nodes WHERE id LIKE 'n1-%' AND expires_at > (extract(epoch from now()) * 1000)::bigint",
    );
    assert_eq!(n1_alive, "0", "n1 ended its lease");
    let within_the_lease = Duration::from_millis(LEASE_MS);
    poll("a new owner within the lease", within_the_lease, Duration::from_millis(20), || async {
        matches!(owner_of(&postgres, &nodes, &code), Some(1 | 2)).then_some(())
    })
    .await;

    play_to_end(&mut kim).await;
    let deal = kim[0].deal().unwrap();
    assert_eq!(deal.actions[..before.len()], before[..], "the deal went on from where it was");
    assert!(deal.result.is_some());
}

/// A room whose clients are all on one node other than its owner (as a balancer routing by room places
/// them) is handed to that node, within two of the owner's lease ticks: the deal goes on, the players'
/// sockets stay open and never hear `replaced`, nothing is lost or doubled, and from then on the room's
/// events stay inside the node instead of crossing NATS.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_clients_are_all_on_another_node_moves_there_and_its_players_never_notice() {
    let (postgres, _nats, nodes) = cluster("routed").await;
    let code = invite_room(nodes[0].addr, "Alice", "noshuffle").await;
    assert_eq!(owner_of(&postgres, &nodes, &code), Some(0));
    let mut clients = seat_and_deal(&code, [nodes[1].addr; 3]).await;

    // The players play on while the room moves under them.
    let since = Instant::now();
    while owner_of(&postgres, &nodes, &code) != Some(1) {
        assert!(since.elapsed() < Duration::from_secs(5), "the room did not move to its players' node");
        play_some(&mut clients, 1).await;
    }
    assert_eq!(counter(nodes[0].addr, "ddz_cluster_rooms_handed_over_total").await, 1, "n1 handed the room over");
    catch_up(&mut clients).await;
    let relayed = |i: usize| counter(nodes[i].addr, "ddz_cluster_events_relayed_total");
    let relayed_by_n1 = relayed(0).await;
    assert!(relayed_by_n1 > 0, "before the move, n1 relayed the room's events to n2");

    play_to_end(&mut clients).await;
    let deal = clients[0].deal().unwrap().clone();
    assert!(deal.result.is_some());
    for client in &clients {
        assert!(!client.closed, "{}'s socket stayed open", client.name);
        assert!(!client.raw.iter().any(|e| e.contains(r#""type":"replaced""#)), "{} was told replaced", client.name);
        assert_eq!(client.gaps, 0, "{} missed no state", client.name);
        assert_eq!(client.deal().unwrap().actions, deal.actions, "{} saw the same deal", client.name);
    }
    let record = get(nodes[1].addr, &format!("/api/rooms/{code}/deals/1")).await;
    let stored: Vec<ddz_engine::Action> = serde_json::from_value(record["record"]["actions"].clone()).unwrap();
    assert_eq!(stored, deal.actions, "the record is the deal the players saw, each action once");
    assert_eq!(relayed(0).await, relayed_by_n1, "once moved, n1 relays nothing more");
    assert_eq!(relayed(1).await, 0, "n2 keeps its own room's events inside");
    check_hidden_information(&clients);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_of_a_node_that_dies_show_disconnected_and_come_back_through_another() {
    let (postgres, _nats, mut nodes) = cluster("guests").await;
    let code = invite_room(nodes[0].addr, "Alice", "noshuffle").await;
    assert_eq!(owner_of(&postgres, &nodes, &code), Some(0));
    let mut alice = Client::join(nodes[0].addr, &code, "Alice").await;
    let mut bea = Client::join(nodes[2].addr, &code, "Bea").await;
    bea.send(&Say::Sit { seat: Some(1) }).await;
    bea.until(|v| v.you == Some(1)).await;
    alice.until(|v| v.seats[1].connected).await;

    // n3, which served Bea, dies: the owner forgets its connections once its lease has run out.
    nodes[2].kill();
    let forgotten = tokio::time::timeout(Duration::from_secs(10), alice.until(|v| !v.seats[1].connected)).await;
    assert!(forgotten.is_ok(), "Bea's seat still shows connected 10 s after her node died");
    // Bea comes back through n2, without her token: her name is hers to take again.
    let back = Client::join(nodes[1].addr, &code, "Bea").await;
    assert_eq!(back.view.as_ref().and_then(|v| v.you), Some(1), "Bea is back in her seat");
    alice.until(|v| v.seats[1].connected).await;
}

/// Quick match's queue lives in the database: six players queueing through three nodes at once sit at
/// exactly two tables of three, nobody at two, whichever node's matcher claimed them; each plays through
/// the node they queued on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_seats_players_who_queued_on_different_nodes_together_and_nobody_twice() {
    let (postgres, _nats, nodes) = cluster("quick").await;
    let names = ["Kim", "Lea", "Max", "Ned", "Oli", "Pia"];
    let joins = names.iter().enumerate().map(|(i, name)| {
        let addr = nodes[i % nodes.len()].addr;
        async move { (addr, post(addr, "/api/quick-match", serde_json::json!({"name": name, "table": "house"})).await) }
    });
    let tickets = futures_util::future::join_all(joins).await;
    let mut rooms = std::collections::BTreeMap::<String, Vec<String>>::new();
    for (addr, ticket) in &tickets {
        let path = format!("/api/quick-match/{}", ticket["ticket"].as_str().expect("a ticket"));
        let what = format!("{} matched", ticket["name"]);
        let answer = poll(&what, Duration::from_secs(8), Duration::from_millis(100), || async {
            let answer = get(*addr, &path).await;
            answer["room"].is_string().then_some(answer)
        })
        .await;
        assert_eq!(answer["bots"], 0, "six players make two full tables");
        let room = answer["room"].as_str().unwrap().to_string();
        rooms.entry(room).or_default().push(ticket["name"].as_str().unwrap().to_string());
    }
    assert_eq!(rooms.len(), 2, "two tables: {rooms:?}");
    assert!(rooms.values().all(|players| players.len() == 3), "{rooms:?}");
    assert_eq!(postgres.query("SELECT count(DISTINCT room) FROM match_queue WHERE room IS NOT NULL"), "2");
    // Each player enters through the node they queued on; every seat is theirs and the deal reaches all.
    for (code, players) in &rooms {
        let mut clients = Vec::new();
        for name in players {
            let (addr, _) = tickets.iter().find(|(_, t)| t["name"] == name.as_str()).unwrap();
            clients.push(Client::join(*addr, code, name).await);
        }
        for client in clients.iter_mut() {
            let view = client.until(|v| v.deal.is_some()).await;
            assert!(view.you.is_some(), "{} is seated at {code}", client.name);
        }
    }
}

/// A NATS blip does not empty the balancer: every node sees it at once, so each stays ready while NATS is
/// down (saying it is reconnecting) for its first 10 s, and is plainly ready again once NATS is back.
#[tokio::test]
async fn a_nats_blip_keeps_a_node_in_the_balancer() {
    let postgres = Postgres::start("nats-blip");
    let mut nats = Nats::start();
    let node = Node::spawn("n1", &postgres, &nats).ready().await;
    let readiness = |addr| async move { get_status(addr, "/readyz").await };
    nats.stop();
    poll("the node noticing NATS is down", Duration::from_secs(8), Duration::from_millis(100), || async {
        let (status, body) = readiness(node.addr).await;
        assert_eq!(status, 200, "ready through the blip: {body}");
        body.contains("NATS reconnecting").then_some(())
    })
    .await;
    nats.restart();
    poll("the node reconnecting to NATS", Duration::from_secs(20), Duration::from_millis(200), || async {
        let (status, body) = readiness(node.addr).await;
        assert_eq!(status, 200, "{body}");
        (!body.contains("reconnecting")).then_some(())
    })
    .await;
    // And it serves rooms again, through NATS.
    let code = invite_room(node.addr, "Blip Ann", "house").await;
    let ann = Client::join(node.addr, &code, "Blip Ann").await;
    assert_eq!(ann.view.as_ref().and_then(|v| v.you), Some(0));
}

/// A room's owner that stops answering (SIGSTOP: hung, or killed before anyone noticed) holds its players
/// on other nodes for little more than its lease: each request to it gives up in a fraction of the lease,
/// and the room is taken once the lease runs out. Woken again, the old owner is fenced: it stores nothing
/// more for the room, and the deal goes on from the new owner with nothing lost or doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_owner_is_given_up_soon_after_its_lease_and_fenced_when_it_wakes() {
    let (postgres, _nats, nodes) = cluster("silent").await;
    let code = invite_room(nodes[0].addr, "Alice", "noshuffle").await;
    assert_eq!(owner_of(&postgres, &nodes, &code), Some(0));
    let mut clients = seat_and_deal(&code, [nodes[1].addr, nodes[2].addr, nodes[2].addr]).await;
    play_some(&mut clients, 6).await;
    let before = clients[0].deal().unwrap().actions.clone();

    nodes[0].signal("STOP");
    let paused_at = Instant::now();
    // Alice asks for the room again: the answer comes from the new owner once the lease ran out.
    clients[0].send(&Say::Sync).await;
    // The new owner's resume token comes first (a state sent before the pause may still be on its way),
    // then its state.
    clients[0].event_within(Duration::from_secs(10), |e| matches!(e, Event::Session { .. })).await;
    clients[0].event_within(Duration::from_secs(10), |e| matches!(e, Event::State { .. })).await;
    let waited = paused_at.elapsed();
    let new_owner = owner_of(&postgres, &nodes, &code).expect("a live owner");
    assert_ne!(new_owner, 0, "the silent node no longer owns the room");
    // Each request to the silent owner gives up after a quarter of the lease, not a fixed 5 s.
    assert!(
        waited < Duration::from_millis(2 * LEASE_MS),
        "Alice waited {waited:?} for a room whose owner went silent (lease {LEASE_MS} ms)"
    );

    nodes[0].signal("CONT");
    catch_up(&mut clients).await;
    play_to_end(&mut clients).await;
    let deal = clients[0].deal().unwrap().clone();
    assert_eq!(deal.actions[..before.len()], before[..], "the deal went on from where it was");
    let record = get(nodes[new_owner].addr, &format!("/api/rooms/{code}/deals/1")).await;
    let stored: Vec<ddz_engine::Action> = serde_json::from_value(record["record"]["actions"].clone()).unwrap();
    assert_eq!(stored, deal.actions, "the record is the deal the players saw, each action once");
    let owner_now = owner_of(&postgres, &nodes, &code);
    assert_eq!(owner_now, Some(new_owner), "the woken node did not take its room back");
    println!("a silent owner's player waited {waited:?} for the room (lease {LEASE_MS} ms)");
}
