//! Cards, ranks, card sets and rank counts.
//!
//! A [`Card`] is an id in `0..55`: `rank * 4 + suit` for the 52 suited cards, then 52 = Black Joker,
//! 53 = Red Joker, 54 = the Wild. A [`CardSet`] is a 64-bit set of card ids, so the four cards of a rank
//! share one 4-bit nibble. [`Counts`] packs how many cards of each slot a set holds, one nibble per slot:
//! slots 0..13 are the ranks `3..2`, 13 the Black Joker, 14 the Red Joker and 15 the Wild.
//!
//! Text forms: a card is a rank from `3456789TJQKA2` and a suit from `SHDC` (`TH` is the ten of hearts),
//! or `BJ`, `RJ`, `W`. The rank-only shorthand for counts writes one character per card, with `B` and `R`
//! for the jokers and `W` for the Wild: `"33344BRW"`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A rank, low to high: `3 4 5 6 7 8 9 T J Q K A 2`, then the Black and the Red Joker.
///
/// ```
/// use ddz_engine::Rank;
/// assert!(Rank::TWO > Rank::ACE);
/// assert_eq!(Rank::TEN.to_string(), "T");
/// assert_eq!("2".parse::<Rank>().unwrap(), Rank::TWO);
/// ```
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

const RANK_CHARS: &[u8; 16] = b"3456789TJQKA2BRW";

impl Rank {
    pub const THREE: Rank = Rank(0);
    pub const FOUR: Rank = Rank(1);
    pub const FIVE: Rank = Rank(2);
    pub const SEVEN: Rank = Rank(4);
    pub const EIGHT: Rank = Rank(5);
    pub const NINE: Rank = Rank(6);
    pub const TEN: Rank = Rank(7);
    pub const QUEEN: Rank = Rank(9);
    pub const KING: Rank = Rank(10);
    pub const ACE: Rank = Rank(11);
    pub const TWO: Rank = Rank(12);
    pub const BLACK_JOKER: Rank = Rank(13);
    pub const RED_JOKER: Rank = Rank(14);

    /// The 13 suited ranks `3..2` followed by the two jokers.
    pub const ALL: [Rank; 15] = {
        let mut all = [Rank(0); 15];
        let mut i = 0;
        while i < 15 {
            all[i] = Rank(i as u8);
            i += 1;
        }
        all
    };

    /// The rank at `index` (0 = `3`, 12 = `2`, 13 = Black Joker, 14 = Red Joker).
    pub const fn from_index(index: u8) -> Option<Rank> {
        if index < 15 { Some(Rank(index)) } else { None }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_joker(self) -> bool {
        self.0 >= 13
    }

    /// The shorthand character: `3..9`, `T J Q K A 2`, `B` (Black Joker), `R` (Red Joker).
    pub fn char(self) -> char {
        RANK_CHARS[self.index()] as char
    }

    fn from_char(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase();
        RANK_CHARS[..15].iter().position(|&b| b as char == c).map(|i| Rank(i as u8))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl FromStr for Rank {
    type Err = CardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Rank::from_char(c).ok_or_else(|| CardError::UnknownRank(s.into())),
            _ if s == "10" => Ok(Rank::TEN),
            _ => Err(CardError::UnknownRank(s.into())),
        }
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Errors in card text and card sets.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("unknown card {0:?} (expected a rank from 3456789TJQKA2 and a suit from SHDC, or BJ, RJ, W)")]
    UnknownCard(String),
    #[error("unknown rank {0:?} (expected one of 3456789TJQKA2)")]
    UnknownRank(String),
    #[error("unknown character {0:?} in rank shorthand (expected 3456789TJQKA2, B, R or W)")]
    UnknownShorthand(char),
    #[error("the card {0} appears twice")]
    Duplicate(Card),
    /// More cards of one kind than a deck has: four of a rank, one of each joker, one Wild.
    #[error("{text:?} has more {kind} than a deck has ({limit})")]
    TooMany { text: String, kind: &'static str, limit: u8 },
    #[error("the card {0} is not in the hand")]
    NotInHand(Card),
}

/// One card: `rank * 4 + suit` for suited cards, 52 = Black Joker, 53 = Red Joker, 54 = the Wild.
///
/// ```
/// use ddz_engine::Card;
/// let ten_of_hearts: Card = "TH".parse().unwrap();
/// assert_eq!(ten_of_hearts.to_string(), "TH");
/// assert_eq!(Card::WILD.to_string(), "W");
/// assert!("1H".parse::<Card>().is_err());
/// ```
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

const SUITS: &[u8; 4] = b"SHDC";

impl Card {
    pub const BLACK_JOKER: Card = Card(52);
    pub const RED_JOKER: Card = Card(53);
    pub const WILD: Card = Card(54);

    /// A suited card; `suit` is 0..4 for spades, hearts, diamonds, clubs.
    pub const fn suited(rank: Rank, suit: u8) -> Card {
        assert!(rank.0 < 13 && suit < 4);
        Card(rank.0 * 4 + suit)
    }

    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 55 { Some(Card(id)) } else { None }
    }

    pub const fn id(self) -> u8 {
        self.0
    }

    /// The slot of this card in [`Counts`]: its rank index, or 15 for the Wild.
    pub const fn slot(self) -> usize {
        match self.0 {
            0..52 => (self.0 / 4) as usize,
            52 => 13,
            53 => 14,
            _ => WILD_SLOT,
        }
    }

    /// The card's rank; `None` for the Wild.
    pub const fn rank(self) -> Option<Rank> {
        Rank::from_index(self.slot() as u8)
    }

    pub const fn is_wild(self) -> bool {
        self.0 == 54
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            52 => f.write_str("BJ"),
            53 => f.write_str("RJ"),
            54 => f.write_str("W"),
            id => write!(f, "{}{}", Rank(id / 4), SUITS[(id % 4) as usize] as char),
        }
    }
}

