//! Persistence through sqlx: rooms, their append-only logs, finished deals as replayable records, player
//! stats, challenges and reviews, on SQLite (the default: one file) or PostgreSQL (`postgres://…`), and in
//! cluster mode the nodes' leases and the rooms' owners with their fencing numbers ([`Fence`]). Both go
//! through sqlx's `Any` driver with the same SQL (`$1` placeholders, `ON CONFLICT`, `IS NOT DISTINCT FROM`,
//! integers only); each has its own migrations, embedded in the binary.
//!
//! Only storing and loading: what an entry implies (a deal's record, the stats it earns, a run's result)
//! is worked out by the room ([`Append::of`]) and the stats module, and what is read back is checked as it
//! is loaded (a mode or rules value the server does not know is an error, never a default).

mod append;
mod boards;
mod queue;
mod rekey;
mod results;

pub use append::{Append, Fence};
pub use boards::FlaggedPair;
pub use queue::Ticket;

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
#[cfg(feature = "testing")]
use std::sync::Arc;
#[cfg(feature = "testing")]
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyConnection, AnyPool, Executor, FromRow, SqlSafeStr};
use tokio::sync::{mpsc, oneshot};

use crate::domain::challenge::{BoardRow, Challenge, ChallengeKind, FinishedRun, RallyResult, rank_runs};
use crate::domain::fairness::Listing;
use crate::domain::names::{self, Digests, PlayerName};
use crate::domain::room::{Mode, Stamped};

/// The database, served by its own thread: the rooms' tasks await their writes without the database's
/// own timers living in the game's runtime (which lets tests pause the game clock).
#[derive(Clone)]
pub struct Db {
    jobs: mpsc::UnboundedSender<Job>,
    /// Entries to store, written in batches: one transaction for all that wait (group commit).
    appends: mpsc::UnboundedSender<(Append, oneshot::Sender<DbResult<()>>)>,
    /// Tests only (feature `testing`): a simulated outage.
    #[cfg(feature = "testing")]
    outage: Outage,
}

/// A simulated outage (feature `testing`): while `down`, every request fails as if the database could not
/// be reached; `refused` counts the requests refused so.
#[cfg(feature = "testing")]
#[derive(Clone, Default)]
struct Outage {
    down: Arc<AtomicBool>,
    refused: Arc<AtomicU64>,
}

/// The most entries one transaction stores.
const MAX_BATCH: usize = 512;

type Job = Box<dyn FnOnce(Store) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// The connection pool, on the database thread, and what a name needs to be listed on the boards.
#[derive(Clone)]
struct Store {
    pool: AnyPool,
    listing: Listing,
}

/// The databases the server runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn of(url: &str) -> Result<Backend, sqlx::Error> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            Err(sqlx::Error::Configuration(format!("{url:?} is no sqlite:// or postgres:// URL").into()))
        }
    }
}

/// What asking to start a challenge found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeStart {
    /// A new run in a new room.
    Created(String),
    /// The name's unfinished run of that kind (and rally): resume it.
    Unfinished(String),
    /// The name has already played this rally (one attempt per name per rally).
    RallyPlayed,
}

pub type DbResult<T> = Result<T, StoreError>;

/// The same schema for each backend: SQLite's integers are 64-bit by nature, PostgreSQL's are written
/// `BIGINT`.
fn migrator(backend: Backend) -> Migrator {
    let migration = |version, name: &'static str, sql: &'static str| {
        Migration::new(version, name.into(), MigrationType::Simple, sql.into_sql_str(), false)
    };
    Migrator::with_migrations(match backend {
        Backend::Sqlite => vec![
            migration(1, "rooms", include_str!("../../migrations/0001_rooms.sql")),
            migration(2, "challenges", include_str!("../../migrations/0002_challenges.sql")),
            migration(3, "reviews", include_str!("../../migrations/0003_reviews.sql")),
            migration(4, "one unfinished run", include_str!("../../migrations/0004_one_unfinished_run.sql")),
            migration(5, "room owners", include_str!("../../migrations/0005_room_owners.sql")),
            migration(6, "protected names", include_str!("../../migrations/0006_protected_names.sql")),
            migration(7, "ratings", include_str!("../../migrations/0007_ratings.sql")),
            migration(8, "match queue", include_str!("../../migrations/0008_match_queue.sql")),
            migration(9, "fair competition", include_str!("../../migrations/0009_fair_competition.sql")),
        ],
        Backend::Postgres => vec![
            migration(1, "rooms", include_str!("../../migrations/postgres/0001_rooms.sql")),
            migration(2, "challenges", include_str!("../../migrations/postgres/0002_challenges.sql")),
            migration(3, "reviews", include_str!("../../migrations/postgres/0003_reviews.sql")),
            migration(4, "one unfinished run", include_str!("../../migrations/postgres/0004_one_unfinished_run.sql")),
            migration(5, "room owners", include_str!("../../migrations/postgres/0005_room_owners.sql")),
            migration(6, "protected names", include_str!("../../migrations/postgres/0006_protected_names.sql")),
            migration(7, "ratings", include_str!("../../migrations/postgres/0007_ratings.sql")),
            migration(8, "match queue", include_str!("../../migrations/postgres/0008_match_queue.sql")),
            migration(9, "fair competition", include_str!("../../migrations/postgres/0009_fair_competition.sql")),
        ],
    })
}

