//! Token buckets: one per WebSocket connection for its commands, one per client address for HTTP API
//! requests and for new WebSocket connections, and one per name and per address for wrong guesses at
//! protected names' secrets ([`Guesses`]).
//!
//! The per-address map is bounded: buckets that have refilled completely say nothing a fresh bucket would
//! not, so they are swept out when the map is full; if it is still full, new addresses are refused until
//! some refill (an attack from that many addresses at once should not grow the server's memory).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;

use tokio::time::{Duration, Instant};

use crate::domain::names::NameKey;

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

/// A token bucket per key, in a bounded table (see the module's notes).
#[derive(Debug)]
struct Keyed<K> {
    rate: Rate,
    capacity: usize,
    buckets: Mutex<Buckets<K>>,
}

#[derive(Debug)]
struct Buckets<K> {
    map: HashMap<K, Bucket>,
    swept: Option<Instant>,
}

impl<K: Hash + Eq> Keyed<K> {
    fn new(rate: Rate, capacity: usize) -> Keyed<K> {
        let buckets = Mutex::new(Buckets { map: HashMap::new(), swept: None });
        Keyed { rate, capacity: capacity.max(1), buckets }
    }

    /// Takes a token for `key`; otherwise how long to wait.
    fn check(&self, key: K) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().expect("rate limit lock");
        if let Some(bucket) = buckets.map.get_mut(&key) {
            return bucket.take(self.rate);
        }
        if buckets.map.len() >= self.capacity {
            self.sweep(&mut buckets);
            if buckets.map.len() >= self.capacity {
                tracing::warn!(keys = buckets.map.len(), "rate limit table full: refusing a new key");
                return Err(Duration::from_secs(1));
            }
        }
        let mut bucket = Bucket::full(self.rate);
        let taken = bucket.take(self.rate);
        buckets.map.insert(key, bucket);
        taken
    }

    /// Puts back a token taken for `key` (its bucket never holds more than a full one).
    fn give_back(&self, key: &K) {
        if let Some(bucket) = self.buckets.lock().expect("rate limit lock").map.get_mut(key) {
            bucket.tokens = (bucket.tokens + 1.0).min(self.rate.burst);
        }
    }

    /// Keys tracked now (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.lock().expect("rate limit lock").map.len()
    }

    /// Drops the buckets that have refilled (at most once a second: a full table of busy clients must not
    /// make every new key pay for a scan).
    fn sweep(&self, buckets: &mut Buckets<K>) {
        let now = Instant::now();
        if buckets.swept.is_some_and(|at| now.duration_since(at) < Duration::from_secs(1)) {
            return;
        }
        buckets.swept = Some(now);
        let idle = self.rate.refill_time();
        buckets.map.retain(|_, bucket| now.duration_since(bucket.at) < idle);
    }
}

/// A token bucket per client address (IPv6 addresses by their /64, which one client usually holds whole).
#[derive(Debug)]
pub struct PerClient {
    buckets: Keyed<IpAddr>,
    /// Balancers whose `X-Forwarded-For` names the client (`--trusted-proxies`).
    trusted: Vec<IpAddr>,
}

/// Addresses tracked at once, by default.
pub const CLIENTS: usize = 50_000;

impl PerClient {
    pub fn new(rate: Rate, capacity: usize) -> PerClient {
        PerClient { buckets: Keyed::new(rate, capacity), trusted: Vec::new() }
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
        self.buckets.check(client_key(ip))
    }

    /// Addresses tracked now (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.len()
    }
}

/// Wrong guesses at protected names' secrets (`docs/names.md`): recovery codes count per name and per
/// client address, keys per address only (a key is 256 random bits, and counting wrong keys per name
/// would let anyone lock the owner out by sending some). A guess takes its tokens before it is checked
/// and a right one gives them back, so that guesses sent all at once cannot outrun the count.
#[derive(Debug)]
pub struct Guesses {
    per_name: Keyed<NameKey>,
    per_address: Keyed<IpAddr>,
}

/// Wrong recovery codes for one name: 10 per 10 minutes.
pub const GUESSES_PER_NAME: Rate = Rate::new(10.0 / 600.0, 10.0);
/// Wrong keys and recovery codes from one address: 30 per 10 minutes.
pub const GUESSES_PER_ADDRESS: Rate = Rate::new(30.0 / 600.0, 30.0);
/// Names one address may protect: 5 an hour, so that nobody protects every name on the boards at once.
pub const PROTECTS: Rate = Rate::new(5.0 / 3600.0, 5.0);

impl Guesses {
    pub fn new(per_name: Rate, per_address: Rate) -> Guesses {
        Guesses { per_name: Keyed::new(per_name, CLIENTS), per_address: Keyed::new(per_address, CLIENTS) }
    }

    /// Takes a guess at `name`'s recovery code or, without a name, at a key, from `from` (no address: not
    /// counted by address); otherwise how long to wait.
    pub fn take(&self, name: Option<&NameKey>, from: Option<IpAddr>) -> Result<(), Duration> {
        // The address first: an address out of guesses adds no name to the table.
        if let Some(ip) = from {
            self.per_address.check(client_key(ip))?;
        }
        if let Some(name) = name
            && let Err(wait) = self.per_name.check(name.clone())
        {
            if let Some(ip) = from {
                self.per_address.give_back(&client_key(ip));
            }
            return Err(wait);
        }
        Ok(())
    }

    /// A guess was right: its tokens go back.
    pub fn give_back(&self, name: Option<&NameKey>, from: Option<IpAddr>) {
        if let Some(name) = name {
            self.per_name.give_back(name);
        }
        if let Some(ip) = from {
            self.per_address.give_back(&client_key(ip));
        }
    }
}

/// The address a bucket is kept for: IPv4 as is (also when written as IPv6), IPv6 by its /64.
pub(super) fn client_key(ip: IpAddr) -> IpAddr {
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

    #[tokio::test(start_paused = true)]
    async fn wrong_guesses_count_per_name_and_per_address_and_right_ones_do_not() {
        let guesses = Guesses::new(Rate::new(1.0 / 60.0, 2.0), Rate::new(1.0 / 60.0, 3.0));
        let (a, b) = (Some(ip("10.0.0.1")), Some(ip("10.0.0.2")));
        let (ann, bob) = (NameKey::of_stored("Ann"), NameKey::of_stored("Bob"));
        // Right guesses give their tokens back: any number of them.
        for _ in 0..10 {
            guesses.take(Some(&ann), a).unwrap();
            guesses.give_back(Some(&ann), a);
        }
        // Two wrong codes for Ann from one address, a third from another: her name is out.
        guesses.take(Some(&ann), a).unwrap();
        guesses.take(Some(&ann), a).unwrap();
        let wait = guesses.take(Some(&ann), b).unwrap_err();
        assert_eq!(wait, Duration::from_secs(60));
        // Other names, and keys, from that address still have their tokens: one left.
        guesses.take(None, a).unwrap();
        assert!(guesses.take(Some(&bob), a).is_err(), "the address has made its three wrong guesses");
        guesses.take(Some(&bob), b).unwrap();
        guesses.take(Some(&bob), b).expect("a name refused by address kept its own tokens");
        assert!(guesses.take(Some(&ann), b).is_err());
        guesses.take(None, b).expect("a guess refused by name kept the address's token");
        tokio::time::advance(Duration::from_secs(60)).await;
        guesses.take(Some(&ann), b).expect("a minute later, one more");
    }
}
