//! The vote pool (SQLite): `BEGIN IMMEDIATE` holds the write lock for the whole decision.

use async_trait::async_trait;

use super::SqliteStore;
use crate::store::sql::votes::ACTIVE;
use crate::store::sql::Dialect as _;
use crate::store::sql::{DbInstant, DbUuid};
use crate::store::votes::{
    figure, new_tokens, PlaceError, PlaceOutcome, PlaceRules, PoolFigures, VoteChange, VoteStore,
};
use crate::store::{Instant, StoreResult};

#[async_trait]
impl VoteStore for SqliteStore {
    async fn place_votes(&self, change: VoteChange<'_>, rules: PlaceRules) -> PlaceOutcome {
        let mut tx = self.begin_write().await?;
        let exists: Option<DbUuid> = sqlx::query_scalar(
            "SELECT id FROM reports WHERE id = $1 UNION ALL SELECT id FROM projects WHERE id = $1",
        )
        .bind(DbUuid(change.target))
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Err(PlaceError::TargetNotFound);
        }
        sqlx::query(
            "INSERT INTO vote_accounts (subject, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(change.subject)
        .bind(DbInstant(change.now))
        .execute(&mut *tx)
        .await?;
        let active: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM vote_tokens WHERE subject = $1 AND {ACTIVE}"
        ))
        .bind(change.subject)
        .bind(DbInstant(change.now))
        .fetch_one(&mut *tx)
        .await?;
        let active = figure(active);
        rules.pool.check_place(active, change.count)?;
        let tokens = new_tokens(change, rules.expiry);
        for token in &tokens {
            sqlx::query(
                "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(DbUuid(token.id))
            .bind(change.subject)
            .bind(DbUuid(change.target))
            .bind(DbInstant(change.now))
            .bind(token.expires_at.map(DbInstant))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok((tokens, PoolFigures::new(rules.pool, active + change.count)))
    }

    async fn revoke_votes(&self, change: VoteChange<'_>) -> StoreResult<u32> {
        let mut tx = self.begin_write().await?;
        let revoked = sqlx::query(&format!(
            "UPDATE vote_tokens SET revoked_at = $2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = $1 AND target_id = $3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT $4)"
        ))
        .bind(change.subject)
        .bind(DbInstant(change.now))
        .bind(DbUuid(change.target))
        .bind(i64::from(change.count))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }

    async fn expire_votes(&self, now: Instant, limit: u32) -> StoreResult<Option<u64>> {
        // The write lock of `BEGIN IMMEDIATE` makes the sweepers take turns.
        let mut tx = self.begin_write().await?;
        let expired = sqlx::query(
            "UPDATE vote_tokens SET counted = 0 WHERE id IN ( \
               SELECT id FROM vote_tokens \
               WHERE counted AND revoked_at IS NULL AND expires_at IS NOT NULL \
               AND expires_at <= $1 \
               ORDER BY expires_at LIMIT $2)",
        )
        .bind(DbInstant(now))
        .bind(i64::from(limit))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(Some(expired))
    }
}
