//! `/metrics` in a fresh process: every counter an operator alerts on is a series from the start, at
//! zero, before anything has happened (an alert rule on a missing series sees "no data", not zero).

mod common;

use common::{FAST, get_status, server, temp_db};

#[tokio::test]
async fn every_counter_is_registered_at_zero_before_its_first_event() {
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
