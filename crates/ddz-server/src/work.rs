//! CPU-heavy work off the async workers: bot decisions, hints and readings run on tokio's blocking
//! threads, at most [`Pool::size`] at a time.
//!
//! Requests from clients use [`Pool::try_run`]: with every permit taken they wait [`PATIENCE`] at most
//! (a bot's move takes milliseconds) and are then answered "busy", rather than queued without limit. Bots use [`Pool::run`] and wait for a permit, so that no bot move is
//! lost; the room task does not wait with them (it hands the decision off and goes on serving its inbox).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Semaphore;

/// How long a client's request waits for a permit before it is answered "busy".
pub const PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// Counts a job of one pool from before it asks for a permit until it has finished (or was given up).
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(count: &Arc<AtomicUsize>) -> Counted {
        count.fetch_add(1, Ordering::SeqCst);
        Counted(count.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A bounded pool of blocking threads.
#[derive(Clone, Debug)]
pub struct Pool {
    permits: Arc<Semaphore>,
    size: usize,
    /// Jobs of this pool (and its clones) waiting for a permit or running.
    in_flight: Arc<AtomicUsize>,
}

/// Every permit is taken: the request is refused rather than queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

impl Pool {
    /// A pool running at most `size` jobs at once (at least 1).
    pub fn new(size: usize) -> Pool {
        let size = size.max(1);
        Pool { permits: Arc::new(Semaphore::new(size)), size, in_flight: Arc::default() }
    }

    /// As many jobs as the machine has cores, at least two.
    pub fn per_core() -> Pool {
        Pool::new(std::thread::available_parallelism().map_or(2, |n| n.get()).max(2))
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Permits free now.
    pub fn available(&self) -> usize {
        self.permits.available_permits()
    }

    /// Jobs of this pool waiting for a permit or running now (tests on tokio's paused clock wait for their
    /// own server's bots before they look at a room; a count per pool, so that tests running side by side
    /// in one process do not wait for each other's).
    #[cfg(feature = "testing")]
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Runs `job` on a blocking thread if a permit is free within [`PATIENCE`]; otherwise [`Busy`].
    pub async fn try_run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> Result<T, Busy> {
        let counted = Counted::new(&self.in_flight);
        let permit = tokio::time::timeout(PATIENCE, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| Busy)?
            .expect("the pool's semaphore is never closed");
        Ok(blocking(counted, permit, job).await)
    }

    /// Runs `job` on a blocking thread, waiting for a permit first.
    pub async fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> T {
        let counted = Counted::new(&self.in_flight);
        let permit = self.permits.clone().acquire_owned().await.expect("the pool's semaphore is never closed");
        blocking(counted, permit, job).await
    }
}

/// Long jobs (a deal's review: tenths of a second, a second for a long deal) on a pool of their own, so that they never hold up a table's
/// bots or a client's hints: at most `places` jobs wait or run, and one more is answered [`Busy`].
#[derive(Clone, Debug)]
pub struct Queue {
    pool: Pool,
    places: Arc<Semaphore>,
}

impl Queue {
    pub fn new(threads: usize, places: usize) -> Queue {
        Queue { pool: Pool::new(threads), places: Arc::new(Semaphore::new(places.max(1))) }
    }

    /// Runs `job` once a thread is free, or answers [`Busy`] at once when the queue is full.
    pub async fn try_run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> Result<T, Busy> {
        let place = self.places.clone().try_acquire_owned().map_err(|_| Busy)?;
        let answer = self.pool.run(job).await;
        drop(place);
        Ok(answer)
    }
}

async fn blocking<T: Send + 'static>(
    counted: Counted,
    permit: tokio::sync::OwnedSemaphorePermit,
    job: impl FnOnce() -> T + Send + 'static,
) -> T {
    // The permit lives as long as the job, even if the caller stops waiting for it.
    let handle = tokio::task::spawn_blocking(move || {
        let answer = job();
        drop(permit);
        drop(counted);
        answer
    });
    match handle.await {
        Ok(answer) => answer,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_pool_answers_busy_and_frees_its_permit_after_the_job() {
        let pool = Pool::new(1);
        let (started_tx, started) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let holder = pool.clone();
        let held = tokio::spawn(async move {
            holder
                .try_run(move || {
                    started_tx.send(()).unwrap();
                    released.recv().unwrap();
                    1
                })
                .await
        });
        tokio::task::spawn_blocking(move || started.recv().unwrap()).await.unwrap();
        assert_eq!(pool.try_run(|| 2).await, Err(Busy), "the only permit is taken");
        release.send(()).unwrap();
        assert_eq!(held.await.unwrap(), Ok(1));
        assert_eq!(pool.try_run(|| 3).await, Ok(3));
        assert_eq!(pool.run(|| 4).await, 4);
        assert_eq!(pool.available(), 1);
    }

    #[tokio::test]
    async fn each_pool_counts_only_its_own_jobs_in_flight() {
        let (pool, other) = (Pool::new(1), Pool::new(1));
        let (started_tx, started) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let running = pool.clone();
        let held = tokio::spawn(async move {
            running
                .run(move || {
                    started_tx.send(()).unwrap();
                    released.recv().unwrap();
                })
                .await
        });
        tokio::task::spawn_blocking(move || started.recv().unwrap()).await.unwrap();
        assert_eq!(pool.in_flight(), 1, "the running job counts, seen from any clone");
        assert_eq!(other.in_flight(), 0, "another pool's count is its own");
        release.send(()).unwrap();
        held.await.unwrap();
        assert_eq!(pool.in_flight(), 0, "a finished job is no longer counted");
    }

    #[tokio::test]
    async fn a_full_queue_answers_busy_at_once_and_takes_jobs_again_when_one_ends() {
        let queue = Queue::new(1, 2);
        let (started_tx, started) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let first = queue.clone();
        let running = tokio::spawn(async move {
            first
                .try_run(move || {
                    started_tx.send(()).unwrap();
                    released.recv().unwrap();
                    1
                })
                .await
        });
        tokio::task::spawn_blocking(move || started.recv().unwrap()).await.unwrap();
        let second = queue.clone();
        let waiting = tokio::spawn(async move { second.try_run(|| 2).await });
        // The second job holds the last place while it waits for the thread.
        while queue.places.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(queue.try_run(|| 3).await, Err(Busy), "both places are taken");
        release.send(()).unwrap();
        assert_eq!(running.await.unwrap(), Ok(1));
        assert_eq!(waiting.await.unwrap(), Ok(2));
        assert_eq!(queue.try_run(|| 4).await, Ok(4));
    }
}
