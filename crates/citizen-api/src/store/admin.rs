//! The officers' side (issue 9): the admin report list, the issues of a report as officers see
//! them, duplicate suggestions, media deletion, the audit trail and the management of report
//! categories. The status steps themselves are [`super::IssueStore`]'s.

use async_trait::async_trait;
use domain::geo::LonLat;
use domain::reports::OrderBy;
use uuid::Uuid;

use super::StoreResult;
use super::{
    Category, Instant, Issue, ListPage, NewCategory, Report, ReportFilter, Statement, StoreError,
};

/// Which issues an officer may see and work.
#[derive(Debug, Clone, PartialEq)]
pub enum Access {
    /// Scope `cityuser:report-categories:access-all`: every category.
    All,
    /// The categories the officer is assigned to.
    Categories(Vec<Uuid>),
}

impl Access {
    pub fn allows(&self, category_id: Uuid) -> bool {
        match self {
            Self::All => true,
            Self::Categories(ids) => ids.contains(&category_id),
        }
    }

    /// `None` for all categories.
    pub fn categories(&self) -> Option<&[Uuid]> {
        match self {
            Self::All => None,
            Self::Categories(ids) => Some(ids),
        }
    }
}

/// `GET /admin/reports`: the list filter, the officer's access and the instant of the request.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminFilter {
    /// category, status, q, dates, location, order and page as in the public list.
    pub list: ReportFilter,
    /// `overdue`: true only reports with an overdue accessible issue, false only reports with
    /// an accessible issue that is not overdue.
    pub overdue: Option<bool>,
    pub access: Access,
    /// Counts votes and deadlines at this instant.
    pub now: Instant,
}

impl AdminFilter {
    /// Whether the issue match (access, category, status, overdue) can leave a report out.
    ///
    /// Every report has at least one issue that is not moved: filing opens one, a move opens
    /// one in the target category, issues are never deleted and a category that holds issues
    /// cannot be deleted. So for an officer who sees every category and filters on no issue
    /// property the match holds for every report, and the list leaves it out (a probe of the
    /// report's issues per row saved).
    pub fn matches_issues(&self) -> bool {
        self.access.categories().is_some()
            || !self.list.categories.is_empty()
            || !self.list.statuses.is_empty()
            || self.overdue.is_some()
    }

    /// The one category the list is confined to, when it is exactly one (a `category` filter of
    /// one id the officer may see, or an officer of one category) and the order is by date:
    /// both backends then walk that category's issues in their reports' order instead of every
    /// report (`admin/one_category.rs`).
    pub fn confined_to_one_category(&self) -> Option<Uuid> {
        if self.list.order.by != OrderBy::Date {
            return None;
        }
        match (self.list.categories.as_slice(), self.access.categories()) {
            ([only], _) if self.access.allows(*only) => Some(*only),
            ([], Some([only])) => Some(*only),
            _ => None,
        }
    }
}

/// How many reports the admin list would list under a filter with each `status` (a report with
/// an accessible issue in that state matching the rest of the filter), and without one
/// (`GET /admin/reports/status-counts`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub open: u64,
    pub accepted: u64,
    pub resolved: u64,
    pub duplicate: u64,
    pub total: u64,
}

/// An issue with its category's name.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminIssue {
    pub issue: Issue,
    pub category_name: String,
    /// The category's statement deadline in days.
    pub statement_deadline_days: Option<u32>,
}

/// A row of the admin list: a report with the issues the officer may see (none moved).
#[derive(Debug, Clone, PartialEq)]
pub struct AdminReport {
    pub report: Report,
    pub issues: Vec<AdminIssue>,
}

/// Which issue was just opened, for duplicate suggestions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Opened {
    /// Every open issue of a report just filed.
    Report(Uuid),
    /// An issue opened by a move.
    Issue(Uuid),
}

/// An open, located issue as duplicate suggestions compare it: the opened one, or a candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateSubject {
    pub issue_id: Uuid,
    pub category_id: Uuid,
    pub report_id: Uuid,
    /// When its report was filed.
    pub filed_at: Instant,
    pub at: LonLat,
    pub title: String,
    pub description: String,
}