impl FromStr for Card {
    type Err = CardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let upper = s.to_ascii_uppercase();
        match upper.as_str() {
            "BJ" => return Ok(Card::BLACK_JOKER),
            "RJ" => return Ok(Card::RED_JOKER),
            "W" => return Ok(Card::WILD),
            _ => {}
        }
        let unknown = || CardError::UnknownCard(s.into());
        let (rank_text, suit) = upper.split_at(upper.len().checked_sub(1).ok_or_else(unknown)?);
        let rank: Rank = rank_text.parse().map_err(|_| unknown())?;
        let suit = SUITS.iter().position(|&b| suit.as_bytes() == [b]).ok_or_else(unknown)?;
        if rank.is_joker() {
            return Err(unknown());
        }
        Ok(Card::suited(rank, suit as u8))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The [`Counts`] slot of the Wild.
pub const WILD_SLOT: usize = 15;

/// A set of cards as a 64-bit mask of card ids.
///
/// ```
/// use ddz_engine::CardSet;
/// let hand: CardSet = "3S 3H TH BJ W".parse().unwrap();
/// assert_eq!(hand.len(), 5);
/// assert_eq!(hand.to_string(), "3S 3H TH BJ W");
/// assert_eq!(hand.counts().to_string(), "33TBW");
/// assert!("3S 3S".parse::<CardSet>().is_err());
/// ```
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "Array<Card>"))]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52 suited cards and both jokers.
    pub const STANDARD_DECK: CardSet = CardSet((1 << 54) - 1);

    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// All cards of `rank` in this set.
    pub const fn of_rank(self, rank: Rank) -> CardSet {
        CardSet(self.0 & slot_mask(rank.index()))
    }

    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let id = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(id))
        })
    }

    /// How many cards of each slot this set holds.
    pub const fn counts(self) -> Counts {
        // Suited cards already sit one rank per nibble: count the bits of every nibble at once.
        let suited = self.0 & ((1 << 52) - 1);
        let pairs = suited - ((suited >> 1) & 0x5555_5555_5555_5555);
        let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
        let black = (self.0 >> 52) & 1;
        let red = (self.0 >> 53) & 1;
        let wild = (self.0 >> 54) & 1;
        Counts(nibbles | black << 52 | red << 56 | wild << 60)
    }

    /// The cards of this set that make up `counts`, taking the lowest suits of each rank first.
    /// Errors with the first slot this set does not hold enough of.
    pub fn pick(self, counts: Counts) -> Result<CardSet, CardError> {
        let mut picked = 0u64;
        for slot in 0..16 {
            let want = counts.get(slot);
            if want == 0 {
                continue;
            }
            let mut available = self.0 & slot_mask(slot);
            for _ in 0..want {
                if available == 0 {
                    return Err(CardError::NotInHand(first_card_not_held(self, slot)));
                }
                let low = available & available.wrapping_neg();
                picked |= low;
                available &= available - 1;
            }
        }
        Ok(CardSet(picked))
    }

    /// A set from cards, rejecting duplicates.
    pub fn from_cards(cards: impl IntoIterator<Item = Card>) -> Result<CardSet, CardError> {
        let mut set = CardSet::EMPTY;
        for card in cards {
            if set.contains(card) {
                return Err(CardError::Duplicate(card));
            }
            set.insert(card);
        }
        Ok(set)
    }
}

