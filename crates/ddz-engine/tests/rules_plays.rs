//! RULES.md sections 1 (cards), 3 (plays) and 4 (comparing), one test per rule and per edge case.
//!
//! Card sets are written in the rank shorthand (`"333W"`: one character per card, `T` for ten, `B` and
//! `R` for the jokers, `W` for the House Wild). Under the Wild Rank option the wild cards are written
//! as their own rank (`"3337"` with sevens wild).

use ddz_engine::{
    Attach, Card, CardError, CardSet, Counts, Kind, Play, PlayError, Rank, Rules, Strength, legal_plays_vec, readings,
};

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

const HOUSE: Rules = Rules::house(true);
const HOUSE_NOWILD: Rules = Rules::house(false);
const NS: Rules = Rules::no_shuffle(false);
const TP: Rules = Rules::two_player(false);

/// No Shuffle with the Wild Rank option and `wild` drawn.
fn ns_wild(wild: char) -> Rules {
    Rules::no_shuffle(true).with_wild_rank(rank(wild))
}

/// Two Player with the Wild Rank option and `wild` drawn.
fn tp_wild(wild: char) -> Rules {
    Rules::two_player(true).with_wild_rank(rank(wild))
}

fn rank(c: char) -> Rank {
    c.to_string().parse().unwrap_or_else(|e| panic!("bad rank {c}: {e}"))
}

fn counts(s: &str) -> Counts {
    s.parse().unwrap_or_else(|e| panic!("bad shorthand {s:?}: {e}"))
}

/// Every reading of `cards`; panics (with the engine's reason) if there is none.
fn reads(rules: &Rules, cards: &str) -> Vec<Play> {
    readings(rules, counts(cards)).unwrap_or_else(|e| panic!("{cards} should be a play at {rules}, engine says: {e}"))
}

/// Why `cards` is not a play; panics if it is one.
fn not_a_play(rules: &Rules, cards: &str) -> PlayError {
    match readings(rules, counts(cards)) {
        Ok(plays) => panic!("{cards} should not be a play at {rules}, engine reads it as: {}", describe(&plays)),
        Err(e) => e,
    }
}

fn is_play(rules: &Rules, cards: &str) -> bool {
    readings(rules, counts(cards)).is_ok()
}

/// The one reading of `cards`; panics if there are none or several.
fn only(rules: &Rules, cards: &str) -> Play {
    let plays = reads(rules, cards);
    assert_eq!(plays.len(), 1, "{cards} at {rules} should have one reading, has: {}", describe(&plays));
    plays[0]
}

/// The reading of `cards` of this kind and main rank (the first, if several differ only in what
/// attachments stand for).
fn reading(rules: &Rules, cards: &str, kind: Kind, main: char) -> Play {
    let plays = reads(rules, cards);
    *plays
        .iter()
        .find(|p| p.shape.kind == kind && p.main == rank(main))
        .unwrap_or_else(|| panic!("{cards} at {rules} has no {kind:?} reading with main {main}: {}", describe(&plays)))
}

fn describe(plays: &[Play]) -> String {
    plays.iter().map(|p| format!("[{p}]")).collect::<Vec<_>>().join(" ")
}

/// (kind, len, attach, main) of each reading, sorted.
fn shapes(plays: &[Play]) -> Vec<(Kind, u8, Attach, Rank)> {
    let mut v: Vec<_> = plays.iter().map(|p| (p.shape.kind, p.shape.len, p.shape.attach, p.main)).collect();
    v.sort();
    v.dedup();
    v
}

fn legal(rules: &Rules, hand: &str, prior: Option<&Play>) -> Vec<Play> {
    legal_plays_vec(rules, counts(hand), prior)
}

/// The distinct card sets (shorthand) among `plays`.
fn card_sets(plays: &[Play]) -> Vec<String> {
    let mut v: Vec<String> = plays.iter().map(|p| p.cards.to_string()).collect();
    v.sort();
    v.dedup();
    v
}

/// Whether the one reading of `a` beats the one reading of `b`.
fn beats(rules: &Rules, a: &str, b: &str) -> bool {
    only(rules, a).beats(&only(rules, b))
}

// ---------------------------------------------------------------------------------------------------
// Section 1: cards
// ---------------------------------------------------------------------------------------------------

#[test]
fn ranks_run_three_to_two_then_black_then_red_joker() {
    let text: String = Rank::ALL.iter().map(|r| r.char()).collect();
    assert_eq!(text, "3456789TJQKA2BR");
    assert!(Rank::ALL.windows(2).all(|w| w[0] < w[1]));
    assert!(Rank::TWO > Rank::ACE && Rank::BLACK_JOKER > Rank::TWO);
    assert!(Rank::RED_JOKER > Rank::BLACK_JOKER);
    // And as plays: each single beats the one below it and not the one above.
    let order = "3456789TJQKA2BR";
    for (lo, hi) in order.chars().zip(order.chars().skip(1)) {
        let low = only(&NS, &lo.to_string());
        let high = only(&NS, &hi.to_string());
        assert!(high.beats(&low), "single {hi} should beat single {lo}");
        assert!(!low.beats(&high), "single {lo} should not beat single {hi}");
    }
}

#[test]
fn suits_never_matter_for_comparing() {
    let a: CardSet = "3S 4H 5D 6C 7S".parse().unwrap();
    let b: CardSet = "3C 4D 5H 6S 7H".parse().unwrap();
    assert_ne!(a, b);
    assert_eq!(a.counts(), b.counts());
    assert_eq!(readings(&NS, a.counts()), readings(&NS, b.counts()));
    let three_spades = readings(&NS, "3S".parse::<CardSet>().unwrap().counts()).unwrap()[0];
    let three_hearts = readings(&NS, "3H".parse::<CardSet>().unwrap().counts()).unwrap()[0];
    assert_eq!(three_spades, three_hearts);
    assert!(!three_spades.beats(&three_hearts));
}

#[test]
fn house_deck_with_the_wild_has_55_cards() {
    let deck = HOUSE.deck();
    assert_eq!(deck.len(), 55);
    assert!(deck.contains(Card::WILD));
    assert!(CardSet::STANDARD_DECK.is_subset(deck));
    assert_eq!(deck.counts().to_string().matches('W').count(), 1);
}

#[test]
fn house_without_the_wild_and_no_shuffle_decks_have_54_cards() {
    for rules in [HOUSE_NOWILD, NS, Rules::no_shuffle(true), ns_wild('7')] {
        let deck = rules.deck();
        assert_eq!(deck.len(), 54, "{rules}");
        assert_eq!(deck, CardSet::STANDARD_DECK, "{rules}");
        assert!(!deck.contains(Card::WILD), "{rules}");
    }
}

#[test]
fn two_player_deck_has_46_cards_without_threes_and_fours() {
    for rules in [TP, Rules::two_player(true), tp_wild('9')] {
        let deck = rules.deck();
        assert_eq!(deck.len(), 46, "{rules}");
        assert!(deck.of_rank(Rank::THREE).is_empty(), "{rules}");
        assert!(deck.of_rank(Rank::FOUR).is_empty(), "{rules}");
        assert_eq!(deck.of_rank(Rank::FIVE).len(), 4, "{rules}");
        assert!(deck.contains(Card::BLACK_JOKER) && deck.contains(Card::RED_JOKER));
        assert!(!deck.contains(Card::WILD), "{rules}");
    }
}

#[test]
fn wild_rank_is_drawn_from_three_to_two_or_five_to_two_in_two_player() {
    let ns: String = Rules::no_shuffle(true).wild_rank_choices().map(|r| r.char()).collect();
    assert_eq!(ns, "3456789TJQKA2");
    let tp: String = Rules::two_player(true).wild_rank_choices().map(|r| r.char()).collect();
    assert_eq!(tp, "56789TJQKA2");
    assert_eq!(ns_wild('7').wild_rank(), Some(Rank::SEVEN));
    assert_eq!(Rules::no_shuffle(true).wild_rank(), None, "not drawn yet");
    // Tables without the option have no wild rank, whatever is asked.
    assert_eq!(NS.with_wild_rank(Rank::SEVEN).wild_rank(), None);
    assert_eq!(HOUSE.with_wild_rank(Rank::SEVEN), HOUSE);
}

