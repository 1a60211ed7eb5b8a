//! The room's clocks: when the task wakes next (a bot's move, a turn's time, the deal limit, the nonces'
//! wait, a rally's close, an away host or player), and what it does then: the bot's or the clock's action.

use super::*;

/// A room's first deal waits this many times [`Timing::nonce_ms`] for its players' nonces.
const FIRST_DEAL_WAIT: u64 = 4;

impl RoomTask {
    /// The current turn's deadline and the deal limit (ms since the epoch), for clients.
    pub(super) fn deadlines(&self) -> Deadlines {
        let nonces = self.nonce_deadline();
        if !self.room.deal_in_progress() {
            return Deadlines { nonces, ..Deadlines::default() };
        }
        let limit = (self.room.rules().table != TableType::House)
            .then_some(self.room.deal_started_at + self.timing.deal_limit_ms);
        Deadlines { turn: Some(self.room.turn_started_at + self.timing.turn_ms), deal: limit, nonces }
    }

    /// When each awaited seat acts by itself: a bot (or a player's turns handed to the bot) after its
    /// short delay, a human's turn at 40 s.
    pub(super) fn due(&self) -> Vec<(Seat, u64)> {
        if self.room.closed || !self.room.deal_in_progress() {
            return Vec::new();
        }
        self.room
            .waiting()
            .into_iter()
            .map(|seat| {
                let bot = self.room.seats[seat].as_ref().is_some_and(Occupant::is_bot) || self.room.auto_play[seat];
                let started = self.room.turn_started_at;
                let bot_at = started + self.bot_delay_ms(seat);
                let at = match self.away_since(seat) {
                    _ if bot => bot_at,
                    Some(since) => (since + self.timing.away_ms).max(bot_at).min(started + self.timing.turn_ms),
                    None => started + self.timing.turn_ms,
                };
                (seat, at)
            })
            .collect()
    }

