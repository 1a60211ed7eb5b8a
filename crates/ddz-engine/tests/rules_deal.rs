//! One test per rule of RULES.md sections 2 (trick play), 5 (choosing the landlord), 6 (winning and
//! scoring) and 7 (dealing), each named after the rule it checks, plus the deal limit (section 8) and the
//! engine-wide promises that refused actions change nothing and views never leak hidden cards.
//!
//! Positions are built with `DealSetup::stacked`: a test names the cards that matter in each hand and
//! the bottom, and [`stack`] fills every hand up to 17 cards with the lowest cards nobody was given.

mod common;

use common::scan_view;

use std::collections::BTreeSet;

use ddz_engine::deal::MULTIPLIER_CAP;
use ddz_engine::ledger::STARTING_BALANCE;
use ddz_engine::{
    Action, Auction, Card, CardSet, Deal, DealError, DealSetup, Dealing, End, Kind, LastMove, Ledger, Phase, Play,
    PlayError, Rank, Rules, ScoreLine, Seat, Seed, Start, Strength, TableType, readings,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

fn cards(text: &str) -> CardSet {
    text.parse().unwrap_or_else(|e| panic!("bad card text {text:?}: {e}"))
}

fn names(n: usize) -> Vec<String> {
    ["Ann", "Bob", "Cy"][..n].iter().map(|s| s.to_string()).collect()
}

/// The setup of a stacked deal: each hand holds the cards named for it, completed to the hand size with
/// the lowest cards of the deck named nowhere (seat 0 first); the bottom is named in full.
fn stack_setup(rules: Rules, first: Seat, hands: &[&str], bottom: &str) -> DealSetup {
    let players = rules.players as usize;
    assert_eq!(hands.len(), players, "one hand per seat");
    let bottom = cards(bottom);
    assert_eq!(bottom.len(), rules.bottom_size as usize, "bottom size");
    let mut sets: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let mut named = bottom;
    for set in &sets {
        assert!(set.intersection(named).is_empty(), "a card is named twice: {}", set.intersection(named));
        named = named.union(*set);
    }
    assert!(named.is_subset(rules.deck()), "cards outside the deck");
    let mut spare = rules.deck().minus(named).iter();
    for set in &mut sets {
        while set.len() < rules.hand_size as usize {
            set.insert(spare.next().expect("enough spare cards"));
        }
        assert_eq!(set.len(), rules.hand_size as usize, "too many cards named");
    }
    DealSetup::stacked(rules, first, &sets, bottom)
}

fn stack(rules: Rules, first: Seat, hands: &[&str], bottom: &str) -> Deal {
    let deal = Deal::new(stack_setup(rules, first, hands, bottom));
    assert_eq!(deal.first(), first);
    deal
}

/// As [`stack`], on a Wild Rank table whose drawn rank is `rank` (the seed is searched for it).
fn stack_wild_rank(rules: Rules, rank: Rank, first: Seat, hands: &[&str], bottom: &str) -> Deal {
    let mut setup = stack_setup(rules, first, hands, bottom);
    for n in 0..10_000 {
        setup.seed = Seed::from_u64(n);
        let deal = Deal::new(setup.clone());
        if deal.rules().wild_rank() == Some(rank) {
            return deal;
        }
    }
    panic!("no seed draws wild rank {rank}");
}

/// The deck in order: 17 cards to each seat, then the bottom (and the Two Player unused cards).
fn plain(rules: Rules, first: Seat) -> Deal {
    let players = rules.players as usize;
    let deck: Vec<Card> = rules.deck().iter().collect();
    let hand = rules.hand_size as usize;
    let hands: Vec<CardSet> =
        (0..players).map(|s| CardSet::from_cards(deck[s * hand..(s + 1) * hand].iter().copied()).unwrap()).collect();
    let bottom_start = players * hand;
    let bottom =
        CardSet::from_cards(deck[bottom_start..bottom_start + rules.bottom_size as usize].iter().copied()).unwrap();
    Deal::new(DealSetup::stacked(rules, first, &hands, bottom))
}

/// A shuffled deal from a numbered seed.
fn fresh(rules: Rules, seed: u64, start: Start) -> Deal {
    Deal::new(DealSetup::shuffled(rules, Seed::from_u64(seed), start))
}

fn act(deal: &mut Deal, action: Action) {
    if let Err(e) = deal.apply(&action) {
        panic!("{action:?} was refused: {e}");
    }
}

/// Applies an action that must be refused, checks that the deal did not change, and returns the error.
fn reject(deal: &mut Deal, action: Action) -> DealError {
    let before = deal.clone();
    let hash = deal.state_hash();
    let err = match deal.apply(&action) {
        Ok(()) => panic!("{action:?} was accepted"),
        Err(e) => e,
    };
    assert_eq!(deal.state_hash(), hash, "refusing {action:?} changed the hash");
    assert_eq!(*deal, before, "refusing {action:?} changed the deal");
    err
}

/// The play action of `text` by `seat`: the first reading that `want` accepts and that the deal would
/// accept now (or, if none would, the first reading that `want` accepts).
fn play_action(deal: &Deal, seat: Seat, text: &str, want: impl Fn(&Play) -> bool) -> Action {
    let set = cards(text);
    let reads = readings(deal.rules(), set.counts()).unwrap_or_else(|e| panic!("{text} is not a play: {e}"));
    let wanted: Vec<Play> = reads.into_iter().filter(|p| want(p)).collect();
    assert!(!wanted.is_empty(), "no wanted reading of {text}");
    let play = wanted.iter().find(|p| deal.check_play(seat, set, p).is_ok()).unwrap_or(&wanted[0]);
    Action::Play { seat, cards: set, play: *play }
}

fn play(deal: &mut Deal, seat: Seat, text: &str) -> Play {
    play_as(deal, seat, text, |_| true)
}

fn play_as(deal: &mut Deal, seat: Seat, text: &str, want: impl Fn(&Play) -> bool) -> Play {
    let action = play_action(deal, seat, text, want);
    act(deal, action.clone());
    match action {
        Action::Play { play, .. } => play,
        _ => unreachable!(),
    }
}

fn play_kind(deal: &mut Deal, seat: Seat, text: &str, kind: Kind) -> Play {
    play_as(deal, seat, text, |p| p.shape.kind == kind)
}

fn reject_play(deal: &mut Deal, seat: Seat, text: &str) -> DealError {
    let action = play_action(deal, seat, text, |_| true);
    reject(deal, action)
}

fn pass(deal: &mut Deal, seat: Seat) {
    act(deal, Action::Pass { seat });
}

/// `seat` leads `text`; everyone else passes, so `seat` has the lead again (unless the deal ended).
fn lead(deal: &mut Deal, seat: Seat, text: &str) {
    assert!(deal.trick().is_none(), "seat {seat} is not on lead");
    play(deal, seat, text);
    for k in 1..deal.players() {
        if deal.phase() == Phase::Over {
            return;
        }
        pass(deal, (seat + k) % deal.players());
    }
}

/// `seat` holds the trick or has the lead: the others pass and `seat` plays its hand out, each time the
/// largest play that is not a bomb (a bomb only when nothing else is left), never leaving the Wild alone.
fn run_out(deal: &mut Deal, seat: Seat) {
    while deal.phase() != Phase::Over {
        let turn = deal.turn();
        if turn != seat {
            assert!(deal.trick().is_some(), "seat {turn} leads, not seat {seat}");
            pass(deal, turn);
            continue;
        }
        assert!(deal.trick().is_none(), "seat {seat} does not hold the trick");
        let hand = deal.hand(seat);
        let wild_alone = CardSet::from_cards([Card::WILD]).unwrap();
        let best = deal
            .choices()
            .into_iter()
            .filter_map(|a| match a {
                Action::Play { cards, play, .. } => Some((cards, play, a)),
                _ => None,
            })
            .max_by_key(|(cards, play, _)| {
                (hand.minus(*cards) != wild_alone, !play.shape.is_bomb_or_rocket(), cards.len())
            })
            .expect("a leader has a play")
            .2;
        act(deal, best);
    }
}

/// Plays the deal to its end taking the first choice each time.
fn finish(deal: &mut Deal) {
    while deal.phase() != Phase::Over {
        let choice = deal.choices().into_iter().next().expect("a choice");
        act(deal, choice);
    }
}

/// Plays the deal to its end taking random choices.
fn random_finish(deal: &mut Deal, rng: &mut ChaCha8Rng) {
    while deal.phase() != Phase::Over {
        let choices = deal.choices();
        let choice = choices[rng.random_range(0..choices.len())].clone();
        act(deal, choice);
    }
}

/// Drives the auction so that `landlord` becomes landlord (No Shuffle: with a bid of 3), and has every
/// House seat acknowledge the middle cards.
fn choose_landlord(deal: &mut Deal, landlord: Seat) {
    match deal.rules().table {
        TableType::House => {
            while deal.turn() != landlord {
                pass(deal, deal.turn());
            }
            act(deal, Action::Take { seat: landlord });
            for seat in 0..3 {
                act(deal, Action::Seen { seat });
            }
        }
        TableType::NoShuffle => {
            while deal.turn() != landlord {
                act(deal, Action::Bid { seat: deal.turn(), bid: 0 });
            }
            act(deal, Action::Bid { seat: landlord, bid: 3 });
        }
        TableType::TwoPlayer => {
            let other = 1 - landlord;
            if deal.turn() == other {
                act(deal, Action::Call { seat: other, call: false });
                act(deal, Action::Call { seat: landlord, call: true });
            } else {
                act(deal, Action::Call { seat: landlord, call: true });
                act(deal, Action::Rob { seat: other, rob: false });
            }
        }
    }
    assert_eq!(deal.landlord(), Some(landlord));
    assert_eq!(deal.phase(), Phase::Play);
}

/// A seat's last move as the table shows it: "passed", its cards "now" (in the trick) or "before".
fn move_word(last: &LastMove) -> String {
    match last {
        LastMove::Passed => "passed".into(),
        LastMove::Played { cards, in_trick, .. } => format!("{cards} {}", if *in_trick { "now" } else { "before" }),
        LastMove::Auction { action } => format!("{action:?}"),
    }
}

fn bid(deal: &mut Deal, seat: Seat, bid: u8) {
    act(deal, Action::Bid { seat, bid });
}

/// What `viewer` must not see: other seats' hands (less the revealed middle cards), the unused cards,
/// and the bottom before the landlord is chosen.
fn hidden_from(deal: &Deal, viewer: Option<Seat>) -> CardSet {
    let revealed = if deal.landlord().is_some() { deal.bottom() } else { CardSet::EMPTY };
    let mut hidden = deal.unused();
    if deal.landlord().is_none() {
        hidden = hidden.union(deal.bottom());
    }
    // Once the deal is over every hand is shown face up; the unused cards stay hidden.
    let over = deal.result().is_some();
    for seat in (0..deal.players()).filter(|&s| Some(s) != viewer && !over) {
        hidden = hidden.union(deal.hand(seat).minus(revealed));
    }
    hidden
}

/// Checks every seat's view and a spectator's view of the deal as it stands.
fn check_views(deal: &Deal) {
    let viewers = (0..deal.players()).map(Some).chain([None]);
    for viewer in viewers {
        let view = deal.view(viewer);
        assert_eq!(view.bottom, deal.landlord().map(|_| deal.bottom()), "the bottom is shown once the landlord has it");
        assert_eq!(view.wild_rank, deal.rules().wild_rank());
        let (shown, json) = scan_view(deal, viewer);
        let leaked = shown.intersection(hidden_from(deal, viewer));
        assert!(leaked.is_empty(), "the view of {viewer:?} shows {leaked} after {:?}: {json}", deal.actions().last());
    }
}

fn score(deal: &Deal) -> Vec<i64> {
    deal.result().expect("the deal is over").score.clone()
}

/// `pack` with its first `cut` cards moved to the bottom.
fn cut_pack(pack: &[Card], cut: usize) -> Vec<Card> {
    pack[cut..].iter().chain(&pack[..cut]).copied().collect()
}

/// The cuts of `pack` after which this deal's bottom is the last cards and the hands share out the rest.
fn find_cuts(deal: &Deal, pack: &[Card]) -> Vec<usize> {
    let hand_cards = deal.players() * deal.rules().hand_size as usize;
    (0..pack.len())
        .filter(|&cut| {
            let rotated = cut_pack(pack, cut);
            let dealt = CardSet::from_cards(rotated[..hand_cards].iter().copied()).unwrap();
            let bottom = CardSet::from_cards(rotated[hand_cards..].iter().copied()).unwrap();
            let hands = (0..deal.players()).fold(CardSet::EMPTY, |all, s| all.union(deal.hand(s)));
            bottom == deal.bottom() && dealt == hands
        })
        .collect()
}

/// The lengths of the runs of consecutive cards (in the cut pack) that went to the same seat.
fn seat_runs(deal: &Deal, rotated: &[Card]) -> Vec<usize> {
    let hand_cards = deal.players() * deal.rules().hand_size as usize;
    let seat_of = |card: Card| (0..deal.players()).find(|&s| deal.hand(s).contains(card)).unwrap();
    let mut runs: Vec<usize> = Vec::new();
    let mut last = None;
    for &card in &rotated[..hand_cards] {
        let seat = seat_of(card);
        match runs.last_mut() {
            Some(run) if last == Some(seat) => *run += 1,
            _ => runs.push(1),
        }
        last = Some(seat);
    }
    runs
}

/// A finished No Shuffle deal's collected pack (its first deal played at random to the end).
fn collected_no_shuffle_pack(seed: u64) -> Vec<Card> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = fresh(Rules::no_shuffle(false), seed, Start::Random);
    random_finish(&mut deal, &mut rng);
    deal.collected_pack()
}

