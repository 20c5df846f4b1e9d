//! A subject's personal data: the primitives `app::erasure` runs in one transaction
//! (docs/privacy.md says what each table holds and what erasure does to it).

use async_trait::async_trait;
use uuid::Uuid;

use super::{StoreResult, WriteTx};

/// Erasing a subject's personal data.
#[async_trait]
pub trait PrivacyStore: Send + Sync + 'static {
    /// Starts an erasure: a writing transaction (SQLite: `BEGIN IMMEDIATE`); dropped without
    /// [`WriteTx::commit`], it rolls back and nothing is erased.
    async fn begin_erasure(&self) -> StoreResult<Box<dyn ErasureTx>>;
}

/// The writes of one erasure; `subject` is a token subject.
#[async_trait]
pub trait ErasureTx: WriteTx {
    /// Deletes the subject's vote tokens (active, revoked and expired) and its vote account,
    /// whose row is locked first (the lock that places and revokes take): how many tokens.
    async fn delete_votes(&mut self, subject: &str) -> StoreResult<u64>;

    /// Deletes the subject's web push and e-mail subscriptions: how many.
    async fn delete_channels(&mut self, subject: &str) -> StoreResult<u64>;

    /// Deletes the subject's feed (with every delivery of its entries, queued or logged: the
    /// deliveries' foreign key cascades), digests, notification settings and news
    /// subscriptions: how many rows, deliveries not counted.
    async fn delete_feed(&mut self, subject: &str) -> StoreResult<u64>;

    /// Deletes the files of the subject's reports (not the statements'): their media ids, whose
    /// stored bytes go once the transaction is committed.
    async fn delete_report_media(&mut self, subject: &str) -> StoreResult<Vec<Uuid>>;

    /// Clears the author of the subject's reports (and of their issues' copies): how many
    /// reports. The reports stay public, as anonymous filings.
    async fn disown_reports(&mut self, subject: &str) -> StoreResult<u64>;

    /// Writes `pseudonym` for the subject in the audit trail: the actor of status changes and
    /// officers' events, the author of statements, the subject named in an event's detail (as a
    /// JSON string, e.g. an assigned officer): how many rows.
    async fn pseudonymise_audit(&mut self, subject: &str, pseudonym: &str) -> StoreResult<u64>;

    /// Deletes the subject's assignments to report categories (an officer's): how many.
    async fn delete_assignments(&mut self, subject: &str) -> StoreResult<u64>;
}
