//! Cluster mode's ownership of rooms (migration 0005): the nodes and their leases (`nodes`), each room's
//! owner and fencing number (`room_owners`), and the fence check each append of a cluster node makes in
//! its own transaction, so that a node that lost a room can never write to it again.

use sqlx::AnyConnection;

use super::{Db, DbResult, StoreError};
use crate::domain::room::RoomCode;

/// A room's ownership in cluster mode: the node that runs it and the fencing number it took it with.
/// Every append of that node to that room checks that both still hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub node: String,
    pub number: i64,
}

impl Db {
    /// Cluster mode: node `id` (named `name`) joins, its lease alive until `until` (ms since the epoch).
    pub async fn join_cluster(&self, id: &str, name: &str, now: u64, until: u64) -> DbResult<()> {
        let (id, name) = (id.to_string(), name.to_string());
        self.run(move |s| async move {
            sqlx::query("INSERT INTO nodes (id, name, started_at, expires_at) VALUES ($1, $2, $3, $4)")
                .bind(&id)
                .bind(&name)
                .bind(now as i64)
                .bind(until as i64)
                .execute(&s.pool)
                .await
                .map(|_| ())
        })
        .await
    }

    /// Renews node `id`'s lease until `until`; `false` when its row is gone. A lease that ran out is
    /// renewed too: the rooms nobody took meanwhile are still the node's, and the fences keep it from
    /// writing to those that were taken.
    pub async fn renew_lease(&self, id: &str, until: u64) -> DbResult<bool> {
        let id = id.to_string();
        self.run(move |s| async move {
            let renewed = sqlx::query("UPDATE nodes SET expires_at = $1 WHERE id = $2")
                .bind(until as i64)
                .bind(&id)
                .execute(&s.pool)
                .await?;
            Ok::<_, StoreError>(renewed.rows_affected() == 1)
        })
        .await
    }

    /// Node `id` leaves: its lease ends now, so that its rooms are orphaned and taken on by the other
    /// nodes at once, clocks and all.
    pub async fn leave_cluster(&self, id: &str) -> DbResult<()> {
        let id = id.to_string();
        self.run(move |s| async move {
            sqlx::query("UPDATE nodes SET expires_at = 0 WHERE id = $1").bind(&id).execute(&s.pool).await.map(|_| ())
        })
        .await
    }

    /// Forgets the nodes whose leases ran out before `before` and which no room names any more.
    pub async fn forget_nodes(&self, before: u64) -> DbResult<u64> {
        self.run(move |s| async move {
            let forgotten =
                sqlx::query("DELETE FROM nodes WHERE expires_at < $1 AND id NOT IN (SELECT node FROM room_owners)")
                    .bind(before as i64)
                    .execute(&s.pool)
                    .await?;
            Ok::<_, StoreError>(forgotten.rows_affected())
        })
        .await
    }

