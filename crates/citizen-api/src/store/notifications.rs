//! Notifications' storage: the feed, read marks, settings and the channel subscriptions.

use async_trait::async_trait;
use domain::notifications::Interval;
use service_kit::codec::{DbInstant, DbOption};
use uuid::Uuid;

pub use super::types::EventKind;
use super::{Instant, StoreResult};

/// A feed entry (spec 2.7), read from `notifications` (`records::NOTIFICATION_COLUMNS`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Notification {
    pub tag: String,
    pub title: String,
    pub body: Option<String>,
    pub url: Option<String>,
    pub icon: Option<String>,
    #[sqlx(try_from = "DbInstant")]
    pub sent_at: Instant,
    #[sqlx(try_from = "DbInstant")]
    pub inserted_at: Instant,
    #[sqlx(try_from = "DbOption<DbInstant>")]
    pub read_at: Option<Instant>,
}

/// What a feed entry is made of (the worker writes them; tests too).
#[derive(Debug, Clone, PartialEq)]
pub struct NewNotification {
    pub subject: String,
    /// The event behind it: at most one entry per event and recipient.
    pub event_id: Option<Uuid>,
    pub title: String,
    pub body: Option<String>,
    pub url: Option<String>,
    pub icon: Option<String>,
    /// When the event happened.
    pub sent_at: Instant,
}

impl NewNotification {
    /// The entry's tag: derived from the event and the recipient (the same after a repeat), or
    /// new for an entry without an event.
    pub fn tag(&self) -> String {
        match self.event_id {
            Some(event) => Uuid::new_v5(&event, self.subject.as_bytes()).to_string(),
            None => Uuid::now_v7().to_string(),
        }
    }
}

/// A citizen's settings (spec 2.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub enabled: bool,
    pub interval: Option<Interval>,
}

impl Default for Settings {
    /// No row: enabled, delivered as it happens.
    fn default() -> Self {
        Self {
            enabled: true,
            interval: None,
        }
    }
}

/// The answer to marking read.
#[derive(Debug, Clone, PartialEq)]
pub enum Marked {
    /// The marked entries (newest first) and the unread count afterwards (uncapped).
    Done(Vec<Notification>, u64),
    /// This many of the tags are not the caller's; nothing was marked.
    NotOwn(usize),
}

#[async_trait]
pub trait NotificationStore: Send + Sync + 'static {
    /// Writes a feed entry; `None` when the event already has one for this recipient.
    /// `inserted_at` is `now`, or just after the subject's latest entry when that is later.
    async fn add_notification(
        &self,
        new: &NewNotification,
        now: Instant,
    ) -> StoreResult<Option<Notification>>;

    /// A page of the feed, newest first (`sent_at`, then `inserted_at`, descending), strictly
    /// after the position `after` when given.
    async fn notifications(
        &self,
        subject: &str,
        after: Option<(Instant, Instant)>,
        limit: u32,
    ) -> StoreResult<Vec<Notification>>;

    /// Marks the tags read (those read already keep their `read_at`), all or none.
    async fn mark_read(&self, subject: &str, tags: &[String], now: Instant) -> StoreResult<Marked>;

    /// The unread entries, counted up to `cap`.
    async fn unread_count(&self, subject: &str, cap: u32) -> StoreResult<u64>;

    /// The settings (the defaults when never set).
    async fn settings(&self, subject: &str) -> StoreResult<Settings>;

    /// Stores the settings, and `locale` when given.
    async fn put_settings(
        &self,
        subject: &str,
        settings: Settings,
        locale: Option<&str>,
        now: Instant,
    ) -> StoreResult<()>;

    /// Records `locale` (the token's `locale` claim) as the language of what is written to the
    /// subject unless one is recorded already: the first thing a citizen does (file, vote,
    /// subscribe) sets it; saving the settings sets it again. A subject without settings gets
    /// the defaults' row (enabled, no interval), which reads as no row everywhere.
    async fn remember_locale(&self, subject: &str, locale: &str, now: Instant) -> StoreResult<()>;

    /// Whether the subject has a web push subscription with this endpoint.
    async fn webpush_subscribed(&self, subject: &str, endpoint: &str) -> StoreResult<bool>;

    /// Stores a web push subscription; an endpoint subscribed before (by anyone: a browser
    /// has one endpoint) is replaced.
    async fn add_webpush(
        &self,
        subject: &str,
        sub: &PushSubscription,
        now: Instant,
    ) -> StoreResult<()>;

    /// Removes the subject's subscription with this endpoint; `false` when there is none.
    async fn remove_webpush(&self, subject: &str, endpoint: &str) -> StoreResult<bool>;

    /// Whether the subject receives e-mails.
    async fn email_subscribed(&self, subject: &str) -> StoreResult<bool>;

    /// Subscribes (or re-subscribes, with a new address) the subject to e-mails.
    async fn add_email(
        &self,
        subject: &str,
        sub: &EmailSubscription,
        now: Instant,
    ) -> StoreResult<()>;

    /// Ends the subject's e-mails; `false` when there were none.
    async fn remove_email(&self, subject: &str) -> StoreResult<bool>;

    /// Starts draining the outbox (`app::notifications::drain_outbox` runs it): no erasure runs
    /// beside the transaction (PostgreSQL: an advisory lock shared, which an erasure takes
    /// exclusive; SQLite: the write lock), so none commits between the read of the recipients and
    /// the commit.
    async fn begin_drain(&self) -> StoreResult<Box<dyn OutboxTx>>;
}

