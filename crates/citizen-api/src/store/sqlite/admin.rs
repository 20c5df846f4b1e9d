//! The officers' side (SQLite): the admin list's statement, candidates near an issue and
//! category changes (`admin/`). `store::sql::admin` serves the rest of `AdminStore`.

pub(super) mod duplicates;
mod one_category;

use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::list_sql::{push_near, push_order};
use super::SqliteStore;
use crate::store::admin::AdminFilter;
use crate::store::records::{reports_with_votes, REPORT_COLUMNS};
use crate::store::sql::list_filter::{self, Rows};
use crate::store::{Report, StoreResult};

/// A deadline day (`domain::issues::is_overdue`).
pub(super) const DAY_MICROS: i64 = domain::issues::DEADLINE_DAY_MICROS;

/// The admin list's reports with their votes: one page and one more (their issues are
/// read by `store::sql::admin`).
pub(super) async fn admin_report_rows(
    pool: &SqlitePool,
    filter: &AdminFilter,
) -> StoreResult<Vec<Report>> {
    let list = &filter.list;
    let mut q = QueryBuilder::<Sqlite>::new("");
    let confined = filter.confined_to_one_category();
    if let Some(category) = confined {
        one_category::push_page(&mut q, filter, category);
    }
    q.push(format!("SELECT {REPORT_COLUMNS}, r.votes_count FROM "));
    if confined.is_some() {
        let dir = super::list_sql::direction(list.order.direction);
        q.push(format!(
            "page p JOIN reports r ON r.id = p.report_id \
             ORDER BY r.inserted_at {dir}, r.id {dir}"
        ));
    } else {
        // The general walk: every report in the list's order.
        q.push("reports r WHERE TRUE");
        push_conditions(&mut q, filter);
        push_order(&mut q, list, "r", "r.inserted_at", "r.id");
    }
    reports_with_votes(&q.build().fetch_all(pool).await?)
}

/// The general list's conditions on `reports r`, after its `WHERE TRUE` (no order, no page),
/// probing a report's issues when the filter can leave it out: the list's walk, and the status
/// counts (`Dialect::push_admin_conditions`).
pub(super) fn push_conditions(q: &mut QueryBuilder<'_, Sqlite>, filter: &AdminFilter) {
    if filter.matches_issues() {
        list_filter::push_issue_match::<SqliteStore>(q, filter);
    }
    list_filter::push_report_filters::<SqliteStore>(q, &filter.list, Rows::Reports);
    push_near(q, &filter.list, "r");
}
