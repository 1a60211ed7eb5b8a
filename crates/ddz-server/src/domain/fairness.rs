//! Fair play (docs/ratings.md, "What counts"): which seats of a finished deal it counts for, in ratings and
//! on the boards, and why not where it does not. Pure: the room's fold keeps how each seat played the deal
//! ([`Conduct`]); what the room's task knows beyond the fold (where each player connects from, the pairs an
//! operator should look at) arrives as [`Integrity`].
//!
//! A rating measures the person: a seat the server's bot played for (auto-play, or the clock) for more
//! than a quarter of its decisions, or that passed on nearly every chance to beat an opponent, counts only
//! if it lost, so that handing a bad hand to the bot or throwing it cannot dodge a loss; the other seats of
//! a thrown deal do not count at all. A deal its host closes half-way is the host's loss. Seats that share
//! an address or a browser, and pairs an operator is shown ([`PairFlag`]), never count together.

use ddz_engine::{Action, Deal, Kind, Phase, Seat};
use serde::{Deserialize, Serialize};

use crate::domain::names::NameKey;

/// A deal the bot played more than this share of a seat's decisions in is not that person's game.
pub const BOT_SHARE: f64 = 0.25;
/// A seat threw a deal when it had at least this many chances to beat an opponent's play without a bomb...
pub const THROW_CHANCES: u32 = 5;
/// ...and passed on at least this share of them.
pub const THROW_SHARE: f64 = 0.9;

/// What a name needs to be listed on the boards (the money boards and the ratings boards): enough rated
/// deals against enough distinct opponents (people by name, bots by kind), so that neither a handful of
/// lucky deals nor a ring of one's own names puts a name there. `ddz serve --board-min-deals N
/// --board-min-opponents N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    pub deals: i64,
    pub opponents: i64,
}

impl Listing {
    pub const DEFAULT: Listing = Listing { deals: 20, opponents: 10 };
}

impl Default for Listing {
    fn default() -> Listing {
        Listing::DEFAULT
    }
}

/// Two people are shown to an operator (and stop counting together) once one of them has passed on
/// nearly every chance to beat an opponent in this many of their deals together...
pub const PAIR_THROWN: i64 = 2;
/// ...or once they have played at least this many deals together and those are more than half of the
/// deals either of them played with other people: far more than quick match, which seats whoever waits,
/// would ever seat them together.
pub const PAIR_TOGETHER: i64 = 30;

/// Why a pair was flagged, as the operator's list says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumIter)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PairFlag {
    /// One of them passed on nearly every chance to beat the other side, in [`PAIR_THROWN`] deals.
    Passing,
    /// They sit together far more often than chance ([`PAIR_TOGETHER`]).
    Together,
}

impl PairFlag {
    pub fn name(self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }

    pub fn parse(text: &str) -> Option<PairFlag> {
        <PairFlag as strum::IntoEnumIterator>::iter().find(|f| f.name() == text)
    }
}

/// How one seat played the current deal, kept by the room's fold as the actions come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conduct {
    /// The seat's decisions: its auction calls and its plays and passes (not the reveal's nods).
    pub decisions: u32,
    /// Those the server's bot made for it: auto-play, or the clock.
    pub by_bot: u32,
    /// The person's own turns facing an opponent's play that a play other than a bomb could beat...
    pub chances: u32,
    /// ...and how many of them they passed.
    pub passed: u32,
}

impl Conduct {
    /// Whether the bot made more than [`BOT_SHARE`] of the seat's decisions.
    pub fn bot_played(&self) -> bool {
        f64::from(self.by_bot) > BOT_SHARE * f64::from(self.decisions)
    }

    /// Whether the seat passed on nearly every chance to beat an opponent ([`THROW_CHANCES`],
    /// [`THROW_SHARE`]).
    pub fn threw(&self) -> bool {
        self.chances >= THROW_CHANCES && f64::from(self.passed) >= THROW_SHARE * f64::from(self.chances)
    }

    /// Notes `action` before `deal` applies it: `by_bot` when the server's bot chose it for the seat.
    pub fn note(&mut self, deal: &Deal, action: &Action, by_bot: bool) {
        if matches!(action, Action::Seen { .. } | Action::DealLimit | Action::Abandon) {
            return;
        }
        self.decisions += 1;
        if by_bot {
            self.by_bot += 1;
            return;
        }
        if let Some(seat) = action.seat()
            && faces_an_opponent_it_could_beat(deal, seat)
        {
            self.chances += 1;
            self.passed += u32::from(matches!(action, Action::Pass { .. }));
        }
    }
}

