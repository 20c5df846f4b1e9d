//! `Idempotency-Key` rows (`store::idempotency`) on both backends, and their completion inside
//! a filing's transaction.

use async_trait::async_trait;

use super::DbInstant;
use crate::store::idempotency::{Claim, IdempotencyStore, StoredAnswer};
use crate::store::{Instant, StoreError, StoreResult};

#[derive(sqlx::FromRow)]
struct KeyRecord {
    request_hash: Option<String>,
    status: Option<i32>,
    response: Option<String>,
}

both_backends! {
    impl Backend {
        /// Completes the claim of `scope`/`key` with `answer` inside the filing's transaction; a
        /// claim that is no longer this request's (taken over as stale) fails it.
        pub(in crate::store) async fn complete_key(
            tx: &mut Tx<'_>,
            scope: &str,
            key: &str,
            answer: &StoredAnswer,
        ) -> StoreResult<()> {
            let done = sqlx::query(
                "UPDATE idempotency_keys SET request_hash = $3, status = $4, response = $5 \
                 WHERE scope = $1 AND key = $2 AND status IS NULL",
            )
            .bind(scope)
            .bind(key)
            .bind(&answer.request_hash)
            .bind(i32::from(answer.status))
            .bind(&answer.body)
            .execute(&mut **tx)
            .await?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Unavailable(anyhow::anyhow!(
                    "the Idempotency-Key of this filing is no longer claimed by it"
                )));
            }
            Ok(())
        }
    }

    #[async_trait]
    impl IdempotencyStore for Backend {
        async fn claim_key(
            &self,
            scope: &str,
            key: &str,
            now: Instant,
            expired_before: Instant,
            stale_before: Instant,
        ) -> StoreResult<Claim> {
            // A row deleted between the statements (its request failed) is tried again.
            for _ in 0..3 {
                let inserted = sqlx::query(
                    "INSERT INTO idempotency_keys (scope, key, started_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (scope, key) DO NOTHING",
                )
                .bind(scope)
                .bind(key)
                .bind(DbInstant(now))
                .execute(&self.pool)
                .await?;
                if inserted.rows_affected() == 1 {
                    return Ok(Claim::Claimed);
                }
                let taken_over = sqlx::query(
                    "UPDATE idempotency_keys SET started_at = $3, request_hash = NULL, \
                     status = NULL, response = NULL WHERE scope = $1 AND key = $2 \
                     AND (started_at < $4 OR (status IS NULL AND started_at < $5))",
                )
                .bind(scope)
                .bind(key)
                .bind(DbInstant(now))
                .bind(DbInstant(expired_before))
                .bind(DbInstant(stale_before))
                .execute(&self.pool)
                .await?;
                if taken_over.rows_affected() == 1 {
                    return Ok(Claim::Claimed);
                }
                let found: Option<KeyRecord> = sqlx::query_as(
                    "SELECT request_hash, status, response FROM idempotency_keys \
                     WHERE scope = $1 AND key = $2",
                )
                .bind(scope)
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
                match found {
                    None => continue,
                    Some(KeyRecord {
                        request_hash: Some(request_hash),
                        status: Some(status),
                        response: Some(body),
                    }) => {
                        return Ok(Claim::Done(StoredAnswer {
                            request_hash,
                            status: u16::try_from(status).map_err(StoreError::other)?,
                            body,
                        }))
                    }
                    Some(_) => return Ok(Claim::InProgress),
                }
            }
            Ok(Claim::InProgress)
        }

        async fn release_key(&self, scope: &str, key: &str) -> StoreResult<()> {
            sqlx::query(
                "DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL",
            )
            .bind(scope)
            .bind(key)
            .execute(&self.pool)
            .await?;
            Ok(())
        }

        async fn delete_keys_before(&self, before: Instant, limit: u32) -> StoreResult<u64> {
            let done = sqlx::query(
                "DELETE FROM idempotency_keys WHERE (scope, key) IN \
                 (SELECT scope, key FROM idempotency_keys WHERE started_at < $1 LIMIT $2)",
            )
            .bind(DbInstant(before))
            .bind(i64::from(limit))
            .execute(&self.pool)
            .await?;
            Ok(done.rows_affected())
        }
    }
}
