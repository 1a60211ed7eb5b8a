//! Deal records (docs/deal-record.md): a record replays to its result and state hash, and the hash covers
//! everything the deal was dealt from, the No Shuffle pack's order included.

use ddz_engine::record::RecordError;
use ddz_engine::{Deal, DealRecord, DealSetup, Ledger, Rules, Seed, Start};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn finish_randomly(deal: &mut Deal, rng: &mut ChaCha8Rng) {
    while deal.result().is_none() {
        let choices = deal.choices();
        deal.apply(&choices[rng.random_range(0..choices.len())]).unwrap();
    }
}

/// A finished No Shuffle re-deal (the second deal of a room) and its record.
fn redeal_record(seed: u64) -> (Deal, DealRecord) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let names: Vec<String> = ["Ann", "Bob", "Cy"].map(String::from).to_vec();
    let mut ledger = Ledger::new(Rules::no_shuffle(false));
    let mut first = Deal::new(ledger.next_setup(Seed::from_u64(seed)));
    finish_randomly(&mut first, &mut rng);
    ledger.record(&first, &names);
    let mut deal = Deal::new(ledger.next_setup(Seed::from_u64(seed + 1)));
    finish_randomly(&mut deal, &mut rng);
    let record = DealRecord::of(&deal, names);
    (deal, record)
}

#[test]
fn a_record_of_a_redeal_replays_and_says_how_it_was_dealt() {
    let (deal, record) = redeal_record(1);
    assert_eq!(record.format, "ddz-deal/2");
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["dealing"], "packets");
    assert_eq!(json["pack"].as_array().unwrap().len(), 54);
    let parsed: DealRecord = serde_json::from_value(json).unwrap();
    assert_eq!(parsed.replay().unwrap(), deal);
}

/// Swapping two cards of the pack that both end in the bottom deals the same hands and bottom, so only a
/// hash over the setup tells the records apart.
#[test]
fn the_state_hash_covers_the_pack_order() {
    let (deal, record) = redeal_record(2);
    let pack = record.setup.pack.clone().unwrap();
    let bottom: Vec<usize> = (0..pack.len()).filter(|&i| deal.bottom().contains(pack[i])).collect();
    let mut swapped = record.clone();
    swapped.setup.pack.as_mut().unwrap().swap(bottom[0], bottom[1]);
    // The swap changes nothing that was dealt...
    let (dealt, redealt) = (Deal::new(record.setup.clone()), Deal::new(swapped.setup.clone()));
    assert_eq!(redealt.bottom(), dealt.bottom());
    let hands = |d: &Deal| (0..3).map(|s| d.hand(s)).collect::<Vec<_>>();
    assert_eq!(hands(&redealt), hands(&dealt));
    // ...but the record no longer matches its hash.
    assert!(matches!(swapped.replay(), Err(RecordError::Hash { .. })), "{:?}", swapped.replay().map(|_| ()));
}

#[test]
fn the_state_hash_covers_the_seed_and_the_start() {
    let (_, record) = redeal_record(3);
    let mut other = record.clone();
    other.setup.start = match record.setup.start {
        Start::Seat(s) => Start::Seat((s + 1) % 3),
        _ => Start::Seat(0),
    };
    assert!(other.replay().is_err());
    let shuffled = Deal::new(DealSetup::shuffled(Rules::house(true), Seed::from_u64(9), Start::Seat(0)));
    let same_cards = Deal::new(DealSetup { start: Start::Seat(0), ..shuffled.setup().clone() });
    assert_eq!(shuffled.state_hash(), same_cards.state_hash());
    let other_seed = Deal::new(DealSetup::shuffled(Rules::house(true), Seed::from_u64(10), Start::Seat(0)));
    assert_ne!(shuffled.state_hash(), other_seed.state_hash());
}

/// Records of the first format (written before packets) still replay: their re-deals were dealt a card
/// at a time in turn order, and their hash leaves out the setup.
#[test]
fn first_format_records_still_replay() {
    let json = include_str!("data/record-v1-redeal.json");
    let record: DealRecord = serde_json::from_str(json).unwrap();
    assert_eq!(record.format, "ddz-deal/1");
    assert_eq!(record.setup.dealing, ddz_engine::Dealing::InTurn);
    let deal = record.replay().unwrap_or_else(|e| panic!("{e}"));
    assert!(deal.result().is_some());
}
