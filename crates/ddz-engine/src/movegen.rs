//! Legal-play generation: for a hand and the play to beat (or a free lead), every legal play with its
//! reading, each distinct (cards by rank, reading) once.
//!
//! Generation works on rank counts, not on card ids: a play is built as a core (the ranks of a single,
//! pair, straight, run, triple run, four or bomb) and then its attachments. Wild cards are "flex" cards:
//! for each core the generator tries every way of letting them fill the ranks the natural cards are
//! missing (and, where natural cards are there too, every way of using the wild cards instead). Without
//! wild cards each core has exactly one way, which is the fast path benchmarks measure.
//!
//! The result is tested against [`crate::readings`](mod@crate::readings), which reads any set of cards
//! straight from the rules: a generated play must be a reading of its cards, and every reading of every
//! sub-hand that beats the prior play must be generated.

use arrayvec::ArrayVec;

use crate::card::{Counts, Rank, WILD_SLOT};
use crate::play::{Attach, Kind, Play, Shape, Strength};
use crate::readings::{canonical_pair, canonical_single, run_mask};
use crate::rules::{Rules, Wilds};

/// Every legal play from `hand` under `rules`: any play on a free lead (`prior` = `None`), otherwise every
/// play that beats `prior`. Plays are appended to `out` (which is not cleared).
///
/// ```
/// use ddz_engine::{legal_plays, Rules, Counts};
/// let hand: Counts = "33345".parse().unwrap();
/// let mut plays = Vec::new();
/// legal_plays(&Rules::no_shuffle(false), hand, None, &mut plays);
/// // 3 4 5 singles, 33 pair, 333 triple, 333+4 and 333+5
/// assert_eq!(plays.len(), 7);
/// ```
pub fn legal_plays(rules: &Rules, hand: Counts, prior: Option<&Play>, out: &mut Vec<Play>) {
    let mut generator = Generator::new(rules, hand, out);
    match prior {
        None => generator.free_lead(),
        Some(prior) => generator.follow(prior),
    }
}

/// [`legal_plays`] into a new vector.
pub fn legal_plays_vec(rules: &Rules, hand: Counts, prior: Option<&Play>) -> Vec<Play> {
    let mut out = Vec::new();
    legal_plays(rules, hand, prior, &mut out);
    out
}

/// What to do with a core once its cards are chosen.
#[derive(Clone, Copy)]
enum Then {
    /// Emit the core alone as this kind.
    Alone(Kind),
    /// A triple or triple run, with the attachments to try.
    Triples(Attachments),
    /// A four with two singles or two pairs.
    FourWithTwo(Attachments),
}

#[derive(Clone, Copy)]
enum Attachments {
    /// Every attachment the rules allow (a free lead).
    Any,
    /// Only this one (following).
    Exactly(Attach),
}

/// Cards taken so far for one play.
#[derive(Clone, Copy, Default)]
struct Used {
    /// Natural cards, as packed counts.
    cards: u64,
    /// Wild cards.
    flex: u8,
    /// What the wild cards stand in for, as packed counts.
    wild_as: u64,
}

impl Used {
    fn natural(slot: usize, n: u8) -> Used {
        Used { cards: (n as u64) << (4 * slot), ..Used::default() }
    }

    /// `n` wild cards standing in for `slot` (or, with `slot` = `None`, used as themselves).
    fn wild(slot: Option<usize>, n: u8) -> Used {
        Used { flex: n, wild_as: slot.map_or(0, |s| (n as u64) << (4 * s)), ..Used::default() }
    }

    fn plus(self, other: Used) -> Used {
        Used { cards: self.cards + other.cards, flex: self.flex + other.flex, wild_as: self.wild_as + other.wild_as }
    }

    fn times(self, n: u8) -> Used {
        Used { cards: self.cards * n as u64, flex: self.flex * n, wild_as: self.wild_as * n as u64 }
    }
}

/// A core with its cards chosen.
#[derive(Clone, Copy)]
struct Core {
    kind_len: (u8, usize),
    main: usize,
    mask: u16,
    used: Used,
}

