//! Rules as data: one [`Rules`] value per table type (RULES.md sections 1, 3 and 8).
//!
//! The differences between House, No Shuffle and Two Player are fields, not code paths: the deck, the
//! number of players, the lowest rank, the top of straights and runs, how triples take attachments,
//! whether four + two exists, and which wild cards there are. The Wild Rank option's drawn rank belongs
//! to a deal, so it is set with [`Rules::with_wild_rank`] once drawn.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, CardSet, Rank};
use crate::play::{Kind, Play, Strength};

/// The three table types of RULES.md. Read also as `noshuffle` and `twoplayer`, the words of rules
/// names (`noshuffle-wildrank`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableType {
    House,
    #[serde(alias = "noshuffle")]
    NoShuffle,
    #[serde(alias = "twoplayer")]
    TwoPlayer,
}

impl TableType {
    pub const ALL: [TableType; 3] = [TableType::House, TableType::NoShuffle, TableType::TwoPlayer];

    /// The table type as it is stored, sent and put in URLs: `house`, `no_shuffle`, `two_player`.
    pub const fn name(self) -> &'static str {
        match self {
            TableType::House => "house",
            TableType::NoShuffle => "no_shuffle",
            TableType::TwoPlayer => "two_player",
        }
    }

    /// The table type `text` names: its [`TableType::name`], or the word of rules names (`noshuffle`,
    /// `twoplayer`).
    pub fn parse(text: &str) -> Option<TableType> {
        TableType::ALL.into_iter().find(|table| table.name() == text || table.name().replace('_', "") == text)
    }

    /// How many farmers sit against the landlord.
    pub const fn farmers(self) -> usize {
        match self {
            TableType::TwoPlayer => 1,
            TableType::House | TableType::NoShuffle => 2,
        }
    }
}

/// A table's rules as a client reads them: the table type and which option is on, the Wild (House) or
/// Wild Rank (No Shuffle, Two Player). Views carry this instead of a rules name to take apart.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableRules {
    pub table: TableType,
    /// House: the 55th card, the Wild, is in the deck.
    pub wild: bool,
    /// No Shuffle or Two Player: the Wild Rank option (four cards of a drawn rank are wild).
    pub wild_rank: bool,
}

/// Which wild cards a deal has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wilds {
    /// No wild cards.
    None,
    /// House: the 55th card, the Wild.
    TheWild,
    /// Wild Rank option: the four cards of this rank are wild.
    Rank(Rank),
    /// Wild Rank option before the rank is drawn: no card is wild yet.
    RankUndrawn,
}

/// Everything about a table type that the engine needs, as data.
///
/// ```
/// use ddz_engine::{Rules, Rank};
/// let house = Rules::house(true);
/// assert_eq!(house.deck().len(), 55);
/// assert_eq!(house.run_top, Rank::TWO);
/// assert_eq!(Rules::two_player(false).deck().len(), 46);
/// assert_eq!("noshuffle-wildrank".parse::<Rules>().unwrap(), Rules::no_shuffle(true));
/// ```
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(
        type = "\"house\" | \"house-nowild\" | \"noshuffle\" | \"noshuffle-wildrank\" | \"twoplayer\" | \"twoplayer-wildrank\""
    )
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub table: TableType,
    pub wilds: Wilds,
    /// Seats at the table: 3, or 2 in Two Player.
    pub players: u8,
    /// Cards dealt to each seat.
    pub hand_size: u8,
    /// Middle (House) or bottom cards the landlord receives.
    pub bottom_size: u8,
    /// The lowest rank in the deck (`3`, or `5` in Two Player).
    pub lowest: Rank,
    /// The highest rank allowed in straights, pair runs and triple runs: `2` in House, `A` elsewhere.
    pub run_top: Rank,
    /// House: a triple run takes 0 to N singles. Elsewhere: none or exactly N.
    pub any_number_of_singles: bool,
    /// Whether both jokers may be attachments of one play together (House yes, elsewhere no).
    pub jokers_attach_together: bool,
    /// Whether four + two singles or four + two pairs is a play.
    pub four_with_two: bool,
}

/// Why a position's drawn wild rank does not fit its rules ([`Rules::with_drawn_wild_rank`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WildRankError {
    #[error("{rank} cannot be the wild rank at a {rules} table")]
    NotACandidate { rank: Rank, rules: Rules },
    #[error("a {rules} position needs its wild_rank")]
    Missing { rules: Rules },
    #[error("a {rules} table has no wild rank")]
    NoWildRank { rules: Rules },
}

