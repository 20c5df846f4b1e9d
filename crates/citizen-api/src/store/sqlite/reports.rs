//! The report lists (SQLite): the public list (nearest first by the widening walk) and a
//! citizen's own reports. `store::sql::reports` serves the rest of `ReportStore`.
//!
//! Without a spatial index, distances in SQL are the local plane around the search point (metres
//! per degree of the WGS84 ellipsoid at its latitude): within a city this differs from the
//! geodesic distance by well under 0.1 %, enough to order and to cut at a radius. The distance a
//! row carries is computed exactly by the service.

use domain::reports::{Direction, OrderBy};
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::list_sql::{push_near, push_order, push_select};
use super::nearest::nearest_rows;
use super::SqliteStore;
use crate::store::records::{list_row, reports_with_votes, REPORT_COLUMNS};
use crate::store::sql::list_filter::push_list_filters;
use crate::store::{IssueRow, Report, ReportFilter, StoreResult};

/// The public list's rows: one page and one more.
pub(super) async fn public_list_rows(
    pool: &SqlitePool,
    filter: &ReportFilter,
) -> StoreResult<Vec<IssueRow>> {
    match (filter.order.by, &filter.near, filter.order.direction) {
        (OrderBy::Location, Some(near), Direction::Asc) => {
            nearest_rows(pool, filter, near.point).await
        }
        _ => {
            let mut q = QueryBuilder::<Sqlite>::new("");
            push_select(&mut q, "FROM issues i");
            push_list_filters::<SqliteStore>(&mut q, filter);
            push_near(&mut q, filter, "i");
            push_order(&mut q, filter, "i", "i.report_inserted_at", "i.id");
            let rows = q.build().fetch_all(pool).await?;
            rows.iter().map(list_row).collect()
        }
    }
}

/// A citizen's own reports with their votes: one page and one more.
pub(super) async fn own_report_rows(
    pool: &SqlitePool,
    author: &str,
    filter: &ReportFilter,
) -> StoreResult<Vec<Report>> {
    let mut q = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {REPORT_COLUMNS}, r.votes_count FROM reports r WHERE r.author = "
    ));
    q.push_bind(author.to_owned());
    push_near(&mut q, filter, "r");
    push_order(&mut q, filter, "r", "r.inserted_at", "r.id");
    reports_with_votes(&q.build().fetch_all(pool).await?)
}
