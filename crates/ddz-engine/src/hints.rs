//! The readings of a selection and the legal plays of a hand, as the browser client asks for them:
//! `POST /api/readings` and `POST /api/hints` on the server, and the same functions compiled to
//! WebAssembly in the page (`crates/ddz-wasm`), so that both answer from one implementation and the
//! client never reimplements the rules.
//!
//! A position is `{"rules", "wild_rank", "hand", "prior"}` as for `ddz moves` (`docs/moves.md`), with
//! the hand as cards; readings also take the selected `cards`. [`readings_answer`] and [`hints_answer`]
//! give the exact bodies the endpoints answer with.

use crate::card::WILD_SLOT;
use crate::play::Kind;
use crate::{Card, CardSet, Counts, Play, PlayError, PlayJson, Rank, Rules, legal_plays_vec, readings};
use serde::{Deserialize, Serialize};

/// A position from the client's own deal view (`POST /api/readings`, `POST /api/hints`).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Serialize, Deserialize)]
pub struct Position {
    /// The table's rules, as `DealView.rules` names them (`house`, `noshuffle-wildrank`, ...).
    pub rules: Rules,
    /// The drawn wild rank (Wild Rank tables only).
    #[serde(default)]
    pub wild_rank: Option<Rank>,
    pub hand: Vec<Card>,
    /// `/api/readings`: the selected cards.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<Card>>", optional))]
    pub cards: Vec<Card>,
    /// The play to beat; absent or null on a free lead.
    #[serde(default)]
    pub prior: Option<PlayJson>,
}

/// A legal play: its reading and the concrete cards from the hand.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct HintPlay {
    #[serde(flatten)]
    pub reading: PlayJson,
    pub cards: CardSet,
}

/// The answer to `/api/readings`: the readings the selection may be played as now, or why none (in
/// English, and as a `refusal` a client can word in its own language).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct ReadingsAnswer {
    pub readings: Vec<PlayJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub refusal: Option<Refusal>,
    /// More readings than the server answers with were left off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub truncated: bool,
}

/// The answer to `/api/hints`: every legal play from the hand now, in the order Hint proposes them ([`hint_cost`]).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
pub struct Hints {
    pub plays: Vec<HintPlay>,
    /// More plays than the server answers with were left off.
    pub truncated: bool,
}

/// The most plays [`hints_answer`] and readings [`readings_answer`] answer with (the engine's order, the
/// rest left off and `truncated` set): a House hand with the Wild can have thousands.
pub const MAX_ANSWERS: usize = 200;

/// Why a selection cannot be played now.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    NothingSelected,
    NotInHand,
    NotAPlay,
    WildAlone,
    WildWithBothJokers,
    FourInARow,
    TwoOrJokerInRun,
    DoesNotBeat {
        reading: Box<PlayJson>,
        prior: Box<PlayJson>,
    },
    /// Cards that are not in this table's deck.
    NotInDeck,
}

impl From<&PlayError> for Refusal {
    fn from(error: &PlayError) -> Refusal {
        match error {
            PlayError::Empty => Refusal::NothingSelected,
            PlayError::WildAlone => Refusal::WildAlone,
            PlayError::WildWithBothJokers => Refusal::WildWithBothJokers,
            PlayError::FourInARow => Refusal::FourInARow,
            PlayError::TwoOrJokerInRun => Refusal::TwoOrJokerInRun,
            PlayError::NotInDeck(_) => Refusal::NotInDeck,
            PlayError::NoReading(_) => Refusal::NotAPlay,
        }
    }
}

