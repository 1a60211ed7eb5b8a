//! Puzzles around the solver (docs/puzzles.md): the set that ships with the binary, an attempt checked move
//! by move by the exact solver (never trusted from the page), and the Glicko-2 ratings an attempt moves, the
//! player's and the puzzle's (as lichess rates its puzzles).

use ddz_bot::puzzles::Puzzle;
use ddz_engine::{Endgame, Move, Next, Solver};
use sha2::Digest;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// The puzzles every server has from its first start: mined from bot games by `ddz puzzles mine`.
const BUILT_IN: &str = include_str!("../../data/puzzles.jsonl");

/// What the built-in set is, to store it once (its SHA-256, in hex).
pub fn built_in_digest() -> String {
    sha2::Sha256::digest(BUILT_IN.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The built-in set, read.
pub fn built_in() -> Vec<Puzzle> {
    BUILT_IN.lines().map(|line| serde_json::from_str(line).expect("the built-in puzzles read")).collect()
}

/// A new player's puzzle rating: Glicko-2's start.
pub const NEW_PLAYER: Glicko2Rating = Glicko2Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 };
/// A new puzzle's deviation around its starting rating: less sure than a played one, surer than a new player.
pub const NEW_PUZZLE_DEVIATION: f64 = 250.0;

/// A new puzzle's rating.
pub fn puzzle_start(puzzle: &Puzzle) -> Glicko2Rating {
    Glicko2Rating { rating: f64::from(puzzle.rating), deviation: NEW_PUZZLE_DEVIATION, volatility: 0.06 }
}

/// The player's and the puzzle's ratings after an attempt: the player won if they solved it.
pub fn rate(player: Glicko2Rating, puzzle: Glicko2Rating, solved: bool) -> (Glicko2Rating, Glicko2Rating) {
    let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
    glicko2(&player, &puzzle, &outcome, &Glicko2Config::new())
}

/// How an attempt went: every move as it was played (the player's and the solver's answers), and where it
/// went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub solved: bool,
    pub line: Vec<Move>,
    /// The player's move (by its place among theirs) that gave the win away.
    pub wrong: Option<usize>,
    /// After the wrong move: the other side's winning line (the solver's refutation).
    pub refutation: Vec<Move>,
}

/// Why an attempt cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttemptError {
    #[error("move {0} is not a legal move in its position")]
    NotLegal(usize),
    #[error("the attempt stops before the deal is won or lost: {0} moves")]
    Unfinished(usize),
}

/// Checks an attempt at `puzzle`: `moves` are the solving side's moves in order (for farmers, both farmers'):
/// each must be legal and keep the forced win (the first is the puzzle's one winning move); the other side
/// answers with the solver's strongest defence. Solved once the deal is won; failed at the first move that
/// gives the win away.
pub fn check(puzzle: &Puzzle, moves: &[Move]) -> Result<Checked, AttemptError> {
    let endgame = puzzle.endgame;
    let solvers = endgame.is_landlord(endgame.turn);
    let mut solver = Solver::new();
    let mut line = Vec::new();
    let mut at = endgame;
    let mut theirs = moves.iter().enumerate();
    loop {
        // The other side's turns: the solver's defence.
        while at.is_landlord(at.turn) != solvers {
            let defence = solver.defence(&at).expect("the other side loses while the win is kept");
            line.push(defence);
            match at.after(&defence) {
                Next::Position(next) => at = next,
                Next::Over { .. } => return Ok(Checked { solved: false, line, wrong: None, refutation: Vec::new() }),
            }
        }
        let Some((i, mv)) = theirs.next() else { return Err(AttemptError::Unfinished(moves.len())) };
        if !at.moves().contains(mv) {
            return Err(AttemptError::NotLegal(i));
        }
        line.push(*mv);
        if !solver.keeps_the_win(&at, mv) {
            let refutation = match at.after(mv) {
                Next::Position(next) => solver.line(&next),
                Next::Over { .. } => Vec::new(),
            };
            return Ok(Checked { solved: false, line, wrong: Some(i), refutation });
        }
        match at.after(mv) {
            Next::Position(next) => at = next,
            Next::Over { .. } => return Ok(Checked { solved: true, line, wrong: None, refutation: Vec::new() }),
        }
    }
}

