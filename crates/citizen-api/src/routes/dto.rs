//! The JSON shapes of the report endpoints (spec 2.1–2.3) and their conversion from the store's.

use chrono::{DateTime, Utc};
use domain::geo::{distance_cm, LocationParam};
use domain::issues::IssueStatus;
use serde::Serialize;
use service_kit::instant;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::media::{filename, MediaStore};
use crate::store;

/// The state of an issue (spec section 3); also the derived status of a report.
#[derive(ToSchema)]
#[schema(as = IssueStatus)]
#[allow(dead_code)] // the wire enum is domain::issues::IssueStatus; this describes it
pub enum IssueStatusSchema {
    #[schema(rename = "open")]
    Open,
    #[schema(rename = "moved")]
    Moved,
    #[schema(rename = "accepted")]
    Accepted,
    #[schema(rename = "duplicate")]
    Duplicate,
    #[schema(rename = "resolved")]
    Resolved,
}

/// An attached file.
#[derive(Debug, Serialize, ToSchema)]
pub struct Media {
    /// Addresses the file (an officer deletes it by this id).
    pub media_id: Uuid,
    /// The name the file was uploaded with, without control and format characters, with the
    /// extension of `media_type` (`shot.html` of a JPEG: `shot.jpg`).
    pub filename: String,
    /// Where the file can be downloaded.
    pub public_url: String,
    /// The type found by reading the file's first bytes (not the client's claim).
    #[schema(example = "image/jpeg")]
    pub media_type: String,
}

/// A GeoJSON Point in WGS84.
#[derive(Debug, Serialize, ToSchema)]
pub struct Point {
    /// Always `Point`.
    #[serde(rename = "type")]
    #[schema(example = "Point")]
    pub kind: &'static str,
    /// Longitude, latitude.
    #[schema(example = json!([14.4213, 50.0875]))]
    pub coordinates: [f64; 2],
}

/// A report shown whole (spec 2.1): the detail and the answer to filing; every list's row is
/// built on it ([`ReportRow`], [`OwnReport`], the officers' `AdminReport`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Report {
    pub id: Uuid,
    pub title: String,
    /// When the report was filed.
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
    /// When an officer first acted on the report (a status change or a statement); null until then.
    #[serde(serialize_with = "instant::option::serialize")]
    pub processed_at: Option<DateTime<Utc>>,
    pub description: String,
    /// The attachments; empty in public views while `explicit` is true (the author and the
    /// officers see them).
    pub media: Vec<Media>,
    /// True when an officer marked the report's media unsuitable for the public.
    pub explicit: bool,
    /// Where the problem is, when the citizen gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Point>,
    /// The place in words, when the citizen gave it (not in the public list's rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Derived from the report's issues (the least advanced wins; moved issues do not count;
    /// the officers': of the issues shown); absent when only moved issues remain. A public
    /// list row: its issue's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<IssueStatusSchema>)]
    pub status: Option<IssueStatus>,
    /// Vote tokens on the report that still count (not revoked, not expired).
    pub votes_count: i64,
    /// Metres from the `location` parameter (only when it is given, and the report has a location).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

/// A row of the public list (spec 2.1): one issue of a report, which the public sees.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportRow {
    #[serde(flatten)]
    pub report: Report,
    /// The row's issue.
    pub issue_id: Uuid,
    /// The category of the row's issue.
    pub category_id: Uuid,
}

/// A row of the caller's own list.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnReport {
    #[serde(flatten)]
    pub report: Report,
    /// True once the city took the report on (derived status accepted, duplicate or
    /// resolved). Kept for older clients.
    pub accepted: bool,
}

/// A page of the public list.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportList {
    pub reports: Vec<ReportRow>,
    /// True when another page follows (at `offset + limit`).
    pub has_next_offset: bool,
    pub offset: u32,
    pub limit: u32,
}

/// A page of the caller's own reports.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnReportList {
    pub reports: Vec<OwnReport>,
    /// True when another page follows (at `offset + limit`).
    pub has_next_offset: bool,
    pub offset: u32,
    pub limit: u32,
}

/// The views a report is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Anyone: media hidden while `explicit`.
    Public,
    /// The report's author, and officers.
    Trusted,
}

