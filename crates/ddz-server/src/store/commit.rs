//! The group commit: [`Db::append`] queues an entry ([`Append`]) for the database thread's writer, which
//! takes every entry waiting, stores them in one transaction (one statement when they are log lines alone)
//! and answers each. In the same transaction: each cluster node's fence (`ownership.rs`), a closed room, a
//! finished run, and a finished deal's record with what it adds (`results.rs`). A batch that fails is
//! tried again entry by entry, so that one bad entry fails only its own.

use sqlx::{AnyConnection, Executor};
use tokio::sync::{mpsc, oneshot};

use super::append::Append;
use super::{Db, DbResult, Store, challenges, ownership, results};
use crate::domain::fairness::Listing;

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
        let fences = appends.iter().filter_map(|a| Some((a.code.as_str(), a.fence.as_ref()?)));
        ownership::check_fences(&mut tx, fences).await?;
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
        query = query.bind(append.code.as_str()).bind(append.n as i64).bind(append.at as i64).bind(&append.entry);
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
            .bind(append.code.as_str())
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
        .bind(append.code.as_str())
        .execute(&mut *tx)
        .await?;
        challenges::keep_best(tx, append.code.as_str()).await?;
    }
    if let Some(deal) = &append.finished_deal {
        sqlx::query("INSERT INTO deals (code, number, finished_at, record) VALUES ($1, $2, $3, $4)")
            .bind(append.code.as_str())
            .bind(i64::from(deal.number))
            .bind(append.at as i64)
            .bind(&deal.record)
            .execute(&mut *tx)
            .await?;
        match &deal.held_for {
            Some(rally) => {
                results::hold_results(tx, append.code.as_str(), deal.number, rally, append.at, &deal.results).await?
            }
            None => {
                let (at, number) = (append.at, deal.number);
                results::write_results(tx, listing, at, at, append.code.as_str(), number, &deal.results).await?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{StoreError, test_room};

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
        let batch = test_room(&db, "BATCH").await;
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
        let room = db.room(&batch).await.unwrap().unwrap();
        assert_eq!(room.entries.iter().map(|e| (e.n, e.at)).collect::<Vec<_>>(), [(1, 1), (2, 2), (3, 3), (4, 4)]);
        assert_eq!(room.entries[3].entry, crate::domain::room::Entry::Close);
        assert!(db.open_rooms().await.unwrap().is_empty(), "the close is stored with its entry");
    }
}
