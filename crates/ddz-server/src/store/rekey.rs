//! Stored names under today's keys (`docs/names.md`): rows written before a name's key was its
//! confusables skeleton (when it was only the lower-cased name) are moved to their new keys once, when the
//! database is opened, in one transaction. Rows that now share a key are merged: stats, board rows and
//! players' counts add up; of two ratings the one with more deals stays; of two protections the one already
//! under the key stays (the others are dropped and logged); the quick-match queue is left to refill.

use std::collections::BTreeMap;

use super::{DbResult, Store};
use crate::domain::names::NameKey;

/// The version of the name keys the rows are under: 2 is NFKC, invisible characters dropped, lower case
/// and the UTS #39 skeleton.
const KEYS: &str = "2";

/// How each table's rows move to a new key: the statement that copies the old key's rows under `$1` (the
/// new key), `$2` being the old one, merging with any row already there.
const MOVES: [(&str, &str); 7] = [
    (
        "stats",
        "INSERT INTO stats (name_key, name, table_type, public, deals, landlord_deals, landlord_wins, farmer_deals, \
         farmer_wins, money, points, bombs, springs, last_at) SELECT $1, name, table_type, public, deals, \
         landlord_deals, landlord_wins, farmer_deals, farmer_wins, money, points, bombs, springs, last_at FROM stats \
         WHERE name_key = $2 ON CONFLICT (name_key, table_type, public) DO UPDATE SET \
         deals = stats.deals + excluded.deals, landlord_deals = stats.landlord_deals + excluded.landlord_deals, \
         landlord_wins = stats.landlord_wins + excluded.landlord_wins, \
         farmer_deals = stats.farmer_deals + excluded.farmer_deals, farmer_wins = stats.farmer_wins + excluded.farmer_wins, \
         money = stats.money + excluded.money, points = stats.points + excluded.points, \
         bombs = stats.bombs + excluded.bombs, springs = stats.springs + excluded.springs, \
         last_at = CASE WHEN excluded.last_at > stats.last_at THEN excluded.last_at ELSE stats.last_at END",
    ),
    (
        "ratings",
        "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score, eligible) SELECT $1, name, \
         family, mu, sigma, deals, last_at, score, eligible FROM ratings WHERE name_key = $2 \
         ON CONFLICT (name_key, family) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, \
         deals = excluded.deals, last_at = excluded.last_at, score = excluded.score, eligible = excluded.eligible \
         WHERE excluded.deals > ratings.deals",
    ),
    (
        "rating_history",
        "INSERT INTO rating_history (name_key, family, at, code, number, mu, sigma) SELECT $1, family, at, code, \
         number, mu, sigma FROM rating_history WHERE name_key = $2 ON CONFLICT DO NOTHING",
    ),
    (
        "protected_names",
        "INSERT INTO protected_names (name_key, name, key_digest, recovery_digest, protected_at, changed_at) \
         SELECT $1, name, key_digest, recovery_digest, protected_at, changed_at FROM protected_names \
         WHERE name_key = $2 ON CONFLICT DO NOTHING",
    ),
    (
        "board_rows",
        "INSERT INTO board_rows (board, name_key, name, score, deals, last_at, eligible) SELECT board, $1, name, \
         score, deals, last_at, eligible FROM board_rows WHERE name_key = $2 ON CONFLICT (board, name_key) DO UPDATE \
         SET score = board_rows.score + excluded.score, deals = board_rows.deals + excluded.deals, \
         last_at = CASE WHEN excluded.last_at > board_rows.last_at THEN excluded.last_at ELSE board_rows.last_at END",
    ),
    (
        "players",
        "INSERT INTO players (name_key, name, rated_deals, opponents, shared_deals, eligible) SELECT $1, name, \
         rated_deals, opponents, shared_deals, eligible FROM players WHERE name_key = $2 ON CONFLICT (name_key) \
         DO UPDATE SET rated_deals = players.rated_deals + excluded.rated_deals, \
         opponents = players.opponents + excluded.opponents, shared_deals = players.shared_deals + excluded.shared_deals",
    ),
    (
        "opponents",
        "INSERT INTO opponents (name_key, opponent) SELECT $1, opponent FROM opponents WHERE name_key = $2 \
         ON CONFLICT DO NOTHING",
    ),
];