// ---------------------------------------------------------------------------------------------------
// Section 2: trick play
// ---------------------------------------------------------------------------------------------------

/// 2.1 The landlord leads the first trick with any legal play.
#[test]
fn landlord_leads_first() {
    for rules in Rules::ALL {
        let players = rules.players as usize;
        for landlord in 0..players {
            let mut deal = fresh(rules, 40 + landlord as u64, Start::Seat(1 % players));
            choose_landlord(&mut deal, landlord);
            assert_eq!(deal.turn(), landlord, "{rules}");
            assert_eq!(deal.waiting_for(), vec![landlord]);
            assert!(deal.trick().is_none(), "the first trick is a free lead");
            for other in (0..players).filter(|&s| s != landlord) {
                let card = deal.hand(other).iter().find(|c| !c.is_wild()).unwrap();
                let err = reject_play(&mut deal, other, &card.to_string());
                assert!(matches!(err, DealError::NotYourTurn { .. }), "{err}");
            }
            let choices = deal.choices();
            assert!(
                choices.iter().all(|a| matches!(a, Action::Play { seat, .. } if *seat == landlord)),
                "the landlord's choices are plays"
            );
            let last = choices.last().unwrap().clone();
            act(&mut deal, last);
            assert_eq!(deal.trick().map(|t| t.seat), Some(landlord));
        }
    }
}

/// 2.2 A follower plays the same type and shape higher, or passes; a bomb beats any non-bomb; a rocket
/// beats everything; nothing beats a rocket.
#[test]
fn follower_must_match_type_and_shape_or_bomb() {
    // Seat 0: 3333 4444 5555 6666 7S + 2C BJ RJ; seat 1: 777 8888 9999 TTTT JJ; seat 2: JJ QQQQ KKKK AAAA 222.
    let mut deal = plain(Rules::no_shuffle(false), 0);
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S 3H");
    assert!(matches!(reject_play(&mut deal, 1, "7H"), DealError::DoesNotBeat { .. }));
    assert!(matches!(reject_play(&mut deal, 1, "7H 7D 7C"), DealError::DoesNotBeat { .. }));
    play(&mut deal, 1, "7H 7D");
    play(&mut deal, 2, "JD JC");
    // A lower pair does not beat; a bomb beats the pair; a higher bomb beats a bomb.
    assert!(matches!(reject_play(&mut deal, 0, "4S 4H"), DealError::DoesNotBeat { .. }));
    play_kind(&mut deal, 0, "4S 4H 4D 4C", Kind::Bomb);
    play_kind(&mut deal, 1, "8S 8H 8D 8C", Kind::Bomb);
    play_kind(&mut deal, 2, "QS QH QD QC", Kind::Bomb);
    assert!(matches!(reject_play(&mut deal, 0, "5S 5H 5D 5C"), DealError::DoesNotBeat { .. }));
    play_kind(&mut deal, 0, "BJ RJ", Kind::Rocket);
    assert!(matches!(reject_play(&mut deal, 1, "9S 9H 9D 9C"), DealError::DoesNotBeat { .. }));
    pass(&mut deal, 1);
    pass(&mut deal, 2);
    // Triple + pair is followed only by triple + pair.
    play(&mut deal, 0, "5S 5H 5D 3D 3C");
    pass(&mut deal, 1);
    assert!(matches!(reject_play(&mut deal, 2, "KS KH KD"), DealError::DoesNotBeat { .. }));
    assert!(matches!(reject_play(&mut deal, 2, "KS KH KD 2S"), DealError::DoesNotBeat { .. }));
    let followed = play(&mut deal, 2, "KS KH KD 2S 2H");
    assert_eq!(followed.shape.kind, Kind::Triples);

    // Straights follow straights of the same length only.
    let mut deal = stack(Rules::no_shuffle(false), 0, &["3S 4S 5S 6S 7S", "4H 5H 6H 7H 8H 9H", ""], "BJ RJ 2C");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S 4S 5S 6S 7S");
    assert!(matches!(reject_play(&mut deal, 1, "4H 5H 6H 7H 8H 9H"), DealError::DoesNotBeat { .. }));
    play(&mut deal, 1, "4H 5H 6H 7H 8H");

    // House: the Wild with a joker is a rocket and beats a bomb.
    let mut deal = stack(Rules::house(true), 0, &["3S 3H 3D 3C", "W BJ", ""], "2S 2H 2D 2C");
    choose_landlord(&mut deal, 0);
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    let rocket = play_kind(&mut deal, 1, "W BJ", Kind::Rocket);
    assert_eq!(rocket.shape.kind, Kind::Rocket);
    pass(&mut deal, 2);
    assert!(matches!(reject_play(&mut deal, 0, "2S 2H 2D 2C"), DealError::DoesNotBeat { .. }));
}

/// 2.3 When every other player has passed in a row after a play, its player wins the trick and leads.
#[test]
fn trick_ends_when_all_others_pass_and_winner_leads() {
    let mut deal = plain(Rules::no_shuffle(false), 0);
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    pass(&mut deal, 1);
    assert_eq!(deal.trick().map(|t| t.seat), Some(0), "one pass is not enough");
    assert_eq!(deal.turn(), 2);
    play(&mut deal, 2, "QS");
    pass(&mut deal, 0);
    assert_eq!(deal.trick().map(|t| t.seat), Some(2), "passes before a beat do not count");
    assert_eq!(deal.turn(), 1);
    pass(&mut deal, 1);
    assert!(deal.trick().is_none(), "two passes in a row end the trick");
    assert_eq!(deal.turn(), 2, "the trick's winner leads");
    // The table shows the ended trick until the next lead: the play and the two passes after it.
    let shown = |deal: &Deal| deal.last_moves().iter().map(|m| m.as_ref().map(move_word)).collect::<Vec<_>>();
    assert_eq!(shown(&deal), [Some("passed".into()), Some("passed".into()), Some("QS now".into())]);
    // A new trick may be of any type.
    play(&mut deal, 2, "JD JC");
    assert_eq!(shown(&deal), [None, None, Some("JD JC now".into())], "a new lead clears the passes");
    pass(&mut deal, 0);
    assert_eq!(shown(&deal), [Some("passed".into()), None, Some("JD JC now".into())]);

    // Two Player: one pass ends the trick.
    let mut deal = plain(Rules::two_player(false), 0);
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "5S");
    pass(&mut deal, 1);
    assert!(deal.trick().is_none());
    assert_eq!(deal.turn(), 0);
}

/// 2.3 A leader must play; passing on one's own lead is not allowed.
#[test]
fn leader_cannot_pass() {
    for rules in Rules::ALL {
        let mut deal = plain(rules, 0);
        choose_landlord(&mut deal, 0);
        assert_eq!(reject(&mut deal, Action::Pass { seat: 0 }), DealError::CannotPassOnLead);
        assert!(!deal.choices().contains(&Action::Pass { seat: 0 }), "{rules}: pass offered on the opening lead");
        // After winning a trick, the winner cannot pass either.
        let lowest = deal.hand(0).iter().find(|c| !c.is_wild()).unwrap();
        play(&mut deal, 0, &lowest.to_string());
        for seat in 1..deal.players() {
            pass(&mut deal, seat);
        }
        assert_eq!(deal.turn(), 0);
        assert_eq!(reject(&mut deal, Action::Pass { seat: 0 }), DealError::CannotPassOnLead);
        assert!(!deal.choices().contains(&Action::Pass { seat: 0 }));
    }
}

/// 2.4 The deal ends the moment a player empties their hand.
#[test]
fn deal_ends_the_moment_a_player_empties_their_hand() {
    for rules in [Rules::house(false), Rules::no_shuffle(false)] {
        let mut deal = plain(rules, 0);
        choose_landlord(&mut deal, 0);
        run_out(&mut deal, 0);
        assert_eq!(deal.phase(), Phase::Over);
        assert!(deal.hand(0).is_empty());
        let result = deal.result().unwrap();
        assert_eq!(result.end, End::Out);
        assert_eq!(result.winner, Some(0));
        assert_eq!(result.landlord_won, Some(true));
        assert!(deal.choices().is_empty());
        assert_eq!(reject(&mut deal, Action::Pass { seat: 1 }), DealError::DealOver);
        assert_eq!(reject(&mut deal, Action::Abandon), DealError::DealOver);
    }
}

/// 2.5 [decision] A player whose hand holds only the Wild cannot lead: the lead moves on, and they can no
/// longer go out.
#[test]
fn wild_only_hand_cannot_lead_and_lead_moves_on() {
    let mut deal =
        stack(Rules::house(true), 0, &["3S", "W 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 4H 5H 6H 7H", ""], "BJ RJ 2H 2D");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    play(&mut deal, 1, "4H");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    assert_eq!(deal.turn(), 1);
    lead(&mut deal, 1, "4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S");
    lead(&mut deal, 1, "5H");
    lead(&mut deal, 1, "6H");
    // Seat 1 wins this trick with only the Wild left: the lead passes to seat 2.
    lead(&mut deal, 1, "7H");
    assert_eq!(deal.hand(1), cards("W"));
    assert!(deal.trick().is_none());
    assert_eq!(deal.turn(), 2, "the lead moves on from a Wild-only hand");
    assert_eq!(deal.waiting_for(), vec![2]);
    assert_eq!(reject(&mut deal, Action::Pass { seat: 2 }), DealError::CannotPassOnLead);
    assert!(matches!(reject(&mut deal, Action::Pass { seat: 1 }), DealError::NotYourTurn { .. }));
    let single = deal.hand(2).iter().next().unwrap();
    play(&mut deal, 2, &single.to_string());
    pass(&mut deal, 0);
    // The Wild is never played alone: seat 1 can only pass.
    assert_eq!(deal.choices(), vec![Action::Pass { seat: 1 }]);
    assert_eq!(readings(deal.rules(), cards("W").counts()), Err(PlayError::WildAlone));
    pass(&mut deal, 1);
    assert_eq!(deal.turn(), 2);
    finish(&mut deal);
    let result = deal.result().unwrap();
    assert_ne!(result.winner, Some(1), "a Wild-only hand cannot go out");
    assert_eq!(deal.hand(1), cards("W"));
}

