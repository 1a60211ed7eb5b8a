//! The services a cluster needs, each started by a test on a free port in a temporary directory and stopped
//! when dropped: PostgreSQL (initdb, as the `postgres` user when root, which PostgreSQL refuses), NATS and
//! HAProxy (with `deploy/haproxy.cfg`, the balancer operators run). `.ci/run` installs the `postgresql`,
//! `nats-server` and `haproxy` packages.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::poll_blocking;

/// A PostgreSQL server of its own, stopped and deleted when dropped.
pub struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

impl Postgres {
    pub fn start(name: &str) -> Postgres {
        let bin = postgres_bin();
        let dir = std::env::temp_dir().join(format!("ddz-pg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            run(Command::new("chown").arg("postgres:").arg(&dir));
        }
        let data = dir.join("data");
        run(as_postgres(&bin.join("initdb")).arg("-D").arg(&data).args([
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ]));
        let postgres = Postgres { dir, bin, port: free_port() };
        postgres.start_server();
        run(as_postgres(&postgres.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &postgres.port.to_string()])
            .arg("ddz"));
        postgres
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/ddz", self.port)
    }

    /// Starts the server (again, after [`Postgres::crash`]) on its port with its data.
    pub fn start_server(&self) {
        let options = format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", self.port, self.dir.display());
        run(as_postgres(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(self.dir.join("data"))
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-w", "-o", &options, "start"]));
    }

    /// An outage begins: the server stops at once (every connection cut, as a crash or failover would),
    /// until [`Postgres::start_server`] starts it again on the same port with the same data.
    pub fn crash(&self) {
        run(as_postgres(&self.bin.join("pg_ctl")).arg("-D").arg(self.dir.join("data")).args([
            "-m",
            "immediate",
            "-w",
            "stop",
        ]));
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = as_postgres(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The newest installed PostgreSQL's programs.
fn postgres_bin() -> PathBuf {
    let versions = std::fs::read_dir("/usr/lib/postgresql").map(|d| d.flatten().map(|e| e.path()).collect());
    let mut versions: Vec<PathBuf> = versions.unwrap_or_default();
    versions.retain(|v| v.join("bin/initdb").exists());
    versions.sort_by_key(|v| v.file_name().and_then(|n| n.to_str()?.parse::<u32>().ok()));
    versions
        .pop()
        .map(|v| v.join("bin"))
        .expect("PostgreSQL is not installed: apt-get install postgresql (.ci/run does)")
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// `program`, run as the `postgres` user when this is root.
fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn run(command: &mut Command) {
    let out = command.output().unwrap_or_else(|e| panic!("{command:?} does not run: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{command:?} failed:\n{text}");
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Postgres {
    /// Runs one SQL statement with `psql`; its rows, one per line, columns split by `|`.
    pub fn query(&self, sql: &str) -> String {
        let out = as_postgres(&self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "postgres", "-At", "-c", sql, "ddz"])
            .output()
            .expect("psql runs");
        assert!(out.status.success(), "psql failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

/// A NATS server of its own, stopped when dropped.
pub struct Nats {
    child: Child,
    pub port: u16,
}

impl Nats {
    pub fn start() -> Nats {
        Nats::start_on(free_port())
    }

    fn start_on(port: u16) -> Nats {
        let program = ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .expect("nats-server is not installed: apt-get install nats-server (.ci/run does)");
        let nats = Nats {
            child: Command::new(program)
                .args(["-a", "127.0.0.1", "-p", &port.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("nats-server starts"),
            port,
        };
        // Should it never listen, the panic drops it, which stops it.
        poll_blocking(
            &format!("nats-server listening on {port}"),
            Duration::from_secs(5),
            Duration::from_millis(50),
            || std::net::TcpStream::connect(("127.0.0.1", port)).ok(),
        );
        nats
    }

    /// An outage: the server is killed; [`Nats::restart`] brings it back on the same port.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn restart(&mut self) {
        self.stop();
        *self = Nats::start_on(self.port);
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HAProxy in front of three nodes, with the deployment's own configuration (`deploy/haproxy.cfg`: health
/// checks on `/readyz`, sessions of a node marked down closed), stopped when dropped.
pub struct Haproxy {
    child: Child,
    pub addr: std::net::SocketAddr,
}

impl Haproxy {
    pub fn start(nodes: [std::net::SocketAddr; 3], log: &Path) -> Haproxy {
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/haproxy.cfg");
        let addr: std::net::SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let child = Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(&config)
            .env("DDZ_LB_BIND", addr.to_string())
            .env("DDZ_LB_STATS", format!("127.0.0.1:{}", free_port()))
            .env("DDZ_NODE1", nodes[0].to_string())
            .env("DDZ_NODE2", nodes[1].to_string())
            .env("DDZ_NODE3", nodes[2].to_string())
            .stdout(std::fs::File::create(log).expect("a log file"))
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy is not installed: apt-get install haproxy (.ci/run does)");
        let haproxy = Haproxy { child, addr };
        poll_blocking(
            &format!("haproxy listening on {addr}"),
            Duration::from_secs(5),
            Duration::from_millis(50),
            || std::net::TcpStream::connect(addr).ok(),
        );
        haproxy
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
