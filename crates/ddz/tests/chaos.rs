//! The cluster under chaos, as operators run it: three `ddz serve` processes behind HAProxy (with
//! `deploy/haproxy.cfg`), one PostgreSQL and one NATS. Rooms of three human clients, spread over the nodes by
//! the balancer, play deal after deal at a quick pace while a seeded schedule SIGKILLs and restarts nodes,
//! SIGTERMs one, restarts NATS, restarts PostgreSQL and pauses a node past its lease (SIGSTOP, then SIGCONT:
//! the woken node must be fenced). Clients behave as the web client does: they reconnect through the
//! balancer with their resume token, resend an unanswered action with its `seq`, send their nonce, and ask
//! for the whole room (`sync`) when a state continues from further on than they hold.
//!
//! Afterwards: every room finished its deals; every acknowledged action is in the stored record, once, where
//! its client saw it go; every node serves the same records; no socket ever carried a card its seat may not
//! see; every record replays and verifies. It prints how long each room of a killed, stopped or paused node
//! took to move (p50, max) and every error clients were sent, by code.
//!
//! The seed is printed first; `DDZ_CHAOS_SEED=N` replays a schedule, `DDZ_CHAOS_SEED=random` draws one,
//! and `DDZ_CHAOS_EVENTS=N` (6 by default) makes a longer run, for a benchmark of the cluster's recovery.

#[path = "../../ddz-server/tests/server/common/mod.rs"]
mod common;
mod nodes;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::services::{Haproxy, Nats, Postgres};
use common::{Client, Received, check_hidden_information, get, invite_room, poll, ws_url};
use ddz_engine::{Action, DealRecord};
use ddz_server::protocol::{ClientAction, Command, ErrorCode, Event, simple_action};
use nodes::{LEASE_MS, Node, owner_of};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const ROOMS: usize = 6;
/// Each room plays at least this many deals, and goes on dealing until the schedule is over.
const MIN_DEALS: u32 = 2;
/// A client's think time between its actions, at most (drawn from the seed).
const THINK_MS: u64 = 120;
/// An action unanswered for this long, while the table still waits for it, looks lost to a player, who acts
/// again (its answer may still come: a room's proxy delivers it once the room has moved). Counted and
/// printed as "action unanswered": an action sent as NATS restarts can get no answer at all (docs/scaling.md).
const LOST: Duration = Duration::from_secs(3);
/// A room in which nobody has seen anything happen for this long has stalled: an event was lost and nothing
/// replaced it (the turn clocks, far longer, would hide it).
const STALLED: Duration = Duration::from_secs(10);

/// What happens to the cluster, in a seeded order with seeded pauses between.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// SIGKILL a node, then start it again on its address.
    Kill(usize),
    /// SIGTERM a node (it hands its rooms over), then start it again.
    Term(usize),
    /// SIGSTOP a node past its lease, then SIGCONT: its rooms move, and it must be fenced.
    Pause(usize),
    NatsRestart,
    PostgresRestart,
}

/// What the room's players share: whether the schedule is over, and whether the host has stopped dealing.
struct RoomState {
    code: String,
    /// When a player of the room last saw it change, in ms since the run began.
    changed_ms: AtomicU64,
    done: AtomicBool,
}

/// One player's account of the run, checked afterwards.
#[derive(Default)]
struct Account {
    /// Acknowledged actions: the deal's number, where the action may stand in it, the action.
    acked: Vec<(u32, Vec<usize>, Action)>,
    errors: BTreeMap<String, usize>,
    /// Every socket the player used (their messages are checked for hidden cards).
    sockets: Vec<Client>,
    resent: usize,
    reconnects: usize,
    gaps: usize,
    /// Why the player stopped before the room was done: it stalled.
    stalled: Option<String>,
}

/// An action sent and not yet answered.
struct Pending {
    seq: u64,
    action: ClientAction,
    deal: u32,
    at: Vec<usize>,
    sent: Instant,
}

