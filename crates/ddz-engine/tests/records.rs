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

/// Two finished deals of a No Shuffle room, each committed to with a salt, and their records.
fn committed_room(seed: u64) -> (DealRecord, DealRecord) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let names: Vec<String> = ["Ann", "Bob", "Cy"].map(String::from).to_vec();
    let mut ledger = Ledger::new(Rules::no_shuffle(true));
    let mut records = Vec::new();
    for n in 0..2 {
        let setup = ledger.next_setup(Seed::from_u64(seed + n)).salted(Seed::from_u64(1000 + seed + n));
        let mut deal = Deal::new(setup);
        finish_randomly(&mut deal, &mut rng);
        ledger.record(&deal, &names);
        records.push(DealRecord::of(&deal, names.clone()));
    }
    let second = records.pop().unwrap();
    (records.pop().unwrap(), second)
}

#[test]
fn a_committed_deal_verifies_and_its_commitment_is_sha256_of_seed_and_salt() {
    let (first, second) = committed_room(7);
    let commitment = first.commitment.clone().expect("a salted deal's record carries its commitment");
    // The documented scheme, spelled out: SHA-256 of the text "ddz-fair/1:<seed>:<salt>".
    let text = format!("ddz-fair/1:{}:{}", first.setup.seed, first.setup.salt.unwrap());
    let digest: String =
        <sha2::Sha256 as sha2::Digest>::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(commitment, digest);
    let verified = first.verify(None).expect("the first deal verifies");
    let start = Deal::new(first.setup.clone());
    assert_eq!(verified.dealt, (0..3).map(|s| start.hand(s)).collect::<Vec<_>>(), "the seed's hands");
    assert_eq!(verified.dealt.iter().map(|h| h.len()).sum::<usize>() + verified.bottom.len(), 54);
    second.verify(Some(&first)).expect("the re-deal's pack is the first deal's collected cards");
}

#[test]
fn a_changed_seed_salt_commitment_or_pack_does_not_verify() {
    let (first, second) = committed_room(8);
    let mut wrong_salt = first.clone();
    wrong_salt.setup.salt = Some(Seed::from_u64(1));
    // The state hash covers the salt too, so the replay itself already refuses it.
    assert!(wrong_salt.verify(None).is_err());
    let mut wrong_commitment = first.clone();
    wrong_commitment.commitment = Some("00".repeat(32));
    assert!(matches!(wrong_commitment.verify(None), Err(RecordError::Commitment { .. })));
    let mut no_commitment = first.clone();
    no_commitment.commitment = None;
    assert_eq!(no_commitment.verify(None).unwrap_err(), RecordError::NoCommitment);
    let (other_first, _) = committed_room(9);
    assert_eq!(
        second.verify(Some(&other_first)).unwrap_err(),
        RecordError::Pack,
        "another room's deal did not collect this pack"
    );
}
