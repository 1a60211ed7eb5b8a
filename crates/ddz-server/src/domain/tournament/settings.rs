//! A tournament's settings and their bounds: what a host or an operator proposes ([`SettingsDraft`]: a
//! request's body, a recurring event's file) and what a tournament runs by ([`Settings`]: only made by
//! checking a draft, so that no code holds settings out of their bounds).

use std::ops::Deref;

use super::*;

/// Settings as proposed (a request's body, an operator's file), not yet checked: [`SettingsDraft::check`]
/// makes them [`Settings`].
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[ts(rename = "TournamentSettings")]
pub struct SettingsDraft {
    pub table: TableType,
    /// Everyone's chips at the start.
    pub chips: i64,
    /// Chips per point (No Shuffle, Two Player) or per dollar (House) a deal's settlement moves.
    pub stake: i64,
    /// The line after the first chip round, in percent of the starting chips: below it, a player is out.
    pub line_percent: i64,
    /// How much the line rises after each further chip round, in percent of the starting chips.
    pub line_step_percent: i64,
    /// Deals each table plays in a chip round.
    pub line_every: u32,
    /// Chip rounds at most: after the last, the chip leaders go on.
    pub chip_rounds: u32,
    /// The chip rounds end when no more players than this remain (a multiple of a table's seats; a
    /// field too small for it takes half its size, rounded down to whole tables).
    pub chip_rounds_until: usize,
    /// The share of a player's chips carried into the fixed-deal rounds, in percent.
    pub carry_percent: i64,
    /// Deals each table plays in a fixed-deal round.
    pub deals_per_round: u32,
    /// Deals at the final table.
    pub final_deals: u32,
}

/// Why a tournament's settings, format or title are refused: each names the setting, as a request's body
/// or an operator's file spells it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("chips, stake: starting chips are 1,000 to 1,000,000, and a point moves 1 to 10,000 chips")]
    Chips,
    #[error(
        "line_percent, line_step_percent: the line starts at 0 to 90% of the starting chips and rises by 0 to 50% a round"
    )]
    Line,
    #[error("line_every, chip_rounds: a chip round is 1 to 12 deals, and there are 1 to 6 chip rounds")]
    ChipRounds,
    #[error(
        "chip_rounds_until: the chip rounds end at a multiple of {seats} players, from {seats} to half the entrants"
    )]
    ChipRoundsUntil { seats: usize },
    #[error("carry_percent: 0 to 100% of the chips are carried")]
    Carry,
    #[error("deals_per_round, final_deals: a round is 1 to 12 deals, the final 1 to 24")]
    Deals,
    #[error("format.size: a sit-and-go seats {sizes}")]
    Size { sizes: String },
    #[error("format.bots_after_ms: bots fill a sit-and-go after 10 seconds to 30 minutes")]
    Wait,
    #[error("format.starts_at: a scheduled event starts within 30 days")]
    StartsAt,
    #[error("title: a title is at most {TITLE_CHARS} characters, not {0}")]
    Title(usize),
    #[error("settings.table: the settings are for {settings:?}, the tournament for {table:?}")]
    Table { table: TableType, settings: TableType },
}

/// Each setting's bounds, inclusive: what [`SettingsDraft::check`] holds a draft to, and what the create
/// form offers (`GET /api/tournaments/rules`).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettingsBounds {
    pub chips: [i64; 2],
    pub stake: [i64; 2],
    pub line_percent: [i64; 2],
    pub line_step_percent: [i64; 2],
    pub line_every: [u32; 2],
    pub chip_rounds: [u32; 2],
    pub carry_percent: [i64; 2],
    pub deals_per_round: [u32; 2],
    pub final_deals: [u32; 2],
}

pub const BOUNDS: SettingsBounds = SettingsBounds {
    chips: [1_000, 1_000_000],
    stake: [1, 10_000],
    line_percent: [0, 90],
    line_step_percent: [0, 50],
    line_every: [1, 12],
    chip_rounds: [1, 6],
    carry_percent: [0, 100],
    deals_per_round: [1, 12],
    final_deals: [1, 24],
};

/// Whether `value` is within `[low, high]`.
fn within<T: PartialOrd>(value: T, [low, high]: [T; 2]) -> bool {
    low <= value && value <= high
}

/// The field a scheduled event's default settings are for, before anyone registers.
pub const SCHEDULED_FIELD: usize = 27;