/// Where an action sent now may stand in the deal: next, or, while several seats act at once (saying they
/// have seen their cards), after the others'.
fn places(deal: &ddz_engine::DealView) -> std::ops::Range<usize> {
    deal.actions.len()..deal.actions.len() + deal.waiting_for.len()
}

/// The deal's number as the room counts them (the first is 1).
fn deal_number(view: &ddz_server::protocol::RoomView) -> u32 {
    view.deals_played + u32::from(view.deal.as_ref().is_some_and(|d| d.result.is_none()))
}

/// One human player: plays whenever it is their turn, as long as the room goes on.
async fn player(
    epoch: Instant,
    lb: SocketAddr,
    room: Arc<RoomState>,
    name: String,
    host: bool,
    schedule_over: Arc<AtomicBool>,
    seed: u64,
) -> Account {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut account = Account::default();
    let mut token: Option<String> = None;
    let mut pending: Option<Pending> = None;
    let mut abandoned: Vec<Pending> = Vec::new();
    let mut stale: Option<Instant> = None;
    let mut resend = false;
    let mut next_act = Instant::now();
    let mut start_asked: Option<u32> = None;
    let mut start_sent = Instant::now();
    let mut last_n = 0;
    let mut sat_on = None;
    let mut nonce_for: Option<String> = None;
    let mut seq = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let give_up = Instant::now() + Duration::from_secs(240);
    while !room.done.load(Ordering::SeqCst) {
        assert!(Instant::now() < give_up, "{name} in {} is still playing after 4 minutes", room.code);
        // Connected, as the web client: through the balancer, with the resume token, backing off a little.
        if account.sockets.last().is_none_or(|c| c.closed) {
            if !account.sockets.is_empty() {
                account.reconnects += 1;
                tokio::time::sleep(Duration::from_millis(rng.random_range(100..400))).await;
            }
            // The room in the address: the balancer sends every player of the room to one node.
            let connected =
                tokio::time::timeout(Duration::from_secs(5), tokio_tungstenite::connect_async(ws_url(lb, &room.code)))
                    .await;
            let Ok(Ok((ws, _))) = connected else {
                *account.errors.entry("connect refused".into()).or_default() += 1;
                continue;
            };
            let mut client = Client::over(ws, &name);
            let hello = Command::Hello {
                room: room.code.clone().into(),
                name: name.clone(),
                token: token.clone(),
                key: None,
                browser: None,
            };
            if client.try_send(&hello).await {
                resend = pending.is_some();
            }
            account.sockets.push(client);
            continue;
        }
        let socket = account.sockets.len();
        let client = account.sockets.last_mut().unwrap();
        let gaps_before = client.gaps;
        match client.receive(Duration::from_millis(50)).await {
            Received::Closed | Received::TimedOut => {}
            Received::Event(Event::Session { token: new }) => token = Some(new),
            Received::Event(Event::Ack { seq: acked }) => {
                let late = abandoned.iter().position(|p| p.seq == acked).map(|i| abandoned.swap_remove(i));
                // The state the action caused comes next: the view is stale until then (or a while, if
                // the view was already the newer one: the answer came from an owner the room left).
                stale = Some(Instant::now());
                if let Some(p) = pending.take_if(|p| p.seq == acked).or(late) {
                    let seat = client.view.as_ref().and_then(|v| v.you).expect("a seated player");
                    account.acked.push((p.deal, p.at, p.action.for_seat(seat)));
                }
            }
            Received::Event(Event::Error { code, seq: refused, .. }) => {
                *account.errors.entry(format!("{code:?}")).or_default() += 1;
                if code == ErrorCode::SeatsEmpty {
                    start_asked = None;
                }
                if refused.is_some() && pending.as_ref().is_some_and(|p| Some(p.seq) == refused) {
                    pending = None;
                }
            }
            Received::Event(Event::State { .. }) => stale = None,
            Received::Event(Event::Replaced) => *account.errors.entry("replaced".into()).or_default() += 1,
            Received::Event(_) => {}
        }
        let now_ms = epoch.elapsed().as_millis() as u64;
        if client.n > last_n {
            last_n = client.n;
            room.changed_ms.fetch_max(now_ms, Ordering::SeqCst);
        }
        let quiet = Duration::from_millis(now_ms.saturating_sub(room.changed_ms.load(Ordering::SeqCst)));
        if quiet > STALLED {
            let waiting = client.deal().map(|d| d.waiting_for.clone());
            account.stalled = Some(format!(
                "room {} stalled at {:?}: nobody saw it change for {quiet:?} ({name} in seat {:?} holds state {} waiting for {waiting:?}, pending {:?}, stale {:?}, {} sockets)",
                room.code,
                epoch.elapsed(),
                client.view.as_ref().and_then(|v| v.you),
                client.n,
                pending.as_ref().map(|p| p.seq),
                stale.map(|at| at.elapsed()),
                socket
            ));
            room.done.store(true, Ordering::SeqCst);
            break;
        }
        if client.gaps > gaps_before {
            account.gaps += 1;
            client.try_send(&Command::Sync).await;
            continue;
        }
        let Some(view) = client.view.clone() else { continue };
        let Some(me) = view.you else {
            // A player joins as a spectator and sits, once per socket, as the web client does.
            if sat_on != Some(socket) {
                sat_on = Some(socket);
                client.try_send(&Command::Sit { seat: None }).await;
            }
            continue;
        };
        // The deal waits for this player's randomness: sent at once, as a browser does.
        if let Some(offer) = &view.offer
            && offer.awaited.contains(&me)
            && !offer.received[me]
            && nonce_for.as_ref() != Some(&offer.commitment)
        {
            nonce_for = Some(offer.commitment.clone());
            client.try_send(&Command::Nonce { nonce: ddz_engine::Seed::random(&mut rng) }).await;
        }
        let my_turn = client.my_turn();
        // No answer for a while, and the table waits for this seat: to the player the action looks lost,
        // and they act again (the web client lets them: it keeps no pending action).
        if let Some(p) = &pending
            && p.sent.elapsed() > LOST
            && my_turn
        {
            *account.errors.entry("action unanswered (acted again)".into()).or_default() += 1;
            // Its answer may still come (the proxy delivers it once the room has moved): kept for that.
            abandoned.extend(pending.take());
        }
        if resend {
            resend = false;
            let deal = view.deal.as_ref().filter(|_| my_turn);
            match (pending.as_mut(), deal) {
                (Some(p), Some(deal)) if p.deal == deal_number(&view) => {
                    // Taken already (then answered `ack` again, and it stands where it was sent), or not.
                    p.at.extend(places(deal));
                    p.sent = Instant::now();
                    account.resent += 1;
                    client.try_send(&Command::Act { seq: p.seq, action: p.action.clone() }).await;
                }
                _ => pending = None,
            }
            continue;
        }
        let fresh = stale.is_none_or(|at| at.elapsed() > Duration::from_secs(1));
        if my_turn && pending.is_none() && fresh && Instant::now() >= next_act {
            let deal = view.deal.as_ref().unwrap();
            let action = simple_action(deal);
            seq += 1;
            pending = Some(Pending {
                seq,
                action: action.clone(),
                deal: deal_number(&view),
                at: places(deal).collect(),
                sent: Instant::now(),
            });
            client.try_send(&Command::Act { seq, action }).await;
            next_act = Instant::now() + Duration::from_millis(rng.random_range(0..THINK_MS));
        }
        let between_deals = view.deal.as_ref().is_none_or(|d| d.result.is_some()) && view.offer.is_none();
        if host && between_deals && view.seats.iter().all(|s| s.occupant.is_some()) {
            if schedule_over.load(Ordering::SeqCst) && view.deals_played >= MIN_DEALS {
                room.done.store(true, Ordering::SeqCst);
                break;
            }
            // Once per deal, as a host taps Start; again if it was refused, or if nothing came of it for a while
            // (it went to a node that was paused, and the room moved on without it).
            if start_asked != Some(view.deals_played) || start_sent.elapsed() > LOST {
                start_asked = Some(view.deals_played);
                start_sent = Instant::now();
                client.try_send(&Command::Start).await;
            }
        }
    }
    account
}

