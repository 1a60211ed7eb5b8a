//! The schema's migrations, one source for both databases: the SQLite files in `migrations/`, listed once
//! in [`MIGRATIONS`] and embedded in the binary. PostgreSQL runs the same SQL with its integers written
//! `BIGINT` ([`postgres_sql`]): SQLite's `INTEGER` is 64-bit by nature, PostgreSQL's 32-bit.
//!
//! sqlx keeps a checksum of each applied migration's SQL in `_sqlx_migrations` and refuses a database
//! whose applied migrations no longer match, so the SQL each backend runs must never change by a byte.
//! PostgreSQL databases were first migrated from copies of these files (`migrations/postgres/`, since
//! removed) that began with a comment line of their own; [`MIGRATIONS`] keeps what that line said, and
//! the derived SQL is, byte for byte, what those copies held.

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AssertSqlSafe, SqlSafeStr};

use super::Backend;

/// One migration: the SQLite file it is written in, and what PostgreSQL's copy said of itself.
struct Source {
    version: i64,
    /// sqlx's description of it.
    name: &'static str,
    /// Its file in `migrations/`.
    file: &'static str,
    sql: &'static str,
    /// The end of the comment line PostgreSQL's copy began with (`-- PostgreSQL's copy of ../FILE: NOTE`):
    /// part of the checksums PostgreSQL databases keep, so kept word for word. Migrations written since
    /// the copies went have none.
    postgres_note: Option<&'static str>,
}

macro_rules! source {
    ($version:literal, $name:literal, $file:literal, $note:expr) => {
        Source {
            version: $version,
            name: $name,
            file: $file,
            sql: include_str!(concat!("../../migrations/", $file)),
            postgres_note: Some($note),
        }
    };
    ($version:literal, $name:literal, $file:literal) => {
        Source {
            version: $version,
            name: $name,
            file: $file,
            sql: include_str!(concat!("../../migrations/", $file)),
            postgres_note: None,
        }
    };
}

/// What the first three of PostgreSQL's copies said of themselves.
const BIGINT_NOTE: &str = "the same schema, with 64-bit integers (BIGINT) where SQLite's are 64-bit by nature.";

/// Every migration, in order.
const MIGRATIONS: [Source; 13] = [
    source!(1, "rooms", "0001_rooms.sql", BIGINT_NOTE),
    source!(2, "challenges", "0002_challenges.sql", BIGINT_NOTE),
    source!(3, "reviews", "0003_reviews.sql", BIGINT_NOTE),
    source!(4, "one unfinished run", "0004_one_unfinished_run.sql", "the same schema."),
    source!(5, "room owners", "0005_room_owners.sql", "the same schema."),
    source!(6, "protected names", "0006_protected_names.sql", "the same schema, with BIGINT times."),
    source!(7, "ratings", "0007_ratings.sql", "the same schema."),
    source!(8, "match queue", "0008_match_queue.sql", "the same schema."),
    source!(9, "fair competition", "0009_fair_competition.sql", "the same schema, with 64-bit integers (BIGINT)."),
    source!(10, "one table spelling", "0010_one_table_spelling.sql"),
    source!(11, "tournaments", "0011_tournaments.sql"),
    source!(12, "hall", "0012_hall.sql"),
    source!(13, "puzzles", "0013_puzzles.sql"),
];

/// The migrations for `backend`.
pub(super) fn migrator(backend: Backend) -> Migrator {
    Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|m| {
                let sql = match backend {
                    Backend::Sqlite => m.sql.into_sql_str(),
                    // Safe: the embedded migration, with one type word written another way.
                    Backend::Postgres => AssertSqlSafe(postgres_sql(m)).into_sql_str(),
                };
                Migration::new(m.version, m.name.into(), MigrationType::Simple, sql, false)
            })
            .collect(),
    )
}

/// PostgreSQL's SQL for a migration: the comment line its copy began with, then the SQLite file with
/// every `INTEGER` written `BIGINT` ([`integers_as_bigint`]).
fn postgres_sql(m: &Source) -> String {
    match m.postgres_note {
        Some(note) => format!("-- PostgreSQL's copy of ../{}: {note}\n{}", m.file, integers_as_bigint(m.sql)),
        None => integers_as_bigint(m.sql),
    }
}

