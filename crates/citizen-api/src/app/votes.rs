//! Placing and revoking vote tokens: the pool's rule, once, under the account's lock.

use domain::votes::{ExpiryRule, VoteError, VotePool};
use uuid::Uuid;

use crate::store::votes::{PoolFigures, VoteStore, VoteToken};
use crate::store::{Instant, StoreError};

/// Why tokens were not placed.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    #[error("no such target")]
    TargetNotFound,
    #[error(transparent)]
    Refused(#[from] VoteError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Places `count` tokens of `subject` on `target` (a report or a project) when that many are
/// available: all or none. The account's lock is taken before its tokens are counted, so the
/// count sees every token committed before, on any replica; the tokens go in only when
/// [`VotePool::check_place`] allows. Returns the placed tokens and the pool figures after.
pub async fn place(
    votes: &dyn VoteStore,
    subject: &str,
    target: Uuid,
    count: u32,
    pool: VotePool,
    expiry: ExpiryRule<Instant>,
    now: Instant,
) -> Result<(Vec<VoteToken>, PoolFigures), PlaceError> {
    let mut tx = votes.begin_votes().await?;
    if !tx.target_exists(target).await? {
        return Err(PlaceError::TargetNotFound);
    }
    if !tx.lock_account(subject).await? {
        // The first vote: the account's row is created, then locked like any other.
        tx.create_account(subject, now).await?;
        tx.lock_account(subject).await?;
    }
    let active = tx.count_active(subject, now).await?;
    pool.check_place(active, count)?;
    let tokens = new_tokens(target, count, expiry, now);
    tx.insert_tokens(subject, &tokens).await?;
    tx.commit().await?;
    Ok((tokens, PoolFigures::new(pool, active + count)))
}

/// Revokes up to `count` of the account's active tokens on `target`, the most recently placed
/// first, under the account's lock; how many were revoked (0 when none was active there, or the
/// account never voted).
pub async fn revoke(
    votes: &dyn VoteStore,
    subject: &str,
    target: Uuid,
    count: u32,
    now: Instant,
) -> Result<u32, StoreError> {
    let mut tx = votes.begin_votes().await?;
    if !tx.lock_account(subject).await? {
        return Ok(0);
    }
    let revoked = tx.revoke_newest(subject, target, count, now).await?;
    tx.commit().await?;
    Ok(revoked)
}

/// `count` new tokens on `target` placed at `now` under `expiry`.
fn new_tokens(
    target: Uuid,
    count: u32,
    expiry: ExpiryRule<Instant>,
    now: Instant,
) -> Vec<VoteToken> {
    let expires_at = expiry.expires_at(now, |t, days| t + chrono::TimeDelta::days(i64::from(days)));
    (0..count)
        .map(|_| VoteToken {
            id: Uuid::now_v7(),
            target,
            inserted_at: now,
            expires_at,
            revoked_at: None,
        })
        .collect()
}
