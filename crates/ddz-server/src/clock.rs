//! The server's clock: wall-clock milliseconds (stored in room logs, so deadlines survive restarts)
//! advanced by tokio's clock, so that tests can pause and advance time.

use std::time::{SystemTime, UNIX_EPOCH};

use tokio::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Wall-clock milliseconds at `base`.
    base_ms: u64,
    base: Instant,
}

impl Clock {
    /// A clock reading the system time now.
    pub fn system() -> Clock {
        let wall = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        Clock::starting_at(wall)
    }

    /// A clock that reads `ms` now (tests).
    pub fn starting_at(ms: u64) -> Clock {
        Clock { base_ms: ms, base: Instant::now() }
    }

    pub fn now_ms(&self) -> u64 {
        self.base_ms + self.base.elapsed().as_millis() as u64
    }

    /// The tokio instant at which this clock reads `ms` (now, if that is past).
    pub fn instant_at(&self, ms: u64) -> Instant {
        self.base + Duration::from_millis(ms.saturating_sub(self.base_ms))
    }
}

/// Tests on tokio's paused clock with the database's thread beside the runtime: the clock held still, and
/// the runtime's and the database's work let through without it moving.
#[cfg(test)]
pub(crate) mod paused {
    use std::time::Duration;

    /// Holds tokio's paused clock still until dropped: it then moves only by `tokio::time::advance`, not
    /// by itself whenever the runtime waits on the database's thread (it would jump to the next deadline).
    /// Tokio does not auto-advance while a blocking task runs; this one waits for the drop, or 120 s at
    /// most, after which a test still waiting fails by its timeouts instead of hanging.
    pub fn hold() -> std::sync::mpsc::Sender<()> {
        let (release, released) = std::sync::mpsc::channel::<()>();
        tokio::task::spawn_blocking(move || released.recv_timeout(Duration::from_secs(120)));
        release
    }

    /// Lets the tasks a step woke run, the database's thread included, while tokio's clock stands still
    /// (it does not jump ahead while a blocking task runs): the one wall-clock wait of these tests, for a
    /// real thread's work.
    pub async fn settle() {
        tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(2))).await.expect("slept");
    }
}
