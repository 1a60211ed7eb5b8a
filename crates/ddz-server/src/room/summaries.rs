//! Every room's summary as this node knows it (its own rooms', and in cluster mode every other node's,
//! from `ddz.lobby`): the whole list for the lobby and the hall, and each change as it happens for those
//! that act on one (a tournament's driver, woken when one of its tables finishes a deal).

use std::collections::HashMap;

use tokio::sync::{broadcast, watch};

use crate::domain::room::RoomCode;
use crate::wire::pages::Summary;

/// Changes kept for a follower that has not read them yet; one who falls further behind is told it lagged.
const CHANGES_KEPT: usize = 4096;

#[derive(Clone)]
pub struct Summaries {
    all: watch::Sender<HashMap<RoomCode, Summary>>,
    changes: broadcast::Sender<Summary>,
}

impl Default for Summaries {
    fn default() -> Self {
        Summaries { all: watch::Sender::new(HashMap::new()), changes: broadcast::Sender::new(CHANGES_KEPT) }
    }
}

impl Summaries {
    /// Puts a room's summary in the list; whether it changed anything (a change also goes to the followers
    /// of changes).
    pub fn note(&self, summary: Summary) -> bool {
        let changed = self.all.send_if_modified(|all| {
            let changed = all.get(&summary.code).is_none_or(|old| *old != summary);
            if changed {
                all.insert(summary.code.clone(), summary.clone());
            }
            changed
        });
        if changed {
            let _ = self.changes.send(summary);
        }
        changed
    }

    /// The whole list, now and after every change.
    pub fn watch(&self) -> watch::Receiver<HashMap<RoomCode, Summary>> {
        self.all.subscribe()
    }

    /// Each change from now on.
    pub fn changes(&self) -> broadcast::Receiver<Summary> {
        self.changes.subscribe()
    }

    pub fn borrow(&self) -> watch::Ref<'_, HashMap<RoomCode, Summary>> {
        self.all.borrow()
    }
}