/// Section 2: turns go to the left (0, 1, 2, 0, ...); Two Player alternates seats 0 and 1.
#[test]
fn turn_order_goes_to_the_left_and_two_player_alternates() {
    let mut deal = plain(Rules::no_shuffle(false), 2);
    assert_eq!(deal.turn(), 2);
    bid(&mut deal, 2, 0);
    assert_eq!(deal.turn(), 0);
    bid(&mut deal, 0, 0);
    assert_eq!(deal.turn(), 1);
    bid(&mut deal, 1, 1);
    assert_eq!(deal.landlord(), Some(1));
    play(&mut deal, 1, "7H");
    assert_eq!(deal.turn(), 2);
    pass(&mut deal, 2);
    assert_eq!(deal.turn(), 0);

    let mut deal = plain(Rules::two_player(false), 1);
    assert_eq!(deal.turn(), 1);
    choose_landlord(&mut deal, 1);
    for expected in [0, 1, 0, 1] {
        let choice = deal.choices()[0].clone();
        act(&mut deal, choice);
        assert_eq!(deal.turn(), expected);
    }
}

// ---------------------------------------------------------------------------------------------------
// Section 5: choosing the landlord
// ---------------------------------------------------------------------------------------------------

/// Checks the rounds of a House priority draw: each round the contenders draw, the highest card wins,
/// and tied highest cards redraw.
fn check_priority_draws(deal: &Deal) -> usize {
    let draws = deal.priority_draws();
    assert!(!draws.is_empty(), "the first House deal draws for priority");
    let mut contenders: Vec<Seat> = vec![0, 1, 2];
    for (i, round) in draws.iter().enumerate() {
        assert_eq!(round.len(), 3);
        let drawn: Vec<Seat> = (0..3).filter(|&s| round[s].is_some()).collect();
        assert_eq!(drawn, contenders, "round {i}: only the tied seats redraw");
        let cards: Vec<Card> = round.iter().flatten().copied().collect();
        assert!(cards.iter().all(|c| !c.is_wild()), "no Wild in the draw");
        let set = CardSet::from_cards(cards.iter().copied()).expect("one deck per round");
        assert_eq!(set.len(), cards.len());
        let best = cards.iter().map(|c| c.rank().unwrap()).max().unwrap();
        let winners: Vec<Seat> =
            contenders.iter().copied().filter(|&s| round[s].unwrap().rank() == Some(best)).collect();
        if i + 1 == draws.len() {
            assert_eq!(winners, vec![deal.first()], "the highest card goes first");
        } else {
            assert!(winners.len() >= 2, "round {i} had a single highest card");
        }
        contenders = winners;
    }
    draws.len()
}

/// 5.1 Deal 1: each player draws a priority card; the highest (jokers highest) has the first option;
/// [decision] tied highest cards redraw.
#[test]
fn house_priority_draw_picks_highest_card_and_ties_redraw() {
    let mut tie_seed = None;
    let mut firsts = BTreeSet::new();
    for n in 0..300u64 {
        let deal = fresh(Rules::house(true), n, Start::PriorityDraw);
        let rounds = check_priority_draws(&deal);
        if rounds >= 2 && tie_seed.is_none() {
            tie_seed = Some(n);
        }
        firsts.insert(deal.first());
        assert_eq!(deal.turn(), deal.first(), "the first option is asked first");
        for seat in [Some(0), Some(1), Some(2), None] {
            assert_eq!(deal.view(seat).priority_draws, deal.priority_draws());
        }
    }
    let n = tie_seed.expect("some seed among 300 has a tie");
    let deal = fresh(Rules::house(true), n, Start::PriorityDraw);
    let first_round = &deal.priority_draws()[0];
    let tied: Vec<Seat> = (0..3).filter(|&s| deal.priority_draws()[1][s].is_some()).collect();
    assert!(tied.len() >= 2, "seed {n}: {first_round:?}");
    let rank = |s: Seat| first_round[s].unwrap().rank().unwrap();
    assert!(tied.iter().all(|&s| rank(s) == rank(tied[0])));
    assert!(tied.contains(&deal.first()));
    assert_eq!(firsts.len(), 3, "every seat can win the draw");

    // A joker is the highest priority card.
    for n in 0..300u64 {
        let deal = fresh(Rules::house(false), n, Start::PriorityDraw);
        let round = &deal.priority_draws()[0];
        if let Some(seat) = (0..3).find(|&s| round[s] == Some(Card::RED_JOKER)) {
            assert_eq!(deal.first(), seat, "seed {n}: the Red Joker wins the draw");
        }
    }
}

/// 5.1 Later deals: the first option moves one seat to the left each deal, whoever was landlord.
#[test]
fn house_first_option_rotates_one_seat_left_across_three_deals() {
    let names = names(3);
    let mut ledger = Ledger::new(Rules::house(true));
    let setup = ledger.next_setup(Seed::from_u64(5));
    assert_eq!(setup.start, Start::PriorityDraw);
    let mut deal = Deal::new(setup);
    let first = deal.first();
    // The first-option seat passes; the next takes.
    pass(&mut deal, first);
    act(&mut deal, Action::Take { seat: (first + 1) % 3 });
    finish(&mut deal);
    ledger.record(&deal, &names);
    for k in 1..=3 {
        let setup = ledger.next_setup(Seed::from_u64(5 + k as u64));
        let expected = (first + k) % 3;
        assert_eq!(setup.start, Start::Seat(expected), "deal {}", k + 1);
        let mut deal = Deal::new(setup);
        assert_eq!(deal.first(), expected);
        assert_eq!(deal.turn(), expected);
        assert!(deal.priority_draws().is_empty(), "only deal 1 draws");
        // A different landlord each time: the rotation does not follow the landlord.
        let landlord = (expected + k) % 3;
        choose_landlord(&mut deal, landlord);
        finish(&mut deal);
        ledger.record(&deal, &names);
    }
}

/// 5.1 If the first two pass, the third must take.
#[test]
fn house_third_seat_must_take() {
    for wild in [true, false] {
        let mut deal = plain(Rules::house(wild), 1);
        assert_eq!(deal.choices(), vec![Action::Take { seat: 1 }, Action::Pass { seat: 1 }]);
        pass(&mut deal, 1);
        pass(&mut deal, 2);
        assert_eq!(deal.turn(), 0);
        assert_eq!(deal.choices(), vec![Action::Take { seat: 0 }]);
        assert_eq!(reject(&mut deal, Action::Pass { seat: 0 }), DealError::MustTake);
        act(&mut deal, Action::Take { seat: 0 });
        assert_eq!(deal.landlord(), Some(0));
        assert_eq!(deal.hand(0).len(), 17 + if wild { 4 } else { 3 });
        assert!(deal.bottom().is_subset(deal.hand(0)));
    }
}

/// 5.1 The landlord adds the middle cards (4 with the Wild, 3 without); they are shown to everyone, and
/// all three players must acknowledge them before the landlord leads.
#[test]
fn house_middle_cards_must_be_acknowledged_by_all_before_the_landlord_leads() {
    for wild in [true, false] {
        let mut deal = plain(Rules::house(wild), 1);
        let middle = deal.bottom();
        assert_eq!(middle.len(), if wild { 4 } else { 3 });
        for seat in [Some(0), Some(1), Some(2), None] {
            assert_eq!(deal.view(seat).bottom, None, "hidden before the take");
        }
        act(&mut deal, Action::Take { seat: 1 });
        assert_eq!(deal.phase(), Phase::Reveal);
        assert_eq!(deal.hand(1).len(), 17 + middle.len());
        assert!(middle.is_subset(deal.hand(1)));
        for seat in [Some(0), Some(1), Some(2), None] {
            assert_eq!(deal.view(seat).bottom, Some(middle), "shown to everyone");
        }
        assert_eq!(deal.waiting_for(), vec![0, 1, 2]);
        let lowest = deal.hand(1).iter().next().unwrap().to_string();
        assert!(matches!(reject_play(&mut deal, 1, &lowest), DealError::WrongPhase { .. }));
        act(&mut deal, Action::Seen { seat: 2 });
        assert_eq!(reject(&mut deal, Action::Seen { seat: 2 }), DealError::AlreadySeen(2));
        act(&mut deal, Action::Seen { seat: 0 });
        assert_eq!(deal.phase(), Phase::Reveal);
        assert_eq!(deal.waiting_for(), vec![1]);
        assert!(matches!(reject_play(&mut deal, 1, &lowest), DealError::WrongPhase { .. }));
        act(&mut deal, Action::Seen { seat: 1 });
        assert_eq!(deal.phase(), Phase::Play);
        assert_eq!(deal.turn(), 1);
        play(&mut deal, 1, &lowest);
    }
}

/// 5.2 Bids are pass, 1, 2 or 3; each bid must be higher than the current one; 3 ends the auction.
#[test]
fn no_shuffle_bids_must_rise_and_three_ends_the_auction() {
    let mut deal = plain(Rules::no_shuffle(false), 0);
    assert_eq!(reject(&mut deal, Action::Bid { seat: 0, bid: 4 }), DealError::BadBid);
    bid(&mut deal, 0, 1);
    let offered: Vec<u8> = deal
        .choices()
        .iter()
        .map(|a| match a {
            Action::Bid { bid, .. } => *bid,
            _ => panic!("{a:?}"),
        })
        .collect();
    assert_eq!(offered, vec![0, 2, 3]);
    assert_eq!(reject(&mut deal, Action::Bid { seat: 1, bid: 1 }), DealError::BidTooLow { bid: 1, current: 1 });
    bid(&mut deal, 1, 3);
    assert_eq!(deal.landlord(), Some(1), "3 ends the auction at once");
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.auction_value(), 3);
    assert_eq!(*deal.auction(), Auction::Bidding { bids: vec![1, 3] }, "seat 2 never bid");

    let mut deal = plain(Rules::no_shuffle(false), 2);
    bid(&mut deal, 2, 3);
    assert_eq!(deal.landlord(), Some(2));
    assert_eq!(deal.auction_value(), 3);
    assert!(matches!(reject(&mut deal, Action::Bid { seat: 2, bid: 0 }), DealError::WrongPhase { .. }));
}

/// 5.2 Otherwise the highest bidder wins after everyone has bid once.
#[test]
fn no_shuffle_highest_bidder_wins_after_everyone_bid_once() {
    let mut deal = plain(Rules::no_shuffle(false), 1);
    bid(&mut deal, 1, 1);
    bid(&mut deal, 2, 2);
    assert_eq!(deal.phase(), Phase::Auction, "seat 0 has not bid yet");
    assert_eq!(deal.landlord(), None);
    bid(&mut deal, 0, 0);
    assert_eq!(deal.landlord(), Some(2));
    assert_eq!(deal.auction_value(), 2);
    assert_eq!(deal.turn(), 2);

    let mut deal = plain(Rules::no_shuffle(false), 1);
    bid(&mut deal, 1, 2);
    bid(&mut deal, 2, 0);
    bid(&mut deal, 0, 0);
    assert_eq!(deal.landlord(), Some(1));
    assert_eq!(deal.auction_value(), 2);
}

/// 5.2 If all pass, the first bidder becomes landlord at 1 point.
#[test]
fn no_shuffle_all_pass_makes_first_bidder_landlord_at_one() {
    let mut deal = plain(Rules::no_shuffle(false), 2);
    for seat in [2, 0, 1] {
        bid(&mut deal, seat, 0);
    }
    assert_eq!(deal.landlord(), Some(2));
    assert_eq!(deal.auction_value(), 1);
    assert_eq!(deal.hand(2).len(), 20);
    run_out(&mut deal, 2);
    let result = deal.result().unwrap();
    assert_eq!(result.auction_value, 1);
    let expected = i64::from(result.multiplier);
    assert_eq!(result.score, vec![-expected, -expected, 2 * expected]);
}

