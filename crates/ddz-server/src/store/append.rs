//! One entry to store, as the room prepares it ([`Append::of`]): the room's log line and, when the entry
//! ends a deal or a run, what that adds to the deal records, the stats and the boards (worked out here,
//! from the room as the entry left it, so that the database thread only writes: `commit.rs`).

use ddz_bot::BotKind;
use ddz_engine::{Action, Deal, DealRecord};
use serde::{Deserialize, Serialize};

use super::ownership::Fence;
use crate::domain::challenge::rally_closed;
use crate::domain::fairness::{Integrity, Unrated, Verdict, verdicts};
use crate::domain::rating::{RatedDeal, rated_deal};
use crate::domain::room::{Entry, Occupant, Room, RoomCode, Stamped};
use crate::domain::stats::{BoardLine, PlayedLine, StatLine, board_lines, played_lines, stat_lines};

/// One entry to store, prepared by the room: its log line and, when it ends a deal, the deal's record
/// and the stats it earns.
pub struct Append {
    pub code: RoomCode,
    pub n: u64,
    pub at: u64,
    pub entry: String,
    pub closes_room: bool,
    pub finished_deal: Option<FinishedDeal>,
    /// A challenge room's close: the run's result, written once.
    pub finished_run: Option<RunResult>,
    /// Cluster mode: the writer's ownership, checked in the same transaction.
    pub fence: Option<Fence>,
}

/// A challenge run's result.
pub struct RunResult {
    pub net: i64,
    pub deals: i64,
    pub best_pot: i64,
    /// The player's money in each deal, as a JSON array.
    pub nets: String,
}

/// A finished deal: its number in the room, its replayable record (JSON), and what it adds to stats,
/// ratings and boards, now or (a rally deal while its rally is open) when the rally closes.
pub struct FinishedDeal {
    pub number: u32,
    pub record: String,
    pub results: DealResults,
    /// The rally's date while it is open: the results wait for its close (docs/ratings.md).
    pub held_for: Option<String>,
    /// What the deal does for each seated person, as their result panels say (`None`: a bot, or a table
    /// that is not rated).
    pub verdicts: Vec<Option<Verdict>>,
}

/// What a finished deal adds beyond its record: every person's stats; the ratings it moves (the store reads
/// the players' ratings and writes the new ones in the same transaction); the money boards' lines; and who
/// sat with whom, for the boards' eligibility and the pairs an operator is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealResults {
    pub stats: Vec<StatLine>,
    pub rating: Option<RatedDeal>,
    pub boards: Vec<BoardLine>,
    pub table: Company,
    /// Each person's line of history (results held before histories were kept have none).
    #[serde(default)]
    pub played: Vec<PlayedLine>,
}

/// Who sat at a rated deal: its people, and the bots (each kind one opponent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    pub people: Vec<Person>,
    pub bots: Vec<BotKind>,
    /// The deal had a winner: it counts toward how often people sit together.
    pub played: bool,
}

/// One person at a rated deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    /// The deal counts for them: toward their rated deals and distinct opponents.
    pub counted: bool,
    /// They passed on nearly every chance to beat an opponent (`crate::domain::fairness`).
    pub threw: bool,
}

impl Append {
    /// Whether storing this entry is its log line alone (no ownership check, no deal or room to update).
    pub fn is_log_line_only(&self) -> bool {
        self.fence.is_none() && !self.closes_room && self.finished_deal.is_none() && self.finished_run.is_none()
    }

    /// What to store for `stamped`, applied to give `after`; `integrity` tells what the room's task knows
    /// of its seats beyond the fold (who shares an address, a browser, a flagged pair), asked only when a
    /// deal has finished.
    pub fn of(stamped: &Stamped, after: &Room, integrity: impl FnOnce() -> Integrity) -> Append {
        let finished = deal_just_finished(stamped, after);
        Append {
            code: after.code.clone(),
            n: stamped.n,
            at: stamped.at,
            entry: serde_json::to_string(&stamped.entry).expect("entries serialise"),
            closes_room: matches!(stamped.entry, Entry::Close),
            finished_run: after.challenge.as_ref().filter(|_| matches!(stamped.entry, Entry::Close)).map(|_| {
                RunResult {
                    net: after.progress.net(),
                    deals: after.progress.nets.len() as i64,
                    best_pot: after.progress.best_pot,
                    nets: serde_json::to_string(&after.progress.nets).expect("numbers serialise"),
                }
            }),
            finished_deal: after
                .deal
                .as_ref()
                .filter(|_| finished)
                .map(|deal| FinishedDeal::of(deal, after, stamped.at, &integrity())),
            fence: None,
        }
    }
}

impl FinishedDeal {
    fn of(deal: &Deal, room: &Room, at: u64, integrity: &Integrity) -> FinishedDeal {
        let humans: Vec<bool> = room.seats.iter().map(|s| s.as_ref().is_some_and(|o| !o.is_bot())).collect();
        let mut verdicts = if room.mode.rated() {
            verdicts(deal, &humans, &room.conduct, integrity, room.leaver)
        } else {
            vec![None; humans.len()]
        };
        let stats = stat_lines(deal, room);
        let counted: Vec<&str> = (0..humans.len())
            .filter(|&s| verdicts[s].as_ref().is_some_and(|v| v.counted))
            .filter_map(|s| room.seats[s].as_ref().map(Occupant::name))
            .collect();
        let mut table = Company { played: deal.result().is_some_and(|r| r.winner.is_some()), ..Company::default() };
        if room.mode.rated() {
            for (seat, occupant) in room.seats.iter().enumerate() {
                match occupant {
                    Some(Occupant::Human { name }) => table.people.push(Person {
                        name: name.clone(),
                        counted: counted.contains(&name.as_str()),
                        threw: room.conduct[seat].threw(),
                    }),
                    Some(Occupant::Bot { level, .. }) => table.bots.push(*level),
                    None => {}
                }
            }
        }
        let results = DealResults {
            boards: board_lines(&stats, &counted),
            rating: rated_deal(deal, room, &verdicts),
            stats,
            table,
            played: played_lines(deal, room),
        };
        let held_for = room.challenge.as_ref().and_then(|c| c.rally.clone()).filter(|date| !rally_closed(date, at));
        if held_for.is_some() {
            for verdict in verdicts.iter_mut().flatten().filter(|v| v.counted) {
                verdict.reason = Some(Unrated::RallyHeld);
            }
        }
        FinishedDeal {
            number: room.ledger.deals,
            record: serde_json::to_string(&DealRecord::of(deal, room.names())).expect("records serialise"),
            results,
            held_for,
            verdicts,
        }
    }
}

/// Whether `stamped` ended a deal: an action that finished it, or a close that abandoned it.
fn deal_just_finished(stamped: &Stamped, after: &Room) -> bool {
    match &stamped.entry {
        Entry::Act { .. } => after.deal.as_ref().is_some_and(|d| d.result().is_some()),
        Entry::Close => after.deal.as_ref().is_some_and(|d| d.actions().last() == Some(&Action::Abandon)),
        _ => false,
    }
}
