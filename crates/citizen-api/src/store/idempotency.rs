//! `Idempotency-Key` rows of `POST /reports` (`idempotency_keys`): claimed at a filing's start,
//! completed with its answer inside the filing's transaction (`IssueTx::complete_idempotency`),
//! deleted when the filing fails, swept after their time (`app::idempotency`).

use async_trait::async_trait;

pub use super::types::StoredAnswer;
use super::{Instant, StoreResult};

/// What claiming a key found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is this request's now.
    Claimed,
    /// Another request with the key is running.
    InProgress,
    /// A request with the key completed with this answer.
    Done(StoredAnswer),
}

/// The key rows.
#[async_trait]
pub trait IdempotencyStore: Send + Sync + 'static {
    /// Claims `key` in `scope` at `now`. A row started before `expired_before` counts as
    /// absent, and so does one still in progress started before `stale_before` (its request
    /// died without deleting it).
    async fn claim_key(
        &self,
        scope: &str,
        key: &str,
        now: Instant,
        expired_before: Instant,
        stale_before: Instant,
    ) -> StoreResult<Claim>;

    /// Deletes the claim of a request that failed (a completed row stays).
    async fn release_key(&self, scope: &str, key: &str) -> StoreResult<()>;

    /// Deletes at most `limit` rows started before `before`; how many.
    async fn delete_keys_before(&self, before: Instant, limit: u32) -> StoreResult<u64>;
}
