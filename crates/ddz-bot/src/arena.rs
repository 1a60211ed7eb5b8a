//! The arena: seeded deals between two contestants, every deal played twice with the sides swapped.
//!
//! The landlord is fixed at seat 0 with no auction (House: seat 0 takes; No Shuffle: seat 0 bids 3; Two
//! Player: seat 0 calls and seat 1 does not rob), so each deal is one contestant as landlord against the
//! other as the farmers, then the same cards with the roles swapped. Scores are the table's own
//! (money or points) or, under the research protocol (No Shuffle play rules, 20-card landlord, no
//! bidding), ±2 per deal doubled per bomb or rocket. With an auction (`Match::auction`) the seats bid
//! for the landlord instead, and each deal is played six times: each contestant alone at each seat.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

use ddz_engine::{Action, Deal, DealResult, DealSetup, Rules, Seat, Seed, Start, TableType};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::protocol::External;
use crate::{Bot, BotError, BotKind, Player};

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contestant {
    Ours(BotKind),
    /// A command that speaks the bot protocol.
    External(String),
    /// RLCard's rule-based agent, re-implemented ([`crate::rule_agent`]).
    RlcardRule,
    /// A rule-based player written from a players' guide ([`crate::guide`]); its habit is one `hard`
    /// models ([`crate::inference::Habit::WholeGroups`]).
    GuideRule,
    /// A rule-based player written from a second guide ([`crate::tempo`]), held out: `hard` is never
    /// tuned against it and models no habit like its.
    TempoRule,
}

impl Contestant {
    pub fn parse(text: &str) -> Result<Contestant, BotError> {
        match text.strip_prefix("exec:") {
            Some(command) => Ok(Contestant::External(command.to_string())),
            None if text == RLCARD_RULE => Ok(Contestant::RlcardRule),
            None if text == GUIDE_RULE => Ok(Contestant::GuideRule),
            None if text == TEMPO_RULE => Ok(Contestant::TempoRule),
            None => text.parse().map(Contestant::Ours).map_err(|_| {
                BotError(format!("unknown contestant {text:?} (random, greedy, beginner, easy, normal, hard, bomber, {RLCARD_RULE}, {GUIDE_RULE}, {TEMPO_RULE}, or exec:COMMAND)"))
            }),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Contestant::Ours(kind) => kind.to_string(),
            Contestant::External(command) => format!("exec:{command}"),
            Contestant::RlcardRule => RLCARD_RULE.to_string(),
            Contestant::GuideRule => GUIDE_RULE.to_string(),
            Contestant::TempoRule => TEMPO_RULE.to_string(),
        }
    }

    /// A player for one seat; an external side's seats share one process.
    fn player(&self, seed: u64, shared: &mut Option<Rc<RefCell<External>>>) -> Result<Box<dyn Player>, BotError> {
        match self {
            Contestant::Ours(kind) => Ok(Box::new(Bot::new(*kind, seed))),
            Contestant::RlcardRule => Ok(Box::new(RuleAgent(ChaCha8Rng::seed_from_u64(seed)))),
            Contestant::GuideRule => Ok(Box::new(RulePlayer(crate::guide::choose))),
            Contestant::TempoRule => Ok(Box::new(RulePlayer(crate::tempo::choose))),
            Contestant::External(command) => {
                if shared.is_none() {
                    *shared = Some(Rc::new(RefCell::new(External::spawn(command)?)));
                }
                Ok(Box::new(SharedExternal(shared.clone().expect("spawned"))))
            }
        }
    }
}

/// The name of the in-process RLCard rule agent as a contestant.
pub const RLCARD_RULE: &str = "rlcard-rule";
/// The name of the guide's rule-based player as a contestant.
pub const GUIDE_RULE: &str = "guide-rule";
/// The name of the held-out second guide's player as a contestant.
pub const TEMPO_RULE: &str = "tempo-rule";

struct RuleAgent(ChaCha8Rng);

impl Player for RuleAgent {
    fn choose(&mut self, view: &ddz_engine::DealView, choices: &[Action]) -> Result<usize, BotError> {
        Ok(crate::rule_agent::choose(view, choices, &mut self.0))
    }
}

/// A deterministic rule player of ours ([`crate::guide`], [`crate::tempo`]): its choice among two or more.
struct RulePlayer(fn(&crate::table::Table, &[Action]) -> usize);

impl Player for RulePlayer {
    fn choose(&mut self, view: &ddz_engine::DealView, choices: &[Action]) -> Result<usize, BotError> {
        if choices.len() <= 1 {
            return Ok(0);
        }
        Ok(self.0(&crate::table::Table::new(view), choices))
    }
}

/// An external process shared by the seats of one side.
struct SharedExternal(Rc<RefCell<External>>);

impl Player for SharedExternal {
    fn choose(&mut self, view: &ddz_engine::DealView, choices: &[Action]) -> Result<usize, BotError> {
        self.0.borrow_mut().choose(view, choices)
    }
}