    /// At a tournament's table, since when the human in `seat` has been away (never connected since this
    /// task started, or their last connection closed): the bot plays for them after [`Timing::away_ms`],
    /// so that one player who dropped does not hold up the event. Elsewhere, `None`: the turn clock alone.
    pub(super) fn away_since(&self, seat: Seat) -> Option<u64> {
        if self.room.mode != Mode::Tournament {
            return None;
        }
        let key = self.room.key_of(seat)?;
        if self.connections.values().any(|c| c.is(key)) {
            return None;
        }
        Some(self.left_at.get(key).copied().unwrap_or(self.opened_at))
    }

    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let limit = self.deadlines().deal;
        let handover = self.host_successor().and(self.host_away_since).map(|since| since + self.timing.host_away_ms);
        let expiry = self.rally_expiry().filter(|_| !self.room.closed);
        let offer = self.nonce_deadline();
        // While a bot thinks, its answer (not the clock) moves the deal on.
        let due = if self.thinking.is_some() { Vec::new() } else { self.due() };
        let mut earliest =
            due.into_iter().map(|(_, at)| at).chain(limit).chain(handover).chain(expiry).chain(offer).min()?;
        if self.store_failures > 0 {
            // The database is failing: the clock waits a growing pause before trying to store again.
            earliest = earliest.max(self.failed_at + back_off_ms(self.store_failures));
        }
        Some(self.clock.instant_at(earliest))
    }

    /// When the offered deal stops waiting for nonces and is dealt with those that came: [`Timing::nonce_ms`]
    /// after the offer, and for a room's first deal [`FIRST_DEAL_WAIT`] times that, while its players are
    /// still arriving (a quick match's open their tables as they learn of it).
    pub(super) fn nonce_deadline(&self) -> Option<u64> {
        let wait = if self.room.ledger.deals == 0 { FIRST_DEAL_WAIT } else { 1 };
        self.room.offer.as_ref().map(|o| o.at + wait * self.timing.nonce_ms)
    }

    /// Whether this room's rally, if it is one, has closed.
    pub(super) fn rally_closed(&self) -> bool {
        self.room
            .challenge
            .as_ref()
            .and_then(|c| c.rally.as_deref())
            .is_some_and(|date| rally_closed(date, self.clock.now_ms()))
    }

    /// The date of this room's rally while its deals are secret ([`sealed_rally`]).
    pub(super) fn sealed_rally(&self) -> Option<&str> {
        sealed_rally(self.room.challenge.as_ref(), self.clock.now_ms())
    }

    /// When this room's rally, if it is one, expires unfinished.
    pub(super) fn rally_expiry(&self) -> Option<u64> {
        self.room.challenge.as_ref()?.rally.as_deref().and_then(rally_expiry_ms)
    }

    pub(super) fn host_connected(&self) -> bool {
        self.connections.values().any(|c| c.key.as_ref().is_some_and(|k| self.room.is_host(k)))
    }

    /// Starts or stops the host's away clock as the host's connections come and go.
    pub(super) fn note_host_presence(&mut self) {
        self.host_away_since = match (self.host_connected(), self.host_away_since) {
            (true, _) => None,
            (false, Some(since)) => Some(since),
            (false, None) => Some(self.clock.now_ms()),
        };
    }

    /// Who would take over as host now: between deals, with the host away, the first connected human
    /// seated at the table. Without a host nobody could deal again.
    pub(super) fn host_successor(&self) -> Option<String> {
        if self.room.closed || self.room.deal_in_progress() || self.host_away_since.is_none() {
            return None;
        }
        (0..self.room.seats.len()).find_map(|seat| {
            let occupant = self.room.seats[seat].as_ref().filter(|o| !o.is_bot())?;
            let key = self.room.key_of(seat).filter(|k| !self.room.is_host(k))?;
            self.connections.values().any(|c| c.is(key)).then(|| occupant.name().to_string())
        })
    }

    pub(super) async fn on_clock(&mut self) {
        let now = self.clock.now_ms();
        if self.nonce_deadline().is_some_and(|at| now >= at) {
            let _ = self.deal_offer().await;
            return;
        }
        if let (Some(name), Some(since)) = (self.host_successor(), self.host_away_since)
            && now >= since + self.timing.host_away_ms
        {
            if self.commit(Entry::Host { name }).await.is_ok() {
                self.note_host_presence();
            }
            return;
        }
        if let Some(limit) = self.deadlines().deal
            && now >= limit
        {
            let _ = self.commit(Entry::Act { action: Action::DealLimit, timed_out: false, seq: None }).await;
            return;
        }
        if self.thinking.is_some() {
            return;
        }
        for (seat, at) in self.due() {
            if at > now {
                continue;
            }
            let Some(deal) = self.room.deal.clone() else { return };
            let timed_out = !self.room.seats[seat].as_ref().is_some_and(Occupant::is_bot) && !self.room.auto_play[seat];
            let kind = self.room.seats[seat].as_ref().and_then(Occupant::bot_kind).unwrap_or(BotKind::Hard);
            // The bot thinks on the pool (waiting for a thread if every one is busy: a bot's move is never
            // dropped); the room task goes on serving its inbox and takes the answer when it comes.
            let (reply, answer) = oneshot::channel();
            let pool = self.env.pool.clone();
            self.env.background.spawn(async move {
                let action = pool.run(move || ddz_bot::bot_action(&deal, seat, kind)).await;
                let _ = reply.send(action);
            });
            self.thinking = Some(Thinking { seat, timed_out, at: self.room.last, answer });
            return; // one action at a time: the deal may have moved on
        }
    }

    /// A bot's decision arrived: play it, unless the room moved on meanwhile (then the clock asks again).
    pub(super) async fn on_thought(&mut self, answer: Option<Action>) {
        let Some(Thinking { seat, timed_out, at, .. }) = self.thinking.take() else { return };
        if at != self.room.last {
            return;
        }
        if let Some(action) = answer.filter(|a| a.seat() == Some(seat)) {
            let _ = self.commit(Entry::Act { action, timed_out, seq: None }).await;
        }
    }

    /// A bot's think time for this turn: varied, but the same for the same entry and seat.
    fn bot_delay_ms(&self, seat: Seat) -> u64 {
        let mix = (self.room.last ^ ((seat as u64) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.timing.bot_min_ms + (mix >> 33) % self.timing.bot_span_ms.max(1)
    }
}
