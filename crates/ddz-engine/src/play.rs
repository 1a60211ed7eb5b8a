//! Plays: a set of cards (by rank) with one reading, and how plays compare (RULES.md sections 3 and 4).
//!
//! A [`Play`] holds the physical cards it uses as [`Counts`] and, separately, the ranks its wild cards
//! stand in for (`wild_as`). Together with its [`Shape`] and main rank that is the whole reading: the
//! same cards `3 3 3 W` are a bomb of 3s (`wild_as` = `3`) or a triple of 3s with the Wild as its single
//! (`wild_as` empty). Concrete cards are chosen from a hand with [`crate::CardSet::pick`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Counts, Rank, WILD_SLOT};

/// The type of a play.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Single,
    Pair,
    /// One triple (`len` 1) or a triple run / airplane (`len` 2 or more), with its attachments.
    Triples,
    Straight,
    PairRun,
    /// Four of a rank with two singles or two pairs (No Shuffle and Two Player; not a bomb).
    FourWithTwo,
    Bomb,
    Rocket,
}

/// What a triple, triple run or four carries along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attach {
    None,
    /// This many single cards.
    Singles(u8),
    /// This many pairs, of distinct ranks.
    Pairs(u8),
}

impl Attach {
    /// How many cards the attachments hold.
    pub const fn cards(self) -> u8 {
        match self {
            Attach::None => 0,
            Attach::Singles(n) => n,
            // Saturating: a count read from outside may be any u8, and is then refused as too many.
            Attach::Pairs(n) => n.saturating_mul(2),
        }
    }
}

/// Bomb strengths under the Wild Rank option (RULES.md 3.3). Every other table's bombs are `Natural`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// Four of a rank made with at least one wild card standing in.
    Soft,
    /// Four natural cards of a rank.
    Natural,
    /// The four wild-rank cards played as their own rank.
    PureWild,
}

/// What must match for one play to follow another: type, length and attachments.
///
/// `len` counts the run's ranks: 1 for singles, pairs, triples, bombs and four + two; the number of cards
/// in a straight; the number of pairs in a pair run; the number of triples in a triple run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    pub kind: Kind,
    pub len: u8,
    pub attach: Attach,
}

impl Shape {
    pub const fn new(kind: Kind, len: u8, attach: Attach) -> Shape {
        Shape { kind, len, attach }
    }

    /// Cards of each rank in the play's core: 1 in a straight, 2 in a pair run, and so on.
    pub const fn per_rank(self) -> u8 {
        match self.kind {
            Kind::Single | Kind::Straight => 1,
            Kind::Pair | Kind::PairRun => 2,
            Kind::Triples => 3,
            Kind::FourWithTwo | Kind::Bomb => 4,
            Kind::Rocket => 1,
        }
    }

    /// How many cards a play of this shape holds.
    pub const fn cards(self) -> u8 {
        match self.kind {
            Kind::Rocket => 2,
            _ => self.per_rank() * self.len + self.attach.cards(),
        }
    }

    pub const fn is_bomb_or_rocket(self) -> bool {
        matches!(self.kind, Kind::Bomb | Kind::Rocket)
    }
}

/// A set of cards with one reading.
///
/// ```
/// use ddz_engine::{readings, Rules, Kind};
/// let plays = readings(&Rules::house(true), "333W".parse().unwrap()).unwrap();
/// let kinds: Vec<Kind> = plays.iter().map(|p| p.shape.kind).collect();
/// assert_eq!(kinds, [Kind::Triples, Kind::Bomb]);
/// assert_eq!(plays[1].to_string(), "bomb of 3s (W as 3)");
/// ```
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "Reading"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "PlayJson", into = "PlayJson")]
pub struct Play {
    pub shape: Shape,
    /// The main rank: the top rank of a straight or run, the rank of a triple, four or bomb.
    pub main: Rank,
    /// For bombs, the strength; `Natural` for every other play.
    pub strength: Strength,
    /// The physical cards, by slot (the Wild in slot 15; wild-rank cards in their own rank's slot).
    pub cards: Counts,
    /// The ranks the wild cards stand in for. A wild card used as itself is not listed.
    pub wild_as: Counts,
}

