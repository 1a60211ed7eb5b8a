//! `ddz serve` processes of a test cluster, on one PostgreSQL and one NATS: started on free ports, signalled
//! as an operator's machine would be (SIGKILL, SIGTERM, SIGSTOP and SIGCONT), restarted on the same address,
//! and killed when dropped. Each node's log is kept only if the test failed (or `DDZ_KEEP_LOGS` is set).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::services::{Nats, Postgres, free_port};
use crate::common::{get_status, poll};

const DDZ: &str = env!("CARGO_BIN_EXE_ddz");

/// A room of a node that dies moves within the lease; the test's nodes hold 1.5 s leases.
pub const LEASE_MS: u64 = 1500;

/// One `ddz serve` process of the cluster, killed when dropped.
pub struct Node {
    pub name: String,
    pub addr: SocketAddr,
    pub child: Child,
    /// `ddz serve` arguments beyond the cluster's own (kept for a restart).
    pub extra: Vec<String>,
}

impl Node {
    pub fn spawn(name: &str, postgres: &Postgres, nats: &Nats) -> Node {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        Node::spawn_at(name, addr, postgres, nats)
    }

    /// A node on `addr`.
    pub fn spawn_at(name: &str, addr: SocketAddr, postgres: &Postgres, nats: &Nats) -> Node {
        Node::spawn_with(name, addr, postgres, nats, &[])
    }

    /// A node on `addr` given `extra` arguments too (flags the cluster does not set already).
    pub fn spawn_with(name: &str, addr: SocketAddr, postgres: &Postgres, nats: &Nats, extra: &[&str]) -> Node {
        let extra: Vec<String> = extra.iter().map(|a| a.to_string()).collect();
        Node { name: name.to_string(), addr, child: serve(name, addr, postgres, nats, &extra), extra }
    }

    pub fn log_path(name: &str, addr: SocketAddr) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("ddz-cluster-{name}-{}.log", addr.port()))
    }

    pub async fn ready(self) -> Node {
        let what = format!("node {} ready", self.name);
        poll(&what, Duration::from_secs(20), Duration::from_millis(100), || async {
            (get_status_quietly(self.addr, "/readyz").await == Some(200)).then_some(())
        })
        .await;
        self
    }

    /// SIGKILL: no goodbye, no lease given back.
    pub fn kill(&mut self) {
        self.child.kill().expect("the node is killed");
        let _ = self.child.wait();
    }

    /// Starts the node again where it was (after it was killed or stopped), logging to the same file.
    pub fn restart(&mut self, postgres: &Postgres, nats: &Nats) {
        let _ = self.child.wait();
        self.child = serve(&self.name, self.addr, postgres, nats, &self.extra);
    }

    /// Sends `signal` (`TERM`, `STOP`, `CONT`) to the node's process.
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill").arg(format!("-{signal}")).arg(self.child.id().to_string()).status();
        assert!(sent.is_ok_and(|s| s.success()), "SIG{signal} reaches node {}", self.name);
    }
}

impl Drop for Node {
    /// Kills the node; its log stays only if the test failed.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() && std::env::var_os("DDZ_KEEP_LOGS").is_none() {
            let _ = std::fs::remove_file(Node::log_path(&self.name, self.addr));
        }
    }
}

/// `ddz serve` in cluster mode on `addr`, its log appended to the node's file.
fn serve(name: &str, addr: SocketAddr, postgres: &Postgres, nats: &Nats, extra: &[String]) -> Child {
    let log =
        std::fs::OpenOptions::new().create(true).append(true).open(Node::log_path(name, addr)).expect("a log file");
    Command::new(DDZ)
        .args(["serve", "--addr", &addr.to_string(), "--database", &postgres.url(), "--nats", &nats.url()])
        .args(["--node", name, "--lease-ms", &LEASE_MS.to_string(), "--bot-delay-ms", "1"])
        .args(["--bot-delay-span-ms", "5", "--api-rate", "1000", "--api-burst", "1000"])
        .args(["--ws-rate", "1000", "--ws-burst", "1000", "--trusted-proxies", "127.0.0.1"])
        .args(extra)
        .env("RUST_LOG", "info,tower_http=warn,ddz_server::cluster=debug")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("ddz serve starts")
}

/// The status of a GET, or `None` while nothing listens.
pub async fn get_status_quietly(addr: SocketAddr, path: &str) -> Option<u16> {
    tokio::net::TcpStream::connect(addr).await.ok()?;
    Some(get_status(addr, path).await.0)
}

/// The value of counter `name` in a node's `/metrics` (since the node last started).
pub async fn counter(addr: SocketAddr, name: &str) -> u64 {
    let metrics = get_status(addr, "/metrics").await.1;
    let line = metrics.lines().find(|l| l.starts_with(&format!("{name} ")));
    let value = line.and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse().ok());
    value.unwrap_or_else(|| panic!("no counter {name} in /metrics:\n{metrics}"))
}

/// PostgreSQL, NATS and three nodes (the first alone, so that it migrates the database).
pub async fn cluster(name: &str) -> (Postgres, Nats, Vec<Node>) {
    cluster_with(name, &[]).await
}

/// [`cluster`], each node given `extra` arguments too.
pub async fn cluster_with(name: &str, extra: &[&str]) -> (Postgres, Nats, Vec<Node>) {
    let postgres = Postgres::start(name);
    let nats = Nats::start();
    let spawn = |name: &str| {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        Node::spawn_with(name, addr, &postgres, &nats, extra)
    };
    let first = spawn("n1").ready().await;
    let (second, third) = (spawn("n2"), spawn("n3"));
    let nodes = vec![first, second.ready().await, third.ready().await];
    (postgres, nats, nodes)
}

/// The node that owns room `code` now, by its index in `nodes`.
pub fn owner_of(postgres: &Postgres, nodes: &[Node], code: &str) -> Option<usize> {
    let owner = postgres.query(&format!(
        "SELECT node FROM room_owners WHERE code = '{code}' AND node IN \
         (SELECT id FROM nodes WHERE expires_at > (extract(epoch from now()) * 1000)::bigint)"
    ));
    nodes.iter().position(|n| owner.starts_with(&format!("{}-", n.name)))
}
