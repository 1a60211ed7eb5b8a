//! Persistence through sqlx, on SQLite (the default: one file) or PostgreSQL (`postgres://…`): both go
//! through sqlx's `Any` driver with the same SQL (`$1` placeholders, `ON CONFLICT`, `IS NOT DISTINCT FROM`,
//! integers only) and the same migrations, embedded in the binary. Only storing and loading: what an entry
//! implies (a deal's record, the stats it earns, a run's result) is worked out by the room ([`Append::of`])
//! and the domain, and what is read back is checked as it is loaded (a value the server does not know is
//! an error, never a default).
//!
//! [`Db`] is a handle to the database's own thread; each aggregate is an `impl Db` block in its own file,
//! whose methods run their SQL on that thread through `Db::run`:
//!
//! - `mod.rs`: the handle, opening (the pool, the migrations, re-keying) and the errors.
//! - `migrations.rs`: the migrations, listed once; PostgreSQL's SQL derived from SQLite's.
//! - `ownership.rs`: cluster mode: nodes and their leases, rooms' owners, fencing numbers ([`Fence`]).
//! - `rooms.rs`: rooms, their logs loaded back, finished deals' records, reviews.
//! - `append.rs`: an entry to store ([`Append`]), as the room prepares it.
//! - `commit.rs`: the group commit: [`Db::append`] and the writer that stores entries in batches.
//! - `results.rs`: what a finished deal writes in its transaction (stats, players, pairs, board rows), and
//!   rally deals held until their rally closes.
//! - `ratings.rs`: rating a deal, the ratings boards, a player's ratings and history.
//! - `boards.rs`: stat lines, the money boards, a player's standing and own row, flagged pairs.
//! - `challenges.rs`: challenge runs, their boards (each name's best run, kept as runs finish), the rallies
//!   and their secret.
//! - `players.rs`: a player's page: the deals they played (paged), the tournaments they finished.
//! - `names.rs`: protected names.
//! - `rekey.rs`: stored names moved to today's keys, once, at opening.
//! - `queue.rs`: the quick-match queue.
//! - `tournaments.rs`: tournaments: their logs and summaries, each round's tables, the places at the end.

mod append;
mod boards;
mod challenges;
mod commit;
mod migrations;
mod names;
mod ownership;
mod players;
mod puzzles;
mod queue;
mod ratings;
mod rekey;
mod results;
mod rooms;
mod tournaments;

pub use append::Append;
pub use boards::FlaggedPair;
pub use challenges::ChallengeStart;
pub use ownership::Fence;
pub use players::DealsCursor;
pub use puzzles::StoredPuzzle;
pub use queue::Ticket;
pub use rooms::StoredRoom;
pub use tournaments::{Creation, Hosting, Listed, Places};

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
#[cfg(feature = "testing")]
use std::sync::Arc;
#[cfg(feature = "testing")]
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use tokio::sync::{mpsc, oneshot};

use crate::domain::fairness::Listing;
use crate::domain::room::RoomCode;
use crate::wire::protocol::{ErrorCode, Refused};

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

type Job = Box<dyn FnOnce(Store) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// The connection pool, on the database thread, and what a name needs to be listed on the boards. Its own
/// methods are what runs there outside any request: opening, re-keying names (`rekey.rs`) and the group
/// commit's writer (`commit.rs`).
#[derive(Clone)]
struct Store {
    pool: AnyPool,
    backend: Backend,
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

pub type DbResult<T> = Result<T, StoreError>;

/// Why the store did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another node has taken the room since this node took it: the room's task here can never write to
    /// it again, and ends.
    #[error("room {0} now belongs to another node")]
    Fenced(RoomCode),
    /// Another node drives the tournament since this node took it: its driver here stops.
    #[error("tournament {0} is now driven by another node")]
    TournamentFenced(String),
    /// There is no such room.
    #[error("there is no room {0}")]
    NoRoom(RoomCode),
    /// Something stored does not read back (a value this server does not know, a broken record).
    #[error("stored data does not read back: {0}")]
    Corrupt(String),
    /// The database could not be reached, or refused the statement.
    #[error("the database is unavailable: {0}")]
    Unavailable(#[from] sqlx::Error),
}

impl StoreError {
    /// What a player is told when what they asked for could not be read or done: the one place a store
    /// error becomes a refusal. The server's own trouble is logged here.
    pub fn refusal(self) -> Refused {
        match self {
            StoreError::Fenced(code) => {
                Refused::new(ErrorCode::RoomMoved, format!("room {code} moved to another server; reconnect"))
            }
            StoreError::TournamentFenced(id) => {
                Refused::new(ErrorCode::RoomMoved, format!("tournament {id} moved to another server"))
            }
            StoreError::NoRoom(code) => Refused::no_room(&code),
            StoreError::Corrupt(what) => {
                tracing::error!(%what, "stored data does not read back");
                Refused::new(ErrorCode::Internal, format!("stored data does not read back: {what}"))
            }
            StoreError::Unavailable(e) => {
                tracing::error!(error = %e, "database error");
                Refused::new(ErrorCode::DatabaseUnavailable, "the server could not reach its database; try again")
            }
        }
    }

