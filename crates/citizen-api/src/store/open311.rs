//! What the Open311 facade reads (docs/open311.md): the city's reports as requests, filtered
//! and paged as GeoReport v2 asks, and the recorded changes and statements mySociety's
//! `servicerequestupdates` replays.

use async_trait::async_trait;
use domain::issues::IssueStatus;
use domain::open311::RequestStatus;
use uuid::Uuid;

use super::{Instant, ListPage, ReportWithIssues, Statement, StoreResult};

/// The filters of `GET requests` (validated by the handler). With `ids`, every other filter is
/// left out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestQuery {
    pub ids: Vec<Uuid>,
    /// The request's service: its report's first issue that is not moved.
    pub categories: Vec<Uuid>,
    /// `open` or `closed`; empty: both.
    pub statuses: Vec<RequestStatus>,
    /// Filed from, both ends included.
    pub filed_from: Option<Instant>,
    pub filed_to: Option<Instant>,
    /// The last public change (a status change of an issue, or a statement) after, and at or
    /// before.
    pub updated_after: Option<Instant>,
    pub updated_before: Option<Instant>,
    pub offset: u64,
    pub limit: u32,
}

/// A report as a request: with its issues (oldest first) and files, the photo link an
/// integrator sent, its newest statement and its last public change.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub report: ReportWithIssues,
    pub media_link: Option<String>,
    pub newest_statement: Option<Statement>,
    pub updated_at: Instant,
    /// When the last of its issues that are not moved was resolved or made a duplicate (a
    /// closed request's close).
    pub closed_at: Option<Instant>,
}

/// A recorded change of one of a report's issues (the issue's opening included).
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedChange {
    pub id: Uuid,
    pub issue_id: Uuid,
    pub report_id: Uuid,
    pub status: IssueStatus,
    pub at: Instant,
}

/// What happened to the reports touched in a window: every change of each of them (their whole
/// history, oldest first, so the status before the window is known), and the statements made
/// in the window with the report each is about.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct History {
    pub changes: Vec<RecordedChange>,
    pub statements: Vec<(Uuid, Statement)>,
}

#[async_trait]
pub trait RequestStore: Send + Sync + 'static {
    /// The requests `query` selects, newest filed first; reports with only moved issues are
    /// none.
    async fn requests(&self, query: &RequestQuery) -> StoreResult<ListPage<Request>>;

    /// The history of the reports with a change or a statement from `from` to `to` (both
    /// included).
    async fn history(&self, from: Instant, to: Instant) -> StoreResult<History>;
}
