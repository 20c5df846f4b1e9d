//! The vote pool (SQLite): `BEGIN IMMEDIATE` holds the database's write lock for the whole
//! transaction, which is every account's lock at once.

use async_trait::async_trait;
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use super::{get_instant, get_opt_instant, get_uuid, micros, SqliteStore};
use crate::store::votes::{figure, VoteStore, VoteToken, VoteTx};
use crate::store::{Instant, StoreResult};

const ACTIVE: &str = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)";

struct SqliteVoteTx(Transaction<'static, Sqlite>);

#[async_trait]
impl VoteStore for SqliteStore {
    async fn begin_votes(&self) -> StoreResult<Box<dyn VoteTx>> {
        Ok(Box::new(SqliteVoteTx(
            self.pool.begin_with("BEGIN IMMEDIATE").await?,
        )))
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

#[async_trait]
impl VoteTx for SqliteVoteTx {
    async fn target_exists(&mut self, target: Uuid) -> StoreResult<bool> {
        Ok(sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM reports WHERE id = ?1) \
             OR EXISTS (SELECT 1 FROM projects WHERE id = ?1)",
        )
        .bind(target.to_string())
        .fetch_one(&mut *self.0)
        .await?)
    }

    async fn lock_account(&mut self, subject: &str) -> StoreResult<bool> {
        Ok(
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM vote_accounts WHERE subject = ?1)")
                .bind(subject)
                .fetch_one(&mut *self.0)
                .await?,
        )
    }

    async fn create_account(&mut self, subject: &str, now: Instant) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO vote_accounts (subject, created_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(micros(now))
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn count_active(&mut self, subject: &str, now: Instant) -> StoreResult<u32> {
        let active: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM vote_tokens WHERE subject = ?1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(micros(now))
        .fetch_one(&mut *self.0)
        .await?;
        Ok(figure(active))
    }

    async fn insert_tokens(&mut self, subject: &str, tokens: &[VoteToken]) -> StoreResult<()> {
        for token in tokens {
            sqlx::query(
                "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .bind(token.id.to_string())
            .bind(subject)
            .bind(token.target.to_string())
            .bind(micros(token.inserted_at))
            .bind(token.expires_at.map(micros))
            .execute(&mut *self.0)
            .await?;
        }
        Ok(())
    }

    async fn revoke_newest(
        &mut self,
        subject: &str,
        target: Uuid,
        count: u32,
        now: Instant,
    ) -> StoreResult<u32> {
        let revoked = sqlx::query(&format!(
            "UPDATE vote_tokens SET revoked_at = ?2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = ?1 AND target_id = ?3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT ?4)"
        ))
        .bind(subject)
        .bind(micros(now))
        .bind(target.to_string())
        .bind(i64::from(count))
        .execute(&mut *self.0)
        .await?
        .rows_affected();
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }

    async fn commit(self: Box<Self>) -> StoreResult<()> {
        Ok(self.0.commit().await?)
    }
}
