//! The endgame solver behind the search: a sampled deal played out with every hand known, depth-first
//! with a transposition table and a node budget.

use super::*;

/// A solver position: the hands (empty past the table's seats), the seat to play, and the play to beat
/// with its player.
type Position = ([Counts; 3], Seat, Option<(Seat, Shape, Rank, Strength)>);

/// The solver's transposition table: its keys are a few words, which SipHash, the standard hasher, spent
/// a third of the search's time on.
type Transpositions = HashMap<Position, bool, foldhash::fast::FixedState>;

/// A perfect-information solver for sampled endgames: does the landlord win with best play on both
/// sides, or with the searching side's best play against opponents who play as the simple player
/// (their one move, or, where the simple player would draw, the worst of its draws)? Depth-first with
/// a transposition table and a node budget.
pub(super) struct Solver {
    rules: Rules,
    landlord: Seat,
    table: Transpositions,
    /// Play lists, one per depth of the current line, reused from node to node.
    plays: Vec<Vec<Play>>,
    pub(super) nodes: u32,
    limit: u32,
    /// The searching seat, whose opponents play as the simple player (`None`: best play on both sides).
    model_for: Option<Seat>,
}

impl Solver {
    /// A solver in which `model_for`'s opponents, if any, play as the simple player.
    pub(super) fn new(rules: Rules, landlord: Seat, limit: u32, model_for: Option<Seat>) -> Solver {
        Solver { rules, landlord, table: Transpositions::default(), plays: Vec::new(), nodes: 0, limit, model_for }
    }

    /// Starts on another deal: drops the positions solved so far.
    pub(super) fn forget(&mut self) {
        self.table.clear();
    }

    /// `None` when the position needs more nodes than the budget. Positions solved since the last
    /// `forget` are known without search.
    pub(super) fn landlord_wins(&mut self, sim: &Sim) -> Option<bool> {
        if let Some(w) = sim.winner {
            return Some(w == self.landlord);
        }
        self.nodes = 0;
        let mut hands = [Counts::EMPTY; 3];
        hands[..sim.hands.len()].copy_from_slice(&sim.hands);
        self.solve(hands, 0, sim.turn, sim.trick, sim.allowance)
    }

    /// `depth` numbers the play lists of the line from the root.
    pub(super) fn solve(
        &mut self,
        hands: [Counts; 3],
        depth: usize,
        turn: Seat,
        trick: Option<(Seat, Play)>,
        allowance: Option<u32>,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let key = (hands, turn, trick.map(|(s, p)| (s, p.shape, p.main, p.strength)));
        if let Some(&known) = self.table.get(&key) {
            return Some(known);
        }
        let players = usize::from(self.rules.players);
        let maximizing = turn == self.landlord;
        if self.plays.len() <= depth {
            self.plays.resize_with(depth + 1, Vec::new);
        }
        let mut plays = std::mem::take(&mut self.plays[depth]);
        plays.clear();
        legal_plays(&self.rules, hands[turn], trick.as_ref().map(|(_, p)| p), &mut plays);
        let mut may_pass = true;
        let modelled = self.model_for.is_some_and(|me| turn != me && (turn == self.landlord || me == self.landlord));
        if modelled && !plays.iter().any(|p| p.len() == hands[turn].total()) {
            let facing = trick.as_ref().map(|(leader, play)| (*leader, play));
            match rule_agent::simple_move(hands[turn], turn, Some(self.landlord), facing, plays.iter().map(|p| (*p, p)))
            {
                SimpleMove::Play(play) => {
                    plays.clear();
                    plays.push(play);
                    may_pass = false;
                }
                SimpleMove::Pass => plays.clear(),
                // The worst of its draws for the searching side.
                SimpleMove::Draw => {}
            }
        }
        // Going out first, then the biggest plays; passing last.
        plays.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let mut any_unknown = false;
        let mut result = !maximizing;
        for play in &plays {
            let mut next = hands;
            next[turn] = next[turn].checked_sub(play.cards).expect("plays come from the hand");
            let left = next[turn].total();
            let wins_now = left == 0 || (turn != self.landlord && allowance.is_some_and(|a| left <= a));
            let outcome = if wins_now {
                Some(turn == self.landlord)
            } else {
                self.solve(next, depth + 1, (turn + 1) % players, Some((turn, *play)), allowance)
            };
            match outcome {
                Some(v) if v == maximizing => {
                    result = v;
                    any_unknown = false;
                    break;
                }
                Some(_) => {}
                None => any_unknown = true,
            }
        }
        let no_plays = plays.is_empty();
        self.plays[depth] = plays;
        if result != maximizing && may_pass {
            // Passing (not allowed on a lead; a hand with no lead lets the lead move on). When every other
            // seat has passed, the trick is over and its leader leads.
            let next_seat = (turn + 1) % players;
            let outcome = match trick {
                Some((leader, _)) if next_seat == leader => self.solve(hands, depth + 1, leader, None, allowance),
                Some(t) => self.solve(hands, depth + 1, next_seat, Some(t), allowance),
                None if no_plays => self.solve(hands, depth + 1, next_seat, None, allowance),
                None => Some(result),
            };
            match outcome {
                Some(v) => {
                    if v == maximizing {
                        result = v;
                        any_unknown = false;
                    }
                }
                None => any_unknown = true,
            }
        }
        if any_unknown {
            return None;
        }
        self.table.insert(key, result);
        Some(result)
    }
}