#[derive(Clone, Debug)]
pub struct Match {
    pub rules: Rules,
    pub research: bool,
    pub deals: u32,
    pub seed: u64,
    pub a: Contestant,
    pub b: Contestant,
    /// Bid for the landlord instead of fixing it: every deal is played once with each contestant alone
    /// at each seat and the other in the rest; side A's score is its seats' net, its win a net gain.
    pub auction: bool,
}

/// One game's outcome from the landlord's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub landlord_won: bool,
    /// The landlord side's score (the farmers' side scored the opposite).
    pub landlord_score: i64,
    pub bombs: u32,
}

/// Plays one deal with `landlord` at seat 0 and `farmers` in the other seats.
pub fn play_game(
    rules: Rules,
    research: bool,
    seed: u64,
    landlord: &mut dyn Player,
    farmers: &mut [Box<dyn Player>],
) -> Result<Game, BotError> {
    let setup = DealSetup::shuffled(rules, Seed::from_u64(seed), Start::Seat(0));
    let mut deal = Deal::new(setup);
    let forced: Vec<Action> = match rules.table {
        TableType::House => vec![Action::Take { seat: 0 }],
        TableType::NoShuffle => vec![Action::Bid { seat: 0, bid: 3 }],
        TableType::TwoPlayer => vec![Action::Call { seat: 0, call: true }, Action::Rob { seat: 1, rob: false }],
    };
    for action in &forced {
        deal.apply(action).expect("the forced auction is legal");
    }
    let result = play_out(&mut deal, |seat, view, choices| match seat {
        0 => landlord.choose(view, choices),
        _ => farmers[seat - 1].choose(view, choices),
    })?;
    let landlord_won = result.landlord_won == Some(true);
    let landlord_score = if research {
        let stake = 2i64 << result.bombs.min(40);
        if landlord_won { stake } else { -stake }
    } else {
        result.score[0]
    };
    Ok(Game { landlord_won, landlord_score, bombs: result.bombs })
}

/// Plays one deal from the auction on, `players[seat]` at each seat (the starting seat rotates with the
/// seed): the landlord's seat and the result.
pub fn play_auction(rules: Rules, seed: u64, players: &mut [Box<dyn Player>]) -> Result<(Seat, DealResult), BotError> {
    let start = Start::Seat((seed % u64::from(rules.players)) as Seat);
    let mut deal = Deal::new(DealSetup::shuffled(rules, Seed::from_u64(seed), start));
    let result = play_out(&mut deal, |seat, view, choices| players[seat].choose(view, choices))?;
    Ok((deal.landlord().expect("every auction ends with a landlord"), result))
}

/// Asks the seat to act, through `choose`, until the deal is over.
fn play_out(
    deal: &mut Deal,
    mut choose: impl FnMut(Seat, &ddz_engine::DealView, &[Action]) -> Result<usize, BotError>,
) -> Result<DealResult, BotError> {
    let mut decisions = 0;
    while deal.result().is_none() {
        decisions += 1;
        if decisions > 2000 {
            return Err(BotError("a deal ran past 2000 decisions".into()));
        }
        let seat: Seat = deal.waiting_for()[0];
        let choices: Vec<Action> = deal.choices().into_iter().filter(|a| a.seat() == Some(seat)).collect();
        let view = deal.view(Some(seat));
        let choice = choose(seat, &view, &choices)?;
        let action = choices.get(choice).ok_or_else(|| BotError(format!("choice {choice} out of range")))?;
        deal.apply(action).map_err(|e| BotError(format!("illegal choice: {e}")))?;
    }
    Ok(deal.result().expect("finished").clone())
}

/// Results for side A (side B's are the mirror image).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub landlord_games: u32,
    pub landlord_wins: u32,
    pub score_sum: f64,
    pub score_squares: f64,
    /// Side A's scores in the games it was the landlord.
    pub landlord_score_sum: f64,
    pub landlord_score_squares: f64,
}

impl Tally {
    fn add(&mut self, a_is_landlord: bool, game: Game) {
        let a_won = game.landlord_won == a_is_landlord;
        let score = if a_is_landlord { game.landlord_score } else { -game.landlord_score };
        self.record(a_is_landlord, a_won, score);
    }

