//! The exact solver (`ddz_engine::solve`, docs/puzzles.md) against its golden file and against plain
//! minimax.
//!
//! `tests/data/solver_golden.jsonl` holds positions of every table type and option (drawn from a fixed
//! seed: hands of 1 to 7 cards, leads and plays to beat, Two Player's allowance) with their proven answers:
//! whether the side to move wins, and the cards of every winning first move (`"pass"` for a pass), sorted. Each
//! answer of a position of 12 cards or fewer was checked against a brute-force minimax (no table, no
//! pruning) when the file was written, and is checked again here. `DDZ_BLESS=1` writes the file again.
//!
//! The properties: a proven win stays a win along the solution line, to the end of the deal; a proven
//! loss has a refutation for every move.

use std::path::PathBuf;

use ddz_engine::{Counts, Endgame, Move, Next, Rules, Solver, legal_plays_vec};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Positions of this many cards or fewer are checked against brute force.
const BRUTE_FORCE_CARDS: u32 = 12;

#[derive(Debug, Serialize, Deserialize)]
struct Golden {
    endgame: Endgame,
    wins: bool,
    winning: Vec<String>,
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver_golden.jsonl")
}

/// A move as the golden file writes it: its cards, or `pass`.
fn written(mv: &Move) -> String {
    mv.map_or_else(|| "pass".to_string(), |play| play.cards.to_string())
}

/// Whether the landlord wins, by plain minimax over every move.
fn minimax(position: &Endgame) -> bool {
    let landlords_turn = position.is_landlord(position.turn);
    let outcomes = position.moves().into_iter().map(|mv| match position.after(&mv) {
        Next::Over { landlord_won } => landlord_won,
        Next::Position(next) => minimax(&next),
    });
    let mut outcomes = outcomes.peekable();
    assert!(outcomes.peek().is_some(), "every position has a move: {position:?}");
    if landlords_turn { outcomes.into_iter().any(|w| w) } else { outcomes.into_iter().all(|w| w) }
}

/// The winning first moves by plain minimax.
fn minimax_winning(position: &Endgame) -> Vec<String> {
    let landlords_turn = position.is_landlord(position.turn);
    let keeps = |mv: &Move| match position.after(mv) {
        Next::Over { landlord_won } => landlord_won == landlords_turn,
        Next::Position(next) => minimax(&next) == landlords_turn,
    };
    let mut winning: Vec<String> = position.moves().iter().filter(|mv| keeps(mv)).map(written).collect();
    winning.sort();
    winning
}

/// Every table type and option, a wild rank drawn where there is one.
fn rules_of(rng: &mut ChaCha8Rng) -> Rules {
    let names = ["house", "house-nowild", "noshuffle", "noshuffle-wildrank", "twoplayer", "twoplayer-wildrank"];
    let rules: Rules = names[rng.random_range(0..names.len())].parse().unwrap();
    let choices: Vec<_> = rules.wild_rank_choices().collect();
    if choices.is_empty() { rules } else { rules.with_wild_rank(choices[rng.random_range(0..choices.len())]) }
}

/// A random position: hands of 1 to `most` cards from a shuffled deck, a seat to move, and half the time a
/// play to beat (another seat's legal lead from cards no hand holds).
fn random_endgame(rng: &mut ChaCha8Rng, most: usize) -> Endgame {
    let rules = rules_of(rng);
    let players = usize::from(rules.players);
    let mut deck: Vec<_> = rules.deck().iter().collect();
    deck.shuffle(rng);
    let mut cards = deck.into_iter();
    let mut take = |n: usize| -> Counts {
        let mut hand = Counts::EMPTY;
        for card in cards.by_ref().take(n) {
            hand = hand.plus(card.slot(), 1);
        }
        hand
    };
    let mut hands = [Counts::EMPTY; 3];
    for hand in hands.iter_mut().take(players) {
        *hand = take(rng.random_range(1..=most));
    }
    let landlord = rng.random_range(0..players);
    let turn = rng.random_range(0..players);
    let trick = if rng.random_bool(0.5) {
        let leader = (turn + rng.random_range(1..players)) % players;
        let spare = take(4);
        let leads = legal_plays_vec(&rules, spare, None);
        (!leads.is_empty()).then(|| (leader, leads[rng.random_range(0..leads.len())]))
    } else {
        None
    };
    let allowance = (players == 2).then(|| rng.random_range(1..=2));
    Endgame { rules, hands, landlord, turn, trick, allowance }
}

fn golden_positions() -> Vec<Endgame> {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_206);
    let mut positions: Vec<Endgame> = (0..240).map(|_| random_endgame(&mut rng, 4)).collect();
    positions.extend((0..60).map(|_| random_endgame(&mut rng, 7)));
    positions
}

