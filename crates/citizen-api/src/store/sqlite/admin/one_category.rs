//! The admin list of one category, ordered by date (SQLite), as on PostgreSQL
//! (`postgres/admin/one_category.rs`).
//!
//! An officer of one category, or a `category` filter of one id, sees the reports that have an
//! issue there. The general query walks every report newest first and probes its issues, about
//! seven reports per match with eight categories. Here the page comes from a walk of that
//! category's issues in the order of their reports (`issues_admin_by_category`, migration
//! 0019), whose rows carry copies of every report column the filters read (migration 0014).
//! `DISTINCT` keeps one row per report: a report can hold two issues of one category (a move
//! into a category it is already handled in).

use sqlx::{QueryBuilder, Sqlite};
use uuid::Uuid;

use super::super::list_sql::{direction, push_near};
use super::super::micros;
use super::super::SqliteStore;
use super::DAY_MICROS;
use crate::store::admin::AdminFilter;
use crate::store::sql::list_filter::push_list_filters;

/// `WITH page AS (…)`: the page's reports (`report_id`), `limit` + 1 of them after `offset`, in
/// the list's order. The filters are the public list's, on the copies.
pub(super) fn push_page(q: &mut QueryBuilder<'_, Sqlite>, filter: &AdminFilter, category: Uuid) {
    let mut list = filter.list.clone();
    list.categories = vec![category];
    q.push(
        "WITH page AS MATERIALIZED (SELECT DISTINCT i.report_inserted_at, i.report_id \
         FROM issues i WHERE i.status <> 'moved'",
    );
    push_list_filters::<SqliteStore>(q, &list);
    push_near(q, &list, "i");
    if let Some(overdue) = filter.overdue {
        // The category's deadline once (a constant subquery). No deadline: NULL, never overdue.
        let deadline = "(SELECT statement_deadline_days FROM report_categories WHERE id = ";
        q.push(if overdue {
            " AND coalesce("
        } else {
            " AND NOT coalesce("
        })
        .push(format!(
            "i.status IN ('open', 'accepted') AND i.inserted_at + {deadline}"
        ))
        .push_bind(category.to_string())
        .push(") * ")
        .push_bind(DAY_MICROS)
        .push(" <= ")
        .push_bind(micros(filter.now))
        .push(", 0)");
        if overdue {
            // An issue is placed no earlier than its report is filed: the walk starts at the
            // reports filed at least the deadline ago.
            q.push(" AND i.report_inserted_at <= ")
                .push_bind(micros(filter.now))
                .push(format!(" - {deadline}"))
                .push_bind(category.to_string())
                .push(") * ")
                .push_bind(DAY_MICROS);
        }
    }
    let dir = direction(list.order.direction);
    q.push(format!(
        " ORDER BY i.report_inserted_at {dir}, i.report_id {dir} LIMIT "
    ))
    .push_bind(i64::from(list.page.limit) + 1)
    .push(" OFFSET ")
    .push_bind(i64::from(list.page.offset))
    .push(") ");
}