    /// One game for side A: whether it held the landlord's seat, won, and its score.
    fn record(&mut self, a_is_landlord: bool, a_won: bool, score: i64) {
        let score = score as f64;
        self.games += 1;
        self.wins += u32::from(a_won);
        self.landlord_games += u32::from(a_is_landlord);
        self.landlord_wins += u32::from(a_is_landlord && a_won);
        self.score_sum += score;
        self.score_squares += score * score;
        if a_is_landlord {
            self.landlord_score_sum += score;
            self.landlord_score_squares += score * score;
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.landlord_games += other.landlord_games;
        self.landlord_wins += other.landlord_wins;
        self.score_sum += other.score_sum;
        self.score_squares += other.score_squares;
        self.landlord_score_sum += other.landlord_score_sum;
        self.landlord_score_squares += other.landlord_score_squares;
    }

    /// Side A's win rate with its 95% confidence half-width.
    pub fn win_rate(&self) -> (f64, f64) {
        let n = f64::from(self.games.max(1));
        let p = f64::from(self.wins) / n;
        (p, 1.96 * (p * (1.0 - p) / n).sqrt())
    }

    /// Side A's mean score per game with its 95% confidence half-width.
    pub fn mean_score(&self) -> (f64, f64) {
        mean_with_interval(self.games, self.score_sum, self.score_squares)
    }

    /// Side A's win rate as the landlord (`true`) or the farmers, with its 95% confidence half-width.
    pub fn role_win_rate(&self, landlord: bool) -> (f64, f64) {
        let (games, wins) = if landlord {
            (self.landlord_games, self.landlord_wins)
        } else {
            (self.games - self.landlord_games, self.wins - self.landlord_wins)
        };
        let n = f64::from(games.max(1));
        let p = f64::from(wins) / n;
        (p, 1.96 * (p * (1.0 - p) / n).sqrt())
    }

    /// Side A's mean score per game as the landlord (`true`) or the farmers, with its 95% half-width.
    pub fn role_mean_score(&self, landlord: bool) -> (f64, f64) {
        if landlord {
            mean_with_interval(self.landlord_games, self.landlord_score_sum, self.landlord_score_squares)
        } else {
            mean_with_interval(
                self.games - self.landlord_games,
                self.score_sum - self.landlord_score_sum,
                self.score_squares - self.landlord_score_squares,
            )
        }
    }
}

fn mean_with_interval(games: u32, sum: f64, squares: f64) -> (f64, f64) {
    let n = f64::from(games.max(1));
    let mean = sum / n;
    let variance = (squares / n - mean * mean).max(0.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// The two contestants of a match, with the external processes of a worker's seats.
struct Sides<'a> {
    m: &'a Match,
    ext_a: &'a mut Option<Rc<RefCell<External>>>,
    ext_b: &'a mut Option<Rc<RefCell<External>>>,
}

impl Sides<'_> {
    /// The player seat `seat` of deal `seed` gets from side A (`true`) or B.
    fn player(&mut self, side_a: bool, seed: u64, seat: Seat) -> Result<Box<dyn Player>, BotError> {
        let bot_seed = seed.wrapping_mul(31).wrapping_add(seat as u64);
        match side_a {
            true => self.m.a.player(bot_seed, self.ext_a),
            false => self.m.b.player(bot_seed, self.ext_b),
        }
    }

    /// Deal `seed` with the landlord fixed at seat 0: side A as the landlord, then as the farmers.
    fn play_with_landlord_fixed(mut self, seed: u64, tally: &mut Tally) -> Result<(), BotError> {
        for a_is_landlord in [true, false] {
            let mut landlord = self.player(a_is_landlord, seed, 0)?;
            let mut farmers = (1..self.m.rules.players as Seat)
                .map(|seat| self.player(!a_is_landlord, seed, seat))
                .collect::<Result<Vec<_>, _>>()?;
            let game = play_game(self.m.rules, self.m.research, seed, landlord.as_mut(), &mut farmers)?;
            tally.add(a_is_landlord, game);
        }
        Ok(())
    }

    /// Deal `seed` from the auction, six times over: each side alone at each seat, the other in the rest.
    fn play_with_auction(mut self, seed: u64, tally: &mut Tally) -> Result<(), BotError> {
        let seats = self.m.rules.players as Seat;
        for lone in 0..seats {
            for a_alone in [true, false] {
                let a_seat = |seat: Seat| (seat == lone) == a_alone;
                let mut players =
                    (0..seats).map(|seat| self.player(a_seat(seat), seed, seat)).collect::<Result<Vec<_>, _>>()?;
                let (landlord, result) = play_auction(self.m.rules, seed, &mut players)?;
                let net: i64 = (0..seats).filter(|&s| a_seat(s)).map(|s| result.score[s]).sum();
                tally.record(a_seat(landlord), net > 0, net);
            }
        }
        Ok(())
    }
}

/// Plays the match on `threads` threads (one if a side is external), calling `progress` with the
/// number of deals done.
pub fn run(m: &Match, threads: usize, progress: &(dyn Fn(u32) + Sync)) -> Result<Tally, BotError> {
    let external = matches!(m.a, Contestant::External(_)) || matches!(m.b, Contestant::External(_));
    let threads = if external { 1 } else { threads.max(1) };
    let next = AtomicU32::new(0);
    let done = AtomicU32::new(0);
    let results: Vec<Result<Tally, BotError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut tally = Tally::default();
                    let (mut ext_a, mut ext_b) = (None, None);
                    loop {
                        let deal = next.fetch_add(1, Ordering::Relaxed);
                        if deal >= m.deals {
                            return Ok(tally);
                        }
                        let seed = m.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(deal));
                        let sides = Sides { m, ext_a: &mut ext_a, ext_b: &mut ext_b };
                        match m.auction {
                            true => sides.play_with_auction(seed, &mut tally)?,
                            false => sides.play_with_landlord_fixed(seed, &mut tally)?,
                        }
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("arena worker")).collect()
    });
    let mut total = Tally::default();
    for result in results {
        total.merge(&result?);
    }
    Ok(total)
}