    /// [`StoreError::refusal`] for something a player did that could not be stored: it did not happen.
    pub fn write_refusal(self) -> Refused {
        match self {
            StoreError::Unavailable(e) => {
                tracing::error!(error = %e, "could not store");
                Refused::new(ErrorCode::SaveFailed, "the server could not save that; please try again")
            }
            other => other.refusal(),
        }
    }
}

/// A table type as every table stores it ([`ddz_engine::TableType::name`]), read back.
fn stored_table(word: &str) -> DbResult<ddz_engine::TableType> {
    ddz_engine::TableType::parse(word).ok_or_else(|| StoreError::Corrupt(format!("a stored table type {word:?}")))
}

/// Room `code`, hosted by Ann at House with the Wild, created in `db` (the store's tests).
#[cfg(test)]
async fn test_room(db: &Db, code: &str) -> RoomCode {
    let (code, ann) = (RoomCode::from(code), crate::domain::names::PlayerName::parse("Ann").expect("a name"));
    db.create_room(&code, ddz_engine::Rules::house(true), crate::domain::room::Mode::Invite, &ann, 1)
        .await
        .expect("the room is stored");
    code
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        e.refusal()
    }
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
                    let writer = tokio::spawn(commit::write_batches(store.clone(), pending));
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

    /// Runs `work` with the store on the database thread and answers its result: how every aggregate's
    /// requests reach the database.
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
}

/// How long a PostgreSQL session may sit inside a transaction without a statement before the server ends
/// it: a node's transactions take milliseconds, so one idle for a second has stalled.
const STALLED_TRANSACTION_MS: u64 = 1_000;
/// The longest a statement waits for another session's lock before it fails (and is retried).
const LOCK_WAIT_MS: u64 = 2_000;

impl Store {
    /// A transaction that reads before it writes. On SQLite it takes the write lock at its start (`BEGIN
    /// IMMEDIATE`) and so waits its turn behind another writer: begun as a reader, its first write would fail at
    /// once with "database is locked" whenever another connection wrote in between (SQLite cannot wait there).
    /// PostgreSQL's rows are locked as they are written.
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Connects to `url`, runs the migrations (`migrations.rs`) and moves stored names to their keys
    /// (`rekey.rs`).
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
        migrations::migrator(backend).run(&pool).await.map_err(|e| StoreError::Unavailable(e.into()))?;
        let store = Store { pool, backend, listing };
        store.rekey_names().await?;
        Ok(store)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::room::Mode;

    #[tokio::test]
    async fn an_in_memory_database_keeps_what_is_stored_in_it() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        let (code, ann) = (RoomCode::from("MEMORY"), crate::domain::names::PlayerName::parse("Ann").unwrap());
        db.create_room(&code, ddz_engine::Rules::house(true), Mode::Invite, &ann, 1).await.unwrap();
        // Several requests at once: they all meet the one database that holds the room.
        let reads = (0..8).map(|_| db.room(&code));
        for room in futures_util::future::join_all(reads).await {
            assert_eq!(room.unwrap().map(|r| r.host).as_deref(), Some("Ann"));
        }
    }

    #[tokio::test]
    async fn a_stored_deal_record_that_does_not_read_back_is_corrupt_not_skipped() {
        let db = Db::open("sqlite::memory:").await.unwrap();
        let (code, ann) = (RoomCode::from("BROKEN"), crate::domain::names::PlayerName::parse("Ann").unwrap());
        db.create_room(&code, ddz_engine::Rules::house(true), Mode::Invite, &ann, 1).await.unwrap();
        db.run(|s| async move {
            sqlx::query("INSERT INTO deals (code, number, finished_at, record) VALUES ('BROKEN', 1, 2, '{\"seed\":')")
                .execute(&s.pool)
                .await
                .map(|_| ())
        })
        .await
        .unwrap();
        assert!(
            matches!(db.deal_records(&code).await, Err(StoreError::Corrupt(what)) if what.contains("deal 1 of BROKEN"))
        );
        assert!(matches!(db.deal_record(&code, 1).await, Err(StoreError::Corrupt(_))));
        assert!(matches!(db.deal_record(&code, 2).await, Ok(None)), "a deal not played is none");
    }

    #[test]
    fn a_database_url_names_sqlite_or_postgres() {
        assert_eq!(Backend::of("sqlite://ddz.db").unwrap(), Backend::Sqlite);
        assert_eq!(Backend::of("postgres://u@h/db").unwrap(), Backend::Postgres);
        assert!(Backend::of("mysql://u@h/db").is_err());
    }
}
