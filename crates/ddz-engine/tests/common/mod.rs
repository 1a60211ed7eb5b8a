//! Helpers shared by the deal tests.

use ddz_engine::{Card, CardSet, Deal, Seat};

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

/// The cards `viewer`'s view of `deal` shows, found by scanning its JSON (with the JSON, for messages).
/// The priority draws come from a separate deck, so their card text says nothing about the hands: they
/// are checked against the deal and left out of the scan.
pub fn scan_view(deal: &Deal, viewer: Option<Seat>) -> (CardSet, String) {
    let mut view = deal.view(viewer);
    assert_eq!(view.hand, viewer.map(|s| deal.hand(s)), "own hand only");
    assert_eq!(view.priority_draws, deal.priority_draws());
    view.priority_draws.clear();
    let json = serde_json::to_string(&view).expect("a view serialises");
    let shown = cards_in_json(&json);
    if let Some(seat) = viewer {
        assert!(deal.hand(seat).is_subset(shown), "the scan finds the own hand");
    }
    (shown, json)
}