impl Report {
    /// The base shape (2.1) of a stored report.
    pub fn from_store(
        report: store::Report,
        media: &MediaStore,
        view: View,
        near: Option<&LocationParam>,
    ) -> Self {
        let distance = match (near, &report.location) {
            (Some(near), Some(at)) => Some(distance_cm(near.point, at.point)),
            _ => None,
        };
        let show_media = view == View::Trusted || !report.explicit;
        Self {
            id: report.id,
            title: report.title,
            inserted_at: report.inserted_at,
            processed_at: report.processed_at,
            description: report.description,
            media: if show_media {
                report.media.iter().map(|m| media_dto(m, media)).collect()
            } else {
                Vec::new()
            },
            explicit: report.explicit,
            votes_count: report.votes_count,
            address: report.address,
            location: report.location.map(|l| Point {
                kind: "Point",
                coordinates: [l.point.lon, l.point.lat],
            }),
            status: None,
            distance,
        }
    }
}

impl ReportRow {
    /// A row of the public list (2.1): the report as the public sees it, with its issue's id,
    /// category and state.
    pub fn new(row: store::IssueRow, media: &MediaStore, near: Option<&LocationParam>) -> Self {
        let mut report = Report::from_store(row.report, media, View::Public, near);
        report.status = Some(row.status);
        Self {
            report,
            issue_id: row.issue_id,
            category_id: row.category_id,
        }
    }
}

fn media_dto(m: &store::Media, settings: &MediaStore) -> Media {
    Media {
        media_id: m.id,
        filename: filename::shown(&m.filename, &m.media_type),
        public_url: settings.public_url(m.id),
        media_type: m.media_type.clone(),
    }
}

/// A file of a statement (spec 2.2).
#[derive(Debug, Serialize, ToSchema)]
pub struct StatementMedia {
    pub media_id: Uuid,
    pub public_url: String,
    pub original_filename: String,
    pub media_type: String,
}

/// An officer's statement, public view (no author).
#[derive(Debug, Serialize, ToSchema)]
pub struct Statement {
    pub statement_id: Uuid,
    pub text: String,
    /// The city's final word on the issue.
    #[serde(rename = "final")]
    pub final_: bool,
    pub media: Vec<StatementMedia>,
    #[serde(serialize_with = "instant::serialize")]
    pub inserted_at: DateTime<Utc>,
}

impl Statement {
    pub fn from_store(s: &store::Statement, settings: &MediaStore) -> Self {
        Self {
            statement_id: s.id,
            text: s.text.clone(),
            final_: s.final_,
            media: s
                .media
                .iter()
                .map(|m| StatementMedia {
                    media_id: m.id,
                    public_url: settings.public_url(m.id),
                    original_filename: filename::shown(&m.filename, &m.media_type),
                    media_type: m.media_type.clone(),
                })
                .collect(),
            inserted_at: s.inserted_at,
        }
    }
}

/// A step of the public timeline (spec 2.2).
#[derive(Debug, Serialize, ToSchema)]
pub struct StatusStep {
    pub issue_id: Uuid,
    /// accepted, duplicate or resolved (open and moved are never steps).
    #[schema(value_type = IssueStatusSchema)]
    pub status: IssueStatus,
    /// When the issue changed into this state.
    #[serde(serialize_with = "instant::serialize")]
    pub date: DateTime<Utc>,
    /// The category the issue is handled in.
    #[serde(rename = "categoryName")]
    pub category_name: String,
    /// Newest first. A duplicate's step shows the statements of the issue it duplicates.
    pub statements: Vec<Statement>,
}

/// `GET /reports/{reportId}/status`.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatusSteps {
    /// Oldest first.
    pub statuses: Vec<StatusStep>,
}

/// A report category (spec 2.3).
#[derive(Debug, Serialize, ToSchema)]
pub struct Category {
    pub name: String,
    pub category_id: Uuid,
    /// New reports are placed here; listed last.
    pub is_default: bool,
}

impl From<store::Category> for Category {
    fn from(c: store::Category) -> Self {
        Self {
            name: c.name,
            category_id: c.id,
            is_default: c.is_default,
        }
    }
}

/// `GET /me/reports-categories`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Categories {
    pub categories: Vec<Category>,
}
