//! Puzzles (残局, docs/puzzles.md): endgames mined from deals, proved by the engine's exact solver
//! ([`ddz_engine::Solver`]). A position of a deal becomes a puzzle when the side to move wins with best play,
//! exactly one first move wins (as lichess keeps one solution move), that move does not simply go out, the
//! `normal` bot would have chosen a losing move there, the solution takes a few moves, and the proof is small
//! enough for the page to answer at once. Each puzzle keeps
//! where it came from, its solution line, a difficulty (the solver's tree and how many bot levels fail it)
//! and the themes its line shows.

use ddz_engine::{Action, Deal, DealSetup, Endgame, Kind, Move, Next, Phase, Rules, Seed, Solver, Start};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{BotKind, bot_action};

/// The most cards a hand may hold in a mined position (so that each is proved in well under a second).
pub const MOST_CARDS: u32 = 10;
/// The largest proof kept, in positions searched: a puzzle the page must answer at once, on a phone too.
pub const MOST_NODES: u64 = 200_000;
/// The shortest solution line kept, in moves (both sides' and the passes).
pub const SHORTEST_LINE: usize = 3;
/// The bot levels a puzzle's difficulty counts the failures of, weakest first.
pub const LEVELS: [BotKind; 3] = [BotKind::Beginner, BotKind::Easy, BotKind::Normal];

/// A puzzle: a position, its one winning first move and a line of best play after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// 10 hex digits of the SHA-256 of the position: the same position is the same puzzle.
    pub id: String,
    pub endgame: Endgame,
    /// The winning line: the solver's first winning move at each of the solver's side's turns, its
    /// strongest defence at the other side's; the first move is the only one that wins.
    pub solution: Vec<Move>,
    /// The puzzle's starting rating (its Glicko-2 rating moves from here as it is played).
    pub rating: i32,
    /// Positions the solver searched to prove it, from an empty table.
    pub nodes: u64,
    /// Of [`LEVELS`], how many choose a losing move here.
    pub bots_failing: u8,
    pub themes: Vec<Theme>,
    pub source: Source,
}

/// Where a puzzle came from.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PuzzleSource"))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// A stored deal: its room and number.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// A bot game (`ddz puzzles mine --bots`) or a deal record on disk: its seed, 64 hex digits.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// A bot game: the level of its bots, who play it again from `seed` at the puzzle's table
    /// ([`source_game`]).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<BotKind>,
    /// The position is after this many of the deal's actions.
    pub step: usize,
}

/// What a puzzle's solution line shows.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PuzzleTheme"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// The winners hold a bomb at the start and play it later, not first.
    BombHeldBack,
    /// The winners' last play is the rocket.
    RocketLast,
    /// A farmer passes on the other farmer's play and lets them through.
    LetThrough,
    /// A winning play reads the Wild or wild-rank cards as other ranks.
    WildReading,
    /// The landlord wins before either farmer has played a card: a spring.
    Spring,
}

/// A move as a deal's action by `seat`, if it is one.
fn move_of(action: &Action) -> Option<Move> {
    match action {
        Action::Play { play, .. } => Some(Some(*play)),
        Action::Pass { .. } => Some(None),
        _ => None,
    }
}

/// The first puzzle of a deal (its largest position that is one), from the deal's setup and actions.
/// `source` says where the deal came from; its `step` is filled in.
pub fn mine(setup: &DealSetup, actions: &[Action], source: Source) -> Option<Puzzle> {
    let mut deal = Deal::try_new(setup.clone()).ok()?;
    let mut solver = Solver::new();
    for (step, action) in actions.iter().enumerate() {
        if deal.phase() == Phase::Play
            && let Some(endgame) = Endgame::of(&deal)
            && endgame.hands.iter().all(|h| h.total() <= MOST_CARDS)
            && let Some(puzzle) = puzzle_at(&deal, endgame, &mut solver, Source { step, ..source.clone() })
        {
            return Some(puzzle);
        }
        deal.apply(action).ok()?;
    }
    None
}

