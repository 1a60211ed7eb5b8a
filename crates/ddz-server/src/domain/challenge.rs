//! Challenge modes and their boards (RULES.md section 9): Bot Buster, Bot Bomber and Bang rallies.
//!
//! Pure: the kinds and their limits, the rally's deals drawn from the day and the server's secret, the
//! calendar date of a time, and how finished runs rank on a board. The room applies the limits; the
//! database stores a run when it starts and its result once, when it ends.

use ddz_bot::BotKind;
use ddz_engine::{DealSetup, Rules, Seat, Seed, Start};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

/// A challenge mode. All three play House rules with the Wild, so that results compare.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ChallengeKind {
    /// You against two `hard` bots, everyone from $100, until a balance reaches $0 or 20 deals.
    Buster,
    /// You against two `bomber` bots, as long as Bot Buster; the board ranks the biggest pot won.
    Bomber,
    /// The day's 10 deals, the same cards and seat for everyone, against deterministic `hard` bots.
    Rally,
}

/// A rally is this many deals.
pub const RALLY_DEALS: u32 = 10;
/// Bot Buster and Bot Bomber runs end after this many deals at the latest.
pub const RUN_DEALS: u32 = 20;
/// The player's seat in a rally: the same for everyone.
pub const RALLY_SEAT: Seat = 0;

impl ChallengeKind {
    pub const ALL: [ChallengeKind; 3] = [ChallengeKind::Buster, ChallengeKind::Bomber, ChallengeKind::Rally];

    pub fn name(self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }

    pub fn parse(text: &str) -> Option<ChallengeKind> {
        ChallengeKind::ALL.into_iter().find(|k| k.name() == text)
    }

    /// The level of the two bots.
    pub fn bot_level(self) -> BotKind {
        match self {
            ChallengeKind::Bomber => BotKind::Bomber,
            ChallengeKind::Buster | ChallengeKind::Rally => BotKind::Hard,
        }
    }

    pub fn max_deals(self) -> u32 {
        match self {
            ChallengeKind::Rally => RALLY_DEALS,
            ChallengeKind::Buster | ChallengeKind::Bomber => RUN_DEALS,
        }
    }

    /// Whether a run ends as soon as a balance reaches $0 (a rally always plays its 10 deals).
    pub fn ends_at_zero(self) -> bool {
        self != ChallengeKind::Rally
    }

    pub fn rules(self) -> Rules {
        Rules::house(true)
    }
}

/// A room's challenge: its kind and, for a rally, the rally's date (`2026-11-29`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub kind: ChallengeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rally: Option<String>,
}

/// Rally secrecy, the one guard every read path asks (HTTP summaries, deal lists, records, replays,
/// reviews; `hello` and `watch` over the socket): everyone meets the same rally deals, so until the day's
/// rally closes nothing of them is shown to anyone but the player at the table. The sealed rally's date,
/// if `challenge` is a rally that has not closed.
pub fn sealed_rally(challenge: Option<&Challenge>, now_ms: u64) -> Option<&str> {
    challenge?.rally.as_deref().filter(|date| !rally_closed(date, now_ms))
}

/// A finished rally attempt, deal by deal.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RallyResult {
    pub name: String,
    pub net: i64,
    pub nets: Vec<i64>,
}

/// How a run stands: one entry per finished deal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The player's money won or lost in each finished deal.
    pub nets: Vec<i64>,
    /// The most the player took from a single pot (0 if they never won one).
    pub best_pot: i64,
}

impl Progress {
    pub fn net(&self) -> i64 {
        self.nets.iter().sum()
    }
}

/// The setup of rally deal `number` (0-based) on `date`: cards from the server's `secret` and the date,
/// and the first seat moving round from the player's, so that every attempt meets the same deals.
pub fn rally_setup(secret: &Seed, date: &str, number: u32) -> DealSetup {
    let label = Seed::from_u64(fnv1a(format!("ddz-rally/{date}/{number}").as_bytes()));
    let mut key = secret.0;
    key.iter_mut().zip(label.0).for_each(|(k, l)| *k ^= l);
    let mut rng = ChaCha20Rng::from_seed(key);
    let seed = Seed::random(&mut rng);
    // The salt comes from the secret too, so that every attempt meets the same published commitment.
    let salt = Seed::random(&mut rng);
    let rules = ChallengeKind::Rally.rules();
    let start = Start::Seat((RALLY_SEAT + number as usize) % rules.players as usize);
    DealSetup::shuffled(rules, seed, start).salted(salt)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The UTC calendar date (`2026-11-29`) of a time in milliseconds since the Unix epoch.
pub fn utc_date(ms: u64) -> String {
    // Civil-from-days (H. Hinnant's algorithm), on days since 1970-01-01.
    let days = (ms / 86_400_000) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// How long after its day ends an unfinished rally may still be played: an hour, so that a rally begun
/// just before midnight (UTC) can be finished.
pub const RALLY_GRACE_MS: u64 = 3_600_000;

/// When an unfinished rally of `date` expires (and counts as abandoned): the end of its UTC day plus
/// [`RALLY_GRACE_MS`].
pub fn rally_expiry_ms(date: &str) -> Option<u64> {
    if !is_date(date) {
        return None;
    }
    let number = |range: std::ops::Range<usize>| date[range].parse::<i64>().ok();
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    // Days-from-civil (H. Hinnant's algorithm), the inverse of `utc_date`.
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    u64::try_from(days + 1).ok().map(|next| next * 86_400_000 + RALLY_GRACE_MS)
}

/// Whether the rally of `date` has closed at `now_ms` (its deals may then be shown to anyone). A date
/// that is no date never closes.
pub fn rally_closed(date: &str, now_ms: u64) -> bool {
    rally_expiry_ms(date).is_some_and(|end| now_ms >= end)
}

/// Whether `text` is a date as [`utc_date`] writes it.
pub fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
}

/// A finished run, as the boards read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedRun {
    pub name: String,
    pub net: i64,
    pub deals: i64,
    pub best_pot: i64,
    pub finished_at: u64,
}

