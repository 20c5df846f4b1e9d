//! Storage of report categories, reports, issues, statements and media: the vocabulary (types,
//! errors, the traits of each table group) and the two backends that implement it, PostgreSQL
//! (PostGIS) and SQLite. Which backend serves is chosen in [`crate::store`], by the database
//! URL's scheme; nothing here imports that choice.

pub mod admin;
mod backends;
pub mod composition;
pub mod deliveries;
pub mod digests;
pub mod idempotency;
pub mod news;
pub mod notifications;
pub mod open311;
pub(crate) mod postgres;
pub mod privacy;
pub mod projects;
mod records;
pub mod reply_templates;
mod sql;
pub(crate) mod sqlite;
pub mod stats;
pub mod status_events;
mod types;
pub mod uploads;
pub mod votes;

use async_trait::async_trait;
use domain::issues::{IssueStatus, TransitionError};
use service_kit::db::Migrations;
pub use service_kit::store_error::{StoreError, StoreResult};
use uuid::Uuid;

pub use types::*;

/// PostgreSQL schema owned by this service.
pub const SCHEMA: &str = "citizen_api";

/// The embedded migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    service_kit::embedded_migrations! {
        schema: SCHEMA,
        postgres: "../../migrations/citizen-api/postgres",
        sqlite: "../../migrations/citizen-api/sqlite",
        extensions: &["postgis", "pg_trgm"],
    }
}

/// Report categories and the officers who work in them.
#[async_trait]
pub trait CategoryStore: Send + Sync + 'static {
    /// Every category: by name, the default one last.
    async fn categories(&self) -> StoreResult<Vec<Category>>;

    /// The categories an officer works in, ordered as [`CategoryStore::categories`].
    async fn officer_categories(&self, subject: &str) -> StoreResult<Vec<Category>>;

    /// Creates a category; a taken name or a second default is a `Conflict`.
    async fn create_category(&self, new: &NewCategory, now: Instant) -> StoreResult<Category>;

    /// The default category, creating it with `name` when there is none (idempotent, safe when
    /// several replicas start at once).
    async fn ensure_default_category(&self, name: &str, now: Instant) -> StoreResult<Category>;

    /// Lets an officer work in a category (idempotent).
    async fn assign_officer(&self, subject: &str, category_id: Uuid) -> StoreResult<()>;
}

/// Reports and the reads citizens make.
#[async_trait]
pub trait ReportStore: Send + Sync + 'static {
    /// A report with all its issues.
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>>;

    /// A report with all its issues, its media and its `votes_count` (the count kept by the
    /// vote operations and the expiry sweep, `app::vote_expiry`), read in one statement (the
    /// public detail).
    async fn report_detail(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>>;

    /// The public list: one row per issue that is not moved, filtered, ordered and paged in
    /// the database (nearest first: the backend's own measure, then the issue id); each row's
    /// `votes_count` is its report's kept count.
    async fn public_reports(&self, filter: &ReportFilter) -> StoreResult<ListPage<IssueRow>>;

    /// A citizen's own reports, one row per report with all its issues and its kept
    /// `votes_count`. Only `near`, `order` and `page` of the filter apply.
    async fn own_reports(
        &self,
        author: &str,
        filter: &ReportFilter,
    ) -> StoreResult<ListPage<ReportWithIssues>>;

    /// What the public timeline of a report is built from; `None` when there is no such report.
    async fn timeline(&self, report_id: Uuid) -> StoreResult<Option<TimelineData>>;

    /// Marks (or unmarks) a report's media as unsuitable for the public (`explicit`): public
    /// views then hide them. An officer's action; `false` when there is no such report.
    async fn set_explicit(&self, report_id: Uuid, explicit: bool) -> StoreResult<bool>;
}

/// Why an officer's step on an issue did not happen.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    #[error("no such issue")]
    IssueNotFound,
    #[error("no such category")]
    CategoryNotFound,
    #[error(transparent)]
    Refused(#[from] TransitionError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for WorkflowError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// The officers' steps on issues (spec section 3): the store gives a transaction, and
/// `app::workflow` runs each step's script over its primitives.
#[async_trait]
pub trait IssueStore: Send + Sync + 'static {
    /// Starts a step's transaction (SQLite: `BEGIN IMMEDIATE`, the database's write lock up
    /// front; PostgreSQL: `BEGIN`, the rows are locked as they are read). Dropped without
    /// [`IssueTx::commit`], it rolls back.
    async fn begin_step(&self) -> StoreResult<Box<dyn IssueTx>>;
}