/// A browser's push subscription (keys as sent, base64url).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    /// The language of what is pushed.
    pub locale: Option<String>,
}

/// An e-mail subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailSubscription {
    pub email: String,
    pub locale: Option<String>,
    /// The secret of the one-click unsubscribe link.
    pub unsubscribe_token: String,
}

/// Runs an insert of a feed entry again when it lost the race for its `inserted_at` (another
/// entry of the same subject took that instant at the same moment).
pub(crate) async fn retry_taken_instant<T, F, Fut>(mut insert: F) -> StoreResult<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = StoreResult<T>>,
{
    let mut tries = 0;
    loop {
        match insert().await {
            Err(super::StoreError::Conflict { .. }) if tries < 5 => tries += 1,
            other => return other,
        }
    }
}

/// Orders entries as the feed does: newest first.
pub(crate) fn newest_first(list: &mut [Notification]) {
    list.sort_by_key(|n| std::cmp::Reverse((n.sent_at, n.inserted_at)));
}

/// An outbox event with what the texts need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEvent {
    pub id: Uuid,
    pub kind: EventKind,
    pub title: String,
    pub occurred_at: Instant,
}

/// A claimed outbox event: its kind (`None`: not readable any more) and the title of its report
/// or news item (`None`: deleted since).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingEvent {
    pub id: Uuid,
    pub kind: Option<EventKind>,
    pub title: Option<String>,
    pub occurred_at: Instant,
}

/// Draining the outbox in one transaction.
#[async_trait]
pub trait OutboxTx: super::WriteTx {
    /// Claims up to `limit` pending events, oldest first; rows another worker holds are skipped
    /// (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite: the drain's write lock).
    async fn claim_events(&mut self, limit: u32) -> StoreResult<Vec<PendingEvent>>;

    /// Who is told about `kind`, with their stored locale.
    async fn recipients(&mut self, kind: &EventKind) -> StoreResult<Vec<(String, Option<String>)>>;

    /// Writes a feed entry and its deliveries; nothing when the event already has one for the
    /// recipient (a repeated drain adds nothing).
    async fn insert_entry(&mut self, new: &NewNotification, now: Instant) -> StoreResult<()>;

    async fn mark_processed(&mut self, event_id: Uuid, now: Instant) -> StoreResult<()>;
}

/// A feed entry's texts: title and body.
pub type Texts = (String, Option<String>);

/// Writes an event's texts for a recipient in their stored locale (`None`: the default).
pub type Render<'a> = &'a (dyn Fn(&OutboxEvent, Option<&str>) -> Texts + Send + Sync);

impl super::Issue {
    /// The outbox event of this issue reaching its current status.
    pub(crate) fn status_event(&self) -> EventKind {
        EventKind::ReportStatus {
            report_id: self.report_id,
            status: self.status.as_str().to_owned(),
        }
    }

    /// The outbox event of a statement published on this issue.
    pub(crate) fn statement_event(&self) -> EventKind {
        EventKind::Statement {
            report_id: self.report_id,
        }
    }
}
