//! What a deal did to each player's rating: the fair-play verdicts noted as a deal ends, the integrity of
//! the table (who shares an address or a browser, which pairs are flagged), and the seated ratings.

use super::*;
use crate::metrics;

impl RoomTask {
    /// Keeps a finished deal's verdicts for the result panel, each counted seat with its rating's change
    /// (a newcomer's from the starting rating), and counts the seats that did not count by reason.
    pub(super) fn note_verdicts(&mut self, mut verdicts: Vec<Option<Verdict>>, before: &HashMap<NameKey, i32>) {
        for (seat, verdict) in verdicts.iter_mut().enumerate() {
            let Some(verdict) = verdict else { continue };
            if !verdict.counted {
                let reason = verdict.reason.as_ref().map_or("none", Unrated::name);
                metrics::counter!(metrics::UNRATED_SEATS, "reason" => reason).increment(1);
                continue;
            }
            if verdict.reason == Some(Unrated::RallyHeld) {
                continue;
            }
            let Some(key) = self.room.key_of(seat) else { continue };
            let was = before.get(key).copied().unwrap_or_else(|| NEW_PLAYER.points());
            verdict.change = self.ratings.get(key).map(|now| now - was);
        }
        self.verdicts = Some((self.room.deal_entry, verdicts));
    }

    /// What this task knows of the seated players beyond the room: where each connects from, and the
    /// flagged pairs among them.
    pub(super) fn integrity(&self) -> Integrity {
        let seats: Vec<Option<(&NameKey, Option<&Origin>)>> = (0..self.room.seats.len())
            .map(|seat| {
                let human = self.room.seats[seat].as_ref().is_some_and(|o| !o.is_bot());
                let key = self.room.key_of(seat).filter(|_| human)?;
                Some((key, self.origins.get(key)))
            })
            .collect();
        Integrity::of(&seats, &self.flagged)
    }

    /// The keys of the people seated (not the bots).
    fn people(&self) -> Vec<NameKey> {
        (0..self.room.seats.len())
            .filter(|&seat| self.room.seats[seat].as_ref().is_some_and(|o| !o.is_bot()))
            .filter_map(|seat| self.room.key_of(seat).cloned())
            .collect()
    }

    /// Reads the flagged pairs among the seated players (a failure keeps the ones known).
    pub(super) async fn refresh_flags(&mut self) {
        match self.db.flagged_among(self.people()).await {
            Ok(flagged) => self.flagged = flagged,
            Err(e) => tracing::warn!(room = %self.room.code, error = %e, "could not read the flagged pairs"),
        }
    }

    /// Reads the seated players' ratings (a failure keeps the ones known: the seats show them a while).
    pub(super) async fn refresh_ratings(&mut self) {
        let keys = self.people();
        if keys.is_empty() {
            return;
        }
        match self.db.ratings_of(keys, self.room.rules().table).await {
            Ok(found) => self.ratings = found.into_iter().map(|(key, skill)| (key, skill.points())).collect(),
            Err(e) => tracing::warn!(room = %self.room.code, error = %e, "could not read the players' ratings"),
        }
    }
}