    /// The nodes whose leases are alive at `now`.
    pub async fn live_nodes(&self, now: u64) -> DbResult<Vec<String>> {
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT id FROM nodes WHERE expires_at > $1 ORDER BY id")
                .bind(now as i64)
                .fetch_all(&s.pool)
                .await
        })
        .await
    }

    /// Node `node` takes room `code` if nobody alive holds it (or it holds it already): the new fencing
    /// number, or `None` when another live node owns the room.
    pub async fn take_room(&self, code: &RoomCode, node: &str, now: u64) -> DbResult<Option<i64>> {
        let (code, node) = (code.clone(), node.to_string());
        self.run(move |s| async move {
            sqlx::query_scalar(
                "INSERT INTO room_owners (code, node, fence) VALUES ($1, $2, 1) \
                 ON CONFLICT (code) DO UPDATE SET node = excluded.node, fence = room_owners.fence + 1 \
                 WHERE room_owners.node = excluded.node OR room_owners.node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $3) RETURNING fence",
            )
            .bind(code.as_str())
            .bind(&node)
            .bind(now as i64)
            .fetch_optional(&s.pool)
            .await
            .map_err(|e| match e {
                // The owner row names the room: a room that is not there cannot be taken.
                sqlx::Error::Database(e) if e.kind() == sqlx::error::ErrorKind::ForeignKeyViolation => {
                    StoreError::NoRoom(code.clone())
                }
                e => StoreError::Unavailable(e),
            })
        })
        .await
    }

    /// Node `node` lets room `code` go (its task ended), unless someone took it since.
    pub async fn release_room(&self, code: &RoomCode, fence: &Fence) -> DbResult<()> {
        let (code, fence) = (code.clone(), fence.clone());
        self.run(move |s| async move {
            sqlx::query("UPDATE room_owners SET node = '' WHERE code = $1 AND node = $2 AND fence = $3")
                .bind(code.as_str())
                .bind(&fence.node)
                .bind(fence.number)
                .execute(&s.pool)
                .await
                .map(|_| ())
        })
        .await
    }

    /// Node `fence.node` hands room `code` to node `to` (its task has ended), unless someone took it
    /// since: whether it did. The fencing number moves on, so nothing of the old owner's can be stored
    /// after; `to` takes the room (loading it from its log) when its clients next ask, or its lease's upkeep
    /// does if it died meanwhile.
    pub async fn hand_room(&self, code: &RoomCode, fence: &Fence, to: &str) -> DbResult<bool> {
        let (code, fence, to) = (code.clone(), fence.clone(), to.to_string());
        self.run(move |s| async move {
            let handed = sqlx::query(
                "UPDATE room_owners SET node = $1, fence = fence + 1 WHERE code = $2 AND node = $3 AND fence = $4",
            )
            .bind(&to)
            .bind(code.as_str())
            .bind(&fence.node)
            .bind(fence.number)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(handed.rows_affected() == 1)
        })
        .await
    }

    /// The fencing number node `node` holds room `code` with, if the database names it the owner.
    pub async fn room_fence(&self, code: &RoomCode, node: &str) -> DbResult<Option<i64>> {
        let (code, node) = (code.clone(), node.to_string());
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT fence FROM room_owners WHERE code = $1 AND node = $2")
                .bind(code.as_str())
                .bind(&node)
                .fetch_optional(&s.pool)
                .await
        })
        .await
    }

    /// The live node that owns room `code`, if any.
    pub async fn room_owner(&self, code: &RoomCode, now: u64) -> DbResult<Option<String>> {
        let code = code.clone();
        self.run(move |s| async move {
            sqlx::query_scalar(
                "SELECT node FROM room_owners WHERE code = $1 AND node IN (SELECT id FROM nodes WHERE expires_at > $2)",
            )
            .bind(code.as_str())
            .bind(now as i64)
            .fetch_optional(&s.pool)
            .await
        })
        .await
    }

    /// Rooms whose owner's lease has run out (a node that died): someone must take them on.
    pub async fn orphaned_rooms(&self, now: u64) -> DbResult<Vec<RoomCode>> {
        self.run(move |s| async move {
            let codes: Vec<String> = sqlx::query_scalar(
                "SELECT code FROM room_owners WHERE node <> '' AND node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $1) ORDER BY code",
            )
            .bind(now as i64)
            .fetch_all(&s.pool)
            .await?;
            Ok::<_, StoreError>(codes.into_iter().map(RoomCode::from).collect())
        })
        .await
    }
}

/// Fails with [`StoreError::Fenced`] unless every room of the batch is still its writer's, by its fencing
/// number (cluster mode), locking the owner rows until the commit: a node taking a room over waits for this
/// append, and then reads a log that has it. One statement for the whole batch (a group commit holds
/// entries of many rooms); a batch with a room taken since fails as a whole, its entries are then tried one
/// by one, and only that room's are refused.
pub(super) async fn check_fences<'a>(
    tx: &mut AnyConnection,
    fences: impl Iterator<Item = (&'a str, &'a Fence)>,
) -> DbResult<()> {
    let mut fences: Vec<(&str, &Fence)> = fences.collect();
    fences.sort_by(|a, b| a.0.cmp(b.0).then(a.1.number.cmp(&b.1.number)).then(a.1.node.cmp(&b.1.node)));
    fences.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    if fences.is_empty() {
        return Ok(());
    }
    let rows: Vec<String> =
        (0..fences.len()).map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3)).collect();
    let sql = format!("UPDATE room_owners SET fence = fence WHERE (code, node, fence) IN ({})", rows.join(", "));
    // Safe: the statement is built from placeholders only; the values are bound.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for (code, fence) in &fences {
        query = query.bind(*code).bind(&fence.node).bind(fence.number);
    }
    let held = query.execute(&mut *tx).await?;
    if held.rows_affected() != fences.len() as u64 {
        // A batch's rooms are then tried one by one: only the room taken since is refused.
        let code = fences.first().map(|(code, _)| RoomCode::from(*code)).unwrap_or_else(|| RoomCode::from(""));
        return Err(StoreError::Fenced(code));
    }
    Ok(())
}

