//! The deployment files in `deploy/`, checked against the binary as far as this machine can (it has no
//! Docker): HAProxy accepts its configuration; the compose file, Prometheus's configuration and the alert
//! rules parse and hold what they should; the image's runtime (the binary started with only the image's
//! environment and command) is ready and serves, registered from the start, every counter and gauge the
//! dashboard and the alerts use; the histograms they use are ones the server records.

#[path = "../../ddz-server/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::get_status;
use common::services::free_port;

const DDZ: &str = env!("CARGO_BIN_EXE_ddz");

fn deploy(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy").join(file)
}

fn read(file: &str) -> String {
    std::fs::read_to_string(deploy(file)).unwrap_or_else(|e| panic!("deploy/{file}: {e}"))
}

/// A YAML file as Compose and Prometheus read it (`<<:` merge keys applied).
fn yaml(file: &str) -> serde_yaml::Value {
    let mut value: serde_yaml::Value =
        serde_yaml::from_str(&read(file)).unwrap_or_else(|e| panic!("deploy/{file} does not parse: {e}"));
    value.apply_merge().unwrap_or_else(|e| panic!("deploy/{file}: {e}"));
    value
}

/// Every `ddz_…` metric an expression names, without a histogram's `_bucket`/`_sum`/`_count`.
fn metrics_in(expr: &str, into: &mut BTreeSet<String>) {
    let mut rest = expr;
    while let Some(at) = rest.find("ddz_") {
        let name: String =
            rest[at..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit()).collect();
        rest = &rest[at + name.len()..];
        let base = ["_bucket", "_sum", "_count"].iter().find_map(|s| name.strip_suffix(s)).unwrap_or(&name);
        into.insert(base.to_string());
    }
}

#[test]
fn haproxy_accepts_the_balancers_configuration() {
    let checked = Command::new("haproxy")
        .args(["-c", "-f"])
        .arg(deploy("haproxy.cfg"))
        .output()
        .expect("haproxy is not installed: apt-get install haproxy (.ci/run does)");
    let said = String::from_utf8_lossy(&checked.stderr).to_string() + &String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "haproxy -c refuses deploy/haproxy.cfg:\n{said}");
}

#[test]
fn the_compose_file_runs_the_clusters_topology_from_the_image() {
    let compose = yaml("compose.yaml");
    let services = compose["services"].as_mapping().expect("services");
    let names: BTreeSet<&str> = services.keys().filter_map(|k| k.as_str()).collect();
    for wanted in ["postgres", "nats", "n1", "n2", "n3", "haproxy", "prometheus"] {
        assert!(names.contains(wanted), "compose.yaml has no {wanted}: {names:?}");
    }
    for node in ["n1", "n2", "n3"] {
        let service = &compose["services"][node];
        assert_eq!(
            service["build"]["dockerfile"].as_str(),
            Some("deploy/Dockerfile"),
            "{node} is built from the image"
        );
        let environment = &service["environment"];
        assert_eq!(environment["DDZ_NODE"].as_str(), Some(node));
        assert!(environment["DDZ_DATABASE"].as_str().is_some_and(|url| url.starts_with("postgres://")));
        assert!(environment["DDZ_NATS"].as_str().is_some_and(|url| url.starts_with("nats://")));
        // The balancer's fixed address is the one the nodes trust.
        let haproxy = compose["services"]["haproxy"]["networks"]["ddz"]["ipv4_address"].as_str();
        assert_eq!(environment["DDZ_TRUSTED_PROXIES"].as_str(), haproxy, "{node} trusts the balancer");
        assert_eq!(
            compose["services"]["haproxy"]["environment"][format!("DDZ_NODE{}", &node[1..])].as_str(),
            Some(format!("{node}:8080").as_str())
        );
    }
    let prometheus = yaml("prometheus.yml");
    let targets = &prometheus["scrape_configs"][0]["static_configs"][0]["targets"];
    assert_eq!(targets.as_sequence().map(Vec::len), Some(3), "Prometheus scrapes the three nodes");
}

#[test]
fn the_image_runtime_is_ready_and_serves_every_metric_the_dashboard_and_alerts_use() {
    // The metrics the operator's files name.
    let mut named = BTreeSet::new();
    let alerts = yaml("prometheus-alerts.yml");
    let rules = alerts["groups"][0]["rules"].as_sequence().expect("alert rules");
    assert!(rules.len() >= 5);
    for rule in rules {
        assert!(rule["alert"].as_str().is_some_and(|a| a.starts_with("Ddz")), "{rule:?}");
        assert!(rule["annotations"]["summary"].is_string() && rule["annotations"]["description"].is_string());
        metrics_in(rule["expr"].as_str().expect("an expression"), &mut named);
    }
    let dashboard: serde_json::Value =
        serde_json::from_str(&read("grafana-dashboard.json")).expect("the dashboard parses");
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().expect("targets") {
            metrics_in(target["expr"].as_str().expect("an expression"), &mut named);
        }
    }
    assert!(named.len() >= 10, "{named:?}");

    // The binary as the image runs it: the image's environment (its data directory here a temporary one)
    // and its command.
    let dockerfile = read("Dockerfile");
    let data = std::env::temp_dir().join(format!("ddz-image-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let port = free_port();
    let mut server = Command::new(DDZ);
    server.current_dir(&data).env_clear().env("PATH", std::env::var("PATH").unwrap_or_default());
    for line in dockerfile.lines().filter(|l| l.contains("DDZ_") && !l.trim_start().starts_with('#')) {
        let setting = line.trim_start_matches("ENV").trim().trim_end_matches('\\').trim();
        let (key, value) = setting.split_once('=').expect("ENV KEY=value");
        let value =
            value.replace("0.0.0.0:8080", &format!("127.0.0.1:{port}")).replace("/data", &data.display().to_string());
        server.env(key, value);
    }
    let command = dockerfile.lines().find_map(|l| l.strip_prefix("CMD ")).expect("a CMD");
    let command: Vec<String> = serde_json::from_str(command).expect("CMD is a JSON list");
    let mut server = server.args(&command).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("ddz runs");
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let served = runtime.block_on(async {
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let ready = get_status(addr, "/readyz").await;
        (ready, get_status(addr, "/metrics").await.1)
    });
    let _ = server.kill();
    let _ = server.wait();
    assert!(data.join("ddz.db").exists(), "the SQLite file is in the data volume");
    let _ = std::fs::remove_dir_all(&data);
    assert_eq!(served.0.0, 200, "ready: {}", served.0.1);
    let metrics = served.1;

    let catalogue =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../ddz-server/src/metrics.rs")).unwrap();
    for name in &named {
        let histogram = catalogue.contains(&format!("| `{name}` | histogram |"));
        if histogram {
            // Histograms have series once something is measured: the server records this one.
            continue;
        }
        assert!(
            metrics.lines().any(|l| l.starts_with(&format!("{name} ")) || l.starts_with(&format!("{name}{{"))),
            "a fresh node does not serve {name}, which the dashboard or an alert uses"
        );
    }
}