/// One row of a board.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardRow {
    pub rank: usize,
    pub name: String,
    pub score: i64,
    pub deals: i64,
    /// The date of the result (`2026-11-29`, UTC).
    pub date: String,
    /// The name is protected (`docs/names.md`): only its key's holder plays under it. Marked by whoever
    /// answers with the board (the names' protection is no part of a result).
    pub protected: bool,
    /// The row of the name the board was asked about (`?name=`), by its key: the page marks it without
    /// comparing names itself.
    #[ts(as = "Option<bool>", optional)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub yours: bool,
}

/// The most rows a board shows.
pub const BOARD_ROWS: usize = 100;

/// Where a finished run stands on its board: the boards rank by `played`, then the score from the highest,
/// then `deals`, then `finished_at` (the reference is `rank_runs`, in the tests). Bot Buster
/// ranks the final net, ties going to fewer deals; Bot Bomber the biggest single pot; a rally its total net
/// over the 10 deals, attempts abandoned early ranking after complete ones (so that stopping while ahead does
/// not pay). Remaining ties go to the earlier result, and equal results (score and deals) share a rank.
///
/// The store keeps each name's best run in this order (`challenge_bests`, whose index
/// `challenge_bests_ranked` and upsert compare exactly these columns so: migration 0012).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRank {
    /// Minus the deals played at a rally (complete attempts first), 0 elsewhere.
    pub played: i64,
    /// The board's score: the net, or Bot Bomber's biggest pot.
    pub score: i64,
    pub deals: i64,
    pub finished_at: u64,
}

impl RunRank {
    pub fn of(kind: ChallengeKind, run: &FinishedRun) -> RunRank {
        RunRank {
            played: if kind == ChallengeKind::Rally { -run.deals } else { 0 },
            score: if kind == ChallengeKind::Bomber { run.best_pot } else { run.net },
            deals: run.deals,
            finished_at: run.finished_at,
        }
    }

    /// The board's order: the smaller first.
    #[cfg(test)]
    pub fn order(&self) -> (i64, std::cmp::Reverse<i64>, i64, u64) {
        (self.played, std::cmp::Reverse(self.score), self.deals, self.finished_at)
    }
}

/// A board's rows from each name's best run, given best first (at most [`BOARD_ROWS`] are kept): equal
/// results share a rank.
pub fn ranked_rows(bests: impl IntoIterator<Item = (String, RunRank)>) -> Vec<BoardRow> {
    let mut rows: Vec<BoardRow> = Vec::new();
    for (name, run) in bests.into_iter().take(BOARD_ROWS) {
        let rank = match rows.last() {
            Some(prev) if prev.score == run.score && prev.deals == run.deals => prev.rank,
            _ => rows.len() + 1,
        };
        rows.push(BoardRow {
            rank,
            name,
            score: run.score,
            deals: run.deals,
            date: utc_date(run.finished_at),
            protected: false,
            yours: false,
        });
    }
    rows
}

