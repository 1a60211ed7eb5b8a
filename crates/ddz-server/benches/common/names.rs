//! What the benchmarks that generate rows inside the database share: the players' names and keys.

use sqlx::Executor;

/// For benchmarks that generate rows inside the database: a table `names (i, key, name)` of `n` players
/// named `P0`, `P1`…, each with its key as the server works it out (a key is the name's look-alike skeleton:
/// `P10`'s is `plo`, not `p10`). Names whose keys another took first are left out.
pub async fn fill_names(pool: &sqlx::AnyPool, n: u64) {
    pool.execute("CREATE TABLE names (i BIGINT PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL)")
        .await
        .expect("the names' table");
    let mut i = 0;
    while i < n {
        let rows: Vec<String> = (i..n.min(i + 1_000))
            .map(|i| {
                let name = format!("P{i}");
                let key = ddz_server::PlayerName::parse(&name).expect("a name").key().to_string();
                format!("({i}, '{key}', '{name}')")
            })
            .collect();
        let sql = format!("INSERT INTO names (i, key, name) VALUES {} ON CONFLICT DO NOTHING", rows.join(", "));
        pool.execute(sqlx::AssertSqlSafe(sql)).await.expect("names");
        i += 1_000;
    }
}
