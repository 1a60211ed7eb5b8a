//! Token buckets: one per WebSocket connection for its commands, and one per client address for HTTP
//! API requests and for new WebSocket connections.
//!
//! The per-address map is bounded: buckets that have refilled completely say nothing a fresh bucket would
//! not, so they are swept out when the map is full; if it is still full, new addresses are refused until
//! some refill (an attack from that many addresses at once should not grow the server's memory).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use tokio::time::{Duration, Instant};

/// A rate: `per_sec` on average, up to `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_sec: f64,
    pub burst: f64,
}

impl Rate {
    pub const fn new(per_sec: f64, burst: f64) -> Rate {
        Rate { per_sec, burst }
    }

    /// How long an empty bucket takes to fill.
    fn refill_time(self) -> Duration {
        Duration::from_secs_f64(if self.per_sec > 0.0 { self.burst / self.per_sec } else { 3600.0 })
    }
}

/// One token bucket, on tokio's clock (so that paused-time tests can drive it).
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn full(rate: Rate) -> Bucket {
        Bucket { tokens: rate.burst, at: Instant::now() }
    }

    /// Takes a token if there is one; otherwise how long until there will be.
    pub fn take(&mut self, rate: Rate) -> Result<(), Duration> {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * rate.per_sec).min(rate.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else if rate.per_sec > 0.0 {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / rate.per_sec))
        } else {
            Err(Duration::from_secs(3600))
        }
    }
}

/// A token bucket per client address (IPv6 addresses by their /64, which one client usually holds whole).
#[derive(Debug)]
pub struct PerClient {
    rate: Rate,
    capacity: usize,
    buckets: Mutex<Buckets>,
    /// Balancers whose `X-Forwarded-For` names the client (`--trusted-proxies`).
    trusted: Vec<IpAddr>,
}

#[derive(Debug)]
struct Buckets {
    map: HashMap<IpAddr, Bucket>,
    swept: Option<Instant>,
}

/// Addresses tracked at once, by default.
pub const CLIENTS: usize = 50_000;

impl PerClient {
    pub fn new(rate: Rate, capacity: usize) -> PerClient {
        let buckets = Mutex::new(Buckets { map: HashMap::new(), swept: None });
        PerClient { rate, capacity: capacity.max(1), buckets, trusted: Vec::new() }
    }

    /// The same limit, counting requests that come through one of `proxies` by the address their
    /// `X-Forwarded-For` names.
    pub fn trusting(mut self, proxies: &[IpAddr]) -> PerClient {
        self.trusted = proxies.to_vec();
        self
    }

    /// Who a request comes from: its peer, or, when the peer is a trusted proxy, the nearest address in
    /// `X-Forwarded-For` that is not one (each proxy appends the address it saw). Anything unreadable
    /// counts as the peer.
    pub fn client(&self, peer: IpAddr, forwarded_for: Option<&str>) -> IpAddr {
        if !self.trusted.contains(&peer) {
            return peer;
        }
        let hops = forwarded_for.unwrap_or_default().split(',').rev();
        let mut client = peer;
        for hop in hops {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) if self.trusted.contains(&ip) => client = ip,
                Ok(ip) => return ip,
                Err(_) => return client,
            }
        }
        client
    }

    /// Takes a token for `ip`; otherwise how long to wait.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        let key = client_key(ip);
        let mut buckets = self.buckets.lock().expect("rate limit lock");
        if let Some(bucket) = buckets.map.get_mut(&key) {
            return bucket.take(self.rate);
        }
        if buckets.map.len() >= self.capacity {
            self.sweep(&mut buckets);
            if buckets.map.len() >= self.capacity {
                tracing::warn!(clients = buckets.map.len(), "rate limit table full: refusing a new address");
                return Err(Duration::from_secs(1));
            }
        }
        let mut bucket = Bucket::full(self.rate);
        let taken = bucket.take(self.rate);
        buckets.map.insert(key, bucket);
        taken
    }

    /// Addresses tracked now (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.lock().expect("rate limit lock").map.len()
    }

    /// Drops the buckets that have refilled (at most once a second: a full table of busy clients must not
    /// make every new address pay for a scan).
    fn sweep(&self, buckets: &mut Buckets) {
        let now = Instant::now();
        if buckets.swept.is_some_and(|at| now.duration_since(at) < Duration::from_secs(1)) {
            return;
        }
        buckets.swept = Some(now);
        let idle = self.rate.refill_time();
        buckets.map.retain(|_, bucket| now.duration_since(bucket.at) < idle);
    }
}

