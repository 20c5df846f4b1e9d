//! The officers' list by date from the index (`GET /admin/reports`, spec 4.5): one row per
//! report, in the database's order (filing time, then report id, in the asked direction), with
//! the same selection as the statements of `store/*/admin.rs`.
//!
//! The issues of a report share its filing time, so they are neighbours in the index's date
//! order, grouped with those of any other report filed in the same microsecond. The walk takes
//! one such group at a time and orders its reports by id. A report is listed when the officer
//! may see one of its listed issues and, with a `category`, `status` or `overdue` filter, one
//! accessible issue matches all three; its row holds every accessible listed issue, oldest first.

use std::collections::HashMap;

use domain::geo::LonLat;
use domain::issues::{is_overdue, IssueStatus, DEADLINE_DAY_MICROS};
use domain::reports::{Direction, OrderBy};
use uuid::Uuid;

use super::model::{Entry, Index};
use crate::store::admin::AdminFilter;
use crate::store::{ListPage, ReportFilter};

/// An issue of an admin row, as the index holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdminIssueRow {
    pub issue_id: Uuid,
    pub category_id: Uuid,
    pub status: IssueStatus,
    /// When the report was placed in the category (microseconds).
    pub placed_at: i64,
    pub has_possible_duplicates: bool,
    pub parent_id: Option<Uuid>,
}

/// A row of an admin page from the index.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminRow {
    pub report_id: Uuid,
    /// The report's oldest listed issue and the version the index holds it at: the report's
    /// own fields are read from that issue's copies and kept under it (every change of the
    /// report moves the versions of all its issues).
    pub head: (Uuid, i64),
    pub point: Option<LonLat>,
    /// The accessible listed issues, oldest first (placement time, then id).
    pub issues: Vec<AdminIssueRow>,
    /// The report's active vote tokens at the filter's instant (the index's vote tally).
    pub votes_count: i64,
}

impl AdminIssueRow {
    fn of(entry: &Entry) -> Self {
        Self {
            issue_id: entry.issue_id,
            category_id: entry.category_id,
            status: entry.status,
            placed_at: entry.placed,
            has_possible_duplicates: entry.has_possible_duplicates,
            parent_id: entry.parent_id,
        }
    }
}

impl Index {
    /// Whether an admin page of `list` is served from the index: by date, with no radius.
    pub fn serves_admin(list: &ReportFilter) -> bool {
        list.order.by == OrderBy::Date && list.near.as_ref().is_none_or(|n| n.radius_m.is_none())
    }

    /// The admin page of `filter`, with the statement deadlines of the categories that have
    /// one (`None` when the index does not serve it, [`Self::serves_admin`]).
    pub fn admin_page(
        &self,
        filter: &AdminFilter,
        deadlines: &HashMap<Uuid, u32>,
    ) -> Option<ListPage<AdminRow>> {
        if !Self::serves_admin(&filter.list) {
            return None;
        }
        let list = &filter.list;
        let from = list.date_from.map_or(i64::MIN, |t| t.timestamp_micros());
        let mut to = list.date_to.map_or(i64::MAX, |t| t.timestamp_micros());
        let now = filter.now.timestamp_micros();
        if filter.overdue == Some(true) {
            // An issue is placed no earlier than its report is filed: an overdue report was
            // filed at least the shortest deadline ago (none: nothing is overdue).
            let shortest = deadlines.values().min().map_or(i64::MIN, |days| {
                now.saturating_sub(i64::from(*days).saturating_mul(DEADLINE_DAY_MICROS))
            });
            to = to.min(shortest);
        }
        let wanted = list.page.offset as usize + list.page.limit as usize + 1;
        let mut rows = Vec::new();
        if from <= to {
            let range = self
                .by_date
                .range((from, Uuid::nil(), 0)..=(to, Uuid::max(), u32::MAX));
            let walk: Box<dyn Iterator<Item = &(i64, Uuid, u32)>> = match list.order.direction {
                Direction::Desc => Box::new(range.rev()),
                Direction::Asc => Box::new(range),
            };
            // The listed issues of one filing time (usually one report's).
            let mut group: Vec<&Entry> = Vec::new();
            let mut group_filed = None;
            for (filed, _, slot) in walk {
                if group_filed != Some(*filed) {
                    take_group(&mut group, filter, deadlines, now, &mut rows);
                    if rows.len() >= wanted {
                        break;
                    }
                    group_filed = Some(*filed);
                }
                if let Some(entry) = self.entries.get(*slot as usize) {
                    group.push(entry);
                }
            }
            take_group(&mut group, filter, deadlines, now, &mut rows);
        }
        let rows = rows
            .into_iter()
            .skip(list.page.offset as usize)
            .take(list.page.limit as usize + 1)
            .map(|row| AdminRow {
                votes_count: self.votes.count(row.report_id, filter.now),
                ..row
            })
            .collect();
        Some(ListPage::from_overfetch(rows, list.page.limit))
    }
}

/// Adds the listed reports of one filing time to `rows`, in the list's order (by report id),
/// and empties the group.
fn take_group(
    group: &mut Vec<&Entry>,
    filter: &AdminFilter,
    deadlines: &HashMap<Uuid, u32>,
    now: i64,
    rows: &mut Vec<AdminRow>,
) {
    group.sort_unstable_by_key(|e| (e.report_id, e.placed, e.issue_id));
    let reports = group.chunk_by(|a, b| a.report_id == b.report_id);
    let ordered: Box<dyn Iterator<Item = &[&Entry]>> = match filter.list.order.direction {
        Direction::Desc => Box::new(reports.rev()),
        Direction::Asc => Box::new(reports),
    };
    rows.extend(ordered.filter_map(|issues| admin_row(issues, filter, deadlines, now)));
    group.clear();
}

/// The row of a report whose listed issues are `issues` (oldest first), if `filter` lists it.
fn admin_row(
    issues: &[&Entry],
    filter: &AdminFilter,
    deadlines: &HashMap<Uuid, u32>,
    now: i64,
) -> Option<AdminRow> {
    let first = issues.first()?;
    let list = &filter.list;
    // The report's text is copied on each of its issues.
    if list.q.as_deref().is_some_and(|q| !first.search.contains(q)) {
        return None;
    }
    let accessible = || {
        issues
            .iter()
            .copied()
            .filter(|e| filter.access.allows(e.category_id))
    };
    let matches = |e: &Entry| {
        (list.categories.is_empty() || list.categories.contains(&e.category_id))
            && (list.statuses.is_empty() || list.statuses.contains(&e.status))
            && filter.overdue.is_none_or(|want| {
                let deadline = deadlines.get(&e.category_id).copied();
                is_overdue(e.status, e.placed, deadline, now) == want
            })
    };
    if !accessible().any(matches) {
        return None;
    }
    Some(AdminRow {
        report_id: first.report_id,
        head: (first.issue_id, first.version),
        point: first.point,
        issues: accessible().map(AdminIssueRow::of).collect(),
        votes_count: 0,
    })
}

#[cfg(test)]
#[path = "admin_tests.rs"]
mod tests;
