//! The `hard` player's search: determinized rollouts.
//!
//! For the few best candidates of the hand-planning player (and passing), it deals the unseen cards to
//! the other seats, consistent with everything public (hand sizes, played cards, the landlord's shown
//! bottom cards) and weighted by how well each deal explains the opponents' plays ([`crate::inference`]),
//! plays each candidate out to the end with a fast rollout policy for every seat, and keeps the
//! candidate that wins most often (nudged by the heuristic's score, since rollouts are noisy). The same
//! deals (and the same rollout dice) are used for every candidate, so the comparison is not blurred by
//! luck of the deal.
//!
//! In the rollouts the opponents play as the simple player the inference assumes
//! ([`crate::rule_agent`]); the searching side plays the fast policy below. Modelling opponents as
//! better players than they are made weak landlord hands look lost and the search give up on lines that
//! beat ordinary play; the simple model is what most opponents are most of the time.

use std::collections::HashMap;

use ddz_engine::{Action, CardSet, Counts, Kind, Play, Rank, Rules, Seat, Shape, Strength, TableType, legal_plays};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::inference::{Evidence, INCONSISTENT};
use crate::policy::Scored;
use crate::rule_agent::{self, SimpleMove};
use crate::table::Table;

/// How hard the search works.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates tried besides passing.
    pub candidates: usize,
    /// Random deals of the unseen cards.
    pub samples: usize,
    /// Solve sampled deals exactly when the table holds at most this many cards...
    pub endgame_cards: usize,
    /// ...within this many nodes per candidate and sample.
    pub endgame_nodes: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { candidates: 10, samples: 64, endgame_cards: 20, endgame_nodes: 6000 }
    }
}

/// How far the search trusts its rollouts, which assume the opponents play as the simple player.
#[derive(Clone, Copy, Debug)]
struct Trust {
    /// How far below the heuristic's best a candidate may score and still be searched.
    sensible: f32,
    /// Candidates searched, as a multiple of the budget's.
    widen: usize,
    /// How much one heuristic point weighs against the win rate.
    prior: f32,
}

/// The opponents' plays so far fit the simple player: the rollouts are a good model, so trust them
/// over the heuristic, among more candidates.
const FITTING: Trust = Trust { sensible: 100.0, widen: 2, prior: 0.0 };

/// Nothing seen yet, or plays the simple player would not make: the heuristic's sensible few, nudged
/// by its score (against planning players the rollouts' model is rough).
const CAUTIOUS: Trust = Trust { sensible: 40.0, widen: 1, prior: 0.01 };

/// Against opponents who fit the simple player, the exact solver starts this many cards earlier.
const MODELLED_ENDGAME_CARDS: usize = 10;

/// Deals drawn at random for each one played out: the inference resamples among them by weight.
const DRAWS_PER_SAMPLE: usize = 48;

/// Picks among `scored` (the heuristic's scores for `choices`) by rollouts.
pub fn choose(table: &Table, choices: &[Action], scored: &[Scored], budget: Budget, rng: &mut ChaCha8Rng) -> usize {
    let mut ranked: Vec<Scored> = scored.to_vec();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
    // A play that goes out, or a single choice, needs no search; nor does an auction.
    let Some(landlord) = table.landlord else {
        return ranked[0].index;
    };
    if ranked.len() == 1 || ranked[0].score >= 1000.0 || ranked[1].score < ranked[0].score - FITTING.sensible {
        return ranked[0].index;
    }
    let sample = sample_deals(table, landlord, budget.samples, rng);
    let trust = if sample.fits { FITTING } else { CAUTIOUS };
    // Search only among sensible candidates: what the table sense rules out (beating a partner,
    // an early bomb, stranding the Wild) stays ruled out.
    let floor = ranked[0].score - trust.sensible;
    if ranked[1].score < floor {
        return ranked[0].index;
    }
    let mut candidates: Vec<Scored> =
        ranked.iter().take(budget.candidates * trust.widen).filter(|s| s.score >= floor).copied().collect();
    if let Some(pass) = ranked.iter().find(|s| matches!(choices[s.index], Action::Pass { .. }))
        && pass.score >= floor
        && !candidates.iter().any(|c| c.index == pass.index)
    {
        candidates.push(*pass);
    }
    let indexes: Vec<usize> = candidates.iter().map(|c| c.index).collect();
    let rates = rates_on(table, choices, &indexes, &sample.deals, sample.fits, budget, rng);
    // Most wins, nudged by the heuristic's score; ties go to its order.
    let top = candidates[0].score;
    let value = |i: usize| rates[i] + trust.prior * (candidates[i].score - top);
    let best = (0..candidates.len()).fold(0, |b, i| if value(i) > value(b) { i } else { b });
    candidates[best].index
}