impl Db {
    /// Node `node` takes tournament `id` to drive it, if nobody drives it, this node does, or its driver's
    /// node let its lease run out (as [`Db::take_room`]): the fencing number it drives under.
    pub async fn take_tournament(&self, id: &str, node: &str, now: u64) -> DbResult<Option<i64>> {
        let (id, node) = (id.to_string(), node.to_string());
        self.run(move |s| async move {
            sqlx::query_scalar(
                "INSERT INTO tournament_owners (id, node, fence) VALUES ($1, $2, 1) \
                 ON CONFLICT (id) DO UPDATE SET node = excluded.node, fence = tournament_owners.fence + 1 \
                 WHERE tournament_owners.node = excluded.node OR tournament_owners.node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $3) RETURNING fence",
            )
            .bind(&id)
            .bind(&node)
            .bind(now as i64)
            .fetch_optional(&s.pool)
            .await
        })
        .await
    }

    /// The open tournaments no live node drives (cluster mode), for a node to take.
    pub async fn undriven_tournaments(&self, now: u64) -> DbResult<Vec<String>> {
        self.run(move |s| async move {
            sqlx::query_scalar(
                "SELECT t.id FROM tournaments t LEFT JOIN tournament_owners o ON o.id = t.id \
                 WHERE t.phase IN ('registering', 'running') AND (o.node IS NULL OR o.node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $1))",
            )
            .bind(now as i64)
            .fetch_all(&s.pool)
            .await
        })
        .await
    }

