//! The server's upkeep that belongs to no room: every few seconds, on every node, the results of rallies
//! that have closed are written (`Db::release_rallies`: a rally deal counts in stats, ratings and boards
//! only once its day's rally has closed, all of its deals at once).

use std::time::Duration;

use crate::room::retry_pause_ms;
use crate::rooms::Rooms;

/// How often each node looks for closed rallies.
const EVERY: Duration = Duration::from_secs(5);

/// Runs the upkeep until the server stops, backing off while the database fails.
pub fn spawn(rooms: Rooms) {
    let stopping = rooms.stopping();
    tokio::spawn(async move {
        let mut failures = 0;
        loop {
            match rooms.db().release_rallies(rooms.now_ms()).await {
                Ok(0) => failures = 0,
                Ok(released) => {
                    failures = 0;
                    tracing::info!(released, "rally deals released to stats, ratings and boards");
                }
                Err(e) => {
                    failures += 1;
                    tracing::warn!(error = %e, "could not release the closed rallies' deals");
                }
            }
            let pause = if failures == 0 { EVERY } else { Duration::from_millis(retry_pause_ms(failures)) };
            tokio::select! {
                _ = stopping.cancelled() => return,
                _ = tokio::time::sleep(pause) => {}
            }
        }
    });
}