struct Generator<'a> {
    rules: &'a Rules,
    /// Natural cards by slot (wild cards are counted in `flex`).
    natural: [u8; 16],
    /// Wild cards in hand: the Wild, or the cards of the wild rank.
    flex: u8,
    /// Where the wild cards sit physically: slot 15, or the wild rank.
    flex_slot: usize,
    /// The wild rank's slot under the Wild Rank option.
    wild_rank: Option<usize>,
    lowest: usize,
    run_top: usize,
    out: &'a mut Vec<Play>,
}

const TWO: usize = 12;

impl<'a> Generator<'a> {
    fn new(rules: &'a Rules, hand: Counts, out: &'a mut Vec<Play>) -> Self {
        let mut natural = [0u8; 16];
        for (slot, n) in natural.iter_mut().enumerate() {
            *n = hand.get(slot);
        }
        let (flex_slot, wild_rank) = match rules.wilds {
            Wilds::Rank(rank) => (rank.index(), Some(rank.index())),
            _ => (WILD_SLOT, None),
        };
        let flex = match rules.wilds {
            Wilds::TheWild | Wilds::Rank(_) => std::mem::take(&mut natural[flex_slot]),
            _ => 0,
        };
        Generator {
            rules,
            natural,
            flex,
            flex_slot,
            wild_rank,
            lowest: rules.lowest.index(),
            run_top: rules.run_top.index(),
            out,
        }
    }

    fn free_lead(&mut self) {
        for slot in 0..15 {
            if self.natural[slot] > 0 {
                self.push(Shape::new(Kind::Single, 1, Attach::None), slot, Strength::Natural, 1 << (4 * slot), 0);
            }
        }
        // A lone wild-rank card is a single of its own rank.
        if let (Some(wild), true) = (self.wild_rank, self.flex > 0) {
            self.push(Shape::new(Kind::Single, 1, Attach::None), wild, Strength::Natural, 1 << (4 * wild), 0);
        }
        let (triples, fours) = (Then::Triples(Attachments::Any), Then::FourWithTwo(Attachments::Any));
        for slot in self.slots_with(2, self.lowest) {
            self.core(slot, slot, 2, Then::Alone(Kind::Pair));
        }
        for slot in self.slots_with(3, self.lowest) {
            self.core(slot, slot, 3, triples);
        }
        for slot in self.slots_with(4, self.lowest) {
            self.core(slot, slot, 4, Then::Alone(Kind::Bomb));
            if self.rules.four_with_two {
                self.core(slot, slot, 4, fours);
            }
        }
        for (per, min_len, then) in
            [(1u8, 5, Then::Alone(Kind::Straight)), (2, 3, Then::Alone(Kind::PairRun)), (3, 2, triples)]
        {
            for low in self.lowest..=self.run_top {
                let mut deficit = 0;
                for high in low..=self.run_top {
                    deficit += per.saturating_sub(self.natural[high]);
                    if deficit > self.flex {
                        break;
                    }
                    if high + 1 - low >= min_len {
                        self.core(low, high, per, then);
                    }
                }
            }
        }
        self.rockets();
    }

    fn follow(&mut self, prior: &Play) {
        let shape = prior.shape;
        let above = prior.main.index() + 1;
        let len = shape.len as usize;
        match shape.kind {
            Kind::Rocket => return,
            Kind::Bomb => {}
            Kind::Single => {
                for slot in above..15 {
                    if self.natural[slot] > 0 {
                        self.push(shape, slot, Strength::Natural, 1 << (4 * slot), 0);
                    }
                }
                if let (Some(wild), true) = (self.wild_rank, self.flex > 0)
                    && wild >= above
                {
                    self.push(shape, wild, Strength::Natural, 1 << (4 * wild), 0);
                }
            }
            Kind::Pair => {
                for s in self.slots_with(2, above) {
                    self.core(s, s, 2, Then::Alone(Kind::Pair));
                }
            }
            Kind::FourWithTwo => self
                .slots_with(4, above)
                .for_each(|s| self.core(s, s, 4, Then::FourWithTwo(Attachments::Exactly(shape.attach)))),
            Kind::Straight | Kind::PairRun | Kind::Triples => {
                let per = shape.per_rank();
                let top = if len == 1 { TWO } else { self.run_top };
                let then = match shape.kind {
                    Kind::Triples => Then::Triples(Attachments::Exactly(shape.attach)),
                    kind => Then::Alone(kind),
                };
                for high in above.max(self.lowest + len - 1)..=top {
                    self.core(high + 1 - len, high, per, then);
                }
            }
        }
        let first_bomb = self.out.len();
        for slot in self.slots_with(4, self.lowest) {
            self.core(slot, slot, 4, Then::Alone(Kind::Bomb));
        }
        if shape.kind == Kind::Bomb {
            let mut i = first_bomb;
            while i < self.out.len() {
                if self.out[i].beats(prior) {
                    i += 1;
                } else {
                    self.out.swap_remove(i);
                }
            }
        }
        self.rockets();
    }