impl Store {
    /// Moves every stored name to today's key, once (`settings.name_keys`).
    pub(super) async fn rekey_names(&self) -> DbResult<()> {
        let done: Option<String> =
            sqlx::query_scalar("SELECT value FROM settings WHERE key = 'name_keys'").fetch_optional(&self.pool).await?;
        if done.as_deref() == Some(KEYS) {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        let mut names: Vec<(NameKey, String)> = Vec::new();
        for table in ["stats", "ratings", "protected_names", "board_rows", "players", "challenges", "match_queue"] {
            let sql = format!("SELECT DISTINCT name_key, name FROM {table}");
            names.extend(sqlx::query_as::<_, (NameKey, String)>(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *tx).await?);
        }
        let moves: BTreeMap<NameKey, NameKey> = names
            .into_iter()
            .map(|(old, name)| (old, NameKey::of_stored(&name)))
            .filter(|(old, new)| old != new)
            .collect();
        for (old, new) in &moves {
            for (table, copy) in MOVES {
                sqlx::query(copy).bind(new).bind(old).execute(&mut *tx).await?;
                let sql = format!("DELETE FROM {table} WHERE name_key = $1");
                sqlx::query(sqlx::AssertSqlSafe(sql)).bind(old).execute(&mut *tx).await?;
            }
            // A run moves unless the new key already holds one it may not sit beside (one attempt per rally,
            // one unfinished run per kind): that one keeps the old key.
            sqlx::query(
                "UPDATE challenges SET name_key = $1 WHERE name_key = $2 AND NOT EXISTS (SELECT 1 FROM challenges AS c \
                 WHERE c.name_key = $1 AND ((c.rally IS NOT NULL AND c.rally = challenges.rally) \
                 OR (c.rally IS NULL AND challenges.rally IS NULL AND c.kind = challenges.kind \
                 AND c.finished_at IS NULL AND challenges.finished_at IS NULL)))",
            )
            .bind(new)
            .bind(old)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM match_queue WHERE name_key = $1").bind(old).execute(&mut *tx).await?;
            tracing::info!(%old, %new, "a stored name moved to its new key");
        }
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ('name_keys', $1) ON CONFLICT (key) DO UPDATE SET value = $1",
        )
        .bind(KEYS)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::fairness::Listing;

    /// Runs `sql` on the store.
    async fn exec(store: &Store, sql: &str) {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(&store.pool).await.unwrap();
    }

    #[tokio::test]
    async fn rows_stored_under_lower_cased_names_move_to_their_keys_and_merge() {
        let store = Store::open("sqlite::memory:", Listing::DEFAULT).await.unwrap();
        // As the server wrote them before: keys were the names in lower case.
        exec(
            &store,
            "INSERT INTO stats (name_key, name, table_type, public, deals, money, last_at) VALUES \
            ('alice', 'Alice', 'house', 0, 3, 30, 10), ('ａｌｉｃｅ', 'ＡＬＩＣＥ', 'house', 0, 2, -5, 20), \
            ('bob', 'Bob', 'house', 0, 1, 7, 5)",
        )
        .await;
        exec(
            &store,
            "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at, score) VALUES \
            ('alice', 'Alice', 'house', 26000000, 3000000, 3, 10, 20000000), \
            ('ａｌｉｃｅ', 'ＡＬＩＣＥ', 'house', 30000000, 2000000, 9, 20, 26000000)",
        )
        .await;
        exec(
            &store,
            "INSERT INTO protected_names (name_key, name, key_digest, recovery_digest, protected_at, changed_at) \
            VALUES ('alice', 'Alice', 'k1', 'r1', 1, 1), ('аӏісе', 'АӀісе', 'k2', 'r2', 2, 2)",
        )
        .await;
        exec(
            &store,
            "INSERT INTO board_rows (board, name_key, name, score, deals, last_at) VALUES \
            ('overall', 'alice', 'Alice', 30, 3, 10), ('overall', 'ａｌｉｃｅ', 'ＡＬＩＣＥ', -5, 2, 20)",
        )
        .await;
        exec(&store, "DELETE FROM settings WHERE key = 'name_keys'").await;
        store.rekey_names().await.unwrap();

        let alice = NameKey::of_stored("Alice");
        let stats: Vec<(NameKey, i64, i64, i64)> =
            sqlx::query_as("SELECT name_key, deals, money, last_at FROM stats ORDER BY name_key")
                .fetch_all(&store.pool)
                .await
                .unwrap();
        assert_eq!(
            stats,
            [(alice.clone(), 5, 25, 20), (NameKey::of_stored("Bob"), 1, 7, 5)],
            "one name's stats add up"
        );
        let ratings: Vec<(NameKey, i64)> =
            sqlx::query_as("SELECT name_key, deals FROM ratings").fetch_all(&store.pool).await.unwrap();
        assert_eq!(ratings, [(alice.clone(), 9)], "the rating with more deals stays");
        let protected: Vec<(NameKey, String)> =
            sqlx::query_as("SELECT name_key, key_digest FROM protected_names").fetch_all(&store.pool).await.unwrap();
        assert_eq!(protected, [(alice.clone(), "k1".to_string())], "the protection already under the key stays");
        let board: Vec<(NameKey, i64, i64)> =
            sqlx::query_as("SELECT name_key, score, deals FROM board_rows").fetch_all(&store.pool).await.unwrap();
        assert_eq!(board, [(alice, 25, 5)]);
        // Once: a second opening moves nothing.
        exec(&store, "INSERT INTO stats (name_key, name, table_type, public, deals) VALUES ('ｃａｒｌ', 'ＣＡＲＬ', 'house', 1, 1)").await;
        store.rekey_names().await.unwrap();
        let carl: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM stats WHERE name_key = 'ｃａｒｌ'")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(carl, 1, "the keys moved once, when the database was first opened");
    }
}