fn answer(solver: &mut Solver, endgame: Endgame) -> Golden {
    // As a set: the order the solver tries them in is its own business.
    let mut winning: Vec<String> = solver.winning_moves(&endgame).iter().map(written).collect();
    winning.sort();
    Golden { endgame, wins: solver.side_to_move_wins(&endgame), winning }
}

#[test]
fn the_golden_positions_have_their_proven_answers() {
    if std::env::var_os("DDZ_BLESS").is_some() {
        let lines: Vec<String> = golden_positions()
            .into_iter()
            .map(|endgame| serde_json::to_string(&answer(&mut Solver::new(), endgame)).unwrap())
            .collect();
        std::fs::write(golden_path(), lines.join("\n") + "\n").unwrap();
    }
    let text = std::fs::read_to_string(golden_path()).expect("the golden file (DDZ_BLESS=1 writes it)");
    let golden: Vec<Golden> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(golden.len(), 300);
    let (mut wins, mut brute) = (0, 0);
    for (i, kept) in golden.iter().enumerate() {
        let solved = answer(&mut Solver::new(), kept.endgame);
        assert_eq!((solved.wins, &solved.winning), (kept.wins, &kept.winning), "line {}: {:?}", i + 1, kept.endgame);
        assert_eq!(kept.wins, !kept.winning.is_empty(), "line {}: a win has a winning move", i + 1);
        wins += usize::from(kept.wins);
        if kept.endgame.cards_left() <= BRUTE_FORCE_CARDS {
            brute += 1;
            let landlord_wins = minimax(&kept.endgame);
            assert_eq!(landlord_wins == kept.endgame.is_landlord(kept.endgame.turn), kept.wins, "line {}", i + 1);
            assert_eq!(minimax_winning(&kept.endgame), kept.winning, "line {}", i + 1);
        }
    }
    // Both answers are well represented, and most positions are proved twice.
    assert!((60..=240).contains(&wins), "{wins} of 300 won");
    assert!(brute >= 200, "{brute} checked by brute force");
}

/// A small hand-checked position: the landlord, to lead with 33 and a 5 against single 4 and single 6,
/// must lead the pair (a single led lets a farmer through); the farmers cannot beat the pair, and the 5
/// goes out next.
#[test]
fn the_only_winning_lead_is_found() {
    let e: Endgame =
        serde_json::from_str(r#"{"rules":"noshuffle","hands":["335","4","6"],"landlord":0,"turn":0}"#).unwrap();
    let mut solver = Solver::new();
    assert_eq!(solver.winning_moves(&e).iter().map(written).collect::<Vec<_>>(), ["33"]);
    assert_eq!(minimax_winning(&e), ["33"]);
    let line: Vec<String> = solver.line(&e).iter().map(written).collect();
    assert_eq!(line, ["33", "pass", "pass", "5"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_proven_win_stays_a_win_along_the_solution_line(seed in any::<u64>()) {
        let endgame = random_endgame(&mut ChaCha8Rng::seed_from_u64(seed), 5);
        let mut solver = Solver::new();
        let landlord_wins = solver.landlord_wins(&endgame);
        let mut at = endgame;
        for mv in solver.line(&endgame) {
            prop_assert_eq!(solver.landlord_wins(&at), landlord_wins, "at {:?}", at);
            match at.after(&mv) {
                Next::Over { landlord_won } => prop_assert_eq!(landlord_won, landlord_wins),
                Next::Position(next) => at = next,
            }
        }
    }

    #[test]
    fn a_proven_loss_has_a_refutation_for_every_move(seed in any::<u64>()) {
        let endgame = random_endgame(&mut ChaCha8Rng::seed_from_u64(seed), 5);
        let mut solver = Solver::new();
        prop_assume!(!solver.side_to_move_wins(&endgame));
        let losers_are_landlord = endgame.is_landlord(endgame.turn);
        for mv in endgame.moves() {
            prop_assert!(!solver.keeps_the_win(&endgame, &mv));
            match endgame.after(&mv) {
                Next::Over { landlord_won } => prop_assert_ne!(landlord_won, losers_are_landlord),
                // The winners to move have a winning reply; a partner of the losers to move loses too.
                Next::Position(next) if next.is_landlord(next.turn) != losers_are_landlord => {
                    prop_assert!(!solver.winning_moves(&next).is_empty(), "no refutation of {:?}", mv);
                }
                Next::Position(next) => prop_assert!(!solver.side_to_move_wins(&next)),
            }
        }
    }
}
