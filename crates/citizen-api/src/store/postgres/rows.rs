//! Reading report, issue and media rows (PostgreSQL), and loading them in batches.

use std::collections::HashMap;

use sqlx::postgres::PgRow;
use sqlx::types::Json;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use crate::store::{
    location, status, Issue, IssueRow, Media, Report, ReportWithIssues, StoreResult,
};

pub(super) const REPORT_COLUMNS: &str =
    "r.id, r.author, r.title, r.description, r.longitude, r.latitude, \
     r.location_radius_m, r.explicit, r.inserted_at, r.processed_at";
pub(super) const ISSUE_COLUMNS: &str =
    "i.id, i.report_id, i.category_id, i.status, i.parent_id, i.has_possible_duplicates, \
     i.inserted_at";

/// A public list row: the issue with the copies of its report's columns and media it carries
/// (migration 0014), so a page reads `issues` alone; `votes_count` is selected beside them.
pub(super) const LIST_COLUMNS: &str =
    "i.id AS issue_id, i.category_id AS issue_category, i.status AS issue_status, \
     i.report_id AS id, i.author, i.title, i.description, i.longitude, i.latitude, \
     i.location_radius_m, i.explicit, i.report_inserted_at AS inserted_at, i.processed_at, \
     i.media";

/// A public list row read with [`LIST_COLUMNS`] and `votes_count`.
pub(super) fn list_row(row: &PgRow) -> StoreResult<IssueRow> {
    let mut report = report(row)?;
    let Json(media): Json<Vec<Media>> = row.try_get("media")?;
    report.media = media;
    report.votes_count = row.try_get("votes_count")?;
    Ok(IssueRow {
        report,
        issue_id: row.try_get("issue_id")?,
        category_id: row.try_get("issue_category")?,
        status: status(row.try_get("issue_status")?)?,
    })
}

pub(super) fn report(row: &PgRow) -> StoreResult<Report> {
    Ok(Report {
        id: row.try_get("id")?,
        author: row.try_get("author")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        location: location(
            row.try_get("longitude")?,
            row.try_get("latitude")?,
            row.try_get("location_radius_m")?,
        ),
        explicit: row.try_get("explicit")?,
        inserted_at: row.try_get("inserted_at")?,
        processed_at: row.try_get("processed_at")?,
        media: Vec::new(),
        // Counted at the request's instant by the queries that show it.
        votes_count: 0,
    })
}

pub(super) fn issue(row: &PgRow) -> StoreResult<Issue> {
    Ok(Issue {
        id: row.try_get("id")?,
        report_id: row.try_get("report_id")?,
        category_id: row.try_get("category_id")?,
        status: status(row.try_get("status")?)?,
        parent_id: row.try_get("parent_id")?,
        has_possible_duplicates: row.try_get("has_possible_duplicates")?,
        inserted_at: row.try_get("inserted_at")?,
    })
}

pub(super) fn media(row: &PgRow) -> StoreResult<Media> {
    let size: i64 = row.try_get("size_bytes")?;
    Ok(Media {
        id: row.try_get("id")?,
        filename: row.try_get("filename")?,
        media_type: row.try_get("media_type")?,
        size_bytes: u64::try_from(size).unwrap_or_default(),
    })
}

/// The media of each of `reports`, in upload order.
pub(super) async fn media_of_reports(
    pool: &PgPool,
    reports: &[Uuid],
) -> StoreResult<HashMap<Uuid, Vec<Media>>> {
    let rows = sqlx::query(
        "SELECT id, report_id, filename, media_type, size_bytes FROM media \
         WHERE report_id = ANY($1) ORDER BY report_id, position",
    )
    .bind(reports)
    .fetch_all(pool)
    .await?;
    let mut out: HashMap<Uuid, Vec<Media>> = HashMap::new();
    for row in &rows {
        out.entry(row.try_get("report_id")?)
            .or_default()
            .push(media(row)?);
    }
    Ok(out)
}

/// The issues of each of `reports`, oldest first.
pub(super) async fn issues_of_reports(
    pool: &PgPool,
    reports: &[Uuid],
) -> StoreResult<HashMap<Uuid, Vec<Issue>>> {
    let rows = sqlx::query(&format!(
        "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.report_id = ANY($1) \
         ORDER BY i.report_id, i.inserted_at, i.id"
    ))
    .bind(reports)
    .fetch_all(pool)
    .await?;
    let mut out: HashMap<Uuid, Vec<Issue>> = HashMap::new();
    for row in &rows {
        let issue = issue(row)?;
        out.entry(issue.report_id).or_default().push(issue);
    }
    Ok(out)
}

pub(super) async fn with_media(
    pool: &PgPool,
    mut reports: Vec<Report>,
) -> StoreResult<Vec<Report>> {
    let ids: Vec<Uuid> = reports.iter().map(|r| r.id).collect();
    let mut media = media_of_reports(pool, &ids).await?;
    for report in &mut reports {
        report.media = media.remove(&report.id).unwrap_or_default();
    }
    Ok(reports)
}

pub(super) async fn with_issues(
    pool: &PgPool,
    reports: Vec<Report>,
) -> StoreResult<Vec<ReportWithIssues>> {
    let ids: Vec<Uuid> = reports.iter().map(|r| r.id).collect();
    let mut issues = issues_of_reports(pool, &ids).await?;
    Ok(with_media(pool, reports)
        .await?
        .into_iter()
        .map(|report| ReportWithIssues {
            issues: issues.remove(&report.id).unwrap_or_default(),
            report,
        })
        .collect())
}
