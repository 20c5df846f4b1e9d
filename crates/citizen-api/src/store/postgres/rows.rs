//! Reading report, issue and media rows (PostgreSQL), and loading them in batches.

use std::collections::HashMap;

use sqlx::{PgPool, Row};
use uuid::Uuid;

pub(super) use crate::store::records::{
    issue, list_row, media, report, ISSUE_COLUMNS, LIST_COLUMNS,
};
use crate::store::{Issue, Media, Report, ReportWithIssues, StoreResult};

pub(super) const REPORT_COLUMNS: &str =
    "r.id, r.author, r.title, r.description, r.longitude, r.latitude, \
     r.location_radius_m, r.explicit, r.inserted_at, r.processed_at";

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
