//! Reading report, issue and media rows (SQLite), and loading them in batches.

use std::collections::HashMap;

use sqlx::{QueryBuilder, Sqlite, SqlitePool};
use uuid::Uuid;

use super::get_uuid;
pub(super) use crate::store::records::{
    issue, list_row, media, report, ISSUE_COLUMNS, LIST_COLUMNS,
};
use crate::store::{Issue, Media, Report, ReportWithIssues, StoreResult};

pub(super) const REPORT_COLUMNS: &str =
    "r.id, r.author, r.title, r.description, r.longitude, r.latitude, \
     r.location_radius_m, r.explicit, r.inserted_at, r.processed_at";

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
