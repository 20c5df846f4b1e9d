//! The officers' side (PostgreSQL): the admin list's statement, candidates near an issue and
//! category changes (`admin/`). `store::sql::admin` serves the rest of `AdminStore`.

pub(super) mod duplicates;
mod one_category;

use sqlx::{PgPool, Postgres, QueryBuilder};

use super::list_sql::{direction, push_near, push_order};
use super::PgStore;
use crate::store::admin::AdminFilter;
use crate::store::records::{reports_with_votes, REPORT_COLUMNS};
use crate::store::sql::list_filter::{self, Rows};
use crate::store::{Report, StoreResult};

/// `SELECT` the report's columns and its vote count `FROM ` (the caller names `r`).
fn push_select(q: &mut QueryBuilder<'_, Postgres>) {
    q.push(format!("SELECT {REPORT_COLUMNS}, r.votes_count FROM "));
}

/// The general list's conditions on `reports r`, after its `WHERE TRUE` (no order, no page):
/// the list's walk, and the status counts (`Dialect::push_admin_conditions`).
pub(super) fn push_conditions(q: &mut QueryBuilder<'_, Postgres>, filter: &AdminFilter) {
    let list = &filter.list;
    if filter.matches_issues() {
        list_filter::push_issue_match::<PgStore>(q, filter);
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
    list_filter::push_report_filters::<PgStore>(q, list, Rows::Reports);
    push_near(q, list, "r");
}

/// The admin list's reports with their votes: one page and one more (their issues are
/// read by `store::sql::admin`).
pub(super) async fn admin_report_rows(
    pool: &PgPool,
    filter: &AdminFilter,
) -> StoreResult<Vec<Report>> {
    let list = &filter.list;
    let mut q = QueryBuilder::<Postgres>::new("");
    if let Some(category) = filter.confined_to_one_category() {
        one_category::push_page(&mut q, filter, category);
        push_select(&mut q);
        let dir = direction(list.order.direction);
        q.push(format!(
            "page p JOIN reports r ON r.id = p.report_id \
             ORDER BY r.inserted_at {dir}, r.id {dir}"
        ));
    } else {
        push_select(&mut q);
        q.push("reports r WHERE TRUE");
        push_conditions(&mut q, filter);
        push_order(&mut q, list, "r", "r.inserted_at", "r.id");
    }
    reports_with_votes(&q.build().fetch_all(pool).await?)
}