/// 5.2 [decision] The first bidder is random on the first deal and moves one seat left each deal.
#[test]
fn no_shuffle_first_bidder_rotates() {
    let firsts: BTreeSet<Seat> = (0..40)
        .map(|n| {
            let ledger = Ledger::new(Rules::no_shuffle(false));
            let setup = ledger.next_setup(Seed::from_u64(n));
            assert_eq!(setup.start, Start::Random);
            Deal::new(setup).first()
        })
        .collect();
    assert_eq!(firsts.len(), 3, "the first bidder of a room is random");

    let names = names(3);
    let mut ledger = Ledger::new(Rules::no_shuffle(false));
    let mut deal = Deal::new(ledger.next_setup(Seed::from_u64(3)));
    let first = deal.first();
    finish(&mut deal);
    ledger.record(&deal, &names);
    for k in 1..=3 {
        let setup = ledger.next_setup(Seed::from_u64(3 + k as u64));
        assert_eq!(setup.start, Start::Seat((first + k) % 3));
        let mut deal = Deal::new(setup);
        assert_eq!(deal.first(), (first + k) % 3);
        assert_eq!(deal.turn(), (first + k) % 3);
        finish(&mut deal);
        ledger.record(&deal, &names);
    }
}

/// 5.2 The landlord receives the 3 bottom cards, shown to everyone.
#[test]
fn no_shuffle_landlord_receives_the_bottom_shown_to_all() {
    for rules in [Rules::no_shuffle(false), Rules::no_shuffle(true)] {
        let mut deal = fresh(rules, 9, Start::Seat(0));
        let bottom = deal.bottom();
        assert_eq!(bottom.len(), 3);
        for seat in [Some(0), Some(1), Some(2), None] {
            assert_eq!(deal.view(seat).bottom, None);
        }
        choose_landlord(&mut deal, 1);
        assert_eq!(deal.hand(1).len(), 20);
        assert!(bottom.is_subset(deal.hand(1)));
        for seat in [Some(0), Some(1), Some(2), None] {
            assert_eq!(deal.view(seat).bottom, Some(bottom));
        }
    }
}

/// 5.3 [decision] The first player is random on the first deal and alternates after.
#[test]
fn two_player_first_caller_alternates() {
    let firsts: BTreeSet<Seat> = (0..20).map(|n| fresh(Rules::two_player(false), n, Start::Random).first()).collect();
    assert_eq!(firsts.len(), 2);

    let names = names(2);
    let mut ledger = Ledger::new(Rules::two_player(true));
    let setup = ledger.next_setup(Seed::from_u64(1));
    assert_eq!(setup.start, Start::Random);
    let mut deal = Deal::new(setup);
    let first = deal.first();
    finish(&mut deal);
    ledger.record(&deal, &names);
    for k in 1..=3 {
        let mut deal = Deal::new(ledger.next_setup(Seed::from_u64(1 + k as u64)));
        assert_eq!(deal.first(), (first + k) % 2);
        finish(&mut deal);
        ledger.record(&deal, &names);
    }
}

/// 5.3 The first player calls or declines; if they decline, the other player may call.
#[test]
fn two_player_decline_then_other_calls() {
    let mut deal = plain(Rules::two_player(false), 1);
    assert_eq!(deal.choices(), vec![Action::Call { seat: 1, call: true }, Action::Call { seat: 1, call: false }]);
    act(&mut deal, Action::Call { seat: 1, call: false });
    assert_eq!(deal.turn(), 0);
    act(&mut deal, Action::Call { seat: 0, call: true });
    assert_eq!(deal.landlord(), Some(0));
    assert_eq!(deal.auction_value(), 1);
    assert_eq!(deal.hand(0).len(), 20);
}

/// 5.3 If neither calls, the first player becomes landlord.
#[test]
fn two_player_neither_calls_first_player_is_landlord() {
    for first in [0, 1] {
        let mut deal = plain(Rules::two_player(false), first);
        act(&mut deal, Action::Call { seat: first, call: false });
        act(&mut deal, Action::Call { seat: 1 - first, call: false });
        assert_eq!(deal.landlord(), Some(first));
        assert_eq!(deal.auction_value(), 1);
        assert_eq!(deal.allowance(), Some(1));
        assert_eq!(deal.turn(), first);
    }
}

/// 5.3 After a call the other may rob, then the first rob back, up to four robs; the last to call or rob is
/// landlord; [decision] the auction value doubles with each rob (1, 2, 4, 8, 16).
#[test]
fn two_player_robs_alternate_up_to_four_and_double_the_auction_value() {
    let mut deal = plain(Rules::two_player(false), 0);
    act(&mut deal, Action::Call { seat: 0, call: true });
    assert_eq!(deal.auction_value(), 1);
    assert_eq!(deal.turn(), 1);
    for (robber, value) in [(1, 2), (0, 4), (1, 8), (0, 16)] {
        assert_eq!(deal.turn(), robber);
        act(&mut deal, Action::Rob { seat: robber, rob: true });
        assert_eq!(deal.auction_value(), value);
    }
    assert_eq!(deal.landlord(), Some(0), "the fourth robber is landlord");
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.allowance(), Some(5));
    assert!(matches!(reject(&mut deal, Action::Rob { seat: 0, rob: true }), DealError::WrongPhase { .. }));

    // The last to call or rob is landlord when the other lets it stand.
    let mut deal = plain(Rules::two_player(false), 1);
    act(&mut deal, Action::Call { seat: 1, call: true });
    act(&mut deal, Action::Rob { seat: 0, rob: true });
    act(&mut deal, Action::Rob { seat: 1, rob: false });
    assert_eq!(deal.landlord(), Some(0));
    assert_eq!(deal.auction_value(), 2);

    let mut deal = plain(Rules::two_player(false), 1);
    act(&mut deal, Action::Call { seat: 1, call: true });
    act(&mut deal, Action::Rob { seat: 0, rob: false });
    assert_eq!(deal.landlord(), Some(1));
    assert_eq!(deal.auction_value(), 1);
}

/// 5.3 A player who declined to call may not rob.
#[test]
fn two_player_decliner_cannot_rob() {
    let mut deal = plain(Rules::two_player(false), 0);
    act(&mut deal, Action::Call { seat: 0, call: false });
    act(&mut deal, Action::Call { seat: 1, call: true });
    // No chance to rob: the caller is landlord at once.
    assert_eq!(deal.landlord(), Some(1));
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.auction_value(), 1);
    assert!(deal.choices().iter().all(|a| !matches!(a, Action::Rob { .. })));
    let err = reject(&mut deal, Action::Rob { seat: 0, rob: true });
    assert!(
        matches!(err, DealError::WrongPhase { .. } | DealError::NotYourTurn { .. } | DealError::DeclinedCannotRob),
        "{err}"
    );
}

/// 5.3 The landlord receives the 3 bottom cards; the 9 other undealt cards stay hidden and out of play.
#[test]
fn two_player_nine_unused_cards_stay_hidden() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for rules in [Rules::two_player(false), Rules::two_player(true)] {
        for n in 0..20 {
            let mut deal = fresh(rules, n, Start::Random);
            let unused = deal.unused();
            assert_eq!(unused.len(), 9);
            assert_eq!(deal.bottom().len(), 3);
            let dealt = deal.hand(0).union(deal.hand(1)).union(deal.bottom());
            assert!(dealt.intersection(unused).is_empty());
            assert_eq!(dealt.union(unused), rules.deck());
            let bottom = deal.bottom();
            check_views(&deal);
            let landlord = (n % 2) as Seat;
            choose_landlord(&mut deal, landlord);
            assert_eq!(deal.hand(landlord).len(), 20);
            assert!(bottom.is_subset(deal.hand(landlord)));
            assert!(deal.hand(landlord).intersection(unused).is_empty());
            // A card out of play cannot be played.
            let stray = unused.iter().next().unwrap();
            let err = reject_play(&mut deal, landlord, &stray.to_string());
            assert!(matches!(err, DealError::NotInHand(_)), "{err}");
            while deal.phase() != Phase::Over {
                check_views(&deal);
                let choices = deal.choices();
                let choice = choices[rng.random_range(0..choices.len())].clone();
                act(&mut deal, choice);
            }
            check_views(&deal);
            assert_eq!(deal.unused(), unused, "the unused cards never move");
        }
    }
}

/// 5.3 / 6.3 The allowance is 1 card plus 1 per rob; the farmer wins the moment their hand is at or below it.
#[test]
fn two_player_allowance_is_one_plus_robs_and_farmer_wins_at_it() {
    let mut deal = stack(Rules::two_player(false), 0, &["5S 7S", "6S 8S"], "2S 2H 2D");
    act(&mut deal, Action::Call { seat: 0, call: true });
    assert_eq!(deal.allowance(), Some(1));
    act(&mut deal, Action::Rob { seat: 1, rob: true });
    assert_eq!(deal.allowance(), Some(2));
    act(&mut deal, Action::Rob { seat: 0, rob: true });
    assert_eq!(deal.allowance(), Some(3));
    act(&mut deal, Action::Rob { seat: 1, rob: false });
    assert_eq!(deal.landlord(), Some(0));
    assert_eq!(deal.auction_value(), 4);
    assert_eq!(deal.allowance(), Some(3));
    for seat in [Some(0), Some(1)] {
        assert_eq!(deal.view(seat).allowance, Some(3));
    }
    // The landlord plays twice, so there is no spring.
    play(&mut deal, 0, "5S");
    play(&mut deal, 1, "6S");
    play(&mut deal, 0, "7S");
    play(&mut deal, 1, "8S");
    pass(&mut deal, 0);
    while deal.hand(1).len() > 4 {
        let card = deal.hand(1).iter().next().unwrap();
        lead(&mut deal, 1, &card.to_string());
    }
    assert_eq!(deal.phase(), Phase::Play, "4 cards is above the allowance");
    let card = deal.hand(1).iter().next().unwrap();
    play(&mut deal, 1, &card.to_string());
    assert_eq!(deal.hand(1).len(), 3);
    let result = deal.result().expect("the farmer is at the allowance");
    assert_eq!(result.end, End::Allowance);
    assert_eq!(result.winner, Some(1));
    assert_eq!(result.landlord_won, Some(false));
    assert!(!result.spring);
    assert_eq!(result.multiplier, 1);
    assert_eq!(result.score, vec![-4, 4]);
}

// ---------------------------------------------------------------------------------------------------
// Section 6: winning and scoring
// ---------------------------------------------------------------------------------------------------

/// 6.1 Everyone starts with $100; [decision] balances may go below zero.
#[test]
fn house_balances_start_at_100_and_may_go_below_zero() {
    let names = names(3);
    let mut ledger = Ledger::new(Rules::house(true));
    for name in &names {
        ledger.join(name);
    }
    assert!(ledger.balances.values().all(|&b| b == STARTING_BALANCE && b == 100));
    // Ann (seat 0) is landlord and loses $2 to the tenants.
    let mut deal = stack(Rules::house(true), 0, &["3S", "", "2S"], "4S 4H 4D 4C");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    pass(&mut deal, 1);
    play(&mut deal, 2, "2S");
    pass(&mut deal, 0);
    pass(&mut deal, 1);
    run_out(&mut deal, 2);
    assert_eq!(score(&deal), vec![-2, 1, 1]);
    for _ in 0..60 {
        ledger.record(&deal, &names);
    }
    assert_eq!(ledger.balances["Ann"], -20);
    assert_eq!(ledger.balances["Bob"], 160);
    assert_eq!(ledger.balances.values().sum::<i64>(), 300);
}

