//! The server's background work in one shape: every loop and helper task runs on the server's task
//! tracker, so that a stop waits for each one, and ends when the server stops (as mini-redis's shutdown
//! does). Periodic work goes through [`Background::every`], which also backs off while its rounds fail.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// After `failures` failed tries in a row, wait this long before the next: 250 ms, doubling, at most 10 s
/// (a room's clock after a failed store, and every periodic loop while the database fails).
pub fn back_off_ms(failures: u32) -> u64 {
    (250u64 << failures.saturating_sub(1).min(6)).min(10_000)
}

/// Where the server's tasks run: its tracker, and the token cancelled when it begins to stop.
#[derive(Clone)]
pub struct Background {
    tasks: TaskTracker,
    stopping: CancellationToken,
}

/// When a periodic loop's first round runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// As the loop starts.
    Now,
    /// After one period.
    AfterOnePeriod,
}

impl Background {
    pub fn new(tasks: TaskTracker, stopping: CancellationToken) -> Background {
        Background { tasks, stopping }
    }

    /// Cancelled when the server begins to stop.
    pub fn stopping(&self) -> &CancellationToken {
        &self.stopping
    }

    /// Runs `task` on the tracker. It must end by itself once [`Background::stopping`] is cancelled (a
    /// stop waits for it); [`Background::until_stopped`] ends one that would not.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.tasks.spawn(task);
    }

    /// Runs `task` on the tracker until it ends or the server stops, whichever comes first (a stop
    /// drops it where it waits).
    pub fn until_stopped(&self, task: impl Future<Output = ()> + Send + 'static) {
        let stopping = self.stopping.clone();
        self.tasks.spawn(async move {
            tokio::select! {
                _ = stopping.cancelled() => {}
                _ = task => {}
            }
        });
    }

    /// Runs `round` every `period` until the server stops: a round that fails (`false`) makes the next
    /// wait [`back_off_ms`] instead, longer after each failure in a row. A round in progress finishes
    /// before the loop stops: only the pauses between rounds are cut short.
    pub fn every<R, F>(&self, period: Duration, first: First, mut round: R)
    where
        R: FnMut() -> F + Send + 'static,
        F: Future<Output = bool> + Send,
    {
        let stopping = self.stopping.clone();
        self.tasks.spawn(async move {
            let mut failures = 0;
            if first == First::AfterOnePeriod && !pause(&stopping, period).await {
                return;
            }
            loop {
                failures = if round().await { 0 } else { failures + 1 };
                let wait = if failures == 0 { period } else { Duration::from_millis(back_off_ms(failures)) };
                if !pause(&stopping, wait).await {
                    return;
                }
            }
        });
    }
}

/// Waits `wait`; `false` if the server began to stop first.
async fn pause(stopping: &CancellationToken, wait: Duration) -> bool {
    tokio::select! {
        _ = stopping.cancelled() => false,
        _ = tokio::time::sleep(wait) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn the_back_off_doubles_from_a_quarter_second_to_ten_seconds() {
        let pauses: Vec<u64> = (1..=8).map(back_off_ms).collect();
        assert_eq!(pauses, [250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_periodic_loop_runs_each_period_backs_off_after_failures_and_stops_with_the_server() {
        let (tasks, stopping) = (TaskTracker::new(), CancellationToken::new());
        let background = Background::new(tasks.clone(), stopping.clone());
        let rounds = Arc::new(AtomicU32::new(0));
        let counted = rounds.clone();
        // Rounds 2 and 3 fail: the pauses after them are 250 ms and 500 ms, not the period.
        background.every(Duration::from_secs(5), First::Now, move || {
            let round = counted.fetch_add(1, Ordering::SeqCst) + 1;
            async move { !(2..=3).contains(&round) }
        });
        let start = tokio::time::Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        for (time, expected) in [(0, 1), (4_999, 1), (5_000, 2), (5_250, 3), (5_750, 4), (10_749, 4), (10_750, 5)] {
            tokio::time::sleep_until(at(time)).await;
            tokio::task::yield_now().await;
            assert_eq!(rounds.load(Ordering::SeqCst), expected, "rounds by {time} ms");
        }
        stopping.cancel();
        tasks.close();
        tokio::time::timeout(Duration::from_millis(1), tasks.wait()).await.expect("the loop ended at the stop");
    }

    #[tokio::test(start_paused = true)]
    async fn a_loop_told_to_wait_one_period_first_does_not_run_at_once() {
        let (tasks, stopping) = (TaskTracker::new(), CancellationToken::new());
        let rounds = Arc::new(AtomicU32::new(0));
        let counted = rounds.clone();
        Background::new(tasks.clone(), stopping.clone()).every(
            Duration::from_secs(1),
            First::AfterOnePeriod,
            move || {
                counted.fetch_add(1, Ordering::SeqCst);
                async { true }
            },
        );
        tokio::time::sleep(Duration::from_millis(999)).await;
        assert_eq!(rounds.load(Ordering::SeqCst), 0);
        tokio::time::sleep(Duration::from_millis(2)).await;
        assert_eq!(rounds.load(Ordering::SeqCst), 1);
        stopping.cancel();
        tasks.close();
        tasks.wait().await;
    }
}
