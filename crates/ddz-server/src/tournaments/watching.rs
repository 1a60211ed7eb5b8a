//! Who may watch a tournament's table (docs/tournaments.md, "Other tables"): one decision, made at every
//! edge a table is seen from (a spectator's `watch`, a `hello` under a name, `GET /api/rooms/{code}`),
//! never in the room's own message handling. The rule itself is the fold's
//! ([`Tournament::may_watch`](crate::domain::tournament::Tournament::may_watch)).

use super::{Desk, DeskError};
use crate::domain::names::PlayerName;
use crate::domain::room::{Mode, RoomCode};
use crate::wire::protocol::{ErrorCode, Refused};

impl Desk {
    /// Whether someone coming from `address` (as `name`, or as a spectator) may see table `code`: any room
    /// that is no tournament's table, and a tournament's table unless they play at another table of it.
    /// What cannot be read is refused, never let in.
    pub async fn may_watch(
        &self,
        code: &RoomCode,
        address: Option<&str>,
        name: Option<&PlayerName>,
    ) -> Result<(), DeskError> {
        // The summaries every node keeps say which rooms are tournaments' tables; a room running nowhere
        // is looked up.
        let known = self.rooms.watch_lobby().borrow().get(code).map(|summary| summary.mode);
        if known.is_some_and(|mode| mode != Mode::Tournament) {
            return Ok(());
        }
        let Some(id) = self.rooms.db().tournament_of_table(code).await? else { return Ok(()) };
        if self.read(&id, |tournament| tournament.may_watch(code, address, name.map(PlayerName::key))).await? {
            return Ok(());
        }
        let message = "you play at another table of this tournament: its other tables open to you once you are out";
        Err(DeskError::Table(Refused::new(ErrorCode::EntrantWatching, message)))
    }
}
