//! `POST /api/readings` and `POST /api/hints`: the browser client asks the engine what a selection of
//! cards may be played as, and which plays a hand has, so that it never reimplements the rules.
//!
//! A position is `{"rules", "wild_rank", "hand", "prior"}` as for `ddz moves` (`docs/moves.md`), with
//! the hand as cards; `/api/readings` also takes the selected `cards`.

use ddz_engine::{Card, CardSet, Play, PlayJson, Rank, Rules, legal_plays_vec, readings};
use serde::{Deserialize, Serialize};

/// A position from the client's own deal view.
#[derive(Debug, Deserialize)]
pub struct Position {
    /// The table's rules, as `DealView.rules` names them (`house`, `noshuffle-wildrank`, ...).
    pub rules: Rules,
    /// The drawn wild rank (Wild Rank tables only).
    #[serde(default)]
    pub wild_rank: Option<Rank>,
    pub hand: Vec<Card>,
    /// `/api/readings`: the selected cards.
    #[serde(default)]
    pub cards: Vec<Card>,
    /// The play to beat; absent or null on a free lead.
    #[serde(default)]
    pub prior: Option<PlayJson>,
}

/// A legal play: its reading and the concrete cards from the hand.
#[derive(Debug, Serialize)]
pub struct HintPlay {
    #[serde(flatten)]
    pub reading: PlayJson,
    pub cards: CardSet,
}

/// The answer to `/api/readings`: the readings the selection may be played as now, or why none.
#[derive(Debug, Serialize)]
pub struct ReadingsAnswer {
    pub readings: Vec<PlayJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The rules with the drawn wild rank, the hand and the play to beat, checked.
fn resolve_position(position: &Position) -> Result<(Rules, CardSet, Option<Play>), String> {
    let rules = position.rules.with_drawn_wild_rank(position.wild_rank)?;
    let hand = CardSet::from_cards(position.hand.iter().copied()).map_err(|e| e.to_string())?;
    if !hand.counts().fits_in(rules.deck().counts()) {
        return Err(format!("the hand holds cards that are not in a {rules} deck"));
    }
    let prior = position.prior.as_ref().map(|json| json.resolve(&rules)).transpose()?;
    Ok((rules, hand, prior))
}

/// Every legal play from the hand now, with concrete cards (lowest suits first). An error only for a
/// malformed position.
pub fn hints(position: &Position) -> Result<Vec<HintPlay>, String> {
    let (rules, hand, prior) = resolve_position(position)?;
    Ok(legal_plays_vec(&rules, hand.counts(), prior.as_ref())
        .iter()
        .map(|play| HintPlay {
            reading: PlayJson::from(play),
            cards: hand.pick(play.cards).expect("generated plays come from the hand"),
        })
        .collect())
}

/// The readings of exactly the selected cards that may be played now: those that beat the prior, or
/// every reading on a free lead. An error only for a malformed position; a selection that cannot be
/// played gets no readings and the reason.
pub fn selection_readings(position: &Position) -> Result<ReadingsAnswer, String> {
    let (rules, hand, prior) = resolve_position(position)?;
    let none = |error: String| Ok(ReadingsAnswer { readings: Vec::new(), error: Some(error) });
    let cards = match CardSet::from_cards(position.cards.iter().copied()) {
        Ok(cards) => cards,
        Err(e) => return none(e.to_string()),
    };
    if cards.is_empty() {
        return none("select cards to play".into());
    }
    if !cards.is_subset(hand) {
        return none(format!("{} not in the hand", cards.minus(hand)));
    }
    let all = match readings(&rules, cards.counts()) {
        Ok(all) => all,
        Err(e) => return none(e.to_string()),
    };
    let legal: Vec<PlayJson> =
        all.iter().filter(|p| prior.is_none_or(|prior| p.beats(&prior))).map(PlayJson::from).collect();
    if legal.is_empty() {
        let prior = prior.expect("on a free lead every reading is legal");
        let reading = all.first().map(ToString::to_string).unwrap_or_default();
        return none(format!("{reading} does not beat {prior}"));
    }
    Ok(ReadingsAnswer { readings: legal, error: None })
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
    }
}
