//! The officers' list by date written from the list index (`list_index/admin.rs`) and kept JSON.
//!
//! The index chooses the page's reports and holds each listed issue as last written (state,
//! category, placement, duplicate flag and parent). The categories (names and deadlines) come
//! from what the replica keeps under the categories' generation (`kept_categories.rs`), so a
//! renamed category or a changed deadline shows at once; the vote counts are the index's at the
//! request's instant. A report's own fields (title, text, media, place, dates, `explicit`) are
//! copied on each of its issue rows and move their versions when they change (migrations 0014,
//! 0021): they are written once and kept under the report's oldest listed issue and its version
//! (`KeptJson`, `reports.admin_row_cache_entries`), read by that issue's id when not kept. The
//! row is then written as the model would write it (checked byte for byte against the
//! database's page in `tests/api/admin_list_index.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use domain::geo::DistancesFrom;
use service_kit::{instant, ApiError};
use uuid::Uuid;

use super::super::model::{Report, View};
use super::super::reports::kept::{finish, head};
use super::super::reports::rows::{end_page, keep_written};
use super::super::AppState;
use crate::list_index::{AdminIssueRow, AdminRow, ListIndex};
use crate::store::admin::AdminFilter;
use crate::store::{Category, ListPage};

/// The body of the officers' page of `filter` from the list index, after
/// [`ListIndex::sync`]; `categories` are those whose issues the caller may see (as of the
/// generation the sync saw). `None` when the database is to answer.
pub async fn page(
    state: &AppState,
    index: &ListIndex,
    filter: &AdminFilter,
    categories: &[Category],
) -> Result<Option<Vec<u8>>, ApiError> {
    let deadlines: HashMap<Uuid, u32> = categories
        .iter()
        .filter_map(|c| c.statement_deadline_days.map(|days| (c.id, days)))
        .collect();
    let Some(found) = index.admin_page(filter, &deadlines).await else {
        return Ok(None);
    };
    // Each name as JSON once per page (a page writes it for every issue).
    let names = categories
        .iter()
        .map(|c| Ok((c.id, serde_json::to_string(&c.name)?)))
        .collect::<Result<HashMap<Uuid, String>, serde_json::Error>>()
        .map_err(ApiError::internal)?;
    let Some(heads) = heads(state, &found).await? else {
        return Ok(None);
    };
    write(filter, &found, &heads, &names).map_err(ApiError::internal)
}

/// Each row's report fields written (kept or read by the id of its oldest issue); `None` when
/// a report was not found (never: issues are not deleted), to leave the page to the database.
async fn heads(
    state: &AppState,
    found: &ListPage<AdminRow>,
) -> Result<Option<Vec<Arc<str>>>, ApiError> {
    let kept = &state.admin_rows;
    let mut heads = kept.get_all(found.rows.iter().map(|row| row.head));
    let missing: Vec<Uuid> = found
        .rows
        .iter()
        .zip(&heads)
        .filter(|(_, head)| head.is_none())
        .map(|(row, _)| row.head.0)
        .collect();
    if !missing.is_empty() {
        let read = state.stores.reports.public_rows(&missing).await?;
        // As officers see it: every attachment, also while `explicit`. A row written since the
        // page was chosen is kept at the newer version it was read at (never staler).
        let written = keep_written(kept, read, |row| {
            head(Report::from_store(
                row.report,
                &state.media,
                View::Trusted,
                None,
            ))
        })
        .map_err(ApiError::internal)?;
        for (row, slot) in found.rows.iter().zip(heads.iter_mut()) {
            if slot.is_none() {
                *slot = written.get(&row.head.0).cloned();
            }
        }
    }
    Ok(heads.into_iter().collect())
}

