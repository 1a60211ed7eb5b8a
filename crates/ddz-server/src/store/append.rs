//! Appending to a room's log. An entry to store, as the room prepares it ([`Append::of`]): its log line
//! and, when it ends a deal or a run, what that adds to the deal records, the stats and the boards (worked
//! out from the room as the entry left it, so that the database thread only writes). And the group commit
//! that writes them: [`Db::append`] queues an entry; the database thread's writer takes every entry
//! waiting and stores them in one transaction (one statement for plain log lines), checking cluster
//! fences and writing what finished deals add, and answers each.

use ddz_bot::BotKind;
use ddz_engine::{Action, Deal, DealRecord};
use serde::{Deserialize, Serialize};
use sqlx::{AnyConnection, Executor};
use tokio::sync::{mpsc, oneshot};

use super::ownership::{self, Fence};
use super::{Db, DbResult, Store, results};
use crate::domain::challenge::rally_closed;
use crate::domain::fairness::{Integrity, Listing, Unrated, Verdict, verdicts};
use crate::domain::rating::{RatedDeal, rated_deal};
use crate::domain::room::{Entry, Occupant, Room, Stamped};
use crate::domain::stats::{BoardLine, StatLine, board_lines, stat_lines};

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

/// A finished deal: its number in the room, its replayable record (JSON), and what it adds to stats,
/// ratings and boards, now or (a rally deal while its rally is open) when the rally closes.
pub struct FinishedDeal {
    pub number: u32,
    pub record: String,
    pub results: DealResults,
    /// The rally's date while it is open: the results wait for its close (docs/ratings.md).
    pub held_for: Option<String>,
    /// What the deal does for each seated person, as their result panels say (`None`: a bot, or a table
    /// that is not rated).
    pub verdicts: Vec<Option<Verdict>>,
}

/// What a finished deal adds beyond its record: every person's stats; the ratings it moves (the store reads
/// the players' ratings and writes the new ones in the same transaction); the money boards' lines; and who
/// sat with whom, for the boards' eligibility and the pairs an operator is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealResults {
    pub stats: Vec<StatLine>,
    pub rating: Option<RatedDeal>,
    pub boards: Vec<BoardLine>,
    pub table: Company,
}

/// Who sat at a rated deal: its people, and the bots (each kind one opponent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    pub people: Vec<Person>,
    pub bots: Vec<BotKind>,
    /// The deal had a winner: it counts toward how often people sit together.
    pub played: bool,
}

/// One person at a rated deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    /// The deal counts for them: toward their rated deals and distinct opponents.
    pub counted: bool,
    /// They passed on nearly every chance to beat an opponent (`crate::domain::fairness`).
    pub threw: bool,
}

impl Append {
    /// Whether storing this entry is its log line alone (no ownership check, no deal or room to update).
    pub fn is_log_line_only(&self) -> bool {
        self.fence.is_none() && !self.closes_room && self.finished_deal.is_none() && self.finished_run.is_none()
    }

    /// What to store for `stamped`, applied to give `after`; `integrity` tells what the room's task knows
    /// of its seats beyond the fold (who shares an address, a browser, a flagged pair), asked only when a
    /// deal has finished.
    pub fn of(stamped: &Stamped, after: &Room, integrity: impl FnOnce() -> Integrity) -> Append {
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
            finished_deal: after
                .deal
                .as_ref()
                .filter(|_| finished)
                .map(|deal| FinishedDeal::of(deal, after, stamped.at, &integrity())),
            fence: None,
        }
    }
}

