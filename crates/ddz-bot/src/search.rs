//! The `hard` player's search: determinized rollouts.
//!
//! For the few best candidates of the hand-planning player (and passing), it deals the unseen cards to
//! the other seats at random, consistent with everything public (hand sizes, played cards, the landlord's
//! shown bottom cards), plays each candidate out to the end with a fast rollout policy for every seat, and
//! keeps the candidate that wins most often. The same deals are used for every candidate, so the
//! comparison is not blurred by luck of the deal.

use ddz_engine::{Action, CardSet, Counts, Kind, Play, Rules, Seat, TableType, legal_plays};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::policy::Scored;
use crate::table::Table;

/// How hard the search works.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates tried besides passing.
    pub candidates: usize,
    /// Random deals of the unseen cards.
    pub samples: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            candidates: 4,
            samples: 12,
        }
    }
}

/// Picks among `scored` (the heuristic's scores for `choices`) by rollouts.
pub fn choose(
    table: &Table,
    choices: &[Action],
    scored: &[Scored],
    budget: Budget,
    rng: &mut ChaCha8Rng,
) -> usize {
    let mut ranked: Vec<Scored> = scored.to_vec();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
    // A play that goes out, or a single sensible choice, needs no search.
    if ranked.len() == 1 || ranked[0].score >= 1000.0 {
        return ranked[0].index;
    }
    let mut candidates: Vec<Scored> = ranked.iter().take(budget.candidates).copied().collect();
    if let Some(pass) = ranked
        .iter()
        .find(|s| matches!(choices[s.index], Action::Pass { .. }))
        && !candidates.iter().any(|c| c.index == pass.index)
    {
        candidates.push(*pass);
    }
    let Some(landlord) = table.landlord else {
        return ranked[0].index;
    };
    let mut wins = vec![0u32; candidates.len()];
    for _ in 0..budget.samples {
        let hands = determinize(table, landlord, rng);
        for (c, candidate) in candidates.iter().enumerate() {
            let mut sim = Sim::new(table, landlord, hands.clone());
            sim.apply(table.me, &choices[candidate.index]);
            let winner = sim.run();
            if side_of(winner, landlord) == side_of(table.me, landlord) {
                wins[c] += 1;
            }
        }
    }
    // Most wins; ties go to the heuristic's preference (candidates are in its order).
    let (best, _) = wins.iter().enumerate().fold(
        (0, 0),
        |(bi, bw), (i, &w)| if w > bw { (i, w) } else { (bi, bw) },
    );
    candidates[best].index
}

fn side_of(seat: Seat, landlord: Seat) -> bool {
    seat == landlord
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
}

impl Sim {
    fn new(table: &Table, landlord: Seat, hands: Vec<Counts>) -> Sim {
        Sim {
            rules: table.rules,
            hands,
            landlord,
            turn: table.me,
            trick: table.prior(),
            passes: match table.prior() {
                Some(_) => table
                    .view
                    .actions
                    .iter()
                    .rev()
                    .take_while(|a| matches!(a, Action::Pass { .. }))
                    .count(),
                None => 0,
            },
            allowance: (table.rules.table == TableType::TwoPlayer)
                .then(|| table.view.allowance.unwrap_or(1) as u32),
            winner: None,
            buffer: Vec::with_capacity(256),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) {
        match action {
            Action::Play { play, .. } => self.play(seat, *play),
            _ => self.pass(seat),
        }
    }

    fn play(&mut self, seat: Seat, play: Play) {
        self.hands[seat] = self.hands[seat]
            .checked_sub(play.cards)
            .expect("rollout plays come from the hand");
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

    /// The fast rollout policy: go out if possible; follow an opponent with the smallest play that does
    /// not spend control unless they are near the end; lead the play that sheds most, lowest first.
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
        let players = self.hands.len();
        let danger = (0..players)
            .filter(|&s| s != seat && !partner(s, seat))
            .map(|s| self.hands[s].total())
            .min()
            .unwrap_or(99);
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
                    if play.len() as usize == danger as usize
                        && matches!(play.shape.kind, Kind::Single | Kind::Pair)
                    {
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
