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

#[async_trait]
pub trait DigestStore: Send + Sync + 'static {
    /// Up to `limit` accounts with settings enabled and this `interval`, a web push or e-mail
    /// subscription, entries written in `(start, end]` and no digest for the period ending at
    /// `end` yet; by subject.
    async fn digest_candidates(
        &self,
        interval: Interval,
        start: Instant,
        end: Instant,
        limit: u32,
    ) -> StoreResult<Vec<DigestCandidate>>;

    /// Records the digest of the period ending at `end` and a delivery row per subscription of
    /// the account, in one transaction; `false` when it was written already (by another replica).
    async fn add_digest(
        &self,
        candidate: &DigestCandidate,
        end: Instant,
        texts: &DigestTexts,
        now: Instant,
    ) -> StoreResult<bool>;
}