/// Whether `seat`, to act in trick play, faces a play of the other side that it could beat without a bomb.
fn faces_an_opponent_it_could_beat(deal: &Deal, seat: Seat) -> bool {
    if deal.phase() != Phase::Play {
        return false;
    }
    let (Some(trick), Some(landlord)) = (deal.trick(), deal.landlord()) else { return false };
    if trick.seat == seat || (trick.seat == landlord) == (seat == landlord) {
        return false;
    }
    deal.choices().iter().any(|choice| {
        matches!(choice, Action::Play { seat: s, play, .. }
            if *s == seat && !matches!(play.shape.kind, Kind::Bomb | Kind::Rocket))
    })
}

/// Where a player's connection comes from: the client's address (behind the trusted balancers, IPv6 by
/// its /64) and the browser's own random id (kept in its storage).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    pub address: Option<String>,
    pub browser: Option<String>,
}

/// What the room's task knows of a deal's seats beyond the fold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Integrity {
    /// Per seat: the reason it may not count with another seated person (the same address or browser,
    /// or a pair an operator is shown).
    pub apart: Vec<Option<Unrated>>,
}

impl Integrity {
    /// From each seated person's name key and latest origin (`None`: a bot's seat, or nobody known) and
    /// the flagged pairs among them (by name key, either order).
    pub fn of(seats: &[Option<(&NameKey, Option<&Origin>)>], flagged: &[(NameKey, NameKey)]) -> Integrity {
        let mut apart = vec![None; seats.len()];
        for (a, first) in seats.iter().enumerate() {
            for (b, second) in seats.iter().enumerate().skip(a + 1) {
                let (Some((key_a, origin_a)), Some((key_b, origin_b))) = (first, second) else { continue };
                let same = |pick: fn(&Origin) -> Option<&String>| matches!((origin_a.and_then(pick), origin_b.and_then(pick)), (Some(x), Some(y)) if x == y);
                let reason = if same(|o| o.address.as_ref()) {
                    Some(Unrated::SameAddress)
                } else if same(|o| o.browser.as_ref()) {
                    Some(Unrated::SameBrowser)
                } else if flagged.iter().any(|(x, y)| (x == *key_a && y == *key_b) || (x == *key_b && y == *key_a)) {
                    Some(Unrated::FlaggedPair)
                } else {
                    None
                };
                if reason.is_some() {
                    apart[a] = apart[a].clone().or(reason.clone());
                    apart[b] = apart[b].clone().or(reason);
                }
            }
        }
        Integrity { apart }
    }
}

/// Why a deal does not count for a seat, or (with a loss that counts) how it came to count.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumIter)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Unrated {
    /// The deal ended with no winner (the deal limit).
    NoResult,
    /// The host closed the room during the deal.
    ClosedByHost,
    /// This seat closed the room during the deal: a loss.
    Abandoned,
    /// The server's bot made `bot` of the seat's `of` decisions.
    BotPlayed { bot: u32, of: u32 },
    /// The seat passed on `passed` of its `chances` to beat an opponent.
    Passed { passed: u32, chances: u32 },
    /// Another player at the table passed on nearly every chance to beat an opponent.
    PlayerPassed,
    /// Another player at the table connects from the same address.
    SameAddress,
    /// Another player at the table plays from the same browser.
    SameBrowser,
    /// This seat and another player are a pair an operator is looking at (docs/ratings.md).
    FlaggedPair,
    /// A rally deal: it counts once the day's rally closes.
    RallyHeld,
}

impl Unrated {
    /// The reason as it is written (`bot_played`, `same_address`...): a metric's label.
    pub fn name(&self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }
}

/// What a finished deal does for one seated person.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The deal counts for the seat's rating and boards (a rally's once the rally closes).
    pub counted: bool,
    /// Why not, or (counted) why only as a loss; none for an ordinary counted deal.
    pub reason: Option<Unrated>,
    /// What the deal did to the seat's rating, in points, once stored (the room's task fills it in).
    #[serde(default)]
    pub change: Option<i32>,
}

impl Verdict {
    const COUNTED: Verdict = Verdict { counted: true, reason: None, change: None };

    fn not(reason: Unrated) -> Verdict {
        Verdict { counted: false, reason: Some(reason), change: None }
    }

    fn counted_for(reason: Unrated) -> Verdict {
        Verdict { counted: true, reason: Some(reason), change: None }
    }
}

