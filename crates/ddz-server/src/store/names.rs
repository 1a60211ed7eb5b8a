//! Protected names (migration 0006, `docs/names.md`): the digests of a name's key and recovery secret,
//! protecting a name once, replacing its secrets on a recovery, and which names of a list are protected.
//! Always read from the database, never cached, so that every node of a cluster sees a protect or a
//! recovery at once. (Stored names moved to today's keys once, at opening: `rekey.rs`.)

use std::collections::HashSet;

use sqlx::any::{Any, AnyTypeInfo, AnyValueRef};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Encode, Type};

use super::{Db, DbResult, StoreError};
use crate::domain::names::{Digests, NameKey, PlayerName};

/// A name's key is bound and read as the text it is (every table's `name_key` column).
impl Type<Any> for NameKey {
    fn type_info() -> AnyTypeInfo {
        <String as Type<Any>>::type_info()
    }
}

impl Encode<'_, Any> for NameKey {
    fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <String as Encode<Any>>::encode_by_ref(&self.as_str().to_string(), buf)
    }
}

impl<'r> Decode<'r, Any> for NameKey {
    fn decode(value: AnyValueRef<'r>) -> Result<NameKey, BoxDynError> {
        Ok(NameKey::from_store(<String as Decode<Any>>::decode(value)?))
    }
}

impl Db {
    /// The digests of `name`'s secrets if it is protected (`docs/names.md`). Always read from the database,
    /// so that every node of a cluster sees a protect or a recovery at once.
    pub async fn name_protection(&self, name: &PlayerName) -> DbResult<Option<Digests>> {
        let name_key = name.key().clone();
        self.run(move |s| async move {
            let row: Option<(String, String)> =
                sqlx::query_as("SELECT key_digest, recovery_digest FROM protected_names WHERE name_key = $1")
                    .bind(&name_key)
                    .fetch_optional(&s.pool)
                    .await?;
            Ok::<_, StoreError>(row.map(|(key, recovery)| Digests { key, recovery }))
        })
        .await
    }

    /// Protects `name` with `digests`; `false` if it was protected already (the first one stays).
    pub async fn protect_name(&self, name: &PlayerName, digests: &Digests, at: u64) -> DbResult<bool> {
        let (name, digests) = (name.clone(), digests.clone());
        self.run(move |s| async move {
            let inserted = sqlx::query(
                "INSERT INTO protected_names (name_key, name, key_digest, recovery_digest, protected_at, changed_at) \
                 VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (name_key) DO NOTHING",
            )
            .bind(name.key())
            .bind(name.as_str())
            .bind(&digests.key)
            .bind(&digests.recovery)
            .bind(at as i64)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(inserted.rows_affected() == 1)
        })
        .await
    }

    /// Replaces `name`'s secrets with `digests` if its recovery digest is still `recovered` (a recovery
    /// that raced another one loses: `false`).
    pub async fn replace_name_secrets(
        &self,
        name: &PlayerName,
        recovered: &str,
        digests: &Digests,
        at: u64,
    ) -> DbResult<bool> {
        let (name_key, recovered, digests) = (name.key().clone(), recovered.to_string(), digests.clone());
        self.run(move |s| async move {
            let replaced = sqlx::query(
                "UPDATE protected_names SET key_digest = $1, recovery_digest = $2, changed_at = $3 \
                 WHERE name_key = $4 AND recovery_digest = $5",
            )
            .bind(&digests.key)
            .bind(&digests.recovery)
            .bind(at as i64)
            .bind(&name_key)
            .bind(&recovered)
            .execute(&s.pool)
            .await?;
            Ok::<_, StoreError>(replaced.rows_affected() == 1)
        })
        .await
    }

    /// Which of `names` (display names, as rows and seats hold them) are protected, as name keys.
    pub async fn protected_among(&self, players: &[String]) -> DbResult<HashSet<NameKey>> {
        let keys: Vec<NameKey> = players.iter().map(|name| NameKey::of_stored(name)).collect();
        if keys.is_empty() {
            return Ok(HashSet::new());
        }
        self.run(move |s| async move {
            let places: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
            let sql = format!("SELECT name_key FROM protected_names WHERE name_key IN ({})", places.join(", "));
            let mut query = sqlx::query_scalar::<_, NameKey>(sqlx::AssertSqlSafe(sql));
            for key in &keys {
                query = query.bind(key);
            }
            Ok::<_, StoreError>(query.fetch_all(&s.pool).await?.into_iter().collect())
        })
        .await
    }
}