const fn slot_mask(slot: usize) -> u64 {
    match slot {
        0..13 => 0xF << (4 * slot),
        13 => 1 << 52,
        14 => 1 << 53,
        _ => 1 << 54,
    }
}

/// A card of `slot` that `set` does not hold (the first by suit).
fn first_card_not_held(set: CardSet, slot: usize) -> Card {
    let missing = slot_mask(slot) & !set.0;
    Card(missing.trailing_zeros() as u8)
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({self})")
    }
}

impl FromStr for CardSet {
    type Err = CardError;
    /// Cards separated by spaces or commas: `"3S 3H TH BJ W"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let cards = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Card>, _>>()?;
        CardSet::from_cards(cards)
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        CardSet::from_cards(cards).map_err(serde::de::Error::custom)
    }
}

/// How many cards of each slot: one nibble per slot, slots 0..13 the ranks `3..2`, 13 and 14 the jokers,
/// 15 the Wild.
///
/// ```
/// use ddz_engine::{Counts, Rank};
/// let c: Counts = "33344BRW".parse().unwrap();
/// assert_eq!(c.of(Rank::THREE), 3);
/// assert_eq!(c.wild(), 1);
/// assert_eq!(c.total(), 8);
/// assert_eq!(c.to_string(), "33344BRW");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counts(pub u64);

impl Counts {
    pub const EMPTY: Counts = Counts(0);

    pub const fn get(self, slot: usize) -> u8 {
        ((self.0 >> (4 * slot)) & 0xF) as u8
    }

    pub const fn of(self, rank: Rank) -> u8 {
        self.get(rank.index())
    }

    pub const fn wild(self) -> u8 {
        self.get(WILD_SLOT)
    }

    /// `self` with `n` more cards in `slot` (callers keep each slot at 15 or below).
    pub const fn plus(self, slot: usize, n: u8) -> Counts {
        Counts(self.0 + ((n as u64) << (4 * slot)))
    }

    /// `self` with `slot` set to `n`.
    pub const fn with(self, slot: usize, n: u8) -> Counts {
        Counts((self.0 & !(0xF << (4 * slot))) | ((n as u64) << (4 * slot)))
    }

    pub const fn total(self) -> u32 {
        let mut total = 0;
        let mut slot = 0;
        while slot < 16 {
            total += self.get(slot) as u32;
            slot += 1;
        }
        total
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every slot of `self` is at most that slot of `other`.
    pub fn fits_in(self, other: Counts) -> bool {
        (0..16).all(|s| self.get(s) <= other.get(s))
    }

    /// Slot-wise `self - other`; `None` where `other` holds more of some slot.
    pub fn checked_sub(self, other: Counts) -> Option<Counts> {
        // With every slot of `other` at most that of `self`, no nibble borrows from the next.
        other.fits_in(self).then(|| Counts(self.0 - other.0))
    }

    /// The non-empty slots, low to high, with their counts.
    pub fn slots(self) -> impl Iterator<Item = (usize, u8)> {
        (0..16).map(move |s| (s, self.get(s))).filter(|&(_, n)| n > 0)
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (slot, n) in self.slots() {
            for _ in 0..n {
                write!(f, "{}", RANK_CHARS[slot] as char)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counts({self})")
    }
}

impl FromStr for Counts {
    type Err = CardError;
    /// The rank-only shorthand: `"33344BRW"`, `T` for ten; spaces and dashes are ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut counts = Counts::EMPTY;
        for c in s.chars().filter(|c| !c.is_whitespace() && *c != '-') {
            let slot = RANK_CHARS
                .iter()
                .position(|&b| b as char == c.to_ascii_uppercase())
                .ok_or(CardError::UnknownShorthand(c))?;
            let limit = if slot < 13 { 4 } else { 1 };
            if counts.get(slot) >= limit {
                let kind = match slot {
                    13 => "Black Jokers",
                    14 => "Red Jokers",
                    15 => "Wilds",
                    _ => "cards of one rank",
                };
                return Err(CardError::TooMany { text: s.into(), kind, limit });
            }
            counts = counts.plus(slot, 1);
        }
        Ok(counts)
    }
}

impl From<CardSet> for Counts {
    fn from(set: CardSet) -> Counts {
        set.counts()
    }
}
