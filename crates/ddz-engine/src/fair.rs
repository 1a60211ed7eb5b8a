//! Provably fair deals (docs/fair-deals.md): before a deal the server publishes a commitment, the
//! SHA-256 of the deal's seed and a salt; after the deal it reveals both, and anyone can check that they
//! give the commitment and that the seed deals exactly the hands that were played.
//!
//! The commitment is the SHA-256, in 64 lowercase hex digits, of the ASCII text
//! `ddz-fair/1:<seed>:<salt>`, the seed and the salt each written as 64 lowercase hex digits, so that a
//! verifier needs nothing but a SHA-256 tool: `printf 'ddz-fair/1:%s:%s' SEED SALT | sha256sum`.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::rng::Seed;

/// 32 random bytes that the server adds to a deal's seed in the commitment, written like a seed.
pub type Salt = Seed;

/// What the table learns about a deal's fairness: the commitment from the start, and once the deal is
/// over, the seed and the salt behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fairness {
    pub commitment: String,
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub seed: Option<Seed>,
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub salt: Option<Salt>,
}

/// The commitment to `seed` and `salt`.
///
/// ```
/// use ddz_engine::{Seed, fair::commitment};
/// let c = commitment(&Seed::from_u64(1), &Seed::from_u64(2));
/// assert_eq!(c.len(), 64);
/// assert_ne!(c, commitment(&Seed::from_u64(1), &Seed::from_u64(3)));
/// ```
pub fn commitment(seed: &Seed, salt: &Salt) -> String {
    sha256_hex(&format!("ddz-fair/1:{seed}:{salt}"))
}

/// The commitment to a day's rally: the SHA-256 of `ddz-rally/1:<date>:` followed by the day's deal
/// commitments in order, separated by `:`.
pub fn day_commitment(date: &str, deal_commitments: &[String]) -> String {
    sha256_hex(&format!("ddz-rally/1:{date}:{}", deal_commitments.join(":")))
}

fn sha256_hex(text: &str) -> String {
    let mut digits = [0u8; 64];
    crate::rng::lowercase_hex(&Sha256::digest(text.as_bytes()), &mut digits).to_string()
}