    /// Node `fence.node` lets tournament `id` go (it is over, or the node stops), unless it was taken since.
    pub async fn release_tournament(&self, id: &str, fence: &Fence) -> DbResult<()> {
        let (id, fence) = (id.to_string(), fence.clone());
        self.run(move |s| async move {
            sqlx::query("UPDATE tournament_owners SET node = '' WHERE id = $1 AND node = $2 AND fence = $3")
                .bind(&id)
                .bind(&fence.node)
                .bind(fence.number)
                .execute(&s.pool)
                .await
                .map(|_| ())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Append, test_room};

    fn fenced_append(n: u64, node: &str, number: i64) -> Append {
        Append {
            code: "FENCED".into(),
            n,
            at: n,
            entry: r#"{"type":"close"}"#.into(),
            closes_room: false,
            finished_deal: None,
            finished_run: None,
            fence: Some(Fence { node: node.into(), number }),
        }
    }

    #[tokio::test]
    async fn a_batch_with_a_room_taken_since_stores_the_other_rooms_entries_and_refuses_only_that_rooms() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        db.join_cluster("a", "a", 0, 1_000).await.unwrap();
        db.join_cluster("b", "b", 0, 5_000).await.unwrap();
        let (kept, fenced) = (test_room(&db, "KEPT").await, test_room(&db, "FENCED").await);
        for code in [&kept, &fenced] {
            assert_eq!(db.take_room(code, "a", 10).await.unwrap(), Some(1));
        }
        // a's lease runs out and b takes one of its two rooms; a appends to both at once.
        assert_eq!(db.take_room(&fenced, "b", 2_000).await.unwrap(), Some(2));
        let kept = Append { code: kept, ..fenced_append(1, "a", 1) };
        let (kept, fenced) = tokio::join!(db.append(kept), db.append(fenced_append(1, "a", 1)));
        kept.unwrap();
        assert!(matches!(fenced.unwrap_err(), StoreError::Fenced(code) if code.as_str() == "FENCED"));
        let stored = db
            .run(|s| async move {
                sqlx::query_scalar::<_, String>("SELECT code FROM room_log ORDER BY code").fetch_all(&s.pool).await
            })
            .await
            .unwrap();
        assert_eq!(stored, ["KEPT"], "only the room still held got its entry");
    }

    #[tokio::test]
    async fn a_room_has_one_live_owner_and_a_node_that_lost_it_can_never_append_again() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        let fenced = test_room(&db, "FENCED").await;
        db.join_cluster("a", "a", 0, 1_000).await.unwrap();
        db.join_cluster("b", "b", 0, 1_000).await.unwrap();
        assert_eq!(db.take_room(&fenced, "a", 10).await.unwrap(), Some(1));
        assert_eq!(db.take_room(&fenced, "b", 10).await.unwrap(), None, "a's lease is alive");
        assert_eq!(db.room_owner(&fenced, 10).await.unwrap().as_deref(), Some("a"));
        db.append(fenced_append(1, "a", 1)).await.unwrap();

        // a stops renewing; once its lease has run out, b takes the room with the next fencing number.
        db.renew_lease("b", 5_000).await.unwrap();
        assert_eq!(db.orphaned_rooms(2_000).await.unwrap(), [RoomCode::from("FENCED")]);
        assert_eq!(db.take_room(&fenced, "b", 2_000).await.unwrap(), Some(2));
        let late = db.append(fenced_append(2, "a", 1)).await.unwrap_err();
        assert!(matches!(late, StoreError::Fenced(_)), "{late}");
        db.append(fenced_append(2, "b", 2)).await.unwrap();
        // a comes back to life and renews: the room stays b's, and a's appends stay refused.
        db.renew_lease("a", 5_000).await.unwrap();
        assert!(matches!(db.append(fenced_append(3, "a", 1)).await.unwrap_err(), StoreError::Fenced(_)));
        assert_eq!(db.room_owner(&fenced, 2_000).await.unwrap().as_deref(), Some("b"));

        // b lets the room go: anyone takes it, with a number never used before.
        db.release_room(&fenced, &Fence { node: "b".into(), number: 2 }).await.unwrap();
        assert_eq!(db.room_owner(&fenced, 2_000).await.unwrap(), None);
        assert!(db.orphaned_rooms(2_000).await.unwrap().is_empty(), "a room let go is no orphan");
        assert_eq!(db.take_room(&fenced, "a", 2_000).await.unwrap(), Some(3));
        db.leave_cluster("a").await.unwrap();
        assert_eq!(db.live_nodes(2_000).await.unwrap(), ["b"]);
        assert_eq!(
            db.orphaned_rooms(2_000).await.unwrap(),
            [RoomCode::from("FENCED")],
            "a node that leaves hands its rooms on"
        );
        assert_eq!(db.forget_nodes(3_000).await.unwrap(), 0, "a node a room still names is kept");
        assert_eq!(db.take_room(&fenced, "b", 2_000).await.unwrap(), Some(4));
        assert_eq!(db.forget_nodes(3_000).await.unwrap(), 1, "then it is forgotten");
    }

    #[tokio::test]
    async fn a_room_handed_to_another_node_is_theirs_and_the_giver_can_never_append_again() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        let handed = test_room(&db, "HANDED").await;
        db.join_cluster("a", "a", 0, 1_000).await.unwrap();
        db.join_cluster("b", "b", 0, 1_000).await.unwrap();
        assert_eq!(db.take_room(&handed, "a", 10).await.unwrap(), Some(1));
        let a = Fence { node: "a".into(), number: 1 };
        assert!(!db.hand_room(&handed, &Fence { node: "b".into(), number: 1 }, "b").await.unwrap(), "b holds nothing");
        assert!(db.hand_room(&handed, &a, "b").await.unwrap());
        assert_eq!(db.room_owner(&handed, 10).await.unwrap().as_deref(), Some("b"));
        assert!(matches!(
            db.append(Append { code: "HANDED".into(), ..fenced_append(1, "a", 1) }).await.unwrap_err(),
            StoreError::Fenced(_)
        ));
        assert!(!db.hand_room(&handed, &a, "a").await.unwrap(), "a room handed on is handed once");
        assert_eq!(db.take_room(&handed, "a", 10).await.unwrap(), None, "b's lease is alive");
        // b takes what it was handed, with a number of its own.
        assert_eq!(db.room_fence(&handed, "b").await.unwrap(), Some(2), "handed with the next number");
        assert_eq!(db.room_fence(&handed, "a").await.unwrap(), None, "a holds it no more");
        assert_eq!(db.take_room(&handed, "b", 10).await.unwrap(), Some(3));
        db.append(Append { code: "HANDED".into(), ..fenced_append(1, "b", 3) }).await.unwrap();
    }
}
