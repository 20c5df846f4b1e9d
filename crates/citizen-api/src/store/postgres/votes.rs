//! The vote pool (PostgreSQL): the account's `vote_accounts` row is the lock, taken by the
//! functions `place_vote_tokens` and `revoke_vote_tokens` (migration 0007), one statement each.

use async_trait::async_trait;
use uuid::Uuid;

use super::PgStore;
use crate::store::votes::{
    figure, new_tokens, PlaceError, PlaceOutcome, PlaceRules, PoolFigures, VoteChange, VoteStore,
};
use crate::store::{Instant, StoreError, StoreResult};

#[async_trait]
impl VoteStore for PgStore {
    async fn place_votes(&self, change: VoteChange<'_>, rules: PlaceRules) -> PlaceOutcome {
        // One statement (migration 0007): the target check, the account's lock, the count and
        // the insert; the tokens go in only when they fit, the rule `VotePool::check_place`
        // names the refusal of.
        let tokens = new_tokens(change, rules.expiry);
        let ids: Vec<Uuid> = tokens.iter().map(|t| t.id).collect();
        let expires_at = tokens.first().and_then(|t| t.expires_at);
        let (found, active, placed): (bool, i64, i64) = sqlx::query_as(
            "SELECT found, active, placed FROM place_vote_tokens($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(change.subject)
        .bind(change.target)
        .bind(&ids)
        .bind(change.now)
        .bind(expires_at)
        .bind(i64::from(rules.pool.max_count))
        .bind(self.synchronous_vote_commit)
        .fetch_one(&self.pool)
        .await?;
        if !found {
            return Err(PlaceError::TargetNotFound);
        }
        let active = figure(active);
        rules.pool.check_place(active, change.count)?;
        if placed != i64::from(change.count) {
            return Err(PlaceError::Store(StoreError::Other(anyhow::anyhow!(
                "placed {placed} of {} tokens that fit the pool",
                change.count
            ))));
        }
        Ok((tokens, PoolFigures::new(rules.pool, active + change.count)))
    }

    async fn revoke_votes(&self, change: VoteChange<'_>) -> StoreResult<u32> {
        let revoked: i64 = sqlx::query_scalar("SELECT revoke_vote_tokens($1, $2, $3, $4, $5)")
            .bind(change.subject)
            .bind(change.target)
            .bind(i64::from(change.count))
            .bind(change.now)
            .bind(self.synchronous_vote_commit)
            .fetch_one(&self.pool)
            .await?;
        Ok(u32::try_from(revoked).unwrap_or(u32::MAX))
    }

    async fn expire_votes(&self, now: Instant, limit: u32) -> StoreResult<Option<u64>> {
        // One statement (migration 0034): the sweepers' lock, then the batch.
        let expired: i64 = sqlx::query_scalar("SELECT expire_vote_tokens($1, $2)")
            .bind(now)
            .bind(i32::try_from(limit).unwrap_or(i32::MAX))
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(expired).ok())
    }
}
