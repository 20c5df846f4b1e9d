//! The fragments of the list statements (PostgreSQL): the select with its vote count, the
//! filters, the location and the order; shared by the public list, the nearest walk and the
//! officers' lists.

use domain::reports::OrderBy;
use sqlx::{Postgres, QueryBuilder};

use super::{page_sql, PgStore};
use crate::store::records::LIST_COLUMNS;
pub(super) use crate::store::sql::{direction, list_filter, order_by};
use crate::store::ReportFilter;

/// `ST_MakePoint(lon, lat)` in WGS84 (a planar geometry) with bound values.
pub(super) fn push_planar_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    q.push("public.ST_SetSRID(public.ST_MakePoint(")
        .push_bind(lon)
        .push(", ")
        .push_bind(lat)
        .push("), 4326)");
}

/// `ST_MakePoint(lon, lat)::geography` with bound values.
pub(super) fn push_point(q: &mut QueryBuilder<'_, Postgres>, lon: f64, lat: f64) {
    push_planar_point(q, lon, lat);
    q.push("::public.geography");
}

/// The WHERE conditions on the report's location shared by both lists (`alias.location`).
pub(super) fn push_near(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter, alias: &str) {
    if let Some(near) = &filter.near {
        if let Some(radius) = near.radius_m {
            q.push(format!(" AND public.ST_DWithin({alias}.location, "));
            push_point(q, near.point.lon, near.point.lat);
            q.push(", ").push_bind(radius).push(")");
        }
    }
}

/// ORDER BY, LIMIT and OFFSET; `date` is the filing-time column, `id` the row's id column, and
/// the query selects `votes_count`.
pub(super) fn push_order(
    q: &mut QueryBuilder<'_, Postgres>,
    filter: &ReportFilter,
    alias: &str,
    date: &str,
    id: &str,
) {
    let dir = direction(filter.order.direction);
    match (filter.order.by, &filter.near) {
        (OrderBy::Location, Some(near)) => {
            q.push(format!(
                " ORDER BY ({alias}.location IS NULL), {alias}.location <-> "
            ));
            push_point(q, near.point.lon, near.point.lat);
            q.push(format!(" {dir}, {id} {dir}"));
        }
        (by, _) => {
            q.push(order_by(by, filter.order.direction, alias, date, id));
        }
    }
    q.push(page_sql(
        i64::from(filter.page.limit) + 1,
        i64::from(filter.page.offset),
    ));
}

/// `SELECT <list row>, votes_count FROM issues i WHERE i.status <> 'moved'`: the issue with the
/// copies of its report's columns, media (migration 0014) and vote count (0034).
pub(super) fn push_select(q: &mut QueryBuilder<'_, Postgres>) {
    push_select_with(q, |_| {});
}

/// [`push_select`] with more columns, pushed by `extra` (`<expression> AS <name>, `).
pub(super) fn push_select_with<'a>(
    q: &mut QueryBuilder<'a, Postgres>,
    extra: impl FnOnce(&mut QueryBuilder<'a, Postgres>),
) {
    q.push(format!("SELECT {LIST_COLUMNS}, "));
    extra(q);
    q.push("i.votes_count FROM issues i WHERE i.status <> 'moved'");
}

/// The public list's filters (`store/sql/list_filter.rs`) and its radius, on the issue `i`.
pub(super) fn push_list_filters(q: &mut QueryBuilder<'_, Postgres>, filter: &ReportFilter) {
    list_filter::push_list_filters::<PgStore>(q, filter);
    push_near(q, filter, "i");
}
