//! Storage of report categories, reports, issues, statements and media: the vocabulary (types,
//! errors, the traits of each table group) and the two backends that implement it, PostgreSQL
//! (PostGIS) and SQLite. Which backend serves is chosen in [`crate::stores`], by the database
//! URL's scheme; nothing here imports that choice.

pub mod admin;
pub mod deliveries;
pub mod digests;
mod model;
pub mod news;
pub mod notifications;
pub(crate) mod postgres;
pub mod projects;
pub(crate) mod sqlite;
pub mod status_events;
pub mod votes;

use async_trait::async_trait;
use domain::issues::{IssueStatus, Transition, TransitionError};
use service_kit::db::Migrations;
pub use service_kit::store_error::{StoreError, StoreResult};
use sqlx::migrate::Migrator;
use uuid::Uuid;

pub use model::*;

/// PostgreSQL schema owned by this service.
pub const SCHEMA: &str = "citizen_api";

static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/citizen-api/postgres");
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/citizen-api/sqlite");

/// The embedded migrations of both dialects.
pub fn migrations() -> Migrations<'static> {
    Migrations {
        schema: SCHEMA,
        postgres: &POSTGRES_MIGRATIONS,
        sqlite: &SQLITE_MIGRATIONS,
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
    /// Files a report with its media and one open issue in the default category, in one
    /// transaction. `None` when there is no default category.
    async fn file_report(&self, new: &NewReport, now: Instant) -> StoreResult<Option<Report>>;

    /// A report with all its issues.
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>>;

    /// A report with all its issues, its media and its `votes_count` at `now`, read in one
    /// statement (the public detail).
    async fn report_detail(&self, id: Uuid, now: Instant) -> StoreResult<Option<ReportWithIssues>>;

    /// The public list: one row per issue that is not moved, filtered, ordered and paged in
    /// the database (nearest first: the backend's own measure, then the issue id); each row's
    /// `votes_count` is the report's active vote tokens at `now`.
    async fn public_reports(
        &self,
        filter: &ReportFilter,
        now: Instant,
    ) -> StoreResult<ListPage<IssueRow>>;

    /// A citizen's own reports, one row per report with all its issues and its `votes_count` at
    /// `now`. Only `near`, `order` and `page` of the filter apply.
    async fn own_reports(
        &self,
        author: &str,
        filter: &ReportFilter,
        now: Instant,
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

/// The officers' steps on issues (spec section 3). Each runs in one transaction that locks the
/// issue, checks the step with the domain rules, records the change with its actor and time,
/// and sets the report's `processed_at` on the first one.
#[async_trait]
pub trait IssueStore: Send + Sync + 'static {
    /// Accept (open → accepted) or resolve (accepted → resolved).
    async fn change_status(
        &self,
        issue_id: Uuid,
        transition: Transition,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError>;

    /// Moves the issue to another category: it becomes moved and a new open issue of the same
    /// report is opened there (returned).
    async fn move_issue(
        &self,
        issue_id: Uuid,
        category_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError>;

    /// Marks the issue a duplicate of `parent_id` (clears its duplicate-suggestion flag).
    async fn mark_duplicate(
        &self,
        issue_id: Uuid,
        parent_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> Result<Issue, WorkflowError>;

    /// Adds a statement (its media already stored).
    async fn add_statement(
        &self,
        issue_id: Uuid,
        text: &str,
        final_: bool,
        media: &[Media],
        actor: &str,
        now: Instant,
    ) -> Result<Statement, WorkflowError>;
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

/// The next state after `transition` for change_status (accept and resolve only).
pub(crate) fn checked_next(
    current: IssueStatus,
    transition: Transition,
) -> Result<IssueStatus, WorkflowError> {
    Ok(domain::issues::next_status(current, transition)?)
}
