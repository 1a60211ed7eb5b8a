//! The deployment files in `deploy/`, checked against the binary as far as this machine can (it has no
//! Docker): HAProxy and nginx accept their configurations and route a room's sockets by its code (every
//! socket of a room to one node, a dead node's rooms alone moving); the compose file, Prometheus's configuration and the alert
//! rules parse and hold what they should; the image's runtime (the binary started with only the image's
//! environment and command) is ready and serves, registered from the start, every counter and gauge the
//! dashboard and the alerts use; the histograms they use are ones the server records.

#[path = "../../ddz-server/tests/server/common/mod.rs"]
mod common;

use std::collections::{BTreeSet, HashMap};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::services::{Haproxy, free_port};
use common::{get_status, poll, poll_blocking};

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

/// nginx, where Debian puts it (`/usr/sbin` is not on every user's path).
fn nginx() -> &'static str {
    if Path::new("/usr/sbin/nginx").exists() { "/usr/sbin/nginx" } else { "nginx" }
}

#[test]
fn nginx_accepts_the_balancers_configuration() {
    let checked = Command::new(nginx())
        .args(["-t", "-q", "-c"])
        .arg(deploy("nginx.conf"))
        .output()
        .expect("nginx is not installed: apt-get install nginx-light (.ci/run does)");
    assert!(
        checked.status.success(),
        "nginx -t refuses deploy/nginx.conf:\n{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}

/// A stand-in for a node behind the balancer: answers every request (health checks too) with its name.
struct NamedNode {
    addr: SocketAddr,
    stopped: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl NamedNode {
    fn start(name: &'static str) -> NamedNode {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stopped = Arc::new(AtomicBool::new(false));
        let stop = stopped.clone();
        let thread = std::thread::spawn(move || {
            // Blocked in `accept` until a connection comes: `stop` sends one to wake it.
            for socket in listener.incoming() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(mut socket) = socket else { continue };
                let _ = socket.set_read_timeout(Some(Duration::from_secs(2)));
                let mut request = Vec::new();
                let mut buf = [0; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let answer =
                    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{name}", name.len());
                let _ = socket.write_all(answer.as_bytes());
            }
        });
        NamedNode { addr, stopped, thread: Some(thread) }
    }

    /// The node dies: its port refuses connections from now on.
    fn stop(&mut self) {
        self.stopped.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = TcpStream::connect(self.addr);
            thread.join().unwrap();
        }
    }
}

impl Drop for NamedNode {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The name of the node that answered `path` through the balancer at `lb` (`None`: no answer).
fn answered_by(lb: SocketAddr, path: &str) -> Option<String> {
    let mut socket = TcpStream::connect(lb).ok()?;
    socket.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    socket.write_all(format!("GET {path} HTTP/1.1\r\nHost: ddz\r\nConnection: close\r\n\r\n").as_bytes()).ok()?;
    let mut response = String::new();
    socket.read_to_string(&mut response).ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    head.starts_with("HTTP/1.1 200").then(|| body.to_string())
}

/// What routing by room must do, through balancer `lb` in front of `nodes` (`n1`, `n2`, `n3`): every
/// socket of a room to the same node, the rooms spread over all three, sockets without a room spread too;
/// when `n2` dies, its rooms move to the others and every other room stays where it was.
fn rooms_are_routed_by_code(lb: SocketAddr, nodes: &mut [NamedNode; 3]) {
    let codes: Vec<String> = (0..30).map(|i| format!("R{i:02}ABC")).collect();
    let path = |code: &str| format!("/ws?room={code}");
    let mut home = HashMap::new();
    for code in &codes {
        let first = answered_by(lb, &path(code)).unwrap_or_else(|| panic!("no answer for room {code}"));
        for _ in 0..3 {
            assert_eq!(answered_by(lb, &path(code)).as_ref(), Some(&first), "room {code}'s sockets on one node");
        }
        home.insert(code.clone(), first);
    }
    let used: BTreeSet<&String> = home.values().collect();
    assert_eq!(used.len(), 3, "30 rooms spread over the three nodes: {home:?}");
    let plain: BTreeSet<String> = (0..9).filter_map(|_| answered_by(lb, "/ws")).collect();
    assert!(plain.len() >= 2, "sockets without a room (the lobby's) are spread: {plain:?}");

    nodes[1].stop();
    let n2 = home.values().filter(|n| *n == "n2").count();
    poll_blocking("n2's rooms moving", Duration::from_secs(8), Duration::from_millis(200), || {
        let mut moved = 0;
        for code in &codes {
            // A request caught as the balancer gives the node up may fail: a client just connects again.
            let Some(now) = answered_by(lb, &path(code)) else { continue };
            if home[code] == "n2" {
                assert_ne!(now, "n2", "a dead node answered");
                moved += 1;
            } else {
                assert_eq!(now, home[code], "room {code} moved although its node lives");
            }
        }
        (moved == n2).then_some(())
    });
    // Hashed afresh, the dead node's rooms each land on one node.
    for code in codes.iter().filter(|c| home[*c] == "n2") {
        let now = answered_by(lb, &path(code));
        assert_eq!(now, answered_by(lb, &path(code)), "room {code} has one new node");
    }
}

#[test]
fn haproxy_sends_every_socket_of_a_room_to_one_node_and_only_a_dead_nodes_rooms_elsewhere() {
    let mut nodes = [NamedNode::start("n1"), NamedNode::start("n2"), NamedNode::start("n3")];
    let log = std::env::temp_dir().join(format!("ddz-haproxy-routing-{}.log", std::process::id()));
    let lb = Haproxy::start([nodes[0].addr, nodes[1].addr, nodes[2].addr], &log);
    rooms_are_routed_by_code(lb.addr, &mut nodes);
    drop(lb);
    let _ = std::fs::remove_file(log);
}

/// nginx running `deploy/nginx.conf` in front of `nodes` on a free port, its files in a directory of its
/// own; stopped when dropped.
struct Nginx {
    child: Child,
    dir: PathBuf,
    addr: SocketAddr,
}

impl Nginx {
    fn start(nodes: [SocketAddr; 3]) -> Nginx {
        let dir = std::env::temp_dir().join(format!("ddz-nginx-routing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let mut config = read("nginx.conf")
            .replace("listen 8080;", &format!("listen {addr};"))
            .replace("/tmp/ddz-nginx", &dir.join("nginx").display().to_string());
        for (i, node) in nodes.iter().enumerate() {
            config = config.replace(&format!("127.0.0.1:808{}", i + 1), &node.to_string());
        }
        let file = dir.join("nginx.conf");
        std::fs::write(&file, config).unwrap();
        let child = Command::new(nginx())
            .arg("-c")
            .arg(&file)
            .args(["-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx is not installed: apt-get install nginx-light (.ci/run does)");
        let nginx = Nginx { child, dir, addr };
        poll_blocking(&format!("nginx listening on {addr}"), Duration::from_secs(5), Duration::from_millis(50), || {
            TcpStream::connect(addr).ok()
        });
        nginx
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn nginx_sends_every_socket_of_a_room_to_one_node_and_only_a_dead_nodes_rooms_elsewhere() {
    let mut nodes = [NamedNode::start("n1"), NamedNode::start("n2"), NamedNode::start("n3")];
    let lb = Nginx::start([nodes[0].addr, nodes[1].addr, nodes[2].addr]);
    rooms_are_routed_by_code(lb.addr, &mut nodes);
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
        poll("the image's server listening", Duration::from_secs(10), Duration::from_millis(100), || async {
            tokio::net::TcpStream::connect(addr).await.ok()
        })
        .await;
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
