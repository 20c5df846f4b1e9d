//! The vote pool (PostgreSQL): the account's `vote_accounts` row is its lock.

use async_trait::async_trait;
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::{page_sql, PgStore};
use crate::store::votes::{figure, VoteStore, VoteToken, VoteTx};
use crate::store::{Instant, StoreResult};

#[derive(sqlx::FromRow)]
struct TokenRow {
    id: Uuid,
    target_id: Uuid,
    inserted_at: Instant,
    expires_at: Option<Instant>,
    revoked_at: Option<Instant>,
}

impl From<TokenRow> for VoteToken {
    fn from(r: TokenRow) -> Self {
        VoteToken {
            id: r.id,
            target: r.target_id,
            inserted_at: r.inserted_at,
            expires_at: r.expires_at,
            revoked_at: r.revoked_at,
        }
    }
}

const ACTIVE: &str = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)";

struct PgVoteTx(Transaction<'static, Postgres>);

#[async_trait]
impl VoteStore for PgStore {
    async fn begin_votes(&self) -> StoreResult<Box<dyn VoteTx>> {
        // Without the flush the account's lock is not held while the WAL reaches the disk
        // (docs/decisions.md, "Vote commits"); one round trip either way.
        let tx = if self.synchronous_vote_commit {
            self.pool.begin().await?
        } else {
            self.pool
                .begin_with("BEGIN; SET LOCAL synchronous_commit TO off")
                .await?
        };
        Ok(Box::new(PgVoteTx(tx)))
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
            None => "TRUE".to_owned(),
            Some(true) => format!("({ACTIVE})"),
            Some(false) => format!("NOT ({ACTIVE})"),
        };
        // The cursor as the index scan's start (a separate statement, see `notifications`);
        // the page size a literal (`page_sql`).
        let after_cursor = if after.is_some() {
            "AND (inserted_at, id) < ($3, $4) "
        } else {
            ""
        };
        let sql = format!(
            "SELECT id, target_id, inserted_at, expires_at, revoked_at FROM vote_tokens \
             WHERE subject = $1 AND {filter} {after_cursor}\
             ORDER BY inserted_at DESC, id DESC{}",
            page_sql(i64::from(limit), 0)
        );
        let mut query = sqlx::query_as(&sql).bind(subject).bind(now);
        if let Some((inserted_at, id)) = after {
            query = query.bind(inserted_at).bind(id);
        }
        let rows: Vec<TokenRow> = query.fetch_all(&self.pool).await?;
        Ok(rows.into_iter().map(VoteToken::from).collect())
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

#[async_trait]
impl VoteTx for PgVoteTx {
    async fn target_exists(&mut self, target: Uuid) -> StoreResult<bool> {
        Ok(sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM reports WHERE id = $1) \
             OR EXISTS (SELECT 1 FROM projects WHERE id = $1)",
        )
        .bind(target)
        .fetch_one(&mut *self.0)
        .await?)
    }

    async fn lock_account(&mut self, subject: &str) -> StoreResult<bool> {
        let locked: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM vote_accounts WHERE subject = $1 FOR UPDATE")
                .bind(subject)
                .fetch_optional(&mut *self.0)
                .await?;
        Ok(locked.is_some())
    }

    async fn create_account(&mut self, subject: &str, now: Instant) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO vote_accounts (subject, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(now)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn count_active(&mut self, subject: &str, now: Instant) -> StoreResult<u32> {
        let active: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM vote_tokens WHERE subject = $1 AND {ACTIVE}"
        ))
        .bind(subject)
        .bind(now)
        .fetch_one(&mut *self.0)
        .await?;
        Ok(figure(active))
    }

    async fn insert_tokens(&mut self, subject: &str, tokens: &[VoteToken]) -> StoreResult<()> {
        let ids: Vec<Uuid> = tokens.iter().map(|t| t.id).collect();
        let targets: Vec<Uuid> = tokens.iter().map(|t| t.target).collect();
        let inserted: Vec<Instant> = tokens.iter().map(|t| t.inserted_at).collect();
        let expires: Vec<Option<Instant>> = tokens.iter().map(|t| t.expires_at).collect();
        sqlx::query(
            "INSERT INTO vote_tokens (id, subject, target_id, inserted_at, expires_at) \
             SELECT id, $1, target_id, inserted_at, expires_at \
             FROM unnest($2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[]) \
               AS t (id, target_id, inserted_at, expires_at)",
        )
        .bind(subject)
        .bind(&ids)
        .bind(&targets)
        .bind(&inserted)
        .bind(&expires)
        .execute(&mut *self.0)
        .await?;
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
            "UPDATE vote_tokens SET revoked_at = $2 WHERE id IN ( \
               SELECT id FROM vote_tokens WHERE subject = $1 AND target_id = $3 AND {ACTIVE} \
               ORDER BY inserted_at DESC, id DESC LIMIT $4)"
        ))
        .bind(subject)
        .bind(now)
        .bind(target)
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
