//! How a tournament starts (a sit-and-go when full, a scheduled event at its time) and the path it
//! takes: chip rounds under the rising line, fixed-deal rounds, the final.

use super::*;

/// How long a sit-and-go's bots may wait before they fill its empty places: 10 s to 30 min.
pub const BOTS_AFTER_MS: [u64; 2] = [10_000, 30 * 60_000];

/// How a tournament starts.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(rename = "TournamentFormat")]
pub enum Format {
    /// Starts when `size` players have registered; if `bots_after_ms` is set (the host allowed bots),
    /// bots take the empty places that long after the first registration still standing.
    SitAndGo {
        size: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bots_after_ms: Option<u64>,
    },
    /// Starts at `starts_at` (ms since the epoch) with whoever registered: the latest registrations beyond
    /// whole tables get byes, or (`bots_fill`) bots fill the last table.
    Scheduled { starts_at: u64, bots_fill: bool },
}

impl Format {
    /// Whether the format fits `table` and, at `now`, is still ahead.
    pub fn check(&self, table: TableType, now: u64) -> Result<(), SettingsError> {
        match *self {
            Format::SitAndGo { size, bots_after_ms } => {
                let sizes = sit_and_go_sizes(table);
                if !sizes.contains(&size) {
                    return Err(SettingsError::Size { sizes: format!("{} or {}", sizes[0], sizes[1]) });
                }
                if bots_after_ms.is_some_and(|ms| !(BOTS_AFTER_MS[0]..=BOTS_AFTER_MS[1]).contains(&ms)) {
                    return Err(SettingsError::Wait);
                }
            }
            Format::Scheduled { starts_at, .. } => {
                if starts_at < now || starts_at > now + 30 * 24 * 3_600_000 {
                    return Err(SettingsError::StartsAt);
                }
            }
        }
        Ok(())
    }

    /// The field a sit-and-go's settings are checked against.
    pub fn size(&self) -> Option<usize> {
        match self {
            Format::SitAndGo { size, .. } => Some(*size),
            Format::Scheduled { .. } => None,
        }
    }
}

/// The three stages a tournament plays through, in their order.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "TournamentStage")]
pub enum Stage {
    /// Chip rounds: out below the rising line (打立出局).
    Chips,
    /// Fixed-deal rounds: the leaders advance (定局积分), reseated Swiss-style (瑞士移位).
    Fixed,
    /// The final table.
    Final,
}

/// One stage of a tournament's path, as its page draws it: chip rounds under the rising line, fixed-deal
/// rounds, the final table; what is played and what is expected of the stages ahead.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathStage {
    pub stage: Stage,
    /// Rounds of this stage played or in play.
    pub rounds: u32,
    /// Rounds it is expected to take (0: the field skips it).
    pub planned: u32,
    /// The field as the stage starts (as expected, for a stage ahead).
    pub players: usize,
    pub state: PathState,
}

/// Where the field is on the path.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathState {
    Done,
    Now,
    Ahead,
}
