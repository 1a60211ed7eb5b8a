//! The game around the engine, pure: a room as a fold over its entries, the challenges and their boards,
//! what a finished deal adds to a player's stats and ratings, who sits with whom in quick match, protected
//! names' secrets, and the rules of tournaments' seating and progress (docs/tournaments.md). No I/O, no clock, no tasks: everything above builds on these. (The hints and readings of
//! a position are the engine's, `ddz_engine::hints`, shared with the page's WebAssembly.)

pub mod challenge;
pub mod fairness;
pub mod matching;
pub mod names;
pub mod puzzles;
pub mod rating;
pub mod room;
pub mod stats;
pub mod tournament;

#[cfg(test)]
mod tests {
    use super::challenge::ChallengeKind;
    use super::fairness::{PairFlag, Unrated};
    use super::room::Mode;
    use super::stats::MoneyBoard;
    use super::tournament::Phase;
    use strum::IntoEnumIterator;

    /// What serde writes for `value`: the string of a plain variant, the tag of a tagged one.
    fn serde_name(value: impl serde::Serialize) -> String {
        match serde_json::to_value(value).expect("serialises") {
            serde_json::Value::String(name) => name,
            tagged => tagged["reason"].as_str().expect("a tag").to_string(),
        }
    }

    /// The names the server stores, sends and labels metrics with are serde's, variant for variant.
    #[test]
    fn names_are_serdes() {
        let pairs = Mode::ALL
            .map(|m| (m.name(), serde_name(m)))
            .into_iter()
            .chain(ChallengeKind::ALL.map(|k| (k.name(), serde_name(k))))
            .chain(MoneyBoard::ALL.map(|b| (b.name(), serde_name(b))))
            .chain(PairFlag::iter().map(|f| (f.name(), serde_name(f))))
            .chain(Phase::iter().map(|p| (p.name(), serde_name(p))))
            .chain(Unrated::iter().map(|u| (u.name(), serde_name(&u))));
        for (name, serde) in pairs {
            assert_eq!(name, serde);
        }
    }
}
