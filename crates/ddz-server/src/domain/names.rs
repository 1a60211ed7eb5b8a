//! Names (`docs/names.md`): what a player's name is, read once at the edge ([`PlayerName`]), and the key
//! every comparison, every map, every row and every board uses for it ([`NameKey`]), so that a name is one
//! name in every spelling; and protected names' two secrets and what is kept of them.
//!
//! A protected name has a key, 256 random bits that the player's browser keeps, and a recovery code, 100
//! random bits written as 20 Crockford base-32 digits that the player writes down. The server keeps only
//! the SHA-256 of each (with a prefix that tells the two apart). No slow hash is needed: a slow hash makes
//! guessing a *chosen* password from its hash expensive, but these secrets are drawn at random, and trying
//! 2^100 (let alone 2^256) of them is out of reach however fast each try is.

use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
use unicode_script::{Script, UnicodeScript};
use unicode_security::MixedScript;
use unicode_security::mixed_script::AugmentedScriptSet;

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

/// The longest name, in characters (after normalising).
pub const MAX_NAME: usize = 24;

/// A player's name as typed, read once at the edge (a request body, a path, a `hello`): its display form and
/// its key. Two names with the same key are the same name everywhere: seats, protection, stats, ratings,
/// boards and the queue. It travels (between a cluster's nodes) as its display form, read again on
/// arrival.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PlayerName {
    display: String,
    key: NameKey,
}

/// The key of a name ([`fold`]): what every map, query, fold and comparison holds for a player, never a
/// bare string. Made only by reading a name: [`PlayerName::key`] for one arriving now, and
/// [`NameKey::of_stored`] for a display name written before (in a room's or a tournament's log, a stored
/// row), which today's rules may no longer accept as typed but which is still someone's name. Read back
/// from the store as it was written (the store's `sqlx` impls; `store::rekey` moves every stored key to
/// today's fold once). Not for display.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct NameKey(String);

impl NameKey {
    /// The key of a display name written before (never of what a client sends: that is a
    /// [`PlayerName`] first).
    pub fn of_stored(name: &str) -> NameKey {
        NameKey(fold(name))
    }

    /// A key as the store wrote it.
    pub(crate) fn from_store(key: String) -> NameKey {
        NameKey(key)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// For the logs.
impl std::fmt::Display for NameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a typed name is refused (each is `bad_name`, with its message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name is 1 to {MAX_NAME} characters")]
    Length,
    #[error("a name may not contain the character U+{0:04X}")]
    Control(u32),
    #[error("a name may not contain the invisible character U+{0:04X}")]
    Invisible(u32),
    #[error("a name may not mix {0} and {1} letters, which look alike")]
    MixedScripts(&'static str, &'static str),
}

impl PlayerName {
    /// Reads a typed name: NFKC (full-width and other compatibility forms become the plain letters,
    /// decomposed accents are composed), blanks collapsed to single spaces and trimmed (the Braille blank
    /// and the Hangul fillers are blanks); refused if it is empty or longer than [`MAX_NAME`], holds a
    /// control character or an invisible one (the default-ignorable and format characters, but for the
    /// joiners and selectors inside an emoji), or mixes scripts in a confusing way (Latin with Cyrillic or
    /// Greek, or any two scripts other than Latin with one more, or Han with its Japanese and Korean
    /// companions: UTS #39's moderately restrictive level).
    pub fn parse(typed: &str) -> Result<PlayerName, NameError> {
        let normal: Vec<char> = typed.nfkc().collect();
        let mut display = String::with_capacity(typed.len());
        for (i, &c) in normal.iter().enumerate() {
            if c.is_control() {
                return Err(NameError::Control(u32::from(c)));
            }
            if is_blank(c) {
                if !display.is_empty() && !display.ends_with(' ') {
                    display.push(' ');
                }
                continue;
            }
            if is_invisible(c) && !inside_emoji(&normal, i) {
                return Err(NameError::Invisible(u32::from(c)));
            }
            display.push(c);
        }
        let display = display.trim_end().to_string();
        let length = display.chars().count();
        if length == 0 || length > MAX_NAME {
            return Err(NameError::Length);
        }
        check_scripts(&display)?;
        let key = NameKey::of_stored(&display);
        Ok(PlayerName { display, key })
    }

    /// The name as it is shown.
    pub fn as_str(&self) -> &str {
        &self.display
    }

    /// The key every comparison and row uses.
    pub fn key(&self) -> &NameKey {
        &self.key
    }
}

impl std::fmt::Display for PlayerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.display)
    }
}

impl TryFrom<String> for PlayerName {
    type Error = NameError;

