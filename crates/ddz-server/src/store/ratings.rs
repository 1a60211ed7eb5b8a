//! Ratings (migrations 0007, 0009, `docs/ratings.md`): rating a finished deal in its transaction (the
//! players' and the role's ratings read, moved and written with their history), a family's ratings board
//! read through its ranked index, the ratings of the names at a table, and a player's ratings with their
//! recent history. Stored in millionths: integers read the same from every backend.

use ddz_engine::TableType;
use sqlx::{AnyConnection, Executor, FromRow};

use super::boards::{RATING_ABOVE, rank, still_needs};
use super::{Db, DbResult, StoreError};
use crate::domain::challenge::utc_date;
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::rating::{
    NEW_PLAYER, PlayerRating, Rated, RatedDeal, RatingPoint, RatingRow, Seated, Skill, bot_skill, points, rate_deal,
    role_start,
};
use crate::wire::http::RatingPlacing;

/// The most rating points the stats page's chart gets per family.
pub const HISTORY_KEPT: i64 = 200;

/// Ratings are stored in millionths: integers read the same from every backend.
fn micro(value: f64) -> i64 {
    (value * 1e6).round() as i64
}

fn from_micro(value: i64) -> f64 {
    value as f64 / 1e6
}

/// A `ratings` row (`mu` and `sigma` in millionths; `family` only where the query asks for it).
#[derive(FromRow)]
struct RatingLine {
    name: String,
    #[sqlx(default)]
    family: String,
    mu: i64,
    sigma: i64,
    deals: i64,
    last_at: i64,
}

impl RatingLine {
    fn skill(&self) -> Skill {
        Skill { mu: from_micro(self.mu), sigma: from_micro(self.sigma) }
    }
}

impl Db {
    /// The stored ratings of the names of `keys` in `family` (a name with no rated deal is absent).
    pub async fn ratings_of(&self, keys: Vec<NameKey>, family: TableType) -> DbResult<Vec<(NameKey, Skill)>> {
        self.run(move |s| async move {
            let mut found = Vec::new();
            for key in keys {
                if let Some(skill) = stored_skill(&s.pool, &key, family).await? {
                    found.push((key, skill));
                }
            }
            Ok::<_, StoreError>(found)
        })
        .await
    }

    /// A family's ratings board: its first `limit` listed players by the rating less two standard
    /// deviations.
    pub async fn rating_board(&self, family: TableType, limit: i64) -> DbResult<Vec<RatingRow>> {
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, RatingLine>(
                "SELECT name, mu, sigma, deals, last_at FROM ratings WHERE family = $1 AND eligible = 1 \
                 ORDER BY score DESC, deals DESC, name_key LIMIT $2",
            )
            .bind(family.name())
            .bind(limit)
            .fetch_all(&s.pool)
            .await?;
            Ok::<_, StoreError>(
                rows.into_iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let skill = r.skill();
                        RatingRow {
                            rank: i + 1,
                            name: r.name,
                            rating: skill.points(),
                            uncertainty: points(2.0 * skill.sigma),
                            deals: r.deals,
                            date: utc_date(r.last_at as u64),
                            protected: false,
                            yours: false,
                        }
                    })
                    .collect(),
            )
        })
        .await
    }

    /// `name`'s row on a family's ratings board, wherever it stands (its rank once listed, within the first
    /// [`RANKED`](crate::wire::http::RANKED)); `None` before the name's first rated deal there.
    pub async fn rating_placing(&self, family: TableType, name: &PlayerName) -> DbResult<Option<RatingPlacing>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let row: Option<(i64, i64, i64, i64, i64, i64)> = sqlx::query_as(
                "SELECT mu, sigma, score, deals, last_at, eligible FROM ratings WHERE family = $1 AND name_key = $2",
            )
            .bind(family.name())
            .bind(&key)
            .fetch_optional(&s.pool)
            .await?;
            let Some((mu, sigma, score, deals, last_at, eligible)) = row else { return Ok(None) };
            let listed = eligible == 1;
            let rank = match listed {
                true => {
                    let order = "score DESC, deals DESC, name_key";
                    rank(&s, RATING_ABOVE, order, (family.name(), score, deals, &key)).await?
                }
                false => None,
            };
            let skill = Skill { mu: from_micro(mu), sigma: from_micro(sigma) };
            let (needs_deals, needs_opponents) = still_needs(&s, &key).await?;
            Ok::<_, StoreError>(Some(RatingPlacing {
                rank,
                rating: skill.points(),
                uncertainty: points(2.0 * skill.sigma),
                deals,
                date: utc_date(last_at as u64),
                listed,
                needs_deals,
                needs_opponents,
                protected: false,
            }))
        })
        .await
    }

    /// A player's ratings in every family, each with its last [`HISTORY_KEPT`] points.
    pub async fn player_ratings(&self, name: &PlayerName) -> DbResult<Vec<PlayerRating>> {
        let key = name.key().clone();
        self.run(move |s| async move {
            let rows = sqlx::query_as::<_, RatingLine>(
                "SELECT name, family, mu, sigma, deals, last_at FROM ratings WHERE name_key = $1 ORDER BY family",
            )
            .bind(&key)
            .fetch_all(&s.pool)
            .await?;
            let mut ratings = Vec::new();
            for row in rows {
                let family = TableType::parse(&row.family)
                    .ok_or_else(|| StoreError::Corrupt(format!("unknown rating family {:?}", row.family)))?;
                let mut history: Vec<(i64, i64)> = sqlx::query_as(
                    "SELECT at, mu FROM rating_history WHERE name_key = $1 AND family = $2 \
                     ORDER BY at DESC, number DESC LIMIT $3",
                )
                .bind(&key)
                .bind(family.name())
                .bind(HISTORY_KEPT)
                .fetch_all(&s.pool)
                .await?;
                history.reverse();
                let skill = row.skill();
                ratings.push(PlayerRating {
                    table: family,
                    rating: skill.points(),
                    uncertainty: points(2.0 * skill.sigma),
                    deals: row.deals,
                    history: history
                        .into_iter()
                        .map(|(at, mu)| RatingPoint { at: at as u64, rating: points(from_micro(mu)) })
                        .collect(),
                });
            }
            Ok::<_, StoreError>(ratings)
        })
        .await
    }
}