/// The side that solves `endgame`: the one to move.
pub fn solving_side(endgame: &Endgame) -> &'static str {
    if endgame.is_landlord(endgame.turn) { "landlord" } else { "farmers" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_bot::puzzles::source_game;

    fn first() -> Puzzle {
        built_in().into_iter().next().expect("a built-in puzzle")
    }

    /// The solving side's moves of the puzzle's own solution line.
    fn solvers_moves(puzzle: &Puzzle) -> Vec<Move> {
        let solvers = puzzle.endgame.is_landlord(puzzle.endgame.turn);
        let mut at = puzzle.endgame;
        let mut mine = Vec::new();
        for mv in &puzzle.solution {
            if at.is_landlord(at.turn) == solvers {
                mine.push(*mv);
            }
            match at.after(mv) {
                Next::Position(next) => at = next,
                Next::Over { .. } => break,
            }
        }
        mine
    }

    #[test]
    fn the_built_in_set_is_a_thousand_puzzles_each_with_one_winning_first_move() {
        let set = built_in();
        assert!(set.len() >= 1000, "{} puzzles", set.len());
        let mut ids: Vec<&str> = set.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), set.len(), "each position once");
        // Every twentieth proved again here (the miner proved each as it kept it).
        for puzzle in set.iter().step_by(20) {
            assert_eq!(Solver::new().winning_moves(&puzzle.endgame), [puzzle.solution[0]], "{}", puzzle.id);
        }
    }

    /// Each built-in puzzle links to its deal, which today's bots play again from the puzzle's seed: a change to
    /// the bots that plays one otherwise fails here (mine the set again, docs/puzzles.md).
    #[test]
    fn every_built_in_puzzle_s_bot_game_plays_again_to_its_position() {
        for puzzle in built_in() {
            assert!(source_game(&puzzle).is_some(), "puzzle {} is not the position of its bot game", puzzle.id);
        }
    }

    #[test]
    fn the_solution_solves_and_a_wrong_first_move_is_refuted() {
        let puzzle = first();
        let checked = check(&puzzle, &solvers_moves(&puzzle)).unwrap();
        assert!(checked.solved && checked.wrong.is_none(), "{checked:?}");
        let wrong = puzzle.endgame.moves().into_iter().find(|mv| *mv != puzzle.solution[0]).unwrap();
        let failed = check(&puzzle, &[wrong]).unwrap();
        assert_eq!((failed.solved, failed.wrong), (false, Some(0)));
        assert!(!failed.refutation.is_empty(), "the solver shows how the other side wins");
    }

    #[test]
    fn an_attempt_that_is_not_legal_or_stops_short_is_refused() {
        let puzzle = first();
        let elsewhere = built_in().into_iter().find(|p| p.endgame.hands != puzzle.endgame.hands).unwrap();
        let foreign = elsewhere.solution[0];
        if !puzzle.endgame.moves().contains(&foreign) {
            assert_eq!(check(&puzzle, &[foreign]), Err(AttemptError::NotLegal(0)));
        }
        assert_eq!(check(&puzzle, &[]), Err(AttemptError::Unfinished(0)));
    }

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle() {
        let puzzle = puzzle_start(&first());
        let (player, after) = rate(NEW_PLAYER, puzzle, true);
        assert!(player.rating > NEW_PLAYER.rating && after.rating < puzzle.rating);
        let (player, after) = rate(NEW_PLAYER, puzzle, false);
        assert!(player.rating < NEW_PLAYER.rating && after.rating > puzzle.rating);
    }
}
