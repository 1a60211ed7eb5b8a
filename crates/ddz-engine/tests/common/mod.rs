//! Helpers shared by the deal tests.

use ddz_engine::{Card, CardSet};

/// The cards whose exact text appears as a JSON string in `json`.
pub fn cards_in_json(json: &str) -> CardSet {
    let mut seen = CardSet::EMPTY;
    let mut rest = json;
    while let Some(open) = rest.find('"') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('"') else { break };
        let text = &after[..close];
        if text.len() <= 2
            && let Ok(card) = text.parse::<Card>()
            && card.to_string() == text
        {
            seen.insert(card);
        }
        rest = &after[close + 1..];
    }
    seen
}