impl FinishedDeal {
    fn of(deal: &Deal, room: &Room, at: u64, integrity: &Integrity) -> FinishedDeal {
        let humans: Vec<bool> = room.seats.iter().map(|s| s.as_ref().is_some_and(|o| !o.is_bot())).collect();
        let mut verdicts = if room.mode.rated() {
            verdicts(deal, &humans, &room.conduct, integrity, room.leaver)
        } else {
            vec![None; humans.len()]
        };
        let stats = stat_lines(deal, room);
        let counted: Vec<&str> = (0..humans.len())
            .filter(|&s| verdicts[s].as_ref().is_some_and(|v| v.counted))
            .filter_map(|s| room.seats[s].as_ref().map(Occupant::name))
            .collect();
        let mut table = Company { played: deal.result().is_some_and(|r| r.winner.is_some()), ..Company::default() };
        if room.mode.rated() {
            for (seat, occupant) in room.seats.iter().enumerate() {
                match occupant {
                    Some(Occupant::Human { name }) => table.people.push(Person {
                        name: name.clone(),
                        counted: counted.contains(&name.as_str()),
                        threw: room.conduct[seat].threw(),
                    }),
                    Some(Occupant::Bot { level, .. }) => table.bots.push(*level),
                    None => {}
                }
            }
        }
        let results = DealResults {
            boards: board_lines(&stats, &counted),
            rating: rated_deal(deal, room, &verdicts),
            stats,
            table,
        };
        let held_for = room.challenge.as_ref().and_then(|c| c.rally.clone()).filter(|date| !rally_closed(date, at));
        if held_for.is_some() {
            for verdict in verdicts.iter_mut().flatten().filter(|v| v.counted) {
                verdict.reason = Some(Unrated::RallyHeld);
            }
        }
        FinishedDeal {
            number: room.ledger.deals,
            record: serde_json::to_string(&DealRecord::of(deal, room.names())).expect("records serialise"),
            results,
            held_for,
            verdicts,
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

impl Db {
    /// Stores an entry (and, when it ends a deal, the deal's record and stats) in one transaction.
    /// Entries that arrive while a batch is written wait for the next one, so a busy server stores many
    /// rooms' entries per transaction.
    pub async fn append(&self, append: Append) -> DbResult<()> {
        self.check_reachable()?;
        let (reply, answer) = oneshot::channel();
        self.appends.send((append, reply)).map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// The most entries one transaction stores.
const MAX_BATCH: usize = 512;

/// The group commit: takes every entry waiting (up to [`MAX_BATCH`]), stores them in one transaction
/// and answers each, until every [`Db`] handle is gone.
pub(super) async fn write_batches(
    store: Store,
    mut pending: mpsc::UnboundedReceiver<(Append, oneshot::Sender<DbResult<()>>)>,
) {
    let mut waiting = Vec::with_capacity(MAX_BATCH);
    while pending.recv_many(&mut waiting, MAX_BATCH).await > 0 {
        let (batch, replies): (Vec<Append>, Vec<_>) = waiting.drain(..).unzip();
        crate::metrics::histogram!(crate::metrics::BATCH_ENTRIES).record(batch.len() as f64);
        for (result, reply) in store.append_batch(&batch).await.into_iter().zip(replies) {
            let _ = reply.send(result);
        }
    }
}

impl Store {
    /// Stores appends in one transaction. If that fails, each is tried in its own, so that one bad
    /// entry cannot fail the others of its batch; the results are in the batch's order.
    async fn append_batch(&self, batch: &[Append]) -> Vec<DbResult<()>> {
        if self.append_in_one_transaction(batch).await.is_ok() {
            return batch.iter().map(|_| Ok(())).collect();
        }
        let mut results = Vec::with_capacity(batch.len());
        for append in batch {
            results.push(self.append_in_one_transaction(std::slice::from_ref(append)).await);
        }
        results
    }

    async fn append_in_one_transaction(&self, appends: &[Append]) -> DbResult<()> {
        if appends.iter().all(Append::is_log_line_only) {
            // One statement is a transaction of its own: one round trip to the database for the whole
            // batch, where BEGIN, an INSERT per entry and COMMIT each cost one (and two thread switches
            // into sqlx's SQLite worker).
            return insert_log_lines(&self.pool, appends).await;
        }
        let mut tx = self.pool.begin().await?;
        ownership::check_fences(&mut tx, appends).await?;
        insert_log_lines(&mut *tx, appends).await?;
        for append in appends {
            write_deal_and_room_changes(&mut tx, self.listing, append).await?;
        }
        Ok(tx.commit().await?)
    }
}

/// The entries' log lines, in one statement (at most [`MAX_BATCH`] rows, 4 parameters each: far below
/// SQLite's and PostgreSQL's limits).
async fn insert_log_lines<'c>(executor: impl Executor<'c, Database = sqlx::Any>, appends: &[Append]) -> DbResult<()> {
    let rows: Vec<String> = (0..appends.len())
        .map(|i| format!("(${}, ${}, ${}, ${})", 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4))
        .collect();
    let sql = format!("INSERT INTO room_log (code, n, at, entry) VALUES {}", rows.join(", "));
    // Safe: the statement is built from placeholders only; the values are bound.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for append in appends {
        query = query.bind(&append.code).bind(append.n as i64).bind(append.at as i64).bind(&append.entry);
    }
    query.execute(executor).await?;
    Ok(())
}

/// What an entry changes beyond its log line: a closed room, a finished run, a finished deal's record
/// and stats.
async fn write_deal_and_room_changes(tx: &mut AnyConnection, listing: Listing, append: &Append) -> DbResult<()> {
    if append.closes_room {
        sqlx::query("UPDATE rooms SET closed_at = $1 WHERE code = $2")
            .bind(append.at as i64)
            .bind(&append.code)
            .execute(&mut *tx)
            .await?;
    }
    if let Some(run) = &append.finished_run {
        sqlx::query(
            "UPDATE challenges SET finished_at = $1, net = $2, deals = $3, best_pot = $4, nets = $5 \
                 WHERE code = $6 AND finished_at IS NULL",
        )
        .bind(append.at as i64)
        .bind(run.net)
        .bind(run.deals)
        .bind(run.best_pot)
        .bind(&run.nets)
        .bind(&append.code)
        .execute(&mut *tx)
        .await?;
    }
    if let Some(deal) = &append.finished_deal {
        sqlx::query("INSERT INTO deals (code, number, finished_at, record) VALUES ($1, $2, $3, $4)")
            .bind(&append.code)
            .bind(i64::from(deal.number))
            .bind(append.at as i64)
            .bind(&deal.record)
            .execute(&mut *tx)
            .await?;
        match &deal.held_for {
            Some(rally) => {
                results::hold_results(tx, &append.code, deal.number, rally, append.at, &deal.results).await?
            }
            None => {
                let (at, number) = (append.at, deal.number);
                results::write_results(tx, listing, at, at, &append.code, number, &deal.results).await?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::room::Mode;
    use crate::store::StoreError;

    fn sit(n: u64) -> Append {
        let entry = crate::domain::room::Entry::Sit { seat: 0, name: format!("P{n}") };
        Append {
            code: "BATCH".into(),
            n,
            at: n,
            entry: serde_json::to_string(&entry).unwrap(),
            closes_room: false,
            finished_deal: None,
            finished_run: None,
            fence: None,
        }
    }

    #[tokio::test]
    async fn a_group_commit_stores_every_good_entry_of_its_batch_and_refuses_only_the_bad_one() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        db.create_room("BATCH", "house", Mode::Invite, "Ann", 1).await.unwrap();
        // The writer's own batches, on the database thread.
        let append_batch =
            |batch: Vec<Append>| db.run(move |s| async move { Ok::<_, StoreError>(s.append_batch(&batch).await) });
        // Log lines alone go in one statement.
        assert!(append_batch(vec![sit(1), sit(2)]).await.unwrap().iter().all(Result::is_ok));
        // A duplicate number fails that statement: each entry is then tried alone, the room's close
        // (which takes a transaction) among them.
        let close = Append { closes_room: true, entry: r#"{"entry":"close"}"#.into(), ..sit(4) };
        let results = append_batch(vec![sit(3), sit(2), close]).await.unwrap();
        assert_eq!(results.iter().map(Result::is_ok).collect::<Vec<_>>(), [true, false, true]);
        let room = db.room("BATCH").await.unwrap().unwrap();
        assert_eq!(room.entries.iter().map(|e| (e.n, e.at)).collect::<Vec<_>>(), [(1, 1), (2, 2), (3, 3), (4, 4)]);
        assert_eq!(room.entries[3].entry, crate::domain::room::Entry::Close);
        assert!(db.open_rooms().await.unwrap().is_empty(), "the close is stored with its entry");
    }
}
