//! The room's connections: each one's view of the room (its own seat's, or a spectator's), states sent as
//! only what changed since the last, a slow connection dropped, and the lobby's summary of the room.

use super::*;
use crate::metrics;

impl RoomTask {
    /// Sends everyone the room as it is now, and the lobby its summary.
    pub(super) fn announce(&mut self) {
        let started = std::time::Instant::now();
        self.broadcast();
        metrics::histogram!(metrics::BROADCAST_SECONDS).record(started.elapsed().as_secs_f64());
        self.publish_summary();
    }

    pub(super) fn send(&mut self, conn: ConnId, event: Event) {
        let slow = self.connections.get(&conn).is_some_and(|c| c.out.try_send(event.into()).is_err());
        if slow {
            // A client that cannot keep up is dropped; it reconnects and gets a snapshot.
            self.connections.remove(&conn);
            self.note_host_presence();
        }
    }

    /// The room as seen from `seat` (none: watching), by its host or not.
    pub(super) fn view_for(&self, seat: Option<Seat>, hosting: bool) -> RoomView {
        let connected: Vec<bool> = (0..self.room.seats.len())
            .map(|s| {
                let key = self.room.key_of(s);
                key.is_some_and(|k| self.connections.values().any(|c| c.is(k)))
            })
            .collect();
        // Everyone connected without a seat: spectators, and named guests who have not sat.
        let watching = self.connections.values().filter(|c| c.seat_in(&self.room).is_none()).count() as u32;
        let mut view = RoomView::of(&self.room, seat, &connected, watching, self.deadlines());
        view.hosting = hosting;
        if let Some((entry, verdicts)) = &self.verdicts
            && *entry == self.room.deal_entry
            && !self.room.deal_in_progress()
        {
            view.verdicts = verdicts.clone();
        }
        let family = self.room.rules().table;
        for seat in &mut view.seats {
            seat.rating = match &seat.occupant {
                Some(Occupant::Bot { level, .. }) => Some(bot_skill(*level, family).points()),
                Some(Occupant::Human { .. }) => self.room.key_of(seat.seat).and_then(|k| self.ratings.get(k)).copied(),
                None => None,
            };
        }
        view
    }

    pub(super) fn broadcast(&mut self) {
        let n = self.room.last;
        let conns: Vec<(ConnId, Reader, Option<SentActions>)> =
            self.connections.iter().map(|(id, c)| (*id, c.reads(&self.room), c.sent_actions)).collect();
        let deal_entry = self.room.deal_entry;
        // One view per seat and host or not (and one for everyone else without a seat, however many watch),
        // cloned per connection.
        let mut views: HashMap<Reader, RoomView> = HashMap::new();
        for (conn, (seat, hosting), sent) in conns {
            let view = views.entry((seat, hosting)).or_insert_with(|| self.view_for(seat, hosting)).clone();
            self.send_state(conn, n, view, sent.filter(|(entry, _)| *entry == deal_entry));
        }
    }

    /// Sends `view` to one connection as a `state`: only the actions after those it was sent before in
    /// this deal (`sent`), or all of them; and notes what it now has.
    pub(super) fn send_state(&mut self, conn: ConnId, n: u64, mut view: RoomView, sent: Option<SentActions>) {
        let deal_entry = self.room.deal_entry;
        if let Some(deal) = view.deal.as_mut() {
            let total = deal.actions.len();
            if let Some((_, from)) = sent
                && from <= total
            {
                deal.actions.drain(..from);
                view.actions_from = Some(from);
            }
            if let Some(connection) = self.connections.get_mut(&conn) {
                connection.sent_actions = Some((deal_entry, total));
            }
        }
        self.send(conn, Event::State { n, room: Box::new(view) });
    }

    /// A client that found a gap in its states (`Command::Sync`) gets the whole room again.
    pub(super) fn resync(&mut self, conn: ConnId) {
        let Some((seat, hosting)) = self.connections.get(&conn).map(|c| c.reads(&self.room)) else { return };
        let view = self.view_for(seat, hosting);
        self.send_state(conn, self.room.last, view, None);
    }

    pub(super) fn publish_summary(&self) {
        let summary = summary(&self.room);
        if self.summaries.note(summary.clone())
            && let Some(out) = &self.env.summaries_out
        {
            let _ = out.send(summary);
        }
    }
}