/// How often the searching seat's side wins after each of `candidates` (indexes into `choices`), over
/// `budget.samples` deals of the unseen cards: the same deals and rollout dice for every candidate.
/// The table must have a landlord (the play has begun).
pub fn win_rates(
    table: &Table,
    choices: &[Action],
    candidates: &[usize],
    budget: Budget,
    rng: &mut ChaCha8Rng,
) -> Vec<f32> {
    let landlord = table.landlord.expect("the search runs once the landlord is known");
    let sample = sample_deals(table, landlord, budget.samples, rng);
    rates_on(table, choices, candidates, &sample.deals, false, budget, rng)
}

fn rates_on(
    table: &Table,
    choices: &[Action],
    candidates: &[usize],
    deals: &[Vec<Counts>],
    fits: bool,
    budget: Budget,
    rng: &mut ChaCha8Rng,
) -> Vec<f32> {
    let landlord = table.landlord.expect("the search runs once the landlord is known");
    let mut wins = vec![0u32; candidates.len()];
    let cards_left: usize = table.sizes.iter().sum();
    // Against the simple player the solver need only search this side's moves, and so reaches further.
    let (endgame, mut solver) = if fits {
        let solver = Solver::new(table.rules, landlord, budget.endgame_nodes).modelling(table.me);
        (cards_left <= budget.endgame_cards + MODELLED_ENDGAME_CARDS, solver)
    } else {
        (cards_left <= budget.endgame_cards, Solver::new(table.rules, landlord, budget.endgame_nodes))
    };
    let mut solver_misses = 0u32;
    for hands in deals {
        let dice: u64 = rng.random();
        for (c, &candidate) in candidates.iter().enumerate() {
            let mut sim = Sim::new(table, landlord, hands.clone(), ChaCha8Rng::seed_from_u64(dice));
            sim.apply(table.me, &choices[candidate]);
            // Near the end, solve the sampled deal exactly; otherwise (or if the solver runs out of
            // nodes) play it out with the rollout policy.
            let solved = if endgame && solver_misses < 3 { solver.landlord_wins(&sim) } else { None };
            // A position too big to solve once is likely too big every time: stop trying.
            solver_misses += u32::from(endgame && solved.is_none());
            let landlord_won = solved.unwrap_or_else(|| sim.run() == landlord);
            if landlord_won == (table.me == landlord) {
                wins[c] += 1;
            }
        }
    }
    wins.into_iter().map(|w| w as f32 / deals.len().max(1) as f32).collect()
}

/// Deals of the unseen cards to play out, and whether some deal explains every opponent play so far.
struct Sample {
    deals: Vec<Vec<Counts>>,
    /// Some drawn deal makes none of the opponents' plays a surprise (and there were plays to explain).
    fits: bool,
}

/// `n` deals of the unseen cards, drawn in proportion to how well they explain the opponents' plays:
/// [`DRAWS_PER_SAMPLE`] times as many drawn at random, weighed by [`Evidence`], and `n` resampled.
fn sample_deals(table: &Table, landlord: Seat, n: usize, rng: &mut ChaCha8Rng) -> Sample {
    let evidence = Evidence::new(table);
    // Two Player is left as it was: one opponent and nine cards out of play, where the weighing is
    // neither measured nor cheap.
    if evidence.is_empty() || table.players() == 2 {
        return Sample { deals: (0..n).map(|_| determinize(table, landlord, rng)).collect(), fits: false };
    }
    let pool: Vec<Vec<Counts>> = (0..n * DRAWS_PER_SAMPLE).map(|_| determinize(table, landlord, rng)).collect();
    let surprises: Vec<i32> = pool.iter().map(|hands| evidence.surprises(hands)).collect();
    let weights: Vec<f64> = surprises.iter().map(|&s| INCONSISTENT.powi(s)).collect();
    // Systematic resampling: `n` evenly spaced pointers, from one random offset, into the running total.
    let step = weights.iter().sum::<f64>() / n as f64;
    let mut pointer = rng.random::<f64>() * step;
    let mut running = 0.0;
    let mut deals = Vec::with_capacity(n);
    for (hands, weight) in pool.iter().zip(&weights) {
        running += weight;
        while pointer < running && deals.len() < n {
            deals.push(hands.clone());
            pointer += step;
        }
    }
    // Rounding can leave the last pointer just past the total.
    while deals.len() < n {
        deals.push(pool[pool.len() - 1].clone());
    }
    Sample { deals, fits: surprises.contains(&0) }
}

