//! A subject's personal data: the reads `app::export` gathers beside the other stores', the
//! export's link, and the primitives `app::erasure` runs in one transaction (docs/privacy.md
//! says what each table holds and what erasure does to it).

use async_trait::async_trait;
use service_kit::codec::DbInstant;
use uuid::Uuid;

use super::{Instant, StoreResult, WriteTx};

/// A subject's e-mail subscription (`email_subscriptions`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EmailSubscription {
    pub email: String,
    pub locale: Option<String>,
    #[sqlx(try_from = "DbInstant")]
    pub created_at: Instant,
}

/// One of a subject's web push subscriptions (`webpush_subscriptions`), without its keys.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PushSubscription {
    pub endpoint: String,
    pub locale: Option<String>,
    #[sqlx(try_from = "DbInstant")]
    pub created_at: Instant,
}

/// A subject's export (`data_exports`): its archive downloads at the link with `token` until
/// `expires_at`.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DataExport {
    pub subject: String,
    pub token: String,
    #[sqlx(try_from = "DbInstant")]
    pub requested_at: Instant,
    #[sqlx(try_from = "DbInstant")]
    pub expires_at: Instant,
}

/// A subject's data beyond what the other stores read, its export, and its erasure.
#[async_trait]
pub trait PrivacyStore: Send + Sync + 'static {
    /// The ids of the reports the subject filed, oldest first.
    async fn reports_of(&self, subject: &str) -> StoreResult<Vec<Uuid>>;

    /// The subject's e-mail subscription.
    async fn email_subscription(&self, subject: &str) -> StoreResult<Option<EmailSubscription>>;

    /// The subject's web push subscriptions, oldest first.
    async fn push_subscriptions(&self, subject: &str) -> StoreResult<Vec<PushSubscription>>;

    /// The audit rows naming the subject (as `ErasureTx::pseudonymise_audit` would rewrite).
    async fn audit_mentions(&self, subject: &str) -> StoreResult<u64>;

    /// Writes the subject's export, replacing an earlier one (and its link).
    async fn put_export(&self, export: &DataExport) -> StoreResult<()>;

    /// The subject's export that has not expired at `now`.
    async fn export_of(&self, subject: &str, now: Instant) -> StoreResult<Option<DataExport>>;

    /// The export whose link carries `token`, unless expired at `now`.
    async fn export_by_token(&self, token: &str, now: Instant) -> StoreResult<Option<DataExport>>;

    /// Deletes up to `limit` feed entries sent before `before`, with their deliveries (the
    /// foreign key cascades): how many entries.
    async fn delete_feed_before(&self, before: Instant, limit: u32) -> StoreResult<u64>;

    /// Deletes up to `limit` digest records written before `before`: how many.
    async fn delete_digests_before(&self, before: Instant, limit: u32) -> StoreResult<u64>;

    /// Clears the detail of up to `limit` officers' events recorded before `before`; the action,
    /// actor, report, issue and time stay: how many.
    async fn clear_event_details_before(&self, before: Instant, limit: u32) -> StoreResult<u64>;

    /// Deletes up to `limit` exports whose link has expired at `now`: how many.
    async fn delete_expired_exports(&self, now: Instant, limit: u32) -> StoreResult<u64>;

    /// Starts an erasure: a writing transaction (SQLite: `BEGIN IMMEDIATE`) that excludes the
    /// writers fanning out to subjects (the outbox drain, the digests) until it ends, and waits
    /// for those running (PostgreSQL: an advisory lock taken exclusive, before anything else);
    /// dropped without [`WriteTx::commit`], it rolls back and nothing is erased.
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
    /// deliveries' foreign key cascades), digests, notification settings, news subscriptions
    /// and export: how many rows, deliveries not counted.
    async fn delete_feed(&mut self, subject: &str) -> StoreResult<u64>;

    /// Deletes the files of the subject's reports (not the statements'), all of them or only
    /// those of `only` (ids of other files are passed over): the deleted media ids, whose stored
    /// bytes go once the transaction is committed.
    async fn delete_report_media(
        &mut self,
        subject: &str,
        only: Option<&[Uuid]>,
    ) -> StoreResult<Vec<Uuid>>;

    /// Clears the author of the subject's reports (and of their issues' copies): how many
    /// reports. The reports stay public, as anonymous filings.
    async fn disown_reports(&mut self, subject: &str) -> StoreResult<u64>;

    /// Writes `pseudonym` for the subject in the audit trail: the actor of status changes and
    /// officers' events, the author of statements, the subject named in an event's detail (as a
    /// JSON string, e.g. an assigned officer): how many rows.
    async fn pseudonymise_audit(&mut self, subject: &str, pseudonym: &str) -> StoreResult<u64>;

    /// Deletes the subject's assignments to report categories (an officer's): how many.
    async fn delete_assignments(&mut self, subject: &str) -> StoreResult<u64>;

    /// Deletes the `Idempotency-Key` rows whose scope is `scope` (the subject's hash,
    /// `app::idempotency::scope_of_subject`): how many.
    async fn delete_idempotency_keys(&mut self, scope: &str) -> StoreResult<u64>;
}