/// The puzzle at `endgame`, the position of `deal`, if it is one.
fn puzzle_at(deal: &Deal, endgame: Endgame, solver: &mut Solver, source: Source) -> Option<Puzzle> {
    if endgame.moves().len() < 2 || !solver.side_to_move_wins(&endgame) {
        return None;
    }
    let winning = solver.winning_moves(&endgame);
    let [first] = winning[..] else { return None };
    if matches!(endgame.after(&first), Next::Over { .. }) {
        return None;
    }
    let chooses = |kind: BotKind| bot_action(deal, endgame.turn, kind).as_ref().and_then(move_of);
    let normal = chooses(BotKind::Normal)?;
    if normal == first {
        return None;
    }
    let solution = solver.line(&endgame);
    if solution.len() < SHORTEST_LINE {
        return None;
    }
    let bots_failing = LEVELS.iter().filter(|&&kind| chooses(kind).is_some_and(|mv| mv != first)).count() as u8;
    let mut fresh = Solver::new();
    fresh.side_to_move_wins(&endgame);
    let nodes = fresh.nodes;
    if nodes > MOST_NODES {
        return None;
    }
    Some(Puzzle {
        id: puzzle_id(&endgame),
        themes: themes(&endgame, &solution, deal.rules().hand_size),
        rating: starting_rating(nodes, bots_failing, solution.len()),
        endgame,
        solution,
        nodes,
        bots_failing,
        source,
    })
}

/// 10 hex digits of the SHA-256 of the position's JSON.
pub fn puzzle_id(endgame: &Endgame) -> String {
    let json = serde_json::to_string(endgame).expect("positions serialise");
    Sha256::digest(json.as_bytes()).iter().take(5).map(|b| format!("{b:02x}")).collect()
}

/// A puzzle's first rating: 1100, and more for a bigger proof (60 a doubling of the solver's tree), each bot
/// level beyond the first that fails it (80) and each move of the line beyond three (12); 800 to 2600.
pub fn starting_rating(nodes: u64, bots_failing: u8, line: usize) -> i32 {
    let tree = 60.0 * ((nodes + 1) as f64).log2();
    let bots = 80.0 * f64::from(bots_failing.saturating_sub(1));
    let length = 12.0 * line.saturating_sub(SHORTEST_LINE) as f64;
    (1100.0 + tree + bots + length).clamp(800.0, 2600.0).round() as i32
}

/// The themes the solution line shows.
pub fn themes(endgame: &Endgame, solution: &[Move], hand_size: u8) -> Vec<Theme> {
    let winners_are_landlord = endgame.is_landlord(endgame.turn);
    let mut themes = Vec::new();
    let mut at = *endgame;
    let mut winners_plays = Vec::new();
    for mv in solution {
        let winners = at.is_landlord(at.turn) == winners_are_landlord;
        match mv {
            Some(play) if winners => winners_plays.push(*play),
            // A farmer passing on the other farmer's play.
            None if !winners_are_landlord && winners && at.trick.is_some_and(|(seat, _)| !at.is_landlord(seat)) => {
                themes.push(Theme::LetThrough)
            }
            _ => {}
        }
        match at.after(mv) {
            Next::Position(next) => at = next,
            Next::Over { .. } => break,
        }
    }
    let bomb = |kind: Kind| matches!(kind, Kind::Bomb);
    if winners_plays.iter().skip(1).any(|p| bomb(p.shape.kind))
        && !winners_plays.first().is_some_and(|p| bomb(p.shape.kind))
    {
        themes.push(Theme::BombHeldBack);
    }
    if winners_plays.len() > 1 && winners_plays.last().is_some_and(|p| p.shape.kind == Kind::Rocket) {
        themes.push(Theme::RocketLast);
    }
    if winners_plays.iter().any(|p| !p.wild_as.is_empty()) {
        themes.push(Theme::WildReading);
    }
    let farmers_untouched = (0..usize::from(endgame.rules.players))
        .filter(|&seat| !endgame.is_landlord(seat))
        .all(|seat| endgame.hands[seat].total() == u32::from(hand_size));
    if winners_are_landlord && farmers_untouched {
        themes.push(Theme::Spring);
    }
    themes.sort();
    themes.dedup();
    themes
}

/// Whether `mv` keeps the side to move winning at `endgame` (a puzzle's attempt is checked move by move).
pub fn keeps_the_win(solver: &mut Solver, endgame: &Endgame, mv: &Move) -> bool {
    endgame.moves().contains(mv) && solver.keeps_the_win(endgame, mv)
}

/// A bot game's deal: shuffled from `seed`, the first to bid drawn from it too.
pub fn bot_game_setup(rules: Rules, seed: Seed) -> DealSetup {
    DealSetup::shuffled(rules, seed, Start::Random)
}