    fn try_from(typed: String) -> Result<PlayerName, NameError> {
        PlayerName::parse(&typed)
    }
}

impl From<PlayerName> for String {
    fn from(name: PlayerName) -> String {
        name.display
    }
}

/// The key of any name, typed now or stored long ago: NFKC; invisible characters dropped; blanks as single
/// spaces, trimmed; lower case (with ß as ss and final sigma as sigma); then the Unicode confusables
/// skeleton (UTS #39), lower-cased again. Every look-alike spelling of a name has its key: `Ａｌｉｃｅ`,
/// `Ali\u{AD}ce`, `АӀісе` (Cyrillic), `B0b` for `Bob`. Not for display.
fn fold(name: &str) -> String {
    let mut plain = String::with_capacity(name.len());
    for c in name.nfkc() {
        if is_blank(c) {
            if !plain.is_empty() && !plain.ends_with(' ') {
                plain.push(' ');
            }
        } else if !is_invisible(c) && !c.is_control() {
            for lower in c.to_lowercase() {
                match lower {
                    'ß' => plain.push_str("ss"),
                    'ς' => plain.push('σ'),
                    lower => plain.push(lower),
                }
            }
        }
    }
    let skeleton: String = unicode_security::skeleton(plain.trim_end()).collect();
    skeleton.to_lowercase()
}

/// Blanks: whitespace, and the characters that show as nothing but are letters or symbols (the Braille
/// pattern blank, the Hangul fillers).
fn is_blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{2800}' | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}')
}

