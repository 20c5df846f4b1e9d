//! What the store reads and writes, in domain terms.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::geo::{LocationParam, LonLat};
use domain::issues::{IssueStatus, StatusChange};
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use uuid::Uuid;

/// An instant as the service handles it (microsecond precision, what both databases keep).
pub type Instant = DateTime<Utc>;

/// A report category (spec 2.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    pub id: Uuid,
    pub name: String,
    pub is_default: bool,
    /// Days an officer has for a first statement on a new issue; `None`: no deadline.
    pub statement_deadline_days: Option<u32>,
}

/// A category to create.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCategory {
    pub name: String,
    pub is_default: bool,
    pub statement_deadline_days: Option<u32>,
}

/// A stored file (an attachment of a report or of a statement). Deserialized from the JSON
/// arrays the stores build of a report's media (`{id, filename, media_type, size_bytes}`).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Media {
    pub id: Uuid,
    /// The client's file name (sanitised).
    pub filename: String,
    /// The sniffed MIME type.
    pub media_type: String,
    pub size_bytes: u64,
}

/// A report to file; the files are already in the media store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewReport {
    pub id: Uuid,
    /// The citizen's token subject; `None` for an anonymous filing.
    pub author: Option<String>,
    pub title: String,
    pub description: String,
    pub location: Option<LocationParam>,
    pub media: Vec<Media>,
}

/// A stored report.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub id: Uuid,
    pub author: Option<String>,
    pub title: String,
    pub description: String,
    pub location: Option<LocationParam>,
    /// An officer marked the media unsuitable for the public (public views hide them).
    pub explicit: bool,
    pub inserted_at: Instant,
    /// When an officer first acted on the report.
    pub processed_at: Option<Instant>,
    pub media: Vec<Media>,
    /// Active vote tokens on the report.
    pub votes_count: i64,
}

/// The state of one issue of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub id: Uuid,
    pub report_id: Uuid,
    pub category_id: Uuid,
    pub status: IssueStatus,
    pub parent_id: Option<Uuid>,
    pub has_possible_duplicates: bool,
    /// When the report was placed in this category.
    pub inserted_at: Instant,
}

/// A report with all its issues.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportWithIssues {
    pub report: Report,
    pub issues: Vec<Issue>,
}

impl ReportWithIssues {
    /// The report status derived from all its issues (rules 2 and 3).
    pub fn status(&self) -> Option<IssueStatus> {
        domain::issues::report_status(self.issues.iter().map(|i| i.status))
    }
}

/// A row of the public list: one issue with its report (`votes_count` left at 0: the page's
/// [`IssueRowKey`] carries it).
#[derive(Debug, Clone, PartialEq)]
pub struct IssueRow {
    pub report: Report,
    pub issue_id: Uuid,
    pub category_id: Uuid,
    pub status: IssueStatus,
    /// The issue row's `row_version` (migration 0021) this content is of.
    pub version: i64,
}

/// What the public detail of a report shows besides its content, and the version of that
/// content.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailKey {
    /// The sum of `row_version + 1` over the report's issue rows: every insert or update of one
    /// (the copies of the report's changed columns and media included, migration 0014) moves it
    /// up, so one number names one content of the detail.
    pub version: i64,
    /// Read only when asked for (`ReportStore::report_detail_key`).
    pub author: Option<String>,
    /// The report's active vote tokens at the request's instant.
    pub votes_count: i64,
}

/// A report's public detail as read, with its [`DetailKey`] read in the same statement.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportDetail {
    pub key: DetailKey,
    pub found: ReportWithIssues,
}

/// What a public list page's statement reads of each row besides its [`IssueRowKey`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListRead {
    /// The keys alone: the caller writes most rows from its row cache and reads the others by
    /// [`ReportStore::public_rows`].
    Keys,
    /// Each row's content too, in the same statement: for pages whose rows are rarely kept
    /// (nearest first from a point anywhere), where a second statement would cost more than
    /// the cache saves.
    Rows,
}

/// A row of a public list page: its key, and its content when read with [`ListRead::Rows`].
#[derive(Debug, Clone, PartialEq)]
pub struct ListRow {
    pub key: IssueRowKey,
    pub content: Option<IssueRow>,
}

/// A row of a public list page as the page's statement finds it: which issue, the version of
/// its row, and what is counted or measured at each request. The row's content is written from
/// the replica's row cache when it holds this version, else read ([`ListRead`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IssueRowKey {
    pub issue_id: Uuid,
    /// The issue row's `row_version`: it moves with every change of the row (a trigger).
    pub version: i64,
    /// The report's active vote tokens at the request's instant.
    pub votes_count: i64,
    /// The report's point, for the row's `distance`.
    pub point: Option<LonLat>,
}