/// The longest title a tournament may have, in characters.
pub const TITLE_CHARS: usize = 40;

/// A tournament's title as given, trimmed: refused when longer than [`TITLE_CHARS`].
pub fn checked_title(title: Option<&str>) -> Result<String, SettingsError> {
    let title = title.unwrap_or_default().trim();
    let chars = title.chars().count();
    if chars > TITLE_CHARS {
        return Err(SettingsError::Title(chars));
    }
    Ok(title.to_string())
}

/// Entrants a scheduled event takes at most.
pub const MAX_ENTRANTS: usize = 10_000;
/// The level of the bots that fill a tournament's empty places.
pub const FILL_LEVEL: BotKind = BotKind::Normal;

/// A tournament's settings, within their bounds: made only by [`SettingsDraft::check`] (and read back
/// from a stored log through it), read through [`Deref`] as the draft's fields.
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SettingsDraft", into = "SettingsDraft")]
#[ts(as = "SettingsDraft", rename = "TournamentSettings")]
pub struct Settings(SettingsDraft);

impl Deref for Settings {
    type Target = SettingsDraft;

    fn deref(&self) -> &SettingsDraft {
        &self.0
    }
}

/// Stored settings read back: checked again (the field's size was checked when they were stored).
impl TryFrom<SettingsDraft> for Settings {
    type Error = SettingsError;

    fn try_from(draft: SettingsDraft) -> Result<Settings, SettingsError> {
        draft.check(None)
    }
}

impl From<Settings> for SettingsDraft {
    fn from(settings: Settings) -> SettingsDraft {
        settings.0
    }
}

impl Settings {
    /// The settings as a draft, to change and check again.
    pub fn draft(&self) -> SettingsDraft {
        self.0.clone()
    }

    /// The line at the end of chip round `round` (from 1): a player with fewer chips is out.
    pub fn line(&self, round: u32) -> i64 {
        let percent = self.line_percent + self.line_step_percent * i64::from(round.saturating_sub(1));
        self.chips * percent / 100
    }

    /// The chips a player with `chips` carries into the fixed-deal rounds (rounded down, never below 0).
    pub fn carried(&self, chips: i64) -> i64 {
        chips.max(0) * self.carry_percent / 100
    }
}

impl SettingsDraft {
    /// The defaults of docs/tournaments.md, scaled to `entrants` and `table`.
    pub fn default_for(table: TableType, entrants: usize) -> SettingsDraft {
        let seats = seats(table);
        SettingsDraft {
            table,
            chips: 10_000,
            stake: 500,
            line_percent: 20,
            line_step_percent: 20,
            line_every: 3,
            chip_rounds: 3,
            chip_rounds_until: (entrants / 3 / seats).max(1) * seats,
            carry_percent: 10,
            deals_per_round: 3,
            final_deals: 6,
        }
    }

    /// The settings, if they are within their bounds (the chip rounds' end against `entrants`, where the
    /// field is known: a sit-and-go's size).
    pub fn check(self, entrants: Option<usize>) -> Result<Settings, SettingsError> {
        let seats = seats(self.table);
        let b = &BOUNDS;
        if !within(self.chips, b.chips) || !within(self.stake, b.stake) {
            return Err(SettingsError::Chips);
        }
        if !within(self.line_percent, b.line_percent) || !within(self.line_step_percent, b.line_step_percent) {
            return Err(SettingsError::Line);
        }
        if !within(self.line_every, b.line_every) || !within(self.chip_rounds, b.chip_rounds) {
            return Err(SettingsError::ChipRounds);
        }
        let until = self.chip_rounds_until;
        if until < seats || !until.is_multiple_of(seats) || entrants.is_some_and(|n| until > n / 2) {
            return Err(SettingsError::ChipRoundsUntil { seats });
        }
        if !within(self.carry_percent, b.carry_percent) {
            return Err(SettingsError::Carry);
        }
        if !within(self.deals_per_round, b.deals_per_round) || !within(self.final_deals, b.final_deals) {
            return Err(SettingsError::Deals);
        }
        Ok(Settings(self))
    }
}

/// Seats at a table of `table`.
pub fn seats(table: TableType) -> usize {
    table.farmers() + 1
}

/// The sizes a sit-and-go of `table` may have: three or nine tables.
pub fn sit_and_go_sizes(table: TableType) -> [usize; 2] {
    match seats(table) {
        2 => [8, 16],
        s => [3 * s, 9 * s],
    }
}
