//! The exact solver for open hands (docs/puzzles.md): with every hand known, does the side to move win
//! with best play on both sides, and which first moves keep the win? The landlord plays against the
//! farmers, who play as one side (a farmer's win is both farmers' win). Any table type and option: the
//! moves are the engine's own legal plays ([`legal_plays`]), the Wild's and Wild Rank's readings
//! included, and Two Player's handicap (the farmer wins once down to its allowance).
//!
//! A position is canonical: the hands as counts by rank (suits never decide a Dou Dizhu play), whose
//! turn, and the play to beat as what decides beating it (shape, rank, strength) with who played it.
//! The search is alpha-beta with the window of a win (a side's first winning move ends its node) and a
//! transposition table of solved positions, checked for every child before any is searched (a child
//! already won settles the node). Moves are tried closest to out first (the fewest ranks left in the hand,
//! then the biggest play), and on a partner's play letting it stand first. Pure: no I/O, no clock, nothing
//! random.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::card::Counts;
use crate::deal::{Deal, Phase, Seat};
use crate::movegen::legal_plays;
use crate::play::{Play, Shape, Strength};
use crate::rules::Rules;
use crate::{Rank, Wilds};

/// A move: a play, or a pass (`None`).
pub type Move = Option<Play>;

/// A position with every hand known, in a deal's play phase: a puzzle's, an endgame's.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "EndgameJson"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "EndgameJson", into = "EndgameJson")]
pub struct Endgame {
    /// The deal's rules, its wild rank drawn (Wild Rank).
    pub rules: Rules,
    /// By seat (a Two Player deal's third is empty).
    pub hands: [Counts; 3],
    pub landlord: Seat,
    pub turn: Seat,
    /// The play to beat and who played it; none on a lead.
    pub trick: Option<(Seat, Play)>,
    /// Two Player: the farmer wins once down to this many cards (1, and 1 more for each rob).
    pub allowance: Option<u32>,
}

/// What a move leads to: the next position, or the end of the deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Position(Endgame),
    /// The deal is over: whether the landlord won.
    Over {
        landlord_won: bool,
    },
}

impl Endgame {
    /// The position of a deal in its play phase (none before, or after it is over).
    pub fn of(deal: &Deal) -> Option<Endgame> {
        if deal.phase() != Phase::Play {
            return None;
        }
        let mut hands = [Counts::EMPTY; 3];
        for (seat, hand) in hands.iter_mut().enumerate().take(deal.players()) {
            *hand = deal.hand(seat).counts();
        }
        Some(Endgame {
            rules: *deal.rules(),
            hands,
            landlord: deal.landlord()?,
            turn: deal.turn(),
            trick: deal.trick().map(|t| (t.seat, t.play)),
            allowance: deal.allowance().map(|a| a as u32),
        })
    }

    fn players(&self) -> usize {
        usize::from(self.rules.players)
    }

    /// Whether `seat` plays on the landlord's side.
    pub fn is_landlord(&self, seat: Seat) -> bool {
        seat == self.landlord
    }

    /// The moves the seat to move has: its legal plays, biggest first, then a pass where one is allowed:
    /// not on a lead, but for a hand of only the Wild, whose lead moves on (RULES.md 2.5).
    pub fn moves(&self) -> Vec<Move> {
        let mut plays = Vec::new();
        legal_plays(&self.rules, self.hands[self.turn], self.trick.as_ref().map(|(_, p)| p), &mut plays);
        let hand = self.hands[self.turn];
        // Closest to out first: the fewest ranks left in the hand, then the biggest play.
        plays.sort_by_key(|p| {
            let left = hand.checked_sub(p.cards).unwrap_or_default();
            (left.slots().count(), std::cmp::Reverse(p.len()))
        });
        let may_pass = self.trick.is_some() || plays.is_empty();
        // On a partner's play, letting it stand comes first.
        let partners = self.trick.is_some_and(|(seat, _)| self.is_landlord(seat) == self.is_landlord(self.turn));
        let mut moves: Vec<Move> = Vec::with_capacity(plays.len() + 1);
        if may_pass && partners {
            moves.push(None);
        }
        moves.extend(plays.into_iter().map(Some));
        if may_pass && !partners {
            moves.push(None);
        }
        moves
    }

    /// The position after the seat to move makes `mv` (which must be one of [`Endgame::moves`]).
    pub fn after(&self, mv: &Move) -> Next {
        let players = self.players();
        let next_seat = (self.turn + 1) % players;
        match mv {
            Some(play) => {
                let mut hands = self.hands;
                hands[self.turn] = hands[self.turn].checked_sub(play.cards).expect("a move comes from the hand");
                let left = hands[self.turn].total();
                let farmer_out = !self.is_landlord(self.turn) && self.allowance.is_some_and(|a| left <= a);
                if left == 0 || farmer_out {
                    return Next::Over { landlord_won: self.is_landlord(self.turn) };
                }
                Next::Position(Endgame { hands, turn: next_seat, trick: Some((self.turn, *play)), ..*self })
            }
            // Passed round to the one who played: the trick is over and they lead. (A lead passed on is
            // still a lead.)
            None => match self.trick {
                Some((leader, _)) if next_seat == leader => {
                    Next::Position(Endgame { turn: leader, trick: None, ..*self })
                }
                _ => Next::Position(Endgame { turn: next_seat, ..*self }),
            },
        }
    }