/// A random deal of the unseen cards to the other seats, consistent with what is public.
fn determinize(table: &Table, landlord: Seat, rng: &mut ChaCha8Rng) -> Vec<Counts> {
    let players = table.players();
    let mut pool: Vec<_> = table.unseen.minus(table.known_in_landlord).iter().collect();
    pool.shuffle(rng);
    let mut hands = vec![CardSet::EMPTY; players];
    hands[table.me] = table.hand;
    hands[landlord] = hands[landlord].union(table.known_in_landlord);
    let mut cards = pool.into_iter();
    for (seat, hand) in hands.iter_mut().enumerate() {
        if seat == table.me {
            continue;
        }
        while hand.len() < table.sizes[seat] {
            match cards.next() {
                Some(card) => hand.insert(card),
                None => break,
            }
        }
    }
    hands.into_iter().map(CardSet::counts).collect()
}

/// A light game of counts only, for rollouts: no validation beyond what the generator guarantees.
#[derive(Clone)]
struct Sim {
    rules: Rules,
    hands: Vec<Counts>,
    landlord: Seat,
    turn: Seat,
    trick: Option<(Seat, Play)>,
    passes: usize,
    allowance: Option<u32>,
    winner: Option<Seat>,
    buffer: Vec<Play>,
    /// The searching seat: the other side plays as the simple player.
    me: Seat,
    rng: ChaCha8Rng,
}

impl Sim {
    fn new(table: &Table, landlord: Seat, hands: Vec<Counts>, rng: ChaCha8Rng) -> Sim {
        Sim {
            rules: table.rules,
            hands,
            landlord,
            turn: table.me,
            trick: table.prior(),
            passes: match table.prior() {
                Some(_) => table.view.actions.iter().rev().take_while(|a| matches!(a, Action::Pass { .. })).count(),
                None => 0,
            },
            allowance: (table.rules.table == TableType::TwoPlayer).then(|| table.view.allowance.unwrap_or(1) as u32),
            winner: None,
            buffer: Vec::with_capacity(256),
            me: table.me,
            rng,
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        match action {
            Action::Play { play, .. } => self.play(seat, *play),
            _ => self.pass(seat),
        }
    }

    fn play(&mut self, seat: Seat, play: Play) {
        self.hands[seat] = self.hands[seat].checked_sub(play.cards).expect("rollout plays come from the hand");
        self.trick = Some((seat, play));
        self.passes = 0;
        let left = self.hands[seat].total();
        if left == 0 || (seat != self.landlord && self.allowance.is_some_and(|a| left <= a)) {
            self.winner = Some(seat);
        }
        self.turn = (seat + 1) % self.hands.len();
    }

    fn pass(&mut self, seat: Seat) {
        self.passes += 1;
        self.turn = (seat + 1) % self.hands.len();
        if self.passes + 1 >= self.hands.len()
            && let Some((leader, _)) = self.trick.take()
        {
            self.passes = 0;
            self.turn = leader;
        }
    }

    /// Plays to the end; the winning seat (a stuck table counts as the landlord's loss).
    fn run(&mut self) -> Seat {
        for _ in 0..400 {
            if let Some(w) = self.winner {
                return w;
            }
            let seat = self.turn;
            match self.rollout_choice(seat) {
                Some(play) => self.play(seat, play),
                None => self.pass(seat),
            }
        }
        (self.landlord + 1) % self.hands.len()
    }

    /// The simple player's move, from the legal plays in the buffer.
    fn simple_choice(&mut self, seat: Seat) -> Option<Play> {
        let facing = self.trick.as_ref().map(|(leader, play)| (*leader, play));
        let plays = self.buffer.iter().map(|p| (*p, p));
        match rule_agent::simple_move(self.hands[seat], seat, Some(self.landlord), facing, plays) {
            SimpleMove::Play(play) => Some(play),
            SimpleMove::Pass => None,
            SimpleMove::Draw => self.buffer.get(self.rng.random_range(0..=self.buffer.len())).copied(),
        }
    }

    /// The fast rollout policy: go out if possible; follow an opponent with the smallest play that does
    /// not spend control unless they are near the end; lead the play that sheds most, lowest first.
    /// The searching seat's opponents play as the simple player.
    fn rollout_choice(&mut self, seat: Seat) -> Option<Play> {
        let hand = self.hands[seat];
        let prior = self.trick.map(|(_, p)| p);
        self.buffer.clear();
        legal_plays(&self.rules, hand, prior.as_ref(), &mut self.buffer);
        let total = hand.total();
        if let Some(out) = self.buffer.iter().find(|p| p.len() == total) {
            return Some(*out);
        }
        let partner = |a: Seat, b: Seat| a != b && a != self.landlord && b != self.landlord;
        if seat != self.me && !partner(seat, self.me) {
            return self.simple_choice(seat);
        }
        let players = self.hands.len();
        let danger =
            (0..players).filter(|&s| s != seat && !partner(s, seat)).map(|s| self.hands[s].total()).min().unwrap_or(99);
        match self.trick {
            Some((leader, _)) if partner(leader, seat) => None,
            Some(_) => {
                let mut best: Option<(f32, Play)> = None;
                for play in &self.buffer {
                    let bomb = play.shape.is_bomb_or_rocket();
                    if bomb && danger > 2 {
                        continue;
                    }
                    let control = play.main.index() >= 12 && play.shape.kind == Kind::Single;
                    if control && danger > 4 && total > 6 {
                        continue;
                    }
                    let cost = play.main.index() as f32 + if bomb { 30.0 } else { 0.0 };
                    if best.is_none_or(|(c, _)| cost < c) {
                        best = Some((cost, *play));
                    }
                }
                best.map(|(_, p)| p)
            }
            None => {
                let mut best: Option<(f32, Play)> = None;
                for play in &self.buffer {
                    let mut value = 2.0 * play.len() as f32 - 0.6 * play.main.index() as f32;
                    if play.shape.is_bomb_or_rocket() {
                        value -= 25.0;
                    }
                    if play.len() as usize == danger as usize && matches!(play.shape.kind, Kind::Single | Kind::Pair) {
                        value -= 15.0;
                    }
                    if best.is_none_or(|(v, _)| value > v) {
                        best = Some((value, *play));
                    }
                }
                best.map(|(_, p)| p)
            }
        }
    }
}

/// A solver position: the hands, the seat to play, and the play to beat with its player.
type Position = (Vec<Counts>, Seat, Option<(Seat, Shape, Rank, Strength)>);

/// A perfect-information solver for sampled endgames: does the landlord win with best play on both
/// sides, or with the searching side's best play against opponents who play as the simple player
/// (their one move, or, where the simple player would draw, the worst of its draws)? Depth-first with
/// a transposition table and a node budget.
struct Solver {
    rules: Rules,
    landlord: Seat,
    table: HashMap<Position, bool>,
    nodes: u32,
    limit: u32,
    /// The searching seat, whose opponents play as the simple player (`None`: best play on both sides).
    model_for: Option<Seat>,
}

impl Solver {
    fn new(rules: Rules, landlord: Seat, limit: u32) -> Solver {
        Solver { rules, landlord, table: HashMap::new(), nodes: 0, limit, model_for: None }
    }

