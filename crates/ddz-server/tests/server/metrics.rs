//! `/metrics` in a fresh process: every counter an operator alerts on is a series from the start, at
//! zero, before anything has happened (an alert rule on a missing series sees "no data", not zero).

use crate::common;

use common::{FAST, get_status, server, temp_db};

const TEST: &str = "metrics::every_counter_is_registered_at_zero_before_its_first_event";
/// Set in the fresh process that does the check.
const FRESH: &str = "DDZ_FRESH_PROCESS";

/// The counters are the process's, and the other tests of this binary move them: the check runs in a
/// process of its own, this test binary started again for this one test.
#[test]
fn every_counter_is_registered_at_zero_before_its_first_event() {
    if std::env::var_os(FRESH).is_some() {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        return runtime.block_on(counters_start_at_zero());
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args(["--exact", TEST, "--test-threads", "1"])
        .env(FRESH, "1")
        .output()
        .expect("the test binary starts again");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "in a fresh process:\n{text}");
    assert!(text.contains("1 passed"), "the check ran in the fresh process:\n{text}");
}

async fn counters_start_at_zero() {
    let running = server(&temp_db("metrics-zero"), FAST).await;
    let (status, text) = get_status(running.addr, "/metrics").await;
    assert_eq!(status, 200);
    for series in [
        "ddz_store_failures_total 0",
        "ddz_cluster_rooms_taken_total 0",
        "ddz_cluster_rooms_fenced_total 0",
        "ddz_cluster_rooms_handed_over_total 0",
        "ddz_cluster_events_relayed_total 0",
        "ddz_cluster_request_failures_total 0",
        "ddz_entries_total 0",
        "ddz_actions_total 0",
        "ddz_rooms 0",
        "ddz_connections 0",
    ] {
        assert!(text.lines().any(|line| line == series), "no `{series}` in /metrics:\n{text}");
    }
    assert!(running.stop().await, "the server stops in time");
}