/// Why the store did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another node has taken the room since this node took it: the room's task here can never write to
    /// it again, and ends.
    #[error("room {0} now belongs to another node")]
    Fenced(String),
    /// There is no such room.
    #[error("there is no room {0}")]
    NoRoom(String),
    /// Something stored does not read back (a value this server does not know, a broken record).
    #[error("stored data does not read back: {0}")]
    Corrupt(String),
    /// The database could not be reached, or refused the statement.
    #[error("the database is unavailable: {0}")]
    Unavailable(#[from] sqlx::Error),
}

/// A stored room: how it was created and its log.
pub struct StoredRoom {
    pub code: String,
    pub rules: ddz_engine::Rules,
    pub mode: Mode,
    pub host: String,
    pub challenge: Option<Challenge>,
    pub entries: Vec<Stamped>,
}

impl Db {
    /// Opens (creating if needed) the database at `url` (`sqlite://ddz.db`), migrates it, and starts the
    /// database thread.
    pub async fn open(url: &str) -> DbResult<Db> {
        Db::open_listing(url, Listing::DEFAULT).await
    }

    /// [`Db::open`], with what a name needs to be listed on the boards.
    pub async fn open_listing(url: &str, listing: Listing) -> DbResult<Db> {
        let (jobs, mut queue) = mpsc::unbounded_channel::<Job>();
        let (appends, pending) = mpsc::unbounded_channel();
        let (ready, opened) = oneshot::channel();
        let url = url.to_string();
        std::thread::Builder::new()
            .name("ddz-db".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
                runtime.block_on(async move {
                    let store = match Store::open(&url, listing).await {
                        Ok(store) => store,
                        Err(e) => {
                            let _ = ready.send(Err(e));
                            return;
                        }
                    };
                    let _ = ready.send(Ok(()));
                    let writer = tokio::spawn(write_batches(store.clone(), pending));
                    let mut running = tokio::task::JoinSet::new();
                    while let Some(job) = queue.recv().await {
                        running.spawn(job(store.clone()));
                    }
                    while running.join_next().await.is_some() {}
                    let _ = writer.await;
                    store.pool.close().await;
                });
            })
            .map_err(sqlx::Error::Io)?;
        opened.await.map_err(|_| sqlx::Error::PoolClosed)??;
        Ok(Db {
            jobs,
            appends,
            #[cfg(feature = "testing")]
            outage: Outage::default(),
        })
    }

    /// Makes every request fail (`true`) as if the database were down, or work again (`false`): for
    /// tests of the server's back-off and readiness (feature `testing`).
    #[cfg(feature = "testing")]
    pub fn simulate_outage(&self, down: bool) {
        self.outage.down.store(down, Ordering::Relaxed);
    }

    /// How many requests a simulated outage has refused (feature `testing`).
    #[cfg(feature = "testing")]
    pub fn refused(&self) -> u64 {
        self.outage.refused.load(Ordering::Relaxed)
    }

    /// Whether the database answers a trivial query (the readiness check).
    pub async fn ping(&self) -> DbResult<()> {
        self.run(|s| async move { sqlx::query("SELECT 1").execute(&s.pool).await.map(|_| ()) }).await
    }

    /// Fails while a simulated outage lasts (feature `testing`); without the feature, always passes.
    fn check_reachable(&self) -> DbResult<()> {
        #[cfg(feature = "testing")]
        if self.outage.down.load(Ordering::Relaxed) {
            self.outage.refused.fetch_add(1, Ordering::Relaxed);
            return Err(StoreError::Unavailable(sqlx::Error::PoolTimedOut));
        }
        Ok(())
    }

    async fn run<T, E, F, Fut>(&self, work: F) -> DbResult<T>
    where
        T: Send + 'static,
        F: FnOnce(Store) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, E>> + Send + 'static,
        E: Into<StoreError>,
    {
        self.check_reachable()?;
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |store| {
            Box::pin(async move {
                let _ = reply.send(work(store).await.map_err(Into::into));
            })
        });
        self.jobs.send(job).map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| StoreError::Unavailable(sqlx::Error::PoolClosed))?
    }

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
    pub async fn take_room(&self, code: &str, node: &str, now: u64) -> DbResult<Option<i64>> {
        let (code, node) = (code.to_string(), node.to_string());
        self.run(move |s| async move {
            sqlx::query_scalar(
                "INSERT INTO room_owners (code, node, fence) VALUES ($1, $2, 1) \
                 ON CONFLICT (code) DO UPDATE SET node = excluded.node, fence = room_owners.fence + 1 \
                 WHERE room_owners.node = excluded.node OR room_owners.node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $3) RETURNING fence",
            )
            .bind(&code)
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
    pub async fn release_room(&self, code: &str, fence: &Fence) -> DbResult<()> {
        let (code, fence) = (code.to_string(), fence.clone());
        self.run(move |s| async move {
            sqlx::query("UPDATE room_owners SET node = '' WHERE code = $1 AND node = $2 AND fence = $3")
                .bind(&code)
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
    pub async fn hand_room(&self, code: &str, fence: &Fence, to: &str) -> DbResult<bool> {
        let (code, fence, to) = (code.to_string(), fence.clone(), to.to_string());
        self.run(move |s| async move {
            let handed = sqlx::query(
                "UPDATE room_owners SET node = $1, fence = fence + 1 WHERE code = $2 AND node = $3 AND fence = $4",
            )
            .bind(&to)
            .bind(&code)
            .bind(&fence.node)
            .bind(fence.number)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(handed.rows_affected() == 1)
        })
        .await
    }

    /// The fencing number node `node` holds room `code` with, if the database names it the owner.
    pub async fn room_fence(&self, code: &str, node: &str) -> DbResult<Option<i64>> {
        let (code, node) = (code.to_string(), node.to_string());
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT fence FROM room_owners WHERE code = $1 AND node = $2")
                .bind(&code)
                .bind(&node)
                .fetch_optional(&s.pool)
                .await
        })
        .await
    }

    /// The live node that owns room `code`, if any.
    pub async fn room_owner(&self, code: &str, now: u64) -> DbResult<Option<String>> {
        let code = code.to_string();
        self.run(move |s| async move {
            sqlx::query_scalar(
                "SELECT node FROM room_owners WHERE code = $1 AND node IN (SELECT id FROM nodes WHERE expires_at > $2)",
            )
            .bind(&code)
            .bind(now as i64)
            .fetch_optional(&s.pool)
            .await
        })
        .await
    }

    /// Rooms whose owner's lease has run out (a node that died): someone must take them on.
    pub async fn orphaned_rooms(&self, now: u64) -> DbResult<Vec<String>> {
        self.run(move |s| async move {
            sqlx::query_scalar(
                "SELECT code FROM room_owners WHERE node <> '' AND node NOT IN \
                 (SELECT id FROM nodes WHERE expires_at > $1) ORDER BY code",
            )
            .bind(now as i64)
            .fetch_all(&s.pool)
            .await
        })
        .await
    }

    pub async fn create_room(&self, code: &str, rules: &str, mode: Mode, host: &str, at: u64) -> DbResult<()> {
        let (code, rules, host) = (code.to_string(), rules.to_string(), host.to_string());
        self.run(move |s| async move { s.create_room(&code, &rules, mode, &host, at).await }).await
    }

    /// Stores an entry (and, when it ends a deal, the deal's record and stats) in one transaction.
    /// Entries that arrive while a batch is written wait for the next one, so a busy server stores many
    /// rooms' entries per transaction.
    pub async fn append(&self, append: Append) -> DbResult<()> {
        self.check_reachable()?;
        let (reply, answer) = oneshot::channel();
        self.appends.send((append, reply)).map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }

    pub async fn open_rooms(&self) -> DbResult<Vec<StoredRoom>> {
        self.run(|s| async move { s.open_rooms().await }).await
    }

    /// Whether room `code` exists (without reading its log).
    pub async fn room_exists(&self, code: &str) -> DbResult<bool> {
        let code = code.to_string();
        self.run(move |s| async move {
            let found: Option<String> = sqlx::query_scalar("SELECT code FROM rooms WHERE code = $1")
                .bind(&code)
                .fetch_optional(&s.pool)
                .await?;
            Ok::<_, StoreError>(found.is_some())
        })
        .await
    }

    pub async fn room(&self, code: &str) -> DbResult<Option<StoredRoom>> {
        let code = code.to_string();
        self.run(move |s| async move { s.room(&code).await }).await
    }

    pub async fn deal_records(&self, code: &str) -> DbResult<Vec<String>> {
        let code = code.to_string();
        self.run(move |s| async move { s.deal_records(&code).await }).await
    }

    /// The record of deal `number` (1-based) of room `code`, if it finished.
    pub async fn deal_record(&self, code: &str, number: u32) -> DbResult<Option<String>> {
        let code = code.to_string();
        self.run(move |s| async move { s.deal_record(&code, number).await }).await
    }

    /// The stored review (JSON) of `seat`'s play in deal `number` of room `code`, if one was made.
    pub async fn review(&self, code: &str, number: u32, seat: u32) -> DbResult<Option<String>> {
        let code = code.to_string();
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT review FROM reviews WHERE code = $1 AND number = $2 AND seat = $3")
                .bind(code)
                .bind(i64::from(number))
                .bind(i64::from(seat))
                .fetch_optional(&s.pool)
                .await
        })
        .await
    }

    /// Keeps a review (the first one stored stays: reviews of one deal and seat are the same).
    pub async fn store_review(&self, code: &str, number: u32, seat: u32, review: String) -> DbResult<()> {
        let code = code.to_string();
        self.run(move |s| async move {
            sqlx::query(
                "INSERT INTO reviews (code, number, seat, review) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            )
            .bind(code)
            .bind(i64::from(number))
            .bind(i64::from(seat))
            .bind(review)
            .execute(&s.pool)
            .await
            .map(|_| ())
        })
        .await
    }

    /// The server's secret for the rallies' deals: drawn once, on first use, and kept.
    pub async fn rally_secret(&self) -> DbResult<ddz_engine::Seed> {
        self.run(|s| async move { s.rally_secret().await }).await
    }

    /// Starts `name`'s run of `challenge` in a new room `code`, unless the name has an unfinished run of
    /// that kind (and rally) or has already played the rally.
    pub async fn start_challenge(
        &self,
        code: &str,
        challenge: &Challenge,
        name: &PlayerName,
        at: u64,
    ) -> DbResult<ChallengeStart> {
        let (code, challenge, name) = (code.to_string(), challenge.clone(), name.clone());
        self.run(move |s| async move {
            match s.start_challenge(&code, &challenge, &name, at).await {
                // Another request (on this node or another) started the same name's run first: the
                // database's unique index refused this one, and the run it started is the one to join.
                Err(StoreError::Unavailable(e)) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => {
                    s.start_challenge(&code, &challenge, &name, at).await
                }
                result => result,
            }
        })
        .await
    }

    /// A challenge board: `rally` names the rally's date for Bang rallies.
    pub async fn challenge_board(&self, kind: ChallengeKind, rally: Option<String>) -> DbResult<Vec<BoardRow>> {
        self.run(move |s| async move {
            Ok::<_, StoreError>(rank_runs(kind, &s.finished_runs(kind, rally.as_deref()).await?))
        })
        .await
    }

    /// The dates of rallies with finished attempts, newest first.
    pub async fn rallies(&self) -> DbResult<Vec<String>> {
        self.run(|s| async move { s.rallies().await }).await
    }

    /// `name`'s finished attempt at the rally of `date`, and the best one on its board.
    pub async fn rally_results(&self, date: &str, name: &PlayerName) -> DbResult<Option<(RallyResult, RallyResult)>> {
        let (date, key) = (date.to_string(), name.key().to_string());
        self.run(move |s| async move { s.rally_results(&date, &key).await }).await
    }

    /// The digests of `name`'s secrets if it is protected (`docs/names.md`). Always read from the database,
    /// so that every node of a cluster sees a protect or a recovery at once.
    pub async fn name_protection(&self, name: &PlayerName) -> DbResult<Option<Digests>> {
        let name_key = name.key().to_string();
        self.run(move |s| async move {
            let row: Option<(String, String)> =
                sqlx::query_as("SELECT key_digest, recovery_digest FROM protected_names WHERE name_key = $1")
                    .bind(&name_key)
                    .fetch_optional(&s.pool)
                    .await?;
            Ok::<_, StoreError>(row.map(|(key, recovery)| Digests { key, recovery }))
        })
        .await
    }

    /// Protects `name` with `digests`; `false` if it was protected already (the first one stays).
    pub async fn protect_name(&self, name: &PlayerName, digests: &Digests, at: u64) -> DbResult<bool> {
        let (name, digests) = (name.clone(), digests.clone());
        self.run(move |s| async move {
            let inserted = sqlx::query(
                "INSERT INTO protected_names (name_key, name, key_digest, recovery_digest, protected_at, changed_at) \
                 VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (name_key) DO NOTHING",
            )
            .bind(name.key())
            .bind(name.as_str())
            .bind(&digests.key)
            .bind(&digests.recovery)
            .bind(at as i64)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(inserted.rows_affected() == 1)
        })
        .await
    }

    /// Replaces `name`'s secrets with `digests` if its recovery digest is still `recovered` (a recovery
    /// that raced another one loses: `false`).
    pub async fn replace_name_secrets(
        &self,
        name: &PlayerName,
        recovered: &str,
        digests: &Digests,
        at: u64,
    ) -> DbResult<bool> {
        let (name_key, recovered, digests) = (name.key().to_string(), recovered.to_string(), digests.clone());
        self.run(move |s| async move {
            let replaced = sqlx::query(
                "UPDATE protected_names SET key_digest = $1, recovery_digest = $2, changed_at = $3 \
                 WHERE name_key = $4 AND recovery_digest = $5",
            )
            .bind(&digests.key)
            .bind(&digests.recovery)
            .bind(at as i64)
            .bind(&name_key)
            .bind(&recovered)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(replaced.rows_affected() == 1)
        })
        .await
    }

    /// Which of `names` are protected, as name keys.
    pub async fn protected_among(&self, players: &[String]) -> DbResult<HashSet<String>> {
        let keys: Vec<String> = players.iter().map(|name| names::name_key(name)).collect();
        if keys.is_empty() {
            return Ok(HashSet::new());
        }
        self.run(move |s| async move {
            let places: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
            let sql = format!("SELECT name_key FROM protected_names WHERE name_key IN ({})", places.join(", "));
            let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql));
            for key in &keys {
                query = query.bind(key);
            }
            Ok::<_, StoreError>(query.fetch_all(&s.pool).await?.into_iter().collect())
        })
        .await
    }
}