impl Rules {
    /// House, with or without the Wild.
    pub const fn house(the_wild: bool) -> Rules {
        Rules {
            table: TableType::House,
            wilds: if the_wild { Wilds::TheWild } else { Wilds::None },
            players: 3,
            hand_size: 17,
            bottom_size: if the_wild { 4 } else { 3 },
            lowest: Rank::THREE,
            run_top: Rank::TWO,
            any_number_of_singles: true,
            jokers_attach_together: true,
            four_with_two: false,
        }
    }

    /// No Shuffle, with or without the Wild Rank option.
    pub const fn no_shuffle(wild_rank: bool) -> Rules {
        Rules {
            table: TableType::NoShuffle,
            wilds: if wild_rank { Wilds::RankUndrawn } else { Wilds::None },
            players: 3,
            hand_size: 17,
            bottom_size: 3,
            lowest: Rank::THREE,
            run_top: Rank::ACE,
            any_number_of_singles: false,
            jokers_attach_together: false,
            four_with_two: true,
        }
    }

    /// Two Player, with or without the Wild Rank option.
    pub const fn two_player(wild_rank: bool) -> Rules {
        Rules { table: TableType::TwoPlayer, players: 2, lowest: Rank::FIVE, ..Rules::no_shuffle(wild_rank) }
    }

    /// These rules with the drawn wild rank (Wild Rank option only; other rules are returned unchanged).
    /// The same table type with its option (the Wild at House, Wild Rank elsewhere) on or off.
    pub const fn with_option(self, on: bool) -> Rules {
        match self.table {
            TableType::House => Rules::house(on),
            TableType::NoShuffle => Rules::no_shuffle(on),
            TableType::TwoPlayer => Rules::two_player(on),
        }
    }

    pub fn with_wild_rank(self, rank: Rank) -> Rules {
        match self.wilds {
            Wilds::RankUndrawn | Wilds::Rank(_) => Rules { wilds: Wilds::Rank(rank), ..self },
            _ => self,
        }
    }

    /// These rules with `wild_rank` drawn, checked: a Wild Rank table needs a rank of its deck, any
    /// other table none. For positions that arrive from outside (`ddz moves`, the client).
    pub fn with_drawn_wild_rank(self, wild_rank: Option<Rank>) -> Result<Rules, WildRankError> {
        match (self.has_wild_rank_option(), wild_rank) {
            (true, Some(rank)) if self.wild_rank_choices().any(|r| r == rank) => Ok(self.with_wild_rank(rank)),
            (true, Some(rank)) => Err(WildRankError::NotACandidate { rank, rules: self }),
            (true, None) => Err(WildRankError::Missing { rules: self }),
            (false, Some(_)) => Err(WildRankError::NoWildRank { rules: self }),
            (false, None) => Ok(self),
        }
    }

    /// A table type's rules with its option on or off: the Wild at House, Wild Rank elsewhere.
    pub const fn of(table: TableType, option: bool) -> Rules {
        match table {
            TableType::House => Rules::house(option),
            TableType::NoShuffle => Rules::no_shuffle(option),
            TableType::TwoPlayer => Rules::two_player(option),
        }
    }

    /// The table type and its option, as views show them.
    pub const fn table_rules(&self) -> TableRules {
        TableRules {
            table: self.table,
            wild: matches!(self.wilds, Wilds::TheWild),
            wild_rank: self.has_wild_rank_option(),
        }
    }

    /// Whether this table plays the Wild Rank option (drawn or not).
    pub const fn has_wild_rank_option(&self) -> bool {
        matches!(self.wilds, Wilds::Rank(_) | Wilds::RankUndrawn)
    }

    /// The drawn wild rank, if any.
    pub const fn wild_rank(&self) -> Option<Rank> {
        match self.wilds {
            Wilds::Rank(r) => Some(r),
            _ => None,
        }
    }

    /// No Shuffle / Two Player: what a bomb or rocket multiplies the multiplier by (RULES.md 6.2): 4 for
    /// the rocket and natural or pure-wild bombs at a Wild Rank table, 2 otherwise.
    pub fn bomb_factor(&self, play: &Play) -> u32 {
        let quadruples =
            self.wild_rank().is_some() && (play.shape.kind == Kind::Rocket || play.strength != Strength::Soft);
        if quadruples { 4 } else { 2 }
    }