/// The address a bucket is kept for: IPv4 as is (also when written as IPv6), IPv6 by its /64.
fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn behind_a_trusted_balancer_the_client_is_the_address_it_forwards() {
        let limit = PerClient::new(Rate::new(1.0, 1.0), 10).trusting(&[ip("10.0.0.1"), ip("10.0.0.2")]);
        // Straight from a client: its own address, whatever it claims.
        assert_eq!(limit.client(ip("203.0.113.9"), Some("198.51.100.1")), ip("203.0.113.9"));
        // Through the balancer: the address it saw, not what the client wrote before it.
        assert_eq!(limit.client(ip("10.0.0.1"), Some("198.51.100.1, 203.0.113.9")), ip("203.0.113.9"));
        // Through two trusted hops.
        assert_eq!(limit.client(ip("10.0.0.1"), Some("203.0.113.9, 10.0.0.2")), ip("203.0.113.9"));
        // No header, or garbage: the balancer itself.
        assert_eq!(limit.client(ip("10.0.0.1"), None), ip("10.0.0.1"));
        assert_eq!(limit.client(ip("10.0.0.1"), Some("not an address")), ip("10.0.0.1"));
        // Each forwarded client has its own bucket.
        assert!(limit.check(limit.client(ip("10.0.0.1"), Some("203.0.113.9"))).is_ok());
        assert!(limit.check(limit.client(ip("10.0.0.1"), Some("203.0.113.10"))).is_ok());
        assert!(limit.check(limit.client(ip("10.0.0.1"), Some("203.0.113.9"))).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_gets_its_burst_then_the_rate() {
        let limit = PerClient::new(Rate::new(2.0, 3.0), 10);
        for _ in 0..3 {
            assert!(limit.check(ip("10.0.0.1")).is_ok());
        }
        let wait = limit.check(ip("10.0.0.1")).unwrap_err();
        assert_eq!(wait, Duration::from_millis(500));
        assert!(limit.check(ip("10.0.0.2")).is_ok(), "another client has its own bucket");
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(limit.check(ip("10.0.0.1")).is_ok());
        assert!(limit.check(ip("10.0.0.1")).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn ipv6_clients_share_a_bucket_per_64() {
        let limit = PerClient::new(Rate::new(1.0, 1.0), 10);
        assert!(limit.check(ip("2001:db8:1:2::1")).is_ok());
        assert!(limit.check(ip("2001:db8:1:2:ffff::9")).is_err(), "the same /64");
        assert!(limit.check(ip("2001:db8:1:3::1")).is_ok());
        assert!(limit.check(ip("::ffff:10.0.0.1")).is_ok());
        assert!(limit.check(ip("10.0.0.1")).is_err(), "an IPv4-mapped address is its IPv4 address");
    }

    #[tokio::test(start_paused = true)]
    async fn the_table_stays_bounded_and_forgets_refilled_buckets() {
        let limit = PerClient::new(Rate::new(10.0, 10.0), 3);
        for i in 1..=3 {
            assert!(limit.check(ip(&format!("10.0.0.{i}"))).is_ok());
        }
        assert!(limit.check(ip("10.0.0.4")).is_err(), "full of active clients: a new address waits");
        assert_eq!(limit.len(), 3);
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(limit.check(ip("10.0.0.4")).is_ok(), "refilled buckets were swept out");
        assert_eq!(limit.len(), 1);
    }
}
