//! Tournaments (migration 0011): each is its log of [`Stamped`] entries, appended one number at a time.
//! An append names the number it expects to be next; the log's primary key refuses a second entry of that
//! number, so two nodes (or two requests) acting on the same tournament never both act: the one refused
//! reads the log again. The `tournaments` row holds what the lists show without folding, rewritten in the
//! same transaction as each entry.

use sqlx::FromRow;

use super::ownership::Fence;
use super::{Db, DbResult, StoreError};
use crate::domain::names::NameKey;
use crate::domain::room::RoomCode;
use crate::domain::tournament::{Entry, Phase, Stamped};

/// A `tournament_log` row.
#[derive(FromRow)]
struct LogRow {
    n: i64,
    at: i64,
    entry: String,
}

/// A finished deal at one of a round's tables (its record is read apart, once, when it is counted).
#[derive(Clone, Debug)]
pub struct TableDeal {
    pub code: RoomCode,
    pub number: u32,
    pub finished_at: u64,
}

#[derive(FromRow)]
struct DealRow {
    code: String,
    number: i64,
    finished_at: i64,
}

/// A tournament as its row lists it.
#[derive(Clone, Debug)]
pub struct Listed {
    pub id: String,
    pub summary: String,
}

/// The host a new tournament counts against: their name's key, and how many tournaments taking
/// registrations one host may hold.
#[derive(Clone, Debug)]
pub struct Hosting {
    pub key: NameKey,
    pub slots: u32,
}

/// What creating a tournament came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Creation {
    Made,
    /// The id is taken (a recurring event's run another node created first).
    Taken,
    /// The host holds every slot already.
    Hosting,
}

/// Where the people of a finished tournament placed (bots have no page): each name and place, and the
/// size of the field.
#[derive(Clone, Debug, Default)]
pub struct Places {
    pub entrants: usize,
    pub people: Vec<(String, usize)>,
}