/// 6.1 Ante, when the landlord is chosen: the landlord pays $2, each tenant $1 (pot $4).
#[test]
fn house_ante_is_2_and_1() {
    for wild in [true, false] {
        for landlord in 0..3 {
            let mut deal = plain(Rules::house(wild), landlord);
            assert_eq!(deal.paid(), &[0, 0, 0]);
            assert_eq!(deal.pot(), 0);
            act(&mut deal, Action::Take { seat: landlord });
            let expected: Vec<i64> = (0..3).map(|s| if s == landlord { 2 } else { 1 }).collect();
            assert_eq!(deal.paid(), &expected[..]);
            assert_eq!(deal.pot(), 4);
            let view = deal.view(Some(0));
            assert_eq!(view.paid, expected);
            assert_eq!(view.pot, 4);
        }
    }
}

/// 6.1 Each bomb or rocket doubles the ante and the new ante is collected at once: $2 + $1 + $1, then
/// $4 + $2 + $2, then $8 + $4 + $4.
#[test]
fn house_pot_doubles_4_8_16_with_each_bomb() {
    let mut deal = stack(Rules::house(true), 0, &["3S 3H 3D 3C", "5S 5H 5D 5C", "BJ RJ W"], "2S 2H 2D 2C");
    choose_landlord(&mut deal, 0);
    assert_eq!((deal.pot(), deal.ante()), (4, 2));
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    assert_eq!(deal.paid(), &[4, 2, 2]);
    assert_eq!((deal.pot(), deal.ante()), (8, 4));
    play_kind(&mut deal, 1, "5S 5H 5D 5C", Kind::Bomb);
    assert_eq!(deal.paid(), &[8, 4, 4]);
    assert_eq!((deal.pot(), deal.ante()), (16, 8));
    play_kind(&mut deal, 2, "BJ RJ", Kind::Rocket);
    assert_eq!(deal.paid(), &[16, 8, 8]);
    assert_eq!((deal.pot(), deal.ante()), (32, 16));
    assert_eq!(deal.view(Some(1)).pot, 32);
    pass(&mut deal, 0);
    pass(&mut deal, 1);
    run_out(&mut deal, 2);
    assert_eq!(deal.pot(), 32);
    let result = deal.result().unwrap();
    assert_eq!(result.bombs, 3);
    assert_eq!(result.score, vec![-16, 8, 8]);
}

/// 6.1 A bomb or rocket that is the player's last cards collects nothing.
#[test]
fn house_last_card_bomb_collects_nothing() {
    let mut deal =
        stack(Rules::house(false), 0, &["3S 3H 3D 3C 5S 6S 7S 8S 9S TS JS QS KS AS 5H 5D 5C", "", ""], "2S 2H 2D");
    choose_landlord(&mut deal, 0);
    lead(&mut deal, 0, "5S 6S 7S 8S 9S TS JS QS KS AS");
    lead(&mut deal, 0, "5H 5D 5C 2S 2H");
    lead(&mut deal, 0, "2D");
    assert_eq!(deal.hand(0), cards("3S 3H 3D 3C"));
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    let result = deal.result().expect("the bomb went out");
    assert_eq!(result.bombs, 1);
    assert_eq!(deal.paid(), &[2, 1, 1], "nothing collected for the last bomb");
    assert_eq!(deal.pot(), 4);
    assert_eq!(result.score, vec![2, -1, -1]);
    assert_eq!(
        deal.score_lines(),
        [
            ScoreLine::Ante { landlord: 2, tenant: 1 },
            ScoreLine::BombFree { seat: 0 },
            ScoreLine::PotWon { pot: 4, won: vec![4, 0, 0] }
        ],
        "the table explains that the last bomb collected nothing"
    );

    // The same for a tenant going out with a rocket.
    let mut deal =
        stack(Rules::house(false), 0, &["3S", "4S 4H 4D 4C 5S 6S 7S 8S 9S TS JS QS KS AS BJ RJ 2S", ""], "2H 2D 2C");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    lead(&mut deal, 1, "5S 6S 7S 8S 9S TS JS QS KS AS");
    play_kind(&mut deal, 1, "4S 4H 4D 4C", Kind::Bomb);
    assert_eq!(deal.pot(), 8, "a bomb with cards left collects");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    play_kind(&mut deal, 1, "BJ RJ", Kind::Rocket);
    let result = deal.result().expect("the rocket went out");
    assert_eq!(result.bombs, 2);
    assert_eq!(deal.pot(), 8);
    assert_eq!(result.score, vec![-4, 2, 2]);
}

/// 6.1 Landlord empties their hand: the landlord takes the whole pot.
#[test]
fn house_landlord_takes_the_whole_pot() {
    let mut deal = stack(Rules::house(true), 0, &["", "6S 6H 6D 6C 3S", "W"], "9S 9H TS TH");
    pass(&mut deal, 0);
    act(&mut deal, Action::Take { seat: 1 });
    for seat in 0..3 {
        act(&mut deal, Action::Seen { seat });
    }
    play_kind(&mut deal, 1, "6S 6H 6D 6C", Kind::Bomb);
    assert_eq!(deal.pot(), 8);
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    run_out(&mut deal, 1);
    let result = deal.result().unwrap();
    assert_eq!(result.landlord_won, Some(true));
    let pot = deal.pot();
    assert_eq!(pot, 8);
    assert_eq!(result.score, vec![-2, 4, -2]);
    assert_eq!(result.score[1], pot - deal.paid()[1]);
    assert_eq!(
        deal.score_lines(),
        [
            ScoreLine::Ante { landlord: 2, tenant: 1 },
            ScoreLine::BombCollected { seat: 1, landlord: 2, tenant: 1 },
            ScoreLine::PotWon { pot: 8, won: vec![0, 8, 0] }
        ]
    );
}

/// 6.1 A tenant empties their hand: the tenants split the pot evenly, the one who went out taking any odd
/// dollar. (Every collection is $4k, so the pot is always a multiple of 4 and never has an odd dollar.)
#[test]
fn house_tenants_split_the_pot_odd_dollar_to_the_one_who_went_out() {
    // Seat 2 goes out; pot $4.
    let mut deal = stack(Rules::house(true), 0, &["3S", "", "2S"], "4S 4H 4D 4C");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    pass(&mut deal, 1);
    play(&mut deal, 2, "2S");
    pass(&mut deal, 0);
    pass(&mut deal, 1);
    run_out(&mut deal, 2);
    let result = deal.result().unwrap();
    assert_eq!(result.winner, Some(2));
    assert_eq!(result.landlord_won, Some(false));
    assert_eq!(deal.pot(), 4);
    assert_eq!(result.score, vec![-2, 1, 1], "each tenant receives $2");

    // Seat 1 goes out after a bomb; pot $8.
    let mut deal = stack(Rules::house(true), 0, &["3S", "2S 7S 7H 7D 7C", ""], "4S 4H 4D 4C");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "3S");
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    play_kind(&mut deal, 1, "7S 7H 7D 7C", Kind::Bomb);
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    run_out(&mut deal, 1);
    let result = deal.result().unwrap();
    assert_eq!(result.winner, Some(1));
    assert_eq!(deal.pot(), 8);
    assert_eq!(result.score, vec![-4, 2, 2], "each tenant receives $4");

    // The pot is always a multiple of 4, so the split is always even.
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for n in 0..200 {
        let mut deal = fresh(Rules::house(n % 2 == 0), n, Start::Seat(0));
        random_finish(&mut deal, &mut rng);
        assert_eq!(deal.pot() % 4, 0);
        let result = deal.result().unwrap();
        if result.landlord_won == Some(false) {
            let landlord = deal.landlord().unwrap();
            let winner = result.winner.unwrap();
            let other = 3 - landlord - winner;
            let won = |s: Seat| result.score[s] + deal.paid()[s];
            assert_eq!(won(winner) + won(other), deal.pot());
            assert_eq!(won(winner), won(other));
        }
    }
}

/// 6.1 [decision] Closing a room during a deal refunds the pot: each player gets back exactly what they paid.
#[test]
fn house_closing_mid_deal_refunds_each_players_own_payments() {
    let names = names(3);
    let mut ledger = Ledger::new(Rules::house(true));
    for name in &names {
        ledger.join(name);
    }
    // After the ante and a bomb: paid 4, 2, 2.
    let mut deal = stack(Rules::house(true), 0, &["3S 3H 3D 3C", "", ""], "2S 2H 2D 2C");
    choose_landlord(&mut deal, 0);
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    assert_eq!(deal.paid(), &[4, 2, 2]);
    act(&mut deal, Action::Abandon);
    let result = deal.result().unwrap();
    assert_eq!(result.end, End::Abandoned);
    assert_eq!(result.winner, None);
    assert_eq!(result.landlord_won, None);
    assert_eq!(result.score, vec![0, 0, 0], "each gets back what they paid");
    ledger.record(&deal, &names);
    assert!(ledger.balances.values().all(|&b| b == 100));
    assert_eq!(reject(&mut deal, Action::Pass { seat: 1 }), DealError::DealOver);

    // During the auction and the reveal as well.
    let mut deal = plain(Rules::house(false), 2);
    pass(&mut deal, 2);
    act(&mut deal, Action::Abandon);
    assert_eq!(score(&deal), vec![0, 0, 0]);
    let mut deal = plain(Rules::house(true), 2);
    act(&mut deal, Action::Take { seat: 2 });
    act(&mut deal, Action::Seen { seat: 0 });
    act(&mut deal, Action::Abandon);
    assert_eq!(score(&deal), vec![0, 0, 0]);
    ledger.record(&deal, &names);
    assert!(ledger.balances.values().all(|&b| b == 100));
}

/// 6.1 Closing the room reconciles the balances into the shortest list of whole-dollar payments.
#[test]
fn house_closing_settles_into_the_shortest_list_of_payments() {
    let mut ledger = Ledger::new(Rules::house(true));
    for (name, balance) in [("Alice", 115), ("Bea", 85), ("Cy", 100)] {
        ledger.join(name);
        ledger.balances.insert(name.to_string(), balance);
    }
    let payments = ledger.settlement();
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0].to_string(), "Bea pays Alice $15");

    for (name, balance) in [("Alice", 130), ("Bea", 80), ("Cy", 90)] {
        ledger.balances.insert(name.to_string(), balance);
    }
    let payments = ledger.settlement();
    assert_eq!(payments.len(), 2);
    let mut nets: std::collections::BTreeMap<String, i64> = ledger.nets().into_iter().collect();
    for p in &payments {
        assert!(p.amount > 0);
        *nets.get_mut(&p.from).unwrap() += p.amount;
        *nets.get_mut(&p.to).unwrap() -= p.amount;
    }
    assert!(nets.values().all(|&n| n == 0));
}

/// 6.2 The landlord wins or loses one share per farmer; each farmer one share.
#[test]
fn no_shuffle_landlord_wins_two_shares_farmers_one_each() {
    // Landlord (seat 1, bid 2) wins; a farmer played, so no spring.
    let mut deal = stack(Rules::no_shuffle(false), 0, &["", "3S 2S", "4S"], "BJ RJ 2C");
    bid(&mut deal, 0, 0);
    bid(&mut deal, 1, 2);
    bid(&mut deal, 2, 0);
    assert_eq!(deal.landlord(), Some(1));
    play(&mut deal, 1, "3S");
    play(&mut deal, 2, "4S");
    pass(&mut deal, 0);
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    run_out(&mut deal, 1);
    let result = deal.result().unwrap();
    assert!(!result.spring);
    assert_eq!((result.auction_value, result.multiplier), (2, 1));
    assert_eq!(result.score, vec![-2, 4, -2]);

    // The farmers win; the landlord played twice, so no spring.
    let mut deal = stack(Rules::no_shuffle(false), 0, &["", "3S 5S", "4S 2S"], "BJ RJ 2C");
    bid(&mut deal, 0, 0);
    bid(&mut deal, 1, 2);
    bid(&mut deal, 2, 0);
    play(&mut deal, 1, "3S");
    play(&mut deal, 2, "4S");
    pass(&mut deal, 0);
    play(&mut deal, 1, "5S");
    play(&mut deal, 2, "2S");
    pass(&mut deal, 0);
    pass(&mut deal, 1);
    run_out(&mut deal, 2);
    let result = deal.result().unwrap();
    assert_eq!(result.landlord_won, Some(false));
    assert!(!result.spring);
    assert_eq!(result.score, vec![2, -4, 2]);
}

