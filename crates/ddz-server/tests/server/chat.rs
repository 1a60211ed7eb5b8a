//! Quick chat over real sockets: a seated player's preset phrase reaches everyone at the table and
//! watching, one every three seconds; spectators and free text are refused.

use crate::common;

use std::time::Duration;

use common::*;
use ddz_server::protocol::{Chat, Command, ErrorCode, Event};

fn said(event: &Event) -> Option<(usize, Chat)> {
    match event {
        Event::Chat { seat, chat } => Some((*seat, *chat)),
        _ => None,
    }
}

#[tokio::test]
async fn a_seated_players_phrase_reaches_everyone_at_the_table_and_watching() {
    let db = temp_db("chat");
    let running = server(&db, FAST).await;
    let (code, mut clients) = three_players(running.addr, "house").await;
    let mut watcher = Client::watch(running.addr, &code).await;
    clients[1].send(&Command::Chat { chat: Chat::GoodLuck }).await;
    for client in clients.iter_mut().chain(std::iter::once(&mut watcher)) {
        let event = client.event_within(Duration::from_secs(5), |e| said(e).is_some()).await;
        assert_eq!(said(&event), Some((1, Chat::GoodLuck)), "{}", client.name);
    }
    // Too soon after the last: refused, and nobody hears it.
    clients[1].send(&Command::Chat { chat: Chat::Laugh }).await;
    assert_eq!(clients[1].next_refusal().await.0, ErrorCode::RateLimited);
    // Another player has their own pace.
    clients[2].send(&Command::Chat { chat: Chat::ThumbsUp }).await;
    let event = clients[0].event_within(Duration::from_secs(5), |e| said(e).is_some()).await;
    assert_eq!(said(&event), Some((2, Chat::ThumbsUp)), "the refused laugh was never sent");
    assert!(running.stop().await);
}

#[tokio::test]
async fn spectators_guests_and_free_text_cannot_chat() {
    let db = temp_db("chat-refused");
    let running = server(&db, FAST).await;
    let (code, _clients) = three_players(running.addr, "house").await;
    let mut watcher = Client::watch(running.addr, &code).await;
    watcher.send(&Command::Chat { chat: Chat::Hello }).await;
    assert_eq!(watcher.next_refusal().await.0, ErrorCode::Spectator);
    let mut guest = Client::join(running.addr, &code, "Guest").await;
    guest.send(&Command::Chat { chat: Chat::Hello }).await;
    assert_eq!(guest.next_refusal().await.0, ErrorCode::NotSeated);
    guest.send_text(r#"{"type":"chat","chat":"buy cheap gold at ..."}"#).await;
    assert_eq!(guest.next_refusal().await.0, ErrorCode::BadMessage);
    assert!(running.stop().await);
}
