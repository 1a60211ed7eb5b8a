//! Protected names (`docs/names.md`): the two secrets that prove a name, and what is kept of them.
//!
//! A protected name has a key, 256 random bits that the player's browser keeps, and a recovery code, 100
//! random bits written as 20 Crockford base-32 digits that the player writes down. The server keeps only
//! the SHA-256 of each (with a prefix that tells the two apart). No slow hash is needed: a slow hash makes
//! guessing a *chosen* password from its hash expensive, but these secrets are drawn at random, and trying
//! 2^100 (let alone 2^256) of them is out of reach however fast each try is.

use sha2::{Digest, Sha256};

/// The digits of a recovery code: Crockford's base 32 (no I, L, O or U, which read as other digits).
const DIGITS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// A recovery code's digits: 20 of 5 bits each.
pub const RECOVERY_DIGITS: usize = 20;

/// The key and recovery code of a name, as the player gets them (once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secrets {
    /// 64 lowercase hex digits.
    pub key: String,
    /// `XXXXX-XXXXX-XXXXX-XXXXX`.
    pub recovery: String,
}

/// What the server keeps of a name's secrets: their digests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digests {
    pub key: String,
    pub recovery: String,
}

impl Secrets {
    /// Fresh secrets from a cryptographic random generator.
    pub fn draw(rng: &mut impl rand::CryptoRng) -> Secrets {
        let mut key = [0u8; 32];
        rng.fill_bytes(&mut key);
        let digits: Vec<u8> = (0..RECOVERY_DIGITS).map(|_| DIGITS[(rng.next_u32() % 32) as usize]).collect();
        let groups: Vec<&str> =
            digits.chunks(5).map(|group| std::str::from_utf8(group).expect("ASCII digits")).collect();
        Secrets { key: hex(&key), recovery: groups.join("-") }
    }

    pub fn digests(&self) -> Digests {
        Digests {
            key: key_digest(&self.key),
            recovery: recovery_digest(&self.recovery).expect("a drawn code reads back"),
        }
    }
}

/// The key of a name as the database and every comparison use it: names are case-insensitive.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The digest kept of a key.
pub fn key_digest(key: &str) -> String {
    digest("ddz-name-key/1:", key.trim())
}

/// The digest kept of a recovery code, read as people type it back: any case, with or without dashes and
/// spaces, O for 0 and I or L for 1. `None` for anything that is not 20 digits.
pub fn recovery_digest(code: &str) -> Option<String> {
    let mut digits = String::with_capacity(RECOVERY_DIGITS);
    for c in code.chars().filter(|c| !matches!(c, '-' | ' ')) {
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        if !c.is_ascii() || !DIGITS.contains(&(c as u8)) {
            return None;
        }
        digits.push(c);
    }
    (digits.len() == RECOVERY_DIGITS).then(|| digest("ddz-name-recovery/1:", &digits))
}

/// Whether two digests are equal, in a time that does not depend on where they first differ.
pub fn same_digest(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |differ, (x, y)| differ | (x ^ y)) == 0
}

fn digest(prefix: &str, secret: &str) -> String {
    hex(&Sha256::digest(format!("{prefix}{secret}").as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_each_time_and_only_their_digests_match() {
        let mut rng = rand::rng();
        let (a, b) = (Secrets::draw(&mut rng), Secrets::draw(&mut rng));
        assert_ne!(a, b);
        assert_eq!(a.key.len(), 64);
        assert!(a.key.bytes().all(|c| c.is_ascii_hexdigit()));
        let digests = a.digests();
        assert!(same_digest(&digests.key, &key_digest(&a.key)));
        assert!(!same_digest(&digests.key, &key_digest(&b.key)));
        assert_ne!(digests.key, a.key, "the digest is not the key");
        assert!(!same_digest(&digests.recovery, &key_digest(&a.recovery)), "a code is no key");
    }

    #[test]
    fn a_recovery_code_reads_back_as_people_type_it() {
        let code = "0A1B2-C3D4E-F5G6H-J7K8M";
        let digest = recovery_digest(code).unwrap();
        assert_eq!(recovery_digest("0a1b2 c3d4e f5g6h j7k8m").as_ref(), Some(&digest));
        assert_eq!(recovery_digest("OA1B2C3D4EF5G6HJ7K8M").as_ref(), Some(&digest), "O for 0");
        assert_eq!(recovery_digest("0Al B2-C3D4E-F5G6H-J7K8M").as_ref(), Some(&digest), "l for 1, a space inside");
        assert_eq!(recovery_digest("0A1B2-C3D4E-F5G6H-J7K8"), None, "too short");
        assert_eq!(recovery_digest("0A1B2-C3D4E-F5G6H-J7K8U"), None, "U is no digit");
        assert_eq!(recovery_digest("0A1B2-C3D4E-F5G6H-J7K8é"), None);
        let drawn = Secrets::draw(&mut rand::rng()).recovery;
        assert_eq!(drawn.len(), RECOVERY_DIGITS + 3);
        assert!(recovery_digest(&drawn).is_some());
    }

    #[test]
    fn digests_compare_whole() {
        assert!(same_digest("abc", "abc"));
        assert!(!same_digest("abc", "abd"));
        assert!(!same_digest("abc", "ab"));
    }
}
