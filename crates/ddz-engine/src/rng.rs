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

/// The random stream every draw of the project uses (a deal's cards, a tournament's seats), written out
/// so that anyone can draw again from a revealed seed in any language: ChaCha20 (20 rounds, the 32 bytes
/// of the seed as its key, a zero nonce, the stream read from its start), consumed only as 64-bit
/// little-endian words (`next_u64`) by [`Stream::below`] and [`Stream::shuffle`].
pub struct Stream(ChaCha20Rng);

impl Stream {
    pub fn new(seed: &Seed) -> Stream {
        Stream(ChaCha20Rng::from_seed(seed.0))
    }

    /// A uniform number in `0..n` (`n` > 0), by rejection so that every value is equally likely: the next
    /// word `x` is taken if `x < 2^64 - 1 - ((2^64 - 1) mod n)`, as `x mod n`; otherwise the next word is
    /// tried.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.0.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Fisher-Yates from the last place down: for `i` from `len - 1` to 1, swap place `i` with place
    /// `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream is RFC 8439's ChaCha20 keystream (its test vector A.1 #1: an all-zero key and nonce,
    /// block 0), read as little-endian 64-bit words.
    #[test]
    fn the_stream_is_chacha20s_keystream_read_as_little_endian_words() {
        let mut stream = Stream::new(&Seed([0; 32]));
        let first = [0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90];
        let second = [0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28];
        assert_eq!(stream.0.next_u64(), u64::from_le_bytes(first));
        assert_eq!(stream.0.next_u64(), u64::from_le_bytes(second));
    }

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