/// A writing transaction of a store: what it wrote takes effect when it commits; dropped without
/// committing, it rolls back. Every `…Tx` of the store traits is one.
#[async_trait]
pub trait WriteTx: Send {
    /// Commits the transaction.
    async fn commit(self: Box<Self>) -> StoreResult<()>;
}

/// One transaction of an officer's step, one statement per method.
#[async_trait]
pub trait IssueTx: WriteTx {
    /// The issue, locked until the transaction ends; on PostgreSQL its report's row is locked
    /// first (`FOR NO KEY UPDATE`), since every transaction that changes issues of a report takes
    /// the report's row before them (migration 0014's triggers rewrite the issues' copies while
    /// holding the report), and concurrent steps on one report's issues then see each other's
    /// results. `None` when there is no such issue.
    async fn lock_issue(&mut self, issue_id: Uuid) -> StoreResult<Option<Issue>>;

    /// The states of every issue of the report, as this transaction sees them.
    async fn issue_statuses(&mut self, report_id: Uuid) -> StoreResult<Vec<IssueStatus>>;

    /// Whether the report category exists.
    async fn category_exists(&mut self, category_id: Uuid) -> StoreResult<bool>;

    /// Sets the issue's state, its parent and when it changed; `clear_possible_duplicates`
    /// also clears its duplicate-suggestion flag. Returns the issue as it now is.
    async fn set_status(
        &mut self,
        change: &IssueChange,
        clear_possible_duplicates: bool,
    ) -> StoreResult<Issue>;

    /// Records a change of an issue's state (the timeline and the audit trail read these);
    /// `actor` is `None` for an anonymous filing.
    async fn record_change(&mut self, change: &IssueChange, actor: Option<&str>)
        -> StoreResult<()>;

    /// Locks the report's row until the transaction ends (PostgreSQL: `FOR NO KEY UPDATE`;
    /// SQLite: the transaction holds the write lock) and says whether it exists.
    async fn lock_report(&mut self, report_id: Uuid) -> StoreResult<bool>;

    /// The default category, if there is one.
    async fn default_category(&mut self) -> StoreResult<Option<Uuid>>;

    /// The report's issue in `category_id` that is not moved, if any.
    async fn issue_in_category(
        &mut self,
        report_id: Uuid,
        category_id: Uuid,
    ) -> StoreResult<Option<Uuid>>;

    /// Inserts a report with its media (already stored), deleting their pending-upload rows;
    /// a file the pending-upload sweep has taken is `Unavailable` (`store::uploads`).
    async fn insert_report(&mut self, new: &NewReport, now: Instant) -> StoreResult<()>;

    /// Completes the `Idempotency-Key` claim of `scope`/`key` with the filing's `answer`, in
    /// the filing's transaction (a committed filing always has its stored answer); a claim that
    /// is no longer this request's is `Unavailable`.
    async fn complete_idempotency(
        &mut self,
        scope: &str,
        key: &str,
        answer: &StoredAnswer,
    ) -> StoreResult<()>;

    /// Opens the issue, in state open, with its copies of the report's columns.
    async fn open_issue(&mut self, issue: NewIssue, now: Instant) -> StoreResult<Issue>;

    /// Sets the report's `processed_at` unless it is set.
    async fn mark_processed(&mut self, report_id: Uuid, now: Instant) -> StoreResult<()>;

    /// Inserts a statement with its media (already stored), deleting their pending-upload rows
    /// as [`IssueTx::insert_report`] does.
    async fn insert_statement(&mut self, statement: &Statement) -> StoreResult<()>;

    /// Records a notification event in the outbox (delivered after the commit).
    async fn record_notification(&mut self, event: EventKind, now: Instant) -> StoreResult<()>;

    /// Records a change of the report's public status for MQTT (`report_status_events`).
    async fn record_status_event(
        &mut self,
        report_id: Uuid,
        before: Option<IssueStatus>,
        after: Option<IssueStatus>,
        now: Instant,
    ) -> StoreResult<()>;
}

/// How the stores use the database, beyond its URL.
#[derive(Debug, Clone, Copy, Default)]
pub struct StoreOptions {
    /// `votes.synchronous_commit` (PostgreSQL): a vote's transaction waits for its commit to
    /// reach the disk before answering. Off by default: the account's lock is then released
    /// without waiting for the disk (see docs/decisions.md, "Vote commits").
    pub synchronous_vote_commit: bool,
}

/// The folded text `q` is matched against: title, description and the report id.
pub(crate) fn search_text(id: Uuid, title: &str, description: &str) -> String {
    domain::text::fold(&format!("{title} {description} {id}"))
}

/// The status a stored status name stands for.
pub(crate) fn status(name: &str) -> anyhow::Result<IssueStatus> {
    Ok(name.parse()?)
}