/// What candidates are looked for: at most `limit` issues near `subject` (within `radius_m`),
/// of reports filed within `filed`.
#[derive(Debug, Clone, Copy)]
pub struct CandidateSearch<'a> {
    pub subject: &'a DuplicateSubject,
    pub filed: (Instant, Instant),
    pub radius_m: f64,
    pub limit: u32,
}

/// A suggestion to record: `candidate_id` may duplicate the issue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewSuggestion {
    pub candidate_id: Uuid,
    pub distance_m: f64,
    pub similarity: f64,
}

/// A possible duplicate of an issue.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// The other issue and its report.
    pub candidate: AdminIssue,
    pub report_title: String,
    pub distance_m: f64,
    pub similarity: f64,
    pub inserted_at: Instant,
}

/// Where a media file is attached, and so which categories' officers may delete it.
#[derive(Debug, Clone, PartialEq)]
pub struct MediaPlace {
    /// The statement the file belongs to (`None`: the report's own attachment).
    pub statement_id: Option<Uuid>,
    /// The categories of the issues that give access: the statement's issue, or every issue of
    /// the report that is not moved.
    pub categories: Vec<Uuid>,
}

/// One entry of the audit trail of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub at: Instant,
    /// The officer (or the citizen who filed; `None` for an anonymous filing).
    pub actor: Option<String>,
    /// `status:<state>` for a status change, `statement`, or an admin event (`media_deleted`,
    /// `duplicates_dismissed`, `duplicates_suggested`).
    pub action: String,
    pub issue_id: Option<Uuid>,
    /// What changed (JSON object).
    pub detail: serde_json::Value,
}

/// A change of an officer that is no status change and no statement.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminEvent {
    pub report_id: Option<Uuid>,
    pub issue_id: Option<Uuid>,
    pub action: &'static str,
    pub actor: String,
    pub detail: serde_json::Value,
    pub at: Instant,
}

/// A change of a category; `None` fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CategoryChange {
    pub name: Option<String>,
    /// `Some(true)` makes this the default (the former default stops being one).
    pub is_default: Option<bool>,
    pub statement_deadline_days: Option<Option<u32>>,
}

/// Why a category change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CategoryError {
    #[error("no such category")]
    NotFound,
    #[error("the category has issues")]
    InUse,
    #[error("there must be a default category")]
    DefaultRequired,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for CategoryError {
    fn from(err: sqlx::Error) -> Self {
        Self::Store(err.into())
    }
}

/// Duplicate suggestions: the issues a filing or a move opened, their candidates nearby,
/// recording, reading and dismissing suggestions (`app::duplicates` decides with the domain
/// rule).
#[async_trait]
pub trait DuplicateStore: Send + Sync + 'static {
    /// The open, located issues `opened` names (duplicate suggestions compare these).
    async fn duplicate_subjects(&self, opened: Opened) -> StoreResult<Vec<DuplicateSubject>>;

    /// At most `limit` open or accepted issues of other reports in the subject's category, filed
    /// within `filed` and lying within `radius_m` of it, that are not yet suggested for it
    /// (PostgreSQL: nearest first, through the issues' GiST index; SQLite: those in the box
    /// around the circle, in no order).
    async fn duplicate_candidates(
        &self,
        search: CandidateSearch<'_>,
    ) -> StoreResult<Vec<DuplicateSubject>>;

    /// Records the suggestions of `issue_id` and sets its `has_possible_duplicates`, in one
    /// transaction; a suggestion already recorded is kept as it was.
    async fn record_suggestions(
        &self,
        issue_id: Uuid,
        suggestions: &[NewSuggestion],
        now: Instant,
    ) -> StoreResult<()>;

    /// The suggestions of an issue that are not dismissed, most similar first.
    async fn suggestions(&self, issue_id: Uuid) -> StoreResult<Vec<Suggestion>>;

    /// Dismisses the issue's suggestions and clears its flag (recorded in the audit trail).
    async fn dismiss_duplicates(
        &self,
        issue_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> StoreResult<Option<Issue>>;
}