impl Play {
    /// Whether this play may be played on `prior` (RULES.md section 4): a rocket beats everything; a
    /// bomb beats any non-bomb and weaker bombs (by strength, then rank); otherwise same shape, higher
    /// main rank.
    pub fn beats(&self, prior: &Play) -> bool {
        match (self.shape.kind, prior.shape.kind) {
            (_, Kind::Rocket) => false,
            (Kind::Rocket, _) => true,
            (Kind::Bomb, Kind::Bomb) => (self.strength, self.main) > (prior.strength, prior.main),
            (Kind::Bomb, _) => true,
            _ => self.shape == prior.shape && self.main > prior.main,
        }
    }

    /// The number of cards in the play.
    pub fn len(&self) -> u32 {
        self.cards.total()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The lowest rank of the play's core (the first rank of a straight or run).
    pub fn low(&self) -> Rank {
        Rank::from_index(self.main.index() as u8 + 1 - self.shape.len.max(1)).expect("a run's low rank is a rank")
    }
}

fn plural(rank: Rank) -> String {
    format!("{rank}s")
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Shape { kind, len, attach } = self.shape;
        let run = || format!("{}-{}", self.low(), self.main);
        match kind {
            Kind::Single => write!(f, "single {}", self.main)?,
            Kind::Pair => write!(f, "pair of {}", plural(self.main))?,
            Kind::Triples if len == 1 => write!(f, "triple of {}", plural(self.main))?,
            Kind::Triples => write!(f, "triple run {}", run())?,
            Kind::Straight => write!(f, "straight {}", run())?,
            Kind::PairRun => write!(f, "pair run {}", run())?,
            Kind::FourWithTwo => write!(f, "four {} with two", plural(self.main))?,
            Kind::Bomb => {
                write!(f, "bomb of {}", plural(self.main))?;
                match self.strength {
                    Strength::Soft => f.write_str(" (soft)")?,
                    Strength::PureWild => f.write_str(" (pure wild)")?,
                    Strength::Natural => {}
                }
            }
            Kind::Rocket => f.write_str("rocket")?,
        }
        match attach {
            Attach::None => {}
            Attach::Singles(1) => f.write_str(" + single")?,
            Attach::Singles(n) => write!(f, " + {n} singles")?,
            Attach::Pairs(1) => f.write_str(" + pair")?,
            Attach::Pairs(n) => write!(f, " + {n} pairs")?,
        }
        if !self.wild_as.is_empty() {
            let source = if self.cards.get(WILD_SLOT) > 0 { "W".to_string() } else { "wild".to_string() };
            let stands: Vec<String> = self
                .wild_as
                .slots()
                .flat_map(|(s, n)| std::iter::repeat_n(Rank::ALL[s].to_string(), n as usize))
                .collect();
            write!(f, " ({source} as {})", stands.join(", "))?;
        }
        Ok(())
    }
}

/// The JSON form of a play: its reading in words and its cards in the rank shorthand.
///
/// `{"type":"triples","main":"3","length":1,"attach":"singles","attach_count":1,"strength":"natural",
/// "ranks":"333W","wild_as":"","text":"triple of 3s + single"}`
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Reading"))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayJson {
    #[serde(rename = "type")]
    pub kind: Kind,
    pub main: Rank,
    pub length: u8,
    pub attach: AttachJson,
    #[serde(default)]
    pub attach_count: u8,
    /// Optional on input: only needed where it decides.
    #[serde(default)]
    pub strength: Option<Strength>,
    pub ranks: String,
    /// Optional on input: only needed where it decides.
    #[serde(default)]
    pub wild_as: Option<String>,
    /// A description for people, ignored on input.
    #[serde(default, skip_deserializing)]
    pub text: String,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttachJson {
    None,
    Singles,
    Pairs,
}

