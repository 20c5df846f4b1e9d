//! Reading report, issue and media rows (SQLite), and loading them in batches.

use std::collections::HashMap;

use sqlx::sqlite::SqliteRow;
use sqlx::types::Json;
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use uuid::Uuid;

use super::{get_instant, get_opt_instant, get_opt_uuid, get_uuid};
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
pub(super) fn list_row(row: &SqliteRow) -> StoreResult<IssueRow> {
    let mut report = report(row)?;
    let Json(media): Json<Vec<Media>> = row.try_get("media")?;
    report.media = media;
    report.votes_count = row.try_get("votes_count")?;
    Ok(IssueRow {
        report,
        issue_id: get_uuid(row, "issue_id")?,
        category_id: get_uuid(row, "issue_category")?,
        status: status(row.try_get("issue_status")?)?,
    })
}

pub(super) fn report(row: &SqliteRow) -> StoreResult<Report> {
    Ok(Report {
        id: get_uuid(row, "id")?,
        author: row.try_get("author")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        location: location(
            row.try_get("longitude")?,
            row.try_get("latitude")?,
            row.try_get("location_radius_m")?,
        ),
        explicit: row.try_get("explicit")?,
        inserted_at: get_instant(row, "inserted_at")?,
        processed_at: get_opt_instant(row, "processed_at")?,
        media: Vec::new(),
        // Counted at the request's instant by the queries that show it.
        votes_count: 0,
    })
}

pub(super) fn issue(row: &SqliteRow) -> StoreResult<Issue> {
    Ok(Issue {
        id: get_uuid(row, "id")?,
        report_id: get_uuid(row, "report_id")?,
        category_id: get_uuid(row, "category_id")?,
        status: status(row.try_get("status")?)?,
        parent_id: get_opt_uuid(row, "parent_id")?,
        has_possible_duplicates: row.try_get("has_possible_duplicates")?,
        inserted_at: get_instant(row, "inserted_at")?,
    })
}

pub(super) fn media(row: &SqliteRow) -> StoreResult<Media> {
    let size: i64 = row.try_get("size_bytes")?;
    Ok(Media {
        id: get_uuid(row, "id")?,
        filename: row.try_get("filename")?,
        media_type: row.try_get("media_type")?,
        size_bytes: u64::try_from(size).unwrap_or_default(),
    })
}

/// ` IN (?, ?, …)` over `ids` (never empty: an empty list matches nothing).
pub(super) fn push_in(q: &mut QueryBuilder<'_, Sqlite>, ids: &[Uuid]) {
    q.push(" IN (");
    if ids.is_empty() {
        q.push("NULL");
    }
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(id.to_string());
    }
    q.push(")");
}

/// Rows of `owner` (report_id or statement_id) media for the given owners, in upload order.
pub(super) async fn media_of(
    pool: &SqlitePool,
    owner: &str,
    ids: &[Uuid],
) -> StoreResult<HashMap<Uuid, Vec<Media>>> {
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT id, {owner} AS owner, filename, media_type, size_bytes FROM media WHERE {owner}"
    ));
    push_in(&mut q, ids);
    q.push(format!(" ORDER BY {owner}, position"));
    let rows = q.build().fetch_all(pool).await?;
    let mut out: HashMap<Uuid, Vec<Media>> = HashMap::new();
    for row in &rows {
        out.entry(get_uuid(row, "owner")?)
            .or_default()
            .push(media(row)?);
    }
    Ok(out)
}

pub(super) async fn with_issues(
    pool: &SqlitePool,
    reports: Vec<Report>,
) -> StoreResult<Vec<ReportWithIssues>> {
    let ids: Vec<Uuid> = reports.iter().map(|r| r.id).collect();
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {ISSUE_COLUMNS} FROM issues i WHERE i.report_id"
    ));
    push_in(&mut q, &ids);
    q.push(" ORDER BY i.report_id, i.inserted_at, i.id");
    let rows = q.build().fetch_all(pool).await?;
    let mut issues: HashMap<Uuid, Vec<Issue>> = HashMap::new();
    for row in &rows {
        let issue = issue(row)?;
        issues.entry(issue.report_id).or_default().push(issue);
    }
    let mut media = media_of(pool, "report_id", &ids).await?;
    Ok(reports
        .into_iter()
        .map(|mut report| {
            report.media = media.remove(&report.id).unwrap_or_default();
            ReportWithIssues {
                issues: issues.remove(&report.id).unwrap_or_default(),
                report,
            }
        })
        .collect())
}