impl Db {
    /// Stores a new tournament `id` with its first entry, and (for a player's) takes one of its host's
    /// slots, in one transaction: nothing is stored when the id is taken or the host holds every slot.
    pub async fn create_tournament(
        &self,
        id: &str,
        first: &Stamped,
        summary: String,
        host: Option<Hosting>,
    ) -> DbResult<Creation> {
        let (id, first) = (id.to_string(), first.clone());
        self.run(move |s| async move {
            let entry = serde_json::to_string(&first.entry).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let mut tx = s.pool.begin().await?;
            let created = sqlx::query(
                "INSERT INTO tournaments (id, phase, created_at, summary) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(&id)
            .bind(Phase::Registering.name())
            .bind(first.at as i64)
            .bind(summary)
            .execute(&mut *tx)
            .await?;
            if created.rows_affected() == 0 {
                return Ok(Creation::Taken);
            }
            if let Some(Hosting { key, slots }) = host {
                let mut held = false;
                for slot in 1..=slots {
                    // A slot another request holds (or is taking) is passed over: the primary key decides.
                    let taken = sqlx::query(
                        "INSERT INTO hosting (name_key, slot, id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(&key)
                    .bind(i64::from(slot))
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
                    if taken.rows_affected() == 1 {
                        held = true;
                        break;
                    }
                }
                if !held {
                    return Ok(Creation::Hosting);
                }
            }
            sqlx::query("INSERT INTO tournament_log (id, n, at, entry) VALUES ($1, $2, $3, $4)")
                .bind(&id)
                .bind(first.n as i64)
                .bind(first.at as i64)
                .bind(entry)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok::<_, StoreError>(Creation::Made)
        })
        .await
    }

    /// Appends `stamped` to tournament `id`'s log if its number is the next; `false` when another entry
    /// took that number first. The row's phase and summary are rewritten with it; a [`Entry::Seated`]
    /// also records its tables, and the entry that finishes it the places of its people, for their pages.
    pub async fn append_tournament(
        &self,
        id: &str,
        stamped: &Stamped,
        phase: Phase,
        summary: String,
        places: Option<Places>,
        fence: Option<Fence>,
    ) -> DbResult<bool> {
        let (id, stamped) = (id.to_string(), stamped.clone());
        self.run(move |s| async move {
            let entry = serde_json::to_string(&stamped.entry).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let mut tx = s.pool.begin().await?;
            // A driver that lost the tournament to another node writes nothing more (as a room's owner).
            if let Some(fence) = &fence {
                let held = sqlx::query(
                    "UPDATE tournament_owners SET fence = fence WHERE id = $1 AND node = $2 AND fence = $3",
                )
                .bind(&id)
                .bind(&fence.node)
                .bind(fence.number)
                .execute(&mut *tx)
                .await?;
                if held.rows_affected() == 0 {
                    return Err(StoreError::TournamentFenced(id.clone()));
                }
            }
            let appended = sqlx::query(
                "INSERT INTO tournament_log (id, n, at, entry) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            )
            .bind(&id)
            .bind(stamped.n as i64)
            .bind(stamped.at as i64)
            .bind(entry)
            .execute(&mut *tx)
            .await?;
            if appended.rows_affected() == 0 {
                return Ok(false);
            }
            if phase != Phase::Registering {
                sqlx::query("DELETE FROM hosting WHERE id = $1").bind(&id).execute(&mut *tx).await?;
            }
            let finished = matches!(phase, Phase::Finished | Phase::Cancelled).then_some(stamped.at as i64);
            sqlx::query("UPDATE tournaments SET phase = $2, summary = $3, finished_at = $4 WHERE id = $1")
                .bind(&id)
                .bind(phase.name())
                .bind(summary)
                .bind(finished)
                .execute(&mut *tx)
                .await?;
            let Places { entrants, people } = places.unwrap_or_default();
            for (name, place) in people {
                sqlx::query(
                    "INSERT INTO tournament_places (name_key, id, finished_at, place, entrants) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(NameKey::of_stored(&name))
                .bind(&id)
                .bind(stamped.at as i64)
                .bind(place as i64)
                .bind(entrants as i64)
                .execute(&mut *tx)
                .await?;
            }
            if let Entry::Seated { round, tables, .. } = &stamped.entry {
                for (code, _) in tables {
                    sqlx::query("INSERT INTO tournament_tables (code, id, round) VALUES ($1, $2, $3)")
                        .bind(code.as_str())
                        .bind(&id)
                        .bind(i64::from(*round))
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
            Ok::<_, StoreError>(true)
        })
        .await
    }

    /// Tournament `id`'s entries numbered above `after` (0: all of them), in order.
    pub async fn tournament_log(&self, id: &str, after: u64) -> DbResult<Vec<Stamped>> {
        let id = id.to_string();
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, LogRow>(
                "SELECT n, at, entry FROM tournament_log WHERE id = $1 AND n > $2 ORDER BY n",
            )
            .bind(&id)
            .bind(after as i64)
            .fetch_all(&s.pool)
            .await?;
            rows.into_iter()
                .map(|row| {
                    let entry = serde_json::from_str(&row.entry).map_err(|e| {
                        StoreError::Corrupt(format!("tournament {id}'s entry {} does not read back: {e}", row.n))
                    })?;
                    Ok(Stamped { n: row.n as u64, at: row.at as u64, entry })
                })
                .collect::<Result<Vec<_>, StoreError>>()
        })
        .await
    }

    /// The tournaments in `phases`, newest first, at most `limit`.
    pub async fn tournaments_in(&self, phases: &[Phase], limit: u32) -> DbResult<Vec<Listed>> {
        let phases: Vec<&'static str> = phases.iter().map(|p| p.name()).collect();
        self.run(move |s| async move {
            let mut listed = Vec::new();
            for phase in phases {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "SELECT id, summary FROM tournaments WHERE phase = $1 ORDER BY created_at DESC, id LIMIT $2",
                )
                .bind(phase)
                .bind(i64::from(limit))
                .fetch_all(&s.pool)
                .await?;
                listed.extend(rows.into_iter().map(|(id, summary)| Listed { id, summary }));
            }
            Ok::<_, StoreError>(listed)
        })
        .await
    }

    /// The ids of the tournaments whose id begins with `prefix` (a recurring event's runs).
    pub async fn tournament_ids(&self, prefix: &str) -> DbResult<Vec<String>> {
        // A prefix of lower-case letters, digits and dashes: nothing LIKE reads as a wildcard.
        let pattern = format!("{prefix}%");
        self.run(move |s| async move {
            Ok::<_, StoreError>(
                sqlx::query_scalar("SELECT id FROM tournaments WHERE id LIKE $1")
                    .bind(pattern)
                    .fetch_all(&s.pool)
                    .await?,
            )
        })
        .await
    }

    /// The tournament whose table room `code` is, if it is one.
    pub async fn tournament_of_table(&self, code: &RoomCode) -> DbResult<Option<String>> {
        let code = code.clone();
        self.run(move |s| async move {
            sqlx::query_scalar("SELECT id FROM tournament_tables WHERE code = $1")
                .bind(code.as_str())
                .fetch_optional(&s.pool)
                .await
        })
        .await
    }

    /// The finished deals at round `round`'s tables of tournament `id`, by table and number: one light
    /// query each look, however many tables.
    pub async fn tournament_deals(&self, id: &str, round: u32) -> DbResult<Vec<TableDeal>> {
        let id = id.to_string();
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, DealRow>(
                "SELECT d.code, d.number, d.finished_at FROM deals d \
                 JOIN tournament_tables t ON t.code = d.code WHERE t.id = $1 AND t.round = $2 \
                 ORDER BY d.code, d.number",
            )
            .bind(&id)
            .bind(i64::from(round))
            .fetch_all(&s.pool)
            .await?;
            let deals = rows
                .into_iter()
                .map(|row| TableDeal {
                    code: RoomCode::from(row.code),
                    number: row.number as u32,
                    finished_at: row.finished_at as u64,
                })
                .collect();
            Ok::<_, StoreError>(deals)
        })
        .await
    }
}
