//! Deals no one can steer (docs/fair-deals.md, `ddz-fair/2`): after the server commits to a deal, every
//! seated human's client adds a nonce, and the cards are dealt from the server's seed and the nonces
//! together; over real sockets, with the wait for nonces turned on.

use crate::common;

use common::*;
use ddz_engine::{Deal, DealRecord, Seed};
use ddz_server::Timing;
use ddz_server::protocol::{Command, ErrorCode, RoomView};

/// The common test timing with a wait for nonces long enough that only the nonces end it.
const WAITING: Timing = Timing { nonce_ms: 30_000, ..FAST };

fn offered(view: &RoomView) -> bool {
    view.offer.is_some()
}

fn dealt(view: &RoomView) -> bool {
    view.offer.is_none() && view.deal.as_ref().is_some_and(|d| d.result.is_none())
}

/// The finished deal `n`'s record, from the room's records.
async fn record(addr: std::net::SocketAddr, code: &str, n: usize) -> DealRecord {
    let deals = get(addr, &format!("/api/rooms/{code}/deals")).await;
    serde_json::from_value(deals["deals"][n - 1].clone()).expect("a deal record")
}

#[tokio::test]
async fn a_deal_waits_for_every_players_nonce_and_is_dealt_from_the_seed_and_the_nonces() {
    let db = temp_db("nonces-all");
    let running = server(&db, WAITING).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    let mut commitments = Vec::new();
    for client in clients.iter_mut() {
        let view = client.until(offered).await;
        let offer = view.offer.unwrap();
        assert_eq!(offer.awaited, vec![0, 1, 2], "every seated human is asked");
        assert_eq!(offer.received, vec![false; 3]);
        assert!(view.deal.is_none(), "nothing is dealt before the nonces");
        commitments.push(offer.commitment);
    }
    assert!(commitments.iter().all(|c| *c == commitments[0]), "one commitment for everyone");
    let nonces: Vec<Seed> = (0..3).map(|s| Seed::from_u64(9000 + s)).collect();
    for (client, nonce) in clients.iter_mut().zip(&nonces).take(2) {
        client.send(&Command::Nonce { nonce: *nonce }).await;
    }
    // Two of three came: the room still waits, and says whose came.
    let view = clients[2].until(|v| v.offer.as_ref().is_some_and(|o| o.received == [true, true, false])).await;
    assert!(view.deal.is_none());
    clients[2].send(&Command::Nonce { nonce: nonces[2] }).await;
    for client in clients.iter_mut() {
        let view = client.until(dealt).await;
        let fairness = view.deal.unwrap().fairness.expect("a committed deal");
        assert_eq!(fairness.commitment, commitments[0], "the deal is the one committed to");
        assert_eq!(
            fairness.nonces,
            Some(nonces.iter().copied().map(Some).collect()),
            "each player sees theirs went in"
        );
        assert_eq!(fairness.seed, None);
    }
    let hands: Vec<_> = clients.iter().map(|c| c.deal().unwrap().hand.unwrap()).collect();
    play_to_end(&mut clients).await;

    let record = record(running.addr, &code, 1).await;
    let verified = record.verify(None).expect("the record verifies");
    assert_eq!(record.setup.nonces, Some(nonces.iter().copied().map(Some).collect()));
    assert_eq!(verified.dealt, hands, "the hands played are the ones the seed and nonces deal");
    let unmixed = Deal::new(ddz_engine::DealSetup { nonces: None, ..record.setup.clone() });
    assert_ne!((0..3).map(|s| unmixed.hand(s)).collect::<Vec<_>>(), hands, "the nonces changed the deal");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_nonce_that_does_not_come_is_the_servers_once_the_wait_ends() {
    let db = temp_db("nonces-late");
    let running = server(&db, Timing { nonce_ms: 400, ..FAST }).await;
    let (code, mut clients) = three_players(running.addr, "noshuffle").await;
    clients[0].send(&Command::Start).await;
    clients[1].until(offered).await;
    clients[1].send(&Command::Nonce { nonce: Seed::from_u64(5) }).await;
    // Cy never answers: the deal comes at the deadline all the same.
    let view = clients[1].until(dealt).await;
    assert_eq!(view.deal.unwrap().fairness.unwrap().nonces, Some(vec![None, Some(Seed::from_u64(5)), None]));
    for client in clients.iter_mut() {
        client.until(dealt).await;
    }
    play_to_end(&mut clients).await;
    record(running.addr, &code, 1).await.verify(None).expect("a deal with missing nonces verifies");
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_player_who_leaves_is_not_waited_for() {
    let db = temp_db("nonces-leave");
    let running = server(&db, WAITING).await;
    let (_, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    for client in clients.iter_mut() {
        client.until(offered).await;
    }
    let cy = clients.pop().unwrap();
    drop(cy);
    for client in clients.iter_mut() {
        client.send(&Command::Nonce { nonce: Seed::from_u64(7) }).await;
    }
    let view = clients[0].until(dealt).await;
    assert_eq!(view.deal.unwrap().fairness.unwrap().nonces.unwrap()[2], None);
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_nonce_nobody_asked_for_is_refused_and_changes_nothing() {
    let db = temp_db("nonces-refused");
    let running = server(&db, WAITING).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    // No deal offered yet.
    clients[1].send(&Command::Nonce { nonce: Seed::from_u64(1) }).await;
    assert_eq!(clients[1].next_refusal().await.0, ErrorCode::NoNonceWanted);
    clients[0].send(&Command::Start).await;
    clients[1].until(offered).await;
    clients[1].send(&Command::Nonce { nonce: Seed::from_u64(1) }).await;
    clients[1].until(|v| v.offer.as_ref().is_some_and(|o| o.received[1])).await;
    // A second nonce from the same seat would let a player try two deals: refused.
    clients[1].send(&Command::Nonce { nonce: Seed::from_u64(2) }).await;
    assert_eq!(clients[1].next_refusal().await.0, ErrorCode::NoNonceWanted);
    // The host cannot deal again on top of the offer.
    clients[0].send(&Command::Start).await;
    assert_eq!(clients[0].next_refusal().await.0, ErrorCode::Dealing);
    // A nonce that is not 64 hex digits is not a message at all.
    clients[2].send_text(r#"{"type":"nonce","nonce":"abc"}"#).await;
    assert_eq!(clients[2].next_refusal().await.0, ErrorCode::BadMessage);
    // A spectator has no seat to add randomness for.
    let mut watcher = Client::watch(running.addr, &code).await;
    watcher.send(&Command::Nonce { nonce: Seed::from_u64(3) }).await;
    assert_eq!(watcher.next_refusal().await.0, ErrorCode::Spectator);
    clients[0].send(&Command::Nonce { nonce: Seed::from_u64(4) }).await;
    clients[2].send(&Command::Nonce { nonce: Seed::from_u64(6) }).await;
    let view = clients[0].until(dealt).await;
    let nonces = view.deal.unwrap().fairness.unwrap().nonces.unwrap();
    assert_eq!(nonces, vec![Some(Seed::from_u64(4)), Some(Seed::from_u64(1)), Some(Seed::from_u64(6))]);
    assert!(running.stop().await);
}

#[tokio::test]
async fn an_offer_and_its_nonces_survive_a_restart() {
    let db = temp_db("nonces-restart");
    let running = server(&db, WAITING).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    clients[0].send(&Command::Start).await;
    let before = clients[1].until(offered).await.offer.unwrap();
    clients[1].send(&Command::Nonce { nonce: Seed::from_u64(11) }).await;
    clients[1].until(|v| v.offer.as_ref().is_some_and(|o| o.received[1])).await;
    drop(clients);
    assert!(running.stop().await);

    let running = server(&db, WAITING).await;
    let mut again = Vec::new();
    for name in ["Alice", "Bea", "Cy"] {
        again.push(Client::join(running.addr, &code, name).await);
    }
    let after = again[0].until(offered).await.offer.unwrap();
    assert_eq!(after.commitment, before.commitment, "the same committed deal");
    assert_eq!(after.received, vec![false, true, false], "Bea's nonce was kept");
    again[0].send(&Command::Nonce { nonce: Seed::from_u64(10) }).await;
    again[2].send(&Command::Nonce { nonce: Seed::from_u64(12) }).await;
    let view = again[0].until(dealt).await;
    let fairness = view.deal.unwrap().fairness.unwrap();
    assert_eq!(fairness.commitment, before.commitment);
    assert_eq!(fairness.nonces, Some((10..13).map(|n| Some(Seed::from_u64(n))).collect()));
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_bot_table_waits_for_its_player_who_has_not_connected_yet() {
    let db = temp_db("nonces-bots");
    let running = server(&db, WAITING).await;
    let created = post(running.addr, "/api/play-vs-bots", serde_json::json!({"name": "Ann"})).await;
    let code = created["code"].as_str().unwrap().to_string();
    // The room offered its first deal before Ann connected: it waits for her, and never for the bots.
    let mut ann = Client::join(running.addr, &code, "Ann").await;
    let offer = ann.until(offered).await.offer.unwrap();
    let seat = ann.view.as_ref().unwrap().you.unwrap();
    assert_eq!(offer.awaited, vec![seat]);
    ann.send(&Command::Nonce { nonce: Seed::from_u64(3) }).await;
    let view = ann.until(dealt).await;
    let nonces = view.deal.unwrap().fairness.unwrap().nonces.unwrap();
    assert_eq!(nonces.iter().filter(|n| n.is_some()).count(), 1);
    assert_eq!(nonces[seat], Some(Seed::from_u64(3)));
    assert!(running.stop().await);
}

#[tokio::test]
async fn a_rally_deal_is_the_same_for_everyone_so_it_waits_for_no_nonce() {
    let db = temp_db("nonces-rally");
    let running = server_at_noon(&db, WAITING).await;
    let started = post(running.addr, "/api/challenges", serde_json::json!({"name": "Ann", "kind": "rally"})).await;
    let code = started["code"].as_str().unwrap().to_string();
    let ann = Client::join(running.addr, &code, "Ann").await;
    let view = ann.view.clone().unwrap();
    assert!(view.offer.is_none());
    let fairness = view.deal.expect("dealt at once").fairness.unwrap();
    assert_eq!(fairness.nonces, None);
    assert!(running.stop().await);
}