/// Why a position is malformed: no answer can be given for it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    WildRank(#[from] crate::WildRankError),
    #[error("the hand: {0}")]
    Hand(#[from] crate::CardError),
    #[error("the hand holds cards that are not in a {0} deck")]
    NotInDeck(Rules),
    #[error("the play to beat: {0}")]
    Prior(#[from] crate::ResolveError),
}

/// The rules with the drawn wild rank, the hand and the play to beat, checked.
fn resolve_position(position: &Position) -> Result<(Rules, CardSet, Option<Play>), PositionError> {
    let rules = position.rules.with_drawn_wild_rank(position.wild_rank)?;
    let hand = CardSet::from_cards(position.hand.iter().copied())?;
    if !hand.counts().fits_in(rules.deck().counts()) {
        return Err(PositionError::NotInDeck(rules));
    }
    let prior = position.prior.as_ref().map(|json| json.resolve(&rules)).transpose()?;
    Ok((rules, hand, prior))
}

/// Every legal play from the hand now, with concrete cards (lowest suits first). An error only for a
/// malformed position.
pub fn hints(position: &Position) -> Result<Vec<HintPlay>, PositionError> {
    let (rules, hand, prior) = resolve_position(position)?;
    let mut plays = legal_plays_vec(&rules, hand.counts(), prior.as_ref());
    // Stable: plays that cost the same keep the engine's order.
    plays.sort_by_key(|play| hint_cost(play, hand.counts(), prior.is_none()));
    Ok(plays
        .iter()
        .map(|play| HintPlay {
            reading: PlayJson::from(play),
            cards: hand.pick(play.cards).expect("generated plays come from the hand"),
        })
        .collect())
}

/// How much a play costs the hand, for the order Hint proposes plays in (cheapest first): a bomb or
/// the rocket last; then plays that keep the hand's pairs, triples and fours whole (and the two jokers
/// together) before plays that split them; then plays that spend fewer wild cards; then, on a free lead,
/// the longest play first (it sheds the most), and on a follow the lowest answer first.
fn hint_cost(play: &Play, hand: Counts, lead: bool) -> (bool, u32, u32, u32, Rank) {
    let bomb = matches!(play.shape.kind, Kind::Bomb | Kind::Rocket);
    let used = play.cards;
    let split_groups = (0..WILD_SLOT)
        .filter(|&slot| {
            let (taken, held) = (used.get(slot), hand.get(slot));
            taken > 0 && taken < held && held >= 2
        })
        .count() as u32;
    let jokers = [Rank::BLACK_JOKER.index(), Rank::RED_JOKER.index()];
    let split_rocket = !bomb && jokers.iter().all(|&j| hand.get(j) == 1) && jokers.iter().any(|&j| used.get(j) == 1);
    let wilds = u32::from(used.wild()) + play.wild_as.total();
    let length = if lead { u32::MAX - used.total() } else { 0 };
    (bomb, split_groups + u32::from(split_rocket), wilds, length, play.main)
}

/// The readings of exactly the selected cards that may be played now: those that beat the prior, or
/// every reading on a free lead. An error only for a malformed position; a selection that cannot be
/// played gets no readings and the reason.
pub fn selection_readings(position: &Position) -> Result<ReadingsAnswer, PositionError> {
    let (rules, hand, prior) = resolve_position(position)?;
    let none = |error: String, refusal: Refusal| {
        Ok(ReadingsAnswer { readings: Vec::new(), error: Some(error), refusal: Some(refusal), truncated: false })
    };
    let cards = match CardSet::from_cards(position.cards.iter().copied()) {
        Ok(cards) => cards,
        Err(e) => return none(e.to_string(), Refusal::NotInHand),
    };
    if cards.is_empty() {
        return none("select cards to play".into(), Refusal::NothingSelected);
    }
    if !cards.is_subset(hand) {
        return none(format!("{} not in the hand", cards.minus(hand)), Refusal::NotInHand);
    }
    let all = match readings(&rules, cards.counts()) {
        Ok(all) => all,
        Err(e) => return none(e.to_string(), Refusal::from(&e)),
    };
    let legal: Vec<PlayJson> =
        all.iter().filter(|p| prior.is_none_or(|prior| p.beats(&prior))).map(PlayJson::from).collect();
    if legal.is_empty() {
        // On a free lead every reading is legal, so here there is a play to beat.
        return match (all.first(), prior) {
            (Some(reading), Some(prior)) => {
                let refusal = Refusal::DoesNotBeat {
                    reading: Box::new(PlayJson::from(reading)),
                    prior: Box::new(PlayJson::from(&prior)),
                };
                none(format!("{reading} does not beat {prior}"), refusal)
            }
            _ => none(format!("{} is not a play", cards.counts()), Refusal::NotAPlay),
        };
    }
    Ok(ReadingsAnswer { readings: legal, error: None, refusal: None, truncated: false })
}

/// [`selection_readings`] as `/api/readings` answers it: at most [`MAX_ANSWERS`] readings.
pub fn readings_answer(position: &Position) -> Result<ReadingsAnswer, PositionError> {
    let mut answer = selection_readings(position)?;
    answer.truncated = answer.readings.len() > MAX_ANSWERS;
    answer.readings.truncate(MAX_ANSWERS);
    Ok(answer)
}

/// [`hints`] as `/api/hints` answers it: at most [`MAX_ANSWERS`] plays.
pub fn hints_answer(position: &Position) -> Result<Hints, PositionError> {
    let mut plays = hints(position)?;
    let truncated = plays.len() > MAX_ANSWERS;
    plays.truncate(MAX_ANSWERS);
    Ok(Hints { plays, truncated })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(json: serde_json::Value) -> Position {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_triple_with_the_wild_reads_two_ways_on_a_lead() {
        let p = position(
            serde_json::json!({"rules":"house","hand":["3S","3H","3D","W","4C"],"cards":["3S","3H","3D","W"]}),
        );
        let answer = selection_readings(&p).unwrap();
        assert_eq!(answer.readings.len(), 2, "{answer:?}");
        assert!(answer.error.is_none());
    }

    #[test]
    fn a_low_pair_does_not_beat_a_higher_one() {
        let p = position(serde_json::json!({"rules":"house","hand":["3S","3H","4C"],"cards":["3S","3H"],
            "prior":{"type":"pair","main":"5","length":1,"attach":"none","ranks":"55"}}));
        let answer = selection_readings(&p).unwrap();
        assert!(answer.readings.is_empty());
        assert_eq!(answer.error.as_deref(), Some("pair of 3s does not beat pair of 5s"));
        let Some(Refusal::DoesNotBeat { reading, prior }) = answer.refusal else { panic!("{answer:?}") };
        assert_eq!((reading.main, prior.main), ("3".parse().unwrap(), "5".parse().unwrap()));
    }

    /// The cards of the first `n` hints, as the player would see them proposed in turn.
    fn first_hints(json: serde_json::Value, n: usize) -> Vec<String> {
        let plays = hints(&position(json)).unwrap();
        plays.iter().take(n).map(|p| p.cards.to_string()).collect()
    }

    #[test]
    fn hint_on_a_lead_proposes_whole_combinations_first_longest_first_never_a_broken_pair() {
        // Two 3s, a straight 4-8, a pair of 9s, two kings: the old order offered a lone 3 first.
        let hand = ["3S", "3H", "4C", "5D", "6S", "7H", "8C", "9S", "9H", "KD", "KC"];
        let first = first_hints(serde_json::json!({"rules": "house", "hand": hand}), 6);
        let plays = hints(&position(serde_json::json!({"rules": "house", "hand": hand}))).unwrap();
        assert!(first.iter().all(|cards| cards != "3S" && cards != "3H"), "never a lone 3 first: {first:?}");
        assert_eq!(plays[0].cards.len(), 5, "the longest whole play first: {first:?}");
        let proposed_before_singles: Vec<_> = plays.iter().take_while(|p| p.cards.len() > 1).collect();
        assert!(!proposed_before_singles.is_empty());
        // No early proposal splits a pair while a whole play is left.
        let pairs = ["3", "9", "K"];
        for play in plays.iter().take(6) {
            for rank in pairs {
                let taken = play.cards.iter().filter(|c| c.to_string().starts_with(rank)).count();
                assert!(taken != 1, "{} splits the {rank}s early: {first:?}", play.cards);
            }
        }
    }

    #[test]
    fn hint_on_a_follow_proposes_the_cheapest_answer_first_and_a_bomb_last() {
        let prior = serde_json::json!({"type":"single","main":"5","length":1,"attach":"none","ranks":"5"});
        let hand = ["6S", "7H", "7D", "JC", "2S", "4S", "4H", "4D", "4C"];
        let plays = hints(&position(serde_json::json!({"rules": "house", "hand": hand, "prior": prior}))).unwrap();
        let shown: Vec<String> = plays.iter().map(|p| p.cards.to_string()).collect();
        assert_eq!(shown.first().map(String::as_str), Some("6S"), "{shown:?}");
        assert_eq!(plays.last().map(|p| p.reading.kind), Some(Kind::Bomb), "{shown:?}");
        let seven = shown.iter().position(|c| c.starts_with('7')).unwrap();
        let jack = shown.iter().position(|c| c == "JC").unwrap();
        assert!(jack < seven, "a lone jack before breaking the 7s: {shown:?}");
    }

    #[test]
    fn hint_keeps_the_jokers_together_before_it_splits_the_rocket() {
        let prior = serde_json::json!({"type":"single","main":"A","length":1,"attach":"none","ranks":"A"});
        let hand = ["2S", "BJ", "RJ"];
        let plays = hints(&position(serde_json::json!({"rules": "house", "hand": hand, "prior": prior}))).unwrap();
        assert_eq!(plays[0].cards.to_string(), "2S");
    }

    #[test]
    fn a_refusal_says_why_in_a_form_clients_can_word() {
        let refusal = |cards: serde_json::Value| {
            let hand = serde_json::json!(["3S", "4H", "5D", "6C", "W", "9S"]);
            let p = position(serde_json::json!({"rules":"house","hand":hand,"cards":cards}));
            serde_json::to_value(selection_readings(&p).unwrap().refusal).unwrap()["kind"].clone()
        };
        assert_eq!(refusal(serde_json::json!(["3S", "9S"])), "not_a_play");
        assert_eq!(refusal(serde_json::json!(["W"])), "wild_alone");
        assert_eq!(refusal(serde_json::json!(["3S", "4H", "5D", "6C"])), "four_in_a_row");
        assert_eq!(refusal(serde_json::json!(["3H"])), "not_in_hand");
        assert_eq!(refusal(serde_json::json!([])), "nothing_selected");
    }
}