#[async_trait]
pub trait AdminStore: Send + Sync + 'static {
    /// The admin list: one row per report having an accessible, not moved issue that matches
    /// the filter; each row with all its accessible, not moved issues.
    async fn admin_reports(&self, filter: &AdminFilter) -> StoreResult<ListPage<AdminReport>>;

    /// How many reports [`AdminStore::admin_reports`] lists under `filter` with each status
    /// filter and without one, whatever `filter`'s own statuses, order and page.
    async fn status_counts(&self, filter: &AdminFilter) -> StoreResult<StatusCounts>;

    /// The not moved issues of a report within `access`, oldest first; `None` when there is no
    /// such report.
    async fn report_issues(
        &self,
        report_id: Uuid,
        access: &Access,
    ) -> StoreResult<Option<Vec<AdminIssue>>>;

    /// One issue (any state).
    async fn issue(&self, issue_id: Uuid) -> StoreResult<Option<AdminIssue>>;

    /// The statements of `issue_ids`, newest first, with their media.
    async fn statements(&self, issue_ids: &[Uuid]) -> StoreResult<Vec<Statement>>;

    /// Where the file `media_id` of the report (or of a statement on one of its issues) is.
    async fn media_place(&self, report_id: Uuid, media_id: Uuid)
        -> StoreResult<Option<MediaPlace>>;

    /// Deletes the media row (the caller deletes the file) and records it.
    async fn delete_media(
        &self,
        report_id: Uuid,
        media_id: Uuid,
        actor: &str,
        now: Instant,
    ) -> StoreResult<bool>;

    /// Every recorded change of a report, oldest first; `None` when there is no such report.
    async fn audit(&self, report_id: Uuid) -> StoreResult<Option<Vec<AuditEntry>>>;

    /// Sets the report's `explicit` flag and records who did, in one transaction; `false`
    /// when there is no such report.
    async fn set_explicit(
        &self,
        report_id: Uuid,
        explicit: bool,
        actor: &str,
        now: Instant,
    ) -> StoreResult<bool>;

    /// One category.
    async fn category(&self, id: Uuid) -> StoreResult<Option<Category>>;

    /// Starts a change of categories (`app::categories` runs it).
    async fn begin_category_change(&self) -> StoreResult<Box<dyn CategoryTx>>;

    /// The officers (token subjects) of a category, sorted.
    async fn category_officers(&self, id: Uuid) -> StoreResult<Vec<String>>;
}

/// The audit trail's order: by time; at the same instant a status change before a statement
/// before another event (the sort is stable).
pub(crate) fn sort_audit(entries: &mut [AuditEntry]) {
    entries.sort_by_key(|e| e.at);
}

/// A change of report categories in one transaction (`app::categories`): the rows it reads are
/// locked until it commits (PostgreSQL: `FOR UPDATE`; SQLite: the write lock of `BEGIN
/// IMMEDIATE`, taken when it starts).
#[async_trait]
pub trait CategoryTx: super::WriteTx {
    /// Locks the default category's row.
    async fn lock_default(&mut self) -> StoreResult<()>;

    /// The category, locked; `None` when there is none.
    async fn lock_category(&mut self, id: Uuid) -> StoreResult<Option<Category>>;

    /// Makes no category the default.
    async fn clear_default(&mut self) -> StoreResult<()>;

    /// Writes the change with the deadline it leaves (`deadline`), and reads the category back.
    async fn write_category(
        &mut self,
        id: Uuid,
        change: &CategoryChange,
        deadline: Option<u32>,
    ) -> StoreResult<Category>;

    /// Whether an issue was ever placed in the category.
    async fn category_used(&mut self, id: Uuid) -> StoreResult<bool>;

    /// Deletes the category and its officer assignments.
    async fn delete_category(&mut self, id: Uuid) -> StoreResult<()>;

    /// Inserts a category (a taken name is a `Conflict`).
    async fn insert_category(
        &mut self,
        id: Uuid,
        new: &NewCategory,
        now: Instant,
    ) -> StoreResult<Category>;

    /// Assigns an officer to the category; `false` when they were assigned already.
    async fn assign_officer(&mut self, subject: &str, id: Uuid) -> StoreResult<bool>;

    /// Takes an officer off the category; `false` when they were not assigned.
    async fn remove_officer(&mut self, subject: &str, id: Uuid) -> StoreResult<bool>;

    /// Records the change in the audit trail.
    async fn record_event(&mut self, event: &AdminEvent) -> StoreResult<()>;
}