    /// What a bomb or rocket multiplies the deal's stake by (RULES.md 6): at House the pot doubles for
    /// each bomb collected, and a bomb that empties its player's hand (`last_cards`) is not collected;
    /// elsewhere the [`bomb_factor`](Rules::bomb_factor).
    pub fn stake_factor(&self, play: &Play, last_cards: bool) -> u32 {
        match self.table {
            TableType::House if last_cards => 1,
            TableType::House => 2,
            _ => self.bomb_factor(play),
        }
    }

    /// Whether a won deal is a spring (RULES.md 6.2, 6.3; none at House): the landlord won with no
    /// farmer having played a card, or the farmers won with the landlord having played only once.
    pub fn is_spring(&self, landlord_won: bool, landlord_plays: u32, farmer_plays: u32) -> bool {
        self.table != TableType::House && if landlord_won { farmer_plays == 0 } else { landlord_plays == 1 }
    }

    /// Whether `rank` is a rank of this table's deck (jokers included).
    pub fn has_rank(&self, rank: Rank) -> bool {
        rank >= self.lowest
    }

    /// The ranks a wild rank may be drawn from (`3..2`, or `5..2` in Two Player).
    pub fn wild_rank_choices(&self) -> impl Iterator<Item = Rank> + use<> {
        (self.lowest.index()..=Rank::TWO.index()).map(|i| Rank::ALL[i])
    }

    /// The whole deck of this table.
    pub fn deck(&self) -> CardSet {
        let mut deck = CardSet::STANDARD_DECK;
        for rank in Rank::ALL.iter().take_while(|r| **r < self.lowest) {
            deck = deck.minus(CardSet::STANDARD_DECK.of_rank(*rank));
        }
        if self.wilds == Wilds::TheWild {
            deck.insert(Card::WILD);
        }
        deck
    }

    /// The short name used in JSON and on the command line.
    pub const fn name(&self) -> &'static str {
        match (self.table, self.has_wild_rank_option(), self.wilds) {
            (TableType::House, _, Wilds::TheWild) => "house",
            (TableType::House, _, _) => "house-nowild",
            (TableType::NoShuffle, false, _) => "noshuffle",
            (TableType::NoShuffle, true, _) => "noshuffle-wildrank",
            (TableType::TwoPlayer, false, _) => "twoplayer",
            (TableType::TwoPlayer, true, _) => "twoplayer-wildrank",
        }
    }

    /// Every table type and option, by name.
    pub const ALL: [Rules; 6] = [
        Rules::house(true),
        Rules::house(false),
        Rules::no_shuffle(false),
        Rules::no_shuffle(true),
        Rules::two_player(false),
        Rules::two_player(true),
    ];
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules' name (`house-nowild`, `noshuffle-wildrank`), as [`Rules`] writes it.
impl fmt::Display for TableRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let option = if self.table == TableType::House { self.wild } else { self.wild_rank };
        f.write_str(Rules::of(self.table, option).name())
    }
}

/// An unknown table name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown table {0:?} (expected house, house-nowild, noshuffle, noshuffle-wildrank, twoplayer or twoplayer-wildrank)"
)]
pub struct UnknownTable(pub String);

impl FromStr for Rules {
    type Err = UnknownTable;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rules::ALL.into_iter().find(|r| r.name() == s.to_ascii_lowercase()).ok_or_else(|| UnknownTable(s.into()))
    }
}

impl Serialize for Rules {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_type_is_stored_under_its_serde_name_and_read_in_either_spelling() {
        for table in TableType::ALL {
            assert_eq!(serde_json::to_value(table).unwrap(), table.name());
            assert_eq!(TableType::parse(table.name()), Some(table));
        }
        assert_eq!(TableType::parse("noshuffle"), Some(TableType::NoShuffle));
        assert_eq!(TableType::parse("twoplayer"), Some(TableType::TwoPlayer));
        assert_eq!(TableType::parse("chess"), None);
        assert_eq!(TableType::TwoPlayer.farmers() + 1, Rules::two_player(false).players as usize);
        assert_eq!(TableType::House.farmers() + 1, Rules::house(true).players as usize);
    }
}