    /// The slots from `from` to `2` that may hold `per` cards of a rank: with no wild cards, only those
    /// with `per` natural cards.
    fn slots_with(&self, per: u8, from: usize) -> impl Iterator<Item = usize> + use<> {
        let mut slots: u32 = 0;
        for slot in from..=TWO {
            if self.flex > 0 || self.natural[slot] >= per {
                slots |= 1 << slot;
            }
        }
        std::iter::from_fn(move || {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots.wrapping_sub(1);
            (slot < 32).then_some(slot)
        })
    }

    fn rockets(&mut self) {
        let rocket = Shape::new(Kind::Rocket, 1, Attach::None);
        let (black, red) = (self.natural[13] > 0, self.natural[14] > 0);
        if black && red {
            self.push(rocket, 14, Strength::Natural, 1 << 52 | 1 << 56, 0);
        }
        if self.rules.wilds == Wilds::TheWild && self.flex > 0 {
            let wild = 1u64 << 60;
            if black {
                self.push(rocket, 14, Strength::Natural, wild | 1 << 52, 1 << 56);
            }
            if red {
                self.push(rocket, 14, Strength::Natural, wild | 1 << 56, 1 << 52);
            }
        }
    }

    /// Tries every way of making `per` cards of each rank `low..=high` from natural and wild cards.
    fn core(&mut self, low: usize, high: usize, per: u8, then: Then) {
        let kind_len = (per, high + 1 - low);
        let core = Core { kind_len, main: high, mask: run_mask(low, high), used: Used::default() };
        if self.flex == 0 {
            for slot in low..=high {
                if self.natural[slot] < per {
                    return;
                }
            }
            let mut cards = 0u64;
            for slot in low..=high {
                cards |= (per as u64) << (4 * slot);
            }
            let used = Used { cards, ..Used::default() };
            self.finish(Core { used, ..core }, then);
        } else {
            let deficit: u8 = (low..=high).map(|s| per.saturating_sub(self.natural[s])).sum();
            if deficit <= self.flex {
                self.split(low, high, per, deficit, core, then);
            }
        }
    }

    /// Chooses how many wild cards stand in at `slot` and beyond; `deficit` is what the natural cards
    /// of those slots are missing.
    fn split(&mut self, slot: usize, high: usize, per: u8, deficit: u8, core: Core, then: Then) {
        if slot > high {
            return self.finish(core, then);
        }
        let missing = per.saturating_sub(self.natural[slot]);
        let rest_deficit = deficit - missing;
        let most = per.min(self.flex - core.used.flex - rest_deficit);
        let stands_for = (Some(slot) != self.wild_rank).then_some(slot);
        for stand_ins in missing..=most {
            let used = core.used.plus(Used::natural(slot, per - stand_ins)).plus(Used::wild(stands_for, stand_ins));
            self.split(slot + 1, high, per, rest_deficit, Core { used, ..core }, then);
        }
    }

