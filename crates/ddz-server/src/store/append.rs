//! One entry to store, as the store writes it: the room's log line and, when the entry ends a deal or a
//! run, what that adds to the deal records, the stats and the boards (worked out here, from the room as
//! the entry left it, so that the database thread only writes).

use ddz_engine::{Action, DealRecord};

use crate::domain::rating::{RatedDeal, rated_deal};
use crate::domain::room::{Entry, Room, Stamped};
use crate::domain::stats::{StatLine, stat_lines};

/// One entry to store, prepared by the room: its log line and, when it ends a deal, the deal's record
/// and the stats it earns.
pub struct Append {
    pub code: String,
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

/// A finished deal: its number in the room, its replayable record (JSON), the stats it earns, and who it
/// rates (the store reads their ratings and writes the new ones in the same transaction).
pub struct FinishedDeal {
    pub number: u32,
    pub record: String,
    pub stats: Vec<StatLine>,
    pub rating: Option<RatedDeal>,
}

impl Append {
    /// Whether storing this entry is its log line alone (no ownership check, no deal or room to update).
    pub fn is_log_line_only(&self) -> bool {
        self.fence.is_none() && !self.closes_room && self.finished_deal.is_none() && self.finished_run.is_none()
    }

    /// What to store for `stamped`, applied to give `after`.
    pub fn of(stamped: &Stamped, after: &Room) -> Append {
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
            finished_deal: after.deal.as_ref().filter(|_| finished).map(|deal| FinishedDeal {
                number: after.ledger.deals,
                record: serde_json::to_string(&DealRecord::of(deal, after.names())).expect("records serialise"),
                stats: stat_lines(deal, after),
                rating: rated_deal(deal, after),
            }),
            fence: None,
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

/// A room's ownership in cluster mode: the node that runs it and the fencing number it took it with.
/// Every append of that node to that room checks that both still hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub node: String,
    pub number: i64,
}