/// The page as `AdminReportList` writes it; `None` when an issue's category was not read (one
/// created after the request's read of the categories): the database answers then.
fn write(
    filter: &AdminFilter,
    found: &ListPage<AdminRow>,
    heads: &[Arc<str>],
    names: &HashMap<Uuid, String>,
) -> Result<Option<Vec<u8>>, serde_json::Error> {
    let size: usize = heads.iter().map(|head| head.len() + 320).sum();
    let mut body = Vec::with_capacity(size + 96);
    body.extend_from_slice(b"{\"reports\":[");
    let near = filter
        .list
        .near
        .as_ref()
        .map(|near| DistancesFrom::new(near.point));
    for (n, (row, head)) in found.rows.iter().zip(heads).enumerate() {
        if n > 0 {
            body.push(b',');
        }
        body.extend_from_slice(head.as_bytes());
        let status = domain::issues::report_status(row.issues.iter().map(|i| i.status));
        if let Some(status) = status {
            body.extend_from_slice(b",\"status\":");
            serde_json::to_writer(&mut body, &status)?;
        }
        body.extend_from_slice(b",\"issues\":");
        body.push(b'[');
        for (n, issue) in row.issues.iter().enumerate() {
            if n > 0 {
                body.push(b',');
            }
            if write_item(&mut body, issue, names)?.is_none() {
                return Ok(None);
            }
        }
        body.push(b']');
        let distance = near
            .zip(row.point)
            .map(|(near, point)| near.rounded_cm(point));
        finish(&mut body, row.votes_count, distance)?;
    }
    end_page(&mut body, found.has_next, filter.list.page)?;
    Ok(Some(body))
}

/// Appends the issue as serde writes `AdminIssueItem` (the test below and
/// `tests/api/admin_list_index.rs` compare the two), with its category's name as JSON
/// (written once per page); `None` when the category was not read.
fn write_item(
    out: &mut Vec<u8>,
    issue: &AdminIssueRow,
    names: &HashMap<Uuid, String>,
) -> Result<Option<()>, serde_json::Error> {
    let (Some(name), Some(placed)) = (
        names.get(&issue.category_id),
        chrono::DateTime::from_timestamp_micros(issue.placed_at),
    ) else {
        return Ok(None);
    };
    out.extend_from_slice(b"{\"issue_id\":");
    write_uuid(out, issue.issue_id);
    out.extend_from_slice(b",\"category_id\":");
    write_uuid(out, issue.category_id);
    out.extend_from_slice(b",\"category_name\":");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b",\"status\":");
    serde_json::to_writer(&mut *out, &issue.status)?;
    out.extend_from_slice(b",\"inserted_at\":");
    instant::write_json(&placed, out)?;
    out.extend_from_slice(if issue.has_possible_duplicates {
        b",\"has_possible_duplicates\":true"
    } else {
        b",\"has_possible_duplicates\":false"
    });
    if let Some(parent) = issue.parent_id {
        out.extend_from_slice(b",\"parent_id\":");
        write_uuid(out, parent);
    }
    out.push(b'}');
    Ok(Some(()))
}

/// A UUID as a JSON string (hyphenated, lower case, as serde writes it).
fn write_uuid(out: &mut Vec<u8>, id: Uuid) {
    let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
    out.push(b'"');
    out.extend_from_slice(id.hyphenated().encode_lower(&mut buf).as_bytes());
    out.push(b'"');
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use domain::issues::IssueStatus;

    use super::*;
    use crate::routes::admin::model::AdminIssueItem;

    #[test]
    fn an_item_is_written_as_serde_writes_it() {
        let category = Uuid::now_v7();
        for (name, status, flagged, parent, placed_at) in [
            (
                "Silnice",
                IssueStatus::Open,
                false,
                None,
                1_764_000_000_123_456,
            ),
            (
                "Osvětlení \"A\"\t\u{1}",
                IssueStatus::Duplicate,
                true,
                Some(Uuid::now_v7()),
                0,
            ),
            (
                "",
                IssueStatus::Resolved,
                false,
                None,
                1_764_000_000_000_000,
            ),
            ("x", IssueStatus::Accepted, true, None, -86_400_000_001),
        ] {
            let issue = AdminIssueRow {
                issue_id: Uuid::now_v7(),
                category_id: category,
                status,
                placed_at,
                has_possible_duplicates: flagged,
                parent_id: parent,
            };
            let names = HashMap::from([(category, serde_json::to_string(name).unwrap())]);
            let mut ours = Vec::new();
            assert_eq!(write_item(&mut ours, &issue, &names).unwrap(), Some(()));
            let item = AdminIssueItem {
                issue_id: issue.issue_id,
                category_id: category,
                category_name: name.to_owned(),
                status,
                inserted_at: chrono::DateTime::from_timestamp_micros(placed_at).unwrap(),
                has_possible_duplicates: flagged,
                parent_id: parent,
            };
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&item).unwrap()
            );
            let mut unnamed = Vec::new();
            assert_eq!(
                write_item(&mut unnamed, &issue, &HashMap::new()).unwrap(),
                None
            );
        }
    }
}
