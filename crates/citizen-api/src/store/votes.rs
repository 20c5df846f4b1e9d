//! The vote pool's storage: an account's tokens, and the transaction that places or revokes them.

use async_trait::async_trait;
use domain::votes::VotePool;
use uuid::Uuid;

use super::{Instant, StoreResult};

/// A placed token (spec 2.6).
#[derive(Debug, Clone, PartialEq)]
pub struct VoteToken {
    pub id: Uuid,
    pub target: Uuid,
    pub inserted_at: Instant,
    pub expires_at: Option<Instant>,
    pub revoked_at: Option<Instant>,
}

/// The pool figures of an account at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolFigures {
    pub max_count: u32,
    pub active_tokens: u32,
    pub available_tokens: u32,
}

impl PoolFigures {
    pub fn new(pool: VotePool, active: u32) -> Self {
        Self {
            max_count: pool.max_count,
            active_tokens: active,
            available_tokens: pool.available(active),
        }
    }
}

/// The vote pool's storage: primitives, with no rule inside. The pool's rule (how many tokens an
/// account may hold) is decided once, in `app::votes`, between [`VoteTx::lock_account`] and the
/// insert, so concurrent requests on any number of replicas never overdraw the pool.
#[async_trait]
pub trait VoteStore: Send + Sync + 'static {
    /// Starts a transaction of the vote pool (SQLite: `BEGIN IMMEDIATE`, the database's write
    /// lock up front; PostgreSQL: `BEGIN`, with `synchronous_commit` off unless
    /// `votes.synchronous_commit`). Dropped without [`VoteTx::commit`], it rolls back.
    async fn begin_votes(&self) -> StoreResult<Box<dyn VoteTx>>;

    /// A page of the account's tokens, newest first (`inserted_at`, then id, descending), after
    /// the `after` position when given; `active`: only active (true) or inactive (false) ones at
    /// `now`, or all.
    async fn vote_tokens(
        &self,
        subject: &str,
        active: Option<bool>,
        after: Option<(Instant, Uuid)>,
        limit: u32,
        now: Instant,
    ) -> StoreResult<Vec<VoteToken>>;

    /// The account's active tokens at `now`: all of them, and those on `target` when given.
    async fn active_votes(
        &self,
        subject: &str,
        target: Option<Uuid>,
        now: Instant,
    ) -> StoreResult<(u32, u32)>;
}

/// One transaction of the vote pool, one statement per method.
#[async_trait]
pub trait VoteTx: Send {
    /// Whether `target` is a report or a project.
    async fn target_exists(&mut self, target: Uuid) -> StoreResult<bool>;

    /// Takes the account's lock until the transaction ends (PostgreSQL: its `vote_accounts` row
    /// `FOR UPDATE`; SQLite: the transaction already holds the write lock) and says whether the
    /// account exists.
    async fn lock_account(&mut self, subject: &str) -> StoreResult<bool>;

    /// Creates the account (its first vote); nothing when it exists.
    async fn create_account(&mut self, subject: &str, now: Instant) -> StoreResult<()>;

    /// The account's active tokens at `now`.
    async fn count_active(&mut self, subject: &str, now: Instant) -> StoreResult<u32>;

    /// Inserts the tokens of `subject`.
    async fn insert_tokens(&mut self, subject: &str, tokens: &[VoteToken]) -> StoreResult<()>;

    /// Revokes at `now` up to `count` of the account's active tokens on `target`, the most
    /// recently placed first; how many were revoked.
    async fn revoke_newest(
        &mut self,
        subject: &str,
        target: Uuid,
        count: u32,
        now: Instant,
    ) -> StoreResult<u32>;

    /// Commits the transaction.
    async fn commit(self: Box<Self>) -> StoreResult<()>;
}

/// A count from the database as a pool figure.
pub(crate) fn figure(count: i64) -> u32 {
    u32::try_from(count.max(0)).unwrap_or(u32::MAX)
}