    /// A solver in which `me`'s opponents play as the simple player rather than at their best.
    fn modelling(self, me: Seat) -> Solver {
        Solver { model_for: Some(me), ..self }
    }

    /// `None` when the position needs more nodes than the budget.
    fn landlord_wins(&mut self, sim: &Sim) -> Option<bool> {
        if let Some(w) = sim.winner {
            return Some(w == self.landlord);
        }
        self.nodes = 0;
        self.table.clear();
        self.solve(&sim.hands.clone(), sim.turn, sim.trick, sim.passes, sim.allowance)
    }

    fn solve(
        &mut self,
        hands: &[Counts],
        turn: Seat,
        trick: Option<(Seat, Play)>,
        passes: usize,
        allowance: Option<u32>,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let key = (hands.to_vec(), turn, trick.map(|(s, p)| (s, p.shape, p.main, p.strength)));
        if let Some(&known) = self.table.get(&key) {
            return Some(known);
        }
        let players = hands.len();
        let maximizing = turn == self.landlord;
        let mut plays = Vec::new();
        legal_plays(&self.rules, hands[turn], trick.as_ref().map(|(_, p)| p), &mut plays);
        let mut may_pass = true;
        let modelled = self.model_for.is_some_and(|me| turn != me && (turn == self.landlord || me == self.landlord));
        if modelled && !plays.iter().any(|p| p.len() == hands[turn].total()) {
            let facing = trick.as_ref().map(|(leader, play)| (*leader, play));
            match rule_agent::simple_move(hands[turn], turn, Some(self.landlord), facing, plays.iter().map(|p| (*p, p)))
            {
                SimpleMove::Play(play) => {
                    plays = vec![play];
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
            let mut next = hands.to_vec();
            next[turn] = next[turn].checked_sub(play.cards).expect("plays come from the hand");
            let left = next[turn].total();
            let wins_now = left == 0 || (turn != self.landlord && allowance.is_some_and(|a| left <= a));
            let outcome = if wins_now {
                Some(turn == self.landlord)
            } else {
                self.solve(&next, (turn + 1) % players, Some((turn, *play)), 0, allowance)
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
        if result != maximizing && may_pass {
            // Passing (not allowed on a lead; a hand with no lead lets the lead move on).
            let outcome = match trick {
                Some((leader, _)) if passes + 2 >= players => self.solve(hands, leader, None, 0, allowance),
                Some(t) => self.solve(hands, (turn + 1) % players, Some(t), passes + 1, allowance),
                None if plays.is_empty() => self.solve(hands, (turn + 1) % players, None, 0, allowance),
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