    /// Cards left in all hands.
    pub fn cards_left(&self) -> u32 {
        self.hands.iter().map(|h| h.total()).sum()
    }

    /// What the transposition table knows the position by.
    fn key(&self) -> Key {
        Key {
            hands: [self.hands[0].0, self.hands[1].0, self.hands[2].0],
            turn: self.turn as u8,
            trick: self.trick.map(|(seat, play)| (seat as u8, play.shape, play.main, play.strength)),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hands: [u64; 3],
    turn: u8,
    trick: Option<(u8, Shape, Rank, Strength)>,
}

/// A fast hasher for the table's keys (a few words each: SipHash would spend much of the search).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

/// The exact solver: each position solved once (the table keeps them across questions about one deal's
/// positions). Counts the positions it searched.
#[derive(Default)]
pub struct Solver {
    table: HashMap<Key, bool, BuildHasherDefault<WordHasher>>,
    /// Positions searched (not found in the table) since it was made.
    pub nodes: u64,
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Whether the landlord wins from `position` with best play on both sides.
    pub fn landlord_wins(&mut self, position: &Endgame) -> bool {
        if let Some(&known) = self.table.get(&position.key()) {
            return known;
        }
        self.nodes += 1;
        let landlords_turn = position.is_landlord(position.turn);
        let children: Vec<Next> = position.moves().iter().map(|mv| position.after(mv)).collect();
        // A move that ends the deal, or leads to a position already solved, in the side's favour settles it
        // without a search (an enhanced transposition cutoff).
        let settled = children.iter().any(|child| match child {
            Next::Over { landlord_won } => *landlord_won == landlords_turn,
            Next::Position(next) => self.table.get(&next.key()) == Some(&landlords_turn),
        });
        // Otherwise the side to move wins at its first winning move, and the other side wins if none does.
        let result = if settled {
            landlords_turn
        } else {
            let wins = children.iter().any(|child| match child {
                Next::Over { landlord_won } => *landlord_won == landlords_turn,
                Next::Position(next) => self.landlord_wins(next) == landlords_turn,
            });
            if wins { landlords_turn } else { !landlords_turn }
        };
        self.table.insert(position.key(), result);
        result
    }

    /// Whether the side to move wins from `position` with best play on both sides.
    pub fn side_to_move_wins(&mut self, position: &Endgame) -> bool {
        self.landlord_wins(position) == position.is_landlord(position.turn)
    }

    /// Whether the side to move still wins after making `mv`.
    pub fn keeps_the_win(&mut self, position: &Endgame, mv: &Move) -> bool {
        let landlord_won = match position.after(mv) {
            Next::Over { landlord_won } => landlord_won,
            Next::Position(next) => self.landlord_wins(&next),
        };
        landlord_won == position.is_landlord(position.turn)
    }

    /// The first moves that keep the side to move winning: every one of them, in [`Endgame::moves`]'
    /// order (none when it loses with best play).
    pub fn winning_moves(&mut self, position: &Endgame) -> Vec<Move> {
        position.moves().into_iter().filter(|mv| self.keeps_the_win(position, mv)).collect()
    }

    /// The strongest defence of a side that loses with best play: the move that leaves the winners the
    /// fewest winning replies (the hardest for them to find), the biggest play first among equals. `None`
    /// when the side to move wins.
    pub fn defence(&mut self, position: &Endgame) -> Option<Move> {
        if self.side_to_move_wins(position) {
            return None;
        }
        let mut best: Option<(usize, Move)> = None;
        for mv in position.moves() {
            let replies = match position.after(&mv) {
                Next::Over { .. } => 0,
                Next::Position(next) if self.side_to_move_wins(&next) => self.winning_moves(&next).len(),
                // The partner moves next and loses for both: the position is the winners' all the same.
                Next::Position(_) => usize::MAX,
            };
            if best.as_ref().is_none_or(|(fewest, _)| replies < *fewest) {
                best = Some((replies, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// A line of best play from `position` to the end of the deal: the winning side's first winning move,
    /// the losing side's strongest defence ([`Solver::defence`]).
    pub fn line(&mut self, position: &Endgame) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = *position;
        loop {
            let mv = match self.winning_moves(&at).into_iter().next() {
                Some(mv) => mv,
                None => self.defence(&at).expect("a side that does not win defends"),
            };
            line.push(mv);
            match at.after(&mv) {
                Next::Over { .. } => return line,
                Next::Position(next) => at = next,
            }
        }
    }
}

/// An endgame as JSON (puzzles, the golden file): the rules by name, each hand as ranks (`"334BR"`, `W`
/// for the Wild), the play to beat as a reading.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Endgame"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndgameJson {
    /// `house`, `house-nowild`, `noshuffle`, `noshuffle-wildrank`, `twoplayer`, `twoplayer-wildrank`.
    pub rules: String,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild_rank: Option<Rank>,
    /// By seat, as ranks: `"334BR"`, `W` for the Wild.
    pub hands: Vec<String>,
    pub landlord: Seat,
    pub turn: Seat,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trick: Option<TrickJson>,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowance: Option<u32>,
}

/// The play to beat, and who played it.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "EndgameTrick"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrickJson {
    pub seat: Seat,
    pub play: Play,
}

impl From<Endgame> for EndgameJson {
    fn from(e: Endgame) -> EndgameJson {
        let wild_rank = match e.rules.wilds {
            Wilds::Rank(rank) => Some(rank),
            _ => None,
        };
        EndgameJson {
            rules: e.rules.to_string(),
            wild_rank,
            hands: e.hands[..e.players()].iter().map(Counts::to_string).collect(),
            landlord: e.landlord,
            turn: e.turn,
            trick: e.trick.map(|(seat, play)| TrickJson { seat, play }),
            allowance: e.allowance,
        }
    }
}

impl TryFrom<EndgameJson> for Endgame {
    type Error = String;

    fn try_from(json: EndgameJson) -> Result<Endgame, String> {
        let rules: Rules = json.rules.parse().map_err(|e| format!("{e}"))?;
        let rules = rules.with_drawn_wild_rank(json.wild_rank).map_err(|e| e.to_string())?;
        let players = usize::from(rules.players);
        if json.hands.len() != players {
            return Err(format!("a {rules} position has {players} hands"));
        }
        let mut hands = [Counts::EMPTY; 3];
        for (hand, text) in hands.iter_mut().zip(&json.hands) {
            *hand = text.parse().map_err(|e| format!("hand {text:?}: {e}"))?;
        }
        let seats_ok = json.landlord < players
            && json.turn < players
            && json.trick.as_ref().is_none_or(|t| t.seat < players && t.seat != json.turn);
        if !seats_ok {
            return Err(format!("seats are 0 to {}", players - 1));
        }
        if hands[..players].iter().any(|h| h.is_empty()) {
            return Err("every hand holds a card: a deal ends when one is empty".into());
        }
        Ok(Endgame {
            rules,
            hands,
            landlord: json.landlord,
            turn: json.turn,
            trick: json.trick.map(|t| (t.seat, t.play)),
            allowance: json.allowance,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endgame(json: &str) -> Endgame {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_side_to_move_that_can_go_out_at_once_wins() {
        let e = endgame(r#"{"rules":"noshuffle","hands":["33","4","5"],"landlord":0,"turn":0}"#);
        let mut solver = Solver::new();
        assert!(solver.side_to_move_wins(&e));
        let winning = solver.winning_moves(&e);
        assert_eq!(winning.len(), 1, "only the pair goes out: {winning:?}");
        assert_eq!(winning[0].unwrap().cards, "33".parse().unwrap());
    }

    #[test]
    fn farmers_win_as_one_side() {
        // The landlord leads a single 3; whatever it leads, a farmer goes out.
        let e = endgame(r#"{"rules":"noshuffle","hands":["34","5","6"],"landlord":0,"turn":0}"#);
        assert!(!Solver::new().side_to_move_wins(&e));
        let e = endgame(r#"{"rules":"noshuffle","hands":["34","5","6"],"landlord":0,"turn":1}"#);
        assert!(Solver::new().side_to_move_wins(&e), "a farmer goes out at once");
    }

    #[test]
    fn a_two_player_farmer_wins_at_its_allowance() {
        let e = endgame(r#"{"rules":"twoplayer","hands":["AA","56"],"landlord":0,"turn":1,"allowance":1}"#);
        assert!(Solver::new().side_to_move_wins(&e), "down to one card after one play");
    }

    #[test]
    fn json_round_trips() {
        let text = r#"{"rules":"noshuffle-wildrank","wild_rank":"7","hands":["3377","45","6K"],"landlord":1,"turn":2}"#;
        let e = endgame(text);
        assert_eq!(serde_json::from_value::<Endgame>(serde_json::to_value(e).unwrap()).unwrap(), e);
        assert!(
            serde_json::from_str::<Endgame>(r#"{"rules":"noshuffle","hands":["3","4"],"landlord":0,"turn":0}"#)
                .is_err()
        );
    }
}
