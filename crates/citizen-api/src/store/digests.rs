//! Digests: who is due one for a period, and writing it (once per account and period) with its
//! delivery rows.

use async_trait::async_trait;
use domain::notifications::Interval;

use super::{Instant, StoreResult};

/// An account due a digest for a period: its entries written in the period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestCandidate {
    pub subject: String,
    /// The stored locale of the account's settings.
    pub locale: Option<String>,
    /// Entries written in the period.
    pub entries: u32,
    /// The newest entry's tag: the digest's identity (push `Topic`, e-mail `Message-ID`).
    pub newest_tag: String,
    /// The titles of the newest entries (at most [`TITLES`]), newest first.
    pub titles: Vec<String>,
}

/// Most entry titles a digest lists.
pub const TITLES: u32 = 5;

/// A digest's texts, in the account's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestTexts {
    pub title: String,
    pub body: String,
}

/// The period a digest is written for, and how far back it reaches when earlier periods went
/// without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestPeriod {
    pub interval: Interval,
    /// The period is `(start, end]`.
    pub start: Instant,
    pub end: Instant,
    /// The oldest entries a digest may gather (`notifications.digest.catch_up_periods` periods
    /// back from `end`).
    pub earliest: Instant,
}

/// A digest to write: the candidate's, for the period ending at `period_end`, with its texts.
#[derive(Debug, Clone, Copy)]
pub struct NewDigest<'a> {
    pub candidate: &'a DigestCandidate,
    pub period_end: Instant,
    pub texts: &'a DigestTexts,
}

#[async_trait]
pub trait DigestStore: Send + Sync + 'static {
    /// Up to `limit` accounts with settings enabled and `period.interval`, a web push or e-mail
    /// subscription, no digest for the period ending at `period.end` yet, and entries written
    /// since their window opened, by subject. An account's window is `(since, end]`: `since` is
    /// the end of its latest earlier digest, else `start`, but never before `earliest`; so the
    /// entries of periods that went by without a digest (no worker running) come in the next.
    /// Entries sent alone (delivered while the account had no interval) are not counted: a
    /// digest neither repeats them nor takes its identity from one.
    async fn digest_candidates(
        &self,
        period: &DigestPeriod,
        limit: u32,
    ) -> StoreResult<Vec<DigestCandidate>>;

    /// Records the digest and a delivery row per subscription of the account, in one
    /// transaction that no erasure runs beside (PostgreSQL: the advisory lock shared); `false`
    /// when it was written already (by another replica), or when the candidate's newest entry is
    /// gone (the account was erased since its candidates were read).
    async fn add_digest(&self, digest: NewDigest<'_>, now: Instant) -> StoreResult<bool>;
}
