//! Storage of report categories, reports, issues, statements and media, behind traits with a
//! PostgreSQL (PostGIS) and a SQLite backend, chosen by the database URL scheme.

pub mod admin;
pub mod deliveries;
pub mod digests;
mod feeds;
mod model;
pub mod news;
pub mod notifications;
mod postgres;
pub mod projects;
mod sqlite;
pub mod status_events;
pub mod votes;

use std::sync::Arc;

use async_trait::async_trait;
use domain::geo::NearestOrder;
use domain::issues::{IssueStatus, Transition, TransitionError};
use service_kit::db::{Database, Migrations};
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

/// Where [`ReportStore::issue_changes_each`] hands the issues it reads: false stops the read.
pub type IssueSink<'a> = dyn FnMut(IssueState) -> bool + Send + 'a;

/// Where [`ReportStore::vote_changes_each`] hands the vote tokens it reads.
pub type VoteSink<'a> = dyn FnMut(VoteState) + Send + 'a;

/// Reports and the reads citizens make.
#[async_trait]
pub trait ReportStore: Send + Sync + 'static {
    /// Files a report with its media and one open issue in the default category, in one
    /// transaction. `None` when there is no default category.
    async fn file_report(&self, new: &NewReport, now: Instant) -> StoreResult<Option<Report>>;

    /// A report with all its issues.
    async fn report(&self, id: Uuid) -> StoreResult<Option<ReportWithIssues>>;

    /// A report with all its issues, its media and its `votes_count` at `now`, and the version
    /// of that content, read in one statement (the public detail, the hottest read).
    async fn report_detail(&self, id: Uuid, now: Instant) -> StoreResult<Option<ReportDetail>>;

    /// The version of a report's public detail and its vote count at `now`, with its author
    /// when `with_author`, in one statement; `None`: no such report. Read before a kept detail
    /// is written; the detail itself is read by `report_detail` when it is not kept.
    async fn report_detail_key(
        &self,
        id: Uuid,
        now: Instant,
        with_author: bool,
    ) -> StoreResult<Option<DetailKey>>;

    /// The public list: one row per issue that is not moved, filtered, ordered and paged; each
    /// row's `votes_count` is the report's active vote tokens at `now`. `read` says whether
    /// the rows' content is read too ([`ListRead`]).
    async fn public_reports(
        &self,
        filter: &ReportFilter,
        now: Instant,
        read: ListRead,
    ) -> StoreResult<ListPage<ListRow>>;

    /// The content of the public list rows of these issues, each with the version of the row it
    /// was read from (in no particular order; an unknown id has no row).
    async fn public_rows(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<IssueRow>>;

    /// The issue feed (migration 0024, docs/citizen-api.md): the state of every issue that
    /// changed since feed position `since` (0: every issue), in one snapshot, and the position
    /// to read from next. Whatever committed before this read is in this answer or in one read
    /// from an earlier position, so a reader that applies every answer in turn holds each
    /// issue as the database held it when its last read ran.
    async fn issue_changes(&self, since: i64) -> StoreResult<IssueChanges> {
        let mut issues = Vec::new();
        let mark = self
            .issue_changes_each(since, &mut |issue| {
                issues.push(issue);
                true
            })
            .await?;
        // The sink never stops the read: a mark always comes.
        let mark = mark.unwrap_or(FeedMark {
            next: since,
            categories: 0,
        });
        Ok(IssueChanges {
            next: mark.next,
            categories: mark.categories,
            issues,
        })
    }

    /// [`Self::issue_changes`] handing each issue to `each` as it arrives (a read from 0 holds
    /// every issue); `each` answers false to stop the read, which then answers `None`, else the
    /// next position and the categories' generation.
    async fn issue_changes_each(
        &self,
        since: i64,
        each: &mut IssueSink<'_>,
    ) -> StoreResult<Option<FeedMark>>;

    /// How `public_reports` orders nearest first (`orderBy=location`), which the list index
    /// repeats in memory (`domain::geo::nearest`).
    fn nearest_order(&self) -> NearestOrder;

    /// The vote feed (migration 0026, docs/citizen-api.md): every vote token placed or revoked
    /// since feed position `since`, in one snapshot, and the position to read from next, with
    /// the same guarantee as [`Self::issue_changes`]. From position 0 (a reader holding
    /// nothing) only the tokens active at `now` come: a revoked or expired one counts for
    /// nothing, and it can never count again.
    async fn vote_changes(&self, since: i64, now: Instant) -> StoreResult<VoteChanges> {
        let mut tokens = Vec::new();
        let next = self
            .vote_changes_each(since, now, &mut |token| tokens.push(token))
            .await?;
        Ok(VoteChanges { next, tokens })
    }

    /// [`Self::vote_changes`] handing each token to `each` as it arrives (a read from 0 holds
    /// every active token); answers the next position.
    async fn vote_changes_each(
        &self,
        since: i64,
        now: Instant,
        each: &mut VoteSink<'_>,
    ) -> StoreResult<i64>;

    /// Both feeds from `since`, each with the guarantee of [`Self::issue_changes`] and
    /// [`Self::vote_changes`] (a position 0 of the vote feed reads as there). A backend reads
    /// them in one statement: the list index reads them before every page it serves, and one
    /// statement is half the hops to the database's worker and back. This default reads them
    /// one after the other.
    async fn feed_changes(&self, since: FeedPositions, now: Instant) -> StoreResult<FeedChanges> {
        let issues = self.issue_changes(since.issues).await?;
        let votes = self.vote_changes(since.votes, now).await?;
        Ok(FeedChanges { issues, votes })
    }

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

/// Every store of the service over one database.
#[derive(Clone)]
pub struct Stores {
    pub categories: Arc<dyn CategoryStore>,
    pub reports: Arc<dyn ReportStore>,
    pub issues: Arc<dyn IssueStore>,
    pub votes: Arc<dyn votes::VoteStore>,
    pub news: Arc<dyn news::NewsStore>,
    pub projects: Arc<dyn projects::ProjectStore>,
    pub admin: Arc<dyn admin::AdminStore>,
    pub notifications: Arc<dyn notifications::NotificationStore>,
    pub status_events: Arc<dyn status_events::StatusEventStore>,
    pub deliveries: Arc<dyn deliveries::DeliveryStore>,
    pub digests: Arc<dyn digests::DigestStore>,
}

/// How the stores use the database, beyond its URL.
#[derive(Debug, Clone, Copy, Default)]
pub struct StoreOptions {
    /// `votes.synchronous_commit` (PostgreSQL): a vote's transaction waits for its commit to
    /// reach the disk before answering. Off by default: the account's lock is then released
    /// without waiting for the disk (see docs/decisions.md, "Vote commits").
    pub synchronous_vote_commit: bool,
}

/// The stores for an opened database, with the default [`StoreOptions`].
pub fn for_database(db: &Database) -> Stores {
    for_database_with(db, StoreOptions::default())
}

/// The stores for an opened database.
pub fn for_database_with(db: &Database, options: StoreOptions) -> Stores {
    match db {
        Database::Postgres(pool) => {
            let store = Arc::new(postgres::PgStore::new(pool.clone(), options));
            Stores {
                categories: store.clone(),
                reports: store.clone(),
                issues: store.clone(),
                votes: store.clone(),
                news: store.clone(),
                admin: store.clone(),
                projects: store.clone(),
                deliveries: store.clone(),
                digests: store.clone(),
                notifications: store.clone(),
                status_events: store,
            }
        }
        Database::Sqlite(pool) => {
            let store = Arc::new(sqlite::SqliteStore::new(pool.clone()));
            Stores {
                categories: store.clone(),
                reports: store.clone(),
                issues: store.clone(),
                votes: store.clone(),
                news: store.clone(),
                admin: store.clone(),
                projects: store.clone(),
                deliveries: store.clone(),
                digests: store.clone(),
                notifications: store.clone(),
                status_events: store,
            }
        }
    }
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
