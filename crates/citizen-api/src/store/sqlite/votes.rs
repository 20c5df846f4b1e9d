//! The vote pool (SQLite): `BEGIN IMMEDIATE` holds the write lock for the whole decision.

use async_trait::async_trait;
use domain::votes::{ExpiryRule, VotePool};
use uuid::Uuid;

use super::{get_instant, get_opt_instant, get_uuid, micros, SqliteStore};
use crate::store::votes::{figure, new_tokens, PlaceError, PoolFigures, VoteStore, VoteToken};
use crate::store::{Instant, StoreResult};

const ACTIVE: &str = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)";

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
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let exists: Option<String> = sqlx::query_scalar(
            "SELECT id FROM reports WHERE id = ?1 UNION ALL SELECT id FROM projects WHERE id = ?1",
        )
        .bind(target.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Err(PlaceError::TargetNotFound);
        }
        sqlx::query(
            "INSERT INTO vote_accounts (subject, created_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(micros(now))
        .execute(&mut *tx)
        .await?;
        let active: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM vote_tokens WHERE subject = ?1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(micros(now))
        .fetch_one(&mut *tx)
        .await?;
        let active = figure(active);
        pool.check_place(active, count)?;
        let tokens = new_tokens(target, count, expiry, now);
        for token in &tokens {
            sqlx::query(
                "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .bind(token.id.to_string())
            .bind(subject)
            .bind(target.to_string())
            .bind(micros(now))
            .bind(token.expires_at.map(micros))
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
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let revoked = sqlx::query(&format!(
            "UPDATE vote_tokens SET revoked_at = ?2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = ?1 AND target_id = ?3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT ?4)"
        ))
        .bind(subject)
        .bind(micros(now))
        .bind(target.to_string())
        .bind(i64::from(count))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }

    async fn vote_tokens(
        &self,
        subject: &str,
        active: Option<bool>,
        after: Option<(Instant, Uuid)>,
        limit: u32,
        now: Instant,
    ) -> StoreResult<Vec<VoteToken>> {
        let filter = match active {
            None => "1".to_owned(),
            Some(true) => format!("({ACTIVE})"),
            Some(false) => format!("NOT ({ACTIVE})"),
        };
        let rows = sqlx::query(&format!(
            "SELECT id, target_id, inserted_at, expires_at, revoked_at FROM vote_tokens \
             WHERE subject = ?1 AND {filter} \
             AND (?3 IS NULL OR inserted_at < ?3 OR (inserted_at = ?3 AND id < ?4)) \
             ORDER BY inserted_at DESC, id DESC LIMIT ?5"
        ))
        .bind(subject)
        .bind(micros(now))
        .bind(after.map(|a| micros(a.0)))
        .bind(after.map(|a| a.1.to_string()))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(VoteToken {
                    id: get_uuid(row, "id")?,
                    target: get_uuid(row, "target_id")?,
                    inserted_at: get_instant(row, "inserted_at")?,
                    expires_at: get_opt_instant(row, "expires_at")?,
                    revoked_at: get_opt_instant(row, "revoked_at")?,
                })
            })
            .collect()
    }

    async fn active_votes(
        &self,
        subject: &str,
        target: Option<Uuid>,
        now: Instant,
    ) -> StoreResult<(u32, u32)> {
        let (all, on_target): (i64, i64) = sqlx::query_as(&format!(
            "SELECT count(*), coalesce(sum(target_id = ?3), 0) FROM vote_tokens \
             WHERE subject = ?1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(micros(now))
        .bind(target.map(|t| t.to_string()))
        .fetch_one(&self.pool)
        .await?;
        Ok((figure(all), figure(on_target)))
    }
}