/// A player's stored rating in `family`, if they have one.
async fn stored_skill<'c>(
    executor: impl Executor<'c, Database = sqlx::Any>,
    key: &NameKey,
    family: TableType,
) -> DbResult<Option<Skill>> {
    let row: Option<(i64, i64)> = sqlx::query_as("SELECT mu, sigma FROM ratings WHERE name_key = $1 AND family = $2")
        .bind(key)
        .bind(family.name())
        .fetch_optional(executor)
        .await?;
    Ok(row.map(|(mu, sigma)| Skill { mu: from_micro(mu), sigma: from_micro(sigma) }))
}

/// Rates a finished deal, in its transaction: reads the players' and the role's ratings, works out the new
/// ones ([`rate_deal`]) and writes those of the people it counts for, with the history (and the role's,
/// when it counts for everyone). `mu` is written as a change (`mu + delta`), so that two nodes rating deals
/// of the same player (or the role) at once both count (cluster mode).
pub(super) async fn write_ratings(
    tx: &mut AnyConnection,
    at: u64,
    code: &str,
    number: u32,
    deal: &RatedDeal,
) -> DbResult<()> {
    let family = deal.family;
    let role: Option<(i64, i64)> = sqlx::query_as("SELECT mu, sigma FROM rating_roles WHERE family = $1")
        .bind(family.name())
        .fetch_optional(&mut *tx)
        .await?;
    let role =
        role.map_or_else(|| role_start(family), |(mu, sigma)| Skill { mu: from_micro(mu), sigma: from_micro(sigma) });
    let mut rated = Vec::new();
    for seated in deal.seats() {
        rated.push(match seated {
            Seated::Player { name, moves } => Rated {
                skill: stored_skill(&mut *tx, &NameKey::of_stored(name), family).await?.unwrap_or(NEW_PLAYER),
                fixed: !moves,
            },
            Seated::Bot { kind } => Rated { skill: bot_skill(*kind, family), fixed: true },
        });
    }
    let after = rate_deal(rated[0], role, &rated[1..], deal.landlord_won);
    if deal.role_moves {
        sqlx::query(
            "INSERT INTO rating_roles (family, mu, sigma, deals) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (family) DO UPDATE SET mu = rating_roles.mu + $4, sigma = excluded.sigma, \
             deals = rating_roles.deals + 1",
        )
        .bind(family.name())
        .bind(micro(after.role.mu))
        .bind(micro(after.role.sigma))
        .bind(micro(after.role.mu) - micro(role.mu))
        .execute(&mut *tx)
        .await?;
    }
    let new = std::iter::once(after.landlord).chain(after.farmers);
    for ((seated, before), skill) in deal.seats().zip(&rated).zip(new) {
        let Seated::Player { name, moves: true } = seated else { continue };
        let key = NameKey::of_stored(name);
        sqlx::query(
            "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score, eligible) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, $4 - 2 * $5, \
             COALESCE((SELECT eligible FROM players WHERE name_key = $1), 0)) \
             ON CONFLICT (name_key, family) DO UPDATE SET name = excluded.name, mu = ratings.mu + $7, \
             sigma = excluded.sigma, deals = ratings.deals + 1, last_at = excluded.last_at, \
             score = ratings.mu + $7 - 2 * excluded.sigma, eligible = excluded.eligible",
        )
        .bind(&key)
        .bind(name)
        .bind(family.name())
        .bind(micro(skill.mu))
        .bind(micro(skill.sigma))
        .bind(at as i64)
        .bind(micro(skill.mu) - micro(before.skill.mu))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (name_key, family, at, code, number, mu, sigma) \
             SELECT name_key, family, $1, $2, $3, mu, sigma FROM ratings WHERE name_key = $4 AND family = $5",
        )
        .bind(at as i64)
        .bind(code)
        .bind(i64::from(number))
        .bind(&key)
        .bind(family.name())
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