    fn finish(&mut self, core: Core, then: Then) {
        let (per, len) = core.kind_len;
        let len = len as u8;
        let (kind, attachments) = match then {
            Then::Alone(kind) => {
                let shape = Shape::new(kind, len, Attach::None);
                return self.emit(shape, core.main, core.used);
            }
            Then::Triples(attachments) => (Kind::Triples, attachments),
            Then::FourWithTwo(attachments) => (Kind::FourWithTwo, attachments),
        };
        debug_assert_eq!(per, Shape::new(kind, len, Attach::None).per_rank());
        // A triple run carries one attachment per triple; a four carries two.
        let count = if kind == Kind::Triples { len } else { 2 };
        let fewest_singles = if self.rules.any_number_of_singles { 1 } else { count };
        let (bare, singles, pairs) = match attachments {
            Attachments::Any => (kind == Kind::Triples, Some(fewest_singles..=count), true),
            Attachments::Exactly(Attach::None) => (true, None, false),
            Attachments::Exactly(Attach::Singles(n)) => (false, Some(n..=n), false),
            Attachments::Exactly(Attach::Pairs(_)) => (false, None, true),
        };
        if bare {
            self.emit(Shape::new(kind, len, Attach::None), core.main, core.used);
        }
        if let Some(singles) = singles {
            let pool = self.single_pool(core);
            for n in singles {
                let shape = Shape::new(kind, len, Attach::Singles(n));
                self.singles(&pool, shape, core.main, core.used, n);
            }
        }
        if pairs {
            let pool = self.pair_pool(core);
            let shape = Shape::new(kind, len, Attach::Pairs(count));
            self.pairs(&pool, 0, shape, core, count);
        }
    }

    /// The cards a single attachment may be: every natural card outside the core, and the wild cards
    /// left (read as themselves, or for a wild-rank card whose rank is in the core, the lowest free rank).
    fn single_pool(&self, core: Core) -> Pool {
        let mut pool = Pool::new();
        for slot in 0..15 {
            if core.mask & (1 << slot) == 0 && self.natural[slot] > 0 {
                pool.push(PoolEntry { slot, available: self.natural[slot], unit: Used::natural(slot, 1) });
            }
        }
        let flex_left = self.flex - core.used.flex;
        if flex_left > 0 {
            let stands_for = match self.wild_rank {
                Some(wild) => Some(canonical_single(self.rules, Rank::ALL[wild], core.mask)).filter(|&s| s != wild),
                None => None,
            };
            pool.push(PoolEntry { slot: self.flex_slot, available: flex_left, unit: Used::wild(stands_for, 1) });
        }
        pool
    }

    /// Every way to make one pair outside the core: two natural cards, or natural and wild, or two wild.
    fn pair_pool(&self, core: Core) -> Pool {
        let mut pool = Pool::new();
        // Two wild cards alone make a pair of their own rank, and stand in for another rank only beside
        // that pair (all four as two pairs; checked in `pairs`).
        let four_wild_left = self.flex - core.used.flex >= 4;
        for slot in self.lowest..=TWO {
            if core.mask & (1 << slot) != 0 {
                continue;
            }
            let stands_for = (Some(slot) != self.wild_rank).then_some(slot);
            for stand_ins in 0..=2u8.min(self.flex) {
                let own_rank_only = stand_ins == 2 && stands_for.is_some() && !four_wild_left;
                if 2 - stand_ins <= self.natural[slot] && !own_rank_only {
                    let unit = Used::natural(slot, 2 - stand_ins).plus(Used::wild(stands_for, stand_ins));
                    pool.push(PoolEntry { slot, available: 1, unit });
                }
            }
        }
        pool
    }

