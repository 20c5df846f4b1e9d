//! The vote pool (PostgreSQL): the account's `vote_accounts` row is the lock, taken by the
//! functions `place_vote_tokens` and `revoke_vote_tokens` (migration 0007), one statement each.

use async_trait::async_trait;
use domain::votes::{ExpiryRule, VotePool};
use uuid::Uuid;

use super::{page_sql, PgStore};
use crate::store::votes::{figure, new_tokens, PlaceError, PoolFigures, VoteStore, VoteToken};
use crate::store::{Instant, StoreError, StoreResult};

#[derive(sqlx::FromRow)]
struct TokenRow {
    id: Uuid,
    target_id: Uuid,
    inserted_at: Instant,
    expires_at: Option<Instant>,
    revoked_at: Option<Instant>,
}

const ACTIVE: &str = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)";

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
        // One statement (migration 0007): the target check, the account's lock, the count and
        // the insert; the tokens go in only when they fit, the rule `VotePool::check_place`
        // names the refusal of.
        let tokens = new_tokens(target, count, expiry, now);
        let ids: Vec<Uuid> = tokens.iter().map(|t| t.id).collect();
        let expires_at = tokens.first().and_then(|t| t.expires_at);
        let (found, active, placed): (bool, i64, i64) = sqlx::query_as(
            "SELECT found, active, placed FROM place_vote_tokens($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(subject)
        .bind(target)
        .bind(&ids)
        .bind(now)
        .bind(expires_at)
        .bind(i64::from(pool.max_count))
        .bind(self.synchronous_vote_commit)
        .fetch_one(&self.pool)
        .await?;
        if !found {
            return Err(PlaceError::TargetNotFound);
        }
        let active = figure(active);
        pool.check_place(active, count)?;
        if placed != i64::from(count) {
            return Err(PlaceError::Store(StoreError::Other(anyhow::anyhow!(
                "placed {placed} of {count} tokens that fit the pool"
            ))));
        }
        Ok((tokens, PoolFigures::new(pool, active + count)))
    }

    async fn revoke_votes(
        &self,
        subject: &str,
        target: Uuid,
        count: u32,
        now: Instant,
    ) -> StoreResult<u32> {
        let revoked: i64 = sqlx::query_scalar("SELECT revoke_vote_tokens($1, $2, $3, $4, $5)")
            .bind(subject)
            .bind(target)
            .bind(i64::from(count))
            .bind(now)
            .bind(self.synchronous_vote_commit)
            .fetch_one(&self.pool)
            .await?;
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
        Ok(rows
            .into_iter()
            .map(|r| VoteToken {
                id: r.id,
                target: r.target_id,
                inserted_at: r.inserted_at,
                expires_at: r.expires_at,
                revoked_at: r.revoked_at,
            })
            .collect())
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
