//! Rows as both backends store them, read with `#[derive(sqlx::FromRow)]` (ids as [`DbUuid`],
//! instants as [`DbInstant`]) and turned into the store's types.

use anyhow::Context as _;
use service_kit::codec::{DbInstant, DbUuid};
use sqlx::types::Json;
use sqlx::FromRow;

use super::admin::{AdminIssue, DuplicateSubject};
use super::status_events::StatusEvent;
use super::{location, status, Category, Issue, IssueRow, Media, Report, StoreResult};

/// The columns of a [`CategoryRecord`] from `report_categories c`.
pub(crate) const CATEGORY_COLUMNS: &str = "c.id, c.name, c.is_default, c.statement_deadline_days";

#[derive(sqlx::FromRow)]
pub(crate) struct CategoryRecord {
    id: DbUuid,
    name: String,
    is_default: bool,
    statement_deadline_days: Option<i32>,
}

impl TryFrom<CategoryRecord> for Category {
    type Error = anyhow::Error;

    fn try_from(row: CategoryRecord) -> anyhow::Result<Self> {
        Ok(Category {
            id: row.id.0,
            name: row.name,
            is_default: row.is_default,
            statement_deadline_days: row
                .statement_deadline_days
                .map(u32::try_from)
                .transpose()
                .context("stored deadline is negative")?,
        })
    }
}

/// The columns of a [`StatusEventRecord`].
pub(crate) const STATUS_EVENT_COLUMNS: &str = "id, report_id, previous_status, status, occurred_at";

#[derive(sqlx::FromRow)]
pub(crate) struct StatusEventRecord {
    id: DbUuid,
    report_id: DbUuid,
    previous_status: Option<String>,
    status: Option<String>,
    occurred_at: DbInstant,
}

impl TryFrom<StatusEventRecord> for StatusEvent {
    type Error = anyhow::Error;

    fn try_from(row: StatusEventRecord) -> anyhow::Result<Self> {
        Ok(StatusEvent {
            id: row.id.0,
            report_id: row.report_id.0,
            previous: row.previous_status.as_deref().map(status).transpose()?,
            status: row.status.as_deref().map(status).transpose()?,
            occurred_at: row.occurred_at.0,
        })
    }
}

/// The columns of a [`Notification`](crate::store::notifications::Notification) from `notifications`.
pub(crate) const NOTIFICATION_COLUMNS: &str =
    "tag, title, body, url, icon, sent_at, inserted_at, read_at";

/// The columns of a [`NewsCategory`](crate::store::news::NewsCategory) from `news_categories`.
pub(crate) const NEWS_CATEGORY_COLUMNS: &str = "id, name, description, parent_id";

/// The columns of an [`IssueRecord`] from `issues i`.
pub(crate) const ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at";
/// The same after `RETURNING`, where SQLite takes no table name.
pub(crate) const ISSUE_RETURNING: &str =
    "id, report_id, category_id, status, parent_id, has_possible_duplicates, inserted_at";

#[derive(sqlx::FromRow)]
pub(crate) struct IssueRecord {
    id: DbUuid,
    report_id: DbUuid,
    category_id: DbUuid,
    status: String,
    parent_id: Option<DbUuid>,
    has_possible_duplicates: bool,
    inserted_at: DbInstant,
}

impl TryFrom<IssueRecord> for Issue {
    type Error = anyhow::Error;

    fn try_from(row: IssueRecord) -> anyhow::Result<Self> {
        Ok(Issue {
            id: row.id.0,
            report_id: row.report_id.0,
            category_id: row.category_id.0,
            status: status(&row.status)?,
            parent_id: row.parent_id.map(|p| p.0),
            has_possible_duplicates: row.has_possible_duplicates,
            inserted_at: row.inserted_at.0,
        })
    }
}

/// An issue row read with [`ISSUE_COLUMNS`] (or [`ISSUE_RETURNING`]).
pub(crate) fn issue<'r, R: sqlx::Row>(row: &'r R) -> StoreResult<Issue>
where
    IssueRecord: FromRow<'r, R>,
{
    Ok(Issue::try_from(IssueRecord::from_row(row)?)?)
}

/// The issue columns with the category's name and deadline (`issues i`, `report_categories c`).
pub(crate) const ADMIN_ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at, c.name AS category_name, c.statement_deadline_days";

#[derive(sqlx::FromRow)]
pub(crate) struct AdminIssueRecord {
    #[sqlx(flatten)]
    issue: IssueRecord,
    category_name: String,
    statement_deadline_days: Option<i32>,
}

impl TryFrom<AdminIssueRecord> for AdminIssue {
    type Error = anyhow::Error;

    fn try_from(row: AdminIssueRecord) -> anyhow::Result<Self> {
        Ok(AdminIssue {
            issue: row.issue.try_into()?,
            category_name: row.category_name,
            statement_deadline_days: row
                .statement_deadline_days
                .and_then(|d| u32::try_from(d).ok()),
        })
    }
}

/// An issue read with [`ADMIN_ISSUE_COLUMNS`].
pub(crate) fn admin_issue<'r, R: sqlx::Row>(row: &'r R) -> StoreResult<AdminIssue>
where
    AdminIssueRecord: FromRow<'r, R>,
{
    Ok(AdminIssue::try_from(AdminIssueRecord::from_row(row)?)?)
}

