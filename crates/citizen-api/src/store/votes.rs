//! The vote pool's storage: placing and revoking an account's tokens, one account at a time.

use async_trait::async_trait;
use domain::votes::{ExpiryRule, VoteError, VotePool};
use service_kit::codec::{DbInstant, DbOption, DbUuid};
use uuid::Uuid;

use super::{Instant, StoreError, StoreResult};

/// A placed token (spec 2.6).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct VoteToken {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    #[sqlx(rename = "target_id", try_from = "DbUuid")]
    pub target: Uuid,
    #[sqlx(try_from = "DbInstant")]
    pub inserted_at: Instant,
    #[sqlx(try_from = "DbOption<DbInstant>")]
    pub expires_at: Option<Instant>,
    #[sqlx(try_from = "DbOption<DbInstant>")]
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

/// One account's change of its tokens on one target: `count` placed or revoked at `now`.
#[derive(Debug, Clone, Copy)]
pub struct VoteChange<'a> {
    pub subject: &'a str,
    pub target: Uuid,
    pub count: u32,
    pub now: Instant,
}

/// A page of an account's tokens, newest first (`inserted_at`, then id, descending), after the
/// `after` position when given; `active`: only active (true) or inactive (false) ones at `now`,
/// or all; at most `limit`.
#[derive(Debug, Clone, Copy)]
pub struct TokenQuery<'a> {
    pub subject: &'a str,
    pub active: Option<bool>,
    pub after: Option<(Instant, Uuid)>,
    pub limit: u32,
    pub now: Instant,
}

/// The rules a placing is decided by: the pool's size and when the new tokens stop counting.
#[derive(Debug, Clone, Copy)]
pub struct PlaceRules {
    pub pool: VotePool,
    pub expiry: ExpiryRule<Instant>,
}

/// The tokens placed and the pool figures after placing, or why none were placed.
pub type PlaceOutcome = Result<(Vec<VoteToken>, PoolFigures), PlaceError>;

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

impl From<sqlx::Error> for PlaceError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// The vote pool. Every place and revoke of one account runs in a transaction that first takes
/// the account's lock (PostgreSQL: its `vote_accounts` row `FOR UPDATE`; SQLite: the write lock
/// of `BEGIN IMMEDIATE`), then counts its active tokens at `now` and decides with the domain
/// rules, so concurrent requests on any number of replicas never overdraw the pool.
#[async_trait]
pub trait VoteStore: VoteReads {
    /// Places `count` tokens on `target` (a report or a project) when that many are available: all or none.
    /// Returns the placed tokens and the pool figures after placing.
    async fn place_votes(&self, change: VoteChange<'_>, rules: PlaceRules) -> PlaceOutcome;

    /// Revokes up to `count` of the account's active tokens on `target`, the most recently
    /// placed first; returns how many were revoked (0 when none was active there).
    async fn revoke_votes(&self, change: VoteChange<'_>) -> StoreResult<u32>;

    /// One batch of the expiry sweep: at most `limit` tokens whose `expires_at` is at or before
    /// `now` stop counting in their report's `votes_count`. Returns how many, or `None` when
    /// another replica's sweep is running (PostgreSQL; it will do the work).
    async fn expire_votes(&self, now: Instant, limit: u32) -> StoreResult<Option<u64>>;
}

/// The account's tokens and pool figures as they are (written once for both backends).
#[async_trait]
pub trait VoteReads: Send + Sync + 'static {
    /// A page of the account's tokens (see [`TokenQuery`]).
    async fn vote_tokens(&self, query: TokenQuery<'_>) -> StoreResult<Vec<VoteToken>>;

    /// The account's active tokens at `now`: all of them, and those on `target` when given.
    async fn active_votes(
        &self,
        subject: &str,
        target: Option<Uuid>,
        now: Instant,
    ) -> StoreResult<(u32, u32)>;
}

/// The change's `count` new tokens on its target, placed at its `now` under `expiry`.
pub(crate) fn new_tokens(change: VoteChange<'_>, expiry: ExpiryRule<Instant>) -> Vec<VoteToken> {
    let expires_at = expiry.expires_at(change.now, |t, days| {
        t + chrono::TimeDelta::days(i64::from(days))
    });
    (0..change.count)
        .map(|_| VoteToken {
            id: Uuid::now_v7(),
            target: change.target,
            inserted_at: change.now,
            expires_at,
            revoked_at: None,
        })
        .collect()
}

/// A count from the database as a pool figure.
pub(crate) fn figure(count: i64) -> u32 {
    u32::try_from(count.max(0)).unwrap_or(u32::MAX)
}
