//! Prometheus metrics, served at `GET /metrics` in the text format by `metrics-exporter-prometheus`.
//!
//! | metric | kind | what |
//! |---|---|---|
//! | `ddz_rooms` | gauge | room tasks running |
//! | `ddz_connections` | gauge | WebSocket clients connected (lobby watchers included) |
//! | `ddz_entries_total` | counter | room log entries stored |
//! | `ddz_actions_total` | counter | deal actions stored (rate = actions/s) |
//! | `ddz_store_failures_total` | counter | entries the database refused |
//! | `ddz_commit_seconds` | histogram | storing one entry |
//! | `ddz_commit_batch_entries` | summary | entries stored by one transaction (group commit) |
//! | `ddz_broadcast_seconds` | histogram | building and queueing one entry's events for every client |
//! | `ddz_flagged_pairs_total` | counter | pairs of players flagged for an operator (`ddz fairness pairs`): their deals together stop counting |
//! | `ddz_unreadable_stored_total` | counter | stored data that did not read back: a deal record (refused as `internal`), a tournament's summary for the lists (logged, left out of the list) |
//! | `ddz_tournaments_driven` | gauge | tournaments whose driver runs on this node |
//! | `ddz_unrated_seats_total` | counter | seats of finished rated deals that did not count, by `reason` (bot_played, passed, same_address, ...) |
//! | `ddz_process_resident_bytes` | gauge | the process's resident memory (Linux), read at each scrape |
//! | `ddz_process_cpu_seconds` | gauge | the process's CPU time so far, user and system (Linux), read at each scrape |
//! | `ddz_cluster_rooms_taken_total` | counter | cluster mode: rooms this node took (new, idle, or from a node that died) |
//! | `ddz_cluster_rooms_fenced_total` | counter | cluster mode: room tasks ended because another node took the room |
//! | `ddz_cluster_rooms_handed_over_total` | counter | cluster mode: rooms this node handed to the node all their clients were on |
//! | `ddz_cluster_events_relayed_total` | counter | cluster mode: events sent over NATS to clients of another node (routing by room keeps it low) |
//! | `ddz_cluster_request_seconds` | histogram | cluster mode: a proxy's request to a room's owner, answered |
//! | `ddz_cluster_request_failures_total` | counter | cluster mode: requests to an owner that got no answer |
//! | `ddz_cluster_nats_reconnects_total` | counter | cluster mode: times NATS came back after it was lost |
//! | `ddz_cluster_rooms_unreachable` | gauge | cluster mode: rooms this node's clients use whose owner is not answering (waiting for it, or for the room to move) |

use std::sync::OnceLock;

pub(crate) use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

pub(crate) const ROOMS: &str = "ddz_rooms";
pub(crate) const CONNECTIONS: &str = "ddz_connections";
pub(crate) const ENTRIES: &str = "ddz_entries_total";
pub(crate) const ACTIONS: &str = "ddz_actions_total";
pub(crate) const STORE_FAILURES: &str = "ddz_store_failures_total";
pub(crate) const COMMIT_SECONDS: &str = "ddz_commit_seconds";
pub(crate) const BATCH_ENTRIES: &str = "ddz_commit_batch_entries";
pub(crate) const BROADCAST_SECONDS: &str = "ddz_broadcast_seconds";
const RESIDENT_BYTES: &str = "ddz_process_resident_bytes";
const CPU_SECONDS: &str = "ddz_process_cpu_seconds";
pub(crate) const ROOMS_TAKEN: &str = "ddz_cluster_rooms_taken_total";
pub(crate) const ROOMS_FENCED: &str = "ddz_cluster_rooms_fenced_total";
pub(crate) const ROOMS_HANDED_OVER: &str = "ddz_cluster_rooms_handed_over_total";
pub(crate) const EVENTS_RELAYED: &str = "ddz_cluster_events_relayed_total";
pub(crate) const REQUEST_SECONDS: &str = "ddz_cluster_request_seconds";
pub(crate) const REQUEST_FAILURES: &str = "ddz_cluster_request_failures_total";
pub(crate) const NATS_RECONNECTS: &str = "ddz_cluster_nats_reconnects_total";
pub(crate) const ROOMS_UNREACHABLE: &str = "ddz_cluster_rooms_unreachable";
pub(crate) const FLAGGED_PAIRS: &str = "ddz_flagged_pairs_total";
pub(crate) const UNRATED_SEATS: &str = "ddz_unrated_seats_total";
pub(crate) const UNREADABLE_STORED: &str = "ddz_unreadable_stored_total";
pub(crate) const TOURNAMENTS_DRIVEN: &str = "ddz_tournaments_driven";

/// The counters, registered at zero when the recorder is installed.
const COUNTERS: [&str; 11] = [
    ENTRIES,
    ACTIONS,
    STORE_FAILURES,
    ROOMS_TAKEN,
    ROOMS_FENCED,
    ROOMS_HANDED_OVER,
    EVENTS_RELAYED,
    REQUEST_FAILURES,
    NATS_RECONNECTS,
    FLAGGED_PAIRS,
    UNREADABLE_STORED,
];

/// Histogram buckets in seconds: from half a millisecond to ten seconds.
const BUCKETS: &[f64] = &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// The process's recorder, installed on first use (one per process: tests run several servers in one).
pub(crate) fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed; /metrics will be empty");
        }
        // Every counter and gauge is there from the start at zero: an alert on one (store failures, say)
        // sees a series, not "no data", until the first event.
        for counter in COUNTERS {
            counter!(counter).increment(0);
        }
        for gauge in [ROOMS, CONNECTIONS, ROOMS_UNREACHABLE] {
            gauge!(gauge).increment(0.0);
        }
        handle
    })
}

/// The metrics in the Prometheus text format.
pub(crate) fn render() -> String {
    if let Some(bytes) = resident_bytes() {
        gauge!(RESIDENT_BYTES).set(bytes as f64);
    }
    if let Some(seconds) = cpu_seconds() {
        gauge!(CPU_SECONDS).set(seconds);
    }
    let handle = handle();
    handle.run_upkeep();
    handle.render()
}

/// The process's CPU time so far, user and system, from `/proc/self/stat` (in the kernel's clock ticks of
/// 10 ms; `None` where there is no such file).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The process's resident memory, from `/proc/self/status` (`None` where there is no such file).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