/// Characters that are not seen: Unicode's default-ignorable code points (soft hyphen, joiners, variation
/// selectors, tags, bidirectional controls...) and every format character.
fn is_invisible(c: char) -> bool {
    c.general_category() == GeneralCategory::Format
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// Whether the invisible character at `i` belongs to an emoji: a joiner between two emoji (👩‍💻), a
/// presentation selector after one, a tag inside a flag (🏴 + tags + cancel tag).
fn inside_emoji(chars: &[char], i: usize) -> bool {
    let emoji = |c: &char| c.is_emoji_char() && !c.is_ascii();
    let tag = |c: &char| ('\u{E0020}'..='\u{E007E}').contains(c);
    match chars[i] {
        // Between two emoji, the first perhaps with its presentation selector.
        '\u{200D}' => {
            chars[..i].iter().rev().find(|&&c| c != '\u{FE0F}').is_some_and(emoji)
                && chars.get(i + 1).is_some_and(emoji)
        }
        '\u{FE0E}' | '\u{FE0F}' => i > 0 && emoji(&chars[i - 1]),
        '\u{E0020}'..='\u{E007F}' => chars[..i].iter().rev().find(|c| !tag(c)) == Some(&'\u{1F3F4}'),
        _ => false,
    }
}

/// Refuses letters of scripts mixed in a confusing way (UTS #39's moderately restrictive level): the
/// letters must be of one script (Han with Hiragana and Katakana, or with Hangul, or with Bopomofo counts as
/// one), or Latin with one other script that is neither Cyrillic nor Greek.
fn check_scripts(name: &str) -> Result<(), NameError> {
    let letters: String = name.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.as_str().is_single_script() {
        return Ok(());
    }
    let latin = |c: &char| AugmentedScriptSet::for_char(*c).base.contains_script(Script::Latin);
    let others: String = letters.chars().filter(|c| !latin(c)).collect();
    let rest = AugmentedScriptSet::for_str(&others);
    if rest.kore || rest.hanb || rest.jpan {
        return Ok(());
    }
    let scripts: Vec<Script> = rest.base.iter().collect();
    if let [script] = scripts[..]
        && script.is_recommended()
        && script != Script::Cyrillic
        && script != Script::Greek
    {
        return Ok(());
    }
    // Name the first two scripts that clash, in the order the letters come.
    let mut seen: Vec<&'static str> = Vec::new();
    for c in letters.chars() {
        let script = c.script();
        if !matches!(script, Script::Common | Script::Inherited) && !seen.contains(&script.full_name()) {
            seen.push(script.full_name());
        }
    }
    Err(NameError::MixedScripts(seen.first().copied().unwrap_or("two"), seen.get(1).copied().unwrap_or("other")))
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

    fn key(typed: &str) -> String {
        PlayerName::parse(typed)
            .map(|name| name.key().as_str().to_string())
            .unwrap_or_else(|e| panic!("{typed:?}: {e}"))
    }

    #[test]
    fn a_name_is_the_same_name_in_every_case_and_compatibility_form() {
        assert_eq!(key("Alice"), key("aLICE"));
        assert_eq!(key("\u{FF21}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}"), key("Alice"), "full-width letters");
        assert_eq!(PlayerName::parse("\u{FF21}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}").unwrap().as_str(), "Alice");
        assert_eq!(key("Jose\u{301}"), key("José"), "a decomposed accent is the composed one");
        assert_eq!(key("  Ann   Lee "), key("Ann Lee"), "blanks collapse and trim");
        assert_eq!(key("Alice\u{2800}"), key("Alice"), "the Braille blank is a blank");
        assert_eq!(key("Zoë"), key("ZOË"));
        assert_ne!(key("Zoe"), key("Zoë"), "an accent makes another name");
        assert_ne!(key("Ann"), key("Anne"));
        assert_eq!(key("STRASSE"), key("straße"));
        assert_eq!(key("小明"), key("小明"));
    }

    #[test]
    fn look_alike_letters_share_a_key() {
        assert_eq!(NameKey::of_stored("B0b"), NameKey::of_stored("Bob"), "a zero for an o");
        assert_eq!(
            NameKey::of_stored("\u{0410}\u{04C0}\u{0456}\u{0441}\u{0435}"),
            NameKey::of_stored("alice"),
            "Cyrillic look-alikes"
        );
        assert_eq!(NameKey::of_stored("\u{0391}lice"), NameKey::of_stored("Alice"), "a Greek capital alpha");
        assert_eq!(NameKey::of_stored("Ali\u{AD}ce"), NameKey::of_stored("Alice"), "a stored name with a soft hyphen");
        assert_eq!(NameKey::of_stored("Ali\u{200D}ce"), NameKey::of_stored("Alice"), "a stored name with a joiner");
        assert_eq!(
            key("\u{0410}\u{04C0}\u{0456}\u{0441}\u{0435}"),
            key("alice"),
            "a whole-script look-alike is the name"
        );
        // The pairs docs/names.md lists.
        for (a, b) in [("rn", "m"), ("l", "1"), ("l", "|")] {
            assert_eq!(NameKey::of_stored(a), NameKey::of_stored(b), "{a} and {b}");
        }
        assert_ne!(NameKey::of_stored("AIice"), NameKey::of_stored("Alice"), "case goes first: a capital I is an i");
        assert_eq!(NameKey::of_stored("AIice"), NameKey::of_stored("aiice"));
    }

    #[test]
    fn invisible_characters_are_refused_but_inside_emoji() {
        for (typed, c) in [
            ("Ali\u{AD}ce", 0xAD),
            ("Ali\u{200D}ce", 0x200D),
            ("Alice\u{202E}", 0x202E),
            ("Al\u{2066}ice", 0x2066),
            ("Al\u{200B}ice", 0x200B),
            ("Ann\u{FE0F}", 0xFE0F),
            ("Ann\u{E0041}", 0xE0041),
        ] {
            assert_eq!(PlayerName::parse(typed), Err(NameError::Invisible(c)), "{typed:?}");
        }
        assert_eq!(PlayerName::parse("Ann\u{7}"), Err(NameError::Control(7)));
        assert_eq!(PlayerName::parse("new\nline"), Err(NameError::Control(10)), "a line break is no blank");
        for emoji in [
            "Ann 👩\u{200D}💻",
            "❤\u{FE0F}\u{200D}🔥 fan",
            "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "👩🏽\u{200D}💻",
        ] {
            let name = PlayerName::parse(emoji).unwrap_or_else(|e| panic!("{emoji:?}: {e}"));
            assert_eq!(name.as_str(), emoji);
        }
    }

    #[test]
    fn names_mixing_look_alike_scripts_are_refused() {
        assert_eq!(PlayerName::parse("\u{0410}lice"), Err(NameError::MixedScripts("Cyrillic", "Latin")));
        assert_eq!(PlayerName::parse("\u{0391}lice"), Err(NameError::MixedScripts("Greek", "Latin")));
        for fine in ["Tom小明", "さくらSakura", "김Kim", "Алиса", "Ζωή", "José 2", "小明のゲーム"]
        {
            assert!(PlayerName::parse(fine).is_ok(), "{fine:?}");
        }
    }

    #[test]
    fn a_name_is_one_to_twenty_four_characters_once_normal() {
        assert_eq!(PlayerName::parse(" \u{2800} "), Err(NameError::Length));
        assert_eq!(PlayerName::parse(&"x".repeat(25)), Err(NameError::Length));
        assert!(PlayerName::parse(&"x".repeat(24)).is_ok());
    }

    #[test]
    fn digests_compare_whole() {
        assert!(same_digest("abc", "abc"));
        assert!(!same_digest("abc", "abd"));
        assert!(!same_digest("abc", "ab"));
    }
}