#[test]
fn card_text_round_trips() {
    assert_eq!("TH".parse::<Card>().unwrap(), Card::suited(Rank::TEN, 1));
    assert_eq!(Card::suited(Rank::TEN, 1).to_string(), "TH");
    assert_eq!("BJ".parse::<Card>().unwrap(), Card::BLACK_JOKER);
    assert_eq!("RJ".parse::<Card>().unwrap(), Card::RED_JOKER);
    assert_eq!("W".parse::<Card>().unwrap(), Card::WILD);
    assert_eq!(Card::BLACK_JOKER.to_string(), "BJ");
    assert_eq!(Card::RED_JOKER.to_string(), "RJ");
    assert_eq!(Card::WILD.to_string(), "W");
    let mut seen = std::collections::HashSet::new();
    for card in HOUSE.deck().iter() {
        let text = card.to_string();
        assert_eq!(text.parse::<Card>().unwrap(), card, "{text}");
        assert!(seen.insert(text), "two cards share a text");
    }
    assert_eq!(seen.len(), 55);
}

#[test]
fn card_set_text_round_trips() {
    let set: CardSet = "3S 3H TH BJ W".parse().unwrap();
    assert_eq!(set.len(), 5);
    assert_eq!(set.to_string(), "3S 3H TH BJ W");
    assert_eq!(set.to_string().parse::<CardSet>().unwrap(), set);
    assert_eq!(set.counts().to_string(), "33TBW");
    let deck = HOUSE.deck();
    assert_eq!(deck.to_string().parse::<CardSet>().unwrap(), deck);
}

#[test]
fn rank_shorthand_round_trips() {
    let c = counts("33344BRW");
    assert_eq!(c.of(Rank::THREE), 3);
    assert_eq!(c.of(Rank::FOUR), 2);
    assert_eq!(c.of(Rank::BLACK_JOKER), 1);
    assert_eq!(c.of(Rank::RED_JOKER), 1);
    assert_eq!(c.wild(), 1);
    assert_eq!(c.total(), 8);
    assert_eq!(c.to_string(), "33344BRW");
    // T is ten; order, spaces and dashes do not matter; the text is written low to high.
    assert_eq!(counts("TTT").of(Rank::TEN), 3);
    assert_eq!(counts("W-B 4 3-3").to_string(), "334BW");
    assert_eq!(counts("2A3").to_string(), "3A2");
    assert_eq!(counts("3456789TJQKA2BRW").total(), 16);
    // Every card's rank shorthand is its rank character (B, R, W for the jokers and the Wild).
    for card in HOUSE.deck().iter() {
        let one = CardSet::from_cards([card]).unwrap().counts();
        let expected = match card.rank() {
            Some(r) => r.char().to_string(),
            None => "W".to_string(),
        };
        assert_eq!(one.to_string(), expected, "{card}");
        assert_eq!(one.to_string().parse::<Counts>().unwrap(), one);
    }
}

#[test]
fn unknown_card_text_is_a_clear_error() {
    for bad in ["1H", "TX", "", "BS", "XJ", "3", "3SS", "WW"] {
        let err = bad.parse::<Card>().unwrap_err();
        assert_eq!(err, CardError::UnknownCard(bad.into()), "{bad:?}");
        let message = err.to_string();
        assert!(message.contains(&format!("{bad:?}")), "{message}");
        assert!(message.contains("3456789TJQKA2"), "{message}");
    }
    assert_eq!("3S 3X".parse::<CardSet>().unwrap_err(), CardError::UnknownCard("3X".into()));
}

#[test]
fn unknown_rank_shorthand_is_a_clear_error() {
    let err = "33X".parse::<Counts>().unwrap_err();
    assert_eq!(err, CardError::UnknownShorthand('X'));
    assert!(err.to_string().contains("'X'"), "{err}");
    assert_eq!("1".parse::<Counts>().unwrap_err(), CardError::UnknownShorthand('1'));
    // More cards of a kind than a deck has, named for what there is too much of.
    for (bad, message) in [
        ("33333", "\"33333\" has more cards of one rank than a deck has (4)"),
        ("BB", "\"BB\" has more Black Jokers than a deck has (1)"),
        ("RR", "\"RR\" has more Red Jokers than a deck has (1)"),
        ("3WW", "\"3WW\" has more Wilds than a deck has (1)"),
    ] {
        let err = bad.parse::<Counts>().unwrap_err();
        assert!(matches!(err, CardError::TooMany { .. }), "{bad}: {err:?}");
        assert_eq!(err.to_string(), message);
    }
    assert_eq!("1".parse::<Rank>().unwrap_err(), CardError::UnknownRank("1".into()));
}

#[test]
fn duplicate_cards_are_a_clear_error() {
    let err = "3S 4H 3S".parse::<CardSet>().unwrap_err();
    let three_spades: Card = "3S".parse().unwrap();
    assert_eq!(err, CardError::Duplicate(three_spades));
    assert_eq!(err.to_string(), "the card 3S appears twice");
    assert_eq!("W BJ W".parse::<CardSet>().unwrap_err(), CardError::Duplicate(Card::WILD));
    assert_eq!(
        CardSet::from_cards([Card::RED_JOKER, Card::RED_JOKER]).unwrap_err(),
        CardError::Duplicate(Card::RED_JOKER)
    );
}

#[test]
fn cards_not_in_hand_are_a_clear_error() {
    let hand: CardSet = "3S 3H 4D BJ".parse().unwrap();
    for (ask, missing_rank) in [
        ("5", Some(Rank::FIVE)),
        ("333", Some(Rank::THREE)),
        ("44", Some(Rank::FOUR)),
        ("R", Some(Rank::RED_JOKER)),
        ("W", None),
    ] {
        let err = hand.pick(counts(ask)).unwrap_err();
        let CardError::NotInHand(card) = err else {
            panic!("picking {ask} from {hand}: expected NotInHand, got {err:?}");
        };
        assert_eq!(card.rank(), missing_rank, "picking {ask} from {hand}");
        assert_eq!(err.to_string(), format!("the card {card} is not in the hand"));
    }
}

#[test]
fn cards_not_in_hand_error_names_a_card_that_is_missing() {
    let hand: CardSet = "3S 3H 4D BJ".parse().unwrap();
    let err = hand.pick(counts("333")).unwrap_err();
    let CardError::NotInHand(card) = err else {
        panic!("expected NotInHand, got {err:?}");
    };
    assert!(!hand.contains(card), "{err}");
}

#[test]
fn pick_takes_the_asked_cards_lowest_suits_first() {
    let hand: CardSet = "3H 3C 3S 4D W RJ".parse().unwrap();
    let picked = hand.pick(counts("33W")).unwrap();
    assert_eq!(picked, "3S 3H W".parse().unwrap());
    assert!(picked.is_subset(hand));
    assert_eq!(picked.counts(), counts("33W"));
    assert_eq!(hand.pick(Counts::EMPTY).unwrap(), CardSet::EMPTY);
    assert_eq!(hand.pick(hand.counts()).unwrap(), hand);
}

#[test]
fn cards_outside_the_tables_deck_are_not_plays() {
    assert_eq!(readings(&NS, Counts::EMPTY), Err(PlayError::Empty));
    let no_wild = not_a_play(&NS, "333W");
    assert!(matches!(no_wild, PlayError::NotInDeck(_)), "{no_wild:?}");
    assert!(no_wild.to_string().contains("no Wild"), "{no_wild}");
    assert!(matches!(not_a_play(&HOUSE_NOWILD, "W3"), PlayError::NotInDeck(_)));
    assert!(matches!(not_a_play(&ns_wild('7'), "W"), PlayError::NotInDeck(_)));
    let no_threes = not_a_play(&TP, "34567");
    assert!(matches!(no_threes, PlayError::NotInDeck(_)), "{no_threes:?}");
    assert!(no_threes.to_string().contains("no 3s"), "{no_threes}");
    assert!(matches!(not_a_play(&tp_wild('9'), "44"), PlayError::NotInDeck(_)));
    // Impossible counts built by hand are refused, not a panic.
    let five_threes = Counts::EMPTY.plus(0, 5);
    assert!(matches!(readings(&HOUSE, five_threes), Err(PlayError::NotInDeck(_))));
    let two_black_jokers = Counts::EMPTY.plus(13, 2);
    assert!(matches!(readings(&NS, two_black_jokers), Err(PlayError::NotInDeck(_))));
}

