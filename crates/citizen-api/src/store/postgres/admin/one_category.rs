//! The admin list of one category, ordered by date (PostgreSQL).
//!
//! An officer of one category, or a `category` filter of one id, sees the reports that have an
//! issue there. The general query walks every report newest first and probes its issues, so it
//! read about seven reports per match with eight categories. Here the page comes from a walk
//! of that category's issues in the order of their reports (`issues_admin_by_category`,
//! migration 0017), whose rows carry copies of every report column the filters read (migration
//! 0014). `DISTINCT ON` keeps one row per report: a report can hold two issues of one category
//! (a move into a category it is already handled in).

use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use super::super::list_sql::{direction, push_list_filters};
use super::super::page_sql;
use crate::store::admin::AdminFilter;

/// `WITH page AS (…)`: the ids of the page's reports, `limit` + 1 of them after `offset`, in
/// the list's order. The filters are the public list's, on the copies.
pub(super) fn push_page(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter, category: Uuid) {
    let mut list = filter.list.clone();
    list.categories = vec![category];
    q.push(
        "WITH page AS MATERIALIZED (SELECT DISTINCT ON (i.report_inserted_at, i.report_id) \
         i.report_id FROM issues i WHERE i.status <> 'moved'",
    );
    push_list_filters(q, &list);
    if let Some(overdue) = filter.overdue {
        // The category's deadline once (an InitPlan), not a join per row, which would cost
        // the walk its order. NULL (no deadline) is never overdue.
        let deadline = "make_interval(hours => 24 * (SELECT statement_deadline_days \
                        FROM report_categories WHERE id = ";
        q.push(if overdue { " AND " } else { " AND NOT " })
            .push(format!(
                "(i.status IN ('open', 'accepted') AND i.inserted_at + {deadline}"
            ))
            .push_bind(category)
            .push(")) <= ")
            .push_bind(filter.now)
            .push(" IS TRUE)");
        if overdue {
            // An issue is placed no earlier than its report is filed: the walk starts at
            // the reports filed at least the deadline ago.
            q.push(" AND i.report_inserted_at <= ")
                .push_bind(filter.now)
                .push(format!(" - {deadline}"))
                .push_bind(category)
                .push("))");
        }
    }
    let dir = direction(list.order.direction);
    q.push(format!(
        " ORDER BY i.report_inserted_at {dir}, i.report_id {dir}{}) ",
        page_sql(i64::from(list.page.limit) + 1, i64::from(list.page.offset))
    ));
}
