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