/// `sql` with every `INTEGER` that is a whole word written `BIGINT`: exactly that, and nothing else. A
/// whole word has no ASCII letter, digit or `_` on either side (`INTEGERS` and `AN_INTEGER` stay); the
/// match is case-sensitive (a comment's `integers` stays).
fn integers_as_bigint(sql: &str) -> String {
    const FROM: &str = "INTEGER";
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(sql.len() + sql.len() / 16);
    let mut rest = sql;
    while let Some(at) = rest.find(FROM) {
        out.push_str(&rest[..at]);
        rest = &rest[at + FROM.len()..];
        // `out` ends with what stood before this `INTEGER` (a replaced one before it is followed by no
        // word character, so never touches it).
        let whole = !out.ends_with(word) && !rest.starts_with(word);
        out.push_str(if whole { "BIGINT" } else { FROM });
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_becomes_bigint_as_a_whole_word_only() {
        assert_eq!(integers_as_bigint("a INTEGER NOT NULL,\n    b INTEGER\n"), "a BIGINT NOT NULL,\n    b BIGINT\n");
        assert_eq!(integers_as_bigint("INTEGER"), "BIGINT");
        assert_eq!(integers_as_bigint("CAST(x AS INTEGER)"), "CAST(x AS BIGINT)");
        for kept in ["INTEGERS", "AN_INTEGER", "INTEGER_2", "INTEGER2", "XINTEGER", "INTEGERINTEGER", "integer", ""] {
            assert_eq!(integers_as_bigint(kept), kept);
        }
        assert_eq!(integers_as_bigint("INTEGER INTEGERS INTEGER"), "BIGINT INTEGERS BIGINT");
    }

    /// Splits `line` into runs of word characters and runs of the others.
    fn words(line: &str) -> Vec<&str> {
        let mut words = Vec::new();
        let mut start = 0;
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for pair in chars.windows(2) {
            if word(pair[0].1) != word(pair[1].1) {
                words.push(&line[start..pair[1].0]);
                start = pair[1].0;
            }
        }
        words.push(&line[start..]);
        words
    }

    #[test]
    fn postgresql_runs_each_sqlite_migration_with_bigint_for_integer_and_nothing_else_changed() {
        for m in &MIGRATIONS {
            let postgres = postgres_sql(m);
            assert!(!postgres.contains("INTEGER"), "{}", m.file);
            let rest = match m.postgres_note {
                Some(note) => {
                    let (first, rest) = postgres.split_once('\n').unwrap();
                    assert_eq!(first, format!("-- PostgreSQL's copy of ../{}: {note}", m.file));
                    rest
                }
                None => &postgres,
            };
            let (sqlite, postgres): (Vec<&str>, Vec<&str>) = (m.sql.split('\n').collect(), rest.split('\n').collect());
            assert_eq!(sqlite.len(), postgres.len(), "{}", m.file);
            for (a, b) in sqlite.iter().zip(&postgres) {
                let (a, b) = (words(a), words(b));
                assert_eq!(a.len(), b.len(), "{}: {a:?} / {b:?}", m.file);
                for (a, b) in a.iter().zip(&b) {
                    assert!(a == b || (*a == "INTEGER" && *b == "BIGINT"), "{}: {a:?} became {b:?}", m.file);
                }
            }
        }
    }

    #[test]
    fn every_migration_file_is_listed_once_in_order() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
            assert_eq!(m.file, format!("{:04}_{}.sql", m.version, m.name.replace(' ', "_")));
        }
        let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        files.sort();
        assert_eq!(files, MIGRATIONS.iter().map(|m| m.file).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn stats_and_ratings_stored_under_the_old_words_take_the_one_spelling() {
        sqlx::any::install_default_drivers();
        let pool = sqlx::any::AnyPoolOptions::new().max_connections(1).connect("sqlite::memory:").await.unwrap();
        let all: Vec<Migration> = migrator(Backend::Sqlite).iter().cloned().collect();
        let before = Migrator::with_migrations(all[..9].to_vec());
        before.run(&pool).await.unwrap();
        for old in ["house", "noshuffle", "twoplayer"] {
            let stat =
                format!("INSERT INTO stats (name_key, name, table_type, public) VALUES ('ann', 'Ann', '{old}', 0)");
            let rating = format!(
                "INSERT INTO ratings (name_key, name, family, mu, sigma, deals, last_at) VALUES ('ann', 'Ann', '{old}', 1, 1, 1, 0)"
            );
            let role = format!("INSERT INTO rating_roles (family, mu, sigma, deals) VALUES ('{old}', 1, 1, 1)");
            let history = format!(
                "INSERT INTO rating_history (name_key, family, at, code, number, mu, sigma) VALUES ('ann', '{old}', 0, 'ABCDEF', 1, 1, 1)"
            );
            for sql in [stat, rating, role, history] {
                sqlx::query(AssertSqlSafe(sql)).execute(&pool).await.unwrap();
            }
        }
        migrator(Backend::Sqlite).run(&pool).await.unwrap();
        for (column, table) in
            [("table_type", "stats"), ("family", "ratings"), ("family", "rating_roles"), ("family", "rating_history")]
        {
            let sql = format!("SELECT {column} FROM {table} ORDER BY {column}");
            let stored: Vec<(String,)> = sqlx::query_as(AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap();
            let names: Vec<&str> = stored.iter().map(|(word,)| word.as_str()).collect();
            assert_eq!(names, ["house", "no_shuffle", "two_player"], "{table}");
            assert!(names.iter().all(|word| ddz_engine::TableType::parse(word).is_some_and(|t| t.name() == *word)));
        }
    }
}