/// The filters and order of a report list (validated by the handler).
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFilter {
    pub categories: Vec<Uuid>,
    pub statuses: Vec<IssueStatus>,
    /// Folded (see `domain::text::fold`) search text.
    pub q: Option<String>,
    /// With a radius, only reports within it; without, every report (nearest first when
    /// ordered by location).
    pub near: Option<LocationParam>,
    pub date_from: Option<Instant>,
    pub date_to: Option<Instant>,
    pub order: Order,
    pub page: Page,
}

impl ReportFilter {
    /// Every listed report, newest first, one `page` of them.
    pub fn newest(page: Page) -> Self {
        Self {
            categories: Vec::new(),
            statuses: Vec::new(),
            q: None,
            near: None,
            date_from: None,
            date_to: None,
            order: Order {
                by: OrderBy::Date,
                direction: Direction::Desc,
            },
            page,
        }
    }
}

/// One page of a list: at most `limit` rows, and whether more follow.
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage<T> {
    pub rows: Vec<T>,
    pub has_next: bool,
}

impl<T> ListPage<T> {
    /// Cuts `rows` (fetched with `limit + 1`) to `limit`.
    pub fn from_overfetch(mut rows: Vec<T>, limit: u32) -> Self {
        let limit = limit as usize;
        let has_next = rows.len() > limit;
        rows.truncate(limit);
        Self { rows, has_next }
    }
}

/// An officer's statement on an issue.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub id: Uuid,
    pub issue_id: Uuid,
    pub text: String,
    pub final_: bool,
    /// The officer (never shown in public views).
    pub author: String,
    pub inserted_at: Instant,
    pub media: Vec<Media>,
}

/// Everything the public timeline of a report is built from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TimelineData {
    /// Every recorded change of every issue of the report.
    pub changes: Vec<StatusChange<Uuid, Instant>>,
    /// Category name of each issue in `changes`.
    pub category_names: HashMap<Uuid, String>,
    /// The statements of the report's issues and of the parents of its duplicates.
    pub statements: Vec<Statement>,
}

/// The location of a stored report as the store reads it back.
pub(crate) fn location(
    longitude: Option<f64>,
    latitude: Option<f64>,
    radius_m: Option<f64>,
) -> Option<LocationParam> {
    match (longitude, latitude) {
        (Some(lon), Some(lat)) => Some(LocationParam {
            point: LonLat { lon, lat },
            radius_m,
        }),
        _ => None,
    }
}

/// An issue as the public list selects and orders it, as the issue feed reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct IssueState {
    pub issue_id: Uuid,
    pub report_id: Uuid,
    pub category_id: Uuid,
    pub status: IssueStatus,
    /// When its report was filed (the list's date order).
    pub filed_at: Instant,
    /// Its report's point.
    pub point: Option<LonLat>,
    /// The row's `row_version` (the row cache's key).
    pub version: i64,
    /// The folded text `q` is matched against (title, description and report id).
    pub search: String,
    /// When the report was placed in the issue's category (the issue's `inserted_at`: the
    /// admin list's order of a report's issues and its `overdue`).
    pub placed_at: Instant,
    pub has_possible_duplicates: bool,
    pub parent_id: Option<Uuid>,
}

/// One read of the issue feed: every issue changed since the position asked for (some perhaps
/// seen before), the position to ask from next and the categories' generation.
#[derive(Debug, Clone, PartialEq)]
pub struct IssueChanges {
    pub next: i64,
    /// The categories' generation in the read's snapshot (see [`FeedMark`]).
    pub categories: i64,
    pub issues: Vec<IssueState>,
}

/// Where a read of the issue feed ended: the position to read from next, and the generation of
/// the report categories and officer assignments in the same snapshot (migration 0025; it moves
/// with every change of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedMark {
    pub next: i64,
    pub categories: i64,
}

/// A vote token as the vote feed reads it (migration 0026): which report or project it counts
/// for, until when, and whether it was revoked (tokens are never deleted).
#[derive(Debug, Clone, PartialEq)]
pub struct VoteState {
    pub token_id: Uuid,
    pub target_id: Uuid,
    pub expires_at: Option<Instant>,
    pub revoked: bool,
}

/// One read of the vote feed: every token placed or revoked since the position asked for (some
/// perhaps seen before) and the position to ask from next.
#[derive(Debug, Clone, PartialEq)]
pub struct VoteChanges {
    pub next: i64,
    pub tokens: Vec<VoteState>,
}

/// Where a reader of both feeds stands: the position of each, as the last read answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedPositions {
    pub issues: i64,
    pub votes: i64,
}

/// One read of both feeds (`ReportStore::feed_changes`).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedChanges {
    pub issues: IssueChanges,
    pub votes: VoteChanges,
}