#[test]
fn readings_never_panic_on_any_cards() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let tables = [HOUSE, HOUSE_NOWILD, NS, ns_wild('7'), TP, tp_wild('2')];
    for _ in 0..3000 {
        // Any nibble values at all, mostly small so that many are real card sets.
        let mut c = Counts::EMPTY;
        for slot in 0..16 {
            let n: u8 = match rng.random_range(0..10) {
                0..=5 => 0,
                6 | 7 => 1,
                8 => rng.random_range(2..5),
                _ => rng.random_range(0..16),
            };
            c = c.with(slot, n);
        }
        for rules in &tables {
            if let Ok(plays) = readings(rules, c) {
                assert!(plays.iter().all(|p| p.cards == c));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Section 3.1: House plays and the Wild
// ---------------------------------------------------------------------------------------------------

#[test]
fn the_wild_cannot_be_played_alone() {
    assert_eq!(readings(&HOUSE, counts("W")), Err(PlayError::WildAlone));
    assert_eq!(PlayError::WildAlone.to_string(), "the Wild cannot be played alone");
    // Not as a lead, not as a follow.
    let lead = legal(&HOUSE, "3W", None);
    assert!(lead.iter().all(|p| p.cards != counts("W")), "{}", describe(&lead));
    let three = only(&HOUSE, "3");
    assert!(legal(&HOUSE, "W", Some(&three)).is_empty());
}

#[test]
fn a_hand_of_only_the_wild_has_no_legal_play() {
    // RULES.md 2.5: such a player cannot lead.
    assert!(legal(&HOUSE, "W", None).is_empty());
}

#[test]
fn the_wild_is_never_a_single() {
    // Single: any card but the Wild; the Wild does not stand in for a lone card either.
    let four = only(&HOUSE, "4");
    let follows = legal(&HOUSE, "5W", Some(&four));
    assert_eq!(card_sets(&follows), ["5"]);
    let two = only(&HOUSE, "2");
    assert!(legal(&HOUSE, "W", Some(&two)).is_empty());
    let lead_singles: Vec<_> =
        legal(&HOUSE, "5BW", None).into_iter().filter(|p| p.shape.kind == Kind::Single).collect();
    assert_eq!(card_sets(&lead_singles), ["5", "B"]);
}

#[test]
fn wild_with_one_joker_is_a_rocket() {
    for cards in ["BW", "RW"] {
        let rocket = only(&HOUSE, cards);
        assert_eq!(rocket.shape.kind, Kind::Rocket, "{cards}");
        assert!(rocket.beats(&only(&HOUSE, "2222")));
        assert!(rocket.beats(&only(&HOUSE, "R")));
    }
    // Never a pair of jokers.
    assert!(reads(&HOUSE, "BW").iter().all(|p| p.shape.kind != Kind::Pair));
}

#[test]
fn wild_with_both_jokers_is_no_play() {
    assert_eq!(readings(&HOUSE, counts("BRW")), Err(PlayError::WildWithBothJokers));
    // From that hand: the two singles and three rockets, nothing of three cards.
    let lead = legal(&HOUSE, "BRW", None);
    assert_eq!(card_sets(&lead), ["B", "BR", "BW", "R", "RW"]);
    assert!(lead.iter().all(|p| p.len() <= 2));
}

#[test]
fn wild_as_a_triples_single_is_itself() {
    let triple = reading(&HOUSE, "333W", Kind::Triples, '3');
    assert_eq!(triple.shape.attach, Attach::Singles(1));
    assert!(triple.wild_as.is_empty(), "{triple}");
    // Not also read as a single 4, 5, ... standing in: only one triple + single reading.
    let singles = reads(&HOUSE, "333W").into_iter().filter(|p| p.shape.kind == Kind::Triples).count();
    assert_eq!(singles, 1);
    let run = only(&HOUSE, "3334445W");
    assert_eq!(run.shape.attach, Attach::Singles(2));
    assert!(run.wild_as.is_empty(), "{run}");
}

#[test]
fn wild_completes_a_pair_or_a_triple() {
    let pair = only(&HOUSE, "5W");
    assert_eq!((pair.shape.kind, pair.main), (Kind::Pair, Rank::FIVE));
    assert_eq!(pair.wild_as, counts("5"));
    let two_pair = only(&HOUSE, "2W");
    assert_eq!((two_pair.shape.kind, two_pair.main), (Kind::Pair, Rank::TWO));
    let triple = only(&HOUSE, "KKW");
    assert_eq!((triple.shape.kind, triple.main), (Kind::Triples, Rank::KING));
    assert_eq!(triple.shape.attach, Attach::None);
    assert_eq!(triple.wild_as, counts("K"));
    // It stands in for one card only.
    assert!(!is_play(&HOUSE, "KW5"));
}

#[test]
fn wild_fills_a_gap_in_a_straight_or_run() {
    let straight = only(&HOUSE, "345W7");
    assert_eq!((straight.shape.kind, straight.main), (Kind::Straight, Rank::SEVEN));
    assert_eq!(straight.wild_as, counts("6"));
    let pair_run = only(&HOUSE, "33445W");
    assert_eq!((pair_run.shape.kind, pair_run.shape.len), (Kind::PairRun, 3));
    assert_eq!(pair_run.wild_as, counts("5"));
    let triple_run = only(&HOUSE, "33344W");
    assert_eq!(
        (triple_run.shape.kind, triple_run.shape.len, triple_run.shape.attach),
        (Kind::Triples, 2, Attach::None)
    );
    assert_eq!(triple_run.wild_as, counts("4"));
    // The full 3..2 straight, its 2 supplied by the Wild.
    let long = only(&HOUSE, "3456789TJQKAW");
    assert_eq!((long.shape.len, long.main), (13, Rank::TWO));
}

#[test]
fn wild_is_half_of_an_attached_pair() {
    let triple_pair = only(&HOUSE, "3335W");
    assert_eq!(triple_pair.shape.attach, Attach::Pairs(1));
    assert_eq!(triple_pair.wild_as, counts("5"));
    let run_pairs = reading(&HOUSE, "333444556W", Kind::Triples, '4');
    assert_eq!(run_pairs.shape.attach, Attach::Pairs(2));
    assert_eq!(run_pairs.wild_as, counts("6"));
}

#[test]
fn wild_is_the_fourth_card_of_a_bomb() {
    let bomb = reading(&HOUSE, "333W", Kind::Bomb, '3');
    assert_eq!(bomb.wild_as, counts("3"));
    assert!(bomb.beats(&only(&HOUSE, "2")));
    assert!(bomb.beats(&only(&HOUSE, "3456789TJQKA2")));
}

#[test]
fn wild_never_makes_five_of_a_kind() {
    assert!(matches!(not_a_play(&HOUSE, "3333W"), PlayError::NoReading(_)));
    assert!(!is_play(&HOUSE, "2222W"));
    // From 3333W the biggest plays are four-card bombs.
    let lead = legal(&HOUSE, "3333W", None);
    assert!(lead.iter().all(|p| p.len() <= 4), "{}", describe(&lead));
    let bombs: Vec<_> = lead.iter().filter(|p| p.shape.kind == Kind::Bomb).copied().collect();
    assert_eq!(card_sets(&bombs), ["3333", "333W"]);
}

#[test]
fn house_bombs_with_the_wild_compare_by_rank_only() {
    let soft_threes = reading(&HOUSE, "333W", Kind::Bomb, '3');
    let threes = only(&HOUSE, "3333");
    let soft_fours = reading(&HOUSE, "444W", Kind::Bomb, '4');
    assert_eq!(soft_threes.strength, Strength::Natural);
    assert!(!threes.beats(&soft_threes));
    assert!(!soft_threes.beats(&threes));
    assert!(soft_fours.beats(&threes));
    assert!(!threes.beats(&soft_fours));
}

#[test]
fn house_triple_plus_single_takes_any_other_card() {
    for single in ["4", "2", "B", "R", "W"] {
        let play = reading(&HOUSE, &format!("333{single}"), Kind::Triples, '3');
        assert_eq!(play.shape.attach, Attach::Singles(1), "333{single}");
    }
    // A card split from a pair in the hand.
    let lead = legal(&HOUSE, "33355", None);
    assert!(lead.iter().any(|p| p.cards == counts("3335") && p.shape.attach == Attach::Singles(1)));
}

#[test]
fn house_triple_plus_pair_is_one_rank_and_never_jokers() {
    let play = only(&HOUSE, "33355");
    assert_eq!(play.shape.attach, Attach::Pairs(1));
    assert!(!is_play(&HOUSE, "33345"), "two singles are not a pair");
    assert!(!is_play(&HOUSE, "333BR"));
    assert!(!is_play(&HOUSE_NOWILD, "333BR"));
}

#[test]
fn two_tops_house_straights_and_runs() {
    let straight = only(&HOUSE, "TJQKA2");
    assert_eq!((straight.shape.kind, straight.main), (Kind::Straight, Rank::TWO));
    let pair_run = only(&HOUSE, "KKAA22");
    assert_eq!((pair_run.shape.kind, pair_run.main), (Kind::PairRun, Rank::TWO));
    let triple_run = only(&HOUSE_NOWILD, "AAA222");
    assert_eq!((triple_run.shape.kind, triple_run.shape.len, triple_run.main), (Kind::Triples, 2, Rank::TWO));
    let whole = only(&HOUSE_NOWILD, "3456789TJQKA2");
    assert_eq!((whole.shape.len, whole.main), (13, Rank::TWO));
    // A straight to the 2 beats the straight to the A of the same length.
    assert!(straight.beats(&only(&HOUSE, "9TJQKA")));
}

#[test]
fn straights_never_wrap_around_or_take_jokers() {
    assert!(!is_play(&HOUSE, "QKA23"));
    assert!(!is_play(&HOUSE, "A2345"));
    assert_eq!(not_a_play(&HOUSE, "JQKA2B"), PlayError::TwoOrJokerInRun);
    assert!(!is_play(&HOUSE, "KA2BR"));
    assert!(!is_play(&HOUSE, "AA22BR"), "jokers never in pair runs");
}

#[test]
fn two_never_in_no_shuffle_runs() {
    for rules in [NS, TP] {
        assert_eq!(only(&rules, "TJQKA").main, Rank::ACE, "{rules}");
        assert_eq!(not_a_play(&rules, "TJQKA2"), PlayError::TwoOrJokerInRun, "{rules}");
        assert_eq!(not_a_play(&rules, "JQKA2"), PlayError::TwoOrJokerInRun, "{rules}");
        assert_eq!(only(&rules, "QQKKAA").shape.kind, Kind::PairRun, "{rules}");
        assert_eq!(not_a_play(&rules, "KKAA22"), PlayError::TwoOrJokerInRun, "{rules}");
        assert_eq!(only(&rules, "KKKAAA").shape.len, 2, "{rules}");
        assert_eq!(not_a_play(&rules, "AAA222"), PlayError::TwoOrJokerInRun, "{rules}");
    }
    assert_eq!(only(&NS, "3456789TJQKA").shape.len, 12);
    // A 2 may still be a wing, and a lone triple of 2s is a play.
    let wings = only(&NS, "KKKAAA22");
    assert_eq!((wings.main, wings.shape.attach), (Rank::ACE, Attach::Singles(2)));
    assert_eq!(only(&NS, "2223").main, Rank::TWO);
    // Wild rank cards never stand in for a 2 inside a run either.
    let plays = reads(&ns_wild('7'), "TJQK7");
    assert!(plays.iter().all(|p| p.main <= Rank::ACE), "{}", describe(&plays));
}

#[test]
fn four_in_a_row_is_not_a_straight() {
    for rules in [HOUSE, NS, ns_wild('9')] {
        assert_eq!(readings(&rules, counts("3456")), Err(PlayError::FourInARow), "{rules}");
    }
    assert_eq!(readings(&TP, counts("789T")), Err(PlayError::FourInARow));
    assert!(PlayError::FourInARow.to_string().contains("five cards"));
    // From 3456 only the four singles.
    let lead = legal(&NS, "3456", None);
    assert_eq!(lead.len(), 4);
    assert!(lead.iter().all(|p| p.shape.kind == Kind::Single));
}

#[test]
fn straights_are_five_or_more_consecutive_ranks() {
    let five = only(&NS, "34567");
    assert_eq!((five.shape.kind, five.shape.len, five.main), (Kind::Straight, 5, Rank::SEVEN));
    assert!(!is_play(&NS, "34568"));
    assert!(!is_play(&NS, "334567"), "a straight has one card of each rank");
    assert_eq!(only(&NS, "345678").shape.len, 6);
}

#[test]
fn pair_runs_need_three_consecutive_pairs() {
    assert!(!is_play(&NS, "3344"));
    assert!(!is_play(&HOUSE, "3344"));
    let run = only(&NS, "334455");
    assert_eq!((run.shape.kind, run.shape.len, run.main), (Kind::PairRun, 3, Rank::FIVE));
    assert!(!is_play(&NS, "335566"));
    assert_eq!(only(&NS, "33445566778899TTJJQQKKAA").shape.len, 12);
}

#[test]
fn triple_runs_need_consecutive_triples() {
    assert!(!is_play(&NS, "333555"));
    assert!(!is_play(&HOUSE, "333555"));
    assert_eq!(only(&NS, "333444").shape.len, 2);
    assert_eq!(only(&NS, "333444555666777888").shape.len, 6);
}

#[test]
fn house_triple_runs_take_zero_to_n_singles_or_n_pairs() {
    let attach = |cards: &str| only(&HOUSE, cards).shape.attach;
    assert_eq!(attach("333444"), Attach::None);
    assert_eq!(attach("3334445"), Attach::Singles(1));
    assert_eq!(attach("33344456"), Attach::Singles(2));
    assert_eq!(attach("3334445566"), Attach::Pairs(2));
    assert_eq!(only(&HOUSE, "3334445556").shape.attach, Attach::Singles(1));
    assert_eq!(only(&HOUSE, "33344455567").shape.attach, Attach::Singles(2));
    // More than N singles is not a play.
    assert!(!is_play(&HOUSE, "333444567"));
    // The same attachments are not plays at No Shuffle, which wants exactly N singles.
    assert!(!is_play(&NS, "3334445"));
    assert!(!is_play(&NS, "33344455567"));
}

#[test]
fn house_triple_run_singles_may_be_one_rank_jokers_or_the_wild() {
    assert_eq!(only(&HOUSE, "33344455").shape.attach, Attach::Singles(2));
    assert_eq!(only(&HOUSE, "333444BR").shape.attach, Attach::Singles(2));
    assert_eq!(only(&HOUSE, "333444BW").shape.attach, Attach::Singles(2));
    assert_eq!(only(&HOUSE_NOWILD, "333444555BR").shape.attach, Attach::Singles(2));
}

#[test]
fn house_triple_runs_never_mix_singles_and_pairs() {
    assert!(!is_play(&HOUSE, "333444556"), "a pair and a single on two triples");
    assert!(!is_play(&HOUSE, "3334445567"), "four cards that are not two pairs");
    assert!(!is_play(&HOUSE, "33344455566778"), "pairs and a single on three triples");
    assert!(!is_play(&HOUSE, "33344455BR"), "jokers never pair");
}

#[test]
fn triple_run_followers_match_attachments_exactly() {
    let hand = "55566678";
    let check = |prior_cards: &str, want: &[&str], attach: Attach| {
        let prior = only(&HOUSE, prior_cards);
        assert_eq!(prior.shape.attach, attach, "{prior_cards}");
        let follows = legal(&HOUSE, hand, Some(&prior));
        assert_eq!(card_sets(&follows), want, "following {prior}");
        assert!(follows.iter().all(|p| p.shape == prior.shape));
    };
    check("333444", &["555666"], Attach::None);
    check("3334445", &["5556667", "5556668"], Attach::Singles(1));
    check("33344456", &["55566678"], Attach::Singles(2));
    let pairs = only(&HOUSE, "33344499TT");
    assert!(legal(&HOUSE, hand, Some(&pairs)).is_empty());
    assert_eq!(card_sets(&legal(&HOUSE, "5556667788", Some(&pairs))), ["5556667788"]);
    // By the comparison itself: a different attachment never beats.
    let bare = only(&HOUSE, "555666");
    let one = only(&HOUSE, "5556667");
    let two = only(&HOUSE, "55566678");
    assert!(!one.beats(&only(&HOUSE, "333444")));
    assert!(!bare.beats(&only(&HOUSE, "3334445")));
    assert!(!two.beats(&only(&HOUSE, "3334445")));
    assert!(one.beats(&only(&HOUSE, "3334449")));
    // Same at No Shuffle: airplane with wings vs bare airplane.
    assert!(!only(&NS, "55566678").beats(&only(&NS, "333444")));
    assert!(!only(&NS, "5556667788").beats(&only(&NS, "33344456")));
}

#[test]
fn bare_triple_followed_only_by_bare_triple() {
    let prior = only(&HOUSE, "333");
    assert_eq!(card_sets(&legal(&HOUSE, "44455", Some(&prior))), ["444"]);
    let prior = only(&HOUSE, "3336");
    assert_eq!(card_sets(&legal(&HOUSE, "44455", Some(&prior))), ["4445"]);
    let prior = only(&HOUSE, "33366");
    assert_eq!(card_sets(&legal(&HOUSE, "44455", Some(&prior))), ["44455"]);
    let prior = only(&NS, "3336");
    assert_eq!(card_sets(&legal(&NS, "44455", Some(&prior))), ["4445"]);
    assert!(!only(&NS, "4445").beats(&only(&NS, "333")));
    assert!(!only(&NS, "44455").beats(&only(&NS, "3336")));
}

#[test]
fn no_four_with_attachments_in_house() {
    for rules in [HOUSE, HOUSE_NOWILD] {
        assert!(!is_play(&rules, "333345"), "{rules}");
        assert!(!is_play(&rules, "333355"), "{rules}");
        assert!(!is_play(&rules, "33335566"), "{rules}");
        let lead = legal(&rules, "33335566", None);
        assert!(lead.iter().all(|p| p.shape.kind != Kind::FourWithTwo));
        assert!(lead.iter().all(|p| p.len() <= 5), "{}", describe(&lead));
    }
}

#[test]
fn jokers_never_pair() {
    for rules in [HOUSE, HOUSE_NOWILD, NS, TP] {
        let plays = reads(&rules, "BR");
        assert_eq!(shapes(&plays), [(Kind::Rocket, 1, Attach::None, Rank::RED_JOKER)], "{rules}");
    }
    assert_eq!("BB".parse::<Counts>(), Err(CardError::TooMany { text: "BB".into(), kind: "Black Jokers", limit: 1 }));
    // The Wild never pairs a joker, a wild rank card never stands in for one.
    assert_eq!(shapes(&reads(&HOUSE, "RW"))[0].0, Kind::Rocket);
    assert!(!is_play(&ns_wild('7'), "B7"));
    assert!(!is_play(&ns_wild('7'), "R7"));
    // Not as an attached pair either.
    assert!(!is_play(&NS, "333BR"));
    assert!(!is_play(&NS, "333444BR55"));
    assert!(!is_play(&NS, "3333BR55"));
}

#[test]
fn no_attachment_of_the_triples_own_rank() {
    // A fourth card of the triple's rank is a bomb, never triple + single.
    for rules in [HOUSE, NS] {
        let plays = reads(&rules, "3333");
        assert_eq!(shapes(&plays), [(Kind::Bomb, 1, Attach::None, Rank::THREE)], "{rules}");
        assert!(!is_play(&rules, "33334445"), "{rules}: a 3 on the run 3-4");
        assert!(!is_play(&rules, "33335"), "{rules}");
    }
    // The Wild as a single is itself, not a 3: 333W is triple + single or a bomb, nothing else.
    assert_eq!(
        shapes(&reads(&HOUSE, "333W")),
        [(Kind::Triples, 1, Attach::Singles(1), Rank::THREE), (Kind::Bomb, 1, Attach::None, Rank::THREE)]
    );
    // 333 4444 5: the run 3-4 with wings 4 and 5 would carry a 4; not a play.
    assert!(!is_play(&NS, "33344445"));
    // A wild-rank single read as the triple's rank would be the triple's rank: it reads as itself.
    let triple = reading(&ns_wild('7'), "3337", Kind::Triples, '3');
    assert!(triple.wild_as.is_empty(), "{triple}");
}

// ---------------------------------------------------------------------------------------------------
// Section 3.2: No Shuffle and Two Player plays
// ---------------------------------------------------------------------------------------------------

#[test]
fn no_shuffle_singles_include_both_jokers() {
    let black = only(&NS, "B");
    let red = only(&NS, "R");
    assert_eq!((black.shape.kind, red.shape.kind), (Kind::Single, Kind::Single));
    assert!(black.beats(&only(&NS, "2")) && red.beats(&black));
    let two = only(&NS, "2");
    assert_eq!(card_sets(&legal(&NS, "AB", Some(&two))), ["B"]);
}

#[test]
fn airplane_wings_are_none_or_exactly_n_singles_or_n_pairs() {
    for rules in [NS, TP] {
        let base = if rules == TP { "555666" } else { "333444" };
        let wing = |w: &str| readings(&rules, counts(&format!("{base}{w}")));
        assert_eq!(wing("").unwrap()[0].shape.attach, Attach::None, "{rules}");
        assert!(wing("9").is_err(), "{rules}: one wing on two triples");
        assert_eq!(wing("9T").unwrap()[0].shape.attach, Attach::Singles(2), "{rules}");
        assert_eq!(wing("99TT").unwrap()[0].shape.attach, Attach::Pairs(2), "{rules}");
        assert!(wing("99T").is_err(), "{rules}: never a mix");
        assert!(wing("9TJ").is_err(), "{rules}: three wings on two triples");
        assert!(wing("99TTJJ").is_err(), "{rules}: three pairs on two triples");
    }
    assert!(!is_play(&NS, "33344455567"), "two wings on three triples");
}

#[test]
fn four_with_two_only_in_no_shuffle_and_two_player() {
    for (rules, cards, pairs) in
        [(NS, "333345", "33335566"), (TP, "555567", "55556677"), (ns_wild('9'), "333345", "33335566")]
    {
        let two = only(&rules, cards);
        assert_eq!(
            (two.shape.kind, two.main, two.shape.attach),
            (Kind::FourWithTwo, rank(cards.chars().next().unwrap()), Attach::Singles(2)),
            "{rules}"
        );
        let four_pairs = only(&rules, pairs);
        assert_eq!(four_pairs.shape.attach, Attach::Pairs(2), "{rules}");
        assert!(!two.beats(&four_pairs) && !four_pairs.beats(&two), "{rules}: other shapes");
    }
    for rules in [HOUSE, HOUSE_NOWILD] {
        assert!(!is_play(&rules, "333345"), "{rules}");
    }
    // Exactly two singles or two pairs.
    assert!(!is_play(&NS, "33335"));
    assert!(!is_play(&NS, "3333567"));
    assert!(!is_play(&NS, "3333556"));
}

#[test]
fn four_with_two_singles_may_be_a_pair() {
    let play = only(&NS, "333355");
    assert_eq!((play.shape.kind, play.shape.attach), (Kind::FourWithTwo, Attach::Singles(2)));
    // It is four + two singles: it follows four + two singles, not four + two pairs.
    assert!(only(&NS, "444455").beats(&only(&NS, "3333KA")));
    assert!(!only(&NS, "444455").beats(&only(&NS, "33335566")));
    assert!(!play.beats(&only(&NS, "3333KA")), "same four, attachments never count");
}

#[test]
fn four_with_two_is_not_a_bomb() {
    let four = only(&NS, "444456");
    assert_eq!(four.shape.kind, Kind::FourWithTwo);
    let bomb = only(&NS, "3333");
    assert!(bomb.beats(&four), "a bomb beats four + two");
    assert!(!four.beats(&bomb), "four + two is not a bomb");
    assert!(!four.beats(&only(&NS, "5")), "four + two does not beat other plays");
    // Following four + two: the higher four + two, and the bomb.
    let prior = only(&NS, "333378");
    let follows = legal(&NS, "444456", Some(&prior));
    assert_eq!(
        shapes(&follows),
        [(Kind::FourWithTwo, 1, Attach::Singles(2), Rank::FOUR), (Kind::Bomb, 1, Attach::None, Rank::FOUR)]
    );
}

#[test]
fn both_jokers_never_single_wings_in_no_shuffle() {
    for rules in [NS, TP, ns_wild('9')] {
        let base = if rules.table == TP.table { "555666" } else { "333444" };
        assert!(!is_play(&rules, &format!("{base}BR")), "{rules}");
        assert!(is_play(&rules, &format!("{base}B9")), "{rules}: one joker is fine");
        assert!(!is_play(&rules, &format!("{}BR", &base[..3])), "{rules}: triple + BR");
        assert!(!is_play(&rules, "5555BR"), "{rules}: four + both jokers");
        assert!(is_play(&rules, "5555R9"), "{rules}");
    }
    assert!(!is_play(&NS, "333444555BR6"));
    // House allows them (a rocket may be split into attachments there).
    assert_eq!(only(&HOUSE, "333444BR").shape.attach, Attach::Singles(2));
    // From a hand holding both, No Shuffle offers the rocket but no airplane carrying both.
    let lead = legal(&NS, "333444BR", None);
    assert!(lead.iter().any(|p| p.shape.kind == Kind::Rocket));
    assert!(lead.iter().all(|p| !(p.cards.of(Rank::BLACK_JOKER) == 1
        && p.cards.of(Rank::RED_JOKER) == 1
        && p.shape.kind != Kind::Rocket)));
}

#[test]
fn two_player_straights_start_at_five() {
    let lowest = only(&TP, "56789");
    assert_eq!((lowest.shape.kind, lowest.main), (Kind::Straight, Rank::NINE));
    assert!(matches!(not_a_play(&TP, "34567"), PlayError::NotInDeck(_)));
    assert!(matches!(not_a_play(&TP, "45678"), PlayError::NotInDeck(_)));
    assert_eq!(only(&TP, "56789TJQKA").shape.len, 10);
    assert_eq!(only(&TP, "556677").shape.kind, Kind::PairRun);
    assert_eq!(only(&TP, "555666").shape.kind, Kind::Triples);
    // A hand from 5 to A holds exactly the straights 5..A of length 5 to 10: 6+5+4+3+2+1 = 21.
    let straights = legal(&TP, "56789TJQKA", None).into_iter().filter(|p| p.shape.kind == Kind::Straight).count();
    assert_eq!(straights, 21);
}

#[test]
fn two_player_wild_rank_never_stands_for_three_or_four() {
    // At No Shuffle a wild 9 may be a 4 (straight 4-8) or itself (5-9); at Two Player only itself.
    assert_eq!(shapes(&reads(&ns_wild('9'), "56789")).iter().map(|s| s.3).collect::<Vec<_>>(), [rank('8'), Rank::NINE]);
    assert_eq!(only(&tp_wild('9'), "56789").main, Rank::NINE);
    assert!(!is_play(&tp_wild('9'), "5679"), "no 4 to make 5-6-7-... from below");
    let plays = reads(&tp_wild('9'), "559");
    assert!(plays.iter().all(|p| p.wild_as.of(Rank::THREE) == 0 && p.wild_as.of(Rank::FOUR) == 0));
}

#[test]
fn pair_wings_have_distinct_ranks() {
    assert!(!is_play(&NS, "3334445555"), "55 + 55 on an airplane");
    assert!(!is_play(&NS, "33335555"), "55 + 55 on a four");
    assert_eq!(only(&NS, "3334445566").shape.attach, Attach::Pairs(2));
    assert_eq!(only(&NS, "33335566").shape.attach, Attach::Pairs(2));
    assert!(!is_play(&HOUSE, "3334445555"), "House pairs are of different ranks too");
    // A wild card cannot make a second pair of the same rank either.
    assert!(!is_play(&ns_wild('7'), "3334445557"));
}

#[test]
fn single_wings_may_share_a_rank_or_form_a_triple() {
    let airplane = only(&NS, "333444555KKK");
    assert_eq!(
        (airplane.shape.kind, airplane.shape.len, airplane.main, airplane.shape.attach),
        (Kind::Triples, 3, Rank::FIVE, Attach::Singles(3))
    );
    assert_eq!(only(&NS, "333444KK").shape.attach, Attach::Singles(2));
    assert_eq!(only(&TP, "555666KK").shape.attach, Attach::Singles(2));
}

#[test]
fn single_wings_may_form_a_four() {
    let airplane = only(&NS, "3334445556667777");
    assert_eq!((airplane.shape.len, airplane.main, airplane.shape.attach), (4, rank('6'), Attach::Singles(4)));
}

#[test]
fn airplane_of_four_also_reads_as_airplane_of_three_with_wings() {
    for rules in [NS, HOUSE_NOWILD] {
        let plays = reads(&rules, "333444555666");
        assert_eq!(
            shapes(&plays),
            [
                (Kind::Triples, 3, Attach::Singles(3), Rank::FIVE),
                (Kind::Triples, 3, Attach::Singles(3), rank('6')),
                (Kind::Triples, 4, Attach::None, rank('6')),
            ],
            "{rules}"
        );
        // Each reading follows its own shape: on the run 3-5 + 7 8 9, the reading 4-6 + 333 is
        // higher, the bare run of four is another shape.
        let prior = only(&rules, "333444555789");
        let bare = plays.iter().find(|p| p.shape.len == 4).unwrap();
        let winged = plays.iter().find(|p| p.shape.len == 3 && p.main == rank('6'));
        assert!(!bare.beats(&prior), "{rules}");
        assert!(winged.unwrap().beats(&prior), "{rules}");
    }
}

#[test]
fn three_three_three_wild_reads_two_ways() {
    let plays = reads(&HOUSE, "333W");
    assert_eq!(
        shapes(&plays),
        [(Kind::Triples, 1, Attach::Singles(1), Rank::THREE), (Kind::Bomb, 1, Attach::None, Rank::THREE)]
    );
    // The follower's reading must match what it follows: on 222 + 5 only the bomb reading can be
    // played.
    let follows = legal(&HOUSE, "333W", Some(&only(&HOUSE, "2225")));
    assert_eq!(shapes(&follows), [(Kind::Bomb, 1, Attach::None, Rank::THREE)]);
    // On 444 + 5: the triple + single reading is too low, the bomb reading beats it.
    let on_triple_single = legal(&HOUSE, "333W", Some(&only(&HOUSE_NOWILD, "4445")));
    assert_eq!(card_sets(&on_triple_single), ["333W"]);
    assert!(on_triple_single.iter().all(|p| p.shape.kind == Kind::Bomb));
    // On a lower triple + single both readings are playable (444W reads the same two ways as 333W).
    let both = legal(&HOUSE, "444W", Some(&only(&HOUSE, "3335")));
    assert!(both.iter().any(|p| p.cards == counts("444W") && p.shape.kind == Kind::Triples));
    assert!(both.iter().any(|p| p.cards == counts("444W") && p.shape.kind == Kind::Bomb));
}

#[test]
fn four_to_seven_with_wild_reads_two_ways() {
    let plays = reads(&HOUSE, "4567W");
    assert_eq!(
        shapes(&plays),
        [(Kind::Straight, 5, Attach::None, Rank::SEVEN), (Kind::Straight, 5, Attach::None, rank('8'))]
    );
    assert_eq!(plays.iter().find(|p| p.main == Rank::SEVEN).unwrap().wild_as, counts("3"));
    assert_eq!(plays.iter().find(|p| p.main == rank('8')).unwrap().wild_as, counts("8"));
    // Following the straight 3-7, only the 4-8 reading may be played; following 4-8, neither.
    let follows = legal(&HOUSE, "4567W", Some(&only(&HOUSE, "34567")));
    assert_eq!(shapes(&follows), [(Kind::Straight, 5, Attach::None, rank('8'))]);
    assert!(legal(&HOUSE, "4567W", Some(&only(&HOUSE, "45678"))).is_empty());
}

// ---------------------------------------------------------------------------------------------------
// Section 3.3: the Wild Rank option
// ---------------------------------------------------------------------------------------------------

#[test]
fn wild_rank_cards_stand_in_for_any_rank() {
    let rules = ns_wild('7');
    let pair = only(&rules, "57");
    assert_eq!((pair.shape.kind, pair.main, pair.wild_as), (Kind::Pair, Rank::FIVE, counts("5")));
    let twos = only(&rules, "27");
    assert_eq!((twos.shape.kind, twos.main), (Kind::Pair, Rank::TWO));
    let triple = only(&rules, "AA7");
    assert_eq!((triple.shape.kind, triple.main), (Kind::Triples, Rank::ACE));
    // A gap in a straight, either end of it.
    let gap = reads(&rules, "89TQ7");
    assert_eq!(shapes(&gap), [(Kind::Straight, 5, Attach::None, rank('Q'))]);
    assert_eq!(gap[0].wild_as, counts("J"));
    // The fourth card of a bomb, at Two Player too.
    let bomb = reading(&tp_wild('9'), "KKK9", Kind::Bomb, 'K');
    assert_eq!((bomb.strength, bomb.wild_as), (Strength::Soft, counts("K")));
}

#[test]
fn wild_rank_cards_never_stand_in_for_a_joker() {
    let rules = ns_wild('7');
    assert!(!is_play(&rules, "B7"));
    assert!(!is_play(&rules, "R7"));
    assert!(!is_play(&tp_wild('9'), "B9"));
    let lead = legal(&rules, "B7", None);
    assert!(lead.iter().all(|p| p.shape.kind == Kind::Single), "{}", describe(&lead));
}

#[test]
fn wild_rank_cards_may_play_as_themselves() {
    let rules = ns_wild('7');
    let straight = only(&rules, "34567");
    assert_eq!((straight.main, straight.wild_as), (Rank::SEVEN, Counts::EMPTY));
    let pair_run = reading(&rules, "667788", Kind::PairRun, '8');
    assert_eq!((pair_run.main, pair_run.wild_as), (rank('8'), Counts::EMPTY));
}

#[test]
fn any_number_of_wild_rank_cards_in_one_play() {
    let rules = ns_wild('7');
    let bomb = reading(&rules, "3777", Kind::Bomb, '3');
    assert_eq!((bomb.strength, bomb.wild_as), (Strength::Soft, counts("333")));
    // 33 44 5 + 777: a pair run 3-6 with the 7s as 5, 6 and 6.
    let run = reading(&rules, "33445777", Kind::PairRun, '6');
    assert_eq!((run.shape.len, run.wild_as), (4, counts("566")));
    // Four wild cards with a natural card: a triple of 4s (7 7 7 as 4) + the 3, among others.
    let plays = reads(&rules, "3777");
    assert!(plays.iter().any(|p| p.main == Rank::FOUR && p.wild_as == counts("444")));
}

#[test]
fn wild_rank_card_counts_as_its_stand_in_in_attachments() {
    let rules = ns_wild('7');
    // 333 + 5 + 7: the 7 is a 5, making the attached pair.
    let play = only(&rules, "33357");
    assert_eq!((play.shape.kind, play.shape.attach), (Kind::Triples, Attach::Pairs(1)));
    assert_eq!(play.wild_as, counts("5"));
    // 333444 + 55 + 6 + 7: the 7 is a 6, making two pairs.
    let airplane = only(&rules, "3334445567");
    assert_eq!(airplane.shape.attach, Attach::Pairs(2));
    assert_eq!(airplane.wild_as, counts("6"));
}

/// 3.3 with 3.2: all four wild cards as the two pairs of a four + two pairs or the pair wings of an
/// airplane. One pair is their own rank; the other **[decision]** stands for the lowest rank that is free
/// (not the four's or a triple's, not the wild rank, not another pair's), so the cards read one way.
#[test]
fn four_wild_rank_cards_make_both_attached_pairs() {
    let sevens = ns_wild('7');
    // 3333 + 77 + 77: four 3s with a pair of 7s and the 7s standing as a pair of 4s.
    let four = reading(&sevens, "33337777", Kind::FourWithTwo, '3');
    assert_eq!((four.shape.attach, four.wild_as), (Attach::Pairs(2), counts("44")));
    assert!(legal(&sevens, "33337777", None).contains(&four), "listed on a free lead");
    // 333444 + 77 + 77: the airplane 3-4 with two pair wings (7s and, standing in, 5s).
    let airplane = reading(&sevens, "3334447777", Kind::Triples, '4');
    assert_eq!((airplane.shape.len, airplane.shape.attach), (2, Attach::Pairs(2)));
    assert_eq!(airplane.wild_as, counts("55"));
    assert!(legal(&sevens, "3334447777", None).contains(&airplane));
    // Following four + two pairs: 4444 + 77 + 77 beats 3333 + 55 + 66, not only with bombs.
    let prior = reading(&sevens, "33335566", Kind::FourWithTwo, '3');
    let follows = legal(&sevens, "44447777", Some(&prior));
    let four_fours = follows.iter().find(|p| p.shape.kind == Kind::FourWithTwo).expect("four + two pairs of 4s");
    assert_eq!((four_fours.main, four_fours.wild_as), (Rank::FOUR, counts("33")));
    // Two Player, tens wild: 8888 + TT + TT, the second pair standing for 5s (no 3s or 4s there).
    let tens = tp_wild('T');
    let four = reading(&tens, "8888TTTT", Kind::FourWithTwo, '8');
    assert_eq!((four.shape.attach, four.wild_as), (Attach::Pairs(2), counts("55")));
    assert!(legal(&tens, "8888TTTT", None).contains(&four));
    // With a natural pair beside them, the standing pair skips its rank: 333444555 + 66 + 77 + 77.
    let three = reading(&sevens, "33344455566 7777", Kind::Triples, '5');
    assert_eq!((three.shape.attach, three.wild_as), (Attach::Pairs(3), counts("88")));
    // Never both pairs standing in for other ranks, nor two pairs of one rank: exactly one reading.
    let fours: Vec<Play> =
        reads(&sevens, "33337777").into_iter().filter(|p| p.shape.kind == Kind::FourWithTwo).collect();
    assert_eq!(fours.len(), 1, "{}", describe(&fours));
    // Three wild cards make one pair and half of another, as before.
    let three_wild = reading(&sevens, "3333777 8", Kind::FourWithTwo, '3');
    assert_eq!(three_wild.wild_as, counts("8"));
}

#[test]
fn lone_wild_rank_card_is_its_own_rank() {
    let rules = ns_wild('7');
    let seven = only(&rules, "7");
    assert_eq!((seven.shape.kind, seven.main, seven.wild_as), (Kind::Single, Rank::SEVEN, Counts::EMPTY));
    assert!(seven.beats(&only(&rules, "6")));
    assert!(!seven.beats(&only(&rules, "8")));
    assert!(legal(&rules, "7", Some(&only(&rules, "8"))).is_empty());
    assert_eq!(card_sets(&legal(&rules, "7", Some(&only(&rules, "6")))), ["7"]);
    // Only wild cards: every card is its own rank.
    assert_eq!(shapes(&reads(&rules, "77")), [(Kind::Pair, 1, Attach::None, Rank::SEVEN)]);
    assert_eq!(shapes(&reads(&rules, "777")), [(Kind::Triples, 1, Attach::None, Rank::SEVEN)]);
    assert!(legal(&rules, "77", Some(&only(&rules, "88"))).is_empty());
    // Two Player too.
    let nine = only(&tp_wild('9'), "9");
    assert_eq!((nine.main, nine.wild_as), (Rank::NINE, Counts::EMPTY));
}

#[test]
fn four_wild_rank_cards_are_the_pure_wild_bomb() {
    for (rules, cards) in [(ns_wild('7'), "7777"), (tp_wild('9'), "9999"), (ns_wild('3'), "3333")] {
        let bomb = only(&rules, cards);
        assert_eq!((bomb.shape.kind, bomb.strength), (Kind::Bomb, Strength::PureWild), "{rules}");
        assert!(bomb.wild_as.is_empty());
        assert!(bomb.beats(&only(&rules, "2222")), "{rules}: beats the natural bomb of 2s");
        assert!(only(&rules, "BR").beats(&bomb), "{rules}: the rocket beats it");
    }
    // Free lead from 7777: the single, pair, triple and the pure-wild bomb, and nothing more.
    assert_eq!(legal(&ns_wild('7'), "7777", None).len(), 4);
}

#[test]
fn soft_bombs_have_a_wild_card_standing_in() {
    let rules = ns_wild('7');
    for (cards, stand_ins) in [("3337", "3"), ("3377", "33"), ("3777", "333")] {
        let bomb = reading(&rules, cards, Kind::Bomb, '3');
        assert_eq!(bomb.strength, Strength::Soft, "{cards}");
        assert_eq!(bomb.wild_as, counts(stand_ins), "{cards}");
    }
    assert_eq!(only(&rules, "3333").strength, Strength::Natural);
}

#[test]
fn bomb_strength_order_rocket_pure_natural_soft() {
    let rules = ns_wild('7');
    let soft_twos = reading(&rules, "2227", Kind::Bomb, '2');
    let natural_threes = only(&rules, "3333");
    let pure = only(&rules, "7777");
    let rocket = only(&rules, "BR");
    assert_eq!(soft_twos.strength, Strength::Soft);
    assert_eq!(natural_threes.strength, Strength::Natural);
    let ladder = [soft_twos, natural_threes, pure, rocket];
    for (i, low) in ladder.iter().enumerate() {
        for (j, high) in ladder.iter().enumerate() {
            assert_eq!(high.beats(low), j > i, "{high} vs {low}");
        }
    }
    // Legal follows of a natural bomb from a hand holding every strength.
    let follows = legal(&rules, "2227777BR", Some(&only(&rules, "AAAA")));
    let kinds: Vec<_> = follows.iter().map(|p| (p.shape.kind, p.strength)).collect();
    assert!(kinds.contains(&(Kind::Bomb, Strength::PureWild)));
    assert!(kinds.contains(&(Kind::Rocket, Strength::Natural)));
    assert!(!kinds.contains(&(Kind::Bomb, Strength::Soft)), "{}", describe(&follows));
}

#[test]
fn bombs_within_a_strength_compare_by_rank() {
    let rules = ns_wild('7');
    let soft_threes = reading(&rules, "3337", Kind::Bomb, '3');
    let soft_fours = reading(&rules, "4447", Kind::Bomb, '4');
    assert!(soft_fours.beats(&soft_threes));
    assert!(!soft_threes.beats(&soft_fours));
    assert!(!soft_threes.beats(&soft_threes));
    assert!(only(&rules, "4444").beats(&only(&rules, "3333")));
    assert!(!only(&rules, "3333").beats(&only(&rules, "4444")));
}

#[test]
fn no_five_card_bombs() {
    let rules = ns_wild('7');
    assert!(!is_play(&rules, "33337"));
    // 3333 + 77 is four + two singles, never a bomb of five.
    assert_eq!(shapes(&reads(&rules, "333377")), [(Kind::FourWithTwo, 1, Attach::Singles(2), Rank::THREE)]);
    let lead = legal(&rules, "33337", None);
    assert!(lead.iter().all(|p| p.len() <= 4), "{}", describe(&lead));
    let bombs: Vec<_> = lead.iter().filter(|p| p.shape.kind == Kind::Bomb).copied().collect();
    assert_eq!(card_sets(&bombs), ["3333", "3337"]);
    assert!(!is_play(&HOUSE, "3333W"));
}

// ---------------------------------------------------------------------------------------------------
// Section 4: comparing
// ---------------------------------------------------------------------------------------------------

#[test]
fn bomb_beats_any_non_bomb() {
    for rules in [HOUSE, NS, TP] {
        let bomb = only(&rules, "5555");
        for cards in ["R", "22", "222", "2226", "22266", "9TJQKA", "TTJJQQ", "KKKAAA", "JJJQQQKKKAAA"] {
            for play in reads(&rules, cards) {
                assert!(bomb.beats(&play), "{rules}: {bomb} should beat {play}");
                assert!(!play.beats(&bomb), "{rules}: {play} should not beat {bomb}");
            }
        }
    }
    let four_two = only(&NS, "2222KA");
    assert!(only(&NS, "3333").beats(&four_two));
    // And it is offered against any play.
    let follows = legal(&NS, "33334", Some(&only(&NS, "2")));
    assert_eq!(card_sets(&follows), ["3333"]);
}

#[test]
fn rocket_beats_bombs() {
    for rules in [HOUSE, HOUSE_NOWILD, NS, TP, ns_wild('7')] {
        let rocket = only(&rules, "BR");
        assert!(rocket.beats(&only(&rules, "2222")), "{rules}");
        assert!(rocket.beats(&only(&rules, "5555")), "{rules}");
        assert!(rocket.beats(&only(&rules, "2")), "{rules}");
    }
    assert!(only(&HOUSE, "BW").beats(&only(&HOUSE, "2222")));
    assert!(only(&ns_wild('7'), "BR").beats(&only(&ns_wild('7'), "7777")));
}

#[test]
fn nothing_beats_a_rocket() {
    let rocket = only(&HOUSE, "BR");
    for cards in ["2222", "333W", "3456789TJQKA2", "BW", "RW", "BR"] {
        for play in reads(&HOUSE, cards) {
            assert!(!play.beats(&rocket), "{play} should not beat the rocket");
        }
    }
    // Not the other rockets made with the Wild either, in both directions.
    assert!(!rocket.beats(&only(&HOUSE, "BW")));
    assert!(legal(&HOUSE, "BW22223333AAAA", Some(&rocket)).is_empty());
    assert!(legal(&HOUSE, "BR2222", Some(&only(&HOUSE, "RW"))).is_empty());
    assert!(legal(&ns_wild('7'), "7777BR2222", Some(&only(&ns_wild('7'), "BR"))).is_empty());
}

#[test]
fn bombs_compare_by_rank() {
    for rules in [HOUSE, NS, TP] {
        let low = only(&rules, "5555");
        let high = only(&rules, "6666");
        assert!(high.beats(&low), "{rules}");
        assert!(!low.beats(&high), "{rules}");
        assert!(!low.beats(&low), "{rules}");
        assert!(only(&rules, "2222").beats(&only(&rules, "AAAA")), "{rules}");
    }
    let prior = only(&NS, "8888");
    let follows = legal(&NS, "55559999", Some(&prior));
    assert_eq!(card_sets(&follows), ["9999"]);
}

#[test]
fn same_type_and_shape_compare_by_main_rank() {
    let ns = &NS;
    assert!(beats(ns, "9", "8"));
    assert!(beats(ns, "99", "88"));
    assert!(beats(ns, "999", "888"));
    // Straights and runs by their top rank.
    assert!(beats(ns, "45678", "34567"));
    assert!(!beats(ns, "34567", "45678"));
    assert!(beats(ns, "445566", "334455"));
    assert!(beats(ns, "444555", "333444"));
    // Four + two by the four's rank.
    assert!(beats(ns, "444435", "3333KA"));
    // The same cards read two ways compare by the reading: 4567W as 4-8 beats 34567, as 3-7 not.
    let four_eight = reading(&HOUSE, "4567W", Kind::Straight, '8');
    let three_seven = reading(&HOUSE, "4567W", Kind::Straight, '7');
    let prior = only(&HOUSE, "34567");
    assert!(four_eight.beats(&prior));
    assert!(!three_seven.beats(&prior));
}

#[test]
fn equal_main_ranks_do_not_beat() {
    assert!(!beats(&NS, "5", "5"));
    assert!(!beats(&NS, "3334", "3335"));
    assert!(!beats(&HOUSE, "5W", "55"));
    assert!(!beats(&HOUSE, "3456W", "34567"));
}

#[test]
fn attachments_never_count_when_comparing() {
    // A higher triple with a low single beats a lower triple with a 2.
    assert!(beats(&NS, "4443", "3332"));
    assert!(!beats(&NS, "333R", "4445"));
    assert!(beats(&NS, "44433", "33322"));
    assert!(beats(&NS, "44455533", "333444BA"));
    assert!(beats(&NS, "444435", "3333R2"));
    assert!(beats(&HOUSE, "4445W", "33322"));
    // Same main, different attachments: still not higher.
    assert!(!beats(&NS, "3332", "3334"));
}

#[test]
fn other_shape_cannot_follow() {
    let cases: &[(&Rules, &str, &str)] = &[
        (&NS, "44", "3"),                  // pair on a single
        (&NS, "4", "33"),                  // single on a pair
        (&NS, "444", "33"),                // triple on a pair
        (&NS, "4445", "333"),              // triple + single on a bare triple
        (&NS, "44455", "3335"),            // triple + pair on triple + single
        (&NS, "456789", "34567"),          // longer straight
        (&NS, "45678", "345678"),          // shorter straight
        (&NS, "44556677", "334455"),       // longer pair run
        (&NS, "444555666", "333444"),      // longer airplane
        (&NS, "44445566", "333345"),       // four + two pairs on four + two singles
        (&NS, "444455", "33335566"),       // four + two singles on four + two pairs
        (&NS, "456789", "333444"),         // straight on an airplane
        (&HOUSE, "5556667788", "3334445"), // pairs on one single
    ];
    for (rules, play, prior) in cases {
        let prior_play = only(rules, prior);
        for p in reads(rules, play) {
            assert!(!p.beats(&prior_play), "{rules}: {p} should not follow {prior_play}");
        }
        let follows = legal(rules, play, Some(&prior_play));
        assert!(
            follows.iter().all(|f| f.shape == prior_play.shape || f.shape.is_bomb_or_rocket()),
            "{rules}: from {play} on {prior_play}: {}",
            describe(&follows)
        );
    }
}

#[test]
fn legal_follows_all_beat_the_prior_and_keep_its_shape() {
    let hand = "3344556677889TJQKA2BR";
    for prior_cards in ["3", "33", "333", "3334", "33344", "34567", "334455", "333444", "33344456", "3333"] {
        let prior = only(&NS, prior_cards);
        let follows = legal(&NS, hand, Some(&prior));
        assert!(!follows.is_empty(), "{prior}");
        for play in &follows {
            assert!(play.beats(&prior), "{play} on {prior}");
            assert!(play.cards.fits_in(counts(hand)));
            assert!(play.shape == prior.shape || play.shape.is_bomb_or_rocket(), "{play} on {prior}");
        }
    }
}
