//! Provably fair deals (docs/fair-deals.md): before a deal the server publishes a commitment, the
//! SHA-256 of the deal's seed and a salt; after the deal it reveals both, and anyone can check that they
//! give the commitment and that the seed deals exactly the hands that were played.
//!
//! The commitment is the SHA-256, in 64 lowercase hex digits, of the ASCII text
//! `ddz-fair/1:<seed>:<salt>`, the seed and the salt each written as 64 lowercase hex digits, so that a
//! verifier needs nothing but a SHA-256 tool: `printf 'ddz-fair/1:%s:%s' SEED SALT | sha256sum`.
//!
//! Where players add their own randomness (`ddz-fair/2`), the committed seed is the server's part only:
//! the cards are dealt from [`dealing_seed`], the SHA-256 of the server's seed and every seat's nonce, so
//! that neither the server (committed before the nonces) nor a player (who never sees the server's seed)
//! can choose the deal.

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
    /// The players' nonces by seat, from the deal's start (they reveal nothing without the seed), so that
    /// each player sees that their own went in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "Array<string | null>", optional))]
    pub nonces: Option<Vec<Option<Nonce>>>,
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

/// A seat's random contribution to a deal, 32 bytes written like a seed; `None` for a seat that sent none
/// (a bot, an absent player, a player whose nonce came after the wait): the server's seed stands for it.
pub type Nonce = Seed;

/// The seed the cards are dealt from when players added nonces: the SHA-256 of the ASCII text
/// `ddz-deal/2:<seed>:<nonce 0>:<nonce 1>[:<nonce 2>]`, each nonce as 64 lowercase hex digits and a seat
/// without one as `-`.
///
/// ```
/// use ddz_engine::{Seed, fair::dealing_seed};
/// let server = Seed::from_u64(1);
/// let with = dealing_seed(&server, &[Some(Seed::from_u64(2)), None, None]);
/// assert_ne!(with, server);
/// assert_ne!(with, dealing_seed(&server, &[Some(Seed::from_u64(3)), None, None]));
/// assert_ne!(with, dealing_seed(&server, &[None, Some(Seed::from_u64(2)), None]));
/// ```
pub fn dealing_seed(seed: &Seed, nonces: &[Option<Nonce>]) -> Seed {
    let parts: Vec<String> = nonces.iter().map(|n| n.map_or_else(|| "-".to_string(), |n| n.to_string())).collect();
    let text = format!("ddz-deal/2:{seed}:{}", parts.join(":"));
    Seed(Sha256::digest(text.as_bytes()).into())
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
