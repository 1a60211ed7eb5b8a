//! Puzzles from the deals played here (docs/puzzles.md): a finished deal is mined on a blocking thread and a
//! puzzle found is stored with the room and deal it came from. One deal at a time a server: a deal that
//! finishes while another is mined is let go (puzzles are plenty; the tables' bots come first). A rally's
//! deals, held until the rally closes, are not mined.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ddz_bot::puzzles::{Source, mine};
use ddz_engine::{Action, DealSetup};

use super::*;

/// The server's one mining at a time: set while a deal is mined.
#[derive(Clone, Default)]
pub struct Mining(Arc<AtomicBool>);

/// Lets the next deal be mined when the current one is done, however it ends.
struct Done(Arc<AtomicBool>);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl RoomTask {
    /// Mines deal `number` (just finished) in the background, unless another deal is being mined.
    pub(super) fn mine(&self, number: u32) {
        let Some(mining) = &self.env.mining else { return };
        let Some(deal) = self.room.deal.as_ref() else { return };
        if mining.0.swap(true, Ordering::AcqRel) {
            return;
        }
        let done = Done(mining.0.clone());
        let (setup, actions) = (deal.setup().clone(), deal.actions().to_vec());
        let source = Source { room: Some(self.room.code.to_string()), number: Some(number), ..Source::default() };
        let (db, now) = (self.db.clone(), self.clock.now_ms());
        self.env.background.spawn(async move {
            let _done = done;
            mine_and_store(&db, setup, actions, source, now).await;
        });
    }
}

/// Mines one deal on a blocking thread and stores the puzzle found: its id.
pub(crate) async fn mine_and_store(
    db: &Db,
    setup: DealSetup,
    actions: Vec<Action>,
    source: Source,
    now: u64,
) -> Option<String> {
    let (room, number) = (source.room.clone().unwrap_or_default(), source.number.unwrap_or_default());
    let puzzle = tokio::task::spawn_blocking(move || mine(&setup, &actions, source)).await.ok()??;
    let id = puzzle.id.clone();
    match db.add_puzzles(vec![puzzle], now).await {
        Ok(_) => tracing::info!(room, number, puzzle = %id, "a puzzle mined from a deal"),
        Err(e) => tracing::warn!(room, number, error = %e, "a mined puzzle was not stored"),
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_bot::BotKind;
    use ddz_bot::puzzles::bot_game;
    use ddz_engine::{Rules, Seed, Start};

    #[tokio::test]
    async fn a_deal_with_a_puzzle_in_it_adds_the_puzzle_with_its_room_and_number() {
        let db = Db::open("sqlite::memory:").await.expect("a database");
        let (setup, deal) = (0..400u64)
            .map(|seed| DealSetup::shuffled(Rules::no_shuffle(false), Seed::from_u64(seed), Start::Seat(0)))
            .map(|setup| (setup.clone(), bot_game(setup, BotKind::Normal)))
            .find(|(setup, deal)| mine(setup, deal.actions(), Source::default()).is_some())
            .expect("bot games have puzzles");
        let source = Source { room: Some("ABC234".into()), number: Some(7), ..Source::default() };
        let id = mine_and_store(&db, setup, deal.actions().to_vec(), source, 1).await.expect("a puzzle");
        let stored = db.puzzle(&id).await.unwrap().expect("stored");
        assert_eq!((stored.puzzle.source.room.as_deref(), stored.puzzle.source.number), (Some("ABC234"), Some(7)));
        assert!(stored.puzzle.source.step > 0, "the position's place in the deal");
    }
}
