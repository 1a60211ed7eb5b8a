//! Puzzles in the page (docs/puzzles.md): the engine's exact solver on a puzzle's position, so that the
//! page answers each move at once and plays offline. The server checks every attempt again with the same
//! solver: nothing the page says is rated.

use ddz_engine::{Endgame, Move, Next, Solver};
use serde::{Deserialize, Serialize};

/// A question: a position, and perhaps the move made from it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleAsk {
    pub endgame: Endgame,
    /// The move made (a reading, or `null` for a pass): the answer is then about the position after it.
    #[serde(default, rename = "move", deserialize_with = "present")]
    pub made: Option<Move>,
}

/// `"move": null` is a pass, made; no `"move"` at all is no move.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Move>, D::Error> {
    Move::deserialize(d).map(Some)
}

/// The answer: where the move led, and what the position there is.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleAnswer {
    /// The position asked about (after the move, if one was made); none once the deal is over.
    pub endgame: Option<Endgame>,
    /// The deal ended with the move: whether the landlord won.
    pub landlord_won: Option<bool>,
    /// The legal moves there, in the solver's order.
    pub moves: Vec<Move>,
    /// Those that keep the side to move winning.
    pub winning: Vec<Move>,
    /// The side to move loses: its strongest defence.
    pub defence: Option<Move>,
    /// A line of best play from there.
    pub line: Vec<Move>,
}

pub fn answer(ask: &PuzzleAsk) -> Result<PuzzleAnswer, String> {
    let at = match ask.made {
        None => ask.endgame,
        Some(made) => {
            if !ask.endgame.moves().contains(&made) {
                return Err("that move is not legal here".into());
            }
            match ask.endgame.after(&made) {
                Next::Position(next) => next,
                Next::Over { landlord_won } => {
                    let over = PuzzleAnswer {
                        endgame: None,
                        landlord_won: Some(landlord_won),
                        moves: Vec::new(),
                        winning: Vec::new(),
                        defence: None,
                        line: Vec::new(),
                    };
                    return Ok(over);
                }
            }
        }
    };
    let mut solver = Solver::new();
    Ok(PuzzleAnswer {
        endgame: Some(at),
        landlord_won: None,
        moves: at.moves(),
        winning: solver.winning_moves(&at),
        defence: solver.defence(&at),
        line: solver.line(&at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(json: &str) -> PuzzleAsk {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_one_winning_lead_and_the_line_after_it() {
        let position = r#"{"rules":"noshuffle","hands":["335","4","6"],"landlord":0,"turn":0}"#;
        let first = answer(&ask(&format!(r#"{{"endgame":{position}}}"#))).unwrap();
        assert_eq!(first.winning.len(), 1);
        assert_eq!(first.winning[0].unwrap().cards.to_string(), "33");
        let pair = serde_json::to_string(&first.winning[0]).unwrap();
        let after = answer(&ask(&format!(r#"{{"endgame":{position},"move":{pair}}}"#))).unwrap();
        assert_eq!(after.moves, [None], "the farmers can only pass");
        assert_eq!(after.defence, Some(None));
        let passed = answer(&ask(&format!(r#"{{"endgame":{position},"move":null}}"#)));
        assert!(passed.is_err(), "no pass on a lead");
    }
}
