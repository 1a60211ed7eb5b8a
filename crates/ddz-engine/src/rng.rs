//! Deal seeds and the deal's random number stream.
//!
//! A [`Seed`] is 32 bytes (64 hex digits in JSON). The stream is ChaCha20 from that seed; shuffles and
//! draws use only its `next_u64` output through the functions here, so a recorded deal replays the same
//! way whatever version of the `rand` crate shuffles slices.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A deal's seed.
///
/// ```
/// use ddz_engine::Seed;
/// let seed = Seed::from_u64(7);
/// assert_eq!(seed.to_string().parse::<Seed>().unwrap(), seed);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed for tests and simulations: `n` in the first eight bytes.
    pub fn from_u64(n: u64) -> Seed {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(bytes)
    }

    /// A seed drawn from `rng` (the server draws from the operating system's generator).
    pub fn random(rng: &mut impl Rng) -> Seed {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
        }
        Seed(bytes)
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({self})")
    }
}

/// A seed that is not 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hex digits")]
pub struct BadSeed;

impl FromStr for Seed {
    type Err = BadSeed;
    fn from_str(s: &str) -> Result<Seed, BadSeed> {
        if s.len() != 64 || !s.is_ascii() {
            return Err(BadSeed);
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| BadSeed)?;
        }
        Ok(Seed(bytes))
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// The random stream of one deal.
pub(crate) struct DealRng(ChaCha20Rng);

impl DealRng {
    pub(crate) fn new(seed: &Seed) -> DealRng {
        DealRng(ChaCha20Rng::from_seed(seed.0))
    }

    /// A uniform number in `0..n` (`n` > 0), by rejection so that every value is equally likely.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.0.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Fisher-Yates.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}