/// 6.2 The multiplier starts at 1 and doubles for each bomb or rocket.
#[test]
fn bombs_double_the_multiplier() {
    let mut deal = stack(Rules::no_shuffle(false), 0, &["3S 3H 3D 3C 2C", "5S 5H 5D 5C", "BJ RJ"], "2S 2H 2D");
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    assert_eq!(deal.multiplier(), 1);
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    assert_eq!(deal.multiplier(), 2);
    play_kind(&mut deal, 1, "5S 5H 5D 5C", Kind::Bomb);
    assert_eq!(deal.multiplier(), 4);
    play_kind(&mut deal, 2, "BJ RJ", Kind::Rocket);
    assert_eq!(deal.multiplier(), 8);
    assert_eq!(deal.bombs(), 3);
    assert_eq!(deal.view(Some(1)).multiplier, 8);
    pass(&mut deal, 0);
    pass(&mut deal, 1);
    let low = deal.hand(2).iter().next().unwrap();
    play(&mut deal, 2, &low.to_string());
    play(&mut deal, 0, "2C");
    pass(&mut deal, 1);
    pass(&mut deal, 2);
    run_out(&mut deal, 0);
    let result = deal.result().unwrap();
    assert!(!result.spring);
    assert_eq!(result.multiplier, 8);
    assert_eq!(result.score, vec![16, -8, -8]);
    assert_eq!(
        deal.score_lines(),
        [
            ScoreLine::AuctionValue { value: 1, robs: 0 },
            ScoreLine::Multiplied { seat: 0, factor: 2, multiplier: 2 },
            ScoreLine::Multiplied { seat: 1, factor: 2, multiplier: 4 },
            ScoreLine::Multiplied { seat: 2, factor: 2, multiplier: 8 },
            ScoreLine::Shares { share: 8, farmers: 2 }
        ],
        "the table explains the score bomb by bomb"
    );
}

/// 6.2 With Wild Rank: soft bombs double the multiplier; natural and pure-wild bombs and the rocket
/// multiply it by 4.
#[test]
fn wild_rank_soft_bomb_doubles_natural_bomb_and_rocket_quadruple() {
    let mut deal =
        stack_wild_rank(Rules::no_shuffle(true), Rank::SEVEN, 0, &["KS KH KD 7S", "8S 8H 8D 8C", "BJ RJ"], "2S 2H 2D");
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    let soft = play_kind(&mut deal, 0, "KS KH KD 7S", Kind::Bomb);
    assert_eq!((soft.main, soft.strength), (Rank::KING, Strength::Soft));
    assert_eq!(deal.multiplier(), 2, "a soft bomb doubles");
    let natural = play_kind(&mut deal, 1, "8S 8H 8D 8C", Kind::Bomb);
    assert_eq!(natural.strength, Strength::Natural);
    assert_eq!(deal.multiplier(), 8, "a natural bomb (beating a higher soft bomb) quadruples");
    play_kind(&mut deal, 2, "BJ RJ", Kind::Rocket);
    assert_eq!(deal.multiplier(), 32, "a rocket quadruples");

    let mut deal =
        stack_wild_rank(Rules::no_shuffle(true), Rank::SEVEN, 0, &["7S 7H 7D 7C", "AS AH AD AC BJ RJ", ""], "2S 2H 2D");
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    let pure = play_kind(&mut deal, 0, "7S 7H 7D 7C", Kind::Bomb);
    assert_eq!(pure.strength, Strength::PureWild);
    assert_eq!(deal.multiplier(), 4, "a pure-wild bomb quadruples");
    assert!(matches!(reject_play(&mut deal, 1, "AS AH AD AC"), DealError::DoesNotBeat { .. }));
    play_kind(&mut deal, 1, "BJ RJ", Kind::Rocket);
    assert_eq!(deal.multiplier(), 16);

    // Two Player with Wild Rank: a natural bomb quadruples as well.
    let mut deal = stack_wild_rank(Rules::two_player(true), Rank::SEVEN, 0, &["9S 9H 9D 9C", ""], "2S 2H 2D");
    choose_landlord(&mut deal, 0);
    play_kind(&mut deal, 0, "9S 9H 9D 9C", Kind::Bomb);
    assert_eq!(deal.multiplier(), 4);
}

/// 6.2 Spring: the landlord wins without either farmer having played a card: the multiplier doubles.
#[test]
fn spring_doubles_when_landlord_wins_without_farmer_cards() {
    let hands = ["3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 3H 3D 3C 4H 4D", "2S", ""];
    let mut deal = stack(Rules::no_shuffle(false), 0, &hands, "4C BJ RJ");
    bid(&mut deal, 0, 2);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    lead(&mut deal, 0, "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS");
    lead(&mut deal, 0, "3H 3D 3C 4H 4D");
    lead(&mut deal, 0, "4C");
    lead(&mut deal, 0, "BJ");
    lead(&mut deal, 0, "RJ");
    let result = deal.result().unwrap();
    assert!(result.spring);
    assert_eq!(result.multiplier, 2);
    assert_eq!(result.score, vec![8, -4, -4]);
    assert_eq!(
        deal.score_lines(),
        [
            ScoreLine::AuctionValue { value: 2, robs: 0 },
            ScoreLine::Spring { multiplier: 2 },
            ScoreLine::Shares { share: 4, farmers: 2 }
        ]
    );

    // One farmer card spoils the spring.
    let mut deal = stack(Rules::no_shuffle(false), 0, &hands, "4C BJ RJ");
    bid(&mut deal, 0, 2);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    play(&mut deal, 0, "4C");
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    play(&mut deal, 0, "BJ");
    pass(&mut deal, 1);
    pass(&mut deal, 2);
    lead(&mut deal, 0, "RJ");
    lead(&mut deal, 0, "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS");
    lead(&mut deal, 0, "3H 3D 3C 4H 4D");
    let result = deal.result().unwrap();
    assert!(!result.spring);
    assert_eq!(result.multiplier, 1);
    assert_eq!(result.score, vec![4, -2, -2]);

    // Two Player: the same.
    let mut deal = stack(Rules::two_player(false), 0, &["5S 5H 5D 5C", ""], "2S 2H 2D");
    act(&mut deal, Action::Call { seat: 0, call: true });
    act(&mut deal, Action::Rob { seat: 1, rob: true });
    act(&mut deal, Action::Rob { seat: 0, rob: true });
    act(&mut deal, Action::Rob { seat: 1, rob: false });
    run_out(&mut deal, 0);
    let result = deal.result().unwrap();
    assert!(result.spring);
    assert_eq!(result.auction_value, 4);
    assert_eq!(result.score[0], 4 * i64::from(result.multiplier), "one share");
    assert_eq!(result.multiplier % 2, 0);
}

/// 6.2 [decision] Spring also when the farmers win while the landlord played only their opening lead.
#[test]
fn farmers_spring_doubles_when_landlord_played_only_the_opening_lead() {
    let hands = ["3S KS", "2S 5H 6H 7H 8H 9H TH JH QH KH AH 5D 5C 5S 6D 6C 6S", "4H"];
    let mut deal = stack(Rules::no_shuffle(false), 0, &hands, "BJ RJ 2C");
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    play(&mut deal, 0, "3S");
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    lead(&mut deal, 1, "5H 6H 7H 8H 9H TH JH QH KH AH");
    lead(&mut deal, 1, "5D 5C 5S 6D 6C 6S");
    let result = deal.result().unwrap();
    assert_eq!(result.winner, Some(1));
    assert!(result.spring);
    assert_eq!(result.multiplier, 2);
    assert_eq!(result.score, vec![-4, 2, 2]);

    // The landlord played twice: no spring.
    let mut deal = stack(Rules::no_shuffle(false), 0, &hands, "BJ RJ 2C");
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    play(&mut deal, 0, "3S");
    pass(&mut deal, 1);
    play(&mut deal, 2, "4H");
    play(&mut deal, 0, "KS");
    play(&mut deal, 1, "2S");
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    lead(&mut deal, 1, "5H 6H 7H 8H 9H TH JH QH KH AH");
    lead(&mut deal, 1, "5D 5C 5S 6D 6C 6S");
    let result = deal.result().unwrap();
    assert!(!result.spring);
    assert_eq!(result.multiplier, 1);
    assert_eq!(result.score, vec![-2, 1, 1]);

    // Two Player: the farmer reaching the allowance counts too.
    let mut deal = stack(Rules::two_player(false), 0, &["5S", "6S"], "2S 2H 2D");
    choose_landlord(&mut deal, 0);
    play(&mut deal, 0, "5S");
    play(&mut deal, 1, "6S");
    pass(&mut deal, 0);
    run_out(&mut deal, 1);
    let result = deal.result().unwrap();
    assert_eq!(result.landlord_won, Some(false));
    assert!(result.spring);
}

/// 6.2 The multiplier is capped at 1024.
#[test]
fn multiplier_is_capped_at_1024() {
    assert_eq!(MULTIPLIER_CAP, 1024);
    let mut deal = stack_wild_rank(
        Rules::no_shuffle(true),
        Rank::FIVE,
        0,
        &["9S 9H 9D 9C TS TH TD TC JS JH JD JC QS QH QD QC KS", "BJ RJ 3S", ""],
        "KH KD KC",
    );
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    play_kind(&mut deal, 0, "9S 9H 9D 9C", Kind::Bomb);
    assert_eq!(deal.multiplier(), 4);
    play_kind(&mut deal, 1, "BJ RJ", Kind::Rocket);
    assert_eq!(deal.multiplier(), 16);
    pass(&mut deal, 2);
    pass(&mut deal, 0);
    play(&mut deal, 1, "3S");
    pass(&mut deal, 2);
    play_kind(&mut deal, 0, "TS TH TD TC", Kind::Bomb);
    assert_eq!(deal.multiplier(), 64);
    pass(&mut deal, 1);
    pass(&mut deal, 2);
    lead(&mut deal, 0, "JS JH JD JC");
    assert_eq!(deal.multiplier(), 256);
    lead(&mut deal, 0, "QS QH QD QC");
    assert_eq!(deal.multiplier(), 1024);
    lead(&mut deal, 0, "KS KH KD KC");
    let result = deal.result().unwrap();
    assert_eq!(result.multiplier, 1024, "4096 capped");
    assert!(!result.spring);
    assert_eq!(result.score, vec![2048, -1024, -1024]);
    let lines = deal.score_lines();
    assert_eq!(lines[lines.len() - 3], ScoreLine::Multiplied { seat: 0, factor: 4, multiplier: 1024 });
    assert_eq!(lines[lines.len() - 2], ScoreLine::Capped { cap: 1024 }, "the table says the last bomb hit the cap");

    // The spring doubling is capped too.
    let mut deal = stack_wild_rank(
        Rules::no_shuffle(true),
        Rank::FIVE,
        0,
        &["9S 9H 9D 9C TS TH TD TC JS JH JD JC QS QH QD QC KS", "", ""],
        "KH KD KC",
    );
    bid(&mut deal, 0, 1);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    for bomb in ["9S 9H 9D 9C", "TS TH TD TC", "JS JH JD JC", "QS QH QD QC", "KS KH KD KC"] {
        lead(&mut deal, 0, bomb);
    }
    let result = deal.result().unwrap();
    assert!(result.spring);
    assert_eq!(result.multiplier, 1024, "4^5 = 1024, spring 2048 capped");
    let lines = deal.score_lines();
    assert_eq!(
        lines[lines.len() - 3..],
        [
            ScoreLine::Spring { multiplier: 1024 },
            ScoreLine::Capped { cap: 1024 },
            ScoreLine::Shares { share: 1024, farmers: 2 }
        ]
    );
}

