//! The report lists (PostgreSQL): the public list (nearest first through the GiST index walk)
//! and a citizen's own reports. `store::sql::reports` serves the rest of `ReportStore`.

use domain::reports::{Direction, OrderBy};
use sqlx::{PgPool, Postgres, QueryBuilder};

use super::list_sql::{push_list_filters, push_near, push_order, push_select};
use super::nearest::nearest_rows;
use crate::store::records::{list_row, reports_with_votes, REPORT_COLUMNS};
use crate::store::{IssueRow, Report, ReportFilter, StoreResult};

/// The public list's rows: one page and one more.
pub(super) async fn public_list_rows(
    pool: &PgPool,
    filter: &ReportFilter,
) -> StoreResult<Vec<IssueRow>> {
    let rows = match (filter.order.by, &filter.near, filter.order.direction) {
        (OrderBy::Location, Some(near), Direction::Asc) => nearest_rows(pool, filter, near).await?,
        _ => {
            let mut q = QueryBuilder::<Postgres>::new("");
            push_select(&mut q);
            push_list_filters(&mut q, filter);
            push_order(&mut q, filter, "i", "i.report_inserted_at", "i.id");
            q.build().fetch_all(pool).await?
        }
    };
    rows.iter().map(list_row).collect()
}

/// A citizen's own reports with their votes: one page and one more.
pub(super) async fn own_report_rows(
    pool: &PgPool,
    author: &str,
    filter: &ReportFilter,
) -> StoreResult<Vec<Report>> {
    let mut q = QueryBuilder::<Postgres>::new(format!(
        "SELECT {REPORT_COLUMNS}, r.votes_count FROM reports r WHERE r.author = "
    ));
    q.push_bind(author.to_owned());
    push_near(&mut q, filter, "r");
    push_order(&mut q, filter, "r", "r.inserted_at", "r.id");
    reports_with_votes(&q.build().fetch_all(pool).await?)
}
