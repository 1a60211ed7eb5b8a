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
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
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
        let mut digits = [0u8; 64];
        f.write_str(lowercase_hex(&self.0, &mut digits))
    }
}

/// `bytes` in lowercase hex, written into `out` (twice as long). Every view carries a deal's commitment,
/// and formatting each byte with `{:02x}` was a few percent of a busy server's time.
pub(crate) fn lowercase_hex<'a>(bytes: &[u8], out: &'a mut [u8]) -> &'a str {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (byte, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 15)];
    }
    std::str::from_utf8(&out[..2 * bytes.len()]).expect("hex digits are ASCII")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_is_written_as_64_lowercase_hex_digits_in_byte_order() {
        let mut bytes = [0u8; 32];
        bytes[..4].copy_from_slice(&[0x00, 0x0f, 0xa0, 0xff]);
        bytes[31] = 0x5c;
        let text = Seed(bytes).to_string();
        assert_eq!(text, format!("000fa0ff{}5c", "00".repeat(27)));
        assert_eq!(text.parse::<Seed>().unwrap(), Seed(bytes));
    }
}
