//! The officers' side (PostgreSQL): the admin list's statement, candidates near an issue and
//! category changes (`admin/`). `store::sql::admin` serves the rest of `AdminStore`.

mod duplicates;
mod one_category;

use sqlx::{Postgres, QueryBuilder};

use super::list_sql::{direction, push_order, push_report_filters, push_votes};
use super::rows::REPORT_COLUMNS;
use super::PgStore;
use crate::store::admin::{Access, AdminFilter};
use crate::store::records::reports_with_votes;
use crate::store::{Instant, Report, StoreResult};

/// ` AND i.category_id = ANY(…)` unless the officer sees every category.
fn push_access(q: &mut QueryBuilder<'_, Postgres>, access: &Access) {
    if let Some(ids) = access.categories() {
        q.push(" AND i.category_id = ANY(")
            .push_bind(ids.to_vec())
            .push(")");
    }
}

/// Whether issue `i` of category `c` is past its statement deadline at `now`: open or accepted,
/// and placed into its category at least the deadline ago. A day is 24 hours, as on SQLite
/// (`domain::issues::is_overdue`), not a calendar day of the session's zone.
fn push_overdue(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    q.push(
        "(i.status IN ('open', 'accepted') AND c.statement_deadline_days IS NOT NULL \
         AND i.inserted_at + make_interval(hours => 24 * c.statement_deadline_days) <= ",
    )
    .push_bind(now)
    .push(")");
}

fn push_issue_match(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
    q.push(
        " AND EXISTS (SELECT 1 FROM issues i JOIN report_categories c ON c.id = i.category_id \
         WHERE i.report_id = r.id AND i.status <> 'moved'",
    );
    push_access(q, &filter.access);
    if !filter.list.categories.is_empty() {
        q.push(" AND i.category_id = ANY(")
            .push_bind(filter.list.categories.clone())
            .push(")");
    }
    if !filter.list.statuses.is_empty() {
        let names: Vec<&str> = filter.list.statuses.iter().map(|s| s.as_str()).collect();
        q.push(" AND i.status = ANY(").push_bind(names).push(")");
    }
    if let Some(overdue) = filter.overdue {
        q.push(if overdue { " AND " } else { " AND NOT " });
        push_overdue(q, filter.now);
    }
    q.push(")");
}

/// `SELECT` the report's columns and its votes at `now` `FROM ` (the caller names `r`).
fn push_select(q: &mut QueryBuilder<'_, Postgres>, now: Instant) {
    q.push(format!("SELECT {REPORT_COLUMNS}, "));
    push_votes(q, "r.id", now);
    q.push(" AS votes_count FROM ");
}

/// The general list's conditions, order and page, on `reports r`.
fn push_filters(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
    let list = &filter.list;
    if filter.matches_issues() {
        push_issue_match(q, filter);
    }
    if filter.overdue == Some(true) {
        // An issue is placed no earlier than its report is filed, so an overdue report was
        // filed at least the shortest deadline ago: the walk by date starts there instead of
        // probing every newer report. No deadline anywhere: NULL, nothing is overdue.
        q.push(" AND r.inserted_at <= ").push_bind(filter.now).push(
            " - make_interval(hours => 24 * (SELECT min(statement_deadline_days) \
                 FROM report_categories))",
        );
    }
    push_report_filters(q, list, "r", "r.inserted_at");
    push_order(q, list, "r", "r.inserted_at", "r.id");
}

impl PgStore {
    /// Issues found by their reports: PostgreSQL picks the `issues_report` index itself.
    pub(in crate::store) const ISSUES_BY_REPORT: &'static str = "issues i";

    /// The admin list's reports with their votes: one page and one more (their issues are
    /// read by `store::sql::admin`).
    pub(in crate::store) async fn admin_report_rows(
        &self,
        filter: &AdminFilter,
    ) -> StoreResult<Vec<Report>> {
        let list = &filter.list;
        let mut q = QueryBuilder::<Postgres>::new("");
        if let Some(category) = filter.confined_to_one_category() {
            one_category::push_page(&mut q, filter, category);
            push_select(&mut q, filter.now);
            let dir = direction(list.order.direction);
            q.push(format!(
                "page p JOIN reports r ON r.id = p.report_id \
                 ORDER BY r.inserted_at {dir}, r.id {dir}"
            ));
        } else {
            push_select(&mut q, filter.now);
            q.push("reports r WHERE TRUE");
            push_filters(&mut q, filter);
        }
        reports_with_votes(&q.build().fetch_all(&self.pool).await?)
    }
}
