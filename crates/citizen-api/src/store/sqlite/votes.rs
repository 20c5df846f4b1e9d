//! The vote pool (SQLite): `BEGIN IMMEDIATE` holds the write lock for the whole decision.

use async_trait::async_trait;
use domain::votes::{ExpiryRule, VotePool};
use uuid::Uuid;

use super::SqliteStore;
use crate::store::sql::votes::ACTIVE;
use crate::store::sql::{DbInstant, DbUuid};
use crate::store::votes::{figure, new_tokens, PlaceError, PoolFigures, VoteStore, VoteToken};
use crate::store::{Instant, StoreResult};

#[async_trait]
impl VoteStore for SqliteStore {
    async fn place_votes(
        &self,
        subject: &str,
        target: Uuid,
        count: u32,
        pool: VotePool,
        expiry: ExpiryRule<Instant>,
        now: Instant,
    ) -> Result<(Vec<VoteToken>, PoolFigures), PlaceError> {
        let mut tx = self.begin_write().await?;
        let exists: Option<DbUuid> = sqlx::query_scalar(
            "SELECT id FROM reports WHERE id = $1 UNION ALL SELECT id FROM projects WHERE id = $1",
        )
        .bind(DbUuid(target))
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Err(PlaceError::TargetNotFound);
        }
        sqlx::query(
            "INSERT INTO vote_accounts (subject, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(DbInstant(now))
        .execute(&mut *tx)
        .await?;
        let active: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM vote_tokens WHERE subject = $1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(DbInstant(now))
        .fetch_one(&mut *tx)
        .await?;
        let active = figure(active);
        pool.check_place(active, count)?;
        let tokens = new_tokens(target, count, expiry, now);
        for token in &tokens {
            sqlx::query(
                "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(DbUuid(token.id))
            .bind(subject)
            .bind(DbUuid(target))
            .bind(DbInstant(now))
            .bind(token.expires_at.map(DbInstant))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok((tokens, PoolFigures::new(pool, active + count)))
    }

    async fn revoke_votes(
        &self,
        subject: &str,
        target: Uuid,
        count: u32,
        now: Instant,
    ) -> StoreResult<u32> {
        let mut tx = self.begin_write().await?;
        let revoked = sqlx::query(&format!(
            "UPDATE vote_tokens SET revoked_at = $2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = $1 AND target_id = $3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT $4)"
        ))
        .bind(subject)
        .bind(DbInstant(now))
        .bind(DbUuid(target))
        .bind(i64::from(count))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }
}
