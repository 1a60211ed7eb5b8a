//! Same seeds, same decisions; the protocol's messages round-trip.

use ddz_bot::arena::play_game;
use ddz_bot::protocol::{Request, Response};
use ddz_bot::{Bot, BotKind, Player};
use ddz_engine::{Deal, DealSetup, Rules, Seed, Start};

fn game(kind: BotKind, seed: u64) -> (bool, i64, u32) {
    let mut landlord = Bot::new(kind, seed);
    let mut farmers: Vec<Box<dyn Player>> =
        (1..3).map(|s| Box::new(Bot::new(kind, seed + s)) as Box<dyn Player>).collect();
    let g = play_game(Rules::house(true), false, seed, &mut landlord, &mut farmers).unwrap();
    (g.landlord_won, g.landlord_score, g.bombs)
}

#[test]
fn same_seed_same_decisions_for_every_kind() {
    for kind in BotKind::ALL {
        for seed in 0..4 {
            assert_eq!(game(kind, seed), game(kind, seed), "{kind} seed {seed}");
        }
    }
}

#[test]
fn a_bot_decides_the_same_twice_from_the_same_seed() {
    let deal = Deal::new(DealSetup::shuffled(Rules::no_shuffle(true), Seed::from_u64(9), Start::Seat(1)));
    let view = deal.view(Some(1));
    let choices = deal.choices();
    for kind in BotKind::ALL {
        let a = Bot::new(kind, 5).decide(&view, &choices);
        let b = Bot::new(kind, 5).decide(&view, &choices);
        assert_eq!(a, b, "{kind}");
    }
}

#[test]
fn protocol_messages_round_trip() {
    let mut deal = Deal::new(DealSetup::shuffled(Rules::house(true), Seed::from_u64(3), Start::Seat(0)));
    deal.apply(&ddz_engine::Action::Take { seat: 0 }).unwrap();
    let request = Request { id: 12, view: deal.view(Some(2)), choices: deal.choices() };
    let text = serde_json::to_string(&request).unwrap();
    assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), request);
    let response = Response { id: 12, choice: 1 };
    assert_eq!(serde_json::from_str::<Response>(&serde_json::to_string(&response).unwrap()).unwrap(), response);
}
