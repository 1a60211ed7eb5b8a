//! Recurring events: the built-in ones and an operator's file, each announcing its next run on time.

use super::*;

/// An operator's recurring event (`ddz serve --tournaments FILE`, docs/tournaments.md), one of two kinds:
///
/// - a scheduled event (`every_minutes`): a run starts every `every_minutes`, `offset_minutes` after midnight
///   UTC (and every period from there), and opens for registration `open_minutes` before its start;
/// - a sit-and-go always open (`sit_and_go`: its size): one run takes registrations at all times, and the
///   next opens as one starts; with `bots_after_seconds`, bots fill it that long after its first
///   registration, so that a player alone plays within minutes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recurring {
    /// Names the runs (`{slug}-{minute of the start}`, a sit-and-go's `{slug}-{run}`): lower-case letters,
    /// digits and dashes.
    pub slug: String,
    /// What the lists call it; left out, the page names it by its table type and format in the reader's
    /// language.
    #[serde(default)]
    pub title: String,
    pub table: TableType,
    /// A scheduled event: 60 for hourly, 1440 for daily; 10 minutes to a week.
    #[serde(default)]
    pub every_minutes: Option<u64>,
    #[serde(default)]
    pub offset_minutes: u64,
    /// How long before its start a run is announced: by default one period, at most a day.
    #[serde(default)]
    pub open_minutes: Option<u64>,
    /// Bots fill a scheduled run's last table (otherwise the latest registrations beyond whole tables get
    /// byes).
    #[serde(default)]
    pub bots_fill: bool,
    /// A sit-and-go always open, of this many players (9 or 27; 8 or 16 at Two Player).
    #[serde(default)]
    pub sit_and_go: Option<usize>,
    /// A sit-and-go's bots fill the empty places this long after its first registration (10 s to 30 min).
    #[serde(default)]
    pub bots_after_seconds: Option<u64>,
    /// The settings (their `table` is the event's); docs/tournaments.md's defaults for the field if left out.
    #[serde(default)]
    pub settings: Option<SettingsDraft>,
}

/// Why a recurring event is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecurringError {
    #[error("{0:?}: a slug is 1 to 32 lower-case letters, digits and dashes")]
    Slug(String),
    #[error("{0}: runs are 10 minutes to a week apart")]
    Every(String),
    #[error("{0}: an event is either scheduled (every_minutes) or a sit-and-go always open (sit_and_go)")]
    Kind(String),
    #[error("{0}: {1} is only for a scheduled event")]
    ScheduledOnly(String, &'static str),
    #[error("{0}: bots_after_seconds is only for a sit-and-go")]
    SitAndGoOnly(String),
    #[error("{0}: {1}")]
    Settings(String, SettingsError),
}

const MINUTE: u64 = 60_000;

/// When a recurring event's next run is due to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Announce {
    /// A scheduled run: its id and start, once its registration has opened.
    Scheduled { id: String, starts_at: u64 },
    /// A sit-and-go: a new run whenever none of the event's takes registrations.
    SitAndGo,
}

impl Recurring {
    /// Whether the event is well formed.
    pub fn check(&self) -> Result<(), RecurringError> {
        let slug_chars = self.slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if self.slug.is_empty() || self.slug.len() > 32 || !slug_chars {
            return Err(RecurringError::Slug(self.slug.clone()));
        }
        let slug = || self.slug.clone();
        match (self.every_minutes, self.sit_and_go) {
            (Some(every), None) => {
                if !(10..=7 * 1440).contains(&every) {
                    return Err(RecurringError::Every(slug()));
                }
                if self.bots_after_seconds.is_some() {
                    return Err(RecurringError::SitAndGoOnly(slug()));
                }
            }
            (None, Some(_)) => {
                let scheduled_only = [
                    ("offset_minutes", self.offset_minutes != 0),
                    ("open_minutes", self.open_minutes.is_some()),
                    ("bots_fill", self.bots_fill),
                ];
                if let Some((field, _)) = scheduled_only.into_iter().find(|(_, set)| *set) {
                    return Err(RecurringError::ScheduledOnly(slug(), field));
                }
                self.format(0).check(self.table, 0).map_err(|e| RecurringError::Settings(slug(), e))?;
            }
            _ => return Err(RecurringError::Kind(slug())),
        }
        self.settings().check(self.sit_and_go).map(|_| ()).map_err(|e| RecurringError::Settings(slug(), e))
    }

    /// Its runs' settings, checked as each is created ([`Recurring::check`] checked them at start-up).
    pub fn settings(&self) -> SettingsDraft {
        let settings = self
            .settings
            .clone()
            .unwrap_or_else(|| SettingsDraft::default_for(self.table, self.sit_and_go.unwrap_or(SCHEDULED_FIELD)));
        SettingsDraft { table: self.table, ..settings }
    }

    /// A run's format: a scheduled one's for its start `starts_at`.
    pub fn format(&self, starts_at: u64) -> Format {
        match self.sit_and_go {
            Some(size) => Format::SitAndGo { size, bots_after_ms: self.bots_after_seconds.map(|s| s * 1000) },
            None => Format::Scheduled { starts_at, bots_fill: self.bots_fill },
        }
    }

    /// The first scheduled run starting after `now` (ms since the epoch).
    pub(super) fn next_start(&self, every_minutes: u64, now: u64) -> u64 {
        let every = i128::from(every_minutes * MINUTE);
        let offset = i128::from(self.offset_minutes * MINUTE) % every;
        let periods = (i128::from(now) - offset).div_euclid(every) + 1;
        (offset + periods * every) as u64
    }

    /// What to announce at `now`: a scheduled run once its registration has opened, or a sit-and-go's next
    /// run (when none is open).
    pub fn due(&self, now: u64) -> Option<Announce> {
        let Some(every) = self.every_minutes else { return Some(Announce::SitAndGo) };
        let start = self.next_start(every, now);
        let open = self.open_minutes.unwrap_or(every).min(1440) * MINUTE;
        (now + open >= start)
            .then(|| Announce::Scheduled { id: format!("{}-{}", self.slug, start / MINUTE), starts_at: start })
    }

    /// The id of a sit-and-go's run number `run` (from 1).
    pub fn run_id(&self, run: u64) -> String {
        format!("{}-{run}", self.slug)
    }

    /// The run number of `id`, if it is one of this sit-and-go's.
    pub fn run_of(&self, id: &str) -> Option<u64> {
        let number = id.strip_prefix(&self.slug)?.strip_prefix('-')?;
        number.bytes().all(|b| b.is_ascii_digit()).then(|| number.parse().ok()).flatten()
    }
}