/// The columns of a [`DuplicateSubjectRecord`] (`issues i` joined to `reports r`).
pub(crate) const DUPLICATE_SUBJECT_COLUMNS: &str =
    "i.id, i.category_id, i.report_id, r.inserted_at AS filed_at, r.longitude, r.latitude, \
     r.title, r.description";

/// An open, located issue as duplicate suggestions compare it.
#[derive(sqlx::FromRow)]
pub(crate) struct DuplicateSubjectRecord {
    id: DbUuid,
    category_id: DbUuid,
    report_id: DbUuid,
    filed_at: DbInstant,
    longitude: f64,
    latitude: f64,
    title: String,
    description: String,
}

impl From<DuplicateSubjectRecord> for DuplicateSubject {
    fn from(row: DuplicateSubjectRecord) -> Self {
        DuplicateSubject {
            issue_id: row.id.0,
            category_id: row.category_id.0,
            report_id: row.report_id.0,
            filed_at: row.filed_at.0,
            at: domain::geo::LonLat {
                lon: row.longitude,
                lat: row.latitude,
            },
            title: row.title,
            description: row.description,
        }
    }
}

/// The columns of a [`ReportRecord`] from `reports r`.
pub(crate) const REPORT_COLUMNS: &str =
    "r.id, r.author, r.title, r.description, r.longitude, r.latitude, \
     r.location_radius_m, r.explicit, r.inserted_at, r.processed_at, r.address";

/// A report's own columns, from `reports r` or from an issue's copies of them.
#[derive(sqlx::FromRow)]
pub(crate) struct ReportRecord {
    id: DbUuid,
    author: Option<String>,
    title: String,
    description: String,
    longitude: Option<f64>,
    latitude: Option<f64>,
    location_radius_m: Option<f64>,
    explicit: bool,
    inserted_at: DbInstant,
    processed_at: Option<DbInstant>,
    address: Option<String>,
}

impl From<ReportRecord> for Report {
    fn from(row: ReportRecord) -> Self {
        Report {
            id: row.id.0,
            author: row.author,
            title: row.title,
            description: row.description,
            location: location(row.longitude, row.latitude, row.location_radius_m),
            address: row.address,
            explicit: row.explicit,
            inserted_at: row.inserted_at.0,
            processed_at: row.processed_at.map(|at| at.0),
            media: Vec::new(),
            // Counted at the request's instant by the queries that show it.
            votes_count: 0,
        }
    }
}

/// A report row (its media and votes are read apart).
pub(crate) fn report<'r, R: sqlx::Row>(row: &'r R) -> StoreResult<Report>
where
    ReportRecord: FromRow<'r, R>,
{
    Ok(ReportRecord::from_row(row)?.into())
}

/// Report rows that carry `votes_count` (the lists that show a report's votes).
pub(crate) fn reports_with_votes<'r, R: sqlx::Row>(rows: &'r [R]) -> StoreResult<Vec<Report>>
where
    ReportRecord: FromRow<'r, R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    &'static str: sqlx::ColumnIndex<R>,
{
    rows.iter()
        .map(|row| {
            let mut one = report(row)?;
            one.votes_count = row.try_get("votes_count")?;
            Ok(one)
        })
        .collect()
}

/// The columns of a public list row: the issue with the copies of its report's columns and media
/// it carries (migration 0014), so a page reads `issues` alone; `votes_count` is selected beside
/// them.
pub(crate) const LIST_COLUMNS: &str =
    "i.id AS issue_id, i.category_id AS issue_category, i.status AS issue_status, \
     i.report_id AS id, i.author, i.title, i.description, i.longitude, i.latitude, \
     i.location_radius_m, i.explicit, i.report_inserted_at AS inserted_at, i.processed_at, \
     i.media";

/// A public list row: its own fields, not a [`ReportRecord`]'s, so a column of the detail
/// is no column of the list (whose statements read the issue's copies, migration 0014), and a
/// field added to [`Report`] must be given in [`list_row`] (the compiler says so) rather than
/// fail at run time for a column the list statements do not select.
#[derive(sqlx::FromRow)]
pub(crate) struct ListRecord {
    issue_id: DbUuid,
    issue_category: DbUuid,
    issue_status: String,
    id: DbUuid,
    author: Option<String>,
    title: String,
    description: String,
    longitude: Option<f64>,
    latitude: Option<f64>,
    location_radius_m: Option<f64>,
    explicit: bool,
    inserted_at: DbInstant,
    processed_at: Option<DbInstant>,
    media: Json<Vec<Media>>,
    votes_count: i64,
}

/// A public list row read with [`LIST_COLUMNS`] and `votes_count`.
pub(crate) fn list_row<'r, R: sqlx::Row>(row: &'r R) -> StoreResult<IssueRow>
where
    ListRecord: FromRow<'r, R>,
{
    let row = ListRecord::from_row(row)?;
    let report = Report {
        id: row.id.0,
        author: row.author,
        title: row.title,
        description: row.description,
        location: location(row.longitude, row.latitude, row.location_radius_m),
        // The detail's: the list statements read the issue's copies, which have none.
        address: None,
        explicit: row.explicit,
        inserted_at: row.inserted_at.0,
        processed_at: row.processed_at.map(|at| at.0),
        media: row.media.0,
        votes_count: row.votes_count,
    };
    Ok(IssueRow {
        report,
        issue_id: row.issue_id.0,
        category_id: row.issue_category.0,
        status: status(&row.issue_status)?,
    })
}