impl From<&Play> for PlayJson {
    fn from(play: &Play) -> PlayJson {
        let (attach, attach_count) = match play.shape.attach {
            Attach::None => (AttachJson::None, 0),
            Attach::Singles(n) => (AttachJson::Singles, n),
            Attach::Pairs(n) => (AttachJson::Pairs, n),
        };
        PlayJson {
            kind: play.shape.kind,
            main: play.main,
            length: play.shape.len,
            attach,
            attach_count,
            strength: Some(play.strength),
            ranks: play.cards.to_string(),
            wild_as: Some(play.wild_as.to_string()),
            text: play.to_string(),
        }
    }
}

impl PlayJson {
    /// The play this JSON names, checked to be a reading of its cards under `rules`.
    pub fn resolve(&self, rules: &crate::Rules) -> Result<Play, ResolveError> {
        let cards: Counts = self.ranks.parse()?;
        let all = crate::readings(rules, cards)?;
        all.into_iter()
            .find(|p| self.matches(p))
            .ok_or_else(|| ResolveError::NoSuchReading { ranks: self.ranks.clone(), rules: *rules })
    }

    /// Whether `play` is the play this JSON names (fields left out match anything).
    pub fn matches(&self, play: &Play) -> bool {
        let full = PlayJson::from(play);
        let same_counts = |text: &str, counts: Counts| text.parse::<Counts>() == Ok(counts);
        self.kind == full.kind
            && self.main == full.main
            && self.length == full.length
            && self.attach == full.attach
            && self.attach_count == full.attach_count
            && self.strength.is_none_or(|s| s == play.strength)
            && same_counts(&self.ranks, play.cards)
            && self.wild_as.as_deref().is_none_or(|w| same_counts(w, play.wild_as))
    }
}

impl From<Play> for PlayJson {
    fn from(play: Play) -> PlayJson {
        PlayJson::from(&play)
    }
}

/// Why a [`PlayJson`] names no play under the rules it is read with ([`PlayJson::resolve`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error("the play's ranks: {0}")]
    Ranks(#[from] crate::CardError),
    #[error("the play's cards: {0}")]
    NotAPlay(#[from] crate::PlayError),
    #[error("{ranks} has no such reading under {rules}")]
    NoSuchReading { ranks: String, rules: crate::Rules },
}

/// A JSON play whose fields do not describe a play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad play: {0}")]
pub struct BadPlayJson(String);

impl TryFrom<PlayJson> for Play {
    type Error = BadPlayJson;
    /// The play as written. Whether it is a reading of its cards under some rules is checked where
    /// the rules are known ([`crate::readings`](mod@crate::readings)).
    fn try_from(json: PlayJson) -> Result<Play, BadPlayJson> {
        let bad = |e: crate::card::CardError| BadPlayJson(e.to_string());
        let attach = match json.attach {
            AttachJson::None => Attach::None,
            AttachJson::Singles => Attach::Singles(json.attach_count),
            AttachJson::Pairs => Attach::Pairs(json.attach_count),
        };
        let fits_below_main = json.length as usize <= json.main.index() + 1;
        if json.length == 0 || !fits_below_main || attach.cards() > 20 {
            return Err(BadPlayJson(format!("length {} and {} attachments", json.length, json.attach_count)));
        }
        let wild_as: Counts = json.wild_as.as_deref().unwrap_or("").parse().map_err(bad)?;
        if wild_as.get(WILD_SLOT) > 0 {
            return Err(BadPlayJson("a wild card stands in for a rank, never for the Wild".into()));
        }
        Ok(Play {
            shape: Shape::new(json.kind, json.length, attach),
            main: json.main,
            strength: json.strength.unwrap_or(Strength::Natural),
            cards: json.ranks.parse().map_err(bad)?,
            wild_as,
        })
    }
}