/// How long a fault keeps its victim down before it is brought back: a paused node past its lease (so that
/// its rooms move and it must be fenced when it wakes), the others a moment.
fn down_for(fault: &Fault) -> Duration {
    match fault {
        Fault::Pause(_) => Duration::from_millis(LEASE_MS + 500),
        Fault::Kill(_) | Fault::Term(_) => Duration::from_millis(500),
        Fault::NatsRestart | Fault::PostgresRestart => Duration::from_millis(700),
    }
}

/// Runs the schedule against the cluster, as a timeline: each fault `gap` after the last one's victim came
/// back, its victim brought back `down_for` it after the fault. The seconds each moved room took to get a
/// new live owner.
async fn run_schedule(
    faults: Vec<(Fault, u64)>,
    postgres: &Postgres,
    nats: &mut Nats,
    nodes: &mut [Node],
    codes: &[String],
) -> Vec<f64> {
    let mut moves = Vec::new();
    let started = tokio::time::Instant::now();
    let mut back = started;
    for (fault, gap_ms) in faults {
        tokio::time::sleep_until(back + Duration::from_millis(gap_ms)).await;
        println!("chaos: {fault:?} at {:?}", started.elapsed());
        let at = tokio::time::Instant::now();
        match fault {
            Fault::Kill(i) | Fault::Term(i) | Fault::Pause(i) => {
                let owned: Vec<String> =
                    codes.iter().filter(|c| owner_of(postgres, nodes, c) == Some(i)).cloned().collect();
                match fault {
                    Fault::Kill(_) => nodes[i].kill(),
                    Fault::Term(_) => {
                        nodes[i].signal("TERM");
                        let _ = nodes[i].child.wait();
                    }
                    _ => nodes[i].signal("STOP"),
                }
                for code in &owned {
                    let moved = format!("room {code} finding a new owner after {fault:?}");
                    poll(&moved, Duration::from_secs(15), Duration::from_millis(25), || async {
                        owner_of(postgres, nodes, code).is_some_and(|o| o != i).then_some(())
                    })
                    .await;
                    moves.push(at.elapsed().as_secs_f64());
                }
                tokio::time::sleep_until(at + down_for(&fault)).await;
                // Woken, a paused node may still believe its rooms are its own: they are others' now.
                match fault {
                    Fault::Pause(_) => nodes[i].signal("CONT"),
                    _ => nodes[i].restart(postgres, nats),
                }
            }
            Fault::NatsRestart => {
                nats.stop();
                tokio::time::sleep_until(at + down_for(&fault)).await;
                nats.restart();
            }
            Fault::PostgresRestart => {
                postgres.crash();
                tokio::time::sleep_until(at + down_for(&fault)).await;
                postgres.start_server();
            }
        }
        back = tokio::time::Instant::now();
    }
    moves
}