/// A challenge board straight from every finished run: each name's best, best first. The reference the
/// store's kept board (`challenge_bests`) is tested against.
#[cfg(test)]
pub fn rank_runs(kind: ChallengeKind, runs: &[FinishedRun]) -> Vec<BoardRow> {
    let mut best: std::collections::HashMap<crate::domain::names::NameKey, (String, RunRank)> = Default::default();
    for run in runs {
        let rank = RunRank::of(kind, run);
        let entry = best.entry(crate::domain::names::NameKey::of_stored(&run.name)).or_insert((run.name.clone(), rank));
        if rank.order() < entry.1.order() {
            *entry = (run.name.clone(), rank);
        }
    }
    let mut best: Vec<(String, RunRank)> = best.into_values().collect();
    best.sort_by_key(|(_, rank)| rank.order());
    ranked_rows(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_match_the_calendar() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(951_782_400_000), "2000-02-29");
        assert_eq!(utc_date(1_795_996_799_000), "2026-11-29");
        assert_eq!(utc_date(1_795_996_800_000), "2026-11-30");
        assert!(is_date("2026-11-29"));
        assert!(!is_date("2026-1-29") && !is_date("../etc/pwd") && !is_date("2026x11x29"));
    }

    #[test]
    fn a_rally_expires_an_hour_after_its_day_ends() {
        assert_eq!(rally_expiry_ms("2026-11-29"), Some(1_795_996_800_000 + RALLY_GRACE_MS));
        assert_eq!(rally_expiry_ms("2000-02-28"), Some(951_782_400_000 + RALLY_GRACE_MS));
        for ms in [0, 951_782_400_000, 1_795_996_799_000] {
            let day_end = rally_expiry_ms(&utc_date(ms)).unwrap() - RALLY_GRACE_MS;
            assert!(day_end > ms && day_end - ms <= 86_400_000, "{ms}");
        }
        assert_eq!(rally_expiry_ms("yesterday"), None);
    }

    #[test]
    fn rally_deals_depend_on_the_date_the_number_and_the_secret_only() {
        let secret = Seed::from_u64(7);
        assert_eq!(rally_setup(&secret, "2026-11-29", 3), rally_setup(&secret, "2026-11-29", 3));
        assert_ne!(rally_setup(&secret, "2026-11-29", 3).seed, rally_setup(&secret, "2026-11-29", 4).seed);
        assert_ne!(rally_setup(&secret, "2026-11-29", 3).seed, rally_setup(&secret, "2026-11-30", 3).seed);
        assert_ne!(rally_setup(&secret, "2026-11-29", 3).seed, rally_setup(&Seed::from_u64(8), "2026-11-29", 3).seed);
        assert_eq!(rally_setup(&secret, "2026-11-29", 4).start, Start::Seat(1));
    }

    fn run(name: &str, net: i64, deals: i64, best_pot: i64, finished_at: u64) -> FinishedRun {
        FinishedRun { name: name.into(), net, deals, best_pot, finished_at }
    }

    #[test]
    fn buster_ranks_each_name_by_its_best_net_and_breaks_ties_by_fewer_deals() {
        let runs = [
            run("Ann", 40, 20, 0, 1),
            run("Bea", 60, 12, 0, 2),
            run("ann", 70, 20, 0, 3),
            run("Cy", 60, 9, 0, 4),
            run("Dee", -100, 3, 0, 5),
        ];
        let rows = rank_runs(ChallengeKind::Buster, &runs);
        let order: Vec<(usize, &str, i64)> = rows.iter().map(|r| (r.rank, r.name.as_str(), r.score)).collect();
        assert_eq!(order, [(1, "ann", 70), (2, "Cy", 60), (3, "Bea", 60), (4, "Dee", -100)]);
    }

    #[test]
    fn equal_results_share_a_rank_and_the_earlier_is_listed_first() {
        let rows = rank_runs(ChallengeKind::Rally, &[run("Late", 12, 10, 0, 9), run("Early", 12, 10, 0, 5)]);
        assert_eq!((rows[0].rank, rows[0].name.as_str()), (1, "Early"));
        assert_eq!((rows[1].rank, rows[1].name.as_str()), (1, "Late"));
    }

    #[test]
    fn a_rally_ranks_complete_attempts_before_abandoned_ones() {
        let rows = rank_runs(ChallengeKind::Rally, &[run("Quit", 30, 1, 0, 1), run("Full", -12, 10, 0, 2)]);
        let order: Vec<(usize, &str)> = rows.iter().map(|r| (r.rank, r.name.as_str())).collect();
        assert_eq!(order, [(1, "Full"), (2, "Quit")]);
    }

    #[test]
    fn a_board_shows_at_most_a_hundred_rows() {
        let runs: Vec<FinishedRun> = (0..150).map(|i| run(&format!("P{i}"), i, 20, 0, 1)).collect();
        let rows = rank_runs(ChallengeKind::Buster, &runs);
        assert_eq!(rows.len(), BOARD_ROWS);
        assert_eq!((rows[0].name.as_str(), rows[99].name.as_str()), ("P149", "P50"));
    }

    #[test]
    fn bomber_ranks_the_biggest_single_pot() {
        let rows = rank_runs(ChallengeKind::Bomber, &[run("Net", 90, 20, 16, 1), run("Pot", -30, 20, 64, 2)]);
        assert_eq!((rows[0].name.as_str(), rows[0].score), ("Pot", 64));
        assert_eq!((rows[1].name.as_str(), rows[1].score), ("Net", 16));
    }
}