/// What `deal` (just finished at a rated table) does for each seat: `None` for bots. `humans` marks the
/// seats people hold; `conduct` is the fold's, `integrity` the task's; `leaver` is the seat whose player
/// closed the room mid-deal, if that is how it ended.
pub fn verdicts(
    deal: &Deal,
    humans: &[bool],
    conduct: &[Conduct],
    integrity: &Integrity,
    leaver: Option<Seat>,
) -> Vec<Option<Verdict>> {
    let result = deal.result();
    let landlord_won = result.and_then(|r| r.landlord_won);
    let threw: Vec<bool> = (0..humans.len()).map(|s| humans[s] && conduct[s].threw()).collect();
    (0..humans.len())
        .map(|seat| {
            if !humans[seat] {
                return None;
            }
            if let Some(reason) = integrity.apart.get(seat).cloned().flatten() {
                return Some(Verdict::not(reason));
            }
            let Some(landlord_won) = landlord_won else {
                return Some(match leaver {
                    Some(left) if left == seat => Verdict::counted_for(Unrated::Abandoned),
                    Some(_) => Verdict::not(Unrated::ClosedByHost),
                    None => Verdict::not(Unrated::NoResult),
                });
            };
            let won = deal.landlord().is_some_and(|l| (l == seat) == landlord_won);
            let mine = conduct[seat];
            // A loss always counts; a win the person did not make, never.
            let only_a_loss = |reason| if won { Verdict::not(reason) } else { Verdict::counted_for(reason) };
            Some(if threw[seat] {
                only_a_loss(Unrated::Passed { passed: mine.passed, chances: mine.chances })
            } else if threw.iter().enumerate().any(|(other, &t)| t && other != seat) {
                Verdict::not(Unrated::PlayerPassed)
            } else if mine.bot_played() {
                only_a_loss(Unrated::BotPlayed { bot: mine.by_bot, of: mine.decisions })
            } else {
                Verdict::COUNTED
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_a_quarter_of_the_decisions_by_the_bot_is_the_bots_game() {
        let conduct = |by_bot, decisions| Conduct { decisions, by_bot, ..Conduct::default() };
        assert!(!conduct(2, 8).bot_played(), "a quarter is still the person's");
        assert!(conduct(3, 8).bot_played());
        assert!(!conduct(0, 0).bot_played());
    }

    #[test]
    fn passing_on_nine_chances_in_ten_is_throwing_from_five_chances_on() {
        let conduct = |passed, chances| Conduct { chances, passed, ..Conduct::default() };
        assert!(!conduct(4, 4).threw(), "four chances are too few to tell");
        assert!(conduct(5, 5).threw());
        assert!(conduct(9, 10).threw());
        assert!(!conduct(8, 10).threw());
    }

    #[test]
    fn players_of_one_address_or_browser_or_a_flagged_pair_are_apart() {
        let home = Origin { address: Some("198.51.100.7".into()), browser: Some("b1".into()) };
        let phone = Origin { address: Some("198.51.100.7".into()), browser: Some("b2".into()) };
        let away = Origin { address: Some("203.0.113.9".into()), browser: Some("b1".into()) };
        let other = Origin { address: Some("192.0.2.1".into()), browser: Some("b3".into()) };
        let [ann, bea, cy] = ["ann", "bea", "cy"].map(NameKey::of_stored);
        let apart = |seats: &[Option<(&NameKey, Option<&Origin>)>], flagged: &[(NameKey, NameKey)]| {
            Integrity::of(seats, flagged).apart
        };
        let by_address = apart(&[Some((&ann, Some(&home))), Some((&bea, Some(&phone))), None], &[]);
        assert_eq!(by_address, [Some(Unrated::SameAddress), Some(Unrated::SameAddress), None]);
        let by_browser = apart(&[Some((&ann, Some(&home))), Some((&bea, Some(&away))), None], &[]);
        assert_eq!(by_browser, [Some(Unrated::SameBrowser), Some(Unrated::SameBrowser), None]);
        let flagged = [(cy.clone(), ann.clone())];
        let pair = apart(&[Some((&ann, Some(&home))), None, Some((&cy, Some(&other)))], &flagged);
        assert_eq!(pair, [Some(Unrated::FlaggedPair), None, Some(Unrated::FlaggedPair)]);
        let unknown = apart(&[Some((&ann, None)), Some((&bea, None)), Some((&cy, Some(&other)))], &[]);
        assert!(unknown.iter().all(Option::is_none), "nothing known is nothing shared");
    }
}