fn schedule(rng: &mut ChaCha8Rng, events: usize) -> Vec<(Fault, u64)> {
    let node = |rng: &mut ChaCha8Rng| rng.random_range(0..3);
    let mut faults = vec![
        Fault::Kill(node(rng)),
        Fault::Term(node(rng)),
        Fault::Pause(node(rng)),
        Fault::NatsRestart,
        Fault::PostgresRestart,
    ];
    while faults.len() < events {
        faults.push(match rng.random_range(0..5) {
            0 => Fault::Term(node(rng)),
            1 => Fault::Pause(node(rng)),
            2 => Fault::NatsRestart,
            3 => Fault::PostgresRestart,
            _ => Fault::Kill(node(rng)),
        });
    }
    for i in (1..faults.len()).rev() {
        faults.swap(i, rng.random_range(0..=i));
    }
    faults.into_iter().map(|f| (f, rng.random_range(1_500..3_500))).collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cluster_under_chaos_loses_no_acknowledged_action_and_leaks_no_card() {
    let seed = match std::env::var("DDZ_CHAOS_SEED").as_deref() {
        Ok("random") => rand::rng().next_u64(),
        Ok(n) => n.parse().expect("DDZ_CHAOS_SEED is a number or random"),
        Err(_) => 42,
    };
    let events = std::env::var("DDZ_CHAOS_EVENTS").map_or(6, |n| n.parse().expect("DDZ_CHAOS_EVENTS is a number"));
    println!("cluster chaos seed {seed} (DDZ_CHAOS_SEED={seed} replays it), {events} faults");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);

    let postgres = Postgres::start("chaos");
    let mut nats = Nats::start();
    let first = Node::spawn("n1", &postgres, &nats).ready().await;
    let (second, third) = (Node::spawn("n2", &postgres, &nats), Node::spawn("n3", &postgres, &nats));
    let mut nodes = vec![first, second.ready().await, third.ready().await];
    let haproxy_log = std::env::temp_dir().join(format!("ddz-chaos-haproxy-{}.log", std::process::id()));
    let haproxy = Haproxy::start([nodes[0].addr, nodes[1].addr, nodes[2].addr], &haproxy_log);
    let lb = haproxy.addr;

    // Rooms made through the balancer (so by every node), half House and half No Shuffle.
    let mut rooms = Vec::new();
    for r in 0..ROOMS {
        let table = if r % 2 == 0 { "house" } else { "noshuffle" };
        let code = invite_room(lb, &format!("Host{r}"), table).await;
        rooms.push(Arc::new(RoomState { code, changed_ms: AtomicU64::new(0), done: AtomicBool::new(false) }));
    }
    let schedule_over = Arc::new(AtomicBool::new(false));
    let epoch = Instant::now();
    let mut players = Vec::new();
    for (r, room) in rooms.iter().enumerate() {
        for (p, name) in [format!("Host{r}"), format!("Bea{r}"), format!("Cy{r}")].into_iter().enumerate() {
            let task = player(epoch, lb, room.clone(), name.clone(), p == 0, schedule_over.clone(), rng.random());
            players.push((r, name, tokio::spawn(task)));
        }
    }
    // The schedule starts once every room is dealing.
    let since = Instant::now();
    for room in &rooms {
        let path = format!("/api/rooms/{}", room.code);
        let dealing = format!("room {} dealing", room.code);
        let wait = Duration::from_secs(30).saturating_sub(since.elapsed());
        poll(&dealing, wait, Duration::from_millis(200), || async {
            (!get(lb, &path).await["deal"].is_null()).then_some(())
        })
        .await;
    }
    let codes: Vec<String> = rooms.iter().map(|r| r.code.clone()).collect();
    let faults = schedule(&mut rng, events);
    let mut moves = run_schedule(faults, &postgres, &mut nats, &mut nodes, &codes).await;
    schedule_over.store(true, Ordering::SeqCst);

    let mut accounts: BTreeMap<(usize, String), Account> = BTreeMap::new();
    for (r, name, task) in players {
        let account = task.await.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
        accounts.insert((r, name), account);
    }
    let stalls: Vec<&String> = accounts.values().filter_map(|a| a.stalled.as_ref()).collect();
    if !stalls.is_empty() {
        for room in &rooms {
            let view = get(lb, &format!("/api/rooms/{}", room.code)).await;
            println!(
                "room {}: {} deals played, deal waiting for {}",
                room.code, view["deals_played"], view["deal"]["waiting_for"]
            );
        }
        panic!("seed {seed}: {stalls:#?}");
    }

    // Every node serves the same records, and each replays and verifies.
    for node in &nodes {
        nodes::get_status_quietly(node.addr, "/readyz").await.expect("every node is up at the end");
    }
    let mut deals_total = 0;
    for (r, room) in rooms.iter().enumerate() {
        let path = format!("/api/rooms/{}/deals", room.code);
        let answers = futures_util::future::join_all(nodes.iter().map(|n| get(n.addr, &path))).await;
        assert!(answers.iter().all(|a| *a == answers[0]), "room {}: every node serves the same records", room.code);
        let records: Vec<DealRecord> = serde_json::from_value(answers[0]["deals"].clone()).expect("deal records");
        assert!(records.len() as u32 >= MIN_DEALS, "room {} finished {} deals", room.code, records.len());
        deals_total += records.len();
        let mut previous: Option<&DealRecord> = None;
        for record in &records {
            record.replay().unwrap_or_else(|e| panic!("room {}: a record does not replay: {e}", room.code));
            record.verify(previous).unwrap_or_else(|e| panic!("room {}: a record does not verify: {e}", room.code));
            previous = Some(record);
        }
        for ((_, name), account) in accounts.range((r, String::new())..(r + 1, String::new())) {
            for (deal, at, action) in &account.acked {
                let stored = &records[*deal as usize - 1].actions;
                assert!(
                    at.iter().any(|&i| stored.get(i) == Some(action)),
                    "room {}: {name}'s acknowledged {action:?} is not where it was sent in deal {deal} ({at:?}); the deal has {} actions: {:?}",
                    room.code,
                    stored.len(),
                    &stored[at[0].saturating_sub(3).min(stored.len())..(at[at.len() - 1] + 3).min(stored.len())]
                );
            }
        }
    }
    let mut sockets = 0;
    for r in 0..ROOMS {
        let room_accounts = accounts.range_mut((r, String::new())..(r + 1, String::new()));
        let room_sockets: Vec<Client> = room_accounts.flat_map(|(_, a)| std::mem::take(&mut a.sockets)).collect();
        sockets += room_sockets.len();
        check_hidden_information(&room_sockets);
    }

    let acked: usize = accounts.values().map(|a| a.acked.len()).sum();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    for account in accounts.values() {
        for (code, n) in &account.errors {
            *errors.entry(code.clone()).or_default() += n;
        }
    }
    moves.sort_by(f64::total_cmp);
    println!(
        "cluster chaos seed {seed}: {deals_total} deals, {acked} acknowledged actions, {} sockets, {} reconnects, {} resent, {} gaps synced",
        sockets,
        accounts.values().map(|a| a.reconnects).sum::<usize>(),
        accounts.values().map(|a| a.resent).sum::<usize>(),
        accounts.values().map(|a| a.gaps).sum::<usize>(),
    );
    println!(
        "rooms moved: {} (p50 {:.2} s, max {:.2} s)",
        moves.len(),
        percentile(&moves, 0.5),
        percentile(&moves, 1.0)
    );
    println!("errors clients were sent, by code: {errors:?}");
    // Routing by room: rooms handed to the node their players were sent to, and the events that still
    // crossed NATS (counted since each node last started).
    let mut handed = 0;
    let mut relayed = 0;
    for node in &nodes {
        handed += nodes::counter(node.addr, "ddz_cluster_rooms_handed_over_total").await;
        relayed += nodes::counter(node.addr, "ddz_cluster_events_relayed_total").await;
    }
    println!("rooms handed to their players' node: {handed}; events relayed over NATS: {relayed}");
    assert_eq!(errors.get("replaced"), None, "no live connection was displaced");
    drop(haproxy);
    let _ = std::fs::remove_file(haproxy_log);
}
