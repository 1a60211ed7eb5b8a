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

/// A deal with the players' nonces (`ddz-fair/2`): a salted setup whose seats sent nonces.
fn deal_with_nonces(seed: u64, nonces: Vec<Option<Seed>>) -> (Deal, DealRecord) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup = DealSetup::shuffled(Rules::house(true), Seed::from_u64(seed), Start::Seat(0))
        .salted(Seed::from_u64(seed + 100))
        .with_nonces(nonces);
    let mut deal = Deal::new(setup);
    finish_randomly(&mut deal, &mut rng);
    let record = DealRecord::of(&deal, ["Ann", "Bob", "Cy"].map(String::from).to_vec());
    (deal, record)
}

#[test]
fn the_cards_are_dealt_from_sha256_of_the_seed_and_every_nonce() {
    let nonces = vec![Some(Seed::from_u64(1)), None, Some(Seed::from_u64(3))];
    let (_, record) = deal_with_nonces(20, nonces.clone());
    // The documented derivation, spelled out: SHA-256 of "ddz-deal/2:<seed>:<nonce 0>:-:<nonce 2>".
    let text = format!("ddz-deal/2:{}:{}:-:{}", record.setup.seed, Seed::from_u64(1), Seed::from_u64(3));
    let digest: [u8; 32] = <sha2::Sha256 as sha2::Digest>::digest(text.as_bytes()).into();
    assert_eq!(record.setup.dealing_seed(), Seed(digest));
    let from_digest = Deal::new(DealSetup::shuffled(Rules::house(true), Seed(digest), Start::Seat(0)));
    let verified = record.verify(None).expect("a deal with nonces verifies");
    assert_eq!(verified.dealt, (0..3).map(|s| from_digest.hand(s)).collect::<Vec<_>>());
    // The committed seed alone would have dealt other cards.
    let unmixed = Deal::new(DealSetup::shuffled(Rules::house(true), record.setup.seed, Start::Seat(0)));
    assert_ne!(verified.dealt, (0..3).map(|s| unmixed.hand(s)).collect::<Vec<_>>());
}

#[test]
fn a_record_whose_nonces_were_changed_or_dropped_does_not_verify() {
    let (_, record) = deal_with_nonces(21, vec![Some(Seed::from_u64(5)), Some(Seed::from_u64(6)), None]);
    let mut changed = record.clone();
    changed.setup.nonces.as_mut().unwrap()[1] = Some(Seed::from_u64(7));
    assert!(changed.verify(None).is_err(), "another nonce deals other cards");
    let mut dropped = record.clone();
    dropped.setup.nonces.as_mut().unwrap()[0] = None;
    assert!(dropped.verify(None).is_err(), "a nonce left out deals other cards");
    let mut none = record.clone();
    none.setup.nonces = None;
    assert!(none.verify(None).is_err());
}

#[test]
fn nonces_for_another_number_of_seats_are_refused() {
    let setup =
        DealSetup::shuffled(Rules::house(true), Seed::from_u64(1), Start::Seat(0)).with_nonces(vec![None, None]);
    assert_eq!(Deal::try_new(setup).unwrap_err(), ddz_engine::DealError::BadNonces { given: 2, players: 3 });
}

#[test]
fn a_record_with_nonces_carries_them_and_reads_back() {
    let (deal, record) = deal_with_nonces(22, vec![None, Some(Seed::from_u64(9)), None]);
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(json["nonces"], serde_json::json!([null, Seed::from_u64(9).to_string(), null]));
    let parsed: DealRecord = serde_json::from_value(json).unwrap();
    assert_eq!(parsed.replay().unwrap(), deal);
    // Records without nonces are written as before: no field.
    let (_, plain) = committed_room(10);
    assert!(serde_json::to_value(&plain).unwrap().get("nonces").is_none());
}
