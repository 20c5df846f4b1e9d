//! The general admin list's conditions, order and page (SQLite): every report newest first
//! (or by votes or distance), probing its issues when the filter can leave a report out. The
//! list of one category has its own walk (`one_category.rs`).

use domain::text::Search;
use sqlx::{QueryBuilder, Sqlite};

use super::super::list_sql::{push_near, push_order};
use super::super::micros;
use super::super::rows::push_in;
use super::{push_access, DAY_MICROS};
use crate::store::admin::AdminFilter;
use crate::store::Instant;

/// The conditions after `FROM reports r WHERE 1`, the order and the page.
pub(super) fn push_filters(q: &mut QueryBuilder<'_, Sqlite>, filter: &AdminFilter) {
    let list = &filter.list;
    if filter.matches_issues() {
        push_issue_match(q, filter);
    }
    match &list.q {
        Some(Search::Folded(text)) => {
            q.push(" AND r.search LIKE ").push_bind(format!("%{text}%"));
        }
        Some(Search::Nothing) => {
            q.push(" AND 0");
        }
        None => {}
    }
    if let Some(from) = list.date_from {
        q.push(" AND r.inserted_at >= ").push_bind(micros(from));
    }
    if let Some(to) = list.date_to {
        q.push(" AND r.inserted_at <= ").push_bind(micros(to));
    }
    push_near(q, list, "r");
    push_order(q, list, "r", "r.inserted_at", "r.id");
}

/// Whether issue `i` of category `c` is past its statement deadline at `now` (see the
/// PostgreSQL backend).
fn push_overdue(q: &mut QueryBuilder<'_, Sqlite>, now: Instant) {
    q.push(
        "(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
         AND i.inserted_at + c.statement_deadline_days * ",
    )
    .push_bind(DAY_MICROS)
    .push(" <= ")
    .push_bind(micros(now))
    .push(")");
}

fn push_issue_match(q: &mut QueryBuilder<'_, Sqlite>, filter: &AdminFilter) {
    q.push(
        " AND EXISTS (SELECT 1 FROM issues i JOIN report_categories c ON c.id = i.category_id \
         WHERE i.report_id = r.id AND i.status <> 'moved'",
    );
    push_access(q, &filter.access);
    if !filter.list.categories.is_empty() {
        q.push(" AND i.category_id");
        push_in(q, &filter.list.categories);
    }
    if !filter.list.statuses.is_empty() {
        q.push(" AND i.status IN (");
        let mut list = q.separated(", ");
        for s in &filter.list.statuses {
            list.push_bind(s.as_str());
        }
        q.push(")");
    }
    if let Some(overdue) = filter.overdue {
        q.push(if overdue { " AND " } else { " AND NOT " });
        push_overdue(q, filter.now);
    }
    q.push(")");
}
