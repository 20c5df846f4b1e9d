//! What the store reads and writes, in domain terms.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::geo::{LocationParam, LonLat};
use domain::issues::{IssueStatus, StatusChange};
use domain::limits::Page;
use domain::reports::{Direction, Order, OrderBy};
use domain::text::Search;
use service_kit::codec::{DbInstant, DbUuid};
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

/// A stored file (an attachment of a report or of a statement): a row of `media` (`id,
/// filename, media_type, size_bytes`), or an element of the JSON arrays the stores build of a
/// report's media.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, sqlx::FromRow)]
pub struct Media {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    /// The client's file name (sanitised).
    pub filename: String,
    /// The sniffed MIME type.
    pub media_type: String,
    #[sqlx(try_from = "i64")]
    pub size_bytes: u64,
}

/// A report to file; the files are already in the media store.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewReport {
    pub id: Uuid,
    /// The citizen's token subject; `None` for an anonymous filing.
    pub author: Option<String>,
    pub title: String,
    pub description: String,
    pub location: Option<LocationParam>,
    /// The place in words, as the citizen gave it.
    pub address: Option<String>,
    pub media: Vec<Media>,
    /// A photo's link an Open311 integrator sent (`media_url`), kept as text, never fetched.
    pub media_link: Option<String>,
}

/// A stored report.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub id: Uuid,
    pub author: Option<String>,
    pub title: String,
    pub description: String,
    pub location: Option<LocationParam>,
    /// The place in words (the detail's; a list row does not read it).
    pub address: Option<String>,
    /// An officer marked the media unsuitable for the public (public views hide them).
    pub explicit: bool,
    pub inserted_at: Instant,
    /// When an officer first acted on the report.
    pub processed_at: Option<Instant>,
    pub media: Vec<Media>,
    /// Active vote tokens on the report.
    pub votes_count: i64,
}

impl Report {
    /// The report `new` is once filed at `now` (what `app::filing::file_report` answers).
    pub fn filed(new: &NewReport, now: Instant) -> Self {
        Self {
            id: new.id,
            author: new.author.clone(),
            title: new.title.clone(),
            description: new.description.clone(),
            location: new.location,
            address: new.address.clone(),
            explicit: false,
            inserted_at: now,
            processed_at: None,
            media: new.media.clone(),
            votes_count: 0,
        }
    }
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

/// An issue to open: of the report `report_id` in `category_id`, in state open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewIssue {
    pub id: Uuid,
    pub report_id: Uuid,
    pub category_id: Uuid,
}

impl NewIssue {
    /// A new issue (a new id) of the report in the category.
    pub fn of(report_id: Uuid, category_id: Uuid) -> Self {
        Self {
            id: Uuid::now_v7(),
            report_id,
            category_id,
        }
    }
}

/// A change of an issue's state as the store records it.
pub type IssueChange = StatusChange<Uuid, Instant>;

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

/// A row of the public list: one issue with its report (whose `votes_count` is counted at the
/// request's instant).
#[derive(Debug, Clone, PartialEq)]
pub struct IssueRow {
    pub report: Report,
    pub issue_id: Uuid,
    pub category_id: Uuid,
    pub status: IssueStatus,
}

/// The filters and order of a report list (validated by the handler).
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFilter {
    pub categories: Vec<Uuid>,
    pub statuses: Vec<IssueStatus>,
    /// The search text (`q`), folded; [`Search::Nothing`] matches no report.
    pub q: Option<Search>,
    /// With a radius, only reports within it; without, every report (nearest first when
    /// ordered by location).
    pub near: Option<LocationParam>,
    pub date_from: Option<Instant>,
    pub date_to: Option<Instant>,
    /// `hasPhoto`: with at least one photo (`true`) or without any (`false`).
    pub has_photo: Option<bool>,
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
            has_photo: None,
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

/// An officer's statement on an issue, read from `statements s` (`sql::reading::STATEMENT_COLUMNS`).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Statement {
    #[sqlx(try_from = "DbUuid")]
    pub id: Uuid,
    #[sqlx(try_from = "DbUuid")]
    pub issue_id: Uuid,
    pub text: String,
    #[sqlx(rename = "final")]
    pub final_: bool,
    /// The officer (never shown in public views).
    pub author: String,
    #[sqlx(try_from = "DbInstant")]
    pub inserted_at: Instant,
    /// Read separately (`media`).
    #[sqlx(skip)]
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

/// A filing's answer as stored under its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAnswer {
    /// SHA-256 (hex) of the form's content.
    pub request_hash: String,
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

/// What happened, as the outbox holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// An issue of the report reached `status` (accepted, resolved, duplicate).
    ReportStatus { report_id: Uuid, status: String },
    /// A statement was published on the report.
    Statement { report_id: Uuid },
    /// A news item was published (its categories' subscribers are told).
    News { news_id: Uuid },
}

/// An outbox row's columns: kind, report id, news id, status.
pub(crate) type EventColumns<'a> = (&'static str, Option<Uuid>, Option<Uuid>, Option<&'a str>);

impl EventKind {
    pub(crate) fn columns(&self) -> EventColumns<'_> {
        match self {
            Self::ReportStatus { report_id, status } => (
                "report_status",
                Some(*report_id),
                None,
                Some(status.as_str()),
            ),
            Self::Statement { report_id } => ("statement", Some(*report_id), None, None),
            Self::News { news_id } => ("news", None, Some(*news_id), None),
        }
    }

    pub(crate) fn from_columns(
        kind: &str,
        report_id: Option<Uuid>,
        news_id: Option<Uuid>,
        status: Option<String>,
    ) -> Option<Self> {
        match (kind, report_id, news_id, status) {
            ("report_status", Some(report_id), _, Some(status)) => {
                Some(Self::ReportStatus { report_id, status })
            }
            ("statement", Some(report_id), _, _) => Some(Self::Statement { report_id }),
            ("news", _, Some(news_id), _) => Some(Self::News { news_id }),
            _ => None,
        }
    }
}