/// 6.3 Score = auction value x multiplier, one share.
#[test]
fn two_player_score_is_one_share_of_auction_value_times_multiplier() {
    let mut deal = stack(Rules::two_player(false), 0, &["", "5S 5H 5D 5C"], "2S 2H 2D");
    act(&mut deal, Action::Call { seat: 0, call: true });
    act(&mut deal, Action::Rob { seat: 1, rob: true });
    act(&mut deal, Action::Rob { seat: 0, rob: false });
    assert_eq!(deal.landlord(), Some(1));
    assert_eq!(deal.auction_value(), 2);
    play_kind(&mut deal, 1, "5S 5H 5D 5C", Kind::Bomb);
    assert_eq!(deal.multiplier(), 2);
    pass(&mut deal, 0);
    run_out(&mut deal, 1);
    let result = deal.result().unwrap();
    assert_eq!(result.end, End::Out);
    assert!(result.spring);
    assert_eq!(result.multiplier, 4);
    assert_eq!(result.score, vec![-8, 8]);
}

/// Section 8: a No Shuffle or Two Player deal still unfinished at the deal limit ends with no winner and
/// no score; House has no deal limit.
#[test]
fn deal_limit_ends_with_no_winner_and_no_score() {
    let names = names(3);
    let mut ledger = Ledger::new(Rules::no_shuffle(false));
    let mut deal = stack(Rules::no_shuffle(false), 0, &["3S 3H 3D 3C", "", ""], "2S 2H 2D");
    bid(&mut deal, 0, 2);
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    play_kind(&mut deal, 0, "3S 3H 3D 3C", Kind::Bomb);
    act(&mut deal, Action::DealLimit);
    let result = deal.result().unwrap();
    assert_eq!(result.end, End::DealLimit);
    assert_eq!(result.winner, None);
    assert_eq!(result.landlord_won, None);
    assert_eq!(result.score, vec![0, 0, 0]);
    assert_eq!(reject(&mut deal, Action::Pass { seat: 1 }), DealError::DealOver);
    ledger.record(&deal, &names);
    assert!(ledger.balances.values().all(|&b| b == 0));

    let mut deal = plain(Rules::two_player(true), 0);
    act(&mut deal, Action::DealLimit);
    assert_eq!(deal.result().unwrap().end, End::DealLimit);
    assert_eq!(score(&deal), vec![0, 0]);

    for wild in [true, false] {
        let mut deal = plain(Rules::house(wild), 0);
        assert_eq!(reject(&mut deal, Action::DealLimit), DealError::NoDealLimit);
        choose_landlord(&mut deal, 0);
        assert_eq!(reject(&mut deal, Action::DealLimit), DealError::NoDealLimit);
    }
}

// ---------------------------------------------------------------------------------------------------
// Refused actions and views
// ---------------------------------------------------------------------------------------------------

/// Every action out of turn, in the wrong phase, or illegal is refused and changes nothing.
#[test]
fn out_of_turn_wrong_phase_and_illegal_actions_are_rejected_and_change_nothing() {
    let wrong_phase = |e: DealError| assert!(matches!(e, DealError::WrongPhase { .. }), "{e}");
    let not_your_turn = |e: DealError| assert!(matches!(e, DealError::NotYourTurn { .. }), "{e}");

    // House, auction.
    let mut deal = plain(Rules::house(true), 0);
    not_your_turn(reject(&mut deal, Action::Take { seat: 1 }));
    not_your_turn(reject(&mut deal, Action::Pass { seat: 2 }));
    assert_eq!(reject(&mut deal, Action::Take { seat: 3 }), DealError::NoSuchSeat(3));
    wrong_phase(reject(&mut deal, Action::Seen { seat: 0 }));
    wrong_phase(reject(&mut deal, Action::Bid { seat: 0, bid: 1 }));
    wrong_phase(reject(&mut deal, Action::Call { seat: 0, call: true }));
    wrong_phase(reject(&mut deal, Action::Rob { seat: 0, rob: true }));
    wrong_phase(reject_play(&mut deal, 0, "3S"));
    assert_eq!(reject(&mut deal, Action::DealLimit), DealError::NoDealLimit);
    // Reveal.
    act(&mut deal, Action::Take { seat: 0 });
    wrong_phase(reject(&mut deal, Action::Take { seat: 0 }));
    wrong_phase(reject(&mut deal, Action::Pass { seat: 0 }));
    wrong_phase(reject_play(&mut deal, 0, "3S"));
    act(&mut deal, Action::Seen { seat: 1 });
    assert_eq!(reject(&mut deal, Action::Seen { seat: 1 }), DealError::AlreadySeen(1));
    act(&mut deal, Action::Seen { seat: 0 });
    act(&mut deal, Action::Seen { seat: 2 });
    // Play.
    wrong_phase(reject(&mut deal, Action::Seen { seat: 2 }));
    wrong_phase(reject(&mut deal, Action::Take { seat: 0 }));
    assert_eq!(reject(&mut deal, Action::Pass { seat: 0 }), DealError::CannotPassOnLead);
    not_your_turn(reject_play(&mut deal, 1, "7H"));
    // Cards from another hand.
    assert!(matches!(reject_play(&mut deal, 0, "7H"), DealError::NotInHand(_)));
    // Cards that are not the reading's ranks.
    let pair_of_fours = readings(deal.rules(), cards("4S 4H").counts()).unwrap()[0];
    assert!(matches!(
        reject(&mut deal, Action::Play { seat: 0, cards: cards("3S 3H"), play: pair_of_fours }),
        DealError::CardsDoNotMatch { .. }
    ));
    // A reading that is not a reading of the cards.
    let mut wrong = readings(deal.rules(), cards("3S 3H").counts()).unwrap()[0];
    wrong.main = Rank::FOUR;
    assert!(matches!(
        reject(&mut deal, Action::Play { seat: 0, cards: cards("3S 3H"), play: wrong }),
        DealError::NotThatReading { .. }
    ));
    // Cards that are not a play at all.
    let mut not_a_play = readings(deal.rules(), cards("3S").counts()).unwrap()[0];
    not_a_play.cards = cards("3S 5S").counts();
    assert!(matches!(
        reject(&mut deal, Action::Play { seat: 0, cards: cards("3S 5S"), play: not_a_play }),
        DealError::NotAPlay(_)
    ));
    play(&mut deal, 0, "3S");
    assert!(matches!(reject_play(&mut deal, 1, "7H 7D"), DealError::DoesNotBeat { .. }));
    not_your_turn(reject(&mut deal, Action::Pass { seat: 0 }));
    finish(&mut deal);
    for action in [Action::Pass { seat: 0 }, Action::Seen { seat: 0 }, Action::Abandon, Action::DealLimit] {
        assert_eq!(reject(&mut deal, action), DealError::DealOver);
    }

    // No Shuffle.
    let mut deal = plain(Rules::no_shuffle(true), 0);
    assert_eq!(reject(&mut deal, Action::Bid { seat: 0, bid: 5 }), DealError::BadBid);
    not_your_turn(reject(&mut deal, Action::Bid { seat: 1, bid: 1 }));
    wrong_phase(reject(&mut deal, Action::Take { seat: 0 }));
    wrong_phase(reject(&mut deal, Action::Pass { seat: 0 }));
    wrong_phase(reject(&mut deal, Action::Call { seat: 0, call: true }));
    bid(&mut deal, 0, 2);
    assert_eq!(reject(&mut deal, Action::Bid { seat: 1, bid: 2 }), DealError::BidTooLow { bid: 2, current: 2 });
    bid(&mut deal, 1, 0);
    bid(&mut deal, 2, 0);
    wrong_phase(reject(&mut deal, Action::Bid { seat: 0, bid: 3 }));

    // Two Player.
    let mut deal = plain(Rules::two_player(false), 0);
    wrong_phase(reject(&mut deal, Action::Rob { seat: 0, rob: true }));
    assert_eq!(reject(&mut deal, Action::Call { seat: 2, call: true }), DealError::NoSuchSeat(2));
    not_your_turn(reject(&mut deal, Action::Call { seat: 1, call: true }));
    wrong_phase(reject(&mut deal, Action::Bid { seat: 0, bid: 1 }));
    act(&mut deal, Action::Call { seat: 0, call: true });
    wrong_phase(reject(&mut deal, Action::Call { seat: 1, call: true }));
    not_your_turn(reject(&mut deal, Action::Rob { seat: 0, rob: true }));
}

