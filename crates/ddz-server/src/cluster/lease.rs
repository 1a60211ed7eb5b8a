//! The node's lease: renewed every third of the lease time in one statement for all its rooms, in a loop
//! of its own; the rooms of nodes whose lease ran out taken on, in another; and the lease ended when the
//! node leaves, so that its rooms move at once.

use std::time::Duration;

use super::Cluster;
use crate::domain::room::RoomCode;
use crate::rooms::Rooms;

impl Cluster {
    /// Every third of the lease time: renews this node's lease, and nothing else, so that no other work
    /// delays it (taking a dead node's thousands of rooms once did: this node's lease ran out meanwhile,
    /// the others took its rooms, and the rooms went back and forth).
    pub(super) async fn keep_lease(&self) {
        let mut ticks = tokio::time::interval(Duration::from_millis(self.inner.lease_ms / 3));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let (db, now) = (&self.inner.db, self.inner.clock.now_ms());
            match db.renew_lease(&self.inner.id, now + self.inner.lease_ms).await {
                Ok(true) => {}
                Ok(false) => tracing::error!(node = %self.inner.id, "this node's lease is gone from the database"),
                Err(e) => tracing::error!(node = %self.inner.id, error = %e, "could not renew this node's lease"),
            }
        }
    }

    /// Every third of the lease time (after the last look's work is done): takes on the rooms of nodes that
    /// died, lets go of the connections of clients whose node died, and forgets nodes long dead.
    pub(super) async fn take_over(&self, rooms: Rooms) {
        let mut ticks = tokio::time::interval(Duration::from_millis(self.inner.lease_ms / 3));
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let (db, now) = (&self.inner.db, self.inner.clock.now_ms());
            match db.orphaned_rooms(now).await {
                Ok(orphans) => {
                    for code in orphans {
                        // Every node tries; the database gives each room to one.
                        if let Err(e) = rooms.owned_inbox_checked(&code).await {
                            tracing::warn!(room = %code, error = %e, "could not take an orphaned room");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "could not look for orphaned rooms"),
            }
            if let Ok(live) = db.live_nodes(now).await {
                let live = live.into_iter().collect();
                self.forget_guests_of_dead_nodes(&live).await;
            }
            // Every node that ever ran leaves a row; those dead for an hour with no room go.
            if let Err(e) = db.forget_nodes(now.saturating_sub(3_600_000)).await {
                tracing::warn!(error = %e, "could not forget old nodes");
            }
        }
    }

    /// Leaves the cluster as the server stops, once this node's room tasks have ended: its lease ends, so
    /// the other nodes take its rooms on their next tick, and the nodes that serve their clients are told
    /// at once.
    pub async fn leave(&self, owned: &[RoomCode]) {
        if let Err(e) = self.inner.db.leave_cluster(&self.inner.id).await {
            tracing::error!(error = %e, "could not leave the cluster: its rooms move when the lease runs out");
        }
        // NATS may be gone too: the moves are announced if it can be reached soon, else the other nodes
        // find the rooms free when their clients next ask.
        let announce = async {
            for room in owned {
                self.announce_move(room, None).await;
            }
            let _ = self.inner.nats.flush().await;
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), announce).await;
    }
}
