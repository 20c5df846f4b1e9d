//! The filters of the report lists, written once for both backends and every walk: the public
//! list (by date or votes, and nearest first), a citizen's own reports, and the officers' list
//! (its general walk over reports and its walk of one category's issues), whose conditions the
//! officers' status counts reuse.
//!
//! A filter reads either an issue's copies of its report's columns (`issues i`, migration 0014)
//! or the report itself (`reports r`): [`Rows`]. What differs between the dialects (binding a
//! value, ` = ANY($n)` against ` IN (…)`, a deadline's arithmetic) is an item of [`Dialect`];
//! the radius is each walk's own (PostGIS's `ST_DWithin`, or SQLite's R*Tree), so the walks add
//! it themselves.
//!
//! A new filter of the public list is a field of `ReportFilter`, its parameter
//! (`routes/params.rs`) and its condition in [`push_report_filters`] (or
//! [`push_issue_filters`]); every list then applies it.

use domain::text::Search;
use sqlx::QueryBuilder;

use super::Dialect;
use crate::store::admin::AdminFilter;
use crate::store::ReportFilter;

/// The rows a list's filters read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::store) enum Rows {
    /// `issues i`, with the copies of its report's columns.
    Issues,
    /// `reports r`.
    Reports,
}

impl Rows {
    /// The table's alias.
    pub(in crate::store) fn alias(self) -> &'static str {
        match self {
            Rows::Issues => "i",
            Rows::Reports => "r",
        }
    }

    /// The report's id column.
    pub(in crate::store) fn report_id(self) -> &'static str {
        match self {
            Rows::Issues => "i.report_id",
            Rows::Reports => "r.id",
        }
    }

    /// The report's filing-time column.
    pub(in crate::store) fn filed(self) -> &'static str {
        match self {
            Rows::Issues => "i.report_inserted_at",
            Rows::Reports => "r.inserted_at",
        }
    }
}

/// The filters on the issue `i`: its category and its state.
pub(in crate::store) fn push_issue_filters<D: Dialect>(
    q: &mut QueryBuilder<'_, D::Db>,
    filter: &ReportFilter,
) {
    // One value is an equality: the planner can then walk an index in date order.
    match filter.categories.as_slice() {
        [] => {}
        [one] => {
            q.push(" AND i.category_id = ");
            D::push_uuid(q, *one);
        }
        many => {
            q.push(" AND i.category_id");
            D::push_ids(q, many);
        }
    }
    match filter.statuses.as_slice() {
        [] => {}
        [one] => {
            q.push(" AND i.status = ");
            D::push_text(q, one.as_str().to_owned());
        }
        many => {
            let names: Vec<&'static str> = many.iter().map(|s| s.as_str()).collect();
            q.push(" AND i.status");
            D::push_names(q, &names);
        }
    }
}

/// The filters on the report's own columns on `rows` (`q`, the dates, the photos), but the
/// radius.
pub(in crate::store) fn push_report_filters<D: Dialect>(
    q: &mut QueryBuilder<'_, D::Db>,
    filter: &ReportFilter,
    rows: Rows,
) {
    let alias = rows.alias();
    match &filter.q {
        // Folded text holds letters, digits and single spaces only: no LIKE wildcards.
        Some(Search::Folded(text)) => {
            q.push(format!(" AND {alias}.search LIKE "));
            D::push_text(q, format!("%{text}%"));
        }
        Some(Search::Nothing) => {
            q.push(" AND FALSE");
        }
        None => {}
    }
    if let Some(from) = filter.date_from {
        q.push(format!(" AND {} >= ", rows.filed()));
        D::push_instant(q, from);
    }
    if let Some(to) = filter.date_to {
        q.push(format!(" AND {} <= ", rows.filed()));
        D::push_instant(q, to);
    }
    if let Some(has) = filter.has_photo {
        // `media_report` answers it: the report's first file, if any.
        q.push(format!(
            " AND {}EXISTS (SELECT 1 FROM media m WHERE m.report_id = {})",
            if has { "" } else { "NOT " },
            rows.report_id()
        ));
    }
}

/// The public list's filters on the issue `i` (after `WHERE i.status <> 'moved'`), but the
/// radius.
pub(in crate::store) fn push_list_filters<D: Dialect>(
    q: &mut QueryBuilder<'_, D::Db>,
    filter: &ReportFilter,
) {
    push_issue_filters::<D>(q, filter);
    push_report_filters::<D>(q, filter, Rows::Issues);
}

/// ` AND EXISTS` an issue of report `r` that is not moved, that the officer may see, and that
/// matches the list's categories and states and `overdue` (the officers' general walk).
pub(in crate::store) fn push_issue_match<D: Dialect>(
    q: &mut QueryBuilder<'_, D::Db>,
    filter: &AdminFilter,
) {
    q.push(" AND ");
    push_issue_exists::<D>(q, filter);
}

/// `EXISTS` an issue of report `r` as [`push_issue_match`] asks for it (the condition alone: the
/// status counts count the reports it holds for, `sql/status_counts.rs`).
pub(in crate::store) fn push_issue_exists<D: Dialect>(
    q: &mut QueryBuilder<'_, D::Db>,
    filter: &AdminFilter,
) {
    q.push(
        "EXISTS (SELECT 1 FROM issues i JOIN report_categories c ON c.id = i.category_id \
         WHERE i.report_id = r.id AND i.status <> 'moved'",
    );
    if let Some(ids) = filter.access.categories() {
        q.push(" AND i.category_id");
        D::push_ids(q, ids);
    }
    push_issue_filters::<D>(q, &filter.list);
    if let Some(overdue) = filter.overdue {
        q.push(if overdue { " AND " } else { " AND NOT " });
        D::push_overdue(q, filter.now);
    }
    q.push(")");
}