/// No view for a seat shows another seat's hand, the unused cards, or the bottom before the landlord has
/// it (checked after every action of random deals of every table).
#[test]
fn views_never_show_another_hand_or_unrevealed_bottom() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for rules in Rules::ALL {
        for n in 0..12 {
            let start = match rules.table {
                TableType::House if n % 2 == 0 => Start::PriorityDraw,
                _ => Start::Random,
            };
            let mut deal = fresh(rules, 500 + n, start);
            check_views(&deal);
            while deal.phase() != Phase::Over {
                let choices = deal.choices();
                let choice = choices[rng.random_range(0..choices.len())].clone();
                act(&mut deal, choice);
                check_views(&deal);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Section 7: dealing
// ---------------------------------------------------------------------------------------------------

fn check_dealt(deal: &Deal) {
    let rules = deal.rules();
    let mut all = deal.bottom().union(deal.unused());
    let mut total = deal.bottom().len() + deal.unused().len();
    for seat in 0..deal.players() {
        assert_eq!(deal.hand(seat).len(), rules.hand_size as usize);
        all = all.union(deal.hand(seat));
        total += deal.hand(seat).len();
    }
    assert_eq!(deal.bottom().len(), rules.bottom_size as usize);
    assert_eq!(all, rules.deck(), "every card dealt once");
    assert_eq!(total, rules.deck().len(), "no card dealt twice");
}

/// 7 House: shuffle, 17 to each, the rest (4 with the Wild, 3 without) to the middle.
#[test]
fn house_deal_has_17_each_and_4_middle_with_the_wild_3_without() {
    for (wild, deck, middle) in [(true, 55, 4), (false, 54, 3)] {
        let rules = Rules::house(wild);
        assert_eq!(rules.deck().len(), deck);
        assert_eq!(rules.deck().contains(Card::WILD), wild);
        let mut first_hands = BTreeSet::new();
        for n in 0..50 {
            let deal = fresh(rules, n, Start::PriorityDraw);
            check_dealt(&deal);
            assert_eq!(deal.bottom().len(), middle);
            assert!(deal.unused().is_empty());
            first_hands.insert(deal.hand(0).0);
        }
        assert_eq!(first_hands.len(), 50, "each seed shuffles differently");
    }
}

/// 7 No Shuffle: the first deal of a room is shuffled; a new room starts with a fresh shuffle.
#[test]
fn no_shuffle_first_deal_is_shuffled_and_a_new_room_starts_fresh() {
    let mut first_hands = BTreeSet::new();
    for n in 0..30 {
        let ledger = Ledger::new(Rules::no_shuffle(false));
        let setup = ledger.next_setup(Seed::from_u64(n));
        assert_eq!(setup.pack, None, "a new room has no collected pack");
        assert_eq!(setup.dealing, Dealing::Packets);
        let deal = Deal::new(setup);
        check_dealt(&deal);
        first_hands.insert(deal.hand(0).0);
    }
    assert_eq!(first_hands.len(), 30);
}

/// 7 No Shuffle "play again": the cards in the order played, then the cards left in the hands (seat
/// order), cut at a random point without shuffling, dealt in packets, 17 each, the last 3 to the bottom.
#[test]
fn no_shuffle_play_again_collects_played_order_then_hands_and_cuts_without_shuffling() {
    let names = names(3);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for rules in [Rules::no_shuffle(false), Rules::no_shuffle(true)] {
        let mut ledger = Ledger::new(rules);
        let mut cuts = BTreeSet::new();
        for deal_no in 0..8u64 {
            let setup = ledger.next_setup(Seed::from_u64(100 + deal_no));
            let pack = setup.pack.clone();
            assert_eq!(pack.is_none(), deal_no == 0);
            let mut deal = Deal::new(setup);
            check_dealt(&deal);
            if let Some(pack) = &pack {
                let found = find_cuts(&deal, pack);
                assert!(!found.is_empty(), "deal {deal_no}: not a cut of the collected pack");
                cuts.extend(found);
            }
            // Play (sometimes stopping early: the deal limit or a closed room).
            match deal_no % 4 {
                1 => {
                    for _ in 0..rng.random_range(0..30) {
                        if deal.phase() == Phase::Over {
                            break;
                        }
                        let choices = deal.choices();
                        let choice = choices[rng.random_range(0..choices.len())].clone();
                        act(&mut deal, choice);
                    }
                    if deal.phase() != Phase::Over {
                        act(&mut deal, Action::DealLimit);
                    }
                }
                3 => act(&mut deal, Action::Abandon),
                _ => random_finish(&mut deal, &mut rng),
            }
            let mut expected: Vec<Card> = Vec::new();
            for action in deal.actions() {
                if let Action::Play { cards, .. } = action {
                    expected.extend(cards.iter());
                }
            }
            assert_eq!(deal.played(), &expected[..], "played in order");
            for seat in 0..3 {
                expected.extend(deal.hand(seat).iter());
            }
            if deal.landlord().is_none() {
                expected.extend(deal.bottom().iter());
            }
            let collected = deal.collected_pack();
            assert_eq!(collected, expected);
            assert_eq!(collected.len(), 54);
            assert_eq!(CardSet::from_cards(collected.iter().copied()), Ok(rules.deck()));
            ledger.record(&deal, &names);
            assert_eq!(ledger.pack.as_ref(), Some(&collected));
        }
        assert!(cuts.len() >= 3, "the cut point is random: {cuts:?}");
    }
}

/// 7 No Shuffle: the cut always moves cards, 1 to 53 of them, from the top to the bottom.
#[test]
fn no_shuffle_cut_always_moves_cards() {
    let pack = collected_no_shuffle_pack(1);
    let mut cuts = BTreeSet::new();
    for n in 0..2000 {
        let deal =
            Deal::new(DealSetup::redeal(Rules::no_shuffle(false), Seed::from_u64(n), Start::Seat(0), pack.clone()));
        let found = find_cuts(&deal, &pack);
        assert_eq!(found.len(), 1, "a cut is told by its bottom cards");
        assert_ne!(found[0], 0, "seed {n}: the pack was not cut");
        cuts.insert(found[0]);
    }
    assert_eq!(cuts, (1..54).collect(), "every cut from 1 to 53 happens");
}

/// 7 No Shuffle: the cut pack is dealt in packets of 1 to 6 cards to seats drawn among those short of 17,
/// so runs of played cards stay together, yet not in turn order.
#[test]
fn no_shuffle_redeal_deals_packets_of_one_to_six_to_random_seats() {
    let pack = collected_no_shuffle_pack(2);
    let (mut runs, mut seat_changes_in_turn) = (Vec::new(), 0);
    for n in 0..300 {
        let deal =
            Deal::new(DealSetup::redeal(Rules::no_shuffle(false), Seed::from_u64(n), Start::Seat(0), pack.clone()));
        check_dealt(&deal);
        let rotated = cut_pack(&pack, find_cuts(&deal, &pack)[0]);
        for seat in 0..3 {
            assert_eq!(deal.hand(seat).len(), 17);
        }
        let these = seat_runs(&deal, &rotated);
        // Dealt in turn order, every run would be one card and the seats would go 0, 1, 2, 0, ...
        seat_changes_in_turn += usize::from(these.iter().all(|&r| r == 1));
        runs.extend(these);
    }
    let mean = runs.iter().sum::<usize>() as f64 / runs.len() as f64;
    // Packets average 3.5 cards; two packets in a row to one seat merge into a longer run.
    assert!(mean > 3.0, "mean run {mean:.2}");
    assert!(runs.iter().any(|&r| r > 6), "packets to one seat in a row make runs longer than 6");
    assert_eq!(seat_changes_in_turn, 0);
}

/// 7 No Shuffle: a seat's own 17 cards and the public record (the collected pack) leave the other hands
/// and the bottom hidden. Counts every layout (other hands and bottom) the dealing could have produced
/// that gives this seat exactly its hand: every cut that leaves the hand out of the bottom, and every
/// way to deal the other cards in packets (packets of 1 reach every split, so each cut allows every
/// sequence of seats with 17 cards each; counted by dynamic programming). Dealing a card at a time in
/// turn order, as before, the hand pins the cut and so everything.
#[test]
fn no_shuffle_own_hand_does_not_determine_the_other_hands() {
    let (mut packet_bottoms, mut in_turn_layouts) = (Vec::new(), Vec::new());
    for game in 0..100u64 {
        let pack = collected_no_shuffle_pack(100 + game);
        for dealing in [Dealing::Packets, Dealing::InTurn] {
            let setup = DealSetup {
                dealing,
                ..DealSetup::redeal(Rules::no_shuffle(false), Seed::from_u64(game), Start::Seat(0), pack.clone())
            };
            let deal = Deal::new(setup);
            let mine = deal.hand(0);
            let mut layouts: u128 = 0;
            let mut bottoms = 0;
            for cut in 0..pack.len() {
                let rotated = cut_pack(&pack, cut);
                let consistent = match dealing {
                    Dealing::InTurn => CardSet::from_cards(rotated[..51].iter().step_by(3).copied()).unwrap() == mine,
                    _ => cut > 0 && rotated[51..].iter().all(|&c| !mine.contains(c)),
                };
                if !consistent {
                    continue;
                }
                bottoms += 1;
                layouts += match dealing {
                    Dealing::InTurn => 1,
                    _ => splits_of_the_rest(&rotated[..51], mine),
                };
            }
            match dealing {
                Dealing::InTurn => in_turn_layouts.push(layouts),
                _ => {
                    assert!(layouts >= 1 << 31, "game {game}: only {layouts} layouts fit seat 0's hand");
                    packet_bottoms.push(bottoms);
                }
            }
        }
    }
    // In turn order the own hand almost always leaves exactly one possible deal.
    assert!(in_turn_layouts.iter().filter(|&&n| n == 1).count() >= 95, "{in_turn_layouts:?}");
    // In packets even the bottom stays uncertain: many cuts fit the own hand.
    let mean = packet_bottoms.iter().sum::<usize>() as f64 / packet_bottoms.len() as f64;
    assert!(mean >= 8.0, "on average only {mean:.1} bottoms fit");
    assert!(packet_bottoms.iter().filter(|&&n| n >= 2).count() >= 95, "{packet_bottoms:?}");
}

/// The ways to give the cards of `dealt` that are not in `mine` to seats 1 and 2, 17 each, in order.
fn splits_of_the_rest(dealt: &[Card], mine: CardSet) -> u128 {
    // ways[k]: the ways so far with k cards to seat 1.
    let mut ways = vec![0u128; 18];
    ways[0] = 1;
    let mut others = 0;
    for &card in dealt {
        if mine.contains(card) {
            continue;
        }
        let mut next = vec![0u128; 18];
        for (k, &w) in ways.iter().enumerate().take(others + 1) {
            if k < 17 {
                next[k + 1] += w;
            }
            if others - k < 17 {
                next[k] += w;
            }
        }
        others += 1;
        ways = next;
    }
    ways[17]
}

/// 7 Two Player: the 46 cards (no 3s or 4s) shuffled, 17 each, 3 to the bottom, 9 unused.
#[test]
fn two_player_deck_has_no_threes_or_fours() {
    for rules in [Rules::two_player(false), Rules::two_player(true)] {
        let deck = rules.deck();
        assert_eq!(deck.len(), 46);
        assert!(deck.of_rank(Rank::THREE).is_empty());
        assert!(deck.of_rank(Rank::FOUR).is_empty());
        let mut drawn = BTreeSet::new();
        let mut first_hands = BTreeSet::new();
        for n in 0..200 {
            let deal = fresh(rules, n, Start::Random);
            check_dealt(&deal);
            assert_eq!(deal.unused().len(), 9);
            first_hands.insert(deal.hand(0).0);
            if let Some(rank) = deal.rules().wild_rank() {
                assert!(rank >= Rank::FIVE && rank <= Rank::TWO, "{rank}");
                drawn.insert(rank);
            }
        }
        assert_eq!(first_hands.len(), 200);
        if rules.has_wild_rank_option() {
            assert_eq!(drawn.len(), 11, "any rank 5..2 can be drawn: {drawn:?}");
        }
    }
    assert!(matches!(readings(&Rules::two_player(false), cards("3S").counts()), Err(PlayError::NotInDeck(_))));
}

/// 7 Every deal is reproducible from its seed (and, for No Shuffle, the collected pack and the cut).
#[test]
fn every_deal_is_reproducible_from_its_seed() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for rules in Rules::ALL {
        let mut ledger = Ledger::new(rules);
        let names = names(rules.players as usize);
        for n in 0..4u64 {
            let setup = ledger.next_setup(Seed::from_u64(n * 31 + 7));
            let a = Deal::new(setup.clone());
            let b = Deal::new(setup.clone());
            assert_eq!(a, b);
            assert_eq!(a.state_hash(), b.state_hash());
            let mut other = setup.clone();
            other.seed = Seed::from_u64(n * 31 + 8);
            let c = Deal::new(other);
            assert_ne!(
                (0..a.players()).map(|s| a.hand(s)).collect::<Vec<_>>(),
                (0..c.players()).map(|s| c.hand(s)).collect::<Vec<_>>(),
                "{rules}: another seed deals differently"
            );
            let mut deal = a;
            random_finish(&mut deal, &mut rng);
            let replayed = Deal::replay(setup, deal.actions()).expect("replays");
            assert_eq!(replayed, deal);
            ledger.record(&deal, &names);
        }
    }
}

/// 1 / 3.3 Wild Rank: after the deal, one rank from 3..2 (5..2 in Two Player) is drawn and shown to all.
#[test]
fn wild_rank_is_drawn_and_shown_to_all() {
    for rules in Rules::ALL {
        let mut drawn = BTreeSet::new();
        for n in 0..200 {
            let mut deal = fresh(rules, n, Start::Random);
            let rank = deal.rules().wild_rank();
            assert_eq!(rank.is_some(), rules.has_wild_rank_option(), "{rules}");
            if let Some(rank) = rank {
                assert!(rank >= rules.lowest && rank <= Rank::TWO);
                drawn.insert(rank);
            }
            if n < 10 {
                choose_landlord(&mut deal, 0);
            }
            let viewers = (0..deal.players()).map(Some).chain([None]);
            for viewer in viewers {
                let view = deal.view(viewer);
                assert_eq!(view.wild_rank, rank);
                let json = serde_json::to_value(&view).unwrap();
                let expected = rank.map_or(serde_json::Value::Null, |r| r.to_string().into());
                assert_eq!(json["wild_rank"], expected);
            }
        }
        let expected = if rules.has_wild_rank_option() { rules.wild_rank_choices().count() } else { 0 };
        assert_eq!(drawn.len(), expected, "{rules}: {drawn:?}");
    }
}
