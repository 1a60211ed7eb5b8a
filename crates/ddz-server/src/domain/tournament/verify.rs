//! A finished tournament checked from its public record (docs/tournaments.md, "Checking the draw"): every
//! entry its driver decided (the start with its byes and bots, each round's seating, each round's close,
//! the end) is decided again from the log before it, and compared. What the driver only read (who
//! registered, each table deal's score) is taken as it stands; each deal's own record checks its cards
//! (`ddz verify`).

use ddz_engine::Seed;

use super::{Due, Entry, Phase, Stamped, Tournament};

/// A record checked: the seed it reveals and that seed's commitment (SHA-256, which the page showed from
/// the start), and each decision of the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub seed: Seed,
    pub commitment: String,
    pub checks: Vec<Checked>,
}

/// One decision of the driver, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The entry's number in the log.
    pub n: u64,
    /// What it decided, in words.
    pub what: String,
    /// Where the record differs from what the rules decide, if it does.
    pub differs: Option<String>,
}

/// Why a record cannot be checked at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the record does not begin with the tournament's creation")]
    NoCreation,
    #[error("the tournament is not over: its seed is revealed, and its draw checkable, only at its end")]
    NotOver,
    #[error("entry {0} follows entry {1}: the log has a gap")]
    Gap(u64, u64),
}

/// Checks a tournament's log: each decision the driver stored against the rules' own.
pub fn verify(log: &[Stamped]) -> Result<Verified, RecordError> {
    let (first, rest) = log.split_first().ok_or(RecordError::NoCreation)?;
    let mut tournament = Tournament::from_log(std::slice::from_ref(first)).ok_or(RecordError::NoCreation)?;
    let mut checks = Vec::new();
    for stamped in rest {
        if stamped.n != tournament.last + 1 {
            return Err(RecordError::Gap(stamped.n, tournament.last));
        }
        let decided = matches!(
            stamped.entry,
            Entry::Started { .. }
                | Entry::Cancelled
                | Entry::Seated { .. }
                | Entry::RoundClosed { .. }
                | Entry::Finished
        );
        if decided {
            checks.push(Checked { n: stamped.n, what: said(&stamped.entry), differs: differs(&tournament, stamped) });
        }
        tournament.apply(stamped);
    }
    match tournament.phase {
        Phase::Finished | Phase::Cancelled => {
            Ok(Verified { seed: tournament.seed, commitment: tournament.commitment(), checks })
        }
        Phase::Registering | Phase::Running => Err(RecordError::NotOver),
    }
}

/// Where `stamped` differs from what is due after the entries before it, if it does.
fn differs(before: &Tournament, stamped: &Stamped) -> Option<String> {
    let due = before.due(stamped.at);
    match (due, &stamped.entry) {
        (Some(Due::Seat(seating)), Entry::Seated { round, stage, deals, tables }) => {
            let seated: Vec<Vec<usize>> = tables.iter().map(|(_, players)| players.clone()).collect();
            if (seating.round, seating.stage, seating.deals) != (*round, *stage, *deals) {
                Some(format!(
                    "the rules seat round {} ({:?}, {} deals), the record round {round} ({stage:?}, {deals} deals)",
                    seating.round, seating.stage, seating.deals
                ))
            } else if seating.tables != seated {
                let first = seating.tables.iter().zip(&seated).position(|(drawn, sat)| drawn != sat).unwrap_or(0);
                Some(format!(
                    "table {} is drawn {:?} but was seated {:?} (entrants by their order of registration, from 0)",
                    first + 1,
                    seating.tables.get(first),
                    seated.get(first)
                ))
            } else {
                None
            }
        }
        (Some(Due::Store(entry)), stored) if entry == *stored => None,
        (Some(Due::Store(entry)), _) => Some(format!("the rules decide {}", said(&entry))),
        (Some(Due::Seat(_)), _) => Some("the rules seat the next round here".into()),
        (None, _) => Some("nothing was due here".into()),
    }
}

fn said(entry: &Entry) -> String {
    match entry {
        Entry::Started { byes, bots } => format!("the start: {} byes, {bots} bots", byes.len()),
        Entry::Cancelled => "cancelled".into(),
        Entry::Seated { round, stage, deals, tables } => {
            format!("round {round} ({stage:?}, {deals} deals a table): {} tables", tables.len())
        }
        Entry::RoundClosed { round, out } => format!("round {round} closed: {} out", out.len()),
        Entry::Finished => "the end".into(),
        other => format!("{other:?}"),
    }
}