    /// Every multiset of `n` singles from `pool` added to `used`.
    fn singles(&mut self, pool: &Pool, shape: Shape, main: usize, used: Used, n: u8) {
        let entries = &pool[..];
        let both_jokers_banned = !self.rules.jokers_attach_together;
        match n {
            1 => {
                for e in entries {
                    self.emit(shape, main, used.plus(e.unit));
                }
            }
            2 => {
                for (i, a) in entries.iter().enumerate() {
                    for (j, b) in entries.iter().enumerate().skip(i) {
                        let same = i == j;
                        if (same && a.available < 2) || (both_jokers_banned && a.slot == 13 && b.slot == 14) {
                            continue;
                        }
                        self.emit_checked(shape, main, used.plus(a.unit).plus(b.unit));
                    }
                }
            }
            _ => self.singles_from(pool, 0, shape, main, used, n, false),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn singles_from(&mut self, pool: &Pool, i: usize, shape: Shape, main: usize, used: Used, left: u8, black: bool) {
        if left == 0 {
            return self.emit_checked(shape, main, used);
        }
        let Some(entry) = pool.get(i) else {
            return;
        };
        let mut most = entry.available.min(left);
        if entry.slot == 14 && black && !self.rules.jokers_attach_together {
            most = 0; // both jokers together would hide a rocket
        }
        // Lowest attachments first, so plays come out in a natural order.
        for take in (0..=most).rev() {
            let black = black || (entry.slot == 13 && take > 0);
            self.singles_from(pool, i + 1, shape, main, used.plus(entry.unit.times(take)), left - take, black);
        }
    }

    /// Every choice of `left` pairs of distinct ranks from `pool[i..]` added to the core's cards.
    fn pairs(&mut self, pool: &Pool, i: usize, shape: Shape, core: Core, left: u8) {
        if left == 0 {
            if self.wild_pairs_ok(core) {
                self.emit_checked(shape, core.main, core.used);
            }
            return;
        }
        for (j, entry) in pool.iter().enumerate().skip(i) {
            let next = pool[j + 1..].iter().position(|e| e.slot != entry.slot).map_or(pool.len(), |k| j + 1 + k);
            let used = core.used.plus(entry.unit);
            self.pairs(pool, next, shape, Core { used, ..core }, left - 1);
        }
    }

    /// A pair of two wild cards standing in for another rank is allowed only as the second of two such
    /// pairs (the first of their own rank), and then only for the lowest free rank (see `readings`).
    fn wild_pairs_ok(&self, core: Core) -> bool {
        let Some(wild) = self.wild_rank else {
            return true;
        };
        let nibble = |packed: u64, slot: usize| (packed >> (4 * slot)) & 0xf;
        let Some(slot) = (self.lowest..=TWO).find(|&s| {
            core.mask & (1 << s) == 0 && nibble(core.used.wild_as, s) == 2 && nibble(core.used.cards, s) == 0
        }) else {
            return true;
        };
        let standing_in: u64 = (0..15).map(|s| nibble(core.used.wild_as, s)).sum();
        let own_pair = u64::from(core.used.flex) - standing_in == 2 && core.mask & (1 << wild) == 0;
        own_pair && slot == canonical_pair(self.rules, Rank::ALL[wild], core.mask, Counts(core.used.cards))
    }

    /// Emits `used` unless it needs more wild cards than the hand holds.
    fn emit_checked(&mut self, shape: Shape, main: usize, used: Used) {
        if used.flex <= self.flex {
            self.emit(shape, main, used);
        }
    }

    fn emit(&mut self, shape: Shape, main: usize, used: Used) {
        if used.cards == 0 && (self.wild_rank.is_none() || used.wild_as != 0) {
            return; // wild cards alone: the Wild never, wild-rank cards only as their own rank
        }
        let strength = match (shape.kind, self.wild_rank) {
            (Kind::Bomb, Some(wild)) if main == wild => Strength::PureWild,
            (Kind::Bomb, Some(_)) if used.wild_as != 0 => Strength::Soft,
            _ => Strength::Natural,
        };
        let cards = used.cards + ((used.flex as u64) << (4 * self.flex_slot));
        self.push(shape, main, strength, cards, used.wild_as);
    }

    fn push(&mut self, shape: Shape, main: usize, strength: Strength, cards: u64, wild_as: u64) {
        self.out.push(Play { shape, main: Rank::ALL[main], strength, cards: Counts(cards), wild_as: Counts(wild_as) });
    }
}

/// One kind of attachment: a single card of a slot, or one way to make a pair of a slot.
#[derive(Clone, Copy)]
struct PoolEntry {
    slot: usize,
    /// How many of it may be taken.
    available: u8,
    /// The cards one of it takes.
    unit: Used,
}

/// Single attachments come from at most 16 slots; pairs from 13 ranks, each made up to 3 ways.
type Pool = ArrayVec<PoolEntry, 40>;