/// How long a PostgreSQL session may sit inside a transaction without a statement before the server ends
/// it: a node's transactions take milliseconds, so one idle for a second has stalled.
const STALLED_TRANSACTION_MS: u64 = 1_000;
/// The longest a statement waits for another session's lock before it fails (and is retried).
const LOCK_WAIT_MS: u64 = 2_000;

impl Store {
    async fn open(url: &str, listing: Listing) -> DbResult<Store> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of(url)?;
        let pool = match backend {
            Backend::Sqlite => {
                // Create the file if it is missing.
                let url = if url.contains('?') { url.to_string() } else { format!("{url}?mode=rwc") };
                // Each connection to `sqlite::memory:` is a database of its own: keep one.
                let connections = if url.contains(":memory:") { 1 } else { 4 };
                AnyPoolOptions::new()
                    .max_connections(connections)
                    // A file on this machine does not hang up: pinging it before every use was a second
                    // round trip into sqlx's SQLite worker per group commit.
                    .test_before_acquire(false)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            // With the write-ahead log, NORMAL survives a killed process (only a power cut
                            // may lose the last transactions) and saves an fsync per action.
                            conn.execute(
                                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
                            )
                            .await
                            .map(|_| ())
                        })
                    })
                    .connect_with(AnyConnectOptions::from_str(&url)?)
                    .await?
            }
            Backend::Postgres => {
                AnyPoolOptions::new()
                    .max_connections(8)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            // A node that stalls inside a transaction (paused, swapping, or hung) would hold
                            // its rows' locks for as long as it stalls, and every node that takes its rooms
                            // after the lease would wait on them: PostgreSQL ends such a session instead.
                            // Nothing waits on a lock for longer than a lease either.
                            conn.execute(sqlx::AssertSqlSafe(format!(
                                "SET idle_in_transaction_session_timeout = {STALLED_TRANSACTION_MS}; \
                                 SET lock_timeout = {LOCK_WAIT_MS}"
                            )))
                            .await
                            .map(|_| ())
                        })
                    })
                    .connect(url)
                    .await?
            }
        };
        migrator(backend).run(&pool).await.map_err(|e| StoreError::Unavailable(e.into()))?;
        let store = Store { pool, listing };
        store.rekey_names().await?;
        Ok(store)
    }

    async fn create_room(&self, code: &str, rules: &str, mode: Mode, host: &str, at: u64) -> DbResult<()> {
        sqlx::query("INSERT INTO rooms (code, rules, mode, host, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(code)
            .bind(rules)
            .bind(mode.name())
            .bind(host)
            .bind(at as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

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
        check_fences(&mut tx, appends).await?;
        insert_log_lines(&mut *tx, appends).await?;
        for append in appends {
            write_deal_and_room_changes(&mut tx, self.listing, append).await?;
        }
        Ok(tx.commit().await?)
    }

    /// Every room not closed, with its log.
    async fn open_rooms(&self) -> DbResult<Vec<StoredRoom>> {
        let codes: Vec<String> =
            sqlx::query_scalar("SELECT code FROM rooms WHERE closed_at IS NULL ORDER BY created_at")
                .fetch_all(&self.pool)
                .await?;
        let mut rooms = Vec::new();
        for code in codes {
            if let Some(room) = self.room(&code).await? {
                rooms.push(room);
            }
        }
        Ok(rooms)
    }

    /// One room and its log, closed or not.
    async fn room(&self, code: &str) -> DbResult<Option<StoredRoom>> {
        let Some(row) = sqlx::query_as::<_, RoomRow>(
            "SELECT rooms.code AS code, rules, mode, host, kind, rally FROM rooms \
             LEFT JOIN challenges ON challenges.code = rooms.code WHERE rooms.code = $1",
        )
        .bind(code)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let log = sqlx::query_as::<_, LogRow>("SELECT n, at, entry FROM room_log WHERE code = $1 ORDER BY n")
            .bind(code)
            .fetch_all(&self.pool)
            .await?;
        let entries = log
            .into_iter()
            .map(|r| {
                let entry = serde_json::from_str(&r.entry).map_err(decode)?;
                Ok(Stamped { n: r.n as u64, at: r.at as u64, entry })
            })
            .collect::<DbResult<Vec<_>>>()?;
        let challenge = match row.kind {
            None => None,
            Some(kind) => {
                let kind = ChallengeKind::parse(&kind).ok_or_else(|| unknown("challenge kind", &kind))?;
                Some(Challenge { kind, rally: row.rally })
            }
        };
        Ok(Some(StoredRoom {
            code: row.code,
            rules: row.rules.parse().map_err(decode)?,
            mode: row.mode.parse().map_err(decode)?,
            host: row.host,
            challenge,
            entries,
        }))
    }

    async fn rally_secret(&self) -> DbResult<ddz_engine::Seed> {
        let fresh = ddz_engine::Seed::random(&mut rand::rng()).to_string();
        sqlx::query("INSERT INTO settings (key, value) VALUES ('rally_secret', $1) ON CONFLICT DO NOTHING")
            .bind(fresh)
            .execute(&self.pool)
            .await?;
        let stored: String =
            sqlx::query_scalar("SELECT value FROM settings WHERE key = 'rally_secret'").fetch_one(&self.pool).await?;
        stored.parse().map_err(|_| StoreError::Corrupt("the stored rally secret is not a seed".into()))
    }

    async fn start_challenge(
        &self,
        code: &str,
        challenge: &Challenge,
        name: &PlayerName,
        at: u64,
    ) -> DbResult<ChallengeStart> {
        let mut tx = self.pool.begin().await?;
        let earlier = sqlx::query_as::<_, EarlierRun>(
            "SELECT code, CASE WHEN finished_at IS NULL THEN 0 ELSE 1 END AS finished FROM challenges \
             WHERE name_key = $1 AND kind = $2 AND rally IS NOT DISTINCT FROM $3 \
             AND (finished_at IS NULL OR rally IS NOT NULL)",
        )
        .bind(name.key())
        .bind(challenge.kind.name())
        .bind(&challenge.rally)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(run) = earlier {
            return Ok(if run.finished != 0 {
                ChallengeStart::RallyPlayed
            } else {
                ChallengeStart::Unfinished(run.code)
            });
        }
        sqlx::query("INSERT INTO rooms (code, rules, mode, host, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(code)
            .bind(challenge.kind.rules().name())
            .bind(Mode::Challenge.name())
            .bind(name.as_str())
            .bind(at as i64)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO challenges (code, kind, rally, name_key, name, started_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(code)
        .bind(challenge.kind.name())
        .bind(&challenge.rally)
        .bind(name.key())
        .bind(name.as_str())
        .bind(at as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ChallengeStart::Created(code.to_string()))
    }

    async fn finished_runs(&self, kind: ChallengeKind, rally: Option<&str>) -> DbResult<Vec<FinishedRun>> {
        let rows = sqlx::query_as::<_, RunRow>(
            "SELECT name, net, deals, best_pot, finished_at FROM challenges \
             WHERE kind = $1 AND rally IS NOT DISTINCT FROM $2 AND finished_at IS NOT NULL",
        )
        .bind(kind.name())
        .bind(rally)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(RunRow::finished_run).collect())
    }

    async fn rallies(&self) -> DbResult<Vec<String>> {
        sqlx::query_scalar(
            "SELECT DISTINCT rally FROM challenges WHERE kind = 'rally' AND finished_at IS NOT NULL \
             ORDER BY rally DESC LIMIT 366",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(StoreError::from)
    }

    async fn rally_results(&self, date: &str, key: &str) -> DbResult<Option<(RallyResult, RallyResult)>> {
        let rows = sqlx::query_as::<_, RunRow>(
            "SELECT name, net, deals, best_pot, finished_at, nets FROM challenges \
             WHERE kind = 'rally' AND rally = $1 AND finished_at IS NOT NULL",
        )
        .bind(date)
        .fetch_all(&self.pool)
        .await?;
        let result = |r: &RunRow| RallyResult {
            name: r.name.clone(),
            net: r.net,
            nets: serde_json::from_str(r.nets.as_deref().unwrap_or_default()).unwrap_or_default(),
        };
        let Some(mine) = rows.iter().find(|r| names::name_key(&r.name) == key) else {
            return Ok(None);
        };
        let runs: Vec<FinishedRun> = rows.iter().map(RunRow::finished_run).collect();
        let leader = &rank_runs(ChallengeKind::Rally, &runs)[0].name;
        let best = rows.iter().find(|r| r.name == *leader).unwrap_or(mine);
        Ok(Some((result(mine), result(best))))
    }

    /// Finished deal records of a room, in order.
    async fn deal_record(&self, code: &str, number: u32) -> DbResult<Option<String>> {
        sqlx::query_scalar("SELECT record FROM deals WHERE code = $1 AND number = $2")
            .bind(code)
            .bind(i64::from(number))
            .fetch_optional(&self.pool)
            .await
            .map_err(StoreError::from)
    }

    async fn deal_records(&self, code: &str) -> DbResult<Vec<String>> {
        sqlx::query_scalar("SELECT record FROM deals WHERE code = $1 ORDER BY number")
            .bind(code)
            .fetch_all(&self.pool)
            .await
            .map_err(StoreError::from)
    }
}

/// A `rooms` row, with its challenge's kind and rally if it is a challenge room.
#[derive(FromRow)]
struct RoomRow {
    code: String,
    rules: String,
    mode: String,
    host: String,
    kind: Option<String>,
    rally: Option<String>,
}

/// A `room_log` row.
#[derive(FromRow)]
struct LogRow {
    n: i64,
    at: i64,
    entry: String,
}

/// A name's earlier run of a challenge.
#[derive(FromRow)]
struct EarlierRun {
    code: String,
    /// 1 if finished (integers read the same from every backend).
    finished: i64,
}

/// A finished challenge run (`nets` only where the query asks for it).
#[derive(FromRow)]
struct RunRow {
    name: String,
    net: i64,
    deals: i64,
    best_pot: i64,
    finished_at: i64,
    #[sqlx(default)]
    nets: Option<String>,
}

impl RunRow {
    fn finished_run(&self) -> FinishedRun {
        FinishedRun {
            name: self.name.clone(),
            net: self.net,
            deals: self.deals,
            best_pot: self.best_pot,
            finished_at: self.finished_at as u64,
        }
    }
}

fn decode(error: impl std::error::Error) -> StoreError {
    StoreError::Corrupt(error.to_string())
}

/// A stored value the server does not know.
fn unknown(what: &str, value: &str) -> StoreError {
    StoreError::Corrupt(format!("unknown {what} {value:?}"))
}

/// The group commit: takes every entry waiting (up to [`MAX_BATCH`]), stores them in one transaction
/// and answers each, until every [`Db`] handle is gone.
async fn write_batches(store: Store, mut pending: mpsc::UnboundedReceiver<(Append, oneshot::Sender<DbResult<()>>)>) {
    let mut waiting = Vec::with_capacity(MAX_BATCH);
    while pending.recv_many(&mut waiting, MAX_BATCH).await > 0 {
        let (batch, replies): (Vec<Append>, Vec<_>) = waiting.drain(..).unzip();
        crate::metrics::histogram!(crate::metrics::BATCH_ENTRIES).record(batch.len() as f64);
        for (result, reply) in store.append_batch(&batch).await.into_iter().zip(replies) {
            let _ = reply.send(result);
        }
    }
}

/// Fails with [`StoreError::Fenced`] unless the writer still owns the room (cluster mode), locking the owner row until
/// the commit: a node taking the room over waits for this append, and then reads a log that has it.
/// Cluster mode: every room of the batch is still this node's, by its fencing number: one statement for
/// the whole batch (a group commit holds entries of many rooms). A batch with a room taken since fails as a
/// whole; its entries are then tried one by one, and only that room's are refused.
async fn check_fences(tx: &mut AnyConnection, appends: &[Append]) -> DbResult<()> {
    let mut fences: Vec<(&str, &Fence)> =
        appends.iter().filter_map(|a| Some((a.code.as_str(), a.fence.as_ref()?))).collect();
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
        let code = fences.first().map(|(code, _)| code.to_string()).unwrap_or_default();
        return Err(StoreError::Fenced(if fences.len() == 1 {
            code
        } else {
            format!("{code} or another room of the batch")
        }));
    }
    Ok(())
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

    #[tokio::test]
    async fn an_in_memory_database_keeps_what_is_stored_in_it() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        db.create_room("MEMORY", "house", Mode::Invite, "Ann", 1).await.unwrap();
        // Several requests at once: they all meet the one database that holds the room.
        let reads = (0..8).map(|_| db.room("MEMORY"));
        for room in futures_util::future::join_all(reads).await {
            assert_eq!(room.unwrap().map(|r| r.host).as_deref(), Some("Ann"));
        }
    }

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
        for code in ["KEPT", "FENCED"] {
            db.create_room(code, "house", Mode::Invite, "Ann", 1).await.unwrap();
            assert_eq!(db.take_room(code, "a", 10).await.unwrap(), Some(1));
        }
        // a's lease runs out and b takes one of its two rooms; a appends to both at once.
        assert_eq!(db.take_room("FENCED", "b", 2_000).await.unwrap(), Some(2));
        let kept = Append { code: "KEPT".into(), ..fenced_append(1, "a", 1) };
        let (kept, fenced) = tokio::join!(db.append(kept), db.append(fenced_append(1, "a", 1)));
        kept.unwrap();
        assert!(matches!(fenced.unwrap_err(), StoreError::Fenced(code) if code == "FENCED"));
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
        db.create_room("FENCED", "house", Mode::Invite, "Ann", 1).await.unwrap();
        db.join_cluster("a", "a", 0, 1_000).await.unwrap();
        db.join_cluster("b", "b", 0, 1_000).await.unwrap();
        assert_eq!(db.take_room("FENCED", "a", 10).await.unwrap(), Some(1));
        assert_eq!(db.take_room("FENCED", "b", 10).await.unwrap(), None, "a's lease is alive");
        assert_eq!(db.room_owner("FENCED", 10).await.unwrap().as_deref(), Some("a"));
        db.append(fenced_append(1, "a", 1)).await.unwrap();

        // a stops renewing; once its lease has run out, b takes the room with the next fencing number.
        db.renew_lease("b", 5_000).await.unwrap();
        assert_eq!(db.orphaned_rooms(2_000).await.unwrap(), ["FENCED"]);
        assert_eq!(db.take_room("FENCED", "b", 2_000).await.unwrap(), Some(2));
        let late = db.append(fenced_append(2, "a", 1)).await.unwrap_err();
        assert!(matches!(late, StoreError::Fenced(_)), "{late}");
        db.append(fenced_append(2, "b", 2)).await.unwrap();
        // a comes back to life and renews: the room stays b's, and a's appends stay refused.
        db.renew_lease("a", 5_000).await.unwrap();
        assert!(matches!(db.append(fenced_append(3, "a", 1)).await.unwrap_err(), StoreError::Fenced(_)));
        assert_eq!(db.room_owner("FENCED", 2_000).await.unwrap().as_deref(), Some("b"));

        // b lets the room go: anyone takes it, with a number never used before.
        db.release_room("FENCED", &Fence { node: "b".into(), number: 2 }).await.unwrap();
        assert_eq!(db.room_owner("FENCED", 2_000).await.unwrap(), None);
        assert!(db.orphaned_rooms(2_000).await.unwrap().is_empty(), "a room let go is no orphan");
        assert_eq!(db.take_room("FENCED", "a", 2_000).await.unwrap(), Some(3));
        db.leave_cluster("a").await.unwrap();
        assert_eq!(db.live_nodes(2_000).await.unwrap(), ["b"]);
        assert_eq!(db.orphaned_rooms(2_000).await.unwrap(), ["FENCED"], "a node that leaves hands its rooms on");
        assert_eq!(db.forget_nodes(3_000).await.unwrap(), 0, "a node a room still names is kept");
        assert_eq!(db.take_room("FENCED", "b", 2_000).await.unwrap(), Some(4));
        assert_eq!(db.forget_nodes(3_000).await.unwrap(), 1, "then it is forgotten");
    }

    #[tokio::test]
    async fn a_room_handed_to_another_node_is_theirs_and_the_giver_can_never_append_again() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        db.create_room("HANDED", "house", Mode::Invite, "Ann", 1).await.unwrap();
        db.join_cluster("a", "a", 0, 1_000).await.unwrap();
        db.join_cluster("b", "b", 0, 1_000).await.unwrap();
        assert_eq!(db.take_room("HANDED", "a", 10).await.unwrap(), Some(1));
        let a = Fence { node: "a".into(), number: 1 };
        assert!(!db.hand_room("HANDED", &Fence { node: "b".into(), number: 1 }, "b").await.unwrap(), "b holds nothing");
        assert!(db.hand_room("HANDED", &a, "b").await.unwrap());
        assert_eq!(db.room_owner("HANDED", 10).await.unwrap().as_deref(), Some("b"));
        assert!(matches!(
            db.append(Append { code: "HANDED".into(), ..fenced_append(1, "a", 1) }).await.unwrap_err(),
            StoreError::Fenced(_)
        ));
        assert!(!db.hand_room("HANDED", &a, "a").await.unwrap(), "a room handed on is handed once");
        assert_eq!(db.take_room("HANDED", "a", 10).await.unwrap(), None, "b's lease is alive");
        // b takes what it was handed, with a number of its own.
        assert_eq!(db.room_fence("HANDED", "b").await.unwrap(), Some(2), "handed with the next number");
        assert_eq!(db.room_fence("HANDED", "a").await.unwrap(), None, "a holds it no more");
        assert_eq!(db.take_room("HANDED", "b", 10).await.unwrap(), Some(3));
        db.append(Append { code: "HANDED".into(), ..fenced_append(1, "b", 3) }).await.unwrap();
    }

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
        let store = Store::open("sqlite::memory:", Listing::DEFAULT).await.unwrap();
        store.create_room("BATCH", "house", Mode::Invite, "Ann", 1).await.unwrap();
        // Log lines alone go in one statement.
        assert!(store.append_batch(&[sit(1), sit(2)]).await.iter().all(Result::is_ok));
        // A duplicate number fails that statement: each entry is then tried alone, the room's close
        // (which takes a transaction) among them.
        let close = Append { closes_room: true, entry: r#"{"entry":"close"}"#.into(), ..sit(4) };
        let results = store.append_batch(&[sit(3), sit(2), close]).await;
        assert_eq!(results.iter().map(Result::is_ok).collect::<Vec<_>>(), [true, false, true]);
        let room = store.room("BATCH").await.unwrap().unwrap();
        assert_eq!(room.entries.iter().map(|e| (e.n, e.at)).collect::<Vec<_>>(), [(1, 1), (2, 2), (3, 3), (4, 4)]);
        assert_eq!(room.entries[3].entry, crate::domain::room::Entry::Close);
        assert!(store.open_rooms().await.unwrap().is_empty(), "the close is stored with its entry");
    }

    #[test]
    fn a_database_url_names_sqlite_or_postgres() {
        assert_eq!(Backend::of("sqlite://ddz.db").unwrap(), Backend::Sqlite);
        assert_eq!(Backend::of("postgres://u@h/db").unwrap(), Backend::Postgres);
        assert!(Backend::of("mysql://u@h/db").is_err());
    }
}