/// The deal a puzzle came from, played to its end again: a bot game, from its seed, by bots of its level.
/// `None` when the puzzle names no bot game, or when today's bots play it otherwise (the position after
/// `step` actions is not the puzzle's: the built-in set wants mining again, docs/puzzles.md).
pub fn source_game(puzzle: &Puzzle) -> Option<Deal> {
    let level = puzzle.source.bots?;
    let seed = puzzle.source.seed.as_deref()?.parse().ok()?;
    // The table's rules, its wild rank not drawn yet: the deal draws it from the seed.
    let rules = puzzle.endgame.rules.name().parse().ok()?;
    let setup = bot_game_setup(rules, seed);
    let deal = bot_game(setup.clone(), level);
    let at = Deal::replay(setup, deal.actions().get(..puzzle.source.step)?).ok()?;
    (Endgame::of(&at) == Some(puzzle.endgame)).then_some(deal)
}

/// A whole deal between `level` bots at every seat, played from `setup` to its end: a game to mine.
pub fn bot_game(setup: DealSetup, level: BotKind) -> Deal {
    let mut deal = Deal::new(setup);
    while deal.result().is_none() {
        let seat = deal.waiting_for()[0];
        let action = bot_action(&deal, seat, level).expect("a bot acts when awaited");
        deal.apply(&action).expect("a bot's action is legal");
    }
    deal
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mines bot games until `wanted` puzzles: each checked again from scratch.
    #[test]
    fn a_mined_puzzle_has_exactly_one_winning_first_move_which_the_normal_bot_misses() {
        let mut found = Vec::new();
        for seed in 0..400u64 {
            let setup = bot_game_setup(Rules::no_shuffle(false), Seed::from_u64(seed));
            let deal = bot_game(setup.clone(), BotKind::Normal);
            let source =
                Source { seed: Some(setup.seed.to_string()), bots: Some(BotKind::Normal), ..Source::default() };
            if let Some(puzzle) = mine(&setup, deal.actions(), source) {
                found.push((setup, deal, puzzle));
            }
            if found.len() == 3 {
                break;
            }
        }
        assert!(!found.is_empty(), "bot games make puzzles");
        for (setup, deal, puzzle) in found {
            let mut solver = Solver::new();
            let winning = solver.winning_moves(&puzzle.endgame);
            assert_eq!(winning, [puzzle.solution[0]], "one winning first move: {puzzle:?}");
            let at = Deal::replay(setup, &deal.actions()[..puzzle.source.step]).unwrap();
            assert_eq!(Endgame::of(&at), Some(puzzle.endgame), "the position is the deal's");
            let normal = bot_action(&at, puzzle.endgame.turn, BotKind::Normal).and_then(|a| move_of(&a)).unwrap();
            assert!(!solver.keeps_the_win(&puzzle.endgame, &normal), "the normal bot's move loses");
            assert!(puzzle.solution.len() >= SHORTEST_LINE && puzzle.bots_failing >= 1);
            assert_eq!(puzzle.id, puzzle_id(&puzzle.endgame));
            let again = source_game(&puzzle).expect("the bot game plays again");
            assert_eq!(again.actions(), deal.actions(), "the same game, to its end");
        }
    }

    #[test]
    fn a_puzzle_whose_bot_game_goes_otherwise_names_no_source_game() {
        let setup = bot_game_setup(Rules::two_player(false), Seed::from_u64(7));
        let deal = bot_game(setup.clone(), BotKind::Normal);
        let step = deal.actions().len() - 2;
        let at = Deal::replay(setup.clone(), &deal.actions()[..step]).unwrap();
        let endgame = Endgame::of(&at).expect("the deal is in play two actions before its end");
        let source =
            Source { seed: Some(setup.seed.to_string()), bots: Some(BotKind::Normal), step, ..Source::default() };
        let puzzle = Puzzle {
            id: puzzle_id(&endgame),
            endgame,
            solution: vec![],
            rating: 1500,
            nodes: 0,
            bots_failing: 0,
            themes: vec![],
            source,
        };
        assert!(source_game(&puzzle).is_some(), "its own game");
        let easy =
            Puzzle { source: Source { bots: Some(BotKind::Beginner), ..puzzle.source.clone() }, ..puzzle.clone() };
        assert!(source_game(&easy).is_none(), "beginners play that seed otherwise");
        let elsewhere = Puzzle { source: Source { step: step - 1, ..puzzle.source.clone() }, ..puzzle.clone() };
        assert!(source_game(&elsewhere).is_none(), "the position is one action earlier");
        let records = Puzzle { source: Source { bots: None, ..puzzle.source.clone() }, ..puzzle };
        assert!(source_game(&records).is_none(), "a record on disk is not played again");
    }
}
