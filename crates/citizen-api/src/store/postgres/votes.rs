//! The vote pool (PostgreSQL): the account's `vote_accounts` row is the lock.

use async_trait::async_trait;
use domain::votes::{ExpiryRule, VotePool};
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::PgStore;
use crate::store::votes::{figure, new_tokens, PlaceError, PoolFigures, VoteStore, VoteToken};
use crate::store::{Instant, StoreResult};

/// Takes the account's lock (creating its row on its first vote).
async fn lock_account(
    tx: &mut Transaction<'_, Postgres>,
    subject: &str,
    now: Instant,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO vote_accounts (subject, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(subject)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query("SELECT subject FROM vote_accounts WHERE subject = $1 FOR UPDATE")
        .bind(subject)
        .fetch_one(&mut **tx)
        .await?;
    Ok(())
}

const ACTIVE: &str = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)";

async fn active_count(
    tx: &mut Transaction<'_, Postgres>,
    subject: &str,
    now: Instant,
) -> StoreResult<u32> {
    let count: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM vote_tokens WHERE subject = $1 AND {ACTIVE}"
    ))
    .bind(subject)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(figure(count))
}

#[async_trait]
impl VoteStore for PgStore {
    async fn place_votes(
        &self,
        subject: &str,
        target: Uuid,
        count: u32,
        pool: VotePool,
        expiry: ExpiryRule<Instant>,
        now: Instant,
    ) -> Result<(Vec<VoteToken>, PoolFigures), PlaceError> {
        let mut tx = self.pool.begin().await?;
        let exists: Option<Uuid> = sqlx::query_scalar("SELECT id FROM reports WHERE id = $1")
            .bind(target)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(PlaceError::TargetNotFound);
        }
        lock_account(&mut tx, subject, now).await?;
        let active = active_count(&mut tx, subject, now).await?;
        pool.check_place(active, count)?;
        let tokens = new_tokens(target, count, expiry, now);
        let ids: Vec<Uuid> = tokens.iter().map(|t| t.id).collect();
        let expires_at = tokens.first().and_then(|t| t.expires_at);
        sqlx::query(
            "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
             SELECT id, $2, $3, $4, $5 FROM unnest($1::uuid[]) AS id",
        )
        .bind(&ids)
        .bind(subject)
        .bind(target)
        .bind(now)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
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
        let mut tx = self.pool.begin().await?;
        lock_account(&mut tx, subject, now).await?;
        let revoked = sqlx::query(&format!(
            "UPDATE vote_tokens SET revoked_at = $2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = $1 AND target_id = $3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT $4)"
        ))
        .bind(subject)
        .bind(now)
        .bind(target)
        .bind(i64::from(count))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }

    async fn active_votes(
        &self,
        subject: &str,
        target: Option<Uuid>,
        now: Instant,
    ) -> StoreResult<(u32, u32)> {
        let (all, on_target): (i64, i64) = sqlx::query_as(&format!(
            "SELECT count(*), count(*) FILTER (WHERE target_id = $3) FROM vote_tokens \
             WHERE subject = $1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(now)
        .bind(target)
        .fetch_one(&self.pool)
        .await?;
        Ok((figure(all), figure(on_target)))
    }
}
