//! The server's upkeep that belongs to no room: every few seconds, on every node, the results of rallies
//! that have closed are written (`Db::release_rallies`: a rally deal counts in stats, ratings and boards
//! only once its day's rally has closed, all of its deals at once).

use std::time::Duration;

use crate::background::First;
use crate::rooms::Rooms;

/// How often each node looks for closed rallies.
const EVERY: Duration = Duration::from_secs(5);

/// Runs the upkeep until the server stops, backing off while the database fails.
pub fn spawn(rooms: Rooms) {
    let background = rooms.background();
    background.every(EVERY, First::Now, move || {
        let rooms = rooms.clone();
        async move {
            match rooms.db().release_rallies(rooms.now_ms()).await {
                Ok(0) => true,
                Ok(released) => {
                    tracing::info!(released, "rally deals released to stats, ratings and boards");
                    true
                }
                Err(e) => {
                    tracing::warn!(error = %e, "could not release the closed rallies' deals");
                    false
                }
            }
        }
    });
}
